//! `fairysolve referee`: the neutral referee of the hidden Looking-Glass game
//! (rules.md 5.7, formats.md 4). Orders come one per line on standard input; each gets
//! its answer at once (a pipe or a terminal can play move by move).

use super::input::gather;
use clap::Args;
use fairysolve::glass::referee::{parse_order, setup_line, OrderError, Referee, Report};
use fairysolve::glass::{read_line, GState};
use serde_json::json;
use std::io::{BufRead, Write};

#[derive(Args)]
#[command(group(clap::ArgGroup::new("start").required(true).args(["fen", "random_setup"])))]
pub struct RefereeArgs {
    /// The starting Looking-Glass position line (the FEN is the Real board, `mirror`
    /// the Mirror's placement).
    #[arg(long)]
    pub fen: Option<String>,
    /// Start from a random legal set-up (rules.md 5.1): an independent Chess960 array
    /// for each side, drawn from SEED. The first object written is the set-up.
    #[arg(long = "random-setup", value_name = "SEED")]
    pub random_setup: Option<u64>,
    /// An impossible order is not a strike: the opponent picks a legal move for that
    /// side on that board (`b pick M:a1a3`), or the side orders again when it has none.
    #[arg(long)]
    pub forfeit: bool,
    /// Strikes each side already has, "W B" (default "0 0"); the third one loses.
    #[arg(long, value_name = "W B")]
    pub strikes: Option<String>,
    /// One JSON object per order (docs/positions.md, "The Looking-Glass referee"), with `view`: what each player hears.
    #[arg(long)]
    pub json: bool,
}

/// The two Chess960 numbers of a set-up drawn from `seed` (0..960 each, independent).
fn setup_numbers(seed: u64) -> (usize, usize) {
    // splitmix64: every seed, 0 included, gives well-mixed numbers.
    let mut x = seed;
    let mut next = || {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    ((next() % 960) as usize, (next() % 960) as usize)
}

fn parse_strikes(text: &str) -> Result<[u32; 2], String> {
    let numbers: Vec<&str> = text.split_whitespace().collect();
    let read = |s: &str| -> Result<u32, String> {
        match s.parse::<u32>() {
            Ok(n) if n < 3 => Ok(n),
            _ => Err(format!(
                "--strikes: '{s}' is not a number of strikes below 3"
            )),
        }
    };
    match numbers.as_slice() {
        [w, b] => Ok([read(w)?, read(b)?]),
        _ => Err(format!(
            "--strikes: '{text}' is not two numbers, White's and Black's (\"0 1\")"
        )),
    }
}

fn start(args: &RefereeArgs) -> Result<(GState, Option<String>), String> {
    if let Some(seed) = args.random_setup {
        let (white, black) = setup_numbers(seed);
        let line = setup_line(white, black);
        let p = read_line(&line).map_err(|e| format!("the set-up {line}: {e}"))?;
        return Ok((p.state, Some(line)));
    }
    let fen = args.fen.as_deref().unwrap_or_default();
    let items = gather(&[], Some(fen), "");
    match items[0].glass() {
        Ok(Some(p)) => Ok((p.state, None)),
        Ok(None) => Err(format!(
            "{}: not a Looking-Glass line (it needs `mirror \"PLACEMENT\";`)",
            items[0].source
        )),
        Err(e) => Err(e.to_string()),
    }
}

pub fn run(args: RefereeArgs) -> bool {
    let strikes = match args.strikes.as_deref().map(parse_strikes).transpose() {
        Ok(s) => s.unwrap_or([0, 0]),
        Err(e) => {
            eprintln!("{e}");
            return false;
        }
    };
    let (state, setup) = match start(&args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return false;
        }
    };
    let mut referee = Referee::new(state, args.forfeit, strikes);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Some(line) = setup {
        let placement = |side| fairysolve::fen::write_placement(state.board(side).board());
        let _ = if args.json {
            writeln!(
                out,
                "{}",
                json!({"result": "setup", "epd": line, "view": {
                    "w": {"board": placement(fairysolve::glass::Side::Real)},
                    "b": {"board": placement(fairysolve::glass::Side::Mirror)}}})
            )
        } else {
            writeln!(out, "set-up: {line}")
        };
        let _ = out.flush();
    }
    let mut ok = true;
    for (i, line) in std::io::stdin().lock().lines().enumerate() {
        let line_no = i + 1;
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!("standard input, line {line_no}: {e}");
                return false;
            }
        };
        let text = line.trim_end_matches('\r');
        if text.trim().is_empty() || text.trim_start().starts_with('#') {
            continue;
        }
        let answer = parse_order(text).and_then(|order| referee.order(order));
        match answer {
            Ok(report) => {
                let _ = if args.json {
                    let mut v = report.to_json();
                    let view = |c| report.view(c).unwrap_or(serde_json::Value::Null);
                    v["view"] = json!({"w": view(fairysolve::types::Color::White),
                                       "b": view(fairysolve::types::Color::Black)});
                    writeln!(out, "{v}")
                } else {
                    writeln!(out, "{}", report.text())
                };
                if let Report::Played(p) = &report {
                    if !args.json && p.status != fairysolve::glass::referee::Status::Continue {
                        let _ = writeln!(out, "{}", p.epd);
                    }
                }
            }
            Err(e) => {
                ok = false;
                let message = match &e {
                    OrderError::Unreadable { column, message } => {
                        format!("standard input, line {line_no}, column {column}: {message}")
                    }
                    _ => format!("standard input, line {line_no}: {e}"),
                };
                eprintln!("{message}");
                if args.json {
                    let _ = writeln!(out, "{}", json!({"result": "error", "message": message}));
                }
            }
        }
        let _ = out.flush();
    }
    ok
}
