//! Zobrist keys, built at compile time. Every part of the state that decides the future
//! of a position has keys here, so variant state (timers, cash, displacement) joins the
//! same hash the transposition table uses.

use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, Square};

/// Largest Trapdoor timer with keys of its own.
pub const MAX_TIMER: usize = 7;

pub struct Keys {
    pieces: [[[u64; 64]; 6]; 2],
    castling: [u64; 64],
    en_passant: [u64; 8],
    black_to_move: u64,
    timers: [[u64; 64]; MAX_TIMER + 1],
    cash: [u64; 2],
    /// `castling_set()` of every set of first-rank (0) and last-rank (1) rooks.
    castling_ranks: [[u64; 256]; 2],
    /// `cash()` of the amounts a game usually sees, looked up instead of mixed.
    cash_table: [[u64; CASH_TABLE]; 2],
    cash_beyond_need: [u64; 2],
}

const CASH_TABLE: usize = 64;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn build() -> Keys {
    let mut keys = Keys {
        pieces: [[[0; 64]; 6]; 2],
        castling: [0; 64],
        en_passant: [0; 8],
        black_to_move: 0,
        timers: [[0; 64]; MAX_TIMER + 1],
        cash: [0; 2],
        castling_ranks: [[0; 256]; 2],
        cash_table: [[0; CASH_TABLE]; 2],
        cash_beyond_need: [0; 2],
    };
    let mut state = 0x5EED_0FFA_1B50_17A5u64;
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 6 {
            let mut s = 0;
            while s < 64 {
                let (st, k) = splitmix(state);
                state = st;
                keys.pieces[c][r][s] = k;
                s += 1;
            }
            r += 1;
        }
        c += 1;
    }
    let mut s = 0;
    while s < 64 {
        let (st, k) = splitmix(state);
        state = st;
        keys.castling[s] = k;
        s += 1;
    }
    let mut f = 0;
    while f < 8 {
        let (st, k) = splitmix(state);
        state = st;
        keys.en_passant[f] = k;
        f += 1;
    }
    let (st, k) = splitmix(state);
    state = st;
    keys.black_to_move = k;
    let mut t = 0;
    while t <= MAX_TIMER {
        let mut s = 0;
        while s < 64 {
            let (st, k) = splitmix(state);
            state = st;
            keys.timers[t][s] = k;
            s += 1;
        }
        t += 1;
    }
    let (st, k) = splitmix(state);
    state = st;
    keys.cash[0] = k;
    let (_, k) = splitmix(state);
    keys.cash[1] = k;
    let mut side = 0;
    while side < 2 {
        let mut set = 0;
        while set < 256 {
            let mut key = 0;
            let mut file = 0;
            while file < 8 {
                if set >> file & 1 == 1 {
                    key ^= keys.castling[side * 56 + file];
                }
                file += 1;
            }
            keys.castling_ranks[side][set] = key;
            set += 1;
        }
        side += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut amount = 0;
        while amount < CASH_TABLE {
            keys.cash_table[c][amount] = splitmix(keys.cash[c] ^ amount as u64).1;
            amount += 1;
        }
        // Amounts are u32: this mix is never an amount's.
        keys.cash_beyond_need[c] = splitmix(keys.cash[c] ^ 1 << 40).1;
        c += 1;
    }
    keys
}

static KEYS: Keys = build();

#[inline(always)]
pub fn piece(sq: Square, piece: Piece) -> u64 {
    KEYS.pieces[piece.color.index()][piece.role.index()][sq.index()]
}

#[inline(always)]
pub fn castling(rook: Square) -> u64 {
    KEYS.castling[rook.index()]
}

/// The xor of `castling()` over a set of rooks, without a loop for the usual rooks on
/// the first and last ranks.
#[inline(always)]
pub fn castling_set(rooks: Bitboard) -> u64 {
    let mut key = KEYS.castling_ranks[0][(rooks.0 & 0xFF) as usize]
        ^ KEYS.castling_ranks[1][(rooks.0 >> 56) as usize];
    for rook in rooks & Bitboard(0x00FF_FFFF_FFFF_FF00) {
        key ^= castling(rook);
    }
    key
}

#[inline(always)]
pub fn en_passant(sq: Square) -> u64 {
    KEYS.en_passant[sq.file() as usize]
}

#[inline(always)]
pub fn black_to_move() -> u64 {
    KEYS.black_to_move
}

/// A piece on `sq` ticking with `r` own moves left (rules.md 1).
#[inline(always)]
pub fn timer(sq: Square, r: u8) -> u64 {
    KEYS.timers[(r as usize).min(MAX_TIMER)][sq.index()]
}

/// Cash of one side that pays for everything the search still looks at (`taxi::
/// indifferent_cash`): one key for every such amount, distinct from each `cash()` key.
#[inline(always)]
pub fn cash_beyond_need(color: Color) -> u64 {
    KEYS.cash_beyond_need[color.index()]
}

/// Cash in hand of one side: mixed from the amount, so any amount has a key.
#[inline(always)]
pub fn cash(color: Color, amount: u32) -> u64 {
    match KEYS.cash_table[color.index()].get(amount as usize) {
        Some(&key) => key,
        None => splitmix(KEYS.cash[color.index()] ^ amount as u64).1,
    }
}

/// The aftershock state (current dx, uses left, the dx that may not be restored).
#[inline(always)]
pub fn quake(dx: i8, shocks: [u8; 2], no_return: Option<i8>) -> u64 {
    let packed = (dx as u8 as u64)
        | (shocks[0] as u64) << 8
        | (shocks[1] as u64) << 16
        | (no_return.map_or(0xFF, |d| d as u8) as u64) << 24;
    splitmix(KEYS.black_to_move.rotate_left(29) ^ packed).1
}
