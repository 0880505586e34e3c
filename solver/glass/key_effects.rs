//! What a key does to the defender on Through the Looking-Glass (a composer's quiet
//! key, generate's qualities). There is no check (rule 5.3), so a key "checks" when it
//! leaves the attacker a capture of the king were it to move again, where there was
//! none before (a self-mate may begin with the king attacked), and a flight is a
//! king's move (to a square of either board, by passing or not) after which the
//! attacker cannot take the king at once.

use super::{GState, Glass};
use crate::generic::{KeyEffects, TurnGame};
use crate::moves::MoveKind;
use crate::types::Role;

/// The squares, with the board each lands on (`M:e7`), where the king of the side to
/// move in `s` can go and not be taken at once (a king's move that takes the other king
/// ends the game: no flight).
fn flights(game: &Glass, s: &GState) -> Vec<String> {
    let mover = s.turn;
    let mut out: Vec<String> = game
        .moves(s)
        .into_iter()
        .filter(|m| m.mv.role == Role::King && m.mv.kind != MoveKind::Castle)
        .filter_map(|m| {
            let next = game.play(s, m);
            let safe =
                next.ended.is_none() && game.winning_moves(&next).is_some_and(|w| w.is_empty());
            let (sq, side) = next.king(mover)?;
            safe.then(|| format!("{}:{sq}", side.letter()))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

pub fn key_effects(game: &Glass, s: &GState, key: crate::glass::GMove) -> KeyEffects {
    let defender = !s.turn;
    let captures = key.mv.kind == MoveKind::EnPassant
        || (key.mv.kind != MoveKind::Castle
            && s.board(key.side).board().color_at(key.mv.to) == Some(defender));
    let after = game.play(s, key);
    let takes_king = |x: &GState| game.winning_moves(x).is_some_and(|w| !w.is_empty());
    let checks = game
        .other_side_to_move(&after)
        .is_some_and(|again| takes_king(&again))
        && !takes_king(s);
    let before = game
        .other_side_to_move(s)
        .map(|d| flights(game, &d))
        .unwrap_or_default();
    let now = flights(game, &after);
    KeyEffects {
        captures,
        checks,
        flights_taken: before.into_iter().filter(|f| !now.contains(f)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glass::read_line;

    fn effects(line: &str, coord: &str) -> KeyEffects {
        let s = read_line(line).expect("a line").state;
        let game = Glass { attacker: s.turn };
        let key = game.move_written(&s, coord).expect("the key");
        key_effects(&game, &s, key)
    }

    #[test]
    fn the_king_attacked_a_capture_and_the_squares_where_the_king_would_be_taken() {
        // Black's king on e8 of the Mirror and White's rook on its a1; Black's pawns on
        // a7, d7, e7, f7 of the Real board keep a man landing there on the Mirror.
        let line = "8/p2ppp2/8/8/8/8/8/K7 w - - mirror \"4k3/8/8/8/8/8/8/R7\";";
        // Ra7 stays on the Mirror (a7 is held on the Real board) and holds its seventh
        // rank, where the king's steps would stay too: d7, e7 and f7 are taken.
        assert_eq!(
            effects(line, "M:a1a7"),
            KeyEffects {
                captures: false,
                checks: false,
                flights_taken: vec!["M:d7".into(), "M:e7".into(), "M:f7".into()],
            }
        );
        // Ra6 passes to the Real board (a6 is empty there): it takes nothing from the
        // king on the Mirror.
        assert!(effects(line, "M:a1a6").quiet());
        // Ra8 attacks the king along the eighth rank only where it stays on the Mirror
        // (a8 held on the Real board), not where it passes.
        let r = read_line("8/8/8/8/8/8/8/K7 w - - mirror \"4k3/8/8/8/8/8/8/R7\";")
            .expect("a line")
            .state;
        let game = Glass { attacker: r.turn };
        assert!(game
            .moves(&r)
            .iter()
            .any(|m| game.coord(&r, *m) == "M:a1a8"));
        let passed = effects(
            "8/8/8/8/8/8/8/K7 w - - mirror \"4k3/8/8/8/8/8/8/R7\";",
            "M:a1a8",
        );
        assert!(!passed.checks, "{passed:?}");
        let stays = effects(
            "R7/8/8/8/8/8/8/K7 w - - mirror \"4k3/8/8/8/8/8/8/R7\";",
            "M:a1a8",
        );
        assert!(stays.checks && !stays.captures, "{stays:?}");
        // A capture of a pawn on the Real board.
        assert!(
            effects(
                "8/p7/8/8/8/8/8/R6K w - - mirror \"4k3/8/8/8/8/8/8/8\";",
                "R:a1a7"
            )
            .captures
        );
    }
}
