//! Candidate diagrams: the diagram of candidate `index` of a run, drawn from the seed and
//! the index alone (formats.md 3), so that any machine, shard or rerun draws the same one.

use super::{Board, Spec};
use crate::bitboard::Bitboard;
use crate::geometry::Geometry;
use crate::types::{Color, Piece, Role, Square};

/// A small, well-mixed generator (splitmix64) seeded by the run's seed and the index.
pub struct Draw(u64);

impl Draw {
    pub fn new(seed: u64, index: u64) -> Draw {
        let mut d = Draw(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        d.next_u64();
        d
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    pub fn between(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as u32
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[(self.next_u64() % items.len() as u64) as usize]
    }

    /// `pick` over the squares of `set` in ascending order, without listing them.
    pub fn pick_square(&mut self, set: crate::bitboard::Bitboard) -> crate::types::Square {
        let i = self.next_u64() % set.count() as u64;
        set.into_iter().nth(i as usize).expect("i < the count")
    }
}

/// One board's men as FEN placement.
fn placement(men: &[(Square, Piece)]) -> String {
    let mut board = crate::board::Board::empty();
    for &(sq, p) in men {
        board.put(sq, p);
    }
    crate::fen::write_placement(&board)
}

/// The men of a candidate: the kings, and as many others as make the total, split
/// between the sides (White with at least one), each of a role the run allows; pawns
/// never on the first or last rank. Each man goes to a board drawn at random (a king to
/// its own board where `kings` names one below `boards`) and a square still free there.
pub(super) fn draw_men(
    spec: &Spec,
    d: &mut Draw,
    boards: usize,
    kings: &[(Color, usize)],
) -> Vec<(usize, Square, Piece)> {
    let total = d.between(spec.men.0, spec.men.1).max(kings.len() as u32);
    let others = total - kings.len() as u32;
    let white = if others == 0 { 0 } else { d.between(1, others) };
    let mut men: Vec<(Color, Role, Option<usize>)> = kings
        .iter()
        .map(|&(color, board)| (color, Role::King, Some(board)))
        .collect();
    for i in 0..others {
        let color = if i < white {
            Color::White
        } else {
            Color::Black
        };
        men.push((color, d.pick(&spec.pieces), None));
    }
    let mut taken = [Bitboard::EMPTY; 2];
    let mut out = Vec::new();
    for (color, role, fixed) in men {
        // Drawn for every man, so that a run's candidates stay what they are whatever
        // the game's kings ask for.
        let drawn = d.between(0, boards as u32 - 1) as usize;
        let board = match fixed {
            Some(b) if b < boards => b,
            _ => drawn,
        };
        let mut free: Vec<Square> = (spec.squares & !taken[board]).into_iter().collect();
        if role == Role::Pawn {
            free.retain(|sq| sq.rank() != 0 && sq.rank() != 7);
        }
        if free.is_empty() {
            continue;
        }
        let sq = d.pick(&free);
        taken[board] = taken[board].with(sq);
        out.push((board, sq, Piece::new(color, role)));
    }
    out
}

/// The men drawn for board `b`.
fn on_board(men: &[(usize, Square, Piece)], b: usize) -> Vec<(Square, Piece)> {
    men.iter()
        .filter(|m| m.0 == b)
        .map(|&(_, sq, p)| (sq, p))
        .collect()
}

/// The Underworld holding its Kings alone, as FEN placement: two squares out of each
/// other's reach, drawn apart from the World's men (the Underworld wakes only when a
/// man is captured).
pub(super) fn underworld_kings(spec: &Spec, index: u64) -> String {
    let mut d = Draw::new(spec.seed ^ UNDER_KINGS_SALT, index);
    let black = d.pick_square(Bitboard::FULL);
    let far = !(crate::geometry::Standard.king_attacks(black).with(black));
    let white = d.pick_square(far);
    placement(&[
        (black, Piece::new(Color::Black, Role::King)),
        (white, Piece::new(Color::White, Role::King)),
    ])
}

/// The run for the World alone, beside an Underworld holding its Kings alone: two men
/// fewer, since `--men` counts the Underworld Kings too (never fewer than the World's
/// kings).
pub(super) fn world_alone(spec: &Spec) -> Spec {
    let (lo, hi) = spec.men;
    Spec {
        men: (lo.saturating_sub(2).max(2), hi.saturating_sub(2).max(2)),
        ..spec.clone()
    }
}

/// Keeps the Underworld Kings' draw apart from the World's.
const UNDER_KINGS_SALT: u64 = 0x0D0C_0B0A_0908_0706;

/// A construction of a candidate's diagram line (`backward`).
type Builder = fn(&Spec, u64) -> Option<String>;

/// The diagram line of candidate `index` (no stipulation, id or solution yet), or `None`
/// when none was drawn. It may still be illegal: reading it is the first check. A
/// self-mate is built backwards from its end, and a `#2` asked for a quiet key,
/// variations or no duals from the position after its key (`backward`).
pub fn diagram(spec: &Spec, index: u64) -> Option<String> {
    if spec.board == Board::Underworld && spec.stip.aim == crate::problem::Aim::Selfmate {
        return super::backward::underworld_self_mate_diagram(spec, index);
    }
    if spec.board == Board::Glass && spec.stip.aim == crate::problem::Aim::Selfmate {
        return super::backward::glass_self_mate_diagram(spec, index);
    }
    if spec.board == Board::Glass && super::backward::mate_in_two_built(spec) {
        return super::backward::glass_mate_in_two_diagram(spec, index);
    }
    let built = match spec.stip.aim {
        crate::problem::Aim::Selfmate => Some(super::backward::self_mate_diagram as Builder),
        _ if super::backward::mate_in_two_built(spec) => {
            Some(super::backward::mate_in_two_diagram as Builder)
        }
        _ => None,
    };
    if let (Board::Single, Some(build)) = (spec.board, built) {
        // Built with FIDE moves on the run's board; under Trapdoor or Taxi the diagram
        // is then proved by the game's own rules like every candidate.
        let diagram = build(spec, index)?;
        return Some(if spec.ops.trim().is_empty() {
            diagram
        } else {
            format!("{diagram} {}", spec.ops.trim())
        });
    }
    Some(random_diagram(spec, index))
}

/// A candidate drawn at random: the kings and the other men on free squares.
fn random_diagram(spec: &Spec, index: u64) -> String {
    let mut d = Draw::new(spec.seed, index);
    let turn = spec.first_mover().letter();
    match spec.board {
        Board::Single => {
            let mut line = format!("{} {turn} - -", one_board(spec, &mut d));
            if !spec.ops.is_empty() {
                line.push(' ');
                line.push_str(&spec.ops);
            }
            line
        }
        Board::Underworld => {
            let (world, under) = if spec.stip.aim == crate::problem::Aim::Help {
                // A help-mate is unique only while the Underworld sleeps: every move a
                // side may make there is a solution of its own (RULES.md), so the other
                // men stand on the World, and the Underworld holds its Kings alone.
                (
                    one_board(&world_alone(spec), &mut d),
                    underworld_kings(spec, index),
                )
            } else {
                // The kings on the World, the Underworld Kings below (rules.md 4).
                let kings = [
                    (Color::White, 0),
                    (Color::Black, 0),
                    (Color::White, 1),
                    (Color::Black, 1),
                ];
                let men = draw_men(spec, &mut d, 2, &kings);
                (placement(&on_board(&men, 0)), placement(&on_board(&men, 1)))
            };
            let phase = if turn == 'w' { "WW" } else { "BW" };
            format!("{world} {turn} - - underworld \"{under}\"; phase {phase};")
        }
        Board::Glass => {
            // The kings on either board, drawn like every other man.
            let kings = [(Color::White, 2), (Color::Black, 2)];
            let men = draw_men(spec, &mut d, 2, &kings);
            let on = |b: usize| on_board(&men, b);
            format!(
                "{} {turn} - - mirror \"{}\";",
                placement(&on(0)),
                placement(&on(1))
            )
        }
    }
}

/// One board's men, its two kings among them, as FEN placement.
fn one_board(spec: &Spec, d: &mut Draw) -> String {
    let kings = [(Color::White, 0), (Color::Black, 0)];
    let men: Vec<(Square, Piece)> = draw_men(spec, d, 1, &kings)
        .into_iter()
        .map(|(_, sq, p)| (sq, p))
        .collect();
    placement(&men)
}

#[cfg(test)]
mod tests {
    use super::{diagram, Board, Draw};
    use crate::bitboard::Bitboard;
    use crate::types::Square;

    /// `pick_square` draws what `pick` draws from the set's squares listed in ascending
    /// order (a run's diagrams do not depend on which one the walk uses).
    #[test]
    fn a_square_is_picked_as_from_the_list_of_the_set() {
        let mut sets = Draw::new(7, 0);
        for index in 0..2_000 {
            let set = Bitboard(sets.next_u64() & sets.next_u64());
            if set.is_empty() {
                continue;
            }
            let listed: Vec<Square> = set.into_iter().collect();
            assert!(listed.windows(2).all(|w| w[0] < w[1]));
            let (mut a, mut b) = (Draw::new(11, index), Draw::new(11, index));
            for _ in 0..5 {
                assert_eq!(a.pick_square(set), b.pick(&listed));
            }
        }
    }

    /// An Underworld help-mate's candidate has its men on the World and the Underworld
    /// Kings alone below, out of each other's reach (every Underworld move of a line is
    /// a solution of its own), and so does a self-mate's (built on the World); a `#2`'s
    /// men stand on either board. Each holds the run's men, the Underworld Kings
    /// counted.
    #[test]
    fn an_underworld_help_mate_is_drawn_with_its_men_on_the_world() {
        for (stip, bare, least) in [("h#2", true, 150), ("s#2", true, 3), ("#2", false, 150)] {
            let spec = crate::generate::backward::test_spec(stip, Board::Underworld, Vec::new());
            let (mut below, mut read) = (0, 0);
            for index in 0..300 {
                // A self-mate's construction may find no line.
                let Some(line) = diagram(&spec, index) else {
                    continue;
                };
                // A candidate may break the rules (a king in check on the wrong turn):
                // reading it is the generator's first check.
                let Ok(problem) = crate::underworld::setup::read_line(&line) else {
                    continue;
                };
                let state = problem.state;
                read += 1;
                let men = state.world.board().occupied().count() + state.under.occupied().count();
                assert!((4..=7).contains(&men), "{line}");
                let others = state.under.occupied().count() - 2;
                if bare {
                    assert_eq!(others, 0, "{line}");
                    let kings = state.under.by_role(crate::types::Role::King);
                    let (a, b) = (kings.first().unwrap(), kings.into_iter().nth(1).unwrap());
                    assert!(
                        a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank())) >= 2,
                        "{line}"
                    );
                }
                below += others;
            }
            assert!(read >= least, "{stip}: {read} candidates read");
            assert_eq!(below > 100, !bare, "{stip}: {below} men below");
        }
    }
}
