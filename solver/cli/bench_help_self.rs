//! The help-mate, self-mate and proof-game rows of `fairysolve bench` (rules.md 8.2, 8.3,
//! 9): each suite's CPU time (one search thread), and beside it the peer's time and
//! whether the two agree. What
//! is compared is a key set: for s#N the keys, for h#N the first moves of all solutions,
//! each once, which a peer that prints only solutions can give as well.

use super::bench::{run_peer, Suite};
use fairysolve::cpu_time::process_cpu_time;
use fairysolve::generic::adapter::{BoardState, OneBoard};
use fairysolve::generic::help::solve_help;
use fairysolve::generic::search::{solve_for, Goal};
use fairysolve::problem::{Aim, Problem};
use fairysolve::search::solution::SolveOptions;
use fairysolve::search::tt::Table;
use fairysolve::Color;
use std::time::Duration;

/// The bundled suites of these rows.
pub const SUITES: &[&str] = &[
    "positions/bench/helpmates-h2.epd",
    "positions/bench/helpmates-h3.epd",
    "positions/bench/helpmates-deep.epd",
    "positions/bench/helpmates-published-deep.epd",
    "positions/bench/selfmates-s2-s3.epd",
    "positions/bench/selfmates-s4-s6.epd",
    "positions/bench/proofgames.epd",
];

/// Timed runs of a suite; the least CPU time counts (the first also touches the table's
/// memory, and a busy machine slows a run, never speeds one up).
const ROUNDS: usize = 3;

/// Whether a suite belongs to these rows: some line is a help- or self-mate.
pub fn is_help_or_self(problems: &Suite) -> bool {
    problems
        .iter()
        .any(|(p, _)| p.stipulation.is_some_and(|s| s.aim != Aim::Direct))
}

/// The sorted key set of one line: h#, the first moves of every solution; s#, the keys;
/// #N, the keys; a proof game, every game (and for spg the shorter ones), each its
/// moves in coordinates joined by `-`.
fn key_set(p: &Problem, table: &Table) -> Vec<String> {
    let stop = &super::limits::INTERRUPTED;
    let stip = p.stipulation.expect("a suite line has a stipulation");
    let mut keys: Vec<String> = fairysolve::with_game!(&p.game, g => {
        match stip.aim {
            Aim::ProofGame | Aim::ShortestProofGame => {
                let limits = fairysolve::proof::ProofLimits { stop, deadline: None, max_games: None, max_nodes: None, table_mb: 32 };
                let diagram = fairysolve::proof::Diagram::new(p.position, p.stated, p.game.has_aftershocks());
                let shortest = stip.aim == Aim::ShortestProofGame;
                match fairysolve::proof::solve(g, &diagram, stip.plies(), shortest, &limits, |_, _| {}) {
                    Ok(o) => o.games.iter().chain(&o.cooks).map(|game| game.iter().map(|m| m.coord(false).to_string()).collect::<Vec<_>>().join("-")).collect(),
                    Err(e) => vec![e.to_string()],
                }
            }
            Aim::Help => {
                let game = OneBoard { game: g, attacker: p.position.turn() };
                let turns = 2 * stip.moves + stip.half as u32;
                let sol = solve_help(&game, &BoardState::new(p.position), Color::White, turns, &[], table, stop, None);
                sol.solutions.iter().map(|l| l[0].0.clone()).collect()
            }
            aim => {
                let game = OneBoard { game: g, attacker: Color::White };
                let goal = if aim == Aim::Selfmate { Goal::SelfLoss } else { Goal::Win };
                let opts = SolveOptions { threads: 1, tree: false, ..SolveOptions::default() };
                let sol = solve_for(&game, goal, table, &BoardState::new(p.position), stip.moves, &opts, stop, &|_, _| {});
                sol.keys.iter().map(|k| k.0.clone()).collect()
            }
        }
    });
    keys.sort();
    keys.dedup();
    keys
}

/// The header of these rows.
pub fn header() {
    println!("help-, self-mate and proof-game suites: CPU time on one thread; keys of h#: the first moves of all solutions; of a proof game: every game");
    println!(
        "{:<40} {:>6} {:>10} {:>10} {:>8} {:>6}",
        "suite", "lines", "1 thread", "peer", "peer/us", "agree"
    );
}

/// Times one suite and prints its row; false if the peer failed or disagreed.
pub fn row(file: &str, problems: &Suite, peer: Option<&str>) -> bool {
    let mut best = Duration::MAX;
    let mut keys = Vec::new();
    for _ in 0..ROUNDS {
        let table = Table::new(32);
        // The process's CPU time: s#N is searched on a pool thread, h#N on this one;
        // nothing else runs meanwhile.
        let cpu = process_cpu_time();
        keys = problems.iter().map(|(p, _)| key_set(p, &table)).collect();
        best = best.min(process_cpu_time().saturating_sub(cpu));
    }
    let mut ok = true;
    let (peer_col, ratio_col, agree_col) = match peer.map(|cmd| run_peer(cmd, problems)) {
        None => ("-".to_string(), "-".to_string(), "-".to_string()),
        Some(Err(e)) => {
            eprintln!("{e}");
            ("error".into(), "-".into(), "-".into())
        }
        Some(Ok(run)) => {
            let (tp, kp) = (run.time, &run.keys);
            let differ = kp.iter().zip(&keys).filter(|(a, b)| a != b).count();
            if differ > 0 {
                eprintln!("{file}: the peer's key sets differ on {differ} positions");
                ok = false;
            }
            (
                format!("{:.0}ms", tp.as_secs_f64() * 1e3),
                super::bench::ratio(tp.as_secs_f64() / best.as_secs_f64()),
                if differ == 0 { "yes" } else { "no" }.to_string(),
            )
        }
    };
    ok &= peer_col != "error";
    println!(
        "{:<40} {:>6} {:>8.0}ms {:>10} {:>8} {:>6}",
        file,
        problems.len(),
        best.as_secs_f64() * 1e3,
        peer_col,
        ratio_col,
        agree_col
    );
    ok
}
