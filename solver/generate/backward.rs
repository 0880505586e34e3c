//! Self-mate candidates built backwards from their end: random diagrams are almost never
//! `s#N` (Black must be left nothing but mating moves), so an orthodox self-mate
//! candidate is drawn as its last position first, a Black-to-move position in which every
//! Black move mates White, and then taken back move by move (White's and Black's FIDE
//! moves, rules.md 6.1) to the diagram N White moves earlier.
//!
//! The construction only draws: each candidate is then proved like any other (a sound
//! diagram, one key, nothing shorter), so nothing here decides what a puzzle is. Like the
//! random drawing it depends on the seed and the candidate's index alone.

use super::candidate::{draw_men, Draw};
use super::Spec;
use crate::fen;
use crate::game::Game;
use crate::position::Position;
use crate::retro::retraction::{retractions, unplay, Retraction, RetroPosition};
use crate::types::{Color, Piece, Role, Square};

/// Walks towards an end of a self-mate tried for one candidate before it gives up (then
/// the candidate is no puzzle), and the changes each walk makes at most.
const ENDS_TRIED: u32 = 8;
const WALK_STEPS: u32 = 300;
/// Ways back tried from one last position.
const WAYS_BACK: u32 = 8;

/// The diagram line of self-mate candidate `index`, or `None` when none was built.
pub fn self_mate_diagram(spec: &Spec, index: u64) -> Option<String> {
    let mut d = Draw::new(spec.seed, index);
    let game = Game::fide();
    for _ in 0..ENDS_TRIED {
        let Some(end) = end_position(&game, spec, &mut d) else {
            continue;
        };
        for _ in 0..WAYS_BACK {
            if let Some(diagram) = back(&game, &end, spec, &mut d) {
                return Some(format!("{} w - -", fen::write_placement(diagram.board())));
            }
        }
    }
    None
}

/// Black's legal moves in `pos` that do not mate White (`None`: Black has no move, or
/// `pos` is no position): zero is the end of a self-mate.
fn escapes(game: &Game<crate::geometry::Standard>, pos: &Position) -> Option<usize> {
    let moves = game.legal_moves(pos);
    if moves.is_empty() {
        return None;
    }
    Some(moves.iter().filter(|&&m| !game.mates(pos, m)).count())
}

/// An end of a self-mate: a legal position, Black to move, where every Black move mates
/// White. Found by a walk from a random placement: a man moved, added or removed at a
/// time, a change kept when it leaves Black no more escapes than before.
fn end_position(
    game: &Game<crate::geometry::Standard>,
    spec: &Spec,
    d: &mut Draw,
) -> Option<Position> {
    let mut men: Vec<(Square, Piece)> =
        draw_men(spec, d, 1, &[(Color::White, 0), (Color::Black, 0)])
            .into_iter()
            .map(|(_, sq, p)| (sq, p))
            .collect();
    // The escapes of the placement kept, with its position (none yet: any counts).
    let mut best: Option<(usize, Position)> =
        position(&men, Color::Black).and_then(|p| Some((escapes(game, &p)?, p)));
    for _ in 0..WALK_STEPS {
        if let Some((0, end)) = best {
            return Some(end);
        }
        let mut next = men.clone();
        let free: Vec<Square> = (spec.squares & !occupied(&next)).into_iter().collect();
        match d.between(0, 2) {
            // A man moves (a king too) to a free square.
            0 => {
                let i = d.between(0, next.len() as u32 - 1) as usize;
                next[i].0 = d.pick(&free);
            }
            // A man is added, of a role the run draws.
            1 if (next.len() as u32) < spec.men.1 => {
                let color = if d.between(0, 1) == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                next.push((d.pick(&free), Piece::new(color, d.pick(&spec.pieces))));
            }
            // A man other than a king is removed.
            _ if (next.len() as u32) > spec.men.0.max(3) => {
                let others: Vec<usize> = (0..next.len())
                    .filter(|&i| next[i].1.role != Role::King)
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
            .any(|(sq, p)| p.role == Role::Pawn && (sq.rank() == 0 || sq.rank() == 7))
        {
            continue;
        }
        let Some(p) = position(&next, Color::Black) else {
            continue;
        };
        let Some(count) = escapes(game, &p) else {
            continue;
        };
        if best.is_none_or(|(kept, _)| count <= kept) {
            best = Some((count, p));
            men = next;
        }
    }
    None
}

fn occupied(men: &[(Square, Piece)]) -> crate::bitboard::Bitboard {
    men.iter()
        .fold(crate::bitboard::Bitboard::EMPTY, |b, &(sq, _)| b.with(sq))
}

/// The position of `men` with `turn` to move (no castling, no en passant), if it
/// passes the checks every position does (rules.md 7.2: the kings, pawns off the first
/// and last ranks, the side not to move not in check). The diagram at the end of the
/// construction is read and checked again like every candidate.
fn position(men: &[(Square, Piece)], turn: Color) -> Option<Position> {
    let mut board = crate::board::Board::empty();
    for &(sq, p) in men {
        board.put(sq, p);
    }
    position_on(board, turn)
}

fn position_on(board: crate::board::Board, turn: Color) -> Option<Position> {
    let setup = fen::Setup {
        board,
        turn,
        castling: crate::bitboard::Bitboard::EMPTY,
        ep: None,
        halfmoves: None,
        fullmoves: None,
    };
    crate::setup::validate(&crate::geometry::Standard, &setup).ok()?;
    Some(setup.into_position())
}

/// From `end` (Black to move), `spec.stip.moves` White moves and the Black moves between
/// them taken back, each a legal FIDE move of the position before it; the men stay
/// within the run's bounds. `None` when a step finds no way back.
fn back(
    game: &Game<crate::geometry::Standard>,
    end: &Position,
    spec: &Spec,
    d: &mut Draw,
) -> Option<Position> {
    let mut pos = *end;
    // White's last move, then Black's and White's in turn: 2N - 1 moves.
    for _ in 0..(2 * spec.stip.moves - 1) {
        pos = step_back(game, &pos, spec, d)?;
    }
    Some(pos)
}

/// One move taken back from `pos`: a retraction drawn at random among those whose
/// forward move is legal in the position before it and leads to `pos`.
fn step_back(
    game: &Game<crate::geometry::Standard>,
    pos: &Position,
    spec: &Spec,
    d: &mut Draw,
) -> Option<Position> {
    let here = RetroPosition::of(pos);
    let mut list: Vec<Retraction> = Vec::new();
    retractions(&here, crate::bitboard::Bitboard::EMPTY, &mut list);
    let men = pos.board().occupied().count();
    // An uncapture adds a man: only within the run's bound, and pawns only where the
    // run draws them.
    list.retain(|r| {
        !r.en_passant
            && r.castle.is_none()
            && r.captured
                .is_none_or(|role| men < spec.men.1 && spec.pieces.contains(&role))
    });
    while !list.is_empty() {
        let i = (d.next_u64() % list.len() as u64) as usize;
        let r = list.swap_remove(i);
        let before = unplay(&here, &r);
        let Some(prev) = position_on(before.board, before.turn) else {
            continue;
        };
        // Black's moves on the way are its only ones: the line is forced.
        let legal = game.legal_moves(&prev);
        if prev.turn() == Color::Black && legal.len() != 1 {
            continue;
        }
        // The forward move, legal in `prev`, gives back `pos`'s placement.
        let forward = legal
            .iter()
            .copied()
            .find(|m| m.from == r.from && m.to == r.to && m.promotion() == r.promoted);
        let Some(m) = forward else { continue };
        if game.play(&prev, m).position.board() == pos.board() {
            return Some(prev);
        }
    }
    None
}
