//! `fairysolve perft`: counts, divides, and checks perft suites' expected counts.

use super::input::{command_input, Item, TwoBoard};
use super::VariantFlags;
use clap::Args;
use fairysolve::epd::perft_depth;
use fairysolve::perft;
use std::time::Instant;

#[derive(Args)]
// Without a position to work on the command line is wrong (exit 2, formats.md 2).
#[command(group(clap::ArgGroup::new("input").required(true).multiple(true).args(["files", "fen"])))]
pub struct PerftArgs {
    /// Position files (`-` for standard input); each line's `D1 n; D2 n; ...` operations
    /// are checked. Read line by line as the work goes; a line longer than 65536 bytes is
    /// reported and skipped.
    pub files: Vec<String>,
    /// One position (FEN or a whole position line with operations).
    #[arg(long)]
    pub fen: Option<String>,
    /// Depth (for files: the deepest expected count checked).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=MAX_DEPTH as i64))]
    pub depth: Option<u32>,
    /// Counts per first move.
    #[arg(long)]
    pub divide: bool,
    /// One JSON object per count: nodes, depth, millis (and divide).
    #[arg(long)]
    pub json: bool,
    /// Make every leaf move instead of counting the last ply in bulk.
    #[arg(long = "no-bulk")]
    pub no_bulk: bool,
    /// Seconds allowed per position line; a count cut short (so also by Ctrl-C) is
    /// reported with the first moves counted so far, marked incomplete (exit status 1).
    #[arg(long = "time-limit", value_parser = super::limits::positive_seconds)]
    pub time_limit: Option<f64>,
    #[command(flatten)]
    pub variants: VariantFlags,
}

/// Deepest perft accepted: beyond it no run ends in a reasonable time.
const MAX_DEPTH: u32 = 12;

/// One count: leaves, time, and the split by first move (with --divide) in the
/// coordinates of `--json` keys. A count cut short holds the first moves counted in full.
struct Count {
    nodes: u64,
    millis: u128,
    divide: Vec<(String, u64)>,
    complete: bool,
}

/// Whether the work on a line must end now: Ctrl-C, or its deadline passed.
fn must_stop(deadline: Option<Instant>) -> bool {
    super::limits::interrupted() || deadline.is_some_and(|d| Instant::now() >= d)
}

/// `count` for a game of the solver core.
fn count_core<G: fairysolve::generic::TurnGame>(
    game: &G,
    state: &G::State,
    depth: u32,
    args: &PerftArgs,
    deadline: Option<Instant>,
) -> Count {
    let start = Instant::now();
    if depth == 0 {
        // No first move to split by (a choice that completes a turn aside): counted whole.
        return Count {
            nodes: fairysolve::generic::perft::perft(game, state, 0),
            millis: start.elapsed().as_millis(),
            divide: Vec::new(),
            complete: true,
        };
    }
    let (divide, complete) =
        fairysolve::generic::perft::divide_until(game, state, depth, &|| must_stop(deadline));
    let nodes = divide.iter().map(|(_, n)| n).sum();
    Count {
        nodes,
        millis: start.elapsed().as_millis(),
        divide: if args.divide { divide } else { Vec::new() },
        complete,
    }
}

/// Counts `depth` plies from the line of `item`, split by first move so that Ctrl-C and
/// the deadline are obeyed within a fraction of a second.
fn count(
    item: &Item,
    depth: u32,
    args: &PerftArgs,
    deadline: Option<Instant>,
) -> Result<Count, String> {
    match item.two_board()? {
        Some(TwoBoard::Underworld(p)) => {
            return Ok(count_core(
                &fairysolve::underworld::Underworld,
                &p.state,
                depth,
                args,
                deadline,
            ))
        }
        Some(TwoBoard::Glass(p)) => {
            let game = fairysolve::glass::Glass {
                attacker: p.state.turn,
            };
            return Ok(count_core(&game, &p.state, depth, args, deadline));
        }
        None => {}
    }
    let problem = item.problem()?;
    let bulk = !args.no_bulk;
    let start = Instant::now();
    let chess960 = problem.position.is_chess960();
    let stop = || must_stop(deadline);
    let (divide, complete) = fairysolve::with_game!(&problem.game, g => perft::divide_until(g, &problem.position, depth, bulk, &stop));
    // At depth 0 there is no first move: the one node is the position.
    let nodes = if depth == 0 {
        1
    } else {
        divide.iter().map(|(_, n)| n).sum()
    };
    Ok(Count {
        nodes,
        millis: start.elapsed().as_millis(),
        divide: if args.divide {
            divide
                .iter()
                .map(|(m, n)| (m.coord(chess960).to_string(), *n))
                .collect()
        } else {
            Vec::new()
        },
        complete,
    })
}

fn report(source: &str, depth: u32, count: &Count, json: bool) {
    let Count {
        nodes,
        millis,
        divide,
        complete,
    } = count;
    if json {
        let mut obj = serde_json::json!({"nodes": nodes, "depth": depth, "millis": millis});
        if !divide.is_empty() {
            let map: serde_json::Map<String, serde_json::Value> = divide
                .iter()
                .map(|(m, n)| (m.clone(), serde_json::json!(n)))
                .collect();
            obj["divide"] = serde_json::Value::Object(map);
        }
        if !complete {
            obj["complete"] = serde_json::json!(false);
        }
        println!("{obj}");
    } else {
        for (m, n) in divide {
            println!("{m}: {n}");
        }
        let nps = (*nodes as u128 * 1000).checked_div(*millis);
        if *complete {
            // A rate only where the time says something (under a millisecond it does not).
            match nps {
                Some(nps) => {
                    println!("{source} depth {depth}: {nodes} nodes in {millis} ms ({nps} nodes/s)")
                }
                None => println!("{source} depth {depth}: {nodes} nodes in under 1 ms"),
            }
        } else {
            println!(
                "{source} depth {depth}: incomplete, cut short ({}): {nodes} nodes in the first \
                 moves counted in full, in {millis} ms",
                super::limits::why_stopped()
            );
        }
    }
}

/// The counts a line expects (`D1 20; D2 400;`), or a located message when one of
/// them is not a count or lies deeper than perft goes.
fn expected_counts(item: &Item) -> Result<Vec<(u32, u64)>, String> {
    let rec = item.record.as_ref().map_err(|e| e.clone())?;
    let mut expected = Vec::new();
    for op in &rec.operations {
        let Some(depth) = perft_depth(&op.opcode) else {
            continue;
        };
        let Some(nodes) = op.single().and_then(|t| t.parse().ok()) else {
            let message = format!("{}: a count of nodes expected", op.opcode);
            return Err(item.located(op.column, &message));
        };
        if depth > MAX_DEPTH {
            let message = format!("{}: deeper than perft goes ({MAX_DEPTH})", op.opcode);
            return Err(item.located(op.column, &message));
        }
        expected.push((depth, nodes));
    }
    Ok(expected)
}

pub fn run(args: PerftArgs) -> bool {
    let items = command_input(&args.files, args.fen.as_deref(), &args.variants);
    super::limits::install_interrupt_handler();
    let mut ok = true;
    for item in items {
        let item = &item;
        let deadline = super::limits::deadline(args.time_limit);
        let expected = match expected_counts(item) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("{e}");
                ok = false;
                continue;
            }
        };
        let mut checks: Vec<(u32, Option<u64>)> = expected
            .iter()
            .filter(|(d, _)| args.depth.is_none_or(|l| *d <= l))
            .map(|&(d, n)| (d, Some(n)))
            .collect();
        if checks.is_empty() {
            // No expected count down to --depth (or none at all): count at --depth.
            match args.depth {
                Some(d) => checks.push((d, None)),
                None => {
                    // A line that cannot be read says why, before what is missing.
                    let unreadable = item
                        .two_board()
                        .and_then(|two| match two {
                            Some(_) => Ok(()),
                            None => item.problem().map(|_| ()),
                        })
                        .err();
                    match unreadable {
                        Some(e) => eprintln!("{e}"),
                        None => {
                            // For `--fen` the command line lacks the depth (exit 2).
                            if item.is_fen_line() {
                                super::command_line_is_wrong();
                            }
                            eprintln!(
                                "{}",
                                item.located(0, "no --depth and no expected counts (D1 n; ...)")
                            );
                        }
                    }
                    ok = false;
                    continue;
                }
            }
        }
        for (depth, want) in checks {
            if must_stop(deadline) {
                eprintln!(
                    "{}: depth {depth}: not counted ({})",
                    item.source,
                    super::limits::why_stopped()
                );
                ok = false;
                break;
            }
            match count(item, depth, &args, deadline) {
                Err(e) => {
                    eprintln!("{e}");
                    ok = false;
                    break;
                }
                Ok(c) => {
                    report(&item.source, depth, &c, args.json);
                    let nodes = c.nodes;
                    if !c.complete {
                        ok = false;
                        break;
                    }
                    if let Some(want) = want {
                        if want != nodes {
                            eprintln!(
                                "{}: depth {depth}: expected {want}, counted {nodes}",
                                item.source
                            );
                            ok = false;
                        }
                    }
                }
            }
        }
    }
    ok
}
