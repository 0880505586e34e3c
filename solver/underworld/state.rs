//! The state of an Underworld game (rules.md 4): the World (a FIDE board with its
//! castling and en passant rights), the Underworld with its own en passant square, the
//! home file of every man on both boards, the permanently captured men, whose turn on
//! which board, and a captured Underworld King waiting to be placed.

use crate::board::Board;
use crate::position::Position;
use crate::types::{Color, Role, Square};

/// One of the two boards.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Realm {
    World,
    Under,
}

impl Realm {
    pub fn index(self) -> usize {
        self as usize
    }
    /// The prefix of a move on this board (`W:`, `U:`).
    pub fn letter(self) -> char {
        match self {
            Realm::World => 'W',
            Realm::Under => 'U',
        }
    }
}

/// Whose turn on which board: the round is WW, BW, BU, WU (rules.md 4.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    WW = 0,
    BW = 1,
    BU = 2,
    WU = 3,
}

impl Phase {
    pub const CYCLE: [Phase; 4] = [Phase::WW, Phase::BW, Phase::BU, Phase::WU];

    pub fn index(self) -> usize {
        self as usize
    }
    pub fn color(self) -> Color {
        match self {
            Phase::WW | Phase::WU => Color::White,
            Phase::BW | Phase::BU => Color::Black,
        }
    }
    pub fn realm(self) -> Realm {
        match self {
            Phase::WW | Phase::BW => Realm::World,
            Phase::BU | Phase::WU => Realm::Under,
        }
    }
    /// The next phase of the cycle.
    pub fn next(self) -> Phase {
        Phase::CYCLE[(self.index() + 1) % 4]
    }
    pub fn parse(s: &str) -> Option<Phase> {
        Some(match s {
            "WW" => Phase::WW,
            "BW" => Phase::BW,
            "BU" => Phase::BU,
            "WU" => Phase::WU,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        ["WW", "BW", "BU", "WU"][self.index()]
    }
}

/// Men of the roles pawn to queen, by colour: the permanently captured ones.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Reserve {
    counts: [[u8; 5]; 2],
}

impl Reserve {
    pub fn count(&self, color: Color, role: Role) -> u8 {
        self.counts[color.index()][role.index()]
    }
    pub fn add(&mut self, color: Color, role: Role) {
        let c = &mut self.counts[color.index()][role.index()];
        *c = c.saturating_add(1);
    }
    pub fn take(&mut self, color: Color, role: Role) {
        let c = &mut self.counts[color.index()][role.index()];
        *c = c.saturating_sub(1);
    }
    pub fn is_empty(&self) -> bool {
        self.counts.iter().flatten().all(|&c| c == 0)
    }
    /// The roles of `color` held, each once.
    pub fn roles(&self, color: Color) -> impl Iterator<Item = Role> + '_ {
        [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ]
        .into_iter()
        .filter(move |&r| self.count(color, r) > 0)
    }
}

/// Home files (0 = a .. 7 = h) of the men on one board, by square. Pawns and kings
/// keep 0: a pawn's home is the file it is captured on, and kings never change board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Homes(pub [u8; 64]);

impl Default for Homes {
    fn default() -> Homes {
        Homes([0; 64])
    }
}

impl Homes {
    pub fn get(&self, sq: Square) -> u8 {
        self.0[sq.index()]
    }
    pub fn set(&mut self, sq: Square, file: u8) {
        self.0[sq.index()] = file;
    }
    /// The man on `from` went to `to`: its home file goes with it.
    pub fn carry(&mut self, from: Square, to: Square) {
        self.0[to.index()] = self.0[from.index()];
        self.0[from.index()] = 0;
    }
    pub fn clear(&mut self, sq: Square) {
        self.0[sq.index()] = 0;
    }
}

/// The default home file of a `role` of `color` standing on `sq` (rules.md 4.2, 4.8i).
pub fn default_home(color: Color, role: Role, sq: Square) -> u8 {
    let left_half = sq.file() < 4;
    match role {
        Role::King => 4,
        Role::Queen => 3,
        Role::Rook => {
            if left_half {
                0
            } else {
                7
            }
        }
        Role::Knight => {
            if left_half {
                1
            } else {
                6
            }
        }
        // White c = dark, f = light; Black c = light, f = dark.
        Role::Bishop => match (color, sq.is_light()) {
            (Color::White, false) | (Color::Black, true) => 2,
            _ => 5,
        },
        Role::Pawn => 0,
    }
}

/// The state of the game.
#[derive(Copy, Clone, Debug)]
pub struct UState {
    /// The World with its castling and en passant rights. Its side to move is the side
    /// that makes the next World move: the phase's side at WW and BW, White at BU and WU
    /// (the next World turn is WW, also after the World was inactive, rule 4.1).
    pub world: Position,
    pub under: Board,
    /// The Underworld's en passant square (rules.md 4.8h).
    pub u_ep: Option<Square>,
    pub homes: [Homes; 2],
    pub reserve: Reserve,
    pub phase: Phase,
    /// The owner of an Underworld King just captured by the other one, still to place
    /// it (rules.md 4e): the turn of `phase` is not over until then.
    pub placing: Option<Color>,
    /// The side that made the last turn (mate is judged right after it, rules.md 4.8a).
    pub last_mover: Option<Color>,
}

/// The side that makes the next World move after `phase` (see `UState::world`).
pub fn next_world_mover(phase: Phase) -> Color {
    match phase {
        Phase::BW => Color::Black,
        _ => Color::White,
    }
}

impl UState {
    pub fn board(&self, realm: Realm) -> &Board {
        match realm {
            Realm::World => self.world.board(),
            Realm::Under => &self.under,
        }
    }

    /// Whether a board holds more than its native kings (rules.md 4.1).
    pub fn active(&self, realm: Realm) -> bool {
        let board = self.board(realm);
        (board.occupied() - board.by_role(Role::King)).is_nonempty()
    }

    /// The side to move: the placer of a captured Underworld King, or the phase's side.
    pub fn mover(&self) -> Color {
        self.placing.unwrap_or(self.phase.color())
    }

    /// The World as `color` would move on it: its side to move set, and an en passant
    /// right kept only when it is `color`'s to take (the right lasts until the next move
    /// on that board, rules.md 4.8h).
    pub fn world_for(&self, color: Color) -> Position {
        let mut w = self.world;
        if w.turn() != color {
            w.pass();
        }
        w
    }

    /// The table's key: everything that decides the future of a state where the game
    /// goes on (who moved last only decides whether it is over).
    pub fn key(&self) -> u64 {
        let w = self.world.hash();
        w ^ crate::generic::hash_of(&(
            self.under,
            self.u_ep,
            self.homes,
            self.reserve,
            self.phase,
            self.placing,
        ))
        .rotate_left(1)
    }
}
