//! `fairysolve replay`: plays a line of moves from a position and prints each move with
//! its falls, then the final position line — the composer's check of a line by hand.

use super::input::gather;
use super::VariantFlags;
use clap::Args;
use fairysolve::game::AnyGame;
use fairysolve::game::Outcome;
use fairysolve::position::Position;
use fairysolve::problem::position_line;
use fairysolve::san;
use fairysolve::types::{Color, Role, Square};

#[derive(Args)]
pub struct ReplayArgs {
    /// The starting position (FEN or a position line); default: the initial array.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves in SAN or coordinates; move numbers (`1.`, `6...`) are skipped.
    #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
    pub moves: Vec<String>,
    #[command(flatten)]
    pub variants: VariantFlags,
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Splits `1.e4 e5 2.Nf3` into move texts, dropping the numbers (`1.`, `2...`, a bare
/// `3`); `0-0` and `0-0-0` are castling, not numbers.
fn move_texts(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for token in args.iter().flat_map(|a| a.split_whitespace()) {
        let after_digits = token.trim_start_matches(|c: char| c.is_ascii_digit());
        let numbered = after_digits.len() < token.len()
            && (after_digits.is_empty() || after_digits.starts_with('.'));
        let rest = if numbered {
            after_digits.trim_start_matches('.')
        } else {
            token
        };
        if !rest.is_empty() {
            out.push(rest.to_string());
        }
    }
    out
}

pub fn run(args: ReplayArgs) -> bool {
    let fen = args.fen.clone().unwrap_or_else(|| START.to_string());
    let items = gather(&[], Some(&fen), &args.variants.operations());
    match items[0].underworld() {
        Ok(Some(p)) => return super::two_board::replay_underworld(&p, &move_texts(&args.moves)),
        Ok(None) => {}
        Err(e) => {
            eprintln!("{e}");
            return false;
        }
    }
    match items[0].glass() {
        Ok(Some(p)) => return super::two_board::replay_glass(&p, &move_texts(&args.moves)),
        Ok(None) => {}
        Err(e) => {
            eprintln!("{e}");
            return false;
        }
    }
    let problem = match items[0].problem() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return false;
        }
    };
    let game = &problem.game;
    let mut pos = problem.position;
    for text in move_texts(&args.moves) {
        // Numbered as the listing numbers it: `5.Bxf7`, `4...b5`.
        let number = pos.fullmoves();
        let prefix = match pos.turn() {
            Color::White => format!("{number}."),
            Color::Black => format!("{number}..."),
        };
        let mv = match san::parse_move(game, &pos, &text) {
            Ok(m) => m,
            Err(e) => {
                let why = match e {
                    san::SanError::Illegal(_) => format!("; {}", what_can_move(game, &pos, &text)),
                    _ => String::new(),
                };
                eprintln!("{prefix}{text}: {e}{why}");
                println!("{}", position_line(game, &pos));
                return false;
            }
        };
        let played = game.play(&pos, mv);
        let money = match game.rules().taxi {
            Some(_) => format!(
                " [W {} B {}]",
                played.position.cash(Color::White),
                played.position.cash(Color::Black)
            ),
            None => String::new(),
        };
        println!(
            "{prefix}{}{money}",
            san::san_played(game, &pos, mv, &played)
        );
        pos = played.position;
        match played.outcome {
            // Mate first: nothing falls; falls first: the mate stands after the falls,
            // even one of the mover's own king (rules.md 1.5).
            Some(Outcome::Mate) if played.fallen.is_empty() => {
                println!("checkmate: the mover wins before anything falls")
            }
            Some(Outcome::Mate) => println!("checkmate after the falls: the mover wins"),
            Some(Outcome::KingFell) => println!("the mover's king fell: the mover loses"),
            None => {}
        }
        if played.outcome.is_some() {
            break;
        }
    }
    println!("{}", position_line(game, &pos));
    true
}

/// Why `text` names no legal move: the legal moves of the kind of man it names (a
/// piece letter, a pawn's file, castling, or the man on a coordinate move's square), or
/// that the side to move has none.
fn what_can_move(game: &AnyGame, pos: &Position, text: &str) -> String {
    let side = pos.turn();
    let t = text.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    let from = t.get(0..2).and_then(Square::parse);
    let role = match t.chars().next() {
        Some('O' | '0') => Some(Role::King),
        Some(c) if c.is_ascii_uppercase() => Role::from_char(c),
        _ => match from.and_then(|sq| pos.board().piece_at(sq)) {
            Some(p) if p.color == side && t.len() >= 4 => Some(p.role),
            _ if from.is_some() && t.len() >= 4 => {
                return format!("there is no {} man on {}", side.name(), &t[0..2]);
            }
            _ => Some(Role::Pawn),
        },
    };
    let Some(role) = role else {
        return format!("'{}' names no man", &t[..t.len().min(1)]);
    };
    let legal: Vec<String> = game
        .legal_moves(pos)
        .iter()
        .filter(|m| m.role == role)
        .map(|&m| san::san(game, pos, m))
        .collect();
    let kind = role.name();
    if legal.is_empty() {
        format!("no {} {kind} has a legal move", side.name())
    } else {
        format!("{}'s legal {kind} moves: {}", side.name(), legal.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_are_dropped_and_castling_kept() {
        let args = ["1.e4 e5 2.Nf3 Nc6 3. Bc4 3...Bc5 4.0-0 0-0-0 5 O-O".to_string()];
        assert_eq!(
            move_texts(&args),
            ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "0-0", "0-0-0", "O-O"]
        );
    }
}
