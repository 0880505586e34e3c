//! Help play guided by mate plans (`search::help_plans`) against the definition of a
//! help-mate (rules.md 8.2): every line of both sides played, no plan and no table. The
//! plans serve every single-board game on a fixed board, so the positions are drawn
//! under FIDE, under Trapdoor (timers of both sides, both orders of events), under Taxi
//! (cash from broke to rich) and on fixed Earthquake boards, near a mate picture and with what makes plans hard:
//! castling rights (two men moved at once), en passant (a man taken off the square
//! moved to), pawns one step from promotion (a man that changes what it is), and lines
//! of up to six turns.

mod common;

use common::help_self::ending;
use common::{put_at_random, Rng};
use fairysolve::game::AnyGame;
use fairysolve::generic::adapter::{BoardState, OneBoard};
use fairysolve::generic::help::solve_help;
use fairysolve::search::tt::Table;
use fairysolve::{Color, Position};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

/// The boards the plans serve: the standard one and fixed Earthquake boards that
/// overlap, leave a void, or put a1 beside h5.
const BOARDS: [&str; 5] = [
    "",
    "",
    " earthquake \"1 0\";",
    " earthquake \"0 -1\"; void fly;",
    " earthquake \"8 4\";",
];

/// Every line of exactly `turns` moves from `pos` with no end before the last move and
/// White's win by the last one, in coordinates; a position and length proved to have
/// none is remembered (the definition's own answer does not depend on the path).
fn help_lines(
    game: &AnyGame,
    pos: &Position,
    turns: u32,
    prefix: &mut Vec<String>,
    out: &mut Vec<String>,
    failed: &mut HashSet<(u64, u32)>,
) -> bool {
    if failed.contains(&(pos.hash(), turns)) {
        return false;
    }
    let mut found = false;
    for &mv in game.legal_moves(pos).iter() {
        let (next, end) = ending(game, pos, mv);
        prefix.push(mv.coord(false).to_string());
        match (turns, end) {
            (1, Some(Some(Color::White))) if pos.turn() == Color::White => {
                out.push(prefix.join(" "));
                found = true;
            }
            (1, _) | (_, Some(_)) => {}
            _ => found |= help_lines(game, &next, turns - 1, prefix, out, failed),
        }
        prefix.pop();
    }
    if !found {
        failed.insert((pos.hash(), turns));
    }
    found
}

fn near(a: usize, b: usize) -> bool {
    let (fa, ra, fb, rb) = (a % 8, a / 8, b % 8, b / 8);
    fa.abs_diff(fb) <= 1 && ra.abs_diff(rb) <= 1
}

/// A position line near a mate picture: the black king on or near an edge with a few
/// of its men around it, White's king apart, a few more men of both sides; sometimes a
/// castling right, an en passant right or a pawn about to promote.
fn random_line(rng: &mut Rng, turn: char, crowd: Crowd) -> String {
    let mut board = [None::<char>; 64];
    let mut castling = String::new();
    let mut ep = "-".to_string();
    let white_castles = rng.below(4) == 0;
    if white_castles {
        board[4] = Some('K');
        board[7] = Some('R');
        castling.push('K');
        if rng.below(2) == 0 {
            board[0] = Some('R');
            castling.push('Q');
        }
    }
    let king = loop {
        let sq = rng.below(64);
        let (f, r) = (sq % 8, sq / 8);
        if (f <= 1 || f >= 6 || r <= 1 || r >= 6) && board[sq].is_none() && !near(sq, 4) {
            break sq;
        }
    };
    board[king] = Some('k');
    if !white_castles {
        put_at_random(&mut board, rng, 'K', |sq| !near(sq, king));
    }
    for _ in 0..crowd.defenders + rng.below(2) {
        let man = b"rbnpp"[rng.below(5)] as char;
        put_at_random(&mut board, rng, man, |sq| near(sq, king) && sq != king);
    }
    for _ in 0..crowd.attackers + rng.below(2) {
        let man = crowd.attacking_men[rng.below(crowd.attacking_men.len())] as char;
        put_at_random(&mut board, rng, man, |_| true);
    }
    match rng.below(5) {
        // A pawn one step from promotion, of either side.
        0 => put_at_random(&mut board, rng, 'P', |sq| sq / 8 == 6),
        1 => put_at_random(&mut board, rng, 'p', |sq| sq / 8 == 1),
        // An en passant right: the other side's pawn has just gone two steps past a
        // pawn of the side to move.
        2 => {
            let f = 1 + rng.below(6);
            let (them, us, rank, pawn) = if turn == 'w' {
                (4usize, 4usize, 5, ('p', 'P'))
            } else {
                (3, 3, 2, ('P', 'p'))
            };
            let side = if rng.below(2) == 0 { f - 1 } else { f + 1 };
            let (at, beside, behind) = (them * 8 + f, us * 8 + side, rank * 8 + f);
            let skipped = if turn == 'w' { 6 * 8 + f } else { 8 + f };
            if [at, beside, behind, skipped]
                .iter()
                .all(|&sq| board[sq].is_none())
            {
                board[at] = Some(pawn.0);
                board[beside] = Some(pawn.1);
                ep = format!("{}{}", (b'a' + f as u8) as char, rank + 1);
            }
        }
        _ => {}
    }
    if castling.is_empty() {
        castling.push('-');
    }
    format!("{} {turn} {castling} {ep}", common::placement_fen(&board))
}

/// How many men `random_line` puts beside the two kings (each up to one more), and of
/// what kinds the mating side's are.
#[derive(Copy, Clone)]
struct Crowd {
    defenders: usize,
    attackers: usize,
    attacking_men: &'static [u8],
}

/// A king with one or two of its men around it and one or two men against it.
const SPARSE: Crowd = Crowd {
    defenders: 1,
    attackers: 1,
    attacking_men: b"QRBNP",
};

/// More of the mated side's men beside its king (they parry checks) and more riders
/// against it (they pin those men and give double checks).
const CROWDED: Crowd = Crowd {
    defenders: 2,
    attackers: 2,
    attacking_men: b"QRRBBN",
};

/// The solutions of exactly `turns` turns as the solver lists them, in coordinates.
fn solved(line: &str, turns: u32) -> Option<Vec<String>> {
    let p = match fairysolve::epd::parse_line(line, 1) {
        Ok(fairysolve::epd::Line::Position(rec)) => fairysolve::problem::from_record(*rec).ok()?,
        _ => return None,
    };
    let stop = AtomicBool::new(false);
    let table = Table::new(4);
    let got = fairysolve::with_game!(&p.game, g => {
        let game = OneBoard { game: g, attacker: p.position.turn() };
        let sol = solve_help(&game, &BoardState::new(p.position), Color::White, turns, &[], &table, &stop, None);
        assert!(sol.complete, "{line}");
        sol.solutions
            .iter()
            .map(|l| l.iter().map(|(c, _)| c.clone()).collect::<Vec<_>>().join(" "))
            .collect::<Vec<String>>()
    });
    let mut want = Vec::new();
    help_lines(
        &p.game,
        &p.position,
        turns,
        &mut Vec::new(),
        &mut want,
        &mut HashSet::new(),
    );
    want.sort();
    assert_eq!(got, want, "{line} ({turns} turns)");
    Some(got)
}

/// The operations of a Trapdoor line for the diagram `fen`: timer 1 or 2, about one man
/// in three ticking (kings too) with 1 to T own moves left, and now and then the
/// other order of events.
fn trapdoor_ops(rng: &mut Rng, fen: &str) -> String {
    let t = 1 + rng.below(2);
    let mut ticking = Vec::new();
    let placement = fen.split(' ').next().unwrap_or("");
    let board = fairysolve::fen::parse_placement(placement, 0).unwrap();
    // The men as the placement writes them, from a8 on.
    for rank in (0..8).rev() {
        for file in 0..8 {
            let sq = fairysolve::Square::from_coords(file, rank);
            if board.piece_at(sq).is_some() && rng.below(3) == 0 {
                ticking.push(format!("{sq}:{}", 1 + rng.below(t)));
            }
        }
    }
    let mut ops = format!(" trapdoor {t};");
    if !ticking.is_empty() {
        ops += &format!(" timers \"{}\";", ticking.join(" "));
    }
    if rng.below(4) == 0 {
        ops += " trapdoor_order falls-first;";
    }
    ops
}

/// The operations of a Taxi line: cash from broke to rich for each side (a king that
/// may not pay its step, a guard too dear to count), an income of 0 to 3, and now and
/// then Trapdoor too.
fn taxi_ops(rng: &mut Rng, fen: &str) -> String {
    let cash = |rng: &mut Rng| match rng.below(3) {
        0 => rng.below(3),
        1 => 2 + rng.below(8),
        _ => 20 + rng.below(20),
    };
    let (white, black) = (cash(rng), cash(rng));
    let mut ops = format!(" taxi \"{white} {black}\"; taxi_income {};", rng.below(4));
    if rng.below(4) == 0 {
        ops += &trapdoor_ops(rng, fen);
    }
    ops
}

/// The game a random line is played under (`compare_on`).
#[derive(Copy, Clone, PartialEq)]
enum Rules {
    Fide,
    Trapdoor,
    Taxi,
}

/// Compares `count` positions of at most `most_men` men with `turns` drawn from
/// `lengths`; how many had a solution.
fn compare(
    seed: u64,
    count: usize,
    most_men: usize,
    lengths: &[(u32, char)],
    crowd: Crowd,
) -> usize {
    compare_on(seed, count, most_men, lengths, crowd, Rules::Fide)
}

/// `compare`, every line under `rules` (`trapdoor_ops`, `taxi_ops`).
fn compare_on(
    seed: u64,
    count: usize,
    most_men: usize,
    lengths: &[(u32, char)],
    crowd: Crowd,
    rules: Rules,
) -> usize {
    let mut rng = Rng(seed);
    let (mut compared, mut with_solutions) = (0, 0);
    while compared < count {
        let (turns, first) = lengths[rng.below(lengths.len())];
        let fen = random_line(&mut rng, first, crowd);
        let men = fen
            .split(' ')
            .next()
            .unwrap_or("")
            .chars()
            .filter(char::is_ascii_alphabetic)
            .count();
        if men > most_men {
            continue;
        }
        let board = BOARDS[rng.below(BOARDS.len())];
        let line = match rules {
            Rules::Fide => format!("{fen}{board}"),
            Rules::Trapdoor => format!("{fen}{board}{}", trapdoor_ops(&mut rng, &fen)),
            Rules::Taxi => format!("{fen}{board}{}", taxi_ops(&mut rng, &fen)),
        };
        let Some(solutions) = solved(&line, turns) else {
            continue;
        };
        compared += 1;
        with_solutions += usize::from(!solutions.is_empty());
    }
    with_solutions
}

/// rules.md 8.2: h#2.5 guided by plans (from five turns on) lists exactly the lines
/// the definition finds.
#[test]
fn plans_keep_every_help_mate_in_two_and_a_half() {
    let with = compare(0x9A1A_5EED_0000_0001, 200, 8, &[(5, 'w')], SPARSE);
    assert!(with >= 30, "only {with} of 200 with a help-mate");
}

/// rules.md 8.2: h#3 guided by plans, the moves left shared by named men and men that
/// only wait, lists exactly the lines the definition finds.
#[test]
fn plans_keep_every_help_mate_in_three() {
    let with = compare(0x9A1A_5EED_0000_0002, 40, 6, &[(6, 'b')], SPARSE);
    assert!(with >= 6, "only {with} of 40 with a help-mate in three");
}

/// rules.md 8.2: a plan whose check a named man of the mated side parries is kept only
/// with a second checker or a pinner (`help_plans::Lister::finish`). Crowded positions,
/// where men beside the king parry and riders pin them or check twice, list exactly the
/// lines the definition finds.
#[test]
fn plans_keep_mates_by_double_check_and_pin() {
    let with = compare(0x9A1A_5EED_0000_0003, 40, 7, &[(5, 'w')], CROWDED);
    assert!(with >= 25, "only {with} of 40 with a help-mate");
}

/// rules.md 1.5, 8.2: under Trapdoor a flight may be covered through a man of the mated
/// side that falls after the king's step, and a parry may be illegal by such a fall;
/// plans allow for both (`help_plans::plans`, `falls`). Random timers of both sides,
/// kings included, T = 1 and 2, both orders of events, on every board: guided help play
/// lists exactly the lines the definition finds.
#[test]
fn plans_keep_every_help_mate_under_trapdoor() {
    compare_three_suites(0x9A1A_5EED_0000_0004, Rules::Trapdoor);
}

/// rules.md 2.2-2.3, 8.2: under Taxi a flight may be barred by its price (plans serve
/// only where the mated side surely pays every king's step) and a parry may be too dear
/// (asked for only where it surely pays every move). Cash from broke to rich, incomes 0 to 3,
/// Trapdoor too now and then, on every board: guided help play lists exactly the lines
/// the definition finds.
#[test]
fn plans_keep_every_help_mate_under_taxi() {
    compare_three_suites(0x9A1A_5EED_0000_0007, Rules::Taxi);
}

/// `compare_on` under `rules` over three suites drawn from seeds `first`, `first + 1`
/// and `first + 2`: 150 sparse positions of five turns, White first (at least 15 with
/// a help-mate), 60 crowded ones (at least 15) and 30 sparse of six turns, Black first
/// (at least 3).
fn compare_three_suites(first: u64, rules: Rules) {
    let sparse = compare_on(first, 150, 8, &[(5, 'w')], SPARSE, rules);
    assert!(sparse >= 15, "only {sparse} of 150 with a help-mate");
    let crowded = compare_on(first + 1, 60, 7, &[(5, 'w')], CROWDED, rules);
    assert!(crowded >= 15, "only {crowded} of 60 with a help-mate");
    let three = compare_on(first + 2, 30, 6, &[(6, 'b')], SPARSE, rules);
    assert!(three >= 3, "only {three} of 30 with a help-mate in three");
}

/// Published problems whose solutions need what plans must allow: castling by the
/// mating side (Popeye's answer to helpmate-08 of the bench), an en passant capture
/// as the first move (helpmate-03), a promotion to a knight (helpmate-07).
#[test]
fn plans_keep_castling_en_passant_and_promotion() {
    let cases = [
        (
            "5B2/2p1p3/1p2pp1b/5P1b/2p1k2q/6rp/p3B1P1/R3K3 b Q -",
            6,
            "e1c1",
        ),
        ("8/8/8/1pn4b/2kPpppR/2q1rB1p/1p4r1/3K4 b - d3", 4, "e4d3"),
        ("3nr3/5PPP/3n3B/1k4p1/5b2/7K/8/8 b - -", 6, "h7h8n"),
    ];
    for (fen, turns, needed) in cases {
        let p = common::problem(fen);
        let stop = AtomicBool::new(false);
        let table = Table::new(16);
        let lines = fairysolve::with_game!(&p.game, g => {
            let game = OneBoard { game: g, attacker: p.position.turn() };
            solve_help(&game, &BoardState::new(p.position), Color::White, turns, &[], &table, &stop, None).solutions
        });
        assert!(
            lines.iter().any(|l| l.iter().any(|(c, _)| c == needed)),
            "{fen}: no solution plays {needed}"
        );
    }
}
