//! The `fairysolve` command line (formats.md section 2).

mod cli;
mod serve;

use std::process::ExitCode;

fn main() -> ExitCode {
    // A closed pipe (`fairysolve solve big.epd | head`) ends the program quietly, as
    // it does any Unix filter, instead of failing on the next print.
    #[cfg(unix)]
    // SAFETY: called first, before any thread exists; restores the default action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // The C library's allocator gives a worker thread's heap back page by page when its
    // top is freed and takes it again at the next allocation: a search that lists moves
    // at every node then spends a third of its time in the kernel (`mprotect`). Memory
    // kept at the top of each heap, and only large tops trimmed, stop that.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: called before any thread exists or any allocation matters; both are
    // plain tuning parameters.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 16 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
    }
    cli::run()
}
