//! The last turns of a round decided without playing them out, for the solver core:
//! the defender's turn that lets nobody win (`quiet_move`), and the attacker's moves
//! that cannot bring about a self-mate or a mate within the round left out
//! (`self_mate_candidates`, `mate_candidates`).
//!
//! Between two World turns only a return changes the World (rules.md 4d, 4e), and only
//! a capture of an Underworld King brings one about; a capture on the World is what
//! wakes an inactive Underworld (the taken man drops there, 4.3, 4.1). Mate is judged
//! after every turn (4.8a), so a World that a turn leaves as it was mates nobody after
//! it: the side whose turn it was not was not mated after the World's last move either,
//! and the side that made it is not in check (it moved legally, or 4.8c says so of the
//! input). The one exception is a White held in check with no World move on input
//! (`white_mated_at_ww`): it is mated when its World turn comes, and nothing below is
//! asked there. Hence, in a round's last turns:
//! - BW, the Underworld inactive: a World move that takes nothing leaves it inactive,
//!   so BU and WU are skipped and the round ends (4.8b); if it gives no check, it mates
//!   nobody;
//! - BU: a move that takes no Underworld King and leaves Black's Underworld King
//!   unattacked (White cannot take it at WU: a capture needs an attack, 4.8f) leaves
//!   the World as it is to the end of the round;
//! - WU: a move that takes no Underworld King ends the round, the World as it was;
//! - WU, the attacker's last turn: whatever White plays the round ends, and a self-mate
//!   is Black's win by a turn of Black's (rules.md 8.3; a King's placement belongs to
//!   the capturer's turn, 4.8e), so no move is a self-mate's candidate; only a capture
//!   of Black's Underworld King (a return) may mate, so only those are a mate's;
//! - WW, the attacker's last turn: a World move of White's that takes nothing, answered
//!   by one of Black's that takes nothing and gives no check, leaves the Underworld as
//!   it was and mates nobody; if Black then has a move at BU as above (not a pass: one
//!   depends on the World, see `black_may_leave_the_world_alone`), or the Underworld is
//!   inactive and BU and WU are skipped, the round ends with nobody mated, as on one
//!   board: the single-board filter (`search::last_move`) serves, with captures of
//!   either side left out of its reasoning (`Captures::ProlongTheRound`), for `#N` and
//!   `s#N` alike.

use super::state::{Phase, Realm, UState};
use super::under_moves::{self, UnderKind, UnderMove};
use super::{UMove, Underworld};
use crate::search::last_move::{self_mate_candidates_where, Captures};
use crate::types::Color;

/// Whether an Underworld move captures an Underworld King (and so returns a man to the
/// World).
fn takes_king(kind: UnderKind) -> bool {
    matches!(kind, UnderKind::TakesKing | UnderKind::KingTakesKing(_))
}

/// Whether Black's turn at BU, with the Underworld as it stands, may leave the World
/// as it is to the end of the round: the Underworld is inactive (BU and WU are
/// skipped), or Black has a quiet move there (`under_quiet`). World moves that take
/// nothing leave the Underworld as it stands, and with it that move, legal as long as
/// it keeps its King safe. Not a pass: a man may take White's Underworld King only
/// where its return has a free square on the World (rules.md 4d), so World moves may
/// give Black such a capture, and then force it.
fn black_may_leave_the_world_alone(s: &UState) -> bool {
    !s.active(Realm::Under) || matches!(under_quiet(s, Color::Black, true), Some(UMove::Under(_)))
}

/// A turn of `mover`'s on the Underworld that returns nothing, and where the other
/// side's Underworld turn follows (`answered`), after which `mover`'s Underworld King
/// is not attacked (so that the other side returns nothing either).
fn under_quiet(s: &UState, mover: Color, answered: bool) -> Option<UMove> {
    let moves = under_moves::pseudo_moves(s, mover);
    if moves.is_empty() {
        let safe = !answered || !under_moves::king_in_check(s, mover);
        return safe.then_some(UMove::Pass);
    }
    // The legal moves are those that keep the King safe, or all when none does (rule
    // 4c): a move found quiet and safe is legal either way, so the first one serves,
    // and most positions have one among the first few tried.
    let quiet = |mv: &UnderMove| !takes_king(mv.kind);
    let safe = |mv: &UnderMove| under_moves::keeps_king_safe(s, mover, *mv);
    if let Some(&mv) = moves.iter().find(|mv| quiet(mv) && safe(mv)) {
        return Some(UMove::Under(mv));
    }
    // Unanswered, an unsafe quiet move serves where no move at all is safe.
    if answered || moves.iter().any(safe) {
        return None;
    }
    moves.into_iter().find(quiet).map(UMove::Under)
}

/// A move of the side to move after which nobody wins before the next round begins,
/// whatever both sides play (see the module's reasons); `None` where none is found so.
pub fn quiet_move(game: &Underworld, s: &UState) -> Option<UMove> {
    if !ongoing(game, s) {
        return None;
    }
    match s.phase {
        Phase::BW if s.active(Realm::World) && !s.active(Realm::Under) => {
            let world = s.world_for(Color::Black);
            super::fide()
                .quiet_move_taking_nothing(&world)
                .map(UMove::World)
        }
        // At BU the other side's Underworld turn follows in the round.
        Phase::BU | Phase::WU if s.active(Realm::Under) && !white_mated_at_ww(game, s) => {
            under_quiet(s, s.phase.color(), s.phase == Phase::BU)
        }
        _ => None,
    }
}

/// The attacker's (White's) candidates for its last turn of a self-mate: none at WU;
/// at WW the World moves the single-board filter keeps, where Black surely has a turn
/// at BU that returns nothing. `None` elsewhere (every move is tried).
pub fn self_mate_candidates(game: &Underworld, s: &UState) -> Option<Vec<UMove>> {
    match s.phase {
        Phase::WU => (ongoing(game, s) && !white_mated_at_ww(game, s)).then(Vec::new),
        Phase::WW => world_candidates(game, s),
        _ => None,
    }
}

/// The attacker's (White's) candidates for its last turn of `#N`: at WU its moves that
/// take Black's Underworld King (only a return changes the World); at WW the World
/// moves the single-board filter keeps, where Black surely has a turn at BU that
/// leaves the World alone. `None` elsewhere (every move is tried).
pub fn mate_candidates(game: &Underworld, s: &UState) -> Option<Vec<UMove>> {
    match s.phase {
        Phase::WU => ongoing(game, s).then(|| {
            under_moves::legal_moves(s, Color::White)
                .into_iter()
                .filter(|mv| takes_king(mv.kind))
                .map(UMove::Under)
                .collect()
        }),
        Phase::WW => world_candidates(game, s),
        _ => None,
    }
}

/// Whether White is held in check on the World with no move there, and so mated when
/// its World turn comes (rules.md 4.5), whatever is played on the Underworld before
/// without a return. On input only: in play the check would have mated at once.
fn white_mated_at_ww(game: &Underworld, s: &UState) -> bool {
    game.world_check(s, Color::White) && !game.has_world_move(s, Color::White)
}

/// Whether the game goes on in `s` with a turn, not a placement.
fn ongoing(game: &Underworld, s: &UState) -> bool {
    s.placing.is_none() && !game.ended_with_last_turn(s)
}

/// White's World moves at WW that `last_move::self_mate_candidates_where` keeps where a
/// capture prolongs the round: each move left out takes nothing and leaves Black a
/// World move that takes nothing and gives no check. Only where Black's turn at BU
/// then leaves the World alone (the dearest condition, asked last).
fn world_candidates(game: &Underworld, s: &UState) -> Option<Vec<UMove>> {
    // Black in check at WW (on input) would let the generator offer its king.
    if !ongoing(game, s)
        || !s.active(Realm::World)
        || game.world_check(s, Color::Black)
        || !black_may_leave_the_world_alone(s)
    {
        return None;
    }
    let mut list = crate::moves::MoveList::new();
    let world = s.world_for(Color::White);
    self_mate_candidates_where(super::fide(), &world, Captures::ProlongTheRound, &mut list)
        .then(|| list.iter().map(|&m| UMove::World(m)).collect())
}
