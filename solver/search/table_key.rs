//! The transposition table's key of a search node: the position's hash, salted per
//! search, with Taxi cash that no longer matters replaced by one shared key.
//!
//! Under Taxi the key holds both sides' cash, so a board reached along two paths of
//! different prices is two entries. Yet once a side's cash pays for every move and
//! every attack the remaining turns could ask of it (`taxi::indifferent_cash`), its
//! exact amount changes nothing in what is left of the search. Such amounts all take one
//! key. A proof stored under it holds for every position keyed so: a win within w was
//! proved with cash that paid for w moves, and so does the cash of any node that reads
//! it (w is at most its own depth, and what suffices for more moves suffices for
//! fewer); a "no win within n" is read only by nodes of depth n or less.

use crate::game::Game;
use crate::geometry::Terrain;
use crate::position::Position;
use crate::taxi;
use crate::types::Color;
use crate::zobrist;

/// Remaining depths below this have cash thresholds; deeper nodes key cash exactly.
const MAX_DEPTH: usize = 64;

/// Per remaining depth n: the indifferent cash `[side to move, other]` of a node where
/// the attacker is to move (`[0]`) or the defender (`[1]`).
type Thresholds = [[[u32; 2]; 2]; MAX_DEPTH];

/// How the cash joins the key.
enum CashKeying {
    /// No Taxi: the cash is always zero.
    Absent,
    /// Each amount its own key: rules whose horizon is not a fixed number of turns.
    Exact,
    /// Amounts from the thresholds on share one key.
    Indifferent(Box<Thresholds>),
}

pub struct TableKeys {
    /// Mixed into every key, so entries of other searches never match.
    salt: u64,
    cash: CashKeying,
}

impl TableKeys {
    pub fn new<T: Terrain>(game: &Game<T>, salt: u64) -> TableKeys {
        TableKeys {
            salt,
            cash: cash_keying(game),
        }
    }

    /// Keys with every amount of cash its own (for tests: what sharing must agree with).
    #[cfg(test)]
    pub fn exact<T: Terrain>(game: &Game<T>, salt: u64) -> TableKeys {
        TableKeys {
            salt,
            cash: match game.rules.taxi {
                Some(_) => CashKeying::Exact,
                None => CashKeying::Absent,
            },
        }
    }

    /// The key of `pos`, a node with `n` attacker moves left and the attacker to move
    /// (`attacking`) or the defender.
    #[inline(always)]
    pub fn key(&self, pos: &Position, n: u32, attacking: bool) -> u64 {
        let key = pos.hash_without_cash() ^ self.salt;
        let need = match &self.cash {
            CashKeying::Absent => return key,
            CashKeying::Exact => [u32::MAX; 2],
            CashKeying::Indifferent(table) => table
                .get(n as usize)
                .map_or([u32::MAX; 2], |by_side| by_side[!attacking as usize]),
        };
        key ^ cash_key(pos, pos.turn(), need[0]) ^ cash_key(pos, !pos.turn(), need[1])
    }
}

/// The key of `pos` in help play with `turns` turns left, the last the winning move:
/// its hash, with each side's cash from its indifferent amount on (`taxi::indifferent_cash`)
/// keyed as one. Each side is given `turns / 2 + 1` turns of its own and as many of the
/// other's, at least what is left of the play and the mate test after the last move,
/// whichever side moves now (more turns only raise the amounts). Exact under Trapdoor
/// and with aftershocks, as for the proof search (`cash_keying`).
pub fn help_key<T: Terrain>(game: &Game<T>, pos: &Position, turns: u32) -> u64 {
    let Some(taxi) = game.rules.taxi.as_ref() else {
        return pos.hash();
    };
    let (None, Some(geo)) = (game.rules.trapdoor, game.terrain.fixed()) else {
        return pos.hash();
    };
    // The amounts are at least the dearest move for the side to move and that less its
    // income for the other (their first turns): below both, each amount is keyed as
    // itself, which is the position's own hash.
    let dearest = game.taxi_dearest();
    if pos.cash(pos.turn()) < dearest && pos.cash(!pos.turn()) + taxi.income < dearest {
        return pos.hash();
    }
    let needs = game.help_cash_needs.get_or_init(|| {
        (0..MAX_DEPTH as u32)
            .map(|turns| {
                let each = turns / 2 + 1;
                taxi::indifferent_cash(geo, taxi, dearest, each, each)
            })
            .collect()
    });
    let Some(&need) = needs.get(turns as usize) else {
        return pos.hash();
    };
    pos.hash_without_cash()
        ^ cash_key(pos, pos.turn(), need[0])
        ^ cash_key(pos, !pos.turn(), need[1])
}

/// The key of the cash of `color` in `pos`: its amount's, or the shared one from `need`
/// on.
#[inline(always)]
fn cash_key(pos: &Position, color: Color, need: u32) -> u64 {
    let cash = pos.cash(color);
    if cash >= need {
        zobrist::cash_beyond_need(color)
    } else {
        zobrist::cash(color, cash)
    }
}

/// How `game` keys the cash.
fn cash_keying<T: Terrain>(game: &Game<T>) -> CashKeying {
    let Some(taxi) = game.rules.taxi.as_ref() else {
        return CashKeying::Absent;
    };
    // A Trapdoor move may be legal because it mates, which looks a turn further, and
    // so on: cash stays exact. So it does with aftershocks, which change the board and
    // its prices.
    let (None, Some(geo)) = (game.rules.trapdoor, game.terrain.fixed()) else {
        return CashKeying::Exact;
    };
    let dearest = game.taxi_dearest();
    let mut table = Box::new([[[u32::MAX; 2]; 2]; MAX_DEPTH]);
    for (n, by_side) in table.iter_mut().enumerate().skip(1) {
        let n = n as u32;
        // Attacker to move: n turns of its own and n of the defender's (the last one
        // the mate test). Defender to move: n of its own, n - 1 of the attacker's.
        by_side[0] = taxi::indifferent_cash(geo, taxi, dearest, n, n);
        by_side[1] = taxi::indifferent_cash(geo, taxi, dearest, n, n - 1);
    }
    CashKeying::Indifferent(table)
}
