//! Criterion benches: perft side by side with cozy-chess and shakmaty (one group per
//! position, each library a function of the group), Earthquake perft beside the standard
//! board, and the solver on the bundled #2/#3 collections. `cargo bench --bench perft`.

mod peer_perft;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use fairysolve::epd::{parse_line, Line};
use fairysolve::game::Game;
use fairysolve::problem::{from_record, Problem};
use fairysolve::search::solution::SolveOptions;
use fairysolve::search::tt::Table;
use peer_perft::{boards, cozy_perft, shakmaty_perft};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;

fn perft_side_by_side(c: &mut Criterion) {
    let game = Game::fide();
    for bulk in [true, false] {
        for &(name, fen, depth) in &fairysolve::perft::BENCH_POSITIONS {
            // Two plies shallower than the perft benchmarks, so criterion can sample it.
            let depth = depth - 2 - (!bulk) as u32;
            let mut group = c.benchmark_group(format!(
                "perft {name} d{depth}{}",
                if bulk { "" } else { " no-bulk" }
            ));
            group.sample_size(10);
            let (ours, cozy, shak) = boards(fen);
            group.bench_function("fairysolve", |b| {
                b.iter(|| game.perft(black_box(&ours), depth, bulk))
            });
            group.bench_function("cozy-chess", |b| {
                b.iter(|| cozy_perft(black_box(&cozy), depth, bulk))
            });
            group.bench_function("shakmaty", |b| {
                b.iter(|| shakmaty_perft(black_box(&shak), depth, bulk))
            });
            group.finish();
        }
    }
}

fn problem(line: &str) -> Problem {
    match parse_line(line, 1) {
        Ok(Line::Position(r)) => from_record(*r).unwrap(),
        _ => panic!("{line}"),
    }
}

fn earthquake_perft(c: &mut Criterion) {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    let mut group = c.benchmark_group("perft start d4 by board");
    group.sample_size(10);
    for ops in [
        "",
        " earthquake \"1 0\";",
        " earthquake \"0 -1\"; void fly;",
        " earthquake \"8 4\";",
    ] {
        let p = problem(&format!("{start}{ops}"));
        let label = if ops.is_empty() {
            "standard".to_string()
        } else {
            ops.trim().to_string()
        };
        group.bench_with_input(BenchmarkId::from_parameter(label), &p, |b, p| {
            b.iter(|| p.game.perft(&p.position, 4, true))
        });
    }
    group.finish();
}

fn solver(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    let table = Table::new(32);
    let stop = AtomicBool::new(false);
    let opts = SolveOptions {
        tree: false,
        ..SolveOptions::default()
    };
    for file in [
        "positions/orthodox/twomovers.epd",
        "positions/orthodox/threemovers.epd",
    ] {
        let text = std::fs::read_to_string(file).unwrap();
        let problems: Vec<Problem> = fairysolve::epd::parse_text(&text)
            .into_iter()
            .map(|r| from_record(r.unwrap()).unwrap())
            .collect();
        group.bench_function(file, |b| {
            b.iter(|| {
                for p in &problems {
                    let n = p.stipulation.unwrap().moves;
                    black_box(
                        p.game
                            .solve(&table, &p.position, n, &opts, &stop, &|_, _| {}),
                    );
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, perft_side_by_side, earthquake_perft, solver);
criterion_main!(benches);
