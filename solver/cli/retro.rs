//! `fairysolve retro`: the legality verdict, candidate last moves and men proved ticking
//! (rules.md 6, formats.md 2), as text or one JSON object per position.

use super::input::{command_input, Item, TwoBoard};
use super::VariantFlags;
use clap::Args;
use fairysolve::problem::Problem;
use fairysolve::retro::{self, two_boards, Retraction, RetroOptions, RetroPosition, RetroReport};
use fairysolve::search::Limits;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

#[derive(Args)]
// Without a position to work on the command line is wrong (exit 2, formats.md 2).
#[command(group(clap::ArgGroup::new("input").required(true).multiple(true).args(["files", "fen"])))]
pub struct RetroArgs {
    /// Position files (`-` for standard input), read line by line as the work goes;
    /// lines end with LF, CRLF or CR, and one longer than 65536 bytes is reported and
    /// skipped.
    pub files: Vec<String>,
    /// One position (FEN or a whole position line with operations).
    #[arg(long)]
    pub fen: Option<String>,
    /// One JSON object per position: legal, reasons, last moves, men proved ticking.
    #[arg(long)]
    pub json: bool,
    /// Half-moves searched back without Trapdoor (under Trapdoor T it is 2T), 1 to 12.
    #[arg(long, default_value_t = retro::DEFAULT_DEPTH, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=retro::MAX_DEPTH as i64))]
    pub depth: u32,
    /// Nodes one question may visit before it answers "not proved" (at least 1).
    #[arg(long, default_value_t = retro::DEFAULT_NODES, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Seconds allowed per position; what was proved by then is reported, marked as cut
    /// short (Ctrl-C stops the same way).
    #[arg(long = "time-limit", value_parser = super::limits::positive_seconds)]
    pub time_limit: Option<f64>,
    #[command(flatten)]
    pub variants: VariantFlags,
}

/// A history in the order it was played: `Ng1-f3 e7-e5 Bf1xNc4`.
pub fn history_text(history: &[Retraction]) -> String {
    history
        .iter()
        .rev()
        .map(|r| r.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The game a diagram is analysed in: `FIDE`, or its board and modifiers
/// (`Trapdoor T=1, Taxi income 2, Earthquake (1,0)`).
fn game_label(problem: &Problem) -> String {
    let rules = problem.game.rules();
    let mut parts = Vec::new();
    if let Some(t) = rules.trapdoor {
        let order = match t.order {
            fairysolve::trapdoor::FallOrder::MateFirst => "",
            fairysolve::trapdoor::FallOrder::FallsFirst => " falls first",
        };
        parts.push(format!("Trapdoor T={}{order}", t.timer));
    }
    if let Some(taxi) = rules.taxi {
        parts.push(format!("Taxi income {}", taxi.income));
    }
    if let Some(quake) = problem.game.earthquake(&problem.position) {
        let (dx, dy) = quake.displacement();
        let shocks = if problem.game.has_aftershocks() {
            " with aftershocks"
        } else {
            ""
        };
        parts.push(format!("Earthquake ({dx},{dy}){shocks}"));
    }
    if parts.is_empty() {
        "FIDE".into()
    } else {
        parts.join(", ")
    }
}

fn text(item: &Item, problem: &Problem, report: &RetroReport, millis: u128) -> String {
    let mut out = String::new();
    let id = problem
        .id()
        .map(|s| format!(" \"{s}\""))
        .unwrap_or_default();
    let rules = game_label(problem);
    let verdict = if report.legal() { "legal" } else { "illegal" };
    out.push_str(&format!(
        "{}{id}: {verdict} ({rules}, {} half-moves searched)\n",
        item.source, report.depth
    ));
    for reason in &report.illegal {
        out.push_str(&format!("  illegal: {reason}\n"));
    }
    if report.legal() {
        let moves: Vec<String> = report.last_moves.iter().map(|r| r.to_string()).collect();
        out.push_str(&format!(
            "  last move ({}): {}\n",
            report.mover.name(),
            moves.join(" ")
        ));
    }
    if let Some(ep) = report.en_passant {
        out.push_str(&format!(
            "  en passant on {ep} proved: every history ends with that double step\n"
        ));
    }
    for t in &report.ticking {
        let r: Vec<String> = t.r.iter().map(|r| r.to_string()).collect();
        out.push_str(&format!(
            "  ticking: {}{} r={} (it arrived within its owner's last moves in every history)\n",
            t.piece.char().to_ascii_uppercase(),
            t.square,
            r.join(",")
        ));
        for (r, w) in t.r.iter().zip(&t.witnesses) {
            if !w.is_empty() {
                out.push_str(&format!("    r={r}: e.g. {}\n", history_text(w)));
            }
        }
    }
    if report.scenarios.len() > 1 {
        out.push_str(&format!(
            "  {} timer assignments are possible; a solution must hold in each\n",
            report.scenarios.len()
        ));
    }
    out.push_str(&format!(
        "  {} · {} nodes in {millis} ms\n",
        completeness(report),
        report.nodes
    ));
    out
}

/// Whether every question was answered, and if not what cut it short.
fn completeness(report: &RetroReport) -> String {
    if report.complete {
        "complete".into()
    } else if report.stopped {
        format!(
            "incomplete: cut short ({}); the men listed as ticking are proved, the rest is undecided",
            super::limits::why_stopped()
        )
    } else {
        "incomplete: a node limit stopped some question (nothing unproved is listed)".into()
    }
}

fn json_report(item: &Item, problem: &Problem, report: &RetroReport, millis: u128) -> Value {
    json!({
        "id": problem.id(),
        "source": item.source,
        "legal": report.legal(),
        "illegal_reasons": report.illegal.iter().map(|r| r.to_string()).collect::<Vec<_>>(),
        "last_moves": report.last_moves.iter().map(|r| r.coord()).collect::<Vec<_>>(),
        "last_moves_long": report.last_moves.iter().map(|r| r.to_string()).collect::<Vec<_>>(),
        "ticking": report.ticking.iter().map(|t| json!({
            "square": t.square.to_string(),
            "piece": t.piece.char().to_string(),
            "r": t.r,
            "histories": t.witnesses.iter().map(|w| history_text(w)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "scenarios": report.scenarios.iter().map(|s| s.iter().map(|(sq, r)| format!("{sq}:{r}")).collect::<Vec<_>>().join(" ")).collect::<Vec<_>>(),
        "en_passant": report.en_passant.map(|s| s.to_string()),
        "complete": report.complete,
        "stopped": report.stopped,
        "depth": report.depth,
        "nodes": report.nodes,
        "millis": millis as u64,
        "error": null,
    })
}

/// A position that was not analysed, with every field of a verdict (formats.md 2), so
/// that a script reads the same keys on every line.
fn error_json(item: &Item, message: &str) -> Value {
    json!({
        "id": item.record.as_ref().ok().and_then(|r| r.id()),
        "source": item.source,
        "legal": null,
        "illegal_reasons": [],
        "last_moves": [],
        "last_moves_long": [],
        "ticking": [],
        "scenarios": [],
        "en_passant": null,
        "complete": false,
        "stopped": false,
        "depth": 0,
        "nodes": 0,
        "millis": 0,
        "error": message,
    })
}

/// The verdict on a two-board position: the checks that need no history (men counted
/// over both boards and the reserve; the reader made the others), said to be no more.
fn two_board_report(item: &Item, board: &TwoBoard, json: bool) {
    let (game, record, fault) = match board {
        TwoBoard::Underworld(p) => ("Underworld", &p.record, two_boards::underworld(&p.state)),
        TwoBoard::Glass(p) => ("Looking-Glass", &p.record, two_boards::glass(&p.state)),
    };
    let reasons: Vec<String> = fault.iter().map(|f| f.to_string()).collect();
    if json {
        let mut v = error_json(item, "");
        v["id"] = json!(record.id());
        v["legal"] = json!(fault.is_none());
        v["illegal_reasons"] = json!(reasons);
        v["complete"] = json!(true);
        v["history"] = json!("not analysed");
        v["error"] = Value::Null;
        println!("{v}");
        return;
    }
    let id = record.id().map(|s| format!(" \"{s}\"")).unwrap_or_default();
    let verdict = if fault.is_none() { "legal" } else { "illegal" };
    println!(
        "{}{id}: {verdict} ({game}: the position alone)",
        item.source
    );
    for reason in &reasons {
        println!("  illegal: {reason}");
    }
    println!("  not analysed on two boards: the history (last moves, men that moved)");
}

/// A spinner while one position is analysed, on a terminal only (the analysis has no
/// count of questions known in advance to fill a bar with).
fn spinner(item: &Item, args: &RetroArgs) -> Option<ProgressBar> {
    if args.json || !std::io::stderr().is_terminal() {
        return None;
    }
    let b = ProgressBar::new_spinner();
    b.set_style(
        ProgressStyle::with_template("{spinner} {msg}: retro-analysis ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    b.set_message(item.source.clone());
    b.enable_steady_tick(Duration::from_millis(100));
    Some(b)
}

pub fn run(args: RetroArgs) -> bool {
    let items = command_input(&args.files, args.fen.as_deref(), &args.variants);
    super::limits::install_interrupt_handler();
    let mut ok = true;
    // A line not analysed: its message on standard error, and an error object in JSON.
    let fail = |item: &Item, message: &str| {
        if args.json {
            println!("{}", error_json(item, message));
        }
        eprintln!("{message}");
    };
    for item in items {
        if super::limits::interrupted() {
            fail(
                &item,
                &format!("{}: not analysed (interrupted)", item.source),
            );
            ok = false;
            continue;
        }
        match item.two_board() {
            Ok(Some(board)) => {
                two_board_report(&item, &board, args.json);
                continue;
            }
            Ok(None) => {}
            Err(e) => {
                fail(&item, &e);
                ok = false;
                continue;
            }
        }
        let prepared = item.problem_for_retro().map(|p| {
            let o = RetroOptions::for_problem(&p, args.depth, args.nodes);
            (p, o)
        });
        let (problem, opts) = match prepared {
            Ok(x) => x,
            Err(e) => {
                fail(&item, &e);
                ok = false;
                continue;
            }
        };
        let start = Instant::now();
        let limits = Limits {
            stop: &super::limits::INTERRUPTED,
            deadline: super::limits::deadline(args.time_limit),
        };
        let bar = spinner(&item, &args);
        let report = retro::analyse_within(&RetroPosition::of(&problem.position), &opts, &limits);
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        // A proof-game line knows its history: the games themselves (rules.md 9).
        let proof = problem
            .stipulation
            .filter(|s| s.aim.is_proof_game())
            .map(|s| proof_game_history(&problem, s, &limits));
        let millis = start.elapsed().as_millis();
        // An incomplete analysis (cut short by the time limit or Ctrl-C, or a question
        // the node limit left unanswered) is work not done: exit status 1, as for
        // `solve`. What it proved is reported all the same.
        ok &= report.complete && !report.stopped;
        ok &= proof.as_ref().is_none_or(|p| p.complete);
        if args.json {
            let mut v = json_report(&item, &problem, &report, millis);
            if let Some(p) = &proof {
                v["proof_game"] = p.json();
            }
            println!("{v}");
        } else {
            print!("{}", text(&item, &problem, &report, millis));
            if let Some(p) = &proof {
                print!("{}", p.text());
            }
        }
    }
    ok
}

/// What the games of a proof-game line prove of its history.
struct ProofHistory {
    stip: fairysolve::problem::Stipulation,
    games: usize,
    history: fairysolve::proof::History,
    complete: bool,
}

impl ProofHistory {
    fn text(&self) -> String {
        let mut out = format!("  {}: ", self.stip);
        if !self.complete {
            out.push_str("stopped before every game was found; nothing is claimed\n");
            return out;
        }
        if self.games == 0 {
            out.push_str("no game reaches the diagram in that length\n");
            return out;
        }
        let last: Vec<String> = self
            .history
            .last_moves
            .iter()
            .map(|m| m.coord(false).to_string())
            .collect();
        out.push_str(&format!(
            "{} game{}; last move {}\n",
            self.games,
            if self.games == 1 { "" } else { "s" },
            last.join(" ")
        ));
        for (sq, r) in &self.history.ticking {
            let r: Vec<String> = r.iter().map(|r| r.to_string()).collect();
            out.push_str(&format!(
                "  ticking in every game: {sq} r={}\n",
                r.join(",")
            ));
        }
        out
    }

    fn json(&self) -> Value {
        json!({
            "stip": self.stip.to_string(),
            "games": self.games,
            "complete": self.complete,
            "last_moves": self.history.last_moves.iter().map(|m| m.coord(false).to_string()).collect::<Vec<_>>(),
            "ticking": self.history.ticking.iter().map(|(sq, r)| json!({"square": sq.to_string(), "r": r})).collect::<Vec<_>>(),
        })
    }
}

/// The proof games of `problem`'s diagram of length `stip` (the stipulated length only:
/// that is the history the line states), and what they prove.
fn proof_game_history(
    problem: &Problem,
    stip: fairysolve::problem::Stipulation,
    limits: &Limits,
) -> ProofHistory {
    use fairysolve::proof::{Diagram, ProofLimits};
    let diagram = Diagram::new(
        problem.position,
        problem.stated,
        problem.game.has_aftershocks(),
    );
    let proof_limits = ProofLimits {
        stop: limits.stop,
        deadline: limits.deadline,
        max_games: None,
        max_nodes: None,
        table_mb: 32,
    };
    fairysolve::with_game!(&problem.game, g => {
        match fairysolve::proof::solve(g, &diagram, stip.plies(), false, &proof_limits, |_, _| {}) {
            Ok(o) => ProofHistory {
                stip,
                games: o.games.len(),
                history: fairysolve::proof::history(g, &diagram, &o.games),
                complete: o.complete,
            },
            Err(_) => ProofHistory { stip, games: 0, history: Default::default(), complete: true },
        }
    })
}
