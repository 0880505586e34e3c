//! The last turns of a Looking-Glass stipulation, decided without playing every move
//! (rules.md 5.3 and 8). There is no check: only the king's capture ends the game, so
//! - the defender's last turn is refuted by any move of its that takes no king
//!   (`quiet_move`): nobody wins, and the rounds run out (or the game is drawn);
//! - the attacker's last move of a self-mate needs a reply of the defender's that
//!   takes no king to fail, and most moves leave one standing (`Replies`,
//!   `self_mate_candidates`).

use super::{GMove, GState, Glass, Side};
use crate::bitboard::Bitboard;
use crate::generic::TurnGame;
use crate::geometry::{Geometry, Standard};
use crate::moves::MoveKind;
use crate::types::Square;

/// Whether `m` takes the king standing at `king` (castling takes nothing).
pub(crate) fn takes(m: &GMove, king: Option<(Square, Side)>) -> bool {
    m.mv.kind != MoveKind::Castle && king == Some((m.mv.to, m.side))
}

/// A move of the side to move in `s` that takes no king: after it nobody has won and
/// the other side moves. `None` when the game is over or every move takes the king.
pub fn quiet_move(game: &Glass, s: &GState) -> Option<GMove> {
    if s.ended.is_some() {
        return None;
    }
    let king = s.king(!s.turn);
    game.moves(s).into_iter().find(|m| !takes(m, king))
}

/// The attacker's moves from `s` in the last round of a self-mate that may leave the
/// defender nothing but the king's capture: those that leave no reply standing
/// (`Replies`); `None` when the game is over in `s`.
pub fn self_mate_candidates(game: &Glass, s: &GState) -> Option<Vec<GMove>> {
    let replies = Replies::of(game, s)?;
    Some(
        game.moves(s)
            .into_iter()
            .filter(|w| replies.standing_after(s, w).is_none())
            .collect(),
    )
}

/// The defender's replies that take no king, listed in a state of the attacker's with
/// the turn passed, each with its deciding squares (`deciding_squares`: its start, its
/// arrival and the squares between, on its board).
///
/// A reply R whose deciding squares an attacker's move W does not touch (`touched`: the
/// squares W leaves, enters or takes on, on both boards, since a man may pass) stays a
/// move after W, the same move: its man still stands on its start (W took nothing
/// there), its path is as empty as before, its arrival holds what it held, the castling
/// rights it needs are kept (W neither moved nor took the rook or king), and the
/// attacker's king is not on its arrival (W did not bring it). So the defender may play
/// R, which takes no king, and W fails (rules.md 8.3). W may give the defender new moves
/// (a line opened, an en passant capture); those only add replies.
pub struct Replies {
    /// The fewest deciding squares first: most moves miss them.
    replies: Vec<(Side, Bitboard, GMove)>,
}

impl Replies {
    /// The replies of the defender in `s` (the attacker to move); `None` when the game
    /// is over.
    pub fn of(game: &Glass, s: &GState) -> Option<Replies> {
        if s.ended.is_some() {
            return None;
        }
        let passed = game.other_side_to_move(s)?;
        let our_king = s.king(s.turn);
        let mut replies: Vec<(Side, Bitboard, GMove)> = game
            .moves(&passed)
            .into_iter()
            .filter(|r| !takes(r, our_king))
            .map(|r| (r.side, deciding_squares(&r), r))
            .collect();
        replies
            .sort_unstable_by_key(|(side, squares, _)| (squares.count(), side.index(), squares.0));
        // One reply for each board and set of squares (the promotions of one pawn).
        replies.dedup_by_key(|(side, squares, _)| (*side, *squares));
        Some(Replies { replies })
    }

    /// A reply the attacker's move `w` from `s` leaves standing, if any.
    pub fn standing_after(&self, s: &GState, w: &GMove) -> Option<GMove> {
        self.standing(s, w).next()
    }

    /// Every reply `w` from `s` leaves standing (one for each board and set of deciding
    /// squares).
    pub fn standing<'a>(&'a self, s: &GState, w: &GMove) -> impl Iterator<Item = GMove> + 'a {
        let t = touched(s, w);
        self.replies
            .iter()
            .filter(move |(side, squares, _)| (t[side.index()] & *squares).is_empty())
            .map(|&(_, _, r)| r)
    }
}

/// The squares of its board on which whether `r` is a move, and what it does, depends:
/// its start, its arrival and the squares between (a castling's king and rook, where
/// they go and every square of the rank between).
fn deciding_squares(r: &GMove) -> Bitboard {
    let (from, to) = (r.mv.from, r.mv.to);
    if r.mv.kind == MoveKind::Castle {
        let files = [from, to, r.mv.castle_king_to(), r.mv.castle_rook_to()].map(|sq| sq.file());
        let (lo, hi) = (
            *files.iter().min().expect("four files"),
            *files.iter().max().expect("four files"),
        );
        return (lo..=hi).fold(Bitboard::EMPTY, |b, f| {
            b.with(Square::from_coords(f, from.rank()))
        });
    }
    Standard.between(from, to).with(from).with(to)
}

/// The squares `w` changes, per board: on its own board its start, its arrival (and a
/// castling's squares), on the other board its arrival, where its man may pass; and
/// the square of a pawn taken en passant, on both boards.
fn touched(s: &GState, w: &GMove) -> [Bitboard; 2] {
    let mv = w.mv;
    let mut arrivals = Bitboard::from_square(mv.to);
    if mv.kind == MoveKind::Castle {
        arrivals = arrivals.with(mv.castle_king_to()).with(mv.castle_rook_to());
    }
    if mv.kind == MoveKind::EnPassant {
        arrivals = arrivals.with(super::double_stepper(s.turn, mv.to));
    }
    let mut t = [arrivals; 2];
    t[w.side.index()] = t[w.side.index()].with(mv.from);
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Color;

    const GAME: Glass = Glass {
        attacker: Color::White,
    };

    fn state(line: &str) -> GState {
        super::super::read_line(line)
            .expect("a Looking-Glass line")
            .state
    }

    /// Black's pawns and king boxed in on the Real board's corner: only White's king's
    /// step to b1 of the Mirror, passing to b1 of the Real board (5.2), touches both of
    /// Black's replies (Kb1, and b2-b1 promoting); then every Black move takes the king.
    #[test]
    fn only_the_kings_step_into_the_box_is_a_candidate() {
        let game = GAME;
        let s = state("8/8/8/8/8/8/pp6/k7 w - - mirror \"8/8/8/8/8/8/8/2K5\";");
        assert_eq!(
            coords(&game, &s, self_mate_candidates(&game, &s)),
            ["M:c1b1"]
        );
        let end = game.play(&s, move_of(&game, &s, "M:c1b1"));
        assert_eq!(quiet_move(&game, &end), None);
        assert_eq!(
            coords(&game, &end, Some(game.moves(&end))),
            ["R:a1b1", "R:a2b1b", "R:a2b1n", "R:a2b1q", "R:a2b1r"]
        );
    }

    /// With a Black rook free on the Real board no White move touches all its moves:
    /// none is a candidate, and the rook's move refutes at the defender's last turn.
    #[test]
    fn a_free_rook_leaves_no_candidate() {
        let game = GAME;
        let s = state("7r/8/8/8/8/8/pp6/k7 w - - mirror \"8/8/8/8/8/8/8/2K5\";");
        assert_eq!(
            coords(&game, &s, self_mate_candidates(&game, &s)),
            Vec::<String>::new()
        );
        let end = game.play(&s, move_of(&game, &s, "M:c1b1"));
        let quiet = quiet_move(&game, &end).expect("a rook's move");
        assert_eq!(game.coord(&end, quiet).get(..4), Some("R:h8"));
    }

    fn coords(game: &Glass, s: &GState, moves: Option<Vec<GMove>>) -> Vec<String> {
        let mut out: Vec<String> = moves
            .expect("the game goes on")
            .iter()
            .map(|&m| game.coord(s, m))
            .collect();
        out.sort();
        out
    }

    fn move_of(game: &Glass, s: &GState, coord: &str) -> GMove {
        game.moves(s)
            .into_iter()
            .find(|&m| game.coord(s, m) == coord)
            .expect("a move")
    }
}
