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

/// The core's keys of `#n` with `opts` (no tree), and whether it finished.
fn core_solve(
    p: &fairysolve::problem::Problem,
    n: u32,
    opts: SolveOptions,
) -> (Vec<(String, String, u32)>, bool) {
    let table = Table::new(16);
    let stop = AtomicBool::new(false);
    let opts = SolveOptions {
        tree: false,
        ..opts
    };
    let root = BoardState::new(p.position);
    fairysolve::with_game!(&p.game, g => {
        let game = OneBoard { game: g, attacker: p.position.turn() };
        let sol = solve(&game, &table, &root, n, &opts, &stop, &|_, _| {});
        (sol.keys.clone(), sol.finished())
    })
}

/// The core's key set of `#n`, sorted, in coordinates.
fn core_keys(p: &fairysolve::problem::Problem, n: u32) -> String {
    let opts = SolveOptions {
        threads: 2,
        ..SolveOptions::default()
    };
    let (keys, finished) = core_solve(p, n, opts);
    assert!(finished);
    let mut keys: Vec<String> = keys.into_iter().map(|k| k.0).collect();
    keys.sort();
    if keys.is_empty() {
        "none".into()
    } else {
        keys.join(" ")
    }
}

/// The problems of `file`, each line with `extra` added (a game's operation), as read
/// by the solver; a diagram this board or these rules refuse is skipped.
fn problems(file: &str, extra: &str) -> Vec<(String, fairysolve::problem::Problem)> {
    common::records(file)
        .into_iter()
        .filter_map(|rec| {
            let line = format!("{}{extra}", fairysolve::epd::write_record(&rec));
            let Ok(fairysolve::epd::Line::Position(rec)) = fairysolve::epd::parse_line(&line, 1)
            else {
                return None;
            };
            let p = fairysolve::problem::from_record(*rec).ok()?;
            Some((line, p))
        })
        .collect()
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
        for (line, p) in problems(file, extra) {
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

/// `SolveOptions::stop_at_keys` (the generator's uniqueness question): on the same
/// collections, a problem with one key or none is solved in full, as without it; a
/// cooked one stops at two of its keys, each with its own length, and says it is not
/// finished unless nothing was left (then every key is there).
#[test]
fn stopping_at_two_keys_keeps_what_it_proved() {
    let (mut sound, mut cooked) = (0, 0);
    for (file, extra) in [
        ("positions/orthodox/twomovers.epd", ""),
        ("positions/orthodox/twomovers.epd", " trapdoor 1;"),
        ("positions/orthodox/twomovers.epd", " earthquake \"1 0\";"),
        ("positions/taxi/problems.epd", ""),
    ] {
        for (line, p) in problems(file, extra) {
            let Some(n) = p.stipulation.map(|s| s.moves).filter(|&n| n <= 2) else {
                continue;
            };
            let keys = |stop_at_keys: Option<usize>| {
                let opts = SolveOptions {
                    threads: 1,
                    stop_at_keys,
                    ..SolveOptions::default()
                };
                core_solve(&p, n, opts)
            };
            let (all, finished) = keys(None);
            assert!(finished, "{line}");
            let (some, some_finished) = keys(Some(2));
            if all.len() <= 1 {
                assert_eq!((&some, some_finished), (&all, true), "{line}");
                sound += 1;
            } else {
                assert_eq!(some.len(), 2, "{line}");
                assert!(some.iter().all(|k| all.contains(k)), "{line}");
                // Finished only where the second key was the last first move.
                if some_finished {
                    assert_eq!(some, all, "{line}");
                } else {
                    cooked += 1;
                }
            }
        }
    }
    assert!(
        sound > 50 && cooked > 10,
        "{sound} sound, {cooked} cooked and stopped"
    );
}
