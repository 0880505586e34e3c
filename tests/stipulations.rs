//! Help-mates and self-mates (rules.md 8.2, 8.3) on the solver core, against references
//! that apply the definitions literally: every line of both sides, no table. On random
//! small positions under FIDE, Trapdoor and Taxi rules.

mod common;

use common::help_self::ending;
use common::{put_at_random, Rng};
use fairysolve::game::AnyGame;
use fairysolve::generic::adapter::{BoardState, OneBoard};
use fairysolve::generic::help::solve_help;
use fairysolve::generic::search::{solve_for, Goal};
use fairysolve::moves::Move;
use fairysolve::search::solution::SolveOptions;
use fairysolve::search::tt::Table;
use fairysolve::{Color, Position, Role};
use std::sync::atomic::AtomicBool;

/// Every line of exactly `turns` moves from `pos` with no end before the last move and
/// White's win by the last one (rules.md 8.2), in coordinates.
fn help_lines(
    game: &AnyGame,
    pos: &Position,
    turns: u32,
    prefix: &mut Vec<String>,
    out: &mut Vec<String>,
) {
    for &mv in game.legal_moves(pos).iter() {
        let (next, end) = ending(game, pos, mv);
        prefix.push(mv.coord(false).to_string());
        match (turns, end) {
            (1, Some(Some(Color::White))) if pos.turn() == Color::White => {
                out.push(prefix.join(" "))
            }
            (1, _) | (_, Some(_)) => {}
            _ => help_lines(game, &next, turns - 1, prefix, out),
        }
        prefix.pop();
    }
}

/// Whether White, to move in `pos`, forces Black to win by Black's own move within `n`
/// Black moves (rules.md 8.3).
fn self_wins(game: &AnyGame, pos: &Position, n: u32) -> bool {
    game.legal_moves(pos)
        .iter()
        .any(|&mv| self_wins_with(game, pos, mv, n))
}

fn self_wins_with(game: &AnyGame, pos: &Position, mv: Move, n: u32) -> bool {
    let (next, end) = ending(game, pos, mv);
    if end.is_some() {
        return false;
    }
    game.legal_moves(&next).iter().all(|&d| {
        let (after, end) = ending(game, &next, d);
        match end {
            Some(Some(Color::Black)) => true,
            Some(_) => false,
            None => n > 1 && self_wins(game, &after, n - 1),
        }
    })
}

fn random_line(rng: &mut Rng, turn: char) -> String {
    random_line_of(rng, turn, b"QRBNPqrbnp")
}

/// A random sparse placement: both kings and a few men drawn from `men`.
fn random_line_of(rng: &mut Rng, turn: char, men: &[u8]) -> String {
    let mut board = [None::<char>; 64];
    put_at_random(&mut board, rng, 'K', |_| true);
    put_at_random(&mut board, rng, 'k', |_| true);
    for _ in 0..2 + rng.below(4) {
        let piece = men[rng.below(men.len())] as char;
        put_at_random(&mut board, rng, piece, |_| true);
    }
    fen_of(&board, turn)
}

/// The FEN of a placement (a1 first), no castling, no en passant.
fn fen_of(board: &[Option<char>; 64], turn: char) -> String {
    format!("{} {turn} - -", common::placement_fen(board))
}

fn problem(line: &str) -> Option<fairysolve::problem::Problem> {
    match fairysolve::epd::parse_line(line, 1) {
        Ok(fairysolve::epd::Line::Position(rec)) => fairysolve::problem::from_record(*rec).ok(),
        _ => None,
    }
}

const RULES: [&str; 4] = [
    "",
    " trapdoor 1;",
    " taxi \"4 3\"; taxi_income 1;",
    " earthquake \"1 0\";",
];

/// Every single-board game the help bound serves, drawn widely: both Trapdoor orders
/// and timers, Taxi with little cash or none and no income, with an income that pays a
/// king's step but perhaps no fee at the mate (a flight may then be barred by a man too
/// dear to take), and with cash that pays every king's step and fee at the mate (the
/// bound's flight condition then holds as in FIDE) or only near it, Earthquake boards
/// that overlap, leave a void (blocking or flown over) or put a1 beside h5, and
/// mixtures.
const BOUND_RULES: [&str; 14] = [
    "",
    " trapdoor 1;",
    " trapdoor 2; trapdoor_order falls-first;",
    " taxi \"4 3\"; taxi_income 1;",
    " taxi \"1 0\"; taxi_income 0;",
    " taxi \"0 1\"; taxi_income 1;",
    " taxi \"3 2\"; taxi_income 2; trapdoor 1;",
    " taxi \"30 30\"; taxi_income 5;",
    " taxi \"12 12\"; taxi_income 2; trapdoor 1;",
    " earthquake \"1 0\";",
    " earthquake \"0 -1\"; void fly;",
    " earthquake \"8 4\";",
    " earthquake \"-2 1\"; trapdoor 1;",
    " earthquake \"0 -1\"; taxi \"9 9\";",
];

/// A random position biased toward help-mates: a king near an edge, more men.
fn crowded_line(rng: &mut Rng, turn: char) -> String {
    if rng.below(2) == 0 {
        return random_line_of(rng, turn, b"QRBNPPqrbnpp");
    }
    // The black king on an edge with men of its own around it, as in a help-mate's
    // final picture: flights taken by its men, others left to White.
    let mut board = [None::<char>; 64];
    let edge = loop {
        let sq = rng.below(64);
        if sq / 8 == 0 || sq / 8 == 7 || sq.is_multiple_of(8) || sq % 8 == 7 {
            break sq;
        }
    };
    board[edge] = Some('k');
    let (kf, kr) = ((edge % 8) as i32, (edge / 8) as i32);
    for _ in 0..1 + rng.below(3) {
        let (df, dr) = (rng.below(5) as i32 - 2, rng.below(5) as i32 - 2);
        let (f, r) = (kf + df, kr + dr);
        if (0..8).contains(&f) && (0..8).contains(&r) && board[(r * 8 + f) as usize].is_none() {
            let man = b"qrbnpp"[rng.below(6)] as char;
            if man != 'p' || (r != 0 && r != 7) {
                board[(r * 8 + f) as usize] = Some(man);
            }
        }
    }
    // White's king never next to Black's.
    let apart = |sq: usize| {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        (f - kf).abs() > 1 || (r - kr).abs() > 1
    };
    put_at_random(&mut board, rng, 'K', apart);
    for _ in 0..1 + rng.below(3) {
        let man = b"QRBNP"[rng.below(5)] as char;
        put_at_random(&mut board, rng, man, |_| true);
    }
    fen_of(&board, turn)
}

/// The help bound (`Game::mate_out_of_reach`, search/mate_bound.rs) never calls a
/// position hopeless from which the definition (every move of both sides played) finds
/// a help-mate of that many turns; and it does call many hopeless.
#[test]
fn the_mate_bound_never_hides_a_help_mate() {
    let (pruned, solvable, _) =
        bound_against_definition(0x5EED_B0DD_1234_0001, 6000, 1, usize::MAX, &BOUND_RULES);
    assert!(pruned > 600, "the bound pruned only {pruned} of 6000");
    assert!(solvable > 100, "only {solvable} positions with a help-mate");
}

/// The help bound with three and four moves of the mating side left, where its search of
/// who covers what (`Cover`) decides most: never hopeless where the definition finds a
/// help-mate of that many turns (5 to 8), on sparse positions of every game the bound
/// serves, each near a mate picture (the black king on an edge, its men around it).
#[test]
fn the_mate_bound_never_hides_a_deep_help_mate() {
    // Few men: the definition plays every line of up to eight moves.
    let (pruned, solvable, _) =
        bound_against_definition(0x5EED_B0DD_1234_0002, 400, 5, 5, &BOUND_RULES);
    assert!(pruned > 40, "the bound pruned only {pruned} of 400");
    assert!(solvable > 40, "only {solvable} positions with a help-mate");
}

/// Taxi where the mated side surely pays a king's step at the mate but perhaps not a
/// capture's fee (`Flights::OrTooDear`: a flight may be barred by a man of the mating
/// side standing on it): the bound, its search of who covers what included, never
/// hides a help-mate of one to eight turns, and prunes many positions.
#[test]
fn the_mate_bound_never_hides_a_help_mate_when_a_fee_may_bar_a_flight() {
    const POOR: [&str; 4] = [
        " taxi \"0 1\"; taxi_income 1;",
        " taxi \"4 3\"; taxi_income 1;",
        " taxi \"3 2\"; taxi_income 2; trapdoor 1;",
        " earthquake \"0 -1\"; taxi \"9 9\"; taxi_income 1;",
    ];
    let (pruned, solvable, stood) =
        bound_against_definition(0x5EED_B0DD_1234_0003, 3000, 1, usize::MAX, &POOR);
    assert!(pruned > 300, "the bound pruned only {pruned} of 3000");
    assert!(solvable > 50, "only {solvable} positions with a help-mate");
    assert!(
        stood > 50,
        "only {stood} help-mates where a man may stand on a flight"
    );
    let (pruned, solvable, _) = bound_against_definition(0x5EED_B0DD_1234_0004, 300, 5, 5, &POOR);
    assert!(
        pruned > 30,
        "the bound pruned only {pruned} of 300 deep ones"
    );
    assert!(
        solvable > 30,
        "only {solvable} deep positions with a help-mate"
    );
}

/// A flight barred only by a man of the mating side that moves onto it (rules.md 2.1,
/// 2.3): after 1.a7 h4 2.Nc7 Black holds one guilder and cannot pay for Kxa7 (a step
/// and the fee of the edge, two) nor for a knight's move (two), and b7 and b8 are its
/// own: mate. The bound, which lets a man standing on a flight bar it here, must not
/// call the diagram hopeless (`mate_bound`'s own test covers the standing alone).
#[test]
fn a_flight_barred_by_a_man_too_dear_to_take_is_no_flight() {
    let line = "kn6/1p6/P7/3N3p/8/8/8/7K w - - taxi \"30 0\"; taxi_income 1;";
    let p = problem(line).expect("the line reads");
    assert!(help_mate_exists(
        &p.game,
        &p.position,
        3,
        &mut Default::default()
    ));
    let hopeless =
        fairysolve::with_game!(&p.game, g => g.mate_out_of_reach(&p.position, Color::White, 3));
    assert!(!hopeless, "{line}: called hopeless");
}

/// The bound against the definition on `count` positions of `crowded_line` under the
/// games of `rules`, each with `first_turns` to `first_turns + 3` turns and at
/// most `most_men` men (one fewer beyond six turns): the bound may never call a
/// position hopeless that has a help-mate. How many it called hopeless, how many had a
/// help-mate, and how many of those the bound judged where a flight may be barred by a
/// man of the mating side standing on it (`Flights::OrTooDear`).
fn bound_against_definition(
    seed: u64,
    count: u32,
    first_turns: u32,
    most_men: usize,
    rules: &[&str],
) -> (u32, u32, u32) {
    let mut rng = Rng(seed);
    let (mut checked, mut pruned, mut solvable, mut stood) = (0, 0, 0, 0);
    while checked < count {
        let turns = first_turns + rng.below(4) as u32;
        let first = if turns % 2 == 1 { 'w' } else { 'b' };
        let fen = crowded_line(&mut rng, first);
        let men = fen
            .split(' ')
            .next()
            .unwrap_or("")
            .chars()
            .filter(char::is_ascii_alphabetic)
            .count();
        if men > most_men - usize::from(turns > 6) {
            continue;
        }
        let line = format!("{fen}{}", rules[rng.below(rules.len())]);
        let Some(p) = problem(&line) else { continue };
        let exists = help_mate_exists(&p.game, &p.position, turns, &mut Default::default());
        let hopeless = fairysolve::with_game!(&p.game, g => g.mate_out_of_reach(&p.position, Color::White, turns));
        assert!(
            !hopeless || !exists,
            "{line}: called hopeless for {turns} turns, but a help-mate exists"
        );
        let flights = fairysolve::with_game!(&p.game, g => g.flights_barred_by(&p.position, Color::White, turns));
        pruned += hopeless as u32;
        solvable += exists as u32;
        stood += u32::from(exists && flights == fairysolve::search::mate_bound::Flights::OrTooDear);
        checked += 1;
    }
    (pruned, solvable, stood)
}

/// Whether some line of exactly `turns` moves from `pos` ends with White's win by the
/// last move and nothing before it (rules.md 8.2): `help_lines` as a yes or no, the
/// states proved to have none remembered with their turns left.
fn help_mate_exists(
    game: &AnyGame,
    pos: &Position,
    turns: u32,
    failed: &mut std::collections::HashSet<(u64, u32)>,
) -> bool {
    if failed.contains(&(pos.hash(), turns)) {
        return false;
    }
    let found = game.legal_moves(pos).iter().any(|&mv| {
        let (next, end) = ending(game, pos, mv);
        match (turns, end) {
            (1, Some(Some(Color::White))) => pos.turn() == Color::White,
            (1, _) | (_, Some(_)) => false,
            _ => help_mate_exists(game, &next, turns - 1, failed),
        }
    });
    if !found {
        failed.insert((pos.hash(), turns));
    }
    found
}

/// The premise of help play's shared Taxi keys (`search::table_key::help_key`): a side's
/// cash at or above its indifferent amount for the turns left (`taxi::indifferent_cash`,
/// each side given `turns / 2 + 1` turns) gives the same help-mates whatever the
/// amount, every line of both sides played (rules.md 2, 8.2).
#[test]
fn help_mates_are_the_same_for_any_cash_beyond_the_indifferent_amounts() {
    let mut rng = Rng(0x7A41_CA5B_0000_0001);
    let (mut compared, mut with_solutions) = (0, 0);
    while compared < 150 {
        let (turns, first) = [(2, 'b'), (4, 'b'), (3, 'w')][rng.below(3)];
        let fen = random_line(&mut rng, first);
        let income = rng.below(4) as u32;
        let Some(p) = problem(&format!("{fen} taxi \"0 0\"; taxi_income {income};")) else {
            continue;
        };
        let Some(taxi) = p.game.rules().taxi else {
            continue;
        };
        let dearest = fairysolve::with_game!(&p.game, g => g.taxi_dearest());
        let each = turns / 2 + 1;
        let [mover, other] = fairysolve::taxi::indifferent_cash(
            &fairysolve::geometry::Standard,
            &taxi,
            dearest,
            each,
            each,
        );
        // Each amount beyond its need: the diagram is legal with all or none (the side
        // not to move in check or not), and has the same help-mates.
        let mut sets = Vec::new();
        for (more_mover, more_other) in [(0, 0), (7, 1), (1, 12)] {
            let (m, o) = (mover + more_mover, other + more_other);
            let (white, black) = if first == 'w' { (m, o) } else { (o, m) };
            let line = format!("{fen} taxi \"{white} {black}\"; taxi_income {income};");
            let lines = problem(&line).map(|p| {
                let mut lines = Vec::new();
                help_lines(&p.game, &p.position, turns, &mut Vec::new(), &mut lines);
                lines.sort();
                lines
            });
            sets.push((line, lines));
        }
        for (line, lines) in &sets[1..] {
            assert_eq!(lines, &sets[0].1, "{line} against {}", sets[0].0);
        }
        let Some(solutions) = &sets[0].1 else {
            continue;
        };
        with_solutions += !solutions.is_empty() as u32;
        compared += 1;
    }
    assert!(
        with_solutions > 15,
        "only {with_solutions} with a help-mate"
    );
}

/// rules.md 8.2: the core's solutions of h#1, h#2 and h#1.5 are the reference's.
#[test]
fn rule_8_2_help_mates_equal_the_definition() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let (mut compared, mut with_solutions) = (0, 0);
    while compared < 300 {
        let (turns, first) = [(2, 'b'), (4, 'b'), (3, 'w')][rng.below(3)];
        let line = format!(
            "{}{}",
            random_line(&mut rng, first),
            BOUND_RULES[rng.below(BOUND_RULES.len())]
        );
        let Some(p) = problem(&line) else { continue };
        let mut want = Vec::new();
        help_lines(&p.game, &p.position, turns, &mut Vec::new(), &mut want);
        want.sort();
        let stop = AtomicBool::new(false);
        let table = fairysolve::search::tt::Table::new(4);
        let got: Vec<String> = fairysolve::with_game!(&p.game, g => {
            let game = OneBoard { game: g, attacker: p.position.turn() };
            let sol = solve_help(&game, &BoardState::new(p.position), Color::White, turns, &[], &table, &stop, None);
            assert!(sol.complete);
            sol.solutions.iter().map(|l| l.iter().map(|(c, _)| c.clone()).collect::<Vec<_>>().join(" ")).collect()
        });
        assert_eq!(got, want, "{line} ({turns} turns)");
        compared += 1;
        with_solutions += (!want.is_empty()) as usize;
    }
    assert!(with_solutions >= 20, "only {with_solutions} with solutions");
}

/// rules.md 8.3: the core's keys of s#1 and s#2 are the reference's.
#[test]
fn rule_8_3_self_mates_equal_the_definition() {
    let mut rng = Rng(0x0FED_CBA9_8765_4321);
    let (mut compared, mut with_keys) = (0, 0);
    while compared < 1500 {
        let n = 1 + rng.below(2) as u32;
        // Black's men strong, White's few: self-mates are then less rare.
        let board = random_line_of(&mut rng, 'w', b"QRNqqrrbnp");
        let line = format!("{board}{}", RULES[rng.below(4)]);
        let Some(p) = problem(&line) else { continue };
        let mut want: Vec<String> = p
            .game
            .legal_moves(&p.position)
            .iter()
            .filter(|&&mv| self_wins_with(&p.game, &p.position, mv, n))
            .map(|mv| mv.coord(false).to_string())
            .collect();
        want.sort();
        let stop = AtomicBool::new(false);
        let table = Table::new(4);
        let opts = SolveOptions {
            threads: 1,
            tree: true,
            tries: true,
            ..SolveOptions::default()
        };
        let mut got: Vec<String> = fairysolve::with_game!(&p.game, g => {
            let game = OneBoard { game: g, attacker: Color::White };
            let sol = solve_for(&game, Goal::SelfLoss, &table, &BoardState::new(p.position), n, &opts, &stop, &|_, _| {});
            assert!(sol.finished());
            sol.keys.iter().map(|k| k.0.clone()).collect()
        });
        got.sort();
        assert_eq!(got, want, "{line} s#{n}");
        compared += 1;
        with_keys += (!want.is_empty()) as usize;
    }
    // Self-mates are rare among random placements (about 1 in 50,000): the sample
    // proves the absence of false keys; `rule_8_3_self_mates_found_by_an_independent_scan` the
    // keys that exist.
    let _ = with_keys;
}

/// rules.md 8.3 where a self-mate exists: four positions found by scanning 200,000
/// random placements with an independent program (python-chess, FIDE rules), each with
/// its one key; the reference and the core agree on each.
#[test]
fn rule_8_3_self_mates_found_by_an_independent_scan() {
    for (fen, key) in [
        ("3r4/4K3/8/5k2/7Q/8/5N2/q7 w - -", "h4f6"),
        ("8/q3B3/8/8/3N4/8/2B4Q/K1k5 w - -", "e7a3"),
        ("5q2/8/5R2/7B/7n/8/7R/k6K w - -", "f6f1"),
        ("2k1K3/1r2Q3/8/8/3r4/8/Pr6/8 w - -", "e7d8"),
    ] {
        let p = problem(fen).unwrap();
        let want: Vec<String> = p
            .game
            .legal_moves(&p.position)
            .iter()
            .filter(|&&mv| self_wins_with(&p.game, &p.position, mv, 1))
            .map(|mv| mv.coord(false).to_string())
            .collect();
        assert_eq!(want, [key], "reference: {fen}");
        let stop = AtomicBool::new(false);
        let table = Table::new(4);
        let opts = SolveOptions::default();
        let got: Vec<String> = fairysolve::with_game!(&p.game, g => {
            let game = OneBoard { game: g, attacker: Color::White };
            let sol = solve_for(&game, Goal::SelfLoss, &table, &BoardState::new(p.position), 1, &opts, &stop, &|_, _| {});
            sol.keys.iter().map(|k| k.0.clone()).collect()
        });
        assert_eq!(got, [key], "core: {fen}");
    }
}

/// A random position with castling rights or an en passant right where the placement
/// allows them, else the plain random line: the rare kinds of move the self-mate
/// filter must keep or judge.
fn with_rights(rng: &mut Rng, line: String) -> String {
    let extras = [
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq -",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6",
        "r3k3/1q6/8/2pP4/8/8/6n1/R3K2R w KQq c6",
        "8/8/8/KPp4r/8/8/8/7k w - c6",
        "1k6/8/8/8/2pP4/8/1r6/K7 b - d3",
    ];
    if rng.below(8) == 0 {
        extras[rng.below(extras.len())].to_string()
    } else {
        line
    }
}

/// Positions near the end of published self-mates: each problem of
/// positions/selfmates/ and positions/bench/selfmates-s4-s6.epd, with a random walk of
/// up to eight plies played from it, White to move at the end. Where self-mates in one
/// are common, unlike among random placements.
fn near_self_mates(rng: &mut Rng) -> Vec<String> {
    let mut lines = Vec::new();
    for file in [
        "positions/selfmates/published.epd",
        "positions/bench/selfmates-s4-s6.epd",
    ] {
        let text =
            std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        for record in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let Some(p) = problem(record) else { continue };
            for _ in 0..200 {
                let mut pos = p.position;
                for _ in 0..rng.below(5) * 2 {
                    let moves = p.game.legal_moves(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    pos = p.game.play(&pos, moves[rng.below(moves.len())]).position;
                }
                if pos.turn() == Color::White && !p.game.legal_moves(&pos).is_empty() {
                    lines.push(fairysolve::fen::write_fen(&pos));
                }
            }
        }
    }
    lines
}

/// A random position where the defender can hardly move: its king walled in a corner
/// by its own men, one or two of its men free, and the attacker's men anywhere, so that
/// a single move of White's may leave Black nothing but mates.
fn walled_in_line(rng: &mut Rng) -> String {
    let mut board = [None::<char>; 64];
    let corner = [0usize, 7, 56, 63][rng.below(4)];
    let (kf, kr) = ((corner % 8) as i32, (corner / 8) as i32);
    board[corner] = Some('k');
    for (df, dr) in [(1, 0), (0, 1), (1, 1)] {
        let f = if kf == 0 { df } else { 7 - df };
        let r = if kr == 0 { dr } else { 7 - dr };
        let sq = (r * 8 + f) as usize;
        let man = if r == 0 || r == 7 {
            b"bnr"[rng.below(3)]
        } else {
            b"pbnp"[rng.below(4)]
        };
        board[sq] = Some(man as char);
    }
    put_at_random(&mut board, rng, 'K', |_| true);
    for _ in 0..1 + rng.below(2) {
        let man = b"qrbnp"[rng.below(5)] as char;
        put_at_random(&mut board, rng, man, |_| true);
    }
    for _ in 0..2 + rng.below(4) {
        let man = b"QRRBBNP"[rng.below(7)] as char;
        put_at_random(&mut board, rng, man, |_| true);
    }
    fen_of(&board, 'w')
}

/// What the self-mate filter was checked on (`judge_self_mate_filter`).
#[derive(Clone, Copy, Default)]
struct FilterCount {
    judged: u32,
    moves: u32,
    left_out: u32,
    keys: u32,
    kings_kept: u32,
    kings_left_out: u32,
}

impl FilterCount {
    /// Prints the counts and asserts what a test expects at least: more than 4,000
    /// positions judged, more than `tenths` tenths of the moves left out, `keys` keys
    /// kept, and `king_steps` steps of White's king kept and as many left out.
    fn assert_at_least(&self, tenths: u32, keys: u32, king_steps: u32) {
        let FilterCount {
            judged,
            moves,
            left_out,
            keys: found,
            kings_kept,
            kings_left_out,
        } = *self;
        eprintln!("{judged} judged, {left_out} of {moves} left out, {found} keys; king's steps: {kings_kept} kept, {kings_left_out} left out");
        assert!(judged > 4000, "only {judged} positions judged");
        assert!(
            left_out * 10 > moves * tenths,
            "only {left_out} of {moves} moves left out"
        );
        assert!(found >= keys, "only {found} keys among the moves kept");
        assert!(
            kings_kept >= king_steps && kings_left_out >= king_steps,
            "only {kings_kept} king's steps kept, {kings_left_out} left out"
        );
    }
}

/// A random placement for the filter tests under prices and falls: a walled-in
/// defender, strong black men against few white ones, or both sides mixed with
/// castling or en passant rights where the placement allows them.
fn filter_placement(rng: &mut Rng) -> String {
    match rng.below(3) {
        0 => walled_in_line(rng),
        1 => random_line_of(rng, 'w', b"QRNqqrrbnp"),
        _ => {
            let random = random_line_of(rng, 'w', b"QRBNPPqrbnpp");
            with_rights(rng, random)
        }
    }
}

/// Whether Black, to move in `pos`, has a legal step of its king that leaves White's
/// king unchecked.
fn checkless_king_step(game: &AnyGame, pos: &Position) -> bool {
    game.legal_moves(pos).iter().any(|&d| {
        d.role == Role::King
            && d.kind == fairysolve::MoveKind::Normal
            && !game.in_check(&game.play(pos, d).position)
    })
}

/// Checks the self-mate filter on `line` (White to move) against the definition: every
/// legal move that is a key of `s#1` is among the candidates. And its contract for the
/// steps of White's king, which keys rarely are: a step is left out only when Black's
/// king has a checkless step after it, and where `exact_kings` kept exactly when it
/// has none (under Taxi a step legal only by Taxi's check, or a check Black cannot pay
/// for, is an escape the filter need not see).
fn judge_self_mate_filter(line: &str, exact_kings: bool, count: &mut FilterCount) {
    let Some(p) = problem(line) else { return };
    judge_self_mate_filter_at(line, &p.game, &p.position, exact_kings, count);
}

/// `judge_self_mate_filter` on `pos` under `game`, named `line` in messages.
fn judge_self_mate_filter_at(
    line: &str,
    game: &AnyGame,
    pos: &Position,
    exact_kings: bool,
    count: &mut FilterCount,
) {
    if pos.turn() != Color::White {
        return;
    }
    let candidates = fairysolve::with_game!(game, g => {
        let game = OneBoard { game: g, attacker: Color::White };
        fairysolve::generic::TurnGame::self_mate_candidates(&game, &BoardState::new(*pos))
    });
    let Some(candidates) = candidates else {
        return;
    };
    for &mv in game.legal_moves(pos).iter() {
        let key = self_wins_with(game, pos, mv, 1);
        let kept = candidates.contains(&mv);
        assert!(
            !key || kept,
            "{line}: the key {} was left out",
            mv.coord(false)
        );
        let (after, end) = ending(game, pos, mv);
        if !kept && end.is_none() {
            // What the filter proves of a move it leaves out that ends nothing, stronger
            // than "no key": the defender then has a legal reply that is no win of its
            // own and leaves the attacker unchecked.
            assert!(
                game.legal_moves(&after).iter().any(|&d| {
                    let (next, end) = ending(game, &after, d);
                    end != Some(Some(Color::Black)) && !game.in_check(&next)
                }),
                "{line}: {} left out, but every reply checks",
                mv.coord(false)
            );
        }
        count.moves += 1;
        count.left_out += !kept as u32;
        count.keys += key as u32;
        if mv.role == Role::King && mv.kind == fairysolve::MoveKind::Normal {
            let escape = checkless_king_step(game, &after);
            assert!(
                kept != escape || (kept && !exact_kings),
                "{line}: the king's step {} kept: {kept}, Black's king has a checkless step after it: {escape}",
                mv.coord(false)
            );
            count.kings_kept += kept as u32;
            count.kings_left_out += !kept as u32;
        }
    }
    count.judged += 1;
}

/// rules.md 8.3, the attacker's last move of a self-mate
/// (`TurnGame::self_mate_candidates`, search/last_move.rs): every move left out fails
/// `s#1` by the definition (the defender has a move that does not mate the attacker).
/// On positions near the end of published self-mates and random placements (with
/// castling and en passant rights now and then), on the standard board and on
/// Earthquake boards; the filter leaves out most moves and keeps the keys that exist.
/// A key by a step of White's king is too rare among them to be met, so the king's
/// steps, which the filter treats apart (`Candidates::king_steps_wanted`), are checked
/// against its contract: kept exactly where Black's king has no checkless step after.
#[test]
fn the_self_mate_filter_never_leaves_out_a_key() {
    let mut rng = Rng(0x5E1F_3A7E_0000_0001);
    let boards = [
        "",
        " earthquake \"1 0\";",
        " earthquake \"0 -1\"; void fly;",
        " earthquake \"-2 1\";",
    ];
    let mut lines = near_self_mates(&mut rng);
    for _ in 0..6000 {
        let walled = walled_in_line(&mut rng);
        lines.push(format!("{walled}{}", boards[rng.below(boards.len())]));
    }
    while lines.len() < 16000 {
        let men: &[u8] = if rng.below(2) == 0 {
            b"QRNqqrrbnp"
        } else {
            b"QRBNPPqrbnpp"
        };
        let random = random_line_of(&mut rng, 'w', men);
        let placement = with_rights(&mut rng, random);
        lines.push(format!("{placement}{}", boards[rng.below(boards.len())]));
    }
    let mut count = FilterCount::default();
    for line in &lines {
        judge_self_mate_filter(line, true, &mut count);
    }
    count.assert_at_least(7, 50, 5_000);
}

/// rules.md 2 and 8.3, the attacker's last move of a Taxi self-mate: every move the
/// filter leaves out fails `s#1` by the definition, under cash and income drawn widely
/// (none, a king's step, short rides, every ride), on the standard board and on
/// Earthquake boards. Where the defender cannot pay for every attack, a move of a man
/// pinned in FIDE's sense may be legal only by Taxi's check and is kept unjudged; the
/// prices of the defender's replies and king's steps are asked. The filter leaves out
/// most moves and keeps the keys that exist.
#[test]
fn the_taxi_self_mate_filter_never_leaves_out_a_key() {
    let mut rng = Rng(0x7A61_5E1F_0000_0002);
    let boards = [
        "",
        " earthquake \"1 0\";",
        " earthquake \"-2 1\"; void fly;",
    ];
    let cash = |rng: &mut Rng| [0, 1, 2, 3, 4, 6, 9, 30][rng.below(8)];
    let mut lines = near_self_mates(&mut rng);
    // Near the published self-mates, half with cash for every move: the keys are there.
    let near = lines.len();
    while lines.len() < 16000 {
        lines.push(filter_placement(&mut rng));
    }
    let mut count = FilterCount::default();
    for (i, line) in lines.iter_mut().enumerate() {
        let (white, black, income) = if i < near && rng.below(2) == 0 {
            (30, 30, 2)
        } else {
            (cash(&mut rng), cash(&mut rng), rng.below(4))
        };
        let board = boards[rng.below(boards.len())];
        line.push_str(&format!(
            " taxi \"{white} {black}\"; taxi_income {income};{board}"
        ));
        judge_self_mate_filter(line, false, &mut count);
    }
    count.assert_at_least(6, 40, 2_000);
}

/// rules.md 2.2 and 8.3: an attack the defender cannot pay for now may be a check
/// after its reply, which brings in an income above its price. Black holds 3 (cash 1,
/// income 2): the bishop on a5 cannot take on e1 (4), but after any reply Black holds
/// 4 at its next turn, so every reply checks once the line a5-e1 is open. In the first
/// diagram the knight on b4, pinned in FIDE's sense, may leave the line (Taxi's check
/// allows it): its moves are to be kept. In the second the line is open already: every
/// reply checks after 1.Bb3, and the filter must not judge by 1...a6.
#[test]
fn the_taxi_self_mate_filter_keeps_what_only_taxi_check_allows() {
    for line in [
        "7k/p6p/1p5P/bP6/1N6/8/B7/4K3 w - - taxi \"10 1\"; taxi_income 2;",
        "7k/p6p/1p5P/bP6/8/8/B7/4K3 w - - taxi \"10 1\"; taxi_income 2;",
    ] {
        let mut count = FilterCount::default();
        judge_self_mate_filter(line, false, &mut count);
        // The filter judges the first diagram; the second it leaves to the search.
        assert_eq!(count.judged, u32::from(line.contains('N')), "{line}");
    }
}

/// The squares of the men of a FEN's placement, as names ("e4").
fn men_squares(fen: &str) -> Vec<String> {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let mut squares = Vec::new();
    for (row, rank) in placement.split('/').enumerate() {
        let mut file = 0u8;
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(d) => file += d as u8,
                None => {
                    squares.push(format!("{}{}", (b'a' + file) as char, 8 - row));
                    file += 1;
                }
            }
        }
    }
    squares
}

/// rules.md 1 and 8.3, the attacker's last move of a Trapdoor self-mate: every move the
/// filter leaves out fails `s#1` by the definition, and every one that ends nothing
/// leaves the defender a reply that is no win of its own and no check, under timers
/// drawn widely (either side's men and kings ticking with one or two moves left, T of
/// 1 and 2, mate first and falls first), on the standard board and on Earthquake
/// boards, with Taxi's prices or without, and after random moves played under the
/// rules. A move is left out by a
/// reply whose legality and checklessness, falls included, no move touching none of
/// its squares changes (`last_move::trapdoor_replies`); a move that may check once the
/// attacker's men have fallen is kept. The filter leaves out most moves.
#[test]
fn the_trapdoor_self_mate_filter_never_leaves_out_a_key() {
    let mut rng = Rng(0x7D00_5E1F_0000_0003);
    let rules = [
        " trapdoor 1;",
        " trapdoor 2;",
        " trapdoor 2; trapdoor_order falls-first;",
        " trapdoor 1; earthquake \"1 0\";",
        " trapdoor 2; earthquake \"-2 1\"; void fly;",
        " trapdoor 1; taxi \"3 2\"; taxi_income 1;",
        " trapdoor 2; taxi \"9 1\"; taxi_income 2;",
        " trapdoor 2; taxi \"30 30\"; taxi_income 2; trapdoor_order falls-first;",
    ];
    let mut lines = near_self_mates(&mut rng);
    while lines.len() < 14000 {
        lines.push(filter_placement(&mut rng));
    }
    let mut count = FilterCount::default();
    for line in &lines {
        let rule = rules[rng.below(rules.len())];
        let t = if rule.contains("trapdoor 1;") { 1 } else { 2 };
        let mut ticking = Vec::new();
        for sq in men_squares(line) {
            if rng.below(3) == 0 {
                ticking.push(format!("{sq}:{}", 1 + rng.below(t)));
            }
        }
        let timers = if ticking.is_empty() {
            String::new()
        } else {
            format!(" timers \"{}\";", ticking.join(" "))
        };
        let text = format!("{line}{rule}{timers}");
        let Some(p) = problem(&text) else { continue };
        judge_self_mate_filter_at(&text, &p.game, &p.position, false, &mut count);
        // Two random moves on, under the rules: timers as play leaves them.
        let mut pos = p.position;
        for _ in 0..2 {
            let moves = p.game.legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let (next, end) = ending(&p.game, &pos, moves[rng.below(moves.len())]);
            if end.is_some() {
                break;
            }
            pos = next;
        }
        if pos != p.position {
            let label = format!(
                "{text} after two moves: {}",
                fairysolve::fen::write_fen(&pos)
            );
            judge_self_mate_filter_at(&label, &p.game, &pos, false, &mut count);
        }
    }
    // Under Trapdoor every king's step is kept (the falls decide them).
    count.assert_at_least(5, 20, 0);
}

/// rules.md 1.2 and 8.3: White's pawn on c5 falls at the end of any White move that
/// does not move it, and Black's rook on b4 at the end of Black's reply: the bishop on
/// d6 then checks White's king on a3, whatever Black plays (1.Ng3 h6, 1...e4, a king's
/// step: each leaves b4 to fall; the rook's and bishop's moves uncover or give the
/// check). A filter that judged Black's replies with the pawn still on c5 would call
/// 1...h6 an escape and leave out 1.Ng3; judged as the falls leave the board, no reply
/// is one. The same with Taxi's check below.
#[test]
fn a_fall_that_opens_a_line_after_the_attackers_move_is_judged() {
    let line = "8/2k1p2p/3b4/2P1p3/1r6/K7/8/7N w - - trapdoor 2; timers \"c5:1 b4:1\";";
    let p = problem(line).expect("the line reads");
    let ng3 = p
        .game
        .legal_moves(&p.position)
        .iter()
        .copied()
        .find(|m| m.coord(false).to_string() == "h1g3")
        .expect("1.Ng3 is legal");
    let (after, end) = ending(&p.game, &p.position, ng3);
    assert_eq!(end, None);
    assert!(p
        .game
        .legal_moves(&after)
        .iter()
        .all(|&d| p.game.in_check(&ending(&p.game, &after, d).0)));
    let mut count = FilterCount::default();
    judge_self_mate_filter(line, false, &mut count);
    // With Taxi (rules.md 2.2): the knight on d2 is pinned once the pawn on c3 has
    // fallen, and may leave the line only because Black, holding 3, cannot pay the 4
    // the bishop's capture costs; after any reply Black holds 4. Its moves are kept.
    let taxi = "7k/p6p/1p5P/bP6/8/2P5/B2N4/4K3 w - - taxi \"10 1\"; taxi_income 2; trapdoor 1; timers \"c3:1\";";
    judge_self_mate_filter(taxi, false, &mut count);
    assert_eq!(count.judged, 1, "the Taxi diagram is judged");
}
