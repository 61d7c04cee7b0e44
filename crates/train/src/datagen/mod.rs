//! `tuzdyk datagen`: training data for a learned evaluation (an NNUE-style
//! network), from the engine's self-play at a fixed node count.
//!
//! Game `i` (0-based over all `--games`) starts from an opening drawn by a
//! generator seeded with `(seed, i)` only ([`game::opening`]) and is played
//! by a searcher reset for it (one thread, a small table), so it is the
//! same game whatever the thread count or the shard. `--shard K/N` plays the
//! contiguous games `[K*games/N, (K+1)*games/N)`; records are written in
//! game order with no file header, so the shards' files concatenated in
//! order are byte for byte the file of one run.
//!
//! - [`record`]: the 32-byte record, its layout, and a reader;
//! - [`game`]: the openings, the self-play and the filters;
//! - [`run`]: the worker threads and the writer that keeps game order;
//! - [`progress`]: the bar, the plain lines and the summary on stderr;
//! - [`info`]: `--info FILE`, a check and summary of a file;
//! - [`args`]: the command line.
//!
//! `docs/datagen.md` is the user's documentation.

pub mod args;
pub mod game;
pub mod info;
pub mod progress;
pub mod record;
pub mod run;

use std::fs::File;
use std::io::BufWriter;

use tuzdyk_notation::console::{self, OutputError, Stream};

pub use args::{Args, PliesRange, Shard};
pub use record::{RECORD_SIZE, Reader, Record};

use crate::WriteError;
use game::Recipe;
use info::InfoError;
use run::Stopped;
use tuzdyk_search::eval::ChoiceError;

/// Why `datagen` failed.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    #[error("--games and --out are needed unless --info is given")]
    Missing,
    #[error("--eval {0}")]
    Eval(#[from] ChoiceError),
    /// `--out` cannot be made: nothing was played.
    #[error("{0}")]
    Create(WriteError),
    /// The records stopped being written during the run.
    #[error("{0}")]
    Write(WriteError),
    #[error(transparent)]
    Info(#[from] InfoError),
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl DatagenError {
    /// Bad arguments or files are 2; a run that could not write its
    /// records (it had started) is 1.
    pub fn status(&self) -> u8 {
        match self {
            DatagenError::Write(_) => 1,
            _ => 2,
        }
    }
}

/// Runs `tuzdyk datagen`.
///
/// # Errors
/// [`DatagenError`]; the records written before it stay valid (a shorter
/// run's file).
pub fn run(args: Args) -> Result<(), DatagenError> {
    if let Some(path) = &args.info {
        let report = info::read(path)?.report();
        return Ok(console::write(Stream::Output, &report)?);
    }
    let (Some(games), Some(out)) = (args.games, args.out.as_deref()) else {
        return Err(DatagenError::Missing);
    };
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let range = args.shard.games(games);
    let file =
        File::create(out).map_err(|error| DatagenError::Create(WriteError::new(out, error)))?;
    let recipe = Recipe {
        seed: args.seed,
        evaluator: args.evaluator()?,
        nodes: args.nodes,
        random_plies: args.random_plies,
    };
    log::info!(
        "datagen: games {range:?} of {games} (shard {}/{}), {} nodes, seed {}, {threads} threads, {:?}",
        args.shard.index,
        args.shard.count,
        recipe.nodes,
        recipe.seed,
        recipe.evaluator
    );
    let suite = tuzdyk_notation::suite::playok_positions();
    let mut writer = BufWriter::new(file);
    let mut progress = progress::Progress::new(range.end - range.start);
    let threads = threads.min((range.end - range.start).max(1) as usize);
    let counts = run::generate(&suite, &recipe, range, threads, &mut writer, &mut |c| {
        progress.update(c)
    })
    .map_err(|stopped| match stopped {
        Stopped::Write(error) => DatagenError::Write(WriteError::new(out, error)),
        Stopped::Progress(error) => error.into(),
    })?;
    Ok(progress.finish(&counts)?)
}
