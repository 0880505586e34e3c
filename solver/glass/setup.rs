//! Reading and writing Looking-Glass position lines (formats.md 1): the Real board as
//! the FEN fields, `mirror "PLACEMENT"`, `ep_board R|M`; castling rights per board
//! (rules.md 5.8a), each reported at its column when it cannot be.

use super::{GState, Side};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::epd::{LineError, Operation, Record};
use crate::position::Position;
use crate::problem::Stipulation;
use crate::types::{Color, Role, Square};

/// A Looking-Glass problem: the line, its state and its stipulation.
#[derive(Clone, Debug)]
pub struct GlassProblem {
    pub record: Record,
    pub state: GState,
    pub stipulation: Option<Stipulation>,
}

/// Whether a record is a Looking-Glass line.
pub fn is_glass(rec: &Record) -> bool {
    rec.get("mirror").is_some()
}

fn at(rec: &Record, op: &Operation, message: impl Into<String>) -> LineError {
    LineError::new(rec.line, op.column, message)
}

/// The column of the FEN's castling field in the line (0-based).
fn castling_column(rec: &Record) -> usize {
    let mut fields = rec.fen_text.split(' ');
    let skip: usize = fields.by_ref().take(2).map(|f| f.chars().count() + 1).sum();
    skip
}

/// Reads the castling field against both boards (rules.md 5.8a): each right is a colour
/// and a rook square on the board where that colour's king stands on its first rank;
/// `K`/`Q` name the outermost rook on that side of the king, a file letter the rook on
/// that file.
fn castling(rec: &Record, text: &str, boards: &[Board; 2]) -> Result<[Bitboard; 2], LineError> {
    let mut rights = [Bitboard::EMPTY; 2];
    if text == "-" {
        return Ok(rights);
    }
    let col = castling_column(rec);
    for (i, c) in text.chars().enumerate() {
        let bad = |m: String| LineError::new(rec.line, col + i, m);
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let first = Bitboard::rank(color.fold(0, 7));
        let home = Side::BOTH.into_iter().find_map(|side| {
            let king = boards[side.index()].by_piece(color, Role::King) & first;
            king.first().map(|k| (side, k))
        });
        let Some((side, king)) = home else {
            return Err(bad(format!(
                "castling '{c}': {} has no king on its first rank of either board",
                color.name()
            )));
        };
        let rooks = boards[side.index()].by_piece(color, Role::Rook) & first;
        let lower = c.to_ascii_lowercase();
        let rook = match lower {
            'k' => rooks
                .into_iter()
                .filter(|r| r.file() > king.file())
                .max_by_key(|r| r.file()),
            'q' => rooks
                .into_iter()
                .filter(|r| r.file() < king.file())
                .min_by_key(|r| r.file()),
            'a'..='h' => {
                let file = lower as u8 - b'a';
                rooks.into_iter().find(|r| r.file() == file)
            }
            _ => return Err(bad(format!("castling '{c}' is not K, Q or a file letter"))),
        };
        let Some(rook) = rook else {
            return Err(bad(format!(
                "castling '{c}': no {} rook there on the board of its king",
                color.name().to_lowercase()
            )));
        };
        rights[side.index()].set(rook);
    }
    Ok(rights)
}

/// Reads a record that has `mirror`.
pub fn read(rec: Record) -> Result<GlassProblem, LineError> {
    let mirror = rec.get("mirror").expect("a mirror operation");
    if let Some(o) = crate::problem::foreign_operation(
        &rec,
        &[
            crate::problem::SINGLE_BOARD_OPS,
            crate::problem::UNDERWORLD_OPS,
        ],
    ) {
        return Err(at(
            &rec,
            o,
            format!("{}: not played together with mirror", o.opcode),
        ));
    }
    let whole = |m: String| LineError::new(rec.line, 0, m);
    let text = mirror
        .single()
        .ok_or_else(|| at(&rec, mirror, "mirror: \"PLACEMENT\" expected"))?;
    let mirror_board = crate::fen::parse_placement(text, 0).map_err(|e| {
        at(
            &rec,
            mirror,
            format!("mirror: {} (at character {})", e.message, e.column + 1),
        )
    })?;
    let real = rec.setup.board;
    let boards = [real, mirror_board];
    // One king a side over both boards; no pawn on its first or last rank.
    for color in Color::ALL {
        let kings = real.by_piece(color, Role::King).count()
            + mirror_board.by_piece(color, Role::King).count();
        if kings != 1 {
            return Err(whole(format!(
                "{} has {kings} kings on the two boards (one expected)",
                color.name()
            )));
        }
    }
    for (side, b) in Side::BOTH.into_iter().zip(boards) {
        let edge = Bitboard::rank(0) | Bitboard::rank(7);
        if let Some(sq) = (b.by_role(Role::Pawn) & edge).first() {
            let name = if side == Side::Real { "Real" } else { "Mirror" };
            return Err(whole(format!(
                "a pawn on {sq} of the {name} board, a rank it can never stand on"
            )));
        }
    }
    let castling_text = rec.fen_text.split(' ').nth(2).unwrap_or("-").to_string();
    let rights = castling(&rec, &castling_text, &boards)?;
    let turn = rec.setup.turn;
    let ep_board = match rec.get("ep_board") {
        Some(o) => Some(
            o.single()
                .and_then(Side::parse)
                .ok_or_else(|| at(&rec, o, "ep_board: R or M expected"))?,
        ),
        None => None,
    };
    let ep = match (rec.setup.ep, ep_board) {
        (None, None) => None,
        (None, Some(_)) => {
            let o = rec.get("ep_board").expect("ep_board");
            return Err(at(&rec, o, "ep_board: only with an en passant square"));
        }
        (Some(sq), None) => {
            return Err(whole(format!(
            "en passant {sq}: ep_board R or M must say on which board the double step was played"
        )))
        }
        (Some(sq), Some(side)) => {
            // The square the double step passed, empty on its board, with the pawn in
            // front of it on either board and the square it came from empty there.
            let them = !turn;
            let pawn_rank = them.fold(3, 4);
            let ep_rank = them.fold(2, 5);
            let pawn_sq = Square::from_coords(sq.file(), pawn_rank);
            let pawn = crate::types::Piece::new(them, Role::Pawn);
            let ok = sq.rank() == ep_rank
                && !boards[side.index()].occupied().contains(sq)
                && boards.iter().any(|b| b.piece_at(pawn_sq) == Some(pawn));
            if !ok {
                return Err(whole(format!(
                    "en passant {sq}: no {} pawn on {pawn_sq} of either board that can have just stepped past it on the {} board",
                    them.name(),
                    if side == Side::Real { "Real" } else { "Mirror" }
                )));
            }
            Some((sq, side))
        }
    };
    let make = |b: Board, r: Bitboard| Position::from_parts(b, turn, r, None, 0, 1);
    let state = GState {
        boards: [make(real, rights[0]), make(mirror_board, rights[1])],
        turn,
        ep,
        ended: None,
    };
    let stipulation = crate::problem::stipulation_of(&rec)?;
    crate::problem::asked_of_two_boards(&rec, stipulation)?;
    Ok(GlassProblem {
        record: rec,
        state,
        stipulation,
    })
}

/// Reads one position line (for tests and tools); the message on a bad line.
pub fn read_line(line: &str) -> Result<GlassProblem, String> {
    match crate::epd::parse_line(line, 1) {
        Ok(crate::epd::Line::Position(rec)) if is_glass(&rec) => {
            read(*rec).map_err(|e| e.to_string())
        }
        Ok(crate::epd::Line::Position(_)) => Err("not a Looking-Glass line".into()),
        Ok(_) => Err("no position on the line".into()),
        Err(e) => Err(e.to_string()),
    }
}

/// The position line of `s` (formats.md 1), castling in Shredder letters.
pub fn position_line(s: &GState) -> String {
    let mut castling = String::new();
    for color in Color::ALL {
        for side in Side::BOTH {
            let pos = s.board(side);
            let mut files: Vec<u8> = (pos.castling() & pos.board().by_color(color))
                .into_iter()
                .map(|r| r.file())
                .collect();
            files.sort_by(|a, b| b.cmp(a));
            for f in files {
                let c = (b'a' + f) as char;
                castling.push(if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let ep = s.ep.map_or("-".to_string(), |(sq, _)| sq.to_string());
    let mut out = format!(
        "{} {} {castling} {ep} mirror \"{}\";",
        crate::fen::write_placement(s.board(Side::Real).board()),
        s.turn.letter(),
        crate::fen::write_placement(s.board(Side::Mirror).board()),
    );
    if let Some((_, side)) = s.ep {
        out.push_str(&format!(" ep_board {};", side.letter()));
    }
    out
}
