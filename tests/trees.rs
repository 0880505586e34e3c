//! Solution trees as composers print them and as scripts read them (formats.md 2): one
//! JSON shape for every game and stipulation, read here by one reader; the text layout
//! of published solutions (forced lines on one line, threats, duals on the attacker's
//! moves, `e.p.`); an Underworld tree that fits on a screen, `--full` for every move.

mod common;

use common::{json, run, text};
use serde_json::Value;

/// One position line of each game and stipulation the tree printer serves.
const LINES: [(&str, &str); 7] = [
    (
        "orthodox #2",
        "n4B1n/1R3P2/5k2/2N3pP/1p2K1B1/2r2Np1/1Q3P2/5R2 w - - dm 2;",
    ),
    (
        "taxi #2",
        "k7/8/3K4/1R6/8/7N/8/2b5 w - - taxi \"3 0\"; dm 2;",
    ),
    (
        "trapdoor #2",
        "4N3/8/2K5/p5k1/7N/1n1Q4/8/8 w - - trapdoor 1; dm 2;",
    ),
    (
        "self-mate s#3",
        "2K3nr/1PPpp2p/3R3p/3pNPkP/3P4/3PP2Q/8/3B4 w - - stip \"s#3\";",
    ),
    (
        "underworld #3",
        "2k5/8/1K6/8/8/8/8/8 w - - underworld \"8/8/4k3/3K4/7Q/8/2n5/8\"; phase WU; dm 3;",
    ),
    (
        "looking-glass #2",
        "6B1/8/8/8/8/8/8/R2K4 w - - mirror \"7k/6pp/8/8/8/8/8/8\"; dm 2;",
    ),
    (
        "earthquake #2",
        "8/k7/8/8/2K2B2/8/3R4/3RQ3 w - - earthquake \"1 0\"; dm 2;",
    ),
];

/// Reads one node of any game's tree, checks its fields, and counts the nodes below
/// it (itself included). Every node has exactly these fields, of these types.
fn read_node(v: &Value, side: &str, count: &mut usize) {
    let node = v.as_object().expect("a tree node is an object");
    let mut fields: Vec<&str> = node.keys().map(|k| k.as_str()).collect();
    fields.sort();
    assert_eq!(
        fields,
        [
            "cash",
            "ends",
            "king_fell",
            "move",
            "next",
            "san",
            "side",
            "threat",
            "truncated",
            "wins_in"
        ],
        "{v}"
    );
    assert!(v["move"].is_string() && v["san"].is_string(), "{v}");
    assert_eq!(v["side"], side, "{v}");
    assert!(v["wins_in"].as_u64().is_some_and(|n| n >= 1), "{v}");
    assert!(v["ends"].is_boolean() && v["truncated"].is_boolean() && v["king_fell"].is_boolean());
    assert!(v["cash"].is_null() || v["cash"].as_array().is_some_and(|c| c.len() == 2));
    let next = v["next"].as_array().expect("next is a list");
    assert!(
        v["ends"] != true || next.is_empty(),
        "a move that ends play: {v}"
    );
    if let Some(threat) = v["threat"].as_array() {
        for t in threat {
            let mut ignored = 0;
            read_node(t, side, &mut ignored);
        }
    } else {
        assert!(v["threat"].is_null(), "{v}");
    }
    *count += 1;
    for n in next {
        // Whoever moves next: the same side may move twice on two boards.
        let s = n["side"].as_str().expect("side");
        read_node(n, s, count);
    }
}

#[test]
fn every_game_writes_one_tree_shape() {
    let mut sizes = Vec::new();
    for (what, line) in LINES {
        let out = run(&["solve", "--json", "--threads", "1", "--fen", line]);
        assert!(out.status.success(), "{what}: {}", text(&out.stderr));
        let v = json(&out);
        let trees = v["tree"].as_object().expect("tree");
        let keys: Vec<&str> = v["keys"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap())
            .collect();
        assert_eq!(
            trees.keys().map(|k| k.as_str()).collect::<Vec<_>>(),
            keys,
            "{what}: one tree per key"
        );
        let mut count = 0;
        for (key, tree) in trees {
            assert_eq!(tree["move"], key.as_str());
            read_node(tree, "white", &mut count);
        }
        sizes.push((what, count));
    }
    // The Paslack #2: the key, 16 defences, 20 continuations (two duals of three).
    assert_eq!(sizes[0], ("orthodox #2", 1 + 16 + 20));
}

#[test]
fn the_json_tree_keeps_threat_cash_and_falls() {
    let run_json =
        |line: &str| -> Value { json(&run(&["solve", "--json", "--threads", "1", "--fen", line])) };
    let paslack = run_json(LINES[0].1);
    let key = &paslack["tree"]["f3e5"];
    assert_eq!(key["threat"][0]["san"], "Ncd7#");
    assert_eq!(key["side"], "white");
    assert_eq!(key["next"][0]["side"], "black");
    // The Earthquake #2 is a zugzwang: a threat sought, none found.
    let eq = run_json(LINES[6].1);
    let key = eq["tree"].as_object().unwrap().values().next().unwrap();
    assert_eq!(key["threat"], serde_json::json!([]), "{key}");
    let taxi = run_json(LINES[1].1);
    let key = taxi["tree"].as_object().unwrap().values().next().unwrap();
    assert!(key["cash"].is_array(), "{key}");
    let trapdoor = run_json(LINES[2].1);
    let fell = trapdoor.to_string().contains("\"king_fell\":true");
    assert!(fell, "{trapdoor}");
}

/// An Underworld #3 in rounds: after each defence White must move its Underworld King,
/// and every choice mates alike; they are shown once with the count of the others.
#[test]
fn underworld_tree_folds_the_obligatory_moves() {
    let line = LINES[4].1;
    let out = run(&["solve", "--threads", "1", "--fen", line]);
    let report = text(&out.stdout);
    assert!(
        report.contains("\n            2...U:Nc2-a1 2.U:Ke6-d5 (or 7 others alike) 3.Qd8#\n"),
        "{report}"
    );
    // No defence carries a dual mark; the attacker's duals do.
    assert!(!report.contains("...(K@a8) (dual)"), "{report}");
    assert!(report.contains("\n        2.Qd2 (dual) Kb8\n"), "{report}");
    let folded = report.len();
    let out = run(&["solve", "--threads", "1", "--full", "--fen", line]);
    let full = text(&out.stdout);
    assert!(!full.contains("alike"), "{full}");
    assert!(
        full.contains(", 2.U:Ke6-e7 3.Qd8#, 2.U:Ke6-f7 3.Qd8# (dual)\n"),
        "{full}"
    );
    assert!(full.len() > 3 * folded, "{folded} {}", full.len());
    // The JSON keeps every move: under 2...U:Nc2-a1 the eight King moves.
    let out = run(&["solve", "--json", "--threads", "1", "--fen", line]);
    let v = json(&out);
    let key = v["tree"].as_object().unwrap().values().next().unwrap();
    let after_qd2 = &key["next"][0]["next"][0];
    assert_eq!(after_qd2["san"], "Qd2");
    let nc2a1 = &after_qd2["next"][0]["next"][0];
    assert_eq!(nc2a1["san"], "U:Nc2-a1");
    assert_eq!(nc2a1["next"].as_array().unwrap().len(), 8);
}

/// A self-mate prints as it is published: each forced line on one line, the defender's
/// mate included, the threat after the key.
#[test]
fn self_mate_lines_read_as_published() {
    let out = run(&["solve", "--threads", "1", "--fen", LINES[3].1]);
    let report = text(&out.stdout);
    assert!(
        report.contains("\n1.f6! zugzwang\n    1...Nxf6#\n"),
        "{report}"
    );
    assert!(
        report.contains("\n    1...exd6 2.Nf3+ Kxf6 3.Qxd7 Ne7#\n"),
        "{report}"
    );
    let petkov = "8/4B3/3Rp2p/2Nbk1pP/1Qp2pKn/1N3P1P/3R4/8 w - - stip \"s#4\";";
    let out = run(&["solve", "--threads", "1", "--fen", petkov]);
    let report = text(&out.stdout);
    assert!(report.contains("\n1.Na5! threat: 2.Nc6+\n"), "{report}");
    assert!(
        report.contains("\n    1...Ng2 2.Nc6+ Bxc6 3.Nd7+ Bxd7 4.R6d5+ exd5#\n"),
        "{report}"
    );
}

/// An en passant capture is written `e.p.`, in the tree and the summary; the JSON keys
/// stay coordinates.
#[test]
fn en_passant_is_marked() {
    let line = "8/1K6/8/k2pP2R/8/1Q6/8/8 w - d6 dm 1;";
    let out = run(&["solve", "--threads", "1", "--fen", line]);
    let report = text(&out.stdout);
    assert!(report.contains("\n1.exd6 e.p.#!\n"), "{report}");
    assert!(report.contains("\nkey: exd6 e.p.# · "), "{report}");
    let out = run(&["solve", "--keys-only", "--threads", "1", "--fen", line]);
    assert!(text(&out.stdout).contains("\nkey: exd6 e.p.# · "));
    let out = run(&["solve", "--json", "--fen", line]);
    let v = json(&out);
    assert_eq!(v["keys"], serde_json::json!(["e5d6"]));
}

/// An Underworld help-mate whose last turn is a King taking the other King (rules.md
/// 4e): the defender's placement of its King belongs to White's turn and lets the mate
/// stand, so it closes the line with the mate sign.
#[test]
fn a_kings_placement_closes_the_capturers_turn() {
    let line =
        "K7/8/8/8/8/8/k7/2Q5 w - - underworld \"8/6Kk/7R/7R/8/7p/7p/8\"; phase WU; stip \"h#1.5\";";
    let out = run(&["solve", "--threads", "1", "--fen", line]);
    let report = text(&out.stdout);
    assert!(
        report.contains("\n1...U:Kg7-f7 / Qc2+ 2.Ka1 / U:Kh7-g6 U:Kf7xg6(=Rh1@W)+ (K@a8)#\n"),
        "{report}"
    );
    assert!(
        report.contains("\n1...U:Kg7-f7 / Qc2+ 2.Ka1 / U:h2-h1 U:Rh6xh7(=Rh1@W)#\n"),
        "{report}"
    );
}
