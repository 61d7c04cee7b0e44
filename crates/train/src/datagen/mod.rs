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
use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

pub use args::{Args, PliesRange, Shard};
pub use record::{RECORD_SIZE, Reader, Record};

use game::Recipe;

/// Runs `tuzdyk datagen`.
pub fn run(args: Args) -> ExitCode {
    if let Some(path) = &args.info {
        return print_info(path);
    }
    let (Some(games), Some(out)) = (args.games, args.out.as_deref()) else {
        return fail("--games and --out are needed unless --info is given");
    };
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let range = args.shard.games(games);
    let file = match File::create(out) {
        Ok(file) => file,
        Err(e) => return fail(format!("cannot write {}: {e}", out.display())),
    };
    let evaluator = match args.evaluator() {
        Ok(evaluator) => evaluator,
        Err(e) => return fail(e),
    };
    let recipe = Recipe {
        seed: args.seed,
        evaluator,
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
    let generated = run::generate(&suite, &recipe, range, threads, &mut writer, &mut |c| {
        progress.update(c)
    });
    match generated {
        Ok(counts) => {
            progress.finish(&counts);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", out.display());
            ExitCode::from(1)
        }
    }
}

fn print_info(path: &Path) -> ExitCode {
    match info::read(path) {
        Ok(stats) => {
            let stdout = std::io::stdout();
            let _ = stdout.lock().write_all(stats.report().as_bytes());
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// Prints `error: <message>` on stderr; exit status 2.
fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}
