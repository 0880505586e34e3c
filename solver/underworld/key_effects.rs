//! What a key does to the defender on Underworld (a composer's quiet key, generate's
//! qualities): the mate is given on the World, so the flights that count are the
//! defender's World king's steps there (rule 4.5); any capture counts, on either board
//! (each one drops, keeps or returns a man), and so does a check of either of the
//! defender's kings (the Underworld King's check binds its moves, rule 4c).

use super::state::UState;
use super::under_moves::{self, UnderKind};
use super::{UMove, Underworld};
use crate::bitboard::Bitboard;
use crate::generic::{KeyEffects, TurnGame};
use crate::moves::MoveKind;
use crate::types::{Color, Role};

/// The squares the World king of `color` can step to on the World, `color` to move
/// there (castling left out).
fn world_flights(game: &Underworld, s: &UState, color: Color) -> Bitboard {
    game.world_moves(s, color)
        .iter()
        .filter(|m| m.role == Role::King && m.kind != MoveKind::Castle)
        .fold(Bitboard::EMPTY, |b, m| b.with(m.to))
}

pub fn key_effects(game: &Underworld, s: &UState, key: UMove) -> KeyEffects {
    let mover = game.mover(s);
    let defender = !mover;
    let captures = match key {
        UMove::World(m) => {
            m.kind == MoveKind::EnPassant || s.world.board().color_at(m.to) == Some(defender)
        }
        UMove::Under(u) => u.kind != UnderKind::Quiet && u.kind != UnderKind::DoubleStep,
        UMove::Pass | UMove::Place(_) => false,
    };
    let after = game.play(s, key);
    let gives = |checked: &dyn Fn(&UState) -> bool| checked(&after) && !checked(s);
    let checks = gives(&|x| game.world_check(x, defender))
        || gives(&|x| under_moves::king_in_check(x, defender));
    let taken = world_flights(game, s, defender) & !world_flights(game, &after, defender);
    KeyEffects {
        captures,
        checks,
        flights_taken: taken.into_iter().map(|sq| format!("W:{sq}")).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::underworld::read_line;

    fn effects(line: &str, coord: &str) -> KeyEffects {
        let game = Underworld;
        let s = read_line(line).expect("a line").state;
        let key = game.move_written(&s, coord).expect("the key");
        key_effects(&game, &s, key)
    }

    #[test]
    fn a_world_move_taking_flights_a_capture_below_and_a_check_of_the_underworld_king() {
        // Ra1-a7 takes the seventh rank from Black's king on e8: d7, e7 and f7.
        let line = "4k3/8/8/8/8/8/8/R3K3 w - - underworld \"4k3/8/8/8/8/8/8/4K3\"; phase WW;";
        assert_eq!(
            effects(line, "W:a1a7"),
            KeyEffects {
                captures: false,
                checks: false,
                flights_taken: vec!["W:d7".into(), "W:e7".into(), "W:f7".into()],
            }
        );
        // Ra1-a8 checks on the World.
        assert!(effects(line, "W:a1a8").checks);
        // On the Underworld: the Queen takes a pawn (dropped again), or checks the King.
        let under = "4k3/8/8/8/8/8/8/4K3 w - - underworld \"4k3/8/8/8/8/p7/8/Q3K3\"; phase WU;";
        let take = effects(under, "U:a1a3");
        assert!(take.captures && !take.checks && take.flights_taken.is_empty());
        let check = effects(under, "U:a1h8");
        assert!(!check.captures && check.checks);
        assert!(effects(under, "U:a1b1").quiet());
    }
}
