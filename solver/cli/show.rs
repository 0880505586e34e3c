//! `fairysolve show`: each position drawn as it lies, with its rules, for a composer to
//! see the board (on a displaced Earthquake board: physically, with square names).

use super::input::command_input;
use super::VariantFlags;
use clap::Args;
use fairysolve::diagram::diagram;
use fairysolve::problem::position_line;

#[derive(Args)]
// Without a position to work on the command line is wrong (exit 2, formats.md 2).
#[command(group(clap::ArgGroup::new("input").required(true).multiple(true).args(["files", "fen"])))]
pub struct ShowArgs {
    /// Position files (`-` for standard input).
    pub files: Vec<String>,
    /// One position (FEN or a whole position line with operations).
    #[arg(long)]
    pub fen: Option<String>,
    #[command(flatten)]
    pub variants: VariantFlags,
}

pub fn run(args: ShowArgs) -> bool {
    let items = command_input(&args.files, args.fen.as_deref(), &args.variants);
    let mut ok = true;
    for item in items {
        match item.problem() {
            Ok(p) => {
                let id = p.id().map(|s| format!(" \"{s}\"")).unwrap_or_default();
                println!("{}{id}", item.source);
                print!("{}", diagram(&p.game, &p.position));
                println!("{}\n", position_line(&p.game, &p.position));
            }
            Err(e) => {
                eprintln!("{e}");
                ok = false;
            }
        }
    }
    ok
}
