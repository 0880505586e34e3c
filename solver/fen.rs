//! FEN fields: reading and writing placement, side to move, castling (X-FEN and
//! Shredder-FEN), en passant square and move counters. Only syntax and the facts the
//! fields themselves state are checked here; whether a position is legal under a game's
//! rules is `setup`'s question.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::position::Position;
use crate::types::{file_char, Color, Piece, Role, Square};
use std::fmt::Write as _;
use thiserror::Error;

/// A syntax error at a byte column (0-based) of the text that was read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("column {}: {message}", column + 1)]
pub struct FenError {
    pub column: usize,
    pub message: String,
}

fn err<T>(column: usize, message: impl Into<String>) -> Result<T, FenError> {
    Err(FenError {
        column,
        message: message.into(),
    })
}

/// The FEN fields as read, before any rule is applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub board: Board,
    pub turn: Color,
    pub castling: Bitboard,
    pub ep: Option<Square>,
    pub halfmoves: Option<u32>,
    pub fullmoves: Option<u32>,
}

impl Setup {
    pub fn into_position(self) -> Position {
        Position::from_parts(
            self.board,
            self.turn,
            self.castling,
            self.ep,
            self.halfmoves.unwrap_or(0),
            self.fullmoves.unwrap_or(1),
        )
    }
}

/// Splits `text` into whitespace-separated fields with their starting columns.
pub fn fields(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((s, &text[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// Reads a placement field (`rnbqkbnr/pppppppp/...`), rank 8 first.
pub fn parse_placement(text: &str, column: usize) -> Result<Board, FenError> {
    let mut board = Board::empty();
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() == 1 {
        return err(
            column,
            format!("'{text}' is not a piece placement: 8 ranks separated by '/' expected"),
        );
    }
    if ranks.len() != 8 {
        return err(
            column,
            format!("the placement has {} ranks, not 8", ranks.len()),
        );
    }
    let mut col = column;
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file: u32 = 0;
        for (j, c) in rank_text.char_indices() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return err(col + j, format!("'{c}' is not a count of empty squares"));
                }
                file += d;
            } else if let Some(piece) = Piece::from_char(c) {
                if file < 8 {
                    board.put(Square::from_coords(file as u8, rank), piece);
                }
                file += 1;
            } else {
                let message = if c == '\u{feff}' {
                    "a byte-order mark (U+FEFF, invisible) stands here inside the file (joined from files that each began with one?); remove it".to_string()
                } else {
                    format!("{} is not a piece letter", shown(c))
                };
                return err(col + j, message);
            }
        }
        if file != 8 {
            return err(col, format!("rank {} has {} squares", rank + 1, file));
        }
        col += rank_text.len() + 1;
    }
    Ok(board)
}

/// Reads the castling field: `-`, X-FEN `KQkq` (with file letters where ambiguous) or
/// Shredder-FEN `HAha`. Returns the squares of the castling rooks.
pub fn parse_castling(text: &str, board: &Board, column: usize) -> Result<Bitboard, FenError> {
    let mut rooks = Bitboard::EMPTY;
    if text == "-" {
        return Ok(rooks);
    }
    for (i, c) in text.char_indices() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back = color.fold(0, 7);
        let own_rooks = board.by_piece(color, Role::Rook) & Bitboard::rank(back);
        let Some(king) = board.king(color).filter(|k| k.rank() == back) else {
            return err(
                column + i,
                format!(
                    "castling '{c}': {} has no king on its first rank",
                    color.name()
                ),
            );
        };
        let rook = match c.to_ascii_lowercase() {
            'k' => own_rooks
                .filter(|r| r.file() > king.file())
                .max_by_key(|r| r.file()),
            'q' => own_rooks
                .filter(|r| r.file() < king.file())
                .min_by_key(|r| r.file()),
            f @ 'a'..='h' => {
                let sq = Square::from_coords(f as u8 - b'a', back);
                own_rooks.contains(sq).then_some(sq)
            }
            _ => return err(column + i, format!("'{c}' is not a castling letter")),
        };
        match rook {
            Some(r) if !rooks.contains(r) => rooks.set(r),
            Some(_) => return err(column + i, format!("castling '{c}' is given twice")),
            None => {
                return err(
                    column + i,
                    format!("castling '{c}': no {} rook to castle with", color.name()),
                )
            }
        }
    }
    for color in Color::ALL {
        let side = rooks & Bitboard::rank(color.fold(0, 7));
        if let Some(king) = board.king(color) {
            let (left, right): (Vec<Square>, Vec<Square>) =
                side.partition(|r| r.file() < king.file());
            if left.len() > 1 || right.len() > 1 {
                return err(
                    column,
                    format!(
                        "castling: {} has two castling rooks on one side of its king",
                        color.name()
                    ),
                );
            }
        }
    }
    Ok(rooks)
}

fn parse_number(text: &str, column: usize, what: &str) -> Result<u32, FenError> {
    text.parse::<u32>()
        .map_err(|_| FenError {
            column,
            message: format!("the {what} '{text}' is not a number"),
        })
        .and_then(|n| {
            if n > u16::MAX as u32 {
                err(column, format!("the {what} {n} is out of range"))
            } else {
                Ok(n)
            }
        })
}

/// Reads 4 to 6 FEN fields (placement, side, castling, en passant, and optionally the
/// two counters), each with its starting column.
pub fn parse_fields(f: &[(usize, &str)]) -> Result<Setup, FenError> {
    // Each field present is read before a missing one is named: `hello world` is a
    // placement at fault, not a line short of fields.
    let missing = |name: &str| {
        let col = f.last().map(|(c, t)| c + t.len()).unwrap_or(0);
        err(col, format!("the {name} field is missing"))
    };
    let Some(&(placement_column, placement)) = f.first() else {
        return missing("placement");
    };
    let board = parse_placement(placement, placement_column)?;
    if f.len() < 2 {
        return missing("side to move");
    }
    let turn = match f[1].1 {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return err(
                f[1].0,
                format!("side to move '{other}' is neither 'w' nor 'b'"),
            )
        }
    };
    if f.len() < 3 {
        return missing("castling");
    }
    if f[2].1 != "-" {
        // A castling right belongs to a side's one king: two kings is the fault to
        // name, not which of them lacks a rook.
        for color in Color::ALL {
            let kings = board.by_piece(color, Role::King).count();
            if kings > 1 {
                return err(
                    placement_column,
                    format!("{} has {kings} kings", color.name()),
                );
            }
        }
    }
    let castling = parse_castling(f[2].1, &board, f[2].0)?;
    if f.len() < 4 {
        return missing("en passant");
    }
    let ep = match f[3].1 {
        "-" => None,
        s => Some(Square::parse(s).ok_or_else(|| FenError {
            column: f[3].0,
            message: format!("en passant '{s}' is not a square"),
        })?),
    };
    let halfmoves = match f.get(4) {
        Some((c, t)) => Some(parse_number(t, *c, "halfmove clock")?),
        None => None,
    };
    let fullmoves = match f.get(5) {
        Some((c, t)) => Some(parse_number(t, *c, "move number")?),
        None => None,
    };
    if let Some((c, t)) = f.get(6) {
        return err(*c, format!("unexpected '{t}' after the move number"));
    }
    Ok(Setup {
        board,
        turn,
        castling,
        ep,
        halfmoves,
        fullmoves,
    })
}

/// Reads a whole FEN (4 to 6 fields) as a FIDE position, checked by `setup::validate`
/// on the standard board.
pub fn parse_fen(text: &str) -> Result<Position, FenError> {
    let setup = parse_fields(&fields(text))?;
    crate::setup::validate_fide(&setup).map_err(|e| FenError {
        column: 0,
        message: e.to_string(),
    })?;
    Ok(setup.into_position())
}

pub fn write_placement(board: &Board) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board.piece_at(Square::from_coords(file, rank)) {
                Some(p) => {
                    if empty > 0 {
                        write!(out, "{empty}").unwrap();
                        empty = 0;
                    }
                    out.push(p.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            write!(out, "{empty}").unwrap();
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// X-FEN castling: `K`/`Q` for the outermost rook on its side, the file letter otherwise.
pub fn write_castling(board: &Board, castling: Bitboard) -> String {
    let mut out = String::new();
    for color in Color::ALL {
        let back = Bitboard::rank(color.fold(0, 7));
        let own_rooks = board.by_piece(color, Role::Rook) & back;
        let king = board.king(color);
        let mut rights: Vec<Square> = (castling & back).collect();
        rights.sort_by_key(|r| std::cmp::Reverse(r.file()));
        for rook in rights {
            let king_side = king.map(|k| rook.file() > k.file()).unwrap_or(true);
            let mut beyond = own_rooks.filter(|r| {
                if king_side {
                    r.file() > rook.file()
                } else {
                    r.file() < rook.file()
                }
            });
            let outermost = beyond.next().is_none();
            let c = if outermost {
                if king_side {
                    'k'
                } else {
                    'q'
                }
            } else {
                file_char(rook.file())
            };
            out.push(if color == Color::White {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
    }
    if out.is_empty() {
        out.push('-');
    }
    out
}

/// The four EPD fields of a position.
pub fn write_epd_fields(pos: &Position) -> String {
    format!(
        "{} {} {} {}",
        write_placement(pos.board()),
        pos.turn().letter(),
        write_castling(pos.board(), pos.castling()),
        pos.ep_square()
            .map(|s| s.to_string())
            .unwrap_or_else(|| "-".into())
    )
}

/// The full six-field FEN.
pub fn write_fen(pos: &Position) -> String {
    format!(
        "{} {} {}",
        write_epd_fields(pos),
        pos.halfmoves(),
        pos.fullmoves()
    )
}

/// A character as a message names it: itself in quotes, or, when it cannot be seen, its
/// code point.
pub fn shown(c: char) -> String {
    match c {
        '\u{feff}' => "U+FEFF (a byte-order mark)".into(),
        c if c.is_control() || c.is_whitespace() || ('\u{200b}'..='\u{200f}').contains(&c) => {
            format!("U+{:04X} (an invisible character)", c as u32)
        }
        c => format!("'{c}'"),
    }
}
