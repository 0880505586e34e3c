//! Property tests of the position-file reader (formats.md section 1, "Bad input"): no
//! input makes it panic, every rejection carries a line and a column inside the line,
//! and every line it accepts is written back to a line that reads the same; whatever the
//! retro-analysis reader accepts, the retro module analyses without a panic.

use fairysolve::epd::{parse_line, parse_text, write_record, Line};
use fairysolve::problem;
use proptest::prelude::*;

const VALID: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "8/1P5r/8/4P3/BK3kpB/p2B4/7P/8 w - - dm 4; id \"ortho-dm4-01\"; c1 \"keys: none\";",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - ;D1 48 ;D2 2039",
    "4k3/8/8/8/4P3/8/8/4K3 b - - trapdoor 2; timers \"e4:1\"; stip \"#2\";",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "1k6/8/8/8/8/8/8/R3K3 w Q - taxi \"2 0\"; earthquake \"1 0\"; void fly;",
    "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3 bm exd6; c0 \"e.p.\";",
];

fn check_outcome(text: &str) {
    match parse_line(text, 7) {
        Ok(Line::Position(rec)) => {
            // Accepted: it must write back to a line that reads to the same record.
            let written = write_record(&rec);
            match parse_line(&written, 7) {
                Ok(Line::Position(again)) => {
                    assert_eq!(again.setup, rec.setup, "{text:?} -> {written:?}");
                    assert_eq!(again.operations.len(), rec.operations.len());
                }
                other => panic!("{text:?} was written as {written:?}, which reads as {other:?}"),
            }
            // Read for retro-analysis, any diagram is analysed without a panic (a small
            // node budget keeps the property fast).
            if let Ok(p) = problem::from_record_for_retro((*rec).clone()) {
                if p.game.rules().taxi.is_none() && p.game.earthquake(&p.position).is_none() {
                    let opts = fairysolve::retro::RetroOptions {
                        timer: p.game.rules().trapdoor.map(|t| t.timer),
                        depth: 2,
                        nodes: 2_000,
                        ..Default::default()
                    };
                    let _ = fairysolve::retro::analyse(
                        &fairysolve::retro::RetroPosition::of(&p.position),
                        &opts,
                    );
                }
            }
            // Interpreting it may fail, but only with a located message.
            if let Err(e) = problem::from_record(*rec) {
                assert_eq!(e.line, 7);
                assert!(
                    e.column >= 1 && e.column <= text.len() + 1,
                    "{e} for {text:?}"
                );
                assert!(!e.message.is_empty());
            }
        }
        Ok(_) => {}
        Err(e) => {
            assert_eq!(e.line, 7);
            assert!(
                e.column >= 1 && e.column <= text.len() + 1,
                "{e} for {text:?}"
            );
            assert!(!e.message.is_empty());
        }
    }
}

#[derive(Debug, Clone)]
enum Edit {
    Replace(usize, char),
    Insert(usize, char),
    Delete(usize),
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        match *e {
            Edit::Replace(i, c) if !chars.is_empty() => {
                let i = i % chars.len();
                chars[i] = c;
            }
            Edit::Insert(i, c) => {
                let i = i % (chars.len() + 1);
                chars.insert(i, c);
            }
            Edit::Delete(i) if !chars.is_empty() => {
                let i = i % chars.len();
                chars.remove(i);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

fn edit() -> impl Strategy<Value = Edit> {
    let interesting = prop::sample::select(vec![
        ' ', '/', ';', '"', '\\', '-', ':', '#', '0', '1', '8', '9', 'k', 'K', 'p', 'P', 'q', 'x',
        'é', 'a', 'h', 'w', 'b',
    ]);
    prop_oneof![
        (any::<usize>(), interesting.clone()).prop_map(|(i, c)| Edit::Replace(i, c)),
        (any::<usize>(), interesting).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<usize>().prop_map(Edit::Delete),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        for line in text.lines() {
            check_outcome(line);
        }
        let _ = parse_text(&text);
    }

    #[test]
    fn mutated_valid_lines_never_panic(which in 0..VALID.len(), edits in prop::collection::vec(edit(), 1..6)) {
        check_outcome(&apply(VALID[which], &edits));
    }
}

fn ops(rec: &fairysolve::epd::Record) -> Vec<(String, Vec<String>)> {
    rec.operations
        .iter()
        .map(|o| {
            (
                o.opcode.clone(),
                o.operands.iter().map(|x| x.text().to_string()).collect(),
            )
        })
        .collect()
}

#[test]
fn valid_lines_read_and_round_trip() {
    for line in VALID {
        let Ok(Line::Position(rec)) = parse_line(line, 1) else {
            panic!("{line} does not read");
        };
        let written = write_record(&rec);
        let Ok(Line::Position(again)) = parse_line(&written, 1) else {
            panic!("{written} does not read");
        };
        assert_eq!(again.setup, rec.setup, "{line}");
        assert_eq!(ops(&again), ops(&rec), "{line}");
        // Writing is a fixed point: the written line is written the same again.
        assert_eq!(write_record(&again), written);
    }
    // Lines already in the canonical spacing come back verbatim.
    for line in [VALID[0], VALID[1], VALID[3], VALID[4], VALID[6]] {
        let Ok(Line::Position(rec)) = parse_line(line, 1) else {
            unreachable!()
        };
        assert_eq!(write_record(&rec), line);
    }
}

#[test]
fn messages_name_the_place() {
    let cases = [
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
            "line 3, column 19: '9' is not a count of empty squares",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq -",
            "line 3, column 36: rank 1 has 9 squares",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq -",
            "line 3, column 1: the placement has 7 ranks, not 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq -",
            "line 3, column 45: side to move 'x' is neither 'w' nor 'b'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2x 2;",
            "line 3, column 54: the halfmove clock '2x' is not a number",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - trapdor 1;",
            "line 3, column 54: unknown operation 'trapdor'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 \"open;",
            "line 3, column 57: a quoted operand has no closing '\"'",
        ),
        // Columns count characters, not bytes: each é is two bytes.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 \"éé\"; 2x 2;",
            "line 3, column 63: '2x' is not an operation name",
        ),
    ];
    for (text, want) in cases {
        let got = parse_line(text, 3).expect_err(text).to_string();
        assert_eq!(got, want, "{text}");
    }
}

#[test]
fn rule_checks_on_reading() {
    // rules.md 7.2: timers only with trapdoor, on occupied squares, 1 <= r <= T.
    let cases = [
        (
            "4k3/8/8/8/4P3/8/8/4K3 w - - timers \"e4:1\";",
            "timers: only with trapdoor on the same line",
        ),
        (
            "4k3/8/8/8/4P3/8/8/4K3 w - - trapdoor 1; timers \"e5:1\";",
            "timers: no piece on e5",
        ),
        (
            "4k3/8/8/8/4P3/8/8/4K3 w - - trapdoor 1; timers \"e4:2\";",
            "timers: e4 has r = 2, but 1 <= r <= 1 is required",
        ),
        (
            "4k3/8/8/8/4P3/8/8/4K3 w - - aftershock \"1 1\";",
            "aftershock: only with earthquake on the same line",
        ),
        (
            "4k3/8/8/8/4P3/8/8/4K3 w - - taxi_income 3;",
            "taxi_income: only with taxi on the same line",
        ),
        (
            "4k3/8/8/8/4P3/8/8/4K3 w - - taxi \"2\";",
            "taxi: \"W B\" (cash in hand of White and Black) expected",
        ),
        (
            "4k3/8/8/8/4P3/8/8/4K3 w - - underworld \"4k3/8/8/8/8/8/8/4K3\";",
            "underworld: this command does not play Underworld lines",
        ),
        ("4k3/8/8/8/8/8/8/8 w - - dm 2;", "White has no king"),
        ("4k3/8/8/8/8/8/8/3KK3 w - - dm 2;", "White has 2 kings"),
        (
            "4k3/4R3/8/8/8/8/8/4K3 w - - dm 2;",
            "Black is in check but it is not its turn",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e6 dm 2;",
            "en passant e6: no Black pawn in front of it that can have just moved two squares",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - dm 2; stip \"#3\";",
            "stip #3 disagrees with dm 2",
        ),
    ];
    for (text, want) in cases {
        let rec = match parse_line(text, 1) {
            Ok(Line::Position(r)) => *r,
            other => panic!("{text}: {other:?}"),
        };
        let err = problem::from_record(rec).expect_err(text);
        assert!(
            err.message.contains(want),
            "{text}: got '{}', want '{want}'",
            err.message
        );
        assert_eq!(err.line, 1);
    }
}

/// An operation's column counts characters, as the messages built from it do.
#[test]
fn operation_columns_count_characters() {
    let text = "4k3/8/8/8/8/8/8/4K3 w - - c0 \"é\"; dm 2;";
    let Ok(Line::Position(rec)) = parse_line(text, 1) else {
        panic!("{text}")
    };
    let dm = rec.get("dm").unwrap();
    assert_eq!(dm.column, text.chars().position(|c| c == 'd').unwrap());
}
