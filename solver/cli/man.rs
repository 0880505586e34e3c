//! `fairysolve man`: the manual pages, made from the same definitions as `--help`: the
//! main page `fairysolve(1)`, and one page per command (`fairysolve-solve(1)`, ...), which
//! the main page names.

use clap::{Args, Command};
use std::io::Write as _;
use std::path::PathBuf;

#[derive(Args)]
pub struct ManArgs {
    /// The command whose page to print (solve, perft, ...); none: the main page.
    pub command: Option<String>,
    /// Write the main page and one page per command into DIR (fairysolve.1,
    /// fairysolve-solve.1, ...) and list the files written.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// The pages: the whole command first, then each command, named as the main page
/// names them (`fairysolve-solve`).
fn pages(mut cli: Command) -> Vec<Command> {
    cli = cli.disable_help_subcommand(true);
    cli.build();
    let mut out = vec![cli.clone()];
    out.extend(cli.get_subcommands().filter(|s| !s.is_hide_set()).cloned());
    out
}

pub fn run(args: ManArgs, cli: Command) -> bool {
    let pages = pages(cli);
    if let Some(dir) = &args.dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("man: --dir {}: {e}", dir.display());
            return false;
        }
        for page in pages {
            match clap_mangen::Man::new(page).generate_to(dir) {
                Ok(path) => println!("{}", path.display()),
                Err(e) => {
                    eprintln!("man: --dir {}: {e}", dir.display());
                    return false;
                }
            }
        }
        return true;
    }
    let page = match &args.command {
        None => pages[0].clone(),
        Some(name) => match pages[1..].iter().find(|p| p.get_name() == name) {
            Some(p) => p.clone(),
            None => {
                super::command_line_is_wrong();
                let names: Vec<&str> = pages[1..].iter().map(|p| p.get_name()).collect();
                eprintln!(
                    "man: no command '{name}'; the commands are {}",
                    names.join(", ")
                );
                return false;
            }
        },
    };
    let mut out = Vec::new();
    if clap_mangen::Man::new(page).render(&mut out).is_err() {
        return false;
    }
    std::io::stdout().write_all(&out).is_ok()
}
