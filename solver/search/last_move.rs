//! The attacker's last move: which moves can mate, found without playing every move.
//! Shared by the direct-mate solver (`Searcher::attack_last`) and help play, whose last
//! move must mate (`mating_moves`).
//!
//! Every filter here is exact: a move is left out only when the rules make it unable to
//! mate (it gives no check in P nor after the falls, it leaves the king a flight, or the
//! king has a step safe before and after the falls). The brute-force tests of
//! `crate::search` hold them against playing every move.

use super::order::{
    free_flights, CheckCandidates, CheckInfo, FallChecks, FlightCover, Flights, KingEscapes,
};
use crate::bitboard::Bitboard;
use crate::game::Game;
use crate::geometry::{Geometry, Terrain};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::{Role, Square};

/// `order::KingEscapes` for the attacker's last moves from `pos`, judged with the
/// men `flights` has vanishing; `None` under Taxi (a king's step must be paid for)
/// and on a board that shifts (whose `flights` know no vanishing men).
pub fn king_escapes<'g, T: Terrain>(
    game: &'g Game<T>,
    pos: &Position,
    flights: &Flights,
) -> Option<KingEscapes<'g, T::Geo>> {
    if game.rules.taxi.is_some() || game.terrain.shifts() {
        return None;
    }
    KingEscapes::new(game.geo(pos), pos, flights.vanishing)
}

/// The defender's flights for the attacker's last move (`order::Flights`): under
/// Taxi only the steps the defender can pay for; none under Taxi with Trapdoor, or
/// with aftershocks (which move the board).
pub fn flights<T: Terrain>(game: &Game<T>, pos: &Position) -> Flights {
    if game.terrain.shifts() {
        return Flights::default();
    }
    let geo = game.geo(pos);
    let free = || free_flights(geo, pos);
    match (&game.rules.taxi, game.rules.trapdoor) {
        (None, None) => Flights {
            free: free(),
            vanishing: Bitboard::EMPTY,
        },
        (None, Some(_)) => Flights {
            free: free(),
            vanishing: pos.timers().ticking(),
        },
        (Some(taxi), None) => match pos.board().king(!pos.turn()) {
            Some(_) => {
                let budget = crate::taxi::next_turn_budget(pos, !pos.turn(), taxi);
                Flights {
                    free: crate::taxi::affordable_king_steps(pos.board(), free(), budget),
                    vanishing: Bitboard::EMPTY,
                }
            }
            None => Flights::default(),
        },
        (Some(_), Some(_)) => Flights::default(),
    }
}

/// Under Trapdoor or Taxi rules, which attacker's last moves can win. A win needs
/// mate (so a check in P or, after the falls, in P') unless the defender's king can
/// fall. A check in P' that was not one in P is a rider of ours whose line to the
/// king the falls clear: the rider arrives beyond a falling man, or stands there and
/// the move takes the one other man off its line. Returns `None` when every move
/// must be tried (the defender's king may fall, only falling men stand between a
/// rider and the king, or aftershocks are played), else those moves (`FallChecks`).
pub fn last_ply_shortcut<T: Terrain>(game: &Game<T>, pos: &Position) -> Option<FallChecks> {
    let king = pos.board().king(!pos.turn())?;
    if pos.timers().get(king).is_some_and(|r| r <= 1) {
        return None;
    }
    fall_checks(game, pos)
}

/// `last_ply_shortcut` where the defender's king may fall as well: where the attacker's
/// moves may give check in P or, after the falls, in P' (`None`: every move may, or
/// aftershocks are played).
pub fn fall_checks<T: Terrain>(game: &Game<T>, pos: &Position) -> Option<FallChecks> {
    if game.terrain.shifts() {
        return None;
    }
    let geo = game.geo(pos);
    let board = pos.board();
    let us = pos.turn();
    let king = board.king(!us)?;
    // Taxi: a rider that already attacks the king, too dear to be a check now, becomes
    // one after any move cheap enough to save the money (rules.md 2.2). With cash for
    // any ride there is no such rider: its attack would be a check, and the side not
    // to move is never in check.
    if game.rules.taxi.is_some() && crate::taxi::saved_coin_may_check(geo, pos) {
        return None;
    }
    let expiring = crate::trapdoor::Trapdoor::expiring(pos, us, Bitboard::EMPTY);
    let mut falls = FallChecks::default();
    let orthogonal = geo.rook_attacks(king, Bitboard::EMPTY);
    let diagonal = geo.bishop_attacks(king, Bitboard::EMPTY);
    let ours = board.by_color(us);
    for x in expiring & (orthogonal | diagonal) {
        let line = geo.line(king, x);
        let beyond = line
            .filter(|&s| geo.between(king, s).contains(x))
            .fold(Bitboard::EMPTY, |b, s| b.with(s));
        let (i, riders) = if orthogonal.contains(x) {
            (0, board.rooks_and_queens())
        } else {
            (1, board.bishops_and_queens())
        };
        falls.arrivals[i] |= beyond;
        for rider in beyond & riders & ours {
            // The move can clear one man off the line (its own): with two others
            // left, or one of the defender's (taking it puts ours there; en
            // passant, the one exception, is always a candidate), it stays shut.
            let staying = (geo.between(king, rider) & board.occupied()) - expiring;
            if staying.is_empty() {
                return None;
            }
            if !staying.more_than_one() {
                falls.discoverers |= staying & ours;
            }
        }
    }
    Some(falls)
}

/// The legal moves of the side to move in `pos` that may give check in P, or once the
/// falls of `falls` have happened, and that may take every free flight of `flights`
/// (pawn moves are all kept; `keeps_a_flight` judges them one by one), into `out`.
/// Under Taxi a legal move need not be FIDE-legal (it may leave the own king to an
/// attack the opponent cannot pay for), nor falls first (the own king may fall and not
/// be judged): the game's generator, then the game's legality.
pub fn check_candidates<T: Terrain>(
    game: &Game<T>,
    pos: &Position,
    falls: FallChecks,
    flights: &Flights,
    out: &mut MoveList,
) {
    let geo = game.geo(pos);
    let info = CheckInfo::with_king_checks(geo, pos, game.rules.taxi.is_some());
    let cover = flights
        .free
        .is_nonempty()
        .then(|| FlightCover::new(geo, pos, flights));
    game.generate_base(
        pos,
        &mut CheckCandidates {
            geo,
            info: &info,
            out,
            falls,
            flights: cover,
        },
    );
    if !game.is_plain() {
        game.retain_legal(pos, out);
    }
}

/// Every legal move of the side to move in `pos` that checkmates (rules.md 1.5 under
/// Trapdoor: mate first, or after the falls), appended to `out` in generation order. A
/// move that only lets the opponent's king fall is not among them: help play asks for
/// mate (rules.md 8.2).
pub fn mating_moves<T: Terrain>(game: &Game<T>, pos: &Position, out: &mut MoveList) {
    let geo = game.geo(pos);
    let fide = game.is_plain();
    let shortcut = if fide {
        Some(FallChecks::default())
    } else {
        last_ply_shortcut(game, pos)
    };
    let mut candidates = MoveList::new();
    let flights = flights(game, pos);
    match shortcut {
        Some(falls) => check_candidates(game, pos, falls, &flights, &mut candidates),
        // The defender's king may fall, a fall may uncover a rider, or the board
        // shifts: every legal move is a candidate.
        None => game.legal_moves_into(pos, &mut candidates),
    }
    if candidates.is_empty() {
        return;
    }
    let escapes = if fide {
        None
    } else {
        king_escapes(game, pos, &flights)
    };
    for &mv in candidates.iter() {
        if flights.kept_by(geo, pos, mv) || escapes.as_ref().is_some_and(|e| e.after(mv)) {
            continue;
        }
        let mates = if fide {
            // Under FIDE rules the candidates are the check candidates: the ordinary
            // moves among them are known checks.
            super::fide_mates(geo, pos, mv, matches!(mv.kind, MoveKind::Normal))
        } else {
            game.mates(pos, mv)
        };
        if mates {
            out.push(mv);
        }
    }
}

/// The attacker's legal moves of a self-mate's last round (`s#1`, the attacker to move
/// in `pos`) after which the defender may have nothing but moves that mate the
/// attacker, into `out`; `false` (and `out` untouched) when every legal move must be
/// tried: a board that shifts, a king missing, the attacker in
/// check (under Taxi or Trapdoor either king attacked, or a check waiting behind
/// falling men alone), or no reply of the defender's to judge by (no quiet reply, no checkless
/// king's step). An attacker without a legal move (stalemated: a draw, no win for
/// anyone) gets an empty list.
///
/// A move W is left out when the defender has a reply R, listed in `pos` with the turn
/// passed, that is legal there and gives no check, and that W cannot touch. R is an
/// ordinary man's move (no king, castling, en passant or promotion); what decides
/// whether R stays legal and checkless after W lies on the squares `reply_squares`
/// names (its path, the lines through its start to both kings, the line from its
/// arrival to the attacker's king). A W that is no king's move, gives no check, takes
/// no man en passant and neither leaves nor enters one of those squares changes none of
/// it: R is then a legal reply that ends nothing, and W fails (rules.md 8.3). A W is
/// left out too when the defender's king keeps a legal step that uncovers no check:
/// judged unplayed where the step's deciding squares show it (`KingSteps`), else on
/// the board after W (`checkless_king_step_after`).
pub fn self_mate_candidates<T: Terrain>(
    game: &Game<T>,
    pos: &Position,
    out: &mut MoveList,
) -> bool {
    self_mate_candidates_where(game, pos, Captures::EndTheRound, out)
}

/// What a capture does to the last round of a self-mate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Captures {
    /// Nothing: the defender's reply ends the round, a capture or not (the games of
    /// one board).
    EndTheRound,
    /// A capture prolongs the round (on Underworld's World the man taken drops onto the
    /// Underworld and may wake it, rules.md 4.1, 4.3): only a reply that takes nothing
    /// is an escape, and every capture of the attacker's is a candidate.
    ProlongTheRound,
}

/// `self_mate_candidates` where `captures` says what a capture does to the round.
pub fn self_mate_candidates_where<T: Terrain>(
    game: &Game<T>,
    pos: &Position,
    captures: Captures,
    out: &mut MoveList,
) -> bool {
    // Compiled apart, so that the games of one board pay nothing for the other mode.
    match captures {
        Captures::EndTheRound => candidates::<T, false>(game, pos, out),
        Captures::ProlongTheRound => candidates::<T, true>(game, pos, out),
    }
}

/// `self_mate_candidates_where`, a capture prolonging the round where `PROLONG`.
///
/// Under Taxi (on a fixed board, no Trapdoor) the same filter holds with prices, as the
/// attacker's move W changes neither the defender's cash nor, where it touches none of
/// a reply's squares, the reply's price (its travel and the fee where it ends): a
/// reply that is FIDE-legal, gives no FIDE check and is affordable stays all three
/// after W, so it is legal (no attack at all on its king) and no check (rules.md 2.2)
/// there too, and W fails. The king's steps are priced the same way. W itself may be
/// legal only by Taxi's check (an attack the defender cannot pay for): the lemmas ask
/// for a W that is FIDE-legal, so the moves of men pinned in FIDE's sense are kept
/// unjudged where the defender cannot pay for every attack, and the king's steps,
/// castling and en passant are judged on the board after W. Both kings must stand
/// unattacked in FIDE's sense, as the lemmas were proved for.
///
/// Under Trapdoor (on a fixed board) the replies are judged with their falls
/// (`trapdoor_replies`), W is kept where it may give check once its own falling men
/// have gone (`fall_checks`), and every move that only a king's step would refute is
/// kept (the falls decide the steps), as are castling, en passant and promotions.
/// Both together: the replies judged with their falls by the game, prices and Taxi's
/// check included (W only makes the attacker poorer, so an attack too dear before it
/// stays so), and the men pinned once the attacker's falling men have gone kept
/// unjudged.
fn candidates<T: Terrain, const PROLONG: bool>(
    game: &Game<T>,
    pos: &Position,
    out: &mut MoveList,
) -> bool {
    let geo = game.geo(pos);
    let board = pos.board();
    let us = pos.turn();
    let taxi = game.rules.taxi.as_ref();
    let falling = game.rules.trapdoor.is_some();
    if game.is_plain() {
        if game.in_check(pos) {
            return false;
        }
    } else if game.terrain.shifts()
        || crate::movegen::king_attacked(geo, pos, us)
        || crate::movegen::king_attacked(geo, pos, !us)
    {
        return false;
    }
    let (Some(our_king), Some(their_king)) = (board.king(us), board.king(!us)) else {
        return false;
    };
    // Under Trapdoor, where the attacker's move may check once its falling men have
    // gone (`None`: a check waits behind falling men alone).
    let falls = if falling {
        match fall_checks(game, pos) {
            Some(falls) => falls,
            None => return false,
        }
    } else {
        FallChecks::default()
    };
    // Under Taxi, what the defender can pay at its turn.
    let budget = taxi.map_or(u32::MAX, |taxi| {
        crate::taxi::next_turn_budget(pos, !us, taxi)
    });
    let mut passed = *pos;
    passed.pass();
    // The position the replies are judged in under Trapdoor: the turn passed, the
    // attacker's men that fall at the end of its move gone (its king aside: a move
    // that lets it fall loses), as after any move that does not move them, and under
    // Taxi the defender holding what it holds at its turn.
    let fallen = if falling {
        let mut fallen = passed;
        for s in crate::trapdoor::Trapdoor::expiring(pos, us, Bitboard::from_square(our_king)) {
            fallen.remove_piece(s);
        }
        if taxi.is_some() {
            fallen.set_cash(!us, budget);
        }
        fallen
    } else {
        passed
    };
    // Under Taxi, the attacker's men whose moves may be legal only by Taxi's check
    // (pinned in FIDE's sense, once its falling men have gone), kept unjudged.
    let unjudged = match taxi {
        Some(taxi) if !crate::taxi::attacks_affordable(geo, pos, taxi) => {
            crate::movegen::pinned_men(geo, &fallen, us)
        }
        _ => Bitboard::EMPTY,
    };
    let reply_info = CheckInfo::new(geo, &passed);
    // Where a capture prolongs the round, the squares a reply may arrive on (a capture
    // is no escape) and the arrivals every attacker's move onto is kept.
    let (arrivals, always) = if PROLONG {
        (!board.occupied(), board.by_color(!us))
    } else {
        (Bitboard::FULL, Bitboard::EMPTY)
    };
    let mut replies = QuietReplies::<_, PROLONG> {
        geo,
        info: &reply_info,
        passed: &passed,
        kings: (our_king, their_king),
        arrivals,
        squares: [Bitboard::EMPTY; QUIET_REPLIES_KEPT],
        len: 0,
    };
    if falling {
        trapdoor_replies(game, &fallen, &mut replies);
    } else if taxi.is_some() {
        let mut affordable = crate::taxi::Affordable::new(geo, board, budget, replies);
        crate::movegen::generate(geo, &passed, &mut affordable);
        replies = affordable.inner;
    } else {
        crate::movegen::generate(geo, &passed, &mut replies);
    }
    let untouchable = &mut replies.squares[..replies.len];
    // The replies that depend on the fewest squares first: most moves miss them.
    untouchable.sort_unstable_by_key(|s| s.count());
    // Under Trapdoor the falls at the end of the king's step decide it: no step is
    // judged unplayed.
    let step_arrivals = if falling {
        Bitboard::EMPTY
    } else if taxi.is_some() {
        arrivals & affordable_king_steps(geo, board, their_king, budget)
    } else {
        arrivals
    };
    let steps = KingSteps::new(geo, pos, step_arrivals);
    if untouchable.is_empty() && steps.len == 0 {
        return false;
    }
    let info = CheckInfo::new(geo, pos);
    macro_rules! sink {
        ($priced:expr, $falls:expr) => {
            Candidates::<_, PROLONG, $priced, $falls> {
                geo,
                pos,
                info: &info,
                untouchable,
                steps: &steps,
                always,
                unjudged,
                budget,
                falls,
                out,
            }
        };
    }
    // Compiled apart, so that FIDE's filter pays nothing for prices and falls. The
    // game's generator prices the moves and judges Taxi's check; the falls' part of
    // legality is left to the game.
    match (taxi.is_some(), falling) {
        (false, false) => crate::movegen::generate(geo, pos, &mut sink!(false, false)),
        (true, false) => game.generate_base(pos, &mut sink!(true, false)),
        (false, true) => {
            game.generate_base(pos, &mut sink!(false, true));
            game.retain_legal(pos, out);
        }
        (true, true) => {
            game.generate_base(pos, &mut sink!(true, true));
            game.retain_legal(pos, out);
        }
    }
    true
}

/// Under Trapdoor, the defender's quiet replies into `replies`, each with the squares
/// that decide it (`reply_squares`, and the squares of the defender's men that fall at
/// the end of its move with the lines through them to both kings: a fall may open
/// one). The replies are judged with the turn passed and the attacker's men that fall
/// at the end of its move gone (its king aside: a move that lets it fall loses), as
/// they are after any attacker's move that does not move them: a reply is kept when it
/// is an ordinary man's move that gives no check, is legal there and, played out with
/// its falls, mates nobody and leaves the attacker's king unattacked (the defender's
/// own king may fall: the defender then loses, which refutes a self-mate as well). An
/// attacker's move that touches none of a kept reply's squares, and may give check
/// neither before nor after its own falls, changes nothing the reply's legality and
/// checklessness read: the lines onto both kings opened by the reply, its falls and
/// the attacker's move all pass through those squares.
fn trapdoor_replies<T: Terrain, const PROLONG: bool>(
    game: &Game<T>,
    fallen: &Position,
    replies: &mut QuietReplies<'_, T::Geo, PROLONG>,
) {
    let geo = replies.geo;
    let (our_king, their_king) = replies.kings;
    let us = !fallen.turn();
    let defender_falls = crate::trapdoor::Trapdoor::expiring(fallen, !us, Bitboard::EMPTY);
    let fall_lines = defender_falls.fold(defender_falls, |lines, s| {
        lines | geo.line(their_king, s) | geo.line(our_king, s)
    });
    let info = CheckInfo::new(geo, fallen);
    for &r in crate::movegen::legal_moves(geo, fallen).iter() {
        if replies.len == QUIET_REPLIES_KEPT {
            return;
        }
        if r.role == Role::King
            || !matches!(r.kind, MoveKind::Normal | MoveKind::DoublePush)
            || (PROLONG && !replies.arrivals.contains(r.to))
            || info.gives_check(geo, fallen, r)
            || game.is_legal_quick(fallen, r) != Some(true)
        {
            continue;
        }
        // A mate leaves the attacker's king attacked where the play ends (before the
        // falls, or after them): the one test serves.
        let played = game.play(fallen, r);
        if !crate::movegen::king_attacked(geo, &played.position, us) {
            replies.squares[replies.len] = reply_squares(geo, r, our_king, their_king) | fall_lines;
            replies.len += 1;
        }
    }
}

/// The squares next to the king on `king` it can pay to step to with `budget`
/// (rules.md 2.1: a step 1, a capture the fee besides); every one with `u32::MAX`.
#[inline(always)]
fn affordable_king_steps<G: Geometry>(
    geo: &G,
    board: &crate::board::Board,
    king: Square,
    budget: u32,
) -> Bitboard {
    let next = geo.king_attacks(king);
    if budget >= crate::taxi::DEAREST_KING_STEP {
        next
    } else {
        crate::taxi::affordable_king_steps(board, next, budget)
    }
}

/// Receives the attacker's legal moves of `self_mate_candidates` and keeps, into
/// `out`, those no quiet reply or king's step of the defender's refutes unplayed: a
/// man's targets are cut to the squares that touch every reply its leaving does not
/// (and those where it may give check) before any move is made of them. The generator
/// is asked for no more: a man none of whose moves on an empty board would be kept
/// is passed over, and a king's step that leaves the defender's king a step surely
/// standing is not tested for safety.
struct Candidates<'a, G: Geometry, const PROLONG: bool, const PRICED: bool, const FALLS: bool> {
    geo: &'a G,
    pos: &'a Position,
    info: &'a CheckInfo,
    untouchable: &'a [Bitboard],
    steps: &'a KingSteps,
    /// Arrivals kept unjudged (captures, where a capture prolongs the round).
    always: Bitboard,
    /// The men whose moves are kept unjudged (under Taxi, those that may be legal only
    /// by Taxi's check).
    unjudged: Bitboard,
    /// What the defender can pay for its king's step (`u32::MAX` under FIDE rules).
    budget: u32,
    /// Under Trapdoor, where the attacker's move may give check once its falling men
    /// have gone.
    falls: FallChecks,
    out: &'a mut MoveList,
}

impl<G: Geometry, const PROLONG: bool, const PRICED: bool, const FALLS: bool>
    Candidates<'_, G, PROLONG, PRICED, FALLS>
{
    /// The arrivals that, with a move from `from`, touch every reply's squares.
    fn touching(&self, from: Square) -> Bitboard {
        self.untouchable
            .iter()
            .filter(|d| !d.contains(from))
            .fold(Bitboard::FULL, |t, d| t & *d)
    }

    /// The arrivals from `from` a man of `role` is kept for: ordinary moves that touch
    /// every reply or may give check.
    fn kept(&self, role: Role, from: Square) -> Bitboard {
        if PRICED && self.unjudged.contains(from) {
            return Bitboard::FULL;
        }
        let mut kept = self.touching(from) | self.info.may_check_targets(role, from);
        if FALLS {
            kept |= self.fall_check_targets(role, from);
        }
        if PROLONG {
            kept | self.always
        } else {
            kept
        }
    }

    /// Under Trapdoor, the arrivals from `from` of a man of `role` that may give check
    /// once the attacker's falling men have gone (`FallChecks`): every one where its
    /// leaving may uncover such a check.
    fn fall_check_targets(&self, role: Role, from: Square) -> Bitboard {
        if self.falls.discoverers.contains(from) {
            return Bitboard::FULL;
        }
        let [straight, diagonal] = self.falls.arrivals;
        match role {
            Role::Rook => straight,
            Role::Bishop => diagonal,
            Role::Queen => straight | diagonal,
            _ => Bitboard::EMPTY,
        }
    }

    /// Keeps `mv` unless the defender's king surely has a checkless step after it
    /// (under Trapdoor, where the falls decide the king's steps, every `mv` is kept).
    fn consider(&mut self, mv: Move) {
        if (PROLONG && self.always.contains(mv.to))
            || FALLS
            || (PRICED && self.unjudged.contains(mv.from))
            || !(self.steps.one_stands_after(self.geo, self.pos, mv)
                || checkless_king_step_after::<G, PROLONG, PRICED>(
                    self.geo,
                    self.pos,
                    mv,
                    self.budget,
                ))
        {
            self.out.push(mv);
        }
    }
}

impl<G: Geometry, const PROLONG: bool, const PRICED: bool, const FALLS: bool>
    crate::movegen::MoveSink for Candidates<'_, G, PROLONG, PRICED, FALLS>
{
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        if role == Role::King {
            // The generator offers only the steps `king_steps_wanted` let through: none
            // leaves a step of the defender's king surely standing, so only the board
            // after the step is left to ask.
            for to in targets {
                let mv = Move::new(role, from, to, MoveKind::Normal);
                if (PROLONG && self.always.contains(to))
                    || FALLS
                    || !checkless_king_step_after::<G, PROLONG, PRICED>(
                        self.geo,
                        self.pos,
                        mv,
                        self.budget,
                    )
                {
                    self.out.push(mv);
                }
            }
            return;
        }
        for to in targets & self.kept(role, from) {
            self.consider(Move::new(role, from, to, MoveKind::Normal));
        }
    }
    fn pawn(&mut self, from: Square, targets: Bitboard, promo: Bitboard) {
        // A promotion changes the man: each is kept for the king's-step test.
        let keep = ((targets - promo) & self.kept(Role::Pawn, from)) | (targets & promo);
        crate::movegen::pawn_moves(from, keep, promo, |mv| self.consider(mv));
    }
    fn special(&mut self, mv: Move) {
        if PROLONG && mv.kind == MoveKind::EnPassant {
            self.out.push(mv);
        } else if mv.kind != MoveKind::DoublePush || self.kept(Role::Pawn, mv.from).contains(mv.to)
        {
            self.consider(mv);
        }
    }
    /// A man's targets on the board lie among its targets on an empty board (a ride is
    /// only ever shortened by the men in its way).
    fn piece_wanted(&self, role: Role, from: Square) -> bool {
        let reach =
            crate::attacks::piece_attacks(self.geo, role, self.pos.turn(), from, Bitboard::EMPTY);
        (reach & self.kept(role, from)).is_nonempty()
    }
    /// The steps after which no step of the defender's king surely stands (the others
    /// `consider` would leave out): only they are tested for safety.
    fn king_steps_wanted(&self, king: Square) -> Bitboard {
        let stands = |to| {
            self.steps.one_stands_after(
                self.geo,
                self.pos,
                Move::new(Role::King, king, to, MoveKind::Normal),
            )
        };
        self.geo
            .king_attacks(king)
            .filter(|&to| (PROLONG && self.always.contains(to)) || !stands(to))
            .fold(Bitboard::EMPTY, Bitboard::with)
    }
}

/// The defender's king's legal steps that uncover no check, with the turn passed, and
/// for each the squares whose men decide whether it stays so after an attacker's move:
/// the step's square, the nearest man on each line from it (with the king off the
/// board: a man that leaves may open a rider's line onto it), and the line through both
/// kings (the king's leaving may uncover a rider of its own onto the other king).
struct KingSteps {
    /// Each step with the nearest squares on the lines from it (`near`), and the
    /// squares a man's leaving may change it by (`near`, the step, the kings' line).
    steps: [(Square, Bitboard, Bitboard); 8],
    len: usize,
    /// The board without the defender's king.
    without_king: Bitboard,
}

impl KingSteps {
    /// The steps onto `arrivals` (every square, or the empty ones where a capture is no
    /// escape).
    fn new<G: Geometry>(geo: &G, pos: &Position, arrivals: Bitboard) -> KingSteps {
        let board = pos.board();
        let us = pos.turn();
        let mut found = KingSteps {
            steps: [(Square::A1, Bitboard::EMPTY, Bitboard::EMPTY); 8],
            len: 0,
            without_king: Bitboard::EMPTY,
        };
        let (Some(our_king), Some(king)) = (board.king(us), board.king(!us)) else {
            return found;
        };
        found.without_king = board.occupied().without(king);
        // The line through both kings (empty when they share none).
        let kings_line = geo.line(our_king, king);
        for step in crate::attacks::unattacked_king_steps(geo, board, king, !us) & arrivals {
            let uncovers =
                crate::attacks::attackers(geo, board, our_king, !us, found.without_king.with(step));
            if uncovers.is_empty() && found.len < 8 {
                let near = geo.queen_attacks(step, found.without_king);
                let decide = near.with(step) | kings_line;
                found.steps[found.len] = (step, near, decide);
                found.len += 1;
            }
        }
        found
    }

    /// Whether one of the steps surely stays legal and checkless after `mv` (no
    /// castling or en passant; a step of the attacker's king below): `mv` leaves none of
    /// its deciding squares, and the man `mv` moves, from where it arrives, does not
    /// attack the step's square.
    fn one_stands_after<G: Geometry>(&self, geo: &G, pos: &Position, mv: Move) -> bool {
        if self.len == 0 || matches!(mv.kind, MoveKind::Castle | MoveKind::EnPassant) {
            return false;
        }
        if mv.role == Role::King {
            return self.one_stands_after_king_step(geo, pos, mv);
        }
        let role = mv.promotion().unwrap_or(mv.role);
        let occupied = self.without_king.without(mv.from).with(mv.to);
        let attacked = crate::attacks::piece_attacks(geo, role, pos.turn(), mv.to, occupied);
        self.steps[..self.len].iter().any(|&(step, _, decide)| {
            step != mv.to && !decide.contains(mv.from) && !attacked.contains(step)
        })
    }

    /// `one_stands_after` for a step of the attacker's king: the step's square is not
    /// next to the king's new square, the king neither leaves nor enters the nearest
    /// square on a line from it (its leaving could open a rider's line, a man it takes
    /// could have shut one), and the defender's king's step uncovers no check on the
    /// new square (judged on the board after both).
    fn one_stands_after_king_step<G: Geometry>(&self, geo: &G, pos: &Position, mv: Move) -> bool {
        let board = pos.board();
        let occupied = self.without_king.without(mv.from).with(mv.to);
        self.steps[..self.len].iter().any(|&(step, near, _)| {
            step != mv.to
                && !geo.king_attacks(mv.to).contains(step)
                && !near.contains(mv.from)
                && !near.contains(mv.to)
                && (crate::attacks::attackers(geo, board, mv.to, !pos.turn(), occupied.with(step))
                    - Bitboard::from_square(mv.to))
                .is_empty()
        })
    }
}

/// Collects `reply_squares` of the defender's legal replies that are ordinary men's
/// moves giving no check (the king's steps are not even tested for safety). Replies
/// beyond the first `QUIET_REPLIES_KEPT` are not kept: fewer replies leave out fewer moves.
struct QuietReplies<'a, G: Geometry, const PROLONG: bool> {
    geo: &'a G,
    info: &'a CheckInfo,
    passed: &'a Position,
    /// The attacker's king and the defender's.
    kings: (Square, Square),
    /// The squares a reply may arrive on to be kept.
    arrivals: Bitboard,
    squares: [Bitboard; QUIET_REPLIES_KEPT],
    len: usize,
}

/// How many of the defender's quiet replies `QuietReplies` keeps.
const QUIET_REPLIES_KEPT: usize = 8;

impl<G: Geometry, const PROLONG: bool> QuietReplies<'_, G, PROLONG> {
    fn keep(&mut self, r: Move) {
        if self.len < QUIET_REPLIES_KEPT
            && (!PROLONG || self.arrivals.contains(r.to))
            && !self.info.gives_check(self.geo, self.passed, r)
        {
            let (our_king, their_king) = self.kings;
            self.squares[self.len] = reply_squares(self.geo, r, our_king, their_king);
            self.len += 1;
        }
    }
}

impl<G: Geometry, const PROLONG: bool> crate::movegen::MoveSink for QuietReplies<'_, G, PROLONG> {
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        if role != Role::King {
            for to in targets {
                self.keep(Move::new(role, from, to, MoveKind::Normal));
            }
        }
    }
    fn pawn(&mut self, from: Square, targets: Bitboard, promo: Bitboard) {
        for to in targets - promo {
            self.keep(Move::new(Role::Pawn, from, to, MoveKind::Normal));
        }
    }
    fn special(&mut self, mv: Move) {
        if mv.kind == MoveKind::DoublePush {
            self.keep(mv);
        }
    }
    fn king_steps_wanted(&self, _king: Square) -> Bitboard {
        Bitboard::EMPTY
    }
}

/// Whether after `mv` the other side's king has a legal step that gives no check (FIDE
/// rules: a king may step onto any square no enemy man attacks once it has left its
/// own, and the step checks only by uncovering a line onto the enemy king) and that
/// `budget` pays for (under Taxi such a step is legal and no check too, rules.md 2.2).
/// Only the board after `mv` is read: its key is left stale.
fn checkless_king_step_after<G: Geometry, const PROLONG: bool, const PRICED: bool>(
    geo: &G,
    pos: &Position,
    mv: Move,
    budget: u32,
) -> bool {
    let mut after = *pos;
    after.play_fide_unkeyed(geo, mv);
    let board = after.board();
    let replier = after.turn();
    let (Some(king), Some(target)) = (board.king(replier), board.king(!replier)) else {
        return false;
    };
    let occupied = board.occupied().without(king);
    let arrivals = if PROLONG {
        !board.occupied()
    } else {
        Bitboard::FULL
    };
    let arrivals = if PRICED {
        arrivals & affordable_king_steps(geo, board, king, budget)
    } else {
        arrivals
    };
    (crate::attacks::unattacked_king_steps(geo, board, king, replier) & arrivals).any(|step| {
        crate::attacks::attackers(geo, board, target, replier, occupied.with(step)).is_empty()
    })
}

/// The squares whose men decide whether the defender's reply `r` (an ordinary man's
/// move, legal and checkless with the defender's king on `their_king` and the
/// attacker's on `our_king`) stays legal and checkless: its start and arrival and the
/// squares between (a pawn's double step passes there too), the line through its start
/// and its own king (a pin), the line through its start and the attacker's king (a
/// discovered check), and the squares between its arrival and that king (a direct
/// check).
fn reply_squares<G: Geometry>(geo: &G, r: Move, our_king: Square, their_king: Square) -> Bitboard {
    Bitboard::from_square(r.from).with(r.to)
        | geo.between(r.from, r.to)
        | geo.line(their_king, r.from)
        | geo.line(our_king, r.from)
        | geo.between(r.to, our_king)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Earthquake, Standard, VoidRule};
    use crate::movegen::{king_attacked, legal_moves};
    use crate::test_games::{random_placements, random_positions_on};

    /// The lemmas under `self_mate_candidates`: a reply R of the defender's (an ordinary
    /// man's move, legal and checkless with the turn passed) stays legal and checkless
    /// after every move of the attacker's that is no king's move, gives no check and
    /// neither leaves nor enters `reply_squares(R)`; and after a move for which
    /// `KingSteps::one_stands_after` says so, the defender's king has a legal step that
    /// uncovers no check. Checked by playing both moves, for
    /// every such pair of moves, on crowded random placements and on random games on
    /// Earthquake boards.
    fn check_untouched_replies<G: Geometry>(geo: &G, pos: &Position, pairs: &mut u64) {
        let us = pos.turn();
        let (Some(our_king), Some(their_king)) = (pos.board().king(us), pos.board().king(!us))
        else {
            return;
        };
        // The attacker not in check (the filter's own condition), the defender not in
        // check (a legal position).
        if king_attacked(geo, pos, us) || king_attacked(geo, pos, !us) {
            return;
        }
        let mut passed = *pos;
        passed.pass();
        let quiet = |at: &Position, r: Move| {
            let mut after = *at;
            after.play_board(geo, r);
            !king_attacked(geo, &after, us)
        };
        let replies: Vec<Move> = legal_moves(geo, &passed)
            .iter()
            .copied()
            .filter(|r| {
                r.role != Role::King && matches!(r.kind, MoveKind::Normal | MoveKind::DoublePush)
            })
            .filter(|&r| quiet(&passed, r))
            .collect();
        let steps = KingSteps::new(geo, pos, Bitboard::FULL);
        for &w in legal_moves(geo, pos).iter() {
            let mut after = *pos;
            after.play_board(geo, w);
            if steps.one_stands_after(geo, pos, w) {
                *pairs += 1;
                let escapes = legal_moves(geo, &after).iter().any(|&k| {
                    k.role == Role::King && k.kind == MoveKind::Normal && quiet(&after, k)
                });
                assert!(
                    escapes,
                    "{}: no checkless king's step after {}",
                    crate::fen::write_fen(pos),
                    w.coord(false)
                );
            }
            if w.role == Role::King
                || matches!(w.kind, MoveKind::Castle | MoveKind::EnPassant)
                || king_attacked(geo, &after, !us)
            {
                continue;
            }
            let touched = Bitboard::from_square(w.from).with(w.to);
            let answers = legal_moves(geo, &after);
            for &r in &replies {
                let squares = reply_squares(geo, r, our_king, their_king);
                if (squares & touched).is_nonempty() {
                    continue;
                }
                *pairs += 1;
                let pos_line = crate::fen::write_fen(pos);
                assert!(
                    answers.contains(&r),
                    "{pos_line}: {} no longer legal after {}",
                    r.coord(false),
                    w.coord(false)
                );
                assert!(
                    quiet(&after, r),
                    "{pos_line}: {} checks after {}",
                    r.coord(false),
                    w.coord(false)
                );
            }
        }
    }

    /// `self_mate_candidates_where` where a capture prolongs the round: every capture of
    /// the attacker's is kept, and every move left out leaves the defender a legal reply
    /// that takes nothing and gives no check (played out), on
    /// crowded random placements. Where captures end the round some are left out.
    #[test]
    fn where_captures_prolong_the_round_only_a_reply_taking_nothing_refutes() {
        let game = Game::fide();
        let geo = &Standard;
        let (mut left_out, mut captures_kept, mut captures_left_by_fide) = (0, 0, 0);
        random_placements(
            0x7A3C_91E5_0B2D_4F68,
            3_000,
            "QRRBNPPqrrbnnpp",
            |pos, legal| {
                let us = pos.turn();
                if king_attacked(geo, pos, !us) {
                    return;
                }
                let mut kept = MoveList::new();
                if !self_mate_candidates_where(&game, pos, Captures::ProlongTheRound, &mut kept) {
                    return;
                }
                let mut fide = MoveList::new();
                self_mate_candidates(&game, pos, &mut fide);
                for &w in legal.iter() {
                    if w.takes(pos.board()) {
                        assert!(
                            kept.contains(&w),
                            "{}: {} left out",
                            crate::fen::write_fen(pos),
                            w.coord(false)
                        );
                        captures_kept += 1;
                        captures_left_by_fide += usize::from(!fide.contains(&w));
                        continue;
                    }
                    if kept.contains(&w) {
                        continue;
                    }
                    left_out += 1;
                    let mut after = *pos;
                    after.play_board(geo, w);
                    let escape = legal_moves(geo, &after).iter().any(|&r| {
                        let mut next = after;
                        next.play_board(geo, r);
                        !r.takes(after.board()) && !king_attacked(geo, &next, us)
                    });
                    assert!(
                        escape,
                        "{}: {} left out, but every reply takes or checks",
                        crate::fen::write_fen(pos),
                        w.coord(false)
                    );
                }
            },
        );
        assert!(left_out > 20_000, "{left_out} moves left out");
        assert!(captures_kept > 2_000, "{captures_kept} captures");
        assert!(
            captures_left_by_fide > 500,
            "{captures_left_by_fide} left out by FIDE's"
        );
    }

    #[test]
    fn a_reply_no_move_touches_stays_legal_and_checkless() {
        let mut pairs = 0;
        random_placements(0x1F83_D9AB_FB41_BD6B, 3_000, "QRRBNPPqrrbnnpp", |pos, _| {
            check_untouched_replies(&Standard, pos, &mut pairs)
        });
        let starts = crate::test_games::RIDER_STARTS;
        for (dx, dy, void) in [
            (1, 0, VoidRule::Fly),
            (-2, 1, VoidRule::Block),
            (0, -1, VoidRule::Fly),
        ] {
            let geo = Earthquake::new(dx, dy, void);
            random_positions_on(&geo, 11, &starts, 10, 60, |pos, _| {
                check_untouched_replies(&geo, pos, &mut pairs)
            });
        }
        assert!(pairs > 200_000, "only {pairs} pairs");
    }
}
