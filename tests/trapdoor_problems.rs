//! The Trapdoor problem collection: each hand-derived key set (c1) is the solver's.

mod common;

use common::problems;
use fairysolve::search::solution::SolveOptions;
use fairysolve::search::tt::Table;
use std::sync::atomic::AtomicBool;

#[test]
fn trapdoor_collection_key_sets() {
    let table = Table::new(16);
    let stop = AtomicBool::new(false);
    let all = problems("positions/trapdoor/problems.epd");
    assert!(all.len() >= 20);
    let mut t1 = 0;
    let mut t2 = 0;
    let mut with_timers = 0;
    for p in all {
        let td = p.game.rules().trapdoor.expect("a Trapdoor problem");
        t1 += (td.timer == 1) as usize;
        t2 += (td.timer == 2) as usize;
        with_timers += p.record.get("timers").is_some() as usize;
        let want = p
            .record
            .get("c1")
            .and_then(|o| o.single())
            .unwrap()
            .strip_prefix("keys: ")
            .unwrap()
            .to_string();
        for threads in [1, 2] {
            let opts = SolveOptions {
                threads,
                tree: true,
                ..SolveOptions::default()
            };
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
            let got = if keys.is_empty() {
                "none".to_string()
            } else {
                keys.join(" ")
            };
            assert_eq!(got, want, "{:?} with {threads} thread(s)", p.id());
        }
    }
    assert!(
        t1 >= 5 && t2 >= 5 && with_timers >= 10,
        "T=1: {t1}, T=2: {t2}, timers: {with_timers}"
    );
}
