//! The `fairysolve` command line (formats.md section 2).

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    // A closed pipe (`fairysolve solve big.epd | head`) ends the program quietly, as
    // it does any Unix filter, instead of failing on the next print.
    #[cfg(unix)]
    // SAFETY: called first, before any thread exists; restores the default action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    cli::run()
}
