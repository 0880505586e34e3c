//! The Trapdoor problem collection: each hand-derived key set (c1) is the solver's.

mod common;

use common::{problems, published_keys, solved_keys};

#[test]
fn trapdoor_collection_key_sets() {
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
        let n = p.stipulation.unwrap().moves;
        for threads in [1, 2] {
            assert_eq!(
                solved_keys(&p, &p.position, n, threads),
                published_keys(&p),
                "{:?} with {threads} thread(s)",
                p.id()
            );
        }
    }
    assert!(
        t1 >= 5 && t2 >= 5 && with_timers >= 10,
        "T=1: {t1}, T=2: {t2}, timers: {with_timers}"
    );
}
