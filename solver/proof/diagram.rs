//! The game's start and its goal: the array on the line's board, and what "the game
//! reached the diagram" means (rules.md 9.2, 9.3).

use crate::game::Game;
use crate::geometry::{Geometry, Terrain};
use crate::moves::{Move, MoveKind};
use crate::position::{Position, Quake};
use crate::problem::Stated;
use crate::types::{Color, Square};
use thiserror::Error;

/// Why a proof game cannot even be asked of a line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ProofError {
    #[error("the array's {0} does not exist on this board: no game starts here")]
    ArrayOffBoard(Square),
    #[error("{stip} ends with {expected} to move, but the diagram has {found} to move")]
    SideToMove {
        stip: String,
        expected: &'static str,
        found: &'static str,
    },
}

/// The position a proof game must reach, with what of its state the line gives.
#[derive(Clone, Debug)]
pub struct Diagram {
    pub position: Position,
    pub stated: Stated,
    /// An aftershock board: the line's counters are the allowance the game starts
    /// with, and only the displacement is compared (RULES.md).
    pub aftershocks: bool,
}

impl Diagram {
    pub fn new(position: Position, stated: Stated, aftershocks: bool) -> Diagram {
        Diagram {
            position,
            stated,
            aftershocks,
        }
    }

    /// Whether `after`, which `mv` reached from `before`, is the diagram (rules.md 9.3):
    /// the placement and the side to move; the diagram's castling rights still held;
    /// its en passant square made by that very move; cash, timers and the board's
    /// displacement (on an aftershock board, the line's: the game ends on the board it
    /// began on).
    pub fn reached<T: Terrain>(
        &self,
        game: &Game<T>,
        before: &Position,
        mv: Move,
        after: &Position,
    ) -> bool {
        let d = &self.position;
        if after.board() != d.board()
            || after.turn() != d.turn()
            || (d.castling() - after.castling()).is_nonempty()
        {
            return false;
        }
        if let Some(ep) = d.ep_square() {
            let passed = (mv.kind == MoveKind::DoublePush)
                .then(|| game.geo(before).pawn_step(before.turn(), mv.from).first())
                .flatten();
            if passed != Some(ep) {
                return false;
            }
        }
        self.state_agrees(game, after)
    }

    /// Whether `pos`, reached by no move at all, is the diagram: the game of no moves,
    /// which no en passant right can follow.
    pub fn is<T: Terrain>(&self, game: &Game<T>, pos: &Position) -> bool {
        let d = &self.position;
        pos.board() == d.board()
            && pos.turn() == d.turn()
            && (d.castling() - pos.castling()).is_empty()
            && d.ep_square().is_none()
            && self.state_agrees(game, pos)
    }

    /// The variant state of rules.md 9.3: cash and timers where stated, the board's
    /// displacement.
    fn state_agrees<T: Terrain>(&self, game: &Game<T>, after: &Position) -> bool {
        let d = &self.position;
        if game.rules().taxi.is_some() {
            for c in Color::ALL {
                if self.stated.cash[c.index()] && after.cash(c) != d.cash(c) {
                    return false;
                }
            }
        }
        if game.rules().trapdoor.is_some() && self.stated.timers && after.timers() != d.timers() {
            return false;
        }
        if self.aftershocks {
            after.quake().dx == d.quake().dx
        } else {
            after.quake() == d.quake()
        }
    }

    /// The initial position of every proof game on `game`'s board (rules.md 9.2): the
    /// FIDE array by square names, the starting budget and White's first income under
    /// Taxi, no man ticking, and on an aftershock board the line's board with its
    /// counters as the allowance each side begins with.
    pub fn start<T: Terrain>(&self, game: &Game<T>) -> Result<Position, ProofError> {
        let mut pos = Position::startpos();
        if self.aftershocks {
            let q = self.position.quake();
            pos.set_quake(Quake {
                no_return: None,
                ..*q
            });
        }
        let squares = game.geo(&pos).squares();
        if let Some(sq) = (pos.board().occupied() - squares).first() {
            return Err(ProofError::ArrayOffBoard(sq));
        }
        if let Some(taxi) = game.rules().taxi {
            pos.set_cash(Color::White, taxi.start + taxi.income);
            pos.set_cash(Color::Black, taxi.start);
        }
        Ok(pos)
    }
}
