//! Retro-analysis on every single-board game (rules.md 6 with sections 1-3): the last
//! moves the module lists, checked against their definition over random positions of
//! each board and economy; real Trapdoor games on each board for the ticking proofs.

mod common;

use fairysolve::board::Board;
use fairysolve::epd;
use fairysolve::game::AnyGame;
use fairysolve::geometry::Geometry;
use fairysolve::problem::{self, Problem};
use fairysolve::retro::{self, analyse, Illegality, RetroGame, RetroOptions, RetroPosition};
use fairysolve::{with_game, Bitboard, Color, MoveKind, Piece, Position, Role, Square};
use std::collections::BTreeSet;

fn retro_problem(line: &str) -> Option<Problem> {
    match epd::parse_line(line, 1) {
        Ok(epd::Line::Position(r)) => problem::from_record_for_retro(*r).ok(),
        _ => None,
    }
}

/// The game's own check: `color`'s king attacked (affordably under Taxi) in `pos`.
fn in_check(game: &AnyGame, pos: &Position, color: Color) -> bool {
    with_game!(game, g => g.king_in_check(pos, color))
}

fn material_ok(game: &AnyGame, board: &Board) -> bool {
    let displaced = !matches!(game, AnyGame::Standard(_));
    with_game!(game, g => {
        let rg = RetroGame::of_game(g, displaced);
        retro::soundness::material(&rg, board).is_none()
    })
}

/// rules.md 3.5 and 6.3: no pawn on its last rank, nor on the standard board on its
/// first.
fn pawns_ok(game: &AnyGame, board: &Board) -> bool {
    let displaced = !matches!(game, AnyGame::Standard(_));
    board.pieces().all(|(sq, piece)| {
        let rank = sq.relative_rank(piece.color);
        piece.role != Role::Pawn || (rank != 7 && (displaced || rank != 0))
    })
}

fn king_steps(game: &AnyGame, pos: &Position, sq: Square) -> Bitboard {
    with_game!(game, g => g.geo(pos).king_attacks(sq))
}

/// An earlier position: its board, en passant square, castling rights, dx and
/// aftershock uses (the turn and cash follow from the diagram).
type Candidate = (Board, Option<Square>, Bitboard, i8, [u8; 2]);

/// The last moves of the side that just moved in `p`, by the definition (rules.md 6.1):
/// every earlier position, with any man of that side on any other square (a pawn if it
/// promoted), any man of the other side put back on the arrival square or, en passant,
/// on a square next to it, castling or an aftershock undone, and the Taxi cash the move
/// and the income changed, from which the game's own legal moves lead to the diagram;
/// the earlier position sound (the side not to move not in check, the material, the
/// cash of the side to move at least its income).
fn last_moves_by_definition(p: &Problem) -> BTreeSet<String> {
    let game = &p.game;
    let pos = &p.position;
    let mover = !pos.turn();
    let income = game.rules().taxi.map_or(0, |t| t.income);
    let board = pos.board();
    let mut candidates: Vec<Candidate> = Vec::new();
    let quake = *pos.quake();
    for (to, piece) in board.pieces() {
        if piece.color != mover {
            continue;
        }
        let mut roles = vec![piece.role];
        if !matches!(piece.role, Role::Pawn | Role::King) {
            roles.push(Role::Pawn);
        }
        for from in (0..64u8).map(Square::new) {
            if from == to || board.piece_at(from).is_some() {
                continue;
            }
            for &role in &roles {
                let mut before = *board;
                before.remove(to);
                before.put(from, Piece::new(mover, role));
                candidates.push((before, None, Bitboard::EMPTY, quake.dx, quake.shocks));
                for taken in [
                    Role::Queen,
                    Role::Rook,
                    Role::Bishop,
                    Role::Knight,
                    Role::Pawn,
                ] {
                    let mut b = before;
                    b.put(to, Piece::new(!mover, taken));
                    candidates.push((b, None, Bitboard::EMPTY, quake.dx, quake.shocks));
                }
                if role == Role::Pawn {
                    for victim in king_steps(game, pos, to) {
                        if victim != from && board.piece_at(victim).is_none() {
                            let mut b = before;
                            b.put(victim, Piece::new(!mover, Role::Pawn));
                            candidates.push((b, Some(to), Bitboard::EMPTY, quake.dx, quake.shocks));
                        }
                    }
                }
            }
        }
    }
    // Castling undone: the king back on e1 (e8) and the rook in its corner.
    let back = mover.fold(0, 7);
    let sq = |f| Square::from_coords(f, back);
    let rook = Piece::new(mover, Role::Rook);
    let king = Piece::new(mover, Role::King);
    for (king_to, rook_to, rook_from) in [(sq(6), sq(5), sq(7)), (sq(2), sq(3), sq(0))] {
        if board.piece_at(king_to) == Some(king)
            && board.piece_at(rook_to) == Some(rook)
            && board.piece_at(sq(4)).is_none()
            && board.piece_at(rook_from).is_none()
        {
            let mut b = *board;
            b.remove(king_to);
            b.remove(rook_to);
            b.put(sq(4), king);
            b.put(rook_from, rook);
            candidates.push((
                b,
                None,
                Bitboard::from_square(rook_from),
                quake.dx,
                quake.shocks,
            ));
        }
    }
    if game.has_aftershocks() {
        for dx in -8..=8i8 {
            let mut shocks = quake.shocks;
            shocks[mover.index()] += 1;
            candidates.push((*board, None, Bitboard::EMPTY, dx, shocks));
        }
    }

    let mut found = BTreeSet::new();
    for (before, ep, castling, dx, shocks) in candidates {
        let Some(other_cash) = pos.cash(!mover).checked_sub(income) else {
            continue;
        };
        let build = |cash: u32| {
            let mut q = Position::from_parts(before, mover, castling, ep, 0, 1);
            q.set_cash(mover, cash);
            q.set_cash(!mover, other_cash);
            q.set_quake(fairysolve::position::Quake {
                dx,
                shocks,
                no_return: None,
            });
            q
        };
        // Rich enough for any move; the price is read off what the move leaves.
        let rich = build(1000);
        if !with_game!(game, g => (before.occupied() - g.geo(&rich).squares()).is_empty()) {
            continue;
        }
        for mv in game.legal_moves(&rich).as_slice() {
            let after = game.play(&rich, *mv).position;
            let same = after.board() == board
                && after.quake().dx == quake.dx
                && after.quake().shocks == quake.shocks
                && after.quake().no_return == quake.no_return
                && after.cash(!mover) == pos.cash(!mover);
            if !same {
                continue;
            }
            let paid = if game.rules().taxi.is_some() {
                1000 - after.cash(mover)
            } else {
                0
            };
            let q = build(pos.cash(mover) + paid);
            let sound = !in_check(game, &q, !mover)
                && material_ok(game, &before)
                && pawns_ok(game, &before)
                && with_game!(game, g => fairysolve::setup::validate_en_passant(g.geo(&q), &before, mover, ep).is_ok())
                && (game.rules().taxi.is_none() || q.cash(mover) >= income)
                && game.legal_moves(&q).as_slice().contains(mv);
            if sound {
                found.insert(describe(&before, mover, *mv, ep, quake.dx, dx));
            }
        }
    }
    found
}

/// The move as the retro module writes it (`Bf1xNc4`, `e5xd6 e.p.`, `O-O`, `~3`).
fn describe(
    before: &Board,
    mover: Color,
    mv: fairysolve::Move,
    ep: Option<Square>,
    dx_after: i8,
    dx_before: i8,
) -> String {
    let r = match mv.kind {
        MoveKind::Aftershock(_) => retro::Retraction {
            shock: Some((dx_before, dx_after)),
            ..retro::Retraction::plain(mover, Role::King, Square::A1, Square::A1)
        },
        MoveKind::Castle => {
            let back = mover.fold(0, 7);
            let (king_to, rook_to) = if mv.to.file() > mv.from.file() {
                (6, 5)
            } else {
                (2, 3)
            };
            retro::Retraction {
                castle: Some((mv.to, Square::from_coords(rook_to, back))),
                ..retro::Retraction::plain(
                    mover,
                    Role::King,
                    mv.from,
                    Square::from_coords(king_to, back),
                )
            }
        }
        MoveKind::EnPassant => retro::Retraction {
            captured: Some(Role::Pawn),
            en_passant: ep,
            ..retro::Retraction::plain(mover, Role::Pawn, mv.from, mv.to)
        },
        kind => retro::Retraction {
            promoted: match kind {
                MoveKind::Promotion(role) => Some(role),
                _ => None,
            },
            captured: before.role_at(mv.to),
            ..retro::Retraction::plain(mover, mv.role, mv.from, mv.to)
        },
    };
    format!("{r} {}", r.coord())
}

/// A random sparse diagram: both kings and one to five men anywhere, either side to
/// move, as a FEN placement.
fn random_placement(rng: &mut common::Rng) -> (String, Color) {
    let (squares, turn) = random_squares(rng);
    (common::placement_fen(&squares), turn)
}

/// `random_placement` square by square (a1 first, `None` empty).
fn random_squares(rng: &mut common::Rng) -> ([Option<char>; 64], Color) {
    let mut squares: [Option<char>; 64] = [None; 64];
    let put = |squares: &mut [Option<char>; 64], c: char, rng: &mut common::Rng| loop {
        let i = rng.below(64);
        if squares[i].is_none() {
            squares[i] = Some(c);
            break;
        }
    };
    // A quarter of the diagrams have a king and rook as castling leaves them.
    match rng.below(8) {
        0 => (squares[6], squares[5]) = (Some('K'), Some('R')),
        1 => (squares[2], squares[3]) = (Some('K'), Some('R')),
        2 => (squares[62], squares[61]) = (Some('k'), Some('r')),
        3 => (squares[58], squares[59]) = (Some('k'), Some('r')),
        _ => {}
    }
    for king in ['K', 'k'] {
        if !squares.contains(&Some(king)) {
            put(&mut squares, king, rng);
        }
    }
    let men = 1 + rng.below(5);
    for _ in 0..men {
        let c = b"QRBNPPPqrbnppp"[rng.below(14)] as char;
        put(&mut squares, c, rng);
    }
    let turn = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    (squares, turn)
}

/// The boards and economies `random_ops` draws for.
const KINDS: [&str; 5] = [
    "fide",
    "taxi",
    "earthquake",
    "earthquake+taxi",
    "aftershocks",
];

/// The operations of a random game of `kind`: every cash and income, every displacement
/// (with both void rules), aftershock counters.
fn random_ops(kind: &str, rng: &mut common::Rng) -> String {
    let taxi = |rng: &mut common::Rng| {
        format!(
            " taxi \"{} {}\"; taxi_income {};",
            rng.below(12),
            rng.below(12),
            rng.below(4)
        )
    };
    let quake = |rng: &mut common::Rng| {
        let (dx, dy) = match rng.below(4) {
            0 => (8, 4),
            1 => (1, 0),
            _ => (rng.below(7) as i32 - 3, rng.below(3) as i32 - 1),
        };
        let void = if rng.below(3) == 0 { " void fly;" } else { "" };
        format!(" earthquake \"{dx} {dy}\";{void}")
    };
    match kind {
        "fide" => String::new(),
        "taxi" => taxi(rng),
        "earthquake" => quake(rng),
        "earthquake+taxi" => format!("{}{}", quake(rng), taxi(rng)),
        "aftershocks" => {
            let dx = rng.below(5) as i32 - 2;
            // Half the diagrams state the dx the last move (an aftershock) left.
            let left = match rng.below(4) {
                0 => format!(" {}", dx + 1),
                1 => {
                    let left = rng.below(17) as i32 - 8;
                    format!(" {}", if left == dx { 8 } else { left })
                }
                _ => String::new(),
            };
            format!(
                " earthquake \"{dx} {}\"; aftershock \"{} {}{left}\";",
                rng.below(2),
                rng.below(3),
                rng.below(3)
            )
        }
        _ => unreachable!(),
    }
}

/// rules.md 6.1 with 2.1-2.3, 3.1-3.7: on every board and economy the last moves listed
/// (a retraction search one half-move deep) are exactly those of the definition.
#[test]
fn last_moves_match_the_definition_on_every_board() {
    let mut rng = common::Rng(0x51c3_a7e9_2b4d_8f61);
    for kind in KINDS {
        let mut compared = 0;
        let mut moves = 0;
        let mut captures = 0;
        let mut special = 0;
        let mut tries = 0;
        while compared < 150 {
            tries += 1;
            assert!(tries < 5000, "{kind}: too few readable diagrams");
            let (placement, turn) = random_placement(&mut rng);
            let side = if turn == Color::White { "w" } else { "b" };
            let line = format!("{placement} {side} - -{}", random_ops(kind, &mut rng));
            let Some(p) = retro_problem(&line) else {
                continue;
            };
            let opts = RetroOptions {
                depth: 1,
                ..RetroOptions::for_problem(&p, 1, 1_000_000)
            };
            let pos = RetroPosition::of(&p.position);
            let report = analyse(&pos, &opts);
            let statically_illegal = report.illegal.iter().any(|i| {
                !matches!(
                    i,
                    retro::Illegality::NoLastMove { .. }
                        | retro::Illegality::UnreachableCash { .. }
                        | retro::Illegality::ImpossibleCheck { .. }
                )
            });
            if statically_illegal {
                continue;
            }
            let listed: BTreeSet<String> = report
                .last_moves
                .iter()
                .map(|r| format!("{r} {}", r.coord()))
                .collect();
            let defined = last_moves_by_definition(&p);
            let extra: Vec<&String> = listed.difference(&defined).collect();
            let missing: Vec<&String> = defined.difference(&listed).collect();
            assert!(
                extra.is_empty() && missing.is_empty(),
                "{kind}: {line}: listed but not by the definition {extra:?}; missing {missing:?}"
            );
            compared += 1;
            moves += defined.len();
            captures += defined.iter().filter(|m| m.contains('x')).count();
            special += defined
                .iter()
                .filter(|m| {
                    m.contains('~') || m.contains("e.p.") || m.contains('=') || m.contains("O-O")
                })
                .count();
        }
        assert!(
            moves > 3000 && captures > 1000 && special > 50,
            "{kind}: only {moves} last moves, {captures} captures, {special} special"
        );
    }
}

/// rules.md 6.1-6.2 (with 1.5, both orders) on every board: the module is sound. Random
/// Trapdoor games (T = 1 and 2) on each board and economy, mate first and falls first,
/// are played with the engine from the array; in the
/// final position the diagram is legal, the real last move is a candidate, and every
/// man proved ticking really ticks with a reported r.
#[test]
fn real_trapdoor_games_on_every_board_are_explained() {
    let array = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    let boards = [
        "",
        " taxi \"18 16\";",
        " taxi \"7 5\"; taxi_income 1;",
        " earthquake \"1 0\";",
        " earthquake \"-2 1\"; void fly;",
        " earthquake \"0 -1\"; taxi \"18 16\";",
        " earthquake \"1 0\"; aftershock \"2 2\";",
        " trapdoor_order falls-first;",
        " trapdoor_order falls-first; earthquake \"1 0\"; taxi \"7 5\"; taxi_income 1;",
    ];
    let mut rng = common::Rng(0x2545_f491_4f6c_dd1d);
    let mut checked = 0;
    let mut proofs = 0;
    for (n, ops) in boards.iter().cycle().take(boards.len() * 100).enumerate() {
        let timer = 1 + (n / boards.len()) % 2;
        let line = format!("{array} trapdoor {timer};{ops}");
        let start = retro_problem(&line).unwrap_or_else(|| panic!("{line}"));
        let plies = 1 + rng.below(20);
        let Some(proved) = common::explain_real_game(&start, plies, &mut rng) else {
            continue;
        };
        proofs += proved;
        checked += 1;
    }
    assert!(checked > 600, "{checked} games checked");
    // The property is not vacuous: real games give proofs.
    assert!(proofs > 8, "only {proofs} proofs in {checked} games");
}

/// The name of a failed check, as positions/retro/boards.epd writes it.
fn kind(i: &Illegality) -> String {
    format!("{i:?}")
        .split([' ', '{'])
        .next()
        .unwrap_or("")
        .to_string()
}

fn sorted(list: &str) -> String {
    let mut v: Vec<&str> = list.split_whitespace().collect();
    v.sort();
    v.join(" ")
}

/// rules.md 6 on the Taxi and Earthquake boards: each diagram of positions/retro/boards.epd
/// has exactly its stated last moves, verdict and ticking men.
#[test]
fn board_collection_has_its_answers() {
    let mut seen = 0;
    for rec in common::records("positions/retro/boards.epd") {
        let get = |name: &str| rec.get(name).and_then(|o| o.single()).map(str::to_string);
        let id = get("id").unwrap_or_default();
        let depth: u32 = get("c3").and_then(|d| d.parse().ok()).expect("c3 depth");
        let last = get("c1");
        let verdict = get("c2").expect("c2");
        let p = problem::from_record_for_retro(rec.clone()).unwrap();
        let opts = RetroOptions::for_problem(&p, depth, 1_000_000);
        let r = analyse(&RetroPosition::of(&p.position), &opts);
        assert!(r.complete, "{id}: incomplete");
        if let Some(last) = last {
            let got: Vec<String> = r.last_moves.iter().map(|m| m.to_string()).collect();
            assert_eq!(
                sorted(&got.join(" ")),
                sorted(last.trim_start_matches("last: ")),
                "{id}: last moves"
            );
        }
        match verdict.split_once(' ') {
            None => assert!(r.legal() && verdict == "legal", "{id}: {:?}", r.illegal),
            Some(("illegal", name)) => {
                let kinds: Vec<String> = r.illegal.iter().map(kind).collect();
                assert_eq!(kinds, vec![name.to_string()], "{id}");
            }
            Some(("ticking:", proof)) => {
                let got: Vec<String> = r
                    .ticking
                    .iter()
                    .map(|t| {
                        let rs: Vec<String> = t.r.iter().map(|x| x.to_string()).collect();
                        format!("{}:{}", t.square, rs.join(","))
                    })
                    .collect();
                assert_eq!(sorted(&got.join(" ")), sorted(proof), "{id}: proof");
            }
            other => panic!("{id}: unknown c2 {other:?}"),
        }
        seen += 1;
    }
    assert_eq!(seen, 11);
}

/// Every game of `plies` moves from `pos` (none cut short by a mate or a fall), with the
/// position it reaches and its last move, grouped by the diagram retro-analysis sees
/// (timers aside: they are what the histories must explain).
fn every_game(
    game: &AnyGame,
    pos: &Position,
    plies: usize,
    last: Option<fairysolve::Move>,
    out: &mut std::collections::HashMap<RetroPosition, Vec<(Position, fairysolve::Move)>>,
) {
    if plies == 0 {
        if let Some(last) = last {
            out.entry(RetroPosition::of(pos))
                .or_default()
                .push((*pos, last));
        }
        return;
    }
    for mv in game.legal_moves(pos).as_slice() {
        let played = game.play(pos, *mv);
        if played.outcome.is_none() {
            every_game(game, &played.position, plies - 1, Some(*mv), out);
        }
    }
}

/// rules.md 6.1-6.2 on every board, exhaustively: every game of up to three moves from the
/// array under Trapdoor T = 1 (and of up to two under T = 2) on each board and economy,
/// falls first too;
/// each position reached is analysed once, and every game reaching it must be a kept
/// history (the position legal, its last move a candidate, each proof its real timer).
#[test]
fn every_short_trapdoor_game_is_explained() {
    let array = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    let boards = [
        "",
        " taxi \"18 16\";",
        " earthquake \"1 0\";",
        " earthquake \"0 -1\"; taxi \"3 1\"; taxi_income 1;",
        " trapdoor_order falls-first;",
    ];
    let mut positions = 0;
    let mut games = 0;
    let mut proofs = 0;
    for ops in boards {
        for (timer, deepest) in [(1, 3), (2, 2)] {
            let line = format!("{array} trapdoor {timer};{ops}");
            let start = retro_problem(&line).unwrap_or_else(|| panic!("{line}"));
            let opts = RetroOptions::for_problem(&start, 4, 300_000);
            for plies in 1..=deepest {
                let mut reached = std::collections::HashMap::new();
                every_game(&start.game, &start.position, plies, None, &mut reached);
                for (diagram, real) in &reached {
                    let report = analyse(diagram, &opts);
                    assert!(report.complete, "{line} after {plies}: incomplete");
                    for (pos, last) in real {
                        common::assert_history_explained(&start, &report, pos, *last);
                    }
                    positions += 1;
                    games += real.len();
                    proofs += report.ticking.len();
                }
            }
        }
    }
    assert!(
        positions > 25_000 && games > 35_000,
        "{positions} positions, {games} games"
    );
    // Not vacuous: short games give proofs.
    assert!(proofs > 100, "only {proofs} proofs");
}

/// The generator's legality (`retro::legal`, `retro::proved_legal_without_en_passant`,
/// from the first history found) against the full analysis, over random diagrams of
/// each board and economy, half of them with a pawn just past its double step beside a
/// pawn that could take it en passant: `legal` is the analysis's verdict; what the
/// analysis calls legal and complete with no right proved is proved so, and what is
/// proved so the analysis calls legal with no right; and a diagram whose en passant
/// right every history proves.
#[test]
fn the_generators_legality_is_the_full_analysis_verdict() {
    let mut rng = common::Rng(0x7d21_e4b9_c05a_3f18);
    let mut proved_en_passant = 0;
    for kind in KINDS {
        let (mut legal, mut illegal) = (0, 0);
        for _ in 0..400 {
            let (mut squares, turn) = random_squares(&mut rng);
            if rng.below(2) == 0 {
                // The side that moved last has a pawn on its fourth rank, the side to
                // move one beside it: a double step it could take (on the standard
                // board; the displaced boards take what their geometry makes of it).
                let file = 1 + rng.below(6);
                let (rank, mover, taker) = match turn {
                    Color::Black => (3, 'P', 'p'),
                    Color::White => (4, 'p', 'P'),
                };
                let beside = if rng.below(2) == 0 {
                    file - 1
                } else {
                    file + 1
                };
                squares[rank * 8 + file] = Some(mover);
                squares[rank * 8 + beside] = Some(taker);
            }
            let placement = common::placement_fen(&squares);
            let side = if turn == Color::White { "w" } else { "b" };
            let line = format!("{placement} {side} - -{}", random_ops(kind, &mut rng));
            let Some(p) = retro_problem(&line) else {
                continue;
            };
            let opts = RetroOptions::for_problem(&p, retro::DEFAULT_DEPTH, 50_000);
            let pos = RetroPosition::of(&p.position);
            let report = analyse(&pos, &opts);
            assert_eq!(retro::legal(&pos, &opts), report.legal(), "{kind}: {line}");
            let fit = retro::proved_legal_without_en_passant(&pos, &opts);
            let no_right = report.legal() && report.en_passant.is_none();
            if report.complete {
                assert_eq!(fit, no_right, "{kind}: {line}");
            } else {
                assert!(!fit || no_right, "{kind}: {line}");
            }
            proved_en_passant += report.en_passant.is_some() as u32;
            if report.legal() {
                legal += 1;
            } else {
                illegal += 1;
            }
        }
        assert!(
            legal > 50 && illegal > 50,
            "{kind}: {legal} legal, {illegal} illegal"
        );
    }
    // Every history ends with e2-e4: the right on e3 is proved, and the shortcut asks
    // the full analysis.
    let p = retro_problem("8/8/8/8/3pPk2/3p1p2/PPP5/KB6 b - -").expect("reads");
    let opts = RetroOptions::for_problem(&p, retro::DEFAULT_DEPTH, 50_000);
    let pos = RetroPosition::of(&p.position);
    assert_eq!(analyse(&pos, &opts).en_passant, Some(Square::E3));
    assert!(retro::legal(&pos, &opts));
    assert!(!retro::proved_legal_without_en_passant(&pos, &opts));
    // The full analysis's path was taken and proved a right among the random ones too.
    assert!(proved_en_passant >= 1, "{proved_en_passant}");
}
