//! What ends long work early: Ctrl-C and `--time-limit`. Every command that may run for
//! long reads both here, so they mean the same everywhere.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Set by Ctrl-C: the running work stops and reports what it did.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Ctrl-C sets `INTERRUPTED`; a second one ends the process at once (exit 130).
///
/// On Unix the signal handler does this itself (an atomic swap and `_exit` are safe in
/// a handler), so no thread is started to wait for the signal: a one-problem run pays
/// for no more than its search.
#[cfg(unix)]
pub fn install_interrupt_handler() {
    extern "C" fn on_interrupt(_signal: libc::c_int) {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            // A second Ctrl-C: the user wants out now.
            // SAFETY: `_exit` is async-signal-safe.
            unsafe { libc::_exit(130) };
        }
    }
    // SAFETY: the action is zeroed and then filled in whole before use; the handler
    // only touches an atomic and calls `_exit`.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t;
        // A read of standard input goes on after the signal, as without a handler.
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
    }
}

/// Ctrl-C sets `INTERRUPTED`; a second one ends the process at once (exit 130).
#[cfg(not(unix))]
pub fn install_interrupt_handler() {
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
}

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// A time limit as given on the command line: a positive, finite number of seconds.
pub fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        // A bound far beyond any search keeps the deadline's arithmetic in range.
        Ok(t) if t.is_finite() && t > 0.0 && t <= 1e9 => Ok(t),
        _ => Err(format!(
            "'{text}' is not a positive number of seconds (at most 1e9)"
        )),
    }
}

/// `--max-solutions N`: a whole number of at least 1.
pub fn solution_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "'{text}' is not a number of solutions: a whole number of at least 1 expected"
        )),
    }
}

/// The moment `--time-limit SECONDS` counted from now runs out.
pub fn deadline(seconds: Option<f64>) -> Option<Instant> {
    seconds.map(|s| Instant::now() + Duration::from_secs_f64(s))
}

/// The time left before `deadline` (none left: zero, so a search stops at once).
pub fn time_left(deadline: Option<Instant>) -> Option<Duration> {
    deadline.map(|d| d.saturating_duration_since(Instant::now()))
}

/// Why a piece of work ended early, in words, for a report.
pub fn why_stopped() -> &'static str {
    if interrupted() {
        "interrupted"
    } else {
        "the time limit ran out"
    }
}
