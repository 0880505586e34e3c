//! Move ordering for the solver and the cheap check test of the attacker's last move.
//! Ordering only changes how soon a proof is found, never what is proved.

use crate::attacks::{piece_attacks, unattacked_king_steps};
use crate::bitboard::Bitboard;
use crate::game::Game;
use crate::geometry::{Geometry, Terrain};
use crate::movegen::MoveSink;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::{Color, Role, Square};

/// A move packed into 16 bits for the transposition table's hint (never 0 for a move,
/// since from != to).
#[inline]
pub fn pack(mv: Move) -> u16 {
    (mv.from as u16) << 6 | mv.to as u16 | promo_bits(mv) << 12
}

fn promo_bits(mv: Move) -> u16 {
    match mv.promotion() {
        None => 0,
        Some(r) => r as u16,
    }
}

/// What the defender's king is exposed to, for testing whether an attacking move gives
/// check without playing it: FIDE attacks, and with `kings_check` the attacker's king's
/// too.
pub struct CheckInfo {
    king: Option<Square>,
    /// Squares from which a piece of each role would attack the king.
    squares: [Bitboard; 6],
    /// Attacker's pieces whose leaving uncovers a ride onto the king.
    discoverers: Bitboard,
}

impl CheckInfo {
    /// FIDE rules: a king never attacks a king (it could not stand next to it).
    pub fn new<G: Geometry>(geo: &G, pos: &Position) -> CheckInfo {
        CheckInfo::with_king_checks(geo, pos, false)
    }

    /// With `kings_check`, a king step next to the defender's king is an attack on it.
    /// Under Taxi a side that cannot pay for a step gives no check, so kings may stand
    /// side by side and a king's own step can check and mate (rules.md 2.2-2.3).
    pub fn with_king_checks<G: Geometry>(geo: &G, pos: &Position, kings_check: bool) -> CheckInfo {
        let us = pos.turn();
        let them = !us;
        let board = pos.board();
        let Some(king) = board.king(them) else {
            return CheckInfo {
                king: None,
                squares: [Bitboard::EMPTY; 6],
                discoverers: Bitboard::EMPTY,
            };
        };
        let occ = board.occupied();
        let bishop = geo.bishop_attacks(king, occ);
        let rook = geo.rook_attacks(king, occ);
        let squares = [
            geo.pawn_attacks(them, king),
            geo.knight_attacks(king),
            bishop,
            rook,
            bishop | rook,
            if kings_check {
                geo.king_attacks(king)
            } else {
                Bitboard::EMPTY
            },
        ];
        // Our riders aimed at the king with exactly one of our pieces between.
        let ours = board.by_color(us);
        let snipers = ((geo.rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
            | (geo.bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()))
            & ours;
        let mut discoverers = Bitboard::EMPTY;
        for s in snipers {
            let between = geo.between(king, s) & occ;
            if between.count() == 1 {
                discoverers |= between & ours;
            }
        }
        CheckInfo {
            king: Some(king),
            squares,
            discoverers,
        }
    }

    /// The squares a man of `role` on `from` may give check by moving to, ordinary
    /// moves and double steps (`may_give_check` of each): every square when its leaving
    /// may uncover a ride onto the king.
    #[inline]
    pub fn may_check_targets(&self, role: Role, from: Square) -> Bitboard {
        match self.king {
            None => Bitboard::EMPTY,
            Some(_) if self.discoverers.contains(from) => Bitboard::FULL,
            Some(_) => self.squares[role.index()],
        }
    }

    /// Whether `mv` (legal) may leave the defender's king attacked, judged without
    /// playing it: `gives_check` for an ordinary move or a double step, `true` for the
    /// rare kinds that change more than two squares or the mover's kind.
    #[inline]
    pub fn may_give_check(&self, mv: Move) -> bool {
        match mv.kind {
            MoveKind::Normal | MoveKind::DoublePush => {
                self.king.is_some()
                    && (self.squares[mv.role.index()].contains(mv.to)
                        || self.discoverers.contains(mv.from))
            }
            _ => true,
        }
    }

    /// Whether `mv` (legal) leaves the defender's king attacked.
    #[inline]
    pub fn gives_check<G: Geometry>(&self, geo: &G, pos: &Position, mv: Move) -> bool {
        let Some(king) = self.king else {
            return false;
        };
        match mv.kind {
            MoveKind::Normal | MoveKind::DoublePush => {
                if self.squares[mv.role.index()].contains(mv.to) {
                    return true;
                }
                self.discoverers.contains(mv.from) && !geo.line(king, mv.from).contains(mv.to)
            }
            // Rare: decide on the board.
            _ => {
                let mut p = *pos;
                p.play_board(geo, mv);
                crate::movegen::king_attacked(geo, &p, p.turn())
            }
        }
    }
}

/// Puts the moves with the highest priority first, keeping generation order within a
/// priority, so the order is the same on every run and thread. Priorities are small
/// (0..=3): a counting sort, one pass to rank and one to place.
#[inline]
fn order_by_priority(moves: &mut MoveList, priority: impl Fn(Move) -> u8) {
    const LEVELS: usize = 4;
    let mut prio = [0u8; 256];
    let mut count = [0usize; LEVELS];
    for (i, &mv) in moves.iter().enumerate() {
        let p = priority(mv).min(LEVELS as u8 - 1);
        prio[i] = p;
        count[p as usize] += 1;
    }
    if count[0] == moves.len() {
        return;
    }
    // Where each priority's run starts, the highest first.
    let mut next = [0usize; LEVELS];
    let mut at = 0;
    for p in (0..LEVELS).rev() {
        next[p] = at;
        at += count[p];
    }
    let mut original = MoveList::new();
    for &mv in moves.iter() {
        original.push(mv);
    }
    let out = moves.as_mut_slice();
    for (i, &mv) in original.iter().enumerate() {
        let p = prio[i] as usize;
        out[next[p]] = mv;
        next[p] += 1;
    }
}

/// Orders attacking moves: the table's hint and the killer, then checks and captures,
/// then the rest.
pub fn sort_attacks<T: Terrain>(
    game: &Game<T>,
    pos: &Position,
    moves: &mut MoveList,
    hint: u16,
    killer: Option<Move>,
) {
    if moves.len() < 2 {
        return;
    }
    let geo = game.geo(pos);
    let info = CheckInfo::new(geo, pos);
    let theirs = pos.board().by_color(!pos.turn());
    // A FIDE check: the check itself in FIDE, and a good guess at one under Taxi (most
    // attacks are affordable) and Trapdoor (falls seldom change it). Ordering only.
    let fixed_board = !game.terrain.shifts();
    order_by_priority(moves, |mv| {
        if (hint != 0 && pack(mv) == hint) || Some(mv) == killer {
            3
        } else if fixed_board && info.gives_check(geo, pos, mv) {
            2
        } else if theirs.contains(mv.to) || mv.promotion().is_some() {
            1
        } else {
            0
        }
    });
}

/// Orders defences by kind before `sort_defences` puts its two first: checks, then
/// captures, then the rest; under Trapdoor the king's own moves last (a king that
/// moves starts ticking and must then keep moving or fall: such a defence seldom
/// refutes, and where the king must step again the attacker's reply to it cannot be
/// cut to checks). Ordering only. A function of its own: inlined into `defend` it cost
/// the orthodox #2 collection 8 % more instructions.
#[inline(never)]
pub fn sort_defences_by_kind<T: Terrain>(game: &Game<T>, pos: &Position, moves: &mut MoveList) {
    if moves.len() < 2 || game.terrain.shifts() {
        return;
    }
    let geo = game.geo(pos);
    let info = CheckInfo::new(geo, pos);
    let theirs = pos.board().by_color(!pos.turn());
    let king_last = game.rules().trapdoor.is_some();
    order_by_priority(moves, |mv| {
        if king_last && mv.role == Role::King {
            0
        } else if info.gives_check(geo, pos, mv) {
            3
        } else if theirs.contains(mv.to) {
            2
        } else {
            1
        }
    });
}

/// Orders defences: the table's hint and the last refutation first (a refutation is
/// usually found again among siblings), the rest in the order they come in (by kind,
/// `sort_defences_by_kind`).
#[inline]
pub fn sort_defences(moves: &mut MoveList, hint: u16, killer: Option<Move>) {
    let slice = moves.as_mut_slice();
    let mut front = 0;
    for wanted in [killer, None] {
        let found = match wanted {
            Some(k) => slice.iter().position(|&m| m == k),
            None if hint != 0 => slice.iter().position(|&m| pack(m) == hint),
            None => None,
        };
        if let Some(i) = found {
            if i >= front {
                slice[front..=i].rotate_right(1);
                front += 1;
            }
        }
    }
}

/// Where the attacker's last move may give a check that only the falls at its end
/// uncover (Trapdoor, rule 1.5e): none under FIDE rules.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FallChecks {
    /// Squares beyond a falling man of ours from which an arriving rook-like (first) or
    /// bishop-like (second) piece would see the king once it has fallen.
    pub arrivals: [Bitboard; 2],
    /// Men of ours that, with nothing but falling men, stand between the king and a
    /// rider of ours: leaving the line uncovers it once they have fallen.
    pub discoverers: Bitboard,
}

/// Collects the moves that may give check: exact for ordinary moves, and every
/// promotion and special move (the caller verifies those on the board). Also the
/// moves that may give check only once falling men have gone (`falls`).
/// With `flights`, a piece's moves only where they may also take every free flight
/// (pawn moves are all kept).
pub struct CheckCandidates<'a, G: Geometry> {
    pub geo: &'a G,
    pub info: &'a CheckInfo,
    pub out: &'a mut MoveList,
    pub falls: FallChecks,
    pub flights: Option<FlightCover<'a, G>>,
}

impl<G: Geometry> CheckCandidates<'_, G> {
    #[inline(always)]
    fn checking_targets(&self, role: Role, from: Square, targets: Bitboard) -> Bitboard {
        let Some(king) = self.info.king else {
            return Bitboard::EMPTY;
        };
        let direct = targets & self.info.squares[role.index()];
        if (self.info.discoverers | self.falls.discoverers).contains(from) {
            direct | (targets - self.geo.line(king, from))
        } else {
            direct
        }
    }
}

impl<G: Geometry> MoveSink for CheckCandidates<'_, G> {
    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        let [straight, diagonal] = self.falls.arrivals;
        let behind = match role {
            Role::Rook => straight,
            Role::Bishop => diagonal,
            Role::Queen => straight | diagonal,
            _ => Bitboard::EMPTY,
        };
        let mut t = self.checking_targets(role, from, targets) | (targets & behind);
        if let Some(cover) = &self.flights {
            if t.is_nonempty() {
                t = cover.wanted(role, from, t);
            }
        }
        self.out.piece(role, from, t);
    }
    #[inline(always)]
    fn pawn(&mut self, from: Square, targets: Bitboard, promo: Bitboard) {
        let t = self.checking_targets(Role::Pawn, from, targets - promo) | (targets & promo);
        self.out.pawn(from, t, promo);
    }
    #[inline(always)]
    fn special(&mut self, mv: Move) {
        self.out.push(mv);
    }
    /// The king gives check by discovery, and under Taxi by stepping next to the king
    /// (`CheckInfo::with_king_checks`): its steps are worth testing only then.
    #[inline(always)]
    fn king_steps_wanted(&self, king: Square) -> Bitboard {
        self.checking_targets(Role::King, king, Bitboard::FULL)
    }
}

/// For the attacker's last move: the defender's free flights and the men that may
/// vanish before or as its king steps (under Trapdoor the ticking men). A move that
/// keeps a flight free cannot win: the king has a legal step, so it is not mated, and
/// a king that steps does not fall.
#[derive(Copy, Clone, Default)]
pub struct Flights {
    pub free: Bitboard,
    pub vanishing: Bitboard,
}

impl Flights {
    /// Whether `mv` leaves one of the flights free (see `keeps_a_flight`).
    #[inline]
    pub fn kept_by<G: Geometry>(&self, geo: &G, pos: &Position, mv: Move) -> bool {
        self.free.is_nonempty() && keeps_a_flight(geo, pos, self.free, mv, self.vanishing)
    }
}

/// Which arrival squares of a man of the side to move may leave the defender's king no
/// free flight: a superset of those for which `keeps_a_flight` is false, found a piece
/// at a time instead of a move at a time. A flight that no other rider of ours covers,
/// even with the mover's square empty, must be covered by the mover from its arrival
/// square; rides are reversible, so those arrival squares are the mover's attacks from
/// the flight. (No piece lands on a flight: it would cover it now. Pawns push, so they
/// are left to `keeps_a_flight`.)
#[derive(Copy, Clone)]
pub struct FlightCover<'a, G: Geometry> {
    geo: &'a G,
    us: Color,
    flights: Bitboard,
    /// The board as `keeps_a_flight` judges lines: without the vanishing men and the
    /// defender's king.
    open: Bitboard,
    straight: Bitboard,
    diagonal: Bitboard,
}

impl<'a, G: Geometry> FlightCover<'a, G> {
    pub fn new(geo: &'a G, pos: &Position, flights: &Flights) -> FlightCover<'a, G> {
        let board = pos.board();
        let us = pos.turn();
        let ours = board.by_color(us);
        let king = board
            .king(!us)
            .map_or(Bitboard::EMPTY, Bitboard::from_square);
        FlightCover {
            geo,
            us,
            flights: flights.free,
            open: board.occupied() - flights.vanishing - king,
            straight: board.rooks_and_queens() & ours,
            diagonal: board.bishops_and_queens() & ours,
        }
    }

    /// Of the `targets` of the man of `role` on `from`, those from which it may take
    /// every flight that no other rider covers.
    #[inline(always)]
    pub fn wanted(&self, role: Role, from: Square, targets: Bitboard) -> Bitboard {
        let geo = self.geo;
        // Leaving `from` can only open lines; landing on the target can only close them.
        let open = self.open.without(from);
        let (straight, diagonal) = (self.straight.without(from), self.diagonal.without(from));
        let mut wanted = targets;
        for f in self.flights {
            let covered = (geo.rook_attacks(f, open) & straight).is_nonempty()
                || (geo.bishop_attacks(f, open) & diagonal).is_nonempty();
            if !covered {
                wanted &= piece_attacks(geo, role, !self.us, f, open);
                if wanted.is_empty() {
                    break;
                }
            }
        }
        wanted
    }
}

/// The moves of the side to move that may leave the defender's king no free flight
/// (`FlightCover`; pawn and special moves are all kept).
pub struct FlightTakers<'a, G: Geometry> {
    cover: FlightCover<'a, G>,
    out: &'a mut MoveList,
}

impl<'a, G: Geometry> FlightTakers<'a, G> {
    pub fn new(
        geo: &'a G,
        pos: &Position,
        flights: &Flights,
        out: &'a mut MoveList,
    ) -> FlightTakers<'a, G> {
        FlightTakers {
            cover: FlightCover::new(geo, pos, flights),
            out,
        }
    }
}

impl<G: Geometry> MoveSink for FlightTakers<'_, G> {
    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        let wanted = self.cover.wanted(role, from, targets);
        self.out.piece(role, from, wanted);
    }
    #[inline(always)]
    fn king_steps_wanted(&self, king: Square) -> Bitboard {
        self.cover.wanted(Role::King, king, Bitboard::FULL)
    }
    #[inline(always)]
    fn pawn(&mut self, from: Square, targets: Bitboard, promo: Bitboard) {
        self.out.pawn(from, targets, promo);
    }
    #[inline(always)]
    fn special(&mut self, mv: Move) {
        self.out.push(mv);
    }
}

/// Flights of the defender's king (the side not to move) that no man of the side to move
/// covers now, judged with the king off the board as it would stand on the flight.
pub fn free_flights<G: Geometry>(geo: &G, pos: &Position) -> Bitboard {
    let board = pos.board();
    let us = pos.turn();
    match board.king(!us) {
        Some(king) => unattacked_king_steps(geo, board, king, !us),
        None => Bitboard::EMPTY,
    }
}

/// Whether after the ordinary move `mv` one of the free `flights` is still free, so that
/// `mv` cannot mate (FIDE rules). Only three things can cover a free flight: the moved
/// man from its arrival square, a rider through the square it left, or the man landing on
/// it (then the flight is not counted, since the king may or may not take it). Leapers
/// that did not move cover what they covered before. Every rider line is judged again
/// with the men on `vanishing` off the board: under Trapdoor the ticking men, which may
/// fall before the king steps or as it steps, opening lines (rule 1.5).
pub fn keeps_a_flight<G: Geometry>(
    geo: &G,
    pos: &Position,
    flights: Bitboard,
    mv: Move,
    vanishing: Bitboard,
) -> bool {
    if mv.kind != MoveKind::Normal {
        return false;
    }
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king(!us) else {
        return false;
    };
    let from = Bitboard::from_square(mv.from);
    let occupied = (board.occupied() - from - vanishing)
        .without(king)
        .with(mv.to);
    let mover = piece_attacks(geo, mv.role, us, mv.to, occupied);
    // Our riders other than the moved man (a captured rider on `to` is not ours).
    let ours = board.by_color(us) - from;
    let straight = board.rooks_and_queens() & ours;
    let diagonal = board.bishops_and_queens() & ours;
    (flights.without(mv.to) - mover).any(|f| {
        (geo.rook_attacks(f, occupied) & straight).is_empty()
            && (geo.bishop_attacks(f, occupied) & diagonal).is_empty()
    })
}

/// For the attacker's last moves from one position: whether after a move the defender's
/// king surely has a step that is safe both before and after the falls that may follow
/// (rule 1.5), so that the move cannot mate. A step onto an empty square or onto a man of
/// ours (the moved man included) that no man of ours attacks, judged with every man on
/// `vanishing` off the board (falls only open lines) and with the attacks of every man of
/// ours counted (falls only take attackers away). What does not depend on the move is
/// worked out once.
pub struct KingEscapes<'a, G: Geometry> {
    geo: &'a G,
    us: Color,
    /// The defender's king's ring, and the part of it its own men leave free.
    ring: Bitboard,
    steps: Bitboard,
    /// The board as the lines are judged: without the vanishing men and the king.
    open: Bitboard,
    /// Squares our leapers (pawns, knights, king) attack at least once, and twice.
    leapers_once: Bitboard,
    leapers_twice: Bitboard,
    straight: Bitboard,
    diagonal: Bitboard,
}

impl<'a, G: Geometry> KingEscapes<'a, G> {
    pub fn new(geo: &'a G, pos: &Position, vanishing: Bitboard) -> Option<KingEscapes<'a, G>> {
        let us = pos.turn();
        let board = pos.board();
        let king = board.king(!us)?;
        let ring = geo.king_attacks(king);
        let (mut leapers_once, mut leapers_twice) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for role in [Role::Pawn, Role::Knight, Role::King] {
            for from in board.by_piece(us, role) {
                let attacks = piece_attacks(geo, role, us, from, Bitboard::EMPTY);
                leapers_twice |= leapers_once & attacks;
                leapers_once |= attacks;
            }
        }
        let ours = board.by_color(us);
        Some(KingEscapes {
            geo,
            us,
            ring,
            steps: ring - board.by_color(!us),
            open: (board.occupied() - vanishing).without(king),
            leapers_once,
            leapers_twice,
            straight: board.rooks_and_queens() & ours,
            diagonal: board.bishops_and_queens() & ours,
        })
    }

    /// Whether the defender's king surely escapes after `mv`, a legal move of ours.
    /// Ordinary moves and promotions only; `false` says nothing.
    #[inline]
    pub fn after(&self, mv: Move) -> bool {
        if !matches!(mv.kind, MoveKind::Normal | MoveKind::Promotion(_)) {
            return false;
        }
        let geo = self.geo;
        let to = Bitboard::from_square(mv.to);
        let open = self.open.without(mv.from) | to;
        let arriving = mv.promotion().unwrap_or(mv.role);
        let mut steps =
            (self.steps | (self.ring & to)) - piece_attacks(geo, arriving, self.us, mv.to, open);
        if steps.is_empty() {
            return false;
        }
        // The others' attacks: leapers as they stand, riders across the emptied squares
        // (a man taken on `to` is the defender's: it attacks nothing here).
        let leapers = match mv.role {
            Role::Pawn | Role::Knight | Role::King => {
                let mover = piece_attacks(geo, mv.role, self.us, mv.from, Bitboard::EMPTY);
                self.leapers_twice | (self.leapers_once - mover)
            }
            _ => self.leapers_once,
        };
        steps = steps - leapers;
        let (straight, diagonal) = (
            self.straight.without(mv.from),
            self.diagonal.without(mv.from),
        );
        steps.into_iter().any(|s| {
            (geo.rook_attacks(s, open) & straight).is_empty()
                && (geo.bishop_attacks(s, open) & diagonal).is_empty()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_fen;
    use crate::geometry::Standard;
    use crate::movegen::MoveSink;
    use crate::test_games::{random_placements, random_positions};
    use crate::test_rng::Rng;

    /// Collects the king's moves only.
    struct KingMoves(Bitboard);

    impl MoveSink for KingMoves {
        fn piece(&mut self, role: Role, _: Square, targets: Bitboard) {
            if role == Role::King {
                self.0 |= targets;
            }
        }
        fn pawn(&mut self, _: Square, _: Bitboard, _: Bitboard) {}
        fn special(&mut self, _: Move) {}
    }

    /// `CheckCandidates` keeps every legal move that gives check, and of the ordinary
    /// moves only those (the attacker's last move relies on both), over random games
    /// with kings and other men that give check by discovery.
    #[test]
    fn check_candidates_are_the_checking_moves() {
        let (mut checks, mut quiet) = (0, 0);
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/8/8/8/4K3/8/8/4R3 w - - 0 1",
            "7k/8/8/8/3K4/8/1Q6/q3r3 w - - 0 1",
            "2r1k3/8/8/3q4/8/8/2B5/R2QK2R w - - 0 1",
        ];
        random_positions(0x9E37_79B9_7F4A_7C15, &starts, 60, 50, |pos, moves| {
            let info = CheckInfo::new(&Standard, pos);
            let mut candidates = MoveList::new();
            crate::movegen::generate(
                &Standard,
                pos,
                &mut CheckCandidates {
                    geo: &Standard,
                    info: &info,
                    out: &mut candidates,
                    falls: FallChecks::default(),
                    flights: None,
                },
            );
            for &mv in moves.iter() {
                let mut after = *pos;
                after.play_board(&Standard, mv);
                let check = crate::movegen::king_attacked(&Standard, &after, after.turn());
                let fen = crate::fen::write_fen(pos);
                if check {
                    checks += 1;
                    assert!(candidates.contains(&mv), "{mv:?} in {fen}");
                } else if mv.kind == MoveKind::Normal {
                    quiet += 1;
                    assert!(!candidates.contains(&mv), "{mv:?} in {fen}");
                }
                assert_eq!(
                    info.gives_check(&Standard, pos, mv),
                    check,
                    "{mv:?} in {fen}"
                );
            }
        });
        assert!(checks > 2_000 && quiet > 20_000, "{checks} {quiet}");
    }

    /// With `flights`, `CheckCandidates` still keeps every move that mates (the
    /// attacker's last move relies on it), and leaves out many checks that leave the
    /// king a flight.
    #[test]
    fn check_candidates_with_flights_keep_every_mate() {
        let (mut mates, mut dropped) = (0, 0);
        let mut check = |pos: &Position, moves: &MoveList| {
            let geo = &Standard;
            let info = CheckInfo::new(geo, pos);
            let flights = Flights {
                free: free_flights(geo, pos),
                vanishing: Bitboard::EMPTY,
            };
            let mut candidates = MoveList::new();
            crate::movegen::generate(
                geo,
                pos,
                &mut CheckCandidates {
                    geo,
                    info: &info,
                    out: &mut candidates,
                    falls: FallChecks::default(),
                    flights: flights
                        .free
                        .is_nonempty()
                        .then(|| FlightCover::new(geo, pos, &flights)),
                },
            );
            for &mv in moves.iter() {
                let mut after = *pos;
                after.play_board(geo, mv);
                let mate = crate::movegen::king_attacked(geo, &after, after.turn())
                    && !crate::movegen::has_legal_move(geo, &after);
                if mate {
                    mates += 1;
                    let fen = crate::fen::write_fen(pos);
                    assert!(candidates.contains(&mv), "{mv:?} in {fen}");
                } else if info.gives_check(geo, pos, mv) && !candidates.contains(&mv) {
                    dropped += 1;
                }
            }
        };
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "6k1/5ppp/8/8/8/8/5PPP/R2Q2K1 w - - 0 1",
            "2r1k3/8/8/3q4/8/8/2B5/R2QK2R w - - 0 1",
        ];
        random_positions(0x1F83_D9AB_FB41_BD6B, &starts, 80, 60, &mut check);
        random_placements(0x5BE0_CD19_137E_2179, 20_000, "QRRBNNPPrnbp", &mut check);
        assert!(mates > 4_000 && dropped > 50_000, "{mates} {dropped}");
    }

    /// Checks `FlightTakers` against `keeps_a_flight` in `pos` with a random set of its
    /// men about to vanish: every move the latter does not reject is generated. Counts
    /// the moves the filter had to keep (`needed`) and those it left out.
    fn check_flight_takers<G: Geometry>(
        geo: &G,
        pos: &Position,
        moves: &MoveList,
        rng: &mut Rng,
        (needed, dropped): (&mut usize, &mut usize),
    ) {
        let vanishing = pos.board().occupied() & Bitboard(rng.next() & rng.next());
        let free = free_flights(geo, pos);
        let flights = Flights { free, vanishing };
        let mut takers = MoveList::new();
        crate::movegen::generate(
            geo,
            pos,
            &mut FlightTakers::new(geo, pos, &flights, &mut takers),
        );
        for &mv in moves.iter() {
            if !keeps_a_flight(geo, pos, free, mv, vanishing) {
                // Counted where the filter could have dropped the move.
                *needed += (free.is_nonempty() && mv.role != Role::Pawn) as usize;
                assert!(
                    takers.contains(&mv),
                    "{mv:?} in {}, vanishing {vanishing:?}",
                    crate::fen::write_fen(pos)
                );
            } else if !takers.contains(&mv) {
                *dropped += 1;
            }
        }
        assert!(takers.iter().all(|mv| moves.contains(mv)));
    }

    /// `FlightTakers` keeps every move that `keeps_a_flight` does not reject, with any
    /// set of vanishing men, and leaves out many that it does reject.
    #[test]
    fn flight_takers_keep_every_move_that_may_take_all_flights() {
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        let (mut needed, mut dropped) = (0, 0);
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/R3K2R w - - 0 1",
            "2r1k3/8/8/3q4/8/8/2B5/R2QK2R w - - 0 1",
        ];
        let mut check = |pos: &Position, moves: &MoveList| {
            check_flight_takers(&Standard, pos, moves, &mut rng, (&mut needed, &mut dropped))
        };
        random_positions(0x6A09_E667_F3BC_C909, &starts, 80, 60, &mut check);
        random_placements(0xBB67_AE85_84CA_A73B, 3_000, "QRBNPPrnp", &mut check);
        assert!(needed > 10_000 && dropped > 10_000, "{needed} {dropped}");
    }

    /// The same on displaced boards (rules.md 3), where the filter's reliance on rides
    /// being reversible meets rays that bend at the split and cross void cells.
    #[test]
    fn flight_takers_on_displaced_boards() {
        use crate::geometry::{Earthquake, VoidRule};
        let mut rng = Rng(0x243F_6A88_85A3_08D3);
        let (mut needed, mut dropped) = (0, 0);
        let starts = crate::test_games::RIDER_STARTS;
        for (dx, dy, void) in [
            (1, 0, VoidRule::Fly),
            (-2, 0, VoidRule::Block),
            (3, 0, VoidRule::Fly),
            (0, -1, VoidRule::Fly),
            (2, -2, VoidRule::Block),
        ] {
            let geo = Earthquake::new(dx, dy, void);
            let mut check = |pos: &Position, moves: &MoveList| {
                check_flight_takers(&geo, pos, moves, &mut rng, (&mut needed, &mut dropped))
            };
            crate::test_games::random_positions_on(
                &geo,
                (dx + 20) as u64,
                &starts,
                40,
                60,
                &mut check,
            );
        }
        assert!(needed > 5_000 && dropped > 5_000, "{needed} {dropped}");
    }

    /// `keeps_a_flight` never claims a flight that the king cannot take: over random
    /// games, after every ordinary move it accepts, the king has a legal move.
    #[test]
    fn a_kept_flight_is_a_legal_king_move() {
        let (mut kept, mut lost) = (0, 0);
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/R3K2R w - - 0 1",
        ];
        random_positions(0x5851_F42D_4C95_7F2D, &starts, 100, 60, |pos, moves| {
            let flights = free_flights(&Standard, pos);
            for &mv in moves.iter() {
                if keeps_a_flight(&Standard, pos, flights, mv, Bitboard::EMPTY) {
                    let mut after = *pos;
                    after.play_board(&Standard, mv);
                    let mut king = KingMoves(Bitboard::EMPTY);
                    crate::movegen::generate(&Standard, &after, &mut king);
                    let fen = crate::fen::write_fen(pos);
                    assert!(king.0.is_nonempty(), "{mv:?} in {fen}");
                    kept += 1;
                } else {
                    lost += 1;
                }
            }
        });
        assert!(kept > 10_000 && lost > 10_000, "{kept} {lost}");
    }

    /// After the attacker's move `mv`, which a last-move filter says leaves the defender's
    /// king a way out (rules.md 1.5): the move does not mate, and unless it ended the game
    /// the defender has a king step (not castling) that does not let its king fall.
    /// Returns whether the defender is in check after it.
    fn assert_king_steps_after<T: Terrain>(game: &Game<T>, pos: &Position, mv: Move) -> bool {
        use crate::game::Outcome;
        let fen = crate::fen::write_fen(pos);
        let played = game.play(pos, mv);
        assert_ne!(played.outcome, Some(Outcome::Mate), "{mv:?} in {fen}");
        if played.outcome.is_some() {
            return false;
        }
        let next = &played.position;
        let steps = game.legal_moves(next).iter().any(|&reply| {
            reply.role == Role::King
                && !reply.is_castle()
                && game.play(next, reply).outcome != Some(Outcome::KingFell)
        });
        assert!(steps, "{mv:?} in {fen}");
        game.in_check(next)
    }

    /// Under Trapdoor `KingEscapes` claims a step only where the defender's king has
    /// one (rules.md 1.5): after such a move, with random timers on both sides and in
    /// both orders of events, the attacker has not mated (before or after its falls)
    /// and the defender has a legal king step. On the standard board and two
    /// Earthquake boards.
    #[test]
    fn a_king_escape_is_a_legal_step_after_the_falls() {
        use crate::game::Rules;
        use crate::geometry::{Earthquake, VoidRule};
        use crate::trapdoor::{FallOrder, Trapdoor};
        fn check<T: Terrain>(
            games: &[Game<T>; 2],
            pos: &Position,
            rng: &mut Rng,
            (escapes, in_check): (&mut usize, &mut usize),
        ) {
            let mut pos = *pos;
            for sq in pos.board().occupied() {
                if rng.below(3) == 0 {
                    pos.set_timer(sq, Some(1 + rng.below(2) as u8));
                }
            }
            let game = &games[rng.below(2)];
            let geo = game.geo(&pos);
            let Some(king_escapes) = KingEscapes::new(geo, &pos, pos.timers().ticking()) else {
                return;
            };
            for &mv in game.legal_moves(&pos).iter() {
                if !king_escapes.after(mv) {
                    continue;
                }
                *escapes += 1;
                let fen = crate::fen::write_fen(&pos);
                assert!(!game.mates(&pos, mv), "{mv:?} in {fen}");
                *in_check += assert_king_steps_after(game, &pos, mv) as usize;
            }
        }
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let (mut escapes, mut in_check) = (0, 0);
        let starts = crate::test_games::RIDER_STARTS;
        let rules = |order| Rules {
            trapdoor: Some(Trapdoor { timer: 2, order }),
            taxi: None,
        };
        let orders = [FallOrder::MateFirst, FallOrder::FallsFirst];
        let games = orders.map(|order| Game::new(rules(order)));
        let mut visit = |pos: &Position, _: &MoveList| {
            check(&games, pos, &mut rng, (&mut escapes, &mut in_check))
        };
        random_positions(0x9E6C_63D0_676A_9A99, &starts, 15, 60, &mut visit);
        random_placements(0x8CB9_2BA7_2F3D_8DD7, 2_000, "QRBNPPrnbpp", &mut visit);
        for (dx, dy, void) in [(1, 0, VoidRule::Fly), (-2, 1, VoidRule::Block)] {
            let geo = Earthquake::new(dx, dy, void);
            let games = orders.map(|order| Game::on(geo.clone(), rules(order)));
            let mut visit = |pos: &Position, _: &MoveList| {
                check(&games, pos, &mut rng, (&mut escapes, &mut in_check))
            };
            crate::test_games::random_positions_on(&geo, 7, &starts, 10, 60, &mut visit);
        }
        assert!(
            escapes > 100_000 && in_check > 8_000,
            "{escapes} {in_check}"
        );
    }

    /// Under Trapdoor (rules.md 1.5, T = 1 and 2, both orders of events): a move that keeps a flight,
    /// judged with the ticking men off the board, does not mate, and after it the
    /// defender has a legal king move that does not let its king fall.
    #[test]
    fn a_kept_flight_survives_the_falls() {
        use crate::game::Rules;
        use crate::trapdoor::{FallOrder, Trapdoor};
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let (mut kept, mut lost) = (0, 0);
        for (timer, order) in [
            (1, FallOrder::MateFirst),
            (1, FallOrder::FallsFirst),
            (2, FallOrder::MateFirst),
            (2, FallOrder::FallsFirst),
        ] {
            let game = Game::new(Rules {
                trapdoor: Some(Trapdoor { timer, order }),
                taxi: None,
            });
            for start in [
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "4k3/8/8/8/8/8/8/R3K2R w - - 0 1",
                "2r1k3/8/8/3q4/8/8/2B5/R2QK2R w - - 0 1",
            ] {
                for _ in 0..40 {
                    let mut pos = parse_fen(start).unwrap();
                    for _ in 0..40 {
                        let moves = game.legal_moves(&pos);
                        if moves.is_empty() {
                            break;
                        }
                        let vanishing = pos.timers().ticking();
                        let flights = free_flights(&Standard, &pos);
                        for &mv in moves.iter() {
                            if !keeps_a_flight(&Standard, &pos, flights, mv, vanishing) {
                                lost += 1;
                                continue;
                            }
                            kept += 1;
                            assert_king_steps_after(&game, &pos, mv);
                        }
                        let played = game.play(&pos, moves[rng.below(moves.len())]);
                        if played.outcome.is_some() {
                            break;
                        }
                        pos = played.position;
                    }
                }
            }
        }
        assert!(kept > 10_000 && lost > 5_000, "{kept} {lost}");
    }

    /// Defences come checks first, then captures, then the rest, each kind in
    /// generation order; under Trapdoor the king's own moves come last. Black's rook
    /// checks from a1 and g2 and takes on a5; the king has three steps.
    #[test]
    fn defences_are_ordered_checks_captures_rest() {
        let pos = parse_fen("7k/8/8/N7/8/8/r7/6K1 b - -").unwrap();
        let ordered = |game: &Game<Standard>| {
            let generated = game.legal_moves(&pos);
            let mut moves = game.legal_moves(&pos);
            sort_defences_by_kind(game, &pos, &mut moves);
            let name = |m: &Move| m.coord(false).to_string();
            let names: Vec<String> = moves.iter().map(name).collect();
            let generated: Vec<String> = generated.iter().map(name).collect();
            (names, generated)
        };
        let (fide, generated) = ordered(&Game::fide());
        assert_eq!(fide.len(), 14);
        let mut checks = fide[..2].to_vec();
        checks.sort();
        assert_eq!(checks, ["a2a1", "a2g2"]);
        assert_eq!(fide[2], "a2a5");
        let rest: Vec<&String> = generated
            .iter()
            .filter(|m| !fide[..3].contains(m))
            .collect();
        assert_eq!(fide[3..].iter().collect::<Vec<_>>(), rest);

        let trapdoor = Game::new(crate::game::Rules {
            trapdoor: Some(crate::trapdoor::Trapdoor {
                timer: 1,
                order: crate::trapdoor::FallOrder::MateFirst,
            }),
            taxi: None,
        });
        let (td, _) = ordered(&trapdoor);
        assert_eq!(td[..3], fide[..3]);
        let mut king: Vec<String> = td[11..].to_vec();
        king.sort();
        assert_eq!(king, ["h8g7", "h8g8", "h8h7"]);
        assert!(td[3..11].iter().all(|m| m.starts_with("a2")));
    }
}
