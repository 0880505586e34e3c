//! Moves and their coordinate notation (formats.md section 2: `e2e4`, `e7e8q`, castling
//! as the king's move, king-takes-rook in Chess960 positions).

use crate::board::Board;
use crate::types::{Role, Square};
use std::fmt;
use std::mem::MaybeUninit;

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    Normal,
    /// A pawn's two-square advance; it may create an en passant right.
    DoublePush,
    EnPassant,
    /// `to` is the square of the castling rook (king takes own rook internally).
    Castle,
    Promotion(Role),
    /// An Earthquake aftershock (rules.md 3.7): the lower half moves to this dx. No
    /// piece moves; `from`, `to` and `role` carry no meaning.
    Aftershock(i8),
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub role: Role,
    pub kind: MoveKind,
}

impl Move {
    #[inline(always)]
    pub fn new(role: Role, from: Square, to: Square, kind: MoveKind) -> Move {
        Move {
            from,
            to,
            role,
            kind,
        }
    }

    pub fn promotion(self) -> Option<Role> {
        match self.kind {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }

    pub fn is_castle(self) -> bool {
        self.kind == MoveKind::Castle
    }

    /// Whether the move takes a man on `board`, the board it is played on: en passant
    /// always; castling (written king takes own rook) and an aftershock never.
    pub fn takes(self, board: &Board) -> bool {
        match self.kind {
            MoveKind::EnPassant => true,
            MoveKind::Castle | MoveKind::Aftershock(_) => false,
            _ => board.occupied().contains(self.to),
        }
    }

    /// An aftershock to `dx`.
    pub fn aftershock(dx: i8) -> Move {
        Move::new(Role::King, Square::A1, Square::A1, MoveKind::Aftershock(dx))
    }

    pub fn is_aftershock(self) -> bool {
        matches!(self.kind, MoveKind::Aftershock(_))
    }

    /// Where the king ends up after castling (g- or c-file of its rank).
    pub fn castle_king_to(self) -> Square {
        let file = if self.to.file() > self.from.file() {
            6
        } else {
            2
        };
        Square::from_coords(file, self.from.rank())
    }

    /// Where the rook ends up after castling (f- or d-file of its rank).
    pub fn castle_rook_to(self) -> Square {
        let file = if self.to.file() > self.from.file() {
            5
        } else {
            3
        };
        Square::from_coords(file, self.from.rank())
    }

    /// Coordinate notation. Castling is written as the king's move to its destination,
    /// or as king-takes-rook when `chess960` is set.
    pub fn coord(self, chess960: bool) -> Coord {
        Coord { mv: self, chess960 }
    }
}

/// Display adapter for coordinate notation.
pub struct Coord {
    mv: Move,
    chess960: bool,
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mv = self.mv;
        if let MoveKind::Aftershock(dx) = mv.kind {
            return write!(f, "~{dx}");
        }
        let to = if mv.is_castle() && !self.chess960 {
            mv.castle_king_to()
        } else {
            mv.to
        };
        write!(f, "{}{}", mv.from, to)?;
        if let Some(r) = mv.promotion() {
            write!(f, "{}", r.char())?;
        }
        Ok(())
    }
}

/// A fixed-capacity list of moves (no position has more than 218 legal moves).
pub struct MoveList {
    moves: [MaybeUninit<Move>; 256],
    len: usize,
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            // Left uninitialised: filling 1 KiB per node is measurable in the solver.
            moves: [const { MaybeUninit::uninit() }; 256],
            len: 0,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        // A legal position never has 256 moves; the check keeps a broken one safe.
        if self.len < 256 {
            self.moves[self.len] = MaybeUninit::new(mv);
            self.len += 1;
        }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` elements were written by `push` (or moved within that
        // prefix by `retain`), and MaybeUninit<Move> has Move's layout.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as for `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut Move, self.len) }
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let mv = self.as_slice()[i];
            if keep(&mv) {
                self.moves[j] = MaybeUninit::new(mv);
                j += 1;
            }
        }
        self.len = j;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}
