//! The command line: `tuzdyk` alone speaks the protocol on stdin/stdout;
//! subcommands run the tools and the GUI (protocol clients all), and
//! `bench`, `perft`, `replay`, `tune`, `datagen` and `train` run in process.

use std::error::Error;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use tuzdyk_engine::bench;
use tuzdyk_notation::console::OutputError;
use tuzdyk_tools::{analyse, matches, play, rating};
use tuzdyk_train::{datagen, network};
use tuzdyk_notation::{record, tfen};
use tuzdyk_protocol::EngineOption;
use tuzdyk_rules::{Position, perft};
use tuzdyk_search::eval::Evaluator;

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
    /// Analyse positions or review games, one line per position.
    #[command(alias = "analyze")]
    Analyse(tuzdyk_tools::analyse::Args),
    /// Play against the engine in the terminal.
    Play(tuzdyk_tools::play::Args),
    /// Place each level on the PlayOK rating scale by its average loss.
    Rating(tuzdyk_tools::rating::Args),
    /// Play, analyse and review in the browser: a local web server.
    Gui(tuzdyk_gui::Args),
    /// Tune the evaluation: self-play games, then logistic regression.
    Tune(tuzdyk_train::Args),
    /// Generate training data for a network from self-play (docs/datagen.md).
    Datagen(tuzdyk_train::datagen::Args),
    /// Train the network evaluation from datagen files.
    Train(tuzdyk_train::network::command::Args),
    /// Replay game records and check every move and annotation.
    Replay {
        /// Files in PlayOK notation.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Also print each good game's final position (TFEN).
        #[arg(long)]
        fen: bool,
    },
}

/// Runs the command line and returns the process exit status.
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
    match cli.command {
        None => {
            tuzdyk_engine::server::run_stdio();
            ExitCode::SUCCESS
        }
        Some(Command::Perft {
            depth,
            fen,
            divide,
            threads,
        }) => run_perft(depth, fen.as_deref(), divide, threads),
        Some(Command::Replay { files, fen }) => run_replay(&files, fen),
        Some(Command::Bench {
            depth,
            threads,
            eval,
        }) => run_bench(depth, threads, eval.as_deref()),
        Some(Command::Match(args)) => finish(matches::run(args), matches::MatchError::status),
        Some(Command::Analyse(args)) => finish(analyse::run(args), analyse::AnalyseError::status),
        Some(Command::Play(args)) => finish(play::run(args), play::PlayError::status),
        Some(Command::Rating(args)) => finish(rating::run(args), rating::RatingError::status),
        Some(Command::Gui(args)) => tuzdyk_gui::run(args),
        Some(Command::Tune(args)) => finish(tuzdyk_train::run(args), tuzdyk_train::TuneError::status),
        Some(Command::Datagen(args)) => finish(datagen::run(args), datagen::DatagenError::status),
        Some(Command::Train(args)) => {
            finish(network::command::run(args), network::command::TrainError::status)
        }
    }
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

/// Prints `error: <message>` on stderr.
fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

fn run_perft(depth: u32, fen: Option<&str>, divide: bool, threads: Option<usize>) -> ExitCode {
    let pos = match fen {
        Some(text) => match tfen::parse(text) {
            Ok(pos) => pos,
            Err(e) => return fail(format!("invalid --fen '{text}': {e}")),
        },
        None => Position::startpos(),
    };
    if !(1..=30).contains(&depth) {
        return fail(format!("perft depth {depth} is out of range 1..30"));
    }
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        return fail("--threads must be at least 1");
    }
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool,
        Err(e) => return fail(format!("cannot start {threads} threads: {e}")),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if divide && depth > 0 {
        for (mv, nodes) in pool.install(|| perft::divide(&pos, depth)) {
            let _ = writeln!(out, "{mv} {nodes}");
        }
    }
    for d in 1..=depth {
        let started = Instant::now();
        let nodes = pool.install(|| perft::parallel_perft(&pos, d));
        let elapsed = started.elapsed();
        let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
        let _ = writeln!(
            out,
            "depth {d} nodes {nodes} time {} nps {nps}",
            elapsed.as_millis()
        );
        let _ = out.flush();
    }
    ExitCode::SUCCESS
}

/// With `--fen`, standard output carries only the final positions (one
/// TFEN per good game, ready for a pipe into `analyse`); the problem lines
/// and the summary go to standard error. Without it they go to standard output.
fn run_replay(files: &[PathBuf], print_fen: bool) -> ExitCode {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut out = stdout.lock();
    let mut err = stderr.lock();
    let mut report = |line: String| {
        let _ = if print_fen {
            writeln!(err, "{line}")
        } else {
            writeln!(out, "{line}")
        };
    };
    let (mut games, mut ok, mut failed) = (0usize, 0usize, 0usize);
    let mut positions = Vec::new();
    for path in files {
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                report(format!("{}: cannot read: {e}", path.display()));
                failed += 1;
                continue;
            }
        };
        for game in record::parse_games(&text) {
            games += 1;
            match game {
                Ok(game) => {
                    ok += 1;
                    if print_fen {
                        positions.push(tfen::write(&game.final_position()));
                    }
                }
                Err(e) => {
                    failed += 1;
                    report(format!("{}: {e}", path.display()));
                }
            }
        }
    }
    report(format!("games {games} ok {ok} failed {failed}"));
    for position in positions {
        if writeln!(out, "{position}").is_err() {
            break;
        }
    }
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn run_bench(depth: u32, threads: usize, eval: Option<&str>) -> ExitCode {
    if !(1..=64).contains(&depth) {
        return fail(format!("bench depth {depth} is out of range 1..64"));
    }
    let (min, max) = EngineOption::Threads.range();
    if !(min..=max).contains(&(threads as i64)) {
        return fail(format!("--threads {threads} is out of range {min}..{max}"));
    }
    let evaluator = match eval.map(Evaluator::named).transpose() {
        Ok(evaluator) => evaluator.unwrap_or_default(),
        Err(e) => return fail(format!("--eval {e}")),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let report = bench::run_with(depth, threads, &evaluator, |line| {
        writeln!(out, "{line}").and_then(|()| out.flush())
    });
    let Ok(report) = report else {
        // Standard output is closed: nobody reads the rest.
        return ExitCode::SUCCESS;
    };
    let _ = writeln!(out, "time {}", report.time.as_millis());
    let _ = writeln!(out, "{} nodes {} nps", report.nodes, report.nps());
    ExitCode::SUCCESS
}
