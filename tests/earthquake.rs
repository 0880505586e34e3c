//! The Earthquake board (rules.md section 3): the examples of the text, an independent
//! cell-by-cell move generator as an oracle for perft on displaced boards, the (0,0)
//! board against FIDE, and left-right mirror symmetry.

mod common;

use common::earthquake_oracle::{oracle_from, oracle_start};
use common::problem;
use fairysolve::game::AnyGame;
use fairysolve::Position;

fn moves_from(line: &str, from: &str) -> Vec<String> {
    let p = problem(line);
    let mut v: Vec<String> = p
        .game
        .legal_moves(&p.position)
        .iter()
        .filter(|m| m.from.to_string() == from)
        .map(|m| m.coord(false).to_string())
        .collect();
    v.sort();
    v.dedup();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn rule_3_2_the_rook_from_a1_on_1_0() {
    // a2, a3, a4, then b5, b6, ...; along the rank b1..h1; nothing to the left (void).
    let got = moves_from("7k/8/8/8/8/8/8/R6K w - - earthquake \"1 0\";", "a1");
    assert_eq!(
        got,
        sorted(&[
            "a1a2", "a1a3", "a1a4", "a1b5", "a1b6", "a1b7", "a1b8", "a1b1", "a1c1", "a1d1", "a1e1",
            "a1f1", "a1g1"
        ])
    );
}

#[test]
fn rule_3_2_bishops_change_colour_across_the_seam() {
    // On (1,0): c3-b4-b5-a6 and c1-d2-e3-f4-h5.
    let c3 = moves_from("k7/8/8/8/8/2B5/8/7K w - - earthquake \"1 0\";", "c3");
    for t in ["c3b4", "c3b5", "c3a6"] {
        assert!(c3.contains(&t.to_string()), "{t} in {c3:?}");
    }
    let c1 = moves_from("k7/8/8/8/8/8/8/2B4K w - - earthquake \"1 0\";", "c1");
    for t in ["c1d2", "c1e3", "c1f4", "c1h5"] {
        assert!(c1.contains(&t.to_string()), "{t} in {c1:?}");
    }
    assert!(!c1.contains(&"c1g5".to_string()));
}

#[test]
fn rule_3_5_promotion_by_name_on_8_4() {
    // a3 sits just below a4 and diagonally below h8: a3xh8 promotes, a3-a4 does not.
    let got = moves_from("k6r/8/8/8/8/P7/8/7K w - - earthquake \"8 4\";", "a3");
    assert_eq!(got, sorted(&["a3a4", "a3h8b", "a3h8n", "a3h8q", "a3h8r"]));
}

#[test]
fn rule_3_3_and_3_5_no_rank_5_on_0_1_and_the_double_step_e7_e4() {
    let p = problem("4k3/4p3/8/8/8/8/8/4K3 b - - earthquake \"0 1\";");
    let squares = p.game.squares(&p.position);
    for f in 0..8 {
        assert!(!squares.contains(fairysolve::Square::from_coords(f, 4)));
    }
    let got = moves_from("4k3/4p3/8/8/8/8/8/4K3 b - - earthquake \"0 1\";", "e7");
    assert_eq!(got, sorted(&["e7e6", "e7e4"]));
    // The double step leaves an en passant square on e6 for a White pawn on d4/f4's
    // cells (the physical diagonal of e6 is rank 4 here).
    let after = problem("4k3/4p3/8/8/3P4/8/8/4K3 b - - earthquake \"0 1\";");
    let mv = fairysolve::san::parse_move(&after.game, &after.position, "e7e4").unwrap();
    let pos = after.game.play(&after.position, mv).position;
    assert_eq!(pos.ep_square().map(|s| s.to_string()), Some("e6".into()));
}

#[test]
fn rule_3_3_a_piece_on_a_missing_square_is_refused() {
    let err = fairysolve::problem::from_record(
        match fairysolve::epd::parse_line("4k3/8/8/1R6/8/8/8/4K3 w - - earthquake \"0 3\";", 1) {
            Ok(fairysolve::epd::Line::Position(r)) => *r,
            _ => unreachable!(),
        },
    )
    .unwrap_err();
    assert!(
        err.message
            .contains("earthquake: b5 does not exist on a (0,3) board"),
        "{err}"
    );
}

#[test]
fn rule_3_4_the_void_row_of_0_minus_1() {
    // Block: the rook and the pawn stop at the void row; fly: the rook skips it.
    let block = moves_from("7k/8/8/8/R7/8/8/7K w - - earthquake \"0 -1\";", "a4");
    assert!(
        !block.iter().any(|m| m.ends_with('5') || m.ends_with('6')),
        "{block:?}"
    );
    let fly = moves_from(
        "7k/8/8/8/R7/8/8/7K w - - earthquake \"0 -1\"; void fly;",
        "a4",
    );
    assert!(
        fly.contains(&"a4a5".to_string()) && fly.contains(&"a4a8".to_string()),
        "{fly:?}"
    );
    let pawn = moves_from(
        "7k/8/8/8/4P3/8/8/7K w - - earthquake \"0 -1\"; void fly;",
        "e4",
    );
    assert!(pawn.is_empty(), "pawns never fly: {pawn:?}");
}

/// Displacements whose halves leave every start square in existence.
const DISPLACEMENTS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (3, 0),
    (8, 4),
    (0, -1),
    (2, -2),
    (-8, 0),
    (4, -4),
];

#[test]
fn start_position_perft_agrees_with_the_oracle() {
    for (dx, dy) in DISPLACEMENTS {
        for fly in [false, true] {
            let line = format!(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - earthquake \"{dx} {dy}\";{}",
                if fly { " void fly;" } else { "" }
            );
            let p = problem(&line);
            let o = oracle_start(dx, dy, fly);
            for depth in 1..=3 {
                assert_eq!(
                    p.game.perft(&p.position, depth, true),
                    o.perft(depth),
                    "({dx},{dy}) fly={fly} depth {depth}"
                );
            }
        }
    }
}

#[test]
fn recorded_perft_counts() {
    // positions/earthquake/perft.epd: the start position on displaced boards, both void
    // rules; counts computed by fairysolve and cross-checked above to depth 3.
    let mut lines = 0;
    let mut rules = std::collections::HashSet::new();
    for p in common::problems("positions/earthquake/perft.epd") {
        let eq = p.game.earthquake(&p.position).expect("an Earthquake line");
        rules.insert((eq.displacement(), eq.void_rule()));
        for (depth, want) in common::expected_counts(&p.record) {
            if want <= 5_000_000 {
                assert_eq!(
                    p.game.perft(&p.position, depth, true),
                    want,
                    "line {} depth {depth}",
                    p.record.line
                );
            }
        }
        lines += 1;
    }
    assert!(
        lines >= 12 && rules.len() >= 12,
        "{lines} lines, {} boards",
        rules.len()
    );
}

#[test]
fn zero_displacement_equals_fide() {
    for p in common::problems("positions/perft/standard.epd")
        .into_iter()
        .take(4)
    {
        let line = format!("{} earthquake \"0 0\";", p.record.fen_text);
        let eq = problem(&line);
        assert!(matches!(eq.game, AnyGame::Earthquake(_)));
        for depth in 1..=3 {
            assert_eq!(
                eq.game.perft(&eq.position, depth, true),
                p.game.perft(&p.position, depth, true)
            );
        }
    }
}

fn mirror_line(pos: &Position) -> String {
    let fen = fairysolve::fen::write_epd_fields(pos);
    let mut f = fen.split(' ');
    let placement: Vec<String> = f
        .next()
        .unwrap()
        .split('/')
        .map(|rank| {
            let mut cells = String::new();
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(n) => cells.push_str(&".".repeat(n as usize)),
                    None => cells.push(c),
                }
            }
            let rev: String = cells.chars().rev().collect();
            let mut out = String::new();
            let mut run = 0;
            for c in rev.chars() {
                if c == '.' {
                    run += 1;
                } else {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push(c);
                }
            }
            if run > 0 {
                out.push_str(&run.to_string());
            }
            out
        })
        .collect();
    let side = f.next().unwrap();
    format!("{} {side} - -", placement.join("/"))
}

#[test]
fn mirroring_with_the_displacement_keeps_perft() {
    // Positions without castling or en passant (the castling array is not symmetric).
    let lines = [
        "r3k3/1p3p2/2n1b3/8/3P4/2N2Q2/1P3PP1/4K2R w - -",
        "4k3/pp4pp/8/3q4/8/2B5/PP3PPP/R3K3 b - -",
        "1k6/8/8/2r5/8/5N2/1P6/4K3 w - -",
    ];
    for base in lines {
        for (dx, dy) in [(1, 0), (3, -1), (-2, -3), (-5, 0)] {
            for fly in ["", " void fly;"] {
                let line = format!("{base} earthquake \"{dx} {dy}\";{fly}");
                let a = problem(&line);
                let m = problem(&format!(
                    "{} earthquake \"{} {dy}\";{fly}",
                    mirror_line(&a.position),
                    -dx
                ));
                for depth in 1..=3 {
                    assert_eq!(
                        a.game.perft(&a.position, depth, true),
                        m.game.perft(&m.position, depth, true),
                        "{line} depth {depth}"
                    );
                }
            }
        }
    }
}

#[test]
fn composed_twomovers_key_sets() {
    let all = common::problems("positions/earthquake/problems.epd");
    assert!(all.len() >= 8);
    for p in all {
        let want = common::published_keys(&p);
        assert_eq!(
            common::solved_keys(&p, &p.position, p.stipulation.unwrap().moves, 2),
            want,
            "{:?}",
            p.id()
        );
        if p.game.rules().trapdoor.is_some() {
            continue;
        }
        // The independent search agrees on every first move.
        let eq = p.game.earthquake(&p.position).unwrap();
        let (dx, dy) = eq.displacement();
        let o = oracle_from(
            &p.position,
            dx,
            dy,
            eq.void_rule() == fairysolve::geometry::VoidRule::Fly,
        );
        let mut oracle_keys: Vec<String> = o
            .legal_moves()
            .into_iter()
            .filter(|(_, n)| n.loses(2))
            .map(|(m, _)| m)
            .collect();
        oracle_keys.sort();
        assert_eq!(oracle_keys.join(" "), want, "{:?} (oracle)", p.id());
    }
}

#[test]
fn zero_displacement_twomovers_equal_fide() {
    let table = fairysolve::search::tt::Table::new(8);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let opts = fairysolve::search::solution::SolveOptions {
        tree: false,
        ..Default::default()
    };
    for p in common::problems("positions/orthodox/twomovers.epd")
        .into_iter()
        .take(20)
    {
        let eq = problem(&format!("{} earthquake \"0 0\"; dm 2;", p.record.fen_text));
        let a: Vec<_> = p
            .game
            .solve(&table, &p.position, 2, &opts, &stop, &|_, _| {})
            .keys;
        let b: Vec<_> = eq
            .game
            .solve(&table, &eq.position, 2, &opts, &stop, &|_, _| {})
            .keys;
        assert_eq!(a, b, "{:?}", p.id());
    }
}

#[test]
fn earthquake_with_trapdoor() {
    // Both modifiers on one line. Black's king is ticking with one move left; White's
    // Ka6 takes a7 and b7 and unmasks the b1 rook, which flies over the void row of the
    // (0,-1) board to b8: Black must move the h-pawn and the king falls (rules.md 1.6,
    // 3.4). With the void blocking, the rook never reaches b8 and nothing wins at once.
    let line =
        "k7/7p/1K6/8/8/8/8/1R6 w - - earthquake \"0 -1\"; trapdoor 1; timers \"a8:1\"; dm 1;";
    let table = fairysolve::search::tt::Table::new(8);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let opts = fairysolve::search::solution::SolveOptions {
        tree: false,
        ..Default::default()
    };
    let keys = |line: &str| -> Vec<String> {
        let p = problem(line);
        assert!(p.game.rules().trapdoor.is_some() && p.game.earthquake(&p.position).is_some());
        p.game
            .solve(&table, &p.position, 1, &opts, &stop, &|_, _| {})
            .keys
            .iter()
            .map(|(m, _)| m.coord(false).to_string())
            .collect()
    };
    assert_eq!(keys(&format!("{line} void fly;")), vec!["b6a6"]);
    assert!(keys(line).is_empty());
}

// ---------------------------------------------------------------------------------
// Aftershocks (rules.md 3.7).

fn coords(line: &str) -> Vec<String> {
    let p = problem(line);
    common::legal_coords(&p, &p.position)
}

#[test]
fn rule_3_7_aftershocks_are_moves_with_limits() {
    // (1,0) with uses 1/1: every dx in -8..=8 but the current one keeps all pieces (they
    // stand on ranks 5-8 and 1 away from the edges), so 16 aftershocks.
    let line = "4k3/8/8/8/8/8/8/4K3 w - - earthquake \"1 0\"; aftershock \"1 1\";";
    let moves = coords(line);
    let shocks: Vec<&String> = moves.iter().filter(|m| m.starts_with('~')).collect();
    assert_eq!(shocks.len(), 16, "{shocks:?}");
    assert!(!moves.contains(&"~1".to_string()));
    // No uses left: none.
    assert!(
        !coords("4k3/8/8/8/8/8/8/4K3 w - - earthquake \"1 0\"; aftershock \"0 1\";")
            .iter()
            .any(|m| m.starts_with('~'))
    );
    // May not undo the opponent's aftershock on the very next turn.
    let back = coords("4k3/8/8/8/8/8/8/4K3 w - - earthquake \"1 0\"; aftershock \"1 1 3\";");
    assert!(!back.contains(&"~3".to_string()) && back.contains(&"~2".to_string()));
    // May not make a square holding a piece vanish: on dy = 1 the lower half covers
    // rank 5 where it overlaps, so a piece on a5 forbids every dx that covers file a.
    let cover = coords("4k3/8/8/P7/8/8/8/4K3 w - - earthquake \"8 1\"; aftershock \"1 1\";");
    let shocks: Vec<&String> = cover.iter().filter(|m| m.starts_with('~')).collect();
    assert_eq!(
        shocks.iter().map(|s| s.as_str()).collect::<Vec<_>>().len(),
        8,
        "{shocks:?}"
    );
    assert!(cover.contains(&"~1".to_string()) && !cover.contains(&"~0".to_string()));
}

#[test]
fn rule_3_7_an_aftershock_may_give_check_but_not_leave_the_own_king_in_check() {
    // White Ra1 on (0,0): ~1 puts a2-a4 under b5.. so the rook's file leads to b8.
    let p = problem("1k6/8/8/8/8/8/8/R3K3 w - - earthquake \"0 0\"; aftershock \"1 0\";");
    let mv = fairysolve::san::parse_move(&p.game, &p.position, "~1").unwrap();
    let played = p.game.play(&p.position, mv);
    assert!(
        p.game.in_check(&played.position),
        "~1 gives check along the shifted file"
    );
    assert_eq!(
        fairysolve::san::san_played(&p.game, &p.position, mv, &played),
        "~1+"
    );
    // Black's king on b8 of a (0,0) board with a White rook on a1: Black's ~-1 would
    // bring a1's file under b8... it is White's rook on a-file: after ~1 by White, Black
    // may not answer ~0 (undo) and must meet the check otherwise.
    let after = played.position;
    let replies = p.game.legal_moves(&after);
    assert!(!replies.iter().any(|m| m.coord(false).to_string() == "~0"));
}

#[test]
fn rule_3_7_an_aftershock_counts_down_timers_and_ends_en_passant() {
    let p = problem("4k3/8/8/3pP3/8/8/8/4K3 w - d6 earthquake \"0 0\"; aftershock \"1 1\"; trapdoor 1; timers \"e5:1\";");
    assert!(p
        .game
        .legal_moves(&p.position)
        .iter()
        .any(|m| m.coord(false).to_string() == "e5d6"));
    let mv = fairysolve::san::parse_move(&p.game, &p.position, "~2").unwrap();
    let played = p.game.play(&p.position, mv);
    assert_eq!(
        played.fallen.collect::<Vec<_>>(),
        vec![fairysolve::Square::E5],
        "nothing arrives: e5 falls"
    );
    assert_eq!(played.position.ep_square(), None);
    assert_eq!(played.position.hash(), played.position.compute_hash());
    assert_eq!(played.position.quake().shocks, [0, 1]);
    assert_eq!(played.position.quake().no_return, Some(0));
    // The line written back reads to the same state.
    let line = fairysolve::problem::position_line(&p.game, &played.position);
    assert!(
        line.contains("earthquake \"2 0\";") && line.contains("aftershock \"0 1 0\";"),
        "{line}"
    );
    let again = problem(&line);
    assert_eq!(again.position.hash(), played.position.hash());
}

#[test]
fn aftershock_perft_agrees_with_the_oracle() {
    for (start, dx, dy, fly, w, b) in [
        ("4k3/pp6/8/8/8/8/6PP/R3K3 w - -", 1, 0, false, 1, 1),
        ("r3k3/8/8/2n5/8/2N5/8/4K2R b - -", 0, -1, true, 1, 2),
        ("4k3/3q4/8/8/8/8/3Q4/4K3 w - -", 2, 1, false, 2, 2),
    ] {
        let line = format!(
            "{start} earthquake \"{dx} {dy}\";{} aftershock \"{w} {b}\";",
            if fly { " void fly;" } else { "" }
        );
        let p = problem(&line);
        let mut o = oracle_from(&p.position, dx, dy, fly);
        o.shocks = [w, b];
        for depth in 1..=3 {
            assert_eq!(
                p.game.perft(&p.position, depth, true),
                o.perft(depth),
                "{line} depth {depth}"
            );
        }
    }
}
