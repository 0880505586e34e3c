//! Differential test against shakmaty (a dev-dependency only): on positions reached by
//! random legal play from the standard and Chess960 starting arrays, both libraries
//! agree on the set of legal moves and on the FEN after every move.

use fairysolve::fen::{parse_fen, write_fen};
use fairysolve::game::Game;
use fairysolve::Position;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

mod common;

use common::Rng;

fn chess960_rank(rng: &mut Rng) -> String {
    let mut rank = [' '; 8];
    let light = [1, 3, 5, 7][rng.below(4)];
    let dark = [0, 2, 4, 6][rng.below(4)];
    rank[light] = 'B';
    rank[dark] = 'B';
    let mut free: Vec<usize> = (0..8).filter(|&i| rank[i] == ' ').collect();
    let q = free.remove(rng.below(free.len()));
    rank[q] = 'Q';
    for _ in 0..2 {
        let n = free.remove(rng.below(free.len()));
        rank[n] = 'N';
    }
    // The three squares left take R K R in order.
    for (i, piece) in free.iter().zip(['R', 'K', 'R']) {
        rank[*i] = piece;
    }
    rank.iter().collect()
}

fn start_fen(rng: &mut Rng, chess960: bool) -> String {
    if !chess960 {
        return "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into();
    }
    let white = chess960_rank(rng);
    let black = white.to_lowercase();
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1")
}

fn ours_sorted(game: &Game, pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = game
        .legal_moves(pos)
        .iter()
        .map(|m| m.coord(true).to_string())
        .collect();
    v.sort();
    v
}

fn theirs_sorted(pos: &Chess) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| UciMove::from_move(*m, CastlingMode::Chess960).to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn legal_moves_and_fen_agree_with_shakmaty() {
    let game = Game::fide();
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let mut positions = 0;
    let mut chess960_positions = 0;
    for game_no in 0..60 {
        let chess960 = game_no % 2 == 1;
        let fen = start_fen(&mut rng, chess960);
        let mut ours = parse_fen(&fen).unwrap();
        let setup: Fen = fen.parse().unwrap();
        let mut theirs: Chess = setup.into_position(CastlingMode::Chess960).unwrap();
        for _ply in 0..120 {
            let a = ours_sorted(&game, &ours);
            let b = theirs_sorted(&theirs);
            assert_eq!(a, b, "legal moves differ in {}", write_fen(&ours));
            let fen_theirs = Fen::from_position(&theirs, EnPassantMode::PseudoLegal).to_string();
            assert_eq!(
                fen_fields(&write_fen(&ours)),
                fen_fields(&fen_theirs),
                "FEN differs"
            );
            // The key kept move by move is the key of the position.
            assert_eq!(
                ours.hash(),
                ours.compute_hash(),
                "hash in {}",
                write_fen(&ours)
            );
            positions += 1;
            chess960_positions += chess960 as usize;
            if a.is_empty() {
                break;
            }
            let pick = &a[rng.below(a.len())];
            let our_move = fairysolve::san::parse_move(&game, &ours, pick).unwrap();
            ours = game.play(&ours, our_move).position;
            let uci: UciMove = pick.parse().unwrap();
            let their_move = uci.to_move(&theirs).unwrap();
            theirs.play_unchecked(their_move);
        }
    }
    assert!(positions >= 1000, "only {positions} positions compared");
    assert!(
        chess960_positions >= 300,
        "only {chess960_positions} Chess960 positions"
    );
}

/// Placement, side, castling and en passant; X-FEN castling letters are compared after
/// normalising both sides' spelling to the set of castling rook files.
fn fen_fields(fen: &str) -> (String, String, String, String) {
    let f: Vec<&str> = fen.split_whitespace().collect();
    (
        f[0].into(),
        f[1].into(),
        castling_files(f[0], f[2]),
        f[3].into(),
    )
}

fn castling_files(placement: &str, castling: &str) -> String {
    let pos = parse_fen(&format!("{placement} w {castling} - 0 1"))
        .or_else(|_| parse_fen(&format!("{placement} b {castling} - 0 1")))
        .unwrap();
    let mut v: Vec<String> = pos.castling().map(|s| s.to_string()).collect();
    v.sort();
    v.join(",")
}
