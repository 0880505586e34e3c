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
    let mut out: Vec<(String, u64)> = Vec::new();
    for mv in game.moves(s) {
        let next = game.play(s, mv);
        let count = if game.completes_turn(s) {
            perft(game, &next, depth)
        } else {
            perft(game, &next, depth.saturating_sub(1))
        };
        let coord = game.coord(s, mv);
        match out.iter_mut().find(|(c, _)| *c == coord) {
            Some(entry) => entry.1 += count,
            None => out.push((coord, count)),
        }
    }
    out
}
