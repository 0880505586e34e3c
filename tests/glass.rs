//! Through the Looking-Glass as rules.md section 5 reads: each rule on a position of its
//! own, the bundled problems' key sets, and the messages for lines that cannot be read.

use fairysolve::generic::search::solve;
use fairysolve::generic::{End, TurnGame};
use fairysolve::glass::setup::position_line;
use fairysolve::glass::{perft_line, read_line, GState, Glass, Side};
use fairysolve::search::solution::SolveOptions;
use fairysolve::search::tt::Table;
use std::sync::atomic::AtomicBool;
mod common;

use common::{near_square, placement_fen, Rng};

fn state(line: &str) -> GState {
    read_line(line)
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .state
}

fn game(s: &GState) -> Glass {
    Glass { attacker: s.turn }
}

/// The legal moves, in coordinates, sorted.
fn moves(s: &GState) -> Vec<String> {
    let g = game(s);
    let mut v: Vec<String> = g.moves(s).iter().map(|&m| g.coord(s, m)).collect();
    v.sort();
    v
}

/// The state after the move written `coord`.
fn after(s: &GState, coord: &str) -> GState {
    let g = game(s);
    let m = g
        .move_written(s, coord)
        .unwrap_or_else(|| panic!("{coord} not legal: {:?}", moves(s)));
    g.play(s, m)
}

fn piece(s: &GState, side: Side, sq: &str) -> Option<char> {
    let sq = fairysolve::Square::parse(sq).unwrap();
    s.board(side).board().piece_at(sq).map(|p| p.char())
}

fn keys(line: &str, n: u32) -> String {
    let s = state(line);
    let mut found = Vec::new();
    for threads in [1, 2] {
        let table = Table::new(8);
        let stop = AtomicBool::new(false);
        let opts = SolveOptions {
            threads,
            tries: true,
            ..SolveOptions::default()
        };
        let sol = solve(&game(&s), &table, &s, n, &opts, &stop, &|_, _| {});
        assert!(sol.finished());
        let mut v: Vec<String> = sol.keys.iter().map(|k| k.0.clone()).collect();
        v.sort();
        found.push(if v.is_empty() {
            "none".into()
        } else {
            v.join(" ")
        });
    }
    assert_eq!(found[0], found[1], "{line}");
    found.remove(0)
}

/// Rule 5.2: a man moves among the men of its own board only, then passes to the same
/// square of the other board if it is empty there, else stays.
#[test]
fn rule_5_2_moves_on_its_board_then_passes() {
    // The rook on a1 of the Real board rides through a4, where the Mirror has a man.
    let s = state("4k3/8/8/8/8/8/8/R3K3 w - - mirror \"8/8/8/8/n7/8/8/8\";");
    assert!(moves(&s).contains(&"R:a1a8".to_string()));
    // To a4: the Mirror's a4 is taken, so the rook stays on the Real board.
    let t = after(&s, "R:a1a4");
    assert_eq!(piece(&t, Side::Real, "a4"), Some('R'));
    // To a3: empty on the Mirror, so it passes.
    let t = after(&s, "R:a1a3");
    assert_eq!(piece(&t, Side::Mirror, "a3"), Some('R'));
    assert_eq!(piece(&t, Side::Real, "a3"), None);
}

/// Rule 5.2 and 5.8a: after castling king and rook pass or stay each on its own.
#[test]
fn rule_5_8a_split_castling() {
    // King side: g1 is taken on the Mirror, f1 is free: the king stays, the rook passes.
    let s = state("4k3/8/8/8/8/8/8/4K2R w K - mirror \"8/8/8/8/8/8/8/6n1\";");
    let t = after(&s, "R:e1h1");
    assert_eq!(piece(&t, Side::Real, "g1"), Some('K'));
    assert_eq!(piece(&t, Side::Mirror, "f1"), Some('R'));
    // Castling needs no safety: the king may castle out of and through attacks (5.3).
    let s = state("4k3/8/8/8/8/8/8/4K2R w K - mirror \"8/8/8/8/8/8/8/8\";");
    assert!(moves(&s).contains(&"R:e1h1".to_string()));
    let s = state("4r1k1/8/8/8/8/8/8/4K2R w K - mirror \"8/8/8/8/8/8/8/8\";");
    assert!(
        moves(&s).contains(&"R:e1h1".to_string()),
        "no check in this game"
    );
}

/// Rule 5.3: no check; capturing the king wins.
#[test]
fn rule_5_3_no_check_and_the_kings_capture_wins() {
    // The White king may step next to the Black king.
    let s = state("8/8/8/8/8/3k4/8/4K3 w - - mirror \"8/8/8/8/8/8/8/8\";");
    assert!(moves(&s).contains(&"R:e1e2".to_string()));
    let s = state("R3k3/8/8/8/8/8/8/4K3 w - - mirror \"8/8/8/8/8/8/8/8\";");
    let t = after(&s, "R:a8e8");
    assert_eq!(game(&s).end(&t), Some(End::Win(fairysolve::Color::White)));
    assert!(game(&s).moves(&t).is_empty());
}

/// Rule 5.4 and 5.8b: en passant is taken by a pawn on the board of the double step,
/// and takes the double-stepped pawn wherever it now stands.
#[test]
fn rule_5_4_en_passant_across_the_boards() {
    // Black's d7-d5 was played on the Mirror, and the pawn passed to the Real board.
    let s = state("4k3/8/8/3p4/8/8/8/4K3 w - d6 mirror \"8/8/8/4P3/8/8/8/8\"; ep_board M;");
    assert!(moves(&s).contains(&"M:e5d6".to_string()), "{:?}", moves(&s));
    let t = after(&s, "M:e5d6");
    assert_eq!(
        piece(&t, Side::Real, "d5"),
        None,
        "the pawn on the other board is taken"
    );
    // A pawn on the other board may not take en passant.
    let s = state("4k3/8/8/3pP3/8/8/8/4K3 w - d6 mirror \"8/8/8/8/8/8/8/8\"; ep_board M;");
    assert!(
        !moves(&s).iter().any(|m| m.ends_with("d6")),
        "{:?}",
        moves(&s)
    );
}

/// Rule 5.5: a side with no move on either board is stalemated: a draw. White's men on
/// its eighth rank are walled in by its own pawns, which cannot step onto them.
#[test]
fn rule_5_5_stalemate() {
    let s = state("RBBQKBBR/PPPPPPPP/8/8/8/8/8/r7 w - - mirror \"8/8/8/8/8/8/8/7k\";");
    assert!(moves(&s).is_empty());
    assert_eq!(game(&s).end(&s), Some(End::Draw));
    assert_eq!(
        perft_line(
            "RBBQKBBR/PPPPPPPP/8/8/8/8/8/r7 w - - mirror \"8/8/8/8/8/8/8/7k\";",
            1
        )
        .unwrap(),
        0
    );
    // Black to move: its rook frees White only by taking a7.
    let s = state("RBBQKBBR/PPPPPPPP/8/8/8/8/8/r7 b - - mirror \"8/8/8/8/8/8/8/7k\";");
    assert_eq!(game(&s).end(&after(&s, "R:a1b1"),), Some(End::Draw));
}

/// Rule 5.1 and 5.8a: each side's array is its own Chess960 arrangement; castling rights
/// name a rook on the board of their king.
#[test]
fn rule_5_1_independent_arrays_and_castling_per_board() {
    let line = "8/8/8/8/8/8/PPPPPPPP/RKRBBNNQ w CAha - mirror \"rbbknqnr/pppppppp/8/8/8/8/8/8\";";
    let s = state(line);
    assert_eq!(perft_line(line, 1).unwrap(), 20);
    assert_eq!(moves(&s).len(), 20);
    // Written back with the same rights, in Shredder letters.
    assert!(
        position_line(&s).contains(" CAha "),
        "{}",
        position_line(&s)
    );
}

/// Rule 5.8c: #N with Black to move asks whether Black captures White's king.
#[test]
fn rule_5_8c_black_attacks_with_black_to_move() {
    assert_eq!(
        keys(
            "4k3/8/8/8/8/8/8/r3K3 b - - mirror \"8/8/8/8/8/8/8/8\"; dm 1;",
            1
        ),
        "R:a1e1"
    );
}

#[test]
fn glass_problems_have_their_published_keys() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/positions/glass/problems.epd"
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
        assert_eq!(keys(line, n), c1.strip_prefix("keys: ").unwrap(), "{line}");
        seen += 1;
    }
    assert!(seen >= 2);
}

/// Without the pass there is no key: on one board alone the rook on a8 sees nothing.
#[test]
fn the_key_needs_the_pass() {
    let line = "6B1/8/8/8/8/8/8/R2K4 w - - mirror \"7k/6pp/8/8/8/8/8/8\";";
    assert_eq!(keys(line, 1), "none");
    assert_eq!(keys(line, 2), "R:a1a8");
}

#[test]
fn bad_glass_lines_are_located() {
    let cases = [
        (
            "4k3/8/8/8/8/8/8/4K3 w - d6 mirror \"8/8/8/8/8/8/8/8\";",
            "line 1, column 1: en passant d6: ep_board R or M must say on which board the double step was played",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - mirror \"4k3/8/8/8/8/8/8/8\";",
            "line 1, column 1: Black has 2 kings on the two boards (one expected)",
        ),
        (
            "8/8/8/8/8/8/8/4K2R w Kk - mirror \"4k3/8/8/8/8/8/8/8\";",
            "line 1, column 23: castling 'k': no black rook there on the board of its king",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - mirror \"4k3/8/8/8/8/8/8/8\"; underworld \"4k3/8/8/8/8/8/8/4K3\";",
            "line 1, column 55: underworld: not played together with mirror",
        ),
    ];
    for (line, want) in cases {
        match read_line(line) {
            Ok(_) => panic!("read: {line}"),
            Err(e) => assert_eq!(e, want, "{line}"),
        }
    }
}

/// Every help line by brute force (rules.md 8.2 on Looking-Glass): `turns` moves taken
/// alternately, no end before the last, the last a capture of Black's king by White.
fn help_lines(
    g: &Glass,
    s: &GState,
    turns: u32,
    line: &mut Vec<String>,
    out: &mut Vec<Vec<String>>,
) {
    for mv in g.moves(s) {
        let next = g.play(s, mv);
        line.push(g.coord(s, mv));
        let end = g.end(&next);
        if turns == 1 {
            if end == Some(End::Win(fairysolve::types::Color::White)) {
                out.push(line.clone());
            }
        } else if end.is_none() {
            help_lines(g, &next, turns - 1, line, out);
        }
        line.pop();
    }
}

/// A random position of both boards for help play: the kings on either board, a few
/// White men about the Black king (on either board), a few Black men, either side to
/// move, no castling. `None` when the reader refuses it.
fn random_help_line(rng: &mut Rng) -> Option<(String, GState)> {
    const WHITE: &[char] = &['Q', 'R', 'B', 'N', 'P', 'P'];
    const BLACK: &[char] = &['q', 'r', 'b', 'n', 'p', 'p'];
    let mut boards = [[None::<char>; 64]; 2];
    let bk = rng.below(64);
    boards[rng.below(2)][bk] = Some('k');
    let wk = rng.below(64);
    let wb = rng.below(2);
    if boards[wb][wk].is_none() {
        boards[wb][wk] = Some('K');
    }
    for _ in 0..1 + rng.below(3) {
        let (b, sq) = (rng.below(2), near_square(rng, bk, 3));
        if boards[b][sq].is_none() {
            boards[b][sq] = Some(WHITE[rng.below(WHITE.len())]);
        }
    }
    for _ in 0..rng.below(3) {
        let (b, sq) = (rng.below(2), rng.below(64));
        if boards[b][sq].is_none() {
            boards[b][sq] = Some(BLACK[rng.below(BLACK.len())]);
        }
    }
    // No pawn on a first or last rank.
    for b in &mut boards {
        for (sq, c) in b.iter_mut().enumerate() {
            if matches!(c, Some('P' | 'p')) && !(8..56).contains(&sq) {
                *c = None;
            }
        }
    }
    let turn = if rng.below(2) == 0 { 'w' } else { 'b' };
    let line = format!(
        "{} {turn} - - mirror \"{}\";",
        placement_fen(&boards[0]),
        placement_fen(&boards[1])
    );
    let s = read_line(&line).ok()?.state;
    Some((line, s))
}

/// rules.md 8.2 on Looking-Glass with the bound of help play (`glass::help_bound`) and
/// the last move found among the king's captures: on random positions of both boards,
/// help play finds exactly the lines that playing every move of both sides finds, one
/// to four moves deep.
#[test]
fn help_play_with_its_bound_finds_every_line_played_out() {
    use fairysolve::generic::help::solve_help;
    use fairysolve::types::Color;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let stop = AtomicBool::new(false);
    let (mut compared, mut with_lines, mut bounded) = (0, 0, 0);
    while compared < 500 {
        let Some((line, s)) = random_help_line(&mut rng) else {
            continue;
        };
        // White's move last: one or three from White's, two or four from Black's.
        let deep = rng.below(4) == 0;
        let turns = match (s.turn, deep) {
            (Color::White, false) => 1,
            (Color::White, true) => 3,
            (Color::Black, false) => 2,
            (Color::Black, true) => 4,
        };
        let g = Glass {
            attacker: Color::White,
        };
        let table = Table::new(8);
        let sol = solve_help(&g, &s, Color::White, turns, &[], &table, &stop, None);
        assert!(sol.complete);
        let mut found: Vec<Vec<String>> = sol
            .solutions
            .iter()
            .map(|l| l.iter().map(|(c, _)| c.clone()).collect())
            .collect();
        found.sort();
        let mut all = Vec::new();
        help_lines(&g, &s, turns, &mut Vec::new(), &mut all);
        all.sort();
        assert_eq!(found, all, "{line}, {turns} turns");
        compared += 1;
        with_lines += usize::from(!all.is_empty());
        bounded += usize::from(fairysolve::glass::help_bound::capture_out_of_reach(
            &s,
            Color::White,
            turns,
        ));
    }
    assert!(with_lines >= 100, "{with_lines} positions with a line");
    assert!(bounded >= 100, "{bounded} positions bounded at the root");
}

/// A random position of both boards for the last turns: the kings on either board, on
/// their first rank between rooks in the corners now and then (castling rights of a
/// Chess960 array where the reader grants them), up to a dozen men, pawns often on their second ranks; then a
/// few random moves played, so that men have passed; or, now and then, a Black pawn
/// that has just double-stepped beside a White one, which White to move may take en
/// passant. Half the time Black's king is boxed in a corner by its pawns with White's
/// king about and few Black men free, where self-mates live. `None` when the reader refuses the
/// line or the game ends on the way.
fn random_last_turn_state(rng: &mut Rng) -> Option<GState> {
    const MEN: &[char] = &['Q', 'R', 'B', 'N', 'P', 'P', 'q', 'r', 'b', 'n', 'p', 'p'];
    let mut boards = [[None::<char>; 64]; 2];
    let mut put = |b: usize, sq: usize, c: char| {
        if boards[b][sq].is_none() {
            boards[b][sq] = Some(c);
        }
    };
    let castling = rng.below(3) == 0;
    let boxed = rng.below(2) == 0;
    // Now and then Black's pawn has just double-stepped beside White's, on either board
    // (5.8b): White to move may take it en passant.
    let en_passant = (!boxed && rng.below(3) == 0).then(|| {
        let (board, file) = (rng.below(2), rng.below(8));
        let beside = if file == 0 || (file < 7 && rng.below(2) == 0) {
            file + 1
        } else {
            file - 1
        };
        put(board, 32 + file, 'p');
        put(board, 32 + beside, 'P');
        (board, 40 + file)
    });
    if boxed {
        // Black's king boxed: a1 behind a2 and b2 (or h8 behind h7 and g7, as White).
        put(0, 0, 'k');
        put(0, 8, 'p');
        put(0, 9, 'p');
        put(rng.below(2), near_square(rng, 1, 2), 'K');
    } else if castling {
        // The kings on any file between the rooks (5.1: each array its own Chess960
        // one), so that king and rook may go beyond the squares between them.
        let (wb, bb) = (rng.below(2), rng.below(2));
        put(wb, 1 + rng.below(6), 'K');
        put(wb, 0, 'R');
        put(wb, 7, 'R');
        put(bb, 57 + rng.below(6), 'k');
        put(bb, 56, 'r');
        put(bb, 63, 'r');
    } else {
        put(rng.below(2), rng.below(64), 'K');
        put(rng.below(2), rng.below(64), 'k');
    }
    // About the box, White's men only, mostly: a free Black man has quiet moves.
    let (men, kinds) = if boxed && rng.below(4) != 0 {
        (rng.below(4), &MEN[..6])
    } else {
        (rng.below(10), MEN)
    };
    for _ in 0..men {
        let c = kinds[rng.below(kinds.len())];
        let sq = match c {
            'P' if rng.below(2) == 0 => 8 + rng.below(8),
            'p' if rng.below(2) == 0 => 48 + rng.below(8),
            _ => rng.below(64),
        };
        put(rng.below(2), sq, c);
    }
    for b in &mut boards {
        for (sq, c) in b.iter_mut().enumerate() {
            if matches!(c, Some('P' | 'p')) && !(8..56).contains(&sq) {
                *c = None;
            }
        }
    }
    let kings = |c: char| boards.iter().flatten().filter(|&&x| x == Some(c)).count();
    if kings('K') != 1 || kings('k') != 1 {
        return None;
    }
    let rights = if castling { "KQkq" } else { "-" };
    let (turn, ep, ep_board) = match en_passant {
        Some((board, sq)) => {
            if boards[board][sq].is_some() {
                return None;
            }
            let name = format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1);
            ('w', name, format!(" ep_board {};", ["R", "M"][board]))
        }
        None => {
            let turn = if rng.below(2) == 0 { 'w' } else { 'b' };
            (turn, "-".to_string(), String::new())
        }
    };
    let line = format!(
        "{} {turn} {rights} {ep} mirror \"{}\";{ep_board}",
        placement_fen(&boards[0]),
        placement_fen(&boards[1])
    );
    let mut s = read_line(&line).ok()?.state;
    // Random moves played on (none where the en passant right would lapse).
    let played = if en_passant.is_some() {
        0
    } else {
        rng.below(4)
    };
    for _ in 0..played {
        let g = game(&s);
        let moves = g.moves(&s);
        if moves.is_empty() {
            return None;
        }
        s = g.play(&s, moves[rng.below(moves.len())]);
        if s.ended.is_some() {
            return None;
        }
    }
    Some(s)
}

/// Whether the move `m` from `s` takes the king (the game ends in its mover's favour).
fn takes_king(g: &Glass, s: &GState, m: fairysolve::glass::GMove) -> bool {
    g.end(&g.play(s, m)) == Some(End::Win(s.turn))
}

/// rules.md 5.3 and 8 at the last turns (`glass::last_turn`), checked by playing every
/// move on random positions: a quiet move is a move and takes no king, and there is
/// none only where every move takes it; a reply an attacker's move leaves standing
/// (`Replies`) is, after that move, the same legal move and takes no king, over every
/// kind of move of both sides (castling, en passant, promotion, a man passing to the
/// other board); so an attacker's move the self-mate filter leaves out lets the
/// defender a reply that takes no king, and every move after which the defender can
/// only take the king is kept.
#[test]
fn the_last_turns_are_decided_as_every_move_played_decides() {
    use fairysolve::glass::last_turn::{quiet_move, self_mate_candidates, Replies};
    use fairysolve::moves::MoveKind;
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let (mut states, mut left_out, mut kept, mut forcing, mut root_without_quiet) = (0, 0, 0, 0, 0);
    // Pairs of an attacker's move and a reply it leaves standing, by kind.
    let (mut standing, mut castling_replies, mut promotions) = (0, 0, 0);
    let (mut en_passant_moves, mut castling_moves, mut passing_moves) = (0, 0, 0);
    while states < 3_000 {
        let Some(s) = random_last_turn_state(&mut rng) else {
            continue;
        };
        states += 1;
        let g = game(&s);
        let line = position_line(&s);
        let moves = g.moves(&s);
        match quiet_move(&g, &s) {
            Some(q) => {
                assert!(moves.contains(&q), "{line}: {q:?} is no move");
                assert!(
                    !takes_king(&g, &s, q),
                    "{line}: {} takes the king",
                    g.coord(&s, q)
                );
            }
            None => {
                root_without_quiet += 1;
                assert!(
                    moves.iter().all(|&m| takes_king(&g, &s, m)),
                    "{line}: a quiet move missed"
                );
            }
        }
        let replies = Replies::of(&g, &s).expect("the game goes on");
        let candidates = self_mate_candidates(&g, &s).expect("the game goes on");
        for &w in &moves {
            let (after, passes) = g.play_reporting(&s, w);
            for r in replies.standing(&s, &w) {
                if after.ended.is_none() {
                    let coords = format!("{} then {}", g.coord(&s, w), g.coord(&after, r));
                    assert!(g.moves(&after).contains(&r), "{line}: {coords}: no move");
                    assert!(
                        !takes_king(&g, &after, r),
                        "{line}: {coords} takes the king"
                    );
                    standing += 1;
                    castling_replies += usize::from(r.mv.kind == MoveKind::Castle);
                    promotions += usize::from(matches!(r.mv.kind, MoveKind::Promotion(_)));
                    en_passant_moves += usize::from(w.mv.kind == MoveKind::EnPassant);
                    castling_moves += usize::from(w.mv.kind == MoveKind::Castle);
                    passing_moves +=
                        usize::from(passes.iter().flatten().any(|&(_, passed)| passed));
                }
            }
            let defences = g.moves(&after);
            let forces = after.ended.is_none()
                && !defences.is_empty()
                && defences.iter().all(|&r| takes_king(&g, &after, r));
            forcing += usize::from(forces);
            if forces {
                // The defender's turn there: no move but the king's capture.
                assert_eq!(
                    quiet_move(&g, &after),
                    None,
                    "{line}: after {}",
                    g.coord(&s, w)
                );
            }
            if candidates.contains(&w) {
                kept += 1;
                assert_eq!(replies.standing_after(&s, &w), None, "{line}");
            } else {
                left_out += 1;
                assert!(
                    !forces,
                    "{line}: {} forces the king's capture",
                    g.coord(&s, w)
                );
            }
        }
    }
    assert!(left_out > 20 * kept, "{left_out} left out, {kept} kept");
    assert!(forcing >= 50, "{forcing} moves force the king's capture");
    assert!(
        root_without_quiet >= 10,
        "{root_without_quiet} states without a quiet move"
    );
    let kinds = [
        standing,
        castling_replies,
        promotions,
        en_passant_moves,
        castling_moves,
        passing_moves,
    ];
    eprintln!("{kinds:?}");
    assert!(
        standing > 50_000 && kinds[1..].iter().all(|&k| k >= 20),
        "standing replies by kind (all, castling, promotion; the attacker's en passant, castling, passing): {kinds:?}"
    );
}

/// Whether White (to move in `s`) forces `s#n` (`self_mate`) or `#n` by playing every
/// move of both sides (rules.md 8.1, 8.3): White's moves, then each of Black's, round by
/// round; a self-mate is won by Black's capture of White's king, `#n` by White's of
/// Black's.
fn forces(g: &Glass, s: &GState, n: u32, self_mate: bool) -> bool {
    g.moves(s).into_iter().any(|w| {
        let after = g.play(s, w);
        if after.ended.is_some() {
            return !self_mate;
        }
        let replies = g.moves(&after);
        !replies.is_empty()
            && replies.into_iter().all(|r| {
                let next = g.play(&after, r);
                if next.ended.is_some() {
                    return self_mate;
                }
                n > 1 && forces(g, &next, n - 1, self_mate)
            })
    })
}

/// `s#1`, `s#2`, `#1` and `#2` on Looking-Glass proved by the solver core, with the
/// last turns decided by `glass::last_turn`, as playing every move proves them, on
/// random positions with White to move.
#[test]
fn self_mates_and_mates_are_proved_as_every_move_played_proves() {
    use fairysolve::generic::search::{Goal, Prover};
    use fairysolve::types::Color;
    let mut rng = Rng(0x5851_F42D_4C95_7F2D);
    let stop = AtomicBool::new(false);
    let (mut compared, mut self_mates) = (0, 0);
    while compared < 1_500 {
        let Some(s) = random_last_turn_state(&mut rng) else {
            continue;
        };
        if s.turn != Color::White {
            continue;
        }
        compared += 1;
        let g = game(&s);
        let n = 1 + rng.below(2) as u32;
        for (goal, self_mate) in [(Goal::SelfLoss, true), (Goal::Win, false)] {
            let table = Table::new(8);
            let proved = Prover::new(&g, Color::White, goal, &table, &stop, None)
                .wins(&s, n)
                .expect("no limit");
            let played = forces(&g, &s, n, self_mate);
            assert_eq!(proved, played, "{}: {goal:?} in {n}", position_line(&s));
            self_mates += usize::from(self_mate && played);
        }
    }
    assert!(self_mates >= 10, "{self_mates} self-mates");
}

/// The Looking-Glass self-mate bench suite (`positions/bench/glass-self.epd`): each
/// `s#1` has the first move of its `pv` for its only key, and no line asked for `s#3` or
/// `s#4` is a self-mate.
#[test]
fn the_self_mate_bench_suite_has_its_keys() {
    use fairysolve::generic::search::{solve_for, Goal};
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/positions/bench/glass-self.epd"
    ))
    .expect("the suite");
    let mut counted = [0; 3];
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let p = read_line(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        let n = p.stipulation.expect("a stipulation").moves;
        let table = Table::new(8);
        let stop = AtomicBool::new(false);
        let opts = SolveOptions {
            threads: 1,
            ..SolveOptions::default()
        };
        let g = game(&p.state);
        let sol = solve_for(
            &g,
            Goal::SelfLoss,
            &table,
            &p.state,
            n,
            &opts,
            &stop,
            &|_, _| {},
        );
        assert!(sol.finished(), "{line}");
        let keys: Vec<&str> = sol.keys.iter().map(|k| k.0.as_str()).collect();
        let want: Vec<&str> = line
            .split("pv ")
            .nth(1)
            .and_then(|pv| pv.split_whitespace().next())
            .into_iter()
            .collect();
        assert_eq!(keys, want, "{line}");
        counted[(n as usize).min(4) / 2] += 1;
    }
    assert_eq!(counted, [4, 20, 10], "s#1, s#3 and s#4 lines");
}
