//! Perft: the number of move sequences of a given length (rules.md 7.1), the test and
//! benchmark of the move generator.

use crate::game::Game;
use crate::geometry::{Geometry, Terrain};
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// The positions every perft benchmark uses (the standard suite's start position,
/// Kiwipete and position 3), with the depth measured in bulk-counting runs.
pub const BENCH_POSITIONS: [(&str, &str, u32); 3] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
    ),
    ("position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7),
];

/// FIDE perft on one geometry. `bulk` counts the last ply from the move count.
pub fn perft_fide<G: Geometry>(geo: &G, pos: &Position, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    if bulk && depth == 1 {
        return movegen::count_legal(geo, pos);
    }
    let mut moves = MoveList::new();
    movegen::generate(geo, pos, &mut moves);
    let mut nodes = 0;
    for &mv in moves.iter() {
        let mut child = *pos;
        // No count reads the key.
        child.play_fide_unkeyed(geo, mv);
        // Observed, so that making a leaf move is never optimised away.
        nodes += perft_fide(geo, std::hint::black_box(&child), depth - 1, bulk);
    }
    nodes
}

/// Perft split by first move, in generation order.
pub fn divide<T: Terrain>(
    game: &Game<T>,
    pos: &Position,
    depth: u32,
    bulk: bool,
) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    game.legal_moves(pos)
        .iter()
        .map(|&mv| {
            let next = game.play(pos, mv);
            let n = match next.outcome {
                Some(_) if depth > 1 => 0,
                _ => game.perft(&next.position, depth - 1, bulk),
            };
            (mv, n)
        })
        .collect()
}
