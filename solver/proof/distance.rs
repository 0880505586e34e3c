//! How far each man is from each square: the fewest moves, and for a pawn the fewest
//! captures, on an empty board, over every geometry the board can take.
//!
//! Why these are lower bounds of a real game: men only block each other, and every
//! move of a real game is a move of one of the geometries the terrain takes (an
//! aftershock changes the board between two moves, never during one). A path of real
//! moves is therefore a path of the union of those geometries' empty-board moves, and
//! is at least as long as the shortest one. A pawn's diagonal step is counted wherever
//! a capture could make it; each such step needs a man to capture, which is what the
//! capture counts measure.
//!
//! Squares the diagram proves occupied throughout the game by men that never move
//! (`Distances::of`'s `blocked`) are walls: no man lands on one or passes it.

use crate::bitboard::Bitboard;
use crate::geometry::{Geometry, Shifting, Terrain};
use crate::search::mate_bound::FORMS;
use crate::types::{Color, Role, Square};

/// Unreachable.
pub const FAR: u8 = u8::MAX;

/// Distances of one terrain.
pub struct Distances {
    /// `[role][from][to]`: the fewest moves of a piece (knight to king; colour-free).
    piece: Box<[[[u8; 64]; 64]; 6]>,
    /// `[colour][form][from][to]`: the fewest moves of a pawn on `from` to stand on `to`
    /// as `form` (a pawn still, or what it promoted to).
    pawn: Box<[[[[u8; 64]; 64]; 5]; 2]>,
    /// The same, in captures: the fewest diagonal steps a pawn needs on the way.
    pawn_captures: Box<[[[[u8; 64]; 64]; 5]; 2]>,
}

/// A form's row in the pawn tables (`role` a pawn or a promotion piece): `FORMS` is in
/// the order of the roles.
fn form_index(role: Role) -> usize {
    debug_assert!(role != Role::King);
    role.index()
}

impl Distances {
    /// The distances of every geometry `terrain` can take, joined, with the squares of
    /// `blocked` walls.
    pub fn of<T: Terrain>(terrain: &T, blocked: Bitboard) -> Distances {
        let geos = geometries(terrain);
        // One move of each form by colour, and a pawn's steps apart from its captures.
        let mut moves = [[[Bitboard::EMPTY; 64]; 6]; 2];
        let mut steps = [[Bitboard::EMPTY; 64]; 2];
        let mut captures = [[Bitboard::EMPTY; 64]; 2];
        for geo in &geos {
            let squares = geo.squares();
            for color in Color::ALL {
                let c = color.index();
                for from in squares {
                    for role in Role::ALL {
                        moves[c][role.index()][from.index()] |=
                            moves_among(*geo, role, color, from, blocked) & squares;
                    }
                    let capture = geo.pawn_attacks(color, from) & (squares - blocked);
                    captures[c][from.index()] |= capture;
                    steps[c][from.index()] |= pawn_steps(*geo, color, from, blocked) & squares;
                }
            }
        }
        let mut piece = Box::new([[[FAR; 64]; 64]; 6]);
        for role in Role::ALL {
            if role == Role::Pawn {
                continue;
            }
            for from in Square::all() {
                piece[role.index()][from.index()] = breadth_first(from, &moves[0][role.index()]);
            }
        }
        let mut pawn = Box::new([[[[FAR; 64]; 64]; 5]; 2]);
        let mut pawn_captures = Box::new([[[[FAR; 64]; 64]; 5]; 2]);
        for color in Color::ALL {
            let c = color.index();
            let last_rank = Bitboard::rank(color.fold(7, 0));
            for from in Square::all() {
                if last_rank.contains(from) {
                    continue;
                }
                // As a pawn: moves and captures. A pawn arriving on its last rank is a
                // pawn no longer.
                let as_pawn_moves = pawn_walk(from, &moves[c][Role::Pawn.index()], last_rank);
                let as_pawn_captures = pawn_captures_walk(from, &steps[c], &captures[c], last_rank);
                pawn[c][0][from.index()] = as_pawn_moves.0;
                pawn_captures[c][0][from.index()] = as_pawn_captures.0;
                // As a promoted piece: promoted on some square of the last rank, then
                // moving as that piece (its moves cost no capture that is needed).
                for (f, &form) in FORMS.iter().enumerate().skip(1) {
                    let rows = &piece[form.index()];
                    let (mut m, mut k) = ([FAR; 64], [FAR; 64]);
                    for promo in last_rank {
                        let (dm, dk) = (
                            as_pawn_moves.1[promo.index()],
                            as_pawn_captures.1[promo.index()],
                        );
                        if dm == FAR {
                            continue;
                        }
                        for to in Square::all() {
                            let after = rows[promo.index()][to.index()];
                            if after != FAR {
                                m[to.index()] = m[to.index()].min(dm.saturating_add(after));
                                k[to.index()] = k[to.index()].min(dk);
                            }
                        }
                    }
                    pawn[c][f][from.index()] = m;
                    pawn_captures[c][f][from.index()] = k;
                }
            }
        }
        // Kept by target square: the bound asks, for one square of the diagram, for the
        // nearest of several men.
        Distances {
            piece: Box::new(transposed(&piece)),
            pawn: Box::new([transposed(&pawn[0]), transposed(&pawn[1])]),
            pawn_captures: Box::new([transposed(&pawn_captures[0]), transposed(&pawn_captures[1])]),
        }
    }

    /// For each square a piece of `role` (not a pawn) may start from, its fewest moves
    /// to `to`.
    #[inline]
    pub fn piece_to(&self, role: Role, to: Square) -> &[u8; 64] {
        &self.piece[role.index()][to.index()]
    }

    /// `piece_to` for a piece, `pawn_to` (as a pawn) for a pawn.
    #[inline]
    pub fn piece_or_pawn_to(&self, color: Color, role: Role, to: Square) -> &[u8; 64] {
        match role {
            Role::Pawn => self.pawn_to(color, Role::Pawn, to),
            _ => self.piece_to(role, to),
        }
    }

    /// For each square a `color` pawn may start from, its fewest moves to stand on `to`
    /// as `form`.
    #[inline]
    pub fn pawn_to(&self, color: Color, form: Role, to: Square) -> &[u8; 64] {
        &self.pawn[color.index()][form_index(form)][to.index()]
    }

    /// The same in captures.
    #[inline]
    pub fn pawn_captures_to(&self, color: Color, form: Role, to: Square) -> &[u8; 64] {
        &self.pawn_captures[color.index()][form_index(form)][to.index()]
    }

    /// The fewest moves of a piece of `role` (not a pawn) from `from` to `to`.
    #[inline]
    pub fn piece(&self, role: Role, from: Square, to: Square) -> u8 {
        self.piece_to(role, to)[from.index()]
    }

    /// The fewest moves of a `color` pawn on `from` to stand on `to` as `form`.
    #[inline]
    pub fn pawn(&self, color: Color, form: Role, from: Square, to: Square) -> u8 {
        self.pawn_to(color, form, to)[from.index()]
    }

    /// The fewest captures of the same.
    #[inline]
    pub fn pawn_captures(&self, color: Color, form: Role, from: Square, to: Square) -> u8 {
        self.pawn_captures_to(color, form, to)[from.index()]
    }
}

/// The squares a `color` pawn from the array can ever move onto, by any sequence of
/// moves of the geometries of `terrain`: a pawn of the diagram anywhere else stood
/// there from the start (on the standard board, its second rank).
pub fn pawn_arrivals<T: Terrain>(terrain: &T, color: Color) -> Bitboard {
    let geos = geometries(terrain);
    let home = Bitboard::rank(color.fold(1, 6));
    let mut frontier = home;
    let mut reached = Bitboard::EMPTY;
    while frontier.is_nonempty() {
        let mut next = Bitboard::EMPTY;
        for from in frontier {
            for geo in &geos {
                if geo.squares().contains(from) {
                    next |= (pawn_steps(*geo, color, from, Bitboard::EMPTY)
                        | geo.pawn_attacks(color, from))
                        & geo.squares();
                }
            }
        }
        frontier = next - reached;
        reached |= next;
    }
    reached
}

/// Every geometry `terrain` can take.
fn geometries<T: Terrain>(terrain: &T) -> Vec<&T::Geo> {
    match terrain.fixed() {
        Some(g) => vec![g],
        None => (Shifting::MIN_DX..=Shifting::MAX_DX)
            .filter_map(|dx| terrain.shifted(dx))
            .collect(),
    }
}

/// A pawn's steps and double step from `from`, with `blocked` squares walls.
fn pawn_steps<G: Geometry>(geo: &G, color: Color, from: Square, blocked: Bitboard) -> Bitboard {
    let step = geo.pawn_step(color, from) - blocked;
    let double = match step.first() {
        Some(s) if from.rank() == color.fold(1, 6) => geo.pawn_step(color, s) - blocked,
        _ => Bitboard::EMPTY,
    };
    step | double
}

/// Where a man of `role` on `from` goes in one move on a board whose only men stand
/// on `blocked` and never leave.
fn moves_among<G: Geometry>(
    geo: &G,
    role: Role,
    color: Color,
    from: Square,
    blocked: Bitboard,
) -> Bitboard {
    let to = match role {
        Role::Pawn => pawn_steps(geo, color, from, blocked) | geo.pawn_attacks(color, from),
        Role::Knight => geo.knight_attacks(from),
        Role::Bishop => geo.bishop_attacks(from, blocked),
        Role::Rook => geo.rook_attacks(from, blocked),
        Role::Queen => geo.queen_attacks(from, blocked),
        Role::King => geo.king_attacks(from),
    };
    to - blocked
}

/// Tables `[from][to]` turned into `[to][from]`, each of its kinds.
fn transposed<const K: usize>(t: &[[[u8; 64]; 64]; K]) -> [[[u8; 64]; 64]; K] {
    let mut out = [[[FAR; 64]; 64]; K];
    for k in 0..K {
        for from in 0..64 {
            for to in 0..64 {
                out[k][to][from] = t[k][from][to];
            }
        }
    }
    out
}

/// The least of `row` over the squares of `men` (`FAR` for none).
#[inline]
pub fn nearest(row: &[u8; 64], men: Bitboard) -> u8 {
    men.into_iter()
        .map(|sq| row[sq.index()])
        .min()
        .unwrap_or(FAR)
}

/// Fewest moves from `from` to every square along `moves`.
fn breadth_first(from: Square, moves: &[Bitboard; 64]) -> [u8; 64] {
    let mut dist = [FAR; 64];
    let mut seen = Bitboard::from_square(from);
    let mut frontier = seen;
    let mut d = 0u8;
    while frontier.is_nonempty() {
        let mut next = Bitboard::EMPTY;
        for sq in frontier {
            dist[sq.index()] = d;
            next |= moves[sq.index()];
        }
        frontier = next - seen;
        seen |= frontier;
        d += 1;
    }
    dist
}

/// A pawn's fewest moves from `from`: to each square where it is still a pawn, and to
/// each square of its last rank (where it promotes and stops being one).
fn pawn_walk(from: Square, moves: &[Bitboard; 64], last_rank: Bitboard) -> ([u8; 64], [u8; 64]) {
    let mut as_pawn = [FAR; 64];
    let mut promoted = [FAR; 64];
    let mut seen = Bitboard::from_square(from);
    let mut frontier = seen;
    let mut d = 0u8;
    while frontier.is_nonempty() {
        let mut next = Bitboard::EMPTY;
        for sq in frontier {
            if last_rank.contains(sq) {
                promoted[sq.index()] = d;
            } else {
                as_pawn[sq.index()] = d;
                next |= moves[sq.index()];
            }
        }
        frontier = next - seen;
        seen |= frontier;
        d += 1;
    }
    (as_pawn, promoted)
}

/// A pawn's fewest captures from `from` (steps free, diagonal steps one each), to each
/// square as a pawn and to each square of its last rank: a 0-1 search, a capture count
/// at a time, each count closed under free steps first.
fn pawn_captures_walk(
    from: Square,
    steps: &[Bitboard; 64],
    captures: &[Bitboard; 64],
    last_rank: Bitboard,
) -> ([u8; 64], [u8; 64]) {
    let mut as_pawn = [FAR; 64];
    let mut promoted = [FAR; 64];
    let mut seen = Bitboard::EMPTY;
    let mut level = Bitboard::from_square(from);
    let mut k = 0u8;
    while level.is_nonempty() {
        // Close this capture count under free steps.
        let mut closed = level - seen;
        let mut frontier = closed;
        while frontier.is_nonempty() {
            let mut next = Bitboard::EMPTY;
            for sq in frontier {
                if !last_rank.contains(sq) {
                    next |= steps[sq.index()];
                }
            }
            frontier = next - closed - seen;
            closed |= frontier;
        }
        let mut next_level = Bitboard::EMPTY;
        for sq in closed {
            if last_rank.contains(sq) {
                promoted[sq.index()] = k;
            } else {
                as_pawn[sq.index()] = k;
                next_level |= captures[sq.index()];
            }
        }
        seen |= closed;
        level = next_level - seen;
        k += 1;
    }
    (as_pawn, promoted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Earthquake, Standard, VoidRule};

    #[test]
    fn standard_board_distances() {
        let d = Distances::of(&Standard, Bitboard::EMPTY);
        assert_eq!(d.piece(Role::Knight, Square::G1, Square::F3), 1);
        assert_eq!(d.piece(Role::Knight, Square::G1, Square::G2), 3);
        assert_eq!(d.piece(Role::Bishop, Square::C1, Square::H6), 1);
        assert_eq!(d.piece(Role::Bishop, Square::C1, Square::C2), FAR);
        assert_eq!(d.piece(Role::King, Square::E1, Square::H8), 7);
        // e2-e4 is one move; e2 to d3 one capture.
        assert_eq!(d.pawn(Color::White, Role::Pawn, Square::E2, Square::E4), 1);
        assert_eq!(d.pawn(Color::White, Role::Pawn, Square::E2, Square::E3), 1);
        assert_eq!(
            d.pawn(Color::White, Role::Pawn, Square::E2, Square::E1),
            FAR
        );
        assert_eq!(
            d.pawn_captures(Color::White, Role::Pawn, Square::E2, Square::E4),
            0
        );
        assert_eq!(
            d.pawn_captures(Color::White, Role::Pawn, Square::E2, Square::C4),
            2
        );
        assert_eq!(
            d.pawn_captures(Color::White, Role::Pawn, Square::E2, Square::B4),
            FAR
        );
        assert_eq!(d.pawn(Color::Black, Role::Pawn, Square::D7, Square::D5), 1);
        // a7-a8=Q... for Black: h2-h1=N then Ng3: two moves, no capture.
        assert_eq!(
            d.pawn(Color::Black, Role::Knight, Square::H2, Square::G3),
            2
        );
        assert_eq!(
            d.pawn_captures(Color::Black, Role::Knight, Square::H2, Square::G3),
            0
        );
        // A white pawn from e2 as a queen on e8: five moves (e4, e5, e6, e7, e8).
        assert_eq!(d.pawn(Color::White, Role::Queen, Square::E2, Square::E8), 5);
        // a2-a4-a5-a6-a7-a8=B, then along the long diagonal without a capture.
        assert_eq!(
            d.pawn(Color::White, Role::Bishop, Square::A2, Square::A8),
            5
        );
        assert_eq!(
            d.pawn(Color::White, Role::Bishop, Square::A2, Square::H1),
            6
        );
        assert_eq!(
            d.pawn_captures(Color::White, Role::Bishop, Square::A2, Square::H1),
            0
        );
    }

    #[test]
    fn only_the_second_rank_is_never_arrived_on() {
        use crate::geometry::Earthquake;
        assert_eq!(
            pawn_arrivals(&Standard, Color::White),
            Bitboard(0xFFFF_FFFF_FFFF_0000)
        );
        assert_eq!(
            pawn_arrivals(&Standard, Color::Black),
            Bitboard(0x0000_FFFF_FFFF_FFFF)
        );
        // Pawns only move up (White) and all start on one row: no board lets one
        // arrive on its second rank, not even (8,4), where a white pawn of the lower
        // half's a-file captures into the upper half (a3xh8: rank 8 by name).
        let geo = Earthquake::new(8, 4, VoidRule::Block);
        let arrivals = pawn_arrivals(&geo, Color::White);
        assert!(!arrivals.contains(Square::A2) && arrivals.contains(Square::H8));
    }

    #[test]
    fn walls_block_landing_and_passing() {
        // The pawns of b2 and d2 never move: the bishop of c1 is shut in, and a rook
        // on a1 goes round b2 no longer through it.
        let walls = Bitboard::from_square(Square::B2).with(Square::D2);
        let d = Distances::of(&Standard, walls);
        assert_eq!(d.piece(Role::Bishop, Square::C1, Square::E3), FAR);
        assert_eq!(d.piece(Role::Knight, Square::B1, Square::D2), FAR);
        assert_eq!(d.piece(Role::Queen, Square::D1, Square::D4), 2);
        assert_eq!(d.pawn(Color::White, Role::Pawn, Square::C2, Square::B3), 1);
        assert_eq!(
            d.pawn(Color::Black, Role::Pawn, Square::B3, Square::B2),
            FAR
        );
    }

    #[test]
    fn earthquake_distances_cross_the_seam() {
        // (1,0): the lower half one file right; a1's rook goes a2, a3, a4, then b5.
        let geo = Earthquake::new(1, 0, VoidRule::Block);
        let d = Distances::of(&geo, Bitboard::EMPTY);
        assert_eq!(d.piece(Role::Rook, Square::A1, Square::B8), 1);
        assert_eq!(d.piece(Role::Rook, Square::A1, Square::A8), 2);
        // A white pawn on e4 steps physically up to f5.
        assert_eq!(d.pawn(Color::White, Role::Pawn, Square::E4, Square::F5), 1);
        assert_eq!(
            d.pawn_captures(Color::White, Role::Pawn, Square::E2, Square::F5),
            0
        );
    }
}
