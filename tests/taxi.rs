//! Taxi Chess as rules.md section 2 reads: prices, affordable check, the fixed points of
//! the study (2.4) and what the solver settles about it, the problem collection, and
//! equality with FIDE when cash is far above any price.

mod common;

use common::{problem, problems};
use fairysolve::game::Status;
use fairysolve::san::parse_move;
use fairysolve::search::solution::SolveOptions;
use fairysolve::search::tt::Table;
use fairysolve::Position;
use std::sync::atomic::AtomicBool;

const STUDY: &str = "8/8/8/8/r7/1K1R4/8/k7 w - - taxi \"2 0\";";

fn line(start: &str, moves: &str) -> (fairysolve::problem::Problem, Position) {
    let p = problem(start);
    let mut pos = p.position;
    for m in moves.split_whitespace() {
        let text = m.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        let mv = parse_move(&p.game, &pos, text).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos = p.game.play(&pos, mv).position;
    }
    (p, pos)
}

fn legal(p: &fairysolve::problem::Problem, pos: &Position) -> Vec<String> {
    common::legal_coords(p, pos)
}

fn keys(p: &fairysolve::problem::Problem, pos: &Position, n: u32) -> Vec<String> {
    let table = Table::new(16);
    let stop = AtomicBool::new(false);
    let opts = SolveOptions {
        tree: false,
        threads: 2,
        ..SolveOptions::default()
    };
    let mut v: Vec<String> = p
        .game
        .solve(&table, pos, n, &opts, &stop, &|_, _| {})
        .keys
        .iter()
        .map(|(m, _)| m.coord(false).to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn rule_2_4_the_fixed_points_of_the_study() {
    // 1.Rd3-d1 is not check: White, with 0 left and 2 to come, cannot pay for d1-a1.
    let (p, pos) = line(STUDY, "1.Rd1");
    assert!(!p.game.in_check(&pos));
    assert_eq!(
        (
            pos.cash(fairysolve::Color::White),
            pos.cash(fairysolve::Color::Black)
        ),
        (0, 2)
    );
    // After 1...Ra4-b4+ the capture Kxb4 costs 1 + fee 2 = 3 > 2: illegal; Ka3 is check.
    let (p, pos) = line(STUDY, "1.Rd1 Rb4");
    assert!(p.game.in_check(&pos));
    assert!(!legal(&p, &pos).contains(&"b3b4".to_string()));
    let (p, after_ka3) = line(STUDY, "1.Rd1 Rb4 2.Ka3");
    assert!(p.game.in_check(&after_ka3));
    // After 1...Ra4-a3+ 2.Kxa3 Black is stalemated.
    let (p, pos) = line(STUDY, "1.Rd1 Ra3 2.Kxa3");
    assert_eq!(p.game.status(&pos), Status::Stalemated);
}

#[test]
fn the_study_settled() {
    // White mates in 6 with 1.Kxa4 or 1.Rd2, not in 5 (positions/taxi/README.md).
    let p = problem(STUDY);
    assert!(keys(&p, &p.position, 5).is_empty());
    assert_eq!(keys(&p, &p.position, 6), vec!["b3a4", "d3d2"]);
    // "and wins": after 1.Rd1 Rb4+ 2.Ka3+ Rb1, 3.Re1 mates in 2.
    let (p, pos) = line(STUDY, "1.Rd1 Rb4 2.Ka3 Rb1");
    assert_eq!(keys(&p, &pos, 2), vec!["d1e1"]);
    // "seems to be a draw": after 1.Rd1 Ra3+ 2.Kb4+ Kb2 3.Rd2+ Kc1, no mate in 8.
    let (p, pos) = line(STUDY, "1.Rd1 Ra3 2.Kb4 Kb2 3.Rd2 Kc1");
    assert!(keys(&p, &pos, 8).is_empty());
}

#[test]
fn rule_2_1_prices() {
    use fairysolve::taxi::{cost, towing_fee};
    let geo = fairysolve::geometry::Standard;
    let fee = |s: &str| towing_fee(fairysolve::Square::parse(s).unwrap());
    assert_eq!(
        (
            fee("d4"),
            fee("e5"),
            fee("c3"),
            fee("f6"),
            fee("b2"),
            fee("g7"),
            fee("a1"),
            fee("h4")
        ),
        (4, 4, 3, 3, 2, 2, 1, 1)
    );
    let price = |line_: &str, mv: &str| {
        let p = problem(line_);
        let m = parse_move(&p.game, &p.position, mv).unwrap();
        cost(&geo, p.position.board(), m)
    };
    let rich = "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 taxi \"99 99\";";
    assert_eq!(price(rich, "O-O"), 4);
    assert_eq!(price(rich, "O-O-O"), 5);
    assert_eq!(price(rich, "Ra1a7"), 6);
    assert_eq!(price(rich, "exd6"), 1 + 4, "en passant pays the fee of d5");
    assert_eq!(price(rich, "b8=Q"), 1 + 2);
    assert_eq!(price(rich, "bxa8=N"), 1 + 1 + 2);
    assert_eq!(price(rich, "Rxa8"), 7 + 1);
    assert_eq!(price("8/8/8/8/8/8/4P3/k3K1N1 w - - taxi \"9 9\";", "e4"), 2);
    assert_eq!(
        price("8/8/8/8/8/8/4P3/k3K1N1 w - - taxi \"9 9\";", "Nf3"),
        2
    );
}

#[test]
fn rule_2_3_castling_not_through_an_affordable_attack() {
    // The f8 rook attacks f1 at a price of 7: with 4 in hand plus 2 to come Black cannot
    // pay it, so White may castle through f1; with 5 + 2 it can, and White may not.
    let poor = problem("4kr2/8/8/8/8/8/8/4K2R w K - taxi \"4 4\";");
    assert!(legal(&poor, &poor.position).contains(&"e1g1".to_string()));
    let rich = problem("4kr2/8/8/8/8/8/8/4K2R w K - taxi \"4 5\";");
    assert!(!legal(&rich, &rich.position).contains(&"e1g1".to_string()));
}

#[test]
fn rule_2_2_a_pinned_piece_still_gives_check() {
    // Black's b4 bishop is pinned to its king by the c5 bishop, yet it attacks e1 at a
    // price of 3: White is in check when Black will have 3 on its turn (1 + 2), and not
    // when it will have 2.
    let p = problem("8/8/8/2B5/1b6/k7/8/4K3 w - - taxi \"2 1\";");
    assert!(p.game.in_check(&p.position));
    let q = problem("8/8/8/2B5/1b6/k7/8/4K3 w - - taxi \"2 0\";");
    assert!(!q.game.in_check(&q.position));
}

#[test]
fn taxi_collection_key_sets() {
    for p in problems("positions/taxi/problems.epd")
        .into_iter()
        .chain(problems("positions/taxi/study.epd"))
    {
        let want = p
            .record
            .get("c1")
            .and_then(|o| o.single())
            .unwrap()
            .strip_prefix("keys: ")
            .unwrap()
            .to_string();
        let n = p.stipulation.unwrap().moves;
        let got = keys(&p, &p.position, n);
        let got = if got.is_empty() {
            "none".to_string()
        } else {
            got.join(" ")
        };
        assert_eq!(got, want, "{:?}", p.id());
    }
}

#[test]
fn deep_pockets_make_taxi_fide() {
    // Cash far above any price: every move affordable, every attack a check.
    for p in problems("positions/perft/standard.epd").into_iter().take(6) {
        let rich = problem(&format!("{} taxi \"5000 5000\";", p.record.fen_text));
        for depth in 1..=3 {
            assert_eq!(
                rich.game.perft(&rich.position, depth, true),
                p.game.perft(&p.position, depth, true),
                "{:?}",
                p.record.fen_text
            );
        }
    }
    for p in problems("positions/orthodox/twomovers.epd")
        .into_iter()
        .take(25)
    {
        let rich = problem(&format!("{} taxi \"5000 5000\"; dm 2;", p.record.fen_text));
        assert_eq!(
            keys(&rich, &rich.position, 2),
            keys(&p, &p.position, 2),
            "{:?}",
            p.id()
        );
    }
}

/// Cash just at the amounts `taxi::indifferent_cash` names plays as FIDE for the turns
/// it was worked out for (rules.md 2.1-2.3): the solver's table shares its entries
/// between such amounts, so they must not change one move, check or mate.
#[test]
fn indifferent_cash_plays_as_fide() {
    use fairysolve::taxi::{exact_dearest_move, indifferent_cash, Taxi};
    let geo = &fairysolve::geometry::Standard;
    let dearest = exact_dearest_move(geo);
    let cash = |mover_turns, other_turns| {
        let [white, black] =
            indifferent_cash(geo, &Taxi::default(), dearest, mover_turns, other_turns);
        format!("taxi \"{white} {black}\";")
    };
    // Perft to depth 3: White moves at plies 0 and 2, Black at ply 1.
    for p in problems("positions/perft/standard.epd").into_iter().take(6) {
        if p.position.turn() != fairysolve::Color::White {
            continue;
        }
        let taxi = problem(&format!("{} {}", p.record.fen_text, cash(2, 1)));
        assert_eq!(
            taxi.game.perft(&taxi.position, 3, true),
            p.game.perft(&p.position, 3, true),
            "{:?}",
            p.record.fen_text
        );
    }
    // #n: n turns of the attacker, and n of the defender (the last is the mate test).
    for (file, n, count) in [
        ("positions/orthodox/twomovers.epd", 2, 51),
        ("positions/orthodox/threemovers.epd", 3, 12),
    ] {
        for p in problems(file).into_iter().take(count) {
            let taxi = problem(&format!("{} {} dm {n};", p.record.fen_text, cash(n, n)));
            assert_eq!(
                keys(&taxi, &taxi.position, n),
                keys(&p, &p.position, n),
                "{:?}",
                p.id()
            );
        }
    }
}

#[test]
fn poor_perft_differs() {
    // The test above can fail: with little cash the counts change.
    let p = problem("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - taxi \"1 0\";");
    assert_ne!(p.game.perft(&p.position, 2, true), 400);
    // With 1 in hand only one-square moves: 16 pawn steps... and the knights cannot move.
    assert_eq!(p.game.perft(&p.position, 1, true), 8);
}

#[test]
fn taxi_with_trapdoor_and_earthquake() {
    // Both modifiers: a move pays and its piece starts ticking.
    let (p, pos) = line(
        "4k3/8/8/8/8/8/8/R3K3 w - - taxi \"9 0\"; trapdoor 1;",
        "1.Ra4 Kd8",
    );
    assert_eq!(pos.timers().get(fairysolve::Square::A4), Some(1));
    assert_eq!(pos.cash(fairysolve::Color::White), 9 - 3 + 2);
    // A rook that stays falls at the end of White's next move unless it moves.
    let mv = parse_move(&p.game, &pos, "Ke2").unwrap();
    assert_eq!(
        p.game.play(&pos, mv).fallen.collect::<Vec<_>>(),
        vec![fairysolve::Square::A4]
    );
    // Earthquake: void cells flown over are free (rules.md 3.8): a4-a5 over the void
    // row of (0,-1) costs 1.
    let eq = problem("4k3/8/8/8/R7/8/8/4K3 w - - taxi \"1 0\"; earthquake \"0 -1\"; void fly;");
    assert!(legal(&eq, &eq.position).contains(&"a4a5".to_string()));
    assert!(!legal(&eq, &eq.position).contains(&"a4a6".to_string()));
}

/// Taxi legality by its definition (rules.md 2.1-2.3) on any board: every pseudo-legal
/// move the mover can pay for, after which no enemy man attacks the own king with a
/// ride its owner can pay for on its next turn; castling not out of, through or into
/// such an attack.
fn taxi_moves_by_definition<G: fairysolve::geometry::Geometry>(
    geo: &G,
    game: &fairysolve::game::AnyGame,
    pos: &Position,
) -> Vec<String> {
    use fairysolve::attacks::attackers;
    use fairysolve::board::Board;
    use fairysolve::taxi::{cost, movement_cost};
    let us = pos.turn();
    let affordably_attacked = |board: &Board, sq: fairysolve::Square, budget: u32| {
        attackers(geo, board, sq, !us, board.occupied())
            .any(|a| movement_cost(geo, board.role_at(a).unwrap(), a, sq) <= budget)
    };
    let income = game.rules().taxi.unwrap().income;
    let mut pseudo = fairysolve::moves::MoveList::new();
    fairysolve::movegen::generate_pseudo(geo, pos, &mut pseudo);
    let mut legal = Vec::new();
    for &mv in pseudo.iter() {
        if cost(geo, pos.board(), mv) > pos.cash(us) {
            continue;
        }
        if mv.is_castle() {
            let budget = pos.cash(!us) + income;
            let king = pos.board().king(us).unwrap();
            let mut without = *pos.board();
            without.remove(mv.from);
            without.remove(mv.to);
            if affordably_attacked(pos.board(), king, budget)
                || fairysolve::movegen::castling_path(mv)
                    .into_iter()
                    .any(|sq| affordably_attacked(&without, sq, budget))
            {
                continue;
            }
        }
        let after = game.play(pos, mv).position;
        // The opponent is to move and holds its income already.
        let budget = after.cash(!us);
        if let Some(king) = after.board().king(us) {
            if affordably_attacked(after.board(), king, budget) {
                continue;
            }
        }
        legal.push(mv.coord(false).to_string());
    }
    legal.sort();
    legal
}

/// rules.md 2.1-2.3 on the standard board: the generator (FIDE legality plus the price
/// when every attack is affordable; otherwise checks and pins by affordable attackers
/// only), its count (perft's leaves) and "has a move" agree with the definition, over
/// random games along FIDE play (so that positions stay varied) with random cash.
#[test]
fn taxi_generator_equals_definition() {
    let mut rng = common::Rng(0x2545_F491_4F6C_DD1Du64);
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - -",
    ];
    let mut compared = 0;
    for game_no in 0..120 {
        let start = starts[game_no % starts.len()];
        let p = problem(&format!("{start} taxi \"16 16\";"));
        let fide = problem(start).game;
        let mut pos = p.position;
        for _ in 0..40 {
            for c in fairysolve::Color::ALL {
                pos.set_cash(c, rng.below(16) as u32);
            }
            let want = taxi_moves_by_definition(&fairysolve::geometry::Standard, &p.game, &pos);
            let fen = fairysolve::fen::write_fen(&pos);
            assert_eq!(legal(&p, &pos), want, "{fen}");
            assert_eq!(p.game.perft(&pos, 1, true), want.len() as u64, "{fen}");
            assert_eq!(p.game.has_legal_move(&pos), !want.is_empty(), "{fen}");
            compared += 1;
            let moves = fide.legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos = fide.play(&pos, moves[rng.below(moves.len())]).position;
        }
    }
    assert!(compared > 3000, "{compared}");
}

/// rules.md 2.1-2.3 with 3: on displaced boards (where rides are longer or shorter than
/// the squares' names say) the generator, its count (perft's leaves) and "has a move"
/// agree with the definition, over random games with random cash.
#[test]
fn taxi_on_displaced_boards_by_definition() {
    let mut rng = common::Rng(0x5DEE_CE66_D1CE_4E5Bu64);
    let mut compared = 0;
    for board in [
        "earthquake \"1 0\";",
        "earthquake \"0 -1\"; void fly;",
        "earthquake \"-2 1\";",
    ] {
        let p = problem(&format!(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - {board} taxi \"18 16\";"
        ));
        let geo = p
            .game
            .earthquake(&p.position)
            .expect("a displaced board")
            .clone();
        for _ in 0..60 {
            let mut pos = p.position;
            for _ in 0..40 {
                for c in fairysolve::Color::ALL {
                    pos.set_cash(c, rng.below(12) as u32);
                }
                let want = taxi_moves_by_definition(&geo, &p.game, &pos);
                let fen = fairysolve::fen::write_fen(&pos);
                assert_eq!(legal(&p, &pos), want, "{board} {fen}");
                assert_eq!(
                    p.game.perft(&pos, 1, true),
                    want.len() as u64,
                    "{board} {fen}"
                );
                assert_eq!(
                    p.game.has_legal_move(&pos),
                    !want.is_empty(),
                    "{board} {fen}"
                );
                compared += 1;
                let moves = p.game.legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let played = p.game.play(&pos, moves[rng.below(moves.len())]);
                if played.outcome.is_some() {
                    break;
                }
                pos = played.position;
            }
        }
    }
    assert!(compared > 1500, "{compared}");
}

/// A sparse random placement as a FEN board: the kings within two steps of each other,
/// and `men` more of either colour.
fn kings_near_board(rng: &mut common::Rng, men: usize) -> String {
    let mut board = [None::<char>; 64];
    let black = rng.below(64);
    board[black] = Some('k');
    loop {
        let sq = rng.below(64);
        let near = (sq / 8).abs_diff(black / 8) <= 2 && (sq % 8).abs_diff(black % 8) <= 2;
        if near && board[sq].is_none() {
            board[sq] = Some('K');
            break;
        }
    }
    for _ in 0..men {
        let sq = rng.below(64);
        let man = b"QRBNPqrbnp"[rng.below(10)] as char;
        let pawn_rank = sq / 8 == 0 || sq / 8 == 7;
        if board[sq].is_none() && !(man.eq_ignore_ascii_case(&'p') && pawn_rank) {
            board[sq] = Some(man);
        }
    }
    common::placement_fen(&board)
}

/// rules.md 2.2-2.3 where a side cannot pay: cash from 0, income 0 to 3, the kings
/// side by side or a step apart, on the standard board and displaced ones. A king
/// beside a king that cannot pay for the step is not in check; the generator, its
/// count and "has a move" agree with the definition.
#[test]
fn taxi_generator_equals_definition_with_kings_that_cannot_pay() {
    let mut rng = common::Rng(0x8538_ECB5_BD45_6EA3u64);
    let boards = [
        "",
        " earthquake \"1 0\";",
        " earthquake \"0 -1\";",
        " earthquake \"-1 1\";",
    ];
    let (mut compared, mut adjacent) = (0, 0);
    while compared < 4000 {
        let men = 2 + rng.below(4);
        let placement = kings_near_board(&mut rng, men);
        let turn = ["w", "b"][rng.below(2)];
        let geometry = boards[rng.below(boards.len())];
        let text = format!(
            "{placement} {turn} - - taxi \"{} {}\"; taxi_income {};{geometry}",
            rng.below(9),
            rng.below(9),
            rng.below(4)
        );
        let Ok(fairysolve::epd::Line::Position(rec)) = fairysolve::epd::parse_line(&text, 1) else {
            panic!("not read: {text}");
        };
        // A side not to move in (affordable) check, a square the board lacks: skipped.
        let Ok(p) = fairysolve::problem::from_record(*rec) else {
            continue;
        };
        let pos = p.position;
        let want = match p.game.earthquake(&pos) {
            Some(geo) => taxi_moves_by_definition(&geo.clone(), &p.game, &pos),
            None => taxi_moves_by_definition(&fairysolve::geometry::Standard, &p.game, &pos),
        };
        assert_eq!(legal(&p, &pos), want, "{text}");
        assert_eq!(p.game.perft(&pos, 1, true), want.len() as u64, "{text}");
        assert_eq!(p.game.has_legal_move(&pos), !want.is_empty(), "{text}");
        let kings = pos.board().by_role(fairysolve::Role::King);
        let kings: Vec<fairysolve::Square> = kings.into_iter().collect();
        let (a, b) = (kings[0], kings[1]);
        adjacent += (a.file().abs_diff(b.file()) <= 1 && a.rank().abs_diff(b.rank()) <= 1) as usize;
        compared += 1;
    }
    assert!(
        adjacent > 100,
        "only {adjacent} positions with the kings side by side"
    );
}

/// rules.md 2 and 8.3: the Taxi self-mate bench suite (`positions/bench/taxi-self.epd`,
/// published self-mates with cash for every move and with little) has the key sets its
/// `c1` lists, proved with the attacker's last move under prices
/// (`search::last_move::self_mate_candidates`). With little cash two lines keep a key.
#[test]
fn the_taxi_self_mate_suite_has_its_keys() {
    let mut with_keys = 0;
    for p in problems("positions/bench/taxi-self.epd") {
        let got = common::self_mate_keys(&p, p.stipulation.unwrap().moves);
        assert_eq!(got, common::published_keys(&p), "{:?}", p.id());
        with_keys += usize::from(got != "none");
    }
    assert_eq!(with_keys, 11 + 2);
}
