//! The attacker's last move: which moves can mate, found without playing every move.
//! Shared by the direct-mate solver (`Searcher::attack_last`) and help play, whose last
//! move must mate (`mating_moves`).
//!
//! Every filter here is exact: a move is left out only when the rules make it unable to
//! mate (it gives no check in P nor after the falls, it leaves the king a flight, or the
//! king has a step safe before and after the falls). The brute-force tests of
//! `crate::search` hold them against playing every move.

use super::order::{
    free_flights, CheckCandidates, CheckInfo, FallChecks, FlightCover, Flights, KingEscapes,
};
use crate::bitboard::Bitboard;
use crate::game::Game;
use crate::geometry::{Geometry, Terrain};
use crate::moves::{MoveKind, MoveList};
use crate::position::Position;

/// `order::KingEscapes` for the attacker's last moves from `pos`, judged with the
/// men `flights` has vanishing; `None` under Taxi (a king's step must be paid for)
/// and on a board that shifts (whose `flights` know no vanishing men).
pub fn king_escapes<'g, T: Terrain>(
    game: &'g Game<T>,
    pos: &Position,
    flights: &Flights,
) -> Option<KingEscapes<'g, T::Geo>> {
    if game.rules.taxi.is_some() || game.terrain.shifts() {
        return None;
    }
    KingEscapes::new(game.geo(pos), pos, flights.vanishing)
}

/// The defender's flights for the attacker's last move (`order::Flights`): under
/// Taxi only the steps the defender can pay for; none under Taxi with Trapdoor, or
/// with aftershocks (which move the board).
pub fn flights<T: Terrain>(game: &Game<T>, pos: &Position) -> Flights {
    if game.terrain.shifts() {
        return Flights::default();
    }
    let geo = game.geo(pos);
    let free = || free_flights(geo, pos);
    match (&game.rules.taxi, game.rules.trapdoor) {
        (None, None) => Flights {
            free: free(),
            vanishing: Bitboard::EMPTY,
        },
        (None, Some(_)) => Flights {
            free: free(),
            vanishing: pos.timers().ticking(),
        },
        (Some(taxi), None) => match pos.board().king(!pos.turn()) {
            Some(_) => {
                let budget = crate::taxi::next_turn_budget(pos, !pos.turn(), taxi);
                Flights {
                    free: crate::taxi::affordable_king_steps(pos.board(), free(), budget),
                    vanishing: Bitboard::EMPTY,
                }
            }
            None => Flights::default(),
        },
        (Some(_), Some(_)) => Flights::default(),
    }
}

/// Under Trapdoor or Taxi rules, which attacker's last moves can win. A win needs
/// mate (so a check in P or, after the falls, in P') unless the defender's king can
/// fall. A check in P' that was not one in P is a rider of ours whose line to the
/// king the falls clear: the rider arrives beyond a falling man, or stands there and
/// the move takes the one other man off its line. Returns `None` when every move
/// must be tried (the defender's king may fall, only falling men stand between a
/// rider and the king, or aftershocks are played), else those moves (`FallChecks`).
pub fn last_ply_shortcut<T: Terrain>(game: &Game<T>, pos: &Position) -> Option<FallChecks> {
    if game.terrain.shifts() {
        return None;
    }
    let geo = game.geo(pos);
    let board = pos.board();
    let us = pos.turn();
    let king = board.king(!us)?;
    if pos.timers().get(king).is_some_and(|r| r <= 1) {
        return None;
    }
    // Taxi: a rider that already attacks the king, too dear to be a check now, becomes
    // one after any move cheap enough to save the money (rules.md 2.2). With cash for
    // any ride there is no such rider: its attack would be a check, and the side not
    // to move is never in check.
    if game.rules.taxi.is_some()
        && !crate::taxi::pays_any_travel(geo, pos.cash(us))
        && crate::attacks::attackers(geo, board, king, us, board.occupied()).is_nonempty()
    {
        return None;
    }
    let expiring = crate::trapdoor::Trapdoor::expiring(pos, us, Bitboard::EMPTY);
    let mut falls = FallChecks::default();
    let orthogonal = geo.rook_attacks(king, Bitboard::EMPTY);
    let diagonal = geo.bishop_attacks(king, Bitboard::EMPTY);
    let ours = board.by_color(us);
    for x in expiring & (orthogonal | diagonal) {
        let line = geo.line(king, x);
        let beyond = line
            .filter(|&s| geo.between(king, s).contains(x))
            .fold(Bitboard::EMPTY, |b, s| b.with(s));
        let (i, riders) = if orthogonal.contains(x) {
            (0, board.rooks_and_queens())
        } else {
            (1, board.bishops_and_queens())
        };
        falls.arrivals[i] |= beyond;
        for rider in beyond & riders & ours {
            // The move can clear one man off the line (its own): with two others
            // left, or one of the defender's (taking it puts ours there; en
            // passant, the one exception, is always a candidate), it stays shut.
            let staying = (geo.between(king, rider) & board.occupied()) - expiring;
            if staying.is_empty() {
                return None;
            }
            if !staying.more_than_one() {
                falls.discoverers |= staying & ours;
            }
        }
    }
    Some(falls)
}

/// The legal moves of the side to move in `pos` that may give check in P, or once the
/// falls of `falls` have happened, and that may take every free flight of `flights`
/// (pawn moves are all kept; `keeps_a_flight` judges them one by one), into `out`.
/// Under Taxi a legal move need not be FIDE-legal (it may leave the own king to an
/// attack the opponent cannot pay for), nor falls first (the own king may fall and not
/// be judged): the game's generator, then the game's legality.
pub fn check_candidates<T: Terrain>(
    game: &Game<T>,
    pos: &Position,
    falls: FallChecks,
    flights: &Flights,
    out: &mut MoveList,
) {
    let geo = game.geo(pos);
    let info = CheckInfo::with_king_checks(geo, pos, game.rules.taxi.is_some());
    let cover = flights
        .free
        .is_nonempty()
        .then(|| FlightCover::new(geo, pos, flights));
    game.generate_base(
        pos,
        &mut CheckCandidates {
            geo,
            info: &info,
            out,
            falls,
            flights: cover,
        },
    );
    if !game.is_plain() {
        game.retain_legal(pos, out);
    }
}

/// Every legal move of the side to move in `pos` that checkmates (rules.md 1.5 under
/// Trapdoor: mate first, or after the falls), appended to `out` in generation order. A
/// move that only lets the opponent's king fall is not among them: help play asks for
/// mate (rules.md 8.2).
pub fn mating_moves<T: Terrain>(game: &Game<T>, pos: &Position, out: &mut MoveList) {
    let geo = game.geo(pos);
    let fide = game.is_plain();
    let shortcut = if fide {
        Some(FallChecks::default())
    } else {
        last_ply_shortcut(game, pos)
    };
    let mut candidates = MoveList::new();
    let flights = flights(game, pos);
    match shortcut {
        Some(falls) => check_candidates(game, pos, falls, &flights, &mut candidates),
        // The defender's king may fall, a fall may uncover a rider, or the board
        // shifts: every legal move is a candidate.
        None => game.legal_moves_into(pos, &mut candidates),
    }
    if candidates.is_empty() {
        return;
    }
    let escapes = if fide {
        None
    } else {
        king_escapes(game, pos, &flights)
    };
    for &mv in candidates.iter() {
        if flights.kept_by(geo, pos, mv) || escapes.as_ref().is_some_and(|e| e.after(mv)) {
            continue;
        }
        let mates = if fide {
            // Under FIDE rules the candidates are the check candidates: the ordinary
            // moves among them are known checks.
            super::fide_mates(geo, pos, mv, matches!(mv.kind, MoveKind::Normal))
        } else {
            game.mates(pos, mv)
        };
        if mates {
            out.push(mv);
        }
    }
}
