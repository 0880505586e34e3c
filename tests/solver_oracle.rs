//! The solver against a reference that applies rules.md 1.6 and 7 literally: every
//! move of both sides, no table, no ordering, no last-move shortcut. On random small
//! positions (where mates are common) under FIDE, Trapdoor and Taxi rules, with random
//! cash, both give the same key set for #1 and #2 (and #3 under Taxi). This is what
//! proves the shortcuts of the search answer-preserving (for example that a Taxi move
//! may mate while leaving the own king to an attack the opponent cannot pay for).

mod common;

use common::{solved_keys, Rng};
use fairysolve::epd::{parse_line, Line};
use fairysolve::game::{Outcome, Rulebook};
use fairysolve::problem::{from_record, Problem};
use fairysolve::Position;

/// Whether the side to move wins within `n` of its moves (rules.md 7.2), by brute force.
fn wins(game: &dyn Rulebook, pos: &Position, n: u32) -> bool {
    game.legal_moves(pos)
        .iter()
        .any(|&mv| wins_with(game, pos, mv, n))
}

fn wins_with(game: &dyn Rulebook, pos: &Position, mv: fairysolve::moves::Move, n: u32) -> bool {
    let played = game.play(pos, mv);
    match played.outcome {
        Some(Outcome::Mate) => true,
        Some(Outcome::KingFell) => false,
        None => {
            let next = played.position;
            let defences = game.legal_moves(&next);
            if defences.is_empty() {
                return game.in_check(&next);
            }
            defences.iter().all(|&d| {
                let after = game.play(&next, d);
                match after.outcome {
                    Some(Outcome::KingFell) => true,
                    Some(Outcome::Mate) => false,
                    None => n > 1 && wins(game, &after.position, n - 1),
                }
            })
        }
    }
}

fn oracle_keys(p: &Problem, n: u32) -> String {
    let keys = p.game.legal_moves(&p.position);
    common::key_line(
        keys.iter()
            .copied()
            .filter(|&mv| wins_with(&p.game, &p.position, mv, n)),
        false,
    )
}

/// A random placement: both kings (Black's on the edge), `extra` men (most of them
/// White's), White to move. With White's king within two steps of Black's when `near`: under
/// Taxi a side that cannot pay gives no check, so kings may stand side by side and a
/// king's step can check and mate (rules.md 2.2-2.3).
fn random_board_with_kings(rng: &mut Rng, extra: usize, near: bool) -> String {
    let mut board = [None::<char>; 64];
    let mut place = |rng: &mut Rng, piece: char, allowed: &dyn Fn(usize, usize) -> bool| loop {
        let sq = rng.below(64);
        if board[sq].is_none() && allowed(sq / 8, sq % 8) {
            board[sq] = Some(piece);
            return sq;
        }
    };
    // The defending king on the edge, where mates are common.
    let edge = |rank: usize, file: usize| rank == 7 || file == 0 || file == 7;
    if near {
        let black_king = place(rng, 'k', &edge);
        let (bk_rank, bk_file) = (black_king / 8, black_king % 8);
        place(rng, 'K', &|rank, file| {
            rank.abs_diff(bk_rank) <= 2 && file.abs_diff(bk_file) <= 2
        });
    } else {
        place(rng, 'K', &|_, _| true);
        place(rng, 'k', &edge);
    }
    for _ in 0..extra {
        let piece = b"QRRBBNNP"[rng.below(8)] as char;
        let piece = if rng.below(4) == 0 {
            piece.to_ascii_lowercase()
        } else {
            piece
        };
        let pawn = piece.eq_ignore_ascii_case(&'p');
        place(rng, piece, &|rank, _| !pawn || (rank != 0 && rank != 7));
    }
    common::placement_fen(&board)
}

/// Random problems with the operations `ops(rng)` adds; lines the reader refuses (a
/// side not to move in check, say) are skipped.
fn compare(seed: u64, count: usize, ops: impl Fn(&mut Rng, &str) -> String) {
    compare_at(seed, count, &[1, 2], ops)
}

/// `compare` with the stipulation drawn from `depths`; `ops` is given the board (the
/// FEN's placement field).
fn compare_at(seed: u64, count: usize, depths: &[u32], ops: impl Fn(&mut Rng, &str) -> String) {
    compare_boards(seed, count, depths, false, ops)
}

/// `compare_at` with the kings within two steps of each other when `kings_near`.
fn compare_boards(
    seed: u64,
    count: usize,
    depths: &[u32],
    kings_near: bool,
    ops: impl Fn(&mut Rng, &str) -> String,
) {
    let mut rng = Rng(seed);
    let (mut compared, mut with_keys) = (0, 0);
    while compared < count {
        let extra = 3 + rng.below(3);
        let n = depths[rng.below(depths.len())];
        let board = random_board_with_kings(&mut rng, extra, kings_near);
        let line = format!("{board} w - - dm {n}; {}", ops(&mut rng, &board));
        // The line is well formed; the position may be one the reader refuses.
        let Ok(Line::Position(rec)) = parse_line(&line, 1) else {
            panic!("not read: {line}");
        };
        let Ok(p) = from_record(*rec) else {
            continue;
        };
        let want = oracle_keys(&p, n);
        assert_eq!(solved_keys(&p, &p.position, n, 1), want, "{line}");
        compared += 1;
        with_keys += (want != "none") as usize;
    }
    // The sample must exercise the winning side too.
    assert!(
        with_keys * 10 >= count,
        "only {with_keys} of {count} have a key"
    );
}

#[test]
fn fide_search_equals_brute_force() {
    compare(0x9E37_79B9_7F4A_7C15, 600, |_, _| String::new());
}

#[test]
fn trapdoor_search_equals_brute_force() {
    compare(0xD1B5_4A32_D192_ED03, 600, |rng, _| {
        let order = if rng.below(2) == 0 {
            ""
        } else {
            " trapdoor_order falls-first;"
        };
        format!("trapdoor {};{order}", 1 + rng.below(2))
    });
}

/// The men of a FEN placement, with their squares.
fn men(placement: &str) -> Vec<(char, String)> {
    let mut out = Vec::new();
    for (i, rank) in placement.split('/').enumerate() {
        let mut file = 0u8;
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(d) => file += d as u8,
                None => {
                    out.push((c, format!("{}{}", (b'a' + file) as char, 8 - i)));
                    file += 1;
                }
            }
        }
    }
    out
}

/// Trapdoor with men already ticking (`timers`, rules.md section 1), the attacker's
/// king often among them. At the king's last move, falls first, it falls unless it
/// moves, and legality is judged after the falls (rule 1.5, option `falls-first`), so
/// the other men's moves are legal by their movement alone: a case the search judges
/// apart from the others, its remembered winning moves included.
#[test]
fn trapdoor_with_ticking_men_equals_brute_force() {
    compare(0x8CB9_2BA7_2F3D_8DD7, 600, |rng, placement| {
        let timer = 1 + rng.below(2);
        let order = ["", " trapdoor_order falls-first;"][rng.below(2)];
        let mut ticking = Vec::new();
        for (man, square) in men(placement) {
            if rng.below(if man == 'K' { 2 } else { 5 }) == 0 {
                ticking.push(format!("{square}:{}", 1 + rng.below(timer)));
            }
        }
        let timers = match ticking.is_empty() {
            true => String::new(),
            false => format!(" timers \"{}\";", ticking.join(" ")),
        };
        format!("trapdoor {timer};{order}{timers}")
    });
}

/// Falls first, the attacker's king (e1:2) falls at the end of White's second move
/// unless it moves, and then only a move that mates at once wins (rule 1.5, option
/// `falls-first`). After 1.a3 (a waiting move) that is 2.Rd8# alone, whatever Black
/// plays. The search remembers the mate from the first defence and tries it first
/// after the next, where the quick legality test leaves it undecided (the king falls
/// unless it moves): it must still be tried there, and a3 is a key.
#[test]
fn a_remembered_mate_while_the_attackers_king_falls() {
    let line = "7k/8/1pp1NN2/8/8/8/P7/3RK3 w - - dm 2; trapdoor 2; \
                trapdoor_order falls-first; timers \"e1:2\";";
    let p = common::problem(line);
    let want = oracle_keys(&p, 2);
    assert!(want.contains("a2a3") && want.contains("d1d8"), "{want}");
    assert_eq!(solved_keys(&p, &p.position, 2, 1), want);
}

#[test]
fn taxi_search_equals_brute_force() {
    // Cash from nothing to plenty: below the longest ride, some attacks are not checks.
    compare(0xA076_1D64_78BD_642F, 800, |rng, _| {
        format!("taxi \"{} {}\";", 2 + rng.below(14), rng.below(9))
    });
}

#[test]
fn taxi_and_trapdoor_search_equals_brute_force() {
    compare(0xE703_7ED1_A0B4_28DB, 400, |rng, _| {
        format!(
            "taxi \"{} {}\"; trapdoor {};",
            2 + rng.below(14),
            rng.below(9),
            1 + rng.below(2)
        )
    });
}

/// Taxi with Trapdoor and ticking men, the defender's king often due to fall: a
/// defence then saves it only by mating first, and under Taxi a quiet move can be that
/// mate (it leaves the cash to make an attack standing there a check, rules.md 2.2).
#[test]
fn taxi_and_trapdoor_with_ticking_men_equal_brute_force() {
    compare(0x3C6E_F372_FE94_F82B, 400, |rng, placement| {
        let mut ticking = Vec::new();
        for (man, square) in men(placement) {
            if rng.below(if man == 'k' { 2 } else { 5 }) == 0 {
                ticking.push(format!("{square}:1"));
            }
        }
        let timers = match ticking.is_empty() {
            true => String::new(),
            false => format!(" timers \"{}\";", ticking.join(" ")),
        };
        format!(
            "taxi \"{} {}\"; trapdoor {};{timers}",
            2 + rng.below(14),
            rng.below(9),
            1 + rng.below(2)
        )
    });
}

/// Three-movers under Taxi: the table's proofs and the refutation memory at work over
/// three moves, with cash running low.
#[test]
fn taxi_threemovers_equal_brute_force() {
    compare_at(0x94D0_49BB_1331_11EB, 200, &[3], |rng, _| {
        format!("taxi \"{} {}\";", 4 + rng.below(12), rng.below(9))
    });
}

/// Three-movers under Taxi with cash around the amounts from which the table shares one
/// entry between positions that differ only in cash (`taxi::indifferent_cash`: 19 and
/// 12 at the attacker's second move, 25 and 18 at its first): the sharing changes no
/// answer.
#[test]
fn taxi_threemovers_with_cash_to_spare_equal_brute_force() {
    compare_at(0x2545_F491_4F6C_DD1D, 150, &[2, 3], |rng, _| {
        format!("taxi \"{} {}\";", 10 + rng.below(22), rng.below(24))
    });
}

/// A Taxi mate that FIDE forbids: the e2 rook is pinned, but Black cannot pay the
/// ride e8-e1 (3 + 2 income < 7), so 2.Ra2 is legal and mates (rules.md 2.2).
#[test]
fn taxi_mate_by_a_move_fide_forbids() {
    let p = common::problem("k3r3/3N4/8/2N5/8/8/4R2P/4K3 w - - dm 2; taxi \"10 0\";");
    let want = oracle_keys(&p, 2);
    assert_eq!(
        want,
        "e1d1 e1f1 e1f2 e2a2 e2b2 e2c2 e2d2 e2e3 e2e4 e2e6 e2f2 e2g2 h2h3 h2h4"
    );
    assert_eq!(solved_keys(&p, &p.position, 2, 1), want);
}

/// Taxi where a side may be unable to pay (cash from 0, income 0 to 3) and the kings
/// stand near each other: a king beside a king that cannot pay is not in check, and a
/// king's own step can check and mate ("checkmate by bankruptcy", rules.md 2.2-2.3).
/// #1 to #3, alone and with Trapdoor.
#[test]
fn taxi_kings_that_cannot_pay_equal_brute_force() {
    compare_boards(0x5851_F42D_4C95_7F2D, 500, &[1, 2, 3], true, |rng, _| {
        format!(
            "taxi \"{} {}\"; taxi_income {};",
            rng.below(10),
            rng.below(5),
            rng.below(4)
        )
    });
}

#[test]
fn taxi_and_trapdoor_kings_that_cannot_pay_equal_brute_force() {
    compare_boards(
        0x1405_7B7E_F767_814F,
        400,
        &[1, 2, 3],
        true,
        |rng, placement| {
            let timer = 1 + rng.below(2);
            let mut ticking = Vec::new();
            for (_, square) in men(placement) {
                if rng.below(5) == 0 {
                    ticking.push(format!("{square}:{}", 1 + rng.below(timer)));
                }
            }
            let timers = match ticking.is_empty() {
                true => String::new(),
                false => format!(" timers \"{}\";", ticking.join(" ")),
            };
            let order = ["", " trapdoor_order falls-first;"][rng.below(2)];
            format!(
                "taxi \"{} {}\"; taxi_income {}; trapdoor {timer};{order}{timers}",
                rng.below(10),
                rng.below(5),
                rng.below(4)
            )
        },
    );
}

/// The same on Earthquake boards: steps across the seam are physical, so a king beside
/// a king may stand on the other half (rules.md 3.1-3.2 with 2.2).
#[test]
fn taxi_on_earthquake_kings_that_cannot_pay_equal_brute_force() {
    compare_boards(0xDA94_2042_E4DD_58B5, 400, &[1, 2, 3], true, |rng, _| {
        let (dx, dy) = (rng.below(5) as i64 - 2, rng.below(3) as i64 - 1);
        let trapdoor = ["", " trapdoor 1;"][rng.below(2)];
        format!(
            "earthquake \"{dx} {dy}\"; taxi \"{} {}\"; taxi_income {};{trapdoor}",
            rng.below(10),
            rng.below(5),
            rng.below(4)
        )
    });
}

/// Both the brute-force reference and the solver give `want` as the key set of `line`.
fn assert_keys(line: &str, n: u32, want: &str) {
    let p = common::problem(line);
    assert_eq!(oracle_keys(&p, n), want, "reference: {line}");
    assert_eq!(solved_keys(&p, &p.position, n, 1), want, "solver: {line}");
    assert_eq!(
        solved_keys(&p, &p.position, n, 2),
        want,
        "solver, 2 threads: {line}"
    );
}

/// Checkmate by bankruptcy (rules.md 2.2-2.3): Black, with no income and nothing left
/// after its move, cannot pay to take a king beside its own, so White's king steps up
/// and mates: 1.h3 Ka7 2.Kc7 Ka6 3.Kb6#. Every key, #3 and the #2 after 1.h3 Ka7.
#[test]
fn taxi_rule_2_3_checkmate_by_a_king_beside_a_king() {
    assert_keys(
        "1k6/8/2K5/8/8/4B3/7P/8 w - - taxi \"4 2\"; taxi_income 0;",
        3,
        "c6b6 e3d2 e3d4 e3f2 e3f4 h2h3",
    );
    assert_keys(
        "8/k7/2K5/8/8/4B2P/8/8 w - - taxi \"3 1\"; taxi_income 0;",
        2,
        "c6c7 e3d2 e3d4 e3f2 e3f4 h3h4",
    );
    // One move before the end: both king steps beside b8 mate.
    assert_keys(
        "1k6/8/2K5/8/8/4B2P/8/8 w - - taxi \"2 0\"; taxi_income 0;",
        1,
        "c6b7 c6c7",
    );
}

/// The same class on an Earthquake board (1,0) (rules.md 3.1-3.2 with 2.3): the lower
/// half sits one file right, so b4 and b5 touch diagonally across the seam. #2: 1.Kb4
/// Ka6 2.Kb5#, a mate by a king's step across the seam; on the standard board the key
/// is 1.Kc4 instead. #3: 1.Kc5 (b4 to c5 is a step straight up across the seam).
#[test]
fn taxi_rule_2_3_bankruptcy_mates_across_the_seam() {
    let board = "8/8/8/k7/8/1K6/8/4B2P w - - taxi \"3 1\"; taxi_income 0;";
    assert_keys(&format!("{board} earthquake \"1 0\";"), 2, "b3b4");
    assert_keys(board, 2, "b3c4");
    let board = "8/8/8/k7/1K6/8/8/4B2P w - - taxi \"4 2\"; taxi_income 0;";
    assert_keys(&format!("{board} earthquake \"1 0\";"), 3, "b4c5");
}
