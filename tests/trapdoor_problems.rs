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

/// rules.md 1 and 8.3: the Trapdoor self-mate bench suite
/// (`positions/bench/trapdoor-self.epd`, published self-mates on Trapdoor boards) has
/// the key sets its `c1` lists, proved with the attacker's last move judged with the
/// falls (`search::last_move::self_mate_candidates`): every line with T = 1 and no
/// Taxi, and the s#4 of the others (the deeper ones take seconds each).
#[test]
fn the_trapdoor_self_mate_suite_has_its_keys() {
    let (mut judged, mut with_keys) = (0, 0);
    for p in problems("positions/bench/trapdoor-self.epd") {
        let n = p.stipulation.unwrap().moves;
        let rules = p.game.rules();
        if (rules.trapdoor.expect("Trapdoor").timer == 2 || rules.taxi.is_some()) && n > 4 {
            continue;
        }
        let got = common::self_mate_keys(&p, n);
        assert_eq!(got, published_keys(&p), "{:?}", p.id());
        judged += 1;
        with_keys += usize::from(got != "none");
    }
    assert_eq!((judged, with_keys), (19, 10));
}
