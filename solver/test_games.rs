//! Positions for the unit tests: reached by random legal play (on the standard board
//! or any other geometry), or made by setting men on random squares.

use crate::fen::parse_fen;
use crate::geometry::{Geometry, Standard};
use crate::movegen::legal_moves;
use crate::moves::MoveList;
use crate::position::Position;
use crate::test_rng::Rng;

/// Starts for random games where riders meet kings: Kiwipete (castling, pins, en
/// passant) and two sparse boards with rooks, bishops and queens aimed at the kings.
pub const RIDER_STARTS: [&str; 3] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "2r1k3/8/8/3q4/8/8/2B5/R2QK2R w - - 0 1",
    "4k3/3r4/8/8/8/8/1B6/R3K3 w - - 0 1",
];

/// Calls `visit` with every position (and its legal moves) of `games` random games of
/// at most `plies` moves from each start.
pub fn random_positions(
    seed: u64,
    starts: &[&str],
    games: usize,
    plies: usize,
    visit: impl FnMut(&Position, &MoveList),
) {
    random_positions_on(&Standard, seed, starts, games, plies, visit);
}

/// `random_positions` on the board `geo` (FIDE moves by its steps and rides).
pub fn random_positions_on<G: Geometry>(
    geo: &G,
    seed: u64,
    starts: &[&str],
    games: usize,
    plies: usize,
    mut visit: impl FnMut(&Position, &MoveList),
) {
    let mut rng = Rng(seed);
    for start in starts {
        for _ in 0..games {
            let mut pos = parse_fen(start).unwrap();
            for _ in 0..plies {
                let moves = legal_moves(geo, &pos);
                if moves.is_empty() {
                    break;
                }
                visit(&pos, &moves);
                pos.play_board(geo, moves[rng.below(moves.len())]);
            }
        }
    }
}

/// Calls `visit` with `count` positions (and their legal moves) made by setting the two
/// kings and `men` (FEN letters) on random squares, White to move, Black not in check:
/// crowded, tactical boards that random play from a start reaches rarely.
pub fn random_placements(
    seed: u64,
    count: usize,
    men: &str,
    mut visit: impl FnMut(&Position, &MoveList),
) {
    let mut rng = Rng(seed);
    let mut seen = 0;
    while seen < count {
        let mut squares = [None; 64];
        for man in "Kk".chars().chain(men.chars()) {
            // Pawns stay off the first and last ranks.
            let (low, high) = if man.eq_ignore_ascii_case(&'p') {
                (8, 56)
            } else {
                (0, 64)
            };
            let sq = loop {
                let sq = low + rng.below(high - low);
                if squares[sq].is_none() {
                    break sq;
                }
            };
            squares[sq] = Some(man);
        }
        let ranks: Vec<String> = (0..8)
            .rev()
            .map(|rank| {
                (0..8)
                    .map(|file| squares[rank * 8 + file].unwrap_or('1'))
                    .collect()
            })
            .collect();
        let Ok(pos) = parse_fen(&format!("{} w - - 0 1", ranks.join("/"))) else {
            continue;
        };
        if crate::movegen::king_attacked(&Standard, &pos, crate::types::Color::Black) {
            continue;
        }
        let moves = legal_moves(&Standard, &pos);
        visit(&pos, &moves);
        seen += 1;
    }
}
