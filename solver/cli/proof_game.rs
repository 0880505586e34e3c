//! `solve` of a proof-game line (`stip "pg 9.0"`, `stip "spg 9.0"`, rules.md 9): every
//! game listed in the usual notation as it is proved, the cooks of `spg` apart, and a
//! summary that says what was proved; or the JSON of formats.md 2.

use super::input::Item;
use super::solve::{Report, SolveArgs};
use fairysolve::game::Game;
use fairysolve::geometry::Terrain;
use fairysolve::moves::Move;
use fairysolve::position::Position;
use fairysolve::problem::{Aim, Problem, Stipulation};
use fairysolve::proof::{self, Diagram, ProofEvent, ProofLimits, ProofOutcome};
use fairysolve::types::Color;
use serde_json::json;
use std::fmt::Write as _;

/// A length of `plies` half-moves as composers write it: `9.0`, `8.5`.
pub fn moves_text(plies: u32) -> String {
    format!("{}.{}", plies / 2, if plies % 2 == 1 { 5 } else { 0 })
}

/// A game from the array in the usual notation (`1.e4 e5 2.Qh5`), falls as elsewhere;
/// under Taxi the cash it ends with, where the diagram leaves it open.
fn game_text<T: Terrain>(game: &Game<T>, start: &Position, moves: &[Move], cash: bool) -> String {
    if moves.is_empty() {
        return "(no move: the diagram is the array)".to_string();
    }
    let (mut out, end) = fairysolve::san::line(game, start, moves);
    if cash {
        let _ = write!(
            out,
            " [W {} B {}]",
            end.cash(Color::White),
            end.cash(Color::Black)
        );
    }
    out
}

fn coords(games: &[Vec<Move>]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = games
        .iter()
        .map(|g| g.iter().map(|m| m.coord(false).to_string()).collect())
        .collect();
    out.sort();
    out
}

/// Solves the proof-game line of `item` and writes its report; `stream`: a lone
/// position on a terminal, whose games are printed as they are found, with progress.
pub(super) fn solve_proof_line(
    item: &Item,
    problem: &Problem,
    stip: Stipulation,
    args: &SolveArgs,
    what: String,
    stream: bool,
) -> Report {
    let refused = |message: String| {
        super::two_board::refused_at(item, args, item.column_of(&["stip"]), &message)
    };
    let expected = if stip.half {
        Color::Black
    } else {
        Color::White
    };
    let found_turn = problem.position.turn();
    if found_turn != expected {
        return refused(
            proof::ProofError::SideToMove {
                stip: stip.to_string(),
                expected: expected.name(),
                found: found_turn.name(),
            }
            .to_string(),
        );
    }
    if problem.position.quake().no_return.is_some() {
        return super::two_board::refused_at(
            item,
            args,
            item.column_of(&["aftershock"]),
            &format!("{stip}: aftershock: the dx not to restore belongs to a game in progress; a proof game begins with none"),
        );
    }
    if args.tries || args.set_play || args.retro || args.keys_only || args.full {
        return refused(format!(
            "{stip}: --tries, --set-play, --retro, --keys-only and --full belong to mate stipulations, not to proof games"
        ));
    }
    let diagram = Diagram::new(
        problem.position,
        problem.stated,
        problem.game.has_aftershocks(),
    );
    fairysolve::with_game!(&problem.game, g => run(item, g, &diagram, stip, args, what, stream))
}

fn run<T: Terrain>(
    item: &Item,
    game: &Game<T>,
    diagram: &Diagram,
    stip: Stipulation,
    args: &SolveArgs,
    what: String,
    stream: bool,
) -> Report {
    let started = std::time::Instant::now();
    let start = match diagram.start(game) {
        Ok(s) => s,
        Err(e) => {
            return super::two_board::refused_at(
                item,
                args,
                item.column_of(&["earthquake", "stip"]),
                &format!("{stip}: {e}"),
            )
        }
    };
    let show_cash = game.rules().taxi.is_some() && diagram.stated.cash != [true; 2];
    let plies = stip.plies();
    let mut text = String::new();
    let id = item
        .record
        .as_ref()
        .ok()
        .and_then(|r| r.id())
        .map(|s| format!(" \"{s}\""))
        .unwrap_or_default();
    let _ = writeln!(text, "{}{id}: {stip} {what}", item.source);
    let naming = |length: u32| format!("{} games of {} moves", item.source, moves_text(length));
    let streamed = super::solve::Streamed::new(item, args, stream, naming(plies), "0 found");
    streamed.print(&mut text);
    let limits = ProofLimits {
        stop: &super::limits::INTERRUPTED,
        deadline: args
            .time_limit
            .map(|s| started + std::time::Duration::from_secs_f64(s)),
        max_games: args.max_solutions,
        max_nodes: None,
        table_mb: args
            .hash
            .unwrap_or(super::solve::DEFAULT_PROOF_GAME_HASH_MB) as usize,
    };
    let on_event = |length: u32, e: ProofEvent| match e {
        ProofEvent::Found(line) => {
            if !args.json {
                let cook = if length < plies {
                    format!("shorter ({} moves): ", moves_text(length))
                } else {
                    String::new()
                };
                let _ = writeln!(text, "{cook}{}", game_text(game, &start, line, show_cash));
                streamed.print(&mut text);
            }
        }
        ProofEvent::Progress { done, total, found } => {
            streamed.progress(done, total, format!("{found} found"), Some(naming(length)))
        }
    };
    let shortest = stip.aim == Aim::ShortestProofGame;
    let outcome = match proof::solve(game, diagram, plies, shortest, &limits, on_event) {
        Ok(o) => o,
        Err(e) => {
            return super::two_board::refused_at(
                item,
                args,
                item.column_of(&["stip"]),
                &format!("{stip}: {e}"),
            )
        }
    };
    streamed.finish();
    let millis = started.elapsed().as_millis();
    let mut out = Report {
        stdout: String::new(),
        stderr: String::new(),
        ok: outcome.complete || outcome.capped,
    };
    if args.json {
        let _ = writeln!(out.stdout, "{}", json_report(item, stip, &outcome, millis));
        return out;
    }
    summary(&mut text, stip, &outcome, millis);
    out.stdout = streamed.close(text);
    out
}

/// The status of formats.md 2.
fn status(outcome: &ProofOutcome) -> &'static str {
    if outcome.capped {
        "stopped"
    } else if !outcome.complete {
        "timeout"
    } else if outcome.games.is_empty() {
        "no-solution"
    } else {
        "solved"
    }
}

fn json_report(
    item: &Item,
    stip: Stipulation,
    o: &ProofOutcome,
    millis: u128,
) -> serde_json::Value {
    let length = |p: Option<u32>| p.map(|p| p as f64 / 2.0);
    json!({
        "id": item.record.as_ref().ok().and_then(|r| r.id()),
        "source": item.source,
        "stip": stip.to_string(),
        "status": status(o),
        "solutions": coords(&o.games),
        "cooks": coords(&o.cooks),
        "cook_length": length(o.cook_plies),
        "cooked": !o.cooks.is_empty() || o.games.len() > 1,
        "shortest": length(o.shortest),
        "least": length(o.least_plies),
        "why_not": o.why_not,
        "error": null,
        "nodes": o.nodes,
        "millis": millis as u64,
        "threads": 1,
        "complete": o.complete,
        "max_solutions_reached": o.capped,
    })
}

/// The closing lines: what stopped the search, why no game exists, the cooks, and the
/// counts.
fn summary(text: &mut String, stip: Stipulation, o: &ProofOutcome, millis: u128) {
    let n = o.games.len();
    let plural = |k: usize| if k == 1 { "" } else { "s" };
    if o.capped {
        let _ = writeln!(
            text,
            "stopped after {n} game{} (--max-solutions): there may be more",
            plural(n)
        );
    } else if !o.complete {
        let _ = writeln!(
            text,
            "stopped before the search was complete ({}): {} of {} first moves of the games of {} moves searched; the games listed are those found",
            if super::limits::interrupted() { "interrupted" } else { "time limit" },
            o.first_moves_done,
            o.first_moves,
            moves_text(o.searching_plies)
        );
    } else if n == 0 {
        match &o.why_not {
            Some(why) => {
                let _ = writeln!(text, "no solution: {why}");
            }
            None => text.push_str("no solution\n"),
        }
    }
    let shortest = match (o.shortest, o.cook_plies) {
        (_, Some(c)) => format!(
            " · cooked: {} shorter game{} in {} moves",
            o.cooks.len(),
            plural(o.cooks.len()),
            moves_text(c)
        ),
        (Some(s), None) if s == stip.plies() => " · no shorter game".to_string(),
        _ => match o.least_plies {
            Some(l) if l < stip.plies() && n > 0 => {
                format!(" · no game shorter than {} moves", moves_text(l))
            }
            _ => String::new(),
        },
    };
    let _ = writeln!(
        text,
        "{n} solution{}{shortest} · {}",
        plural(n),
        super::solve::search_cost(o.nodes, millis, 1)
    );
}
