//! Side-by-side perft against cozy-chess and shakmaty (dev-dependencies), single
//! thread, in one run: `cargo bench --bench peers`. Prints each library's best CPU time
//! over several runs and the ratio fairysolve / fastest peer (below 1.0: fairysolve faster).
//! Pass `quick` for shallower depths (`cargo bench --bench peers -- quick`).

mod peer_perft;

use fairysolve::cpu_time::thread_cpu_time;
use fairysolve::game::Game;
use peer_perft::{boards, cozy_perft, shakmaty_perft};
use std::hint::black_box;
use std::time::Duration;

/// Best CPU time of each contender over `rounds` rounds, the contenders taking turns
/// within a round: on a shared machine a slow spell then hurts all of them alike, and
/// the minimum is the run least disturbed.
fn best_interleaved(
    rounds: usize,
    contenders: &mut [&mut dyn FnMut() -> u64],
) -> Vec<(Duration, u64)> {
    let mut best = vec![(Duration::MAX, 0); contenders.len()];
    for _ in 0..rounds {
        for (i, run) in contenders.iter_mut().enumerate() {
            let t = thread_cpu_time();
            let nodes = black_box(run());
            let elapsed = thread_cpu_time() - t;
            best[i] = (best[i].0.min(elapsed), nodes);
        }
    }
    best
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let rounds = if quick { 2 } else { 7 };
    let game = Game::fide();
    println!(
        "{:<22} {:>12} {:>10} {:>10} {:>10} {:>8}",
        "perft", "leaves", "fairysolve", "cozy", "shakmaty", "ratio"
    );
    for bulk in [true, false] {
        for &(name, fen, depth) in &fairysolve::perft::BENCH_POSITIONS {
            // Making every move: one ply less, so a run takes a tenth of a second and
            // many rounds fit; the best of many short runs is the one a shared
            // machine disturbed least.
            let depth = if quick { depth - 1 } else { depth } - u32::from(!bulk);
            let rounds = if bulk { rounds } else { 3 * rounds };
            let (ours, cozy, shak) = boards(fen);
            let times = best_interleaved(
                rounds,
                &mut [
                    &mut || game.perft(&ours, depth, bulk),
                    &mut || cozy_perft(&cozy, depth, bulk),
                    &mut || shakmaty_perft(&shak, depth, bulk),
                ],
            );
            let [(t_ours, n_ours), (t_cozy, n_cozy), (t_shak, n_shak)] = times[..] else {
                unreachable!("three contenders")
            };
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
