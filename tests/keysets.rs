//! Every key set of the bundled problem collections, proved by the solver, must equal
//! the published one (c1 "keys: ..."): orthodox #2 and #3 with published solutions, and
//! the #4 benchmark suite with Popeye 4.104's key sets.

mod common;

use common::{problems, published_keys, solved_keys};
use fairysolve::search::solution::SolveOptions;
use fairysolve::search::tt::Table;
use std::sync::atomic::AtomicBool;

fn check_collection(rel: &str, threads: usize, min: usize, skip: &[&str]) {
    let all = problems(rel);
    assert!(all.len() >= min, "{rel}: {} problems", all.len());
    for p in all {
        if p.id().is_some_and(|id| skip.contains(&id)) {
            continue;
        }
        let n = p.stipulation.expect("dm").moves;
        assert_eq!(
            solved_keys(&p, &p.position, n, threads),
            published_keys(&p),
            "{rel}:{} {:?}",
            p.record.line,
            p.id()
        );
    }
}

#[test]
fn orthodox_twomovers() {
    check_collection("positions/orthodox/twomovers.epd", 2, 30, &[]);
}

#[test]
fn orthodox_threemovers() {
    check_collection("positions/orthodox/threemovers.epd", 2, 20, &[]);
}

#[test]
fn popeye_dm4_suite() {
    check_collection("positions/bench/orthodox-dm4.epd", 2, 35, &[]);
}

#[test]
fn composed_suite_fourmovers() {
    // composed-02 (#5) takes Popeye seconds; the #4 lines and the Loyd #5 are checked.
    check_collection("positions/bench/composed.epd", 2, 4, &["composed-02"]);
}

#[test]
fn results_equal_for_one_and_two_threads() {
    let table = Table::new(16);
    let stop = AtomicBool::new(false);
    for p in problems("positions/orthodox/threemovers.epd")
        .into_iter()
        .take(8)
    {
        let n = p.stipulation.unwrap().moves;
        let run = |threads| {
            let opts = SolveOptions {
                threads,
                tries: true,
                ..SolveOptions::default()
            };
            let s = p
                .game
                .solve(&table, &p.position, n, &opts, &stop, &|_, _| {});
            let tries: Vec<_> = s
                .tries
                .iter()
                .map(|t| (t.mv, t.refutations.clone()))
                .collect();
            (s.keys, tries, s.trees.len())
        };
        assert_eq!(run(1), run(2), "{:?}", p.id());
    }
}
