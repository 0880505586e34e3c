//! What a diagram shows, before any drawing: each board with its squares at their
//! physical cells (the same placement as the text diagram, `physical`), the men, the
//! Trapdoor timers, the labels and the captions under the boards. One scene per game:
//! single-board lines (FIDE, Trapdoor, Taxi, Earthquake), Underworld, Looking-Glass.

use crate::epd::Record;
use crate::glass::{GState, Side};
use crate::physical::PhysicalBoard;
use crate::problem::{Problem, Stipulation};
use crate::types::{Color, Piece, Role, Square};
use crate::underworld::state::{Realm, UState};

/// One board of a diagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardScene {
    /// The board's name above it (the two-board games), none for a single board.
    pub label: Option<String>,
    /// Where each square lies; cells of the bounding rectangle without a square are void.
    pub physical: PhysicalBoard,
    /// The men, by square.
    pub men: Vec<(Square, Piece)>,
    /// Ticking men and their moves left r (rules.md 1), by square.
    pub timers: Vec<(Square, u8)>,
    /// The side that moves next on this board, if one does.
    pub to_move: Option<Color>,
}

impl BoardScene {
    fn new(label: Option<&str>, physical: PhysicalBoard, board: &crate::board::Board) -> Self {
        BoardScene {
            label: label.map(str::to_string),
            physical,
            men: board.pieces().collect(),
            timers: Vec::new(),
            to_move: None,
        }
    }

    /// The man on `sq`, if any.
    pub fn man_at(&self, sq: Square) -> Option<Piece> {
        self.men.iter().find(|(s, _)| *s == sq).map(|&(_, p)| p)
    }

    /// The moves left of the ticking man on `sq`, if it ticks.
    pub fn timer_at(&self, sq: Square) -> Option<u8> {
        self.timers.iter().find(|(s, _)| *s == sq).map(|&(_, r)| r)
    }
}

/// A whole diagram: a title, the boards left to right, the captions under them, and the
/// men captured for good (Underworld), drawn as small figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    pub title: Option<String>,
    /// The author and the publication (the line's `c0`), under the title.
    pub source: Option<String>,
    pub boards: Vec<BoardScene>,
    pub captions: Vec<String>,
    pub reserve: Vec<Piece>,
}

/// Longest title drawn, in characters: an id can be any length.
const TITLE_CHARS: usize = 60;

/// A heading line of a diagram (the id, the source), cut to `TITLE_CHARS`.
fn title(id: Option<&str>) -> Option<String> {
    let id = id?;
    if id.chars().count() <= TITLE_CHARS {
        return Some(id.to_string());
    }
    Some(id.chars().take(TITLE_CHARS - 1).chain(['…']).collect())
}

/// The stipulation, the side to move and the men on the boards as composers count
/// them, White's and Black's (`(9+8)`), as the first caption.
fn first_caption(stipulation: Option<Stipulation>, what: String, boards: &[BoardScene]) -> String {
    let count = |c: Color| {
        boards
            .iter()
            .map(|b| b.men.iter().filter(|(_, p)| p.color == c).count())
            .sum::<usize>()
    };
    let men = format!("({}+{})", count(Color::White), count(Color::Black));
    match stipulation {
        Some(s) => format!("{s} {men} · {what}"),
        None => format!("{men} · {what}"),
    }
}

impl Scene {
    /// A single-board line: its board as it lies (Earthquake halves displaced), the
    /// Trapdoor timers, the Taxi cash.
    pub fn single(problem: &Problem) -> Scene {
        let (game, pos) = (&problem.game, &problem.position);
        let mut board = BoardScene::new(None, PhysicalBoard::of(game, pos), pos.board());
        board.timers = pos
            .timers()
            .ticking()
            .map(|sq| (sq, pos.timers().left(sq)))
            .collect();
        board.to_move = Some(pos.turn());
        let mut captions = vec![first_caption(
            problem.stipulation,
            format!("{} to move", pos.turn().name()),
            std::slice::from_ref(&board),
        )];
        if let Some(eq) = game.earthquake(pos) {
            let (dx, dy) = eq.displacement();
            let mut text = format!("Earthquake ({dx}, {dy}), void {}", eq.void_rule().name());
            if game.has_aftershocks() {
                let q = pos.quake();
                text.push_str(&format!(
                    "; aftershocks left: White {}, Black {}",
                    q.shocks[0], q.shocks[1]
                ));
                if let Some(back) = q.no_return {
                    text.push_str(&format!(" (not back to {back} this turn)"));
                }
            }
            captions.push(text);
        }
        if let Some(t) = game.rules().trapdoor {
            captions.push(format!(
                "Trapdoor T = {} ({}); a badge gives a ticking man's moves left",
                t.timer,
                t.order.name()
            ));
        }
        if let Some(taxi) = game.rules().taxi {
            captions.push(format!(
                "Taxi cash: White {}, Black {}, income {}",
                pos.cash(Color::White),
                pos.cash(Color::Black),
                taxi.income
            ));
        }
        Scene {
            title: None,
            source: None,
            boards: vec![board],
            captions,
            reserve: Vec::new(),
        }
        .headed(&problem.record)
    }

    /// An Underworld line: the World and the Underworld side by side, the phase, and
    /// the men captured for good (rules.md 4).
    pub fn underworld(state: &UState, stipulation: Option<Stipulation>) -> Scene {
        let mut world = BoardScene::new(
            Some("World"),
            PhysicalBoard::standard(),
            state.world.board(),
        );
        let mut under =
            BoardScene::new(Some("Underworld"), PhysicalBoard::standard(), &state.under);
        let (realm, realm_name) = match state.phase.realm() {
            Realm::World => (&mut world, "World"),
            Realm::Under => (&mut under, "Underworld"),
        };
        realm.to_move = Some(state.mover());
        let mut reserve = Vec::new();
        for color in Color::ALL {
            for role in [
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
                Role::Pawn,
            ] {
                for _ in 0..state.reserve.count(color, role) {
                    reserve.push(Piece::new(color, role));
                }
            }
        }
        let boards = vec![world, under];
        let captions = vec![
            first_caption(
                stipulation,
                format!(
                    "phase {}: {} to move on the {realm_name}",
                    state.phase.name(),
                    state.mover().name()
                ),
                &boards,
            ),
            if reserve.is_empty() {
                "Captured for good: none".to_string()
            } else {
                "Captured for good:".to_string()
            },
        ];
        Scene {
            title: None,
            source: None,
            boards,
            captions,
            reserve,
        }
    }

    /// A Looking-Glass line: the Real and the Mirror board side by side (rules.md 5).
    pub fn glass(state: &GState, stipulation: Option<Stipulation>) -> Scene {
        let mut boards: Vec<BoardScene> = Side::BOTH
            .into_iter()
            .map(|side| {
                let name = match side {
                    Side::Real => "Real",
                    Side::Mirror => "Mirror",
                };
                BoardScene::new(
                    Some(name),
                    PhysicalBoard::standard(),
                    state.board(side).board(),
                )
            })
            .collect();
        // The side to move may move on either board: one mark, right of both.
        if let Some(last) = boards.last_mut() {
            last.to_move = Some(state.turn);
        }
        let mut captions = vec![first_caption(
            stipulation,
            format!("{} to move (on either board)", state.turn.name()),
            &boards,
        )];
        if let Some((sq, side)) = state.ep {
            let board = match side {
                Side::Real => "Real board",
                Side::Mirror => "Mirror",
            };
            captions.push(format!("en passant on {sq} (double step on the {board})"));
        }
        Scene {
            title: None,
            source: None,
            boards,
            captions,
            reserve: Vec::new(),
        }
    }

    /// The scene with the line's heading: its `id` as the title, its `c0` (author and
    /// publication) under it, each cut to `TITLE_CHARS`.
    pub fn headed(mut self, record: &Record) -> Scene {
        self.title = title(record.id());
        self.source = title(record.get("c0").and_then(|o| o.single()));
        self
    }
}
