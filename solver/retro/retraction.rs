//! Retractions: moves taken back (rules.md 6.1). A retraction names the move as it was
//! played forward (with the man it captured, now put back) and turns a position into
//! the one before that move. Whether the earlier position could have stood on the board
//! is the business of `soundness` and `history`; here only the board's geometry (through
//! `RetroGame`, so every single-board game is served), the way each kind of move changes
//! the placement, and under Taxi the cash it moved, are known.

use super::game::{capturable, RetroGame};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::geometry::{Geometry, Shifting, Terrain};
use crate::types::{Color, Piece, Role, Square};
use std::fmt;

/// What a position says about an aftershock just played (rules.md 3.7): a diagram
/// states it (the dx that may not be restored is the one the last move left); an
/// earlier position of a history leaves it open, except that its last move cannot have
/// been an aftershock the next move undid.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LastShock {
    /// The last move was an aftershock from this dx (`Some`), or was not one (`None`).
    Stated(Option<i8>),
    /// Any last move; an aftershock only from another dx than `barred`.
    Open { barred: Option<i8> },
}

/// A position as retro-analysis sees it: placement, side to move, the castling rights
/// that are asserted (their king and rooks never moved), an en passant square that
/// asserts the last move was that pawn's double step, and the variant state a history
/// changes: Taxi cash (rules.md 2, zero without Taxi) and the aftershock state (the
/// lower half's dx and the uses left; zero without aftershocks).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RetroPosition {
    pub board: Board,
    pub turn: Color,
    pub castling: Bitboard,
    pub ep: Option<Square>,
    pub cash: [u16; 2],
    pub dx: i8,
    pub shocks: [u8; 2],
    pub last_shock: LastShock,
}

/// A move taken back. `role` is the moving man's role before the move (a pawn for a
/// promotion); `captured` is the man the move took, put back by the retraction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Retraction {
    pub mover: Color,
    pub role: Role,
    pub from: Square,
    pub to: Square,
    pub promoted: Option<Role>,
    pub captured: Option<Role>,
    /// En passant: the square of the pawn taken.
    pub en_passant: Option<Square>,
    /// Castling: the rook's squares before and after.
    pub castle: Option<(Square, Square)>,
    /// An aftershock (rules.md 3.7): the lower half's dx before and after it. No man
    /// moved; `role`, `from` and `to` mean nothing.
    pub shock: Option<(i8, i8)>,
}

impl Retraction {
    /// A move of one man from `from` to `to` that captures and promotes nothing.
    pub fn plain(mover: Color, role: Role, from: Square, to: Square) -> Retraction {
        Retraction {
            mover,
            role,
            from,
            to,
            promoted: None,
            captured: None,
            en_passant: None,
            castle: None,
            shock: None,
        }
    }

    /// The man standing on `to` after the move.
    pub fn arrived(&self) -> Role {
        self.promoted.unwrap_or(self.role)
    }

    /// The squares men arrived on by the move: none for an aftershock, two for castling.
    pub fn arrivals(&self) -> Vec<Square> {
        match (self.shock, self.castle) {
            (Some(_), _) => Vec::new(),
            (None, Some((_, rook_to))) => vec![self.to, rook_to],
            (None, None) => vec![self.to],
        }
    }

    /// The squares men left by the move (before it), and the captured man's square.
    pub fn departures(&self) -> Vec<Square> {
        if self.shock.is_some() {
            return Vec::new();
        }
        let mut left = vec![self.from];
        if let Some((rook_from, _)) = self.castle {
            left.push(rook_from);
        }
        if self.captured.is_some() {
            left.push(self.en_passant.unwrap_or(self.to));
        }
        left
    }

    /// Squares the move crossed or used, besides `from` and `to`: a ride's path, the
    /// square a double step passed, castling's paths, on `geo` (the board the move was
    /// played on). Nothing may have stood on them while the move was played.
    pub fn path<G: Geometry>(&self, geo: &G) -> Bitboard {
        if self.shock.is_some() {
            return Bitboard::EMPTY;
        }
        let mut path = Bitboard::from_square(self.from).with(self.to);
        if matches!(self.role, Role::Bishop | Role::Rook | Role::Queen) {
            path |= geo.between(self.from, self.to);
        }
        if self.role == Role::Pawn && self.captured.is_none() {
            // The cell a double step passed (a single step's is `to` itself).
            path |= geo.pawn_step(self.mover, self.from);
        }
        if let Some((rook_from, rook_to)) = self.castle {
            path |= Bitboard::from_square(rook_from).with(rook_to)
                | named_between(self.from, self.to)
                | named_between(rook_from, rook_to);
        }
        if let Some(victim) = self.en_passant {
            path = path.with(victim);
        }
        path
    }

    /// Coordinate notation of the forward move (formats.md 2): `e2e4`, `e7e8q`, castling
    /// as the king's move, an aftershock as `~DX`.
    pub fn coord(&self) -> String {
        if let Some((_, after)) = self.shock {
            return format!("~{after}");
        }
        let promo = self
            .promoted
            .map(|r| r.char().to_string())
            .unwrap_or_default();
        format!("{}{}{promo}", self.from, self.to)
    }
}

/// Squares strictly between two squares of one rank, by name (castling, rules.md 3.6).
fn named_between(a: Square, b: Square) -> Bitboard {
    let (lo, hi) = (a.file().min(b.file()), a.file().max(b.file()));
    ((lo + 1)..hi).fold(Bitboard::EMPTY, |bb, f| {
        bb.with(Square::from_coords(f, a.rank()))
    })
}

/// Long notation of the forward move with the captured man named: `Bf1xNc4`, `d7-d5`,
/// `e5xd6 e.p.`, `b7xRa8=Q`, `O-O`, `~3`.
impl fmt::Display for Retraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((_, after)) = self.shock {
            return write!(f, "~{after}");
        }
        if let Some((rook_from, _)) = self.castle {
            return f.write_str(if rook_from.file() == 7 {
                "O-O"
            } else {
                "O-O-O"
            });
        }
        if self.role != Role::Pawn {
            write!(f, "{}", self.role.upper())?;
        }
        write!(f, "{}", self.from)?;
        match self.captured {
            Some(_) if self.en_passant.is_some() => write!(f, "x{} e.p.", self.to)?,
            Some(role) => write!(f, "x{}{}", role.upper(), self.to)?,
            None => write!(f, "-{}", self.to)?,
        }
        if let Some(p) = self.promoted {
            write!(f, "={}", p.upper())?;
        }
        Ok(())
    }
}

/// The king and rook of an asserted castling right never moved: they are frozen.
pub fn frozen(pos: &RetroPosition, color: Color) -> Bitboard {
    let rooks = pos.castling & Bitboard::rank(color.fold(0, 7));
    if rooks.is_empty() {
        return Bitboard::EMPTY;
    }
    let king = pos
        .board
        .king(color)
        .map(Bitboard::from_square)
        .unwrap_or_default();
    rooks | king
}

impl<T: Terrain> RetroGame<T> {
    /// Every retraction of the side that just moved (`!pos.turn`) that the placement
    /// allows on the board in force: the squares it comes back to exist and are empty
    /// (`blockers` adds squares held by men the board does not show), a ride's path is
    /// clear, pawns move physically backwards, captured men are put back, castling, en
    /// passant and aftershocks are undone. An en passant square in `pos` admits only the
    /// double step it records, a stated aftershock only itself. Whether the earlier
    /// position is sound is not checked here.
    pub fn retractions(&self, pos: &RetroPosition, blockers: Bitboard, out: &mut Vec<Retraction>) {
        let geo = self.geo(pos.dx);
        let mover = !pos.turn;
        let board = &pos.board;
        let occupied = board.occupied() | blockers;
        let empty = geo.squares() - occupied;
        let step_back = |sq: Square| geo.pawn_step(!mover, sq).first();
        let with_captures = |r: Retraction, out: &mut Vec<Retraction>| {
            for &role in capturable(self, !mover, r.to) {
                out.push(Retraction {
                    captured: Some(role),
                    ..r
                });
            }
        };

        match pos.last_shock {
            LastShock::Stated(Some(before)) => {
                self.unshock(pos, before, blockers, out);
                return;
            }
            LastShock::Open { barred } if self.shifts() => {
                for before in Shifting::MIN_DX..=Shifting::MAX_DX {
                    if Some(before) != barred {
                        self.unshock(pos, before, blockers, out);
                    }
                }
            }
            _ => {}
        }

        if let Some(ep) = pos.ep {
            // The last move was the double step over `ep`, and nothing else.
            let (Some(to), Some(from)) = (geo.pawn_step(mover, ep).first(), step_back(ep)) else {
                return;
            };
            if board.piece_at(to) == Some(Piece::new(mover, Role::Pawn))
                && empty.contains(ep)
                && empty.contains(from)
                && from.relative_rank(mover) == 1
            {
                out.push(Retraction::plain(mover, Role::Pawn, from, to));
            }
            return;
        }

        let frozen = frozen(pos, mover);
        for (to, piece) in board.pieces() {
            if piece.color != mover || frozen.contains(to) {
                continue;
            }
            match piece.role {
                Role::Pawn => {
                    if let Some(back) = step_back(to).filter(|&b| empty.contains(b)) {
                        if self.pawn_may_stand(mover, back) {
                            out.push(Retraction::plain(mover, Role::Pawn, back, to));
                        }
                        if let Some(start) = step_back(back) {
                            if empty.contains(start) && start.relative_rank(mover) == 1 {
                                out.push(Retraction::plain(mover, Role::Pawn, start, to));
                            }
                        }
                    }
                    for from in geo.pawn_attacks(!mover, to) & empty {
                        if !self.pawn_may_stand(mover, from) {
                            continue;
                        }
                        with_captures(Retraction::plain(mover, Role::Pawn, from, to), out);
                        // En passant: the taken pawn had just passed `to`, from the
                        // square beyond it (its second rank) to the one before it.
                        let victim = geo.pawn_step(!mover, to).first();
                        let origin = geo.pawn_step(mover, to).first();
                        if let (Some(victim), Some(origin)) = (victim, origin) {
                            if empty.contains(victim)
                                && empty.contains(origin)
                                && origin.relative_rank(!mover) == 1
                            {
                                out.push(Retraction {
                                    captured: Some(Role::Pawn),
                                    en_passant: Some(victim),
                                    ..Retraction::plain(mover, Role::Pawn, from, to)
                                });
                            }
                        }
                    }
                }
                role => {
                    if to.relative_rank(mover) == 7 && role != Role::King {
                        // A promotion taken back: the pawn returns behind the square.
                        let promoted = |from| Retraction {
                            promoted: Some(role),
                            ..Retraction::plain(mover, Role::Pawn, from, to)
                        };
                        if let Some(back) = step_back(to) {
                            if empty.contains(back) && self.pawn_may_stand(mover, back) {
                                out.push(promoted(back));
                            }
                        }
                        for from in geo.pawn_attacks(!mover, to) & empty {
                            if self.pawn_may_stand(mover, from) {
                                with_captures(promoted(from), out);
                            }
                        }
                    }
                    let sources =
                        crate::attacks::piece_attacks(geo, role, mover, to, occupied) & empty;
                    for from in sources {
                        let r = Retraction::plain(mover, role, from, to);
                        out.push(r);
                        with_captures(r, out);
                    }
                    if role == Role::King {
                        self.uncastle(pos, to, empty, out);
                    }
                }
            }
        }
    }

    /// An aftershock from `before` to the current dx taken back: every man (and every
    /// man that fell later, in `blockers`) stood on a square of the earlier board.
    fn unshock(
        &self,
        pos: &RetroPosition,
        before: i8,
        blockers: Bitboard,
        out: &mut Vec<Retraction>,
    ) {
        let Some(earlier) = self.terrain.shifted(before) else {
            return;
        };
        if before == pos.dx
            || pos.ep.is_some()
            || !((pos.board.occupied() | blockers) - earlier.squares()).is_empty()
        {
            return;
        }
        out.push(Retraction {
            shock: Some((before, pos.dx)),
            ..Retraction::plain(!pos.turn, Role::King, Square::A1, Square::A1)
        });
    }

    /// Castling taken back (standard set-up only, on the named squares of the back rank,
    /// rules.md 3.6): the king on g1 or c1 with the rook beside it returns to e1 and the
    /// corner. The king may not have been in check or crossed an attacked square (an
    /// affordable attack under Taxi); the right was in force before the move.
    fn uncastle(
        &self,
        pos: &RetroPosition,
        king_to: Square,
        empty: Bitboard,
        out: &mut Vec<Retraction>,
    ) {
        let mover = !pos.turn;
        let back = mover.fold(0, 7);
        if king_to.rank() != back {
            return;
        }
        let sq = |file| Square::from_coords(file, back);
        let (rook_from, rook_to, crossed) = match king_to.file() {
            6 => (sq(7), sq(5), sq(5)),
            2 => (sq(0), sq(3), sq(3)),
            _ => return,
        };
        let king_from = sq(4);
        let rook = Piece::new(mover, Role::Rook);
        let mut clear = Bitboard::from_square(king_from).with(rook_from);
        if rook_from.file() == 0 {
            clear = clear.with(sq(1));
        }
        if pos.board.piece_at(rook_to) != Some(rook) || !(clear - empty).is_empty() {
            return;
        }
        let r = Retraction {
            castle: Some((rook_from, rook_to)),
            ..Retraction::plain(mover, Role::King, king_from, king_to)
        };
        let Some(before) = self.unplay(pos, &r) else {
            return;
        };
        if self.attacked(&before, king_from, !mover) || self.attacked(&before, crossed, !mover) {
            return;
        }
        out.push(r);
    }

    /// The position before the retracted move: the mover to move, the captured man
    /// back, castling's right restored, the en passant square an en passant capture
    /// needed, the earlier dx of an aftershock, and under Taxi the price given back and
    /// the other side's income taken back. None when that cash cannot have been held:
    /// the other side below zero, or the mover below the income it had just received.
    pub fn unplay(&self, pos: &RetroPosition, r: &Retraction) -> Option<RetroPosition> {
        let mut board = pos.board;
        let mover = r.mover;
        let mut castling = pos.castling;
        let mut dx = pos.dx;
        let mut shocks = pos.shocks;
        let mut barred = None;
        if let Some((before, after)) = r.shock {
            dx = before;
            shocks[mover.index()] = shocks[mover.index()].checked_add(1)?;
            // The move before cannot have been an aftershock this one undid.
            barred = Some(after);
        } else if let Some((rook_from, rook_to)) = r.castle {
            board = uncastled_board(&board, mover, r.to, r.from, rook_from, rook_to);
            castling = castling.with(rook_from);
        } else {
            board.take(r.to, Piece::new(mover, r.arrived()));
            board.put(r.from, Piece::new(mover, r.role));
            if let Some(role) = r.captured {
                board.put(r.en_passant.unwrap_or(r.to), Piece::new(!mover, role));
            }
        }
        let mut before = RetroPosition {
            board,
            turn: mover,
            castling,
            ep: r.en_passant.map(|_| r.to),
            cash: pos.cash,
            dx,
            shocks,
            last_shock: LastShock::Open { barred },
        };
        if let Some(taxi) = &self.taxi {
            let price = self.price(&before, r);
            let paid = pos.cash[mover.index()] as u32 + price;
            let other = (pos.cash[(!mover).index()] as u32).checked_sub(taxi.income)?;
            if paid < taxi.income {
                return None;
            }
            before.cash[mover.index()] = u16::try_from(paid).ok()?;
            before.cash[(!mover).index()] = other as u16;
        }
        Some(before)
    }

    /// The Taxi price of the retracted move, played in `before` (rules.md 2.1).
    fn price(&self, before: &RetroPosition, r: &Retraction) -> u32 {
        use crate::moves::{Move, MoveKind};
        let geo = self.geo(before.dx);
        let kind = if r.shock.is_some() {
            return 0;
        } else if r.castle.is_some() {
            MoveKind::Castle
        } else if r.en_passant.is_some() {
            MoveKind::EnPassant
        } else if let Some(role) = r.promoted {
            MoveKind::Promotion(role)
        } else {
            MoveKind::Normal
        };
        crate::taxi::cost(geo, &before.board, Move::new(r.role, r.from, r.to, kind))
    }
}

fn uncastled_board(
    board: &Board,
    mover: Color,
    king_to: Square,
    king_from: Square,
    rook_from: Square,
    rook_to: Square,
) -> Board {
    let mut b = *board;
    b.take(king_to, Piece::new(mover, Role::King));
    b.take(rook_to, Piece::new(mover, Role::Rook));
    b.put(king_from, Piece::new(mover, Role::King));
    b.put(rook_from, Piece::new(mover, Role::Rook));
    b
}
