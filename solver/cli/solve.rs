//! `fairysolve solve`: proves stipulations and prints the solution as composers read it,
//! or as JSON (formats.md section 2).

use super::input::{command_input, Item, TwoBoard};
use super::limits::{install_interrupt_handler, INTERRUPTED};
use super::tree::Layout;
use super::VariantFlags;
use clap::Args;
use fairysolve::generic::search::Line;
use fairysolve::problem::{Problem, Stipulation};
use fairysolve::search::solution::{AttackNode, DefenceNode, Solution, SolveOptions};
use fairysolve::search::tt::Table;
use fairysolve::types::Color;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::time::Duration;

#[derive(Args, Clone)]
// Without a position to work on the command line is wrong (exit 2, formats.md 2).
#[command(group(clap::ArgGroup::new("input").required(true).multiple(true).args(["files", "fen"])))]
pub struct SolveArgs {
    /// Position files (`-` for standard input), read line by line as the work goes;
    /// lines end with LF, CRLF or CR, and one longer than 65536 bytes is reported and
    /// skipped.
    pub files: Vec<String>,
    /// One position (FEN or a whole position line with operations).
    #[arg(long)]
    pub fen: Option<String>,
    /// Stipulation of every line, e.g. "#2", "h#2.5", "s#3": replaces the line's own
    /// dm or stip, and gives one to --fen and to lines without.
    #[arg(long, value_parser = stipulation_arg)]
    pub stip: Option<Stipulation>,
    /// Number of moves N of every line's stipulation, its aim kept (#N, h#N, s#N; a
    /// line without one is solved as #N).
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=fairysolve::problem::MAX_MOVES as i64))]
    pub depth: Option<u32>,
    /// One JSON object per position (docs/positions.md, `solve --json`).
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default, and 0: all cores; at most 256).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Also list tries with their refutations.
    #[arg(long)]
    pub tries: bool,
    /// Most refutations a try may have to be listed.
    #[arg(long, default_value_t = 1)]
    pub refutations: usize,
    /// Apply what retro-analysis proves before solving.
    #[arg(long)]
    pub retro: bool,
    /// Seconds allowed per position; what was proved by then is reported.
    #[arg(long = "time-limit", value_parser = super::limits::positive_seconds)]
    pub time_limit: Option<f64>,
    /// Transposition table size in megabytes (1 to 65536): the most it grows to (it
    /// starts at 1 MB); default 128 (a proof game's table of dead ends, which does not
    /// grow: 32).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: Option<u64>,
    /// Print only keys, no solution tree.
    #[arg(long = "keys-only")]
    pub keys_only: bool,
    /// Print every move of the tree: on two-board games the attacker's unanswered moves
    /// that win alike are otherwise shown once, with the count of the others.
    #[arg(long)]
    pub full: bool,
    /// Also show set play (#N and s#N, N >= 2): each Black move of the diagram as if
    /// Black were to move, with White's answers (rules.md 8.4).
    #[arg(long = "set-play")]
    pub set_play: bool,
    /// Help play: stop after N solutions (N >= 1), saying that it stopped.
    #[arg(long = "max-solutions", value_parser = super::limits::solution_count)]
    pub max_solutions: Option<usize>,
    /// Progress as JSON lines on standard error, `{"progress": {"done", "total",
    /// "found"}}`, at most five a second (what `serve` shows while it solves).
    #[arg(long = "progress-json", hide = true)]
    pub progress_json: bool,
    #[command(flatten)]
    pub variants: VariantFlags,
}

/// Set by `--progress-json` for the whole run.
static PROGRESS_JSON: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Writes a search's progress as a JSON line on standard error when `--progress-json`
/// asks for it: `done` of `total` first moves, `found` the results so far. Lines come at
/// most every 200 ms, and always when the last first move is done.
pub(super) fn progress_json(done: usize, total: usize, found: &str) {
    use std::sync::atomic::Ordering;
    use std::sync::Mutex;
    use std::time::Instant;
    static LAST: Mutex<Option<Instant>> = Mutex::new(None);
    if !PROGRESS_JSON.load(Ordering::Relaxed) {
        return;
    }
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    if done < total && last.is_some_and(|t| t.elapsed() < Duration::from_millis(200)) {
        return;
    }
    *last = Some(Instant::now());
    eprintln!(
        "{}",
        json!({"progress": {"done": done, "total": total, "found": found}})
    );
}

/// A stipulation as given on the command line: `#N`, N in 1..=30.
fn stipulation_arg(text: &str) -> Result<Stipulation, String> {
    Stipulation::parse(text).ok_or_else(|| {
        format!(
            "'{text}' is not a stipulation: #N, h#N, h#N.5 or s#N with N in 1..={}, or pg N / spg N (N in moves: 9.0, 8.5) expected",
            fairysolve::problem::MAX_MOVES
        )
    })
}

/// The stipulation to prove for the line of `item` stating `stated` (if any):
/// `--stip`, else the line's; `--depth` sets N and keeps the aim (clap checked its
/// range). None at all is a located message; for `--fen` it is the command line that
/// lacks it (exit status 2). An option that means nothing for the stipulation is refused
/// with a located message, never ignored.
pub(super) fn stipulation(
    item: &Item,
    stated: Option<Stipulation>,
    args: &SolveArgs,
) -> Result<Stipulation, String> {
    let stated = args.stip.or(stated);
    let stip = args
        .depth
        .map(|n| Stipulation {
            moves: n,
            ..stated.unwrap_or(Stipulation::direct(n))
        })
        .or(stated);
    if let Some(s) = stip {
        let help = s.aim == fairysolve::problem::Aim::Help;
        // --max-solutions counts help-mate solutions (rules.md 8.6); set play is the
        // defender's moves before the attacker's first (rules.md 8.4), which a help-mate
        // or a one-mover has none of. Elsewhere each would mean nothing.
        let meaningless = [
            (
                args.max_solutions.is_some() && !help && !s.aim.is_proof_game(),
                "--max-solutions applies to help-mates (h#N, h#N.5) and proof games only",
            ),
            (
                args.set_play && (help || s.moves < 2),
                "--set-play applies to #N and s#N with N >= 2",
            ),
        ];
        if let Some((_, why)) = meaningless.iter().find(|(given, _)| *given) {
            return Err(item.located(item.column_of(&["stip", "dm"]), &format!("{s}: {why}")));
        }
    }
    stip.ok_or_else(|| {
            if item.is_fen_line() {
                super::command_line_is_wrong();
                item.located(
                    0,
                    "no stipulation: give --stip (e.g. --stip \"#2\") or --depth, or dm/stip in the line",
                )
            } else {
                item.located(
                    0,
                    "no stipulation: the line has no dm or stip, and neither --stip nor --depth was given",
                )
            }
        })
}

/// A key's tree of the single-board search in the form every game's tree takes
/// (`generic::search::Line`), to be printed and written by `tree`.
fn attack_line(node: &AttackNode, attacker: Color, chess960: bool) -> Line {
    let checks = node.san.contains('+');
    // The search seeks a threat where the defender is not in check and the move neither
    // ends the game nor leaves a single move: none found there is a zugzwang.
    let sought = node.wins_in >= 2 && !checks && !node.mates && !node.defences.is_empty();
    Line {
        coord: node.mv.coord(chess960).to_string(),
        notation: node.san.clone(),
        mover: attacker,
        wins_in: node.wins_in,
        ends: node.defences.is_empty() && !node.truncated,
        round_ends: false,
        children: node
            .defences
            .iter()
            .map(|d| defence_line(d, attacker, chess960))
            .collect(),
        truncated: node.truncated,
        threat: (sought && !node.truncated).then(|| {
            node.threat
                .iter()
                .map(|t| attack_line(t, attacker, chess960))
                .collect()
        }),
        cash: node.cash,
        king_fell: false,
    }
}

fn defence_line(d: &DefenceNode, attacker: Color, chess960: bool) -> Line {
    let children: Vec<Line> = d
        .continuations
        .iter()
        .map(|c| attack_line(c, attacker, chess960))
        .collect();
    Line {
        coord: d.mv.coord(chess960).to_string(),
        notation: d.san.clone(),
        mover: !attacker,
        wins_in: 1 + children.iter().map(|c| c.wins_in).max().unwrap_or(0),
        ends: children.is_empty() && !d.truncated,
        round_ends: true,
        children,
        truncated: d.truncated,
        threat: None,
        cash: d.cash,
        king_fell: d.king_fell,
    }
}

fn describe_rules(problem: &Problem) -> String {
    let mut parts = Vec::new();
    if let Some(td) = problem.game.rules().trapdoor {
        parts.push(format!("trapdoor {} {}", td.timer, td.order.name()));
    }
    if let Some(taxi) = problem.game.rules().taxi {
        let p = &problem.position;
        // A proof game's diagram may leave either amount open (rules.md 9.3).
        let cash = |c: fairysolve::Color| {
            if problem.stated.cash[c.index()] {
                p.cash(c).to_string()
            } else {
                "-".to_string()
            }
        };
        parts.push(format!(
            "taxi (cash W {} B {}, income {})",
            cash(fairysolve::Color::White),
            cash(fairysolve::Color::Black),
            taxi.income
        ));
    }
    if let Some(eq) = problem.game.earthquake(&problem.position) {
        let (dx, dy) = eq.displacement();
        parts.push(format!(
            "earthquake ({dx},{dy}) void {}",
            eq.void_rule().name()
        ));
        if problem.game.has_aftershocks() {
            let q = problem.position.quake();
            parts.push(format!("aftershocks {}/{}", q.shocks[0], q.shocks[1]));
        }
    }
    if parts.is_empty() {
        "orthodox".into()
    } else {
        parts.join(", ")
    }
}

fn text_report(
    item: &Item,
    problem: &Problem,
    stip: Stipulation,
    sol: &Solution,
    args: &SolveArgs,
) -> String {
    let c960 = problem.position.is_chess960();
    let mut out = String::new();
    let id = problem
        .id()
        .map(|s| format!(" \"{s}\""))
        .unwrap_or_default();
    out.push_str(&format!(
        "{}{id}: {} {} ({} to move)\n",
        item.source,
        stip,
        describe_rules(problem),
        problem.position.turn().name()
    ));
    if !sol.complete() {
        let undecided: Vec<String> = sol
            .unresolved
            .iter()
            .map(|&mv| fairysolve::san::san(&problem.game, &problem.position, mv))
            .collect();
        out.push_str(&undecided_line(&undecided));
    }
    if sol.cut_short {
        out.push_str(
            "stopped before the tries and variations were complete: the keys are proved, \
             the rest is partial\n",
        );
    }
    if sol.keys.is_empty() && sol.complete() {
        out.push_str("no solution\n");
    }
    if args.keys_only || sol.trees.is_empty() {
        for &(mv, n) in &sol.keys {
            out.push_str(&format!(
                "1.{}! (wins in {n})\n",
                fairysolve::san::san(&problem.game, &problem.position, mv)
            ));
        }
    } else {
        let layout = Layout {
            attacker: problem.position.turn(),
            moves: stip.moves,
            full: args.full,
        };
        for t in &sol.trees {
            layout.write_key(&attack_line(t, layout.attacker, c960), &mut out);
        }
    }
    for t in &sol.tries {
        let refs: Vec<String> = t.refutations.iter().map(|(_, s)| format!("{s}!")).collect();
        out.push_str(&format!("1.{}? {}\n", t.san, refs.join(" ")));
    }
    // The keys in the tree's notation, with or without a tree.
    let keys: Vec<String> = sol
        .keys
        .iter()
        .map(|&(mv, _)| fairysolve::san::san(&problem.game, &problem.position, mv))
        .collect();
    out.push_str(&keys_summary(
        &keys,
        sol.complete(),
        sol.shortest(),
        stip.moves,
        sol.nodes,
        sol.elapsed.as_millis(),
        sol.threads,
    ));
    out
}

/// What a search stopped by the time limit or Ctrl-C left open: the first moves it did
/// not decide, by name.
pub(super) fn undecided_line(undecided: &[String]) -> String {
    format!(
        "stopped before the proof was complete: {} first move{} undecided: {}\n",
        undecided.len(),
        if undecided.len() == 1 { "" } else { "s" },
        undecided.join(", ")
    )
}

/// The closing line of a report: the keys in the tree's notation (`none proved` when
/// the search was stopped before it could prove there is none), a cook or a short
/// solution, and what the search cost.
pub(super) fn keys_summary(
    keys: &[String],
    complete: bool,
    shortest: Option<u32>,
    moves: u32,
    nodes: u64,
    millis: u128,
    threads: usize,
) -> String {
    let mut flags = Vec::new();
    if keys.len() > 1 {
        flags.push("cooked".to_string());
    }
    if let Some(short) = shortest.filter(|&n| n < moves) {
        flags.push(format!("short solution in {short}"));
    }
    format!(
        "{}: {}{} · {}\n",
        if keys.len() == 1 { "key" } else { "keys" },
        if keys.is_empty() && complete {
            "none".into()
        } else if keys.is_empty() {
            "none proved".into()
        } else {
            keys.join(", ")
        },
        if flags.is_empty() {
            String::new()
        } else {
            format!(" ({})", flags.join(", "))
        },
        search_cost(nodes, millis, threads),
    )
}

/// What a search cost, as every summary line ends: `1049 nodes in 3 ms, 1 thread`.
pub(super) fn search_cost(nodes: u64, millis: u128, threads: usize) -> String {
    format!(
        "{nodes} nodes in {millis} ms, {threads} thread{}",
        if threads == 1 { "" } else { "s" }
    )
}

fn json_report(item: &Item, problem: &Problem, stip: Stipulation, sol: &Solution) -> Value {
    let c960 = problem.position.is_chess960();
    let status = if !sol.complete() {
        "timeout"
    } else if sol.keys.is_empty() {
        "no-solution"
    } else {
        "solved"
    };
    let mut v = json!({
        "id": problem.id(),
        "source": item.source,
        "stip": stip.to_string(),
        "status": status,
        "keys": sol.keys.iter().map(|(m, _)| m.coord(c960).to_string()).collect::<Vec<_>>(),
        "shortest": sol.shortest(),
        "cooked": sol.cooked(),
        "error": null,
        // One tree per key, under its coordinate move (a cooked problem has several).
        "tree": sol
            .trees
            .iter()
            .map(|t| {
                (
                    t.mv.coord(c960).to_string(),
                    super::tree::json(&attack_line(t, problem.position.turn(), c960)),
                )
            })
            .collect::<serde_json::Map<_, _>>(),
        "nodes": sol.nodes,
        "millis": sol.elapsed.as_millis() as u64,
        "threads": sol.threads,
        // Everything asked for was done (false after a timeout, also when only the
        // tries or the tree were cut short).
        "complete": sol.finished(),
    });
    if !sol.tries.is_empty() {
        v["tries"] = json!(sol.tries.iter().map(|t| json!({
            "move": t.mv.coord(c960).to_string(),
            "san": t.san,
            "refutations": t.refutations.iter().map(|(m, _)| m.coord(c960).to_string()).collect::<Vec<_>>(),
        })).collect::<Vec<_>>());
    }
    if !sol.complete() {
        v["undecided"] = json!(sol
            .unresolved
            .iter()
            .map(|m| m.coord(c960).to_string())
            .collect::<Vec<_>>());
    }
    v
}

/// A position that was not solved, with every field of formats.md 2 present, so that a
/// script reads the same keys on every line.
pub(super) fn error_json(item: &Item, message: &str) -> Value {
    json!({
        "id": item.record.as_ref().ok().and_then(|r| r.id()),
        "source": item.source,
        "stip": null,
        "status": "error",
        "keys": [],
        "shortest": null,
        "cooked": false,
        "error": message,
        "tree": {},
        "nodes": 0,
        "millis": 0,
        "threads": 0,
        "complete": false,
    })
}

/// What `--retro` found and the positions to solve: one per timer assignment the
/// histories allow (rules.md 6.2), with the en passant right it proved.
struct RetroPlan {
    summary: String,
    ticking: Vec<Value>,
    en_passant: Option<String>,
    complete: bool,
    /// The time limit or Ctrl-C cut the retro step short.
    stopped: bool,
    positions: Vec<(String, fairysolve::Position)>,
}

/// The retro step of `--retro` for the problem of `item`, ended by Ctrl-C or at
/// `deadline` with what it proved by then.
fn retro_plan(
    item: &Item,
    problem: &Problem,
    deadline: Option<std::time::Instant>,
) -> Result<RetroPlan, String> {
    use fairysolve::retro::{self, RetroOptions, RetroPosition};
    let defaults = RetroOptions::default();
    let opts = RetroOptions::for_problem(problem, defaults.depth, defaults.nodes);
    let limits = fairysolve::search::Limits {
        stop: &INTERRUPTED,
        deadline,
    };
    let report = retro::analyse_within(&RetroPosition::of(&problem.position), &opts, &limits);
    if !report.legal() {
        let reasons: Vec<String> = report.illegal.iter().map(|r| r.to_string()).collect();
        // The diagram is at fault: its first field is where to look.
        return Err(item.located(
            0,
            &format!("illegal position (retro): {}", reasons.join("; ")),
        ));
    }
    let mut base = problem.position;
    if let Some(ep) = report.en_passant {
        base.set_ep(Some(ep));
    }
    let mut positions = Vec::new();
    let scenarios = if report.scenarios.is_empty() {
        vec![opts.given.clone()]
    } else {
        report.scenarios.clone()
    };
    for timers in &scenarios {
        let mut pos = base;
        for sq in pos.timers().ticking() {
            pos.set_timer(sq, None);
        }
        for &(sq, r) in timers {
            pos.set_timer(sq, Some(r));
        }
        let label = if timers.is_empty() {
            "none".to_string()
        } else {
            timers
                .iter()
                .map(|(sq, r)| format!("{sq}:{r}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        positions.push((label, pos));
    }
    let mut parts = Vec::new();
    for t in &report.ticking {
        let r: Vec<String> = t.r.iter().map(|r| r.to_string()).collect();
        parts.push(format!(
            "{}{} ticking r={}",
            t.piece.char().to_ascii_uppercase(),
            t.square,
            r.join(",")
        ));
    }
    if let Some(ep) = report.en_passant {
        parts.push(format!(
            "en passant on {ep} (the last move was the double step)"
        ));
    }
    if parts.is_empty() && report.complete {
        parts.push("nothing proved; every man is safe".into());
    } else if parts.is_empty() {
        parts.push("nothing proved".into());
    }
    if report.stopped {
        parts.push(format!(
            "incomplete: cut short ({}); the men listed as ticking are proved, the others \
             are solved as the file gives them",
            super::limits::why_stopped()
        ));
    } else if !report.complete {
        parts.push("incomplete: a node limit stopped the proof".into());
    }
    if positions.len() > 1 {
        parts.push(format!(
            "{} timer assignments, each solved",
            positions.len()
        ));
    }
    Ok(RetroPlan {
        summary: parts.join("; "),
        ticking: report
            .ticking
            .iter()
            .map(|t| json!({"square": t.square.to_string(), "r": t.r}))
            .collect(),
        en_passant: report.en_passant.map(|s| s.to_string()),
        complete: report.complete,
        stopped: report.stopped,
        positions,
    })
}

/// Keys (coordinates) that win in every solved assignment.
fn common_keys(solved: &[(String, Problem, Solution)]) -> Vec<String> {
    let Some((_, first, sol)) = solved.first() else {
        return Vec::new();
    };
    sol.keys
        .iter()
        .map(|&(m, _)| m)
        .filter(|m| {
            solved
                .iter()
                .all(|(_, _, s)| s.keys.iter().any(|(k, _)| k == m))
        })
        .map(|m| m.coord(first.position.is_chess960()).to_string())
        .collect()
}

/// Solves one problem, with a progress bar over its first moves when `bar` is asked
/// for and stderr is a terminal.
/// The progress bar of one search's first moves, on a terminal (`show`: wanted).
pub(super) fn first_moves_bar(item: &Item, args: &SolveArgs, show: bool) -> Option<ProgressBar> {
    if show && std::io::stderr().is_terminal() && !args.json {
        let b = ProgressBar::new(0);
        b.set_style(
            ProgressStyle::with_template(
                "{spinner} {msg} [{bar:30}] {pos}/{len} first moves ({elapsed})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b.set_message(item.source.clone());
        Some(b)
    } else {
        None
    }
}

/// What a search that finds its results one by one (help-mates, proof games) prints
/// while it runs: a lone position on a terminal, reported as text, gets each result as it
/// is proved and a bar of the first moves done, the results so far and the time;
/// otherwise the report is written whole at the end.
pub(super) struct Streamed {
    bar: Option<ProgressBar>,
    on: bool,
}

impl Streamed {
    /// `on`: the position is solved alone (not in a batch). The bar is named `message`,
    /// and `found` says how many results there are at first (`0 solutions`).
    pub fn new(item: &Item, args: &SolveArgs, on: bool, message: String, found: &str) -> Streamed {
        let on = on && !args.json;
        let bar = first_moves_bar(item, args, on).inspect(|b| {
            b.set_style(
                ProgressStyle::with_template(
                    "{spinner} {msg} [{bar:30}] {pos}/{len} first moves, {prefix} ({elapsed})",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            b.set_message(message);
            b.set_prefix(found.to_string());
            b.enable_steady_tick(Duration::from_millis(200));
        });
        Streamed { bar, on }
    }

    /// Prints what `text` holds so far, and empties it, when the report streams;
    /// otherwise the text stays to be written whole.
    pub fn print(&self, text: &mut String) {
        if self.on {
            let out = std::mem::take(text);
            match &self.bar {
                Some(b) => b.suspend(|| print!("{out}")),
                None => print!("{out}"),
            }
        }
    }

    /// `done` of `total` first moves searched, `found` the results so far; `message`,
    /// where given, names the bar anew.
    pub fn progress(&self, done: usize, total: usize, found: String, message: Option<String>) {
        progress_json(done, total, &found);
        if let Some(b) = &self.bar {
            if let Some(m) = message {
                b.set_message(m);
            }
            b.set_length(total as u64);
            b.set_position(done as u64);
            b.set_prefix(found);
        }
    }

    /// The search is over: the bar goes.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }

    /// The report's last text: printed when it streams (then nothing is left for the
    /// caller to write), else all of it for the caller.
    pub fn close(&self, mut text: String) -> String {
        self.print(&mut text);
        text
    }
}

fn solve_one(
    item: &Item,
    problem: &Problem,
    stip: Stipulation,
    opts: &SolveOptions,
    table: &Table,
    args: &SolveArgs,
    bar: bool,
) -> Solution {
    let bar = first_moves_bar(item, args, bar);
    let progress = |done: usize, total: usize| {
        progress_json(done, total, "");
        if let Some(b) = &bar {
            b.set_length(total as u64);
            b.set_position(done as u64);
        }
    };
    let sol = problem.game.solve(
        table,
        &problem.position,
        stip.moves,
        opts,
        &INTERRUPTED,
        &progress,
    );
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    sol
}

/// The most the table grows to without `--hash`, taken only as the table fills: on W.
/// Hundsdorfer's s#6 (docs/speed.md) 128 MB is faster than 256 (less memory for the
/// kernel to clear), and 64 visits 4 % more nodes.
const DEFAULT_HASH_MB: u64 = 128;

/// A proof game's table of dead ends without `--hash`: it is all there from the start.
pub const DEFAULT_PROOF_GAME_HASH_MB: u64 = 32;

/// The table of `--hash` megabytes, or the largest half, quarter, ... of it that the
/// system grants (with a warning): a smaller table changes no answer, only the time.
fn hash_table(mb: usize) -> Option<Table> {
    let mut size = mb;
    loop {
        if let Ok(table) = Table::try_new(size) {
            if size < mb {
                let got = table.megabytes();
                eprintln!("solve: --hash {mb}: cannot allocate {mb} MB, using {got} MB");
            }
            return Some(table);
        }
        if size == 1 {
            return None;
        }
        size /= 2;
    }
}

/// What solving one item printed, and whether it went through.
pub(crate) struct Report {
    pub stdout: String,
    pub stderr: String,
    pub ok: bool,
}

pub fn run(args: SolveArgs) -> bool {
    let mut items = command_input(&args.files, args.fen.as_deref(), &args.variants);
    install_interrupt_handler();
    PROGRESS_JSON.store(args.progress_json, std::sync::atomic::Ordering::Relaxed);
    let threads = super::threads(args.threads);
    let opts = SolveOptions {
        threads,
        tries: args.tries,
        max_refutations: args.refutations.max(1),
        time_limit: args.time_limit.map(Duration::from_secs_f64),
        tree: !args.keys_only,
        ..SolveOptions::default()
    };
    let Some(table) = hash_table(args.hash.unwrap_or(DEFAULT_HASH_MB) as usize) else {
        eprintln!("solve: cannot allocate even 1 MB for the table");
        return false;
    };
    // With more threads than one and a file (which may hold many positions), each
    // thread takes positions of its own; the progress display then counts positions,
    // not first moves. The lines are read as the work goes, so their number is not
    // known in advance. A lone position is solved by this thread (its search starts the threads it
    // uses): a pool for the positions would cost a small problem more than its search.
    let lone = items.at_most_one();
    let concurrent = threads > 1 && !args.files.is_empty() && !lone;
    let bar = (concurrent && std::io::stderr().is_terminal() && !args.json).then(|| {
        let b = ProgressBar::new_spinner();
        b.set_style(
            ProgressStyle::with_template("{spinner} {pos} positions solved ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        b.enable_steady_tick(Duration::from_millis(100));
        b
    });
    let mut ok = true;
    super::batch::in_order(
        if lone { 1 } else { threads },
        items,
        |item| solve_item(item, &args, &opts, &table, !concurrent),
        |report| {
            let print = || {
                print!("{}", report.stdout);
                eprint!("{}", report.stderr);
            };
            match &bar {
                Some(b) => {
                    b.suspend(print);
                    b.inc(1);
                }
                None => print(),
            }
            ok &= report.ok;
        },
    );
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    ok
}

/// Solves one item (under --retro, in every timer assignment the histories allow) and
/// writes its report; `bar`: show the first-move progress bar.
fn solve_item(
    item: &Item,
    args: &SolveArgs,
    opts: &SolveOptions,
    table: &Table,
    bar: bool,
) -> Report {
    let mut out = Report {
        stdout: String::new(),
        stderr: String::new(),
        ok: true,
    };
    if super::limits::interrupted() {
        let msg = format!("{}: not solved (interrupted)", item.source);
        if args.json {
            let _ = writeln!(out.stdout, "{}", error_json(item, &msg));
        } else {
            let _ = writeln!(out.stderr, "{msg}");
        }
        out.ok = false;
        return out;
    }
    // What the line itself asks to be shown (`options`), added to the command line's.
    // A request its stipulation has no use for is refused when the line is read below.
    let asked = item
        .record
        .as_ref()
        .ok()
        .and_then(|r| fairysolve::problem::asked_of(r, None).ok())
        .unwrap_or_default();
    let (line_args, line_opts);
    let (args, opts) = if asked == fairysolve::problem::Asked::default() {
        (args, opts)
    } else {
        line_args = SolveArgs {
            tries: args.tries || asked.tries,
            set_play: args.set_play || asked.set_play,
            refutations: asked.refutations.unwrap_or(args.refutations),
            max_solutions: args.max_solutions.or(asked.max_solutions),
            retro: args.retro || asked.retro,
            ..args.clone()
        };
        line_opts = SolveOptions {
            tries: line_args.tries,
            max_refutations: line_args.refutations.max(1),
            ..opts.clone()
        };
        (&line_args, &line_opts)
    };
    let two_board = item.two_board();
    if args.retro && matches!(two_board, Ok(Some(_))) {
        return super::two_board::refused_at(
            item,
            args,
            0,
            "--retro: retro-analysis covers the single-board games; an Underworld or Looking-Glass line is solved without --retro",
        );
    }
    match two_board {
        Ok(Some(TwoBoard::Underworld(p))) => {
            return super::two_board::solve_underworld(item, &p, args, opts, table, bar)
        }
        Ok(Some(TwoBoard::Glass(p))) => {
            return super::two_board::solve_glass(item, &p, args, opts, table, bar)
        }
        Ok(None) => {}
        Err(e) => {
            if args.json {
                let _ = writeln!(out.stdout, "{}", error_json(item, &e));
            }
            let _ = writeln!(out.stderr, "{e}");
            out.ok = false;
            return out;
        }
    }
    // One time limit for the whole position: the retro step and every solve after it.
    let deadline = super::limits::deadline(args.time_limit);
    let prepared = item.problem().and_then(|p| {
        let s = stipulation(item, p.stipulation, args)?;
        let plan = if args.retro && !s.aim.is_proof_game() {
            Some(retro_plan(item, &p, deadline)?)
        } else {
            None
        };
        Ok((p, s, plan))
    });
    let (problem, stip, plan) = match prepared {
        Ok(x) => x,
        Err(e) => {
            if args.json {
                let _ = writeln!(out.stdout, "{}", error_json(item, &e));
            }
            let _ = writeln!(out.stderr, "{e}");
            out.ok = false;
            return out;
        }
    };
    if stip.aim.is_proof_game() {
        let what = format!(
            "{} ({} to move in the diagram)",
            describe_rules(&problem),
            problem.position.turn().name()
        );
        return super::proof_game::solve_proof_line(item, &problem, stip, args, what, bar);
    }
    if stip.aim != fairysolve::problem::Aim::Direct {
        if plan.is_some() {
            return super::two_board::refused_at(
                item,
                args,
                item.column_of(&["stip", "dm"]),
                "--retro covers #N only",
            );
        }
        let what = format!(
            "{} ({} to move)",
            describe_rules(&problem),
            problem.position.turn().name()
        );
        return super::two_board::solve_board_line(
            item, &problem, stip, what, args, opts, table, bar,
        );
    }
    let solve = |p: &Problem| {
        let opts = SolveOptions {
            time_limit: super::limits::time_left(deadline),
            ..opts.clone()
        };
        solve_one(item, p, stip, &opts, table, args, bar)
    };
    let Some(plan) = plan else {
        let sol = solve(&problem);
        out.ok = sol.finished();
        let set = args
            .set_play
            .then(|| super::two_board::board_set_play(&problem, stip, opts, table));
        if args.json {
            let mut v = json_report(item, &problem, stip, &sol);
            if let Some((_, json)) = &set {
                super::two_board::add_set_play(&mut v, json);
            }
            let _ = writeln!(out.stdout, "{v}");
        } else {
            let report = text_report(item, &problem, stip, &sol, args);
            match (&set, report.split_once('\n')) {
                (Some((text, _)), Some((head, rest))) => {
                    let _ = write!(out.stdout, "{head}\n{text}{rest}");
                }
                _ => out.stdout.push_str(&report),
            }
        }
        return out;
    };
    // A retro step cut short is work not done (exit status 1), as a search cut short.
    out.ok &= !plan.stopped;
    // A key is one that wins in every timer assignment.
    let mut solved = Vec::new();
    for (label, position) in &plan.positions {
        let scenario = Problem {
            position: *position,
            ..problem.clone()
        };
        let sol = solve(&scenario);
        out.ok &= sol.finished();
        solved.push((label.clone(), scenario, sol));
    }
    let common = common_keys(&solved);
    if args.json {
        let (_, first_problem, first) = &solved[0];
        let mut v = json_report(item, first_problem, stip, first);
        v["keys"] = json!(common);
        // What belongs to the keys follows the common ones: the first assignment's
        // trees of those keys, the shortest of their wins there, a cook among them.
        if let Some(trees) = v["tree"].as_object_mut() {
            trees.retain(|key, _| common.contains(key));
        }
        let shortest = first
            .keys
            .iter()
            .filter(|(m, _)| {
                common.contains(&m.coord(first_problem.position.is_chess960()).to_string())
            })
            .map(|&(_, w)| w)
            .min();
        v["shortest"] = json!(shortest);
        v["cooked"] = json!(common.len() > 1);
        v["complete"] = json!(!plan.stopped && solved.iter().all(|(_, _, sol)| sol.finished()));
        if common.is_empty() && v["status"] == "solved" {
            v["status"] = json!("no-solution");
        }
        v["retro"] = json!({
            "ticking": plan.ticking,
            "en_passant": plan.en_passant,
            "complete": plan.complete,
            "scenarios": solved.iter().map(|(label, p, sol)| json!({
                "timers": label,
                "keys": sol.keys.iter().map(|(m, _)| m.coord(p.position.is_chess960()).to_string()).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        });
        let _ = writeln!(out.stdout, "{v}");
    } else {
        let _ = writeln!(out.stdout, "{}: retro: {}", item.source, plan.summary);
        for (label, p, sol) in &solved {
            if solved.len() > 1 {
                let _ = writeln!(out.stdout, "-- timers {label}");
            }
            out.stdout.push_str(&text_report(item, p, stip, sol, args));
        }
        if solved.len() > 1 {
            let _ = writeln!(
                out.stdout,
                "keys in every timer assignment: {}",
                if common.is_empty() {
                    "none".to_string()
                } else {
                    common.join(" ")
                }
            );
        }
    }
    out
}
