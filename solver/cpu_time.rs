//! CPU time of the calling thread, what the benchmarks compare: on a shared virtual
//! machine the host takes the cores away now and then, and wall time would count those
//! spells against whichever contender happened to be running.

use std::time::Duration;

/// The CPU time of clock `id` (zero if it cannot be read).
fn clock(id: libc::clockid_t) -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to write.
    if unsafe { libc::clock_gettime(id, &mut t) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// CPU time used so far by the calling thread (zero if the clock cannot be read).
pub fn thread_cpu_time() -> Duration {
    clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// CPU time used so far by the whole process, for work a solver hands to a pool of its
/// own threads (zero if the clock cannot be read).
pub fn process_cpu_time() -> Duration {
    clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}

/// CPU time (user and system) of the child processes waited for so far: what a peer
/// or a one-problem run of fairysolve cost, as whole processes.
pub fn children_cpu_time() -> Duration {
    // SAFETY: getrusage writes into the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } != 0 {
        return Duration::ZERO;
    }
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}
