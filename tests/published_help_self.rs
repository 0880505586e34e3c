//! The help- and self-mates with published sources (positions/helpmates/published.epd,
//! positions/selfmates/published.epd): each line's full solution set, proved by the
//! solver, equals the one it carries in c1, which was checked against Popeye 4.104.

mod common;

use common::help_self::{published_set, solved_help, solved_self_keys};
use common::problems;

#[test]
fn published_helpmates_have_their_full_solution_sets() {
    let all = problems("positions/helpmates/published.epd");
    assert_eq!(all.len(), 28);
    for p in &all {
        assert_eq!(
            solved_help(p),
            published_set(p, "c1", "solutions"),
            "{:?}",
            p.id()
        );
    }
}

#[test]
fn published_selfmates_have_their_full_key_sets() {
    let all = problems("positions/selfmates/published.epd");
    assert_eq!(all.len(), 5);
    for p in &all {
        assert_eq!(
            solved_self_keys(p),
            published_set(p, "c1", "keys"),
            "{:?}",
            p.id()
        );
    }
}
