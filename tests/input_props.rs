//! Property tests of reading (issue 25): random bytes and random mutations of the
//! bundled position lines, fed to the reader and the games' readers, and to every
//! command that reads position files: nothing panics or hangs, and a good line after
//! any garbage is still answered. `parser_props.rs` holds the reader's own properties
//! (round trips, located messages); this file adds every bundled line, the two-board
//! readers and the commands.

mod common;

use fairysolve::epd::{parse_line, Line};
use proptest::prelude::*;
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::{mpsc, OnceLock};
use std::time::Duration;

/// A line every command answers, recognisable by its id.
const GOOD: &str = "k7/8/1K6/8/8/8/8/7R w - - dm 1; id \"good-line\";";

/// Every position line of the bundled files (positions/**/*.epd).
fn bundled_lines() -> &'static [String] {
    static LINES: OnceLock<Vec<String>> = OnceLock::new();
    LINES.get_or_init(|| {
        let mut lines = Vec::new();
        let mut dirs = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/positions"
        ))];
        while let Some(dir) = dirs.pop() {
            let mut entries: Vec<_> = std::fs::read_dir(&dir)
                .expect("positions/")
                .map(|e| e.expect("an entry").path())
                .collect();
            entries.sort();
            for path in entries {
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "epd") {
                    let text = std::fs::read_to_string(&path).expect("a bundled file");
                    lines.extend(
                        text.lines()
                            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                            .map(String::from),
                    );
                }
            }
        }
        assert!(lines.len() > 100, "the bundled files hold more lines");
        lines
    })
}

/// One edit of a line: a character replaced, inserted or removed, at a fraction of its
/// length; the characters are those that matter to the reader, and some that do not.
#[derive(Clone, Debug)]
enum Edit {
    Replace(f64, char),
    Insert(f64, char),
    Remove(f64),
}

fn edit() -> impl Strategy<Value = Edit> {
    let c = prop::sample::select(vec![
        '/', ' ', ';', '"', '\\', '-', '#', ':', '0', '1', '2', '8', '9', 'K', 'k', 'q', 'P', 'x',
        'w', 'b', 'e', '\t', 'é', '\u{0}',
    ]);
    prop_oneof![
        (0.0..1.0, c.clone()).prop_map(|(at, c)| Edit::Replace(at, c)),
        (0.0..1.0, c).prop_map(|(at, c)| Edit::Insert(at, c)),
        (0.0..1.0).prop_map(Edit::Remove),
    ]
}

fn apply(line: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    for e in edits {
        let at = |f: f64, n: usize| ((f * n as f64) as usize).min(n);
        match *e {
            Edit::Replace(f, c) if !chars.is_empty() => {
                let i = at(f, chars.len() - 1);
                chars[i] = c;
            }
            Edit::Insert(f, c) => {
                let i = at(f, chars.len());
                chars.insert(i, c);
            }
            Edit::Remove(f) if !chars.is_empty() => {
                let i = at(f, chars.len() - 1);
                chars.remove(i);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// A mutated bundled line.
fn mutated_line() -> impl Strategy<Value = String> {
    let n = bundled_lines().len();
    (0..n, prop::collection::vec(edit(), 0..5))
        .prop_map(|(i, edits)| apply(&bundled_lines()[i], &edits))
}

/// Reads `text` as line 7 and hands it to every reader of a game: no panic, and a
/// refusal names line 7.
fn read_everywhere(text: &str) {
    let Ok(Line::Position(rec)) = parse_line(text, 7) else {
        return;
    };
    // Each game's reader takes the lines of its game, as the commands hand them on.
    let lines = if fairysolve::underworld::setup::is_underworld(&rec) {
        vec![fairysolve::underworld::setup::read((*rec).clone()).err()]
    } else if fairysolve::glass::setup::is_glass(&rec) {
        vec![fairysolve::glass::setup::read((*rec).clone()).err()]
    } else {
        vec![
            fairysolve::problem::from_record((*rec).clone()).err(),
            fairysolve::problem::from_record_for_retro((*rec).clone()).err(),
        ]
    };
    for e in lines.into_iter().flatten() {
        assert_eq!(e.line, 7, "{text:?}: {e}");
        assert!(e.column >= 1, "{text:?}: {e}");
    }
}

/// Line ends in `bytes` as the commands count them (LF, CRLF or a lone CR).
fn line_ends(bytes: &[u8]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => n += 1,
            b'\r' => {
                n += 1;
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    n
}

/// Garbage of one of two kinds: random bytes, or mutated bundled lines.
fn garbage() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(
            prop_oneof![
                any::<u8>(),
                Just(b'\n'),
                Just(b'\r'),
                Just(b'/'),
                Just(b' '),
                Just(b';')
            ],
            0..300
        ),
        prop::collection::vec(mutated_line(), 1..4).prop_map(|l| l.join("\n").into_bytes()),
    ]
}

/// Standard input of a command: each garbage chunk followed by the good line; returns
/// the input and the good lines' numbers.
fn input_of(chunks: &[Vec<u8>]) -> (Vec<u8>, Vec<usize>) {
    let mut input = Vec::new();
    let mut good = Vec::new();
    for chunk in chunks {
        input.extend_from_slice(chunk);
        input.push(b'\n');
        input.extend_from_slice(GOOD.as_bytes());
        good.push(line_ends(&input) + 1);
        input.push(b'\n');
    }
    (input, good)
}

/// Runs a command on `input` as its standard input, with a bound on its time: a hang
/// fails the test. Returns the exit status and standard output.
fn run(args: &[&str], input: Vec<u8>) -> (Option<i32>, String, String) {
    let mut child = common::bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("piped");
    let id = child.id();
    std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(out) => {
            let out = out.expect("output");
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stdout).into_owned(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            )
        }
        Err(_) => {
            // Ends the one process this test started, by its id.
            let _ = Command::new("kill").arg("-9").arg(id.to_string()).status();
            panic!("{args:?} hung");
        }
    }
}

/// A command's arguments, and how it answers the good line of line N.
type Answering = (&'static [&'static str], fn(usize) -> String);

/// Each command that reads position files.
fn commands() -> [Answering; 4] {
    [
        (
            &[
                "solve",
                "--threads",
                "1",
                "--keys-only",
                "--time-limit",
                "0.1",
                "-",
            ],
            |n| format!("-:{n} \"good-line\": #1 orthodox (White to move)"),
        ),
        (&["show", "-"], |n| format!("-:{n} \"good-line\"")),
        (&["perft", "--depth", "1", "--time-limit", "1", "-"], |n| {
            format!("-:{n} depth 1: 20 nodes")
        }),
        (
            &["retro", "--time-limit", "0.1", "--nodes", "20000", "-"],
            |n| format!("-:{n} \"good-line\": legal (FIDE"),
        ),
    ]
}

fn check_command(which: usize, chunks: &[Vec<u8>]) {
    let (args, answer) = commands()[which];
    let (input, good) = input_of(chunks);
    let (code, stdout, stderr) = run(args, input);
    assert!(
        matches!(code, Some(0 | 1)),
        "{args:?}: exit status {code:?}\n{stderr}"
    );
    for n in good {
        let want = answer(n);
        assert!(
            stdout.lines().any(|l| l.starts_with(&want)),
            "{args:?}: the good line {n} was not answered ({want})\nstdout: {stdout}\nstderr: {stderr}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Any mutation of any bundled line: every reader answers, none panics.
    #[test]
    fn mutated_bundled_lines_are_read_without_panic(line in mutated_line()) {
        read_everywhere(&line);
    }

    /// Random bytes, as text: the same.
    #[test]
    fn random_text_is_read_without_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        for line in String::from_utf8_lossy(&bytes).lines() {
            read_everywhere(line);
        }
        let _ = fairysolve::epd::parse_text(&String::from_utf8_lossy(&bytes));
    }
}

proptest! {
    // Each case starts a process: few cases, each with several chunks of garbage.
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn solve_answers_good_lines_after_garbage(chunks in prop::collection::vec(garbage(), 1..4)) {
        check_command(0, &chunks);
    }

    #[test]
    fn show_answers_good_lines_after_garbage(chunks in prop::collection::vec(garbage(), 1..4)) {
        check_command(1, &chunks);
    }

    #[test]
    fn perft_answers_good_lines_after_garbage(chunks in prop::collection::vec(garbage(), 1..4)) {
        check_command(2, &chunks);
    }

    #[test]
    fn retro_answers_good_lines_after_garbage(chunks in prop::collection::vec(garbage(), 1..4)) {
        check_command(3, &chunks);
    }
}

/// The counting of line ends above is the commands' own.
#[test]
fn line_ends_count_as_the_reader_does() {
    assert_eq!(line_ends(b"a\nb\r\nc\rd\r\re"), 5);
}
