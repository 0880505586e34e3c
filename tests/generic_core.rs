//! The solver core that every game plugs into (`fairysolve::generic`) against the fast
//! single-board search, on the same problems: the core plays every move of both sides
//! with no shortcut, so equal key sets check both. The single-board games play through
//! the core by `generic::adapter::OneBoard`.

mod common;

use fairysolve::generic::adapter::{BoardState, OneBoard};
use fairysolve::generic::search::solve;
use fairysolve::search::solution::SolveOptions;
use fairysolve::search::tt::Table;
use std::sync::atomic::AtomicBool;

/// The core's key set of `#n`, sorted, in coordinates.
fn core_keys(p: &fairysolve::problem::Problem, n: u32) -> String {
    let table = Table::new(16);
    let stop = AtomicBool::new(false);
    let opts = SolveOptions {
        threads: 2,
        tree: false,
        ..SolveOptions::default()
    };
    let root = BoardState::new(p.position);
    let keys = fairysolve::with_game!(&p.game, g => {
        let game = OneBoard { game: g, attacker: p.position.turn() };
        let sol = solve(&game, &table, &root, n, &opts, &stop, &|_, _| {});
        assert!(sol.finished());
        sol.keys.iter().map(|k| k.0.clone()).collect::<Vec<_>>()
    });
    let mut keys = keys;
    keys.sort();
    if keys.is_empty() {
        "none".into()
    } else {
        keys.join(" ")
    }
}

/// Every #2 of the orthodox collection, and under Trapdoor, Taxi and on an Earthquake
/// board, and the bundled variant collections up to #3.
#[test]
fn the_core_finds_the_keys_the_fast_search_finds() {
    let mut compared = 0;
    for (file, extra) in [
        ("positions/orthodox/twomovers.epd", ""),
        ("positions/orthodox/twomovers.epd", " trapdoor 1;"),
        (
            "positions/orthodox/twomovers.epd",
            " taxi \"9 3\"; taxi_income 1;",
        ),
        ("positions/orthodox/twomovers.epd", " earthquake \"1 0\";"),
        ("positions/trapdoor/problems.epd", ""),
        ("positions/taxi/problems.epd", ""),
        ("positions/earthquake/problems.epd", ""),
    ] {
        for rec in common::records(file) {
            let line = format!("{}{extra}", fairysolve::epd::write_record(&rec));
            let Ok(fairysolve::epd::Line::Position(rec)) = fairysolve::epd::parse_line(&line, 1)
            else {
                continue;
            };
            // A diagram that this board or these rules refuse is skipped.
            let Ok(p) = fairysolve::problem::from_record(*rec) else {
                continue;
            };
            let Some(n) = p.stipulation.map(|s| s.moves).filter(|&n| n <= 3) else {
                continue;
            };
            let fast = common::solved_keys(&p, &p.position, n, 1);
            assert_eq!(core_keys(&p, n), fast, "{line}");
            compared += 1;
        }
    }
    assert!(compared > 150, "{compared}");
}
