//! Helpers shared by the integration tests.
#![allow(dead_code)]

use fairysolve::epd::{self, Record};
use fairysolve::problem::{self, Problem};
use std::path::PathBuf;

pub fn repo_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Every record of a position file under the repository; panics on a bad line, since
/// the bundled files must all read.
pub fn records(rel: &str) -> Vec<Record> {
    let text = std::fs::read_to_string(repo_path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    epd::parse_text(&text)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{rel}: {e}")))
        .collect()
}

pub fn problems(rel: &str) -> Vec<Problem> {
    records(rel)
        .into_iter()
        .map(|r| {
            let line = r.line;
            problem::from_record(r).unwrap_or_else(|e| panic!("{rel}:{line}: {e}"))
        })
        .collect()
}

/// Reads one position line (FEN plus operations).
pub fn problem(line: &str) -> Problem {
    match epd::parse_line(line, 1) {
        Ok(epd::Line::Position(r)) => {
            problem::from_record(*r).unwrap_or_else(|e| panic!("{line}: {e}"))
        }
        other => panic!("{line}: {other:?}"),
    }
}

/// Expected perft counts `Dn` of a record.
pub fn expected_counts(rec: &Record) -> Vec<(u32, u64)> {
    rec.operations
        .iter()
        .filter_map(|o| Some((epd::perft_depth(&o.opcode)?, o.single()?.parse().ok()?)))
        .collect()
}
