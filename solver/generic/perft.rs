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

/// Depth of the subtrees `divide_until` counts whole, with a look at `stop` before
/// each: a few milliseconds of counting (Kiwipete's perft 4 is 4 million leaves), and
/// few enough for the looks to cost nothing.
const SUBTREE_DEPTH: u32 = 4;

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
        let Some(count) = split_count(game, &next, left, stop) else {
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

/// `perft` of `s`, split into subtrees of `SUBTREE_DEPTH` plies with a look at `stop`
/// before each (None: stopped), counted as `perft` counts.
fn split_count<G: TurnGame>(
    game: &G,
    s: &G::State,
    depth: u32,
    stop: &dyn Fn() -> bool,
) -> Option<u64> {
    if depth <= SUBTREE_DEPTH {
        return (!stop()).then(|| perft(game, s, depth));
    }
    let left = if game.completes_turn(s) {
        depth
    } else {
        depth - 1
    };
    let mut nodes = 0;
    for mv in game.moves(s) {
        nodes += split_count(game, &game.play(s, mv), left, stop)?;
    }
    Some(nodes)
}
