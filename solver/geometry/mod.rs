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

    #[inline(always)]
    fn queen_attacks(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        self.rook_attacks(sq, occupied) | self.bishop_attacks(sq, occupied)
    }
}
