//! `fairysolve import` (formats.md 5): Popeye input files to position lines, one per
//! problem and twin; what fairysolve does not play is reported with file, line and
//! column, and the other problems go on.
//!
//! The solution sets below are facts: what Popeye 4.104 prints for the same input
//! (positions/import/example.inp), compared move by move. A Duplex line is written with
//! the board mirrored a1<-->a8, so its moves are Popeye's mirrored.

mod common;

use common::{run, run_with_stdin as run_stdin, text};

/// The lines `import` writes for a Popeye input given on standard input, with the exit
/// status and the messages.
fn import(input: &str) -> (Option<i32>, Vec<String>, String) {
    let out = run_stdin(&["import", "-"], input);
    let lines = text(&out.stdout).lines().map(str::to_string).collect();
    (out.status.code(), lines, text(&out.stderr))
}

/// The one line of a problem that imports.
fn line(input: &str) -> String {
    let (code, lines, err) = import(input);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(lines.len(), 1, "{lines:?}");
    lines[0].clone()
}

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/import/example.inp");

/// The JSON objects `solve --json` prints for the lines.
fn solve(lines: &str) -> Vec<serde_json::Value> {
    let out = run_stdin(&["solve", "--json", "--threads", "1", "-"], lines);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn the_example_file_gives_one_line_per_problem_and_twin() {
    let out = run(&["import", EXAMPLE]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let want = [
        r##"k7/1p6/8/8/8/2K5/7R/Q7 b - - id "Twins a)"; c0 "fairysolve tests"; stip "h#2";"##,
        r##"k7/1p6/8/8/8/2K5/6R1/Q7 b - - id "Twins b)"; c0 "fairysolve tests"; stip "h#2";"##,
        r##"k7/1p6/8/8/8/2Q5/7R/K7 b - - id "Twins c)"; c0 "fairysolve tests"; stip "h#2";"##,
        r##"k7/1p6/8/8/8/2K5/8/Q7 b - - id "Twins d)"; c0 "fairysolve tests"; stip "h#2";"##,
        r##"kn6/1p6/8/8/8/2K5/7R/Q7 b - - id "Twins e)"; c0 "fairysolve tests"; stip "h#2";"##,
        r##"7Q/R7/5K2/8/8/8/6p1/6nk b - - id "Twins f)"; c0 "fairysolve tests"; stip "h#2";"##,
        r##"7k/6p1/8/8/8/5K2/R7/7Q b - - id "Twins g)"; c0 "fairysolve tests"; stip "h#2";"##,
        r##"k7/1p6/8/8/8/2K5/7R/1Q6 w - - id "Twins h)"; c0 "fairysolve tests"; stip "h#1.5";"##,
        r##"5q2/8/5R2/7B/7n/8/7R/k6K w - - id "Self a)"; c1 "Option Try Variations"; stip "s#1"; options "tries";"##,
        r##"5q2/8/5R2/7B/7n/8/7R/k6K w - - id "Self b)"; c1 "Option Try Variations"; stip "s#2"; options "tries";"##,
        r##"2rkr3/2p1p3/8/8/8/8/8/R3K3 w Q - id "Castling a)"; stip "#1";"##,
        r##"2rkr3/2p1p3/8/8/8/8/8/R4K2 w - - id "Castling b)"; stip "#1";"##,
        r##"3B4/8/pP6/k2pP2R/pp6/8/8/7K w - d6 id "En passant"; stip "#1";"##,
        r##"7k/8/6K1/8/8/8/8/1Q6 w - - id "White to play"; stip "h#0.5";"##,
        r##"r2b3k/6pp/8/8/8/8/6PP/1R5K b - - id "Duplex"; stip "h#1";"##,
        r##"1r5k/6pp/8/8/8/8/6PP/R2B3K b - - id "Duplex duplex"; c1 "Duplex: colours exchanged and board mirrored a1<-->a8"; stip "h#1";"##,
    ];
    assert_eq!(text(&out.stdout).lines().collect::<Vec<_>>(), want);
}

/// Imported, then solved: the solution sets (help-mates) and keys (#N, s#N) Popeye
/// prints for positions/import/example.inp.
#[test]
fn the_example_file_solves_as_popeye_solves_it() {
    let out = run(&["import", EXAMPLE]);
    let objs = solve(&text(&out.stdout));
    let by_id = |id: &str| {
        objs.iter()
            .find(|o| o["id"] == id)
            .unwrap_or_else(|| panic!("no {id}"))
    };
    let solutions = |id: &str| {
        let o = by_id(id);
        let mut all: Vec<serde_json::Value> = o["solutions"].as_array().unwrap().clone();
        all.extend(o["short_solutions"].as_array().unwrap().iter().cloned());
        all
    };
    let json = |v: serde_json::Value| v.as_array().unwrap().clone();
    // Twin a): 1.Ka8-b8 Qa1-g1 2.Kb8-a8 Rh2-h8#, 1.Ka8-b8 Rh2-h7 2.Kb8-c8 Qa1-a8#.
    assert_eq!(
        solutions("Twins a)"),
        json(serde_json::json!([
            ["a8b8", "a1g1", "b8a8", "h2h8"],
            ["a8b8", "h2h7", "b8c8", "a1a8"]
        ]))
    );
    // b) Move h2 g2.
    assert_eq!(
        solutions("Twins b)"),
        json(serde_json::json!([
            ["a8b8", "a1g1", "b8a8", "g2g8"],
            ["a8b8", "g2g7", "b8c8", "a1a8"]
        ]))
    );
    // c) Exchange c3 a1: Popeye lists 44 solutions, d) Remove h2 none.
    assert_eq!(solutions("Twins c)").len(), 44);
    assert_eq!(solutions("Twins d)").len(), 0);
    // e) Add Black Sb8: 1.Sb8-a6 Qa1-g1 2.Sa6-b4 Rh2-h8#.
    assert_eq!(
        solutions("Twins e)"),
        json(serde_json::json!([["b8a6", "a1g1", "a6b4", "h2h8"]]))
    );
    // f) Cont Rotate 180 (of e): 27 solutions, all 1.Sg1-h3 ...
    assert_eq!(solutions("Twins f)").len(), 27);
    assert_eq!(by_id("Twins f)")["keys"], serde_json::json!(["g1h3"]));
    // g) Mirror a1<-->h1.
    assert_eq!(
        solutions("Twins g)"),
        json(serde_json::json!([
            ["h8g8", "a2a7", "g8f8", "h1h8"],
            ["h8g8", "h1b1", "g8h8", "a2a8"]
        ]))
    );
    // h) Move a1 b1 and h#1.5: 1...Qb1-b6 2.Ka8-b8 Rh2-h8#, 1...Rh2-h7 2.Ka8-a7
    // Qb1*b7#, 1...Rh2-h7 2.Ka8-b8 Qb1*b7#.
    assert_eq!(
        solutions("Twins h)"),
        json(serde_json::json!([
            ["b1b6", "a8b8", "h2h8"],
            ["h2h7", "a8a7", "b1b7"],
            ["h2h7", "a8b8", "b1b7"]
        ]))
    );
    // s#1 and s#2: 1.Rf6-f1+! Qf8*f1#.
    assert_eq!(by_id("Self a)")["keys"], serde_json::json!(["f6f1"]));
    assert_eq!(by_id("Self b)")["keys"], serde_json::json!(["f6f1"]));
    // Castling rights from the men: 1.0-0-0#! and 1.Ra1-d1#!; with the king on f1
    // only the rook's move.
    assert_eq!(
        by_id("Castling a)")["keys"],
        serde_json::json!(["a1d1", "e1c1"])
    );
    assert_eq!(by_id("Castling b)")["keys"], serde_json::json!(["a1d1"]));
    // EnPassant d7d6d5: 1.e5*d6 ep.#!
    assert_eq!(by_id("En passant")["keys"], serde_json::json!(["e5d6"]));
    // h#1 with WhiteToPlay is Popeye's h#0.5: 1...Qb1-b8#.
    assert_eq!(
        solutions("White to play"),
        json(serde_json::json!([["b1b8"]]))
    );
    // Duplex: none as stated; Black mates after 1.Rb1-a1 Ra8*a1# (mirrored here).
    assert_eq!(solutions("Duplex").len(), 0);
    assert_eq!(
        solutions("Duplex duplex"),
        json(serde_json::json!([["b8a8", "a1a8"]]))
    );
}

#[test]
fn id_comes_from_the_title_or_the_file_and_number() {
    let l = line("BeginProblem\nTitle  A  title \nAuthor X. Y\nAuthor Z\nOrigin Here, 2024\nAward 1st Prize\nPieces White Kg6 Qb1 Black Kh8\nStipulation h#1\nEndProblem\n");
    assert_eq!(
        l,
        r##"7k/8/6K1/8/8/8/8/1Q6 b - - id "A  title"; c0 "X. Y, Z; Here, 2024; 1st Prize"; stip "h#1";"##
    );
    let (_, lines, _) = import(
        "beg pie white kg6 qb1 black kh8 sti h#1 next pie white kg6 qb1 black kh8 sti #1 end",
    );
    assert_eq!(
        lines,
        vec![
            r##"7k/8/6K1/8/8/8/8/1Q6 b - - id "stdin 1"; stip "h#1";"##,
            r##"7k/8/6K1/8/8/8/8/1Q6 w - - id "stdin 2"; stip "#1";"##,
        ]
    );
}

/// Commands, options and twinnings shortened to any unique start, in any case.
#[test]
fn keywords_may_be_shortened() {
    let l =
        line("BEG\nTIT short\nPIE WHI Ke1 Rh1 Ra1 BLA Ke8\nSTI #1\nOPT SET DEF 1 NOCA a1\nEND\n");
    assert_eq!(
        l,
        r##"4k3/8/8/8/8/8/8/R3K2R w K - id "short"; c1 "Option SetPlay Defence 1"; stip "#1"; options "tries refutations 1";"##
    );
}

#[test]
fn no_castling_names_the_men_that_may_not_castle() {
    let diagram = "Pieces White Ke1 Ra1 Rh1 Black Ke8 Ra8 Rh8 Stipulation #2";
    for (option, rights) in [
        ("", "KQkq"),
        ("Option NoCastling e1", "kq"),
        ("Option NoCastling a1h8", "Kq"),
        ("Option NoCastling a1e1h1a8e8h8", "-"),
    ] {
        let l = line(&format!("BeginProblem {diagram} {option} EndProblem"));
        assert_eq!(
            l,
            format!(r##"r3k2r/8/8/8/8/8/8/R3K2R w {rights} - id "stdin 1"; stip "#2";"##)
        );
    }
}

#[test]
fn en_passant_is_the_double_step_just_played() {
    // h#2: Black moves first, so the double step was White's.
    let l = line("beg pie white kd1 pd4 black kh8 pe4 sti h#2 opt enpassant d2d3d4 end");
    assert_eq!(
        l,
        r##"7k/8/8/8/3Pp3/8/8/3K4 b - d3 id "stdin 1"; stip "h#2";"##
    );
    let (code, lines, err) =
        import("beg pie white kd1 pd4 black kh8 pe4 sti #2 opt enpassant d2d3d4 end");
    assert_eq!((code, lines.len()), (Some(1), 0));
    assert!(
        err.contains(
            "-: line 1, column 48: EnPassant: the double step is White's, but White moves first"
        ),
        "{err}"
    );
    let (code, _, err) =
        import("beg pie white kd1 pd4 black kh8 pe4 sti h#2 opt enpassant d2d4 end");
    assert_eq!(code, Some(1));
    assert!(
        err.contains("EnPassant: a pawn's double step is expected"),
        "{err}"
    );
}

/// rules.md 8.2: Popeye's h#N with White to play first is our h#(N-1).5; other
/// stipulations ignore the option as Popeye does.
#[test]
fn white_to_play_is_one_half_move_less() {
    let diagram = "beg pie white kg6 qb1 black kh8 opt whitetoplay sti";
    assert!(line(&format!("{diagram} h#3 end")).ends_with(r##"w - - id "stdin 1"; stip "h#2.5";"##));
    assert!(
        line(&format!("{diagram} h#2.5 end")).ends_with(r##"w - - id "stdin 1"; stip "h#2.5";"##)
    );
    assert!(line(&format!("{diagram} #2 end")).ends_with(r##"w - - id "stdin 1"; stip "#2";"##));
}

#[test]
fn half_duplex_exchanges_the_colours_only() {
    let l = line("beg pie white kh1 rb1 black kh8 ra8 sti h#2 opt halfduplex end");
    assert_eq!(
        l,
        r##"1r5k/8/8/8/8/8/8/R6K b - - id "stdin 1"; c1 "HalfDuplex: colours exchanged and board mirrored a1<-->a8"; stip "h#2";"##
    );
}

/// Every twinning Popeye knows, applied to the diagram, or with Cont to the twin
/// before; ZeroPosition is not itself solved.
#[test]
fn twinnings_and_zero_position() {
    let (code, lines, err) = import(
        "beg pie white kc3 qb1 black ka8 sti h#1
         zero shift a1 b1
         twin cont shift b1 a1 polish
         twin substitute q r
         twin rotate 90
         twin cont rotate 270 mirror a1<-->a8
         twin mirror a1<-->h8
         twin mirror a8<-->h1
         twin remove b1 add white qa2 black pb7b6
         twin exchange a8 c3 stip #2
         end",
    );
    assert_eq!(code, Some(0), "{err}");
    let fens: Vec<String> = lines
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            format!("{} {} {}", f[0], f[1], l.split("id ").nth(1).unwrap())
        })
        .collect();
    assert_eq!(
        fens,
        vec![
            r##"1k6/8/8/8/8/3K4/8/2Q5 b "stdin 1 a)"; stip "h#1";"##,
            r##"K7/8/8/8/8/2k5/8/1q6 b "stdin 1 b)"; stip "h#1";"##,
            r##"k7/8/8/8/8/2K5/8/1R6 b "stdin 1 c)"; stip "h#1";"##,
            r##"8/8/8/8/8/5K2/7Q/k7 b "stdin 1 d)"; stip "h#1";"##,
            r##"1Q6/8/2K5/8/8/8/8/k7 b "stdin 1 e)"; stip "h#1";"##,
            r##"k7/7Q/5K2/8/8/8/8/8 b "stdin 1 f)"; stip "h#1";"##,
            r##"8/8/8/8/8/2K5/Q7/7k b "stdin 1 g)"; stip "h#1";"##,
            r##"k7/1p6/1p6/8/8/2K5/Q7/8 b "stdin 1 h)"; stip "h#1";"##,
            r##"K7/8/8/8/8/2k5/8/1Q6 w "stdin 1 i)"; stip "#2";"##,
        ]
    );
}

#[test]
fn forsyth_and_the_game_array() {
    let l = line("beg forsyth 7k/8/6K1/8/8/8/8/1Q6/ sti h#1 end");
    assert!(l.starts_with("7k/8/6K1/8/8/8/8/1Q6 b - -"), "{l}");
    // Runs of ten and more, as Popeye allows.
    let l = line("beg forsyth 7k14K33Q sti h#1 end");
    assert!(l.starts_with("7k/8/6K1/8/8/8/8/Q7 b - -"), "{l}");
    let l = line("beg initialgamearray sti #1 end");
    assert!(
        l.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"),
        "{l}"
    );
}

/// What is not played is reported where it is written; the problem is not imported
/// and the next one is. In a twin it refuses that twin only.
#[test]
fn what_is_not_played_is_located_and_the_other_problems_go_on() {
    let input = "BeginProblem
Pieces White Ke1 Ga2 Nb1 Royal Qd1 Black Ke8
Neutral Pa4
Stipulation ser-h#3
Condition Circe RexInclusive
Option NoWk
NextProblem
Pieces White Kg6 Qb1 Black Kh8
Stipulation h#1
NextProblem
Pieces White Kg6 Qb1 Black Kh8
Stipulation h#1
Twin Cond Madrasi
NextProblem
Pieces White Kg6 Qb1 Black Kh8
Stipulation hs#2
EndProblem
";
    let (code, lines, err) = import(input);
    assert_eq!(code, Some(1));
    assert_eq!(
        lines,
        vec![
            r#"7k/8/6K1/8/8/8/8/1Q6 b - - id "stdin 2"; stip "h#1";"#,
            r#"7k/8/6K1/8/8/8/8/1Q6 b - - id "stdin 3 a)"; stip "h#1";"#,
        ]
    );
    let want = "\
-: line 2, column 18: piece 'G' is a fairy piece; fairysolve plays K, Q, R, B, S (knight) and P
-: line 2, column 22: piece 'N' is Popeye's nightrider, a fairy piece (the knight is S); fairysolve plays K, Q, R, B, S and P
-: line 2, column 26: piece attribute 'Royal' is not played by fairysolve
-: line 3, column 1: neutral men are not played by fairysolve
-: line 4, column 13: stipulation 'ser-h#3' is not played by fairysolve (it plays #N, h#N, h#N.5 and s#N)
-: line 5, column 11: condition 'Circe' is not played: fairysolve imports orthodox problems only
-: line 6, column 8: option NoWk is not played by fairysolve
-: line 1, column 1: problem 1 is not imported
-: line 13, column 11: condition 'Madrasi' is not played: fairysolve imports orthodox problems only
-: line 10, column 1: problem 3: 1 line imported, the twins above left out
-: line 16, column 13: stipulation 'hs#2' is not played by fairysolve (it plays #N, h#N, h#N.5 and s#N)
-: line 14, column 1: problem 4 is not imported
";
    assert_eq!(err, want);
}

/// A diagram the solver refuses (rules.md 7.2) is reported by import, so every line
/// written can be solved.
#[test]
fn a_diagram_that_cannot_be_played_is_reported() {
    let (code, lines, err) =
        import("beg pie white kg6 qa1 black kh8 sti #1 twin move a1 b1 twin rem h8 end");
    assert_eq!(code, Some(1));
    assert_eq!(
        lines,
        [r##"7k/8/6K1/8/8/8/8/1Q6 w - - id "stdin 1 b)"; stip "#1";"##]
    );
    assert_eq!(
        err,
        "-: line 1, column 1: twin a): the diagram cannot be played: Black is in check but it is not its turn\n\
         -: line 1, column 56: twin c): the diagram cannot be played: Black has no king\n\
         -: line 1, column 1: problem 1: 1 line imported, the twins above left out\n"
    );
}

#[test]
fn malformed_input_is_located() {
    for (input, want) in [
        ("", "-: line 1, column 1: no problem in the input (BeginProblem ... EndProblem)\n"),
        (
            "Pieces White Ke1",
            "-: line 1, column 1: 'Pieces' outside a problem: a Popeye input starts with BeginProblem\n",
        ),
        (
            "beg\npie white ke1 black ke8\nsti #2\n",
            "-: line 4, column 1: the input ends inside problem 1: EndProblem is missing\n-: line 1, column 1: problem 1 is not imported\n",
        ),
        (
            "AnfangProblem\nForderung #2\nEndeProblem\n",
            "-: line 1, column 1: 'AnfangProblem' begins a problem in Popeye's German input; only English input is read (BeginProblem, Pieces White Ke1 Sg1 ..., Stipulation, EndProblem)\n",
        ),
        // A fault in a twin leaves that twin out; the diagram, twin a), comes in.
        (
            "beg pie white ke1 black ke8 sti #2 twin move e3 e4 mirror a2 end",
            "-: line 1, column 59: Mirror: 'a2' is not a1<-->h1, a1<-->a8, a1<-->h8 or a8<-->h1\n-: line 1, column 1: problem 1: 1 line imported, the twins above left out\n",
        ),
        (
            "beg pie white ke1 black ke8 sti #2 twin move e3 e4 end",
            "-: line 1, column 41: there is no man on e3\n-: line 1, column 1: problem 1: 1 line imported, the twins above left out\n",
        ),
        (
            "beg pie white ke1 black ke8 sti #2 twin shift e1 e2 end",
            "-: line 1, column 41: Shift e1 e2: a man would leave the board\n-: line 1, column 1: problem 1: 1 line imported, the twins above left out\n",
        ),
        (
            "beg pie white ke1 black ke8 end",
            "-: line 1, column 1: problem 1 has no Stipulation\n-: line 1, column 1: problem 1 is not imported\n",
        ),
        (
            "beg pie white ke1 black ke8 sti #99999999999999999999 s end",
            "-: line 1, column 33: stipulation '#99999999999999999999': the number of moves must be 1 to 30\n-: line 1, column 1: problem 1 is not imported\n",
        ),
        (
            "beg pie white ke1 * black ke8 sti #1 end",
            "-: line 1, column 19: unexpected character '*'\n-: line 1, column 1: problem 1 is not imported\n",
        ),
    ] {
        let (code, lines, err) = import(input);
        let imported = usize::from(input.contains(" twin "));
        assert_eq!((code, lines.len()), (Some(1), imported), "{input}");
        assert_eq!(err, want, "{input}");
    }
}

#[test]
fn files_are_named_in_messages_and_a_wrong_command_line_is_status_2() {
    let out = run(&["import"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["import", "/nonexistent/x.inp", EXAMPLE]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).starts_with("/nonexistent/x.inp: cannot read:"));
    assert_eq!(text(&out.stdout).lines().count(), 16);
    // Latin-1 text (older Popeye files) is read as such.
    let dir = std::env::temp_dir().join(format!("fairysolve-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("latin.inp");
    std::fs::write(
        &file,
        b"beg\nauthor N. Gei\xdfler\npie white kg6 qb1 black kh8 sti h#1 end\n",
    )
    .unwrap();
    let out = run(&["import", file.to_str().unwrap()]);
    assert_eq!(
        text(&out.stdout),
        "7k/8/6K1/8/8/8/8/1Q6 b - - id \"latin 1\"; c0 \"N. Gei\u{df}ler\"; stip \"h#1\";\n"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// An option that narrows which plays count as solutions is refused by name, never
/// kept as a comment (the line would be another problem); options that only change
/// what is shown are kept, and the next problem is still imported.
#[test]
fn options_that_change_the_answer_are_refused_by_name() {
    for (option, named) in [
        ("Threat 2", "Threat"),
        ("MaxFlightsquares 1", "MaxFlightsquares"),
        ("NonTrivial 2 1", "NonTrivial"),
        ("KeepMatingPiece", "KeepMatingPiece"),
    ] {
        let input = format!(
            "BeginProblem\nPieces White Kc3 Qb1 Black Ka8\nStipulation #2\nOption {option} Try\nNextProblem\nPieces White Kc3 Qb1 Black Ka8\nStipulation #2\nOption Try\nEndProblem\n"
        );
        let out = run_stdin(&["import", "-"], &input);
        let stdout = text(&out.stdout);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{option}: {stdout}{stderr}");
        assert!(
            stderr.contains(&format!(
                "option {named} changes which plays count as solutions, and fairysolve does not play it"
            )),
            "{option}: {stderr}"
        );
        // The first problem gets no line; the second comes in with Try kept.
        assert_eq!(stdout.lines().count(), 1, "{option}: {stdout}");
        assert!(stdout.contains("c1 \"Option Try\""), "{option}: {stdout}");
        assert!(!stdout.contains(named), "{option}: {stdout}");
    }
}

/// formats.md 5: twins are imported one by one; a twin that adds a Condition is refused by name, the
/// twins beside it come in, and a twin that continues the refused one is left out with
/// it (status 1, every message located).
#[test]
fn twins_are_imported_one_by_one() {
    let input = "BeginProblem\nTitle twins\nPieces White Kc6 Qb1 Black Ka8\nStipulation #2\n\
                 Twin Condition Circe\nTwin Cont Move b1 b2\nTwin Move b1 b3\nEndProblem\n";
    let (code, lines, err) = import(input);
    assert_eq!(code, Some(1));
    assert_eq!(
        lines,
        [
            "k7/8/2K5/8/8/8/8/1Q6 w - - id \"twins a)\"; stip \"#2\";",
            "k7/8/2K5/8/8/1Q6/8/8 w - - id \"twins d)\"; stip \"#2\";",
        ]
    );
    assert_eq!(
        err,
        "-: line 5, column 16: condition 'Circe' is not played: fairysolve imports orthodox problems only\n\
         -: line 6, column 1: twin c) continues the twin before, which is not imported\n\
         -: line 1, column 1: problem 1: 2 lines imported, the twins above left out\n"
    );
}

/// rules.md 8.4 and 8.6: what Popeye's options ask to be shown comes in as the line's `options`, where the
/// stipulation has it, and solving the imported line shows it: the tries and the set
/// play of a #2, the cap on a help-mate's solutions.
#[test]
fn shown_options_are_asked_of_solve() {
    let battle = line(
        "BeginProblem Pieces White Kc6 Qb1 Black Ka8 Stipulation #2 Option Try SetPlay Defence 2 EndProblem",
    );
    assert!(
        battle.ends_with("stip \"#2\"; options \"tries set-play refutations 2\";"),
        "{battle}"
    );
    let out = run(&["solve", "--threads", "1", "--fen", &battle]);
    let report = text(&out.stdout);
    assert!(
        report.contains("\nset play:\n    1...Ka7 2.Qb7#\n"),
        "{report}"
    );
    assert!(report.contains("\n1.Kc5? Ka7!\n"), "{report}");
    let help = line(
        "BeginProblem Pieces White Kc6 Qb1 Black Ka8 Stipulation h#2 Option SetPlay MaxSolutions 1 EndProblem",
    );
    assert!(
        help.ends_with("stip \"h#2\"; options \"max-solutions 1\";"),
        "{help}"
    );
    let out = run(&["solve", "--json", "--fen", &help]);
    let v = common::json(&out);
    assert_eq!(v["solutions"].as_array().unwrap().len(), 1, "{v}");
    // A line's options are read like every operation: a bad word is located.
    let bad = "k7/8/2K5/8/8/8/8/1Q6 w - - stip \"#2\"; options \"tries trys\";";
    let out = run(&["solve", "--fen", bad]);
    assert_eq!(
        text(&out.stderr),
        "--fen: line 1, column 39: options: 'trys' is not one of tries, set-play, refutations N, max-solutions N, retro\n"
    );
    let meaningless = "k7/8/2K5/8/8/8/8/1Q6 w - - stip \"#2\"; options \"max-solutions 2\";";
    let out = run(&["solve", "--fen", meaningless]);
    assert_eq!(
        text(&out.stderr),
        "--fen: line 1, column 39: options: max-solutions applies to help-mates and proof games, not to #2\n"
    );
}
