//! Several positions solved at once: a file of small problems keeps every thread busy
//! only when each thread takes problems of its own (a search of a millisecond cannot be
//! split with profit). Results are handed on in file order as soon as each is ready.

use fairysolve::search::solution::thread_pool;
use std::collections::BTreeMap;
use std::sync::mpsc;

/// Runs `work` on every item, `threads` at a time, and calls `emit` with the results in
/// the order of `items`, each as soon as it and those before it are done. Items are
/// started in order, so output flows while a long file is worked through. Work that
/// parallelises itself (a solve with more threads) runs on the same pool: a thread with
/// no item left helps the items still running. Each item is a job of its own, so a
/// thread that steals work while waiting inside one item's search takes one more item,
/// never the rest of the file.
pub fn in_order<T: Sync, R: Send>(
    threads: usize,
    items: &[T],
    work: impl Fn(&T) -> R + Sync,
    mut emit: impl FnMut(R),
) {
    if threads <= 1 || items.len() <= 1 {
        for item in items {
            emit(work(item));
        }
        return;
    }
    let pool = thread_pool(threads);
    let (sender, results) = mpsc::channel();
    // The calling thread hands the results on while the pool's threads work.
    pool.in_place_scope_fifo(|scope| {
        for (i, item) in items.iter().enumerate() {
            let sender = sender.clone();
            let work = &work;
            scope.spawn_fifo(move |_| {
                // The receiver outlives the scope: a send cannot fail.
                let _ = sender.send((i, work(item)));
            });
        }
        // Only the jobs' senders are left: the channel closes when they finish.
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut due = 0;
        for (i, result) in results {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&due) {
                emit(result);
                due += 1;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_item_order() {
        let items: Vec<u64> = (0..200).collect();
        for threads in [1, 2, 4] {
            let mut seen = Vec::new();
            // Later items finish first: the order must still be the items'.
            in_order(
                threads,
                &items,
                |&i| {
                    std::thread::sleep(std::time::Duration::from_micros(200 - i));
                    i * i
                },
                |r| seen.push(r),
            );
            assert_eq!(seen, items.iter().map(|i| i * i).collect::<Vec<_>>());
        }
    }
}
