//! Every key set of the bundled problem collections, proved by the solver, must equal
//! the published one (c1 "keys: ..."): orthodox #2 and #3 with published solutions, and
//! the #4 benchmark suite with Popeye 4.104's key sets.

mod common;

use common::problems;
use fairysolve::search::solution::SolveOptions;
use fairysolve::search::tt::Table;
use std::sync::atomic::AtomicBool;

fn published_keys(p: &fairysolve::problem::Problem) -> Vec<String> {
    let c1 = p
        .record
        .get("c1")
        .and_then(|o| o.single())
        .unwrap_or_else(|| panic!("line {}: no c1 keys", p.record.line));
    let list = c1.strip_prefix("keys: ").expect("c1 \"keys: ...\"");
    let mut v: Vec<String> = if list == "none" {
        Vec::new()
    } else {
        list.split_whitespace().map(String::from).collect()
    };
    v.sort();
    v
}

fn check_collection(rel: &str, threads: usize, min: usize) {
    let table = Table::new(64);
    let stop = AtomicBool::new(false);
    let opts = SolveOptions {
        threads,
        tree: false,
        ..SolveOptions::default()
    };
    let all = problems(rel);
    assert!(all.len() >= min, "{rel}: {} problems", all.len());
    for p in all {
        let n = p.stipulation.expect("dm").moves;
        let sol = p
            .game
            .solve(&table, &p.position, n, &opts, &stop, &|_, _| {});
        assert!(sol.complete());
        let mut keys: Vec<String> = sol
            .keys
            .iter()
            .map(|(m, _)| m.coord(p.position.is_chess960()).to_string())
            .collect();
        keys.sort();
        assert_eq!(
            keys,
            published_keys(&p),
            "{rel}:{} {:?}",
            p.record.line,
            p.id()
        );
    }
}

#[test]
fn orthodox_twomovers() {
    check_collection("positions/orthodox/twomovers.epd", 2, 30);
}

#[test]
fn orthodox_threemovers() {
    check_collection("positions/orthodox/threemovers.epd", 2, 20);
}

#[test]
fn popeye_dm4_suite() {
    check_collection("positions/bench/orthodox-dm4.epd", 2, 35);
}

#[test]
fn composed_suite_fourmovers() {
    // composed-02 (#5) takes Popeye seconds; the #4 lines and the Loyd #5 are checked.
    let table = Table::new(64);
    let stop = AtomicBool::new(false);
    let opts = SolveOptions {
        threads: 2,
        tree: false,
        ..SolveOptions::default()
    };
    for p in problems("positions/bench/composed.epd") {
        if p.id() == Some("composed-02") {
            continue;
        }
        let n = p.stipulation.unwrap().moves;
        let sol = p
            .game
            .solve(&table, &p.position, n, &opts, &stop, &|_, _| {});
        let mut keys: Vec<String> = sol
            .keys
            .iter()
            .map(|(m, _)| m.coord(false).to_string())
            .collect();
        keys.sort();
        assert_eq!(keys, published_keys(&p), "{:?}", p.id());
    }
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
