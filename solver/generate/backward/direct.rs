//! Direct-mate `#2` candidates built back from the position after the key. A composer's
//! `#2` is a position after the key in which every Black move, the defences, is met by
//! a mate, different mates for different defences, and a quiet move that leads there.
//! Random diagrams show that rarely (three variations without duals: a few a
//! CPU-minute), so where a run asks for a quiet key, variations or no duals the
//! candidate is drawn as that position first, by the walk of the self-mates
//! (`walk_to_end`) with Black's defences that White cannot mate at once (and, where
//! asked, those White mates in two ways, and the variations still missing) as what it
//! brings down, and then White's key is taken back (FIDE moves on the run's board, as
//! the self-mates are built). On Looking-Glass, which has no check, a mate is White's
//! capture of the king (rules.md 5.3).
//!
//! The construction only draws: each candidate is then proved like any other (a sound
//! diagram, one key, nothing shorter), so nothing here decides what a puzzle is.

use super::{moved, position, retracted, taken_back, walks, Ends, KeyWanted, Man};
use crate::fen;
use crate::game::{AnyGame, Game};
use crate::generate::candidate::Draw;
use crate::generate::{Spec, Theme};
use crate::generic::TurnGame;
use crate::geometry::Terrain;
use crate::glass::{GState, Glass};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::search::last_move::mating_moves;
use crate::types::Color;

/// Ways back examined for the key at one end before the walk goes on to the next.
const KEY_WAYS: u32 = 300;

/// Whether a `#2` run is drawn by this construction: it asks for a quiet key (`quiet-key`
/// or `quiet`), variations (two or more) or no duals, which random diagrams seldom give
/// together, on one board that does not shift (aftershocks are drawn at random) or on
/// Looking-Glass.
pub fn mate_in_two_built(spec: &Spec) -> bool {
    let asked = spec.themes.iter().any(|t| match t {
        Theme::Variations(n) => *n >= 2,
        _ => matches!(t, Theme::NoDuals | Theme::QuietKey | Theme::Quiet),
    });
    if spec.stip.aim != crate::problem::Aim::Direct || spec.stip.moves != 2 || !asked {
        return false;
    }
    // The board last: finding whether it shifts reads a line of the run's options.
    match spec.board {
        crate::generate::Board::Single => !matches!(
            spec.board_with_fide_moves(),
            None | Some(AnyGame::Aftershocks(_))
        ),
        crate::generate::Board::Glass => true,
        _ => false,
    }
}

/// The diagram line of `#2` candidate `index`, or `None` when none was built (or the
/// run's board shifts).
pub fn mate_in_two_diagram(spec: &Spec, index: u64) -> Option<String> {
    match spec.board_with_fide_moves()? {
        AnyGame::Standard(game) => build(&game, spec, index, |_, pos, spec| {
            retracted(pos, spec, false)
        }),
        AnyGame::Earthquake(game) => build(game.as_ref(), spec, index, |game, pos, spec| {
            moved(game, pos, spec, false)
        }),
        AnyGame::Aftershocks(_) => None,
    }
}

/// What the position after the key must show, from the run's themes.
#[derive(Copy, Clone)]
struct Aims {
    /// Different mates over the defences.
    variations: usize,
    /// Each defence met by one mate only.
    no_duals: bool,
}

impl Aims {
    fn of(spec: &Spec) -> Aims {
        Aims {
            variations: spec
                .themes
                .iter()
                .filter_map(|t| match t {
                    Theme::Variations(n) => Some(*n as usize),
                    _ => None,
                })
                .max()
                .unwrap_or(1),
            no_duals: spec.themes.contains(&Theme::NoDuals),
        }
    }
}

/// The walk's view of a single-board game for a `#2`: the position after the key,
/// Black to move and not in check (a quiet key gives none), and what is still wrong
/// with it.
struct AfterKey<'a, T: Terrain> {
    game: &'a Game<T>,
    aims: Aims,
}

impl<T: Terrain> Ends for AfterKey<'_, T> {
    type State = Position;
    const BOARDS: usize = 1;
    const KINGS: [(Color, usize); 2] = [(Color::White, 0), (Color::Black, 0)];

    fn state(&self, men: &[Man]) -> Option<Position> {
        let pos = position(self.game, men, Color::Black)?;
        (!self.game.in_check(&pos)).then_some(pos)
    }

    /// The defences White cannot mate at once, those it mates in two ways where no
    /// duals are asked, and the variations still missing, counted up to one more than
    /// `most`; `None` when Black has no move.
    fn escapes(&self, pos: &Position, most: usize) -> Option<usize> {
        let game = self.game;
        let defences = game.legal_moves(pos);
        if defences.is_empty() {
            return None;
        }
        let mut tally = Tally::new(self.aims);
        let mut list = MoveList::new();
        for &defence in defences.iter() {
            let after = game.play(pos, defence).position;
            list.clear();
            mating_moves(game, &after, &mut list);
            tally.defence(list.iter().map(|m| (m.from, m.to, m.promotion())));
            if tally.count > most {
                return Some(tally.count);
            }
        }
        Some(tally.total())
    }
}

/// The walk's measure of one position after the key, defence by defence.
struct Tally<K> {
    aims: Aims,
    /// Defences White cannot mate at once, and those it mates twice where no duals
    /// are asked.
    count: usize,
    /// Every mate met so far.
    mates: Vec<K>,
}

impl<K: Ord> Tally<K> {
    fn new(aims: Aims) -> Tally<K> {
        Tally {
            aims,
            count: 0,
            mates: Vec::new(),
        }
    }

    /// One defence and White's mates after it.
    fn defence(&mut self, mates: impl Iterator<Item = K>) {
        let before = self.mates.len();
        self.mates.extend(mates);
        match self.mates.len() - before {
            0 => self.count += 1,
            1 => {}
            _ => self.count += usize::from(self.aims.no_duals),
        }
    }

    /// The count with the variations still missing.
    fn total(mut self) -> usize {
        self.mates.sort_unstable();
        self.mates.dedup();
        self.count + self.aims.variations.saturating_sub(self.mates.len())
    }
}

fn build<T: Terrain>(
    game: &Game<T>,
    spec: &Spec,
    index: u64,
    ways: super::WaysBack<T>,
) -> Option<String> {
    let mut d = Draw::new(spec.seed, index);
    let walk = AfterKey {
        game,
        aims: Aims::of(spec),
    };
    let key = KeyWanted::of(spec);
    let diagram = walks(&walk, spec, &mut d, |after_key, d| {
        key_taken_back(game, ways, after_key, spec, d, key)
    })?;
    Some(format!("{} w - -", fen::write_placement(diagram.board())))
}

/// The diagram before `after_key`: a White move drawn among the ways back (which put
/// no captured man back: a key that captures is no composer's), of the kind the run
/// asks for, from a position where White has no mate at once (else the `#2` is cooked
/// short).
fn key_taken_back<T: Terrain>(
    game: &Game<T>,
    ways: super::WaysBack<T>,
    after_key: &Position,
    spec: &Spec,
    d: &mut Draw,
    key: KeyWanted,
) -> Option<Position> {
    let mut list = ways(game, after_key, spec);
    let mut tried = 0;
    while !list.is_empty() && tried < KEY_WAYS {
        tried += 1;
        let i = (d.next_u64() % list.len() as u64) as usize;
        let way = list.swap_remove(i);
        let wanted = |diagram: &Position, m: Move| {
            if m.takes(diagram.board()) || !key.allows(game, diagram, m) {
                return false;
            }
            let mut mates = MoveList::new();
            mating_moves(game, diagram, &mut mates);
            mates.is_empty()
        };
        if let Some(diagram) = taken_back(game, after_key, way, usize::MAX, wanted) {
            return Some(diagram);
        }
    }
    None
}

/// The diagram line of a Looking-Glass `#2` candidate `index`, or `None` when none was
/// built.
pub fn glass_mate_in_two_diagram(spec: &Spec, index: u64) -> Option<String> {
    let walk = GlassAfterKey {
        game: Glass {
            attacker: Color::White,
        },
        aims: Aims::of(spec),
    };
    let mut d = Draw::new(spec.seed, index);
    let key = KeyWanted::of(spec);
    let diagram = walks(&walk, spec, &mut d, |after_key, d| {
        glass_key_taken_back(&walk.game, after_key, spec, d, key)
    })?;
    Some(crate::glass::setup::position_line(&diagram))
}

/// The walk's view of Looking-Glass for a `#2` (rules.md 5): there is no check, so the
/// position after the key is one where White, were it to move, could not take Black's
/// king (RULES.md, a quiet key on two boards), and a defence is met by White's move
/// that takes the king; a defence that takes White's king is met by nothing.
struct GlassAfterKey {
    game: Glass,
    aims: Aims,
}

impl Ends for GlassAfterKey {
    type State = GState;
    const BOARDS: usize = 2;
    const KINGS: [(Color, usize); 2] = <Glass as Ends>::KINGS;

    fn state(&self, men: &[Man]) -> Option<GState> {
        let after_key = self.game.state(men)?;
        // Each board keeps its own side to move: both are passed, not the turn alone.
        let white_again = self.game.other_side_to_move(&after_key)?;
        no_capture_of_the_king(&self.game, &white_again).then_some(after_key)
    }

    fn escapes(&self, s: &GState, most: usize) -> Option<usize> {
        let game = &self.game;
        let defences = game.moves(s);
        if defences.is_empty() {
            return None;
        }
        let mut tally = Tally::new(self.aims);
        for defence in defences {
            let after = game.play(s, defence);
            let wins = if after.ended.is_some() {
                Vec::new()
            } else {
                game.winning_moves(&after).unwrap_or_default()
            };
            tally.defence(
                wins.into_iter()
                    .map(|m| (m.side.index(), m.mv.from, m.mv.to, m.mv.promotion())),
            );
            if tally.count > most {
                return Some(tally.count);
            }
        }
        Some(tally.total())
    }
}

/// Whether the side to move in `s` cannot take the other king at once.
fn no_capture_of_the_king(game: &Glass, s: &GState) -> bool {
    game.winning_moves(s).is_none_or(|w| w.is_empty())
}

/// `key_taken_back` on the two boards of Looking-Glass (`glass::ways_back`, with no
/// captured man put back): a White move that captures nothing, of the kind the run asks for (its effects judged as
/// the qualities judge them), from a diagram where White cannot take the king at once.
fn glass_key_taken_back(
    game: &Glass,
    after_key: &GState,
    spec: &Spec,
    d: &mut Draw,
    key: KeyWanted,
) -> Option<GState> {
    let mut list = super::glass::ways_back(after_key, spec, false);
    let mut tried = 0;
    while !list.is_empty() && tried < KEY_WAYS {
        tried += 1;
        let i = (d.next_u64() % list.len() as u64) as usize;
        let Some((diagram, m)) = super::glass::taken_back(game, after_key, list.swap_remove(i))
        else {
            continue;
        };
        if !no_capture_of_the_king(game, &diagram) {
            continue;
        }
        let Some(effects) = game.key_effects(&diagram, m) else {
            continue;
        };
        let kind = match key {
            KeyWanted::Any => !effects.captures,
            KeyWanted::Quiet => !effects.captures && !effects.checks,
            KeyWanted::QuietKey => effects.quiet(),
        };
        if kind {
            return Some(diagram);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::candidate::draw_men;
    use crate::generate::Board;

    fn spec(themes: Vec<Theme>, ops: &str) -> Spec {
        let mut spec = super::super::test_spec("#2", Board::Single, themes);
        spec.ops = ops.to_string();
        spec
    }

    /// White's mating answers to each Black move in `pos`, every move played: a mate
    /// leaves Black no legal move, in check.
    fn answers_played<T: Terrain>(game: &Game<T>, pos: &Position) -> Vec<Vec<Move>> {
        game.legal_moves(pos)
            .iter()
            .map(|&defence| {
                let after = game.play(pos, defence).position;
                game.legal_moves(&after)
                    .iter()
                    .copied()
                    .filter(|&w| {
                        let mated = game.play(&after, w).position;
                        game.legal_moves(&mated).is_empty() && game.in_check(&mated)
                    })
                    .collect()
            })
            .collect()
    }

    /// What the walk brings down, from every move played: defences without a mate,
    /// those with two where no duals are asked, and the variations missing (a mate
    /// named by `name`).
    fn measure_played<M, K: Ord>(answers: &[Vec<M>], aims: Aims, name: impl Fn(&M) -> K) -> usize {
        let unanswered = answers.iter().filter(|a| a.is_empty()).count();
        let dualled = answers.iter().filter(|a| a.len() > 1).count();
        let mut mates: Vec<K> = answers.iter().flatten().map(name).collect();
        mates.sort_unstable();
        mates.dedup();
        unanswered
            + if aims.no_duals { dualled } else { 0 }
            + aims.variations.saturating_sub(mates.len())
    }

    /// A mate on one board, as the variations count it.
    fn named(
        m: &Move,
    ) -> (
        crate::types::Square,
        crate::types::Square,
        Option<crate::types::Role>,
    ) {
        (m.from, m.to, m.promotion())
    }

    /// Whether the walk's measure of `men` (if they make a position after a key) is the
    /// one every move played gives, and, counted up to 1, stops past 1 only: `None`
    /// when they make none, else whether every defence is answered.
    fn measure_checked<T: Terrain>(game: &Game<T>, men: &[Man], aims: Aims) -> Option<bool> {
        let walk = AfterKey { game, aims };
        let pos = walk.state(men)?;
        let answers = answers_played(game, &pos);
        let counted = walk.escapes(&pos, usize::MAX);
        if answers.is_empty() {
            assert_eq!(counted, None);
            return Some(false);
        }
        let played = measure_played(&answers, aims, named);
        let fen = fen::write_fen(&pos);
        assert_eq!(counted, Some(played), "{fen}");
        let bounded = walk.escapes(&pos, 1).expect("moves");
        assert!(bounded == played || (played > 1 && bounded > 1), "{fen}");
        Some(answers.iter().all(|a| !a.is_empty()))
    }

    /// The walk's measure is the one every move played gives, over random placements
    /// of 4 to 7 men on the standard board and a displaced Earthquake board, with and
    /// without variations and no duals asked.
    #[test]
    fn the_measure_is_what_playing_every_move_gives() {
        let (mut judged, mut answered) = (0, 0);
        let asked = Aims {
            variations: 3,
            no_duals: true,
        };
        let plain = Aims {
            variations: 1,
            no_duals: false,
        };
        for ops in ["", "earthquake \"1 0\";"] {
            let run = spec(vec![Theme::Variations(3), Theme::NoDuals], ops);
            let game = run.board_with_fide_moves().expect("a board");
            for (i, aims) in [asked, plain].into_iter().enumerate() {
                for index in 0..4_000 {
                    let mut d = Draw::new(5 + i as u64, index);
                    let men = draw_men(&run, &mut d, 1, &[(Color::White, 0), (Color::Black, 0)]);
                    let seen = match &game {
                        AnyGame::Standard(g) => measure_checked(g, &men, aims),
                        AnyGame::Earthquake(g) => measure_checked(g.as_ref(), &men, aims),
                        AnyGame::Aftershocks(_) => unreachable!("no aftershocks asked"),
                    };
                    if let Some(all) = seen {
                        judged += 1;
                        answered += usize::from(all);
                    }
                }
            }
        }
        assert!(
            judged > 7_000 && answered > 60,
            "{judged} judged, {answered} answered"
        );
    }

    /// Whether `diagram` has no mate at once for White and a quiet key after which each
    /// Black move is met by exactly one mate, three different mates in all, every move
    /// played.
    fn holds_three_single_mates<T: Terrain>(game: &Game<T>, diagram: &Position) -> bool {
        let mates_now = game.legal_moves(diagram).iter().any(|&w| {
            let after = game.play(diagram, w).position;
            game.legal_moves(&after).is_empty() && game.in_check(&after)
        });
        let asked = Aims {
            variations: 3,
            no_duals: true,
        };
        !mates_now
            && game.legal_moves(diagram).iter().any(|&key| {
                let after = game.play(diagram, key).position;
                let answers = answers_played(game, &after);
                super::super::quality::key_is_quiet_in(game, diagram, key)
                    && !answers.is_empty()
                    && measure_played(&answers, asked, named) == 0
            })
    }

    /// A candidate built for `#2 --theme quiet-key --theme variations:3 --theme
    /// no-duals` has a quiet key (no capture, no check, no flight taken) after which
    /// each Black move is met by exactly one mate, three different mates in all, and
    /// White has no mate at once in the diagram; on the standard board and a displaced
    /// Earthquake board, every move played. Whether the key is the only one is the
    /// proof's to judge.
    #[test]
    fn a_built_diagram_has_a_quiet_key_to_three_single_mates() {
        for ops in ["", "earthquake \"1 0\";"] {
            let themes = vec![Theme::QuietKey, Theme::Variations(3), Theme::NoDuals];
            let run = spec(themes, ops);
            let game = run.board_with_fide_moves().expect("a board");
            let mut built = 0;
            for index in 0..100 {
                let Some(line) = mate_in_two_diagram(&run, index) else {
                    continue;
                };
                built += 1;
                // Read on the run's board (a check on the standard board may be none on
                // a displaced one).
                let setup = fen::parse_fields(&fen::fields(&line)).expect("a diagram");
                let diagram = setup.into_position();
                let holds = match &game {
                    AnyGame::Standard(g) => holds_three_single_mates(g, &diagram),
                    AnyGame::Earthquake(g) => holds_three_single_mates(g.as_ref(), &diagram),
                    AnyGame::Aftershocks(_) => unreachable!("no aftershocks asked"),
                };
                assert!(holds, "{ops} {line}");
                if built == 5 {
                    break;
                }
            }
            assert_eq!(built, 5, "{ops}");
        }
    }
    /// White's answers that take Black's king, for each Black move in `s`, every move
    /// played (a defence that takes White's king has none).
    fn glass_answers_played(game: &Glass, s: &GState) -> Vec<Vec<(usize, Move)>> {
        game.moves(s)
            .into_iter()
            .map(|defence| {
                let after = game.play(s, defence);
                if after.ended.is_some() {
                    return Vec::new();
                }
                game.moves(&after)
                    .into_iter()
                    .filter(|&w| {
                        game.play(&after, w).ended == Some(crate::generic::End::Win(Color::White))
                    })
                    .map(|w| (w.side.index(), w.mv))
                    .collect()
            })
            .collect()
    }

    /// A mate on two boards, as the variations count it.
    fn glass_named(
        (board, m): &(usize, Move),
    ) -> (
        usize,
        crate::types::Square,
        crate::types::Square,
        Option<crate::types::Role>,
    ) {
        (*board, m.from, m.to, m.promotion())
    }

    /// On Looking-Glass, the walk's measure is the one every move played gives (a
    /// defence met by a capture of Black's king, rules.md 5.3), over random placements
    /// of both boards; and a candidate built for `#2 --theme quiet-key --theme
    /// variations:2 --theme no-duals` has a quiet key (judged as the qualities judge
    /// it) after which each Black move is met by one capture of the king, two
    /// different ones in all, and White cannot take the king at once in the diagram.
    #[test]
    fn looking_glass_positions_after_the_key_are_measured_and_built() {
        let game = Glass {
            attacker: Color::White,
        };
        let aims = Aims {
            variations: 2,
            no_duals: true,
        };
        let walk = GlassAfterKey { game, aims };
        let run = super::super::test_spec(
            "#2",
            Board::Glass,
            vec![Theme::QuietKey, Theme::Variations(2), Theme::NoDuals],
        );
        let (mut judged, mut answered) = (0, 0);
        for index in 0..6_000 {
            let mut d = Draw::new(9, index);
            let men = draw_men(&run, &mut d, 2, &GlassAfterKey::KINGS);
            let Some(s) = walk.state(&men) else { continue };
            // White, were it to move, could not take the king (every move played).
            let white_again = game.other_side_to_move(&s).expect("a state");
            assert!(
                game.moves(&white_again).into_iter().all(|w| {
                    game.play(&white_again, w).ended != Some(crate::generic::End::Win(Color::White))
                }),
                "{}",
                crate::glass::setup::position_line(&s)
            );
            let answers = glass_answers_played(&game, &s);
            let counted = walk.escapes(&s, usize::MAX);
            let line = crate::glass::setup::position_line(&s);
            if answers.is_empty() {
                assert_eq!(counted, None, "{line}");
                continue;
            }
            let played = measure_played(&answers, aims, glass_named);
            assert_eq!(counted, Some(played), "{line}");
            let bounded = walk.escapes(&s, 1).expect("moves");
            assert!(bounded == played || (played > 1 && bounded > 1), "{line}");
            judged += 1;
            answered += usize::from(answers.iter().all(|a| !a.is_empty()));
        }
        assert!(
            judged > 3_000 && answered > 20,
            "{judged} judged, {answered} answered"
        );
        let mut built = 0;
        for index in 0..200 {
            let Some(line) = glass_mate_in_two_diagram(&run, index) else {
                continue;
            };
            let diagram = crate::glass::read_line(&line)
                .unwrap_or_else(|e| panic!("{line}: {e}"))
                .state;
            assert_eq!(diagram.turn, Color::White, "{line}");
            let takes_now = game.moves(&diagram).into_iter().any(|w| {
                game.play(&diagram, w).ended == Some(crate::generic::End::Win(Color::White))
            });
            let keys = game.moves(&diagram).into_iter().any(|key| {
                let after = game.play(&diagram, key);
                let answers = glass_answers_played(&game, &after);
                after.ended.is_none()
                    && game.key_effects(&diagram, key).is_some_and(|e| e.quiet())
                    && !answers.is_empty()
                    && measure_played(&answers, aims, glass_named) == 0
            });
            assert!(!takes_now && keys, "{line}");
            built += 1;
            if built == 3 {
                break;
            }
        }
        assert_eq!(built, 3);
    }
    /// Which runs are built: a `#2` asking for a quiet key, two variations or no duals,
    /// on a board that does not shift or on Looking-Glass; a board with aftershocks,
    /// Underworld, another stipulation or other themes are drawn at random, and an
    /// aftershock run still gets candidates.
    #[test]
    fn the_runs_built_from_the_position_after_the_key() {
        let themed = |stip: &str, board, ops: &str, themes: Vec<Theme>| {
            let mut spec = super::super::test_spec(stip, board, themes);
            spec.ops = ops.to_string();
            spec
        };
        let quake = "earthquake \"1 0\";";
        let shocks = "earthquake \"1 0\"; aftershock \"1 1\";";
        let built = [
            ("#2", Board::Single, "", vec![Theme::QuietKey]),
            ("#2", Board::Single, "", vec![Theme::Quiet]),
            ("#2", Board::Single, "", vec![Theme::Variations(2)]),
            ("#2", Board::Single, quake, vec![Theme::NoDuals]),
            ("#2", Board::Glass, "", vec![Theme::QuietKey]),
        ];
        for (stip, board, ops, themes) in built {
            let spec = themed(stip, board, ops, themes.clone());
            assert!(mate_in_two_built(&spec), "{stip} {ops} {themes:?}");
        }
        let drawn = [
            ("#2", Board::Single, shocks, vec![Theme::QuietKey]),
            ("#2", Board::Underworld, "", vec![Theme::QuietKey]),
            ("#3", Board::Single, "", vec![Theme::QuietKey]),
            (
                "#2",
                Board::Single,
                "",
                vec![Theme::Variations(1), Theme::Economy],
            ),
        ];
        for (stip, board, ops, themes) in drawn {
            let spec = themed(stip, board, ops, themes.clone());
            assert!(!mate_in_two_built(&spec), "{stip} {ops} {themes:?}");
        }
        let spec = themed("#2", Board::Single, shocks, vec![Theme::QuietKey]);
        assert!(crate::generate::candidate::diagram(&spec, 0).is_some());
    }
}
