//! Bad input, as a new user writes it (issue 25): every line of the corpus gets its exact
//! located message from every command that reads it, and the good line after each is
//! still answered. Also: limits that end long work with a partial report, and input
//! that is read as it comes (a pipe, an endless line).

mod common;

use common::{bin, text};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A line that every command answers: White mates in one.
const GOOD: &str = "k7/8/1K6/8/8/8/8/7R w - - dm 1;";

/// The 36 s retro question of the issue (Trapdoor T=3 with four timers given).
const SLOW_RETRO: &str =
    "1qkb4/2P5/q1r5/p7/2RK1rr1/8/4N3/1B6 w - - trapdoor 3; timers \"a6:2 g4:1 c8:3 a5:1\"; dm 2;";

/// Runs a command to its end, failing the test if it takes longer than `limit`.
fn run_within(cmd: &mut Command, limit: Duration) -> (Output, Duration) {
    let start = Instant::now();
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let id = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit) {
        Ok(out) => (out.expect("output"), start.elapsed()),
        Err(_) => {
            // Ends the one process this test started, by its id.
            let _ = Command::new("kill").arg("-9").arg(id.to_string()).status();
            panic!("{cmd:?} did not end within {limit:?}");
        }
    }
}

/// A file of this test's own, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, bytes: &[u8]) -> TempFile {
        let path = std::env::temp_dir().join(format!(
            "fairysolve-bad-input-{}-{name}",
            std::process::id()
        ));
        std::fs::write(&path, bytes).expect("a temporary file");
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// One case of the corpus: which commands report it, the line, the message.
struct Case {
    solve_only: bool,
    line: String,
    message: String,
}

fn corpus() -> Vec<Case> {
    let text = include_str!("bad_input/corpus.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.splitn(3, '\t');
            let (Some(commands), Some(line), Some(message)) =
                (parts.next(), parts.next(), parts.next())
            else {
                panic!("corpus line {l:?} is not COMMANDS<TAB>LINE<TAB>MESSAGE");
            };
            assert!(matches!(commands, "all" | "solve"), "{l:?}");
            Case {
                solve_only: commands == "solve",
                line: line.to_string(),
                message: message.to_string(),
            }
        })
        .collect()
}

/// The corpus as one file, each bad line followed by the good one: case i is on line
/// 2i + 1, its good line on 2i + 2.
fn corpus_file(cases: &[Case], name: &str) -> TempFile {
    let mut text = String::new();
    for c in cases {
        text.push_str(&c.line);
        text.push('\n');
        text.push_str(GOOD);
        text.push('\n');
    }
    TempFile::new(name, text.as_bytes())
}

/// Every case's message, exactly, from `solve`, `show` and `perft`, and every good line
/// answered; the exit status says that something failed.
#[test]
fn every_bad_line_has_its_message_and_the_next_line_is_answered() {
    let cases = corpus();
    assert!(cases.len() >= 40, "the corpus lost cases");
    let file = corpus_file(&cases, "corpus.epd");
    let path = file.path();
    // Each command: its name, its arguments, and how it answers the good line N.
    type Answering<'a> = (&'a str, &'a [&'a str], &'a dyn Fn(usize) -> String);
    let runs: [Answering; 3] = [
        ("solve", &["solve", "--keys-only", path], &|n| {
            format!("{path}:{n}: #1 orthodox (White to move)")
        }),
        ("show", &["show", path], &|n| format!("{path}:{n}")),
        ("perft", &["perft", "--depth", "1", path], &|n| {
            format!("{path}:{n} depth 1: 20 nodes")
        }),
    ];
    for (command, args, answer) in runs {
        let (out, _) = run_within(bin().args(args), Duration::from_secs(60));
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(1), "{command}: {stderr}");
        let errors: Vec<&str> = stderr.lines().collect();
        for (i, case) in cases.iter().enumerate() {
            let n = 2 * i + 1;
            if case.solve_only && command != "solve" {
                continue;
            }
            let want = format!("{path}: line {n}, {}", case.message);
            assert!(
                errors.contains(&want.as_str()),
                "{command}: {:?}\nwants: {want}\ngot: {:?}",
                case.line,
                errors
                    .iter()
                    .find(|e| e.starts_with(&format!("{path}: line {n},"))),
            );
            let good = answer(n + 1);
            assert!(
                stdout.lines().any(|l| l.starts_with(&good)),
                "{command}: the good line {} after {:?} was not answered",
                n + 1,
                case.line
            );
        }
    }
}

/// `--fen` lacking what the command needs is a wrong command line (formats.md 2).
#[test]
fn fen_without_a_stipulation_or_depth_exits_2() {
    let fen = "4k3/8/8/8/8/8/8/4K3 w - -";
    let (out, _) = run_within(bin().args(["solve", "--fen", fen]), Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).trim(),
        "--fen: line 1, column 1: no stipulation: give --stip (e.g. --stip \"#2\") or --depth, or dm/stip in the line"
    );
    let (out, _) = run_within(bin().args(["perft", "--fen", fen]), Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).trim(),
        "--fen: line 1, column 1: no --depth and no expected counts (D1 n; ...)"
    );
}

/// `bench` on a suite with an unreadable line says so in its exit status.
#[test]
fn bench_with_an_unreadable_line_fails() {
    let file = TempFile::new("bench.epd", b"hello world\n");
    let (out, _) = run_within(
        bin().args(["bench", "--no-perft", "--no-retro", file.path()]),
        Duration::from_secs(60),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("line 1, column 1: 'hello' is not a piece placement"));
}

/// `retro --time-limit 1` on the 36 s question ends in about a second with a partial
/// report that says it was cut short (2 slow cores: 5 s allowed).
#[test]
fn retro_obeys_its_time_limit() {
    let (out, took) = run_within(
        bin().args(["retro", "--time-limit", "1", "--fen", SLOW_RETRO]),
        Duration::from_secs(30),
    );
    let stdout = text(&out.stdout);
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert!(stdout.starts_with("--fen: legal (Trapdoor T=3"), "{stdout}");
    assert!(
        stdout.contains("incomplete: cut short (the time limit ran out)"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(1));
    let (out, took) = run_within(
        bin().args(["retro", "--json", "--time-limit", "1", "--fen", SLOW_RETRO]),
        Duration::from_secs(30),
    );
    assert!(took < Duration::from_secs(5), "took {took:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["stopped"], true);
    assert_eq!(v["complete"], false);
    assert_eq!(v["legal"], true);
}

/// `solve --retro --time-limit 1` spends its one limit on the retro step too.
#[test]
fn solve_retro_obeys_its_time_limit() {
    let (out, took) = run_within(
        bin().args(["solve", "--retro", "--time-limit", "1", "--fen", SLOW_RETRO]),
        Duration::from_secs(30),
    );
    let stdout = text(&out.stdout);
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert!(
        stdout.contains(
            "--fen: retro: nothing proved; incomplete: cut short (the time limit ran out)"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("--fen: #2 trapdoor 3"), "{stdout}");
    assert_eq!(out.status.code(), Some(1));
}

/// `perft --time-limit` reports the first moves counted so far, marked incomplete.
#[test]
fn perft_obeys_its_time_limit() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let (out, took) = run_within(
        bin().args(["perft", "--depth", "7", "--time-limit", "1", "--fen", start]),
        Duration::from_secs(30),
    );
    assert!(took < Duration::from_secs(5), "took {took:?}");
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("--fen depth 7: incomplete, cut short (the time limit ran out)"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(1));
}

/// Spawns `args` reading a pipe, and a thread that hands on its output lines.
fn spawn_piped(args: &[&str]) -> (Child, mpsc::Receiver<String>) {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let stdout = child.stdout.take().expect("piped");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

/// The first answer of a pipe comes while the writer still holds it open, for every
/// command that reads files; a line ended by a lone CR counts at once.
#[test]
fn a_pipe_is_answered_before_it_ends() {
    for (args, first) in [
        (&["solve", "-"][..], "-:1: #1 orthodox (White to move)"),
        (
            &["solve", "--threads", "2", "-"][..],
            "-:1: #1 orthodox (White to move)",
        ),
        (&["show", "-"][..], "-:1"),
        (&["perft", "--depth", "1", "-"][..], "-:1 depth 1: 20 nodes"),
        (&["retro", "-"][..], "-:1: legal (FIDE"),
    ] {
        for end in ["\n", "\r"] {
            let (mut child, lines) = spawn_piped(args);
            let mut stdin = child.stdin.take().expect("piped");
            stdin.write_all(format!("{GOOD}{end}").as_bytes()).unwrap();
            stdin.flush().unwrap();
            let got = lines.recv_timeout(Duration::from_secs(20));
            drop(stdin);
            let _ = child.wait();
            let got = got
                .unwrap_or_else(|_| panic!("{args:?} {end:?}: no answer while the pipe is open"));
            assert!(got.starts_with(first), "{args:?}: {got}");
        }
    }
}

/// A line of 200 KB of NULs without an end is reported and skipped without being held,
/// and the good line after it is answered; so is one of invalid UTF-8.
#[test]
fn an_endless_line_is_skipped() {
    let mut bytes = vec![0u8; 200_000];
    bytes.push(b'\n');
    bytes.extend_from_slice(GOOD.as_bytes());
    bytes.extend_from_slice(b"\n\xff\xfe\n");
    bytes.extend_from_slice(GOOD.as_bytes());
    bytes.push(b'\r');
    let file = TempFile::new("nul.epd", &bytes);
    let path = file.path();
    for args in [&["solve", path][..], &["show", path][..]] {
        let (out, _) = run_within(bin().args(args), Duration::from_secs(30));
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "{path}: line 1, column 1: longer than 65536 bytes; skipped"
            )),
            "{stderr}"
        );
        assert!(
            stderr.contains(&format!("{path}: line 3, column 1: not UTF-8 text")),
            "{stderr}"
        );
        for n in [2, 4] {
            assert!(
                stdout
                    .lines()
                    .any(|l| l.starts_with(&format!("{path}:{n}"))),
                "{args:?}: line {n} not answered: {stdout}"
            );
        }
    }
}
