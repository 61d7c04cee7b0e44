//! `tuzdyk db bench`: the database's speed on generated games, through the
//! paths users take. It generates `--games` games in process with the
//! rules (a seeded policy: one move in four random, the others the move
//! that gains most net of the best capture in reply, so that openings vary
//! and games last about as long as PlayOK's, 147 plies on average), writes
//! them as one
//! PlayOK record file, imports that file into a fresh database with
//! `Database::import`, then times the explorer on positions sampled from
//! the games (the start position first). It prints one line per figure;
//! the targets (docs/database.md) are for 100,000 games.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use tuzdyk_db::explorer::OPENING_PLIES;
use tuzdyk_db::{Database, ImportSource};
use tuzdyk_notation::console::{self, OutputError};
use tuzdyk_notation::record::GameRecord;
use tuzdyk_rules::rng::SplitMix64;
use tuzdyk_rules::{Game, Move, Position};

/// `tuzdyk db bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Games to generate and import.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// The database to make (it must not exist; default: one in a
    /// temporary folder, removed at the end).
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
    /// Explorer look-ups to time.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    lookups: u64,
    /// The generator's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Why the benchmark stopped.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("'{}' exists: the benchmark makes a fresh database", .0.display())]
    Exists(PathBuf),
    #[error("cannot write '{}': {error}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
    #[error("{0}")]
    Open(#[from] tuzdyk_db::OpenError),
    #[error("{0}")]
    Import(#[from] tuzdyk_db::ImportError),
    #[error("{0} generated records were refused: the generator and the reader disagree")]
    Refused(usize),
    #[error("{0}")]
    Explore(#[from] tuzdyk_db::ExploreError),
    #[error("{0}")]
    Output(#[from] OutputError),
}

/// The longest generated game; the policy ends nearly every game before.
const MAX_PLIES: usize = 400;

/// One move in this many is random, the others careful (below).
const RANDOM_ONE_IN: usize = 4;

/// One generated game: one move in [`RANDOM_ONE_IN`] random, the others the move that gains
/// most net of the opponent's best capture in reply (ties at random). Real
/// players avoid handing over stones, which is what makes their games long.
fn generate(rng: &mut SplitMix64, random_one_in: usize) -> Game {
    let mut game = Game::new(Position::startpos());
    while game.game_over().is_none() && game.moves().len() < MAX_PLIES {
        let pos = *game.position();
        let moves: Vec<Move> = pos.legal_moves().collect();
        let mv = if rng.below(random_one_in) != 0 {
            let net = |m: Move| {
                let mut child = pos;
                let taken = i32::from(child.play(m).captured);
                taken - i32::from(child.immediate_gains(child.side_to_move()).best())
            };
            let scored: Vec<(i32, Move)> = moves.iter().map(|&m| (net(m), m)).collect();
            let best = scored.iter().map(|s| s.0).max().unwrap_or(0);
            let top: Vec<Move> = scored.iter().filter(|s| s.0 == best).map(|s| s.1).collect();
            *rng.pick(&top)
        } else {
            *rng.pick(&moves)
        };
        // A legal move of the position just asked.
        let _ = game.play(mv);
    }
    game
}

/// The record file of `count` generated games, and the games.
fn records(count: u64, seed: u64) -> (String, Vec<Game>) {
    let mut rng = SplitMix64::new(seed);
    let mut text = String::new();
    let mut games = Vec::new();
    for i in 0..count {
        let game = generate(&mut rng, RANDOM_ONE_IN);
        let mut record = GameRecord::new(game.clone(), game.game_over().map(|(r, _)| r));
        record.set_tag("Event", "bench");
        record.set_tag("Round", &(i + 1).to_string());
        record.set_tag("White", &format!("player{}", rng.below(2000)));
        record.set_tag("Black", &format!("player{}", rng.below(2000)));
        record.set_tag("WhiteElo", &(1000 + rng.below(1200)).to_string());
        record.set_tag("BlackElo", &(1000 + rng.below(1200)).to_string());
        let _ = writeln!(text, "{record}");
        games.push(game);
    }
    (text, games)
}

/// Runs the benchmark.
///
/// # Errors
/// [`BenchError`].
pub fn run(args: Args) -> Result<(), BenchError> {
    let (path, temporary) = match args.db {
        Some(path) if path.exists() => return Err(BenchError::Exists(path)),
        Some(path) => (path, None),
        None => {
            let dir = std::env::temp_dir().join(format!("tuzdyk-db-bench-{}", std::process::id()));
            (dir.join("bench.sqlite"), Some(dir))
        }
    };
    let result = measure(&path, args.games, args.lookups, args.seed);
    if let Some(dir) = temporary {
        let _ = std::fs::remove_dir_all(dir);
    }
    result
}

fn measure(path: &std::path::Path, count: u64, lookups: u64, seed: u64) -> Result<(), BenchError> {
    let started = Instant::now();
    let (text, games) = records(count, seed);
    let plies: usize = games.iter().map(|g| g.moves().len()).sum();
    let records_path = path.with_extension("pgn");
    if let Some(dir) = records_path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|error| BenchError::Write {
            path: dir.to_path_buf(),
            error,
        })?;
    }
    std::fs::write(&records_path, &text).map_err(|error| BenchError::Write {
        path: records_path.clone(),
        error,
    })?;
    console::out(format!(
        "generated {count} games, {:.1} plies on average, {} bytes of records, in {:.1} s",
        plies as f64 / count as f64,
        text.len(),
        started.elapsed().as_secs_f64()
    ))?;
    drop(text);

    let started = Instant::now();
    let mut db = Database::open(path)?;
    let summary = db.import(ImportSource::File(&records_path), |_| {})?;
    let seconds = started.elapsed().as_secs_f64();
    if summary.bad > 0 {
        return Err(BenchError::Refused(summary.bad));
    }
    // Everything into the main file, so that its size is the database's.
    let _ = db
        .connection()
        .execute_batch("PRAGMA wal_checkpoint(TRUNCATE);");
    drop(db);
    let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    console::out(format!(
        "import {} games ({} duplicates) in {seconds:.2} s: {:.0} games/s",
        summary.imported,
        summary.duplicates,
        summary.imported as f64 / seconds
    ))?;
    console::out(format!(
        "database {bytes} bytes: {:.0} bytes per game (explorer: every ply, rows for the first {OPENING_PLIES})",
        bytes as f64 / count as f64
    ))?;

    let db = Database::open(path)?;
    let mut rng = SplitMix64::new(seed ^ 0x5eed);
    let mut times = Vec::with_capacity(lookups as usize);
    let mut found = 0;
    for i in 0..lookups {
        let position = if i == 0 {
            Position::startpos()
        } else {
            let game = rng.pick(&games);
            // Any ply but the last position (no move is played there).
            game.position_at(rng.below(game.moves().len()))
        };
        let started = Instant::now();
        let moves = db.explore(&position)?;
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        found += usize::from(!moves.is_empty());
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    console::out(format!(
        "explorer {lookups} positions ({found} with moves): median {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        at(0.5),
        at(0.99),
        at(1.0)
    ))?;
    let _ = std::fs::remove_file(&records_path);
    Ok(())
}
