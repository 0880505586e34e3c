//! A problem: what a position line means. Turns a `Record`'s operations into the game's
//! rules, the position's variant state and the stipulation, with the checks of
//! rules.md 7.2. Operations whose rules are not built yet are kept on the record and
//! refused here by name, never ignored.

use crate::epd::{LineError, Operation, Record};
use crate::game::{AnyGame, Game, Rules};
use crate::geometry::{Earthquake, Geometry, Shifting, Standard, VoidRule};
use crate::position::{Position, Quake};
use crate::setup;
use crate::taxi::Taxi;
use crate::trapdoor::{FallOrder, Trapdoor};
use crate::types::Color;
use crate::types::Square;

/// What a stipulation asks (rules.md 8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Aim {
    /// `#N`: the attacker (side to move) wins within N moves.
    Direct,
    /// `h#N` / `h#N.5`: both sides cooperate so that White mates (8.2).
    Help,
    /// `s#N`: White forces Black to mate White (8.3).
    Selfmate,
    /// `pg N`: every game of exactly N moves from the array that reaches the diagram
    /// (rules.md 9).
    ProofGame,
    /// `spg N`: the same, and no shorter game may reach it (shorter ones are cooks).
    ShortestProofGame,
}

impl Aim {
    /// Whether the stipulation asks how the game went (rules.md 9), not for a mate.
    pub fn is_proof_game(self) -> bool {
        matches!(self, Aim::ProofGame | Aim::ShortestProofGame)
    }
}

/// What is to be shown: the aim and the number of moves (`half`: the `.5` of `h#N.5`,
/// White's extra first move; of `pg N.5`, White's move after Black's N-th).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Stipulation {
    pub aim: Aim,
    pub moves: u32,
    pub half: bool,
}

impl std::fmt::Display for Stipulation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let prefix = match self.aim {
            Aim::Direct => "",
            Aim::Help => "h",
            Aim::Selfmate => "s",
            Aim::ProofGame => return write!(f, "pg {}.{}", self.moves, 5 * self.half as u8),
            Aim::ShortestProofGame => {
                return write!(f, "spg {}.{}", self.moves, 5 * self.half as u8)
            }
        };
        let half = if self.half { ".5" } else { "" };
        write!(f, "{prefix}#{}{half}", self.moves)
    }
}

/// Longest stipulation accepted; deeper searches are beyond any time limit anyway.
pub const MAX_MOVES: u32 = 30;

impl Stipulation {
    /// `#N` (mate in N).
    pub fn direct(moves: u32) -> Stipulation {
        Stipulation {
            aim: Aim::Direct,
            moves,
            half: false,
        }
    }

    /// The half-moves the stipulation spans: `h#2.5` 5, `pg 9.0` 18.
    pub fn plies(&self) -> u32 {
        2 * self.moves + self.half as u32
    }

    /// Reads `#N`, `h#N`, `h#N.5` or `s#N` (N in 1..=30; `h#0.5` too), or a proof game
    /// `pg N` / `spg N` (N in moves: `9`, `9.0` or `8.5`, from 0.5 to 30.0).
    pub fn parse(s: &str) -> Option<Stipulation> {
        let s = s.trim();
        if let Some(stip) = Stipulation::parse_proof_game(s) {
            return stip;
        }
        let (aim, rest) = if let Some(r) = s.strip_prefix("h#") {
            (Aim::Help, r)
        } else if let Some(r) = s.strip_prefix("s#") {
            (Aim::Selfmate, r)
        } else {
            (Aim::Direct, s.strip_prefix('#')?)
        };
        let (number, half) = match rest.strip_suffix(".5") {
            Some(n) if aim == Aim::Help => (n, true),
            _ => (rest, false),
        };
        let n: u32 = number.trim().parse().ok()?;
        let least = if half { 0 } else { 1 };
        (least..=MAX_MOVES).contains(&n).then_some(Stipulation {
            aim,
            moves: n,
            half,
        })
    }

    /// `pg N` / `spg N`: `Some(None)` for a proof game whose length is no length.
    fn parse_proof_game(s: &str) -> Option<Option<Stipulation>> {
        let (aim, rest) = if let Some(r) = s.strip_prefix("spg") {
            (Aim::ShortestProofGame, r)
        } else {
            (Aim::ProofGame, s.strip_prefix("pg")?)
        };
        let rest = rest.trim();
        let (whole, half) = match rest.split_once('.') {
            None => (rest, false),
            Some((w, "0")) => (w, false),
            Some((w, "5")) => (w, true),
            Some(_) => return Some(None),
        };
        let moves: u32 = match whole.parse() {
            Ok(n) if whole.bytes().all(|b| b.is_ascii_digit()) => n,
            _ => return Some(None),
        };
        let plies = 2 * moves as u64 + half as u64;
        Some(
            (1..=2 * MAX_MOVES as u64)
                .contains(&plies)
                .then_some(Stipulation { aim, moves, half }),
        )
    }
}

#[derive(Clone, Debug)]
pub struct Problem {
    pub record: Record,
    pub game: AnyGame,
    pub position: Position,
    pub stipulation: Option<Stipulation>,
    /// What the line states of the variant state (a proof game's diagram may leave the
    /// cash and the timers open, rules.md 9.3).
    pub stated: Stated,
}

/// Which parts of a position's variant state its line gives. Every line gives them all
/// but a proof game's: there `taxi "- -"` leaves the cash open (either amount may be
/// `-`) and a line without `timers` leaves the timers open.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Stated {
    /// Each side's cash, White and Black.
    pub cash: [bool; 2],
    pub timers: bool,
}

impl Default for Stated {
    fn default() -> Stated {
        Stated {
            cash: [true; 2],
            timers: true,
        }
    }
}

impl Problem {
    pub fn id(&self) -> Option<&str> {
        self.record.id()
    }
}

pub use crate::epd::{GLASS_OPS, SINGLE_BOARD_OPS, UNDERWORLD_OPS};

/// The first operation of `rec` that belongs to one of `games` (lists of operations):
/// a game the line's own is not played together with.
pub fn foreign_operation<'a>(rec: &'a Record, games: &[&[&str]]) -> Option<&'a Operation> {
    rec.operations
        .iter()
        .find(|o| games.iter().any(|ops| ops.contains(&o.opcode.as_str())))
}

fn at(rec: &Record, op: &Operation, message: impl Into<String>) -> LineError {
    LineError::new(rec.line, op.column, message)
}

fn number(rec: &Record, op: &Operation, what: &str) -> Result<u32, LineError> {
    op.single()
        .and_then(|s| s.parse::<u32>().ok())
        .ok_or_else(|| at(rec, op, format!("{}: {what} expected", op.opcode)))
}

/// Largest cash accepted (cash is kept in 16 bits).
pub const MAX_CASH: u32 = 30_000;

/// Largest displacement accepted in either direction: beyond it the halves no longer
/// meet and nothing new happens.
pub const MAX_DISPLACEMENT: i32 = 16;

/// Reads `earthquake "dx dy"`.
fn displacement(rec: &Record, o: &Operation) -> Result<(i32, i32), LineError> {
    let bad = || at(rec, o, "earthquake: \"dx dy\" (two whole numbers) expected");
    let text = o.single().ok_or_else(bad)?;
    let parts: Vec<&str> = text.split_whitespace().collect();
    let [dx, dy] = parts.as_slice() else {
        return Err(bad());
    };
    let (dx, dy): (i32, i32) = (
        dx.parse().map_err(|_| bad())?,
        dy.parse().map_err(|_| bad())?,
    );
    if dx.abs() > MAX_DISPLACEMENT || dy.abs() > MAX_DISPLACEMENT {
        return Err(at(
            rec,
            o,
            format!("earthquake: ({dx},{dy}) is beyond the limit of {MAX_DISPLACEMENT} in either direction"),
        ));
    }
    Ok((dx, dy))
}

/// Reads `aftershock "w b [dx]"` (uses left for White and Black, and the dx that may not
/// be restored this turn) or `aftershock K` (K uses each), on a board whose current dx is
/// `dx`.
fn aftershocks(rec: &Record, o: &Operation, dx: i32) -> Result<Quake, LineError> {
    let bad = || {
        at(
            rec,
            o,
            "aftershock: \"w b [dx]\" (uses left, and the dx not to restore) expected",
        )
    };
    let range = Shifting::MIN_DX as i32..=Shifting::MAX_DX as i32;
    if !range.contains(&dx) {
        return Err(at(
            rec,
            o,
            format!("aftershock: the lower half's dx {dx} is outside -8..=8"),
        ));
    }
    let text = o.single().ok_or_else(bad)?;
    let nums: Vec<i64> = text
        .split_whitespace()
        .map(|w| w.parse::<i64>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    let uses = |n: i64| {
        u8::try_from(n).map_err(|_| at(rec, o, format!("aftershock: {n} uses is out of range")))
    };
    let (white, black, no_return) = match nums.as_slice() {
        [k] => (uses(*k)?, uses(*k)?, None),
        [w, b] => (uses(*w)?, uses(*b)?, None),
        [w, b, d] if range.contains(&(*d as i32)) && *d as i32 != dx => (uses(*w)?, uses(*b)?, Some(*d as i8)),
        [_, _, d] => {
            return Err(at(
                rec,
                o,
                format!("aftershock: {d} cannot be the dx just left (it must be in -8..=8 and differ from {dx})"),
            ))
        }
        _ => return Err(bad()),
    };
    Ok(Quake {
        dx: dx as i8,
        shocks: [white, black],
        no_return,
    })
}

/// How much of rules.md 7.2 a reader enforces.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Checks {
    /// Every check: the position is to be played from.
    Play,
    /// Only what any analysis needs (existing squares, one king a side); the rest is
    /// for retro-analysis to report as verdicts.
    Retro,
}

impl Checks {
    /// The placement checks of this strictness on `geo`.
    fn validate<G: Geometry>(
        self,
        geo: &G,
        s: &crate::fen::Setup,
    ) -> Result<(), setup::SetupError> {
        match self {
            Checks::Play => setup::validate_board(geo, s),
            Checks::Retro => setup::validate_men(geo, s),
        }
    }
}

/// Interprets a record of a single-board game. Errors name the operation and its column.
pub fn from_record(rec: Record) -> Result<Problem, LineError> {
    read(rec, Checks::Play)
}

/// The problem of one position line, for tests; panics on a line that is not one.
#[cfg(test)]
pub(crate) fn from_line(line: &str) -> Problem {
    match crate::epd::parse_line(line, 1) {
        Ok(crate::epd::Line::Position(rec)) => from_record(*rec).expect(line),
        _ => panic!("not a position line: {line}"),
    }
}

/// Interprets a record for retro-analysis: a diagram that cannot be played from (a pawn
/// on its first rank, the side not to move in check) is still read.
pub fn from_record_for_retro(rec: Record) -> Result<Problem, LineError> {
    read(rec, Checks::Retro)
}

fn read(rec: Record, checks: Checks) -> Result<Problem, LineError> {
    let op = |name: &str| rec.get(name);

    // Modifiers that need another modifier (rules.md 7.2).
    for (dependent, base) in [
        ("timers", "trapdoor"),
        ("trapdoor_order", "trapdoor"),
        ("aftershock", "earthquake"),
        ("void", "earthquake"),
        ("taxi_income", "taxi"),
        ("taxi_start", "taxi"),
        ("phase", "underworld"),
        ("reserve", "underworld"),
        ("homes", "underworld"),
        ("u_ep", "underworld"),
        ("ep_board", "mirror"),
    ] {
        if let Some(o) = op(dependent) {
            if op(base).is_none() {
                return Err(at(
                    &rec,
                    o,
                    format!("{dependent}: only with {base} on the same line"),
                ));
            }
        }
    }
    if let Some(o) = rec.get("underworld") {
        // The two-board game has a reader of its own (`underworld::setup`).
        return Err(at(
            &rec,
            o,
            "underworld: this command does not play Underworld lines",
        ));
    }
    if let Some(o) = rec.get("mirror") {
        return Err(at(
            &rec,
            o,
            "mirror: this command does not play Looking-Glass lines",
        ));
    }

    let stipulation = stipulation_of(&rec)?;
    let proof_game = stipulation.is_some_and(|s| s.aim.is_proof_game());
    let mut stated = Stated::default();
    if proof_game {
        stated.timers = op("timers").is_some();
    }

    let mut rules = Rules::default();
    if let Some(o) = op("trapdoor") {
        let t = number(&rec, o, "a timer T (a whole number from 1)")?;
        if t == 0 || t > Trapdoor::MAX_TIMER as u32 {
            return Err(at(
                &rec,
                o,
                format!("trapdoor: timer {t} is outside 1..={}", Trapdoor::MAX_TIMER),
            ));
        }
        let order = match op("trapdoor_order") {
            None => FallOrder::MateFirst,
            Some(o) => o.single().and_then(FallOrder::parse).ok_or_else(|| {
                at(
                    &rec,
                    o,
                    "trapdoor_order: 'mate-first' or 'falls-first' expected",
                )
            })?,
        };
        rules.trapdoor = Some(Trapdoor {
            timer: t as u8,
            order,
        });
    }

    let mut cash = None;
    if let Some(o) = op("taxi") {
        let bad = || {
            at(
                &rec,
                o,
                "taxi: \"W B\" (cash in hand of White and Black) expected",
            )
        };
        let text = o.single().ok_or_else(bad)?;
        // Each amount named in the message when it is no cash: below zero, too large,
        // or not a number at all.
        let amount = |word: &str| -> Result<Option<u32>, LineError> {
            if let Ok(n) = word.parse::<u32>() {
                return Ok(Some(n));
            }
            if word == "-" {
                return if proof_game {
                    Ok(None)
                } else {
                    Err(at(
                        &rec,
                        o,
                        "taxi: '-' (cash not stated) is for a proof game's diagram; this line needs both amounts",
                    ))
                };
            }
            let digits = word.strip_prefix('-').unwrap_or(word);
            let message = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                if word.starts_with('-') {
                    format!("taxi: cash {word} is below 0; a side holds 0 or more")
                } else {
                    format!("taxi: cash {word} is above {MAX_CASH}, the most supported")
                }
            } else {
                format!("taxi: '{word}' is no amount of cash; \"W B\" (cash in hand of White and Black) expected")
            };
            Err(at(&rec, o, message))
        };
        let nums: Vec<Option<u32>> = text
            .split_whitespace()
            .map(amount)
            .collect::<Result<_, _>>()?;
        let [w, b] = nums.as_slice() else {
            return Err(bad());
        };
        stated.cash = [w.is_some(), b.is_some()];
        let (w, b) = (&w.unwrap_or(0), &b.unwrap_or(0));
        if *w > MAX_CASH || *b > MAX_CASH {
            return Err(at(
                &rec,
                o,
                format!("taxi: cash above {MAX_CASH} is not supported"),
            ));
        }
        cash = Some([*w, *b]);
        let mut taxi = Taxi::default();
        if let Some(i) = op("taxi_income") {
            taxi.income = number(&rec, i, "an income (a whole number)")?.min(MAX_CASH);
        }
        if let Some(i) = op("taxi_start") {
            taxi.start = number(&rec, i, "a starting budget (a whole number)")?.min(MAX_CASH);
        }
        rules.taxi = Some(taxi);
    }

    let setup_error = |e: setup::SetupError| LineError::new(rec.line, 0, e.to_string());
    let (game, quake) = match op("earthquake") {
        None => {
            checks
                .validate(&Standard, &rec.setup)
                .map_err(setup_error)?;
            (AnyGame::Standard(Game::on(Standard, rules)), None)
        }
        Some(o) => {
            let (dx, dy) = displacement(&rec, o)?;
            let void = match op("void") {
                None => VoidRule::Block,
                Some(v) => match v.single() {
                    Some("block") => VoidRule::Block,
                    Some("fly") => VoidRule::Fly,
                    _ => return Err(at(&rec, v, "void: 'block' or 'fly' expected")),
                },
            };
            let geo = Earthquake::new(dx, dy, void);
            if let Some(sq) = (rec.setup.board.occupied() - geo.squares()).first() {
                return Err(at(
                    &rec,
                    o,
                    format!("earthquake: {sq} does not exist on a ({dx},{dy}) board"),
                ));
            }
            checks.validate(&geo, &rec.setup).map_err(setup_error)?;
            match op("aftershock") {
                None => (AnyGame::Earthquake(Box::new(Game::on(geo, rules))), None),
                Some(a) => {
                    let quake = aftershocks(&rec, a, dx)?;
                    let terrain = Shifting::new(dy, void);
                    (
                        AnyGame::Aftershocks(Box::new(Game::on(terrain, rules))),
                        Some(quake),
                    )
                }
            }
        }
    };
    let mut position = rec.setup.clone().into_position();
    if let Some(q) = quake {
        position.set_quake(q);
    }
    if let Some([w, b]) = cash {
        position.set_cash(Color::White, w);
        position.set_cash(Color::Black, b);
    }
    // The side not to move may not be in check (under Taxi: affordable check).
    let not_to_move = !position.turn();
    if checks == Checks::Play
        && crate::with_game!(&game, g => g.king_in_check(&position, not_to_move))
    {
        return Err(setup_error(setup::SetupError::OppositeCheck(
            not_to_move.name(),
        )));
    }

    if let (Some(o), Some(td)) = (op("timers"), rules.trapdoor) {
        let text = o
            .single()
            .ok_or_else(|| at(&rec, o, "timers: one quoted list \"SQ:r ...\" expected"))?;
        for item in text.split_whitespace() {
            let (sq, r) = item
                .split_once(':')
                .ok_or_else(|| at(&rec, o, format!("timers: '{item}' is not of the form SQ:r")))?;
            let sq = Square::parse(sq)
                .ok_or_else(|| at(&rec, o, format!("timers: '{sq}' is not a square")))?;
            let r: u8 = r
                .parse()
                .ok()
                .filter(|r| (1..=td.timer).contains(r))
                .ok_or_else(|| {
                    at(
                        &rec,
                        o,
                        format!(
                            "timers: {sq} has r = {r}, but 1 <= r <= {} is required",
                            td.timer
                        ),
                    )
                })?;
            if position.board().piece_at(sq).is_none() {
                return Err(at(&rec, o, format!("timers: no piece on {sq}")));
            }
            if position.timers().get(sq).is_some() {
                return Err(at(&rec, o, format!("timers: {sq} is given twice")));
            }
            position.set_timer(sq, Some(r));
        }
    }

    asked_of(&rec, stipulation)?;
    Ok(Problem {
        stipulation,
        stated,
        record: rec,
        game,
        position,
    })
}

/// What a line asks `solve` to show besides the proof (`options "tries set-play";`): the
/// display options of the command line, carried by the line itself, as `import` writes
/// Popeye's `Option Try`, `SetPlay`, `Defence N` and `MaxSolutions N`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Asked {
    /// `tries`: the tries with their refutations.
    pub tries: bool,
    /// `set-play`: the set play.
    pub set_play: bool,
    /// `refutations N`: a try may have up to N refutations.
    pub refutations: Option<usize>,
    /// `max-solutions N`: help play stops after N solutions.
    pub max_solutions: Option<usize>,
    /// `retro`: what retro-analysis proves is applied before solving (rules.md 6.2).
    pub retro: bool,
}

/// The words `options` takes, for its message.
const ASKED_WORDS: &str = "tries, set-play, refutations N, max-solutions N, retro";

/// What a record's `options` asks for (nothing without one), judged against the line's
/// own `stipulation` where it is given.
pub fn asked_of(rec: &Record, stipulation: Option<Stipulation>) -> Result<Asked, LineError> {
    let Some(op) = rec.get("options") else {
        return Ok(Asked::default());
    };
    let text = op.single().unwrap_or("");
    let mut asked = Asked::default();
    let mut words = text.split_whitespace();
    while let Some(word) = words.next() {
        let mut count = |name: &str| -> Result<usize, LineError> {
            words
                .next()
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|&n| (1..=1_000_000).contains(&n))
                .ok_or_else(|| {
                    at(
                        rec,
                        op,
                        format!("options: {name} needs a count from 1 to 1000000"),
                    )
                })
        };
        match word {
            "tries" => asked.tries = true,
            "set-play" => asked.set_play = true,
            "retro" => asked.retro = true,
            "refutations" => asked.refutations = Some(count(word)?),
            "max-solutions" => asked.max_solutions = Some(count(word)?),
            other => {
                return Err(at(
                    rec,
                    op,
                    format!("options: '{other}' is not one of {ASKED_WORDS}"),
                ))
            }
        }
    }
    // What the line's own stipulation has no use for is refused where it is written
    // (rules.md 8.4, 8.6).
    if let Some(stip) = stipulation {
        let help = stip.aim == Aim::Help;
        if asked.max_solutions.is_some() && !help && !stip.aim.is_proof_game() {
            return Err(at(
                rec,
                op,
                format!(
                    "options: max-solutions applies to help-mates and proof games, not to {stip}"
                ),
            ));
        }
        if asked.retro && stip.aim != Aim::Direct {
            return Err(at(
                rec,
                op,
                format!("options: retro applies to #N, not to {stip}"),
            ));
        }
        if asked.set_play && (help || stip.aim.is_proof_game() || stip.moves < 2) {
            return Err(at(
                rec,
                op,
                format!("options: set-play applies to #N and s#N with N >= 2, not to {stip}"),
            ));
        }
    }
    Ok(asked)
}

/// `asked_of` for a line of a two-board game, which retro-analysis does not play.
pub fn asked_of_two_boards(
    rec: &Record,
    stipulation: Option<Stipulation>,
) -> Result<Asked, LineError> {
    let asked = asked_of(rec, stipulation)?;
    match rec.get("options") {
        Some(op) if asked.retro => Err(at(
            rec,
            op,
            "options: retro-analysis covers the single-board games, not this one",
        )),
        _ => Ok(asked),
    }
}

/// The stipulation a record states (`dm N` or `stip "#N"`, which must agree), if any.
pub fn stipulation_of(rec: &Record) -> Result<Option<Stipulation>, LineError> {
    let op = |name: &str| rec.get(name);
    let dm = match op("dm") {
        Some(o) => {
            let n = number(rec, o, "a number of moves")?;
            if !(1..=MAX_MOVES).contains(&n) {
                return Err(at(rec, o, format!("dm: {n} is outside 1..={MAX_MOVES}")));
            }
            Some(Stipulation::direct(n))
        }
        None => None,
    };
    let stip = match op("stip") {
        Some(o) => {
            let s = o.single().unwrap_or("");
            match Stipulation::parse(s) {
                Some(st) => Some(st),
                None if s.trim_start().starts_with("pg") || s.trim_start().starts_with("spg") => {
                    return Err(at(
                        rec,
                        o,
                        format!(
                            "stip: '{s}' is not pg N or spg N with N in moves (9, 9.0 or 8.5) from 0.5 to {MAX_MOVES}.0"
                        ),
                    ))
                }
                None if s.starts_with('#') || s.starts_with("h#") || s.starts_with("s#") => {
                    return Err(at(
                        rec,
                        o,
                        format!(
                            "stip: '{s}' is not #N, h#N, h#N.5 or s#N with N in 1..={MAX_MOVES}"
                        ),
                    ))
                }
                None => return Err(at(rec, o, format!("stip: '{s}' is not supported yet"))),
            }
        }
        None => None,
    };
    if let (Some(a), Some(b)) = (dm, stip) {
        if a != b {
            return Err(at(
                rec,
                op("stip").unwrap(),
                format!("stip {b} disagrees with dm {}", a.moves),
            ));
        }
    }
    Ok(dm.or(stip))
}

/// The position line of `pos` under `game`'s rules: FEN fields then the operations that
/// carry the rules and the variant state (formats.md section 1), so that what one
/// command writes another reads.
pub fn position_line(game: &AnyGame, pos: &Position) -> String {
    let mut out = crate::fen::write_fen(pos);
    if let Some(eq) = game.earthquake(pos) {
        let (dx, dy) = eq.displacement();
        out.push_str(&format!(" earthquake \"{dx} {dy}\";"));
        if eq.void_rule() == VoidRule::Fly {
            out.push_str(" void fly;");
        }
    }
    if let Some(taxi) = game.rules().taxi {
        out.push_str(&format!(
            " taxi \"{} {}\";",
            pos.cash(Color::White),
            pos.cash(Color::Black)
        ));
        let default = Taxi::default();
        if taxi.income != default.income {
            out.push_str(&format!(" taxi_income {};", taxi.income));
        }
        if taxi.start != default.start {
            out.push_str(&format!(" taxi_start {};", taxi.start));
        }
    }
    if game.has_aftershocks() {
        let q = pos.quake();
        let back = q.no_return.map(|d| format!(" {d}")).unwrap_or_default();
        out.push_str(&format!(
            " aftershock \"{} {}{back}\";",
            q.shocks[0], q.shocks[1]
        ));
    }
    if let Some(td) = game.rules().trapdoor {
        out.push_str(&format!(" trapdoor {};", td.timer));
        if td.order != FallOrder::MateFirst {
            out.push_str(&format!(" trapdoor_order {};", td.order.name()));
        }
        let timers: Vec<String> = pos
            .timers()
            .ticking()
            .map(|sq| format!("{sq}:{}", pos.timers().left(sq)))
            .collect();
        if !timers.is_empty() {
            out.push_str(&format!(" timers \"{}\";", timers.join(" ")));
        }
    }
    out
}
