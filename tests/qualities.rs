//! The composer's qualities `generate` reports (issue 41; docs/positions.md,
//! "generate"), each checked against its definition by other means on random generated
//! puzzles: the key and the mates replayed by shakmaty (an independent move generator),
//! a man called superfluous removed and the problem solved again by `solve` (the fast
//! search, not the generator's proof), a man not called superfluous shown needed.

mod common;

use common::{json, run};
use fairysolve::generic::{End, TurnGame};
use serde_json::Value;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{attacks, Bitboard, CastlingMode, Chess, Color, FromSetup, Position, Role, Square};

/// The puzzles of a generator run, as JSON objects.
fn puzzles(stip: &str, count: u32, seed: u32, extra: &[&str]) -> Vec<Value> {
    let count = count.to_string();
    let seed = seed.to_string();
    let mut args = vec![
        "generate",
        "--stip",
        stip,
        "--count",
        &count,
        "--seed",
        &seed,
        "--json",
        "--threads",
        "1",
    ];
    args.extend_from_slice(extra);
    let out = run(&args);
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let text = common::text(&out.stdout);
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Whether a puzzle lists `theme` among its themes.
fn names_theme(p: &Value, theme: &str) -> bool {
    p["themes"].as_array().unwrap().iter().any(|t| t == theme)
}

/// Asserts a puzzle's verdict on its key against one found by other means: the flights
/// the key takes (`taken`, by name from a1) and whether it is quiet, given whether it
/// captures and whether it checks. Whether it is quiet.
fn assert_key_judged(p: &Value, captured: bool, check: bool, taken: &[String]) -> bool {
    let context = format!("{}: key {}", p["epd"], p["key"]);
    assert_eq!(
        p["qualities"]["flights_taken"],
        serde_json::json!(taken),
        "{context}"
    );
    let quiet = !captured && !check && taken.is_empty();
    assert_eq!(
        p["qualities"]["quiet_key"].as_bool(),
        Some(quiet),
        "{context}"
    );
    quiet
}

/// The diagram of a puzzle line (its FEN fields) as shakmaty reads it.
fn diagram(line: &str) -> Chess {
    let fen: String = line.split(' ').take(4).collect::<Vec<_>>().join(" ");
    let setup: Fen = fen.parse().unwrap();
    setup.into_position(CastlingMode::Chess960).unwrap()
}

fn play(pos: &Chess, uci: &str) -> Chess {
    let m = uci.parse::<UciMove>().unwrap().to_move(pos).unwrap();
    let mut next = pos.clone();
    next.play_unchecked(m);
    next
}

/// The squares `side`'s king can step to, by its definition: a neighbouring square not
/// held by its own men or the other king and attacked by no enemy man (the king itself taken off the board,
/// so that a rider's line goes on behind it). Read off the board alone, so it holds
/// also when the side is not to move.
fn king_steps(board: &shakmaty::Board, side: Color) -> Bitboard {
    let king = board.king_of(side).unwrap();
    let occupied = board.occupied() ^ Bitboard::from_square(king);
    attacks::king_attacks(king)
        .into_iter()
        .filter(|&sq| {
            // Never onto the other king (on the Underworld's World the two may stand
            // side by side: taking a king is never a move).
            !board.by_color(side).contains(sq)
                && board.king_of(!side) != Some(sq)
                && !board.by_color(!side).into_iter().any(|from| {
                    let piece = board.piece_at(from).unwrap();
                    attacks::attacks(from, piece, occupied).contains(sq)
                })
        })
        .fold(Bitboard::EMPTY, |b, sq| b | Bitboard::from_square(sq))
}

/// A key is quiet exactly when, played by shakmaty, it gives no check, captures
/// nothing and leaves the defender's king every square it could step to before.
#[test]
fn a_quiet_key_is_no_check_no_capture_no_flight_taken() {
    let mut seen = [0; 2];
    // Random puzzles, and puzzles asked to have a quiet key (few keys are).
    let runs = (1..=3)
        .map(|seed| puzzles("#2", 25, seed, &[]))
        .chain([puzzles("#2", 8, 9, &["--theme", "quiet-key"])]);
    for run in runs {
        for p in run {
            let line = p["epd"].as_str().unwrap();
            let pos = diagram(line);
            let key = p["key"].as_str().unwrap();
            let after = play(&pos, key);
            let captured = pos.board().occupied().count() != after.board().occupied().count();
            let check = after.is_check();
            let defender = !pos.turn();
            let taken = king_steps(pos.board(), defender) & !king_steps(after.board(), defender);
            let quiet = assert_key_judged(&p, captured, check, &names(taken));
            assert_eq!(names_theme(&p, "quiet-key"), quiet, "{line}");
            seen[quiet as usize] += 1;
        }
    }
    assert!(seen[0] > 5 && seen[1] > 5, "quiet and not: {seen:?}");
}

/// A placement as shakmaty reads it (a board alone: the World of an Underworld line may
/// hold either side in check).
fn board_of(placement: &str) -> shakmaty::Board {
    placement.parse().unwrap()
}

/// Whether `side`'s king is attacked on `board`.
fn attacked(board: &shakmaty::Board, side: Color) -> bool {
    let king = board.king_of(side).unwrap();
    board.attacks_to(king, !side, board.occupied()).any()
}

/// On Underworld the key is judged on the World, where the mate is: a key is quiet
/// exactly when its notation shows no capture (`x`, on either board), it gives no check
/// on the World (the king attacked after it and not before: at WW it may stand in
/// check) and takes none of the squares the defender's World king could step to (the
/// World board alone, by shakmaty). Every generated key is a World move at WW: such a
/// move changes the Underworld only by dropping a man it captured, which can give the
/// defender's Underworld King no check.
#[test]
fn an_underworld_quiet_key_is_no_capture_no_check_no_flight_taken_on_the_world() {
    use fairysolve::underworld::{read_line, Underworld};
    let game = Underworld;
    let mut seen = [0; 2];
    for seed in 1..=2 {
        for p in puzzles("#2", 8, seed, &["--underworld-chess"]) {
            let line = p["epd"].as_str().unwrap();
            let s = read_line(line).unwrap().state;
            let key_coord = p["key"].as_str().unwrap();
            assert!(
                key_coord.starts_with("W:") && line.contains("phase WW"),
                "{line}"
            );
            let key = game.move_written(&s, key_coord).unwrap();
            let captures = game.notation(&s, key).contains('x');
            let after = game.play(&s, key);
            let world_before = board_of(line.split(' ').next().unwrap());
            let world_after = board_of(&fairysolve::fen::write_placement(after.world.board()));
            let taken =
                king_steps(&world_before, Color::Black) & !king_steps(&world_after, Color::Black);
            let names: Vec<String> = taken.into_iter().map(|sq| format!("W:{sq}")).collect();
            assert_eq!(
                p["qualities"]["flights_taken"],
                serde_json::json!(names),
                "{line}"
            );
            let checks =
                attacked(&world_after, Color::Black) && !attacked(&world_before, Color::Black);
            let quiet = !captures && !checks && taken.is_empty();
            assert_eq!(p["qualities"]["quiet_key"].as_bool(), Some(quiet), "{line}");
            seen[quiet as usize] += 1;
        }
    }
    assert!(seen[0] > 3, "quiet and not: {seen:?}");
}

/// On Looking-Glass, by playing every move: the key captures when the defender has
/// fewer men after it; it "checks" when the attacker, to move again, has a move that
/// wins and had none before it; a flight is a king's move after which no move of the attacker wins, named by
/// the board the king ends on.
#[test]
fn a_looking_glass_quiet_key_is_no_capture_no_attack_on_the_king_no_flight_taken() {
    use fairysolve::glass::{read_line, GState, Glass};
    let wins = |game: &Glass, s: &GState| {
        game.moves(s)
            .into_iter()
            .any(|m| game.end(&game.play(s, m)) == Some(End::Win(s.turn)))
    };
    let flights = |game: &Glass, s: &GState| -> Vec<String> {
        let mut out: Vec<String> = game
            .moves(s)
            .into_iter()
            .filter(|m| m.mv.role == fairysolve::types::Role::King)
            .filter(|m| m.mv.kind != fairysolve::moves::MoveKind::Castle)
            .map(|m| game.play(s, m))
            .filter(|next| game.end(next).is_none() && !wins(game, next))
            .map(|next| {
                let (sq, side) = next.king(s.turn).unwrap();
                format!("{}:{sq}", side.letter())
            })
            .collect();
        out.sort();
        out.dedup();
        out
    };
    let mut seen = [0; 2];
    for seed in 1..=2 {
        for p in puzzles("#2", 8, seed, &["--looking-glass"]) {
            let line = p["epd"].as_str().unwrap();
            let s = read_line(line).unwrap().state;
            let game = Glass { attacker: s.turn };
            let key = game.move_written(&s, p["key"].as_str().unwrap()).unwrap();
            let after = game.play(&s, key);
            let defender = !s.turn;
            let captures = after.men(defender).count() < s.men(defender).count();
            let again = game.other_side_to_move(&after).unwrap();
            let checks = wins(&game, &again) && !wins(&game, &s);
            let before = flights(&game, &game.other_side_to_move(&s).unwrap());
            let now = flights(&game, &after);
            let taken: Vec<String> = before.into_iter().filter(|f| !now.contains(f)).collect();
            assert_eq!(
                p["qualities"]["flights_taken"],
                serde_json::json!(taken),
                "{line}"
            );
            let quiet = !captures && !checks && taken.is_empty();
            assert_eq!(p["qualities"]["quiet_key"].as_bool(), Some(quiet), "{line}");
            seen[quiet as usize] += 1;
        }
    }
    assert!(seen[0] > 3, "quiet and not: {seen:?}");
}

/// Underworld: the World at the end of the main line, replayed by the library, is a
/// model mate by shakmaty's judgement exactly when the puzzle says so (the mate is the
/// World's; the men on the Underworld stand apart).
#[test]
fn an_underworld_model_mate_is_judged_on_the_world() {
    use fairysolve::underworld::{read_line, Underworld};
    let game = Underworld;
    let mut seen = [0; 2];
    for (stip, count) in [("#2", 12), ("h#2", 3)] {
        for p in puzzles(stip, count, 1, &["--underworld-chess"]) {
            let line = p["epd"].as_str().unwrap();
            let mut s = read_line(line).unwrap().state;
            let pv = line.split("pv ").nth(1).unwrap().trim_end_matches(';');
            for coord in pv.split(' ') {
                let mv = game.move_written(&s, coord).unwrap();
                s = game.play(&s, mv);
            }
            let world = diagram(&format!(
                "{} b - -",
                fairysolve::fen::write_placement(s.world.board())
            ));
            if !world.is_checkmate() {
                assert_eq!(p["qualities"]["model_mate"], Value::Null, "{line}");
                continue;
            }
            let model = is_model(&world);
            assert_eq!(
                p["qualities"]["model_mate"].as_bool(),
                Some(model),
                "{line}"
            );
            seen[model as usize] += 1;
        }
    }
    assert!(seen[0] > 1 && seen[1] > 1, "model and not: {seen:?}");
}

/// The diagram of a puzzle's line: its FEN fields and variant operations, without
/// `stip`, `id` and `pv`.
fn diagram_part(line: &str) -> &str {
    line.split(" stip \"").next().unwrap()
}

/// The men of a line's placement, by square index (a1 = 0), read without a move
/// generator (a variant's diagram need not be a legal FIDE position).
fn placement(line: &str) -> [Option<char>; 64] {
    let mut men = [None; 64];
    for (row, text) in line.split(' ').next().unwrap().split('/').enumerate() {
        let mut file = 0;
        for c in text.chars() {
            match c.to_digit(10) {
                Some(n) => file += n as usize,
                None => {
                    men[(7 - row) * 8 + file] = Some(c);
                    file += 1;
                }
            }
        }
    }
    men
}

/// The line of a puzzle without the man on `square`, its variant operations and
/// stipulation kept.
fn without(line: &str, square: &str, stip: &str) -> String {
    let gone: Square = square.parse().unwrap();
    let mut men = placement(line);
    men[usize::from(gone)] = None;
    let fields: Vec<&str> = diagram_part(line).splitn(5, ' ').collect();
    format!(
        "{} {} {} {} {} stip \"{stip}\";",
        common::placement_fen(&men),
        fields[1],
        fields[2],
        fields[3],
        fields.get(4).unwrap_or(&"")
    )
}

/// What `solve` proves of a line: its keys (or help-mate lines) and shortest win, or
/// `None` when it refuses the line.
fn solved(line: &str) -> Option<(Value, Value)> {
    let out = run(&["solve", "--json", "--threads", "1", "--fen", line]);
    let v = json(&out);
    if v["status"] == "error" {
        return None;
    }
    assert_eq!(v["complete"], true, "{line}");
    let solutions = if v["solutions"].is_array() {
        v["solutions"].clone()
    } else {
        v["keys"].clone()
    };
    Some((solutions, v["shortest"].clone()))
}

/// A man called superfluous, removed, leaves the problem sound with the same solution
/// (`solve` says so); every other man but the kings, removed, leaves it unreadable,
/// unsound, shorter or with another solution, unless retro-analysis refuses the diagram.
#[test]
fn superfluous_men_are_superfluous_and_the_others_are_needed() {
    let (checked, economical) = economy_holds(&[], 12, 4);
    assert!(
        checked[0] > 3 && checked[1] > 50,
        "superfluous, needed: {checked:?}"
    );
    assert_eq!(economical, 16);
}

/// The same under each single-board game: `solve` and `retro` play the game's own
/// rules (a man's fall, a fee, a displaced half of the board) on every diagram without
/// one man.
#[test]
fn superfluous_men_are_superfluous_under_every_single_board_game() {
    for game in [
        &["--trapdoor", "1"][..],
        &["--taxi", "3 3"],
        &["--earthquake", "1 0"],
        &["--trapdoor", "2", "--earthquake", "0 -1"],
    ] {
        let (checked, economical) = economy_holds(game, 4, 2);
        assert!(
            checked[0] + checked[1] > 20 && checked[1] > 10,
            "{game:?}: superfluous, needed: {checked:?}"
        );
        assert!(economical >= 4, "{game:?}: {economical} asked for economy");
    }
}

/// On the two-board games too: a man called superfluous (named with its board), removed
/// from its board, leaves `solve` proving the same solutions; every other man but the
/// kings, removed, leaves the line unreadable, unsound or solved otherwise.
#[test]
fn superfluous_men_are_superfluous_on_the_two_board_games() {
    // Underworld help-mates are slow to generate (docs/speed.md): its direct mates only.
    let runs: [(&str, [char; 2], &[&str]); 2] = [
        ("--looking-glass", ['R', 'M'], &["#2", "h#2"]),
        ("--underworld-chess", ['W', 'U'], &["#2"]),
    ];
    for (flag, letters, stips) in runs {
        let mut checked = [0; 2];
        for &stip in stips {
            for p in puzzles(stip, 8, 5, &[flag, "--qualities"]) {
                let line = p["epd"].as_str().unwrap();
                let diagram = diagram_part(line);
                let own = solved(&format!("{diagram} stip \"{stip}\";")).unwrap();
                let superfluous: Vec<&str> = p["qualities"]["superfluous"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap())
                    .collect();
                let (first, rest) = diagram.split_once(' ').unwrap();
                let second = rest.split('"').nth(1).unwrap();
                for (b, text) in [first, second].into_iter().enumerate() {
                    for (i, man) in placement(text).iter().enumerate() {
                        let Some(man) = man.filter(|m| !matches!(m, 'K' | 'k')) else {
                            continue;
                        };
                        let mut men = placement(text);
                        men[i] = None;
                        let smaller = common::placement_fen(&men);
                        let without = if b == 0 {
                            format!("{smaller} {rest} stip \"{stip}\";")
                        } else {
                            format!(
                                "{first} {} stip \"{stip}\";",
                                rest.replacen(second, &smaller, 1)
                            )
                        };
                        let name = format!("{}:{man}{}", letters[b], Square::new(i as u32));
                        let other = solved(&without);
                        if superfluous.contains(&name.as_str()) {
                            assert_eq!(other.as_ref(), Some(&own), "{line}: without {name}");
                            checked[0] += 1;
                        } else {
                            assert_ne!(other.as_ref(), Some(&own), "{line}: {name} is superfluous");
                            checked[1] += 1;
                        }
                    }
                }
            }
        }
        assert!(
            checked[0] >= 2 && checked[1] >= 10,
            "{flag}: superfluous, needed: {checked:?}"
        );
    }
}

/// Checks economy on `#2` and `h#2` runs of seeds 1 and 2 with `game`'s flags: `decided`
/// puzzles with every quality decided and `asked` asking for the `economy` theme, each
/// man removed in turn. The men found superfluous and needed, and the puzzles asked for.
fn economy_holds(game: &[&str], decided: u32, asked: u32) -> ([usize; 2], usize) {
    let mut checked = [0; 2];
    let mut economical = 0;
    for (stip, seeds) in [("#2", 1..=2), ("h#2", 1..=2)] {
        for seed in seeds {
            // A run asking for economy takes superfluous men off its candidates: each
            // man of what it hands out must be needed.
            let asked = puzzles(
                stip,
                asked,
                seed + 10,
                &[game, &["--theme", "economy"]].concat(),
            );
            for p in &asked {
                assert_eq!(p["qualities"]["economy"], true, "{p}");
            }
            economical += asked.len();
            let decided = puzzles(stip, decided, seed, &[game, &["--qualities"]].concat());
            for p in decided.into_iter().chain(asked) {
                let line = p["epd"].as_str().unwrap();
                let own = solved(&format!("{} stip \"{stip}\";", diagram_part(line))).unwrap();
                let superfluous: Vec<String> = p["qualities"]["superfluous"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap()[1..].to_string())
                    .collect();
                assert_eq!(
                    p["qualities"]["economy"].as_bool(),
                    Some(superfluous.is_empty())
                );
                for (i, man) in placement(line).iter().enumerate() {
                    if matches!(man, None | Some('K' | 'k')) {
                        continue;
                    }
                    let name = Square::new(i as u32).to_string();
                    let other = solved(&without(line, &name, stip));
                    if superfluous.contains(&name) {
                        assert_eq!(other.as_ref(), Some(&own), "{line}: without {name}");
                        checked[0] += 1;
                    } else if other.as_ref() == Some(&own) {
                        // Sound and the same without it: only retro-analysis may
                        // still refuse that diagram.
                        let out = run(&["retro", "--fen", &without(line, &name, stip)]);
                        let text = common::text(&out.stdout);
                        assert!(
                            text.contains("illegal"),
                            "{line}: {name} is superfluous\n{text}"
                        );
                    } else {
                        checked[1] += 1;
                    }
                }
            }
        }
    }
    (checked, economical)
}

/// The mated king's field (its square and the squares around it) with the number of
/// the mating side's men attacking each square through the mated king, by shakmaty.
fn field_guards(pos: &Chess) -> Vec<(Square, usize, bool)> {
    let mated = pos.turn();
    let king = pos.board().king_of(mated).unwrap();
    let occupied = pos.board().occupied() ^ Bitboard::from_square(king);
    attacks::king_attacks(king)
        .into_iter()
        .map(|sq| {
            let guards = pos
                .board()
                .by_color(!mated)
                .into_iter()
                .filter(|&from| {
                    let piece = pos.board().piece_at(from).unwrap();
                    attacks::attacks(from, piece, occupied).contains(sq)
                })
                .count();
            let blocked = pos.board().by_color(mated).contains(sq);
            (sq, guards, blocked)
        })
        .collect()
}

/// Whether a mate (the mated side to move) is a model mate, by shakmaty: pure and
/// economical.
fn is_model(pos: &Chess) -> bool {
    let pure = field_guards(pos)
        .iter()
        .all(|&(_, guards, blocked)| if blocked { guards == 0 } else { guards == 1 });
    let mating: Color = !pos.turn();
    let economical = pos.board().by_color(mating).into_iter().all(|sq| {
        let role = pos.board().role_at(sq).unwrap();
        if matches!(role, Role::King | Role::Pawn) {
            return true;
        }
        let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
        setup.board.discard_piece_at(sq);
        let Ok(less) = Chess::from_setup(setup, CastlingMode::Chess960) else {
            return true;
        };
        !less.is_checkmate()
    });
    pure && economical
}

/// A model mate, replayed by shakmaty: each square of the king's field is blocked by
/// its own man and not attacked, or attacked exactly once; and each man of the mating
/// side but the king and pawns, taken off, leaves no mate.
#[test]
fn a_model_mate_covers_each_square_of_the_field_once_with_every_man() {
    let mut seen = [0; 2];
    for seed in 1..=4 {
        for p in puzzles("h#2", 20, seed, &[])
            .into_iter()
            .chain(puzzles("#2", 10, seed, &[]))
        {
            let line = p["epd"].as_str().unwrap();
            let mut pos = diagram(line);
            let pv: Vec<String> = line
                .split("pv ")
                .nth(1)
                .unwrap()
                .trim_end_matches(';')
                .split(' ')
                .map(String::from)
                .collect();
            for m in &pv {
                pos = play(&pos, m);
            }
            let claimed = p["qualities"]["model_mate"].as_bool();
            if !pos.is_checkmate() {
                assert_eq!(claimed, None, "{line}: the main line ends in no mate");
                continue;
            }
            let model = is_model(&pos);
            assert_eq!(claimed, Some(model), "{line}");
            assert_eq!(names_theme(&p, "model-mate"), model, "{line}");
            seen[model as usize] += 1;
        }
    }
    assert!(seen[0] > 5 && seen[1] > 5, "model and not: {seen:?}");
}

/// The themes asked for hold on every puzzle of the run: `variations:2` and `tries:1`
/// by the counts in the JSON, `no-duals` by the solution tree `solve` prints (no
/// defence with two mates).
#[test]
fn asked_themes_hold_on_every_puzzle() {
    let set = puzzles(
        "#2",
        6,
        5,
        &[
            "--theme",
            "variations:2",
            "--theme",
            "tries:1",
            "--theme",
            "no-duals",
            "--theme",
            "quiet-key",
        ],
    );
    assert_eq!(set.len(), 6);
    for p in &set {
        let q = &p["qualities"];
        assert!(q["variations"].as_u64().unwrap() >= 2, "{p}");
        assert!(q["tries"].as_u64().unwrap() >= 1, "{p}");
        assert_eq!(q["no_duals"], true);
        assert_eq!(q["quiet_key"], true);
        let themes: Vec<&str> = p["themes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        for t in ["variations:2", "tries:1", "no-duals", "quiet-key"] {
            assert!(themes.contains(&t), "{t} missing: {p}");
        }
        let line = p["epd"].as_str().unwrap();
        let out = run(&["solve", "--json", "--fen", line]);
        let tree = &json(&out)["tree"][p["key"].as_str().unwrap()];
        for defence in tree["next"].as_array().unwrap() {
            assert!(
                defence["next"].as_array().unwrap().len() <= 1,
                "{line}: a dual after {}",
                defence["move"]
            );
        }
        assert!(tree["threat"].is_array(), "{line}: no threat sought");
    }
    // Refused where the quality means nothing.
    let out = run(&[
        "generate",
        "--stip",
        "h#2",
        "--count",
        "1",
        "--theme",
        "quiet-key",
    ]);
    assert_eq!(
        common::text(&out.stderr).trim(),
        "generate: --theme quiet-key: a help-mate has no key, tries or variations to judge"
    );
    let out = run(&[
        "generate",
        "--looking-glass",
        "--stip",
        "h#2",
        "--count",
        "1",
        "--theme",
        "model-mate",
    ]);
    assert_eq!(
        common::text(&out.stderr).trim(),
        "generate: --theme model-mate: not decided on Looking-Glass, which ends by a capture, not a mate"
    );
    // Decided on the Underworld: asked for, every puzzle shows it.
    for p in puzzles("#2", 2, 1, &["--underworld-chess", "--theme", "quiet-key"]) {
        assert_eq!(p["qualities"]["quiet_key"], true, "{}", p["epd"]);
    }
}

// ---------------------------------------------------------------------------------
// The single-board variants, each judged by an oracle of its own: Trapdoor 1 by the
// order of events played on shakmaty's moves (`common::trapdoor_oracle`), Earthquake
// by the cell-by-cell board (`common::earthquake_oracle`).

/// The main line of a puzzle, in coordinates.
fn main_line(line: &str) -> Vec<String> {
    line.split("pv ")
        .nth(1)
        .unwrap()
        .trim_end_matches(';')
        .split(' ')
        .map(String::from)
        .collect()
}

/// Square names of a shakmaty bitboard, from a1.
fn names(b: Bitboard) -> Vec<String> {
    b.into_iter().map(|sq| sq.to_string()).collect()
}

/// A Trapdoor line's move written `coord`, as the oracle plays it.
fn trapdoor_move(
    t: &common::trapdoor_oracle::Trapdoor,
    coord: &str,
) -> common::trapdoor_oracle::Played {
    t.legal()
        .into_iter()
        .find(|(m, _)| m.to_uci(CastlingMode::Standard).to_string() == coord)
        .unwrap_or_else(|| panic!("{coord} is no legal move in {}", t.pos.board()))
        .1
}

/// Under Trapdoor (timer 1, the generated diagram, where nothing ticks) a key is quiet exactly when,
/// played by the order of events (rules.md 1.5), it captures nothing, the defender is
/// not in check after it, and the defender's king can still step to every square it
/// could step to in the diagram with the turn passed.
#[test]
fn a_trapdoor_quiet_key_is_judged_by_the_order_of_events() {
    use common::trapdoor_oracle::{Played, Trapdoor};
    let mut seen = [0; 2];
    let runs = (1..=3)
        .map(|seed| puzzles("#2", 20, seed, &["--trapdoor", "1"]))
        .chain([puzzles(
            "#2",
            4,
            1,
            &["--trapdoor", "1", "--theme", "quiet-key"],
        )]);
    for run in runs {
        for p in run {
            let line = p["epd"].as_str().unwrap();
            if line.contains("timers") {
                continue;
            }
            let start = Trapdoor::new(diagram(line));
            let key = p["key"].as_str().unwrap();
            let Played::Goes(after) = trapdoor_move(&start, key) else {
                panic!("{line}: the key {key} ends the game");
            };
            let captured =
                start.pos.board().occupied().count() != after.pos.board().occupied().count();
            // With the turn passed nothing of the defender's ticks, so its king's steps
            // are the board's (the diagram may hold the attacker in check, which
            // shakmaty takes for no position with the defender to move).
            let before = king_steps(start.pos.board(), !start.pos.turn());
            let taken = before & !after.king_steps();
            let quiet = assert_key_judged(&p, captured, after.in_check(), &names(taken));
            seen[quiet as usize] += 1;
        }
    }
    assert!(seen[0] > 5 && seen[1] > 3, "quiet and not: {seen:?}");
}

/// The same judgement where men tick (rules.md 1.1-1.5): the diagrams of generated
/// Trapdoor puzzles given timers of 1 on men of both sides drawn at random, every
/// legal White move taken for a key. The solver's verdict (`generate::quality`) must be
/// the oracle's: a ticking White man falls at the end of the key (a fall may discover
/// a check, or open a flight), and a ticking Black man at the end of a king's step
/// (a step whose falls expose the king is no flight).
#[test]
fn a_trapdoor_quiet_key_is_judged_where_men_tick() {
    use common::trapdoor_oracle::{Played, Trapdoor};
    use fairysolve::generate::quality::{flights_taken, key_is_quiet};
    let mut rng = common::Rng(0x5eed_7ab1e);
    // Keys judged: quiet, not quiet; where a fall decides: a check or a flight that
    // FIDE judges otherwise.
    let mut seen = [0; 2];
    let mut falls_decide = 0;
    for p in (1..=2).flat_map(|seed| puzzles("#2", 20, seed, &["--trapdoor", "1"])) {
        let fields: Vec<&str> = p["epd"].as_str().unwrap().split(' ').take(4).collect();
        let fen = fields.join(" ");
        let board = board_of(fields[0]);
        let ticking: Vec<Square> = board
            .occupied()
            .into_iter()
            .filter(|_| rng.below(3) == 0)
            .collect();
        if ticking.is_empty() {
            continue;
        }
        let timers: Vec<String> = ticking.iter().map(|sq| format!("{sq}:1")).collect();
        let line = format!("{fen} trapdoor 1; timers \"{}\";", timers.join(" "));
        // A timer the reader refuses (a pawn on its starting square cannot have moved)
        // draws no diagram.
        let Ok(fairysolve::epd::Line::Position(record)) = fairysolve::epd::parse_line(&line, 1)
        else {
            continue;
        };
        let Ok(read) = fairysolve::problem::from_record(*record) else {
            continue;
        };
        let Ok(chess) = Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position::<Chess>(CastlingMode::Chess960)
        else {
            continue;
        };
        let mut start = Trapdoor::new(chess);
        for &sq in &ticking {
            let side = usize::from(board.color_at(sq) == Some(Color::Black));
            start.ticking[side] |= Bitboard::from_square(sq);
        }
        let Some(passed) = start.passed() else {
            continue;
        };
        let before = passed.king_steps();
        let fide_before = king_steps(&board, Color::Black);
        for mv in read.game.legal_moves(&read.position).iter() {
            let coord = mv.coord(false).to_string();
            let after = match trapdoor_move(&start, &coord) {
                Played::Goes(t) | Played::Mates(t) => t,
                // White's own king fell: no key to judge.
                Played::KingFell => continue,
            };
            let m: UciMove = coord.parse().unwrap();
            let captured = m.to_move(&start.pos).unwrap().is_capture();
            let taken = before & !after.king_steps();
            let solver_taken: Vec<String> = flights_taken(&read.game, &read.position, *mv)
                .into_iter()
                .map(|sq| sq.to_string())
                .collect();
            assert_eq!(solver_taken, names(taken), "{line}: {coord}");
            let quiet = !captured && !after.in_check() && taken.is_empty();
            assert_eq!(
                key_is_quiet(&read.game, &read.position, *mv),
                quiet,
                "{line}: {coord}"
            );
            let fide = play(&start.pos, &coord);
            let fide_taken = fide_before & !king_steps(fide.board(), Color::Black);
            if fide.is_check() != after.in_check() || fide_taken != taken {
                falls_decide += 1;
            }
            seen[quiet as usize] += 1;
        }
    }
    assert!(seen[0] > 100 && seen[1] > 100, "quiet and not: {seen:?}");
    assert!(falls_decide > 10, "a fall decided {falls_decide} keys");
}

/// Under Trapdoor a main line ends in mate when its last move mates before anything
/// falls (1.5b) or the falls leave the other side in check without a legal move
/// (1.5e); a model mate is then pure on that board and economical by the same rules:
/// each man of the mating side but the king and pawns, taken off, leaves no mate.
#[test]
fn a_trapdoor_model_mate_is_judged_by_the_order_of_events() {
    use common::trapdoor_oracle::{Played, Trapdoor};
    let mut seen = [0; 3];
    // Main-line moves after which a man fell, and lines ended by a king's fall.
    let (mut falls, mut fell) = (0, 0);
    for seed in 1..=3 {
        for p in puzzles("h#2", 20, seed, &["--trapdoor", "1"])
            .into_iter()
            .chain(puzzles("#2", 10, seed, &["--trapdoor", "1"]))
        {
            let line = p["epd"].as_str().unwrap();
            if line.contains("timers") {
                continue;
            }
            let mut state = Some(Trapdoor::new(diagram(line)));
            let mut mate = None;
            for coord in main_line(line) {
                let now = state
                    .take()
                    .unwrap_or_else(|| panic!("{line}: {coord} after the end"));
                let men = now.pos.board().occupied().count();
                let m: UciMove = coord.parse().unwrap();
                let taken = usize::from(m.to_move(&now.pos).unwrap().is_capture());
                match trapdoor_move(&now, &coord) {
                    Played::Mates(t) => mate = Some(t),
                    Played::KingFell => fell += 1,
                    Played::Goes(t) => {
                        falls += usize::from(t.pos.board().occupied().count() + taken < men);
                        state = Some(t)
                    }
                }
            }
            let mate = mate.or(state.filter(Trapdoor::checkmated));
            let claimed = p["qualities"]["model_mate"].as_bool();
            let Some(mate) = mate else {
                assert_eq!(claimed, None, "{line}: the main line ends in no mate");
                seen[2] += 1;
                continue;
            };
            let pure =
                field_guards(&mate.pos)
                    .iter()
                    .all(|&(_, guards, blocked)| if blocked { guards == 0 } else { guards == 1 });
            let mating = !mate.pos.turn();
            let board = mate.pos.board();
            let economical = board.by_color(mating).into_iter().all(|sq| {
                matches!(board.role_at(sq), Some(Role::King | Role::Pawn))
                    || mate.without(sq).is_none_or(|less| !less.checkmated())
            });
            let model = pure && economical;
            assert_eq!(claimed, Some(model), "{line}");
            seen[model as usize] += 1;
        }
    }
    assert!(seen[0] > 5 && seen[1] > 5, "model, not, no mate: {seen:?}");
    assert!(falls > 1 && fell > 5, "{falls} falls, {fell} kings fell");
}

/// An Earthquake line's diagram as the cell-by-cell oracle reads it, with the move
/// names the oracle gives.
fn earthquake_diagram(line: &str) -> common::earthquake_oracle::Oracle {
    let p = common::problem(line);
    let eq = p.game.earthquake(&p.position).unwrap();
    let (dx, dy) = eq.displacement();
    common::earthquake_oracle::oracle_from(
        &p.position,
        dx,
        dy,
        eq.void_rule() == fairysolve::geometry::VoidRule::Fly,
    )
}

fn earthquake_move(
    o: &common::earthquake_oracle::Oracle,
    coord: &str,
) -> common::earthquake_oracle::Oracle {
    o.legal_moves()
        .into_iter()
        .find(|(m, _)| m == coord)
        .unwrap_or_else(|| panic!("{coord} is no legal move of the oracle"))
        .1
}

/// The squares (by name) the king of the side to move steps to on the oracle's board.
fn earthquake_king_steps(o: &common::earthquake_oracle::Oracle) -> Vec<String> {
    let king = o.king(o.white);
    let from = format!("{}{}", (b'a' + (king % 8) as u8) as char, king / 8 + 1);
    let mut steps: Vec<String> = o
        .legal_moves()
        .into_iter()
        .filter(|(m, _)| m.starts_with(&from))
        .map(|(m, _)| m[2..4].to_string())
        .collect();
    // From a1 on, as the JSON lists them.
    steps.sort_by_key(|s| (s.as_bytes()[1], s.as_bytes()[0]));
    steps
}

/// On an Earthquake board a key is quiet exactly when, played on the cell-by-cell
/// board (rules.md 3), it captures nothing, gives no check there, and leaves the
/// defender's king every square it could step to with the turn passed.
#[test]
fn an_earthquake_quiet_key_is_judged_on_the_displaced_board() {
    let mut seen = [0; 2];
    // Keys whose check or flights differ from the same men's on the standard board (or
    // that are no move there).
    let mut displaced_decides = 0;
    let boards: [&[&str]; 3] = [
        &["--earthquake", "1 0"],
        &["--earthquake", "0 -1"],
        &["--earthquake", "-2 1"],
    ];
    for (i, game) in boards.iter().enumerate() {
        let mut asked = game.to_vec();
        asked.extend(["--theme", "quiet-key"]);
        for p in puzzles("#2", 20, i as u32 + 1, game)
            .into_iter()
            .chain(puzzles("#2", 3, 1, &asked))
        {
            let line = p["epd"].as_str().unwrap();
            let start = earthquake_diagram(line);
            let key = p["key"].as_str().unwrap();
            let after = earthquake_move(&start, key);
            let men = |o: &common::earthquake_oracle::Oracle| o.board.iter().flatten().count();
            let captured = men(&start) != men(&after);
            let mut passed = start.clone();
            passed.white = !passed.white;
            let before = earthquake_king_steps(&passed);
            let left = earthquake_king_steps(&after);
            let taken: Vec<String> = before.into_iter().filter(|s| !left.contains(s)).collect();
            let quiet = assert_key_judged(&p, captured, after.in_check(), &taken);
            if displaced(line, key, after.in_check(), &taken) {
                displaced_decides += 1;
            }
            seen[quiet as usize] += 1;
        }
    }
    assert!(seen[0] > 5 && seen[1] > 5, "quiet and not: {seen:?}");
    assert!(
        displaced_decides > 5,
        "the displacement decided {displaced_decides} keys"
    );
}

/// Whether a key judged on an Earthquake board (`check`, the flights `taken`) is
/// judged otherwise with the same men on the standard board, or is no move there.
fn displaced(line: &str, key: &str, check: bool, taken: &[String]) -> bool {
    let fields: Vec<&str> = line.split(' ').take(4).collect();
    let Ok(flat) = Fen::from_ascii(fields.join(" ").as_bytes())
        .unwrap()
        .into_position::<Chess>(CastlingMode::Chess960)
    else {
        return true;
    };
    let Ok(m) = key.parse::<UciMove>().unwrap().to_move(&flat) else {
        return true;
    };
    let mut after = flat.clone();
    after.play_unchecked(m);
    let flat_taken =
        king_steps(flat.board(), Color::Black) & !king_steps(after.board(), Color::Black);
    after.is_check() != check || names(flat_taken) != taken
}

/// On an Earthquake board a model mate is judged on the cell-by-cell board: each cell
/// next to the mated king's (its field, by physical direction) is blocked by its own
/// man and not attacked, or attacked exactly once (the king taken off, so that a line
/// goes on behind it); and each man of the mating side but the king and pawns, taken
/// off, leaves no mate.
#[test]
fn an_earthquake_model_mate_is_judged_on_the_displaced_board() {
    use common::earthquake_oracle::{Oracle, P};
    let mut seen = [0; 3];
    // Mates whose king's field is not the named squares around it (the seam, the void).
    let mut seam_fields = 0;
    let boards: [&[&str]; 2] = [&["--earthquake", "1 0"], &["--earthquake", "0 -1"]];
    for (i, game) in boards.iter().enumerate() {
        for p in puzzles("h#2", 20, i as u32 + 1, game)
            .into_iter()
            .chain(puzzles("#2", 12, i as u32 + 1, game))
        {
            let line = p["epd"].as_str().unwrap();
            let mut o = earthquake_diagram(line);
            for coord in main_line(line) {
                o = earthquake_move(&o, &coord);
            }
            let mated = |o: &Oracle| o.in_check() && o.legal_moves().is_empty();
            let claimed = p["qualities"]["model_mate"].as_bool();
            if !mated(&o) {
                assert_eq!(claimed, None, "{line}: the main line ends in no mate");
                seen[2] += 1;
                continue;
            }
            let king = o.king(o.white);
            let (kx, ky) = o.cell(king);
            let mating: Vec<usize> = (0..64)
                .filter(|&s| o.board[s].is_some_and(|m| m.white != o.white))
                .collect();
            let field: Vec<usize> = (-1..=1)
                .flat_map(|x| (-1..=1).map(move |y| (x, y)))
                .filter(|&d| d != (0, 0))
                .filter_map(|(x, y)| o.at((kx + x, ky + y)))
                .collect();
            let named = attacks::king_attacks(Square::new(king as u32));
            if field.len() != named.count()
                || field
                    .iter()
                    .any(|&sq| !named.contains(Square::new(sq as u32)))
            {
                seam_fields += 1;
            }
            let pure = field.iter().all(|&sq| {
                // A stand-in of the mated side on the square (and no king on the
                // king's), so that every man attacking it has a move there.
                let mut probe = o.clone();
                probe.ep = None;
                probe.board[king] = None;
                let blocked = o.board[sq].is_some_and(|m| m.white == o.white);
                probe.board[sq] = Some(P {
                    white: o.white,
                    kind: 'k',
                });
                let moves = probe.pseudo(!o.white);
                let guards = mating
                    .iter()
                    .filter(|&&from| {
                        from != sq && moves.iter().any(|&(f, t, _)| f == from && t == sq)
                    })
                    .count();
                if blocked {
                    guards == 0
                } else {
                    guards == 1
                }
            });
            let economical = mating.iter().all(|&sq| {
                let man = o.board[sq].unwrap();
                if matches!(man.kind, 'k' | 'p') {
                    return true;
                }
                let mut less = o.clone();
                less.board[sq] = None;
                !mated(&less)
            });
            let model = pure && economical;
            assert_eq!(claimed, Some(model), "{line}");
            seen[model as usize] += 1;
        }
    }
    assert!(seen[0] > 5 && seen[1] > 5, "model, not, no mate: {seen:?}");
    assert!(seam_fields > 2, "{seam_fields} fields across the seam");
}

/// Taxi's towing fee of a square (rules.md 2.1): one more than its distance from the
/// edge.
fn taxi_fee(sq: Square) -> u32 {
    let (f, r) = (u32::from(sq.file()), u32::from(sq.rank()));
    1 + f.min(7 - f).min(r).min(7 - r)
}

/// Squares travelled by a man of `role` from `from` to `to` (2.1): a knight 2, any
/// other man one a square, straight or diagonal.
fn taxi_travel(role: Role, from: Square, to: Square) -> u32 {
    if role == Role::Knight {
        return 2;
    }
    let df = (i32::from(from.file()) - i32::from(to.file())).unsigned_abs();
    let dr = (i32::from(from.rank()) - i32::from(to.rank())).unsigned_abs();
    df.max(dr)
}

/// Whether `side`'s king is in check under Taxi (2.2): a man of the other side attacks
/// it and the other side, holding `their_cash` at its next turn, can pay the travel.
fn taxi_checked(board: &shakmaty::Board, side: Color, their_cash: u32) -> bool {
    let king = board.king_of(side).unwrap();
    board
        .attacks_to(king, !side, board.occupied())
        .into_iter()
        .any(|from| taxi_travel(board.role_at(from).unwrap(), from, king) <= their_cash)
}

/// The squares `side`'s king can step to under Taxi (2.1-2.3), holding `cash`, the
/// other side holding `their_cash` at its next turn: a step it can pay (one, and the
/// fee of a man it takes) after which it is not in check.
fn taxi_king_steps(board: &shakmaty::Board, side: Color, cash: u32, their_cash: u32) -> Bitboard {
    let king = board.king_of(side).unwrap();
    attacks::king_attacks(king)
        .into_iter()
        .filter(|&sq| {
            if board.by_color(side).contains(sq) || board.king_of(!side) == Some(sq) {
                return false;
            }
            let fee = if board.occupied().contains(sq) {
                taxi_fee(sq)
            } else {
                0
            };
            if 1 + fee > cash {
                return false;
            }
            let mut after = board.clone();
            let man = after.remove_piece_at(king).unwrap();
            after.set_piece_at(sq, man);
            !taxi_checked(&after, side, their_cash)
        })
        .fold(Bitboard::EMPTY, |b, sq| b | sq)
}

/// Under Taxi a key is quiet exactly when, read on the board by the prices of rules.md
/// 2, it captures nothing, leaves the defender in no affordable attack (White's cash
/// after the key and its income), and leaves the defender's king every square it could
/// step to with the turn passed: then it holds its cash without its income, and White
/// its cash and income at its next turn. A model mate is not decided under Taxi.
#[test]
fn a_taxi_quiet_key_is_judged_by_the_prices() {
    let mut seen = [0; 2];
    // Keys whose check or flights differ from FIDE's on the same board.
    let mut prices_decide = 0;
    // Money enough for everything, and little: Black broke in the diagram (its king
    // has no step with the turn passed, one after the key), White short of its checks.
    let games: [&[&str]; 6] = [
        &["--taxi", "3 3"],
        &["--taxi", "20 20"],
        &["--taxi", "9 0", "--taxi-income", "1"],
        &["--taxi", "3 1", "--taxi-income", "1"],
        &["--taxi", "1 5", "--taxi-income", "1"],
        &["--taxi", "3 9", "--taxi-income", "0"],
    ];
    for (i, game) in games.iter().enumerate() {
        let mut asked = game.to_vec();
        asked.extend(["--theme", "quiet-key"]);
        for p in puzzles("#2", 20, i as u32 + 1, game)
            .into_iter()
            .chain(puzzles("#2", 3, 1, &asked))
        {
            let line = p["epd"].as_str().unwrap();
            assert_eq!(p["qualities"]["model_mate"], Value::Null, "{line}");
            let read = common::problem(line);
            let white = read.position.cash(fairysolve::Color::White);
            let black = read.position.cash(fairysolve::Color::Black);
            let income = read.game.rules().taxi.as_ref().unwrap().income;
            let board = board_of(line.split(' ').next().unwrap());
            let key: UciMove = p["key"].as_str().unwrap().parse().unwrap();
            let UciMove::Normal {
                from,
                to,
                promotion,
            } = key
            else {
                panic!("{line}: key {key}");
            };
            let captured = board.occupied().contains(to);
            let role = board.role_at(from).unwrap();
            let price = taxi_travel(role, from, to)
                + if captured { taxi_fee(to) } else { 0 }
                + if promotion.is_some() { 2 } else { 0 };
            let mut after = board.clone();
            let man = after.remove_piece_at(from).unwrap();
            after.set_piece_at(to, promotion.map_or(man, |r| r.of(Color::White)));
            let white_next = white - price + income;
            let before = taxi_king_steps(&board, Color::Black, black, white + income);
            let left = taxi_king_steps(&after, Color::Black, black + income, white_next);
            let taken = before & !left;
            let check = taxi_checked(&after, Color::Black, white_next);
            let fide_taken = king_steps(&board, Color::Black) & !king_steps(&after, Color::Black);
            let black_king = after.king_of(Color::Black).unwrap();
            let fide_check = after
                .attacks_to(black_king, Color::White, after.occupied())
                .any();
            if check != fide_check || taken != fide_taken {
                prices_decide += 1;
            }
            let quiet = assert_key_judged(&p, captured, check, &names(taken));
            seen[quiet as usize] += 1;
        }
    }
    assert!(seen[0] > 5 && seen[1] > 5, "quiet and not: {seen:?}");
    assert!(prices_decide > 5, "the prices decided {prices_decide} keys");
}
