//! FIDE legal move generation on any geometry: checkers, pins, en passant by trial,
//! castling in standard and Chess960 form.
//!
//! Moves are handed to a `MoveSink` as a from-square with a set of targets, so that
//! counting (perft's bulk leaves) costs a popcount and listing expands them.

use crate::attacks::{attackers, is_attacked, piece_attacks};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::geometry::Geometry;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::{Color, Role, Square};

/// Receives generated moves, grouped by piece.
pub trait MoveSink {
    /// Moves of a non-pawn piece from `from` to each target.
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard);
    /// Single steps and captures of a pawn; targets on the last rank are promotions
    /// (`promo` marks them).
    fn pawn(&mut self, from: Square, targets: Bitboard, promo: Bitboard);
    fn special(&mut self, mv: Move);
    /// Whether the generator may stop (a sink that only asks "is there a move?"). A sink
    /// that overrides or forwards this sets or forwards `STOPS_EARLY` as well, or it
    /// loses the early exit at the king's steps.
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
    /// Whether `done` can become true: the generator then hands on the king's steps one
    /// at a time, asking `done` after each.
    const STOPS_EARLY: bool = false;
    /// The king steps from `king` this sink may keep (a superset of what it keeps): the
    /// generator tests only those for safety, the costly part of a king's moves.
    #[inline(always)]
    fn king_steps_wanted(&self, _king: Square) -> Bitboard {
        Bitboard::FULL
    }
    /// Whether this sink may keep a move of the man of `role` (no king, no pawn) on
    /// `from`: the generator works out the targets only of those it may.
    #[inline(always)]
    fn piece_wanted(&self, _role: Role, _from: Square) -> bool {
        true
    }
}

/// A sink lent to a filter in front of it (such as Taxi's price).
impl<S: MoveSink> MoveSink for &mut S {
    const STOPS_EARLY: bool = S::STOPS_EARLY;
    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        (**self).piece(role, from, targets)
    }
    #[inline(always)]
    fn pawn(&mut self, from: Square, targets: Bitboard, promo: Bitboard) {
        (**self).pawn(from, targets, promo)
    }
    #[inline(always)]
    fn special(&mut self, mv: Move) {
        (**self).special(mv)
    }
    #[inline(always)]
    fn done(&self) -> bool {
        (**self).done()
    }
    #[inline(always)]
    fn king_steps_wanted(&self, king: Square) -> Bitboard {
        (**self).king_steps_wanted(king)
    }
    #[inline(always)]
    fn piece_wanted(&self, role: Role, from: Square) -> bool {
        (**self).piece_wanted(role, from)
    }
}

/// Answers whether any legal move exists, stopping at the first.
#[derive(Default)]
pub struct AnyMove(pub bool);

impl MoveSink for AnyMove {
    const STOPS_EARLY: bool = true;
    #[inline(always)]
    fn piece(&mut self, _: Role, _: Square, targets: Bitboard) {
        self.0 |= targets.is_nonempty();
    }
    #[inline(always)]
    fn pawn(&mut self, _: Square, targets: Bitboard, _: Bitboard) {
        self.0 |= targets.is_nonempty();
    }
    #[inline(always)]
    fn special(&mut self, _: Move) {
        self.0 = true;
    }
    #[inline(always)]
    fn done(&self) -> bool {
        self.0
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(role, from, to, MoveKind::Normal));
        }
    }
    #[inline(always)]
    fn pawn(&mut self, from: Square, targets: Bitboard, promo: Bitboard) {
        pawn_moves(from, targets, promo, |mv| self.push(mv));
    }
    #[inline(always)]
    fn special(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// The moves a sink's `pawn` stands for: a step or capture to each target, four
/// promotions on each target of `promo`.
#[inline(always)]
pub fn pawn_moves(from: Square, targets: Bitboard, promo: Bitboard, mut each: impl FnMut(Move)) {
    for to in targets {
        if promo.contains(to) {
            for role in Role::PROMOTIONS {
                each(Move::new(Role::Pawn, from, to, MoveKind::Promotion(role)));
            }
        } else {
            each(Move::new(Role::Pawn, from, to, MoveKind::Normal));
        }
    }
}

/// Counts moves without listing them.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn piece(&mut self, _: Role, _: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn pawn(&mut self, _: Square, targets: Bitboard, promo: Bitboard) {
        self.0 += (targets - promo).count() as u64 + 4 * (targets & promo).count() as u64;
    }
    #[inline(always)]
    fn special(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Which enemy attacks on a square make it unsafe for a king. In FIDE every attack
/// does; under Taxi only one the enemy can pay for (rules.md 2.2). It is all the
/// generator asks about check, so one generator serves both.
pub trait Threats<G: Geometry> {
    /// Of `attackers`, enemy men attacking `sq`, those whose attack counts.
    fn counting(&self, geo: &G, board: &Board, sq: Square, attackers: Bitboard) -> Bitboard;

    /// Whether an attack of `by` on `sq` that counts exists with `occupied` standing.
    #[inline(always)]
    fn attacked(&self, geo: &G, board: &Board, sq: Square, by: Color, occupied: Bitboard) -> bool {
        self.counting(geo, board, sq, attackers(geo, board, sq, by, occupied))
            .is_nonempty()
    }
}

/// FIDE: every attack is a threat.
pub struct EveryAttack;

impl<G: Geometry> Threats<G> for EveryAttack {
    #[inline(always)]
    fn counting(&self, _: &G, _: &Board, _: Square, attackers: Bitboard) -> Bitboard {
        attackers
    }

    #[inline(always)]
    fn attacked(&self, geo: &G, board: &Board, sq: Square, by: Color, occupied: Bitboard) -> bool {
        is_attacked(geo, board, sq, by, occupied)
    }
}

/// Whether the king of `color` is attacked.
#[inline(always)]
pub fn king_attacked<G: Geometry>(geo: &G, pos: &Position, color: Color) -> bool {
    match pos.board().king(color) {
        Some(k) => is_attacked(geo, pos.board(), k, !color, pos.board().occupied()),
        None => false,
    }
}

/// The men of `us` pinned to their king in FIDE's sense (standing alone between it and
/// an enemy rider aimed at it); none without a king.
pub fn pinned_men<G: Geometry>(geo: &G, pos: &Position, us: Color) -> Bitboard {
    match pos.board().king(us) {
        Some(king) => pinned(geo, pos, &EveryAttack, us, king),
        None => Bitboard::EMPTY,
    }
}

/// Own pieces standing alone between the king and an enemy rider aimed at it whose
/// attack would count.
#[inline(always)]
fn pinned<G: Geometry, T: Threats<G>>(
    geo: &G,
    pos: &Position,
    threats: &T,
    us: Color,
    king: Square,
) -> Bitboard {
    let board = pos.board();
    let them = board.by_color(!us);
    let occupied = board.occupied();
    let aimed = ((geo.rook_attacks(king, them) & board.rooks_and_queens())
        | (geo.bishop_attacks(king, them) & board.bishops_and_queens()))
        & them;
    let snipers = threats.counting(geo, board, king, aimed);
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = geo.between(king, sniper) & occupied;
        if !blockers.more_than_one() {
            pinned |= blockers & board.by_color(us);
        }
    }
    pinned
}

/// Generates every FIDE-legal move of the side to move into `sink`.
/// A side without a king (never in a valid position) gets no moves.
#[inline(always)]
pub fn generate<G: Geometry, S: MoveSink>(geo: &G, pos: &Position, sink: &mut S) {
    generate_with(geo, pos, &EveryAttack, sink)
}

/// Generates every move of the side to move that is legal by movement and by
/// `threats`: it must not leave the own king to an attack that counts. The price of
/// a Taxi move is the caller's filter.
#[inline(always)]
pub fn generate_with<G: Geometry, T: Threats<G>, S: MoveSink>(
    geo: &G,
    pos: &Position,
    threats: &T,
    sink: &mut S,
) {
    let board = pos.board();
    let us = pos.turn();
    let them = !us;
    let Some(king) = board.king(us) else {
        return;
    };
    let ours = board.by_color(us);
    let theirs = board.by_color(them);
    let occupied = ours | theirs;
    let squares = geo.squares();

    // King steps: judged with the king off the board, so it cannot hide behind itself.
    let without_king = occupied.without(king);
    let mut king_targets = Bitboard::EMPTY;
    for to in (geo.king_attacks(king) - ours) & sink.king_steps_wanted(king) {
        if threats.attacked(geo, board, to, them, without_king) {
            continue;
        }
        if S::STOPS_EARLY {
            // A sink that asks for one move is offered each safe step as soon as it is
            // found: the first it takes ends the search before the other steps are
            // judged and before the checkers are worked out.
            sink.piece(Role::King, king, Bitboard::from_square(to));
            if sink.done() {
                return;
            }
        } else {
            king_targets.set(to);
        }
    }
    if !S::STOPS_EARLY {
        sink.piece(Role::King, king, king_targets);
    }

    let checkers = threats.counting(
        geo,
        board,
        king,
        attackers(geo, board, king, them, occupied),
    );
    if checkers.more_than_one() || sink.done() {
        return;
    }
    // Targets that answer a single check: capture the checker or block its ride.
    let target = match checkers.first() {
        Some(checker) => geo.between(king, checker) | checkers,
        None => squares - ours,
    };
    let pinned = pinned(geo, pos, threats, us, king);

    let knights = board.by_piece(us, Role::Knight) - pinned;
    for from in knights {
        if sink.piece_wanted(Role::Knight, from) {
            sink.piece(Role::Knight, from, geo.knight_attacks(from) & target);
        }
    }
    if sink.done() {
        return;
    }
    // One loop per rider, each with its own attack function: a loop over the roles
    // dispatched on the role at every piece through a jump table the processor often
    // mispredicted.
    let ride = |sink: &mut S, role: Role, from: Square, attacks: Bitboard| {
        let mut t = attacks & target;
        if pinned.contains(from) {
            t &= geo.line(king, from);
        }
        sink.piece(role, from, t);
    };
    for from in board.by_piece(us, Role::Bishop) {
        if sink.piece_wanted(Role::Bishop, from) {
            ride(sink, Role::Bishop, from, geo.bishop_attacks(from, occupied));
        }
    }
    for from in board.by_piece(us, Role::Rook) {
        if sink.piece_wanted(Role::Rook, from) {
            ride(sink, Role::Rook, from, geo.rook_attacks(from, occupied));
        }
    }
    for from in board.by_piece(us, Role::Queen) {
        if sink.piece_wanted(Role::Queen, from) {
            ride(sink, Role::Queen, from, geo.queen_attacks(from, occupied));
        }
    }
    if sink.done() {
        return;
    }

    // Pawns.
    let empty = squares - occupied;
    let last_rank = Bitboard::rank(us.fold(7, 0));
    let second_rank = Bitboard::rank(us.fold(1, 6));
    for from in board.by_piece(us, Role::Pawn) {
        let (t, double) = pawn_targets(geo, us, from, empty, theirs, second_rank);
        let (mut t, mut double) = (t & target, double & target);
        if pinned.contains(from) {
            let line = geo.line(king, from);
            t &= line;
            double &= line;
        }
        sink.pawn(from, t, last_rank);
        if let Some(to) = double.first() {
            sink.special(Move::new(Role::Pawn, from, to, MoveKind::DoublePush));
        }
    }

    // En passant: tried on the board, since it can uncover a ride along two squares.
    if let Some(ep) = pos.ep_square() {
        let victim_bb = geo.pawn_step(them, ep);
        let victim_ok =
            (victim_bb & board.by_piece(them, Role::Pawn)).is_nonempty() && empty.contains(ep);
        if victim_ok {
            let victim = victim_bb.single();
            for from in geo.pawn_attacks(them, ep) & board.by_piece(us, Role::Pawn) {
                let occ_after = (occupied - Bitboard::from_square(from) - victim_bb).with(ep);
                let attackers_after =
                    attackers(geo, board, king, them, occ_after) - Bitboard::from_square(victim);
                let attackers_after = threats.counting(geo, board, king, attackers_after);
                if attackers_after.is_empty() {
                    sink.special(Move::new(Role::Pawn, from, ep, MoveKind::EnPassant));
                }
            }
        }
    }

    if checkers.is_empty() {
        generate_castling(geo, pos, threats, us, king, sink);
    }
}

#[inline(always)]
fn generate_castling<G: Geometry, T: Threats<G>, S: MoveSink>(
    geo: &G,
    pos: &Position,
    threats: &T,
    us: Color,
    king: Square,
    sink: &mut S,
) {
    let back_rank = Bitboard::rank(us.fold(0, 7));
    let rooks = pos.castling() & back_rank & pos.board().by_piece(us, Role::Rook);
    if rooks.is_empty() || !back_rank.contains(king) {
        return;
    }
    let board = pos.board();
    let occupied = board.occupied();
    for rook in rooks {
        let mv = Move::new(Role::King, king, rook, MoveKind::Castle);
        let king_to = mv.castle_king_to();
        let rook_to = mv.castle_rook_to();
        let others = occupied - Bitboard::from_square(king) - Bitboard::from_square(rook);
        // Castling goes by the named squares of the back rank (rules.md 3.6); on a
        // displaced board they must all exist.
        let path = rank_span(king, king_to) | Bitboard::from_square(king_to);
        let must_be_empty = path | rank_span(rook, rook_to) | Bitboard::from_square(rook_to);
        if (must_be_empty & others).is_nonempty() || (must_be_empty - geo.squares()).is_nonempty() {
            continue;
        }
        // Judged without king and rook, so a rook that shielded the king's path (Chess960)
        // does not hide an attack it will no longer block.
        if path
            .into_iter()
            .all(|sq| !threats.attacked(geo, board, sq, !us, others))
        {
            sink.special(mv);
        }
    }
}

/// Generates every pseudo-legal move of the side to move: FIDE movement without regard
/// to the own king's safety, and castling with king and rook at home and their paths
/// empty (whether the king passes through an attack is the caller's question). The
/// starting point of a rule's move-by-move definition, against which the tests check
/// the generator (Taxi).
pub fn generate_pseudo<G: Geometry, S: MoveSink>(geo: &G, pos: &Position, sink: &mut S) {
    let board = pos.board();
    let us = pos.turn();
    let them = !us;
    let ours = board.by_color(us);
    let theirs = board.by_color(them);
    let occupied = ours | theirs;
    let squares = geo.squares();
    let empty = squares - occupied;
    for from in board.by_piece(us, Role::King) {
        sink.piece(Role::King, from, geo.king_attacks(from) - ours);
    }
    for from in board.by_piece(us, Role::Knight) {
        sink.piece(Role::Knight, from, geo.knight_attacks(from) - ours);
    }
    for from in board.by_piece(us, Role::Bishop) {
        sink.piece(
            Role::Bishop,
            from,
            geo.bishop_attacks(from, occupied) - ours,
        );
    }
    for from in board.by_piece(us, Role::Rook) {
        sink.piece(Role::Rook, from, geo.rook_attacks(from, occupied) - ours);
    }
    for from in board.by_piece(us, Role::Queen) {
        sink.piece(Role::Queen, from, geo.queen_attacks(from, occupied) - ours);
    }
    let last_rank = Bitboard::rank(us.fold(7, 0));
    let second_rank = Bitboard::rank(us.fold(1, 6));
    for from in board.by_piece(us, Role::Pawn) {
        let (t, double) = pawn_targets(geo, us, from, empty, theirs, second_rank);
        sink.pawn(from, t, last_rank);
        if let Some(to) = double.first() {
            sink.special(Move::new(Role::Pawn, from, to, MoveKind::DoublePush));
        }
    }
    if let Some(ep) = pos.ep_square() {
        let victim = geo.pawn_step(them, ep) & board.by_piece(them, Role::Pawn);
        if victim.is_nonempty() && empty.contains(ep) {
            for from in geo.pawn_attacks(them, ep) & board.by_piece(us, Role::Pawn) {
                sink.special(Move::new(Role::Pawn, from, ep, MoveKind::EnPassant));
            }
        }
    }
    if let Some(king) = board.king(us) {
        let back_rank = Bitboard::rank(us.fold(0, 7));
        if back_rank.contains(king) {
            for rook in pos.castling() & back_rank & board.by_piece(us, Role::Rook) {
                let mv = Move::new(Role::King, king, rook, MoveKind::Castle);
                let others = occupied - Bitboard::from_square(king) - Bitboard::from_square(rook);
                let path = rank_span(king, mv.castle_king_to())
                    | Bitboard::from_square(mv.castle_king_to());
                let must_be_empty = path
                    | rank_span(rook, mv.castle_rook_to())
                    | Bitboard::from_square(mv.castle_rook_to());
                if (must_be_empty & others).is_empty() && (must_be_empty - squares).is_empty() {
                    sink.special(mv);
                }
            }
        }
    }
}

/// The squares the king crosses when castling with `mv` (its destination included).
pub fn castling_path(mv: Move) -> Bitboard {
    rank_span(mv.from, mv.castle_king_to()) | Bitboard::from_square(mv.castle_king_to())
}

/// Squares of `a`'s rank strictly between the files of `a` and `b`.
#[inline(always)]
fn rank_span(a: Square, b: Square) -> Bitboard {
    let (lo, hi) = if a.file() < b.file() {
        (a.file(), b.file())
    } else {
        (b.file(), a.file())
    };
    // Files lo+1 .. hi-1 of the rank.
    let files = ((1u64 << hi) - 1) & !((2u64 << lo) - 1);
    Bitboard((files & 0xFF) << (8 * a.rank()))
}

/// A pawn's moves by geometry alone, before checks and pins: its single steps and
/// captures, and its double step (from `second_rank`, both squares empty).
#[inline(always)]
fn pawn_targets<G: Geometry>(
    geo: &G,
    us: Color,
    from: Square,
    empty: Bitboard,
    theirs: Bitboard,
    second_rank: Bitboard,
) -> (Bitboard, Bitboard) {
    let step = geo.pawn_step(us, from) & empty;
    let double = if step.is_nonempty() && second_rank.contains(from) {
        geo.pawn_step(us, step.single()) & empty
    } else {
        Bitboard::EMPTY
    };
    (step | (geo.pawn_attacks(us, from) & theirs), double)
}

/// Whether `mv`, a move remembered from another position (a killer), is legal here.
/// Decided directly for ordinary moves and double steps, by generation for the rare
/// kinds.
pub fn is_legal<G: Geometry>(geo: &G, pos: &Position, mv: Move) -> bool {
    is_legal_with(geo, pos, &EveryAttack, mv)
}

/// `is_legal` where only the attacks `threats` counts make a king unsafe.
pub fn is_legal_with<G: Geometry, T: Threats<G>>(
    geo: &G,
    pos: &Position,
    threats: &T,
    mv: Move,
) -> bool {
    if !matches!(mv.kind, MoveKind::Normal | MoveKind::DoublePush) {
        let mut list = MoveList::new();
        generate_with(geo, pos, threats, &mut list);
        return list.contains(&mv);
    }
    let board = pos.board();
    let us = pos.turn();
    if !board.by_piece(us, mv.role).contains(mv.from) || board.by_color(us).contains(mv.to) {
        return false;
    }
    let occupied = board.occupied();
    let empty = geo.squares() - occupied;
    let reachable = match (mv.kind, mv.role) {
        (MoveKind::Normal, Role::Pawn) => {
            if Bitboard::rank(us.fold(7, 0)).contains(mv.to) {
                // There it would be a promotion.
                return false;
            }
            pawn_targets(
                geo,
                us,
                mv.from,
                empty,
                board.by_color(!us),
                Bitboard::EMPTY,
            )
            .0
        }
        (MoveKind::Normal, role) => piece_attacks(geo, role, us, mv.from, occupied) & geo.squares(),
        (MoveKind::DoublePush, Role::Pawn) => {
            let second_rank = Bitboard::rank(us.fold(1, 6));
            pawn_targets(geo, us, mv.from, empty, board.by_color(!us), second_rank).1
        }
        _ => return false,
    };
    if !reachable.contains(mv.to) {
        return false;
    }
    // The king's safety after the move, judged on the board before it: the mover's
    // squares swapped in the occupancy, a man captured on `to` no longer attacking.
    let king = match mv.role {
        Role::King => mv.to,
        _ => match board.king(us) {
            Some(k) => k,
            None => return true,
        },
    };
    let to = Bitboard::from_square(mv.to);
    let occupied_after = occupied.without(mv.from) | to;
    let checkers = attackers(geo, board, king, !us, occupied_after) - to;
    threats.counting(geo, board, king, checkers).is_empty()
}

/// All FIDE-legal moves of the side to move.
pub fn legal_moves<G: Geometry>(geo: &G, pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(geo, pos, &mut list);
    list
}

/// Whether the side to move has a FIDE-legal move.
#[inline(always)]
pub fn has_legal_move<G: Geometry>(geo: &G, pos: &Position) -> bool {
    let mut any = AnyMove(false);
    generate(geo, pos, &mut any);
    any.0
}

/// Number of FIDE-legal moves of the side to move.
#[inline(always)]
pub fn count_legal<G: Geometry>(geo: &G, pos: &Position) -> u64 {
    let mut counter = MoveCounter(0);
    generate(geo, pos, &mut counter);
    counter.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_fen;
    use crate::geometry::Standard;

    /// `is_legal` against generation: every move of every position of random games,
    /// offered to the positions that follow (where many are no longer legal); on the
    /// standard board and on displaced Earthquake boards of both void rules.
    #[test]
    fn killer_legality_equals_generation() {
        use crate::geometry::{Earthquake, VoidRule};
        let mut rng = crate::test_rng::Rng(0x0123_4567_89AB_CDEFu64);
        let counts = killer_legality_on(&Standard, &mut rng, 60);
        assert!(counts.0 > 10_000 && counts.1 > 10_000, "{counts:?}");
        for (dx, dy, void) in [
            (1, 0, VoidRule::Block),
            (0, -1, VoidRule::Fly),
            (2, -2, VoidRule::Fly),
        ] {
            let counts = killer_legality_on(&Earthquake::new(dx, dy, void), &mut rng, 20);
            assert!(
                counts.0 > 3_000 && counts.1 > 3_000,
                "({dx}, {dy}): {counts:?}"
            );
        }
    }

    /// `killer_legality_equals_generation` on `geo`, `games` random games from each
    /// start: the counts of remembered moves found legal and illegal.
    fn killer_legality_on<G: Geometry>(
        geo: &G,
        rng: &mut crate::test_rng::Rng,
        games: usize,
    ) -> (usize, usize) {
        let (mut legal, mut illegal) = (0, 0);
        for start in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            for _ in 0..games {
                let mut pos = parse_fen(start).unwrap();
                let mut remembered: Vec<Move> = Vec::new();
                for _ in 0..60 {
                    let moves = legal_moves(geo, &pos);
                    for &mv in &remembered {
                        let want = moves.contains(&mv);
                        assert_eq!(
                            is_legal(geo, &pos, mv),
                            want,
                            "{mv:?} in {}",
                            crate::fen::write_fen(&pos)
                        );
                        legal += want as usize;
                        illegal += !want as usize;
                    }
                    if moves.is_empty() {
                        break;
                    }
                    // Remember this side's moves for its next turn.
                    remembered = moves.iter().copied().collect();
                    let mv = moves[rng.below(moves.len())];
                    pos.play_board(geo, mv);
                    let replies = legal_moves(geo, &pos);
                    if replies.is_empty() {
                        break;
                    }
                    pos.play_board(geo, replies[rng.below(replies.len())]);
                }
            }
        }
        (legal, illegal)
    }
}
