//! `fairysolve generate` (formats.md 3): puzzles drawn from a seed, each proved by the
//! exhaustive solver; shards for batch systems, a resumable output file, and `--merge`
//! to join the shards of a run.

use super::limits::{install_interrupt_handler, interrupted, why_stopped};
use super::VariantFlags;
use clap::Args;
use fairysolve::generate::repeats::{first_met, repeat_keys};
use fairysolve::generate::spread::{self, POOL};
use fairysolve::generate::{examine, Board, Puzzle, Spec, Theme};
use fairysolve::problem::Stipulation;
use fairysolve::search::tt::Table;
use fairysolve::types::Role;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct GenerateArgs {
    /// The stipulation of every puzzle: #N, s#N, h#N or h#N.5.
    #[arg(long, required_unless_present = "merge")]
    pub stip: Option<String>,
    #[command(flatten)]
    pub variants: VariantFlags,
    /// Looking-Glass problems: the men spread over the Real and Mirror boards.
    #[arg(long = "looking-glass", conflicts_with = "underworld_chess")]
    pub looking_glass: bool,
    /// Underworld problems (#N, s#N): the kings on the World, the Underworld Kings
    /// below, the other men on either board.
    #[arg(long = "underworld-chess")]
    pub underworld_chess: bool,
    /// Stop after this many puzzles (of this shard).
    #[arg(long)]
    pub count: Option<u64>,
    /// Look at candidates 0..M-1 at most (of the whole run; a shard takes its share).
    #[arg(long, value_name = "M")]
    pub candidates: Option<u64>,
    /// The seed the candidates are drawn from: the output depends only on it and each
    /// candidate's index.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Men on the board(s), both kings included, "MIN-MAX".
    #[arg(long, default_value = "4-7", value_name = "MIN-MAX")]
    pub men: String,
    /// The pieces besides the kings that candidates may hold (letters of QRBNP).
    #[arg(long, default_value = "QRBNP")]
    pub pieces: String,
    /// A theme every puzzle must show, proved by search: variant, quiet, fall, budget,
    /// seam, retro, quiet-key, economy, model-mate, no-duals, variations:N, tries:N (may
    /// be given more than once, or separated by commas).
    #[arg(long = "theme", value_name = "T")]
    pub themes: Vec<String>,
    /// A set spread over difficulty: prove four times --count puzzles and keep --count
    /// of them at evenly spaced ranks of hardness (effort times one more than the
    /// tries), easiest first, written when the run ends (docs/positions.md).
    ///
    /// With --merge: one set spread over the pools of all the shards (each shard's
    /// FILE.pool, else the JSON lines of FILE).
    #[arg(long, requires = "count")]
    pub spread: bool,
    /// Improve each puzzle by small changes (a man taken off, moved one step, or added
    /// near the king the stipulation mates) while it stays sound with every theme asked
    /// and its score rises (one board; every quality decided).
    #[arg(long, conflicts_with = "merge")]
    pub improve: bool,
    /// Decide economy (the superfluous men) for every puzzle, not only when the
    /// `economy` theme asks for it: a proof again without each man.
    #[arg(long)]
    pub qualities: bool,
    /// Take every N-th candidate, from the K-th: "K/N". Given as "N" alone, K comes from
    /// the batch system (SLURM_ARRAY_TASK_ID, or Kubernetes' JOB_COMPLETION_INDEX).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// JSON lines (docs/positions.md, `generate`) instead of position lines.
    #[arg(long)]
    pub json: bool,
    /// Write to FILE; a rerun with the same arguments resumes where it stopped (the
    /// place is kept in FILE.resume).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Worker threads (0 or none: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seconds the whole run may take; then it stops as on Ctrl-C, keeping what it
    /// found (a rerun with -o goes on from there), exit status 1.
    #[arg(long = "time-limit", value_parser = super::limits::positive_seconds)]
    pub time_limit: Option<f64>,
    /// Also write the puzzles this run finds as one HTML page: each diagram, its
    /// stipulation and proved qualities, the solution behind a click.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Join the outputs of a run's shards: every puzzle once, in candidate order, a
    /// diagram met twice (or its mirror image) kept at its first index (with --spread:
    /// one set spread over the shards' pools).
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pub merge: Vec<String>,
}

thread_local! {
    /// Each worker's table of proven bounds, kept from candidate to candidate (each
    /// search salts its keys: nothing of one candidate is read as another's).
    static TABLE: Table = Table::new(2);
}

/// Candidates examined between two saves of the place reached.
const CHUNK: u64 = 256;

/// The puzzles a run proves before it stops: `--count`, or with `--spread` the pool the
/// set is chosen from.
fn target(args: &GenerateArgs) -> Option<u64> {
    args.count.map(|c| {
        if args.spread {
            c.saturating_mul(POOL)
        } else {
            c
        }
    })
}

/// A file kept beside the output FILE: FILE.resume (where the run stands), FILE.pool
/// (a spread run's pool, a JSON line per puzzle).
fn beside(output: &Path, suffix: &str) -> PathBuf {
    let mut p = output.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

/// The pool of a spread run written to FILE before (`found` puzzles).
fn load_pool(output: &Path, found: u64) -> Result<Vec<Puzzle>, String> {
    let path = beside(output, ".pool");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "{}: cannot be read ({e}): the pool of this spread run is lost; remove {} to start again",
            path.display(),
            output.display()
        )
    })?;
    // The pool file may hold puzzles written after the last save of the place: those
    // candidates are examined again, and their puzzles found again.
    let mut pool = Vec::new();
    for (i, line) in text.lines().take(found as usize).enumerate() {
        let puzzle = serde_json::from_str(line)
            .ok()
            .and_then(|v| spread::from_json(&v))
            .ok_or_else(|| {
                format!(
                    "{}, line {}, column 1: not a puzzle of generate",
                    path.display(),
                    i + 1
                )
            })?;
        pool.push(puzzle);
    }
    if pool.len() as u64 != found {
        return Err(format!(
            "{}: holds {} puzzles, the run had proved {found}: the pool of this spread run is incomplete; remove {} to start again",
            path.display(),
            pool.len(),
            output.display()
        ));
    }
    Ok(pool)
}

fn range(text: &str) -> Option<(u32, u32)> {
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// `--shard`: "K/N", or "N" with K from the batch system's variable.
fn shard(text: Option<&str>) -> Result<(u64, u64), String> {
    let Some(text) = text else {
        return Ok((0, 1));
    };
    let bad = || {
        format!("--shard {text}: write K/N with 0 <= K < N (or N alone inside a Slurm array or a Kubernetes Indexed Job)")
    };
    let (k, n) = match text.split_once('/') {
        Some((k, n)) => (
            k.trim().parse::<u64>().map_err(|_| bad())?,
            n.trim().parse::<u64>().map_err(|_| bad())?,
        ),
        None => {
            let n = text.trim().parse::<u64>().map_err(|_| bad())?;
            let k = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"]
                .iter()
                .find_map(|v| std::env::var(v).ok())
                .ok_or_else(|| format!("--shard {text}: no K given, and neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set"))?;
            (k.trim().parse::<u64>().map_err(|_| bad())?, n)
        }
    };
    if n == 0 || k >= n {
        return Err(bad());
    }
    Ok((k, n))
}

fn spec(args: &GenerateArgs) -> Result<Spec, String> {
    let text = args.stip.as_deref().unwrap_or_default();
    let stip = Stipulation::parse(text)
        .ok_or_else(|| format!("--stip {text}: not a stipulation (#N, s#N, h#N, h#N.5)"))?;
    if args.improve && (stip.aim.is_proof_game() || args.looking_glass || args.underworld_chess) {
        return Err(
            "--improve: puzzles are improved on the single-board games, proof games apart"
                .to_string(),
        );
    }
    if args.spread && stip.aim.is_proof_game() {
        return Err(format!(
            "--spread: a proof game ({stip}) has no measured effort to spread a set over"
        ));
    }
    let v = &args.variants;
    for (flag, given) in [
        ("--underworld", &v.underworld),
        ("--phase", &v.phase),
        ("--reserve", &v.reserve),
        ("--homes", &v.homes),
        ("--u-ep", &v.u_ep),
    ] {
        if given.is_some() {
            return Err(format!(
                "{flag}: a generated diagram draws its own boards; ask for Underworld with --underworld-chess"
            ));
        }
    }
    for (flag, given) in [("--mirror", &v.mirror), ("--ep-board", &v.ep_board)] {
        if given.is_some() {
            return Err(format!(
                "{flag}: a generated diagram draws its own boards; ask for Looking-Glass with --looking-glass"
            ));
        }
    }
    let men =
        range(&args.men).ok_or_else(|| format!("--men {}: write MIN-MAX, e.g. 4-7", args.men))?;
    let mut pieces = Vec::new();
    for c in args.pieces.chars() {
        match Role::from_char(c.to_ascii_lowercase()) {
            Some(Role::King) | None => {
                return Err(format!(
                    "--pieces {}: '{c}' is not one of Q, R, B, N, P",
                    args.pieces
                ))
            }
            Some(r) => {
                if !pieces.contains(&r) {
                    pieces.push(r)
                }
            }
        }
    }
    let mut themes = Vec::new();
    for t in &args.themes {
        for name in t.split([',', ' ']).filter(|s| !s.is_empty()) {
            let theme = Theme::parse(name).ok_or_else(|| {
                format!("--theme {name}: not a theme (variant, quiet, fall, budget, seam, retro, quiet-key, economy, model-mate, no-duals, variations:N, tries:N)")
            })?;
            if !themes.contains(&theme) {
                themes.push(theme);
            }
        }
    }
    themes.sort();
    Spec {
        stip,
        board: if args.looking_glass {
            Board::Glass
        } else if args.underworld_chess {
            Board::Underworld
        } else {
            Board::Single
        },
        ops: v.operations().trim().to_string(),
        men,
        pieces,
        themes,
        // A gallery is for an editor choosing: it shows every quality.
        every_quality: args.qualities || args.html.is_some() || args.improve,
        measure_effort: args.spread,
        improve: args.improve,
        seed: args.seed,
        squares: fairysolve::Bitboard::EMPTY,
    }
    .check()
    .map_err(|e| e.to_string())
}

/// What identifies a run in its resume file: everything the output depends on. The
/// count and the candidates are not part of it: a rerun with more of either goes on.
fn signature(args: &GenerateArgs, spec: &Spec, shard: (u64, u64)) -> String {
    format!(
        "stip={} board={:?} ops={} men={:?} pieces={:?} themes={:?} seed={} shard={}/{} json={} qualities={} spread={} improve={}",
        spec.stip,
        spec.board,
        spec.ops,
        spec.men,
        spec.pieces,
        spec.themes,
        spec.seed,
        shard.0,
        shard.1,
        args.json,
        spec.every_quality,
        args.spread,
        args.improve
    )
}

/// Where a run stands: the next of this shard's candidates, the puzzles written (or
/// proved into a spread run's pool), the diagrams met, and a spread run's pool (kept in
/// FILE.pool, not in the resume file).
struct Place {
    next: u64,
    found: u64,
    seen: HashSet<String>,
    pool: Vec<Puzzle>,
}

fn load_place(output: &Path, run: &str) -> Result<Option<Place>, String> {
    let path = beside(output, ".resume");
    if !output.exists() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path).map_err(|_| {
        format!(
            "{}: the file exists and is no run of generate (no {}); choose another -o or remove it",
            output.display(),
            path.display()
        )
    })?;
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a resume file: {e}", path.display()))?;
    if v["run"].as_str() != Some(run) {
        return Err(format!(
            "{}: holds a run of other arguments ({}); choose another -o or remove it",
            output.display(),
            v["run"].as_str().unwrap_or("?")
        ));
    }
    Ok(Some(Place {
        pool: Vec::new(),
        next: v["next"].as_u64().unwrap_or(0),
        found: v["found"].as_u64().unwrap_or(0),
        seen: v["seen"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default(),
    }))
}

fn save_place(output: &Path, run: &str, place: &Place) -> std::io::Result<()> {
    let path = beside(output, ".resume");
    let mut seen: Vec<&String> = place.seen.iter().collect();
    seen.sort();
    let v = json!({"run": run, "next": place.next, "found": place.found, "seen": seen});
    let tmp = path.with_extension("resume.tmp");
    std::fs::write(&tmp, v.to_string())?;
    std::fs::rename(&tmp, &path)
}

/// A puzzle as the run writes it: its line, or with `--json` its object (naming its
/// `level` in a spread set).
fn write_puzzle(
    out: &mut dyn Write,
    p: &Puzzle,
    level: Option<usize>,
    json: bool,
) -> std::io::Result<()> {
    if !json {
        return writeln!(out, "{}", p.line());
    }
    let mut v = p.json();
    if let Some(level) = level {
        v["level"] = json!(level);
    }
    writeln!(out, "{v}")
}

pub fn run(args: GenerateArgs) -> bool {
    if !args.merge.is_empty() {
        return merge(&args);
    }
    let spec = match spec(&args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("generate: {e}");
            std::process::exit(2);
        }
    };
    let shard = match shard(args.shard.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("generate: {e}");
            std::process::exit(2);
        }
    };
    if args.count.is_none() && args.candidates.is_none() {
        eprintln!(
            "generate: give --count N (puzzles) or --candidates M (candidates to look at), or both"
        );
        std::process::exit(2);
    }
    let run = signature(&args, &spec, shard);
    let mut place = Place {
        next: 0,
        found: 0,
        seen: HashSet::new(),
        pool: Vec::new(),
    };
    let mut out: Box<dyn Write> = match &args.output {
        None => Box::new(std::io::stdout()),
        Some(path) => {
            match load_place(path, &run) {
                // The file holds more puzzles than asked for: they stay proved and
                // written, and a run that kept them would not give --count puzzles.
                Ok(Some(p)) if target(&args).is_some_and(|c| p.found > c) => {
                    let count = args.count.unwrap_or(0);
                    let (held, limit, enough) = if args.spread {
                        (
                            format!("a pool of {} puzzles of this spread run", p.found),
                            format!("{POOL} x --count {count}"),
                            p.found.div_ceil(POOL),
                        )
                    } else {
                        (
                            format!("{} puzzles of this run", p.found),
                            format!("--count {count}"),
                            p.found,
                        )
                    };
                    eprintln!(
                        "generate: {} already holds {held}, more than {limit}: give --count {enough} or more to go on, or another -o",
                        path.display()
                    );
                    return false;
                }
                Ok(Some(p)) => place = p,
                Ok(None) => {}
                Err(e) => {
                    eprintln!("generate: {e}");
                    return false;
                }
            }
            // A spread run's pool, read before its set (the output) is emptied.
            if args.spread && place.next > 0 {
                match load_pool(path, place.found) {
                    Ok(p) => place.pool = p,
                    Err(e) => {
                        eprintln!("generate: {e}");
                        return false;
                    }
                }
            }
            // A spread set is written whole when the run ends.
            let fresh = place.next == 0 || args.spread;
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(!fresh)
                .write(true)
                .truncate(fresh)
                .open(path);
            match file {
                Ok(f) => Box::new(std::io::BufWriter::new(f)),
                Err(e) => {
                    eprintln!("generate: {}: {e}", path.display());
                    return false;
                }
            }
        }
    };
    install_interrupt_handler();
    // Ctrl-C or the time limit: set by a watcher, read by every search of the run.
    let stop = AtomicBool::new(false);
    let finished = AtomicBool::new(false);
    let deadline = super::limits::deadline(args.time_limit);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !finished.load(Ordering::Relaxed) {
                if interrupted() || deadline.is_some_and(|d| Instant::now() >= d) {
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        // Set also when the run unwinds: the scope waits for the watcher, which would
        // otherwise watch for ever and hold a panic back from ending the process.
        let _finish = SetOnDrop(&finished);
        generate_run(&args, &spec, shard, &run, &mut place, &mut *out, &stop)
    })
}

/// Sets its flag when dropped, on return or unwinding alike.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The candidates of the run from `place` on, until the count, the candidates or a stop.
fn generate_run(
    args: &GenerateArgs,
    spec: &Spec,
    shard: (u64, u64),
    run: &str,
    place: &mut Place,
    out: &mut dyn Write,
    stop: &AtomicBool,
) -> bool {
    let threads = super::threads(args.threads);
    let pool = fairysolve::search::solution::thread_pool(threads);
    let (k, n) = shard;
    // This shard's candidates: k, k + n, k + 2n, ... below `--candidates`.
    let limit = args
        .candidates
        .map_or(u64::MAX, |m| if m > k { (m - k).div_ceil(n) } else { 0 });
    // The bar counts what the run stops at: puzzles with --count, else candidates.
    let counted = if args.count.is_some() {
        "puzzles"
    } else {
        "candidates"
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = ProgressBar::new(target(args).unwrap_or(limit));
        b.set_style(
            ProgressStyle::with_template(&format!(
                "{{spinner}} {{pos}}/{{len}} {counted}, {{msg}} ({{elapsed}}, about {{eta}} left)"
            ))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b
    });
    let started = std::time::Instant::now();
    let first = place.next;
    let mut ok = true;
    // A spread run's pool (read back by `run` when it resumes), kept in FILE.pool with
    // -o: written again whole to FILE.pool.tmp, renamed, then added to.
    let mut found = std::mem::take(&mut place.pool);
    let mut pool_file = None;
    if let Some(path) = args.output.as_ref().filter(|_| args.spread) {
        let tmp = beside(path, ".pool.tmp");
        let written = (|| -> std::io::Result<std::fs::File> {
            let mut w = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
            for p in &found {
                writeln!(w, "{}", p.json())?;
            }
            w.flush()?;
            drop(w);
            std::fs::rename(&tmp, beside(path, ".pool"))?;
            std::fs::OpenOptions::new()
                .append(true)
                .open(beside(path, ".pool"))
        })();
        match written {
            Ok(f) => pool_file = Some(std::io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("generate: {}: {e}", beside(path, ".pool").display());
                return false;
            }
        }
    }
    'run: while place.next < limit && target(args).is_none_or(|c| place.found < c) {
        let chunk = CHUNK.min(limit - place.next);
        let js: Vec<u64> = (place.next..place.next + chunk).collect();
        let results: Vec<_> = pool.install(|| {
            js.par_iter()
                .map(|&j| TABLE.with(|table| examine(spec, k + n * j, table, stop)))
                .collect()
        });
        if stop.load(Ordering::Relaxed) || results.iter().any(|r| r.is_err()) {
            break;
        }
        for (j, result) in js.iter().zip(results) {
            place.next = j + 1;
            let Ok(Some(puzzle)) = result else { continue };
            let Some(keys) = repeat_keys(&puzzle.line()) else {
                continue;
            };
            if !first_met(&mut place.seen, keys) {
                continue;
            }
            let written = if args.spread {
                pool_file
                    .as_mut()
                    .map_or(Ok(()), |w| writeln!(w, "{}", puzzle.json()))
            } else {
                write_puzzle(out, &puzzle, None, args.json)
            };
            if let Err(e) = written {
                eprintln!("generate: cannot write: {e}");
                ok = false;
                break 'run;
            }
            place.found += 1;
            if args.html.is_some() || args.spread {
                found.push(puzzle);
            }
            if target(args).is_some_and(|c| place.found >= c) {
                break;
            }
        }
        let _ = out.flush();
        if let Some(Err(e)) = pool_file.as_mut().map(|w| w.flush()) {
            eprintln!("generate: cannot write the pool: {e}");
            ok = false;
            break 'run;
        }
        if let Some(path) = &args.output {
            if let Err(e) = save_place(path, run, place) {
                eprintln!("generate: {}: {e}", beside(path, ".resume").display());
            }
        }
        if let Some(b) = &bar {
            let tried = place.next - first;
            let rate = tried as f64 / started.elapsed().as_secs_f64().max(1e-3);
            b.set_position(if args.count.is_some() {
                place.found
            } else {
                place.next
            });
            b.set_message(if args.count.is_some() {
                format!("{} candidates tried, {rate:.0}/s", place.next)
            } else {
                format!("{} puzzles found, {rate:.0}/s", place.found)
            });
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let stopped = stop.load(Ordering::Relaxed);
    let pool_size = found.len();
    if args.spread {
        // The set: chosen from the pool so far, also when the run was stopped.
        let set = spread::spread(std::mem::take(&mut found), args.count.unwrap_or(0) as usize);
        for (level, puzzle) in &set {
            if let Err(e) = write_puzzle(out, puzzle, Some(*level), args.json) {
                eprintln!("generate: cannot write: {e}");
                ok = false;
                break;
            }
        }
        found = set.into_iter().map(|(_, p)| p).collect();
    }
    let _ = out.flush();
    if let Some(path) = &args.output {
        if let Err(e) = save_place(path, run, place) {
            eprintln!("generate: {}: {e}", beside(path, ".resume").display());
        }
    }
    if let Some(path) = &args.html {
        let title = format!("fairysolve puzzles: {} (seed {})", spec.stip, spec.seed);
        if let Err(e) = std::fs::write(path, super::gallery::page(&title, &found)) {
            eprintln!("generate: {}: {e}", path.display());
            ok = false;
        }
    }
    let kept = if args.spread {
        found.len() as u64
    } else {
        place.found
    };
    let summary = format!(
        "generate: {kept} puzzle{}{} from {} candidate{} of shard {k}/{n}{}",
        if kept == 1 { "" } else { "s" },
        if args.spread {
            format!(" (spread over difficulty from {pool_size} proved)")
        } else {
            String::new()
        },
        place.next,
        if place.next == 1 { "" } else { "s" },
        if stopped {
            format!(
                "; {}: a rerun with the same arguments and -o goes on from here",
                why_stopped()
            )
        } else {
            String::new()
        }
    );
    eprintln!("{summary}");
    ok && !stopped
}

/// One puzzle read back for `--merge`: its seed and index, its diagram, the line as
/// written.
fn merge_entry(text: &str) -> Option<(u64, u64, Vec<String>)> {
    if text.trim_start().starts_with('{') {
        let v: Value = serde_json::from_str(text).ok()?;
        let epd = v["epd"].as_str()?;
        return Some((v["seed"].as_u64()?, v["index"].as_u64()?, repeat_keys(epd)?));
    }
    let rec = match fairysolve::epd::parse_line(text, 1).ok()? {
        fairysolve::epd::Line::Position(rec) => rec,
        _ => return None,
    };
    let id = rec.id()?;
    let (seed, index) = id.split_once('-')?;
    Some((seed.parse().ok()?, index.parse().ok()?, repeat_keys(text)?))
}

/// Whether the files given to `--merge` are every shard of one run, as far as their
/// resume files (written beside each `-o FILE`) tell: a shard missing, or two runs of
/// other arguments, are reported (status 1); a file without one is named, unchecked.
fn shards_complete(files: &[String]) -> bool {
    let mut runs: Vec<(String, u64, u64, &str)> = Vec::new();
    for file in files {
        let path = beside(Path::new(file), ".resume");
        let run = std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| v["run"].as_str().map(String::from));
        let Some(run) = run else {
            eprintln!(
                "generate --merge: {file}: no {} beside it, so which shard it holds is not checked",
                path.display()
            );
            continue;
        };
        // The run's arguments without its shard, and the shard K/N.
        let mut rest = Vec::new();
        let mut shard = None;
        for word in run.split(' ') {
            match word.strip_prefix("shard=").and_then(|s| s.split_once('/')) {
                Some((k, n)) => shard = k.parse().ok().zip(n.parse().ok()),
                None => rest.push(word),
            }
        }
        if let Some((k, n)) = shard {
            runs.push((rest.join(" "), k, n, file));
        }
    }
    let Some((first, _, n, first_file)) = runs.first().cloned() else {
        return true;
    };
    if let Some((_, _, _, other)) = runs.iter().find(|r| r.0 != first || r.2 != n) {
        eprintln!(
            "generate --merge: {other} and {first_file} hold runs of different arguments; the merge is no one run"
        );
        return false;
    }
    let missing: Vec<String> = (0..n)
        .filter(|k| !runs.iter().any(|r| r.1 == *k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if missing.is_empty() {
        return true;
    }
    eprintln!(
        "generate --merge: shard{} {} of the run {} missing: the merged set is not the whole run",
        if missing.len() == 1 { "" } else { "s" },
        missing.join(", "),
        if missing.len() == 1 { "is" } else { "are" }
    );
    false
}

/// The puzzles `--merge --spread` spreads a set over: of each file, its pool kept
/// beside it (`FILE.pool`, what its shard proved) or else its own lines, which must
/// be JSON lines carrying their effort. A line of neither kind is named.
fn merge_pool(files: &[String]) -> (Vec<Puzzle>, bool) {
    let mut pool = Vec::new();
    let mut ok = true;
    for file in files {
        let kept = beside(Path::new(file), ".pool");
        let (name, mut text) = match std::fs::read_to_string(&kept) {
            Ok(t) => (kept.display().to_string(), t),
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                eprintln!("generate --merge: {}: cannot be read: {e}", kept.display());
                ok = false;
                continue;
            }
            Err(_) => match std::fs::read_to_string(file) {
                Ok(t) => (file.clone(), t),
                Err(e) => {
                    eprintln!("generate --merge: {file}: cannot be read: {e}");
                    ok = false;
                    continue;
                }
            },
        };
        // A pool's last line without its end is a write cut short (a shard stopped
        // while it added to its pool): what it began is not a puzzle of the pool.
        if name.ends_with(".pool") {
            text.truncate(text.rfind('\n').map_or(0, |end| end + 1));
        }
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let puzzle = serde_json::from_str::<Value>(t)
                .ok()
                .and_then(|v| spread::from_json(&v))
                .filter(|p| p.effort.is_some());
            match puzzle {
                Some(p) => pool.push(p),
                None => {
                    eprintln!(
                        "{name}, line {}, column 1: not a puzzle with its effort (--merge --spread reads each shard's pool, FILE.pool, or JSON lines of a spread run)",
                        i + 1
                    );
                    ok = false;
                }
            }
        }
    }
    (pool, ok)
}

/// `--merge --spread`: the shards' pools together, each diagram once (its first
/// index kept, as in any merge), and the set spread over them (`spread::spread`).
fn merge_spread(args: &GenerateArgs, out: &mut dyn Write) -> bool {
    let (mut pool, mut ok) = merge_pool(&args.merge);
    pool.sort_by_key(|p| (p.seed, p.index));
    let mut seen = HashSet::new();
    pool.retain(|p| repeat_keys(&p.line()).is_some_and(|keys| first_met(&mut seen, keys)));
    let proved = pool.len();
    let set = spread::spread(pool, args.count.unwrap_or(0) as usize);
    for (level, puzzle) in &set {
        if let Err(e) = write_puzzle(out, puzzle, Some(*level), args.json) {
            eprintln!("generate: cannot write: {e}");
            ok = false;
            break;
        }
    }
    eprintln!(
        "generate --merge: {} puzzle{} spread over difficulty from {proved} proved",
        set.len(),
        if set.len() == 1 { "" } else { "s" }
    );
    ok
}

/// Where `--merge` writes: `-o FILE`, else standard output; `None` (said) when FILE
/// cannot be made.
fn merge_output(args: &GenerateArgs) -> Option<Box<dyn Write>> {
    match &args.output {
        None => Some(Box::new(std::io::stdout())),
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Some(Box::new(std::io::BufWriter::new(f))),
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                None
            }
        },
    }
}

fn merge(args: &GenerateArgs) -> bool {
    if args.spread {
        let complete = shards_complete(&args.merge);
        let Some(mut out) = merge_output(args) else {
            return false;
        };
        let ok = merge_spread(args, &mut out);
        let _ = out.flush();
        return ok && complete;
    }
    let mut entries = Vec::new();
    let mut ok = true;
    for file in &args.merge {
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("generate --merge: {file}: cannot be read: {e}");
                ok = false;
                continue;
            }
        };
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            match merge_entry(t) {
                Some((seed, index, key)) => entries.push((seed, index, key, line.to_string())),
                None => {
                    eprintln!("{file}, line {}, column 1: not a puzzle of generate (a position line with id \"SEED-INDEX\", or a JSON line)", i + 1);
                    ok = false;
                }
            }
        }
    }
    ok &= shards_complete(&args.merge);
    entries.sort_by_key(|e| (e.0, e.1));
    let mut seen = HashSet::new();
    let Some(mut out) = merge_output(args) else {
        return false;
    };
    for (_, _, keys, line) in entries {
        if first_met(&mut seen, keys) {
            let _ = writeln!(out, "{line}");
        }
    }
    let _ = out.flush();
    ok
}
