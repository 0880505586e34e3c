//! What a position still needs before it can become the diagram: the fewest moves of
//! each side, and whether it can become it at all. The search of `search.rs` leaves a
//! position as soon as a side needs more moves than it has left; nothing else is cut.
//!
//! Each deduction, and the rule that makes it sound (a real game from the position to
//! the diagram is assumed, and each count shown to be at most what it spends):
//! 1. **Every man of the diagram comes from a man of the position.** Men are never
//!    created; a piece of the diagram is a piece of its kind that moved there, or a
//!    pawn that promoted and moved there. The side spends at least, for each man of the
//!    diagram, the fewest moves of the nearest man of the position that can become it
//!    (`Distances`, empty-board counts over every geometry the board can take). One move
//!    moves one man, castling two: the rook's part is counted free, so the sum over the
//!    diagram's men (each man counted for the target it serves, the nearest for every
//!    target at least as cheap) is at most the moves spent.
//! 2. **Captures.** A pawn changes file only by capturing, one man per diagonal step
//!    (en passant too). The captures each pawn of the diagram needs from the nearest pawn
//!    of the position, added up, cannot exceed the men the other side still has to lose
//!    (its men now less its men in the diagram). Falls remove men without a capture, so
//!    this holds under Trapdoor as well.
//! 3. **Removals.** Without trapdoors a man leaves the board only by being captured: the
//!    other side's surplus men each cost the side one capturing move.
//! 4. **Promotions.** A side's pieces of a kind beyond its pieces of that kind now are
//!    promoted pawns, and pawns do not come back: their number is within its pawns now
//!    less its pawns in the diagram.
//! 5. **Men that never move.** Some men of the diagram provably never moved, so they
//!    stand on their squares in every position of the game, and no other man ever lands
//!    on or passes those squares (`Distances` takes them as walls): a pawn on a square no
//!    pawn from the array can ever move onto (its second rank: pawns only move forward,
//!    all from one row, whatever the board's displacement); the king and rook of a
//!    castling right the diagram keeps (a right the game never loses); and under Trapdoor
//!    with the timers stated, a man the diagram has safe (an arrival starts a timer that
//!    only a fall or a capture ends). Such a man serves its own square in the count of
//!    rule 1.
//! 6. **A man on its own square.** Where a man of the position stands on a square where
//!    the diagram has the same man, some cheapest assignment of rule 1 gives it that
//!    square: exchanging the targets of it and of the man that would serve its square
//!    costs no more (distances are shortest paths, so going through its square and on is
//!    never cheaper than going on from there). Not for a rook that may still castle,
//!    whose castling makes it cheaper than its square says. The other targets are then
//!    counted over the other men only.
//! 7. **Ticking men** (Trapdoor, timers stated): a man the diagram has ticking with r
//!    arrived on its square exactly T - r of its side's moves before the end and stayed
//!    (an arrival sets T, each later move of its side takes one off, rules.md 1.1-1.2).
//!    Once its side has at most T - r moves left, that arrival is past: the man stands
//!    there now with r plus the moves left.
//! 8. **Cash** (Taxi, where the diagram states it): from here the side receives one
//!    income per move of the other side and pays at least 1 for each of its moves but
//!    aftershocks, at most the dearest move of the board.

use super::diagram::Diagram;
use super::distance::{nearest, Distances, FAR};
use crate::bitboard::Bitboard;
use crate::game::Game;
use crate::geometry::Terrain;
use crate::position::Position;
use crate::types::{Color, Piece, Role, Square};

/// The diagram's men and constraints, in the form the bound reads at every node.
pub struct Bound {
    dist: Distances,
    /// The diagram's men of each side.
    men: [Vec<(Square, Role)>; 2],
    /// The diagram's pawns of each side.
    pawns: [Vec<Square>; 2],
    /// The diagram's men of each side by role.
    counts: [[u32; 6]; 2],
    castling: Bitboard,
    /// Men leave the board without a capture (Trapdoor).
    falls: bool,
    /// Men that never moved (rule 5), and their squares.
    unmoved: Vec<(Square, Piece)>,
    /// Under Trapdoor with the timers stated, the diagram's ticking men with their r, and
    /// the timer T (rule 7).
    ticking: Vec<(Square, Piece, u8)>,
    timer: u8,
    walls: Bitboard,
    /// Each side's cash in the diagram, where it is stated (Taxi), with the income and
    /// the dearest move.
    cash: [Option<u32>; 2],
    income: u32,
    dearest: u32,
}

/// A position's distance from the diagram.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Need {
    /// At least these moves of White and Black.
    Moves([u32; 2]),
    /// Never, whatever the moves: why.
    Never(Never),
}

/// Why a position can never become the diagram.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Never {
    /// No man of `color` can become the diagram's man on `square`.
    NoMan(Color, Square),
    /// `color`'s pawns need `needed` captures; the other side has only `available`
    /// men to lose.
    Captures {
        color: Color,
        needed: u32,
        available: u32,
    },
    /// `color` has fewer men than the diagram.
    TooFewMen(Color),
    /// `color` has too few pawns left for the diagram's pawns and promoted pieces.
    Promotions(Color),
    /// A castling right of the diagram is lost.
    Castling(Square),
    /// A man the diagram has safe (never moved) has moved or gone.
    Moved(Square),
}

impl Bound {
    pub fn new<T: Terrain>(game: &Game<T>, diagram: &Diagram) -> Bound {
        let d = &diagram.position;
        let mut men = [Vec::new(), Vec::new()];
        let mut pawns = [Vec::new(), Vec::new()];
        let mut counts = [[0u32; 6]; 2];
        for (sq, piece) in d.board().pieces() {
            let c = piece.color.index();
            men[c].push((sq, piece.role));
            counts[c][piece.role.index()] += 1;
            if piece.role == Role::Pawn {
                pawns[c].push(sq);
            }
        }
        let falls = game.rules().trapdoor.is_some();
        let unmoved: Vec<(Square, Piece)> = d
            .board()
            .pieces()
            .filter(|&(sq, piece)| never_moved(game, diagram, sq, piece))
            .collect();
        let walls = unmoved
            .iter()
            .fold(Bitboard::EMPTY, |b, &(sq, _)| b.with(sq));
        let ticking = if falls && diagram.stated.timers {
            d.board()
                .pieces()
                .filter_map(|(sq, piece)| d.timers().get(sq).map(|r| (sq, piece, r)))
                .collect()
        } else {
            Vec::new()
        };
        let timer = game.rules().trapdoor.map_or(0, |t| t.timer);
        let taxi = game.rules().taxi;
        let cash = Color::ALL
            .map(|c| (taxi.is_some() && diagram.stated.cash[c.index()]).then(|| d.cash(c)));
        Bound {
            dist: Distances::of(&game.terrain, walls),
            men,
            pawns,
            counts,
            castling: d.castling(),
            falls,
            unmoved,
            ticking,
            timer,
            walls,
            cash,
            income: taxi.map_or(0, |t| t.income),
            dearest: game.taxi_dearest(),
        }
    }

    /// Whether the diagram may still be reached from `pos` in exactly `plies` more
    /// half-moves (never false where a game does so).
    pub fn open(&self, pos: &Position, plies: u32) -> bool {
        match self.need(pos) {
            Need::Never(_) => false,
            Need::Moves(need) => {
                let left = moves_left(pos, plies);
                need[0] <= left[0]
                    && need[1] <= left[1]
                    && self.cash_open(pos, left)
                    && self.timers_open(pos, left)
            }
        }
    }

    /// Rule 7: every ticking man of the diagram whose arrival is past stands on its
    /// square with r plus its side's moves left.
    fn timers_open(&self, pos: &Position, left: [u32; 2]) -> bool {
        self.ticking.iter().all(|&(sq, piece, r)| {
            let moves = left[piece.color.index()];
            let after = (self.timer - r) as u32;
            moves > after
                || (pos.board().piece_at(sq) == Some(piece)
                    && pos.timers().get(sq).map(u32::from) == Some(r as u32 + moves))
        })
    }

    /// The needs of both sides in `pos`, reached by a move of `mover` from a position
    /// whose needs were `before`, if the diagram may still be reached in `plies` more
    /// half-moves. The other side's need is worked out again only when the move changed
    /// the number of men (a capture, a fall).
    pub fn after_move(
        &self,
        pos: &Position,
        plies: u32,
        mover: Color,
        before: [u32; 2],
        men_changed: bool,
    ) -> Option<[u32; 2]> {
        let left = moves_left(pos, plies);
        let mut need = before;
        for color in [mover, !mover] {
            if color == mover || men_changed {
                let n = self.need_of(pos, color).ok()?;
                if n > left[color.index()] {
                    return None;
                }
                need[color.index()] = n;
            }
        }
        (self.cash_open(pos, left) && self.timers_open(pos, left)).then_some(need)
    }

    /// Whether the diagram's stated cash is within what each side can hold after
    /// `left` more moves of each.
    fn cash_open(&self, pos: &Position, left: [u32; 2]) -> bool {
        Color::ALL.into_iter().all(|c| {
            let Some(goal) = self.cash[c.index()] else {
                return true;
            };
            let (mine, theirs) = (left[c.index()] as i64, left[(!c).index()] as i64);
            let shocks = pos.quake().shocks[c.index()] as i64;
            let gained = pos.cash(c) as i64 + theirs * self.income as i64;
            let most = gained - (mine - shocks).max(0);
            // Cash is kept in 16 bits: above that the least is not known.
            let least = if gained <= u16::MAX as i64 {
                gained - mine * self.dearest as i64
            } else {
                i64::MIN
            };
            (least..=most).contains(&(goal as i64))
        })
    }

    /// The fewest moves each side needs from `pos`, or why it never reaches the diagram.
    pub fn need(&self, pos: &Position) -> Need {
        let mut need = [0u32; 2];
        for color in Color::ALL {
            match self.need_of(pos, color) {
                Ok(n) => need[color.index()] = n,
                Err(never) => return Need::Never(never),
            }
        }
        Need::Moves(need)
    }

    /// The fewest moves `color` needs from `pos`, or why it never reaches the diagram.
    /// It reads `color`'s men and the other side's number of men only: a move that
    /// takes or drops no man leaves the other side's need as it was.
    pub fn need_of(&self, pos: &Position, color: Color) -> Result<u32, Never> {
        let board = pos.board();
        let c = color.index();
        let home = Bitboard::rank(color.fold(0, 7));
        if let Some(lost) = ((self.castling & home) - pos.castling()).first() {
            return Err(Never::Castling(lost));
        }
        for &(sq, piece) in &self.unmoved {
            if piece.color == color
                && (board.piece_at(sq) != Some(piece) || pos.timers().get(sq).is_some())
            {
                return Err(Never::Moved(sq));
            }
        }
        {
            let ours = board.by_color(color);
            let theirs_now = board.by_color(!color).count();
            let theirs_then: u32 = self.counts[(!color).index()].iter().sum();
            let ours_then: u32 = self.counts[c].iter().sum();
            if ours.count() < ours_then {
                return Err(Never::TooFewMen(color));
            }
            // 4. Promotions.
            let pawns_now = board.by_piece(color, Role::Pawn).count();
            let spare = pawns_now as i64 - self.counts[c][Role::Pawn.index()] as i64;
            let promoted: i64 = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
                .iter()
                .map(|&r| {
                    (self.counts[c][r.index()] as i64 - board.by_piece(color, r).count() as i64)
                        .max(0)
                })
                .sum();
            if spare < 0 || promoted > spare {
                return Err(Never::Promotions(color));
            }
            // 1. Moves of each man of the diagram from its nearest candidate; the men
            // that never move (5) and those on their own squares (6) serve those.
            let mut moves = 0u32;
            let mut free = ours - self.walls;
            let mut served = self.walls;
            for &(target, role) in &self.men[c] {
                if !served.contains(target)
                    && board.piece_at(target) == Some(Piece::new(color, role))
                    && !(role == Role::Rook && pos.castling().contains(target))
                {
                    served.set(target);
                    free.clear(target);
                }
            }
            let castles = (pos.castling() & Bitboard::rank(color.fold(0, 7))).is_nonempty();
            let pawns = board.by_piece(color, Role::Pawn);
            for &(target, role) in &self.men[c] {
                if served.contains(target) {
                    continue;
                }
                let same = board.by_piece(color, role) & free;
                let mut best = match role {
                    Role::King | Role::Rook if castles => same
                        .into_iter()
                        .map(|sq| self.moves_to(pos, color, role, sq, role, target))
                        .min()
                        .unwrap_or(FAR),
                    _ => nearest(self.dist.piece_or_pawn_to(color, role, target), same),
                };
                if !matches!(role, Role::King | Role::Pawn) {
                    best = best.min(nearest(
                        self.dist.pawn_to(color, role, target),
                        pawns & free,
                    ));
                }
                if best == FAR {
                    return Err(Never::NoMan(color, target));
                }
                moves += best as u32;
            }
            // 2. Captures of the pawns, each pawn of the diagram from the nearest free
            // pawn (rule 6's exchange holds for captures as for moves).
            let mut captures = 0u32;
            for &target in &self.pawns[c] {
                if served.contains(target) {
                    continue;
                }
                let best = nearest(
                    self.dist.pawn_captures_to(color, Role::Pawn, target),
                    pawns & free,
                );
                if best == FAR {
                    return Err(Never::NoMan(color, target));
                }
                captures += best as u32;
            }
            let available = theirs_now.saturating_sub(theirs_then);
            if captures > available {
                return Err(Never::Captures {
                    color,
                    needed: captures,
                    available,
                });
            }
            // 3. Removals.
            if !self.falls {
                moves = moves.max(available);
            }
            Ok(moves)
        }
    }

    /// The fewest moves of `color`'s `man` on `from` to stand on `to` as `role`
    /// (`FAR`: never). A king or rook that may still castle may take its castling
    /// square in the king's move.
    fn moves_to(
        &self,
        pos: &Position,
        color: Color,
        man: Role,
        from: Square,
        role: Role,
        to: Square,
    ) -> u8 {
        let d = &self.dist;
        match (man, role) {
            (Role::Pawn, Role::King) => FAR,
            (Role::Pawn, form) => d.pawn(color, form, from, to),
            (Role::King, Role::King) => {
                let mut best = d.piece(Role::King, from, to);
                for rook in castling_rooks(pos, color) {
                    let king_to = castle_square(rook, from, true);
                    best = best.min(d.piece(Role::King, king_to, to).saturating_add(1));
                }
                best
            }
            (Role::Rook, Role::Rook) if pos.castling().contains(from) => {
                let king = pos.board().king(color);
                let mut best = d.piece(Role::Rook, from, to);
                if let Some(k) = king {
                    best = best.min(d.piece(Role::Rook, castle_square(from, k, false), to));
                }
                best
            }
            (a, b) if a == b => d.piece(a, from, to),
            _ => FAR,
        }
    }

    /// Why `pos` can never reach the diagram within `plies` half-moves, in words, or
    /// `None` when the bound sees nothing against it.
    pub fn why_not(&self, pos: &Position, plies: u32) -> Option<String> {
        let left = moves_left(pos, plies);
        match self.need(pos) {
            Need::Never(never) => Some(match never {
                Never::NoMan(c, sq) => format!(
                    "no {} man can become the diagram's {} on {sq}",
                    c.name(),
                    self.role_name(c, sq)
                ),
                Never::Captures {
                    color,
                    needed,
                    available,
                } => format!(
                    "{}'s pawns need {needed} capture{} to stand where they do, but {} has lost only {available} m{}",
                    color.name(),
                    if needed == 1 { "" } else { "s" },
                    (!color).name(),
                    if available == 1 { "an" } else { "en" }
                ),
                Never::TooFewMen(c) => format!("{} has more men in the diagram than at the start", c.name()),
                Never::Promotions(c) => format!(
                    "{} has more pieces of a kind than its missing pawns can have promoted to",
                    c.name()
                ),
                Never::Castling(sq) => format!("the castling right with the rook on {sq} cannot be held"),
                Never::Moved(sq) => format!("the man on {sq} is stated safe (never moved) but cannot be"),
            }),
            Need::Moves(need) => {
                for c in Color::ALL {
                    if need[c.index()] > left[c.index()] {
                        return Some(format!(
                            "{} needs at least {} move{} to reach the diagram, and has {}",
                            c.name(),
                            need[c.index()],
                            if need[c.index()] == 1 { "" } else { "s" },
                            left[c.index()]
                        ));
                    }
                }
                (!self.cash_open(pos, left)).then(|| {
                    "the diagram's cash cannot be reached in that many moves".to_string()
                })
            }
        }
    }

    /// The name of the diagram's man of `color` on `sq`.
    fn role_name(&self, color: Color, sq: Square) -> &'static str {
        self.men[color.index()]
            .iter()
            .find(|(s, _)| *s == sq)
            .map_or(Role::Pawn, |(_, r)| *r)
            .name()
    }

    /// The fewest plies from the array the bound allows: a lower bound on the length of
    /// every game that reaches the diagram (the side to move fixed by the diagram).
    pub fn least_plies(&self, start: &Position, turn: Color, most: u32) -> Option<u32> {
        (0..=most)
            .filter(|p| (p % 2 == 0) == (turn == Color::White))
            .find(|&p| self.open(start, p))
    }
}

/// Whether the diagram's man `piece` on `sq` provably never moved (rule 5).
fn never_moved<T: Terrain>(game: &Game<T>, diagram: &Diagram, sq: Square, piece: Piece) -> bool {
    let d = &diagram.position;
    match piece.role {
        Role::Pawn if !super::distance::pawn_arrivals(&game.terrain, piece.color).contains(sq) => {
            return true
        }
        Role::Rook if d.castling().contains(sq) => return true,
        Role::King if (d.castling() & Bitboard::rank(piece.color.fold(0, 7))).is_nonempty() => {
            return true
        }
        _ => {}
    }
    game.rules().trapdoor.is_some() && diagram.stated.timers && d.timers().get(sq).is_none()
}

/// Each side's moves in the next `plies` half-moves from `pos`, White and Black.
pub fn moves_left(pos: &Position, plies: u32) -> [u32; 2] {
    let (first, second) = (plies.div_ceil(2), plies / 2);
    match pos.turn() {
        Color::White => [first, second],
        Color::Black => [second, first],
    }
}

/// The rooks of `color` that may still castle in `pos`.
fn castling_rooks(pos: &Position, color: Color) -> Bitboard {
    pos.castling() & Bitboard::rank(color.fold(0, 7))
}

/// Where castling with the rook on `rook` puts the king (`king`: true) or the rook,
/// the king standing on `king_sq`: the c- or g-square, the d- or f-square of its rank.
fn castle_square(rook: Square, king_sq: Square, king: bool) -> Square {
    let king_side = rook.file() > king_sq.file();
    let file = match (king_side, king) {
        (true, true) => 6,
        (true, false) => 5,
        (false, true) => 2,
        (false, false) => 3,
    };
    Square::from_coords(file, rook.rank())
}
