//! `fairysolve bench`: the measured speed of the move generator and the solver on the
//! bundled suites, single-threaded and with more threads, orthodox and under Trapdoor
//! rules, and side by side with an external peer solver (e.g. Popeye) when one is given.
//! Perft side by side with cozy-chess and shakmaty is `cargo bench --bench peers`.

use clap::Args;
use fairysolve::cpu_time::thread_cpu_time;
use fairysolve::epd::{self, Line};
use fairysolve::fen::parse_fen;
use fairysolve::game::{Game, Rules};
use fairysolve::problem::{self, Problem};
use fairysolve::search::solution::SolveOptions;
use fairysolve::search::tt::Table;
use fairysolve::trapdoor::{FallOrder, Trapdoor};
use std::process::Command;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct BenchArgs {
    /// Solver suites (position files with dm/stip); default: the bundled ones.
    pub files: Vec<String>,
    /// Shallower perft and fewer repetitions.
    #[arg(long)]
    pub quick: bool,
    /// Threads for the parallel run (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// An external solver run on every position in the same run: it is called with the
    /// position line as its one argument and must print `keys: m1 m2 ...` (coordinate
    /// notation, or `none`), optionally followed by `time: SECONDS`, the solver's own CPU
    /// time (so neither a wrapper's start-up nor time a busy machine takes away is
    /// counted), which is set against fairysolve's CPU time on one thread; without it the
    /// wall times of the two are compared. For #N and s#N the keys are the key moves;
    /// for h#N and h#N.5 the first moves of all solutions, each once.
    #[arg(long)]
    pub peer: Option<String>,
    /// Skip the perft part.
    #[arg(long = "no-perft")]
    pub no_perft: bool,
    /// Skip the retro-analysis part.
    #[arg(long = "no-retro")]
    pub no_retro: bool,
}

/// Problem diagrams timed for the retro verdict (every question: legality, last moves,
/// each man's ticking proof) under Trapdoor T = 1 and 2.
const RETRO_SUITES: &[&str] = &[
    "positions/orthodox/twomovers.epd",
    "positions/orthodox/threemovers.epd",
    "positions/trapdoor/problems.epd",
    "positions/retro/trapdoor.epd",
    "positions/retro/classic.epd",
];

fn retro_part() {
    use fairysolve::retro::{analyse, RetroOptions, RetroPosition};
    let mut diagrams = Vec::new();
    for file in RETRO_SUITES {
        for (rec, _) in read_records(file, &mut true) {
            match problem::from_record_for_retro(rec) {
                Ok(p) => diagrams.push(RetroPosition::of(&p.position)),
                Err(e) => eprintln!("{file}: {e}"),
            }
        }
    }
    println!("retro verdict per diagram, single thread (legality, last moves, every man's proof)");
    println!(
        "{:<10} {:>14} {:>10} {:>9} {:>9} {:>11} {:>14} {:>9}",
        "trapdoor", "diagrams <=16", "total", "mean", "max", "incomplete", "diagrams >16", "max"
    );
    for t in [1u8, 2] {
        let opts = RetroOptions {
            timer: Some(t),
            ..RetroOptions::default()
        };
        let mut small = (0usize, Duration::ZERO, Duration::ZERO);
        let mut large = (0usize, Duration::ZERO);
        let mut incomplete = 0;
        for d in &diagrams {
            let start = Instant::now();
            let report = analyse(d, &opts);
            let took = start.elapsed();
            incomplete += !report.complete as usize;
            if d.board.occupied().count() <= 16 {
                small = (small.0 + 1, small.1 + took, small.2.max(took));
            } else {
                large = (large.0 + 1, large.1.max(took));
            }
        }
        let ms = |d: Duration| format!("{:.1}ms", d.as_secs_f64() * 1e3);
        println!(
            "{:<10} {:>14} {:>10} {:>9} {:>9} {:>11} {:>14} {:>9}",
            format!("T = {t}"),
            small.0,
            ms(small.1),
            ms(small.1 / small.0.max(1) as u32),
            ms(small.2),
            incomplete,
            large.0,
            ms(large.1)
        );
    }
}

const DEFAULT_SUITES: &[&str] = &[
    "positions/orthodox/twomovers.epd",
    "positions/orthodox/threemovers.epd",
    "positions/bench/orthodox-dm4.epd",
];

/// The least CPU time of `runs` calls of `f` (single-threaded work), and its result.
fn best_of(runs: usize, mut f: impl FnMut() -> u64) -> (Duration, u64) {
    let mut best = Duration::MAX;
    let mut out = 0;
    for _ in 0..runs {
        let t = thread_cpu_time();
        out = f();
        best = best.min(thread_cpu_time().saturating_sub(t));
    }
    (best, out)
}

fn perft_part(quick: bool) {
    let game = Game::fide();
    let runs = if quick { 1 } else { 3 };
    println!(
        "perft, single thread (least CPU time of {})",
        if quick { 1 } else { 3 }
    );
    println!(
        "{:<26} {:>12} {:>10} {:>14}",
        "position", "leaves", "ms", "leaves/s"
    );
    for bulk in [true, false] {
        for &(name, fen, depth) in &fairysolve::perft::BENCH_POSITIONS {
            let depth = depth - quick as u32 - (!bulk) as u32;
            let pos = parse_fen(fen).expect("bundled FEN");
            let (t, n) = best_of(if quick { 1 } else { 3 }, || game.perft(&pos, depth, bulk));
            println!(
                "{:<26} {:>12} {:>10.1} {:>14.0}",
                format!("{name} d{depth}{}", if bulk { "" } else { " no-bulk" }),
                n,
                t.as_secs_f64() * 1e3,
                n as f64 / t.as_secs_f64()
            );
        }
    }
    // The same count under other rules and boards, for the ratios to FIDE.
    let depth = 6 - quick as u32;
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    let (t_fide, _) = best_of(runs, || {
        game.perft(&parse_fen(start).expect("FEN"), depth, true)
    });
    for ops in [
        " taxi \"18 16\";",
        " taxi \"5 5\";",
        " earthquake \"1 0\";",
        " earthquake \"0 -1\"; void fly;",
        " trapdoor 5;",
    ] {
        let line = format!("{start}{ops}");
        let p = match epd::parse_line(&line, 1) {
            Ok(Line::Position(rec)) => problem::from_record(*rec).map_err(|e| e.to_string()),
            Ok(_) => Err("not a position".to_string()),
            Err(e) => Err(e.to_string()),
        };
        let p = match p {
            Ok(p) => p,
            Err(e) => {
                eprintln!("bench: {line}: {e}");
                continue;
            }
        };
        let (t, n) = best_of(runs, || p.game.perft(&p.position, depth, true));
        println!(
            "{:<26} {:>12} {:>10.1} {:>14.0}   {:.2} x FIDE",
            format!("start d{depth}{ops}"),
            n,
            t.as_secs_f64() * 1e3,
            n as f64 / t.as_secs_f64(),
            t.as_secs_f64() / t_fide.as_secs_f64()
        );
    }
    println!();
}

/// One row of the two-board perft table: `count`'s leaves and time at `depth`, and its
/// time per leaf against FIDE perft of `fide_fen` at the same depth, in the same run.
fn per_leaf_row(name: &str, fide_fen: &str, depth: u32, runs: usize, count: impl FnMut() -> u64) {
    let game = Game::fide();
    let fide = parse_fen(fide_fen).expect("bundled FEN");
    let (t_fide, n_fide) = best_of(runs, || game.perft(&fide, depth, true));
    let (t, n) = best_of(runs, count);
    let per_leaf = (t.as_secs_f64() / n as f64) / (t_fide.as_secs_f64() / n_fide as f64);
    println!(
        "{name:<34} {n:>12} {:>10.1} {:>14.0} {per_leaf:>8.2} x FIDE",
        t.as_secs_f64() * 1e3,
        n as f64 / t.as_secs_f64(),
    );
}

/// Underworld Chess (rules.md 4) on the solver core: perft per leaf beside FIDE perft
/// in the same run, from the initial array (the Underworld inactive until the first
/// capture) and from a middle game with both boards active; then the bundled problems.
fn underworld_part(quick: bool) -> bool {
    use fairysolve::generic::{perft::perft, TurnGame};
    use fairysolve::underworld::{read_line, Underworld};
    let runs = if quick { 1 } else { 3 };
    println!(
        "two-board games, single thread (least CPU time of {runs}): perft per leaf against FIDE"
    );
    println!(
        "{:<34} {:>12} {:>10} {:>14} {:>10}",
        "position", "leaves", "ms", "leaves/s", "per leaf"
    );
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    let middle = "rnb1kbnr/ppp1pppp/8/q7/8/2N5/PPPP1PPP/R1BQKBNR w KQkq -";
    let mut ok = true;
    for (name, fen, under, depth) in [
        (
            "initial array",
            start,
            "4k3/8/8/8/8/8/8/4K3",
            6 - quick as u32,
        ),
        (
            "middle game",
            middle,
            "8/3k4/3p4/8/3P4/8/3K4/8",
            5 - quick as u32,
        ),
    ] {
        let line = format!("{fen} underworld \"{under}\";");
        let state = match read_line(&line) {
            Ok(p) => p.state,
            Err(e) => {
                eprintln!("bench: {line}: {e}");
                ok = false;
                continue;
            }
        };
        per_leaf_row(&format!("{name} d{depth}"), fen, depth, runs, || {
            perft(&Underworld, &state, depth)
        });
    }
    // Through the Looking-Glass: the standard array split over the boards (White's on
    // the Real board, Black's on the Mirror), against FIDE perft of the start.
    {
        use fairysolve::glass::{read_line, Glass};
        let depth = 5 - quick as u32;
        let line =
            "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - mirror \"rnbqkbnr/pppppppp/8/8/8/8/8/8\";";
        match read_line(line) {
            Ok(p) => {
                let g = Glass {
                    attacker: p.state.turn,
                };
                per_leaf_row(
                    &format!("looking-glass arrays d{depth}"),
                    start,
                    depth,
                    runs,
                    || perft(&g, &p.state, depth),
                );
            }
            Err(e) => {
                eprintln!("bench: {line}: {e}");
                ok = false;
            }
        }
    }
    let file = "positions/underworld/problems.epd";
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let table = Table::new(32);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let opts = fairysolve::search::solution::SolveOptions {
        threads: 1,
        tree: false,
        ..Default::default()
    };
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let Ok(p) = read_line(line) else {
            eprintln!("bench: {file}: {line}: not read");
            ok = false;
            continue;
        };
        let n = p.stipulation.map_or(1, |s| s.moves);
        let (t, nodes) = best_of(runs, || {
            let sol = fairysolve::generic::search::solve(
                &Underworld,
                &table,
                &p.state,
                n,
                &opts,
                &stop,
                &|_, _| {},
            );
            sol.nodes
        });
        println!(
            "{:<34} {:>12} {:>10.2}   #{n}, {} to move, nodes",
            p.record.id().unwrap_or("underworld problem"),
            nodes,
            t.as_secs_f64() * 1e3,
            Underworld.mover(&p.state).name()
        );
    }
    println!();
    ok
}

/// The position lines of a suite file with their text; unreadable lines are reported
/// with their location and left out (`all_read` false: some were).
fn read_records(path: &str, all_read: &mut bool) -> Vec<(epd::Record, String)> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: cannot read: {e}");
            *all_read = false;
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match epd::parse_line(line, i + 1) {
            Ok(Line::Position(rec)) => out.push((*rec, line.to_string())),
            Ok(_) => {}
            Err(e) => {
                eprintln!("{path}: {e}");
                *all_read = false;
            }
        }
    }
    out
}

/// The problems of a suite file; a line that cannot be read or states no stipulation
/// is reported, left out, and makes `all_read` false (exit status 1, formats.md 2).
fn read_suite(path: &str, all_read: &mut bool) -> Vec<(Problem, String)> {
    let mut out = Vec::new();
    for (rec, line) in read_records(path, all_read) {
        let line_no = rec.line;
        match problem::from_record(rec) {
            Ok(p) if p.stipulation.is_some() => out.push((p, line)),
            Ok(_) => {
                eprintln!("{path}: line {line_no}, column 1: no stipulation (dm or stip), skipped");
                *all_read = false;
            }
            Err(e) => {
                eprintln!("{path}: {e}");
                *all_read = false;
            }
        }
    }
    out
}

/// The rules a suite is run under: as written, or with a modifier added.
#[derive(Copy, Clone, PartialEq)]
enum Variant {
    AsWritten,
    Trapdoor1,
    /// Taxi with the cash of a game's start (White 18, Black 16: rules.md 2).
    Taxi,
}

/// Rounds of every solver configuration (see `run`): at least this many, and more for
/// a small suite until the rounds have taken `SUITE_MIN_TIME` (a suite solved in a few
/// milliseconds is otherwise at the mercy of one scheduler tick).
const SUITE_ROUNDS: usize = 3;
const SUITE_MAX_ROUNDS: usize = 100;
const SUITE_MIN_TIME: Duration = Duration::from_secs(8);

/// A suite solved faster than this on one thread is solved several times over in each
/// timed run, as one file of that many copies. A file of a few milliseconds measures
/// mostly how fast the host wakes a sleeping thread (on this machine's virtual cores up
/// to a millisecond, once per file); a longer file, as a user's file of many problems,
/// measures the solver.
const SUITE_MIN_RUN: Duration = Duration::from_millis(100);
const SUITE_MAX_PASSES: usize = 1000;

/// How a suite is solved: the threads of each search, and whether several problems
/// are solved at once (as `solve FILE` does with more than one thread).
#[derive(Copy, Clone)]
struct Config {
    threads: usize,
    concurrent: bool,
    variant: Variant,
}

/// Solves every problem `passes` times over, as one file of that many copies; returns
/// the wall time and the calling thread's CPU time (all of it on one thread) of one
/// pass, and the key sets (`None` if the passes disagree).
fn run_suite(
    problems: &[(Problem, String)],
    passes: usize,
    config: Config,
    table: &Table,
) -> (Duration, Duration, Option<Vec<Vec<String>>>) {
    let stop = &super::limits::INTERRUPTED;
    let opts = SolveOptions {
        threads: config.threads,
        tree: false,
        ..SolveOptions::default()
    };
    let solve = |(p, _): &(Problem, String)| {
        let mut pos = p.position;
        let game = match config.variant {
            Variant::AsWritten => p.game.clone(),
            Variant::Trapdoor1 => p.game.with_rules(Rules {
                trapdoor: Some(Trapdoor {
                    timer: 1,
                    order: FallOrder::MateFirst,
                }),
                ..*p.game.rules()
            }),
            Variant::Taxi => {
                pos.set_cash(fairysolve::Color::White, 18);
                pos.set_cash(fairysolve::Color::Black, 16);
                p.game.with_rules(Rules {
                    taxi: Some(fairysolve::taxi::Taxi::default()),
                    ..*p.game.rules()
                })
            }
        };
        let n = p.stipulation.expect("filtered").moves;
        let sol = game.solve(table, &pos, n, &opts, stop, &|_, _| {});
        let mut k: Vec<String> = sol
            .keys
            .iter()
            .map(|(m, _)| m.coord(p.position.is_chess960()).to_string())
            .collect();
        k.sort();
        k
    };
    let items: Vec<&(Problem, String)> = problems
        .iter()
        .cycle()
        .take(problems.len() * passes)
        .collect();
    let mut keys = Vec::new();
    let (t, cpu) = (Instant::now(), thread_cpu_time());
    let threads = if config.concurrent { config.threads } else { 1 };
    super::batch::in_order(threads, items.into_iter(), |p| solve(p), |k| keys.push(k));
    let (t, cpu) = (t.elapsed(), thread_cpu_time().saturating_sub(cpu));
    let first = &keys[..problems.len()];
    let agree = keys.chunks(problems.len()).all(|pass| pass == first);
    let passes = passes as u32;
    (t / passes, cpu / passes, agree.then(|| first.to_vec()))
}

/// fairysolve as a composer runs it: one process per problem (`solve --keys-only
/// --fen LINE`, default threads), its whole CPU time summed over the problems.
fn run_self_per_process(problems: &[(Problem, String)]) -> Result<Duration, String> {
    let exe = std::env::current_exe().map_err(|e| format!("fairysolve itself: {e}"))?;
    let before = fairysolve::cpu_time::children_cpu_time();
    for (_, line) in problems {
        let out = Command::new(&exe)
            .args(["solve", "--keys-only", "--fen", line])
            .output()
            .map_err(|e| format!("{}: {e}", exe.display()))?;
        if !out.status.success() {
            return Err(format!("{}: failed on {line}", exe.display()));
        }
    }
    Ok(fairysolve::cpu_time::children_cpu_time().saturating_sub(before))
}

/// A suite's problems, each with its line as written (what a peer is given).
pub type Suite = [(Problem, String)];

/// What the peer did on a suite: its time (its own CPU time when every line reported
/// one, else wall time), the CPU time of its processes, and its key sets.
pub struct PeerRun {
    pub time: Duration,
    pub cpu_reported: bool,
    pub process_cpu: Duration,
    pub keys: Vec<Vec<String>>,
}

/// The peer on every problem, one process each.
pub fn run_peer(cmd: &str, problems: &Suite) -> Result<PeerRun, String> {
    let mut total = Duration::ZERO;
    let mut all_reported = true;
    let mut keys = Vec::new();
    let before = fairysolve::cpu_time::children_cpu_time();
    for (_, line) in problems {
        let t = Instant::now();
        let out = Command::new(cmd)
            .arg(line)
            .output()
            .map_err(|e| format!("{cmd}: {e}"))?;
        let wall = t.elapsed();
        let text = String::from_utf8_lossy(&out.stdout);
        let k_line = text
            .lines()
            .find_map(|l| l.strip_prefix("keys:"))
            .ok_or_else(|| format!("{cmd}: no 'keys:' line for {line}"))?;
        let reported = k_line
            .split_once("time:")
            .and_then(|(_, t)| t.split_whitespace().next()?.parse::<f64>().ok())
            .filter(|t| t.is_finite() && *t >= 0.0);
        all_reported &= reported.is_some();
        total += reported.map(Duration::from_secs_f64).unwrap_or(wall);
        let mut k: Vec<String> = k_line
            .split_whitespace()
            .take_while(|w| *w != "time:")
            .filter(|w| *w != "none")
            .map(String::from)
            .collect();
        k.sort();
        keys.push(k);
    }
    Ok(PeerRun {
        time: total,
        cpu_reported: all_reported,
        process_cpu: fairysolve::cpu_time::children_cpu_time().saturating_sub(before),
        keys,
    })
}

pub fn run(args: BenchArgs) -> bool {
    let threads = super::threads(args.threads);
    super::limits::install_interrupt_handler();
    let mut ok = true;
    // Ctrl-C is looked at between the parts (a part takes seconds; a second Ctrl-C
    // ends the process at once).
    let interrupted = || {
        let stop = super::limits::interrupted();
        if stop {
            eprintln!("bench: interrupted");
        }
        stop
    };
    if !args.no_perft {
        perft_part(args.quick);
        ok &= underworld_part(args.quick);
    }
    if interrupted() {
        return false;
    }
    if !args.no_retro {
        retro_part();
    }
    if interrupted() {
        return false;
    }
    let files: Vec<String> = if args.files.is_empty() {
        DEFAULT_SUITES
            .iter()
            .chain(super::bench_help_self::SUITES)
            .map(|s| s.to_string())
            .collect()
    } else {
        args.files.clone()
    };
    let table = Table::new(32);
    // The header of the #N rows is printed before the first of them.
    let mut header_shown = false;
    let mut help_self = Vec::new();
    for file in &files {
        if super::limits::interrupted() {
            eprintln!("bench: interrupted before {file}");
            return false;
        }
        let problems = read_suite(file, &mut ok);
        if problems.is_empty() {
            ok = false;
            continue;
        }
        // Help- and self-mates have rows of their own, after these.
        if super::bench_help_self::is_help_or_self(&problems) {
            help_self.push((file, problems));
            continue;
        }
        if !header_shown {
            println!(
            "solver suites: wall time for 1 and {threads} threads and the speed-ups; CPU time for \
             trapdoor 1 and taxi, and in their ratios to one thread and the peer's"
        );
            println!(
                "{:<36} {:>8} {:>10} {:>10} {:>8} {:>9} {:>11} {:>8} {:>10} {:>8} {:>10} {:>8}",
                "solver suite",
                "lines",
                "1 thread",
                format!("{threads} thr"),
                "speedup",
                "in-search",
                "trapdoor 1",
                "td/orth",
                "taxi",
                "taxi/or",
                "peer",
                "peer/us"
            );
            header_shown = true;
        }
        // Every configuration once a round, the best round counted: the first run of a
        // process also pays for touching the table's memory, and on a shared machine a
        // slow spell then hurts every configuration alike.
        let config = |threads, concurrent, variant| Config {
            threads,
            concurrent,
            variant,
        };
        let configs = [
            config(1, false, Variant::AsWritten),
            config(threads, true, Variant::AsWritten),
            config(threads, false, Variant::AsWritten),
            config(1, false, Variant::Trapdoor1),
            config(1, false, Variant::Taxi),
        ];
        // Wall time (what threads are judged by) and CPU time (what one thread is judged
        // by: the time a busy virtual machine takes away is not the solver's).
        let mut best = [Duration::MAX; 5];
        let mut best_cpu = [Duration::MAX; 5];
        let mut key_sets: [Option<Vec<Vec<String>>>; 3] = Default::default();
        // Passes per timed run: one count for the orthodox runs, which are compared with
        // each other for threads, and one each for the other rules, which may take much
        // longer. From a single pass on one thread; the orthodox pass is taken twice, as
        // the first touches the table's memory, unless it is long anyway. A suite that
        // needs one pass under orthodox rules is timed once per run under every rule.
        let one_pass = |config: Config| run_suite(&problems, 1, config, &table).0;
        let passes_in = |pass: Duration| {
            (SUITE_MIN_RUN.as_secs_f64() / pass.as_secs_f64().max(1e-6))
                .ceil()
                .clamp(1.0, SUITE_MAX_PASSES as f64) as usize
        };
        let first = one_pass(configs[0]);
        let orthodox = if first > 10 * SUITE_MIN_RUN {
            first
        } else {
            one_pass(configs[0])
        };
        let passes_of = match passes_in(orthodox) {
            1 => [1; 5],
            passes => [
                passes,
                passes,
                passes,
                passes_in(one_pass(configs[3])),
                passes_in(one_pass(configs[4])),
            ],
        };
        let passes = passes_of[0];
        let started = Instant::now();
        for round in 0..SUITE_MAX_ROUNDS {
            if round >= SUITE_ROUNDS && started.elapsed() >= SUITE_MIN_TIME {
                break;
            }
            if super::limits::interrupted() {
                // Searches stopped by Ctrl-C measure nothing: no row for this suite.
                eprintln!("bench: interrupted during {file}");
                return false;
            }
            for (i, &config) in configs.iter().enumerate() {
                let (t, cpu, keys) = run_suite(&problems, passes_of[i], config, &table);
                best[i] = best[i].min(t);
                best_cpu[i] = best_cpu[i].min(cpu);
                if i < 3 {
                    key_sets[i] = keys;
                }
            }
        }
        let [t1, tn, t_search, _, _] = best;
        let [cpu1, _, _, ttd, ttx] = best_cpu;
        let [k1, kn, k_search] = key_sets;
        if k1.is_none() || k1 != kn || k1 != k_search {
            eprintln!("{file}: key sets differ between passes or between 1 and {threads} threads");
            ok = false;
        }
        let k1 = k1.unwrap_or_default();
        // Times are per pass; `51x20`: 51 lines, solved 20 times over in each timed run.
        let lines = match passes {
            1 => problems.len().to_string(),
            _ => format!("{}x{passes}", problems.len()),
        };
        let peer = args.peer.as_deref().map(|cmd| run_peer(cmd, &problems));
        let (peer_col, ratio_col) = match &peer {
            None => ("-".to_string(), "-".to_string()),
            Some(Err(e)) => {
                eprintln!("{e}");
                ok = false;
                ("error".into(), "-".into())
            }
            Some(Ok(run)) => {
                if run.keys != k1 {
                    let differ = run.keys.iter().zip(&k1).filter(|(a, b)| a != b).count();
                    eprintln!("{file}: the peer's key sets differ on {differ} positions");
                    ok = false;
                }
                let ours = if run.cpu_reported { cpu1 } else { t1 };
                (
                    format!("{:.0}ms", run.time.as_secs_f64() * 1e3),
                    ratio(run.time.as_secs_f64() / ours.as_secs_f64()),
                )
            }
        };
        // One process per problem for both: what a composer running one problem meets.
        let per_process = match &peer {
            Some(Ok(run)) => match run_self_per_process(&problems) {
                Ok(us) => Some(format!(
                    "  one process per problem (CPU): fairysolve {:.0}ms, peer {:.0}ms: {:.1}x",
                    us.as_secs_f64() * 1e3,
                    run.process_cpu.as_secs_f64() * 1e3,
                    run.process_cpu.as_secs_f64() / us.as_secs_f64().max(1e-9)
                )),
                Err(e) => {
                    eprintln!("{e}");
                    ok = false;
                    None
                }
            },
            _ => None,
        };
        println!(
            "{:<36} {:>8} {:>8.0}ms {:>8.0}ms {:>8.2} {:>9.2} {:>9.0}ms {:>8.2} {:>8.0}ms {:>8.2} {:>10} {:>8}",
            file,
            lines,
            t1.as_secs_f64() * 1e3,
            tn.as_secs_f64() * 1e3,
            t1.as_secs_f64() / tn.as_secs_f64(),
            t1.as_secs_f64() / t_search.as_secs_f64(),
            ttd.as_secs_f64() * 1e3,
            ttd.as_secs_f64() / cpu1.as_secs_f64(),
            ttx.as_secs_f64() * 1e3,
            ttx.as_secs_f64() / cpu1.as_secs_f64(),
            peer_col,
            ratio_col
        );
        if let Some(line) = per_process {
            println!("{line}");
        }
    }
    if !help_self.is_empty() {
        super::bench_help_self::header();
    }
    for (file, problems) in &help_self {
        if super::limits::interrupted() {
            eprintln!("bench: interrupted before {file}");
            return false;
        }
        ok &= super::bench_help_self::row(file, problems, args.peer.as_deref());
    }
    ok
}

/// A ratio of times as a table shows it: one decimal, or two significant digits below
/// 0.1 (a peer far ahead shows as 0.022x, not 0.0x).
pub(super) fn ratio(r: f64) -> String {
    if r >= 0.1 || r == 0.0 {
        format!("{r:.1}x")
    } else {
        let decimals = (-r.log10()).floor() as usize + 2;
        format!("{r:.decimals$}x")
    }
}

#[cfg(test)]
mod tests {
    use super::ratio;

    #[test]
    fn a_ratio_far_below_one_keeps_two_significant_digits() {
        assert_eq!(ratio(2.0), "2.0x");
        assert_eq!(ratio(0.35), "0.3x");
        assert_eq!(ratio(0.0224), "0.022x");
        assert_eq!(ratio(0.00517), "0.0052x");
        assert_eq!(ratio(0.0), "0.0x");
    }
}
