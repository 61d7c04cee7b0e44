//! The command line: `tuzdyk` alone speaks the protocol on stdin/stdout;
//! subcommands run the tools and the GUI (protocol clients all), and
//! `bench`, `perft`, `replay` ([`crate::commands`]), `tune`, `datagen` and
//! `train` run in process, as do `db` and `explore` (the games database). Each command returns its typed error, printed
//! here once ([`finish`]).

use std::error::Error;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use tuzdyk_engine::bench;
use tuzdyk_notation::console::OutputError;
use tuzdyk_tools::db::DbError;
use tuzdyk_tools::{analyse, explore, matches, play, puzzles, rating, spsa};
use tuzdyk_train::{datagen, network};

use crate::commands::{self, BenchError, PerftError, ReplayError};

#[derive(Parser, Debug)]
#[command(name = "tuzdyk", version, about = "A Togyz Kumalak (Toguz Korgool) engine", long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count leaf positions to a depth (checks the rules, measures speed).
    Perft {
        /// Plies to count to; one line per depth from 1.
        depth: u32,
        /// Start from this TFEN position instead of the start.
        #[arg(long)]
        fen: Option<String>,
        /// First print the leaves below each legal move at the full depth.
        #[arg(long)]
        divide: bool,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Search the fixed bench positions (one thread, fixed hash); the last
    /// line is `<nodes> nodes <nps> nps`, the node count identical run to run.
    Bench {
        /// Depth of each search.
        #[arg(default_value_t = bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Search threads: more than one measures the time to reach the
        /// depth with Lazy SMP (the node count then varies run to run).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// The evaluation: classic, network (the built-in one) or a network
        /// file (default: the engine's default, the `Eval` option's).
        #[arg(long, value_name = "EVAL")]
        eval: Option<String>,
    },
    /// Play engines against each other (the match runner is the referee).
    Match(tuzdyk_tools::matches::Args),
    /// Tune the search's parameters by SPSA against a tuning build
    /// (cargo build --release --features tune), resumable with --state.
    Spsa(tuzdyk_tools::spsa::Args),
    /// Analyse positions or review games, one line per position.
    #[command(alias = "analyze")]
    Analyse(tuzdyk_tools::analyse::Args),
    /// Play against the engine in the terminal.
    Play(tuzdyk_tools::play::Args),
    /// Place each level on the PlayOK rating scale by its average loss.
    Rating(tuzdyk_tools::rating::Args),
    /// Puzzles mined from the database's games: mine, export, import.
    Puzzles(tuzdyk_tools::puzzles::Args),
    /// Play, analyse and review in the browser: a local web server.
    Gui(tuzdyk_gui::Args),
    /// Tune the evaluation: self-play games, then logistic regression.
    Tune(tuzdyk_train::Args),
    /// Generate training data for a network from self-play (docs/datagen.md).
    Datagen(tuzdyk_train::datagen::Args),
    /// Train the network evaluation from datagen files.
    Train(tuzdyk_train::network::command::Args),
    /// The games database: import, list and export games, measure it.
    Db(tuzdyk_tools::db::Args),
    /// The opening explorer: the moves played in a position, with results.
    Explore(tuzdyk_tools::explore::Args),
    /// Replay game records and check every move and annotation.
    Replay {
        /// Files in PlayOK notation; `-` reads standard input.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print only each good game's final position (TFEN) on standard
        /// output; the problems and the summary go to standard error.
        #[arg(long)]
        fen: bool,
    },
}

/// Runs the command line and returns the process exit status: 0 when the
/// command did its work, 1 when it did and found bad input (`replay`,
/// `analyse`) or a match had to stop, 2 when it could not run (bad
/// arguments, a file it cannot read or write, an engine that will not
/// start). A command whose reader went away (`| head`) ends quietly.
pub fn run() -> ExitCode {
    // Logs go to stderr only; RUST_LOG=debug shows the protocol traffic.
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .try_init();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // Help and version go to stdout with status 0; errors are one
            // clear message on stderr with status 2.
            let status = if error.use_stderr() { 2 } else { 0 };
            let _ = error.print();
            return ExitCode::from(status);
        }
    };
    let Some(command) = cli.command else {
        tuzdyk_engine::server::run_stdio();
        return ExitCode::SUCCESS;
    };
    match command {
        Command::Perft {
            depth,
            fen,
            divide,
            threads,
        } => finish(
            commands::perft(depth, fen.as_deref(), divide, threads),
            PerftError::status,
        ),
        Command::Replay { files, fen } => {
            finish(commands::replay(&files, fen), ReplayError::status)
        }
        Command::Bench {
            depth,
            threads,
            eval,
        } => finish(
            commands::bench(depth, threads, eval.as_deref()),
            BenchError::status,
        ),
        Command::Match(args) => finish(matches::run(args), matches::MatchError::status),
        Command::Spsa(args) => finish(spsa::run(args, &tunables()), spsa::SpsaError::status),
        Command::Analyse(args) => finish(analyse::run(args), analyse::AnalyseError::status),
        Command::Play(args) => finish(play::run(args), play::PlayError::status),
        Command::Rating(args) => finish(rating::run(args), rating::RatingError::status),
        Command::Db(args) => finish(tuzdyk_tools::db::run(args), DbError::status),
        Command::Explore(args) => finish(explore::run(args), explore::ExploreCmdError::status),
        Command::Puzzles(args) => finish(puzzles::run(args), puzzles::PuzzlesError::status),
        Command::Gui(args) => finish(tuzdyk_gui::run(args), tuzdyk_gui::RunError::status),
        Command::Tune(args) => finish(tuzdyk_train::run(args), tuzdyk_train::TuneError::status),
        Command::Datagen(args) => finish(datagen::run(args), datagen::DatagenError::status),
        Command::Train(args) => finish(
            network::command::run(args),
            network::command::TrainError::status,
        ),
    }
}

/// The search's tunable parameters, as `tuzdyk spsa` takes them (the tools
/// do not link the search: the command line hands the list over).
fn tunables() -> Vec<spsa::Tunable> {
    tuzdyk_search::params::TUNABLES
        .iter()
        .map(|t| spsa::Tunable {
            name: t.name,
            default: t.default,
            min: t.min,
            max: t.max,
            c_end: t.c_end,
            r_end: t.r_end,
        })
        .collect()
}

/// The one place a command's error is printed: once, as `error: <message>`
/// on stderr, with the command's exit status. A command that stopped
/// because the reader of its output went away (a closed pipe, `| head`)
/// has failed at nothing and says nothing: status 0.
fn finish<E: Error + 'static>(result: Result<(), E>, status: fn(&E) -> u8) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if reader_gone(&error) => ExitCode::SUCCESS,
        Err(error) => {
            // With stderr closed too there is nobody left to tell.
            let _ = writeln!(io::stderr(), "error: {error}");
            ExitCode::from(status(&error))
        }
    }
}

/// Whether `error` comes from writing the command's own output (an
/// [`OutputError`], never a file or an engine's pipe) to a pipe nobody
/// reads any more.
fn reader_gone(error: &(dyn Error + 'static)) -> bool {
    std::iter::successors(Some(error), |&e| e.source()).any(|e| {
        e.downcast_ref::<OutputError>()
            .is_some_and(OutputError::reader_gone)
    })
}
