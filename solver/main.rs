//! The `fairysolve` command line (formats.md section 2).

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::run()
}
