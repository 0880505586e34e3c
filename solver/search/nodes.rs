//! Counting the nodes of a search that runs on several threads.

use std::sync::atomic::{AtomicU64, Ordering};

/// Nodes searched, counted per thread on a cache line of its own: one shared counter
/// would bounce between the cores at every node.
pub struct NodeCounter {
    slots: Box<[PaddedCount]>,
}

#[repr(align(128))]
#[derive(Default)]
struct PaddedCount(AtomicU64);

/// Threads with a slot of their own; others share slots (still exact, only slower).
const COUNTER_SLOTS: usize = 64;

impl Default for NodeCounter {
    fn default() -> NodeCounter {
        NodeCounter {
            slots: (0..COUNTER_SLOTS).map(|_| PaddedCount::default()).collect(),
        }
    }
}

impl NodeCounter {
    /// Counts one node; returns this thread's count before it.
    #[inline(always)]
    pub fn count(&self) -> u64 {
        let slot = rayon::current_thread_index().map_or(0, |i| (i + 1) % COUNTER_SLOTS);
        self.slots[slot].0.fetch_add(1, Ordering::Relaxed)
    }

    pub fn total(&self) -> u64 {
        self.slots.iter().map(|s| s.0.load(Ordering::Relaxed)).sum()
    }
}
