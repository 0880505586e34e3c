//! What stops a search before it finishes: Ctrl-C (a flag the caller owns), a deadline,
//! and a hand-over (a search begun on one thread pausing so that every thread can take
//! it up). Shared by the single-board solver and the generic core.
//!
//! A stopped search returns without storing anything it did not prove, so what it
//! proved before stays in the table and a search taken up again gives the answers of an
//! unbroken one.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::time::{Duration, Instant};

/// The search runs on.
const RUNNING: u8 = 0;
/// Paused for a hand-over (see `Halt::hand_over_at`).
const HANDED_OVER: u8 = 1;
/// The deadline passed, or the search's node budget: it stops for good.
const TIMED_OUT: u8 = 2;

/// How long a search of more than one thread runs on its first thread alone before the
/// others join it. On 2 cores a #4 of a few milliseconds costs about a tenth more CPU
/// time on two threads than on one (starting them, and the work they do side by side):
/// a problem solved within this time pays for no thread it does not need, and a long
/// one is at most this much later than with every thread from the start.
pub const SOLO_TIME: Duration = Duration::from_millis(10);

pub struct Halt<'a> {
    /// Set by the caller (Ctrl-C): every search stops.
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    /// `RUNNING`, `HANDED_OVER` or `TIMED_OUT`.
    state: AtomicU8,
    /// When this search began.
    born: Instant,
    /// The hand-over moment in nanoseconds after `born`; 0: none.
    hand_over: AtomicU64,
}

impl<'a> Halt<'a> {
    pub fn new(stop: &'a AtomicBool, deadline: Option<Instant>) -> Halt<'a> {
        Halt {
            stop,
            deadline,
            state: AtomicU8::new(RUNNING),
            born: Instant::now(),
            hand_over: AtomicU64::new(0),
        }
    }

    /// Whether the search must stop now (cheap: two loads).
    #[inline]
    pub fn halted(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.state.load(Ordering::Relaxed) != RUNNING
    }

    /// Reads the clock: a passed deadline stops the search for every thread, a passed
    /// hand-over moment pauses it. Called now and then (a clock read costs tens of ns).
    pub fn poll(&self) {
        let now = Instant::now();
        if self.deadline.is_some_and(|d| now >= d) {
            self.state.store(TIMED_OUT, Ordering::Relaxed);
        }
        let due = self.hand_over.load(Ordering::Relaxed);
        if due != 0 && now.saturating_duration_since(self.born).as_nanos() >= due as u128 {
            // Never over a time-out.
            self.state.fetch_max(HANDED_OVER, Ordering::Relaxed);
        }
    }

    /// Stops the search for good, as a passed deadline does (a node budget spent).
    pub fn give_up(&self) {
        self.state.store(TIMED_OUT, Ordering::Relaxed);
    }

    /// From `moment` on the search stops as on a limit, until `resume`; `handed_over`
    /// then tells it from a real stop.
    pub fn hand_over_at(&self, moment: Instant) {
        let due = moment.saturating_duration_since(self.born).as_nanos();
        self.hand_over.store((due as u64).max(1), Ordering::Relaxed);
        self.poll();
    }

    /// Whether the search stopped for a hand-over alone (neither Ctrl-C nor deadline).
    pub fn handed_over(&self) -> bool {
        self.state.load(Ordering::Relaxed) == HANDED_OVER && !self.stop.load(Ordering::Relaxed)
    }

    /// Ends the hand-over: the search may run again (a time-out stays).
    pub fn resume(&self) {
        self.hand_over.store(0, Ordering::Relaxed);
        let _ =
            self.state
                .compare_exchange(HANDED_OVER, RUNNING, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_over_pauses_and_resumes_but_a_deadline_stays() {
        let stop = AtomicBool::new(false);
        let halt = Halt::new(&stop, None);
        assert!(!halt.halted());
        halt.hand_over_at(Instant::now());
        assert!(halt.halted() && halt.handed_over());
        halt.resume();
        assert!(!halt.halted());
        halt.poll();
        assert!(!halt.halted(), "a resumed search has no hand-over left");

        let timed = Halt::new(&stop, Some(Instant::now()));
        timed.hand_over_at(Instant::now());
        assert!(timed.halted() && !timed.handed_over());
        timed.resume();
        assert!(timed.halted(), "a time-out outlives a resume");

        let later = Halt::new(&stop, None);
        later.hand_over_at(Instant::now() + Duration::from_secs(3600));
        assert!(!later.halted());
        stop.store(true, Ordering::Relaxed);
        assert!(later.halted() && !later.handed_over());
    }
}
