//! The Earthquake board (rules.md section 3): the lower half (ranks 1-4) displaced by
//! (dx, dy) against the upper half (ranks 5-8). Squares keep their names; every step,
//! leap and ride is physical, computed here once into tables, so the move generator and
//! the rules are the same code as on the standard board.

use super::Geometry;
use crate::bitboard::Bitboard;
use crate::types::{Color, Square};
use std::collections::HashMap;

/// What a rider does at a cell that holds no square (rules.md 3.4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Hash)]
pub enum VoidRule {
    /// The ride stops before the void (default).
    #[default]
    Block,
    /// Riders skip void cells and go on along the same line inside the bounding box.
    Fly,
}

impl VoidRule {
    pub fn name(self) -> &'static str {
        match self {
            VoidRule::Block => "block",
            VoidRule::Fly => "fly",
        }
    }
}

/// Physical directions: the rook's four, then the bishop's four; `d ^ 1` is the
/// opposite of `d`.
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, -1),
    (-1, 1),
    (1, -1),
];

/// How the first blocker on a ray is found.
#[derive(Clone, Debug)]
enum Order {
    /// Bit indices increase along the ray: the first blocker is the lowest bit.
    Up,
    /// Bit indices decrease: the first blocker is the highest bit.
    Down,
    /// Neither (a row shared by both halves): walk the squares in order.
    Walk(Vec<Square>),
}

#[derive(Clone, Debug)]
struct Ray {
    mask: Bitboard,
    order: Order,
}

#[derive(Clone, Debug)]
pub struct Earthquake {
    dx: i32,
    dy: i32,
    void: VoidRule,
    squares: Bitboard,
    cells: [(i32, i32); 64],
    knight: [Bitboard; 64],
    king: [Bitboard; 64],
    pawn_attacks: [[Bitboard; 64]; 2],
    pawn_step: [[Bitboard; 64]; 2],
    rays: Vec<[Ray; 8]>,
    between: Vec<[Bitboard; 64]>,
    line: Vec<[Bitboard; 64]>,
    ride_length: Vec<[u8; 64]>,
    /// The largest of `ride_length` (asked for at every Taxi move generation).
    longest_ride: u32,
}

impl Earthquake {
    /// The board with the lower half displaced by (dx, dy); any whole numbers.
    pub fn new(dx: i32, dy: i32, void: VoidRule) -> Earthquake {
        // Cells: the upper half first, then the lower half on top where they overlap.
        let mut cells = [(0, 0); 64];
        let mut at: HashMap<(i32, i32), Square> = HashMap::new();
        for sq in Square::all() {
            let (f, r) = (sq.file() as i32, sq.rank() as i32);
            cells[sq.index()] = if r >= 4 { (f, r) } else { (f + dx, r + dy) };
        }
        for sq in Square::all().filter(|s| s.rank() >= 4) {
            at.insert(cells[sq.index()], sq);
        }
        for sq in Square::all().filter(|s| s.rank() < 4) {
            at.insert(cells[sq.index()], sq);
        }
        let mut squares = Bitboard::EMPTY;
        for sq in at.values() {
            squares.set(*sq);
        }
        let (x0, x1) = (0.min(dx), 7.max(7 + dx));
        let (y0, y1) = (4.min(dy), 7.max(3 + dy));
        let in_box = |(x, y): (i32, i32)| x >= x0 && x <= x1 && y >= y0 && y <= y1;

        let leap = |sq: Square, deltas: &[(i32, i32)]| -> Bitboard {
            let (x, y) = cells[sq.index()];
            let mut bb = Bitboard::EMPTY;
            for &(ddx, ddy) in deltas {
                if let Some(t) = at.get(&(x + ddx, y + ddy)) {
                    bb.set(*t);
                }
            }
            bb
        };

        let mut g = Earthquake {
            dx,
            dy,
            void,
            squares,
            cells,
            knight: [Bitboard::EMPTY; 64],
            king: [Bitboard::EMPTY; 64],
            pawn_attacks: [[Bitboard::EMPTY; 64]; 2],
            pawn_step: [[Bitboard::EMPTY; 64]; 2],
            rays: Vec::with_capacity(64),
            between: vec![[Bitboard::EMPTY; 64]; 64],
            line: vec![[Bitboard::EMPTY; 64]; 64],
            ride_length: vec![[0; 64]; 64],
            longest_ride: 0,
        };
        for sq in Square::all() {
            let i = sq.index();
            if !squares.contains(sq) {
                g.rays.push(std::array::from_fn(|_| Ray {
                    mask: Bitboard::EMPTY,
                    order: Order::Up,
                }));
                continue;
            }
            g.knight[i] = leap(sq, &super::KNIGHT_LEAPS);
            g.king[i] = leap(sq, &DIRECTIONS);
            g.pawn_attacks[0][i] = leap(sq, &[(-1, 1), (1, 1)]);
            g.pawn_attacks[1][i] = leap(sq, &[(-1, -1), (1, -1)]);
            g.pawn_step[0][i] = leap(sq, &[(0, 1)]);
            g.pawn_step[1][i] = leap(sq, &[(0, -1)]);

            // Rides: the squares met in order along each physical direction.
            let paths: Vec<Vec<Square>> = DIRECTIONS
                .iter()
                .map(|&(ddx, ddy)| {
                    let mut path = Vec::new();
                    let mut c = cells[i];
                    loop {
                        c = (c.0 + ddx, c.1 + ddy);
                        match at.get(&c) {
                            Some(t) => path.push(*t),
                            None if void == VoidRule::Fly && in_box(c) => continue,
                            None => break,
                        }
                    }
                    path
                })
                .collect();
            let rays: [Ray; 8] = std::array::from_fn(|d| {
                let path = &paths[d];
                let mut mask = Bitboard::EMPTY;
                for t in path {
                    mask.set(*t);
                }
                let up =
                    path.windows(2).all(|w| w[0] < w[1]) && path.first().is_none_or(|f| *f > sq);
                let down =
                    path.windows(2).all(|w| w[0] > w[1]) && path.first().is_none_or(|f| *f < sq);
                let order = if up {
                    Order::Up
                } else if down {
                    Order::Down
                } else {
                    Order::Walk(path.clone())
                };
                Ray { mask, order }
            });
            for (d, path) in paths.iter().enumerate() {
                let opposite = d ^ 1;
                let whole = rays[d].mask | rays[opposite].mask | Bitboard::from_square(sq);
                let mut before = Bitboard::EMPTY;
                for (k, t) in path.iter().enumerate() {
                    g.between[i][t.index()] = before;
                    g.line[i][t.index()] = whole;
                    g.ride_length[i][t.index()] = k as u8 + 1;
                    before.set(*t);
                }
            }
            g.rays.push(rays);
        }
        g.longest_ride = g.ride_length.iter().flatten().copied().max().unwrap_or(0) as u32;
        g
    }

    pub fn displacement(&self) -> (i32, i32) {
        (self.dx, self.dy)
    }

    pub fn void_rule(&self) -> VoidRule {
        self.void
    }

    /// The physical cell (x, y) of a square (rules.md 3.1).
    pub fn cell(&self, sq: Square) -> (i32, i32) {
        self.cells[sq.index()]
    }

    #[inline(always)]
    fn ride(&self, sq: Square, dirs: std::ops::Range<usize>, occupied: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        let rays = &self.rays[sq.index()];
        for d in dirs {
            let ray = &rays[d];
            let blockers = ray.mask & occupied;
            if blockers.is_empty() {
                out |= ray.mask;
                continue;
            }
            out |= match &ray.order {
                Order::Up => {
                    let t = blockers.0.trailing_zeros();
                    ray.mask & Bitboard(u64::MAX >> (63 - t))
                }
                Order::Down => {
                    let t = 63 - blockers.0.leading_zeros();
                    ray.mask & Bitboard(u64::MAX << t)
                }
                Order::Walk(path) => {
                    let mut bb = Bitboard::EMPTY;
                    for &t in path {
                        bb.set(t);
                        if occupied.contains(t) {
                            break;
                        }
                    }
                    bb
                }
            };
        }
        out
    }
}

impl Geometry for Earthquake {
    #[inline(always)]
    fn squares(&self) -> Bitboard {
        self.squares
    }
    #[inline(always)]
    fn knight_attacks(&self, sq: Square) -> Bitboard {
        self.knight[sq.index()]
    }
    #[inline(always)]
    fn king_attacks(&self, sq: Square) -> Bitboard {
        self.king[sq.index()]
    }
    #[inline(always)]
    fn pawn_attacks(&self, color: Color, sq: Square) -> Bitboard {
        self.pawn_attacks[color.index()][sq.index()]
    }
    #[inline(always)]
    fn pawn_step(&self, color: Color, sq: Square) -> Bitboard {
        self.pawn_step[color.index()][sq.index()]
    }
    #[inline(always)]
    fn rook_attacks(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        self.ride(sq, 0..4, occupied)
    }
    #[inline(always)]
    fn bishop_attacks(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        self.ride(sq, 4..8, occupied)
    }
    #[inline(always)]
    fn between(&self, a: Square, b: Square) -> Bitboard {
        self.between[a.index()][b.index()]
    }
    #[inline(always)]
    fn line(&self, a: Square, b: Square) -> Bitboard {
        self.line[a.index()][b.index()]
    }
    #[inline(always)]
    fn ride_length(&self, a: Square, b: Square) -> u32 {
        self.ride_length[a.index()][b.index()] as u32
    }
    #[inline(always)]
    fn longest_ride(&self) -> u32 {
        self.longest_ride
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Standard;

    #[test]
    fn zero_displacement_is_the_standard_board() {
        let eq = Earthquake::new(0, 0, VoidRule::Block);
        for sq in Square::all() {
            for occ in [
                Bitboard::EMPTY,
                Bitboard(0x0042_0018_2400_8100),
                Bitboard(0xFFFF_0000_0000_FFFF),
            ] {
                assert_eq!(eq.rook_attacks(sq, occ), Standard.rook_attacks(sq, occ));
                assert_eq!(eq.bishop_attacks(sq, occ), Standard.bishop_attacks(sq, occ));
            }
            assert_eq!(eq.knight_attacks(sq), Standard.knight_attacks(sq));
            for t in Square::all() {
                assert_eq!(eq.between(sq, t), Standard.between(sq, t), "{sq} {t}");
                assert_eq!(eq.line(sq, t), Standard.line(sq, t), "{sq} {t}");
            }
        }
    }
}
