//! Retro-analysis (rules.md section 6): classic problems with published answers, one
//! diagram per failed soundness check, Trapdoor proofs of ticking men, and the
//! soundness property against real Trapdoor games.

mod common;

use common::records;
use fairysolve::epd::{self, Record};
use fairysolve::problem::{self, Problem};
use fairysolve::retro::{analyse, Illegality, RetroOptions, RetroPosition, RetroReport};

fn retro_problem(rec: Record) -> Problem {
    let line = rec.line;
    problem::from_record_for_retro(rec).unwrap_or_else(|e| panic!("line {line}: {e}"))
}

fn report(p: &Problem, depth: u32) -> RetroReport {
    let opts = RetroOptions::for_problem(p, depth, RetroOptions::default().nodes);
    analyse(&RetroPosition::of(&p.position), &opts)
}

fn report_of(line: &str) -> RetroReport {
    let rec = match epd::parse_line(line, 1) {
        Ok(epd::Line::Position(r)) => *r,
        other => panic!("{line}: {other:?}"),
    };
    let p = retro_problem(rec);
    report(&p, 4)
}

fn op<'a>(rec: &'a Record, name: &str) -> Option<&'a str> {
    rec.get(name).and_then(|o| o.single())
}

fn last_moves(r: &RetroReport) -> String {
    let mut v: Vec<String> = r.last_moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v.join(" ")
}

fn sorted(list: &str) -> String {
    let mut v: Vec<&str> = list.split_whitespace().collect();
    v.sort();
    v.join(" ")
}

/// rules.md 6.1, 6.3, 6.4: every published answer of positions/retro/classic.epd, at the
/// depth the published proof needs (c3) and deeper.
#[test]
fn classic_problems_have_their_published_answers() {
    for rec in records("positions/retro/classic.epd") {
        let id = op(&rec, "id").unwrap_or("?").to_string();
        let need: u32 = op(&rec, "c3")
            .and_then(|d| d.parse().ok())
            .expect("c3 depth");
        let expect_last = op(&rec, "c1").map(|s| s.trim_start_matches("last: ").to_string());
        let decides = op(&rec, "c2").unwrap_or("").to_string();
        let p = retro_problem(rec);
        for depth in [need, need + 1] {
            let r = report(&p, depth);
            assert!(r.complete, "{id}: incomplete at depth {depth}");
            if let Some(expected) = &expect_last {
                assert!(r.legal(), "{id}: {:?}", r.illegal);
                assert_eq!(last_moves(&r), sorted(expected), "{id} at depth {depth}");
            }
            match decides.as_str() {
                "legal" => assert!(r.legal() && r.en_passant.is_none(), "{id}"),
                "no ep" => assert_eq!(r.en_passant, None, "{id}"),
                d if d.starts_with("ep ") => {
                    assert_eq!(
                        r.en_passant.map(|s| s.to_string()).as_deref(),
                        Some(&d[3..]),
                        "{id}"
                    )
                }
                d if d.starts_with("castling ") => {
                    let right = d.split_whitespace().nth(1).unwrap();
                    assert!(
                        r.illegal.iter().any(|i| matches!(i,
                            Illegality::CastlingRight { right: r, .. } if r == right)),
                        "{id}: {:?}",
                        r.illegal
                    );
                    // Without the right the diagram is legal.
                    let mut q = p.clone();
                    q.position = fairysolve::fen::parse_fen(
                        &fairysolve::fen::write_fen(&p.position).replace(" Q ", " - "),
                    )
                    .unwrap();
                    assert!(report(&q, depth).legal(), "{id} without the right");
                }
                other => panic!("{id}: unknown c2 {other}"),
            }
        }
    }
}

/// Angelini's answer needs the fourth half-move: at depth 3 the king's other captures
/// on e5 are still candidates (the search deepens, it never guesses).
#[test]
fn a_shallow_search_keeps_what_it_cannot_refute() {
    let r = report_of("8/8/3r4/4K3/8/4kqpb/8/8 b - - 0 1");
    assert_eq!(last_moves(&r), "Kf5xNe5");
    let rec = match epd::parse_line("8/8/3r4/4K3/8/4kqpb/8/8 b - - 0 1", 1) {
        Ok(epd::Line::Position(r)) => *r,
        _ => unreachable!(),
    };
    let shallow = report(&retro_problem(rec), 3);
    assert_eq!(
        last_moves(&shallow),
        "Kf5-e5 Kf5xBe5 Kf5xNe5 Kf5xPe5",
        "depth 3"
    );
}

fn kind(i: &Illegality) -> &'static str {
    match i {
        Illegality::OppositeCheck { .. } => "OppositeCheck",
        Illegality::PawnOnEdgeRank { .. } => "PawnOnEdgeRank",
        Illegality::TooManyPawns { .. } => "TooManyPawns",
        Illegality::TooManyMen { .. } => "TooManyMen",
        Illegality::TooManyPromoted { .. } => "TooManyPromoted",
        Illegality::PawnCaptures { .. } => "PawnCaptures",
        Illegality::CastlingRight { .. } => "CastlingRight",
        Illegality::EnPassant { .. } => "EnPassant",
        Illegality::ImpossibleCheck { .. } => "ImpossibleCheck",
        Illegality::NoLastMove { .. } => "NoLastMove",
        Illegality::CashBelowIncome { .. } => "CashBelowIncome",
        Illegality::UnreachableCash { .. } => "UnreachableCash",
    }
}

/// rules.md 6.3: each diagram of positions/retro/illegal.epd fails exactly the check it
/// is named for.
#[test]
fn each_failed_check_is_named() {
    for rec in records("positions/retro/illegal.epd") {
        let id = op(&rec, "id").unwrap_or("?").to_string();
        let expected = op(&rec, "c2").expect("c2").to_string();
        let r = report(&retro_problem(rec), 4);
        let kinds: Vec<&str> = r.illegal.iter().map(kind).collect();
        assert_eq!(kinds, vec![expected.as_str()], "{id}: {:?}", r.illegal);
        assert!(r.last_moves.is_empty() && r.ticking.is_empty(), "{id}");
    }
}

#[test]
fn messages_name_the_men_and_squares() {
    let r = report_of("k6r/8/8/8/8/8/8/r6K w - - 0 1");
    assert_eq!(
        r.illegal[0].to_string(),
        "White is in check from Ra1 and Rh8, which no last move can have given"
    );
    let r = report_of("rnbqkbnr/pppppppp/8/8/8/P7/P1PPPPPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(
        r.illegal[0].to_string(),
        "White's pawns stand on files that need captures: at least 1; but men Black has lost: 0"
    );
}

/// rules.md 6.1: under Trapdoor a fall can discover a check, so a double check that
/// FIDE cannot produce is legal: the pawn stepped to g2 with check and a black man
/// standing on the first rank fell at the end of that move, uncovering the rook.
#[test]
fn a_fall_explains_a_check_no_move_gives() {
    let line = "k7/8/8/8/8/8/6p1/r6K w - - 0 1";
    let fide = report_of(line);
    let kinds: Vec<&str> = fide.illegal.iter().map(kind).collect();
    assert_eq!(kinds, vec!["ImpossibleCheck"]);
    let trapdoor = report_of(&format!("{line} trapdoor 1;"));
    assert!(trapdoor.legal(), "{:?}", trapdoor.illegal);
    assert!(trapdoor.last_moves.iter().all(|m| m.to.to_string() == "g2"));
    // The pawn moved last in every history: ticking with r = 1; the rook did not move.
    let ticking: Vec<String> = trapdoor
        .ticking
        .iter()
        .map(|t| format!("{}:{:?}", t.square, t.r))
        .collect();
    assert_eq!(ticking, vec!["g2:[1]"]);
}

/// rules.md 6.2 with the convention of rule 1.4: a man that can have stood still in some
/// history is safe; one that moved in every history ticks with the r its arrival gives.
#[test]
fn ticking_is_proved_only_when_every_history_moves_the_man() {
    // After 1.e4 with T = 2 and the en passant square: e4 arrived on White's last move.
    let r = report_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 trapdoor 2;");
    let ticking: Vec<String> = r
        .ticking
        .iter()
        .map(|t| format!("{}:{:?}", t.square, t.r))
        .collect();
    assert_eq!(ticking, vec!["e4:[2]"]);
    // Without the en passant square the knights may have gone home: nothing is proved.
    let r = report_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 trapdoor 2;");
    assert!(r.ticking.is_empty() && r.legal());
    // A knight giving check moved last (a knight's check is never discovered).
    let r = report_of("4k3/8/8/8/8/8/2n5/K7 w - - 0 1 trapdoor 1;");
    let ticking: Vec<String> = r
        .ticking
        .iter()
        .map(|t| format!("{}:{:?}", t.square, t.r))
        .collect();
    assert_eq!(ticking, vec!["c2:[1]"]);
}

/// rules.md 6.2: with T = 2 a man can have arrived on either of its owner's last two
/// moves; every value a history allows is reported, and each assignment is a scenario.
/// White cannot have captured (its men are boxed in or pawns with occupied capture
/// squares), Black's a-pawn can have moved once only, so Black's king moved on Black's
/// last move, on the one before, or on both.
#[test]
fn several_r_values_are_all_reported() {
    let r = report_of("7k/1p4pp/p7/8/8/4P1P1/PP1P1P1P/KRB5 w - - 0 1 trapdoor 2;");
    let ticking: Vec<String> = r
        .ticking
        .iter()
        .map(|t| format!("{}:{:?}", t.square, t.r))
        .collect();
    assert_eq!(ticking, vec!["h8:[1, 2]"]);
    assert_eq!(r.scenarios.len(), 2);
    // Each r comes with a history that gives it.
    assert!(r.ticking[0].witnesses.iter().all(|w| !w.is_empty()));
    // With T = 1 the king may have stood still while the a-pawn moved.
    let r = report_of("7k/1p4pp/p7/8/8/4P1P1/PP1P1P1P/KRB5 w - - 0 1 trapdoor 1;");
    assert!(r.ticking.is_empty());
}

/// `solve --retro` applies the proof: problems in positions/retro/trapdoor.epd whose key
/// exists only because retro-analysis proves a man ticking (c2 names the proof, c1 the
/// keys with it, c3 the keys without).
#[test]
fn trapdoor_retro_problems() {
    use fairysolve::search::solution::SolveOptions;
    use fairysolve::search::tt::Table;
    use std::sync::atomic::AtomicBool;
    let table = Table::new(16);
    let stop = AtomicBool::new(false);
    let opts = SolveOptions {
        threads: 1,
        tree: false,
        ..SolveOptions::default()
    };
    for rec in records("positions/retro/trapdoor.epd") {
        let id = op(&rec, "id").unwrap_or("?").to_string();
        let proof = sorted(
            op(&rec, "c2")
                .expect("c2 ticking")
                .trim_start_matches("ticking: "),
        );
        let with_keys = sorted(op(&rec, "c1").expect("c1").trim_start_matches("keys: "));
        let without_keys = sorted(
            op(&rec, "c3")
                .expect("c3")
                .trim_start_matches("keys without retro: "),
        );
        let p = problem::from_record(rec).unwrap();
        let n = p.stipulation.expect("dm").moves;
        let r = report(&p, 4);
        assert!(r.complete && r.legal(), "{id}");
        let got: Vec<String> = r
            .ticking
            .iter()
            .map(|t| {
                let rs: Vec<String> = t.r.iter().map(|x| x.to_string()).collect();
                format!("{}:{}", t.square, rs.join(","))
            })
            .collect();
        assert_eq!(sorted(&got.join(" ")), proof, "{id}: proof");
        let keys_of = |pos: &fairysolve::Position| -> Vec<String> {
            let sol = p.game.solve(&table, pos, n, &opts, &stop, &|_, _| {});
            let mut k: Vec<String> = sol
                .keys
                .iter()
                .map(|(m, _)| m.coord(false).to_string())
                .collect();
            k.sort();
            k
        };
        let plain = keys_of(&p.position).join(" ");
        assert_eq!(plain, without_keys, "{id}: keys without retro");
        let mut common: Option<Vec<String>> = None;
        for scenario in &r.scenarios {
            let mut pos = p.position;
            for &(sq, t) in scenario {
                pos.set_timer(sq, Some(t));
            }
            let keys = keys_of(&pos);
            common = Some(match common {
                None => keys,
                Some(c) => c.into_iter().filter(|k| keys.contains(k)).collect(),
            });
        }
        assert_eq!(
            common.unwrap_or_default().join(" "),
            with_keys,
            "{id}: keys with retro"
        );
    }
}

/// rules.md 6.1: the module is sound. Random Trapdoor games (T = 1 and 2) are played with
/// the engine, recording the real history; in the final position every real last move
/// is a candidate and every man proved ticking really ticks with a reported r.
#[test]
fn soundness_against_real_trapdoor_games() {
    let mut rng = common::Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    let mut proofs = 0;
    for game_no in 0..400 {
        let timer = 1 + game_no % 2;
        let line =
            format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - trapdoor {timer};");
        let start = retro_problem(match epd::parse_line(&line, 1) {
            Ok(epd::Line::Position(r)) => *r,
            other => panic!("{line}: {other:?}"),
        });
        let plies = 1 + rng.below(24);
        let Some(proved) = common::explain_real_game(&start, plies, &mut rng) else {
            continue;
        };
        proofs += proved;
        checked += 1;
    }
    assert!(checked > 350, "{checked} games checked");
    // The property is not vacuous: real games give proofs.
    assert!(proofs > 10, "only {proofs} proofs in {checked} games");
}
