//! Training the evaluation from self-play, in process like `bench`: the
//! search's own trainer, not a protocol client.
//!
//! - Texel tuning ([`texel`], `tuzdyk tune`): self-play games give
//!   positions labelled with their final result, and logistic regression
//!   fits every evaluation weight to predict those results; it can rewrite
//!   `crates/search/src/eval/classic/weights.rs` (see STRENGTH.md for the
//!   command);
//! - training data for a network ([`datagen`], `tuzdyk datagen`): positions
//!   with their search score and their game's outcome, in a compact binary
//!   format (`docs/datagen.md`);
//! - the network trainer ([`network`]);
//! - [`selfplay`]: the one self-play loop that tuning and datagen use.

pub mod datagen;
pub mod network;
pub mod selfplay;
pub mod texel;

use std::io;
use std::path::{Path, PathBuf};

use tuzdyk_notation::console::{self, OutputError, Stream};

/// `tuzdyk tune` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Self-play games to generate (skipped when --data exists and --reuse is given).
    #[arg(long, default_value_t = 3000)]
    pub games: usize,
    /// Nodes searched per self-play move.
    #[arg(long, default_value_t = 3000)]
    pub nodes: u64,
    /// Seed of the random opening moves (the run is reproducible for a seed).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where the labelled positions go (and are read from with --reuse).
    #[arg(long, default_value = "target/tune-positions.txt")]
    pub data: PathBuf,
    /// Use the positions already in --data instead of playing new games.
    #[arg(long)]
    pub reuse: bool,
    /// Gradient steps of the fit.
    #[arg(long, default_value_t = 3000)]
    pub iterations: usize,
    /// Rewrite this weights file (normally crates/search/src/eval/classic/weights.rs) with the result.
    #[arg(long)]
    pub write: Option<PathBuf>,
    /// Worker threads for self-play (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// A file that cannot be written (the commands' own output is the
/// console's `OutputError`).
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {error}", .path.display())]
pub struct WriteError {
    pub path: PathBuf,
    #[source]
    pub error: io::Error,
}

impl WriteError {
    pub fn new(path: &Path, error: io::Error) -> WriteError {
        WriteError {
            path: path.to_path_buf(),
            error,
        }
    }

    /// [`WriteError::new`] for `map_err`.
    pub fn to(path: &Path) -> impl FnOnce(io::Error) -> WriteError + '_ {
        move |error| WriteError::new(path, error)
    }
}

/// Why `tune` failed.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    #[error("cannot start {threads} threads: {error}")]
    Threads {
        threads: usize,
        error: rayon::ThreadPoolBuildError,
    },
    #[error("{0}")]
    Write(#[from] WriteError),
    #[error(transparent)]
    Load(#[from] selfplay::LoadError),
    #[error("no positions in {}", .0.display())]
    Empty(PathBuf),
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl TuneError {
    /// Every failure leaves no weights: 2.
    pub fn status(&self) -> u8 {
        2
    }
}

/// Runs `tuzdyk tune`.
///
/// # Errors
/// [`TuneError`]: threads that cannot start, files that cannot be read or
/// written, output that cannot be written.
pub fn run(args: Args) -> Result<(), TuneError> {
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if !args.reuse {
        console::err(format_args!(
            "playing {} self-play games at {} nodes per move on {threads} threads (seed {})",
            args.games, args.nodes, args.seed
        ))?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .map_err(|error| TuneError::Threads { threads, error })?;
        let samples = pool.install(|| selfplay::generate(args.games, args.nodes, args.seed));
        selfplay::save(&args.data, &samples).map_err(WriteError::to(&args.data))?;
        console::err(format_args!(
            "{} positions written to {}",
            samples.len(),
            args.data.display()
        ))?;
    }
    let samples = selfplay::load(&args.data)?;
    if samples.is_empty() {
        return Err(TuneError::Empty(args.data.clone()));
    }
    let fit = texel::fit(&samples, args.iterations, |step, loss| {
        if step % 500 == 0 {
            console::err(format_args!("step {step} loss {loss:.6}"))?;
        }
        Ok::<(), TuneError>(())
    })?;
    let made_by = if args.reuse {
        format!("tuzdyk tune --reuse --data {}", args.data.display())
    } else {
        format!(
            "tuzdyk tune --games {} --nodes {} --seed {}",
            args.games, args.nodes, args.seed
        )
    };
    let made_by = format!("{made_by} --iterations {}", args.iterations);
    let source = texel::weights_source(&fit.weights, &made_by);
    let mut report = format!(
        "positions {} k {:.5} loss before {:.6} after {:.6}\n",
        samples.len(),
        fit.k,
        fit.loss_before,
        fit.loss_after
    );
    match &args.write {
        Some(path) => {
            std::fs::write(path, &source).map_err(WriteError::to(path))?;
            report.push_str(&format!("weights written to {}\n", path.display()));
        }
        None => report.push_str(&source),
    }
    Ok(console::write(Stream::Output, &report)?)
}
