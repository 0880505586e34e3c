//! Who attacks a square: FIDE attack relations on any geometry.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::geometry::Geometry;
use crate::types::{Color, Role, Square};

/// Pieces of `by` that attack `sq`, with `occupied` as the blockers.
#[inline(always)]
pub fn attackers<G: Geometry>(
    geo: &G,
    board: &Board,
    sq: Square,
    by: Color,
    occupied: Bitboard,
) -> Bitboard {
    let them = board.by_color(by);
    ((geo.knight_attacks(sq) & board.by_role(Role::Knight))
        | (geo.king_attacks(sq) & board.by_role(Role::King))
        | (geo.pawn_attacks(!by, sq) & board.by_role(Role::Pawn))
        | (geo.rook_attacks(sq, occupied) & board.rooks_and_queens())
        | (geo.bishop_attacks(sq, occupied) & board.bishops_and_queens()))
        & them
}

/// Whether any piece of `by` attacks `sq`; cheaper than `attackers` when only the
/// answer matters (sliders last, since they cost the most).
#[inline(always)]
pub fn is_attacked<G: Geometry>(
    geo: &G,
    board: &Board,
    sq: Square,
    by: Color,
    occupied: Bitboard,
) -> bool {
    let them = board.by_color(by);
    (geo.knight_attacks(sq) & board.by_role(Role::Knight) & them).is_nonempty()
        || (geo.pawn_attacks(!by, sq) & board.by_role(Role::Pawn) & them).is_nonempty()
        || (geo.king_attacks(sq) & board.by_role(Role::King) & them).is_nonempty()
        || (geo.rook_attacks(sq, occupied) & board.rooks_and_queens() & them).is_nonempty()
        || (geo.bishop_attacks(sq, occupied) & board.bishops_and_queens() & them).is_nonempty()
}

/// Squares a piece of `role` and `color` on `sq` attacks.
#[inline(always)]
pub fn piece_attacks<G: Geometry>(
    geo: &G,
    role: Role,
    color: Color,
    sq: Square,
    occupied: Bitboard,
) -> Bitboard {
    match role {
        Role::Pawn => geo.pawn_attacks(color, sq),
        Role::Knight => geo.knight_attacks(sq),
        Role::Bishop => geo.bishop_attacks(sq, occupied),
        Role::Rook => geo.rook_attacks(sq, occupied),
        Role::Queen => geo.queen_attacks(sq, occupied),
        Role::King => geo.king_attacks(sq),
    }
}
