//! Perft against published counts (chessprogramming.org "Perft Results" and
//! "Chess960 Perft Results"): the move generator's proof of exactness.

mod common;

use common::{expected_counts, problems};

/// Runs every expected count of a file up to `max_nodes` leaves.
fn check_file(rel: &str, max_nodes: u64, min_positions: usize) {
    let mut checked = 0;
    for p in problems(rel) {
        let mut any = false;
        for (depth, want) in expected_counts(&p.record) {
            if want > max_nodes {
                continue;
            }
            let got = p.game.perft(&p.position, depth, true);
            assert_eq!(got, want, "{rel}:{} depth {depth}", p.record.line);
            any = true;
        }
        checked += any as usize;
    }
    assert!(
        checked >= min_positions,
        "{rel}: only {checked} positions checked"
    );
}

#[test]
fn standard_suite_to_published_depths() {
    // Start position to depth 6, Kiwipete to 5, position 3 to 7, positions 4-6 to 5.
    check_file("positions/perft/standard.epd", 200_000_000, 7);
}

#[test]
fn chess960_positions() {
    check_file("positions/perft/chess960.epd", 20_000_000, 30);
}

#[test]
fn no_bulk_counting_agrees() {
    for p in problems("positions/perft/standard.epd") {
        for (depth, want) in expected_counts(&p.record) {
            if want <= 5_000_000 {
                assert_eq!(p.game.perft(&p.position, depth, false), want);
            }
        }
    }
}
