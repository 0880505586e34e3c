//! Who attacks a square: FIDE attack relations on any geometry.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::geometry::Geometry;
use crate::types::{Color, Role, Square};

/// The steps of `color`'s king on `king` onto squares not its own that no enemy man
/// attacks, judged with the king off the board (it cannot hide behind itself).
#[inline(always)]
pub fn unattacked_king_steps<G: Geometry>(
    geo: &G,
    board: &Board,
    king: Square,
    color: Color,
) -> Bitboard {
    let steps = geo.king_attacks(king) - board.by_color(color);
    steps - attacked_within(geo, board, !color, board.occupied().without(king), steps)
}

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

/// The squares of `mask` that some piece of `by` attacks with `occupied` standing.
/// One lookup a piece, where asking square by square costs five a square: cheaper for a
/// mask of several squares, such as a king's ring.
#[inline]
pub fn attacked_within<G: Geometry>(
    geo: &G,
    board: &Board,
    by: Color,
    occupied: Bitboard,
    mask: Bitboard,
) -> Bitboard {
    // Role by role, each with its own attack function (a loop over the roles would
    // dispatch through a jump table at every piece, often mispredicted), stopping once
    // the whole mask is covered.
    let mut covered = Bitboard::EMPTY;
    let mut add = |role: Role, attacks: &dyn Fn(Square) -> Bitboard| {
        for from in board.by_piece(by, role) {
            covered |= attacks(from);
        }
        (mask - covered).is_empty()
    };
    let _ = add(Role::Pawn, &|from| geo.pawn_attacks(by, from))
        || add(Role::Knight, &|from| geo.knight_attacks(from))
        || add(Role::King, &|from| geo.king_attacks(from))
        || add(Role::Bishop, &|from| geo.bishop_attacks(from, occupied))
        || add(Role::Rook, &|from| geo.rook_attacks(from, occupied))
        || add(Role::Queen, &|from| geo.queen_attacks(from, occupied));
    covered & mask
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Standard;
    use crate::test_games::random_positions;
    use crate::types::Color;

    /// `attacked_within` answers as `is_attacked` does square by square, for every
    /// mask and occupancy it is asked with (a king's ring, the king lifted off).
    #[test]
    fn attacked_within_equals_asking_each_square() {
        let mut attacked = 0;
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        random_positions(0xD1B5_4A32_D192_ED03, &[kiwipete], 200, 40, |pos, _| {
            let board = pos.board();
            for by in [Color::White, Color::Black] {
                let Some(king) = board.king(!by) else {
                    continue;
                };
                let occupied = board.occupied().without(king);
                for mask in [Standard.king_attacks(king), Bitboard::FULL] {
                    let each = mask
                        .filter(|&s| is_attacked(&Standard, board, s, by, occupied))
                        .fold(Bitboard::EMPTY, |b, s| b.with(s));
                    assert_eq!(attacked_within(&Standard, board, by, occupied, mask), each);
                    attacked += each.count();
                }
            }
        });
        assert!(attacked > 10_000, "{attacked}");
    }
}
