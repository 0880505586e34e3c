//! Proof games (rules.md 9) checked against the rules read literally.
//!
//! The reference here plays every legal move: for a diagram reached by a random game of
//! up to 4.0 moves (8 half-moves), it counts every game of each length from the array
//! that reaches the diagram, leaving a position only by a rule a reader checks at a
//! glance (each square where the diagram has a man of one side and the position
//! another needs a move of that side landing there, one per move, two for the one
//! castling). The solver's games must be exactly those: as many, each a legal game
//! that ends in the diagram, none twice; and for `spg` the shortest length and its
//! games. Every board: FIDE, Trapdoor 1 and 2 (both orders), Taxi (little cash and
//! plenty), Earthquake boards, aftershocks, and a combination; diagrams with the cash
//! or the timers stated or left open, castling rights kept or dropped.

mod common;

use common::Rng;
use fairysolve::bitboard::Bitboard;
use fairysolve::epd::Operand;
use fairysolve::game::AnyGame;
use fairysolve::moves::Move;
use fairysolve::position::Position;
use fairysolve::problem::Problem;
use fairysolve::proof::{self, Diagram, ProofLimits, ProofOutcome};
use fairysolve::types::Color;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

/// The boards: a name, the line's operations (the cash of `taxi` is the start's), and
/// whether cash is kept.
const BOARDS: &[(&str, &str)] = &[
    ("FIDE", ""),
    ("Trapdoor 1", "trapdoor 1;"),
    ("Trapdoor 2", "trapdoor 2;"),
    (
        "Trapdoor 1 falls first",
        "trapdoor 1; trapdoor_order falls-first;",
    ),
    ("Taxi", "taxi \"18 16\";"),
    (
        "Taxi, start 3, income 1",
        "taxi \"4 3\"; taxi_start 3; taxi_income 1;",
    ),
    ("Earthquake (1,0)", "earthquake \"1 0\";"),
    ("Earthquake (-2,-1) fly", "earthquake \"-2 -1\"; void fly;"),
    ("Earthquake (3,1)", "earthquake \"3 1\";"),
    ("aftershocks", "earthquake \"0 0\"; aftershock \"1 1\";"),
    (
        "Earthquake (1,0), Trapdoor 2, Taxi",
        "earthquake \"1 0\"; trapdoor 2; taxi \"18 16\";",
    ),
];

const ARRAY: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

/// The array on a board, read as a line (the start of every proof game, rules.md 9.2).
fn start_of(ops: &str) -> Problem {
    common::problem(&format!("{ARRAY} {ops}"))
}

/// What a game must end in, read from the diagram as rules.md 9.3 says.
struct Goal {
    position: Position,
    cash: [bool; 2],
    timers: bool,
    /// The line's counters are the start's; the displacement the game's at the end.
    aftershocks: bool,
}

impl Goal {
    fn reached(&self, game: &AnyGame, after: &Position) -> bool {
        let d = &self.position;
        after.board() == d.board()
            && after.turn() == d.turn()
            && (d.castling() - after.castling()).is_empty()
            && (d.ep_square().is_none() || after.ep_square() == d.ep_square())
            && (game.rules().taxi.is_none()
                || Color::ALL
                    .iter()
                    .all(|&c| !self.cash[c.index()] || after.cash(c) == d.cash(c)))
            && (game.rules().trapdoor.is_none() || !self.timers || after.timers() == d.timers())
            && (if self.aftershocks {
                after.quake().dx == d.quake().dx
            } else {
                after.quake() == d.quake()
            })
    }

    /// Whether a side surely cannot reach the goal's men in the moves it has left: each
    /// square with a man of that side in the goal and another thing in `pos` needs a move
    /// of that side landing there.
    fn beyond(&self, pos: &Position, plies: u32) -> bool {
        let left = |c: Color| {
            if pos.turn() == c {
                plies.div_ceil(2)
            } else {
                plies / 2
            }
        };
        Color::ALL.iter().any(|&c| {
            let goal = self.position.board();
            let differ = goal
                .by_color(c)
                .into_iter()
                .filter(|&sq| pos.board().piece_at(sq) != goal.piece_at(sq))
                .count() as u32;
            let castle = (pos.castling() & Bitboard::rank(c.fold(0, 7))).is_nonempty() as u32;
            pos.board().by_color(c).count() < goal.by_color(c).count() || differ > left(c) + castle
        })
    }
}

/// Positions the reference may play through for one diagram: beyond it the diagram is
/// set aside for another (Trapdoor games whose early men all fell can take millions).
const REFERENCE_BUDGET: u64 = 1_500_000;

/// The games of exactly `plies` half-moves from `pos` that reach the goal, every legal
/// move played (a game that ends before its last move is none); `None` when the
/// budget ran out.
fn count(
    game: &AnyGame,
    goal: &Goal,
    pos: &Position,
    plies: u32,
    memo: &mut HashMap<(u64, u32), u64>,
    budget: &mut u64,
) -> Option<u64> {
    if plies == 0 {
        return Some(goal.reached(game, pos) as u64);
    }
    if goal.beyond(pos, plies) {
        return Some(0);
    }
    if let Some(&n) = memo.get(&(pos.hash(), plies)) {
        return Some(n);
    }
    *budget = budget.checked_sub(1)?;
    let mut n = 0;
    for &mv in game.legal_moves(pos).iter() {
        let played = game.play(pos, mv);
        if plies == 1 {
            n += goal.reached(game, &played.position) as u64;
        } else if played.outcome.is_none() {
            n += count(game, goal, &played.position, plies - 1, memo, budget)?;
        }
    }
    memo.insert((pos.hash(), plies), n);
    Some(n)
}

/// Plays `moves` from `start`: each legal, no game ended before the last, ending in
/// the goal.
fn replays(game: &AnyGame, goal: &Goal, start: &Position, moves: &[Move]) -> bool {
    let mut pos = *start;
    for (i, &mv) in moves.iter().enumerate() {
        if !game.legal_moves(&pos).as_slice().contains(&mv) {
            return false;
        }
        let played = game.play(&pos, mv);
        if played.outcome.is_some() && i + 1 < moves.len() {
            return false;
        }
        pos = played.position;
    }
    goal.reached(game, &pos)
}

fn solve(p: &Problem, plies: u32, shortest: bool) -> ProofOutcome {
    let stop = AtomicBool::new(false);
    let limits = ProofLimits {
        stop: &stop,
        deadline: None,
        max_games: None,
        max_nodes: None,
        table_mb: 4,
    };
    let diagram = Diagram::new(p.position, p.stated, p.game.has_aftershocks());
    fairysolve::with_game!(&p.game, g => proof::solve(g, &diagram, plies, shortest, &limits, |_, _| {}))
        .expect("the array stands on these boards")
}

/// The diagram line of `pos`, reached on `board` (its operations `ops`): the cash and
/// the timers stated or left open at random, castling rights dropped at random, and on
/// an aftershock board the start's board and allowance (RULES.md).
fn diagram_line(start: &Problem, ops: &str, pos: &Position, plies: u32, rng: &mut Rng) -> String {
    let fen = fairysolve::fen::write_fen(pos);
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let rights: String = if rng.below(3) == 0 {
        "-".into()
    } else {
        fields[2].chars().filter(|_| rng.below(4) != 0).collect()
    };
    let rights = if rights.is_empty() {
        "-".into()
    } else {
        rights
    };
    let ep = if rng.below(4) == 0 { "-" } else { fields[3] };
    let cash = if ops.contains("taxi ") {
        [rng.below(3) != 0, rng.below(3) != 0]
    } else {
        [true; 2]
    };
    let timers = start.game.rules().trapdoor.is_some() && rng.below(2) == 0;
    let fen = format!("{} {} {rights} {ep}", fields[0], fields[1]);
    with_state(&fen, ops, pos, plies, cash, timers)
}

/// The line of the FEN fields `fen`: the stipulation `pg` of `plies` half-moves, the
/// board's operations `ops` with the cash of `pos` where `cash` says it is stated (else
/// `-`), and the timers of `pos` when `timers`.
fn with_state(
    fen: &str,
    ops: &str,
    pos: &Position,
    plies: u32,
    cash: [bool; 2],
    timers: bool,
) -> String {
    let mut line = format!(
        "{fen} stip \"pg {}.{}\";",
        plies / 2,
        if plies % 2 == 1 { 5 } else { 0 }
    );
    for op in ops.split(';').map(str::trim).filter(|o| !o.is_empty()) {
        if op.starts_with("taxi ") {
            let amount = |c: Color| {
                if cash[c.index()] {
                    pos.cash(c).to_string()
                } else {
                    "-".to_string()
                }
            };
            line.push_str(&format!(
                " taxi \"{} {}\";",
                amount(Color::White),
                amount(Color::Black)
            ));
        } else {
            line.push_str(&format!(" {op};"));
        }
    }
    if timers {
        let timers: Vec<String> = pos
            .timers()
            .ticking()
            .map(|sq| format!("{sq}:{}", pos.timers().left(sq)))
            .collect();
        line.push_str(&format!(" timers \"{}\";", timers.join(" ")));
    }
    line
}

/// A random game of `plies` half-moves from `start` (`None` if it ended before).
fn random_game(start: &Problem, plies: u32, rng: &mut Rng) -> Option<Position> {
    let mut pos = start.position;
    for _ in 0..plies {
        let moves = start.game.legal_moves(&pos);
        if moves.is_empty() {
            return None;
        }
        let played = start
            .game
            .play(&pos, moves.as_slice()[rng.below(moves.len())]);
        if played.outcome.is_some() {
            return None;
        }
        pos = played.position;
    }
    Some(pos)
}

/// One diagram of `board` checked: `pg` and `spg` against the reference; false when
/// the reference's budget ran out (nothing checked).
fn check(name: &str, start: &Problem, line: &str, plies: u32) -> bool {
    let p = common::problem(line);
    let goal = Goal {
        position: p.position,
        cash: p.stated.cash,
        timers: p.stated.timers,
        aftershocks: p.game.has_aftershocks(),
    };
    let game = &p.game;
    let mut memo = HashMap::new();
    let mut budget = REFERENCE_BUDGET;
    let Some(reference) = (0..=plies)
        .map(|l| {
            if l % 2 == plies % 2 {
                count(game, &goal, &start.position, l, &mut memo, &mut budget)
            } else {
                Some(0)
            }
        })
        .collect::<Option<Vec<u64>>>()
    else {
        return false;
    };
    let pg = solve(&p, plies, false);
    assert!(pg.complete, "{name}: {line}: incomplete");
    assert_eq!(
        pg.games.len() as u64,
        reference[plies as usize],
        "{name}: {line}: the games of the stipulated length"
    );
    let mut seen = std::collections::HashSet::new();
    for g in &pg.games {
        assert!(
            seen.insert(g.clone()),
            "{name}: {line}: a game twice: {g:?}"
        );
        assert!(
            replays(game, &goal, &start.position, g),
            "{name}: {line}: not a proof game: {g:?}"
        );
    }
    let spg = solve(&p, plies, true);
    let shorter = (0..plies).find(|&l| reference[l as usize] > 0);
    assert_eq!(
        spg.cook_plies, shorter,
        "{name}: {line}: the shortest length"
    );
    match shorter {
        Some(l) => {
            assert_eq!(
                spg.cooks.len() as u64,
                reference[l as usize],
                "{name}: {line}: the cooks"
            );
            for g in &spg.cooks {
                assert!(
                    replays(game, &goal, &start.position, g),
                    "{name}: {line}: {g:?}"
                );
            }
            assert_eq!(spg.shortest, Some(l), "{name}: {line}");
        }
        None => assert_eq!(
            spg.shortest,
            (reference[plies as usize] > 0).then_some(plies),
            "{name}: {line}"
        ),
    }
    assert_eq!(spg.games.len(), pg.games.len(), "{name}: {line}");
    // The bound's least length is a true lower bound.
    if let (Some(least), Some(s)) = (pg.least_plies, spg.shortest) {
        assert!(
            least <= s,
            "{name}: {line}: bound {least} above a real game of {s}"
        );
    }
    true
}

/// rules.md 9.1-9.4: random games of up to 4.0 moves on the boards without trapdoors;
/// each diagram's proof games of its length, and the shorter ones, as the reference
/// counts them.
#[test]
fn proof_games_agree_with_every_move_played() {
    random_diagrams(|p| p.game.rules().trapdoor.is_none(), 24);
}

/// The same on the Trapdoor boards. The men that moved early fall there, so the
/// reference, which knows nothing of that, plays out far more games (a second or two
/// for a diagram of 4.0 moves): fewer diagrams.
#[test]
fn trapdoor_proof_games_agree_with_every_move_played() {
    random_diagrams(|p| p.game.rules().trapdoor.is_some(), 6);
}

/// `wanted` diagrams of each board `which` selects, two of them after 4.0 moves, from
/// random games, checked against the reference.
fn random_diagrams(which: impl Fn(&Problem) -> bool, wanted: usize) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for &(name, ops) in BOARDS {
        let start = start_of(ops);
        if !which(&start) {
            continue;
        }
        let (mut checked, mut long) = (0, 0);
        let mut tries = 0;
        while checked < wanted && tries < 200 {
            tries += 1;
            let plies = if long < 2 {
                8
            } else {
                [1, 2, 3, 4, 5, 6, 7, 8][rng.below(8)]
            };
            let Some(pos) = random_game(&start, plies, &mut rng) else {
                continue;
            };
            let line = diagram_line(&start, ops, &pos, plies, &mut rng);
            if check(name, &start, &line, plies) {
                checked += 1;
                long += (plies == 8) as usize;
            }
        }
        assert_eq!(checked, wanted, "{name}: too few diagrams checked");
        assert!(long >= 2, "{name}: no diagram of 4.0 moves checked");
    }
}

/// Every position after up to 1.5 moves of each board (a sample of those after three
/// half-moves), each read as a diagram with everything stated: the solver's games are
/// the games the reference counts.
#[test]
fn every_short_game_is_found() {
    for &(name, ops) in BOARDS {
        let start = start_of(ops);
        // Where every game of up to three half-moves ends.
        let mut ends: HashMap<u64, (Position, u32)> = HashMap::new();
        let mut frontier = vec![start.position];
        for plies in 1..=3u32 {
            let mut next = Vec::new();
            for pos in &frontier {
                for &mv in start.game.legal_moves(pos).iter() {
                    let played = start.game.play(pos, mv);
                    ends.entry(played.position.hash() ^ plies as u64)
                        .or_insert((played.position, plies));
                    if played.outcome.is_none() {
                        next.push(played.position);
                    }
                }
            }
            frontier = next;
        }
        let mut rng = Rng(7);
        let mut checked = 0;
        let mut ends: Vec<_> = ends.into_values().collect();
        ends.sort_by_key(|(p, n)| (p.hash(), *n));
        for (pos, plies) in &ends {
            // Every position of the first two half-moves, one in eight after.
            if *plies == 3 && rng.below(8) != 0 {
                continue;
            }
            let line = exact_line(&start, ops, pos, *plies);
            assert!(
                check(name, &start, &line, *plies),
                "{name}: {line}: beyond the budget"
            );
            checked += 1;
        }
        assert!(checked > 20, "{name}: {checked}");
    }
}

/// The diagram line of `pos` with everything stated.
fn exact_line(start: &Problem, ops: &str, pos: &Position, plies: u32) -> String {
    let fen = fairysolve::fen::write_fen(pos);
    with_state(
        &fen,
        ops,
        pos,
        plies,
        [true; 2],
        start.game.rules().trapdoor.is_some(),
    )
}

/// The array and the operations of a diagram line's board (rules.md 9.2): its cash the
/// start's, no timers, the line's allowance of aftershocks.
fn start_ops_of(line: &str) -> String {
    let rec = match fairysolve::epd::parse_line(line, 1) {
        Ok(fairysolve::epd::Line::Position(r)) => r,
        other => panic!("{line}: {other:?}"),
    };
    let number = |name: &str, default: u32| {
        rec.get(name)
            .and_then(|o| o.single())
            .map_or(default, |v| v.parse().expect("a number"))
    };
    let (start, income) = (number("taxi_start", 16), number("taxi_income", 2));
    let mut ops = String::new();
    for op in &rec.operations {
        let operands: Vec<String> = op
            .operands
            .iter()
            .map(|o| match o {
                Operand::Word(w) => w.clone(),
                Operand::Quoted(q) => format!("\"{q}\""),
            })
            .collect();
        match op.opcode.as_str() {
            "stip" | "id" | "c0" | "pv" | "timers" => {}
            "taxi" => ops.push_str(&format!("taxi \"{} {start}\"; ", start + income)),
            name => ops.push_str(&format!("{name} {}; ", operands.join(" "))),
        }
    }
    ops.trim().to_string()
}

/// Each line's solutions as `solve` prints them, and its summary.
fn solved_text(line: &str, extra: &[&str]) -> (Vec<String>, String) {
    let mut args = vec!["solve", "--fen", line];
    args.extend_from_slice(extra);
    let out = common::run(&args);
    let text = common::text(&out.stdout);
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let summary = lines.last().cloned().unwrap_or_default();
    (lines[1..lines.len().saturating_sub(1)].to_vec(), summary)
}

/// rules.md 9.1: the published proof games of positions/proofgames/published.epd have
/// exactly their published solutions (the c0 of each line, two joined by "and"), and
/// for `spg` no shorter game; Orban's `pg 4.0` has its four shorter games apart.
#[test]
fn published_proof_games_have_their_published_solutions() {
    let records = common::records("positions/proofgames/published.epd");
    assert_eq!(records.len(), 12);
    for rec in records {
        let line = fairysolve::epd::write_record(&rec);
        let published: Vec<String> = rec
            .get("c0")
            .and_then(|o| o.single())
            .expect("c0")
            .split(" and ")
            .map(str::to_string)
            .collect();
        let (games, summary) = solved_text(&line, &[]);
        let games: Vec<String> = games
            .into_iter()
            .filter(|g| !g.starts_with("shorter"))
            .collect();
        let mut sorted = games.clone();
        sorted.sort();
        let mut expected = published.clone();
        expected.sort();
        // `solve` marks the mates and checks Popeye's notation leaves as `+`.
        let plain = |g: &String| g.replace('#', "+");
        assert_eq!(
            sorted.iter().map(plain).collect::<Vec<_>>(),
            expected.iter().map(plain).collect::<Vec<_>>(),
            "{line}"
        );
        let n = published.len();
        let stip = rec.get("stip").and_then(|o| o.single()).unwrap_or("");
        // A pg line is not searched below its length: only the bound's least is told.
        let tail = if stip.starts_with("spg") {
            "· no shorter game ·"
        } else {
            "· no game shorter than 2.0 moves ·"
        };
        assert!(
            summary.starts_with(&format!(
                "{n} solution{} {tail}",
                if n == 1 { "" } else { "s" }
            )),
            "{line}: {summary}"
        );
    }
}

/// The variant collection: each line has exactly its one game (pv) and no shorter one,
/// and the reference that plays every move counts that one game too.
#[test]
fn variant_proof_games_are_unique() {
    let records = common::records("positions/proofgames/variants.epd");
    assert_eq!(records.len(), 12);
    for rec in records {
        let line = fairysolve::epd::write_record(&rec);
        let out = common::run(&["solve", "--json", "--fen", &line]);
        let v = common::json(&out);
        let pv: Vec<String> = rec
            .get("pv")
            .map(|o| o.operands.iter().map(|x| x.text().to_string()).collect())
            .expect("pv");
        assert_eq!(v["solutions"], serde_json::json!([pv]), "{line}");
        assert_eq!(v["cooks"], serde_json::json!([]), "{line}");
        let p = common::problem(&line);
        let plies = p.stipulation.expect("stip").plies();
        assert_eq!(
            v["shortest"],
            serde_json::json!(plies as f64 / 2.0),
            "{line}"
        );
        let start = start_of(&start_ops_of(&line));
        assert!(
            check("variant collection", &start, &line, plies),
            "{line}: beyond the budget"
        );
    }
}

/// formats.md 2: the text and JSON of a proof game, and the limits.
#[test]
fn proof_game_reports_and_limits() {
    let schweig = "r1bqkbnr/ppp2ppp/3p4/8/8/8/PPPPPPPP/R1BQKBNR w - - stip \"spg 4.0\";";
    let out = common::run(&["solve", "--fen", schweig]);
    let text = common::text(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "--fen: spg 4.0 orthodox (White to move in the diagram)"
    );
    assert_eq!(lines[1], "1.Nc3 d6 2.Nd5 Nd7 3.Nxe7 Ndf6 4.Nxg8 Nxg8");
    assert!(
        lines[2].starts_with("1 solution · no shorter game · "),
        "{text}"
    );
    let v = common::json(&common::run(&["solve", "--json", "--fen", schweig]));
    assert_eq!(v["status"], "solved");
    assert_eq!(v["stip"], "spg 4.0");
    assert_eq!(v["shortest"], serde_json::json!(4.0));
    assert_eq!(v["cooked"], false);
    assert_eq!(v["complete"], true);
    assert_eq!(
        v["solutions"],
        serde_json::json!([["b1c3", "d7d6", "c3d5", "b8d7", "d5e7", "d7f6", "e7g8", "f6g8"]])
    );

    // Orban: four games in 3.0 moves are the cooks of an spg 4.0.
    let orban = "rnbqkbnr/pp3ppp/2p1p3/8/4P3/8/PPPP1PPP/RNBQK1NR w - - stip \"spg 4.0\";";
    let v = common::json(&common::run(&["solve", "--json", "--fen", orban]));
    assert_eq!(v["cook_length"], serde_json::json!(3.0));
    assert_eq!(v["cooks"].as_array().map(Vec::len), Some(4));
    assert_eq!(v["solutions"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["shortest"], serde_json::json!(3.0));
    assert_eq!(v["cooked"], true);

    // The array with timers stated is no game of no moves: both knights went out and
    // came back (rules.md 9.3, the timers compared at every length, none included).
    let knights = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - trapdoor 2; timers \"g1:2 g8:2\"; stip \"spg 2.0\";";
    let v = common::json(&common::run(&["solve", "--json", "--fen", knights]));
    assert_eq!(v["cooks"], serde_json::json!([]));
    assert_eq!(v["solutions"].as_array().map(Vec::len), Some(4));
    assert_eq!(v["shortest"], serde_json::json!(2.0));

    // --max-solutions stops after that many games, and says so.
    let gruber = "rnbqkbnr/ppppp1pp/5p2/7Q/4PP1K/7B/PPPP2PP/RNB3NR b - - stip \"pg 8.5\";";
    let (games, _) = solved_text(gruber, &["--max-solutions", "1"]);
    assert_eq!(games.len(), 2, "{games:?}");
    assert_eq!(
        games[1],
        "stopped after 1 game (--max-solutions): there may be more"
    );
    let v = common::json(&common::run(&[
        "solve",
        "--json",
        "--max-solutions",
        "1",
        "--fen",
        gruber,
    ]));
    assert_eq!(v["status"], "stopped");
    assert_eq!(v["max_solutions_reached"], true);

    // A time limit stops the search with what it found, and says how far it got.
    let wilts = "8/5k2/8/8/8/8/3K4/6Nb b - - stip \"pg 15.5\";";
    let out = common::run(&["solve", "--time-limit", "0.05", "--fen", wilts]);
    let text = common::text(&out.stdout);
    assert!(
        text.contains("stopped before the search was complete (time limit): ")
            && text.contains(" first moves of the games of 15.5 moves searched"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(1));
}

/// rules.md 9.3-9.5 and formats.md 1: what cannot be a proof game says why, where.
#[test]
fn proof_game_refusals_name_their_fault() {
    let cases = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - stip \"pg 2.0\";",
            "--fen: line 1, column 54: pg 2.0 ends with White to move, but the diagram has Black to move",
        ),
        (
            "8/8/8/8/8/8/8/4K2k w - - stip \"pg 1.0\"; underworld \"4k3/8/8/8/8/8/8/4K3\";",
            "--fen: line 1, column 26: pg 1.0: proof games are played on the single-board games; Underworld and Looking-Glass have none (rules.md 9.5)",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - stip \"pg 1.0\"; earthquake \"0 3\";",
            "--fen: line 1, column 42: pg 1.0: the array's a7 does not exist on this board: no game starts here",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - stip \"#2\"; taxi \"- -\";",
            "--fen: line 1, column 65: taxi: '-' (cash not stated) is for a proof game's diagram; this line needs both amounts",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - stip \"pg 1.3\";",
            "--fen: line 1, column 54: stip: 'pg 1.3' is not pg N or spg N with N in moves (9, 9.0 or 8.5) from 0.5 to 30.0",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - stip \"pg 2.0\"; options \"set-play\";",
            "--fen: line 1, column 69: options: set-play applies to #N and s#N with N >= 2, not to pg 2.0",
        ),
    ];
    for (line, message) in cases {
        let out = common::run(&["solve", "--fen", line]);
        assert_eq!(common::text(&out.stderr).trim_end(), message, "{line}");
        assert_eq!(out.status.code(), Some(1), "{line}");
    }
    // Diagrams no game reaches, with the reason where the bound knows it.
    for (line, why) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/4P3/PPP1PPPP/RNBQKBNR b KQkq - stip \"pg 3.5\";",
            "no solution: White's pawns need 1 capture to stand where they do, but Black has lost only 0 men",
        ),
        (
            "rnbqkbnr/pppppppp/7B/8/8/3P4/PPP1PPPP/RN1QKBNR w KQkq - stip \"pg 1.0\";",
            "no solution: White needs at least 2 moves to reach the diagram, and has 1",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - stip \"pg 3.0\";",
            "no solution: White needs at least 15 moves to reach the diagram, and has 3",
        ),
    ] {
        let out = common::run(&["solve", "--fen", line]);
        let text = common::text(&out.stdout);
        assert_eq!(text.lines().nth(1), Some(why), "{line}");
    }
}

/// formats.md 3: proof-game puzzles, each the only game of its length and none shorter.
#[test]
fn generated_proof_games_are_unique() {
    for board in [
        &[][..],
        &["--trapdoor", "1"][..],
        &["--earthquake", "1 0"][..],
    ] {
        let mut args = vec![
            "generate", "--stip", "spg 2.5", "--count", "2", "--seed", "3",
        ];
        args.extend_from_slice(board);
        let out = common::run(&args);
        let text = common::text(&out.stdout);
        assert_eq!(text.lines().count(), 2, "{board:?}: {text}");
        for line in text.lines() {
            let v = common::json(&common::run(&["solve", "--json", "--fen", line]));
            assert_eq!(v["solutions"].as_array().map(Vec::len), Some(1), "{line}");
            assert_eq!(v["cooks"], serde_json::json!([]), "{line}");
            let pv = line
                .split(" pv ")
                .nth(1)
                .unwrap_or("")
                .trim_end_matches(';');
            let game: Vec<&str> = pv.split_whitespace().collect();
            assert_eq!(v["solutions"][0], serde_json::json!(game), "{line}");
        }
    }
}

/// rules.md 6 with 9: on a proof-game line `retro` adds what the games prove of the
/// history. The generic analysis cannot tell the last move here; the one game can: the
/// pawn that went to b3 moved last, and it and the bishop on f4 tick.
#[test]
fn retro_uses_what_the_proof_game_proves() {
    let line =
        "rnbqk1nr/pppppp1p/8/8/5b2/1P6/P1PPPP1P/RNBQKBNR b KQkq - trapdoor 1; stip \"spg 3.5\";";
    let out = common::run(&["retro", "--fen", line]);
    let text = common::text(&out.stdout);
    let tail: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("spg 3.5:"))
        .collect();
    assert_eq!(
        tail,
        [
            "  spg 3.5: 1 game; last move b2b3",
            "  ticking in every game: b3 r=1",
            "  ticking in every game: f4 r=1",
        ],
        "{text}"
    );
    let v = common::json(&common::run(&["retro", "--json", "--fen", line]));
    assert_eq!(v["proof_game"]["games"], 1);
    assert_eq!(v["proof_game"]["last_moves"], serde_json::json!(["b2b3"]));
    assert_eq!(
        v["proof_game"]["ticking"],
        serde_json::json!([{"square": "b3", "r": [1]}, {"square": "f4", "r": [1]}])
    );
}
