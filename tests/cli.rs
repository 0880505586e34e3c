//! The command line as scripts use it (formats.md section 2): exit codes, located
//! messages, bad lines that do not stop the others, and the JSON fields.

mod common;

use common::{json, run, run_with_stdin as run_stdin, text};

#[test]
fn perft_json_and_divide() {
    let out = run(&[
        "perft",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "--depth",
        "3",
        "--json",
        "--divide",
    ]);
    assert!(out.status.success());
    let v = json(&out);
    assert_eq!(v["nodes"], 8902);
    assert_eq!(v["depth"], 3);
    assert_eq!(v["divide"]["e2e4"], 600);
    assert_eq!(v["divide"].as_object().unwrap().len(), 20);
}

#[test]
fn perft_file_checks_expected_counts() {
    let good = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 400\n";
    assert!(run_stdin(&["perft", "-"], good).status.success());
    let bad = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 401\n";
    let out = run_stdin(&["perft", "-"], bad);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("-:1: depth 2: expected 401, counted 400"));
}

#[test]
fn solve_json_fields() {
    let line = "n4B1n/1R3P2/5k2/2N3pP/1p2K1B1/2r2Np1/1Q3P2/5R2 w - - dm 2; id \"paslack\";";
    let out = run(&["solve", "--json", "--threads", "1", "--fen", line]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v = json(&out);
    assert_eq!(v["id"], "paslack");
    assert_eq!(v["status"], "solved");
    assert_eq!(v["stip"], "#2");
    assert_eq!(v["keys"], serde_json::json!(["f3e5"]));
    assert_eq!(v["shortest"], 2);
    assert_eq!(v["cooked"], false);
    assert_eq!(v["error"], serde_json::Value::Null);
    assert_eq!(v["threads"], 1);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert_eq!(v["tree"]["f3e5"]["move"], "f3e5");
    assert!(v["tree"]["f3e5"]["next"].as_array().unwrap().len() > 3);
    assert_eq!(v["complete"], true);
    // A #2 is searched on one thread whatever is asked, and says so.
    let out = run(&["solve", "--json", "--threads", "2", "--fen", line]);
    let v = json(&out);
    assert_eq!(v["threads"], 1);
    // Cooked under Trapdoor T = 1 (the key piece falls unless it mates): a tree per key.
    let cooked = line.replace("dm 2;", "dm 2; trapdoor 1;");
    let out = run(&["solve", "--json", "--threads", "1", "--fen", &cooked]);
    let v = json(&out);
    assert_eq!(v["keys"], serde_json::json!(["e4d4", "f3e5", "c5e6"]));
    assert_eq!(v["cooked"], true);
    let trees = v["tree"].as_object().unwrap();
    assert_eq!(trees.len(), 3);
    for key in ["e4d4", "f3e5", "c5e6"] {
        assert_eq!(trees[key]["move"], key);
    }
    let out = run(&["solve", "--json", "--keys-only", "--fen", line]);
    assert_eq!(json(&out)["tree"], serde_json::json!({}));
}

#[test]
fn a_bad_line_does_not_stop_the_others() {
    let file = "\
# two good problems around three bad lines
7k/7p/4N3/8/8/8/8/R5K1 w - - trapdoor 1; timers \"e6:1\"; dm 1;
7k/7p/4N3/8/8/8/8/R5K1 w - - trapdor 1; dm 1;
7k/7p/4N3/8/8/8/8/R5K1R w - - dm 1;
7k/7p/4N3/8/8/8/8/R5K1 w - - mirror \"8/8/8/8/8/8/8/8\"; ep_board M; dm 1;
R2N3k/6pp/8/8/8/8/P7/6K1 w - - trapdoor 1; timers \"d8:1\"; dm 1;
";
    // On two threads the positions are solved at once, and still reported in order.
    for threads in ["1", "2"] {
        a_bad_line_does_not_stop_the_others_on(file, threads);
    }
}

fn a_bad_line_does_not_stop_the_others_on(file: &str, threads: &str) {
    let out = run_stdin(&["solve", "--json", "--threads", threads, "-"], file);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let objs: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objs.len(), 5);
    assert_eq!(objs[0]["keys"], serde_json::json!(["a1a8"]));
    assert_eq!(objs[1]["status"], "error");
    // An error line carries every field of formats.md 2, as a solved one does.
    for field in [
        "id", "source", "stip", "status", "keys", "shortest", "cooked", "error", "tree", "nodes",
        "millis", "threads", "complete",
    ] {
        assert!(objs[1].get(field).is_some(), "{field} missing: {}", objs[1]);
        assert!(objs[0].get(field).is_some(), "{field} missing: {}", objs[0]);
    }
    assert_eq!(
        objs[1]["error"],
        "-: line 3, column 30: unknown operation 'trapdor'"
    );
    assert_eq!(
        objs[2]["error"],
        "-: line 4, column 19: rank 1 has 9 squares"
    );
    assert_eq!(
        objs[3]["error"],
        "-: line 5, column 56: ep_board: only with an en passant square"
    );
    assert_eq!(objs[4]["status"], "solved");
    assert_eq!(objs[4]["keys"].as_array().unwrap().len(), 13);
}

/// A file solved on two threads (its positions at once) reads as on one: the same
/// report line for line, but for the figures of nodes, time and threads.
#[test]
fn a_file_reads_the_same_on_one_thread_and_on_two() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/positions/orthodox/threemovers.epd"
    );
    let report = |threads| {
        let out = run(&["solve", "--tries", "--threads", threads, file]);
        assert_eq!(out.status.code(), Some(0));
        text(&out.stdout)
            .lines()
            .map(|l| l.split(" · ").next().unwrap_or("").to_string())
            .collect::<Vec<_>>()
    };
    let one = report("1");
    assert!(one.len() > 1000);
    assert_eq!(one, report("2"));
}

/// formats.md 2: "2 for a wrong command line", with the reason in words.
#[test]
fn wrong_command_line_exits_2() {
    let fen = "8/8/8/8/8/8/8/K6k w - -";
    for (args, says) in [
        (&["solve", "--no-such-flag"][..], "--no-such-flag"),
        (&["frobnicate"][..], "frobnicate"),
        // No position to work on.
        (&["solve"][..], "<FILES|--fen <FEN>>"),
        (&["perft", "--depth", "1"][..], "<FILES|--fen <FEN>>"),
        (&["retro"][..], "<FILES|--fen <FEN>>"),
        (&["show"][..], "<FILES|--fen <FEN>>"),
        // Values no search can take.
        (
            &["solve", "--fen", fen, "--time-limit", "0"][..],
            "positive number of seconds",
        ),
        (
            &["solve", "--fen", fen, "--time-limit=-1"][..],
            "positive number of seconds",
        ),
        (
            &["solve", "--fen", fen, "--time-limit", "nan"][..],
            "positive number of seconds",
        ),
        (
            &["solve", "--fen", fen, "--time-limit", "1e20"][..],
            "positive number of seconds",
        ),
        (&["solve", "--fen", fen, "--depth", "0"][..], "1..=30"),
        (&["perft", "--fen", fen, "--depth", "13"][..], "0..=12"),
        (&["solve", "--fen", fen, "--depth", "31"][..], "1..=30"),
        (&["solve", "--fen", fen, "--stip", "#0"][..], "1..=30"),
        (
            &["solve", "--fen", fen, "--stip", "2"][..],
            "#N, h#N, h#N.5 or s#N",
        ),
        (&["solve", "--fen", fen, "--hash", "0"][..], "1..=65536"),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(says),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

/// The text report names what composers look for: a key that threatens nothing
/// (zugzwang), the key that wins sooner than stipulated, and a dual among continuations
/// that are not mates at once.
#[test]
fn solution_text_names_zugzwang_short_keys_and_duals() {
    let loyd = "5B2/3n4/2Ppp3/3kN1Q1/1R6/3P4/2K5/8 w - - dm 2;";
    let out = run(&["solve", "--threads", "1", "--fen", loyd]);
    let report = text(&out.stdout);
    assert!(report.contains("\n1.Qd8! zugzwang\n"), "{report}");
    let cooked = "2R5/8/8/6K1/8/6k1/8/1Q6 w - - dm 3;";
    let out = run(&["solve", "--threads", "1", "--fen", cooked]);
    let report = text(&out.stdout);
    assert!(
        report.contains("\n1.Qc2! (short: wins in 2) threat: 2.Rc3#\n"),
        "{report}"
    );
    assert!(
        report.contains("\n1.Rc3+!\n    1...Kf2\n        2.Qa2+ (dual)\n"),
        "{report}"
    );
    // A checking key is not a zugzwang, nor is a key with a threat.
    let keys = report.lines().filter(|l| l.starts_with("1."));
    assert!(keys.clone().count() == 11 && keys.clone().all(|l| !l.contains("zugzwang")));
    // Below a key, a quiet continuation without a threat is one too.
    assert!(
        report.contains("\n    1...Kf2 2.Kg4 zugzwang\n"),
        "{report}"
    );
}

/// rules.md 2: income is received before the start of one's turn, so the threat (what
/// the attacker plays if the defender could pass) is paid from the cash plus income.
/// After 1.Ka3 White holds 4, and 6 at its next turn: a rook step of 1 leaves 5, and 7
/// with the income, enough for the bishop's discovered check h8-a1 (7 squares). Without
/// the income only 2.Ra4# would be left; with it that is no check (a3 is blocked).
#[test]
fn taxi_threat_is_paid_with_the_income() {
    let line = "7B/7p/8/8/3R4/1K6/3N4/k7 w - - taxi \"5 0\"; dm 2;";
    let out = run(&["solve", "--json", "--threads", "1", "--fen", line]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v = json(&out);
    let ka3 = &v["tree"]["b3a3"];
    assert!(ka3.is_object(), "1.Ka3 is a key");
    let mut threat: Vec<&str> = ka3["threat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["move"].as_str().unwrap())
        .collect();
    threat.sort();
    assert_eq!(threat, ["d4c4", "d4d3", "d4d5", "d4e4"]);
}

#[test]
fn missing_file_is_reported_and_others_still_run() {
    let out = run(&[
        "perft",
        "/no/such/file.epd",
        "--fen",
        "8/8/8/8/8/8/8/K6k w - -",
        "--depth",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("/no/such/file.epd: cannot read"));
    assert!(text(&out.stdout).contains("depth 1: 3 nodes"));
}

#[test]
fn replay_prints_falls_and_a_readable_final_line() {
    let out = run(&[
        "replay",
        "--trapdoor",
        "5",
        "1.e4 e5 2.Nf3 Nf6 3.Ng1 Ng8 4.Nf3 Nf6 5.Ng1 Ng8 6.Qe2",
    ]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(stdout.contains("6.Qe2 (e4:e4)\n"), "{stdout}");
    let last = stdout.lines().last().unwrap();
    assert!(
        last.contains("trapdoor 5;") && last.contains("e5:1"),
        "{last}"
    );
    // The final line is read back by the other commands.
    let again = run(&["perft", "--fen", last, "--depth", "1"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    // An illegal move is reported with its number as the listing writes it, with the
    // legal moves of the man it names, and the position reached so far.
    let bad = run(&["replay", "--trapdoor", "5", "1.e4 e5 2.Ke3"]);
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(
        text(&bad.stderr),
        "2.Ke3: 'Ke3' is not a legal move here; White's legal king moves: Ke2\n"
    );
    let bad = run(&[
        "replay", "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "b5", "Bxf7",
    ]);
    assert_eq!(
        text(&bad.stderr),
        "5.Bxf7: 'Bxf7' is not a legal move here; White's legal bishop moves: Bb3, Bxb5\n"
    );
    let bad = run(&["replay", "e4", "e2e3"]);
    assert_eq!(
        text(&bad.stderr),
        "1...e2e3: 'e2e3' is not a legal move here; there is no Black man on e2\n"
    );
}

/// A search stopped by the time limit reports what it proved, exit status 1: the
/// undecided first moves in JSON, and by name in the text report, which does not call
/// the problem keyless (`keys: none proved`).
#[test]
fn time_limit_reports_what_was_proved() {
    // A #5 that takes far longer than 50 ms: stopped, with status timeout.
    let line = "1b3q1n/2pb2r1/4P3/r3pp2/3PP2p/P1NkPNP1/Q2B4/R3K2R w KQ - dm 5;";
    let solve_stopped = |json: bool| {
        let mut args = vec![
            "solve",
            "--threads",
            "1",
            "--time-limit",
            "0.05",
            "--fen",
            line,
        ];
        if json {
            args.push("--json");
        }
        let out = run(&args);
        assert_eq!(out.status.code(), Some(1));
        out
    };
    let v = json(&solve_stopped(true));
    assert_eq!(v["status"], "timeout");
    assert!(!v["undecided"].as_array().unwrap().is_empty());
    let stdout = text(&solve_stopped(false).stdout);
    let stopped = stdout
        .lines()
        .find(|l| l.starts_with("stopped before the proof was complete: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    let (count, moves) = stopped
        .trim_start_matches("stopped before the proof was complete: ")
        .split_once(" undecided: ")
        .unwrap();
    let n: usize = count.split(' ').next().unwrap().parse().unwrap();
    assert_eq!(moves.split(' ').count(), n, "{stopped}");
    assert!(stdout.contains("keys: none proved · "), "{stdout}");
}

/// formats.md 2: `retro --json` gives the fields scripts read, one object per position;
/// a bad line is reported with its location and the others are still analysed.
#[test]
fn retro_json_fields_and_bad_lines() {
    let input = "8/8/3r4/4K3/8/4kqpb/8/8 b - - 0 1\n\
                 this is not a position\n\
                 k7/8/8/8/8/8/6p1/r6K w - - 0 1\n\
                 k7/8/8/8/8/8/6p1/r6K w - - 0 1 trapdoor 1;\n";
    let out = run_stdin(&["retro", "--json", "-"], input);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a bad line makes the exit status 1"
    );
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["legal"], true);
    assert_eq!(lines[0]["last_moves"], serde_json::json!(["f5e5"]));
    assert_eq!(lines[0]["last_moves_long"], serde_json::json!(["Kf5xNe5"]));
    assert_eq!(lines[0]["ticking"], serde_json::json!([]));
    assert_eq!(lines[0]["complete"], true);
    // An error line carries every field of a verdict, as solve's do.
    for field in lines[0].as_object().unwrap().keys() {
        assert!(
            lines[1].get(field).is_some(),
            "{field} missing: {}",
            lines[1]
        );
    }
    assert_eq!(lines[0]["error"], serde_json::Value::Null);
    assert_eq!(lines[1]["complete"], false);
    assert_eq!(lines[1]["source"], "-:2");
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .starts_with("-: line 2, column 1: "));
    assert_eq!(lines[2]["legal"], false);
    assert_eq!(
        lines[2]["illegal_reasons"][0],
        "White is in check from Ra1 and Pg2, which no last move can have given"
    );
    assert_eq!(lines[3]["legal"], true);
    assert_eq!(
        lines[3]["ticking"][0]["square"]
            .as_str()
            .zip(lines[3]["ticking"][0]["r"].as_array().map(|a| a.len())),
        Some(("g2", 1))
    );
}

/// rules.md 6: retro plays every single-board game, a Taxi diagram and a Trapdoor one in
/// the falls-first order among them.
#[test]
fn retro_plays_every_single_board_game() {
    let taxi = run(&[
        "retro",
        "--fen",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 taxi \"2 2\";",
    ]);
    assert_eq!(taxi.status.code(), Some(0));
    assert!(text(&taxi.stdout).contains("legal (Taxi income 2, 4 half-moves searched)"));
    let falls_first = run(&[
        "retro",
        "--fen",
        "4k3/3p4/8/8/8/8/8/Q4K2 w - - 0 1 trapdoor 1; trapdoor_order falls-first;",
    ]);
    assert_eq!(falls_first.status.code(), Some(0));
    assert!(text(&falls_first.stdout).contains("ticking: Ke8 r=1"));
}

/// rules.md 6.3 on two boards (sections 4 and 5): the men are counted over both boards and
/// the Underworld's reserve (the readers make the other checks), and the report says
/// that the history is not analysed.
#[test]
fn retro_on_two_boards_counts_the_men_and_says_what_it_leaves() {
    let out = run(&[
        "retro",
        "--fen",
        "4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - underworld \"4k3/8/8/8/8/8/8/4K3\"; reserve \"P\";",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "--fen: illegal (Underworld: the position alone)\n  illegal: White has 9 pawns (at most 8)\n  not analysed on two boards: the history (last moves, men that moved)\n"
    );
    // The Underworld Kings are not among the 16.
    let full =
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - underworld \"4k3/8/8/8/8/8/8/4K3\";";
    let v = json(&run(&["retro", "--json", "--fen", full]));
    assert_eq!(v["legal"], true);
    assert_eq!(v["history"], "not analysed");
    assert_eq!(v["last_moves"], serde_json::json!([]));
    let glass = run(&[
        "retro",
        "--fen",
        "QQQk4/8/8/8/8/8/PPPPPPPP/4K3 w - - mirror \"8/8/8/8/8/8/8/8\";",
    ]);
    assert!(text(&glass.stdout).contains(
        "illegal: White has more men than its original set by 2 (bishops counted together), but pawns missing to promote: 0"
    ));
}

/// rules.md 6.2: a line's `options "retro"` applies the proof as `--retro` does; it is
/// refused where it is written on a line retro-analysis cannot serve (a help-mate, a
/// two-board game).
#[test]
fn a_line_can_ask_for_retro_analysis() {
    let line =
        "8/p7/8/8/8/5K2/6Q1/1k6 w - - trapdoor 1; earthquake \"1 0\"; dm 2; options \"retro\";";
    let v = json(&run(&["solve", "--fen", line, "--json"]));
    assert_eq!(v["keys"], serde_json::json!(["g2d2"]));
    assert_eq!(v["retro"]["ticking"][0]["square"], "b1");
    let help = run(&[
        "solve",
        "--fen",
        "8/p7/8/8/8/5K2/6Q1/1k6 w - - trapdoor 1; stip \"h#2\"; options \"retro\";",
    ]);
    assert_eq!(help.status.code(), Some(1));
    assert!(
        text(&help.stderr).contains("line 1, column 54: options: retro applies to #N, not to h#2")
    );
    let underworld = run(&[
        "solve",
        "--fen",
        "7k/5Kp1/8/8/8/8/8/8 w - - underworld \"8/8/7k/8/7R/8/8/4K3\"; phase WU; dm 1; options \"retro\";",
    ]);
    assert_eq!(underworld.status.code(), Some(1));
    assert!(text(&underworld.stderr).contains(
        "line 1, column 77: options: retro-analysis covers the single-board games, not this one"
    ));
}

/// rules.md 6.2: `solve --retro` solves with the proved timers; the key exists only
/// because the black king moved last (a7 never moved) and must move on or fall.
#[test]
fn solve_retro_applies_the_proof() {
    let line = "8/p7/8/8/8/5K2/6Q1/1k6 w - - 0 1 trapdoor 1; dm 2;";
    let plain = run(&["solve", "--fen", line, "--json"]);
    let v = json(&plain);
    assert_eq!(v["keys"], serde_json::json!([]));
    let retro = run(&["solve", "--fen", line, "--json", "--retro"]);
    let v = json(&retro);
    assert_eq!(v["keys"], serde_json::json!(["g2d2"]));
    assert_eq!(v["retro"]["ticking"][0]["square"], "b1");
    let human = run(&["solve", "--fen", line, "--retro"]);
    assert!(text(&human.stdout).contains("retro: Kb1 ticking r=1"));
    // Several r values: every assignment is solved and the keys are those of all.
    let multi = run(&[
        "solve",
        "--fen",
        "7k/1p4pp/p7/8/8/4P1P1/PP1P1P1P/KRB5 w - - 0 1 trapdoor 2; dm 2;",
        "--retro",
    ]);
    let out = text(&multi.stdout);
    assert!(out.contains("2 timer assignments, each solved"), "{out}");
    assert!(
        out.contains("-- timers h8:1") && out.contains("-- timers h8:2"),
        "{out}"
    );
    assert!(out.contains("keys in every timer assignment:"), "{out}");
    // An illegal diagram is refused by name.
    let bad = run(&[
        "solve",
        "--fen",
        "k7/8/8/8/8/8/6p1/r6K w - - 0 1 dm 1;",
        "--retro",
    ]);
    assert_eq!(bad.status.code(), Some(1));
}

/// `perft FILE` reports every line it cannot check, located, and checks the others.
#[test]
fn perft_file_names_bad_counts() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let file = format!(
        "{start} ;D1 20 ;D2 4x0\n{start} ;D1 20 ;D13 1\nrnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20\n{start} ;D1 20 ;D3 8902\n"
    );
    let out = run_stdin(&["perft", "-"], &file);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    for says in [
        "-: line 1, column 66: D2: a count of nodes expected",
        "-: line 2, column 66: D13: deeper than perft goes (12)",
        "-: line 3, column 14: 'X' is not a piece letter",
    ] {
        assert!(stderr.contains(says), "{says}: {stderr}");
    }
    let stdout = text(&out.stdout);
    assert!(stdout.contains("-:4 depth 3: 8902 nodes"), "{stdout}");
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    // A variant flag joins a line whose last count has no `;` as an operation of its own.
    let out = run_stdin(&["perft", "-", "--earthquake", "1 0"], &file);
    assert!(text(&out.stderr).contains("-:4: depth 3: expected 8902, counted 8901"));
}

/// `show` writes each line back as read (formats.md 1), after a byte-order mark; the
/// two-board games are drawn with both boards side by side, labelled.
#[test]
fn show_writes_the_line_back() {
    let lines = [
        "4k3/8/8/8/8/8/8/4K2R w K - dm 1; id \"x\"; c0 \"src\"; bm Rh8;",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - mirror \"8/8/8/8/8/8/8/8\"; id \"m\";",
        "4k3/8/8/8/8/8/8/4K3 w - - underworld \"4k3/8/8/8/8/8/8/4K3\"; id \"u\";",
    ];
    let out = run_stdin(&["show", "-"], &format!("\u{FEFF}{}\n", lines.join("\n")));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // A byte-order mark inside the file (files joined) is named, not taken for a man.
    let joined = format!("{}\n\u{FEFF}{}\n", lines[0], lines[0]);
    let bad = run_stdin(&["show", "-"], &joined);
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(
        text(&bad.stderr),
        "-: line 2, column 1: a byte-order mark (U+FEFF, invisible) stands here inside the file (joined from files that each began with one?); remove it\n"
    );
    let stdout = text(&out.stdout);
    for line in lines {
        assert!(stdout.lines().any(|l| l == line), "{line}: {stdout}");
    }
    assert!(
        stdout.contains("Real                       Mirror"),
        "{stdout}"
    );
    assert!(
        stdout.contains("World                      Underworld"),
        "{stdout}"
    );
    assert!(
        stdout.contains("phase WW (White to move on the World)"),
        "{stdout}"
    );
}

/// `bench` on a small suite beside a stand-in peer: the suite is solved several times
/// over in each timed run (`2xN` lines), the peer's time is set against ours, and its
/// key sets are compared: equal, exit 0; different, a message naming the suite and
/// exit 1.
#[cfg(unix)]
#[test]
fn bench_compares_key_sets_with_a_peer() {
    let dir = std::env::temp_dir().join(format!("fairysolve-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let suite = dir.join("suite.epd");
    let lines: Vec<&str> = include_str!("../positions/orthodox/twomovers.epd")
        .lines()
        .filter(|l| l.contains("orthodox-2mover-01") || l.contains("orthodox-2mover-02"))
        .collect();
    std::fs::write(&suite, lines.join("\n")).unwrap();
    let peer = |name: &str, keys_01: &str| {
        common::fake_peer(
            &dir.join(name),
            "2mover-01",
            &format!("keys: {keys_01} time: 0.25"),
            "keys: d4f5 time: 0.25",
        )
    };
    let (right, wrong) = (peer("right.sh", "f3e5"), peer("wrong.sh", "a1a2"));
    let suite = suite.to_string_lossy().into_owned();
    let bench = |peer: &str| {
        run(&[
            "bench",
            "--no-perft",
            "--no-retro",
            "--threads",
            "2",
            "--peer",
            peer,
            &suite,
        ])
    };
    let out = bench(&right);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let row = stdout
        .lines()
        .find(|l| l.starts_with(&suite))
        .unwrap_or_else(|| panic!("no row for the suite in {stdout}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert!(cells[1].starts_with("2x"), "{row}");
    // The peer reported 0.25 s a line: 500 ms in all, thousands of times ours.
    assert_eq!(cells[cells.len() - 2], "500ms", "{row}");
    assert!(cells[cells.len() - 1].ends_with('x'), "{row}");

    let out = bench(&wrong);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains(&format!(
            "{suite}: the peer's key sets differ on 1 positions"
        )),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// rules.md 8.6: `--max-solutions N` stops help play after N solutions and says so; the
/// solutions it lists are solutions. 0 is refused with a message.
#[test]
fn rule_8_6_max_solutions_stops_and_says_so() {
    let line = "k7/1p6/8/8/8/2K5/7R/Q7 b - - stip \"h#2\";\n";
    let out = run_stdin(&["solve", "--max-solutions", "1", "-"], line);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "1.Kb8 Rh7 2.Kc8 Qa8#\nstopped after 1 solution (--max-solutions): there may be more\n1 solution ·"
        ),
        "{stdout}"
    );
    let out = run_stdin(&["solve", "--json", "--max-solutions", "1", "-"], line);
    let v = json(&out);
    assert_eq!(v["status"], "stopped");
    assert_eq!(v["max_solutions_reached"], true);
    assert_eq!(
        v["solutions"],
        serde_json::json!([["a8b8", "h2h7", "b8c8", "a1a8"]])
    );
    // Not with another stipulation: refused, not ignored.
    let out = run_stdin(
        &["solve", "--max-solutions", "2", "-"],
        "k7/8/1K6/8/8/8/8/6Q1 w - - stip \"#1\";\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains(
            "#1: --max-solutions applies to help-mates (h#N, h#N.5) and proof games only"
        ),
        "{}",
        text(&out.stderr)
    );
    for bad in ["0", "-1", "x"] {
        let arg = format!("--max-solutions={bad}");
        let out = run_stdin(&["solve", &arg, "-"], line);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains(&format!(
                "'{bad}' is not a number of solutions: a whole number of at least 1 expected"
            )),
            "{}",
            text(&out.stderr)
        );
    }
}

/// A help-mate too deep for the time given stops at the limit with what it proved and
/// how far it got (exit status 1), within about a second.
#[test]
fn a_deep_help_mate_obeys_the_time_limit() {
    let line = "5B2/2p1p3/1p2pp1b/5P1b/2p1k2q/6rp/p3B1P1/R3K3 b Q - stip \"h#6\";\n";
    let start = std::time::Instant::now();
    let out = run_stdin(
        &["solve", "--threads", "1", "--time-limit", "0.5", "-"],
        line,
    );
    assert!(start.elapsed().as_secs_f64() < 5.0, "{:?}", start.elapsed());
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("stopped before the search was complete (time limit): ")
            && stdout.contains(" moves searched; the solutions listed are those found"),
        "{stdout}"
    );
}

/// `h#N` and `s#N` lines (rules.md 8.2, 8.3; formats.md 2): every solution of a
/// help-mate as the whole line, the short ones apart; a self-mate's keys as for `#N`.
#[test]
fn rule_8_2_and_8_3_help_and_self_mates_from_the_command_line() {
    let out = run_stdin(
        &["solve", "--json", "-"],
        "7k/8/6K1/8/8/8/8/Q7 b - - stip \"h#1\";\n5q2/8/5R2/7B/7n/8/7R/k6K w - - stip \"s#1\";\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let objs: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objs[0]["stip"], "h#1");
    assert_eq!(
        objs[0]["solutions"],
        serde_json::json!([["h8g8", "a1a8"], ["h8g8", "a1g7"]])
    );
    assert_eq!(objs[0]["keys"], serde_json::json!(["h8g8"]));
    assert_eq!(objs[1]["stip"], "s#1");
    assert_eq!(objs[1]["keys"], serde_json::json!(["f6f1"]));
    let out = run_stdin(&["solve", "-"], "7k/8/6K1/8/8/8/8/Q7 b - - stip \"h#1\";\n");
    let stdout = text(&out.stdout);
    assert!(
        // Printed as they are proved, in the order of the move generator.
        stdout.contains("1.Kg8 Qg7#\n1.Kg8 Qa8#\n2 solutions"),
        "{stdout}"
    );
    // h#N starts with Black: a line with White to move is refused with the reason.
    let out = run_stdin(
        &["solve", "-"],
        "7k/8/6K1/8/8/8/8/1Q6 w - - stip \"h#1\";\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr)
            .contains("h#1: Black moves first (rules.md 8.2), but the line has White to move"),
        "{}",
        text(&out.stderr)
    );
}

/// `--set-play` (rules.md 8.4): the diagram as if Black were to move, each Black move
/// with White's answers that mate in N - 1; pinned men stay pinned there.
#[test]
fn rule_8_4_set_play_is_shown_before_the_solution() {
    let demo = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/positions/examples/demo.epd"
    ))
    .unwrap();
    let paslack = demo.lines().find(|l| l.contains("Paslack")).unwrap();
    let out = run_stdin(
        &["solve", "--set-play", "--json", "-"],
        &format!("{paslack}\n"),
    );
    let v = json(&out);
    assert_eq!(
        v["set_play"],
        serde_json::json!({"a8b6": [], "a8c7": [], "b4b3": ["b2c3"], "g3f2": [], "g3g2": [], "h8f7": ["c5d7"], "h8g6": []})
    );
    let out = run_stdin(&["solve", "--set-play", "-"], &format!("{paslack}\n"));
    assert!(
        text(&out.stdout).contains("set play:\n    1...Nb6 (unprovided)\n"),
        "{}",
        text(&out.stdout)
    );
}

/// rules.md 8.4: a set move that itself mates White fulfils an `s#N` at once; it is
/// shown with no reply and is not unprovided (Popeye's battle-play test "s#2 with
/// complete short set play": 1...b2#), and `--json` names it in `set_play_fulfilled`.
#[test]
fn rule_8_4_a_self_mating_set_move_is_provided() {
    let line = "8/8/8/2p3p1/2R3P1/kp6/p7/K7 w - - stip \"s#2\";";
    let out = run(&["solve", "--set-play", "--fen", line]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("set play:\n"), "{stdout}");
    assert!(stdout.contains("    1...b2#\n"), "{stdout}");
    assert!(!stdout.contains("b2# (unprovided)"), "{stdout}");
    let out = run(&["solve", "--set-play", "--json", "--fen", line]);
    let v = json(&out);
    assert_eq!(v["set_play_fulfilled"], serde_json::json!(["b3b2"]));
    assert_eq!(v["set_play"]["b3b2"], serde_json::json!([]));
}

/// formats.md 2: options mean what they say or are refused with a message that says
/// why. `--stip` replaces a line's own stipulation, `--depth` sets N and keeps the aim;
/// `--set-play` where there is no set play, `--retro` on a two-board line, and numbers
/// out of range are refused.
#[test]
fn options_work_where_given_or_are_refused() {
    // The line says #2; --stip "h#1" solves it as a help-mate (1.Kh1 Rg1# style).
    let line = "7k/8/8/8/8/8/6R1/5K2 b - - dm 2;";
    let out = run(&["solve", "--stip", "h#1", "--json", "--fen", line]);
    let v = json(&out);
    assert_eq!(v["stip"], "h#1", "{v}");
    // --depth keeps the aim of --stip and sets N.
    let out = run(&[
        "solve", "--stip", "h#1", "--depth", "2", "--json", "--fen", line,
    ]);
    assert_eq!(json(&out)["stip"], "h#2");
    // --set-play on a help-mate or a one-mover: refused, located at the stipulation.
    let out = run(&[
        "solve",
        "--set-play",
        "--fen",
        "7k/8/8/8/8/8/6R1/5K2 b - - stip \"h#1\";",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("h#1: --set-play applies to #N and s#N with N >= 2"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&[
        "solve",
        "--set-play",
        "--fen",
        "7k/8/6K1/8/8/8/8/R7 w - - dm 1;",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("#1: --set-play applies to #N and s#N with N >= 2"));
    // --retro on an Underworld line: refused, not ignored.
    let under = "2k5/8/1K6/8/8/8/8/8 w - - underworld \"8/8/4k3/3K4/7Q/8/2n5/8\"; phase WU; dm 3;";
    let out = run(&["solve", "--retro", "--fen", under]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("--retro: retro-analysis covers the single-board games"),
        "{}",
        text(&out.stderr)
    );
    // Numbers out of range: clap's message names the range, also for a negative one.
    for (args, says) in [
        (vec!["solve", "--depth", "-3", "--fen", line], "-3"),
        (
            vec!["retro", "--depth", "1000", "--fen", line],
            "1000 is not in 1..=12",
        ),
        (
            vec!["retro", "--nodes", "0", "--fen", line],
            "0 is not in 1..",
        ),
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(says) && !stderr.contains("-- -3"),
            "{args:?}: {stderr}"
        );
    }
}

/// A retro-analysis a node limit leaves incomplete is work not done: exit status 1,
/// with what it proved still reported.
#[test]
fn an_incomplete_retro_analysis_exits_1() {
    let out = run(&[
        "retro",
        "--nodes",
        "1",
        "--trapdoor",
        "2",
        "--fen",
        "r3k2r/8/8/8/4N3/8/8/R3K2R b KQkq - 0 1",
    ]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("incomplete"), "{stdout}");
    assert_eq!(out.status.code(), Some(1), "{stdout}");
}

/// Every reference a user reads resolves inside the repository: the help of every
/// command and the manual pages cite no file the repository lacks, each `rules.md N.M`
/// they cite is a section or a bracketed rule number of docs/rules.md, and each page
/// the main manual page names is one `man` writes.
#[test]
fn help_and_manual_cite_only_what_the_repository_has() {
    let rules =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md")).unwrap();
    let commands = [
        "perft",
        "solve",
        "replay",
        "bench",
        "retro",
        "show",
        "generate",
        "referee",
        "import",
        "serve",
        "completions",
        "man",
    ];
    let mut texts = vec![text(&run(&["--help"]).stdout)];
    for c in commands {
        texts.push(text(&run(&[c, "--help"]).stdout));
        let page = run(&["man", c]);
        assert!(page.status.success(), "man {c}");
        let page = text(&page.stdout);
        assert!(
            page.contains(&format!(".TH fairysolve-{c} 1")),
            "man {c}: {}",
            &page[..page.len().min(200)]
        );
        texts.push(page);
    }
    let main_page = text(&run(&["man"]).stdout);
    for c in commands {
        assert!(
            main_page.contains(&format!("fairysolve\\-{c}(1)")),
            "the main page names fairysolve-{c}(1)"
        );
    }
    texts.push(main_page);
    for t in &texts {
        assert!(!t.contains("formats.md"), "{t}");
        for (i, _) in t.match_indices("rules.md ") {
            let number: String = t[i + 9..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let number = number.trim_end_matches('.');
            let section = format!("\n## {number}. ");
            let bracketed = [")", ",", "-", ";", ":"].map(|end| format!("({number}{end}"));
            assert!(
                !number.is_empty()
                    && (rules.contains(&section)
                        || bracketed.iter().any(|s| rules.contains(s.as_str()))),
                "rules.md {number} is no section of docs/rules.md"
            );
        }
    }
    // `man --dir` writes the main page and one page per command.
    let dir = std::env::temp_dir().join(format!("fairysolve-man-{}", std::process::id()));
    let out = run(&["man", "--dir", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut written: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    let mut want: Vec<String> = commands
        .iter()
        .map(|c| format!("fairysolve-{c}.1"))
        .chain(["fairysolve.1".to_string()])
        .collect();
    want.sort();
    assert_eq!(written, want);
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(&["man", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("man: no command 'nope'; the commands are perft, solve,"));
}
