//! Popeye's input language, English keywords, read into problems: the commands of the
//! diagram (`Pieces`, `Forsyth`, `InitialGameArray`), `Stipulation`, `Option`, the free
//! texts (`Author`, `Origin`, `Title`, `Award`, `Remark`), and the twins (`Twin`,
//! `ZeroPosition`, `Cont`). Commands and options may be shortened to any unique start
//! and written in any case, as Popeye allows.
//!
//! What fairysolve does not play (fairy pieces and piece attributes, neutral men,
//! conditions, stipulations other than `#N`, `h#N`, `h#N.5` and `s#N`, options that
//! change the rules) is reported where it is written; reading goes on, so that every
//! fault of a problem is reported at once and the next problem is read from its start.

use super::diagram::{Diagram, Transform};
use super::token::{keyword, Match, Next, Reader, Token};
use crate::epd::LineError;
use crate::problem::{Aim, Stipulation, MAX_MOVES};
use crate::types::{Color, Piece, Role, Square};

/// A place in the file (1-based line and column).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Loc {
    pub line: usize,
    pub column: usize,
}

impl Loc {
    fn of(t: &Token) -> Loc {
        Loc {
            line: t.line,
            column: t.column,
        }
    }

    pub fn error(self, message: impl Into<String>) -> LineError {
        LineError {
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }
}

const BEGIN: &[&str] = &["beginproblem"];
/// Popeye's begin words in its other input languages, which are not read here.
const OTHER_LANGUAGES: &[(&str, &str)] =
    &[("anfangproblem", "German"), ("debutprobleme", "French")];
const PROBLEM_END: &[&str] = &["endproblem", "nextproblem"];
const TWIN_START: &[&str] = &["twin", "zeroposition"];

/// The commands of a problem's first part, in Popeye's order (which decides what a
/// shortened word means).
const COMMANDS: &[&str] = &[
    "remark",
    "sstipulation",
    "author",
    "origin",
    "pieces",
    "condition",
    "option",
    "stipulation",
    "protocol",
    "title",
    "LaTeX",
    "LaTeXPieces",
    "award",
    "InitialGameArray",
    "Forsyth",
];

const COLOURS: &[&str] = &["White", "Black", "Neutral", "TotalInvisible"];

/// Piece attributes (`Pieces White Royal Ke1`); none is played here.
const ATTRIBUTES: &[&str] = &[
    "Royal",
    "Kamikaze",
    "Paralysing",
    "Chameleon",
    "Jigger",
    "Volage",
    "Functionary",
    "HalfNeutral",
    "HurdleColourChanging",
    "Protean",
    "Magic",
    "Uncapturable",
    "Patrol",
    "Frischauf",
    "Bul",
    "Dob",
    "Anda",
    "AndaInverse",
    "AliceA",
    "AliceB",
];

/// The piece names of Popeye's English input (one or two characters). Only k, q, r, b,
/// s (the knight) and p are played; the others are fairy pieces. `n` is the
/// nightrider, not the knight.
const WALKS: &[&str] = &[
    "k", "p", "q", "s", "r", "b", "le", "ma", "pa", "va", "ro", "g", "n", "z", "ca", "gi", "rf",
    "bu", "we", "al", "fe", "da", "li", "ne", "l", "bp", "am", "em", "pr", "gn", "an", "sq", "wa",
    "dr", "ka", "ss", "uu", "ha", "m", "ea", "sw", "ar", "rb", "c", "nh", "du", "cr", "zr", "gr",
    "ch", "zh", "gh", "ds", "bk", "eq", "ct", "bs", "sp", "rl", "bl", "si", "tr", "nd", "o", "eh",
    "mo", "rr", "br", "ao", "oa", "rh", "bh", "ek", "bt", "gt", "sk", "cy", "cg", "rn", "rp", "ok",
    "37", "g2", "g3", "16", "24", "35", "dg", "kh", "or", "15", "25", "gl", "lr", "lb", "ln", "wr",
    "fr", "bi", "et", "na", "rm", "re", "rw", "bm", "be", "bw", "ra", "so", "mg", "36", "nl", "ml",
    "mm", "f", "do", "rt", "bo", "qe", "qf", "qq", "b1", "b2", "b3", "cp", "rk", "pp", "ls", "ze",
    "bn", "s2", "s4", "s1", "s3", "qn", "dk", "db", "no", "th", "lh", "ge", "gf", "kl", "ko", "kp",
    "sh", "gy", "ms", "po", "mp", "mh", "st", "se", "fa", "lo", "sa", "ah", "oh", "hc", "ee", "en",
    "sc",
];

/// The orthodox role a Popeye piece name stands for.
fn orthodox(walk: &str) -> Option<Role> {
    Some(match walk {
        "k" => Role::King,
        "q" => Role::Queen,
        "r" => Role::Rook,
        "b" => Role::Bishop,
        "s" => Role::Knight,
        "p" => Role::Pawn,
        _ => return None,
    })
}

/// Why a piece name is refused.
fn fairy_piece(walk: &str) -> String {
    let name = walk.to_uppercase();
    if walk == "n" {
        format!("piece '{name}' is Popeye's nightrider, a fairy piece (the knight is S); fairysolve plays K, Q, R, B, S and P")
    } else {
        format!("piece '{name}' is a fairy piece; fairysolve plays K, Q, R, B, S (knight) and P")
    }
}

const OPTIONS: &[&str] = &[
    "Defence",
    "SetPlay",
    "WhiteToPlay",
    "Variations",
    "MoveNumbers",
    "StartMoveNumber",
    "NoWk",
    "Duplex",
    "NoBk",
    "Threat",
    "NoThreat",
    "Try",
    "MaxSolutions",
    "MaxFlightsquares",
    "Search",
    "MultiSolutions",
    "NoSymmetry",
    "NonTrivial",
    "KeepMatingPiece",
    "EnPassant",
    "NoBoard",
    "NoShortVariations",
    "HalfDuplex",
    "PostKeyPlay",
    "Intelligent",
    "MaxTime",
    "NoCastling",
    "Quodlibet",
    "StopOnShortSolutions",
    "Beep",
    "SuppressGrid",
    "WriteGrid",
    "CastlingMutuallyExclusive",
    "GoalIsEnd",
    "unpublishedoption",
    "NullMoves",
    "UpToMoveNumber",
    "TrivialTriesAvoid",
    "MatesIn1",
];

/// Options that only say what to show or how to search: kept in the line's `c1` for the
/// reader, they change no solution.
const SHOWING: &[&str] = &[
    "SetPlay",
    "Variations",
    "MoveNumbers",
    "NoThreat",
    "Try",
    "Search",
    "MultiSolutions",
    "NoSymmetry",
    "NoBoard",
    "NoShortVariations",
    "StopOnShortSolutions",
    "SuppressGrid",
    "WriteGrid",
    "TrivialTriesAvoid",
    "MatesIn1",
];
/// The same, with one number after the option.
const SHOWING_WITH_NUMBER: &[&str] = &[
    "Defence",
    "StartMoveNumber",
    "MaxSolutions",
    "MaxTime",
    "UpToMoveNumber",
];
/// The same, with a number after the option or not.
const SHOWING_WITH_OPTIONAL_NUMBER: &[&str] = &["Intelligent", "Beep"];

const TWINNINGS: &[&str] = &[
    "move",
    "exchange",
    "stipulation",
    "sstipulation",
    "add",
    "remove",
    "continued",
    "rotate",
    "condition",
    "PolishType",
    "mirror",
    "shift",
    "substitute",
];

const MIRRORS: &[(&str, Transform)] = &[
    ("a1<-->h1", Transform::MirrorA1H1),
    ("a1<-->a8", Transform::MirrorA1A8),
    ("a1<-->h8", Transform::MirrorA1H8),
    ("a8<-->h1", Transform::MirrorA8H1),
];

/// Whether Popeye's `Duplex` or `HalfDuplex` was asked for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Duplex {
    #[default]
    No,
    /// Solve for both sides: as stated, and with the colours' roles exchanged.
    Both,
    /// Solve only with the colours' roles exchanged.
    Half,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The options that only concern the output, as written back (`SetPlay`,
    /// `Defence 1`, ...).
    pub showing: Vec<String>,
    pub white_to_play: bool,
    pub duplex: Duplex,
    /// The squares of `NoCastling`.
    pub no_castling: Vec<Square>,
    /// The squares of `EnPassant` (departure, crossed squares, arrival) and where the
    /// option was written.
    pub en_passant: Option<(Vec<Square>, Loc)>,
}

/// A change a twin makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Twinning {
    Move(Square, Square),
    Exchange(Square, Square),
    Remove(Vec<Square>),
    Add(Vec<(Square, Piece)>),
    Transform(Transform),
    Shift(Square, Square),
    PolishType,
    Substitute(Role, Role),
    Stipulation(Stipulation),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Twin {
    /// Where its `Twin` (or `ZeroPosition`) word stands.
    pub at: Loc,
    /// `Cont`: the changes apply to the twin before, not to the diagram.
    pub continued: bool,
    pub changes: Vec<(Twinning, Loc)>,
    /// What in this twin could not be read or is not played: the twin is refused, its
    /// siblings are not.
    pub errors: Vec<LineError>,
}

/// One problem as read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PopeyeProblem {
    /// 1-based number of the problem in its file.
    pub number: usize,
    /// Where its `BeginProblem` (or the `NextProblem` before it) stands.
    pub at: Option<Loc>,
    pub titles: Vec<String>,
    pub authors: Vec<String>,
    pub origins: Vec<String>,
    pub award: Option<String>,
    pub diagram: Diagram,
    pub stipulation: Option<(Stipulation, Loc)>,
    pub options: Options,
    /// `ZeroPosition`: the diagram itself is not to be solved; the first twin is.
    pub zero_position: bool,
    pub twins: Vec<Twin>,
    /// Everything in the problem that could not be read or is not played.
    pub errors: Vec<LineError>,
}

/// What a file holds, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    Problem(Box<PopeyeProblem>),
    /// A fault outside any problem.
    Error(LineError),
}

/// How a problem ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Ending {
    EndProblem,
    /// `NextProblem`, where it stands: the next problem begins there.
    NextProblem(Loc),
    EndOfInput,
}

/// Reads every problem of a file's text.
pub fn read(text: &str) -> Vec<Item> {
    Parser {
        reader: Reader::new(text),
        pending: None,
        stipulation_stated: false,
        strays: Vec::new(),
    }
    .file()
}

struct Parser {
    reader: Reader,
    pending: Option<Token>,
    /// Whether the current problem has a `Stipulation` command, read or not.
    stipulation_stated: bool,
    /// Characters read that belong to no token, not yet reported.
    strays: Vec<LineError>,
}

impl Parser {
    /// The next token, or None at the end of the input. A character that belongs to
    /// no token is kept as a fault of where it stands, and reading goes on.
    fn next(&mut self) -> Option<Token> {
        if let Some(t) = self.pending.take() {
            return Some(t);
        }
        loop {
            match self.reader.next_word() {
                Next::Token(t) => return Some(t),
                Next::End => return None,
                Next::Stray(c, line, column) => self
                    .strays
                    .push(Loc { line, column }.error(format!("unexpected character '{c}'"))),
            }
        }
    }

    fn push_back(&mut self, t: Token) {
        debug_assert!(self.pending.is_none());
        self.pending = Some(t);
    }

    fn here(&self) -> Loc {
        let (line, column) = self.reader.here();
        Loc { line, column }
    }

    fn file(&mut self) -> Vec<Item> {
        let mut items = Vec::new();
        let mut number = 0;
        // After `EndProblem` Popeye stops reading; here a further `BeginProblem` is
        // read too (files are often put together), anything else is left alone.
        let mut after_end = false;
        let mut complained = false;
        loop {
            let next = self.next();
            if let Some(stray) = self.strays.drain(..).next() {
                if !after_end && !complained {
                    complained = true;
                    items.push(Item::Error(LineError {
                        message: format!(
                            "{}: a Popeye input starts with BeginProblem",
                            stray.message
                        ),
                        ..stray
                    }));
                }
            }
            let Some(t) = next else { break };
            if keyword(BEGIN, &t.text) == Match::One(0) {
                let mut at = Loc::of(&t);
                loop {
                    number += 1;
                    let (problem, ending) = self.problem(number, at);
                    items.push(Item::Problem(Box::new(problem)));
                    match ending {
                        Ending::NextProblem(next) => at = next,
                        Ending::EndProblem => {
                            after_end = true;
                            break;
                        }
                        Ending::EndOfInput => return items,
                    }
                }
                continue;
            }
            if let Some((_, language)) = OTHER_LANGUAGES
                .iter()
                .find(|(word, _)| keyword(&[word], &t.text) == Match::One(0))
            {
                items.push(Item::Error(Loc::of(&t).error(format!(
                    "'{}' begins a problem in Popeye's {language} input; only English input is read (BeginProblem, Pieces White Ke1 Sg1 ..., Stipulation, EndProblem)",
                    t.text
                ))));
                return items;
            }
            if !after_end && !complained {
                complained = true;
                items.push(Item::Error(Loc::of(&t).error(format!(
                    "'{}' outside a problem: a Popeye input starts with BeginProblem",
                    t.text
                ))));
            }
        }
        if number == 0 && items.is_empty() {
            items
                .push(Item::Error(self.here().error(
                    "no problem in the input (BeginProblem ... EndProblem)",
                )));
        }
        items
    }

    /// One problem, from after its `BeginProblem` (or `NextProblem`) to its end.
    fn problem(&mut self, number: usize, at: Loc) -> (PopeyeProblem, Ending) {
        let mut p = PopeyeProblem {
            number,
            at: Some(at),
            ..PopeyeProblem::default()
        };
        self.stipulation_stated = false;
        let ending = loop {
            let Some(t) = self.next() else {
                p.errors.push(self.here().error(format!(
                    "the input ends inside problem {number}: EndProblem is missing"
                )));
                break Ending::EndOfInput;
            };
            match keyword(COMMANDS, &t.text) {
                Match::One(i) => self.command(COMMANDS[i], &t, &mut p),
                Match::Ambiguous => p.errors.push(Loc::of(&t).error(format!(
                    "'{}' is the start of several Popeye commands; write more of it",
                    t.text
                ))),
                Match::None => {
                    if let Some(ending) = problem_end(&t) {
                        break ending;
                    }
                    if let Match::One(k) = keyword(TWIN_START, &t.text) {
                        break self.twins(&t, k == 1, &mut p);
                    }
                    p.errors.push(Loc::of(&t).error(format!(
                        "'{}' is not a Popeye command (Pieces, Stipulation, Option, Author, Origin, Title, Twin, EndProblem, ...)",
                        t.text
                    )));
                }
            }
        };
        // Faults in the order they stand in the file.
        p.errors.append(&mut self.strays);
        p.errors.sort_by_key(|e| (e.line, e.column));
        if !self.stipulation_stated && ending != Ending::EndOfInput {
            p.errors
                .push(at.error(format!("problem {number} has no Stipulation")));
        }
        (p, ending)
    }

    fn command(&mut self, name: &str, t: &Token, p: &mut PopeyeProblem) {
        let at = Loc::of(t);
        match name {
            "remark" | "protocol" => {
                // A remark, or where Popeye writes its output: nothing of the problem.
                self.reader.rest_of_line();
            }
            "LaTeX" | "LaTeXPieces" => {
                // Popeye's LaTeX output: `LaTeX FILE`, then for both, lines of a piece
                // name, its LaTeX abbreviation and its full name.
                if name == "LaTeX" {
                    self.reader.rest_of_line();
                }
                while let Some(t) = self.next() {
                    let walk = t.text.to_ascii_lowercase();
                    if t.text.len() > 2 || !WALKS.contains(&walk.as_str()) {
                        self.push_back(t);
                        break;
                    }
                    self.next();
                    self.reader.rest_of_line();
                }
            }
            "author" | "origin" | "title" => {
                let text = self.reader.rest_of_line();
                if !text.is_empty() {
                    match name {
                        "author" => p.authors.push(text),
                        "origin" => p.origins.push(text),
                        _ => p.titles.push(text),
                    }
                }
            }
            "award" => {
                let text = self.reader.rest_of_line();
                p.award = (!text.is_empty()).then_some(text);
            }
            "sstipulation" => {
                p.errors.push(at.error(
                    "structured stipulations (SStipulation) are not read; write Stipulation #N, h#N, h#N.5 or s#N",
                ));
                self.skip_to(&[COMMANDS, PROBLEM_END, TWIN_START]);
            }
            "condition" => {
                self.condition(at, p);
                self.skip_to(&[COMMANDS, PROBLEM_END, TWIN_START]);
            }
            "pieces" => {
                let men = self.pieces(at, "Pieces", &mut p.errors);
                for (sq, piece) in men {
                    p.diagram.put(sq, piece);
                }
            }
            "option" => self.options(at, p),
            "stipulation" => {
                self.stipulation_stated = true;
                match self.stipulation(at, "Stipulation", &mut p.errors) {
                    Some(s) => p.stipulation = Some(s),
                    None => self.skip_to(&[COMMANDS, PROBLEM_END, TWIN_START]),
                }
            }
            "InitialGameArray" => p.diagram = Diagram::game_array(),
            "Forsyth" => self.forsyth(at, p),
            _ => unreachable!("every command of COMMANDS is handled"),
        }
    }

    /// Skips the words of something not read (a condition's parameters, a structured
    /// stipulation) up to the next word of one of `tables`.
    fn skip_to(&mut self, tables: &[&[&str]]) {
        while let Some(t) = self.next() {
            if tables
                .iter()
                .any(|tab| matches!(keyword(tab, &t.text), Match::One(_)))
            {
                self.push_back(t);
                return;
            }
        }
    }

    fn condition(&mut self, at: Loc, p: &mut PopeyeProblem) {
        match self.next() {
            Some(t) => p.errors.push(Loc::of(&t).error(format!(
                "condition '{}' is not played: fairysolve imports orthodox problems only",
                t.text
            ))),
            None => p.errors.push(at.error("Condition without a condition")),
        }
    }

    /// `Stipulation S` (or a twin's): `#N`, `h#N`, `h#N.5` or `s#N`.
    fn stipulation(
        &mut self,
        at: Loc,
        what: &str,
        errors: &mut Vec<LineError>,
    ) -> Option<(Stipulation, Loc)> {
        let Some(t) = self.next() else {
            errors.push(at.error(format!("{what} without a stipulation")));
            return None;
        };
        let here = Loc::of(&t);
        match parse_stipulation(&t.text) {
            Ok(s) => Some((s, here)),
            Err(message) => {
                errors.push(here.error(message));
                None
            }
        }
    }

    /// Colour groups of men (`White Ke1 Pa2b2 Black Ke8`), as `Pieces` and a twin's
    /// `Add` give them; the men in the order written.
    fn pieces(&mut self, at: Loc, what: &str, errors: &mut Vec<LineError>) -> Vec<(Square, Piece)> {
        let mut men = Vec::new();
        let mut groups = 0;
        loop {
            let Some(t) = self.next() else {
                if groups == 0 {
                    errors.push(at.error(format!(
                        "{what}: a colour (White or Black) and men expected"
                    )));
                }
                return men;
            };
            let colour = match keyword(COLOURS, &t.text) {
                Match::One(0) => Some(Color::White),
                Match::One(1) => Some(Color::Black),
                Match::One(2) => {
                    errors.push(Loc::of(&t).error("neutral men are not played by fairysolve"));
                    None
                }
                Match::One(_) => {
                    errors.push(
                        Loc::of(&t).error("total invisible men are not played by fairysolve"),
                    );
                    // Their number follows.
                    if let Some(n) = self.next() {
                        if !n.text.bytes().all(|b| b.is_ascii_digit()) {
                            self.push_back(n);
                        }
                    }
                    groups += 1;
                    continue;
                }
                Match::Ambiguous | Match::None => {
                    if groups == 0 {
                        errors.push(Loc::of(&t).error(format!(
                            "{what}: a colour (White or Black) expected, not '{}'",
                            t.text
                        )));
                        if walk_group(&t.text).is_some() {
                            // Men without a colour: said once.
                            return men;
                        }
                    }
                    self.push_back(t);
                    return men;
                }
            };
            groups += 1;
            let colour_at = Loc::of(&t);
            // Piece attributes, then the men.
            let mut count = 0;
            while let Some(t) = self.next() {
                if keyword(ATTRIBUTES, &t.text) != Match::None && walk_group(&t.text).is_none() {
                    errors.push(Loc::of(&t).error(format!(
                        "piece attribute '{}' is not played by fairysolve",
                        t.text
                    )));
                    continue;
                }
                let Some((walk, squares)) = walk_group(&t.text) else {
                    if let Some(name) = unknown_men(&t.text) {
                        errors.push(Loc::of(&t).error(format!(
                            "'{name}' is not a piece name of Popeye's English input"
                        )));
                        count += 1;
                        continue;
                    }
                    self.push_back(t);
                    break;
                };
                let squares =
                    match squares {
                        Some(squares) => squares,
                        None => match self.next() {
                            Some(s) if square_list(&s.text).is_some() => {
                                square_list(&s.text).unwrap_or_default()
                            }
                            other => {
                                errors.push(Loc::of(&t).error(format!(
                                    "squares expected after the piece '{}'",
                                    t.text
                                )));
                                if let Some(o) = other {
                                    self.push_back(o);
                                }
                                count += 1;
                                continue;
                            }
                        },
                    };
                count += 1;
                match orthodox(&walk) {
                    Some(role) => {
                        if let Some(c) = colour {
                            men.extend(squares.into_iter().map(|sq| (sq, Piece::new(c, role))));
                        }
                    }
                    None => errors.push(Loc::of(&t).error(fairy_piece(&walk))),
                }
            }
            if count == 0 {
                errors.push(colour_at.error(format!(
                    "men expected after '{}' (a piece letter and squares, e.g. Ke1 Pa2b2)",
                    t.text
                )));
            }
        }
    }

    fn options(&mut self, at: Loc, p: &mut PopeyeProblem) {
        let mut count = 0;
        while let Some(t) = self.next() {
            let name = match keyword(OPTIONS, &t.text) {
                Match::One(i) => OPTIONS[i],
                Match::Ambiguous => {
                    p.errors.push(Loc::of(&t).error(format!(
                        "'{}' is the start of several Popeye options; write more of it",
                        t.text
                    )));
                    count += 1;
                    continue;
                }
                Match::None => {
                    self.push_back(t);
                    break;
                }
            };
            count += 1;
            let here = Loc::of(&t);
            if SHOWING.contains(&name) {
                p.options.showing.push(name.to_string());
            } else if SHOWING_WITH_NUMBER.contains(&name) {
                match self.next() {
                    // Move numbers are written `25`, or `25:8:27` for the 8th move of the
                    // 27th of the 25th.
                    Some(n) if is_number(&n.text.replace(':', "")) => {
                        p.options.showing.push(format!("{name} {}", n.text))
                    }
                    other => {
                        p.errors
                            .push(here.error(format!("{name}: a number is expected after it")));
                        if let Some(o) = other {
                            self.push_back(o);
                        }
                    }
                }
            } else if SHOWING_WITH_OPTIONAL_NUMBER.contains(&name) {
                match self.next() {
                    Some(n) if is_number(&n.text) => {
                        p.options.showing.push(format!("{name} {}", n.text))
                    }
                    other => {
                        p.options.showing.push(name.to_string());
                        if let Some(o) = other {
                            self.push_back(o);
                        }
                    }
                }
            } else {
                match name {
                    // Each narrows which plays count as solutions (the threat's length,
                    // the defender's flights or non-trivial moves, the mating man kept):
                    // solved without it, the line would be another problem.
                    "Threat" | "MaxFlightsquares" | "NonTrivial" | "KeepMatingPiece" => {
                        let numbers = match name {
                            "NonTrivial" => 2,
                            "KeepMatingPiece" => 0,
                            _ => 1,
                        };
                        for _ in 0..numbers {
                            match self.next() {
                                Some(n) if is_number(&n.text) => {}
                                Some(other) => {
                                    self.push_back(other);
                                    break;
                                }
                                None => break,
                            }
                        }
                        p.errors.push(here.error(format!(
                            "option {name} changes which plays count as solutions, and fairysolve does not play it"
                        )));
                    }
                    "WhiteToPlay" => p.options.white_to_play = true,
                    "Duplex" | "HalfDuplex" => {
                        if p.options.duplex != Duplex::No {
                            p.errors
                                .push(here.error("Duplex and HalfDuplex exclude each other"));
                        }
                        p.options.duplex = if name == "Duplex" {
                            Duplex::Both
                        } else {
                            Duplex::Half
                        };
                    }
                    "NoCastling" | "EnPassant" => match self.next() {
                        Some(s) if square_list(&s.text).is_some_and(|l| !l.is_empty()) => {
                            let squares = square_list(&s.text).unwrap_or_default();
                            if name == "NoCastling" {
                                p.options.no_castling.extend(squares);
                            } else {
                                p.options.en_passant = Some((squares, here));
                            }
                        }
                        other => {
                            p.errors.push(here.error(format!(
                                "{name}: a list of squares is expected after it (e.g. {})",
                                if name == "NoCastling" {
                                    "a1e1"
                                } else {
                                    "e2e3e4"
                                }
                            )));
                            if let Some(o) = other {
                                self.push_back(o);
                            }
                        }
                    },
                    _ => {
                        // NoWk, NoBk, PostKeyPlay, Quodlibet, GoalIsEnd, NullMoves,
                        // CastlingMutuallyExclusive, ...: they change the problem.
                        p.errors
                            .push(here.error(format!("option {name} is not played by fairysolve")));
                        if name == "CastlingMutuallyExclusive" {
                            self.next();
                        }
                    }
                }
            }
        }
        if count == 0 {
            p.errors.push(at.error("Option without an option"));
        }
    }

    /// `Forsyth` placement: ranks from the 8th down, digits for empty squares, `/`
    /// optional, upper case White; a `+`, `-` or `=` before a man gives its colour, and
    /// `.` two-letter (fairy) names.
    fn forsyth(&mut self, at: Loc, p: &mut PopeyeProblem) {
        let Some(t) = self.next() else {
            p.errors.push(at.error("Forsyth without a placement"));
            return;
        };
        let here = Loc::of(&t);
        let chars: Vec<char> = t.text.chars().collect();
        let mut i = 0;
        // The next square to fill, counted from a8 (0) to h1 (63).
        let mut next = 0usize;
        while i < chars.len() && next < 64 {
            let c = chars[i];
            if c.is_ascii_digit() {
                let mut run = c as usize - '0' as usize;
                if let Some(d) = chars.get(i + 1).filter(|d| d.is_ascii_digit()) {
                    run = run * 10 + (*d as usize - '0' as usize);
                    i += 1;
                }
                next += run;
                i += 1;
                continue;
            }
            if c == '/' {
                i += 1;
                continue;
            }
            let mut colour = None;
            match c {
                '+' => colour = Some(Some(Color::White)),
                '-' => colour = Some(Some(Color::Black)),
                '=' => colour = Some(None),
                _ => {}
            }
            if colour.is_some() {
                i += 1;
            }
            let (name, len) = if chars.get(i) == Some(&'.') {
                (chars.iter().skip(i + 1).take(2).collect::<String>(), 3)
            } else {
                (chars.get(i).map(|c| c.to_string()).unwrap_or_default(), 1)
            };
            let Some(first) = name.chars().next() else {
                p.errors
                    .push(here.error("Forsyth: a man is missing at the end"));
                return;
            };
            let colour = colour.unwrap_or(Some(if first.is_ascii_lowercase() {
                Color::Black
            } else {
                Color::White
            }));
            let walk = name.to_ascii_lowercase();
            match (colour, orthodox(&walk)) {
                (None, _) => p
                    .errors
                    .push(here.error("neutral men are not played by fairysolve")),
                (Some(c), Some(role)) => {
                    let sq = Square::from_coords((next % 8) as u8, 7 - (next / 8) as u8);
                    p.diagram.put(sq, Piece::new(c, role));
                }
                (Some(_), None) if WALKS.contains(&walk.as_str()) => {
                    p.errors.push(here.error(fairy_piece(&walk)))
                }
                (Some(_), None) => p
                    .errors
                    .push(here.error(format!("Forsyth: '{name}' is not a piece"))),
            }
            next += 1;
            i += len;
        }
        // Popeye lets the last rank end with a `/`.
        if chars[i.min(chars.len())..].iter().any(|&c| c != '/') {
            p.errors
                .push(here.error("Forsyth: the placement has more than 64 squares"));
        }
    }

    /// The twins, from the first `Twin` or `ZeroPosition` word to the problem's end.
    fn twins(&mut self, first: &Token, zero: bool, p: &mut PopeyeProblem) -> Ending {
        p.zero_position = zero;
        let mut at = Loc::of(first);
        let mut is_zero = zero;
        loop {
            let mut errors = Vec::new();
            let mut twin = self.twin(at, is_zero, &mut errors);
            twin.errors = errors;
            p.twins.push(twin);
            is_zero = false;
            loop {
                let Some(t) = self.next() else {
                    p.errors.push(self.here().error(format!(
                        "the input ends inside problem {}: EndProblem is missing",
                        p.number
                    )));
                    return Ending::EndOfInput;
                };
                if keyword(&["remark"], &t.text) == Match::One(0) {
                    self.reader.rest_of_line();
                    continue;
                }
                match keyword(TWIN_START, &t.text) {
                    Match::One(0) => {
                        at = Loc::of(&t);
                        break;
                    }
                    Match::One(_) => {
                        p.errors.push(
                            Loc::of(&t)
                                .error("ZeroPosition comes before the first Twin, not after it"),
                        );
                        continue;
                    }
                    _ => {}
                }
                if let Some(ending) = problem_end(&t) {
                    return ending;
                }
                let twin = p.twins.last_mut().expect("a twin was just read");
                if keyword(&["condition"], &t.text) == Match::One(0) {
                    // A twin that changes the conditions: fairysolve plays none of
                    // Popeye's, so this twin is refused whole; its words are skipped.
                    twin.errors.push(Loc::of(&t).error(
                        "Condition in a twin: fairysolve plays none of Popeye's conditions, so this twin is not imported",
                    ));
                    while let Some(w) = self.next() {
                        if keyword(TWIN_START, &w.text) != Match::None || problem_end(&w).is_some()
                        {
                            self.push_back(w);
                            break;
                        }
                    }
                    continue;
                }
                twin.errors.push(Loc::of(&t).error(format!(
                    "'{}' is not a twinning (Move, Exchange, Remove, Add, Rotate, Mirror, Shift, PolishType, Substitute, Stipulation, Cont) nor Twin or EndProblem",
                    t.text
                )));
            }
        }
    }

    /// The changes of one twin, up to the first word that is not one.
    fn twin(&mut self, at: Loc, zero: bool, errors: &mut Vec<LineError>) -> Twin {
        let mut twin = Twin {
            at,
            continued: false,
            changes: Vec::new(),
            errors: Vec::new(),
        };
        let mut first = true;
        while let Some(t) = self.next() {
            let here = Loc::of(&t);
            let name = match keyword(TWINNINGS, &t.text) {
                Match::One(i) => TWINNINGS[i],
                Match::Ambiguous => {
                    errors.push(here.error(format!(
                        "'{}' is the start of several twinnings; write more of it",
                        t.text
                    )));
                    first = false;
                    continue;
                }
                Match::None => {
                    self.push_back(t);
                    break;
                }
            };
            let is_first = std::mem::replace(&mut first, false);
            let change = match name {
                "continued" => {
                    if is_first && !zero {
                        twin.continued = true;
                    } else {
                        errors.push(here.error("Cont must follow Twin at once"));
                    }
                    continue;
                }
                "move" | "exchange" | "shift" => {
                    let (Some(a), Some(b)) = (self.square(errors, here), self.square(errors, here))
                    else {
                        continue;
                    };
                    match name {
                        "move" => Twinning::Move(a, b),
                        "exchange" => Twinning::Exchange(a, b),
                        _ => Twinning::Shift(a, b),
                    }
                }
                "remove" => match self.next() {
                    Some(s) if square_list(&s.text).is_some_and(|l| !l.is_empty()) => {
                        Twinning::Remove(square_list(&s.text).unwrap_or_default())
                    }
                    other => {
                        errors.push(here.error("Remove: squares are expected after it"));
                        if let Some(o) = other {
                            self.push_back(o);
                        }
                        continue;
                    }
                },
                "add" => Twinning::Add(self.pieces(here, "Add", errors)),
                "rotate" => match self.next() {
                    Some(n) if ["90", "180", "270"].contains(&n.text.as_str()) => {
                        Twinning::Transform(match n.text.as_str() {
                            "90" => Transform::Rotate90,
                            "180" => Transform::Rotate180,
                            _ => Transform::Rotate270,
                        })
                    }
                    other => {
                        errors.push(here.error("Rotate: 90, 180 or 270 is expected after it"));
                        if let Some(o) = other {
                            self.push_back(o);
                        }
                        continue;
                    }
                },
                "mirror" => {
                    let names: Vec<&str> = MIRRORS.iter().map(|(n, _)| *n).collect();
                    match self.next() {
                        Some(m) => match keyword(&names, &m.text) {
                            Match::One(i) => Twinning::Transform(MIRRORS[i].1),
                            _ => {
                                errors.push(Loc::of(&m).error(format!(
                                    "Mirror: '{}' is not a1<-->h1, a1<-->a8, a1<-->h8 or a8<-->h1",
                                    m.text
                                )));
                                continue;
                            }
                        },
                        None => {
                            errors.push(here.error("Mirror: a1<-->h1, a1<-->a8, a1<-->h8 or a8<-->h1 is expected after it"));
                            continue;
                        }
                    }
                }
                "PolishType" => Twinning::PolishType,
                "substitute" => {
                    let (Some(a), Some(b)) = (self.role(errors, here), self.role(errors, here))
                    else {
                        continue;
                    };
                    Twinning::Substitute(a, b)
                }
                "stipulation" => match self.stipulation(here, "Stipulation", errors) {
                    Some((s, _)) => Twinning::Stipulation(s),
                    None => continue,
                },
                "condition" => {
                    let mut p = PopeyeProblem::default();
                    self.condition(here, &mut p);
                    errors.append(&mut p.errors);
                    self.skip_to(&[TWINNINGS, PROBLEM_END, TWIN_START]);
                    continue;
                }
                _ => {
                    errors.push(here.error(
                        "structured stipulations (SStipulation) are not read; write Stipulation #N, h#N, h#N.5 or s#N",
                    ));
                    self.skip_to(&[TWINNINGS, PROBLEM_END, TWIN_START]);
                    continue;
                }
            };
            twin.changes.push((change, here));
        }
        twin
    }

    /// One square, written as a word of its own (`Move a1 a2`).
    fn square(&mut self, errors: &mut Vec<LineError>, after: Loc) -> Option<Square> {
        match self.next() {
            Some(s) => match square_list(&s.text).as_deref() {
                Some([sq]) => Some(*sq),
                _ => {
                    errors.push(Loc::of(&s).error(format!("'{}' is not a square", s.text)));
                    None
                }
            },
            None => {
                errors.push(after.error("a square is expected"));
                None
            }
        }
    }

    /// One piece name, written as a word of its own (`Substitute R B`).
    fn role(&mut self, errors: &mut Vec<LineError>, after: Loc) -> Option<Role> {
        let Some(t) = self.next() else {
            errors.push(after.error("a piece name is expected"));
            return None;
        };
        let walk = t.text.to_ascii_lowercase();
        match orthodox(&walk) {
            Some(r) => Some(r),
            None if WALKS.contains(&walk.as_str()) => {
                errors.push(Loc::of(&t).error(fairy_piece(&walk)));
                None
            }
            None => {
                errors.push(Loc::of(&t).error(format!("'{}' is not a piece name", t.text)));
                None
            }
        }
    }
}

/// How `t` ends a problem, if it is `EndProblem` or `NextProblem`.
fn problem_end(t: &Token) -> Option<Ending> {
    match keyword(PROBLEM_END, &t.text) {
        Match::One(0) => Some(Ending::EndProblem),
        Match::One(_) => Some(Ending::NextProblem(Loc::of(t))),
        _ => None,
    }
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Squares written one after the other (`a2b2c2`); None when the text is not that.
fn square_list(text: &str) -> Option<Vec<Square>> {
    let b = text.as_bytes();
    if !b.len().is_multiple_of(2) {
        return None;
    }
    b.chunks(2)
        .map(|pair| {
            let file = pair[0].to_ascii_lowercase().wrapping_sub(b'a');
            let rank = pair[1].wrapping_sub(b'1');
            (file < 8 && rank < 8).then(|| Square::from_coords(file, rank))
        })
        .collect()
}

/// A word of men (`Pa2b2`, or `P` with its squares in the next word): the piece name
/// (lower case) and the squares when the word has them. As in Popeye, a word of odd
/// length starts with a one-letter name, of even length with a two-letter one; a
/// hunter `X/Y` is named with its slash.
fn walk_group(text: &str) -> Option<(String, Option<Vec<Square>>)> {
    if !text.is_ascii() {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    let (walk, rest) = match lower.find('/') {
        Some(slash @ 1..=2) => {
            let after = &lower[slash + 1..];
            let home = if after.len() % 2 == 1 { 1 } else { 2 };
            if after.len() < home {
                return None;
            }
            (
                lower[..slash + 1 + home].to_string(),
                &lower[slash + 1 + home..],
            )
        }
        Some(_) => return None,
        None => {
            let len = if lower.len() % 2 == 1 { 1 } else { 2 };
            if lower.len() < len || !WALKS.contains(&&lower[..len]) {
                return None;
            }
            (lower[..len].to_string(), &lower[len..])
        }
    };
    if rest.is_empty() {
        return Some((walk, None));
    }
    square_list(rest).map(|squares| (walk, Some(squares)))
}

/// The name in a word that has the shape of men (a name of one or two letters or
/// digits, then squares) but no piece of that name.
fn unknown_men(text: &str) -> Option<&str> {
    if !text.is_ascii() {
        return None;
    }
    let len = if text.len() % 2 == 1 { 1 } else { 2 };
    let (name, rest) = text.split_at(len.min(text.len()));
    let shaped = name.bytes().all(|b| b.is_ascii_alphanumeric())
        && square_list(rest).is_some_and(|l| !l.is_empty());
    shaped.then_some(name)
}

/// `#N`, `h#N`, `h#N.5` or `s#N` (in any case); a message for anything else.
pub fn parse_stipulation(text: &str) -> Result<Stipulation, String> {
    let lower = text.to_ascii_lowercase();
    let unsupported = || {
        format!(
            "stipulation '{text}' is not played by fairysolve (it plays #N, h#N, h#N.5 and s#N)"
        )
    };
    let (aim, rest) = if let Some(r) = lower.strip_prefix("h#") {
        (Aim::Help, r)
    } else if let Some(r) = lower.strip_prefix("s#") {
        (Aim::Selfmate, r)
    } else if let Some(r) = lower.strip_prefix('#') {
        (Aim::Direct, r)
    } else {
        return Err(unsupported());
    };
    let (number, half) = match rest.strip_suffix(".5") {
        Some(n) if aim == Aim::Help => (n, true),
        _ => (rest, false),
    };
    if !is_number(number) {
        return Err(unsupported());
    }
    let least = if half { 0 } else { 1 };
    match number.parse::<u32>() {
        Ok(n) if (least..=MAX_MOVES).contains(&n) => Ok(Stipulation {
            aim,
            moves: n,
            half,
        }),
        _ => Err(format!(
            "stipulation '{text}': the number of moves must be {least} to {MAX_MOVES}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> PopeyeProblem {
        match read(text).into_iter().next() {
            Some(Item::Problem(p)) => *p,
            other => panic!("no problem: {other:?}"),
        }
    }

    #[test]
    fn men_words_follow_popeyes_length_rule() {
        assert_eq!(
            walk_group("Ka1"),
            Some(("k".into(), Some(vec![Square::A1])))
        );
        assert_eq!(
            walk_group("pa2b2"),
            Some(("p".into(), Some(vec![Square::A2, Square::B2])))
        );
        assert_eq!(
            walk_group("PAa5"),
            Some(("pa".into(), Some(vec![Square::A5])))
        );
        assert_eq!(walk_group("S"), Some(("s".into(), None)));
        assert_eq!(walk_group("black"), None);
        assert_eq!(walk_group("stipulation"), None);
        assert_eq!(walk_group("ti"), None);
        assert_eq!(walk_group("ka1b9"), None);
        assert_eq!(
            walk_group("B/Ra1"),
            Some(("b/r".into(), Some(vec![Square::A1])))
        );
    }

    #[test]
    fn stipulations_played_and_not() {
        assert_eq!(parse_stipulation("H#2.5").unwrap().to_string(), "h#2.5");
        assert_eq!(parse_stipulation("s#3").unwrap().to_string(), "s#3");
        assert_eq!(parse_stipulation("#2").unwrap().to_string(), "#2");
        assert_eq!(parse_stipulation("h#0.5").unwrap().to_string(), "h#0.5");
        for bad in [
            "ser-h#3",
            "hs#2",
            "r#2",
            "#=2",
            "dia3.5",
            "exact-h#2",
            "s#2.5",
            "h#",
            "#",
        ] {
            assert!(
                parse_stipulation(bad)
                    .unwrap_err()
                    .contains("is not played"),
                "{bad}"
            );
        }
        assert!(parse_stipulation("#99999999999999999999")
            .unwrap_err()
            .contains("1 to 30"));
        assert!(parse_stipulation("h#0").unwrap_err().contains("1 to 30"));
    }

    #[test]
    fn a_problem_with_everything_read() {
        let p = one(
            "BeginProblem\nAuthor A. Composer\nOrigin Somewhere 2024\nTitle One\nPieces White Ke1 Rh1 Pa2b2 Black Ke8\nStipulation h#2\nOption Set Try Defence 1 NoCastling e8 WhiteToPlay\nTwin Cont Move h1 h2\nEndProblem\n",
        );
        assert_eq!(p.errors, vec![]);
        assert_eq!(p.authors, vec!["A. Composer"]);
        assert_eq!(p.titles, vec!["One"]);
        assert_eq!(p.options.showing, vec!["SetPlay", "Try", "Defence 1"]);
        assert_eq!(p.options.no_castling, vec![Square::E8]);
        assert!(p.options.white_to_play);
        assert_eq!(p.twins.len(), 1);
        assert!(p.twins[0].continued);
        assert_eq!(
            p.twins[0].changes[0].0,
            Twinning::Move(Square::H1, Square::H2)
        );
        assert_eq!(p.diagram.board().occupied().count(), 5);
    }

    #[test]
    fn garbage_never_panics() {
        for text in [
            "",
            "\u{0}\u{1}ÿ",
            "BeginProblem",
            "BeginProblem Pieces",
            "BeginProblem Pieces White",
            "BeginProblem Pieces White K",
            "BeginProblem Forsyth ........",
            "BeginProblem Forsyth 99999999/+",
            "BeginProblem Twin Cont Cont Move",
            "BeginProblem Option EnPassant",
            "BeginProblem Stipulation #1 Twin Add White",
            "beg sti #1 pie white ka1 black ka3 twin rot 45 mirror x end",
            "BeginProblem Pieces White Ka1/ Black ///// EndProblem",
        ] {
            let _ = read(text);
        }
    }
}
