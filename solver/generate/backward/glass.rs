//! Looking-Glass self-mate candidates built backwards (rules.md 5 and 8.3). There is no
//! check, so at the end every Black move on either board must take White's king: all of
//! Black's other men stand without a move (a pawn blocked, a piece walled in by its
//! own), which random diagrams almost never show. The walk of the single-board games
//! finds such an end on the two boards, and the moves are then taken back by trying
//! each man of the side that moved on each free square of either board that its move
//! reaches from, having captured nothing or a man the run draws, kept where the game's
//! own move from there, with its pass through the glass, gives back the state.

use super::{roles_put_back, walks, Ends, Man};
use crate::bitboard::Bitboard;
use crate::generate::candidate::Draw;
use crate::generate::Spec;
use crate::generic::TurnGame;
use crate::geometry::Standard;
use crate::glass::{GMove, GState, Glass, Side};
use crate::position::Position;
use crate::types::{Color, Piece, Role, Square};

/// Ways back examined from one end, for each move to be taken back. The minimal ends a
/// walk comes to first are rarely reached by a forced move of Black's, so an end is
/// given up soon and the walk goes on to the next (early `s#2` runs over 3,000 changes,
/// before Looking-Glass repeats were compared by idea: 300 ways from each end made 228
/// puzzles a CPU-minute, 50 made 99, 1,000 made 84).
const WAYS_PER_MOVE_BACK: u32 = 100;

/// The diagram line of a Looking-Glass self-mate candidate (no castling, no en passant),
/// or `None` when none was built.
pub fn glass_self_mate_diagram(spec: &Spec, index: u64) -> Option<String> {
    let game = Glass {
        attacker: Color::White,
    };
    let mut d = Draw::new(spec.seed, index);
    let steps = 2 * spec.stip.moves - 1;
    let diagram = walks(&game, spec, &mut d, |end, d| {
        let mut budget = WAYS_PER_MOVE_BACK * steps;
        search_back(&game, spec, end, steps, d, &mut budget)
    })?;
    Some(crate::glass::setup::position_line(&diagram))
}

impl Ends for Glass {
    type State = GState;
    const BOARDS: usize = 2;
    /// Either king on either board, as the random candidates draw them.
    const KINGS: [(Color, usize); 2] = [(Color::White, 2), (Color::Black, 2)];

    fn state(&self, men: &[Man]) -> Option<GState> {
        let mut boards = [crate::board::Board::empty(); 2];
        for &(b, sq, p) in men {
            boards[b].put(sq, p);
        }
        state_of(boards, Color::Black)
    }

    /// Black's moves that take no White king.
    fn escapes(&self, s: &GState, most: usize) -> Option<usize> {
        let moves = self.moves(s);
        if moves.is_empty() {
            return None;
        }
        let king = s.king(Color::White);
        let mut count = 0;
        for m in moves {
            if !crate::glass::last_turn::takes(&m, king) {
                count += 1;
                if count > most {
                    break;
                }
            }
        }
        Some(count)
    }
}

/// The state of two placements with `turn` to move (no castling, no en passant), if each
/// side has one king over the two boards (rules.md 5; the walk and `ways_back` keep
/// pawns off the first and last ranks, a captured one too).
fn state_of(boards: [crate::board::Board; 2], turn: Color) -> Option<GState> {
    for color in Color::ALL {
        let kings = boards[0].by_piece(color, Role::King).count()
            + boards[1].by_piece(color, Role::King).count();
        if kings != 1 {
            return None;
        }
    }
    let make = |b| Position::from_parts(b, turn, Bitboard::EMPTY, None, 0, 1);
    Some(GState {
        boards: [make(boards[0]), make(boards[1])],
        turn,
        ep: None,
        ended: None,
    })
}

/// `steps` moves taken back from `s`, each drawn at random among the moves of the side
/// that moved that lead to the state after it, Black's the only move of Black's that
/// takes no king (the line is forced: Black's other moves win for Black at once). A
/// step that leads nowhere is gone back on and the next way tried there, until a line
/// is found or `budget` ways have been examined.
fn search_back(
    game: &Glass,
    spec: &Spec,
    s: &GState,
    steps: u32,
    d: &mut Draw,
    budget: &mut u32,
) -> Option<GState> {
    if steps == 0 {
        return Some(*s);
    }
    let mut ways = ways_back(s, spec, true);
    while !ways.is_empty() && *budget > 0 {
        *budget -= 1;
        let i = (d.next_u64() % ways.len() as u64) as usize;
        let Some((prev, _)) = taken_back(game, s, ways.swap_remove(i)) else {
            continue;
        };
        if prev.turn == Color::Black && game.escapes(&prev, 1) != Some(1) {
            continue;
        }
        if let Some(found) = search_back(game, spec, &prev, steps - 1, d, budget) {
            return Some(found);
        }
    }
    None
}

/// The state before `s` along `way`, with the move made there, if that move is legal
/// there and gives back `s` (`gives_back`).
pub(super) fn taken_back(game: &Glass, s: &GState, way: Way) -> Option<(GState, GMove)> {
    let (boards, side, from, to) = way;
    let prev = state_of(boards, !s.turn)?;
    let m = game.moves(&prev).into_iter().find(|m| {
        m.side == side && m.mv.from == from && m.mv.to == to && m.mv.promotion().is_none()
    })?;
    gives_back(game, &prev, m, s).then_some((prev, m))
}

/// Whether `m` played in `prev` leaves the state `s`: its placements on both boards and
/// its en passant right (none in a built state: a double step taken back would leave
/// Black an en passant capture the state does not show).
fn gives_back(game: &Glass, prev: &GState, m: GMove, s: &GState) -> bool {
    let after = game.play(prev, m);
    after.ended.is_none()
        && after.ep == s.ep
        && Side::BOTH
            .into_iter()
            .all(|side| after.board(side).board() == s.board(side).board())
}

/// A way back: the placements before a move, and the move's board, start and arrival.
type Way = ([crate::board::Board; 2], Side, Square, Square);

/// Each man of the side that moved, on each square of either board free before the move
/// from which its FIDE move on that board reaches the square it arrived at (rules.md
/// 5.2: a man found on one board may have moved on the other and passed), having
/// captured nothing there or, within the run's bound of men, a man of each role the run
/// draws (no promotion, no castling: fewer ways back, each exact once checked forward by
/// `gives_back`). Only a move that could arrive is worth checking forward: most free
/// squares are none, and each way examined spends the search's budget. `uncaptures`:
/// whether captures are taken back at all (a `#2` key captures nothing).
pub(super) fn ways_back(s: &GState, spec: &Spec, uncaptures: bool) -> Vec<Way> {
    let mover = !s.turn;
    let boards = [*s.board(Side::Real).board(), *s.board(Side::Mirror).board()];
    let men_now = boards[0].occupied().count() + boards[1].occupied().count();
    let captured: Vec<Piece> = roles_put_back(spec, men_now, uncaptures)
        .into_iter()
        .map(|r| Piece::new(s.turn, r))
        .collect();
    let mut out = Vec::new();
    for here in Side::BOTH {
        for (to, piece) in boards[here.index()]
            .pieces()
            .filter(|(_, p)| p.color == mover)
        {
            let mut without = boards;
            without[here.index()].remove(to);
            for side in Side::BOTH {
                let on = without[side.index()];
                // Where the man passed, the square it left behind on its own board is
                // free after the move; where it stayed, that is the square it stands on.
                if on.occupied().contains(to) {
                    continue;
                }
                let mut free = !on.occupied() - Bitboard::from_square(to);
                if piece.role == Role::Pawn {
                    free = free - Bitboard::rank(0) - Bitboard::rank(7);
                }
                for from in free {
                    let mut before = without;
                    before[side.index()].put(from, piece);
                    let occupied = before[side.index()].occupied();
                    if super::reaches(&Standard, piece, from, to, occupied) {
                        out.push((before, side, from, to));
                    }
                    if !captured.is_empty()
                        && super::takes(&Standard, piece, from, to, occupied.with(to))
                    {
                        // No pawn stands on its first or last rank to be taken there.
                        let back_rank = matches!(to.rank(), 0 | 7);
                        for &man in captured
                            .iter()
                            .filter(|m| !(back_rank && m.role == Role::Pawn))
                        {
                            let mut with_captured = before;
                            with_captured[side.index()].put(to, man);
                            out.push((with_captured, side, from, to));
                        }
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Board;

    fn spec(stip: &str) -> Spec {
        super::super::test_spec(stip, Board::Glass, Vec::new())
    }

    /// Black's moves in `s` that take no White king, by playing every move.
    fn escapes_played(game: &Glass, s: &GState) -> usize {
        game.moves(s)
            .into_iter()
            .filter(|&m| game.play(s, m).ended.is_none())
            .count()
    }

    /// Whether White, to move in `s`, can reach the end of a self-mate in `n` moves along
    /// a line in which each Black move before the end is Black's only move that takes no
    /// king (the line the construction takes back), every move played.
    fn reaches_an_end(game: &Glass, s: &GState, n: u32) -> bool {
        game.moves(s).into_iter().any(|w| {
            let after = game.play(s, w);
            if after.ended.is_some() || game.moves(&after).is_empty() {
                return false;
            }
            if n == 1 {
                return escapes_played(game, &after) == 0;
            }
            let free: Vec<GMove> = game
                .moves(&after)
                .into_iter()
                .filter(|&b| game.play(&after, b).ended.is_none())
                .collect();
            free.len() == 1 && reaches_an_end(game, &game.play(&after, free[0]), n - 1)
        })
    }

    /// The diagram built for a Looking-Glass self-mate reads as a position line of the
    /// game (rules.md 5, formats.md 1), White to move, and holds the line it was built
    /// from: White's moves, Black's each the only one that takes no king, to a state
    /// where every Black move takes White's king (rules.md 5.3, 8.3), every move played.
    #[test]
    fn a_self_mate_is_built_back_from_an_end_on_the_two_boards() {
        let game = Glass {
            attacker: Color::White,
        };
        for (stip, n) in [("s#2", 2), ("s#3", 3)] {
            let spec = spec(stip);
            let mut built = 0;
            for index in 0..200 {
                let Some(line) = glass_self_mate_diagram(&spec, index) else {
                    continue;
                };
                let state = crate::glass::read_line(&line)
                    .unwrap_or_else(|e| panic!("{line}: {e}"))
                    .state;
                assert_eq!(state.turn, Color::White, "{line}");
                assert!(reaches_an_end(&game, &state, n), "{stip} {line}");
                built += 1;
                if built == 12 {
                    break;
                }
            }
            assert_eq!(built, 12, "{stip}");
        }
    }

    /// `escapes` counts Black's moves that take no king, as playing them does, on
    /// random placements of both boards (the walk's measure).
    #[test]
    fn escapes_are_the_moves_that_take_no_king() {
        let game = Glass {
            attacker: Color::White,
        };
        let spec = spec("s#2");
        let mut judged = 0;
        for index in 0..3_000 {
            let mut d = Draw::new(7, index);
            let men = crate::generate::candidate::draw_men(&spec, &mut d, 2, &Glass::KINGS);
            let Some(s) = game.state(&men) else { continue };
            let played = escapes_played(&game, &s);
            let counted = game.escapes(&s, usize::MAX);
            if game.moves(&s).is_empty() {
                assert_eq!(counted, None);
            } else {
                assert_eq!(counted, Some(played));
                assert_eq!(game.escapes(&s, 1), Some(played.min(2)));
                judged += 1;
            }
        }
        assert!(judged > 2_500, "{judged}");
    }
    /// The ways back drop only moves that are not there: over random placements of both
    /// boards, every man of the side that moved set on every free square of either
    /// board, having captured nothing or a man of each role the run draws (within its
    /// bound of men), each way whose move the game plays and gives back the state
    /// (rules.md 5.2, checked forward) is among those `ways_back` lists.
    #[test]
    fn no_way_back_the_game_plays_is_dropped() {
        let game = Glass {
            attacker: Color::White,
        };
        let spec = spec("s#2");
        let (mut states, mut played, mut captures, mut passed) = (0, 0, 0, 0);
        let mut stayed = 0;
        for index in 0..400 {
            let mut d = Draw::new(11, index);
            let men = crate::generate::candidate::draw_men(&spec, &mut d, 2, &Glass::KINGS);
            let turn = [Color::White, Color::Black][d.between(0, 1) as usize];
            let mut boards = [crate::board::Board::empty(); 2];
            for &(b, sq, p) in &men {
                boards[b].put(sq, p);
            }
            let Some(s) = state_of(boards, turn) else {
                continue;
            };
            states += 1;
            if states > 40 {
                break;
            }
            let listed = ways_back(&s, &spec, true);
            let mover = !turn;
            let mut captured: Vec<Option<Role>> = vec![None];
            if men.len() < spec.men.1 as usize {
                captured.extend(spec.pieces.iter().map(|&r| Some(r)));
            }
            for here in Side::BOTH {
                for (to, piece) in boards[here.index()]
                    .pieces()
                    .filter(|(_, p)| p.color == mover)
                {
                    for side in Side::BOTH {
                        for from in Bitboard::FULL {
                            for &role in &captured {
                                let mut before = boards;
                                before[here.index()].remove(to);
                                // No pawn stands on its first or last rank (the
                                // reader refuses one): none moves from there or is
                                // taken there.
                                let on_back_rank = |sq: Square| matches!(sq.rank(), 0 | 7);
                                if from == to
                                    || (piece.role == Role::Pawn && on_back_rank(from))
                                    || (role == Some(Role::Pawn) && on_back_rank(to))
                                    || before[side.index()].occupied().contains(from)
                                    || (role.is_some()
                                        && before[side.index()].occupied().contains(to))
                                {
                                    continue;
                                }
                                before[side.index()].put(from, piece);
                                if let Some(role) = role {
                                    before[side.index()].put(to, Piece::new(turn, role));
                                }
                                let Some(prev) = state_of(before, mover) else {
                                    continue;
                                };
                                let gives = game.moves(&prev).into_iter().any(|m| {
                                    m.side == side
                                        && m.mv.from == from
                                        && m.mv.to == to
                                        && m.mv.promotion().is_none()
                                        && gives_back(&game, &prev, m, &s)
                                });
                                if !gives {
                                    continue;
                                }
                                played += 1;
                                captures += usize::from(role.is_some());
                                passed += usize::from(side != here);
                                stayed += usize::from(side == here);
                                assert!(
                                    listed.contains(&(before, side, from, to)),
                                    "{} {side:?} {from}-{to} taking {role:?} dropped",
                                    crate::glass::setup::position_line(&s)
                                );
                            }
                        }
                    }
                }
            }
        }
        assert!(
            played > 2_000 && captures > 1_000 && passed > 1_000 && stayed > 100,
            "{played} played ({captures} captures, {passed} passed, {stayed} stayed)"
        );
    }
}
