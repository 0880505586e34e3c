//! Underworld moves in writing (rules.md 4.7, formats.md 2): coordinates with a board
//! prefix for `--json` (`W:e2e4`, `U:e1e2`, `U:pass`, `U:e1d2(a1=Ra1@W)`), and the
//! composer's notation with drops `(=Qd1@U)`, returns `(=Rh1@W)`, check and mate.

use super::drops::{self, Return, ReturnFrom};
use super::state::UState;
use super::under_moves::{UnderKind, UnderMove};
use super::{UMove, Underworld};
use crate::board::Board;
use crate::game::Game;
use crate::generic::{End, TurnGame};
use crate::moves::MoveKind;
use crate::types::{Color, Piece, Role, Square};

/// The return of a King-takes-King in coordinates: `(a1=Ra1@W)` from the Underworld,
/// `(=Nb1@W)` from the reserve.
fn return_suffix(r: &Return) -> String {
    let from = match r.from {
        ReturnFrom::Under(sq) => sq.to_string(),
        ReturnFrom::Reserve(_) => String::new(),
    };
    format!("({from}={}{}@W)", r.role.upper(), r.to)
}

/// `mv` in the coordinates `--json` keys use.
pub fn coord(s: &UState, mv: UMove) -> String {
    match mv {
        UMove::World(m) => format!("W:{}", m.coord(false)),
        UMove::Under(u) => {
            let suffix = match u.kind {
                UnderKind::KingTakesKing(Some(r)) => return_suffix(&r),
                _ => String::new(),
            };
            format!("U:{}{}{suffix}", u.from, u.to)
        }
        UMove::Pass => "U:pass".into(),
        UMove::Place(sq) => {
            let owner = s.placing.unwrap_or(Color::White);
            format!("U:{}@{sq}", Piece::new(owner, Role::King).char())
        }
    }
}

/// Where a captured `victim` of home file `file` lands on `board` (the Underworld, or
/// the World for a return): `(=Qd1@U)`, or `(=Q for good)` when its file is full.
fn landing_text(board: &Board, victim: Piece, file: u8, to_world: bool) -> String {
    let letter = victim.role.upper();
    match drops::landing(board, victim.color, victim.role, file, to_world) {
        Some(sq) => format!("(={letter}{sq}@{})", if to_world { 'W' } else { 'U' }),
        None => format!("(={letter} for good)"),
    }
}

/// What an Underworld move sends between the boards, written after it.
fn under_transfer(s: &UState, u: UnderMove) -> String {
    let Some(mover) = s.under.piece_at(u.from) else {
        return String::new();
    };
    let mut landed = s.under;
    landed.remove(u.from);
    match u.kind {
        UnderKind::Quiet | UnderKind::DoubleStep | UnderKind::KingTakesKing(None) => String::new(),
        UnderKind::KingTakesKing(Some(r)) => format!("(={}{}@W)", r.role.upper(), r.to),
        UnderKind::Capture => {
            let Some(victim) = s.under.piece_at(u.to) else {
                return String::new();
            };
            if mover.role == Role::King {
                return format!("(={} for good)", victim.role.upper());
            }
            let file = if victim.role == Role::Pawn {
                u.to.file()
            } else {
                s.homes[1].get(u.to)
            };
            landed.remove(u.to);
            landed.put(u.to, mover);
            landing_text(&landed, victim, file, false)
        }
        UnderKind::EnPassant => {
            let victim_rank = if mover.color == Color::White {
                u.to.rank() - 1
            } else {
                u.to.rank() + 1
            };
            let victim_sq = Square::from_coords(u.to.file(), victim_rank);
            let victim = Piece::new(!mover.color, Role::Pawn);
            landed.remove(victim_sq);
            landed.put(u.to, mover);
            landing_text(&landed, victim, victim_sq.file(), false)
        }
        UnderKind::TakesKing => {
            let file = if mover.role == Role::Pawn {
                u.to.file()
            } else {
                s.homes[1].get(u.from)
            };
            landing_text(s.world.board(), mover, file, true)
        }
    }
}

/// `mv` as composers write it: SAN on the World, long notation with the `U:` prefix on
/// the Underworld, with drops, returns, check (+) and mate (#) on the World.
pub fn notation(game: &Underworld, s: &UState, mv: UMove) -> String {
    let after = game.play(s, mv);
    // A placement completes the capturer's turn (rules.md 4.8e): the mate it lets stand
    // is the capturer's, marked after it.
    let mate = game.end(&after) == Some(End::Win(game.turn_owner(s)));
    let text = match mv {
        UMove::World(m) => {
            let w = s.world_for(s.phase.color());
            let san = crate::san::san_plain(&Game::fide(), &w, m);
            let drop = match m.kind {
                MoveKind::EnPassant => {
                    let victim = Piece::new(!s.phase.color(), Role::Pawn);
                    landing_text(&s.under, victim, m.to.file(), false)
                }
                MoveKind::Castle => String::new(),
                _ => match w.board().piece_at(m.to) {
                    Some(victim) => {
                        let file = if victim.role == Role::Pawn {
                            m.to.file()
                        } else {
                            s.homes[0].get(m.to)
                        };
                        landing_text(&s.under, victim, file, false)
                    }
                    None => String::new(),
                },
            };
            format!("{san}{drop}")
        }
        UMove::Under(u) => {
            // Pawns without a letter, as on the World and on both Looking-Glass boards.
            let piece = match s.under.piece_at(u.from) {
                Some(p) if p.role == Role::Pawn => String::new(),
                Some(p) => p.role.upper().to_string(),
                None => "?".into(),
            };
            let sep = if u.kind == UnderKind::Quiet || u.kind == UnderKind::DoubleStep {
                '-'
            } else {
                'x'
            };
            format!("U:{piece}{}{sep}{}{}", u.from, u.to, under_transfer(s, u))
        }
        UMove::Pass => "U:pass".into(),
        UMove::Place(sq) => format!("(K@{sq})"),
    };
    if mate {
        format!("{text}#")
    } else if !matches!(mv, UMove::Place(_)) && game.world_check(&after, !s.mover()) {
        format!("{text}+")
    } else {
        text
    }
}

/// Reads a move of the side to move: its coordinates (`U:e1e2`, `W:e2e4`, or without the
/// prefix when only one board's move fits), its notation as `notation` writes it (check
/// and mate marks optional), `pass` for a pass, or `@e8` for the placement of a King.
pub fn parse(game: &Underworld, s: &UState, text: &str) -> Result<UMove, String> {
    let moves = game.moves(s);
    if moves.is_empty() {
        return Err("the game is over: no move to play".into());
    }
    let marked = text.trim_end_matches(['+', '#', '!', '?']);
    let bare = marked.strip_suffix(" e.p.").unwrap_or(marked);
    let strip = |t: &str| -> String {
        t.trim_end_matches(['+', '#'])
            .trim_start_matches("W:")
            .trim_start_matches("U:")
            .to_string()
    };
    let matching: Vec<UMove> = moves
        .iter()
        .copied()
        .filter(|&mv| {
            let c = coord(s, mv);
            let n = notation(game, s, mv);
            let n_bare = n.trim_end_matches(['+', '#']);
            // The notation without its drop or return, as a player would type it.
            let n_plain = n_bare.split('(').next().unwrap_or(n_bare);
            let n_plain = n_plain.strip_suffix(" e.p.").unwrap_or(n_plain);
            c == bare
                || n_bare == bare
                || n_plain == bare
                || strip(n_plain) == strip(bare)
                || strip(&c) == strip(bare)
                || strip(n_bare) == strip(bare)
                || matches!(mv, UMove::Place(sq) if bare.trim_start_matches(['(', 'K', 'k', 'U', ':']) == format!("@{sq}") || bare.trim_end_matches(')').ends_with(&format!("@{sq}")))
                || (mv == UMove::Pass && bare == "pass")
        })
        .collect();
    match matching.as_slice() {
        [one] => Ok(*one),
        [] => {
            let legal: Vec<String> = moves.iter().map(|&m| coord(s, m)).collect();
            Err(format!(
                "'{text}' is not a legal move here (phase {}; legal: {})",
                s.phase.name(),
                legal.join(" ")
            ))
        }
        many => Err(format!(
            "'{text}' fits {} moves: {}",
            many.len(),
            many.iter()
                .map(|&m| coord(s, m))
                .collect::<Vec<_>>()
                .join(" ")
        )),
    }
}
