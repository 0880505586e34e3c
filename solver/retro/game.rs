//! The game as retro-analysis sees it: the board a position stands on (its geometry,
//! with the displacement an aftershock changes), where pawns may stand, what a check is
//! under Taxi, and the prices a retracted move gives back. Every other part of the retro
//! module asks here, so that one history search serves every single-board game.

use super::retraction::RetroPosition;
use crate::attacks::attackers;
use crate::bitboard::Bitboard;
use crate::geometry::{Geometry, Shifting, Terrain};
use crate::movegen::Threats;
use crate::taxi::{AffordableAttack, Taxi};
use crate::types::{Color, Role, Square};

/// A board with its rules for retro-analysis (rules.md 6 with sections 2 and 3).
#[derive(Clone, Debug)]
pub struct RetroGame<T: Terrain> {
    pub terrain: T,
    pub taxi: Option<Taxi>,
    /// An Earthquake board (rules.md 3.5): a pawn may stand on its own first rank, and a
    /// pawn's file or a bishop's square colour can change without a capture.
    pub displaced: bool,
    /// Fewest captures a pawn of each colour needs from each starting file to each
    /// square, over every geometry the board can take (displaced boards only).
    capture_costs: Option<Box<[[[u8; 64]; 8]; 2]>>,
}

/// Captures counted for a square no pawn can reach: more than the 15 men a side can
/// lose, so such a pawn always fails the count.
pub const UNREACHABLE: u8 = 16;

impl<T: Terrain> RetroGame<T> {
    pub fn new(terrain: T, taxi: Option<Taxi>, displaced: bool) -> RetroGame<T> {
        let capture_costs = displaced.then(|| Box::new(pawn_capture_costs(&terrain)));
        RetroGame {
            terrain,
            taxi,
            displaced,
            capture_costs,
        }
    }

    /// The board and economy of `game`; `displaced` for an Earthquake board.
    pub fn of_game(game: &crate::game::Game<T>, displaced: bool) -> RetroGame<T> {
        RetroGame::new(game.terrain.clone(), game.rules().taxi, displaced)
    }

    /// The geometry in force with the lower half at `dx` (the board's own when it does
    /// not shift).
    pub fn geo(&self, dx: i8) -> &T::Geo {
        match self.terrain.fixed() {
            Some(geo) => geo,
            None => self
                .terrain
                .shifted(dx.clamp(Shifting::MIN_DX, Shifting::MAX_DX))
                .expect("a shifting board has every dx in range"),
        }
    }

    /// Whether aftershocks can have been played.
    pub fn shifts(&self) -> bool {
        self.terrain.shifts()
    }

    /// Whether a pawn of `color` can stand on `sq`: never on its last rank; on the
    /// standard board not on its first either (rules.md 3.5).
    pub fn pawn_may_stand(&self, color: Color, sq: Square) -> bool {
        let rank = sq.relative_rank(color);
        rank != 7 && (self.displaced || rank != 0)
    }

    /// The men that give check to `color`'s king in `pos`, with `extra` squares (men
    /// that fell later) closing lines: every attacker in FIDE; under Taxi the attacks
    /// the other side can pay for on its next turn (rules.md 2.2).
    pub fn checkers(&self, pos: &RetroPosition, color: Color, extra: Bitboard) -> Bitboard {
        let Some(king) = pos.board.king(color) else {
            return Bitboard::EMPTY;
        };
        let geo = self.geo(pos.dx);
        let by = !color;
        let all = attackers(geo, &pos.board, king, by, pos.board.occupied() | extra);
        match &self.taxi {
            None => all,
            Some(taxi) => AffordableAttack::new(geo, self.budget(pos, by, taxi))
                .counting(geo, &pos.board, king, all),
        }
    }

    /// Whether `sq` is attacked by `by` in `pos`, affordably under Taxi.
    pub fn attacked(&self, pos: &RetroPosition, sq: Square, by: Color) -> bool {
        let geo = self.geo(pos.dx);
        let occupied = pos.board.occupied();
        match &self.taxi {
            None => crate::attacks::is_attacked(geo, &pos.board, sq, by, occupied),
            Some(taxi) => AffordableAttack::new(geo, self.budget(pos, by, taxi))
                .attacked(geo, &pos.board, sq, by, occupied),
        }
    }

    /// What `color` can spend on its next turn in `pos` (rules.md 2.2).
    fn budget(&self, pos: &RetroPosition, color: Color, taxi: &Taxi) -> u32 {
        pos.cash[color.index()] as u32 + if pos.turn == color { 0 } else { taxi.income }
    }

    /// The fewest captures `color`'s pawns on `pawns` need, each from its own starting
    /// file (a cheapest assignment); on the standard board one capture per file crossed.
    pub fn pawn_captures(&self, color: Color, pawns: Bitboard) -> u32 {
        match &self.capture_costs {
            None => super::soundness::pawn_file_captures(pawns),
            Some(costs) => {
                let costs = &costs[color.index()];
                let squares: Vec<Square> = pawns.collect();
                // Each pawn's cheapest file: when they are distinct files that is the
                // cheapest assignment (the common case, asked at every node of a
                // history search); otherwise the assignment is solved.
                let mut used = 0u32;
                let mut total = 0;
                for sq in &squares {
                    let (file, cost) = (0..8)
                        .map(|f| (f, costs[f][sq.index()] as u32))
                        .min_by_key(|&(_, c)| c)
                        .expect("eight files");
                    used |= 1 << file;
                    total += cost;
                }
                if used.count_ones() as usize == squares.len() {
                    return total;
                }
                super::soundness::cheapest_assignment(squares.len(), |pawn, file| {
                    costs[file][squares[pawn].index()] as u32
                })
            }
        }
    }
}

/// For each colour, starting file and square, the fewest captures a pawn needs to get
/// there: steps and double steps are free, a capture costs one, over the union of every
/// geometry the terrain can take (an aftershock can change the board between two steps).
/// A pawn stops on its last rank (it promotes there).
fn pawn_capture_costs<T: Terrain>(terrain: &T) -> [[[u8; 64]; 8]; 2] {
    let geos: Vec<&T::Geo> = match terrain.fixed() {
        Some(g) => vec![g],
        None => (Shifting::MIN_DX..=Shifting::MAX_DX)
            .filter_map(|dx| terrain.shifted(dx))
            .collect(),
    };
    let mut out = [[[UNREACHABLE; 64]; 8]; 2];
    for color in Color::ALL {
        for file in 0..8u8 {
            let dist = &mut out[color.index()][file as usize];
            let start = Square::from_coords(file, color.fold(1, 6));
            dist[start.index()] = 0;
            // A 0-1 shortest path by repeated relaxation: 64 squares, a few rounds.
            let mut changed = true;
            while changed {
                changed = false;
                for sq in (0..64u8).map(Square::new) {
                    let d = dist[sq.index()];
                    if d == UNREACHABLE || sq.relative_rank(color) == 7 {
                        continue;
                    }
                    for geo in &geos {
                        if !geo.squares().contains(sq) {
                            continue;
                        }
                        let mut relax = |to: Square, cost: u8| {
                            let next = (d + cost).min(UNREACHABLE);
                            if next < dist[to.index()] {
                                dist[to.index()] = next;
                                changed = true;
                            }
                        };
                        for to in geo.pawn_step(color, sq) {
                            relax(to, 0);
                        }
                        for to in geo.pawn_attacks(color, sq) {
                            relax(to, 1);
                        }
                    }
                }
            }
        }
    }
    out
}

/// The roles a capture on `sq` can have taken from `color`: never a king, and a pawn
/// only where one of `color` can stand.
pub fn capturable<T: Terrain>(game: &RetroGame<T>, color: Color, sq: Square) -> &'static [Role] {
    const WITH_PAWN: [Role; 5] = [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];
    if game.pawn_may_stand(color, sq) {
        &WITH_PAWN
    } else {
        &WITH_PAWN[..4]
    }
}
