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

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

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
    /// Rewrite this weights file (normally crates/search/src/eval/weights.rs) with the result.
    #[arg(long)]
    pub write: Option<PathBuf>,
    /// Worker threads for self-play (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Runs `tuzdyk tune`.
pub fn run(args: Args) -> ExitCode {
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if !args.reuse {
        eprintln!(
            "playing {} self-play games at {} nodes per move on {threads} threads (seed {})",
            args.games, args.nodes, args.seed
        );
        let pool = match rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
        {
            Ok(pool) => pool,
            Err(e) => {
                eprintln!("error: cannot start {threads} threads: {e}");
                return ExitCode::from(2);
            }
        };
        let samples = pool.install(|| selfplay::generate(args.games, args.nodes, args.seed));
        if let Err(e) = selfplay::save(&args.data, &samples) {
            eprintln!("error: cannot write {}: {e}", args.data.display());
            return ExitCode::from(2);
        }
        eprintln!(
            "{} positions written to {}",
            samples.len(),
            args.data.display()
        );
    }
    let samples = match selfplay::load(&args.data) {
        Ok(samples) => samples,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if samples.is_empty() {
        eprintln!("error: no positions in {}", args.data.display());
        return ExitCode::from(2);
    }
    let fit = texel::fit(&samples, args.iterations, |step, loss| {
        if step % 500 == 0 {
            eprintln!("step {step} loss {loss:.6}");
        }
    });
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(
        out,
        "positions {} k {:.5} loss before {:.6} after {:.6}",
        samples.len(),
        fit.k,
        fit.loss_before,
        fit.loss_after
    );
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
    if let Some(path) = &args.write {
        if let Err(e) = std::fs::write(path, &source) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
        let _ = writeln!(out, "weights written to {}", path.display());
    } else {
        let _ = write!(out, "{source}");
    }
    ExitCode::SUCCESS
}
