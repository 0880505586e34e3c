//! The standard 8x8 board: leaper tables built at compile time, slider attacks by fancy
//! magic bitboards whose tables `build.rs` generates.

use super::Geometry;
use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

pub(crate) struct Magic {
    pub mask: u64,
    pub magic: u64,
    pub shift: u32,
    pub offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/magic_tables.rs"));

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Standard;

const fn leaper_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = leaper_table(&super::KNIGHT_LEAPS);
static KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN_ATTACKS: [[u64; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];
static PAWN_STEP: [[u64; 64]; 2] = [leaper_table(&[(0, 1)]), leaper_table(&[(0, -1)])];

const fn sign(x: i32) -> i32 {
    if x > 0 {
        1
    } else if x < 0 {
        -1
    } else {
        0
    }
}

/// Direction from a to b when a rider connects them, else (0, 0).
const fn direction(a: usize, b: usize) -> (i32, i32) {
    let (df, dr) = (
        (b % 8) as i32 - (a % 8) as i32,
        (b / 8) as i32 - (a / 8) as i32,
    );
    if a == b || !(df == 0 || dr == 0 || df == dr || df == -dr) {
        (0, 0)
    } else {
        (sign(df), sign(dr))
    }
}

const fn between_table() -> [[u64; 64]; 64] {
    let mut table = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let (df, dr) = direction(a, b);
            if df != 0 || dr != 0 {
                let (mut f, mut r) = ((a % 8) as i32 + df, (a / 8) as i32 + dr);
                while (r * 8 + f) as usize != b {
                    table[a][b] |= 1u64 << (r * 8 + f);
                    f += df;
                    r += dr;
                }
            }
            b += 1;
        }
        a += 1;
    }
    table
}

const fn line_table() -> [[u64; 64]; 64] {
    let mut table = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let (df, dr) = direction(a, b);
            if df != 0 || dr != 0 {
                let mut sign = -1;
                while sign <= 1 {
                    let (mut f, mut r) = ((a % 8) as i32, (a / 8) as i32);
                    while f >= 0 && f < 8 && r >= 0 && r < 8 {
                        table[a][b] |= 1u64 << (r * 8 + f);
                        f += sign * df;
                        r += sign * dr;
                    }
                    sign += 2;
                }
            }
            b += 1;
        }
        a += 1;
    }
    table
}

/// The king steps between a and b (the length of a ride between them).
const fn king_distance(a: usize, b: usize) -> u8 {
    let df = ((a % 8) as i32 - (b % 8) as i32).abs();
    let dr = ((a / 8) as i32 - (b / 8) as i32).abs();
    (if df > dr { df } else { dr }) as u8
}

/// `[n][sq]`: the squares at most n king steps from sq (n = 0..7).
const fn ball_table() -> [[u64; 64]; 8] {
    let mut table = [[0u64; 64]; 8];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            // b lies in every ball around a from its distance on.
            let mut n = king_distance(a, b) as usize;
            while n < 8 {
                table[n][a] |= 1u64 << b;
                n += 1;
            }
            b += 1;
        }
        a += 1;
    }
    table
}

static BALL: [[u64; 64]; 8] = ball_table();

/// `[a][b]`: `king_distance(a, b)`.
const fn distance_table() -> [[u8; 64]; 64] {
    let mut table = [[0u8; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            table[a][b] = king_distance(a, b);
            b += 1;
        }
        a += 1;
    }
    table
}

static DISTANCE: [[u8; 64]; 64] = distance_table();
static BETWEEN: [[u64; 64]; 64] = between_table();
static LINE: [[u64; 64]; 64] = line_table();

#[inline(always)]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    // SAFETY: build.rs sized the table so that every index of every entry fits:
    // offset + (1 << (64 - shift)) <= SLIDER_TABLE.len().
    Bitboard(unsafe { *SLIDER_TABLE.get_unchecked(m.offset + idx) })
}

impl Geometry for Standard {
    #[inline(always)]
    fn squares(&self) -> Bitboard {
        Bitboard::FULL
    }
    #[inline(always)]
    fn knight_attacks(&self, sq: Square) -> Bitboard {
        Bitboard(KNIGHT[sq.index()])
    }
    #[inline(always)]
    fn king_attacks(&self, sq: Square) -> Bitboard {
        Bitboard(KING[sq.index()])
    }
    #[inline(always)]
    fn pawn_attacks(&self, color: Color, sq: Square) -> Bitboard {
        Bitboard(PAWN_ATTACKS[color.index()][sq.index()])
    }
    #[inline(always)]
    fn pawn_step(&self, color: Color, sq: Square) -> Bitboard {
        Bitboard(PAWN_STEP[color.index()][sq.index()])
    }
    #[inline(always)]
    fn rook_attacks(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        magic_lookup(&ROOK_MAGICS[sq.index()], occupied)
    }
    #[inline(always)]
    fn bishop_attacks(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        magic_lookup(&BISHOP_MAGICS[sq.index()], occupied)
    }
    #[inline(always)]
    fn between(&self, a: Square, b: Square) -> Bitboard {
        Bitboard(BETWEEN[a.index()][b.index()])
    }
    #[inline(always)]
    fn line(&self, a: Square, b: Square) -> Bitboard {
        Bitboard(LINE[a.index()][b.index()])
    }
    fn longest_ride(&self) -> u32 {
        7
    }
    #[inline(always)]
    fn rides_within(&self, from: Square, length: u32) -> Bitboard {
        Bitboard(BALL[length.min(7) as usize][from.index()])
    }
    #[inline(always)]
    fn ride_length(&self, a: Square, b: Square) -> u32 {
        DISTANCE[a.index()][b.index()] as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ride's length is the king distance (rules.md 2.1 prices a ride by the squares
    /// travelled, a king step 1 and a rook a1-a8 7), and `rides_within` holds exactly
    /// the squares that close.
    #[test]
    fn ride_lengths_are_king_distances() {
        for a in (0..64).map(Square::new) {
            for b in (0..64).map(Square::new) {
                let df = (a.file() as i32 - b.file() as i32).unsigned_abs();
                let dr = (a.rank() as i32 - b.rank() as i32).unsigned_abs();
                let length = df.max(dr);
                assert_eq!(Standard.ride_length(a, b), length, "{a} {b}");
                for n in 0..10 {
                    assert_eq!(
                        Standard.rides_within(a, n).contains(b),
                        length <= n,
                        "{a} {b} {n}"
                    );
                }
            }
        }
        assert_eq!(Standard.ride_length(Square::A1, Square::H8), 7);
        assert_eq!(Standard.rides_within(Square::E4, 1).count(), 9);
    }

    #[test]
    fn rook_on_a1_sees_the_first_blocker() {
        let occ = Bitboard::from_square(Square::A4) | Bitboard::from_square(Square::D1);
        let att = Standard.rook_attacks(Square::A1, occ);
        let expect: Vec<Square> = vec![
            Square::B1,
            Square::C1,
            Square::D1,
            Square::A2,
            Square::A3,
            Square::A4,
        ];
        let mut got: Vec<Square> = att.collect();
        got.sort();
        let mut expect = expect;
        expect.sort();
        assert_eq!(got, expect);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(Standard.between(Square::A1, Square::D4).count(), 2);
        assert_eq!(Standard.between(Square::A1, Square::B3).count(), 0);
        assert_eq!(Standard.line(Square::B2, Square::C3).count(), 8);
        assert!(Standard.line(Square::A1, Square::B3).is_empty());
    }
}
