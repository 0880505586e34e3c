//! Helpers shared by the integration tests.
#![allow(dead_code)]

use fairysolve::epd::{self, Record};
use fairysolve::problem::{self, Problem};
use std::path::PathBuf;

pub fn repo_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Every record of a position file under the repository; panics on a bad line, since
/// the bundled files must all read.
pub fn records(rel: &str) -> Vec<Record> {
    let text = std::fs::read_to_string(repo_path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    epd::parse_text(&text)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{rel}: {e}")))
        .collect()
}

pub fn problems(rel: &str) -> Vec<Problem> {
    records(rel)
        .into_iter()
        .map(|r| {
            let line = r.line;
            problem::from_record(r).unwrap_or_else(|e| panic!("{rel}:{line}: {e}"))
        })
        .collect()
}

/// The placement field of a FEN (ranks 8 to 1) for men given by square, a1 first, as
/// FEN letters.
pub fn placement_fen(board: &[Option<char>; 64]) -> String {
    let rows: Vec<String> = (0..8)
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut empty = 0;
            for man in &board[rank * 8..rank * 8 + 8] {
                match man {
                    Some(c) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(*c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    rows.join("/")
}

/// rules.md 6.1-6.2 on one real game: plays `plies` random moves of the Trapdoor game of
/// `start` (a diagram line read for retro-analysis) from its position, then checks the
/// analysis of where it ended: the position is legal, the real last move is a candidate,
/// and every man proved ticking really ticks with a reported r. `None` when no move was
/// played, else the number of men proved ticking.
pub fn explain_real_game(start: &Problem, plies: usize, rng: &mut Rng) -> Option<usize> {
    use fairysolve::retro::{analyse, RetroOptions, RetroPosition};
    let game = &start.game;
    let mut pos = start.position;
    let mut last = None;
    for _ in 0..plies {
        let moves = game.legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let mv = moves.as_slice()[rng.below(moves.len())];
        let played = game.play(&pos, mv);
        if played.outcome.is_some() {
            break;
        }
        last = Some(mv);
        pos = played.position;
    }
    let last = last?;
    let opts = RetroOptions::for_problem(start, 4, 300_000);
    let r = analyse(&RetroPosition::of(&pos), &opts);
    assert_history_explained(start, &r, &pos, last);
    Some(r.ticking.len())
}

/// rules.md 6.1-6.2: the report `r` on `pos`, reached from `start` by a real game whose
/// last move was `last`, holds of that game: `pos` is legal, `last` is a candidate, and
/// every man proved ticking has a reported r as its real timer.
pub fn assert_history_explained(
    start: &Problem,
    r: &fairysolve::retro::RetroReport,
    pos: &fairysolve::Position,
    last: fairysolve::Move,
) {
    let fen = fairysolve::fen::write_fen(pos);
    let rules = format!("{:?}", start.game.rules());
    assert!(
        r.legal(),
        "{fen} {rules}: a real game's position called illegal: {:?}",
        r.illegal
    );
    let coord = last.coord(false).to_string();
    assert!(
        r.last_moves.iter().any(|m| m.coord() == coord),
        "{fen} {rules}: the real last move {coord} is not among {:?}",
        r.last_moves.iter().map(|m| m.coord()).collect::<Vec<_>>()
    );
    for t in &r.ticking {
        let real = pos.timers().get(t.square);
        assert!(
            real.is_some_and(|x| t.r.contains(&x)),
            "{fen} {rules}: {} proved ticking with {:?}, really {:?}",
            t.square,
            t.r,
            real
        );
    }
}

/// Reads one position line (FEN plus operations).
pub fn problem(line: &str) -> Problem {
    match epd::parse_line(line, 1) {
        Ok(epd::Line::Position(r)) => {
            problem::from_record(*r).unwrap_or_else(|e| panic!("{line}: {e}"))
        }
        other => panic!("{line}: {other:?}"),
    }
}

/// Expected perft counts `Dn` of a record.
pub fn expected_counts(rec: &Record) -> Vec<(u32, u64)> {
    rec.operations
        .iter()
        .filter_map(|o| Some((epd::perft_depth(&o.opcode)?, o.single()?.parse().ok()?)))
        .collect()
}

/// The key set a record publishes in `c1 "keys: a b ..."`, as one sorted line ("none"
/// for no key).
pub fn published_keys(p: &Problem) -> String {
    let c1 = p
        .record
        .get("c1")
        .and_then(|o| o.single())
        .unwrap_or_else(|| panic!("line {}: no c1 keys", p.record.line));
    let list = c1.strip_prefix("keys: ").expect("c1 \"keys: ...\"");
    let mut v: Vec<&str> = list.split_whitespace().collect();
    v.sort();
    v.join(" ")
}

/// The legal moves from `pos` under the problem's rules, in coordinates, sorted.
pub fn legal_coords(p: &Problem, pos: &fairysolve::Position) -> Vec<String> {
    let mut v: Vec<String> = p
        .game
        .legal_moves(pos)
        .iter()
        .map(|m| m.coord(false).to_string())
        .collect();
    v.sort();
    v
}

/// The solver's key set for `#n` from `pos`, as one sorted line ("none" for no key).
pub fn solved_keys(p: &Problem, pos: &fairysolve::Position, n: u32, threads: usize) -> String {
    use fairysolve::search::solution::SolveOptions;
    let table = fairysolve::search::tt::Table::new(16);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let opts = SolveOptions {
        threads,
        tree: false,
        ..SolveOptions::default()
    };
    let sol = p.game.solve(&table, pos, n, &opts, &stop, &|_, _| {});
    assert!(sol.complete());
    key_line(sol.keys.iter().map(|(m, _)| *m), pos.is_chess960())
}

/// The keys of the problem's diagram as an `s#n` (rules.md 8.3, the solver core), as
/// one sorted line in coordinates ("none" for no key).
#[allow(dead_code)]
pub fn self_mate_keys(p: &Problem, n: u32) -> String {
    use fairysolve::generic::adapter::{BoardState, OneBoard};
    use fairysolve::generic::search::{solve_for, Goal};
    use fairysolve::search::solution::SolveOptions;
    let table = fairysolve::search::tt::Table::new(16);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let opts = SolveOptions {
        threads: 1,
        tree: false,
        ..SolveOptions::default()
    };
    let mut keys: Vec<String> = fairysolve::with_game!(&p.game, g => {
        let game = OneBoard { game: g, attacker: fairysolve::Color::White };
        let sol = solve_for(&game, Goal::SelfLoss, &table, &BoardState::new(p.position), n, &opts, &stop, &|_, _| {});
        assert!(sol.finished());
        sol.keys.iter().map(|k| k.0.clone()).collect()
    });
    keys.sort();
    if keys.is_empty() {
        "none".into()
    } else {
        keys.join(" ")
    }
}

/// A key set as one sorted line in coordinates ("none" for no key).
pub fn key_line(keys: impl IntoIterator<Item = fairysolve::Move>, chess960: bool) -> String {
    let mut v: Vec<String> = keys
        .into_iter()
        .map(|m| m.coord(chess960).to_string())
        .collect();
    v.sort();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(" ")
    }
}

/// Sets `man` on a random empty square of `board` (a1 first) that `allowed` accepts, a
/// pawn never on the first or last rank; after 1,000 draws without one (a crowded
/// neighbourhood may have no room) the man is left out.
pub fn put_at_random(
    board: &mut [Option<char>; 64],
    rng: &mut Rng,
    man: char,
    allowed: impl Fn(usize) -> bool,
) {
    for _ in 0..1000 {
        let sq = rng.below(64);
        let pawn_rank = sq / 8 == 0 || sq / 8 == 7;
        if board[sq].is_none() && !(man.eq_ignore_ascii_case(&'p') && pawn_rank) && allowed(sq) {
            board[sq] = Some(man);
            return;
        }
    }
}

/// A random square at most `r` files and `r` ranks from `sq` (a1 = 0), clamped to the
/// board.
pub fn near_square(rng: &mut Rng, sq: usize, r: i32) -> usize {
    let f = (sq % 8) as i32 + rng.below((2 * r + 1) as usize) as i32 - r;
    let k = (sq / 8) as i32 + rng.below((2 * r + 1) as usize) as i32 - r;
    (k.clamp(0, 7) * 8 + f.clamp(0, 7)) as usize
}

/// The unit tests' generator (xorshift64), for random positions and games.
#[path = "../../solver/test_rng.rs"]
mod test_rng;
#[allow(unused_imports)]
pub use test_rng::Rng;

/// The fairysolve binary of this build, as a command to give arguments to.
pub fn bin() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_fairysolve"))
}

/// Runs the binary with `args` and no input.
pub fn run(args: &[&str]) -> std::process::Output {
    bin().args(args).output().expect("the binary runs")
}

/// An output stream as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The one JSON object a command printed (for one position).
pub fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_str(text(&out.stdout).trim()).expect("one JSON object")
}

/// Runs the binary with `args`, writing `input` to its standard input.
pub fn run_with_stdin(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command refused on its command line exits without reading its input: the
    // write then meets a closed pipe, which is no failure of the test.
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

/// Help- and self-mates of the collections, solved and published.
pub mod help_self;

/// The Earthquake board played cell by cell, apart from the solver's geometry.
pub mod earthquake_oracle;

/// Trapdoor with timer 1 on shakmaty's moves, apart from the solver's Trapdoor rules.
pub mod trapdoor_oracle;

/// A stand-in peer for `bench --peer`, written to `path`: a script that prints
/// `answer` for a position line containing `pattern`, and `otherwise` for any other.
/// Returns its path.
#[cfg(unix)]
pub fn fake_peer(path: &std::path::Path, pattern: &str, answer: &str, otherwise: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let script = format!(
        "#!/bin/sh\ncase \"$1\" in\n  *{pattern}*) echo \"{answer}\" ;;\n  *) echo \"{otherwise}\" ;;\nesac\n"
    );
    std::fs::write(path, script).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_string_lossy().into_owned()
}
