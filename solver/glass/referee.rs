//! The referee of the hidden-information game (rules.md 5.7, 5.8d-e; formats.md 4).
//!
//! White sees only the Real board, Black only the Mirror. A player orders a move by
//! board, from-square and to-square; the referee plays it as given on the player's own
//! board (where the player can see that it is legal) and as far as it gets on the other
//! board, or answers a strike. After each move it reports what each player may learn:
//! whether the men passed, the captured man's letter, and for each man that arrived
//! through a portal, the men it attacks there, told by the player who sees that board to
//! the one who does not. `Report::view` is what is addressed to one player, and holds
//! nothing else (tests/glass_referee.rs checks it over random games).

use super::setup::position_line;
use super::{GMove, GState, Glass, Side};
use crate::attacks::piece_attacks;
use crate::generic::{End, TurnGame};
use crate::geometry::{Geometry, Standard};
use crate::types::{Color, Piece, Role, Square};
use serde_json::{json, Value};
use thiserror::Error;

/// The board a colour sees: White the Real, Black the Mirror (5.7).
pub fn own_board(color: Color) -> Side {
    match color {
        Color::White => Side::Real,
        Color::Black => Side::Mirror,
    }
}

/// The colour that sees `side`.
fn viewer(side: Side) -> Color {
    match side {
        Side::Real => Color::White,
        Side::Mirror => Color::Black,
    }
}

/// A line the referee cannot take as an order (not a strike: formats.md 4).
#[derive(Debug, Error, PartialEq, Eq)]
pub enum OrderError {
    #[error("column {column}: {message}")]
    Unreadable { column: usize, message: String },
    #[error("it is {0}'s turn")]
    NotYourTurn(&'static str),
    #[error("{0} must pick one of the moves offered (`{1} pick M:a1a3`)")]
    PickExpected(&'static str, char),
    #[error("nothing to pick: no order was forfeited")]
    NothingToPick,
    #[error("{0} is not one of the moves offered")]
    NotOffered(String),
    #[error("the game is over")]
    GameOver,
}

/// An order as written: `w R:e2e4`, `b M:e7e8n`, `w ask`, `b pick M:a1a3`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Order {
    Move(MoveOrder),
    Ask(Color),
    /// The opponent's choice of a forfeited side's move (`picker` names the chooser).
    Pick {
        picker: Color,
        order: MoveOrder,
    },
}

/// A move order: board, from, to and the promotion letter as given.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveOrder {
    pub color: Color,
    pub side: Side,
    pub from: Square,
    pub to: Square,
    /// Any letter written after the squares; only `n`, `b`, `r`, `q` can be played.
    pub letter: Option<char>,
}

impl MoveOrder {
    fn text(&self) -> String {
        let mut s = format!("{}:{}{}", self.side.letter(), self.from, self.to);
        if let Some(c) = self.letter {
            s.push(c);
        }
        s
    }
}

fn unreadable(column: usize, message: impl Into<String>) -> OrderError {
    OrderError::Unreadable {
        column: column + 1,
        message: message.into(),
    }
}

/// Reads a board move `R:e2e4[q]` starting at `column` (0-based) of the line.
fn parse_move(color: Color, text: &str, column: usize) -> Result<MoveOrder, OrderError> {
    let Some((board, squares)) = text.split_once(':') else {
        return Err(unreadable(
            column,
            format!("'{text}' is not a move order: write the board, R: or M:, then the squares (R:e2e4)"),
        ));
    };
    let side = Side::parse(board)
        .ok_or_else(|| unreadable(column, format!("'{board}' is not a board: R or M")))?;
    let at = column + board.len() + 1;
    let chars: Vec<char> = squares.chars().collect();
    if chars.len() < 4 || chars.len() > 5 || !squares.is_ascii() {
        return Err(unreadable(
            at,
            format!("'{squares}' is not two squares and an optional promotion letter"),
        ));
    }
    let from = Square::parse(&squares[0..2])
        .ok_or_else(|| unreadable(at, format!("'{}' is not a square", &squares[0..2])))?;
    let to = Square::parse(&squares[2..4])
        .ok_or_else(|| unreadable(at + 2, format!("'{}' is not a square", &squares[2..4])))?;
    let letter = chars.get(4).copied();
    if let Some(c) = letter {
        if !c.is_ascii_alphabetic() {
            return Err(unreadable(
                at + 4,
                format!("'{c}' is not a promotion letter"),
            ));
        }
    }
    Ok(MoveOrder {
        color,
        side,
        from,
        to,
        letter,
    })
}

/// Reads one order line (formats.md 4). Columns in errors are 1-based.
pub fn parse_order(line: &str) -> Result<Order, OrderError> {
    let mut words = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices().chain([(line.len(), ' ')]) {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                words.push((s, &line[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    let Some(&(_, who)) = words.first() else {
        return Err(unreadable(0, "an empty order"));
    };
    let color = match who {
        "w" => Color::White,
        "b" => Color::Black,
        _ => {
            return Err(unreadable(
                words[0].0,
                format!("'{who}' is not a side: an order begins with w or b"),
            ))
        }
    };
    let Some(&(at, what)) = words.get(1) else {
        return Err(unreadable(
            line.trim_end().len(),
            "the order is missing: a move (R:e2e4), ask, or pick",
        ));
    };
    let order = match what {
        "ask" => {
            if let Some(&(extra, _)) = words.get(2) {
                return Err(unreadable(extra, "nothing may follow ask"));
            }
            Order::Ask(color)
        }
        "pick" => {
            let Some(&(mat, mv)) = words.get(2) else {
                return Err(unreadable(
                    line.trim_end().len(),
                    "pick needs one of the moves offered (M:a1a3)",
                ));
            };
            if let Some(&(extra, _)) = words.get(3) {
                return Err(unreadable(extra, "one move only after pick"));
            }
            // The picker chooses a move of the other side.
            Order::Pick {
                picker: color,
                order: parse_move(!color, mv, mat)?,
            }
        }
        mv => {
            if let Some(&(extra, _)) = words.get(2) {
                return Err(unreadable(extra, "one move per order"));
            }
            Order::Move(parse_move(color, mv, at)?)
        }
    };
    Ok(order)
}

/// Why an order is impossible (5.7, 5.8d): the names of formats.md 4.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Strike {
    NoPiece,
    WrongDirection,
    BlockedAtOnce,
    FriendlyTarget,
    PawnPushBlocked,
    PawnCaptureEmpty,
    BadPromotion,
    NotAsGiven,
}

impl Strike {
    pub fn name(self) -> &'static str {
        match self {
            Strike::NoPiece => "no-piece",
            Strike::WrongDirection => "wrong-direction",
            Strike::BlockedAtOnce => "blocked-at-once",
            Strike::FriendlyTarget => "friendly-target",
            Strike::PawnPushBlocked => "pawn-push-blocked",
            Strike::PawnCaptureEmpty => "pawn-capture-empty",
            Strike::BadPromotion => "bad-promotion",
            Strike::NotAsGiven => "not-as-given",
        }
    }
}

/// What an order comes to on its board: the square the man really reaches (a ride cut
/// short stops earlier) and whether that is short of the order's.
#[derive(Copy, Clone, Debug)]
struct Reach {
    to: Square,
    partial: bool,
}

/// The steps of a ride from `from` toward `to` when `role` can ride that way.
fn ride_direction(role: Role, from: Square, to: Square) -> Option<(i32, i32)> {
    let df = to.file() as i32 - from.file() as i32;
    let dr = to.rank() as i32 - from.rank() as i32;
    let straight = (df == 0) != (dr == 0);
    let diagonal = df != 0 && df.abs() == dr.abs();
    let ok = match role {
        Role::Rook => straight,
        Role::Bishop => diagonal,
        Role::Queen => straight || diagonal,
        _ => false,
    };
    ok.then(|| (df.signum(), dr.signum()))
}

/// Where an order gets on its board as the other board's rule plays it (5.7): a rider
/// stops before a friendly man or on the first enemy; a pawn's double step stops after
/// one step when its second square is taken (5.8d). `Err` when it is impossible.
fn reach(s: &GState, o: &MoveOrder) -> Result<Reach, Strike> {
    let board = s.board(o.side).board();
    let own = board.by_color(o.color);
    let occupied = board.occupied();
    let piece = board.piece_at(o.from).filter(|p| p.color == o.color);
    let Some(piece) = piece else {
        return Err(Strike::NoPiece);
    };
    let exact = Reach {
        to: o.to,
        partial: false,
    };
    let df = (o.to.file() as i32 - o.from.file() as i32).abs();
    let dr = o.to.rank() as i32 - o.from.rank() as i32;
    match piece.role {
        Role::Knight => {
            if !Standard.knight_attacks(o.from).contains(o.to) {
                return Err(Strike::WrongDirection);
            }
            if own.contains(o.to) {
                return Err(Strike::FriendlyTarget);
            }
            Ok(exact)
        }
        Role::King => {
            if castling_rook(s, o).is_some() {
                return Ok(exact);
            }
            if !Standard.king_attacks(o.from).contains(o.to) {
                return Err(Strike::WrongDirection);
            }
            if own.contains(o.to) {
                return Err(Strike::FriendlyTarget);
            }
            Ok(exact)
        }
        Role::Pawn => {
            let forward = o.color.fold(1, -1);
            let start = o.color.fold(1, 6);
            if df == 0 && dr == forward {
                if occupied.contains(o.to) {
                    return Err(Strike::PawnPushBlocked);
                }
                Ok(exact)
            } else if df == 0 && dr == 2 * forward && o.from.rank() as i32 == start {
                let first =
                    Square::from_coords(o.from.file(), (o.from.rank() as i32 + forward) as u8);
                if occupied.contains(first) {
                    return Err(Strike::PawnPushBlocked);
                }
                if occupied.contains(o.to) {
                    return Ok(Reach {
                        to: first,
                        partial: true,
                    });
                }
                Ok(exact)
            } else if df == 1 && dr == forward {
                if own.contains(o.to) {
                    return Err(Strike::FriendlyTarget);
                }
                let enemy = board.by_color(!o.color).contains(o.to);
                let en_passant = super::en_passant_square(s, o.side) == Some(o.to);
                if enemy || en_passant {
                    Ok(exact)
                } else {
                    Err(Strike::PawnCaptureEmpty)
                }
            } else {
                Err(Strike::WrongDirection)
            }
        }
        rider => {
            let Some((sf, sr)) = ride_direction(rider, o.from, o.to) else {
                return Err(Strike::WrongDirection);
            };
            let mut at = o.from;
            let mut last = None;
            loop {
                let next = Square::from_coords(
                    (at.file() as i32 + sf) as u8,
                    (at.rank() as i32 + sr) as u8,
                );
                if own.contains(next) {
                    return match last {
                        None => Err(Strike::BlockedAtOnce),
                        Some(stop) => Ok(Reach {
                            to: stop,
                            partial: true,
                        }),
                    };
                }
                if occupied.contains(next) || next == o.to {
                    return Ok(Reach {
                        to: next,
                        partial: next != o.to,
                    });
                }
                last = Some(next);
                at = next;
            }
        }
    }
}

/// The rook a king order castles with: the king takes a rook of its own that has the
/// castling right on that board (5.8a). Whether the path is free is the move's matter.
fn castling_rook(s: &GState, o: &MoveOrder) -> Option<Square> {
    let pos = s.board(o.side);
    let rook = Piece::new(o.color, Role::Rook);
    (pos.board().piece_at(o.to) == Some(rook) && pos.castling().contains(o.to)).then_some(o.to)
}

/// Resolves an order to the move the rules play, or the strike it earns (5.7, 5.8d).
fn resolve(game: &Glass, s: &GState, o: &MoveOrder) -> Result<(GMove, bool), Strike> {
    let reach = reach(s, o)?;
    if reach.partial && o.side == own_board(o.color) {
        // On one's own board the order must be legal as given (5.8d).
        return Err(Strike::NotAsGiven);
    }
    let board = s.board(o.side).board();
    let role = board.role_at(o.from).unwrap_or(Role::Pawn);
    let last_rank = o.color.fold(7, 0);
    let promotes = role == Role::Pawn && reach.to.rank() == last_rank;
    let promotion = match (promotes, o.letter) {
        (true, None) => Some(Role::Queen),
        (true, Some(c)) => match Role::from_char(c.to_ascii_lowercase()) {
            Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => Some(r),
            _ => return Err(Strike::BadPromotion),
        },
        (false, Some(_)) => return Err(Strike::BadPromotion),
        (false, None) => None,
    };
    let found = game.moves(s).into_iter().find(|m| {
        m.side == o.side
            && m.mv.from == o.from
            && m.mv.to == reach.to
            && m.mv.promotion() == promotion
    });
    match found {
        Some(m) => Ok((m, reach.partial)),
        // A king taking its castling rook when the path is not free.
        None if castling_rook(s, o).is_some() => Err(Strike::FriendlyTarget),
        None => Err(Strike::NotAsGiven),
    }
}

/// An announcement (5.7, 5.8e): a man arrived on `board`; the player who sees that
/// board tells `to` the men of the other colour it attacks there, and for a pawn what
/// stands in front of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Told {
    pub to: Color,
    pub board: Side,
    pub piece: Piece,
    pub square: Square,
    /// Letter and square of each man attacked (`nf6`), sorted.
    pub attacks: Vec<String>,
    /// For a pawn: the man on the square in front of it, if any.
    pub front: Option<Option<Piece>>,
}

fn told(s: &GState, board: Side, square: Square) -> Option<Told> {
    let pos = s.board(board).board();
    let piece = pos.piece_at(square)?;
    let hits = piece_attacks(&Standard, piece.role, piece.color, square, pos.occupied())
        & pos.by_color(!piece.color);
    let mut attacks: Vec<String> = hits
        .into_iter()
        .filter_map(|sq| pos.piece_at(sq).map(|p| format!("{}{sq}", p.char())))
        .collect();
    attacks.sort();
    let front = (piece.role == Role::Pawn).then(|| {
        Standard
            .pawn_step(piece.color, square)
            .first()
            .and_then(|sq| pos.piece_at(sq))
    });
    Some(Told {
        to: !viewer(board),
        board,
        piece,
        square,
        attacks,
        front,
    })
}

/// How the game stands after a move (formats.md 4).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Continue,
    Win,
    Draw,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Continue => "continue",
            Status::Win => "win",
            Status::Draw => "draw",
        }
    }
}

/// A move played, with everything the referee reports of it.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    pub mover: Color,
    pub mv: GMove,
    pub coord: String,
    pub partial: bool,
    pub captured: Option<Piece>,
    /// Each man the move put on a square and whether it passed to the other board.
    pub passed: Vec<(Square, bool)>,
    pub told: Vec<Told>,
    pub status: Status,
    /// The position line after the move (the referee's record, told to no player).
    pub epd: String,
    /// What each player sees after the move: the placement of that player's board.
    pub boards: [String; 2],
}

/// The referee's answer to one order.
#[derive(Clone, Debug)]
pub enum Report {
    Played(PlayedMove),
    Strike {
        color: Color,
        reason: Strike,
        strikes: u32,
        lost: bool,
    },
    /// Under `forfeit`: the opponent chooses one of `choices` for `color` on `side`.
    Forfeit {
        color: Color,
        reason: Strike,
        side: Side,
        choices: Vec<String>,
    },
    /// Under `forfeit` with no legal move on that board: order again, no penalty.
    Again {
        color: Color,
        reason: Strike,
    },
    Answer {
        color: Color,
        board: Side,
        any_legal_move: bool,
    },
}

fn piece_letter(p: Option<Piece>) -> Value {
    p.map_or(Value::Null, |p| Value::String(p.char().to_string()))
}

fn told_json(t: &Told) -> Value {
    let mut v = json!({
        "to": t.to.letter().to_string(),
        "board": t.board.letter().to_string(),
        "piece": t.piece.char().to_string(),
        "square": t.square.to_string(),
        "attacks": t.attacks,
    });
    if let Some(front) = t.front {
        v["front"] = Value::String(front.map_or(".".to_string(), |p| p.char().to_string()));
    }
    v
}

fn passed_json(passed: &[(Square, bool)]) -> Value {
    let mut map = serde_json::Map::new();
    for (sq, went) in passed {
        map.insert(sq.to_string(), Value::Bool(*went));
    }
    Value::Object(map)
}

impl Report {
    /// The referee's full record of the order (formats.md 4).
    pub fn to_json(&self) -> Value {
        match self {
            Report::Played(p) => json!({
                "result": "played",
                "move": p.coord,
                "partial": p.partial,
                "captured": piece_letter(p.captured),
                "passed": passed_json(&p.passed),
                "told": p.told.iter().map(told_json).collect::<Vec<_>>(),
                "status": p.status.name(),
                "epd": p.epd,
            }),
            Report::Strike {
                reason,
                strikes,
                lost,
                ..
            } => {
                json!({"result": "strike", "reason": reason.name(), "strikes": strikes, "lost": lost})
            }
            Report::Forfeit {
                reason, choices, ..
            } => json!({"result": "forfeit", "reason": reason.name(), "choices": choices}),
            Report::Again { reason, .. } => json!({"result": "again", "reason": reason.name()}),
            Report::Answer {
                board,
                any_legal_move,
                ..
            } => {
                json!({"result": "answer", "board": board.letter().to_string(), "any_legal_move": any_legal_move})
            }
        }
    }

    /// What is addressed to `player`: only what that player may know (5.7, 5.8e). The
    /// mover hears how the order went; the other player hears the captured man's
    /// letter, the strikes and the game's status; each hears the announcements
    /// addressed to it and sees its own board. `None`: nothing for that player.
    pub fn view(&self, player: Color) -> Option<Value> {
        match self {
            Report::Played(p) => {
                let mine: Vec<Value> =
                    p.told.iter().filter(|t| t.to == player).map(told_json).collect();
                let mut v = json!({
                    "result": "played",
                    "captured": piece_letter(p.captured),
                    "told": mine,
                    "status": p.status.name(),
                    "board": p.boards[player.index()],
                });
                if player == p.mover {
                    v["move"] = Value::String(p.coord.clone());
                    v["partial"] = Value::Bool(p.partial);
                    v["passed"] = passed_json(&p.passed);
                } else if p.mv.side == own_board(player) {
                    // The opponent's move on this player's board is in plain sight.
                    v["move"] = Value::String(p.coord.clone());
                }
                Some(v)
            }
            Report::Strike {
                color,
                reason,
                strikes,
                lost,
            } => {
                let mut v = json!({"result": "strike", "color": color.letter().to_string(), "strikes": strikes, "lost": lost});
                if player == *color {
                    v["reason"] = Value::String(reason.name().into());
                }
                Some(v)
            }
            Report::Forfeit {
                color,
                reason,
                choices,
                ..
            } => Some(if player == *color {
                json!({"result": "forfeit", "reason": reason.name()})
            } else {
                json!({"result": "forfeit", "choices": choices})
            }),
            Report::Again { color, reason } => Some(if player == *color {
                json!({"result": "again", "reason": reason.name()})
            } else {
                json!({"result": "again"})
            }),
            Report::Answer {
                color,
                board,
                any_legal_move,
            } => (player == *color).then(|| {
                json!({"result": "answer", "board": board.letter().to_string(), "any_legal_move": any_legal_move})
            }),
        }
    }

    /// The record in words, for a terminal.
    pub fn text(&self) -> String {
        match self {
            Report::Played(p) => {
                let mut out = format!("{} played {}", p.mover.name(), p.coord);
                if p.partial {
                    out.push_str(" (cut short)");
                }
                if let Some(c) = p.captured {
                    out.push_str(&format!(", took {}", c.char()));
                }
                for (sq, went) in &p.passed {
                    out.push_str(&format!(
                        "; {sq} {}",
                        if *went { "passed" } else { "stayed" }
                    ));
                }
                for t in &p.told {
                    out.push_str(&format!(
                        "; {} is told: {}{} on {} attacks {}",
                        t.to.name(),
                        t.piece.char(),
                        t.square,
                        t.board.letter(),
                        if t.attacks.is_empty() {
                            "nothing".to_string()
                        } else {
                            t.attacks.join(" ")
                        }
                    ));
                    if let Some(front) = t.front {
                        out.push_str(&format!(", in front: {}", front.map_or('.', |p| p.char())));
                    }
                }
                match p.status {
                    Status::Continue => {}
                    Status::Win => out.push_str(&format!("; {} wins", p.mover.name())),
                    Status::Draw => out.push_str("; draw by stalemate"),
                }
                out
            }
            Report::Strike {
                color,
                reason,
                strikes,
                lost,
            } => format!(
                "{} strike {strikes} ({}){}",
                color.name(),
                reason.name(),
                if *lost { "; lost" } else { "" }
            ),
            Report::Forfeit {
                color,
                reason,
                choices,
                ..
            } => format!(
                "{} forfeits the order ({}); {} picks one of: {}",
                color.name(),
                reason.name(),
                (!*color).name(),
                choices.join(" ")
            ),
            Report::Again { color, reason } => format!(
                "{} orders again ({}; no move on that board to pick)",
                color.name(),
                reason.name()
            ),
            Report::Answer {
                color,
                board,
                any_legal_move,
            } => format!(
                "{}: {} legal move on {}",
                color.name(),
                if *any_legal_move { "a" } else { "no" },
                board.letter()
            ),
        }
    }
}

/// A forfeited order waiting for the opponent's pick.
#[derive(Clone, Debug)]
struct Pending {
    color: Color,
    choices: Vec<GMove>,
}

/// The referee: the true position, the strikes, and the rule for impossible orders.
#[derive(Clone, Debug)]
pub struct Referee {
    state: GState,
    strikes: [u32; 2],
    forfeit: bool,
    pending: Option<Pending>,
    over: bool,
}

/// Strikes that lose the game (5.7).
pub const STRIKES_TO_LOSE: u32 = 3;

impl Referee {
    pub fn new(state: GState, forfeit: bool, strikes: [u32; 2]) -> Referee {
        let over = state.ended.is_some() || strikes.iter().any(|&n| n >= STRIKES_TO_LOSE);
        Referee {
            state,
            strikes,
            forfeit,
            pending: None,
            over,
        }
    }

    pub fn state(&self) -> &GState {
        &self.state
    }

    pub fn strikes(&self) -> [u32; 2] {
        self.strikes
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Under `forfeit`, after an impossible order: the colour that must pick, and the
    /// moves it may pick from (as `pick` names them).
    pub fn pick_offer(&self) -> Option<(Color, Vec<String>)> {
        self.pending.as_ref().map(|p| {
            (
                !p.color,
                p.choices
                    .iter()
                    .map(|&m| super::notation::coord(m))
                    .collect(),
            )
        })
    }

    fn game(&self) -> Glass {
        Glass {
            attacker: Color::White,
        }
    }

    /// Answers one order.
    pub fn order(&mut self, order: Order) -> Result<Report, OrderError> {
        if self.over {
            return Err(OrderError::GameOver);
        }
        match order {
            Order::Ask(color) => Ok(self.ask(color)),
            Order::Pick { picker, order } => {
                let Some(pending) = self.pending.clone() else {
                    return Err(OrderError::NothingToPick);
                };
                if picker == pending.color {
                    return Err(OrderError::PickExpected(
                        (!picker).name(),
                        (!picker).letter(),
                    ));
                }
                let text = order.text();
                let Some(&m) = pending
                    .choices
                    .iter()
                    .find(|&&m| super::notation::coord(m) == text)
                else {
                    return Err(OrderError::NotOffered(text));
                };
                self.pending = None;
                Ok(Report::Played(self.play(m, false)))
            }
            Order::Move(o) => {
                if let Some(p) = &self.pending {
                    return Err(OrderError::PickExpected(
                        (!p.color).name(),
                        (!p.color).letter(),
                    ));
                }
                if o.color != self.state.turn {
                    return Err(OrderError::NotYourTurn(self.state.turn.name()));
                }
                let game = self.game();
                match resolve(&game, &self.state, &o) {
                    Ok((m, partial)) => Ok(Report::Played(self.play(m, partial))),
                    Err(reason) if self.forfeit => {
                        let choices: Vec<GMove> = game
                            .moves(&self.state)
                            .into_iter()
                            .filter(|m| m.side == o.side)
                            .collect();
                        if choices.is_empty() {
                            return Ok(Report::Again {
                                color: o.color,
                                reason,
                            });
                        }
                        let names = choices.iter().map(|&m| super::notation::coord(m)).collect();
                        self.pending = Some(Pending {
                            color: o.color,
                            choices,
                        });
                        Ok(Report::Forfeit {
                            color: o.color,
                            reason,
                            side: o.side,
                            choices: names,
                        })
                    }
                    Err(reason) => {
                        let n = &mut self.strikes[o.color.index()];
                        *n += 1;
                        let lost = *n >= STRIKES_TO_LOSE;
                        self.over = lost;
                        Ok(Report::Strike {
                            color: o.color,
                            reason,
                            strikes: *n,
                            lost,
                        })
                    }
                }
            }
        }
    }

    /// Whether `color` has a legal move on the board it cannot see (5.7, 5.8e), as if it
    /// were to move (en passant only when it is).
    fn ask(&self, color: Color) -> Report {
        let board = own_board(color).other();
        let game = self.game();
        let state = if self.state.turn == color {
            self.state
        } else {
            game.other_side_to_move(&self.state).unwrap_or(self.state)
        };
        let any_legal_move = game.moves(&state).iter().any(|m| m.side == board);
        Report::Answer {
            color,
            board,
            any_legal_move,
        }
    }

    fn play(&mut self, m: GMove, partial: bool) -> PlayedMove {
        let game = self.game();
        let before = self.state;
        let mover = before.turn;
        let coord = super::notation::coord(m);
        let (after, passes) = game.play_reporting(&before, m);
        let captured = captured_man(&before, &after);
        let mut passed = Vec::new();
        let mut announcements = Vec::new();
        for (sq, went) in passes.into_iter().flatten() {
            passed.push((sq, went));
            if went {
                announcements.extend(told(&after, m.side.other(), sq));
            }
        }
        let status = match game.end(&after) {
            Some(End::Win(_)) => Status::Win,
            Some(End::Draw) => Status::Draw,
            None => Status::Continue,
        };
        self.over = status != Status::Continue;
        self.state = after;
        PlayedMove {
            mover,
            mv: m,
            coord,
            partial,
            captured,
            passed,
            told: announcements,
            status,
            epd: position_line(&after),
            boards: [
                crate::fen::write_placement(after.board(Side::Real).board()),
                crate::fen::write_placement(after.board(Side::Mirror).board()),
            ],
        }
    }
}

/// The man a move took: the one of the other colour missing after it.
fn captured_man(before: &GState, after: &GState) -> Option<Piece> {
    let victim = !before.turn;
    let count = |s: &GState, role: Role| -> u32 {
        Side::BOTH
            .into_iter()
            .map(|side| s.board(side).board().by_piece(victim, role).count())
            .sum()
    };
    Role::ALL
        .into_iter()
        .find(|&r| count(after, r) < count(before, r))
        .map(|r| Piece::new(victim, r))
}

/// The Chess960 back rank of number `n` (0..960), files a-h, by the usual numbering:
/// bishops on a light and a dark square, the queen, the knights, then rook, king, rook.
pub fn chess960_rank(n: usize) -> [Role; 8] {
    let mut rank = [None; 8];
    let mut n = n % 960;
    rank[(n % 4) * 2 + 1] = Some(Role::Bishop);
    n /= 4;
    rank[(n % 4) * 2] = Some(Role::Bishop);
    n /= 4;
    let place = |k: usize, role: Role, rank: &mut [Option<Role>; 8]| {
        let sq = (0..8).filter(|&f| rank[f].is_none()).nth(k).unwrap_or(0);
        rank[sq] = Some(role);
    };
    place(n % 6, Role::Queen, &mut rank);
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[n % 10];
    // The second knight first, so that the first one's index is not shifted.
    place(b, Role::Knight, &mut rank);
    place(a, Role::Knight, &mut rank);
    for role in [Role::Rook, Role::King, Role::Rook] {
        place(0, role, &mut rank);
    }
    rank.map(|r| r.unwrap_or(Role::Pawn))
}

/// The position line of a set-up (5.1): White's array `white` on ranks 1-2 of the Real
/// board, Black's `black` on ranks 7-8 of the Mirror, all castling rights.
pub fn setup_line(white: usize, black: usize) -> String {
    let row = |n: usize, color: Color| -> String {
        chess960_rank(n)
            .iter()
            .map(|&r| Piece::new(color, r).char())
            .collect()
    };
    let rights = |n: usize, color: Color| -> String {
        let rank = chess960_rank(n);
        let mut files: Vec<char> = (0..8)
            .filter(|&f| rank[f] == Role::Rook)
            .map(|f| (b'a' + f as u8) as char)
            .collect();
        files.sort_by(|a, b| b.cmp(a));
        let s: String = files.into_iter().collect();
        if color == Color::White {
            s.to_ascii_uppercase()
        } else {
            s
        }
    };
    format!(
        "8/8/8/8/8/8/PPPPPPPP/{} w {}{} - mirror \"{}/pppppppp/8/8/8/8/8/8\";",
        row(white, Color::White),
        rights(white, Color::White),
        rights(black, Color::Black),
        row(black, Color::Black),
    )
}
