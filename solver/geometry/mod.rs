//! Geometry: which squares exist and where a step, a leap or a ride leads.
//!
//! The move generator and every rules module ask a `Geometry` for movement and never
//! compute it themselves, so that a displaced board (rules.md section 3) is a different
//! geometry, not different rules. The standard board is `Standard`, a zero-sized type
//! whose tables are built at compile time; generic code is monomorphised for it.

mod earthquake;
mod standard;

pub use earthquake::{Earthquake, VoidRule};
pub use standard::Standard;

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

/// A knight's leaps as (file, rank) steps, for the geometries' tables.
pub(crate) const KNIGHT_LEAPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

pub trait Geometry: Sync {
    /// The squares that exist on this board.
    fn squares(&self) -> Bitboard;
    fn knight_attacks(&self, sq: Square) -> Bitboard;
    fn king_attacks(&self, sq: Square) -> Bitboard;
    /// Squares a pawn of `color` on `sq` attacks (diagonally forward, physically).
    fn pawn_attacks(&self, color: Color, sq: Square) -> Bitboard;
    /// The square physically in front of a pawn of `color` on `sq` (empty if none).
    fn pawn_step(&self, color: Color, sq: Square) -> Bitboard;
    fn rook_attacks(&self, sq: Square, occupied: Bitboard) -> Bitboard;
    fn bishop_attacks(&self, sq: Square, occupied: Bitboard) -> Bitboard;
    /// Squares strictly between `a` and `b` when a rider can go from one to the other
    /// over empty squares; empty otherwise.
    fn between(&self, a: Square, b: Square) -> Bitboard;
    /// The whole line of a ride through `a` and `b` (both included), empty when no rider
    /// move connects them. Used to keep a pinned piece on its pin line.
    fn line(&self, a: Square, b: Square) -> Bitboard;
    /// Squares a rider travels from `a` to `b` on an empty board (the move's length).
    fn ride_length(&self, a: Square, b: Square) -> u32;
    /// The longest ride on this board (a bound for Taxi prices).
    fn longest_ride(&self) -> u32;
    /// Of the squares a rider (or a king, or a pawn's step) can travel to from `from`,
    /// those no more than `length` squares away: what a Taxi budget of `length` pays
    /// for. Squares no ride reaches may be in or out.
    fn rides_within(&self, from: Square, length: u32) -> Bitboard {
        self.squares()
            .filter(|&to| self.ride_length(from, to) <= length)
            .fold(Bitboard::EMPTY, |b, to| b.with(to))
    }

    #[inline(always)]
    fn queen_attacks(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        self.rook_attacks(sq, occupied) | self.bishop_attacks(sq, occupied)
    }
}

/// The board a game is played on: which geometry is in force in a position. Fixed for
/// the standard and an Earthquake board; with aftershocks (rules.md 3.7) the lower half's
/// dx is part of the position and the geometry follows it.
pub trait Terrain: Sync + Send + Clone + std::fmt::Debug {
    type Geo: Geometry;
    /// The geometry in force in `pos`.
    fn at(&self, pos: &crate::position::Position) -> &Self::Geo;
    /// The geometry after an aftershock to `dx` (None on a terrain that cannot shift).
    fn shifted(&self, _dx: i8) -> Option<&Self::Geo> {
        None
    }
    /// Whether aftershocks can change the geometry during a game.
    fn shifts(&self) -> bool {
        false
    }
    /// The geometry of every position, when it never changes.
    fn fixed(&self) -> Option<&Self::Geo>;
}

impl Terrain for Standard {
    type Geo = Standard;
    #[inline(always)]
    fn at(&self, _: &crate::position::Position) -> &Standard {
        self
    }
    fn fixed(&self) -> Option<&Standard> {
        Some(self)
    }
}

impl Terrain for Earthquake {
    type Geo = Earthquake;
    #[inline(always)]
    fn at(&self, _: &crate::position::Position) -> &Earthquake {
        self
    }
    fn fixed(&self) -> Option<&Earthquake> {
        Some(self)
    }
}

/// An Earthquake board with aftershocks: one geometry for every dx in -8..=8 (dy and the
/// void rule fixed), chosen by the position's current dx.
#[derive(Clone, Debug)]
pub struct Shifting {
    boards: Vec<Earthquake>,
}

impl Shifting {
    pub const MIN_DX: i8 = -8;
    pub const MAX_DX: i8 = 8;

    pub fn new(dy: i32, void: VoidRule) -> Shifting {
        Shifting {
            boards: (Self::MIN_DX..=Self::MAX_DX)
                .map(|dx| Earthquake::new(dx as i32, dy, void))
                .collect(),
        }
    }

    pub fn board(&self, dx: i8) -> &Earthquake {
        &self.boards[(dx.clamp(Self::MIN_DX, Self::MAX_DX) - Self::MIN_DX) as usize]
    }
}

impl Terrain for Shifting {
    type Geo = Earthquake;
    #[inline(always)]
    fn at(&self, pos: &crate::position::Position) -> &Earthquake {
        self.board(pos.quake().dx)
    }
    fn shifted(&self, dx: i8) -> Option<&Earthquake> {
        (Self::MIN_DX..=Self::MAX_DX)
            .contains(&dx)
            .then(|| self.board(dx))
    }
    fn shifts(&self) -> bool {
        true
    }
    fn fixed(&self) -> Option<&Earthquake> {
        None
    }
}
