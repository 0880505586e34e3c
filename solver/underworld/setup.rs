//! Reading and writing Underworld position lines (formats.md 1): the World as the FEN
//! fields, `underworld "PLACEMENT"`, `phase`, `reserve`, `homes`, `u_ep`; with the
//! checks of rules.md 7.2 and 4.8c, each reported at its operation's column.

use super::drops::default_homes;
use super::state::{Phase, Realm, Reserve, UState};
use crate::epd::{LineError, Operation, Record};
use crate::geometry::Standard;
use crate::problem::Stipulation;
use crate::types::{Color, Piece, Role, Square};

/// An Underworld problem: the line, its state and its stipulation.
#[derive(Clone, Debug)]
pub struct UnderworldProblem {
    pub record: Record,
    pub state: UState,
    pub stipulation: Option<Stipulation>,
}

/// Whether a record is an Underworld line.
pub fn is_underworld(rec: &Record) -> bool {
    rec.get("underworld").is_some()
}

fn at(rec: &Record, op: &Operation, message: impl Into<String>) -> LineError {
    LineError::new(rec.line, op.column, message)
}

/// Reads a record that has `underworld`.
pub fn read(rec: Record) -> Result<UnderworldProblem, LineError> {
    let uw = rec.get("underworld").expect("an underworld operation");
    if let Some(o) = crate::problem::foreign_operation(
        &rec,
        &[crate::problem::SINGLE_BOARD_OPS, crate::problem::GLASS_OPS],
    ) {
        return Err(at(
            &rec,
            o,
            format!("{}: not played together with underworld", o.opcode),
        ));
    }
    let setup = &rec.setup;
    let whole = |m: String| LineError::new(rec.line, 0, m);
    // The World: one king a side, no pawn on the first or last rank, en passant behind
    // a pawn that just stepped twice.
    for color in Color::ALL {
        let kings = setup.board.by_piece(color, Role::King).count();
        if kings != 1 {
            return Err(whole(format!(
                "the World has {kings} {} kings (one expected)",
                color.name()
            )));
        }
    }
    if let Some(sq) = (setup.board.by_role(Role::Pawn)
        & (crate::bitboard::Bitboard::rank(0) | crate::bitboard::Bitboard::rank(7)))
    .first()
    {
        return Err(whole(format!(
            "a pawn on {sq}, a rank of the World it can never stand on"
        )));
    }

    // The Underworld.
    let text = uw
        .single()
        .ok_or_else(|| at(&rec, uw, "underworld: \"PLACEMENT\" expected"))?;
    let under = crate::fen::parse_placement(text, 0).map_err(|e| {
        at(
            &rec,
            uw,
            format!("underworld: {} (at character {})", e.message, e.column + 1),
        )
    })?;
    for color in Color::ALL {
        let kings = under.by_piece(color, Role::King).count();
        if kings != 1 {
            let what = if kings == 0 {
                format!("underworld: no {} Underworld King", color.name())
            } else {
                format!("underworld: {kings} {} Underworld Kings", color.name())
            };
            return Err(at(&rec, uw, what));
        }
    }

    let world = setup.clone().into_position();
    let mut state = UState {
        world,
        under,
        u_ep: None,
        homes: [default_homes(&setup.board), default_homes(&under)],
        reserve: Reserve::default(),
        phase: Phase::WW,
        placing: None,
        last_mover: None,
    };

    // The phase: it agrees with the side to move and names an active board.
    let both_inactive = !state.active(Realm::World) && !state.active(Realm::Under);
    state.phase = match rec.get("phase") {
        Some(o) => {
            let phase = o
                .single()
                .and_then(Phase::parse)
                .ok_or_else(|| at(&rec, o, "phase: WW, BW, BU or WU expected"))?;
            if phase.color() != setup.turn {
                return Err(at(
                    &rec,
                    o,
                    format!(
                        "phase {}: it is {}'s turn, but the side to move is {}",
                        phase.name(),
                        phase.color().name(),
                        setup.turn.name()
                    ),
                ));
            }
            if !both_inactive && !state.active(phase.realm()) {
                let board = match phase.realm() {
                    Realm::World => "the World",
                    Realm::Under => "the Underworld",
                };
                return Err(at(
                    &rec,
                    o,
                    format!(
                        "phase {}: {board} holds only its kings, so its turns are skipped",
                        phase.name()
                    ),
                ));
            }
            phase
        }
        None => {
            let world_phase = match setup.turn {
                Color::White => Phase::WW,
                Color::Black => Phase::BW,
            };
            if state.active(Realm::World) || both_inactive {
                world_phase
            } else {
                match setup.turn {
                    Color::White => Phase::WU,
                    Color::Black => Phase::BU,
                }
            }
        }
    };

    // The World's side to move is the next World mover; its en passant square stands
    // behind a pawn of the other side, which just stepped twice.
    let world_mover = super::state::next_world_mover(state.phase);
    crate::setup::validate_en_passant(&Standard, &setup.board, world_mover, setup.ep)
        .map_err(|e| whole(format!("World: {e}")))?;
    state.world = crate::fen::Setup {
        turn: world_mover,
        ..setup.clone()
    }
    .into_position();

    if let Some(o) = rec.get("reserve") {
        let text = o.single().unwrap_or("");
        for (i, c) in text.chars().enumerate() {
            match Piece::from_char(c) {
                Some(p) if p.role != Role::King => state.reserve.add(p.color, p.role),
                _ => {
                    return Err(at(
                        &rec,
                        o,
                        format!(
                            "reserve: '{c}' (character {}) is not a man that can be captured (PNBRQ, pnbrq)",
                            i + 1
                        ),
                    ))
                }
            }
        }
    }

    if let Some(o) = rec.get("homes") {
        let text = o.single().unwrap_or("");
        for entry in text.split_whitespace() {
            let parts: Vec<&str> = entry.split(':').collect();
            let (realm, square, file) = match parts.as_slice() {
                [b, sq, f] => {
                    let realm = match *b {
                        "W" => Realm::World,
                        "U" => Realm::Under,
                        _ => {
                            return Err(at(
                                &rec,
                                o,
                                format!("homes: '{entry}': the board is W or U"),
                            ))
                        }
                    };
                    (Some(realm), *sq, *f)
                }
                [sq, f] => (None, *sq, *f),
                _ => {
                    return Err(at(
                        &rec,
                        o,
                        format!("homes: '{entry}' is not BOARD:SQUARE:FILE"),
                    ))
                }
            };
            let sq = Square::parse(square).ok_or_else(|| {
                at(
                    &rec,
                    o,
                    format!("homes: '{square}' in '{entry}' is not a square"),
                )
            })?;
            let file = match file.as_bytes() {
                [f @ b'a'..=b'h'] => f - b'a',
                _ => {
                    return Err(at(
                        &rec,
                        o,
                        format!("homes: '{file}' in '{entry}' is not a file a-h"),
                    ))
                }
            };
            let holds = |r: Realm| {
                state
                    .board(r)
                    .role_at(sq)
                    .is_some_and(|role| role != Role::Pawn && role != Role::King)
            };
            let realm = match realm {
                Some(r) => r,
                None => match (holds(Realm::World), holds(Realm::Under)) {
                    (true, false) => Realm::World,
                    (false, true) => Realm::Under,
                    (true, true) => {
                        return Err(at(
                            &rec,
                            o,
                            format!("homes: '{entry}': both boards have a man on {sq}; write W:{sq}:{} or U:{sq}:{}", file_char(file), file_char(file)),
                        ))
                    }
                    (false, false) => {
                        return Err(at(
                            &rec,
                            o,
                            format!("homes: '{entry}': no piece on {sq} that has a home file (pawns and kings have none)"),
                        ))
                    }
                },
            };
            if !holds(realm) {
                return Err(at(
                    &rec,
                    o,
                    format!(
                        "homes: '{entry}': no piece on {sq} of the {} that has a home file (pawns and kings have none)",
                        if realm == Realm::World { "World" } else { "Underworld" }
                    ),
                ));
            }
            state.homes[realm.index()].set(sq, file);
        }
    }

    if let Some(o) = rec.get("u_ep") {
        let text = o.single().unwrap_or("");
        let sq = Square::parse(text)
            .ok_or_else(|| at(&rec, o, format!("u_ep: '{text}' is not a square")))?;
        // The pawn that stepped twice stands in front of the square, which is empty,
        // as is the square it came from (rules.md 4.8h).
        let (mover, pawn_rank, from_rank) = match sq.rank() {
            2 => (Color::White, 3, 1),
            5 => (Color::Black, 4, 6),
            _ => {
                return Err(at(
                    &rec,
                    o,
                    format!(
                        "u_ep: {sq} is not on the third or sixth rank, where a double step passes"
                    ),
                ))
            }
        };
        let pawn = Square::from_coords(sq.file(), pawn_rank);
        let from = Square::from_coords(sq.file(), from_rank);
        if state.under.piece_at(pawn) != Some(Piece::new(mover, Role::Pawn))
            || state.under.occupied().contains(sq)
            || state.under.occupied().contains(from)
        {
            return Err(at(
                &rec,
                o,
                format!(
                    "u_ep: {sq} needs a {} pawn on {pawn} that just stepped from {from}, with {sq} and {from} empty",
                    mover.name().to_lowercase()
                ),
            ));
        }
        state.u_ep = Some(sq);
    }

    // Who may be in check on the World (rules.md 4.8c).
    let uw_game = super::Underworld;
    let may_be_in_check: &[Color] = match state.phase {
        Phase::WW => &[Color::White, Color::Black],
        Phase::BW => &[Color::Black],
        Phase::BU | Phase::WU => &[Color::White],
    };
    for color in Color::ALL {
        if !may_be_in_check.contains(&color) && uw_game.world_check(&state, color) {
            return Err(whole(format!(
                "{} is in check on the World, which cannot be at phase {}",
                color.name(),
                state.phase.name()
            )));
        }
    }
    let stipulation = crate::problem::stipulation_of(&rec)?;
    crate::problem::asked_of_two_boards(&rec, stipulation)?;
    Ok(UnderworldProblem {
        record: rec,
        state,
        stipulation,
    })
}

fn file_char(file: u8) -> char {
    (b'a' + file) as char
}

/// Reads one position line (for tests and tools); the message on a bad line.
pub fn read_line(line: &str) -> Result<UnderworldProblem, String> {
    match crate::epd::parse_line(line, 1) {
        Ok(crate::epd::Line::Position(rec)) if is_underworld(&rec) => {
            read(*rec).map_err(|e| e.to_string())
        }
        Ok(crate::epd::Line::Position(_)) => Err("not an Underworld line".into()),
        Ok(_) => Err("no position on the line".into()),
        Err(e) => Err(e.to_string()),
    }
}

/// The position line of `s` (formats.md 1): what one command writes, another reads.
pub fn position_line(s: &UState) -> String {
    // The side to move is the phase's; the World keeps its en passant square.
    let fields = crate::fen::write_epd_fields(&s.world);
    let mut parts: Vec<&str> = fields.split(' ').collect();
    let side = s.phase.color().letter().to_string();
    parts[1] = &side;
    let mut out = parts.join(" ");
    out.push_str(&format!(
        " underworld \"{}\"; phase {};",
        crate::fen::write_placement(&s.under),
        s.phase.name()
    ));
    if !s.reserve.is_empty() {
        let mut letters = String::new();
        for c in Color::ALL {
            for role in [
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
                Role::Pawn,
            ] {
                for _ in 0..s.reserve.count(c, role) {
                    letters.push(Piece::new(c, role).char());
                }
            }
        }
        out.push_str(&format!(" reserve \"{letters}\";"));
    }
    let mut homes = Vec::new();
    for realm in [Realm::World, Realm::Under] {
        let board = s.board(realm);
        let defaults = default_homes(board);
        for (sq, piece) in board.pieces() {
            if matches!(piece.role, Role::Pawn | Role::King) {
                continue;
            }
            let home = s.homes[realm.index()].get(sq);
            if home != defaults.get(sq) {
                homes.push(format!("{}:{sq}:{}", realm.letter(), file_char(home)));
            }
        }
    }
    if !homes.is_empty() {
        out.push_str(&format!(" homes \"{}\";", homes.join(" ")));
    }
    if let Some(ep) = s.u_ep {
        out.push_str(&format!(" u_ep {ep};"));
    }
    out
}
