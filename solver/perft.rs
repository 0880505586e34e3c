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
    divide_until(game, pos, depth, bulk, &|| false).0
}

/// Depth of the subtrees `divide_until` counts whole, with a look at `stop` before
/// each: a few milliseconds of counting (Kiwipete's perft 4 is 4 million leaves), and
/// few enough for the looks to cost nothing.
const SUBTREE_DEPTH: u32 = 4;

/// `divide` that looks at `stop` before each of many small subtrees and, once it says
/// stop, ends: the first moves counted in full, and whether that was all of them.
pub fn divide_until<T: Terrain>(
    game: &Game<T>,
    pos: &Position,
    depth: u32,
    bulk: bool,
    stop: &dyn Fn() -> bool,
) -> (Vec<(Move, u64)>, bool) {
    let mut out = Vec::new();
    if depth == 0 {
        return (out, true);
    }
    for &mv in game.legal_moves(pos).iter() {
        let next = game.play(pos, mv);
        let n = match next.outcome {
            Some(_) if depth > 1 => Some(0),
            _ => split_count(game, &next.position, depth - 1, bulk, stop),
        };
        match n {
            Some(n) => out.push((mv, n)),
            None => return (out, false),
        }
    }
    (out, true)
}

/// `Game::perft` of `pos`, split into subtrees of `SUBTREE_DEPTH` plies with a look at
/// `stop` before each (None: stopped). The split counts as `divide` does: a game that ends before
/// the last ply adds nothing.
fn split_count<T: Terrain>(
    game: &Game<T>,
    pos: &Position,
    depth: u32,
    bulk: bool,
    stop: &dyn Fn() -> bool,
) -> Option<u64> {
    if depth <= SUBTREE_DEPTH {
        return (!stop()).then(|| game.perft(pos, depth, bulk));
    }
    let mut nodes = 0;
    for &mv in game.legal_moves(pos).iter() {
        let next = game.play(pos, mv);
        if next.outcome.is_none() {
            nodes += split_count(game, &next.position, depth - 1, bulk, stop)?;
        }
    }
    Some(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyGame;

    /// Split into subtrees, the counts are perft's; a stop at once counts nothing.
    #[test]
    fn divide_until_counts_as_perft() {
        for (line, depth) in [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                3,
            ),
            ("4k3/8/8/8/8/8/3PPP2/R3K2R w KQ - trapdoor 1;", 4),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - taxi \"2 2\";", 4),
        ] {
            let Ok(crate::epd::Line::Position(rec)) = crate::epd::parse_line(line, 1) else {
                panic!("{line}");
            };
            let p = crate::problem::from_record(*rec).expect(line);
            let game: &AnyGame = &p.game;
            let whole = game.perft(&p.position, depth, true);
            let (split, done) =
                crate::with_game!(game, g => divide_until(g, &p.position, depth, true, &|| false));
            assert!(done);
            assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), whole, "{line}");
            let (none, done) =
                crate::with_game!(game, g => divide_until(g, &p.position, depth, true, &|| true));
            assert!(!done && none.is_empty(), "{line}");
        }
    }
}
