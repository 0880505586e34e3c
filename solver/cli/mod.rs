//! Command-line front end: argument parsing, reading inputs with their locations, and
//! the subcommands. Library errors become messages with file, line and column here.

mod batch;
mod bench;
mod bench_help_self;
mod gallery;
mod generate;
mod import;
pub(crate) mod input;
mod limits;
mod line_reader;
mod man;
mod perft;
mod proof_game;
mod referee;
mod replay;
mod retro;
pub(crate) mod show;
mod solve;
mod tree;
mod two_board;

use clap::{Args, CommandFactory, Parser, Subcommand};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Parser)]
#[command(
    name = "fairysolve",
    version,
    propagate_version = true,
    about = "Problem solver for Trapdoor, Taxi, Earthquake, Underworld and Looking-Glass chess"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences (rules.md 7.1): the move generator's test and benchmark.
    Perft(perft::PerftArgs),
    /// Prove stipulations (#N, h#N, h#N.5, s#N): every key, threat, variations, tries.
    Solve(solve::SolveArgs),
    /// Play a line of moves and print each with its falls, then the final position.
    Replay(replay::ReplayArgs),
    /// Measure perft and solver speed on the bundled suites (optionally beside a peer).
    Bench(bench::BenchArgs),
    /// Retro-analysis: legality, candidate last moves, men proved ticking.
    Retro(retro::RetroArgs),
    /// Draw positions as they lie (Earthquake boards physically, with square names), as
    /// text or as SVG diagrams (--svg, --svg-dir).
    Show(show::ShowArgs),
    /// Generate puzzles, each proved by the solver: one key, nothing shorter, the themes.
    Generate(generate::GenerateArgs),
    /// Referee a hidden Looking-Glass game: orders in on standard input, one answer each.
    Referee(referee::RefereeArgs),
    /// Serve the workbench and the Looking-Glass table as web pages on this computer
    /// (docs/serve.md).
    Serve(crate::serve::ServeArgs),
    /// Read Popeye input files and write position lines, one per problem and twin
    /// (docs/positions.md, "Popeye import"); what fairysolve does not play is reported with its place.
    Import(import::ImportArgs),
    /// Print shell completions for SHELL (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) of fairysolve or of one command (`man solve`), made
    /// from the same definitions as --help; --dir DIR writes them all.
    Man(man::ManArgs),
}

/// Variant operations given as flags; each has the name of its operation.
/// A flag given for a line that already has that operation overrides the line's.
#[derive(Args, Clone, Default, Debug)]
pub struct VariantFlags {
    /// Trapdoor board with timer T (overrides a line's own `trapdoor`, as every flag here
    /// overrides the operation of its name).
    #[arg(long, value_name = "T")]
    pub trapdoor: Option<String>,
    /// Ticking pieces: "SQ:r ...".
    #[arg(long)]
    pub timers: Option<String>,
    /// mate-first (default) or falls-first.
    #[arg(long = "trapdoor-order", alias = "trapdoor_order")]
    pub trapdoor_order: Option<String>,
    /// Taxi Chess with cash "W B" (a proof game's diagram may leave either open: "- -").
    #[arg(long, allow_hyphen_values = true)]
    pub taxi: Option<String>,
    /// Taxi income per turn (default 2).
    #[arg(long = "taxi-income", alias = "taxi_income")]
    pub taxi_income: Option<String>,
    /// Taxi starting budget, for the record (default 16).
    #[arg(long = "taxi-start", alias = "taxi_start")]
    pub taxi_start: Option<String>,
    /// Earthquake board "dx dy" (either may be negative: "-1 -1").
    #[arg(long, allow_hyphen_values = true)]
    pub earthquake: Option<String>,
    /// block (default) or fly.
    #[arg(long)]
    pub void: Option<String>,
    /// Aftershocks "w b [dx]".
    #[arg(long)]
    pub aftershock: Option<String>,
    /// Underworld Chess: the Underworld's placement (its K/k are the Underworld Kings).
    #[arg(long)]
    pub underworld: Option<String>,
    /// Underworld: whose turn on which board, WW, BW, BU or WU.
    #[arg(long)]
    pub phase: Option<String>,
    /// Underworld: men captured for good, e.g. "Qn" (upper case White).
    #[arg(long)]
    pub reserve: Option<String>,
    /// Underworld: home files other than the defaults, "W:d4:h U:b3:a".
    #[arg(long)]
    pub homes: Option<String>,
    /// Underworld: the en passant square on the Underworld.
    #[arg(long = "u-ep", alias = "u_ep")]
    pub u_ep: Option<String>,
    /// Through the Looking-Glass: the Mirror board's placement (the FEN is the Real board).
    #[arg(long)]
    pub mirror: Option<String>,
    /// Looking-Glass: the board of the double step behind the en passant square, R or M.
    #[arg(long = "ep-board", alias = "ep_board")]
    pub ep_board: Option<String>,
}

impl VariantFlags {
    /// The flags as EPD operations, appended to a `--fen` line.
    pub fn operations(&self) -> String {
        let mut out = String::new();
        let quoted = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
        let fields: [(&str, &Option<String>); 16] = [
            ("trapdoor", &self.trapdoor),
            ("timers", &self.timers),
            ("trapdoor_order", &self.trapdoor_order),
            ("taxi", &self.taxi),
            ("taxi_income", &self.taxi_income),
            ("taxi_start", &self.taxi_start),
            ("earthquake", &self.earthquake),
            ("void", &self.void),
            ("aftershock", &self.aftershock),
            ("underworld", &self.underworld),
            ("phase", &self.phase),
            ("reserve", &self.reserve),
            ("homes", &self.homes),
            ("u_ep", &self.u_ep),
            ("mirror", &self.mirror),
            ("ep_board", &self.ep_board),
        ];
        for (name, value) in fields {
            if let Some(v) = value {
                out.push_str(&format!(" {name} {};", quoted(v)));
            }
        }
        out
    }
}

/// Worker threads when none are asked for: every core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// Most worker threads a command starts.
pub const MAX_THREADS: usize = 256;

/// The worker threads of `--threads`: none given or 0, every core; more than
/// `MAX_THREADS`, that many, with a note on standard error.
pub fn threads(asked: Option<usize>) -> usize {
    match asked {
        None | Some(0) => default_threads(),
        Some(n) if n > MAX_THREADS => {
            eprintln!("--threads {n}: at most {MAX_THREADS} threads are started");
            MAX_THREADS
        }
        Some(n) => n,
    }
}

/// Set when a command finds that its command line lacks something it needs (a
/// stipulation or a depth for `--fen`): the exit status is then 2, as for any wrong
/// command line (formats.md 2), even if other positions went through.
static WRONG_COMMAND_LINE: AtomicBool = AtomicBool::new(false);

/// Marks the command line as wrong (exit status 2).
pub fn command_line_is_wrong() {
    WRONG_COMMAND_LINE.store(true, Ordering::SeqCst);
}

pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let ok = match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Show(args) => show::run(args),
        Command::Retro(args) => retro::run(args),
        Command::Referee(args) => referee::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Import(args) => import::run(args),
        Command::Serve(args) => crate::serve::run(args),
        Command::Completions { shell } => {
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "fairysolve",
                &mut std::io::stdout(),
            );
            true
        }
        Command::Man(args) => man::run(args, Cli::command()),
    };
    if WRONG_COMMAND_LINE.load(Ordering::SeqCst) {
        ExitCode::from(2)
    } else if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
