//! Self-mate candidates built backwards from their end: random diagrams are almost never
//! `s#N` (Black must be left nothing but mating moves), so a self-mate candidate is drawn
//! as its last position first, a Black-to-move position in which every Black move mates
//! White, and then taken back move by move (White's and Black's FIDE moves on the run's
//! board, rules.md 6.1 and 3) to the diagram N White moves earlier. On the standard
//! board the moves are taken back by the retro module's retractions; on an Earthquake
//! board by trying each man of the side that moved on each free square before it, having
//! captured nothing or a man the run draws, the move kept where the board's own moves
//! lead from there to the position. A `#2` asked to have a quiet key, variations or no
//! duals is drawn the same way from the position after its key (`direct`).
//!
//! The construction only draws: each candidate is then proved like any other (a sound
//! diagram, one key, nothing shorter), so nothing here decides what a puzzle is. Like the
//! random drawing it depends on the seed and the candidate's index alone.

mod direct;
mod glass;

pub use direct::{glass_mate_in_two_diagram, mate_in_two_built, mate_in_two_diagram};
pub use glass::glass_self_mate_diagram;

use super::candidate::{draw_men, Draw};
use super::{quality, Spec, Theme};
use crate::fen;
use crate::game::{AnyGame, Game};
use crate::geometry::{Geometry, Terrain};
use crate::moves::Move;
use crate::position::Position;
use crate::retro::retraction::{Retraction, RetroPosition};
use crate::retro::RetroGame;
use crate::types::{Color, Piece, Role, Square};

/// Walks towards an end of a self-mate tried for one candidate before it gives up (then
/// the candidate is no puzzle), and the changes each walk makes at most. A walk goes on
/// among ends until one is taken back (`walk_to_end`), so it is long: with 300 changes
/// and a walk ending at its first end, `s#3` made 42 puzzles a CPU-minute, with 3,000
/// changes walking on among ends 612 (docs/speed.md).
const ENDS_TRIED: u32 = 8;
const WALK_STEPS: u32 = 3_000;
/// Ways back tried from one end.
const WAYS_BACK: u32 = 8;
/// Ways back examined from one end where the run asks for a quiet key, in the search
/// that goes back on its steps (`search_back`); the walk then goes on to the next end
/// (`s#2 --theme quiet-key`: 300 made 20 puzzles a CPU-minute, 100 made 6).
const WAYS_SEARCHED: u32 = 300;

/// The diagram line of self-mate candidate `index`, or `None` when none was built (or
/// the run's board shifts: aftershocks are not built backwards).
pub fn self_mate_diagram(spec: &Spec, index: u64) -> Option<String> {
    match spec.board_with_fide_moves()? {
        AnyGame::Standard(game) => build(&game, spec, index, |_, pos, spec| {
            retracted(pos, spec, true)
        }),
        AnyGame::Earthquake(game) => build(game.as_ref(), spec, index, |game, pos, spec| {
            moved(game, pos, spec, true)
        }),
        AnyGame::Aftershocks(_) => None,
    }
}

/// The diagram line of an Underworld self-mate candidate: the World built backwards
/// with FIDE moves, the Underworld holding its Kings alone, two squares or more apart
/// (inactive: its turns are skipped and the play is FIDE's until a capture, 4.1). The
/// ways back take back captures too: in the play the man taken drops onto the
/// Underworld and wakes it (4.3), each side then moving there as well as on the World,
/// which leaves a forced World line forced unless a man returns. The Underworld's own
/// rules then prove the candidate. Without the captures a quiet key was never built
/// (as on the standard board, `moved`).
pub fn underworld_self_mate_diagram(spec: &Spec, index: u64) -> Option<String> {
    let game = Game::fide();
    let world = build(
        &game,
        &super::candidate::world_alone(spec),
        index,
        |_, pos, spec| retracted(pos, spec, true),
    )?;
    Some(format!(
        "{world} underworld \"{}\"; phase WW;",
        crate::generate::candidate::underworld_kings(spec, index)
    ))
}

/// A way back from a position: the placement before a move, and the move's start,
/// arrival and promotion (each checked forward by `step_back`).
type Way = (crate::board::Board, Square, Square, Option<Role>);

/// The ways back a board offers from a position (`retracted`, `moved`).
type WaysBack<T> = fn(&Game<T>, &Position, &Spec) -> Vec<Way>;

fn build<T: Terrain>(game: &Game<T>, spec: &Spec, index: u64, ways: WaysBack<T>) -> Option<String> {
    let mut d = Draw::new(spec.seed, index);
    let key = KeyWanted::of(spec);
    let steps = 2 * spec.stip.moves - 1;
    let diagram = walks(game, spec, &mut d, |end, d| {
        if key == KeyWanted::Any {
            (0..WAYS_BACK).find_map(|_| back(game, ways, end, spec, d))
        } else {
            let mut budget = WAYS_SEARCHED;
            search_back(game, ways, end, spec, d, key, (1, steps), &mut budget)
        }
    })?;
    Some(format!("{} w - -", fen::write_placement(diagram.board())))
}

/// Up to `ENDS_TRIED` walks (`walk_to_end`), each from a fresh placement, until `found`
/// makes something of an end one of them comes to.
fn walks<E: Ends, R>(
    game: &E,
    spec: &Spec,
    d: &mut Draw,
    mut found: impl FnMut(&E::State, &mut Draw) -> Option<R>,
) -> Option<R> {
    (0..ENDS_TRIED).find_map(|_| walk_to_end(game, spec, d, &mut found))
}

/// Black's legal moves in `pos` that do not mate White, counted up to one more than
/// `most` (the walk keeps a change only when the count is at most `most`, so a count
/// past it is not worth finishing: the walk goes the same way, faster). `None`: Black
/// has no move, or `pos` is no position. Zero is the end of a self-mate.
fn escapes<T: Terrain>(game: &Game<T>, pos: &Position, most: usize) -> Option<usize> {
    let moves = game.legal_moves(pos);
    if moves.is_empty() {
        return None;
    }
    let mut count = 0;
    for &m in moves.iter() {
        if !game.mates(pos, m) {
            count += 1;
            if count > most {
                break;
            }
        }
    }
    Some(count)
}

/// A man of a walk: the board it stands on (0, or 1 for a two-board game's second), its
/// square and itself.
type Man = (usize, Square, Piece);

/// What the walk towards a self-mate's end needs of a game: the boards it places men
/// on, the state those men make with Black to move, and Black's escapes there.
trait Ends {
    type State: Copy;
    /// The boards men stand on: 1, or 2.
    const BOARDS: usize;
    /// The boards the kings are drawn for (as `draw_men` takes them).
    const KINGS: [(Color, usize); 2];
    /// The state of `men`, Black to move, if it passes the game's checks of a position.
    fn state(&self, men: &[Man]) -> Option<Self::State>;
    /// Black's moves that do not win for Black, up to one more than `most` (`escapes`);
    /// `None` when Black has no move.
    fn escapes(&self, s: &Self::State, most: usize) -> Option<usize>;
}

/// The single-board games, by FIDE moves on the run's board.
impl<T: Terrain> Ends for Game<T> {
    type State = Position;
    const BOARDS: usize = 1;
    const KINGS: [(Color, usize); 2] = [(Color::White, 0), (Color::Black, 0)];
    fn state(&self, men: &[Man]) -> Option<Position> {
        position(self, men, Color::Black)
    }
    fn escapes(&self, s: &Position, most: usize) -> Option<usize> {
        escapes(self, s, most)
    }
}

/// Walks towards an end of a self-mate: a state, Black to move, where every Black move
/// wins for Black. The walk starts from a random placement and changes one man at a
/// time (moved, added or removed), keeping a change that leaves Black no more escapes
/// than before. At each end it comes to it asks `found` to make something of it (a line
/// taken back), and where `found` makes nothing it walks on among ends (a change that
/// keeps Black without an escape is kept) to the next: an end near one that leads
/// nowhere costs a step, not a walk.
fn walk_to_end<E: Ends, R>(
    game: &E,
    spec: &Spec,
    d: &mut Draw,
    mut found: impl FnMut(&E::State, &mut Draw) -> Option<R>,
) -> Option<R> {
    let mut men: Vec<Man> = draw_men(spec, d, E::BOARDS, &E::KINGS);
    // The escapes of the placement kept, with its state (none yet: any counts).
    let mut best: Option<(usize, E::State)> = game
        .state(&men)
        .and_then(|s| Some((game.escapes(&s, usize::MAX)?, s)));
    // Each end is offered to `found` once, as the walk comes to it.
    if let Some((0, end)) = &best {
        if let Some(made) = found(end, d) {
            return Some(made);
        }
    }
    // The placement tried at each step, in one buffer for the whole walk.
    let mut next: Vec<Man> = Vec::with_capacity(spec.men.1 as usize + 1);
    // A board drawn for a man (with one board, nothing is drawn: the single-board
    // walks stay what they were).
    let board = |d: &mut Draw| {
        if E::BOARDS == 1 {
            0
        } else {
            d.between(0, E::BOARDS as u32 - 1) as usize
        }
    };
    for _ in 0..WALK_STEPS {
        next.clear();
        next.extend_from_slice(&men);
        // Drawn as `pick` over the list of free squares, ascending, would draw.
        let free = |men: &[Man], b: usize| spec.squares & !occupied(men, b);
        match d.between(0, 2) {
            // A man moves (a king too) to a free square.
            0 => {
                let i = d.between(0, next.len() as u32 - 1) as usize;
                let b = board(d);
                let to = d.pick_square(free(&next, b));
                next[i].0 = b;
                next[i].1 = to;
            }
            // A man is added, of a role the run draws.
            1 if (next.len() as u32) < spec.men.1 => {
                let color = if d.between(0, 1) == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                let b = board(d);
                let to = d.pick_square(free(&next, b));
                next.push((b, to, Piece::new(color, d.pick(&spec.pieces))));
            }
            // A man other than a king is removed.
            _ if (next.len() as u32) > spec.men.0.max(3) => {
                let others: Vec<usize> = (0..next.len())
                    .filter(|&i| next[i].2.role != Role::King)
                    .collect();
                if others.is_empty() {
                    continue;
                }
                next.remove(d.pick(&others));
            }
            _ => continue,
        }
        // Pawns never on the first or last rank.
        if next
            .iter()
            .any(|(_, sq, p)| p.role == Role::Pawn && (sq.rank() == 0 || sq.rank() == 7))
        {
            continue;
        }
        let Some(s) = game.state(&next) else {
            continue;
        };
        let most = best.as_ref().map_or(usize::MAX, |(kept, _)| *kept);
        let Some(count) = game.escapes(&s, most) else {
            continue;
        };
        if best.as_ref().is_none_or(|(kept, _)| count <= *kept) {
            if count == 0 {
                if let Some(made) = found(&s, d) {
                    return Some(made);
                }
            }
            best = Some((count, s));
            std::mem::swap(&mut men, &mut next);
        }
    }
    None
}

/// The squares `men` hold on board `b`.
fn occupied(men: &[Man], b: usize) -> crate::bitboard::Bitboard {
    men.iter()
        .filter(|m| m.0 == b)
        .fold(crate::bitboard::Bitboard::EMPTY, |set, &(_, sq, _)| {
            set.with(sq)
        })
}

/// The position of `men` with `turn` to move (no castling, no en passant), if it
/// passes the checks every position does on the game's board (rules.md 7.2: the kings,
/// pawns off their first and last ranks, the side not to move not in check). The
/// diagram at the end of the construction is read and checked again like every
/// candidate.
fn position<T: Terrain>(game: &Game<T>, men: &[Man], turn: Color) -> Option<Position> {
    let mut board = crate::board::Board::empty();
    for &(_, sq, p) in men {
        board.put(sq, p);
    }
    position_on(game, board, turn)
}

fn position_on<T: Terrain>(
    game: &Game<T>,
    board: crate::board::Board,
    turn: Color,
) -> Option<Position> {
    let setup = fen::Setup {
        board,
        turn,
        castling: crate::bitboard::Bitboard::EMPTY,
        ep: None,
        halfmoves: None,
        fullmoves: None,
    };
    crate::setup::validate(game.terrain.fixed()?, &setup).ok()?;
    Some(setup.into_position())
}

/// The key a run asks for, by its themes: a quiet key is drawn as one, not hoped for.
#[derive(Copy, Clone, PartialEq, Eq)]
enum KeyWanted {
    Any,
    /// No capture, no check (`quiet`).
    Quiet,
    /// No capture, no check, no flight taken (`quiet-key`).
    QuietKey,
}

impl KeyWanted {
    fn of(spec: &Spec) -> KeyWanted {
        if spec.themes.contains(&Theme::QuietKey) {
            KeyWanted::QuietKey
        } else if spec.themes.contains(&Theme::Quiet) {
            KeyWanted::Quiet
        } else {
            KeyWanted::Any
        }
    }

    /// Whether `key`, played from `pos`, is such a key (by FIDE moves on the run's
    /// board: the proof then judges the key under the game's own rules).
    fn allows<T: Terrain>(self, game: &Game<T>, pos: &Position, key: Move) -> bool {
        match self {
            KeyWanted::Any => true,
            KeyWanted::Quiet => quality::key_neither_takes_nor_checks(game, pos, key),
            KeyWanted::QuietKey => quality::key_is_quiet_in(game, pos, key),
        }
    }
}

/// From `end` (Black to move), `spec.stip.moves` White moves and the Black moves between
/// them taken back, each a legal FIDE move of the position before it; the men stay
/// within the run's bounds. `None` when a step finds no way back.
fn back<T: Terrain>(
    game: &Game<T>,
    ways: WaysBack<T>,
    end: &Position,
    spec: &Spec,
    d: &mut Draw,
) -> Option<Position> {
    let mut pos = *end;
    // White's last move, then Black's and White's in turn: 2N - 1 moves.
    for _ in 0..(2 * spec.stip.moves - 1) {
        pos = step_back(game, ways, &pos, spec, d)?;
    }
    Some(pos)
}

/// One move taken back from `pos`: a move drawn at random among those legal in the
/// position before it that lead to `pos`, Black's only legal move where Black made it
/// (the line is forced).
fn step_back<T: Terrain>(
    game: &Game<T>,
    ways: WaysBack<T>,
    pos: &Position,
    spec: &Spec,
    d: &mut Draw,
) -> Option<Position> {
    let mut ways = ways(game, pos, spec);
    while !ways.is_empty() {
        let i = (d.next_u64() % ways.len() as u64) as usize;
        let way = ways.swap_remove(i);
        if let Some(prev) = taken_back(game, pos, way, 1, |_, _| true) {
            return Some(prev);
        }
    }
    None
}

/// `back` for a run that asks for a quiet key: the key taken back last must be one, and
/// so Black must not be in check after it (a key that leaves Black in check checks);
/// Black may then have up to `BLACK_MOVES_AFTER_QUIET_KEY` moves (after a quiet key
/// Black is rarely left a single move), each answered in an `s#2`
/// (`every_defence_answered`; deeper, the proof asks it).
/// Such lines are rare among the ways back, so the search goes back on a step that
/// leads nowhere and tries the next way there, until one line is found or `budget`
/// ways have been examined. `steps`: the step to take back now and the last one.
#[allow(clippy::too_many_arguments)]
fn search_back<T: Terrain>(
    game: &Game<T>,
    ways: WaysBack<T>,
    pos: &Position,
    spec: &Spec,
    d: &mut Draw,
    key: KeyWanted,
    (step, last): (u32, u32),
    budget: &mut u32,
) -> Option<Position> {
    if step > last {
        return Some(*pos);
    }
    let black_moves = if step + 1 == last {
        BLACK_MOVES_AFTER_QUIET_KEY
    } else {
        1
    };
    let mut list = ways(game, pos, spec);
    while !list.is_empty() && *budget > 0 {
        *budget -= 1;
        let i = (d.next_u64() % list.len() as u64) as usize;
        let way = list.swap_remove(i);
        let wanted = |prev: &Position, m: Move| {
            if step == last {
                key.allows(game, prev, m)
                    && (spec.stip.moves != 2 || every_defence_answered(game, prev, m))
            } else {
                // Black's move after the key, taken back to the position the key made.
                step + 1 < last || !game.in_check(prev)
            }
        };
        let Some(prev) = taken_back(game, pos, way, black_moves, wanted) else {
            continue;
        };
        let found = search_back(game, ways, &prev, spec, d, key, (step + 1, last), budget);
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Black's legal moves at most where Black's move after a quiet key is taken back.
const BLACK_MOVES_AFTER_QUIET_KEY: usize = 4;

/// Whether, after `key` from `diagram` (an `s#2` key: Black to move next), each Black
/// move mates White or leaves White a move after which every Black move mates White
/// (and Black has one). The line taken back answers one of Black's moves; after a
/// quiet key Black has up to `BLACK_MOVES_AFTER_QUIET_KEY`, and a candidate whose other
/// moves go unanswered is no `s#2` with this key (the proof would find its key
/// elsewhere, or none). Deeper self-mates leave that to the proof: answering each
/// defence there is a search of its own.
fn every_defence_answered<T: Terrain>(game: &Game<T>, diagram: &Position, key: Move) -> bool {
    let after_key = game.play(diagram, key).position;
    game.legal_moves(&after_key).iter().all(|&defence| {
        if game.mates(&after_key, defence) {
            return true;
        }
        let after = game.play(&after_key, defence).position;
        game.legal_moves(&after).iter().any(|&answer| {
            let end = game.play(&after, answer).position;
            escapes(game, &end, 0) == Some(0)
        })
    })
}

/// The position before `pos` along `way`, if the way's move is legal there, gives back
/// `pos`'s placement and en passant right (a double step taken back would leave an en
/// passant capture the position does not show) and `wanted` accepts it (with the position before it); where Black
/// made it, Black had at most `black_moves` legal moves.
fn taken_back<T: Terrain>(
    game: &Game<T>,
    pos: &Position,
    (prev, from, to, promoted): Way,
    black_moves: usize,
    wanted: impl Fn(&Position, Move) -> bool,
) -> Option<Position> {
    let prev = position_on(game, prev, !pos.turn())?;
    let legal = game.legal_moves(&prev);
    if prev.turn() == Color::Black && legal.len() > black_moves {
        return None;
    }
    // The forward move, legal in `prev`, gives back `pos`'s placement.
    let m = legal
        .iter()
        .copied()
        .find(|m| m.from == from && m.to == to && m.promotion() == promoted)?;
    let after = game.play(&prev, m).position;
    (after.board() == pos.board() && after.ep_square() == pos.ep_square() && wanted(&prev, m))
        .then_some(prev)
}

/// The ways back from `pos` on the standard board: the retro module's retractions, an
/// uncapture only within the run's bound of men and of a role the run draws, no castling
/// or en passant.
fn retracted(pos: &Position, spec: &Spec, uncaptures: bool) -> Vec<Way> {
    let here = RetroPosition::of(pos);
    let board = RetroGame::new(crate::geometry::Standard, None, false);
    let mut list: Vec<Retraction> = Vec::new();
    board.retractions(&here, crate::bitboard::Bitboard::EMPTY, &mut list);
    let roles = roles_put_back(spec, pos.board().occupied().count(), uncaptures);
    list.into_iter()
        .filter(|r| {
            r.en_passant.is_none()
                && r.castle.is_none()
                && r.captured.is_none_or(|role| roles.contains(&role))
        })
        .filter_map(|r| Some((board.unplay(&here, &r)?.board, r.from, r.to, r.promoted)))
        .collect()
}

/// The ways back from `pos` on a board that does not shift: each man of the side that
/// moved, on each free square of the board from which its own move, as the board's
/// geometry draws it, reaches its square; and, within the run's bound of men, the same
/// move as a capture, a man of the other side of a role the run draws put back where it
/// arrived (no promotion: fewer ways back, each still exact once checked forward).
/// Without the captures a self-mate asked to have a quiet key is almost never built:
/// a Black move taken back that captured nothing frees Black's men, and after the key
/// Black may have only a few moves. `uncaptures`: whether captures are taken back at
/// all (a `#2` key captures nothing).
fn moved<T: Terrain>(game: &Game<T>, pos: &Position, spec: &Spec, uncaptures: bool) -> Vec<Way> {
    let Some(geo) = game.terrain.fixed() else {
        return Vec::new();
    };
    let board = pos.board();
    let mover = !pos.turn();
    let free = geo.squares() - board.occupied();
    let roles = roles_put_back(spec, board.occupied().count(), uncaptures);
    let mut out = Vec::new();
    for (to, piece) in board.pieces().filter(|(_, p)| p.color == mover) {
        for from in free {
            let mut before = *board;
            before.remove(to);
            before.put(from, piece);
            // Only a move that could arrive is worth checking forward (a legal-move
            // list each): most free squares are none, and a run asking for a quiet
            // key has a budget of ways to spend.
            if reaches(geo, piece, from, to, before.occupied()) {
                out.push((before, from, to, None));
            }
            if !roles.is_empty() && takes(geo, piece, from, to, before.occupied().with(to)) {
                for &role in &roles {
                    let mut with_captured = before;
                    with_captured.put(to, Piece::new(!mover, role));
                    out.push((with_captured, from, to, None));
                }
            }
        }
    }
    out
}

/// The roles of the men a way back may put back as captured, with `men` on the board
/// now: those the run draws (never a king), while the board holds fewer men than the
/// run allows; none where `uncaptures` is false.
fn roles_put_back(spec: &Spec, men: u32, uncaptures: bool) -> Vec<Role> {
    if !uncaptures || men >= spec.men.1 {
        return Vec::new();
    }
    spec.pieces
        .iter()
        .copied()
        .filter(|&r| r != Role::King)
        .collect()
}

/// Whether `piece` on `from` attacks `to` on `geo` with `occupied` standing: what a
/// capture on `to` needs (its legality is checked forward).
fn takes<G: Geometry>(
    geo: &G,
    piece: Piece,
    from: Square,
    to: Square,
    occupied: crate::bitboard::Bitboard,
) -> bool {
    crate::attacks::piece_attacks(geo, piece.role, piece.color, from, occupied).contains(to)
}

/// Whether `piece` on `from` could step to the empty square `to` on `geo` with
/// `occupied` standing (a pawn by its step or double step): what a move that captures
/// nothing needs (its legality is checked forward).
fn reaches<G: Geometry>(
    geo: &G,
    piece: Piece,
    from: Square,
    to: Square,
    occupied: crate::bitboard::Bitboard,
) -> bool {
    if piece.role == Role::Pawn {
        let step = geo.pawn_step(piece.color, from);
        step.contains(to)
            || step
                .into_iter()
                .any(|mid| geo.pawn_step(piece.color, mid).contains(to))
    } else {
        takes(geo, piece, from, to, occupied)
    }
}

/// A run's parameters for the tests: `stip` on `board`, 4 to 7 men of every kind,
/// seed 1.
#[cfg(test)]
pub(super) fn test_spec(stip: &str, board: super::Board, themes: Vec<Theme>) -> Spec {
    Spec {
        stip: crate::problem::Stipulation::parse(stip).unwrap(),
        board,
        ops: String::new(),
        men: (4, 7),
        pieces: vec![
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ],
        themes,
        every_quality: false,
        measure_effort: false,
        improve: false,
        seed: 1,
        squares: crate::bitboard::Bitboard::EMPTY,
    }
    .check()
    .unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Board;

    fn spec(themes: Vec<Theme>) -> Spec {
        test_spec("s#2", Board::Single, themes)
    }

    /// Where the ends a walk comes to lead nowhere, it walks on among ends: each end it
    /// offers is a new position where every Black move mates White (every move played),
    /// and it offers the next after one is turned down.
    #[test]
    fn a_walk_goes_on_among_ends() {
        let game = Game::fide();
        let any = spec(Vec::new());
        let mut walks = 0;
        for index in 0..200 {
            let mut d = Draw::new(any.seed, index);
            let mut offered: Vec<Position> = Vec::new();
            let third = walk_to_end(&game, &any, &mut d, |end, _| {
                offered.push(*end);
                (offered.len() == 3).then_some(*end)
            });
            if third.is_none() {
                continue;
            }
            walks += 1;
            for end in &offered {
                let moves = game.legal_moves(end);
                assert!(!moves.is_empty());
                assert!(
                    moves.iter().all(|&m| game.mates(end, m)),
                    "{}",
                    fen::write_fen(end)
                );
            }
            assert!(offered.windows(2).all(|w| w[0].board() != w[1].board()));
        }
        // Few walks reach an end at all (5 of these 200); each that does finds more.
        assert!(walks >= 3, "{walks} walks offered three ends");
    }

    /// Where a run asks for a quiet key, the `s#2` diagram built from a self-mate's end
    /// has one: a White move giving no check, taking nothing and no flight, after which
    /// Black, not in check, has at most `BLACK_MOVES_AFTER_QUIET_KEY` moves, each of
    /// which mates White or leaves White a move after which every Black move mates
    /// White (each mate found by playing the move; whether the key is the only one is
    /// the proof's to judge). On the standard board and on a displaced Earthquake board,
    /// whose ways back are its own moves (captures among them).
    #[test]
    fn a_quiet_key_is_taken_back_last() {
        for ops in ["", "earthquake \"1 0\";"] {
            let mut quiet = spec(vec![Theme::QuietKey]);
            quiet.ops = ops.to_string();
            let game = quiet.board_with_fide_moves().expect("a board");
            let mut built = 0;
            for index in 0..400 {
                let Some(line) = self_mate_diagram(&quiet, index) else {
                    continue;
                };
                built += 1;
                // Read on the run's board (a check on the standard board may be none on
                // a displaced one).
                let setup = fen::parse_fields(&fen::fields(&line)).expect("a diagram");
                let diagram = setup.into_position();
                let keys = match &game {
                    AnyGame::Standard(game) => quiet_key_answered(game, &diagram),
                    AnyGame::Earthquake(game) => quiet_key_answered(game.as_ref(), &diagram),
                    AnyGame::Aftershocks(_) => unreachable!("no aftershocks asked"),
                };
                let fen = fen::write_placement(diagram.board());
                assert!(keys, "{ops} {fen}: no quiet key answers every defence");
                if built == 3 {
                    break;
                }
            }
            assert_eq!(built, 3, "{ops}");
        }
    }

    /// Whether `diagram` has a quiet key after which Black, not in check, has at most
    /// `BLACK_MOVES_AFTER_QUIET_KEY` moves, each mating or answered by a White move
    /// after which Black has moves and each mates.
    fn quiet_key_answered<T: Terrain>(game: &Game<T>, diagram: &Position) -> bool {
        // Mate by playing the move: the side to move after it has no move and is in
        // check.
        let mates = |pos: &Position, m: Move| {
            let after = game.play(pos, m).position;
            game.legal_moves(&after).is_empty() && game.in_check(&after)
        };
        let answered = |after_key: &Position| {
            game.legal_moves(after_key).iter().all(|&b| {
                mates(after_key, b) || {
                    let before_mate = game.play(after_key, b).position;
                    game.legal_moves(&before_mate).iter().any(|&w| {
                        let last = game.play(&before_mate, w).position;
                        let replies = game.legal_moves(&last);
                        !replies.is_empty() && replies.iter().all(|&r| mates(&last, r))
                    })
                }
            })
        };
        game.legal_moves(diagram).iter().any(|&k| {
            let after = game.play(diagram, k).position;
            quality::key_is_quiet_in(game, diagram, k)
                && !game.in_check(&after)
                && game.legal_moves(&after).len() <= BLACK_MOVES_AFTER_QUIET_KEY
                && answered(&after)
        })
    }

    /// The ways back an Earthquake board offers drop only moves that are not there:
    /// over random positions of several displaced boards (one where riders fly over the
    /// void), every man of the side that
    /// moved on every free square, having captured nothing or a man of each role the
    /// run draws (within its bound of men), each way whose move the game plays (checked
    /// forward by its legal moves) is among those `moved` lists.
    #[test]
    fn no_way_back_the_game_plays_is_dropped() {
        let (mut played, mut dropped, mut captures) = (0, 0, 0);
        let run = spec(Vec::new());
        let boards = ["1 0\";", "-2 1\";", "0 -1\";", "3 1\";", "1 0\"; void fly;"];
        for (i, quake) in boards.into_iter().enumerate() {
            let line = format!("4k3/8/8/8/8/8/8/4K3 w - - earthquake \"{quake}");
            let Ok(crate::epd::Line::Position(rec)) = crate::epd::parse_line(&line, 1) else {
                panic!("{line}");
            };
            let problem = crate::problem::from_record(*rec).expect(&line);
            let AnyGame::Earthquake(game) = problem.game else {
                panic!("{line}: no Earthquake board");
            };
            let squares = game.terrain.fixed().expect("a fixed board").squares();
            let mut d = Draw::new(7, i as u64);
            let mut positions = 0;
            while positions < 150 {
                let mut board = crate::board::Board::empty();
                let mut free = squares;
                let mut men = vec![
                    Piece::new(Color::White, Role::King),
                    Piece::new(Color::Black, Role::King),
                ];
                for _ in 0..d.between(1, 6) {
                    let color = [Color::White, Color::Black][d.between(0, 1) as usize];
                    let roles = [
                        Role::Queen,
                        Role::Rook,
                        Role::Bishop,
                        Role::Knight,
                        Role::Pawn,
                    ];
                    men.push(Piece::new(color, d.pick(&roles)));
                }
                for piece in men {
                    let sq = d.pick_square(free);
                    free = free.without(sq);
                    board.put(sq, piece);
                }
                let turn = [Color::White, Color::Black][d.between(0, 1) as usize];
                let Some(pos) = position_on(game.as_ref(), board, turn) else {
                    continue;
                };
                positions += 1;
                let listed = moved(game.as_ref(), &pos, &run, true);
                let open = squares - pos.board().occupied();
                let mut captured: Vec<Option<Role>> = vec![None];
                if pos.board().occupied().count() < run.men.1 {
                    captured.extend(run.pieces.iter().map(|&r| Some(r)));
                }
                for (to, piece) in pos.board().pieces().filter(|(_, p)| p.color != turn) {
                    for from in open {
                        for &role in &captured {
                            let mut before = *pos.board();
                            before.remove(to);
                            before.put(from, piece);
                            if let Some(role) = role {
                                before.put(to, Piece::new(turn, role));
                            }
                            let way = (before, from, to, None);
                            if taken_back(game.as_ref(), &pos, way, usize::MAX, |_, _| true)
                                .is_some()
                            {
                                played += 1;
                                captures += usize::from(role.is_some());
                                assert!(
                                    listed.iter().any(|w| (w.0, w.1, w.2) == (before, from, to)),
                                    "{quake}: {} {from}-{to} taking {role:?} dropped",
                                    fen::write_fen(&pos)
                                );
                            } else {
                                dropped += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(
            played > 1000 && captures > 300 && dropped > played,
            "{played} played ({captures} captures), {dropped} not"
        );
    }
}
