//! Perft for any `TurnGame` (rules.md 7.1): the number of move sequences of exactly the
//! given number of plies. A game that ends earlier adds nothing; a game-ending move on
//! the last ply counts. A choice that completes the previous turn (`TurnGame::completes_turn`
//! true) multiplies the sequences without taking a ply.

use super::TurnGame;

/// Sequences of `depth` plies from `s`.
pub fn perft<G: TurnGame>(game: &G, s: &G::State, depth: u32) -> u64 {
    if game.completes_turn(s) {
        return game
            .moves(s)
            .iter()
            .map(|&mv| perft(game, &game.play(s, mv), depth))
            .sum();
    }
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return game.count_leaves(s);
    }
    game.moves(s)
        .iter()
        .map(|&mv| perft(game, &game.play(s, mv), depth - 1))
        .sum()
}

/// `perft` split by the first move (its coordinates), in generation order.
pub fn divide<G: TurnGame>(game: &G, s: &G::State, depth: u32) -> Vec<(String, u64)> {
    divide_until(game, s, depth, &|| false).0
}

/// Plies below the first move that `divide_until` splits further, so that it looks at
/// `stop` before subtrees small enough to count in a fraction of a second.
const SPLIT_PLIES: u32 = 2;

/// `divide` that looks at `stop` before each of many small subtrees and, once it says
/// stop, ends: the first moves counted in full, and whether that was all of them.
pub fn divide_until<G: TurnGame>(
    game: &G,
    s: &G::State,
    depth: u32,
    stop: &dyn Fn() -> bool,
) -> (Vec<(String, u64)>, bool) {
    let mut out: Vec<(String, u64)> = Vec::new();
    for mv in game.moves(s) {
        let next = game.play(s, mv);
        let left = if game.completes_turn(s) {
            depth
        } else {
            depth.saturating_sub(1)
        };
        let Some(count) = split_count(game, &next, left, SPLIT_PLIES, stop) else {
            // The coordinates of a first move counted only in part are left out whole.
            let coord = game.coord(s, mv);
            out.retain(|(c, _)| *c != coord);
            return (out, false);
        };
        let coord = game.coord(s, mv);
        match out.iter_mut().find(|(c, _)| *c == coord) {
            Some(entry) => entry.1 += count,
            None => out.push((coord, count)),
        }
    }
    (out, true)
}

/// `perft` of `s`, split `levels` plies deep with a look at `stop` before each subtree
/// (None: stopped), counted as `perft` counts.
fn split_count<G: TurnGame>(
    game: &G,
    s: &G::State,
    depth: u32,
    levels: u32,
    stop: &dyn Fn() -> bool,
) -> Option<u64> {
    if levels == 0 || depth < 2 {
        return (!stop()).then(|| perft(game, s, depth));
    }
    let left = if game.completes_turn(s) {
        depth
    } else {
        depth - 1
    };
    let mut nodes = 0;
    for mv in game.moves(s) {
        nodes += split_count(game, &game.play(s, mv), left, levels - 1, stop)?;
    }
    Some(nodes)
}
