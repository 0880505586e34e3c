//! A position: placement, side to move, castling and en passant rights, and the variant
//! state that decides its future (Trapdoor timers, Taxi cash). Playing a move here does
//! the board's part of it; rules that add events after a move (falls) live in their
//! variant modules and are combined by `game`.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::geometry::Geometry;
use crate::moves::{Move, MoveKind};
use crate::types::{Color, Piece, Role, Square};
use crate::zobrist;

/// Largest move number a position takes from its input: counting on from it for any
/// game or search never reaches the counter's limit.
const MAX_FULLMOVES: u32 = 1 << 30;

/// Trapdoor state of every piece (rules.md 1): a ticking piece has r own moves to go
/// (1..=7), stored as three bit-planes of r so that a position stays small for
/// copy-make; r = 0 is a safe piece.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Timers {
    planes: [Bitboard; 3],
}

impl Timers {
    /// Largest r a timer can hold.
    pub const MAX: u8 = 7;

    /// Squares of the ticking pieces.
    #[inline(always)]
    pub fn ticking(&self) -> Bitboard {
        self.planes[0] | self.planes[1] | self.planes[2]
    }

    /// Squares of the pieces with one move left (r = 1), read off the bit-planes.
    #[inline(always)]
    pub fn on_last_move(&self) -> Bitboard {
        self.planes[0] - self.planes[1] - self.planes[2]
    }

    /// Moves left for the piece on `sq`, if it is ticking.
    #[inline(always)]
    pub fn get(&self, sq: Square) -> Option<u8> {
        let r = self.left(sq);
        (r > 0).then_some(r)
    }

    /// Moves left for the piece on `sq` (0: safe).
    #[inline(always)]
    pub fn left(&self, sq: Square) -> u8 {
        (self.planes[0].contains(sq) as u8)
            | (self.planes[1].contains(sq) as u8) << 1
            | (self.planes[2].contains(sq) as u8) << 2
    }

    /// Stops the timers on `squares`.
    #[inline(always)]
    fn clear(&mut self, squares: Bitboard) {
        for plane in &mut self.planes {
            *plane = *plane - squares;
        }
    }

    /// Starts a timer of `r` on `sq`, which is not ticking (branch-free: r's bits are
    /// shifted into the planes).
    #[inline(always)]
    fn start(&mut self, sq: Square, r: u8) {
        for (bit, plane) in self.planes.iter_mut().enumerate() {
            *plane |= Bitboard(u64::from(r >> bit & 1) << sq.index());
        }
    }
}

/// Earthquake aftershock state (rules.md 3.7): the lower half's current dx, aftershocks
/// left for White and Black, and the dx the side to move may not restore this turn.
/// All zero (and unused) on a board without aftershocks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Quake {
    pub dx: i8,
    pub shocks: [u8; 2],
    pub no_return: Option<i8>,
}

#[derive(Copy, Clone, Debug)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    /// Squares of the rooks that may still castle (Chess960-ready: any rook square).
    pub(crate) castling: Bitboard,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmoves: u16,
    /// Wide enough that counting on never overflows (input is clamped far below).
    pub(crate) fullmoves: u32,
    pub(crate) timers: Timers,
    /// Taxi cash in hand (rules.md 2), White and Black; zero and unused without Taxi.
    pub(crate) cash: [u16; 2],
    pub(crate) quake: Quake,
    /// Castling is written king-takes-rook (the set-up is not the standard array).
    pub(crate) chess960: bool,
    /// The Zobrist hash of everything but the cash (`hash_without_cash`): playing a
    /// Taxi move changes both amounts, and the one reader, the table's key, mixes them in
    /// itself (replacing amounts that no longer matter).
    pub(crate) hash: u64,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.castling == other.castling
            && self.ep == other.ep
            && self.timers == other.timers
            && self.cash == other.cash
            && self.quake == other.quake
    }
}

impl Position {
    /// A position from its parts; the caller has checked them (see `fen`).
    pub fn from_parts(
        board: Board,
        turn: Color,
        castling: Bitboard,
        ep: Option<Square>,
        halfmoves: u32,
        fullmoves: u32,
    ) -> Position {
        let chess960 = castling.is_nonempty() && {
            let mut standard = true;
            for rook in castling {
                let color = if rook.rank() == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                let king_home = board.king(color).map(|k| k.file() == 4).unwrap_or(false);
                standard &= king_home && (rook.file() == 0 || rook.file() == 7);
            }
            !standard
        };
        let mut pos = Position {
            board,
            turn,
            castling,
            ep,
            halfmoves: halfmoves.min(u16::MAX as u32) as u16,
            fullmoves: fullmoves.min(MAX_FULLMOVES),
            timers: Timers::default(),
            cash: [0, 0],
            quake: Quake::default(),
            chess960,
            hash: 0,
        };
        pos.hash = pos.hash_of_all_but_cash();
        pos
    }

    pub fn startpos() -> Position {
        crate::fen::parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .expect("the start position is valid")
    }

    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }
    #[inline(always)]
    pub fn castling(&self) -> Bitboard {
        self.castling
    }
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }
    /// The Zobrist hash of the whole state (`compute_hash`, kept up to date).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash ^ self.cash_hash()
    }
    /// The Zobrist hash of the state without the Taxi cash.
    #[inline(always)]
    pub fn hash_without_cash(&self) -> u64 {
        self.hash
    }
    #[inline(always)]
    fn cash_hash(&self) -> u64 {
        Color::ALL
            .into_iter()
            .fold(0, |h, c| h ^ zobrist::cash(c, self.cash(c)))
    }
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves as u32
    }
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }
    #[inline(always)]
    pub fn timers(&self) -> &Timers {
        &self.timers
    }
    #[inline(always)]
    pub fn cash(&self, color: Color) -> u32 {
        self.cash[color.index()] as u32
    }
    #[inline(always)]
    pub fn quake(&self) -> &Quake {
        &self.quake
    }

    /// Sets the aftershock state, keeping the hash.
    pub fn set_quake(&mut self, quake: Quake) {
        self.hash ^= zobrist::quake(self.quake.dx, self.quake.shocks, self.quake.no_return);
        self.quake = quake;
        self.hash ^= zobrist::quake(quake.dx, quake.shocks, quake.no_return);
    }

    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Sets the timer of the piece on `sq` (`None`: safe). `r` is at most
    /// `Timers::MAX` (callers check it when reading input).
    pub fn set_timer(&mut self, sq: Square, left: Option<u8>) {
        self.stop_timers(Bitboard::from_square(sq));
        if let Some(r) = left.filter(|&r| r > 0) {
            let r = r.min(Timers::MAX);
            self.timers.start(sq, r);
            self.hash ^= zobrist::timer(sq, r);
        }
    }

    /// Stops the timers of the men on `squares`, if they tick: a man that leaves its
    /// square or is taken stops ticking (rules.md 1.2-1.3). Most moves touch no ticking
    /// man: then this is one test.
    #[inline]
    pub(crate) fn stop_timers(&mut self, squares: Bitboard) {
        let stopping = squares & self.timers.ticking();
        if stopping.is_nonempty() {
            for sq in stopping {
                self.hash ^= zobrist::timer(sq, self.timers.left(sq));
            }
            self.timers.clear(stopping);
        }
    }

    /// Sets the en passant square (retro-analysis may prove one a diagram does not state).
    pub fn set_ep(&mut self, ep: Option<Square>) {
        self.ep = ep;
        self.hash = self.hash_of_all_but_cash();
    }

    #[inline(always)]
    pub fn set_cash(&mut self, color: Color, amount: u32) {
        self.cash[color.index()] = amount.min(u16::MAX as u32) as u16;
    }

    /// Removes a piece from the board (a fall through a trapdoor), with its timer.
    pub fn remove_piece(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.board.remove(sq)?;
        self.hash ^= zobrist::piece(sq, piece);
        self.castling_lost(Bitboard::from_square(sq));
        self.set_timer(sq, None);
        Some(piece)
    }

    /// Puts a piece on an empty square (Underworld: a man returned to the World,
    /// rules.md 4d-4e), keeping the key.
    pub fn place_piece(&mut self, sq: Square, piece: Piece) {
        debug_assert!(!self.board.occupied().contains(sq));
        self.put::<true>(sq, piece);
    }

    /// The Zobrist hash of the whole state, worked out from scratch (`hash()` keeps it
    /// up to date).
    pub fn compute_hash(&self) -> u64 {
        self.hash_of_all_but_cash() ^ self.cash_hash()
    }

    /// `compute_hash` without the cash: what the incremental `hash` field holds.
    fn hash_of_all_but_cash(&self) -> u64 {
        let mut h = 0;
        for (sq, piece) in self.board.pieces() {
            h ^= zobrist::piece(sq, piece);
        }
        for rook in self.castling {
            h ^= zobrist::castling(rook);
        }
        if let Some(ep) = self.ep {
            h ^= zobrist::en_passant(ep);
        }
        if self.turn == Color::Black {
            h ^= zobrist::black_to_move();
        }
        for sq in self.timers.ticking() {
            h ^= zobrist::timer(sq, self.timers.left(sq));
        }
        h ^= zobrist::quake(self.quake.dx, self.quake.shocks, self.quake.no_return);
        h
    }

    #[inline(always)]
    fn castling_lost(&mut self, squares: Bitboard) {
        let lost = self.castling & squares;
        if lost.is_nonempty() {
            for rook in lost {
                self.hash ^= zobrist::castling(rook);
            }
            self.castling = self.castling - lost;
        }
    }

    #[inline(always)]
    fn put<const KEYED: bool>(&mut self, sq: Square, piece: Piece) {
        self.board.put(sq, piece);
        if KEYED {
            self.hash ^= zobrist::piece(sq, piece);
        }
    }

    #[inline(always)]
    fn take<const KEYED: bool>(&mut self, sq: Square, piece: Piece) {
        self.board.take(sq, piece);
        if KEYED {
            self.hash ^= zobrist::piece(sq, piece);
        }
    }

    /// Plays the board's part of a legal move: pieces, rights, counters, side to move.
    /// Timers of vacated and captured squares are dropped (a piece that leaves its square
    /// or is captured stops ticking, rules.md 1.2-1.3); arrival timers are the Trapdoor
    /// module's business. Returns the captured piece and its square.
    #[inline(always)]
    pub fn play_board<G: Geometry>(&mut self, geo: &G, mv: Move) -> Option<(Square, Piece)> {
        let (us, ep) = (self.turn, self.ep);
        self.apply::<G, false, true>(geo, mv, us, ep)
    }

    /// `play_board` for FIDE rules on a fixed board, where no man ticks and no
    /// aftershock is played: the variant state is not looked at (a timer left in such a
    /// position would only go stale, as nothing reads it). The move generator's
    /// benchmark and the hot path of the orthodox and Taxi solvers.
    #[inline(always)]
    pub fn play_fide<G: Geometry>(&mut self, geo: &G, mv: Move) -> Option<(Square, Piece)> {
        let (us, ep) = (self.turn, self.ep);
        self.apply::<G, true, true>(geo, mv, us, ep)
    }

    /// `play_fide` that leaves the Zobrist key stale: for positions whose key is never
    /// read (perft; the solver's last-ply mate test, which skips the table).
    #[inline(always)]
    pub fn play_fide_unkeyed<G: Geometry>(&mut self, geo: &G, mv: Move) {
        let (us, ep) = (self.turn, self.ep);
        self.apply::<G, true, false>(geo, mv, us, ep);
    }

    /// The position after a legal move, leaving `self` as it is.
    #[inline(always)]
    pub fn after<G: Geometry>(&self, geo: &G, mv: Move) -> Position {
        // Side and en passant square are read from `self`, not from the fresh copy: a
        // byte load right after the block copy would stall on store forwarding.
        let (us, ep) = (self.turn, self.ep);
        let mut child = *self;
        child.apply::<G, false, true>(geo, mv, us, ep);
        child
    }

    /// The board's part of `mv`; `FIDE`: no variant state to look at (`play_fide`).
    #[inline(always)]
    fn apply<G: Geometry, const FIDE: bool, const KEYED: bool>(
        &mut self,
        geo: &G,
        mv: Move,
        us: Color,
        ep: Option<Square>,
    ) -> Option<(Square, Piece)> {
        // State that a move clears, and aftershocks: rare, so one test guards them all
        // and the common move runs straight through.
        if ep.is_some()
            || (!FIDE
                && (self.quake.no_return.is_some()
                    || self.timers.ticking().is_nonempty()
                    || mv.is_aftershock()))
        {
            if let Some(ep) = ep {
                self.ep = None;
                if KEYED {
                    self.hash ^= zobrist::en_passant(ep);
                }
            }
            if !FIDE {
                self.end_return_bar();
            }
            if let (false, MoveKind::Aftershock(dx)) = (FIDE, mv.kind) {
                let mut shocks = self.quake.shocks;
                shocks[us.index()] = shocks[us.index()].saturating_sub(1);
                self.set_quake(Quake {
                    dx,
                    shocks,
                    no_return: Some(self.quake.dx),
                });
                self.halfmoves = self.halfmoves.saturating_add(1);
                self.fullmoves += us as u32;
                self.turn = !us;
                self.hash ^= zobrist::black_to_move();
                return None;
            }
            if !FIDE {
                // The mover leaves its square; a man captured on `to` (or the castling
                // rook there) stops ticking. En passant clears its victim below.
                self.stop_timers(Bitboard::from_square(mv.from) | Bitboard::from_square(mv.to));
            }
        }

        let them = !us;
        let moving = Piece::new(us, mv.role);
        // Ordinary moves and double steps first: nearly every move a search plays.
        let captured = if matches!(mv.kind, MoveKind::Normal | MoveKind::DoublePush) {
            let captured = self.capture_on::<KEYED>(mv.to, them);
            self.board.shift(moving, mv.from, mv.to);
            if KEYED {
                self.hash ^= zobrist::piece(mv.from, moving) ^ zobrist::piece(mv.to, moving);
            }
            if mv.kind == MoveKind::DoublePush {
                let passed = geo.pawn_step(us, mv.from).single();
                let capturers =
                    geo.pawn_attacks(us, passed) & self.board.by_piece(them, Role::Pawn);
                if capturers.is_nonempty() {
                    self.ep = Some(passed);
                    if KEYED {
                        self.hash ^= zobrist::en_passant(passed);
                    }
                }
            }
            captured
        } else {
            match mv.kind {
                MoveKind::Castle => {
                    let rook = Piece::new(us, Role::Rook);
                    self.take::<KEYED>(mv.from, moving);
                    self.take::<KEYED>(mv.to, rook);
                    self.put::<KEYED>(mv.castle_king_to(), moving);
                    self.put::<KEYED>(mv.castle_rook_to(), rook);
                    None
                }
                MoveKind::EnPassant => {
                    let victim_sq = geo.pawn_step(them, mv.to).single();
                    let victim = Piece::new(them, Role::Pawn);
                    self.take::<KEYED>(victim_sq, victim);
                    if !FIDE {
                        self.stop_timers(Bitboard::from_square(victim_sq));
                    }
                    self.take::<KEYED>(mv.from, moving);
                    self.put::<KEYED>(mv.to, moving);
                    Some((victim_sq, victim))
                }
                MoveKind::Promotion(role) => {
                    let captured = self.capture_on::<KEYED>(mv.to, them);
                    self.take::<KEYED>(mv.from, moving);
                    self.put::<KEYED>(mv.to, Piece::new(us, role));
                    captured
                }
                _ => unreachable!("ordinary moves and aftershocks are played above"),
            }
        };

        if self.castling.is_nonempty() {
            let mut touched = Bitboard::from_square(mv.from) | Bitboard::from_square(mv.to);
            if mv.role == Role::King {
                touched |= Bitboard::rank(us.fold(0, 7));
            }
            let lost = self.castling & touched;
            if lost.is_nonempty() {
                if KEYED {
                    self.hash ^= zobrist::castling_set(lost);
                }
                self.castling = self.castling - lost;
            }
        }
        let reset = mv.role == Role::Pawn || captured.is_some();
        self.halfmoves = self.halfmoves.saturating_add(1) * (!reset) as u16;
        self.fullmoves += us as u32;
        self.turn = them;
        if KEYED {
            self.hash ^= zobrist::black_to_move();
        }
        captured
    }

    /// Removes the man of `them` on `sq`, if any (a capture), returning it.
    #[inline(always)]
    fn capture_on<const KEYED: bool>(
        &mut self,
        sq: Square,
        them: Color,
    ) -> Option<(Square, Piece)> {
        if !self.board.by_color(them).contains(sq) {
            return None;
        }
        let victim = Piece::new(them, self.board.role_at(sq)?);
        self.take::<KEYED>(sq, victim);
        Some((sq, victim))
    }

    /// Squares that the pieces of `mv` stand on after it (king and rook for castling;
    /// none for an aftershock).
    pub fn arrivals(mv: Move) -> Bitboard {
        if mv.is_aftershock() {
            Bitboard::EMPTY
        } else if mv.is_castle() {
            Bitboard::from_square(mv.castle_king_to()) | Bitboard::from_square(mv.castle_rook_to())
        } else {
            Bitboard::from_square(mv.to)
        }
    }

    /// Passes the turn without moving (the threat is what the attacker plays after a
    /// pass). The turn ends as after a move: the en passant right and the bar on
    /// restoring a dx go with it. Taxi income is the game's business (`Game::pass`).
    pub fn pass(&mut self) {
        if let Some(ep) = self.ep.take() {
            self.hash ^= zobrist::en_passant(ep);
        }
        self.end_return_bar();
        self.turn = !self.turn;
        self.hash ^= zobrist::black_to_move();
    }

    /// Lifts the bar on restoring the dx an aftershock left: it lasts one turn only
    /// (rules.md 3.7).
    #[inline(always)]
    fn end_return_bar(&mut self) {
        if self.quake.no_return.is_some() {
            self.set_quake(Quake {
                no_return: None,
                ..self.quake
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::geometry::Standard;
    use crate::test_games::random_positions;

    /// The unkeyed make plays the same board, rights and counters as the keyed one,
    /// whose key stays what a key worked out from scratch says (castling, en passant,
    /// promotions and captures among the moves of random games).
    #[test]
    fn unkeyed_play_differs_only_in_the_key() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ];
        let mut moves_seen = 0;
        random_positions(0x5EED_F1DE, &starts, 20, 60, |pos, moves| {
            for &mv in moves.iter() {
                let (mut keyed, mut unkeyed) = (*pos, *pos);
                keyed.play_fide(&Standard, mv);
                unkeyed.play_fide_unkeyed(&Standard, mv);
                assert_eq!(keyed, unkeyed, "{mv:?} in {}", crate::fen::write_fen(pos));
                assert_eq!(keyed.hash(), keyed.compute_hash());
                moves_seen += 1;
            }
        });
        assert!(moves_seen > 20_000, "{moves_seen}");
    }
}
