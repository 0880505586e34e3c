//! Sets spread over difficulty (`generate --spread`): a run proves a pool of puzzles
//! several times the count asked for and keeps the count of them at evenly spaced ranks
//! of hardness, from the easiest to the hardest, each with its level in the set.
//!
//! A puzzle's **hardness** is its effort (the positions a plain proof visits from a
//! fresh table: what finding the solution costs a machine) times one more than its
//! tries (first moves refuted by a single defence: what sends a human solver the wrong
//! way). Both are proved figures of the puzzle, the same on every machine and shard.

use super::{Puzzle, Theme};
use crate::generate::quality::Qualities;
use crate::problem::Stipulation;
use serde_json::Value;

/// The pool a spread run proves, as a multiple of the count asked for.
pub const POOL: u64 = 4;

/// The levels of a spread set: 1 (easiest) to `LEVELS`.
pub const LEVELS: usize = 5;

/// A puzzle's hardness (module head); `None` when its effort was not measured.
pub fn hardness(p: &Puzzle) -> Option<u64> {
    p.effort.map(|e| e.saturating_mul(1 + p.tries.len() as u64))
}

/// `count` of `pool` at evenly spaced ranks of hardness (ties in the pool's order),
/// easiest first, each with its level (1 to `LEVELS`, by its rank in the set: the
/// easiest 1, the hardest `LEVELS`). A puzzle whose effort was not measured ranks as
/// the hardest.
pub fn spread(pool: Vec<Puzzle>, count: usize) -> Vec<(usize, Puzzle)> {
    let mut ranked: Vec<(u64, usize, Puzzle)> = pool
        .into_iter()
        .enumerate()
        .map(|(i, p)| (hardness(&p).unwrap_or(u64::MAX), i, p))
        .collect();
    ranked.sort_by_key(|&(h, i, _)| (h, i));
    let n = ranked.len();
    let take = count.min(n);
    if take == 0 {
        return Vec::new();
    }
    // Rank i * (n - 1) / (take - 1), rounded: the easiest and the hardest both kept.
    let picks: Vec<usize> = (0..take)
        .map(|i| {
            if take == 1 {
                (n - 1) / 2
            } else {
                (i * (n - 1) + (take - 1) / 2) / (take - 1)
            }
        })
        .collect();
    let mut slots: Vec<Option<Puzzle>> = ranked.into_iter().map(|(_, _, p)| Some(p)).collect();
    picks
        .into_iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let level = if take == 1 {
                1
            } else {
                1 + i * (LEVELS - 1) / (take - 1)
            };
            slots[r].take().map(|p| (level, p))
        })
        .collect()
}

/// A puzzle read back from its JSON line (`Puzzle::json`), as a spread run keeps its
/// pool between runs; `None` when the line is no such object.
pub fn from_json(v: &Value) -> Option<Puzzle> {
    let epd = v["epd"].as_str()?;
    let (diagram, tail) = epd.split_once(" stip \"")?;
    let pv = tail
        .split_once("; pv ")?
        .1
        .split(';')
        .next()?
        .split_whitespace()
        .map(String::from)
        .collect();
    let retro = tail
        .split_once("c0 \"retro: ")
        .and_then(|(_, r)| r.split_once('"'))
        .map(|(r, _)| r.to_string());
    let strings = |v: &Value| -> Option<Vec<String>> {
        v.as_array()?
            .iter()
            .map(|s| s.as_str().map(String::from))
            .collect()
    };
    let q = &v["qualities"];
    let qualities = Qualities {
        quiet_key: q["quiet_key"].as_bool(),
        flights_taken: strings(&q["flights_taken"]),
        threat: q["threat"].as_str().map(|t| t == "threat"),
        variations: q["variations"].as_u64()? as usize,
        no_duals: q["no_duals"].as_bool()?,
        tries: q["tries"].as_u64()? as usize,
        superfluous: strings(&q["superfluous"]),
        model_mate: q["model_mate"].as_bool(),
    };
    Some(Puzzle {
        seed: v["seed"].as_u64()?,
        index: v["index"].as_u64()?,
        diagram: diagram.to_string(),
        stip: Stipulation::parse(v["stip"].as_str()?)?,
        key: v["key"].as_str()?.to_string(),
        pv,
        themes: strings(&v["themes"])?
            .iter()
            .map(|t| Theme::parse(t))
            .collect::<Option<_>>()?,
        score: v["score"].as_f64()?,
        tries: strings(&v["tries"])?,
        variations: v["variations"].as_u64()? as usize,
        retro,
        qualities,
        effort: v["effort"].as_u64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(index: u64, effort: u64, tries: usize) -> Puzzle {
        Puzzle {
            seed: 1,
            index,
            diagram: "8/8/8/8/8/8/1Q6/k1K5 w - -".to_string(),
            stip: Stipulation::parse("#1").expect("a stipulation"),
            key: "b2b1".to_string(),
            pv: vec!["b2b1".to_string()],
            themes: vec![Theme::Variations(2), Theme::Economy],
            score: 0.5,
            tries: (0..tries).map(|t| format!("b2b{}", t + 3)).collect(),
            variations: 1,
            retro: None,
            qualities: Qualities {
                quiet_key: Some(false),
                flights_taken: Some(vec!["e7".to_string()]),
                threat: None,
                variations: 1,
                no_duals: true,
                tries,
                superfluous: Some(Vec::new()),
                model_mate: Some(true),
            },
            effort: Some(effort),
        }
    }

    /// Twelve puzzles of hardness 1..12 (given in another order), four kept: the
    /// easiest, the hardest and two evenly between, easiest first, levels rising.
    #[test]
    fn a_spread_keeps_evenly_spaced_ranks_from_the_easiest_to_the_hardest() {
        let pool: Vec<Puzzle> = [7u64, 1, 12, 3, 5, 9, 2, 11, 4, 6, 10, 8]
            .iter()
            .enumerate()
            .map(|(i, &e)| puzzle(i as u64, e, 0))
            .collect();
        let set = spread(pool, 4);
        let got: Vec<(usize, u64)> = set.iter().map(|(l, p)| (*l, p.effort.unwrap())).collect();
        assert_eq!(got, [(1, 1), (2, 5), (3, 8), (5, 12)]);
        // Tries multiply the effort: 100 with two tries is harder than 250 with none.
        let set = spread(
            vec![puzzle(0, 300, 2), puzzle(1, 250, 0), puzzle(2, 100, 2)],
            3,
        );
        let order: Vec<u64> = set.iter().map(|(_, p)| p.index).collect();
        assert_eq!(order, [1, 2, 0]);
        // Fewer in the pool than asked for: every one, levels spread alike.
        let set = spread(vec![puzzle(0, 5, 0), puzzle(1, 1, 0)], 10);
        let got: Vec<(usize, u64)> = set.iter().map(|(l, p)| (*l, p.index)).collect();
        assert_eq!(got, [(1, 1), (5, 0)]);
        assert!(spread(Vec::new(), 3).is_empty());
    }

    #[test]
    fn a_puzzle_reads_back_from_its_json_line() {
        let mut p = puzzle(42, 1234, 2);
        p.retro = Some("the pawn on e4 is ticking".to_string());
        let back = from_json(&p.json()).expect("the line reads back");
        assert_eq!(back, p);
        assert_eq!(from_json(&serde_json::json!({"epd": "8/8 w"})), None);
    }
}
