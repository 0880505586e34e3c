//! Underworld Chess as rules.md section 4 reads: each rule on a position of its own,
//! the bundled problems' key sets, perft from the initial array, and the messages for
//! lines that cannot be read.

use fairysolve::generic::search::solve;
use fairysolve::generic::{End, TurnGame};
use fairysolve::search::solution::SolveOptions;
use fairysolve::search::tt::Table;
use fairysolve::underworld::notation::{coord, parse};
use fairysolve::underworld::setup::position_line;
use fairysolve::underworld::state::{Phase, UState};
use fairysolve::underworld::{perft_line, read_line, Underworld};
use std::sync::atomic::AtomicBool;
mod common;

use common::{near_square, placement_fen, Rng};
use fairysolve::types::Color;

const START: &str =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - underworld \"4k3/8/8/8/8/8/8/4K3\";";

fn state(line: &str) -> UState {
    read_line(line)
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .state
}

/// Plays `moves` (as `replay` reads them) from `line`; the state after them.
fn after(line: &str, moves: &str) -> UState {
    let mut s = state(line);
    for text in moves.split_whitespace() {
        let mv = parse(&Underworld, &s, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        s = Underworld.play(&s, mv);
    }
    s
}

/// The legal moves of the side to move, in coordinates, sorted.
fn moves(s: &UState) -> Vec<String> {
    let mut v: Vec<String> = Underworld.moves(s).iter().map(|&m| coord(s, m)).collect();
    v.sort();
    v
}

fn line_of(s: &UState) -> String {
    position_line(s)
}

/// The key set of `#n` from `line`, sorted, on one and two threads (which must agree).
fn keys(line: &str, n: u32) -> String {
    let s = state(line);
    let mut found = Vec::new();
    for threads in [1, 2] {
        let table = Table::new(8);
        let stop = AtomicBool::new(false);
        let opts = SolveOptions {
            threads,
            tree: true,
            tries: true,
            ..SolveOptions::default()
        };
        let sol = solve(&Underworld, &table, &s, n, &opts, &stop, &|_, _| {});
        assert!(sol.finished());
        let mut v: Vec<String> = sol.keys.iter().map(|k| k.0.clone()).collect();
        v.sort();
        found.push(if v.is_empty() {
            "none".to_string()
        } else {
            v.join(" ")
        });
    }
    assert_eq!(found[0], found[1], "{line}");
    found.remove(0)
}

/// Rule 4.1: while the Underworld holds only its Kings its turns are skipped, so the
/// game opens as FIDE chess; the first capture activates it and Black moves first there.
/// (Perft: as FIDE to depth 4, since the first capture comes at White's second move.)
#[test]
fn rule_4_1_turn_cycle_and_inactive_boards() {
    let s = after(START, "e4");
    assert_eq!(s.phase, Phase::BW);
    let s = after(START, "e4 d5");
    assert_eq!(s.phase, Phase::WW, "the Underworld is still inactive");
    let s = after(START, "e4 d5 exd5");
    assert_eq!(s.phase, Phase::BW);
    let s = after(START, "e4 d5 exd5 Qxd5");
    assert_eq!(
        s.phase,
        Phase::BU,
        "the Underworld became active: Black moves first"
    );
    let s = after(START, "e4 d5 exd5 Qxd5 U:d7d6");
    assert_eq!(s.phase, Phase::WU);
    let s = after(START, "e4 d5 exd5 Qxd5 U:d7d6 U:d2d4");
    assert_eq!(s.phase, Phase::WW);
    for (depth, count) in [(1, 20), (2, 400), (3, 8902), (4, 197_281)] {
        assert_eq!(perft_line(START, depth).unwrap(), count, "depth {depth}");
    }
    // Two moves on the Underworld in a row: the World holds only its kings.
    let s = state("4k3/8/8/8/8/8/8/4K3 b - - underworld \"4k3/p7/8/8/8/8/P7/4K3\"; phase BU;");
    let s = Underworld.play(&s, Underworld.moves(&s)[0]);
    assert_eq!(s.phase, Phase::WU);
    let s = Underworld.play(&s, Underworld.moves(&s)[0]);
    assert_eq!(s.phase, Phase::BU, "the World's turns are skipped");
}

/// Rule 4.1: both boards inactive is a draw.
#[test]
fn rule_4_1_both_boards_inactive_is_a_draw() {
    let s = state("4k3/8/8/8/8/8/8/4K3 w - - underworld \"4k3/8/8/8/8/8/8/4K3\";");
    assert_eq!(Underworld.end(&s), Some(End::Draw));
    assert!(Underworld.moves(&s).is_empty());
    // A capture of the last man on the World and the Underworld's King takes the last
    // one there: a draw after the move.
    let s = state("4k3/8/8/8/8/8/3q4/3QK3 w - - underworld \"4k3/8/8/8/8/8/8/4K3\";");
    let s = after(&line_of(&s), "Qxd2");
    assert_eq!(
        s.under.occupied().count(),
        3,
        "the queen dropped on the Underworld"
    );
}

/// Rule 4.3: a man captured on the World drops on its home file of the Underworld
/// nearest its home rank; a pawn on the file it was captured on, nearest its second
/// rank; a file with no room: captured for good.
#[test]
fn rule_4_3_drops() {
    let s = after(START, "e4 d5 exd5");
    assert_eq!(s.under.piece_at(sq("d7")).map(|p| p.char()), Some('p'));
    let s = after(START, "e4 d5 exd5 Qxd5");
    assert_eq!(s.under.piece_at(sq("d2")).map(|p| p.char()), Some('P'));
    // The knight from g8 (home file g) taken on f6: g8 of the Underworld.
    let s = after(START, "e4 Nf6 e5 d6 exf6");
    assert_eq!(s.under.piece_at(sq("g8")).map(|p| p.char()), Some('n'));
    // A full file: the queen's file d of the Underworld holds men on every square.
    let full =
        "3qk3/8/8/8/8/8/8/3QK3 w - - underworld \"3nk3/3n4/3n4/3n4/3N4/3N4/3N4/3NK3\"; phase WW;";
    let s = after(full, "Qxd8+");
    assert_eq!(
        s.reserve
            .count(fairysolve::Color::Black, fairysolve::Role::Queen),
        1
    );
    assert!(line_of(&s).contains("reserve \"q\""), "{}", line_of(&s));
}

/// Rule 4a: on the Underworld only the enemy Underworld King captures for good; any
/// other capture drops the victim again by rule 3, after the capturer has landed.
#[test]
fn rule_4a_captures_on_the_underworld() {
    let line = "4k3/p7/8/8/8/8/8/4K3 w - - underworld \"4k3/8/8/8/8/2n5/1P6/3K4\"; phase WU;";
    // The pawn takes the knight: the knight (home file b) drops on b8.
    let s = after(line, "U:b2c3");
    assert_eq!(s.under.piece_at(sq("b8")).map(|p| p.char()), Some('n'));
    // The King takes it: captured for good.
    let line = "4k3/p7/8/8/8/8/8/4K3 w - - underworld \"4k3/8/8/8/8/8/2n5/3K4\"; phase WU;";
    let s = after(line, "U:d1c2");
    assert_eq!(
        s.reserve
            .count(fairysolve::Color::Black, fairysolve::Role::Knight),
        1
    );
    assert_eq!(s.under.occupied().count(), 2);
}

/// Rule 4b, 4.8g: pawns see the Underworld as a cylinder (a White pawn on d8 steps to
/// d1 and attacks c1 and e1), never promote, double-step only from their second rank;
/// no castling there.
#[test]
fn rule_4b_cylinder_pawns() {
    let line = "4k3/p7/8/8/8/8/8/4K3 w - - underworld \"3Pk3/8/8/8/8/8/8/2n1K3\"; phase WU;";
    let m = moves(&state(line));
    assert!(m.contains(&"U:d8d1".to_string()), "{m:?}");
    assert!(m.contains(&"U:d8c1".to_string()), "{m:?}");
    assert!(!m.iter().any(|x| x.len() > 6), "no promotion: {m:?}");
    // A Black pawn on its second rank double-steps; one on rank 1 steps to rank 8.
    let line = "4k3/p7/8/8/8/8/8/4K3 b - - underworld \"8/1p6/8/8/8/8/8/p3K2k\"; phase BU;";
    let m = moves(&state(line));
    assert!(
        m.contains(&"U:b7b5".to_string()) && m.contains(&"U:a1a8".to_string()),
        "{m:?}"
    );
    // King and rook at home on the Underworld: no castling move.
    let line = "4k3/p7/8/8/8/8/8/4K3 w - - underworld \"4k3/8/8/8/8/8/8/4K2R\"; phase WU;";
    assert!(!moves(&state(line)).contains(&"U:e1g1".to_string()));
}

/// Rule 4c, 4.8f: the Underworld King may not move into or stay in check while some
/// move keeps it safe; when none does, any move; with no move at all, a pass.
#[test]
fn rule_4c_the_underworld_kings_check_rule() {
    // Black's King on a8 is attacked by the rook on a1; b8 and b7 are safe.
    let line = "4k3/p7/8/8/8/8/8/4K3 b - - underworld \"k7/8/8/8/8/8/8/R3K3\"; phase BU;";
    assert_eq!(moves(&state(line)), ["U:a8b7", "U:a8b8"]);
    // No safe move: every move may be played.
    let line = "4k3/p7/8/8/8/8/8/4K3 b - - underworld \"k7/8/8/8/8/8/8/RR2K3\"; phase BU;";
    assert_eq!(moves(&state(line)), ["U:a8a7", "U:a8b7", "U:a8b8"]);
    // No move at all: the side passes.
    let line =
        "4k3/p7/8/8/8/8/8/4K3 b - - underworld \"kp6/pp6/pp6/pp6/pp6/pp6/pp6/pp2K3\"; phase BU;";
    assert_eq!(moves(&state(line)), ["U:pass"]);
    // Every move unsafe is not a pass: 4c lets them all be played.
    let line = "4k3/p7/8/8/8/8/8/4K3 b - - underworld \"k7/P7/KP6/8/8/8/8/8\"; phase BU;";
    assert_eq!(moves(&state(line)), ["U:a8a7", "U:a8b7", "U:a8b8"]);
}

/// Rule 4d: a man that takes an Underworld King leaves the Underworld for its home file
/// on the World; the King stays; no square there, no capture.
#[test]
fn rule_4d_a_man_taking_an_underworld_king_returns() {
    let line = "7k/5Kp1/8/8/8/8/8/8 w - - underworld \"8/8/7k/8/7R/8/8/4K3\"; phase WU;";
    let s = after(line, "U:h4h6");
    assert_eq!(
        s.world.board().piece_at(sq("h1")).map(|p| p.char()),
        Some('R')
    );
    assert_eq!(s.under.piece_at(sq("h6")).map(|p| p.char()), Some('k'));
    assert_eq!(Underworld.end(&s), Some(End::Win(fairysolve::Color::White)));
    // The h-file of the World is full: the rook may not take the King.
    let full = "7k/5Kpn/7n/7n/7n/7N/7N/7N w - - underworld \"8/8/7k/8/7R/8/8/4K3\"; phase WU;";
    let s = state(full);
    assert!(
        !moves(&s).contains(&"U:h4h6".to_string()),
        "{:?}",
        moves(&s)
    );
}

/// Rule 4e, 4.8e: the Underworld King takes the other: each man its side can return to
/// the World is a move of its own; then the captured King's owner places it on its
/// first rank, on squares the capturer does not attack.
#[test]
fn rule_4e_king_takes_king() {
    let line =
        "4k3/p7/8/8/8/8/8/4K3 w - - underworld \"8/8/8/8/8/3k4/2K5/N7\"; phase WU; reserve \"Q\";";
    let s = state(line);
    let m = moves(&s);
    // The knight on a1 (home b: b1 on the World) or the reserve's queen (d1).
    assert!(m.contains(&"U:c2d3(a1=Nb1@W)".to_string()), "{m:?}");
    assert!(m.contains(&"U:c2d3(=Qd1@W)".to_string()), "{m:?}");
    assert!(
        !m.contains(&"U:c2d3".to_string()),
        "a return is obligatory when one fits"
    );
    let mv = parse(&Underworld, &s, "U:c2d3(=Qd1@W)").unwrap();
    let placing = Underworld.play(&s, mv);
    assert_eq!(placing.placing, Some(fairysolve::Color::Black));
    // Black places its King on its first rank (rank 8 of the Underworld), on any of
    // the eight squares, none attacked.
    assert_eq!(moves(&placing).len(), 8);
    let placed = Underworld.play(&placing, Underworld.moves(&placing)[0]);
    assert_eq!(placed.phase, Phase::WW);
    assert_eq!(
        placed.world.board().piece_at(sq("d1")).map(|p| p.char()),
        Some('Q')
    );
}

/// Rule 4.5 with 4.8a: a side in check on the World with no World move is mated at
/// once, after any move of the other side; a side with no World move and not in check
/// is stalemated when its World turn comes.
#[test]
fn rule_4_5_mate_and_stalemate_on_the_world() {
    let s = state("7k/5Q2/6K1/8/8/8/8/8 b - - underworld \"4k3/8/8/8/8/8/8/4K3\"; phase BW;");
    assert_eq!(Underworld.end(&s), Some(End::Draw));
    let s = state("6k1/5ppp/8/8/8/8/8/R5K1 w - - underworld \"4k3/8/8/8/8/8/8/4K3\";");
    let s = after(&line_of(&s), "Ra8");
    assert_eq!(Underworld.end(&s), Some(End::Win(fairysolve::Color::White)));
}

/// Rule 4.8h: each board keeps its own en passant square; on the Underworld the pawn
/// taken en passant drops again on its own file.
#[test]
fn rule_4_8h_en_passant_on_the_underworld() {
    let line = "4k3/p7/8/8/8/8/8/4K3 b - - underworld \"4k3/3p4/8/4P3/8/8/8/4K3\"; phase BU;";
    let s = after(line, "U:d7d5");
    assert!(line_of(&s).contains("u_ep d6"), "{}", line_of(&s));
    let m = moves(&s);
    assert!(m.contains(&"U:e5d6".to_string()), "{m:?}");
    let s = after(&line_of(&s), "U:e5d6");
    assert_eq!(
        s.under.piece_at(sq("d7")).map(|p| p.char()),
        Some('p'),
        "dropped on its file"
    );
}

/// The bundled problems: every key, on one and two threads.
#[test]
fn underworld_problems_have_their_published_keys() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/positions/underworld/problems.epd"
    ))
    .unwrap();
    let mut seen = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let p = read_line(line).unwrap();
        let n = p.stipulation.unwrap().moves;
        let c1 = p.record.get("c1").and_then(|o| o.single()).unwrap();
        let want = c1.strip_prefix("keys: ").unwrap();
        assert_eq!(keys(line, n), want, "{line}");
        seen += 1;
    }
    assert!(seen >= 3);
}

/// Short solutions are not keys of the shorter stipulation: the return alone does not
/// mate (uw-2 in one round has no solution).
#[test]
fn a_return_without_the_mate_is_no_solution_in_one_round() {
    let line = "6k1/5ppp/8/8/8/8/8/6K1 w - - underworld \"8/8/k7/8/R7/8/8/4K3\"; phase WU;";
    assert_eq!(keys(line, 1), "none");
    assert_eq!(keys(line, 2), "U:a4a6");
}

/// A node budget (`SolveOptions::max_nodes`, the generator's for Underworld candidates)
/// leaves a search unfinished, never wrong: past it the first moves left are unresolved.
#[test]
fn a_search_past_its_node_budget_is_given_up_unfinished() {
    let s = state("2k5/8/1K6/8/8/8/8/8 w - - underworld \"8/8/4k3/3K4/7Q/8/2n5/8\"; phase WU;");
    let stop = AtomicBool::new(false);
    let run = |max_nodes| {
        let opts = SolveOptions {
            tree: false,
            max_nodes,
            ..SolveOptions::default()
        };
        solve(&Underworld, &Table::new(8), &s, 3, &opts, &stop, &|_, _| {})
    };
    let whole = run(None);
    assert!(whole.finished());
    let keys = |sol: &fairysolve::generic::search::CoreSolution| {
        sol.keys.iter().map(|k| k.0.clone()).collect::<Vec<_>>()
    };
    assert_eq!(keys(&whole), ["U:d5e6(h4=Qd1@W)"]);
    let cut = run(Some(whole.nodes / 4));
    assert!(!cut.finished() && !cut.unresolved.is_empty());
    assert!(
        cut.nodes < whole.nodes / 2,
        "{} of {}",
        cut.nodes,
        whole.nodes
    );
    let enough = run(Some(whole.nodes));
    assert!(enough.finished());
    assert_eq!(keys(&enough), keys(&whole));
}

/// Lines that cannot be read, each with its message at the operation's column.
#[test]
fn bad_underworld_lines_are_located() {
    let cases = [
        (
            "4k3/8/8/8/8/8/8/4K3 w - - underworld \"4k3/8/8/8/8/8/8/4KK2\";",
            "line 1, column 27: underworld: 2 White Underworld Kings",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - underworld \"8/8/8/8/8/8/8/4K3\";",
            "line 1, column 27: underworld: no Black Underworld King",
        ),
        (
            "4k3/p7/8/8/8/8/8/4K3 w - - underworld \"4k3/8/8/8/8/8/8/4K3\"; phase WU;",
            "line 1, column 62: phase WU: the Underworld holds only its kings, so its turns are skipped",
        ),
        (
            "4k3/p7/8/8/8/8/8/4K3 w - - underworld \"4k3/8/8/8/8/8/8/4K3\"; phase BW;",
            "line 1, column 62: phase BW: it is Black's turn, but the side to move is White",
        ),
        (
            "4k3/p7/8/8/8/8/8/4K3 w - - underworld \"4k3/8/8/8/8/8/8/N3K3\"; homes \"U:a1:z\";",
            "line 1, column 63: homes: 'z' in 'U:a1:z' is not a file a-h",
        ),
        (
            "4k3/p7/8/8/8/8/8/4K3 w - - underworld \"4k3/8/8/8/8/8/8/P3K3\"; homes \"U:a1:b\";",
            "line 1, column 63: homes: 'U:a1:b': no piece on a1 of the Underworld that has a home file (pawns and kings have none)",
        ),
        (
            "4k3/p7/8/8/8/8/8/4K3 w - - underworld \"4k3/8/8/8/8/8/8/4K3\"; reserve \"K\";",
            "line 1, column 62: reserve: 'K' (character 1) is not a man that can be captured (PNBRQ, pnbrq)",
        ),
        (
            "4k3/p7/8/8/8/8/8/4K3 w - - underworld \"4k3/8/8/8/8/8/8/4K3\"; u_ep e4;",
            "line 1, column 62: u_ep: e4 is not on the third or sixth rank, where a double step passes",
        ),
        (
            "4k3/p7/8/8/8/8/8/4K3 w - - underworld \"4k3/8/8/8/8/8/8/4K3\"; taxi \"2 2\";",
            "line 1, column 62: taxi: not played together with underworld",
        ),
    ];
    for (line, want) in cases {
        match read_line(line) {
            Ok(_) => panic!("read: {line}"),
            Err(e) => assert_eq!(e, want, "{line}"),
        }
    }
}

/// A pawn on its own first rank of the Underworld is read: it gets there through the
/// cylinder (rule 4b), and steps on from it (RULES.md).
#[test]
fn a_pawn_on_the_underworlds_first_rank_is_read() {
    let line = "4k3/p7/8/8/8/8/8/4K3 w - - underworld \"4k3/8/8/8/8/8/8/P3K3\"; phase WU;";
    assert!(moves(&state(line)).contains(&"U:a1a2".to_string()));
}

/// Lines are written back as read (formats.md 1): what `replay` writes, `read` reads.
#[test]
fn lines_are_written_back_and_read_again() {
    let s = after(START, "e4 d5 exd5 Qxd5 U:d7d5 U:d2d4");
    let line = line_of(&s);
    let again = state(&line);
    assert_eq!(line_of(&again), line);
    assert_eq!(again.key(), s.key());
}

fn sq(name: &str) -> fairysolve::Square {
    fairysolve::Square::parse(name).unwrap()
}

/// Every help line by brute force (RULES.md, Underworld help-mates): from `s`, `turns`
/// side-turns (a turn is a side's moves until the other side's: the phase's side, a
/// captured Underworld King's placement by its owner being part of the capturer's
/// turn, rules.md 4.8e), no end before the last move, the last a win for White. Each
/// line in coordinates.
fn help_lines(s: &UState, turns: u32, line: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    for mv in Underworld.moves(s) {
        let next = Underworld.play(s, mv);
        line.push(coord(s, mv));
        let end = Underworld.end(&next);
        let same = next.phase.color() == s.phase.color() && end.is_none();
        let left = if same { turns } else { turns - 1 };
        if left == 0 {
            if end == Some(End::Win(fairysolve::types::Color::White)) {
                out.push(line.clone());
            }
        } else if end.is_none() {
            help_lines(&next, left, line, out);
        }
        line.pop();
    }
}

/// rules.md 8.2 on Underworld (RULES.md): `h#N` is N pairs of turns from Black's, a
/// side's turn being its moves on both boards of the round. With the Underworld
/// inactive the solutions are the orthodox ones; with it active every solution is
/// found, exactly as an enumeration of every line finds them.
#[test]
fn help_mates_count_a_sides_moves_on_both_boards_as_one_turn() {
    use fairysolve::generic::help::solve_help;
    let table = Table::new(8);
    let stop = AtomicBool::new(false);
    let solutions = |line: &str| -> Vec<Vec<String>> {
        let s = state(line);
        let sol = solve_help(
            &Underworld,
            &s,
            fairysolve::types::Color::White,
            4,
            &[2],
            &table,
            &stop,
            None,
        );
        assert!(sol.complete && sol.short.is_empty(), "{line}");
        sol.solutions
            .iter()
            .map(|l| l.iter().map(|(c, _)| c.clone()).collect())
            .collect()
    };
    let inactive = "8/8/8/1k6/6B1/8/3K4/2R5 b - - underworld \"4k3/8/8/8/8/8/8/4K3\"; phase BW;";
    assert_eq!(
        solutions(inactive),
        vec![vec!["W:b5a4", "W:d2c3", "W:a4a3", "W:c1a1"]]
    );
    let active = "8/8/8/1k6/6B1/8/3K4/2R5 b - - underworld \"4k3/8/8/8/8/8/P7/4K3\"; phase BW;";
    let found = solutions(active);
    let mut all = Vec::new();
    help_lines(&state(active), 4, &mut Vec::new(), &mut all);
    all.sort();
    assert_eq!(found, all);
    assert!(found.len() > 100);
    // Every solution's World moves are the orthodox solution's.
    for l in &found {
        let world: Vec<&str> = l
            .iter()
            .filter(|m| m.starts_with("W:"))
            .map(|m| m.as_str())
            .collect();
        assert_eq!(world, ["W:b5a4", "W:d2c3", "W:a4a3", "W:c1a1"], "{l:?}");
    }
}

/// A random position of both boards for help play, drawn widely: the Black king on the
/// World near an edge with White men about it, a few Black men, men of both sides on
/// the Underworld about the Underworld Kings (so that returns, drops and captures of
/// either King happen), and every phase; with the colours of the men swapped
/// (`swapped`: White's king near an edge with Black men about it, as for a self-mate)
/// and with the Underworld holding its Kings alone (`bare_under`: inactive, rule 4.1).
/// `None` when the line breaks rule 4.8c.
fn random_line(rng: &mut Rng, swapped: bool, bare_under: bool) -> Option<(String, UState)> {
    const WHITE: &[char] = &['Q', 'R', 'R', 'B', 'N', 'N', 'P', 'P'];
    const BLACK: &[char] = &['q', 'r', 'b', 'n', 'p', 'p'];
    let mut boards = [[None::<char>; 64]; 2];
    let put = |b: usize, sq: usize, c: char, boards: &mut [[Option<char>; 64]; 2]| {
        if boards[b][sq].is_none() {
            boards[b][sq] = Some(c);
        }
    };
    let edge = [0usize, 7, 56, 63, 3, 60, 24, 31][rng.below(8)];
    let bk = near_square(rng, edge, 1);
    put(0, bk, 'k', &mut boards);
    put(0, rng.below(64), 'K', &mut boards);
    for _ in 0..1 + rng.below(4) {
        let c = WHITE[rng.below(WHITE.len())];
        put(0, near_square(rng, bk, 2), c, &mut boards);
    }
    for _ in 0..rng.below(3) {
        let c = BLACK[rng.below(BLACK.len())];
        put(0, near_square(rng, bk, 2), c, &mut boards);
    }
    let buk = rng.below(64);
    put(1, buk, 'k', &mut boards);
    let wuk = near_square(rng, buk, 3);
    put(1, wuk, 'K', &mut boards);
    for _ in 0..rng.below(4) {
        let c = WHITE[rng.below(WHITE.len())];
        put(1, near_square(rng, buk, 2), c, &mut boards);
    }
    for _ in 0..rng.below(3) {
        let c = BLACK[rng.below(BLACK.len())];
        put(1, near_square(rng, wuk, 2), c, &mut boards);
    }
    for c in boards.iter_mut().flatten().flatten() {
        if swapped {
            *c = if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            };
        }
    }
    if bare_under {
        for c in boards[1].iter_mut() {
            if !matches!(c, Some('K' | 'k')) {
                *c = None;
            }
        }
    }
    // No pawn on the World's first or last rank, nor on the Underworld's own first.
    for (sq, c) in boards[0].iter_mut().enumerate() {
        if matches!(c, Some('P' | 'p')) && !(8..56).contains(&sq) {
            *c = None;
        }
    }
    for (sq, c) in boards[1].iter_mut().enumerate() {
        if (*c == Some('P') && sq < 8) || (*c == Some('p') && sq >= 56) {
            *c = None;
        }
    }
    let phase = ["WW", "BW", "BU", "WU"][rng.below(4)];
    let turn = if phase.starts_with('B') { 'b' } else { 'w' };
    let line = format!(
        "{} {turn} - - underworld \"{}\"; phase {phase};",
        placement_fen(&boards[0]),
        placement_fen(&boards[1])
    );
    let s = read_line(&line).ok()?.state;
    Some((line, s))
}

/// rules.md 8.2 on Underworld with the bound of help play (`underworld::help_bound`)
/// and the last World move found among the mates: on random positions of both boards,
/// from every phase, help play finds exactly the lines that playing every move of both
/// sides finds, one to three turns deep, returns that mate among them.
#[test]
fn help_play_with_its_bound_finds_every_line_played_out() {
    use fairysolve::generic::help::solve_help;
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let stop = AtomicBool::new(false);
    let (mut compared, mut with_lines, mut returns, mut bounded) = (0, 0, 0, 0);
    while compared < 3_000 {
        // A third with the Underworld holding its Kings alone, as a generated
        // help-mate's: it wakes only when a man is captured.
        let bare = rng.below(3) == 0;
        let Some((line, s)) = random_line(&mut rng, false, bare) else {
            continue;
        };
        // One to three turns ending with White's: as many as the side to move allows.
        let turns = match (s.phase.color(), rng.below(5)) {
            (fairysolve::types::Color::White, 0) => 3,
            (fairysolve::types::Color::White, _) => 1,
            _ => 2,
        };
        let table = Table::new(8);
        let sol = solve_help(
            &Underworld,
            &s,
            fairysolve::types::Color::White,
            turns,
            &[],
            &table,
            &stop,
            None,
        );
        let mut found: Vec<Vec<String>> = sol
            .solutions
            .iter()
            .map(|l| l.iter().map(|(c, _)| c.clone()).collect())
            .collect();
        found.sort();
        let mut all = Vec::new();
        help_lines(&s, turns, &mut Vec::new(), &mut all);
        all.sort();
        assert!(sol.complete);
        assert_eq!(found, all, "{line}, {turns} turns");
        compared += 1;
        if fairysolve::underworld::help_bound::mate_out_of_reach(
            &s,
            fairysolve::types::Color::White,
            turns,
        ) {
            bounded += 1;
        }
        if !all.is_empty() {
            with_lines += 1;
        }
        // A line with a man returned to the World.
        if all.iter().flatten().any(|m| m.contains("@W")) {
            returns += 1;
        }
    }
    assert!(with_lines >= 200, "{with_lines} positions with a line");
    assert!(returns >= 20, "{returns} positions with a return in a line");
    assert!(bounded >= 800, "{bounded} positions bounded at the root");
}

/// `random_line` with White's king or Black's beset and the Underworld active or bare,
/// drawn at random; `None` also where the game is over.
fn random_game_going_on(rng: &mut Rng) -> Option<(String, UState)> {
    let (swapped, bare) = (rng.below(2) == 0, rng.below(3) == 0);
    random_line(rng, swapped, bare).filter(|(_, s)| Underworld.end(s).is_none())
}

/// Whether `attacker` forces the goal from `s` (the game going on there) within
/// `rounds` rounds, this one included, every move of both sides played: a mate of the
/// other side (`self_mate` false) or, for a self-mate, a win of the other side's by a
/// turn of its own (rules.md 8.1, 8.3; a King's placement belongs to the capturer's
/// turn, 4.8e).
fn forces(s: &UState, attacker: Color, rounds: u32, self_mate: bool) -> bool {
    let g = Underworld;
    let mut outcomes = g
        .moves(s)
        .into_iter()
        .map(|m| move_forces(s, m, attacker, rounds, self_mate));
    if s.mover() == attacker {
        outcomes.any(|x| x)
    } else {
        outcomes.all(|x| x)
    }
}

/// Whether `m` played in `s` leads to the goal of `forces` within `rounds`.
fn move_forces(
    s: &UState,
    m: fairysolve::underworld::UMove,
    attacker: Color,
    rounds: u32,
    self_mate: bool,
) -> bool {
    let g = Underworld;
    let next = g.play(s, m);
    if let Some(end) = g.end(&next) {
        return if self_mate {
            g.turn_owner(s) == !attacker && end == End::Win(!attacker)
        } else {
            end == End::Win(attacker)
        };
    }
    let left = if g.new_round(s, &next) {
        rounds - 1
    } else {
        rounds
    };
    left > 0 && forces(&next, attacker, left, self_mate)
}

/// Whether some line from `s` brings a win for either side before a new round begins.
fn a_win_in_the_round(s: &UState) -> bool {
    let g = Underworld;
    g.moves(s).into_iter().any(|m| {
        let next = g.play(s, m);
        matches!(g.end(&next), Some(End::Win(_)))
            || (!g.new_round(s, &next) && g.end(&next).is_none() && a_win_in_the_round(&next))
    })
}

/// The lemmas of `underworld::last_turn`, on random positions of both boards from
/// every phase (White's king or Black's beset, the Underworld active or holding its
/// Kings alone): after a quiet move nobody wins before the round ends, whatever both
/// sides play; and each move of White's that a candidate list leaves out reaches
/// neither the mate nor the self-mate within the round.
#[test]
fn the_last_turns_are_decided_as_every_move_played_decides() {
    use fairysolve::underworld::last_turn::{mate_candidates, quiet_move, self_mate_candidates};
    let g = Underworld;
    let mut rng = Rng(0x9E6C_63D0_676A_9A99);
    let (mut quiet, mut left_out) = ([0usize; 4], [0usize; 2]);
    let mut drawn = 0;
    while drawn < 4_000 {
        let Some((line, s)) = random_game_going_on(&mut rng) else {
            continue;
        };
        drawn += 1;
        let moves = g.moves(&s);
        if let Some(m) = quiet_move(&g, &s) {
            assert!(moves.contains(&m), "{line}: {m:?} is no move");
            let after = g.play(&s, m);
            assert!(
                !matches!(g.end(&after), Some(End::Win(_))),
                "{line}: {m:?} wins"
            );
            assert!(
                g.new_round(&s, &after) || g.end(&after).is_some() || !a_win_in_the_round(&after),
                "{line}: a win in the round after {m:?}"
            );
            quiet[s.phase.index()] += 1;
        }
        let lists = [
            (self_mate_candidates(&g, &s), true),
            (mate_candidates(&g, &s), false),
        ];
        for (list, self_mate) in lists {
            let Some(list) = list else { continue };
            for &m in moves.iter().filter(|m| !list.contains(m)) {
                assert!(
                    !move_forces(&s, m, Color::White, 1, self_mate),
                    "{line}: {m:?} left out, but it forces the {} in the round",
                    if self_mate { "self-mate" } else { "mate" }
                );
                left_out[usize::from(self_mate)] += 1;
            }
        }
    }
    // Quiet moves at BW, BU and WU; moves left out of both lists.
    assert!(
        quiet[1] >= 300 && quiet[2] >= 300 && quiet[3] >= 300,
        "{quiet:?}"
    );
    assert!(left_out[0] >= 2_000 && left_out[1] >= 2_000, "{left_out:?}");
}

/// `s#1`, `s#2`, `#1` and `#2` on Underworld proved by the solver core, with the last
/// turns decided by `underworld::last_turn`, as playing every move proves them, on
/// random positions of both boards from every phase, the side to move attacking (as
/// `solve` has it: Black from BW and BU).
#[test]
fn self_mates_and_mates_are_proved_as_every_move_played_proves() {
    use fairysolve::generic::search::{Goal, Prover};
    let mut rng = Rng(0x2F1B_5C3D_8E7A_6B41);
    let stop = AtomicBool::new(false);
    let (mut compared, mut proved_true) = (0, [0usize; 2]);
    while compared < 6_000 {
        let Some((line, s)) = random_game_going_on(&mut rng) else {
            continue;
        };
        // Two rounds from a phase late in the round; one from its start.
        let n = if s.phase.index() >= 2 && rng.below(2) == 0 {
            2
        } else {
            1
        };
        compared += 1;
        for (goal, self_mate) in [(Goal::SelfLoss, true), (Goal::Win, false)] {
            let table = Table::new(8);
            let proved = Prover::new(&Underworld, s.mover(), goal, &table, &stop, None)
                .wins(&s, n)
                .expect("no limit");
            let played = forces(&s, s.mover(), n, self_mate);
            assert_eq!(proved, played, "{line}: {goal:?} in {n}");
            proved_true[usize::from(self_mate)] += usize::from(played);
        }
    }
    // Self-mates are rare among random diagrams: the bench suite's lines supply them
    // (`the_bench_self_mates_are_proved_as_played_at_every_node_of_their_last_round`).
    assert!(proved_true[0] >= 100, "{proved_true:?}");
}

/// The text of the Underworld self-mate bench suite.
fn self_mate_suite() -> String {
    std::fs::read_to_string(common::repo_path("positions/bench/underworld-self.epd"))
        .expect("the suite")
}

/// The Underworld self-mate bench suite (`positions/bench/underworld-self.epd`): each
/// line's key set as its `c1` lists it, proved by the solver core with the last turns
/// of `underworld::last_turn`.
#[test]
fn the_self_mate_bench_suite_has_its_keys() {
    use fairysolve::generic::search::{solve_for, Goal};
    use fairysolve::problem::Aim;
    let text = self_mate_suite();
    let (mut self_mates, mut others) = (0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let p = read_line(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        let stip = p.stipulation.expect("a stipulation");
        let goal = if stip.aim == Aim::Selfmate {
            Goal::SelfLoss
        } else {
            Goal::Win
        };
        let table = Table::new(16);
        let stop = AtomicBool::new(false);
        let opts = SolveOptions {
            threads: 1,
            ..SolveOptions::default()
        };
        let sol = solve_for(
            &Underworld,
            goal,
            &table,
            &p.state,
            stip.moves,
            &opts,
            &stop,
            &|_, _| {},
        );
        assert!(sol.finished(), "{line}");
        let mut keys: Vec<&str> = sol.keys.iter().map(|k| k.0.as_str()).collect();
        keys.sort();
        let listed = line.split("keys: ").nth(1).expect("c1").split('"').next();
        let want: Vec<&str> = listed
            .expect("c1")
            .split_whitespace()
            .filter(|&k| k != "none")
            .collect();
        assert_eq!(keys, want, "{line}");
        if keys.is_empty() {
            others += 1;
        } else {
            self_mates += usize::from(goal == Goal::SelfLoss);
        }
    }
    assert_eq!(
        (self_mates, others),
        (11, 4),
        "self-mates, lines without a key"
    );
}

/// Two last turns where the Underworld's rules reach into the World: a pass of Black's
/// at BU that a World move turns into a forced capture of White's Underworld King (the
/// pawn's return has a free square only after the promotion, rule 4d, and mates White
/// on h7: 1.h8=N Kg4, BU g3xh2 (=Ph7@W)#); and a return at WU of White's own that
/// takes its last flight while it is in check (its King takes Black's and the knight
/// lands on g1), which ends the game at White's World turn with no turn of Black's:
/// no self-mate (rules.md 8.3, 4.8e). The solver core, with its shortcuts, against
/// every move played.
#[test]
fn a_forced_return_and_a_return_into_mate_are_judged_as_played() {
    use fairysolve::generic::search::{Goal, Prover};
    let cases = [
        (
            "8/6NP/5BKP/6nP/7k/7p/7P/8 w - - underworld \"6pk/6pp/6pp/6pp/6pp/6pp/6pK/6p1\"; phase WW;",
            true,
        ),
        (
            "k7/8/8/8/8/8/5nPP/7K w - - underworld \"8/8/7N/4k3/4K3/8/8/8\"; phase WU;",
            false,
        ),
    ];
    let stop = AtomicBool::new(false);
    for (line, self_mate) in cases {
        let s = state(line);
        assert_eq!(forces(&s, Color::White, 1, true), self_mate, "{line}");
        let table = Table::new(8);
        let proved = Prover::new(
            &Underworld,
            Color::White,
            Goal::SelfLoss,
            &table,
            &stop,
            None,
        )
        .wins(&s, 1)
        .expect("no limit");
        assert_eq!(proved, self_mate, "{line}");
    }
    // The first: only 1.h8=N and 1.h8=B leave Black its one World move and force the
    // return.
    let s = state(cases[0].0);
    let keys: Vec<String> = Underworld
        .moves(&s)
        .into_iter()
        .filter(|&m| move_forces(&s, m, Color::White, 1, true))
        .map(|m| coord(&s, m))
        .collect();
    assert_eq!(keys, ["W:h7h8b", "W:h7h8n"]);
}

/// The `s#2` lines of the Underworld bench suite, each proved by the solver core as
/// playing every move proves it, and every state at which the last round begins after
/// each first move of White's and each answer of Black's (many of them self-mates in
/// one, or refuted by one defence only), every eighth: `s#1` and `#1` there against
/// every move played.
#[test]
fn the_bench_self_mates_are_proved_as_played_at_every_node_of_their_last_round() {
    use fairysolve::generic::search::{Goal, Prover};
    let text = self_mate_suite();
    let stop = AtomicBool::new(false);
    let proved = |s: &UState, goal: Goal, n: u32| {
        let table = Table::new(8);
        Prover::new(&Underworld, Color::White, goal, &table, &stop, None)
            .wins(s, n)
            .expect("no limit")
    };
    let (mut lines, mut last_rounds, mut self_mates) = (0, 0, 0);
    for line in text.lines().filter(|l| l.contains("stip \"s#2\"")) {
        let root = state(line);
        assert!(forces(&root, Color::White, 2, true), "{line}");
        assert!(proved(&root, Goal::SelfLoss, 2), "{line}");
        lines += 1;
        // The states of the last round's start: every line of round 1 played out.
        let mut round = vec![root];
        let mut starts = Vec::new();
        while let Some(s) = round.pop() {
            for m in Underworld.moves(&s) {
                let next = Underworld.play(&s, m);
                if Underworld.end(&next).is_some() {
                    continue;
                }
                if Underworld.new_round(&s, &next) {
                    starts.push(next);
                } else {
                    round.push(next);
                }
            }
        }
        // Every eighth of them (all of them take a minute of play).
        for s in starts.into_iter().step_by(8) {
            for (goal, self_mate) in [(Goal::SelfLoss, true), (Goal::Win, false)] {
                let played = forces(&s, Color::White, 1, self_mate);
                assert_eq!(
                    proved(&s, goal, 1),
                    played,
                    "{line}: {goal:?} from {}",
                    line_of(&s)
                );
                self_mates += usize::from(self_mate && played);
            }
            last_rounds += 1;
        }
    }
    assert_eq!(lines, 6, "s#2 lines");
    assert!(
        last_rounds >= 10_000 && self_mates >= 80,
        "{last_rounds} states, {self_mates} self-mates"
    );
}

/// A capture on the World that wakes the Underworld is no quiet move: after the waiting
/// 1.d4 Black's one move b7xa6 takes the rook, which drops to a1 of the Underworld and
/// checks Black's Underworld King, left with no safe square (rules.md 4.3, 4c); White's
/// rook (or King) takes it at WU and the rook returns to a1 of the World with mate
/// (4d, 4e). So 1.d4 mates within the round, though Black's reply takes and gives no
/// check: neither `quiet_move` nor the filter of White's last turn may count such a
/// reply, and the key set is the one playing every move gives.
#[test]
fn a_capture_that_wakes_the_underworld_is_no_quiet_reply() {
    use fairysolve::generic::search::{solve_for, Goal};
    use fairysolve::underworld::last_turn::{mate_candidates, quiet_move};
    let line = "8/1p6/RP6/8/8/3P4/5K1p/7k w - - underworld \"k7/2K5/8/8/8/8/8/8\"; phase WW;";
    let root = state(line);
    let g = Underworld;
    let waiting = parse(&g, &root, "W:d3d4").expect("a move");
    let after = g.play(&root, waiting);
    assert_eq!(moves(&after), ["W:b7a6"]);
    assert!(
        forces(&after, Color::White, 1, false),
        "1.d4 mates in the round"
    );
    assert_eq!(quiet_move(&g, &after), None);
    assert!(
        mate_candidates(&g, &root).is_none_or(|kept| kept.contains(&waiting)),
        "1.d4 left out"
    );
    let mut want: Vec<String> = g
        .moves(&root)
        .into_iter()
        .filter(|&m| move_forces(&root, m, Color::White, 1, false))
        .map(|m| coord(&root, m))
        .collect();
    want.sort();
    let table = Table::new(8);
    let stop = AtomicBool::new(false);
    let opts = SolveOptions {
        threads: 1,
        ..SolveOptions::default()
    };
    let sol = solve_for(&g, Goal::Win, &table, &root, 1, &opts, &stop, &|_, _| {});
    let mut keys: Vec<String> = sol.keys.iter().map(|k| k.0.clone()).collect();
    keys.sort();
    assert_eq!(keys, want);
    assert!(want.contains(&"W:d3d4".to_string()) && want.contains(&"W:a6a1".to_string()));
}
