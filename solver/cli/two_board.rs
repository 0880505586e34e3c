//! The commands on the two-board games, which the solver core plays: solving an
//! Underworld line (text and `--json`), drawing both boards side by side.

use super::input::Item;
use super::solve::{error_json, Report, SolveArgs};
use fairysolve::generic::search::{self, CoreSolution, Goal};
use fairysolve::generic::TurnGame;
use fairysolve::glass::{Glass, GlassProblem};
use fairysolve::problem::{Aim, Stipulation};
use fairysolve::search::solution::SolveOptions;
use fairysolve::search::tt::Table;
use fairysolve::types::Color;
use fairysolve::underworld::state::UState;
use fairysolve::underworld::{Underworld, UnderworldProblem};
use serde_json::{json, Value};
use std::fmt::Write as _;

fn status(sol: &CoreSolution) -> &'static str {
    if !sol.complete() {
        "timeout"
    } else if sol.keys.is_empty() {
        "no-solution"
    } else {
        "solved"
    }
}

/// Solves one Underworld line (`#N` in rounds, rules.md 4.6).
pub fn solve_underworld(
    item: &Item,
    p: &UnderworldProblem,
    args: &SolveArgs,
    opts: &SolveOptions,
    table: &Table,
    bar: bool,
) -> Report {
    let what = format!(
        "underworld, rounds (phase {}, {} to move)",
        p.state.phase.name(),
        p.state.mover().name()
    );
    let line = Problem2 {
        record: &p.record,
        stipulation: p.stipulation,
        what,
    };
    solve_core(item, &Underworld, &p.state, &line, args, opts, table, bar)
}

/// Solves one Looking-Glass line (`#N`: the king captured, rules.md 5.6).
pub fn solve_glass(
    item: &Item,
    p: &GlassProblem,
    args: &SolveArgs,
    opts: &SolveOptions,
    table: &Table,
    bar: bool,
) -> Report {
    let game = Glass {
        attacker: p.state.turn,
    };
    let line = Problem2 {
        record: &p.record,
        stipulation: p.stipulation,
        what: format!("looking-glass ({} to move)", p.state.turn.name()),
    };
    solve_core(item, &game, &p.state, &line, args, opts, table, bar)
}

/// What the report says of a two-board line.
struct Problem2<'a> {
    record: &'a fairysolve::epd::Record,
    stipulation: Option<Stipulation>,
    /// The game and its state, for the heading.
    what: String,
}

impl Problem2<'_> {
    /// The report's first line: where the line is, its id, the stipulation, the game.
    fn heading(&self, item: &Item, stip: Stipulation) -> String {
        let id = self
            .record
            .id()
            .map(|s| format!(" \"{s}\""))
            .unwrap_or_default();
        format!("{}{id}: {stip} {}\n", item.source, self.what)
    }
}

/// Solves a single-board line whose stipulation is not `#N` (`h#N`, `s#N`) on the
/// solver core, through the single-board adapter.
#[allow(clippy::too_many_arguments)]
pub fn solve_board_line(
    item: &Item,
    problem: &fairysolve::problem::Problem,
    stip: Stipulation,
    what: String,
    args: &SolveArgs,
    opts: &SolveOptions,
    table: &Table,
    bar: bool,
) -> Report {
    use fairysolve::generic::adapter::{BoardState, OneBoard};
    let line = Problem2 {
        record: &problem.record,
        stipulation: Some(stip),
        what,
    };
    let root = BoardState::new(problem.position);
    fairysolve::with_game!(&problem.game, g => {
        let game = OneBoard { game: g, attacker: problem.position.turn() };
        solve_core(item, &game, &root, &line, args, opts, table, bar)
    })
}

/// Solves a line of a game of the solver core and writes the report.
#[allow(clippy::too_many_arguments)]
fn solve_core<G: TurnGame>(
    item: &Item,
    game: &G,
    root: &G::State,
    p: &Problem2,
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
    let stip = match super::solve::stipulation(item, p.stipulation, args) {
        Ok(s) => s,
        Err(e) => {
            if args.json {
                let _ = writeln!(out.stdout, "{}", error_json(item, &e));
            }
            let _ = writeln!(out.stderr, "{e}");
            out.ok = false;
            return out;
        }
    };
    let goal = match stip.aim {
        Aim::Direct => Goal::Win,
        Aim::Selfmate => Goal::SelfLoss,
        Aim::Help => return help_report(item, game, root, p, stip, args, opts, table, bar),
        Aim::ProofGame | Aim::ShortestProofGame => {
            return refused(
                item,
                args,
                &format!("{stip}: proof games are played on the single-board games; Underworld and Looking-Glass have none (rules.md 9.5)"),
            )
        }
    };
    if stip.aim == Aim::Selfmate && game.mover(root) != Color::White {
        return refused(
            item,
            args,
            "s#N: White moves first (rules.md 8.3); the line has Black to move",
        );
    }
    let bar = super::solve::first_moves_bar(item, args, bar);
    let progress = |done: usize, total: usize| {
        super::solve::progress_json(done, total, "");
        if let Some(b) = &bar {
            b.set_length(total as u64);
            b.set_position(done as u64);
        }
    };
    let sol = search::solve_for(
        game,
        goal,
        table,
        root,
        stip.moves,
        opts,
        &super::limits::INTERRUPTED,
        &progress,
    );
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    out.ok = sol.finished();
    let attacker = game.mover(root);
    let set = args
        .set_play
        .then(|| set_play_block(game, root, stip, opts, table));
    if args.json {
        let mut v = json!({
            "id": p.record.id(),
            "source": item.source,
            "stip": stip.to_string(),
            "status": status(&sol),
            "keys": sol.keys.iter().map(|k| k.0.clone()).collect::<Vec<_>>(),
            "shortest": sol.shortest(),
            "cooked": sol.cooked(),
            "error": null,
            "tree": sol.trees.iter().map(|t| (t.coord.clone(), super::tree::json(t))).collect::<serde_json::Map<_, _>>(),
            "nodes": sol.nodes,
            "millis": sol.elapsed.as_millis() as u64,
            "threads": sol.threads,
            "complete": sol.finished(),
        });
        if !sol.tries.is_empty() {
            v["tries"] =
                json!(sol.tries.iter().map(|t| json!({
                "move": t.coord,
                "san": t.notation,
                "refutations": t.refutations.iter().map(|r| r.0.clone()).collect::<Vec<_>>(),
            })).collect::<Vec<_>>());
        }
        if !sol.complete() {
            v["undecided"] = json!(sol.unresolved);
        }
        if let Some((_, json)) = &set {
            add_set_play(&mut v, json);
        }
        let _ = writeln!(out.stdout, "{v}");
        return out;
    }
    let s = &mut out.stdout;
    s.push_str(&p.heading(item, stip));
    if let Some((text, _)) = &set {
        s.push_str(text);
    }
    if !sol.complete() {
        s.push_str(&super::solve::undecided_line(&sol.unresolved));
    }
    if sol.cut_short {
        s.push_str("stopped before the tries and variations were complete: the keys are proved, the rest is partial\n");
    }
    if sol.keys.is_empty() && sol.complete() {
        s.push_str("no solution\n");
    }
    if args.keys_only || sol.trees.is_empty() {
        for (_, notation, n) in &sol.keys {
            let _ = writeln!(s, "1.{notation}! (wins in {n})");
        }
    } else {
        let layout = super::tree::Layout {
            attacker,
            moves: stip.moves,
            full: args.full,
        };
        for t in &sol.trees {
            layout.write_key(t, s);
        }
    }
    for t in &sol.tries {
        let refs: Vec<String> = t.refutations.iter().map(|(_, r)| format!("{r}!")).collect();
        let _ = writeln!(s, "1.{}? {}", t.notation, refs.join(" "));
    }
    let keys: Vec<String> = sol.keys.iter().map(|k| k.1.clone()).collect();
    s.push_str(&super::solve::keys_summary(
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

/// Both boards side by side, labelled, with the phase and the reserve.
pub fn draw_underworld(s: &UState) -> String {
    let mut out = side_by_side("World", s.world.board(), "Underworld", &s.under);
    let mut reserve = String::new();
    for c in Color::ALL {
        for role in [
            fairysolve::Role::Queen,
            fairysolve::Role::Rook,
            fairysolve::Role::Bishop,
            fairysolve::Role::Knight,
            fairysolve::Role::Pawn,
        ] {
            for _ in 0..s.reserve.count(c, role) {
                reserve.push(fairysolve::Piece::new(c, role).char());
            }
        }
    }
    let _ = writeln!(
        out,
        "phase {} ({} to move on the {}); captured for good: {}",
        s.phase.name(),
        s.mover().name(),
        match s.phase.realm() {
            fairysolve::underworld::state::Realm::World => "World",
            fairysolve::underworld::state::Realm::Under => "Underworld",
        },
        if reserve.is_empty() {
            "none".to_string()
        } else {
            reserve
        }
    );
    out
}

/// Plays `moves` (read by `parse`) from `start`, printing each with its round number and
/// `label` of the state before it, then how the game ended (`win`, `draw`), then the
/// final position line (`line`). A move that cannot be read stops the replay with its
/// message.
fn replay_core<G: TurnGame>(
    game: &G,
    start: G::State,
    moves: &[String],
    parse: impl Fn(&G::State, &str) -> Result<G::Move, String>,
    label: impl Fn(&G::State) -> String,
    (win, draw): (&str, &str),
    line: impl Fn(&G::State) -> String,
) -> bool {
    let mut s = start;
    let mut round = 1;
    for (i, text) in moves.iter().enumerate() {
        let mv = match parse(&s, text) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("move {} ({text}): {e}", i + 1);
                println!("{}", line(&s));
                return false;
            }
        };
        let prefix = if game.mover(&s) == Color::White {
            format!("{round}.")
        } else {
            format!("{round}...")
        };
        println!("{prefix}{}{}", game.notation(&s, mv), label(&s));
        let next = game.play(&s, mv);
        if game.new_round(&s, &next) {
            round += 1;
        }
        s = next;
        match game.end(&s) {
            Some(fairysolve::generic::End::Win(c)) => {
                println!("{win}: {} wins", c.name());
                break;
            }
            Some(fairysolve::generic::End::Draw) => {
                println!("{draw}");
                break;
            }
            None => {}
        }
    }
    println!("{}", line(&s));
    true
}

/// Plays `moves` from an Underworld line, each turn with its round and phase.
pub fn replay_underworld(p: &UnderworldProblem, moves: &[String]) -> bool {
    let game = Underworld;
    replay_core(
        &game,
        p.state,
        moves,
        |s, text| fairysolve::underworld::notation::parse(&game, s, text),
        |s| format!(" [{}]", s.phase.name()),
        (
            "checkmate on the World",
            "draw (stalemate, or both boards hold only their kings)",
        ),
        fairysolve::underworld::setup::position_line,
    )
}

/// Both boards side by side, labelled, with the side to move and the en passant square.
pub fn draw_glass(s: &fairysolve::glass::GState) -> String {
    use fairysolve::glass::Side;
    let mut out = side_by_side(
        "Real",
        s.board(Side::Real).board(),
        "Mirror",
        s.board(Side::Mirror).board(),
    );
    let ep =
        s.ep.map(|(sq, side)| {
            format!(
                "; en passant {sq} on the {}",
                if side == Side::Real {
                    "Real board"
                } else {
                    "Mirror"
                }
            )
        })
        .unwrap_or_default();
    let _ = writeln!(out, "{} to move{ep}", s.turn.name());
    out
}

/// Plays `moves` from a Looking-Glass line, each with what passed; rounds begin with
/// White's moves.
pub fn replay_glass(p: &GlassProblem, moves: &[String]) -> bool {
    let game = Glass {
        attacker: Color::White,
    };
    replay_core(
        &game,
        p.state,
        moves,
        |s, text| fairysolve::glass::notation::parse(&game, s, text),
        |_| String::new(),
        ("the king is captured", "stalemate: no move on either board"),
        fairysolve::glass::setup::position_line,
    )
}

/// A line that cannot be solved as asked: the message, located, on stderr (and as an
/// error object with `--json`).
fn refused(item: &Item, args: &SolveArgs, message: &str) -> Report {
    refused_at(item, args, item.column_of(&["stip", "dm"]), message)
}

/// A line refused with `message` located at `column` (0: the line as a whole): the
/// message on standard error, and as an error object under `--json`.
pub(super) fn refused_at(item: &Item, args: &SolveArgs, column: usize, message: &str) -> Report {
    let e = item.located(column, message);
    let mut out = Report {
        stdout: String::new(),
        stderr: format!("{e}\n"),
        ok: false,
    };
    if args.json {
        let _ = writeln!(out.stdout, "{}", error_json(item, &e));
    }
    out
}

/// A help line as composers write it: each side's turn numbered (`1.Ka4 Kc3 2.Ka3
/// Ra1#`, from White's turn `1...Qb6 2.Kb8 Rh8#` for h#N.5), a turn of several moves
/// (the Underworld's two boards) joined by ` / `. The movers are read by playing the
/// line from `root`.
fn help_text<G: TurnGame>(game: &G, root: &G::State, line: &[(String, String)]) -> String {
    // Each move's mover, and whether it leaves a choice that completes its turn.
    let mut movers = Vec::new();
    let mut s = *root;
    for (coord, _) in line {
        let Some(mv) = game.move_written(&s, coord) else {
            break;
        };
        let next = game.play(&s, mv);
        movers.push((game.turn_owner(&s), game.completes_turn(&next)));
        s = next;
    }
    let mut out = String::new();
    let mut turn_of: Option<Color> = None;
    let mut placing = false;
    let mut pairs = 0;
    for (i, (_, notation)) in line.iter().enumerate() {
        let mover = movers.get(i).map_or(Color::White, |m| m.0);
        if placing {
            out.push(' ');
        } else if turn_of == Some(mover) {
            // The same side's move on the other board: one turn.
            out.push_str(" / ");
        } else {
            if i > 0 {
                out.push(' ');
            }
            // A pair is Black's turn and White's; a line from White's turn begins with
            // the second half of the first pair.
            match mover {
                Color::Black => {
                    pairs += 1;
                    let _ = write!(out, "{pairs}.");
                }
                Color::White if i == 0 => {
                    pairs = 1;
                    out.push_str("1...");
                }
                Color::White => {}
            }
        }
        turn_of = Some(mover);
        placing = movers.get(i).is_some_and(|m| m.1);
        out.push_str(notation);
    }
    out
}

/// Solves and reports a help-mate (rules.md 8.2): every solution, the short ones apart.
/// Run alone (`stream`), the heading and each solution are printed as they are proved,
/// with a progress bar on a terminal; in a batch the report is written whole.
#[allow(clippy::too_many_arguments)]
fn help_report<G: TurnGame>(
    item: &Item,
    game: &G,
    root: &G::State,
    p: &Problem2,
    stip: Stipulation,
    args: &SolveArgs,
    opts: &SolveOptions,
    table: &Table,
    stream: bool,
) -> Report {
    use fairysolve::generic::help::{solve_help_with, HelpEvent, HelpLimits};
    let first = if stip.half {
        Color::White
    } else {
        Color::Black
    };
    if game.mover(root) != first {
        return refused(
            item,
            args,
            &format!(
                "{stip}: {} moves first (rules.md 8.2), but the line has {} to move",
                first.name(),
                game.mover(root).name()
            ),
        );
    }
    let turns = 2 * stip.moves + stip.half as u32;
    let short: Vec<u32> = (1..turns).filter(|t| t % 2 == turns % 2).collect();
    let start = std::time::Instant::now();
    let mut text = String::new();
    text.push_str(&p.heading(item, stip));
    let streamed =
        super::solve::Streamed::new(item, args, stream, item.source.clone(), "0 solutions");
    streamed.print(&mut text);
    let mut on_event = |e: HelpEvent| match e {
        HelpEvent::Found { line, short } => {
            if !args.json {
                let _ = writeln!(
                    text,
                    "{}{}",
                    if short { "short: " } else { "" },
                    help_text(game, root, line)
                );
                streamed.print(&mut text);
            }
        }
        HelpEvent::Progress { done, total, found } => streamed.progress(
            done,
            total,
            format!("{found} solution{}", if found == 1 { "" } else { "s" }),
            None,
        ),
    };
    let limits = HelpLimits {
        stop: &super::limits::INTERRUPTED,
        deadline: opts.time_limit.map(|d| start + d),
        max_solutions: args.max_solutions,
        first_short_stops: false,
        max_nodes: None,
    };
    let sol = solve_help_with(
        game,
        root,
        Color::White,
        turns,
        &short,
        table,
        limits,
        &mut on_event,
    );
    streamed.finish();
    let elapsed = start.elapsed();
    let coords = |lines: &[Vec<(String, String)>]| -> Vec<Vec<String>> {
        lines
            .iter()
            .map(|l| l.iter().map(|(c, _)| c.clone()).collect())
            .collect()
    };
    let mut keys: Vec<String> = sol
        .solutions
        .iter()
        .filter_map(|l| l.first())
        .map(|(c, _)| c.clone())
        .collect();
    keys.dedup();
    let status = if sol.capped {
        "stopped"
    } else if !sol.complete {
        "timeout"
    } else if sol.solutions.is_empty() {
        "no-solution"
    } else {
        "solved"
    };
    let mut out = Report {
        stdout: String::new(),
        stderr: String::new(),
        ok: sol.complete || sol.capped,
    };
    if args.json {
        let v = json!({
            "id": p.record.id(),
            "source": item.source,
            "stip": stip.to_string(),
            "status": status,
            "keys": keys,
            "solutions": coords(&sol.solutions),
            "short_solutions": coords(&sol.short),
            "short_length": sol.short_turns,
            "error": null,
            "nodes": sol.nodes,
            "millis": elapsed.as_millis() as u64,
            "threads": 1,
            "complete": sol.complete,
            "max_solutions_reached": sol.capped,
        });
        let _ = writeln!(out.stdout, "{v}");
        return out;
    }
    let n = sol.solutions.len();
    if sol.capped {
        let _ = writeln!(
            text,
            "stopped after {n} solution{} (--max-solutions): there may be more",
            if n == 1 { "" } else { "s" }
        );
    } else if !sol.complete {
        let _ = writeln!(
            text,
            "stopped before the search was complete ({}): {} of {} first moves of the lines of {} moves searched; the solutions listed are those found",
            if super::limits::interrupted() { "interrupted" } else { "time limit" },
            sol.first_moves_done,
            sol.first_moves,
            help_length(sol.searching_turns)
        );
    } else if n == 0 {
        text.push_str("no solution\n");
    }
    if let Some(t) = sol.short_turns.filter(|&t| t + 2 < turns) {
        let _ = writeln!(
            text,
            "short solutions in {} moves; longer short lines not searched",
            help_length(t)
        );
    }
    let _ = writeln!(
        text,
        "{n} solution{}{} · {}",
        if n == 1 { "" } else { "s" },
        if sol.short.is_empty() {
            String::new()
        } else {
            format!(" ({} short)", sol.short.len())
        },
        super::solve::search_cost(sol.nodes, elapsed.as_millis(), 1)
    );
    out.stdout = streamed.close(text);
    out
}

/// A help line's length of `turns` turns as composers write it: `3` or `2.5`.
fn help_length(turns: u32) -> String {
    if turns.is_multiple_of(2) {
        format!("{}", turns / 2)
    } else {
        format!("{}.5", turns / 2)
    }
}

/// Set play (rules.md 8.4) of `root` for `stip` (`#N` or `s#N`, N >= 2) as text to print
/// before the solution and as the `set_play` object of `--json`.
fn set_play_block<G: TurnGame>(
    game: &G,
    root: &G::State,
    stip: Stipulation,
    opts: &SolveOptions,
    table: &Table,
) -> (String, Value) {
    let goal = match stip.aim {
        Aim::Selfmate => Goal::SelfLoss,
        _ => Goal::Win,
    };
    let start = std::time::Instant::now();
    let deadline = opts.time_limit.map(|d| start + d);
    let found = search::set_play(
        game,
        goal,
        table,
        root,
        stip.moves,
        &super::limits::INTERRUPTED,
        deadline,
    );
    let defences = match found {
        None => return ("set play: not defined for this game\n".into(), Value::Null),
        Some(Err(_)) => {
            return (
                "set play: stopped before it was complete\n".into(),
                Value::Null,
            )
        }
        Some(Ok(d)) => d,
    };
    let mut text = String::from("set play:\n");
    let mut map = serde_json::Map::new();
    let mut fulfilled = Vec::new();
    for d in &defences {
        let replies: Vec<String> = d.replies.iter().map(|(_, n)| format!("2.{n}")).collect();
        if d.fulfils {
            let _ = writeln!(text, "    1...{}", d.notation);
            fulfilled.push(d.coord.clone());
        } else if replies.is_empty() {
            let _ = writeln!(text, "    1...{} (unprovided)", d.notation);
        } else {
            let _ = writeln!(text, "    1...{} {}", d.notation, replies.join(", "));
        }
        map.insert(
            d.coord.clone(),
            json!(d.replies.iter().map(|(c, _)| c.clone()).collect::<Vec<_>>()),
        );
    }
    (
        text,
        json!({"set_play": Value::Object(map), "set_play_fulfilled": fulfilled}),
    )
}

/// The set play's fields (`set_play`, and `set_play_fulfilled` when it was worked out)
/// added to a report's JSON object.
pub fn add_set_play(v: &mut Value, set: &Value) {
    match set.as_object() {
        Some(fields) => {
            for (k, x) in fields {
                v[k] = x.clone();
            }
        }
        None => v["set_play"] = Value::Null,
    }
}

/// `set_play_block` for a single-board line, through the adapter.
pub fn board_set_play(
    problem: &fairysolve::problem::Problem,
    stip: Stipulation,
    opts: &SolveOptions,
    table: &Table,
) -> (String, Value) {
    use fairysolve::generic::adapter::{BoardState, OneBoard};
    let root = BoardState::new(problem.position);
    fairysolve::with_game!(&problem.game, g => {
        let game = OneBoard { game: g, attacker: problem.position.turn() };
        set_play_block(&game, &root, stip, opts, table)
    })
}

/// Two boards side by side, White at the bottom, each labelled above and with its files
/// below.
fn side_by_side(
    left_name: &str,
    left: &fairysolve::board::Board,
    right_name: &str,
    right: &fairysolve::board::Board,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{left_name:<27}{right_name}");
    let row = |board: &fairysolve::board::Board, rank: u8| {
        (0..8u8)
            .map(|file| {
                let sq = fairysolve::Square::from_coords(file, rank);
                format!("{} ", board.piece_at(sq).map_or('.', |p| p.char()))
            })
            .collect::<String>()
    };
    for rank in (0..8u8).rev() {
        let _ = writeln!(
            out,
            "{} {}         {} {}",
            rank + 1,
            row(left, rank),
            rank + 1,
            row(right, rank)
        );
    }
    let _ = writeln!(out, "  a b c d e f g h           a b c d e f g h");
    out
}
