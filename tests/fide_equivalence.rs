//! Where the rules say a variant coincides with FIDE chess, the answers coincide:
//! a Trapdoor board whose timer outlasts the search (rules.md 1.1-1.2: nothing that
//! arrives can fall before the end) gives FIDE perft counts and FIDE key sets.

mod common;

use common::problems;
use fairysolve::fen::write_fen;
use fairysolve::game::{Game, Rules};
use fairysolve::search::solution::{solve, SolveOptions};
use fairysolve::search::tt::Table;
use fairysolve::trapdoor::{FallOrder, Trapdoor};
use fairysolve::Position;
use proptest::prelude::*;
use std::sync::atomic::AtomicBool;

fn trapdoor(timer: u8, order: FallOrder) -> Game {
    Game::new(Rules {
        trapdoor: Some(Trapdoor { timer, order }),
        ..Rules::default()
    })
}

/// A position after `plies` random legal moves from the start (FIDE).
fn random_position(seed: u64, plies: usize) -> Position {
    let game = Game::fide();
    let mut pos = Position::startpos();
    let mut rng = common::Rng(seed | 1);
    for _ in 0..plies {
        let moves = game.legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        pos = game.play(&pos, moves[rng.below(moves.len())]).position;
    }
    pos
}

fn keys(game: &Game, pos: &Position, n: u32, table: &Table) -> Vec<String> {
    let stop = AtomicBool::new(false);
    let opts = SolveOptions {
        tree: false,
        ..SolveOptions::default()
    };
    let mut v: Vec<String> = solve(game, table, pos, n, &opts, &stop, &|_, _| {})
        .keys
        .iter()
        .map(|(m, w)| format!("{}/{w}", m.coord(false)))
        .collect();
    v.sort();
    v
}

#[test]
fn perft_with_a_long_timer_is_fide_perft() {
    // Depth 4: each side moves twice; a timer of 3 never expires.
    let start = Position::startpos();
    for order in [FallOrder::MateFirst, FallOrder::FallsFirst] {
        assert_eq!(trapdoor(3, order).perft(&start, 4, true), 197_281);
    }
    for p in problems("positions/perft/standard.epd")
        .into_iter()
        .skip(1)
        .take(3)
    {
        let want = Game::fide().perft(&p.position, 3, false);
        assert_eq!(
            trapdoor(2, FallOrder::MateFirst).perft(&p.position, 3, false),
            want
        );
    }
}

#[test]
fn a_short_timer_changes_perft() {
    // The test above can fail: with T = 1 pieces fall and the counts differ.
    let start = Position::startpos();
    assert_ne!(
        trapdoor(1, FallOrder::MateFirst).perft(&start, 4, true),
        197_281
    );
}

#[test]
fn twomovers_with_a_long_timer_keep_their_keys() {
    let table = Table::new(16);
    for p in problems("positions/orthodox/twomovers.epd") {
        let fide = keys(&Game::fide(), &p.position, 2, &table);
        assert_eq!(
            keys(&trapdoor(2, FallOrder::MateFirst), &p.position, 2, &table),
            fide,
            "{:?}",
            p.id()
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn random_positions_trapdoor_equals_fide(seed in any::<u64>(), plies in 20usize..80) {
        let pos = random_position(seed, plies);
        let table = Table::new(4);
        let game = Game::fide();
        if game.legal_moves(&pos).is_empty() {
            return Ok(());
        }
        let fide = keys(&game, &pos, 2, &table);
        let td = keys(&trapdoor(3, FallOrder::MateFirst), &pos, 2, &table);
        prop_assert_eq!(td, fide, "{}", write_fen(&pos));
    }
}
