//! The subcommands that run in this process with no crate of their own:
//! `perft`, `bench` and `replay`. Each returns its typed error; the command
//! line ([`crate::cli`]) prints it.

use std::io::{self, Read};
use std::path::PathBuf;
use std::time::Instant;

use tuzdyk_engine::bench;
use tuzdyk_notation::console::{self, OutputError};
use tuzdyk_notation::tfen::TfenError;
use tuzdyk_notation::{excerpt, record, tfen};
use tuzdyk_protocol::EngineOption;
use tuzdyk_rules::{Position, perft};
use tuzdyk_search::eval::{ChoiceError, Evaluator};

/// The deepest `perft` the command line runs.
pub const MAX_PERFT_DEPTH: u32 = 30;

/// Why `tuzdyk perft` cannot run.
#[derive(Debug, thiserror::Error)]
pub enum PerftError {
    #[error("invalid --fen '{text}': {error}")]
    Fen { text: String, error: TfenError },
    #[error("perft depth {0} is out of range 1..{MAX_PERFT_DEPTH}")]
    Depth(u32),
    #[error("--threads must be at least 1")]
    NoThreads,
    #[error("cannot start {threads} threads: {error}")]
    Threads {
        threads: usize,
        error: rayon::ThreadPoolBuildError,
    },
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl PerftError {
    /// Every failure is bad input, or a machine that cannot run it: 2.
    pub fn status(&self) -> u8 {
        2
    }
}

/// `tuzdyk perft`: the leaves at each depth, one line each, flushed as it
/// is counted (so `| head -3` stops a deep count at depth 3 or so).
pub fn perft(
    depth: u32,
    fen: Option<&str>,
    divide: bool,
    threads: Option<usize>,
) -> Result<(), PerftError> {
    let pos = match fen {
        Some(text) => tfen::parse(text).map_err(|error| PerftError::Fen {
            text: excerpt(text),
            error,
        })?,
        None => Position::startpos(),
    };
    if !(1..=MAX_PERFT_DEPTH).contains(&depth) {
        return Err(PerftError::Depth(depth));
    }
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        return Err(PerftError::NoThreads);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|error| PerftError::Threads { threads, error })?;
    if divide {
        for (mv, nodes) in pool.install(|| perft::divide(&pos, depth)) {
            console::out(format_args!("{mv} {nodes}"))?;
        }
    }
    for d in 1..=depth {
        let started = Instant::now();
        let nodes = pool.install(|| perft::parallel_perft(&pos, d));
        let elapsed = started.elapsed();
        let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
        console::out(format_args!(
            "depth {d} nodes {nodes} time {} nps {nps}",
            elapsed.as_millis()
        ))?;
    }
    Ok(())
}

/// The deepest `bench` the command line runs.
pub const MAX_BENCH_DEPTH: u32 = 64;

/// Why `tuzdyk bench` cannot run.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("bench depth {0} is out of range 1..{MAX_BENCH_DEPTH}")]
    Depth(u32),
    #[error("--threads {threads} is out of range {min}..{max}")]
    Threads { threads: usize, min: i64, max: i64 },
    #[error("--eval {0}")]
    Eval(#[from] ChoiceError),
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl BenchError {
    /// Every failure is bad input: 2.
    pub fn status(&self) -> u8 {
        2
    }
}

/// `tuzdyk bench`: a line per position as it is searched, then the totals.
pub fn bench(depth: u32, threads: usize, eval: Option<&str>) -> Result<(), BenchError> {
    if !(1..=MAX_BENCH_DEPTH).contains(&depth) {
        return Err(BenchError::Depth(depth));
    }
    let (min, max) = EngineOption::Threads.range();
    if !(min..=max).contains(&(threads as i64)) {
        return Err(BenchError::Threads { threads, min, max });
    }
    let evaluator = eval.map(Evaluator::named).transpose()?.unwrap_or_default();
    let report = bench::run_with(depth, threads, &evaluator, |line| console::out(line))?;
    console::out(format_args!("time {}", report.time.as_millis()))?;
    console::out(format_args!("{} nodes {} nps", report.nodes, report.nps()))?;
    Ok(())
}

/// Why `tuzdyk replay` fails.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("{0} of the games and files failed (see above)")]
    Failed(usize),
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl ReplayError {
    /// A bad game is 1 (the run itself went through); output that cannot
    /// be written is 2.
    pub fn status(&self) -> u8 {
        match self {
            ReplayError::Failed(_) => 1,
            ReplayError::Output(_) => 2,
        }
    }
}

/// What `replay` found: games read, good, failed (unreadable files count
/// as failed).
#[derive(Debug, Default)]
struct Tally {
    games: usize,
    ok: usize,
    failed: usize,
}

/// `tuzdyk replay`: checks every game of the files (`-` is standard
/// input). With `fen`, standard output carries only the final positions
/// (one TFEN per good game, ready for a pipe into `analyse`) and the
/// problems and the summary go to standard error; without it they go to
/// standard output. A closed pipe ends it quietly, with the status of the
/// games checked so far.
pub fn replay(files: &[PathBuf], fen: bool) -> Result<(), ReplayError> {
    let mut tally = Tally::default();
    let mut positions = Vec::new();
    let written = replay_files(files, fen, &mut tally, &mut positions)
        .and_then(|()| positions.iter().try_for_each(console::out));
    match written {
        Err(error) if error.reader_gone() => {}
        Err(error) => return Err(error.into()),
        Ok(()) => {}
    }
    if tally.failed > 0 {
        return Err(ReplayError::Failed(tally.failed));
    }
    Ok(())
}

/// Replays every file, reporting each bad game and the summary.
fn replay_files(
    files: &[PathBuf],
    fen: bool,
    tally: &mut Tally,
    positions: &mut Vec<String>,
) -> Result<(), OutputError> {
    let report = |line: String| {
        if fen {
            console::err(line)
        } else {
            console::out(line)
        }
    };
    for path in files {
        let (name, text) = if path.as_os_str() == "-" {
            let mut bytes = Vec::new();
            let read = io::stdin().lock().read_to_end(&mut bytes);
            ("stdin".to_string(), read.map(|_| bytes))
        } else {
            (path.display().to_string(), std::fs::read(path))
        };
        let text = match text {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                tally.failed += 1;
                report(format!("{name}: cannot read: {e}"))?;
                continue;
            }
        };
        for game in record::parse_games(&text) {
            tally.games += 1;
            match game {
                Ok(game) => {
                    tally.ok += 1;
                    if fen {
                        positions.push(tfen::write(&game.final_position()));
                    }
                }
                Err(e) => {
                    tally.failed += 1;
                    report(format!("{name}: {e}"))?;
                }
            }
        }
    }
    report(format!(
        "games {} ok {} failed {}",
        tally.games, tally.ok, tally.failed
    ))
}
