//! The Trapdoor board as rules.md section 1 reads: the examples of the text and one
//! position for each step of the order of events (1.5 a-e, and the falls-first option).

mod common;

use common::problem;
use fairysolve::game::{Outcome, Status};
use fairysolve::problem::Problem;
use fairysolve::san::{parse_move, san_played};
use fairysolve::search::solution::SolveOptions;
use fairysolve::search::tt::Table;
use fairysolve::{Position, Square};
use std::sync::atomic::AtomicBool;

/// Plays a line; returns the SAN of each move (with falls) and the final position.
fn replay(p: &Problem, line: &str) -> (Vec<String>, Position) {
    let mut pos = p.position;
    let mut out = Vec::new();
    for token in line.split_whitespace() {
        let text = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        let mv = parse_move(&p.game, &pos, text).unwrap_or_else(|e| panic!("{token}: {e}"));
        let played = p.game.play(&pos, mv);
        out.push(san_played(&p.game, &pos, mv, &played));
        pos = played.position;
    }
    (out, pos)
}

fn legal(p: &Problem) -> Vec<String> {
    common::legal_coords(p, &p.position)
}

fn play(p: &Problem, coord: &str) -> fairysolve::Played {
    let mv = parse_move(&p.game, &p.position, coord).unwrap_or_else(|e| panic!("{coord}: {e}"));
    p.game.play(&p.position, mv)
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn rules_1_2_the_t5_game_e4_falls_at_6_qe2() {
    // rules.md 1.2: with T = 5 the e4 pawn falls at the end of White's 6th move,
    // written 6.Qe2 (e4:e4); Black's e5 pawn at the end of Black's 6th move.
    let p = problem(&format!("{START} trapdoor 5;"));
    let (sans, pos) = replay(&p, "1.e4 e5 2.Nf3 Nf6 3.Ng1 Ng8 4.Nf3 Nf6 5.Ng1 Ng8 6.Qe2");
    assert_eq!(sans[10], "Qe2 (e4:e4)");
    assert!(sans[..10].iter().all(|s| !s.contains('(')), "{sans:?}");
    assert!(pos.board().piece_at(Square::E4).is_none());
    assert_eq!(pos.timers().get(Square::E5), Some(1));
    // Black's 6th move: the e5 pawn falls (a move that blocks the e-file, since the
    // fall opens it to the queen).
    let p2 = Problem {
        position: pos,
        ..p.clone()
    };
    let (sans2, pos2) = replay(&p2, "Be7");
    assert_eq!(sans2[0], "Be7 (e5:e5)");
    assert!(pos2.board().piece_at(Square::E5).is_none());
}

#[test]
fn rules_1_2_both_d_pawns_fall_and_7_qxd8_is_check() {
    let p = problem(&format!("{START} trapdoor 5;"));
    let (sans, pos) = replay(
        &p,
        "1.d4 d5 2.Nf3 Nf6 3.Ng1 Ng8 4.Nf3 Nf6 5.Ng1 Ng8 6.Nf3 Nf6 7.Qxd8+",
    );
    assert_eq!(sans[10], "Nf3 (d4:d4)");
    assert_eq!(sans[11], "Nf6 (d5:d5)");
    assert_eq!(sans[12], "Qxd8+");
    assert!(p.game.in_check(&pos));
}

#[test]
fn rule_1_5a_a_pinned_piece_stays_pinned() {
    // 1.5a: M is illegal if the mover's king is attacked in P, whatever follows.
    let p = problem("4r1k1/8/8/8/8/8/4R3/4K3 w - - trapdoor 1;");
    assert!(legal(&p)
        .iter()
        .filter(|m| m.starts_with("e2"))
        .all(|m| m.as_bytes()[2] == b'e'));
    assert!(!legal(&p).contains(&"e2d2".to_string()));
}

#[test]
fn rule_1_5b_mate_first_nothing_falls() {
    // 1.5b: Ra8 mates in P (the e6 knight guards g7); nothing falls, White wins.
    let p = problem("7k/7p/4N3/8/8/8/8/R5K1 w - - trapdoor 1; timers \"e6:1\";");
    let r = play(&p, "a1a8");
    assert_eq!(r.outcome, Some(Outcome::Mate));
    assert!(r.fallen.is_empty());
    assert!(r.position.board().piece_at(Square::E6).is_some());
    // Falls first: the knight falls before mate is judged, and g7 is free.
    let ff = problem(
        "7k/7p/4N3/8/8/8/8/R5K1 w - - trapdoor 1; timers \"e6:1\"; trapdoor_order falls-first;",
    );
    let r = play(&ff, "a1a8");
    assert_eq!(r.outcome, None);
    assert_eq!(r.fallen.collect::<Vec<_>>(), vec![Square::E6]);
    assert_eq!(ff.game.status(&r.position), Status::Ongoing);
}

#[test]
fn rule_1_5c_own_king_falls_the_move_is_legal_and_loses() {
    let p = problem("4k3/8/8/8/8/8/8/R3K3 w - - trapdoor 1; timers \"e1:1\";");
    assert!(legal(&p).contains(&"a1a2".to_string()));
    let r = play(&p, "a1a2");
    assert_eq!(r.outcome, Some(Outcome::KingFell));
    // The king that moves arrives afresh and does not fall.
    let r = play(&p, "e1d1");
    assert_eq!(r.outcome, None);
    assert_eq!(r.position.timers().get(Square::D1), Some(1));
}

#[test]
fn rule_1_5d_a_fall_may_not_expose_the_own_king() {
    // The e2 bishop falls at the end of any move but its own (it is pinned), opening
    // the e-file: only the king's steps off the file remain.
    let p = problem("4r1k1/8/8/8/8/8/4B3/R3K3 w - - trapdoor 1; timers \"e2:1\";");
    assert_eq!(legal(&p), vec!["e1d1", "e1d2", "e1f1", "e1f2"]);
    // Without the timer the rook moves are legal again.
    let safe = problem("4r1k1/8/8/8/8/8/4B3/R3K3 w - - trapdoor 1;");
    assert_eq!(legal(&safe).len(), 4 + 10);
}

#[test]
fn rule_1_5b_and_d_a_mate_first_move_is_legal_despite_its_fall() {
    // Ra8 mates in P; the bishop's fall would expose the king to the e3 rook (1.5d), but
    // mate comes first (1.5b). With falls first the same move is illegal.
    let line = "7k/4P2p/8/5N2/8/4r3/4B3/R3K3 w - - trapdoor 1; timers \"e2:1\";";
    let p = problem(line);
    assert!(legal(&p).contains(&"a1a8".to_string()));
    assert_eq!(play(&p, "a1a8").outcome, Some(Outcome::Mate));
    assert!(!legal(&p).contains(&"a1a2".to_string()));
    let ff = problem(&format!("{line} trapdoor_order falls-first;"));
    assert!(!legal(&ff).contains(&"a1a8".to_string()));
}

#[test]
fn rule_1_5e_a_check_discovered_by_a_fall_mates() {
    // The d8 knight falls at the end of a2-a3 and uncovers the a8 rook: no legal move.
    let p = problem("R2N3k/6pp/8/8/8/8/P7/6K1 w - - trapdoor 1; timers \"d8:1\";");
    let r = play(&p, "a2a3");
    assert_eq!(r.outcome, None);
    assert_eq!(r.fallen.collect::<Vec<_>>(), vec![Square::D8]);
    assert_eq!(p.game.status(&r.position), Status::Checkmated);
    assert_eq!(
        san_played(
            &p.game,
            &p.position,
            parse_move(&p.game, &p.position, "a3").unwrap(),
            &r
        ),
        "a3# (d8:d8)"
    );
}

/// Rule 1.5e when the fall alone does not open the line: the d1 bishop leaving rank 1
/// with the c1 knight falling uncovers the a1 rook. Every bishop move mates, no other
/// move does.
#[test]
fn rule_1_5e_a_man_leaving_a_line_that_a_fall_opens_mates() {
    let p = problem("8/8/8/8/8/6K1/4P3/R1NB3k w - - trapdoor 1; timers \"c1:1\";");
    let mut keys = solve_keys(&p, 1);
    keys.sort();
    assert_eq!(keys, ["d1a4", "d1b3", "d1c2"]);
    let r = play(&p, "d1c2");
    assert_eq!(r.fallen.collect::<Vec<_>>(), vec![Square::C1]);
    assert_eq!(p.game.status(&r.position), Status::Checkmated);
}

/// Rules 1.5b and 1.6 from the defender's side: Black's king on a8 must move or fall,
/// and cannot move. Every Black move but one lets it fall; 1...Rc1 mates first, unless
/// White's move made room for the king or put a knight in reach of f1. So 1.Nf4, 1.Nf6
/// and 1.Ng7 are no keys, under either order of events.
#[test]
fn rule_1_5b_a_king_due_to_fall_is_saved_by_a_mate() {
    for order in ["", " trapdoor_order falls-first;"] {
        let line = format!("knr5/pp6/8/7N/8/8/6PP/7K w - - trapdoor 1; timers \"a8:1\";{order}");
        let p = problem(&line);
        let mut keys = solve_keys(&p, 1);
        keys.sort();
        assert_eq!(
            keys,
            ["g2g3", "g2g4", "h1g1", "h2h3", "h2h4", "h5g3"],
            "{order}"
        );
    }
}

#[test]
fn falls_first_a_falling_king_loses_unless_the_move_mates() {
    for order in ["", " trapdoor_order falls-first;"] {
        let p = problem(&format!(
            "7k/6pp/8/8/8/8/8/R3K3 w - - trapdoor 1; timers \"e1:1\";{order}"
        ));
        assert_eq!(play(&p, "a1a8").outcome, Some(Outcome::Mate), "{order}");
        assert_eq!(play(&p, "a1a7").outcome, Some(Outcome::KingFell), "{order}");
    }
}

/// Falls first, "legality [is] judged in P' only" (rules.md 1.5, the option): a king
/// that falls at the end of the move is not on the board to be attacked, so a move that
/// leaves it in check is legal; it loses unless it mates. Mate first judges the check in
/// P (1.5a), so there the same moves stay illegal.
#[test]
fn falls_first_legality_is_judged_after_the_falls() {
    // White's king is in check from d4 and falls unless it moves: the rook moves are
    // legal, and Re8 mates after the fall.
    let line = "7k/6pp/8/8/3b4/8/8/K3R3 w - - trapdoor 1; timers \"a1:1\";";
    let ff = problem(&format!("{line} trapdoor_order falls-first;"));
    assert_eq!(legal(&ff).len(), 2 + 13);
    assert_eq!(play(&ff, "e1e8").outcome, Some(Outcome::Mate));
    assert_eq!(play(&ff, "e1e7").outcome, Some(Outcome::KingFell));
    assert_eq!(solve_keys(&ff, 1), vec!["e1e8"]);
    let mf = problem(line);
    assert_eq!(legal(&mf), vec!["a1a2", "a1b1"]);
    assert!(solve_keys(&mf, 1).is_empty());
    // The defender's side of it: after 1.Re8+ Black's falling king leaves h8 attacked
    // with 1...Rd1, which mates White after the fall, so 1.Re8 is no key.
    let line = "7k/6pp/8/8/8/8/PP1r4/K3R3 w - - trapdoor 1; timers \"h8:1\";";
    let ff = problem(&format!("{line} trapdoor_order falls-first;"));
    assert!(solve_keys(&ff, 1).is_empty());
    assert_eq!(solve_keys(&problem(line), 1), vec!["e1e8"]);
}

fn solve_keys(p: &Problem, n: u32) -> Vec<String> {
    let table = Table::new(1);
    let sol = p.game.solve(
        &table,
        &p.position,
        n,
        &SolveOptions::default(),
        &AtomicBool::new(false),
        &|_, _| {},
    );
    sol.keys
        .iter()
        .map(|(m, _)| m.coord(false).to_string())
        .collect()
}

#[test]
fn rule_1_6_the_defenders_king_falling_wins_without_check() {
    // Black's king is ticking with one move left and has no step: whatever Black plays,
    // the king falls at the end of it. Any quiet move that keeps a7, b7, b8 guarded and
    // gives no check wins "in 1"; the solver finds them without a check at the last ply.
    let p = problem("k7/7p/1K6/8/5B2/8/P7/8 w - - trapdoor 1; timers \"a8:1\"; dm 1;");
    let table = Table::new(8);
    let stop = AtomicBool::new(false);
    let opts = SolveOptions {
        tree: false,
        ..SolveOptions::default()
    };
    let sol = p
        .game
        .solve(&table, &p.position, 1, &opts, &stop, &|_, _| {});
    let keys: Vec<String> = sol
        .keys
        .iter()
        .map(|(m, _)| m.coord(false).to_string())
        .collect();
    assert!(keys.contains(&"a2a3".to_string()), "{keys:?}");
    assert!(keys.contains(&"a2a4".to_string()), "{keys:?}");
    // Bf4-e5 still guards b8; Bf4-g5 does not.
    assert!(keys.contains(&"f4e5".to_string()));
    assert!(!keys.contains(&"f4g5".to_string()));
}

#[test]
fn timers_join_the_hash() {
    let a = problem("4k3/8/8/8/4P3/8/8/4K3 w - - trapdoor 2; timers \"e4:1\";");
    let b = problem("4k3/8/8/8/4P3/8/8/4K3 w - - trapdoor 2; timers \"e4:2\";");
    let c = problem("4k3/8/8/8/4P3/8/8/4K3 w - - trapdoor 2;");
    assert_ne!(a.position.hash(), b.position.hash());
    assert_ne!(a.position.hash(), c.position.hash());
    assert_eq!(a.position.hash(), a.position.compute_hash());
    // After moves the incremental hash equals the one computed from scratch.
    let p = problem(&format!("{START} trapdoor 2;"));
    let (_, pos) = replay(&p, "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6");
    assert_eq!(pos.hash(), pos.compute_hash());
}
