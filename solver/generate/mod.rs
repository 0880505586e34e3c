//! Puzzle generation (formats.md 3): candidates drawn from a seed and an index, each
//! proved by the exhaustive solver before it is handed out.
//!
//! A candidate becomes a puzzle when
//! - its diagram reads as a legal position (the checks of rules.md 7.2) and, where the
//!   retro module plays the game (the standard board, FIDE or Trapdoor), retro-analysis
//!   finds it legal and proves nothing the diagram does not say (no man ticking, no en
//!   passant right), unless the `retro` theme asks for exactly that;
//! - the stipulation has exactly one solution (one key of `#N`/`s#N`, one line of
//!   `h#N`) and nothing shorter;
//! - every theme asked for holds, each proved by another search (see `Theme`).
//!
//! Where each part lives: `candidate` (drawing diagrams), `prove` (the proof on the
//! solver core, for every game), this file (the checks, the themes, the score and the
//! written puzzle).

mod backward;
pub mod candidate;
mod improve;
mod proof_game;
pub mod prove;
pub mod quality;
pub mod repeats;
pub mod spread;

use crate::bitboard::Bitboard;
use crate::epd::{parse_line, Line};
use crate::game::AnyGame;
use crate::generic::adapter::{BoardState, OneBoard};
use crate::glass::Glass;
use crate::position::Position;
use crate::problem::{from_record, Aim, Problem, Stipulation};
use crate::retro::{self, RetroOptions, RetroPosition};
use crate::search::tt::Table;
use crate::types::{Color, Role};
use prove::{prove, prove_within, Proof};
use quality::Qualities;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use thiserror::Error;

/// What a puzzle may be asked to show, each proved by search (formats.md 3; the
/// composer's qualities are defined in `quality`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// The FIDE solutions of the same diagram differ (or FIDE cannot play it): the
    /// puzzle needs the variant.
    Variant,
    /// The key neither captures nor checks.
    Quiet,
    /// A man falls through a trapdoor in the main line.
    Fall,
    /// Under Taxi: with both sides rich (999 in hand) the solutions differ: the budget
    /// decides.
    Budget,
    /// On an Earthquake board a move of the main line crosses the seam.
    Seam,
    /// The key is unique only because retro-analysis proves a man ticking: solved as
    /// written (every man safe) the solutions differ.
    Retro,
    /// The key gives no check, captures nothing and takes no flight.
    QuietKey,
    /// No man is superfluous.
    Economy,
    /// The main line ends in a model mate (pure and economical).
    ModelMate,
    /// No defence has two answers.
    NoDuals,
    /// At least N different answers to the defences after the key (`variations:N`).
    Variations(u8),
    /// At least N tries (`tries:N`).
    Tries(u8),
}

impl Theme {
    /// Every theme, those with a number at 1.
    pub const ALL: [Theme; 12] = [
        Theme::Variant,
        Theme::Quiet,
        Theme::Fall,
        Theme::Budget,
        Theme::Seam,
        Theme::Retro,
        Theme::QuietKey,
        Theme::Economy,
        Theme::ModelMate,
        Theme::NoDuals,
        Theme::Variations(1),
        Theme::Tries(1),
    ];

    /// The theme's name without its number.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Variant => "variant",
            Theme::Quiet => "quiet",
            Theme::Fall => "fall",
            Theme::Budget => "budget",
            Theme::Seam => "seam",
            Theme::Retro => "retro",
            Theme::QuietKey => "quiet-key",
            Theme::Economy => "economy",
            Theme::ModelMate => "model-mate",
            Theme::NoDuals => "no-duals",
            Theme::Variations(_) => "variations",
            Theme::Tries(_) => "tries",
        }
    }

    /// `variations:3`, `tries:2` (a number from 1 to 99), or a name alone.
    pub fn parse(s: &str) -> Option<Theme> {
        if let Some((name, n)) = s.split_once(':') {
            let n: u8 = n.parse().ok().filter(|n| (1..=99).contains(n))?;
            return match name {
                "variations" => Some(Theme::Variations(n)),
                "tries" => Some(Theme::Tries(n)),
                _ => None,
            };
        }
        Theme::ALL
            .into_iter()
            .find(|t| t.name() == s && !matches!(t, Theme::Variations(_) | Theme::Tries(_)))
    }

    /// A composer's quality (decided by `quality`), not a theme of the variants (which
    /// `examine` proves apart).
    fn is_quality(self) -> bool {
        matches!(
            self,
            Theme::QuietKey
                | Theme::Economy
                | Theme::ModelMate
                | Theme::NoDuals
                | Theme::Variations(_)
                | Theme::Tries(_)
        )
    }

    /// Whether a puzzle with these qualities shows the composer's theme (never for a
    /// theme of the variants).
    fn shown_by(self, q: &Qualities) -> bool {
        match self {
            Theme::QuietKey => q.quiet_key == Some(true),
            Theme::Economy => q.economy() == Some(true),
            Theme::ModelMate => q.model_mate == Some(true),
            Theme::NoDuals => q.no_duals,
            Theme::Variations(n) => q.variations >= n as usize,
            Theme::Tries(n) => q.tries >= n as usize,
            _ => false,
        }
    }
}

impl std::fmt::Display for Theme {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Theme::Variations(n) | Theme::Tries(n) => write!(f, "{}:{n}", self.name()),
            _ => f.write_str(self.name()),
        }
    }
}

/// The composer's themes a puzzle with `q` shows: each one asked for that holds, and
/// those without a number whether asked or not.
fn composer_themes(q: &Qualities, asked: &[Theme]) -> Vec<Theme> {
    let mut out: Vec<Theme> = [
        Theme::QuietKey,
        Theme::Economy,
        Theme::ModelMate,
        Theme::NoDuals,
    ]
    .into_iter()
    .chain(asked.iter().copied())
    .filter(|t| t.shown_by(q))
    .collect();
    out.sort();
    out.dedup();
    out
}

/// The boards a run draws its candidates on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Board {
    /// One board, under the operations of `Spec::ops` (FIDE, Trapdoor, Taxi,
    /// Earthquake and their combinations).
    Single,
    /// Through the Looking-Glass: the men spread over the Real and Mirror boards.
    Glass,
    /// Underworld Chess: the kings on the World, the Underworld Kings below, the other
    /// men on either board; the World's side to move begins (phase WW or BW).
    Underworld,
}

/// What a run asks for.
#[derive(Clone, Debug)]
pub struct Spec {
    pub stip: Stipulation,
    pub board: Board,
    /// The variant operations every diagram carries (`trapdoor 1; taxi "2 0";`).
    pub ops: String,
    /// Men on the board(s), both kings included: least and most.
    pub men: (u32, u32),
    /// The roles other than the king that candidates may hold.
    pub pieces: Vec<Role>,
    pub themes: Vec<Theme>,
    /// Decide every quality, economy included, whether a theme asks for it or not.
    pub every_quality: bool,
    /// Measure each puzzle's effort (`spread`) even where not every quality is asked.
    pub measure_effort: bool,
    /// Improve each single-board puzzle by small changes while its score rises
    /// (`improve`; the score needs every quality decided).
    pub improve: bool,
    pub seed: u64,
    /// The squares the geometry has (filled in by `Spec::check`).
    pub squares: Bitboard,
}

/// A run that cannot be made, with the reason in the user's terms.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SpecError {
    #[error("--men {0}-{1}: a diagram holds 2 to 32 men, kings included, the least first")]
    Men(u32, u32),
    #[error("--pieces: no piece to draw from (letters of Q, R, B, N, P)")]
    NoPieces,
    #[error("the variant operations do not read: {0}")]
    Ops(String),
    #[error("--theme {0}: {1}")]
    Theme(&'static str, &'static str),
    #[error("{0}: the two-board games are generated without variant operations")]
    TwoBoardOps(String),
    #[error("{0}")]
    ProofGame(&'static str),
}

impl Spec {
    /// Who moves first in the diagram: Black in `h#N`, White otherwise (rules.md 8).
    pub fn first_mover(&self) -> Color {
        if self.stip.aim == Aim::Help && !self.stip.half {
            Color::Black
        } else {
            Color::White
        }
    }

    fn has_op(&self, name: &str) -> bool {
        self.ops
            .split(';')
            .any(|op| op.split_whitespace().next() == Some(name))
    }

    pub fn wants(&self, theme: Theme) -> bool {
        self.themes.contains(&theme)
    }

    /// Checks the run's parameters against each other and learns the geometry's squares.
    pub fn check(mut self) -> Result<Spec, SpecError> {
        let (lo, hi) = self.men;
        if lo < 2 || hi > 32 || lo > hi {
            return Err(SpecError::Men(lo, hi));
        }
        if self.pieces.is_empty() {
            return Err(SpecError::NoPieces);
        }
        if self.stip.aim.is_proof_game() {
            if self.board != Board::Single {
                return Err(SpecError::ProofGame(
                    "proof games are played on the single-board games (rules.md 9.5)",
                ));
            }
            if let Some(t) = self
                .themes
                .iter()
                .find(|t| !matches!(t, Theme::Variant | Theme::Fall))
            {
                return Err(SpecError::Theme(
                    t.name(),
                    "a proof-game puzzle has the themes variant and fall only",
                ));
            }
        }
        if self.board != Board::Single {
            if !self.ops.trim().is_empty() {
                return Err(SpecError::TwoBoardOps(self.ops.clone()));
            }
            self.squares = Bitboard::FULL;
        } else {
            self.squares = self.geometry_squares()?;
        }
        let needs: [(Theme, &str, &'static str); 5] = [
            (
                Theme::Fall,
                "trapdoor",
                "falls need a Trapdoor board (--trapdoor T)",
            ),
            (
                Theme::Budget,
                "taxi",
                "a budget needs Taxi Chess (--taxi \"W B\")",
            ),
            (
                Theme::Seam,
                "earthquake",
                "a seam needs an Earthquake board (--earthquake \"dx dy\")",
            ),
            (
                Theme::Retro,
                "trapdoor",
                "retro-analysis proves timers only on a Trapdoor board (--trapdoor T)",
            ),
            (
                Theme::Variant,
                "",
                "the variant theme needs a variant: a Trapdoor, Taxi or Earthquake flag, or Underworld",
            ),
        ];
        for (theme, op, why) in needs {
            if !self.wants(theme) {
                continue;
            }
            let missing = if op.is_empty() {
                // On Underworld the World alone is the FIDE diagram compared.
                self.board == Board::Glass
                    || (self.board == Board::Single && self.ops.trim().is_empty())
            } else {
                self.board != Board::Single || !self.has_op(op)
            };
            if missing {
                return Err(SpecError::Theme(theme.name(), why));
            }
        }
        for &theme in &self.themes {
            let help = self.stip.aim == Aim::Help;
            let why = match theme {
                Theme::QuietKey | Theme::Variations(_) | Theme::Tries(_) if help => {
                    "a help-mate has no key, tries or variations to judge"
                }
                Theme::ModelMate if self.board == Board::Glass => {
                    "not decided on Looking-Glass, which ends by a capture, not a mate"
                }
                Theme::ModelMate if self.has_op("taxi") => {
                    "not decided under Taxi, where a guard counts only when affordable"
                }
                _ => continue,
            };
            return Err(SpecError::Theme(theme.name(), why));
        }
        if self.wants(Theme::Retro)
            && (self.has_op("taxi") || self.has_op("earthquake") || self.stip.aim != Aim::Direct)
        {
            return Err(SpecError::Theme(
                "retro",
                "the retro module plays #N on the standard board (FIDE or Trapdoor), not Taxi or Earthquake",
            ));
        }
        Ok(self)
    }

    /// The squares of the run's geometry, from a probe diagram with the run's
    /// operations (an Earthquake board may lack some).
    fn geometry_squares(&self) -> Result<Bitboard, SpecError> {
        let p = self.kings_only().map_err(SpecError::Ops)?;
        Ok(p.game.squares(&p.position))
    }

    /// The run's variant operations read on a board of the two kings alone, placed
    /// where the board has squares for them; the reader's message if none reads.
    fn kings_only(&self) -> Result<Problem, String> {
        let mut last = String::new();
        for kings in [
            "4k3/8/8/8/8/8/8/4K3",
            "k7/8/8/8/8/8/8/7K",
            "7k/8/8/8/8/8/8/K7",
        ] {
            let line = format!("{kings} w - - {}", self.ops);
            match read_problem(&line) {
                Ok(p) => return Ok(p),
                Err(e) => last = e,
            }
        }
        Err(last)
    }
}

impl Spec {
    /// The run's board with FIDE moves (its variant rules left out): what self-mate
    /// candidates are built backwards with (`backward`). `None` for the two-board games.
    pub fn board_with_fide_moves(&self) -> Option<AnyGame> {
        if self.board != Board::Single {
            return None;
        }
        let p = self.kings_only().ok()?;
        Some(p.game.with_rules(crate::game::Rules::default()))
    }
}

fn read_problem(line: &str) -> Result<Problem, String> {
    match parse_line(line, 1) {
        Ok(Line::Position(rec)) => from_record(*rec).map_err(|e| e.to_string()),
        Ok(_) => Err("no position".into()),
        Err(e) => Err(e.to_string()),
    }
}

/// A proved puzzle (formats.md 3).
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    pub seed: u64,
    pub index: u64,
    /// The diagram line (FEN fields and the variant operations).
    pub diagram: String,
    pub stip: Stipulation,
    /// The key (`#N`, `s#N`) or the first move of the solution (`h#N`), in coordinates.
    pub key: String,
    /// The key and the main line, in coordinates.
    pub pv: Vec<String>,
    pub themes: Vec<Theme>,
    pub score: f64,
    pub tries: Vec<String>,
    /// Different answers to the defences after the key.
    pub variations: usize,
    /// What retro-analysis proved, when the puzzle rests on it (`retro`).
    pub retro: Option<String>,
    /// The composer's qualities, each proved (`quality`).
    pub qualities: Qualities,
    /// How hard the puzzle is to solve: the positions a plain proof visits from a fresh
    /// table of 1 MB on one thread (the same on every machine and shard); measured when
    /// every quality is asked for (`--qualities`, `--html`).
    pub effort: Option<u64>,
}

impl Puzzle {
    pub fn id(&self) -> String {
        format!("{}-{}", self.seed, self.index)
    }

    /// The position line: the diagram with `stip`, `id` and `pv` (and `c0` naming what
    /// retro-analysis proved, for a `retro` puzzle).
    pub fn line(&self) -> String {
        let mut out = format!(
            "{} stip \"{}\"; id \"{}\"; pv {};",
            self.diagram,
            self.stip,
            self.id(),
            self.pv.join(" ")
        );
        if let Some(r) = &self.retro {
            out.push_str(&format!(" c0 \"retro: {r}\";"));
        }
        out
    }

    pub fn json(&self) -> Value {
        json!({
            "epd": self.line(),
            "stip": self.stip.to_string(),
            "key": self.key,
            "themes": self.themes.iter().map(|t| t.to_string()).collect::<Vec<_>>(),
            "score": self.score,
            "seed": self.seed,
            "index": self.index,
            "tries": self.tries,
            "variations": self.variations,
            "qualities": self.qualities.json(),
            "effort": self.effort,
        })
    }
}

/// The search was stopped (Ctrl-C): nothing about the candidate is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped;

/// Nodes each retro-analysis question may visit while generating. A diagram whose
/// analysis does not finish within them is not handed out.
pub const RETRO_NODES: u64 = 50_000;

/// Candidate `index` of the run, proved, or `None` when it is no puzzle.
pub fn examine(
    spec: &Spec,
    index: u64,
    table: &Table,
    stop: &AtomicBool,
) -> Result<Option<Puzzle>, Stopped> {
    if spec.stip.aim.is_proof_game() {
        let Ok(board) = spec.kings_only() else {
            return Ok(None);
        };
        return proof_game::examine(spec, &board, index, stop);
    }
    let Some(diagram) = candidate::diagram(spec, index) else {
        return Ok(None);
    };
    let found = match spec.board {
        Board::Single => {
            let mut smaller_left = MOST_SMALLER;
            if spec.improve {
                improve::improved(spec, index, &diagram, table, stop)?
            } else {
                examine_single(spec, &diagram, table, stop, &mut smaller_left)?
            }
        }
        Board::Glass => {
            let mut smaller_left = MOST_SMALLER;
            examine_glass(spec, &diagram, table, stop, &mut smaller_left)?
        }
        Board::Underworld => {
            let mut smaller_left = MOST_SMALLER;
            examine_underworld(spec, &diagram, table, stop, &mut smaller_left)?
        }
    };
    if stop.load(Ordering::Relaxed) {
        return Err(Stopped);
    }
    Ok(found.map(|found| {
        let Examined {
            proof,
            effort,
            themes,
            retro,
            qualities,
            diagram: smaller,
        } = found;
        // The diagram examined last: a candidate may have lost men (`economy`).
        let diagram = if smaller.is_empty() { diagram } else { smaller };
        let men = men_of(&diagram);
        let score = score(men, &qualities, &themes);
        Puzzle {
            seed: spec.seed,
            index,
            diagram,
            stip: spec.stip,
            key: proof.main.first().map(|m| m.0.clone()).unwrap_or_default(),
            pv: proof.main.iter().map(|m| m.0.clone()).collect(),
            themes,
            score,
            tries: proof.tries.clone(),
            variations: qualities.variations,
            retro,
            qualities,
            effort,
        }
    }))
}

/// The men of a diagram line (both boards of a two-board line).
fn men_of(line: &str) -> u32 {
    let placements = line.split(' ').next().into_iter().chain(
        line.split('"')
            .nth(1)
            .filter(|_| line.contains("mirror") || line.contains("underworld")),
    );
    placements
        .flat_map(|p| p.chars())
        .filter(|c| c.is_ascii_alphabetic())
        .count() as u32
}

/// A quality score in 0..1 for ordering a set (docs/positions.md, "generate"): no
/// superfluous man 0.2, a quiet key 0.15, variations 0.15 (four or more count whole),
/// few men 0.1 (3 men whole, 16 none), a model mate 0.1, tries 0.1 (three or more
/// whole), no duals 0.1, the variant needed 0.1.
fn score(men: u32, q: &Qualities, themes: &[Theme]) -> f64 {
    let yes = |b: bool| b as u8 as f64;
    let few_men = 1.0 - (men.saturating_sub(3) as f64 / 13.0).min(1.0);
    let variations = (q.variations.min(4) as f64) / 4.0;
    let tries = (q.tries.min(3) as f64) / 3.0;
    let s = 0.2 * yes(q.economy() == Some(true))
        + 0.15 * yes(q.quiet_key == Some(true))
        + 0.15 * variations
        + 0.1 * few_men
        + 0.1 * yes(q.model_mate == Some(true))
        + 0.1 * tries
        + 0.1 * yes(q.no_duals)
        + 0.1 * yes(themes.contains(&Theme::Variant));
    (s * 100.0).round() / 100.0
}

/// Proves `stip` in a single-board position.
fn prove_board(
    game: &AnyGame,
    position: Position,
    stip: Stipulation,
    table: &Table,
    stop: &AtomicBool,
    detail: bool,
) -> Result<Proof, Stopped> {
    let proof = crate::with_game!(game, g => {
        let one = OneBoard { game: g, attacker: position.turn() };
        prove(&one, &BoardState::new(position), stip, table, stop, detail)
    });
    if stop.load(Ordering::Relaxed) {
        return Err(Stopped);
    }
    Ok(proof)
}

/// The solutions of a line under the same stipulation, or `None` when the line cannot
/// be played (then it surely differs).
fn solutions_of(
    line: &str,
    stip: Stipulation,
    table: &Table,
    stop: &AtomicBool,
) -> Result<Option<Vec<String>>, Stopped> {
    let Ok(p) = read_problem(line) else {
        return Ok(None);
    };
    let proof = prove_board(&p.game, p.position, stip, table, stop, false)?;
    Ok(proof.complete.then_some(proof.solutions))
}

/// The FEN fields of a diagram line (the first four words).
fn fen_fields(line: &str) -> String {
    line.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

/// The diagram's operations with `taxi` given both sides `cash`.
fn with_taxi_cash(ops: &str, cash: u32) -> String {
    ops.split(';')
        .map(str::trim)
        .filter(|op| !op.is_empty())
        .map(|op| {
            if op.split_whitespace().next() == Some("taxi") {
                format!("taxi \"{cash} {cash}\";")
            } else {
                format!("{op};")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A candidate proved a puzzle: its proof, the themes shown, what retro-analysis
/// proved, the qualities, and the diagram (the candidate's, or a smaller one when
/// `economy` was asked for and superfluous men were taken off).
struct Examined {
    proof: Proof,
    effort: Option<u64>,
    themes: Vec<Theme>,
    retro: Option<String>,
    qualities: Qualities,
    diagram: String,
}

type Found = Option<Examined>;

/// Smaller diagrams a candidate may be examined as (`economy`): each removal is a
/// search again, and a run must not spend a candidate's worth of them many times over.
const MOST_SMALLER: u32 = 12;

/// Examines a single-board diagram; `smaller_left` counts down the smaller diagrams
/// still allowed for this candidate.
fn examine_single(
    spec: &Spec,
    diagram: &str,
    table: &Table,
    stop: &AtomicBool,
    smaller_left: &mut u32,
) -> Result<Found, Stopped> {
    let Ok(problem) = read_problem(diagram) else {
        return Ok(None);
    };
    let rules = problem.game.rules();
    let stip = spec.stip;
    // The plain proof first: it rejects most candidates, and costs less than the
    // retro-analysis (unless the theme asks for timers that retro-analysis proves,
    // which come before the proof).
    if !spec.wants(Theme::Retro)
        && !prove_board(&problem.game, problem.position, stip, table, stop, false)?.unique(stip)
    {
        return Ok(None);
    }
    let mut position = problem.position;
    let mut retro_note = None;
    // The retro module's verdict where it plays the game (rules.md 6).
    {
        let opts = RetroOptions::for_problem(&problem, retro::DEFAULT_DEPTH, RETRO_NODES);
        if rules.trapdoor.is_none() {
            // Legality alone (no men to prove ticking): one history suffices.
            if !retro::proved_legal_without_en_passant(&RetroPosition::of(&position), &opts) {
                return Ok(None);
            }
        } else {
            let report = retro::analyse(&RetroPosition::of(&position), &opts);
            if !report.legal() || report.en_passant.is_some() {
                return Ok(None);
            }
            if !report.complete {
                return Ok(None);
            }
            let proved = !report.ticking.is_empty();
            if proved != spec.wants(Theme::Retro) || report.scenarios.len() > 1 {
                return Ok(None);
            }
            if let Some(timers) = report.scenarios.first().filter(|_| proved) {
                for &(sq, r) in timers {
                    position.set_timer(sq, Some(r));
                }
                retro_note = Some(
                    timers
                        .iter()
                        .map(|(sq, r)| format!("{sq}:{r}"))
                        .collect::<Vec<_>>()
                        .join(" "),
                );
            }
        }
    }
    let proof = prove_board(&problem.game, position, stip, table, stop, true)?;
    if !proof.unique(stip) || proof.main.is_empty() {
        return Ok(None);
    }
    let mut themes = Vec::new();
    if is_quiet(&proof) {
        themes.push(Theme::Quiet);
    }
    if !spec.ops.trim().is_empty() {
        let fide = solutions_of(&fen_fields(diagram), stip, table, stop)?;
        if fide.as_ref() != Some(&proof.solutions) {
            themes.push(Theme::Variant);
        }
    }
    if rules.trapdoor.is_some()
        && line_has(&problem.game, position, &proof, |played, _| {
            played.fallen.is_nonempty()
        })
    {
        themes.push(Theme::Fall);
    }
    if rules.taxi.is_some() {
        let rich = format!("{} {}", fen_fields(diagram), with_taxi_cash(&spec.ops, 999));
        if solutions_of(&rich, stip, table, stop)?.as_ref() != Some(&proof.solutions) {
            themes.push(Theme::Budget);
        }
    }
    if problem.game.earthquake(&problem.position).is_some()
        && line_has(&problem.game, position, &proof, |_, mv| {
            (mv.from.rank() <= 3) != (mv.to.rank() <= 3)
        })
    {
        themes.push(Theme::Seam);
    }
    if retro_note.is_some() {
        let plain = prove_board(&problem.game, problem.position, stip, table, stop, false)?;
        if !plain.complete || plain.solutions != proof.solutions {
            themes.push(Theme::Retro);
        }
    }
    if !variant_themes_hold(spec, &themes) {
        return Ok(None);
    }
    // The composer's qualities last: economy costs a proof per man.
    let economy = spec.every_quality || spec.wants(Theme::Economy);
    let qualities = quality::of_single(&problem, &position, stip, &proof, economy, table, stop)?;
    themes.extend(composer_themes(&qualities, &spec.themes));
    if spec.themes.iter().all(|t| themes.contains(t)) {
        let effort = effort(spec, |fresh| {
            prove_board(&problem.game, position, stip, fresh, stop, false).map(|p| p.nodes)
        })?;
        Ok(Some(Examined {
            proof,
            effort,
            themes,
            retro: retro_note,
            qualities,
            diagram: diagram.to_string(),
        }))
    } else if spec.wants(Theme::Economy) {
        // Drawn toward economy, not only filtered: the puzzle without one of its
        // superfluous men is examined afresh (legality, soundness, every theme), and the
        // first that passes is the puzzle.
        for man in qualities.superfluous.iter().flatten() {
            // Never below the men asked (`--men`): such a puzzle is not economical.
            let Some(smaller) = without_man(diagram, man).filter(|d| men_of(d) >= spec.men.0)
            else {
                continue;
            };
            if *smaller_left == 0 {
                break;
            }
            *smaller_left -= 1;
            if let Some(found) = examine_single(spec, &smaller, table, stop, smaller_left)? {
                return Ok(Some(found));
            }
        }
        Ok(None)
    } else {
        Ok(None)
    }
}

/// A single-board diagram line without the man `man` (`Bg4`: letter and square), or
/// `None` when it has no such man.
fn without_man(diagram: &str, man: &str) -> Option<String> {
    let square = crate::types::Square::parse(man.get(1..)?)?;
    let (placement, rest) = diagram.split_once(' ')?;
    let mut board = crate::fen::parse_placement(placement, 0).ok()?;
    board.remove(square)?;
    Some(format!("{} {rest}", crate::fen::write_placement(&board)))
}

thread_local! {
    /// Each worker's table for measuring effort, cleared before each puzzle.
    static EFFORT_TABLE: std::cell::RefCell<Option<Table>> = const { std::cell::RefCell::new(None) };
}

/// A puzzle's effort when the run asks for every quality or for a spread set (`None`
/// otherwise), measured by `measure` with a table of 1 MB as `Table::new` leaves it
/// (cleared, not allocated again: no memory churn), so the count depends on the puzzle
/// alone; 0 when even 1 MB cannot be had.
fn effort(
    spec: &Spec,
    measure: impl FnOnce(&Table) -> Result<u64, Stopped>,
) -> Result<Option<u64>, Stopped> {
    if !spec.every_quality && !spec.measure_effort {
        return Ok(None);
    }
    with_effort_table(measure).map(Some)
}

fn with_effort_table(measure: impl FnOnce(&Table) -> Result<u64, Stopped>) -> Result<u64, Stopped> {
    EFFORT_TABLE.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Table::try_new(1).ok();
        }
        match slot.as_mut() {
            Some(table) => {
                table.clear();
                measure(table)
            }
            None => Ok(0),
        }
    })
}

/// Every theme of the variants asked for is among `themes` (the composer's qualities
/// are decided after).
fn variant_themes_hold(spec: &Spec, themes: &[Theme]) -> bool {
    spec.themes
        .iter()
        .filter(|t| !t.is_quality())
        .all(|t| themes.contains(t))
}

/// The key captures or checks: neither, it is quiet (read from its notation: `x`, `+`,
/// `#`).
fn is_quiet(proof: &Proof) -> bool {
    proof
        .main
        .first()
        .is_some_and(|(_, n)| !n.contains(['x', '+', '#']))
}

/// Whether some move of the main line, replayed, has `property`.
fn line_has(
    game: &AnyGame,
    start: Position,
    proof: &Proof,
    property: impl Fn(&crate::game::Played, crate::moves::Move) -> bool,
) -> bool {
    let mut pos = start;
    for (coord, _) in &proof.main {
        let Some(mv) = quality::legal_move(game, &pos, coord) else {
            return false;
        };
        let played = game.play(&pos, mv);
        if property(&played, mv) {
            return true;
        }
        pos = played.position;
    }
    false
}

fn examine_glass(
    spec: &Spec,
    diagram: &str,
    table: &Table,
    stop: &AtomicBool,
    smaller_left: &mut u32,
) -> Result<Found, Stopped> {
    let read = |line: &str| crate::glass::read_line(line).ok().map(|p| p.state);
    let Some(state) = read(diagram) else {
        return Ok(None);
    };
    let game = Glass {
        attacker: state.turn,
    };
    let line = TwoBoardLine {
        diagram,
        boards: ['R', 'M'],
        read: &read,
        budget: None,
        world: None,
    };
    examine_two_board(spec, &game, &state, &line, table, stop, smaller_left)
}

fn examine_underworld(
    spec: &Spec,
    diagram: &str,
    table: &Table,
    stop: &AtomicBool,
    smaller_left: &mut u32,
) -> Result<Found, Stopped> {
    let read = |line: &str| {
        crate::underworld::setup::read_line(line)
            .ok()
            .map(|p| p.state)
    };
    let Some(state) = read(diagram) else {
        return Ok(None);
    };
    let line = TwoBoardLine {
        diagram,
        boards: ['W', 'U'],
        read: &read,
        budget: Some(UNDERWORLD_BUDGET),
        // The World's FEN fields lead the line.
        world: Some(fen_fields(diagram)),
    };
    let game = crate::underworld::Underworld;
    examine_two_board(spec, &game, &state, &line, table, stop, smaller_left)
}

/// A two-board candidate's line, the letters of its boards and the game's reader (what
/// makes a line without one of its men legal: the reader takes it).
struct TwoBoardLine<'a, S> {
    diagram: &'a str,
    boards: [char; 2],
    read: &'a dyn Fn(&str) -> Option<S>,
    /// The nodes the plain proof may take before the candidate is given up.
    budget: Option<u64>,
    /// The diagram of one board alone under FIDE rules, where the game has one (the
    /// Underworld's World): the `variant` theme compares its solutions.
    world: Option<String>,
}

/// A two-board solution as FIDE writes the same moves on the World alone, or `None`
/// when a move of it is not a World move (`W:` in coordinates).
fn on_the_world(solution: &str) -> Option<String> {
    solution
        .split(' ')
        .map(|mv| mv.strip_prefix("W:"))
        .collect::<Option<Vec<_>>>()
        .map(|moves| moves.join(" "))
}

/// The nodes an Underworld candidate's plain proof may take (RULES.md, Generation): a
/// round is four turns on two boards, and a diagram without a key (or with men on both
/// boards, for a help-mate) may take millions to refute; such a candidate is given up,
/// not handed out. A puzzle handed out is proved whole.
const UNDERWORLD_BUDGET: u64 = 100_000;

/// The proof of a two-board game's candidate (no retro module plays them).
fn examine_two_board<G: crate::generic::TurnGame>(
    spec: &Spec,
    game: &G,
    state: &G::State,
    line: &TwoBoardLine<G::State>,
    table: &Table,
    stop: &AtomicBool,
    smaller_left: &mut u32,
) -> Result<Found, Stopped> {
    let stip = spec.stip;
    if !prove_within(game, state, stip, table, stop, false, line.budget).unique(stip) {
        return check_stop(stop).map(|_| None);
    }
    let proof = prove(game, state, stip, table, stop, true);
    check_stop(stop)?;
    if !proof.unique(stip) || proof.main.is_empty() {
        return Ok(None);
    }
    let mut themes = Vec::new();
    if is_quiet(&proof) {
        themes.push(Theme::Quiet);
    }
    if let Some(world) = &line.world {
        let fide = solutions_of(world, stip, table, stop)?;
        let alone: Option<Vec<String>> = proof.solutions.iter().map(|s| on_the_world(s)).collect();
        if fide.is_none() || fide != alone {
            themes.push(Theme::Variant);
        }
    }
    let mut qualities = quality::of_two_board(game, state, stip, &proof);
    // The superfluous men, each with the line without it.
    let mut lighter = Vec::new();
    if spec.every_quality || spec.wants(Theme::Economy) {
        for (name, smaller) in quality::two_board_removals(line.diagram, line.boards) {
            let Some(without) = (line.read)(&smaller) else {
                continue;
            };
            let other = prove(game, &without, stip, table, stop, false);
            check_stop(stop)?;
            if other.unique(stip) && other.solutions == proof.solutions {
                lighter.push((name, smaller));
            }
        }
        qualities.superfluous = Some(lighter.iter().map(|(name, _)| name.clone()).collect());
    }
    themes.extend(composer_themes(&qualities, &spec.themes));
    if spec.themes.iter().all(|t| themes.contains(t)) {
        let effort = effort(spec, |fresh| {
            Ok(prove(game, state, stip, fresh, stop, false).nodes)
        })?;
        Ok(Some(Examined {
            proof,
            effort,
            themes,
            retro: None,
            qualities,
            diagram: line.diagram.to_string(),
        }))
    } else if spec.wants(Theme::Economy) {
        // Drawn toward economy as on one board: the line without one of its
        // superfluous men is examined afresh.
        for (_, smaller) in lighter.iter().filter(|(_, d)| men_of(d) >= spec.men.0) {
            if *smaller_left == 0 {
                break;
            }
            *smaller_left -= 1;
            let found = match spec.board {
                Board::Glass => examine_glass(spec, smaller, table, stop, smaller_left)?,
                _ => examine_underworld(spec, smaller, table, stop, smaller_left)?,
            };
            if found.is_some() {
                return Ok(found);
            }
        }
        Ok(None)
    } else {
        Ok(None)
    }
}

fn check_stop(stop: &AtomicBool) -> Result<(), Stopped> {
    if stop.load(Ordering::Relaxed) {
        Err(Stopped)
    } else {
        Ok(())
    }
}
