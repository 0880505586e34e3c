//! Side-by-side perft against cozy-chess and shakmaty (dev-dependencies), single
//! thread, in one run: `cargo bench --bench peers`. Prints each library's best time over
//! several runs and the ratio fairysolve / fastest peer (below 1.0: fairysolve faster).
//! Pass `quick` for shallower depths (`cargo bench --bench peers -- quick`).

mod peer_perft;

use fairysolve::fen::parse_fen;
use fairysolve::game::Game;
use peer_perft::{cozy_perft, shakmaty_perft};
use shakmaty::{CastlingMode, Chess};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn best_of(runs: usize, mut f: impl FnMut() -> u64) -> (Duration, u64) {
    let mut best = Duration::MAX;
    let mut nodes = 0;
    for _ in 0..runs {
        let t = Instant::now();
        nodes = black_box(f());
        best = best.min(t.elapsed());
    }
    (best, nodes)
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let runs = if quick { 2 } else { 3 };
    let game = Game::fide();
    println!(
        "{:<22} {:>12} {:>10} {:>10} {:>10} {:>8}",
        "perft", "leaves", "fairysolve", "cozy", "shakmaty", "ratio"
    );
    for bulk in [true, false] {
        for &(name, fen, depth) in &fairysolve::perft::BENCH_POSITIONS {
            let depth = if quick { depth - 1 } else { depth } - if bulk { 0 } else { 1 };
            let ours = parse_fen(fen).unwrap();
            let cozy: cozy_chess::Board = fen.parse().unwrap();
            let shak: Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            let (t_ours, n_ours) = best_of(runs, || game.perft(&ours, depth, bulk));
            let (t_cozy, n_cozy) = best_of(runs, || cozy_perft(&cozy, depth, bulk));
            let (t_shak, n_shak) = best_of(runs, || shakmaty_perft(&shak, depth, bulk));
            assert_eq!(n_ours, n_cozy);
            assert_eq!(n_ours, n_shak);
            // Bulk counting is compared with cozy-chess (the reference); making
            // every move with the faster of the two peers.
            let peer = if bulk { t_cozy } else { t_cozy.min(t_shak) };
            println!(
                "{:<22} {:>12} {:>8.0}ms {:>8.0}ms {:>8.0}ms {:>8.2}",
                format!("{name} d{depth}{}", if bulk { "" } else { " no-bulk" }),
                n_ours,
                t_ours.as_secs_f64() * 1e3,
                t_cozy.as_secs_f64() * 1e3,
                t_shak.as_secs_f64() * 1e3,
                t_ours.as_secs_f64() / peer.as_secs_f64()
            );
        }
    }
}
