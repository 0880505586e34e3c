//! Through the Looking-Glass (rules.md 5): one set of men over two boards, the Real and
//! the Mirror. A man moves by FIDE rules on its own board, among the men of that board
//! only, and then passes to the same square of the other board when it is empty there.
//! There is no check: capturing the king wins. Where each rule lives:
//! - this file: the state, the moves of both boards, passing (5.2), castling (5.3,
//!   5.8a), en passant across the boards (5.4, 5.8b), the end (5.3, 5.5), as a
//!   `TurnGame` of the solver core;
//! - `setup`: reading and writing a position line (formats.md 1: `mirror`, `ep_board`,
//!   castling per board);
//! - `notation`: moves with their board (`R:e2e4`, `M:g8f6`);
//! - `help_bound`: the bound of help play (the king's capture out of reach);
//! - `last_turn`: the last turns of `#N` and `s#N` decided without playing every move.

pub mod help_bound;
pub mod key_effects;
pub mod last_turn;
pub mod notation;
pub mod referee;
pub mod setup;

use crate::bitboard::Bitboard;
use crate::generic::{End, KeyEffects, TurnGame};
use crate::geometry::{Geometry, Standard};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::{Color, Piece, Role, Square};

pub use setup::{read_line, GlassProblem};

/// One of the two boards.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Real = 0,
    Mirror = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Real, Side::Mirror];
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn other(self) -> Side {
        match self {
            Side::Real => Side::Mirror,
            Side::Mirror => Side::Real,
        }
    }
    /// The prefix of a move on this board (`R:`, `M:`).
    pub fn letter(self) -> char {
        match self {
            Side::Real => 'R',
            Side::Mirror => 'M',
        }
    }
    pub fn parse(s: &str) -> Option<Side> {
        match s {
            "R" => Some(Side::Real),
            "M" => Some(Side::Mirror),
            _ => None,
        }
    }
}

/// The state of the game. Each board is a `Position` holding its men and the castling
/// rights of the kings standing on it; both carry the side to move, and neither keeps an
/// en passant square of its own (`ep` does, for the pair).
#[derive(Copy, Clone, Debug)]
pub struct GState {
    pub boards: [Position; 2],
    pub turn: Color,
    /// The square a double step passed and the board it was played on (5.8b).
    pub ep: Option<(Square, Side)>,
    /// The king was captured: the game is over.
    pub ended: Option<End>,
}

/// A move: a FIDE move of a man on one board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GMove {
    pub side: Side,
    pub mv: Move,
}

impl GState {
    pub fn board(&self, side: Side) -> &Position {
        &self.boards[side.index()]
    }

    /// Every man of `color`, on either board.
    pub fn men(&self, color: Color) -> Bitboard {
        self.boards[0].board().by_color(color) | self.boards[1].board().by_color(color)
    }

    /// Where the king of `color` stands, if it has not been captured.
    pub fn king(&self, color: Color) -> Option<(Square, Side)> {
        Side::BOTH.into_iter().find_map(|side| {
            self.board(side)
                .board()
                .by_piece(color, Role::King)
                .first()
                .map(|sq| (sq, side))
        })
    }

    pub fn key(&self) -> u64 {
        crate::generic::hash_of(&(
            self.boards[0].hash(),
            self.boards[1].hash(),
            self.turn,
            self.ep,
            self.ended,
        ))
    }
}

/// The square of the pawn that double-stepped past `ep` (seen from the capturer,
/// `color`): one rank beyond it.
fn double_stepper(color: Color, ep: Square) -> Square {
    match color {
        Color::White => Square::from_coords(ep.file(), ep.rank() - 1),
        Color::Black => Square::from_coords(ep.file(), ep.rank() + 1),
    }
}

/// The en passant square the side to move may take on `side`'s board: the double step
/// was played there and the square is empty there (5.8b).
fn en_passant_square(s: &GState, side: Side) -> Option<Square> {
    s.ep.filter(|&(ep, ep_side)| ep_side == side && !s.board(side).board().occupied().contains(ep))
        .map(|(ep, _)| ep)
}

/// The pawns of the side to move on `side`'s board that attack `ep`.
fn en_passant_takers(s: &GState, side: Side, ep: Square) -> Bitboard {
    s.board(side).board().by_piece(s.turn, Role::Pawn) & Standard.pawn_attacks(!s.turn, ep)
}

/// The men a move put on a square, with whether each passed to the other board: the
/// moved man, or king and rook after castling.
pub type Passes = [Option<(Square, bool)>; 2];

/// The rules of Through the Looking-Glass; `attacker` begins each round of `#N`.
#[derive(Copy, Clone, Debug)]
pub struct Glass {
    pub attacker: Color,
}

impl Glass {
    /// The moves of the side to move on `side`'s board: FIDE movement among that board's
    /// men (castling needs only the right and an empty path, 5.3), and en passant where
    /// the double step was played (5.8b).
    fn moves_on(&self, s: &GState, side: Side, out: &mut Vec<GMove>) {
        let mut list = MoveList::new();
        crate::movegen::generate_pseudo(&Standard, s.board(side), &mut list);
        out.extend(list.iter().map(|&mv| GMove { side, mv }));
        if let Some(ep) = en_passant_square(s, side) {
            for from in en_passant_takers(s, side, ep) {
                out.push(GMove {
                    side,
                    mv: Move::new(Role::Pawn, from, ep, MoveKind::EnPassant),
                });
            }
        }
    }

    /// Whether the side to move has a move on either board (none: stalemate, 5.5),
    /// found without listing them.
    fn has_move(&self, s: &GState) -> bool {
        Side::BOTH.into_iter().any(|side| {
            let mut any = crate::movegen::AnyMove(false);
            crate::movegen::generate_pseudo(&Standard, s.board(side), &mut any);
            any.0
                || en_passant_square(s, side)
                    .is_some_and(|ep| en_passant_takers(s, side, ep).is_nonempty())
        })
    }

    /// Moves `sq`'s man of `side` to the other board if that square is empty there
    /// (5.2). Returns whether it passed.
    fn pass_through(s: &mut GState, side: Side, sq: Square) -> bool {
        let other = side.other();
        if s.board(other).board().occupied().contains(sq) {
            return false;
        }
        if let Some(piece) = s.boards[side.index()].remove_piece(sq) {
            s.boards[other.index()].place_piece(sq, piece);
            return true;
        }
        false
    }

    /// Plays `m` and reports which of the men it put on a square passed.
    pub fn play_reporting(&self, s: &GState, m: GMove) -> (GState, Passes) {
        let mut next = *s;
        let mover = s.turn;
        let side = m.side;
        let mv = m.mv;
        let geo = &Standard;
        let captured: Option<Piece> = if mv.kind == MoveKind::EnPassant {
            let victim = double_stepper(mover, mv.to);
            let b = &mut next.boards[side.index()];
            let pawn = b.remove_piece(mv.from);
            let here = b.board().piece_at(victim) == Some(Piece::new(!mover, Role::Pawn));
            let taken = if here {
                b.remove_piece(victim)
            } else {
                next.boards[side.other().index()].remove_piece(victim)
            };
            if let Some(p) = pawn {
                next.boards[side.index()].place_piece(mv.to, p);
            }
            taken
        } else if mv.kind == MoveKind::Castle {
            next.boards[side.index()].play_board(geo, mv);
            None
        } else {
            next.boards[side.index()]
                .play_board(geo, mv)
                .map(|(_, p)| p)
        };
        // Both boards: the other side to move, no en passant square of their own.
        for b in &mut next.boards {
            if b.turn() == mover {
                b.pass();
            } else if b.ep_square().is_some() {
                b.set_ep(None);
            }
        }
        next.turn = !mover;
        next.ep = (mv.kind == MoveKind::DoublePush).then(|| {
            (
                Square::from_coords(mv.from.file(), (mv.from.rank() + mv.to.rank()) / 2),
                side,
            )
        });
        let arrivals = if mv.kind == MoveKind::Castle {
            [Some(mv.castle_king_to()), Some(mv.castle_rook_to())]
        } else {
            [Some(mv.to), None]
        };
        let passed = arrivals.map(|a| a.map(|sq| (sq, Glass::pass_through(&mut next, side, sq))));
        if captured.is_some_and(|p| p.role == Role::King) {
            next.ended = Some(End::Win(mover));
        }
        (next, passed)
    }
}

impl TurnGame for Glass {
    type State = GState;
    type Move = GMove;

    fn mover(&self, s: &GState) -> Color {
        s.turn
    }

    fn moves(&self, s: &GState) -> Vec<GMove> {
        if s.ended.is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for side in Side::BOTH {
            self.moves_on(s, side, &mut out);
        }
        out
    }

    fn play(&self, s: &GState, m: GMove) -> GState {
        self.play_reporting(s, m).0
    }

    /// The king captured (5.3), or no move on either board: stalemate (5.5).
    fn end(&self, s: &GState) -> Option<End> {
        if s.ended.is_some() {
            return s.ended;
        }
        (!self.has_move(s)).then_some(End::Draw)
    }

    /// The moves that take the other king (rule 5.3): a capture on its square, on its
    /// board (castling takes nothing).
    fn winning_moves(&self, s: &GState) -> Option<Vec<GMove>> {
        let king = s.king(!s.turn);
        Some(
            self.moves(s)
                .into_iter()
                .filter(|m| last_turn::takes(m, king))
                .collect(),
        )
    }

    /// A move that takes no king (`last_turn`).
    fn quiet_move(&self, s: &GState) -> Option<GMove> {
        last_turn::quiet_move(self, s)
    }

    /// The moves that touch every reply taking no king (`last_turn`).
    fn self_mate_candidates(&self, s: &GState) -> Option<Vec<GMove>> {
        last_turn::self_mate_candidates(self, s)
    }

    /// The king's capture out of reach (`help_bound`).
    fn help_hopeless(&self, s: &GState, winner: Color, turns: u32) -> bool {
        help_bound::capture_out_of_reach(s, winner, turns)
    }

    /// Every move is one sequence: nothing completes a turn here.
    fn count_leaves(&self, s: &GState) -> u64 {
        self.moves(s).len() as u64
    }

    fn new_round(&self, _before: &GState, after: &GState) -> bool {
        after.turn == self.attacker
    }

    fn other_side_to_move(&self, s: &GState) -> Option<GState> {
        let mut next = *s;
        for b in &mut next.boards {
            b.pass();
        }
        next.turn = !s.turn;
        next.ep = None;
        Some(next)
    }

    fn key(&self, s: &GState) -> u64 {
        s.key()
    }

    fn coord(&self, _s: &GState, m: GMove) -> String {
        notation::coord(m)
    }

    fn notation(&self, s: &GState, m: GMove) -> String {
        notation::notation(self, s, m)
    }

    fn key_effects(&self, s: &GState, key: GMove) -> Option<KeyEffects> {
        Some(key_effects::key_effects(self, s, key))
    }
}

/// Perft of a position line (rules.md 7.1), for tests and tools.
pub fn perft_line(line: &str, depth: u32) -> Result<u64, String> {
    let p = read_line(line)?;
    let game = Glass {
        attacker: p.state.turn,
    };
    Ok(crate::generic::perft::perft(&game, &p.state, depth))
}

/// `perft_line` split by the first move.
pub fn divide_line(line: &str, depth: u32) -> Result<Vec<(String, u64)>, String> {
    let p = read_line(line)?;
    let game = Glass {
        attacker: p.state.turn,
    };
    Ok(crate::generic::perft::divide(&game, &p.state, depth))
}
