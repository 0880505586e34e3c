//! A search of more threads than one begins on one thread and hands its work to every
//! thread when it runs long (`search::halt`): the search is stopped as on a limit and
//! taken up again by the pool from what the table holds. Whenever that hand-over comes
//! (at once, in the middle of a first move, never), the answer must be that of one
//! thread: the same keys, tries and solution trees.

mod common;

use fairysolve::generic::search::{solve_for, Goal};
use fairysolve::generic::TurnGame;
use fairysolve::problem::Aim;
use fairysolve::search::solution::SolveOptions;
use fairysolve::search::tt::Table;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Hand-over moments: at once, early in the first moves, later, and the default.
const SOLO_TIMES: [Duration; 4] = [
    Duration::ZERO,
    Duration::from_micros(50),
    Duration::from_micros(700),
    Duration::from_millis(10),
];

fn options(threads: usize, solo_time: Duration) -> SolveOptions {
    SolveOptions {
        threads,
        tries: true,
        solo_time,
        ..SolveOptions::default()
    }
}

/// The single-board solver: every problem of the #3 collection, the #4 suite, and the
/// Trapdoor and Taxi collections.
#[test]
fn single_board_answers_do_not_depend_on_when_the_threads_join() {
    let mut compared = 0;
    let mut handed_over = 0;
    for file in [
        "positions/orthodox/threemovers.epd",
        "positions/bench/orthodox-dm4.epd",
        "positions/trapdoor/problems.epd",
        "positions/taxi/problems.epd",
    ] {
        for p in common::problems(file) {
            let Some(stip) = p
                .stipulation
                .filter(|s| s.aim == fairysolve::problem::Aim::Direct)
            else {
                continue;
            };
            let answer = |opts: &SolveOptions| {
                let table = Table::new(16);
                let stop = AtomicBool::new(false);
                let sol = p
                    .game
                    .solve(&table, &p.position, stip.moves, opts, &stop, &|_, _| {});
                assert!(sol.finished() && !sol.cut_short);
                (
                    format!("{:?} {:?} {:?}", sol.keys, sol.tries, sol.trees),
                    sol.threads,
                )
            };
            let (one, _) = answer(&options(1, Duration::ZERO));
            for solo in SOLO_TIMES {
                let (two, threads) = answer(&options(2, solo));
                assert_eq!(
                    one,
                    two,
                    "{file}: {:?} with the hand-over at {solo:?}",
                    p.id()
                );
                handed_over += usize::from(threads == 2);
                compared += 1;
            }
        }
    }
    assert!(compared >= 300, "only {compared} runs compared");
    // At once (and at 50 µs, for all but the quickest) the threads join.
    assert!(
        handed_over >= compared / 4,
        "{handed_over} of {compared} handed over"
    );
}

/// The goal of a stipulation the core proves by `solve_for` (help-mates and proof
/// games have searches of their own).
fn goal_of(aim: Aim) -> Option<Goal> {
    match aim {
        Aim::Direct => Some(Goal::Win),
        Aim::Selfmate => Some(Goal::SelfLoss),
        Aim::Help | Aim::ProofGame | Aim::ShortestProofGame => None,
    }
}

/// The core's answer on two threads equals one thread's at every hand-over moment;
/// returns the runs compared.
fn core_agrees<G: TurnGame>(
    game: &G,
    goal: Goal,
    state: &G::State,
    moves: u32,
    line: &str,
) -> usize {
    let answer = |opts: &SolveOptions| {
        let table = Table::new(8);
        let stop = AtomicBool::new(false);
        let sol = solve_for(game, goal, &table, state, moves, opts, &stop, &|_, _| {});
        assert!(sol.finished());
        format!("{:?} {:?} {:?}", sol.keys, sol.tries, sol.trees)
    };
    let one = answer(&options(1, Duration::ZERO));
    for solo in SOLO_TIMES {
        assert_eq!(one, answer(&options(2, solo)), "{line} at {solo:?}");
    }
    SOLO_TIMES.len()
}

/// The solver core: the Underworld and Looking-Glass collections, `#N` and `s#N`.
#[test]
fn core_answers_do_not_depend_on_when_the_threads_join() {
    let mut compared = 0;
    for rec in common::records("positions/underworld/problems.epd") {
        let line = fairysolve::epd::write_record(&rec);
        let p = fairysolve::underworld::setup::read_line(&line).unwrap();
        if let Some((stip, goal)) = p.stipulation.and_then(|s| Some((s, goal_of(s.aim)?))) {
            let game = fairysolve::underworld::Underworld;
            compared += core_agrees(&game, goal, &p.state, stip.moves, &line);
        }
    }
    for rec in common::records("positions/glass/problems.epd") {
        let line = fairysolve::epd::write_record(&rec);
        let p = fairysolve::glass::setup::read_line(&line).unwrap();
        if let Some((stip, goal)) = p.stipulation.and_then(|s| Some((s, goal_of(s.aim)?))) {
            let game = fairysolve::glass::Glass {
                attacker: p.state.turn,
            };
            compared += core_agrees(&game, goal, &p.state, stip.moves, &line);
        }
    }
    assert!(compared >= 28, "only {compared} runs compared");
}
