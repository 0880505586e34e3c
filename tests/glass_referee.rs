//! The referee of the hidden Looking-Glass game (rules.md 5.7 and 5.8d-e, formats.md 4):
//! each kind of strike and each report on a position of its own, the forfeit rule,
//! `ask`, the game script of positions/glass/, and over random games: every legal move
//! ordered as it is gets played as it is, and nothing a player may not know reaches it.

mod common;

use common::Rng;
use fairysolve::generic::TurnGame;
use fairysolve::glass::referee::{
    chess960_rank, parse_order, setup_line, Order, OrderError, Referee, Report, Strike,
};
use fairysolve::glass::{read_line, GState, Glass, Side};
use fairysolve::types::{Color, Role, Square};
use serde_json::{json, Value};

/// White's usual array on the Real board, Black's on the Mirror.
const START: &str =
    "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - mirror \"rnbqkbnr/pppppppp/8/8/8/8/8/8\";";

fn state(line: &str) -> GState {
    read_line(line)
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .state
}

fn referee(line: &str) -> Referee {
    Referee::new(state(line), false, [0, 0])
}

fn order(r: &mut Referee, text: &str) -> Report {
    let o = parse_order(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    r.order(o).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The strike an order earns (and that it is one).
fn strike(line: &str, text: &str) -> (Strike, u32, bool) {
    let mut r = referee(line);
    match order(&mut r, text) {
        Report::Strike {
            reason,
            strikes,
            lost,
            ..
        } => (reason, strikes, lost),
        other => panic!("{text}: not a strike: {other:?}"),
    }
}

fn played(r: &mut Referee, text: &str) -> Value {
    let report = order(r, text);
    assert!(
        matches!(report, Report::Played(_)),
        "{text}: not played: {report:?}"
    );
    report.to_json()
}

#[test]
fn rule_5_7_no_own_piece_on_the_from_square_is_a_strike() {
    assert_eq!(strike(START, "w R:e4e5"), (Strike::NoPiece, 1, false));
    // White's men stand on the Real board: none on e2 of the Mirror.
    assert_eq!(strike(START, "w M:e2e4").0, Strike::NoPiece);
    // A man of the other colour is not one's own.
    let line = "8/8/8/8/8/8/8/4K3 w - - mirror \"4k3/8/8/8/8/8/8/8\";";
    assert_eq!(strike(line, "w M:e8e7").0, Strike::NoPiece);
}

#[test]
fn rule_5_7_a_direction_the_man_cannot_move_is_a_strike() {
    assert_eq!(strike(START, "w R:b1b3").0, Strike::WrongDirection);
    assert_eq!(strike(START, "w R:c1c3").0, Strike::WrongDirection);
    assert_eq!(strike(START, "w R:e2e5").0, Strike::WrongDirection);
    assert_eq!(strike(START, "w R:e2e2").0, Strike::WrongDirection);
    // A pawn's double step from anywhere but its first square.
    let line = "8/8/8/8/8/4P3/8/4K3 w - - mirror \"4k3/8/8/8/8/8/8/8\";";
    assert_eq!(strike(line, "w R:e3e5").0, Strike::WrongDirection);
}

/// Rule 5.8d: castling is ordered as the king taking its rook; a two-square king order
/// is a strike even where castling is possible.
#[test]
fn rule_5_8d_a_two_square_king_order_is_a_strike() {
    let line = "8/8/8/8/8/8/8/4K2R w H - mirror \"4k3/8/8/8/8/8/8/8\";";
    assert_eq!(strike(line, "w R:e1g1").0, Strike::WrongDirection);
    let mut r = referee(line);
    let v = played(&mut r, "w R:e1h1");
    assert_eq!(v["move"], "R:e1h1");
    // King to g1 and rook to f1: both squares are empty on the Mirror, both pass.
    assert_eq!(v["passed"], json!({"g1": true, "f1": true}));
}

#[test]
fn rule_5_8d_a_rider_blocked_at_its_first_square_is_a_strike() {
    assert_eq!(strike(START, "w R:a1a4").0, Strike::BlockedAtOnce);
    assert_eq!(strike(START, "w R:d1h5").0, Strike::BlockedAtOnce);
    // On the other board as well.
    let line = "8/8/8/8/8/8/8/4K3 w - - mirror \"4k3/8/8/8/8/8/1P6/R7\";";
    assert_eq!(strike(line, "w M:a1c3").0, Strike::WrongDirection);
    let line = "8/8/8/8/8/8/8/4K3 w - - mirror \"4k3/8/8/8/8/8/P7/R7\";";
    assert_eq!(strike(line, "w M:a1a7").0, Strike::BlockedAtOnce);
}

#[test]
fn rule_5_7_a_leaper_or_pawn_onto_a_friendly_man_is_a_strike() {
    assert_eq!(strike(START, "w R:b1d2").0, Strike::FriendlyTarget);
    assert_eq!(strike(START, "w R:e1e2").0, Strike::FriendlyTarget);
    // A pawn's capture onto its own man (rules.md 5.7 names the friendly target first).
    let line = "8/8/8/8/8/3N4/4P3/4K3 w - - mirror \"4k3/8/8/8/8/8/8/8\";";
    assert_eq!(strike(line, "w R:e2d3").0, Strike::FriendlyTarget);
    // A king that steps onto its own rook without the castling right; from further
    // away it is no king's move at all.
    let line = "8/8/8/8/8/8/8/5KR1 w - - mirror \"4k3/8/8/8/8/8/8/8\";";
    assert_eq!(strike(line, "w R:f1g1").0, Strike::FriendlyTarget);
    let line = "8/8/8/8/8/8/8/4K2R w - - mirror \"4k3/8/8/8/8/8/8/8\";";
    assert_eq!(strike(line, "w R:e1h1").0, Strike::WrongDirection);
    // With the right but a man between them.
    let line = "8/8/8/8/8/8/8/4KB1R w H - mirror \"4k3/8/8/8/8/8/8/8\";";
    assert_eq!(strike(line, "w R:e1h1").0, Strike::FriendlyTarget);
}

#[test]
fn rule_5_7_a_pawn_push_onto_any_man_is_a_strike() {
    let line = "8/8/8/4n3/4P3/8/8/4K3 w - - mirror \"4k3/8/8/8/8/8/8/8\";";
    assert_eq!(strike(line, "w R:e4e5").0, Strike::PawnPushBlocked);
    // The double step's first square taken (5.8d), on either board.
    let line = "8/8/8/8/8/4N3/4P3/4K3 w - - mirror \"4k3/8/8/8/8/8/8/8\";";
    assert_eq!(strike(line, "w R:e2e4").0, Strike::PawnPushBlocked);
    let line = "8/8/8/8/8/8/8/4K3 w - - mirror \"4k3/8/8/8/8/4n3/4P3/8\";";
    assert_eq!(strike(line, "w M:e2e4").0, Strike::PawnPushBlocked);
}

#[test]
fn rule_5_7_a_pawn_capture_onto_no_enemy_is_a_strike() {
    assert_eq!(strike(START, "w R:e2d3").0, Strike::PawnCaptureEmpty);
    // The enemy is on the other board's square: not here.
    let line = "8/8/8/8/8/8/4P3/4K3 w - - mirror \"4k3/8/8/8/8/3n4/8/8\";";
    assert_eq!(strike(line, "w R:e2d3").0, Strike::PawnCaptureEmpty);
}

/// Rule 5.8d: a pawn reaching its last rank without a letter becomes a queen; a letter
/// on any other move, or a letter that names no promotion, is a strike.
#[test]
fn rule_5_8d_promotion_letters() {
    let line = "8/4P3/8/8/8/8/8/4K3 w - - mirror \"k7/8/8/8/8/8/8/8\";";
    assert_eq!(strike(line, "w R:e7e8k").0, Strike::BadPromotion);
    assert_eq!(strike(line, "w R:e7e8p").0, Strike::BadPromotion);
    assert_eq!(strike(START, "w R:e2e4q").0, Strike::BadPromotion);
    assert_eq!(strike(START, "w R:b1c3n").0, Strike::BadPromotion);
    let mut r = referee(line);
    assert_eq!(played(&mut r, "w R:e7e8")["move"], "R:e7e8q");
    let mut r = referee(line);
    assert_eq!(played(&mut r, "w R:e7e8n")["move"], "R:e7e8n");
    let mut r = referee(line);
    assert_eq!(played(&mut r, "w R:e7e8N")["move"], "R:e7e8n");
}

/// Rule 5.8d: on one's own board the order must be legal exactly as given; where the
/// other board's rule would cut it short, it is `not-as-given`.
#[test]
fn rule_5_8d_an_order_on_ones_own_board_must_be_legal_as_given() {
    let line = "8/8/8/r7/8/8/8/R3K3 w - - mirror \"4k3/8/8/8/8/8/8/8\";";
    assert_eq!(strike(line, "w R:a1a8").0, Strike::NotAsGiven);
    let line = "8/8/8/8/4n3/8/4P3/4K3 w - - mirror \"4k3/8/8/8/8/8/8/8\";";
    assert_eq!(strike(line, "w R:e2e4").0, Strike::NotAsGiven);
    // Black's own board is the Mirror.
    let line = "4K3/8/8/8/8/8/8/8 b - - mirror \"4k3/4p3/8/4N3/8/8/8/8\";";
    assert_eq!(strike(line, "b M:e7e5").0, Strike::NotAsGiven);
    let mut r = referee(line);
    assert_eq!(played(&mut r, "b M:e7e6")["move"], "M:e7e6");
}

/// Rule 5.7: on the other board a rider goes as far as it can: it stops before a man of
/// its own, or takes the first enemy on its way; a double step stops after one step when
/// its second square is taken.
#[test]
fn rule_5_7_an_order_on_the_other_board_is_played_as_far_as_it_gets() {
    let line = "8/8/8/8/8/8/8/4K3 w - - mirror \"4k3/8/8/3n4/8/8/8/3Q4\";";
    let mut r = referee(line);
    let v = played(&mut r, "w M:d1d8");
    assert_eq!(v["move"], "M:d1d5");
    assert_eq!(v["partial"], true);
    assert_eq!(v["captured"], "n");
    let line = "8/8/8/8/8/8/8/4K3 w - - mirror \"4k3/8/8/3P4/8/8/8/3Q4\";";
    let mut r = referee(line);
    let v = played(&mut r, "w M:d1d8");
    assert_eq!(v["move"], "M:d1d4");
    assert_eq!(v["partial"], true);
    assert_eq!(v["captured"], Value::Null);
    // The whole way when nothing stands on it.
    let line = "8/8/8/8/8/8/8/4K3 w - - mirror \"4k3/8/8/8/8/8/8/3Q4\";";
    let mut r = referee(line);
    let v = played(&mut r, "w M:d1d7");
    assert_eq!(
        (v["move"].clone(), v["partial"].clone()),
        (json!("M:d1d7"), json!(false))
    );
    // A double step that meets a man on its second square.
    let line = "8/8/8/8/8/8/8/4K3 w - - mirror \"4k3/8/8/8/4p3/8/4P3/8\";";
    let mut r = referee(line);
    let v = played(&mut r, "w M:e2e4");
    assert_eq!(v["move"], "M:e2e3");
    assert_eq!(v["partial"], true);
}

/// Rule 5.8e: `passed` for each man the move left on a square; an announcement for each
/// man that passed, addressed to the player who does not see the board it arrived on,
/// naming the men of the other colour it attacks there, sorted, and for a pawn its
/// front square.
#[test]
fn rule_5_8e_what_each_player_is_told() {
    // White's queen stops on d5 of the Mirror, takes the knight and passes to the Real
    // board, where White sees it: Black is told what it attacks there.
    let line = "8/8/3p4/8/8/5b2/8/4K3 w - - mirror \"4k3/8/8/3n4/8/8/8/3Q4\";";
    let mut r = referee(line);
    let v = played(&mut r, "w M:d1d8");
    assert_eq!(v["passed"], json!({"d5": true}));
    assert_eq!(
        v["told"],
        json!([{"to": "b", "board": "R", "piece": "Q", "square": "d5",
                "attacks": ["bf3", "pd6"]}])
    );
    // A pawn that passes: its front square is named, "." when empty.
    let line = "8/8/8/8/8/8/4P3/4K3 w - - mirror \"4k3/8/8/4n3/8/8/8/8\";";
    let mut r = referee(line);
    let v = played(&mut r, "w R:e2e4");
    assert_eq!(
        v["told"],
        json!([{"to": "w", "board": "M", "piece": "P", "square": "e4",
                "attacks": [], "front": "n"}])
    );
    // A man that stays tells nothing.
    let line = "8/8/8/8/8/8/4P3/4K3 w - - mirror \"4k3/8/8/8/4n3/8/8/8\";";
    let mut r = referee(line);
    let v = played(&mut r, "w R:e2e4");
    assert_eq!(v["passed"], json!({"e4": false}));
    assert_eq!(v["told"], json!([]));
    // Castling: king and rook pass or stay each on its own (5.2, 5.8a).
    let line = "8/8/8/8/8/8/8/4K2R w H - mirror \"4k3/8/8/8/8/8/8/6n1\";";
    let mut r = referee(line);
    let v = played(&mut r, "w R:e1h1");
    assert_eq!(v["passed"], json!({"g1": false, "f1": true}));
    assert_eq!(
        v["told"],
        json!([{"to": "w", "board": "M", "piece": "R", "square": "f1", "attacks": ["ng1"]}])
    );
}

/// Rule 5.4 through the referee: the capturing pawn stands where the double step was
/// played; the pawn taken is on the other board by now.
#[test]
fn rule_5_4_en_passant_across_the_boards() {
    let line = "8/8/8/8/8/8/8/4K3 b - - mirror \"4k3/3p4/8/4P3/8/8/8/8\";";
    let mut r = referee(line);
    let v = played(&mut r, "b M:d7d5");
    assert_eq!(v["passed"], json!({"d5": true}));
    let v = played(&mut r, "w M:e5d6");
    assert_eq!(v["captured"], "p");
    assert_eq!(
        v["epd"],
        "8/8/3P4/8/8/8/8/4K3 b - - mirror \"4k3/8/8/8/8/8/8/8\";"
    );
}

#[test]
fn rule_5_3_and_5_5_the_status_after_a_move() {
    let line = "8/8/8/8/8/8/8/4K3 w - - mirror \"4k3/8/8/8/8/8/8/4Q3\";";
    let mut r = referee(line);
    let v = played(&mut r, "w M:e1e8");
    assert_eq!(
        (v["status"].clone(), v["captured"].clone()),
        (json!("win"), json!("k"))
    );
    assert!(r.is_over());
    assert_eq!(
        r.order(parse_order("b M:e8e7").unwrap()).unwrap_err(),
        OrderError::GameOver
    );
    // Black's king leaves White, walled in by its own men, without a move: stalemate.
    let line = "RBBQKBBR/PPPPPPPP/8/8/8/8/8/8 b - - mirror \"8/8/8/8/8/8/8/7k\";";
    let mut r = referee(line);
    let v = played(&mut r, "b M:h1h2");
    assert_eq!(v["status"], "draw");
}

/// Rule 5.7: three strikes lose; `--strikes` starts from a count.
#[test]
fn rule_5_7_three_strikes_lose() {
    let mut r = referee(START);
    let counts: Vec<(u32, bool)> = (0..3)
        .map(|_| match order(&mut r, "w R:e4e5") {
            Report::Strike { strikes, lost, .. } => (strikes, lost),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(counts, [(1, false), (2, false), (3, true)]);
    assert_eq!(
        r.order(parse_order("w R:e2e4").unwrap()).unwrap_err(),
        OrderError::GameOver
    );
    let mut r = Referee::new(state(START), false, [2, 0]);
    assert!(matches!(
        order(&mut r, "w R:b1b3"),
        Report::Strike {
            strikes: 3,
            lost: true,
            ..
        }
    ));
}

/// Rule 5.7, the forfeit option: the opponent picks a legal move for that side on that
/// board; with none there, the side orders again without penalty (5.8e).
#[test]
fn rule_5_7_forfeit() {
    let line = "8/8/8/8/8/8/8/4K3 w - - mirror \"4k3/8/8/8/8/8/8/R7\";";
    let mut r = Referee::new(state(line), true, [0, 0]);
    let report = order(&mut r, "w M:a1b2");
    let v = report.to_json();
    assert_eq!(v["result"], "forfeit");
    assert_eq!(v["reason"], "wrong-direction");
    let mut choices: Vec<String> = v["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    choices.sort();
    let mut expected: Vec<String> = [
        "a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1", "c1", "d1", "e1", "f1", "g1", "h1",
    ]
    .iter()
    .map(|sq| format!("M:a1{sq}"))
    .collect();
    expected.sort();
    assert_eq!(choices, expected);
    assert_eq!(r.strikes(), [0, 0]);
    // Only Black's pick comes now.
    assert!(matches!(
        r.order(parse_order("w R:e1e2").unwrap()),
        Err(OrderError::PickExpected("Black", 'b'))
    ));
    assert!(matches!(
        r.order(parse_order("b pick M:a1b2").unwrap()),
        Err(OrderError::NotOffered(_))
    ));
    let v = played(&mut r, "b pick M:a1a8");
    assert_eq!(v["move"], "M:a1a8");
    assert_eq!(r.state().turn, Color::Black);
    // White has no man on the Mirror now: an order there is answered `again`.
    let line = "8/8/8/8/8/8/8/4K3 w - - mirror \"4k3/8/8/8/8/8/8/8\";";
    let mut r = Referee::new(state(line), true, [0, 0]);
    let v = order(&mut r, "w M:a1a2").to_json();
    assert_eq!(v, json!({"result": "again", "reason": "no-piece"}));
    assert_eq!(r.state().turn, Color::White);
}

/// Rule 5.7: `ask` answers whether the side has a legal move on the board it cannot see.
#[test]
fn rule_5_7_ask() {
    let answer = |line: &str, text: &str| -> Value {
        let mut r = referee(line);
        order(&mut r, text).to_json()
    };
    assert_eq!(
        answer(START, "w ask"),
        json!({"result": "answer", "board": "M", "any_legal_move": false})
    );
    assert_eq!(
        answer(START, "b ask"),
        json!({"result": "answer", "board": "R", "any_legal_move": false})
    );
    let line = "8/8/8/8/8/8/8/4K3 w - - mirror \"4k3/8/8/8/8/8/8/R7\";";
    assert_eq!(answer(line, "w ask")["any_legal_move"], true);
    // Walled in: a man on the Mirror, but no move there.
    let line = "8/8/8/8/8/8/8/4K3 w - - mirror \"4k3/8/8/8/8/8/PP6/RN6\";";
    let mut r = referee(line);
    let v = order(&mut r, "w ask").to_json();
    assert_eq!(v["any_legal_move"], true, "the pawns can still move");
}

#[test]
fn orders_that_are_not_orders_are_errors_not_strikes() {
    let cases = [
        ("", "column 1: an empty order"),
        ("x R:e2e4", "column 1: 'x' is not a side: an order begins with w or b"),
        ("w", "column 2: the order is missing: a move (R:e2e4), ask, or pick"),
        ("w e2e4", "column 3: 'e2e4' is not a move order: write the board, R: or M:, then the squares (R:e2e4)"),
        ("w Q:e2e4", "column 3: 'Q' is not a board: R or M"),
        ("w R:e9e4", "column 5: 'e9' is not a square"),
        ("w R:e2e4x5", "column 5: 'e2e4x5' is not two squares and an optional promotion letter"),
        ("w R:e7e8+", "column 9: '+' is not a promotion letter"),
        ("w R:e2e4 R:e7e5", "column 10: one move per order"),
        ("b ask now", "column 7: nothing may follow ask"),
        ("b pick", "column 7: pick needs one of the moves offered (M:a1a3)"),
    ];
    for (text, message) in cases {
        assert_eq!(
            parse_order(text).map(|_| ()).unwrap_err().to_string(),
            message,
            "{text:?}"
        );
    }
    let mut r = referee(START);
    assert_eq!(
        r.order(parse_order("b M:e7e5").unwrap())
            .unwrap_err()
            .to_string(),
        "it is White's turn"
    );
    assert_eq!(
        r.order(parse_order("b pick M:e7e5").unwrap())
            .unwrap_err()
            .to_string(),
        "nothing to pick: no order was forfeited"
    );
}

/// Rule 5.1: the random set-ups are Chess960 arrays: bishops on squares of both colours,
/// the king between the rooks; all 960 numbers give different arrays.
#[test]
fn rule_5_1_random_setups_are_chess960_arrays() {
    let mut seen = std::collections::HashSet::new();
    for n in 0..960 {
        let rank = chess960_rank(n);
        let at = |role: Role| -> Vec<usize> { (0..8).filter(|&f| rank[f] == role).collect() };
        let bishops = at(Role::Bishop);
        assert_eq!(bishops.len(), 2);
        assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}");
        let rooks = at(Role::Rook);
        let king = at(Role::King);
        assert!(rooks.len() == 2 && king.len() == 1 && rooks[0] < king[0] && king[0] < rooks[1]);
        assert_eq!((at(Role::Queen).len(), at(Role::Knight).len()), (1, 2));
        assert!(seen.insert(rank));
    }
    // Number 518 is the usual array.
    assert_eq!(
        chess960_rank(518),
        [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook
        ]
    );
    let s = state(&setup_line(518, 518));
    assert_eq!(fairysolve::glass::setup::position_line(&s), START);
}

/// A random order of the side to move: a legal move as it is, or squares drawn from its
/// men and the board, on either board, sometimes with a letter.
fn random_order(s: &GState, rng: &mut Rng) -> String {
    let game = Glass {
        attacker: Color::White,
    };
    let who = s.turn.letter();
    let moves = game.moves(s);
    if !moves.is_empty() && rng.below(2) == 0 {
        let m = moves[rng.below(moves.len())];
        return format!("{who} {}", fairysolve::glass::notation::coord(m));
    }
    let side = if rng.below(2) == 0 {
        Side::Real
    } else {
        Side::Mirror
    };
    let men: Vec<Square> = s.board(side).board().by_color(s.turn).into_iter().collect();
    let from = if men.is_empty() || rng.below(8) == 0 {
        Square::new(rng.below(64) as u8)
    } else {
        men[rng.below(men.len())]
    };
    let to = Square::new(rng.below(64) as u8);
    let letter = ["", "", "", "q", "n", "k"][rng.below(6)];
    format!("{who} {}:{from}{to}{letter}", side.letter())
}

/// Random games from random set-ups and from positions with few men.
fn random_states(count: usize, seed: u64) -> Vec<GState> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    let game = Glass {
        attacker: Color::White,
    };
    while out.len() < count {
        let mut s = state(&setup_line(rng.below(960), rng.below(960)));
        for _ in 0..rng.below(60) {
            let moves = game.moves(&s);
            if moves.is_empty() || s.ended.is_some() {
                break;
            }
            s = game.play(&s, moves[rng.below(moves.len())]);
        }
        if s.ended.is_none() && game.end(&s).is_none() {
            out.push(s);
        }
    }
    out
}

/// Every legal move ordered exactly as it is, on either board, is played as it is; and
/// whatever an order on one's own board plays is a legal move exactly as given (5.8d).
#[test]
fn rule_5_7_legal_orders_are_played_as_given_over_random_games() {
    let game = Glass {
        attacker: Color::White,
    };
    let mut rng = Rng(0x05ee_d0f9_7a55);
    for s in random_states(300, 97) {
        for m in game.moves(&s) {
            let coord = fairysolve::glass::notation::coord(m);
            let mut r = Referee::new(s, false, [0, 0]);
            let text = format!("{} {coord}", s.turn.letter());
            match r.order(parse_order(&text).unwrap()).unwrap() {
                Report::Played(p) => {
                    assert_eq!(
                        (p.coord.as_str(), p.partial),
                        (coord.as_str(), false),
                        "{text}"
                    )
                }
                other => panic!(
                    "{}: {text}: {other:?}",
                    fairysolve::glass::setup::position_line(&s)
                ),
            }
        }
        for _ in 0..20 {
            let text = random_order(&s, &mut rng);
            let mut r = Referee::new(s, false, [0, 0]);
            let Ok(Order::Move(o)) = parse_order(&text) else {
                continue;
            };
            if let Ok(Report::Played(p)) = r.order(Order::Move(o)) {
                let legal = game.moves(&s).contains(&p.mv);
                assert!(legal, "{text}");
                if o.side == fairysolve::glass::referee::own_board(o.color) {
                    assert!(!p.partial, "{text}");
                    let given = format!("{}:{}{}", o.side.letter(), o.from, o.to);
                    assert!(p.coord.starts_with(&given), "{text} played {}", p.coord);
                }
            }
        }
    }
}

/// Nothing a player may not know is addressed to it (5.7, 5.8e). For random orders in
/// random games, the board a player cannot see is changed (a man removed that the order
/// does not touch); whenever what the player may learn of the order stays the same (the
/// captured letter, the announcements to it, the status, the strike count, the board it
/// sees), the view addressed to it must not change either; nor when the other side gives
/// another order of which the player learns the same.
#[test]
fn rule_5_8e_no_player_learns_what_it_may_not_over_random_games() {
    let mut rng = Rng(0x1eaf_5eed);
    let mut compared = 0;
    let mut compared_orders = 0;
    for s in random_states(400, 12345) {
        for _ in 0..6 {
            let text = random_order(&s, &mut rng);
            let Ok(order) = parse_order(&text) else {
                continue;
            };
            let Order::Move(o) = order else { continue };
            let run = |state: GState| -> Option<Report> {
                Referee::new(state, false, [0, 0]).order(order).ok()
            };
            let Some(report) = run(s) else { continue };
            // The player who did not give the order: the board it cannot see.
            let player = !o.color;
            let hidden = fairysolve::glass::referee::own_board(o.color);
            let removable: Vec<Square> = s
                .board(hidden)
                .board()
                .occupied()
                .into_iter()
                .filter(|&sq| {
                    sq != o.from
                        && sq != o.to
                        && s.board(hidden).board().role_at(sq) != Some(Role::King)
                })
                .collect();
            if removable.is_empty() {
                continue;
            }
            let gone = removable[rng.below(removable.len())];
            let mut other = s;
            other.boards[hidden.index()].remove_piece(gone);
            let Some(report2) = run(other) else { continue };
            let mine = |r: &Report| -> Value {
                let v = r.view(player).unwrap_or(Value::Null);
                json!([
                    v["captured"],
                    v["told"],
                    v["status"],
                    v["strikes"],
                    v["result"],
                    v["board"]
                ])
            };
            if mine(&report) != mine(&report2) {
                continue;
            }
            let (a, b) = (report.view(player), report2.view(player));
            assert_eq!(
                a,
                b,
                "{} then {text}: {player:?} learns of the hidden board (without the man on {gone})",
                fairysolve::glass::setup::position_line(&s)
            );
            compared += 1;
            // Another order of the same side from the same position: when the player
            // learns the same of it, the player cannot tell which order it was.
            let text2 = random_order(&s, &mut rng);
            if let Ok(order2 @ Order::Move(_)) = parse_order(&text2) {
                if let Ok(report3) = Referee::new(s, false, [0, 0]).order(order2) {
                    if mine(&report) == mine(&report3) {
                        assert_eq!(
                            report.view(player),
                            report3.view(player),
                            "{}: {player:?} tells {text} from {text2}",
                            fairysolve::glass::setup::position_line(&s)
                        );
                        compared_orders += 1;
                    }
                }
            }
            // And the record's full position never reaches a player.
            for c in Color::ALL {
                if let Some(v) = report.view(c) {
                    assert!(v.get("epd").is_none());
                }
            }
        }
    }
    assert!(compared > 500, "only {compared} comparisons");
    assert!(
        compared_orders > 200,
        "only {compared_orders} comparisons of orders"
    );
}

/// The game script of positions/glass/: the orders of both players, each followed by the
/// exact reports each player receives (`#> w ...`, `#> b ...`), played by the program.
#[test]
fn referee_game_script() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/positions/glass/referee-game.txt"
    );
    let script = std::fs::read_to_string(path).unwrap();
    let fen = script
        .lines()
        .find_map(|l| l.strip_prefix("# start: "))
        .expect("a start line");
    let forfeit = script.lines().any(|l| l == "# option: --forfeit");
    let mut args = vec!["referee", "--json", "--fen", fen];
    if forfeit {
        args.push("--forfeit");
    }
    let out = common::run_with_stdin(&args, &script);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut orders = 0;
    let mut expected: Vec<(usize, String, Value)> = Vec::new();
    for line in script.lines() {
        if line.starts_with("# ") || line.trim().is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("#> ") {
            let (who, json) = rest.split_once(' ').unwrap();
            expected.push((
                orders - 1,
                who.to_string(),
                serde_json::from_str(json).unwrap(),
            ));
        } else {
            orders += 1;
        }
    }
    assert_eq!(answers.len(), orders);
    for (i, who, view) in &expected {
        assert_eq!(
            &answers[*i]["view"][who.as_str()],
            view,
            "order {} to {who}",
            i + 1
        );
    }
    // Every order's views are in the script.
    assert_eq!(expected.len(), 2 * orders);
    assert_eq!(answers.last().unwrap()["status"], "win");
}

/// A line that is not an order is reported with its line and column, and the next line
/// is still answered; the exit status says that a line was wrong.
#[test]
fn referee_reports_bad_lines_and_goes_on() {
    let out = common::run_with_stdin(
        &["referee", "--fen", START],
        "w R:e2e4\r\nw R:e9e4\n# a comment\n\nb M:e7e5\nhello\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "standard input, line 2, column 5: 'e9' is not a square\n\
         standard input, line 6, column 1: 'hello' is not a side: an order begins with w or b\n"
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "White played R:e2e4; e4 passed; White is told: Pe4 on M attacks nothing, in front: .\n\
         Black played M:e7e5; e5 passed; Black is told: pe5 on R attacks nothing, in front: .\n"
    );
}
