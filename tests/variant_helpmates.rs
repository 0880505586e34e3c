//! Help-mates whose solutions differ from the FIDE ones on the same diagram
//! (positions/helpmates/variants.epd): each line's full solution set under its rules is
//! its c1, and the same diagram's under FIDE rules (the variant operations left out) is
//! its c2, so the difference the comments describe is proved both ways.

mod common;

use common::help_self::{published_set, solved_help};
use common::problems;
use fairysolve::epd::SINGLE_BOARD_OPS;
use fairysolve::problem::{self, Problem};

/// The same line without its variant operations: the diagram under FIDE rules.
fn under_fide(p: &Problem) -> Problem {
    let mut rec = p.record.clone();
    rec.operations
        .retain(|o| !SINGLE_BOARD_OPS.contains(&o.opcode.as_str()));
    problem::from_record(rec).unwrap_or_else(|e| panic!("{:?} under FIDE: {e}", p.id()))
}

#[test]
fn variant_helpmates_differ_from_fide_as_published() {
    let all = problems("positions/helpmates/variants.epd");
    assert_eq!(all.len(), 4);
    for p in &all {
        let variant = solved_help(p);
        assert_eq!(variant, published_set(p, "c1", "solutions"), "{:?}", p.id());
        let fide = solved_help(&under_fide(p));
        assert_eq!(
            fide,
            published_set(p, "c2", "solutions"),
            "{:?} FIDE",
            p.id()
        );
        assert_ne!(variant, fide, "{:?}", p.id());
    }
}
