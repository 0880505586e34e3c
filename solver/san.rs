//! Standard algebraic notation: writing moves as composers read them (with Trapdoor
//! falls, rules.md 1.7) and reading moves written in SAN or coordinates.

use crate::game::{Outcome, Played, Rulebook};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::trapdoor::fall_notation;
use crate::types::{Role, Square};
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SanError {
    #[error("'{0}' is not a move")]
    Syntax(String),
    #[error("'{0}' is not a legal move here")]
    Illegal(String),
    #[error("'{0}' is ambiguous here")]
    Ambiguous(String),
}

/// SAN of `mv` without check marks or falls; an en passant capture is marked `e.p.`
/// (`exd6 e.p.`), as composers print it.
pub fn san_plain<R: Rulebook + ?Sized>(game: &R, pos: &Position, mv: Move) -> String {
    if let MoveKind::Aftershock(dx) = mv.kind {
        return format!("~{dx}");
    }
    if mv.is_castle() {
        return if mv.to.file() > mv.from.file() {
            "O-O".into()
        } else {
            "O-O-O".into()
        };
    }
    let capture = mv.takes(pos.board());
    let mut out = String::new();
    if mv.role == Role::Pawn {
        if capture {
            out.push((b'a' + mv.from.file()) as char);
            out.push('x');
        }
        out.push_str(&mv.to.to_string());
        if let Some(r) = mv.promotion() {
            out.push('=');
            out.push(r.upper());
        }
        if mv.kind == MoveKind::EnPassant {
            out.push_str(" e.p.");
        }
        return out;
    }
    out.push(mv.role.upper());
    // Disambiguation among other pieces of the same kind reaching the same square.
    let rivals: Vec<Square> = game
        .legal_moves(pos)
        .iter()
        .filter(|m| m.role == mv.role && m.to == mv.to && m.from != mv.from && !m.is_castle())
        .map(|m| m.from)
        .collect();
    if !rivals.is_empty() {
        let same_file = rivals.iter().any(|s| s.file() == mv.from.file());
        let same_rank = rivals.iter().any(|s| s.rank() == mv.from.rank());
        if !same_file {
            out.push((b'a' + mv.from.file()) as char);
        } else if !same_rank {
            out.push((b'1' + mv.from.rank()) as char);
        } else {
            out.push_str(&mv.from.to_string());
        }
    }
    if capture {
        out.push('x');
    }
    out.push_str(&mv.to.to_string());
    out
}

/// Check or mate mark for a played move, judged on the position the opponent faces.
pub fn suffix<R: Rulebook + ?Sized>(game: &R, played: &Played) -> &'static str {
    match played.outcome {
        Some(Outcome::Mate) => "#",
        Some(Outcome::KingFell) => "",
        None => {
            if game.in_check(&played.position) {
                if game.has_legal_move(&played.position) {
                    "+"
                } else {
                    "#"
                }
            } else {
                ""
            }
        }
    }
}

/// Full SAN as composers write it: the move, its check or mate mark, then its falls
/// (`Qe2 (e4:e4)`).
pub fn san<R: Rulebook + ?Sized>(game: &R, pos: &Position, mv: Move) -> String {
    let played = game.play(pos, mv);
    san_played(game, pos, mv, &played)
}

pub fn san_played<R: Rulebook + ?Sized>(
    game: &R,
    pos: &Position,
    mv: Move,
    played: &Played,
) -> String {
    let mut out = san_plain(game, pos, mv);
    out.push_str(suffix(game, played));
    for sq in played.fallen {
        out.push(' ');
        out.push_str(&fall_notation(sq));
    }
    out
}

/// The moves `moves` played from `start`, as composers print a game or a line:
/// numbered from `start`'s move number (`1.e4 e5 2.Nf3`, a line that begins with
/// Black's move `1...e5`), each with its check mark and falls; and the position it ends
/// in.
pub fn line<R: Rulebook + ?Sized>(
    game: &R,
    start: &Position,
    moves: &[Move],
) -> (String, Position) {
    let mut out = String::new();
    let mut pos = *start;
    for (i, &mv) in moves.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match pos.turn() {
            crate::types::Color::White => out.push_str(&format!("{}.", pos.fullmoves())),
            crate::types::Color::Black if i == 0 => {
                out.push_str(&format!("{}...", pos.fullmoves()))
            }
            crate::types::Color::Black => {}
        }
        let played = game.play(&pos, mv);
        out.push_str(&san_played(game, &pos, mv, &played));
        pos = played.position;
    }
    (out, pos)
}

/// Reads a move in SAN (`Nf3`, `exd5`, `e8=Q+`, `O-O`) or coordinates (`g1f3`, `e7e8q`,
/// castling as the king's two-square move or king-takes-rook).
pub fn parse_move<R: Rulebook + ?Sized>(
    game: &R,
    pos: &Position,
    text: &str,
) -> Result<Move, SanError> {
    // Marks that tell nothing the move does not: check, mate, `!`/`?`, and `e.p.`
    // (`exd6 e.p.+`, `exd6 ep.`).
    let trimmed = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let cleaned: String = ["e.p.", "ep."]
        .iter()
        .find_map(|mark| trimmed.strip_suffix(mark))
        .unwrap_or(trimmed)
        .trim_end()
        .to_string();
    let legal = game.legal_moves(pos);
    let s = cleaned.as_str();
    if s.is_empty() {
        return Err(SanError::Syntax(text.to_string()));
    }

    // An aftershock: `~3` (rules.md 3.7).
    if let Some(dx) = s.strip_prefix('~') {
        let dx: i8 = dx.parse().map_err(|_| SanError::Syntax(text.to_string()))?;
        return legal
            .iter()
            .find(|m| m.kind == MoveKind::Aftershock(dx))
            .copied()
            .ok_or_else(|| SanError::Illegal(text.to_string()));
    }

    // Coordinates.
    if s.len() >= 4 && s.is_ascii() {
        if let (Some(from), Some(to)) = (Square::parse(&s[0..2]), Square::parse(&s[2..4])) {
            let promo = match &s[4..] {
                "" => None,
                p if p.len() == 1 => Some(
                    Role::from_char(p.chars().next().unwrap())
                        .ok_or_else(|| SanError::Syntax(text.to_string()))?,
                ),
                _ => return Err(SanError::Syntax(text.to_string())),
            };
            let found = legal.iter().find(|m| {
                m.from == from
                    && m.promotion() == promo
                    && (m.to == to || (m.is_castle() && m.castle_king_to() == to))
            });
            return found
                .copied()
                .ok_or_else(|| SanError::Illegal(text.to_string()));
        }
    }

    // Castling.
    let castle_side = match s {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    };
    if let Some(king_side) = castle_side {
        return legal
            .iter()
            .find(|m| m.is_castle() && (m.to.file() > m.from.file()) == king_side)
            .copied()
            .ok_or_else(|| SanError::Illegal(text.to_string()));
    }

    // SAN proper: [Piece][from file][from rank][x]to[=Promo]
    let mut chars: Vec<char> = s.chars().collect();
    let role = match chars.first() {
        Some(c) if "NBRQK".contains(*c) => {
            let r = Role::from_char(*c).unwrap();
            chars.remove(0);
            r
        }
        Some('S') => {
            chars.remove(0);
            Role::Knight
        }
        _ => Role::Pawn,
    };
    let mut promo = None;
    if let Some(&last) = chars.last() {
        if "QRBNS".contains(last) && chars.len() >= 3 {
            promo = Some(if last == 'S' {
                Role::Knight
            } else {
                Role::from_char(last).unwrap()
            });
            chars.pop();
            if chars.last() == Some(&'=') {
                chars.pop();
            }
        }
    }
    let body: String = chars
        .iter()
        .filter(|c| **c != 'x' && **c != '-' && **c != ':')
        .collect();
    if body.len() < 2 || !body.is_ascii() {
        return Err(SanError::Syntax(text.to_string()));
    }
    let to =
        Square::parse(&body[body.len() - 2..]).ok_or_else(|| SanError::Syntax(text.to_string()))?;
    let hint = &body[..body.len() - 2];
    let mut from_file = None;
    let mut from_rank = None;
    for c in hint.chars() {
        match c {
            'a'..='h' => from_file = Some(c as u8 - b'a'),
            '1'..='8' => from_rank = Some(c as u8 - b'1'),
            _ => return Err(SanError::Syntax(text.to_string())),
        }
    }
    let candidates: Vec<Move> = legal
        .iter()
        .filter(|m| {
            m.role == role
                && m.to == to
                && !m.is_castle()
                && m.promotion() == promo
                && from_file.is_none_or(|f| m.from.file() == f)
                && from_rank.is_none_or(|r| m.from.rank() == r)
        })
        .copied()
        .collect();
    match candidates.as_slice() {
        [one] => Ok(*one),
        [] => Err(SanError::Illegal(text.to_string())),
        _ => Err(SanError::Ambiguous(text.to_string())),
    }
}
