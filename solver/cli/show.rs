//! `fairysolve show`: each position drawn as it lies, with its rules, for a composer to
//! see the board (on a displaced Earthquake board: physically, with square names), and
//! its line written back as read (formats.md 1: every operation kept, the spelling of
//! the FEN fields too).

use super::input::{command_input, TwoBoard};
use super::VariantFlags;
use clap::Args;
use fairysolve::diagram::diagram;
use fairysolve::epd::write_record;

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
        match item.two_board() {
            Ok(Some(two)) => {
                let rec = two.record();
                let id = rec.id().map(|s| format!(" \"{s}\"")).unwrap_or_default();
                println!("{}{id}", item.source);
                match &two {
                    TwoBoard::Underworld(p) => {
                        print!("{}", super::two_board::draw_underworld(&p.state))
                    }
                    TwoBoard::Glass(p) => print!("{}", super::two_board::draw_glass(&p.state)),
                }
                println!("{}\n", write_record(rec));
                continue;
            }
            Ok(None) => {}
            Err(e) => {
                eprintln!("{e}");
                ok = false;
                continue;
            }
        }
        // A line that cannot be played is only reported.
        let problem = match item.problem() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                ok = false;
                continue;
            }
        };
        let rec = &problem.record;
        let id = rec.id().map(|s| format!(" \"{s}\"")).unwrap_or_default();
        println!("{}{id}", item.source);
        print!("{}", diagram(&problem.game, &problem.position));
        println!("{}\n", write_record(rec));
    }
    ok
}
