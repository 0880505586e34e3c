//! An independent oracle for Trapdoor with timer 1 and the default order of events
//! (rules.md 1.5, mate first), built on shakmaty's FIDE moves: a man that arrives ticks,
//! the men of the mover that ticked and stayed fall at the end of its move unless the
//! move mates, and a move whose falls expose the mover's king is illegal. It shares
//! nothing with the solver's Trapdoor code, so the composer's qualities judged under
//! Trapdoor (a quiet key, a model mate) can be checked against it.
//!
//! With timer 1 every ticking man falls at the end of its owner's next move, so a side's
//! ticking men are one set of squares. Step 1.5b asks whether the opponent is mated in
//! P, which asks the same of each checking reply one level down; the chain is followed
//! to `DEPTH` levels, as RULES.md ("Mate first, recursively") reads it.

use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, Position, PositionError,
};

/// Levels of step 1.5b followed (RULES.md: 32; no test position comes near).
const DEPTH: u32 = 32;

/// A position with each side's ticking men (index 0 White, 1 Black).
#[derive(Clone, Debug)]
pub struct Trapdoor {
    pub pos: Chess,
    pub ticking: [Bitboard; 2],
}

/// What a legal move brings about.
#[derive(Clone, Debug)]
pub enum Played {
    /// The move mates in P (step 1.5b): nothing falls, the game ends in P.
    Mates(Trapdoor),
    /// The mover's own king fell (1.5c): a legal move that loses.
    KingFell,
    /// The game goes on from P' (1.5e).
    Goes(Trapdoor),
}

fn index(c: Color) -> usize {
    if c.is_white() {
        0
    } else {
        1
    }
}

/// The squares men arrive on with `m` (king and rook when castling).
fn arrivals(m: &Move, turn: Color) -> Bitboard {
    match m.castling_side() {
        Some(side) => Bitboard::from_square(side.king_to(turn)) | side.rook_to(turn),
        None => Bitboard::from_square(m.to()),
    }
}

/// The squares men leave with `m`.
fn departures(m: &Move) -> Bitboard {
    match *m {
        Move::Castle { king, rook } => Bitboard::from_square(king) | rook,
        _ => m.from().map_or(Bitboard::EMPTY, Bitboard::from_square),
    }
}

/// The square of the man `m` captures, if any.
fn captured(m: &Move) -> Bitboard {
    match *m {
        Move::EnPassant { from, to } => {
            Bitboard::from_square(shakmaty::Square::from_coords(to.file(), from.rank()))
        }
        Move::Normal {
            capture: Some(_),
            to,
            ..
        } => Bitboard::from_square(to),
        _ => Bitboard::EMPTY,
    }
}

/// A shakmaty position from `setup`, its castling rights and en passant square left out
/// where they no longer fit (a rook fell) and any check allowed.
fn position(setup: shakmaty::Setup) -> Option<Chess> {
    Chess::from_setup(setup, CastlingMode::Chess960)
        .or_else(PositionError::ignore_invalid_castling_rights)
        .or_else(PositionError::ignore_invalid_ep_square)
        .or_else(PositionError::ignore_impossible_check)
        .ok()
}

impl Trapdoor {
    /// A diagram without timers: every man safe (1.4).
    pub fn new(pos: Chess) -> Trapdoor {
        Trapdoor {
            pos,
            ticking: [Bitboard::EMPTY; 2],
        }
    }

    /// The side to move's king is attacked.
    pub fn in_check(&self) -> bool {
        self.pos.is_check()
    }

    /// Checkmated: in check with no legal move (1.5e).
    pub fn checkmated(&self) -> bool {
        self.checkmated_within(DEPTH)
    }

    fn checkmated_within(&self, depth: u32) -> bool {
        self.in_check() && self.legal_within(depth).is_empty()
    }

    /// The legal moves with what each brings about.
    pub fn legal(&self) -> Vec<(Move, Played)> {
        self.legal_within(DEPTH)
    }

    fn legal_within(&self, depth: u32) -> Vec<(Move, Played)> {
        self.pos
            .legal_moves()
            .into_iter()
            .filter_map(|m| Some((m, self.play_within(&m, depth)?)))
            .collect()
    }

    /// `m` (a FIDE-legal move: step 1.5a) played by the order of events; `None` when its
    /// falls expose the mover's king (1.5d).
    pub fn play(&self, m: &Move) -> Option<Played> {
        self.play_within(m, DEPTH)
    }

    fn play_within(&self, m: &Move, depth: u32) -> Option<Played> {
        let us = self.pos.turn();
        let mut p = self.pos.clone();
        p.play_unchecked(*m);
        // The mover's men that ticked and stayed fall at the end of this move; the men
        // that arrived tick from now (1.1, 1.2); a man taken is gone with its timer (1.3).
        let falls = self.ticking[index(us)] & !departures(m);
        let mut ticking = self.ticking;
        ticking[index(!us)] &= !captured(m);
        ticking[index(us)] = arrivals(m, us) | falls;
        let in_p = Trapdoor {
            pos: p.clone(),
            ticking,
        };
        if depth == 0 {
            // Past the levels followed: such a reply counts as illegal (RULES.md).
            return None;
        }
        if in_p.checkmated_within(depth - 1) {
            return Some(Played::Mates(in_p));
        }
        ticking[index(us)] = arrivals(m, us);
        if falls.is_empty() {
            return Some(Played::Goes(Trapdoor { pos: p, ticking }));
        }
        // The en passant right as the move left it: a fall may unpin its capturer.
        let mut setup = p.to_setup(EnPassantMode::Always);
        for sq in falls {
            setup.board.discard_piece_at(sq);
        }
        let Some(king) = setup.board.king_of(us) else {
            return Some(Played::KingFell);
        };
        if setup
            .board
            .attacks_to(king, !us, setup.board.occupied())
            .any()
        {
            return None;
        }
        Some(Played::Goes(Trapdoor {
            pos: position(setup)?,
            ticking,
        }))
    }

    /// The position without the man on `sq` (and its timer); `None` where shakmaty
    /// takes it for no position.
    pub fn without(&self, sq: shakmaty::Square) -> Option<Trapdoor> {
        let mut setup = self.pos.to_setup(EnPassantMode::Legal);
        setup.board.discard_piece_at(sq);
        let mut ticking = self.ticking;
        for t in &mut ticking {
            *t &= !Bitboard::from_square(sq);
        }
        Some(Trapdoor {
            pos: position(setup)?,
            ticking,
        })
    }

    /// The same men and timers with the other side to move (passing is no move:
    /// nothing ticks or falls); `None` where shakmaty takes it for no position (the side
    /// that moved in check).
    pub fn passed(&self) -> Option<Trapdoor> {
        let mut setup = self.pos.to_setup(EnPassantMode::Legal);
        setup.turn = !setup.turn;
        setup.ep_square = None;
        Some(Trapdoor {
            pos: position(setup)?,
            ticking: self.ticking,
        })
    }

    /// The squares the king of the side to move can step to (castling left out).
    pub fn king_steps(&self) -> Bitboard {
        let Some(king) = self.pos.board().king_of(self.pos.turn()) else {
            return Bitboard::EMPTY;
        };
        self.legal()
            .into_iter()
            .filter(|(m, _)| m.from() == Some(king) && !m.is_castle())
            .fold(Bitboard::EMPTY, |b, (m, _)| b | m.to())
    }
}
