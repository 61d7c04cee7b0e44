//! `tuzdyk puzzles`: puzzles mined from the games of the database.
//! `mine` searches the games of one shard (`--shard K/N`) with an engine
//! ([`tuzdyk_analysis::puzzles`] finds and checks them) and stores the new
//! ones, recording each game mined so that a rerun resumes; `export`
//! writes them one a line (JSON with `--json`); `import` merges exported
//! JSON lines (the shards' output), every line checked.

use std::path::{Path, PathBuf};

use tuzdyk_analysis::puzzles::{self, DEFAULT_DEPTH, MineDepth};
use tuzdyk_analysis::{AnalysisError, SearchLimits, Searcher};
use tuzdyk_db::study::{Puzzle, StudyError};
use tuzdyk_db::{Database, GamesError, ImportError, OpenError, PuzzleLine, Shard, ShardError};
use tuzdyk_notation::console::{self, OutputError};
use tuzdyk_protocol::{ClientError, EngineOption};

use crate::EngineCmd;
use crate::db::DbPath;

/// `tuzdyk puzzles ...`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Find puzzles in the database's games and store the new ones.
    Mine {
        #[command(flatten)]
        db: DbPath,
        /// Mine shard K of N: the games whose id satisfies
        /// (id-1) % N == K-1.
        #[arg(long, value_name = "K/N", default_value = "1/1")]
        shard: String,
        /// Search every position to this depth (candidates 4 plies deeper).
        #[arg(long, value_name = "PLIES", default_value_t = DEFAULT_DEPTH,
              value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
        /// A progress line on stderr every this many games.
        #[arg(long, value_name = "N", default_value_t = 50,
              value_parser = clap::value_parser!(u64).range(1..))]
        every: u64,
        #[command(flatten)]
        engine: EngineCmd,
    },
    /// Write the puzzles, one a line.
    Export {
        #[command(flatten)]
        db: DbPath,
        /// One JSON object a line (what `import` reads).
        #[arg(long)]
        json: bool,
    },
    /// Merge exported JSON lines (duplicates skipped, every line checked).
    Import {
        /// Files of `export --json` lines.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        db: DbPath,
    },
}

/// Why a `puzzles` command failed.
#[derive(Debug, thiserror::Error)]
pub enum PuzzlesError {
    #[error("--shard: {0}")]
    Shard(#[from] ShardError),
    #[error("{0}")]
    Database(#[from] crate::db::DbError),
    #[error("{0}")]
    Open(#[from] OpenError),
    #[error("{0}")]
    Study(#[from] StudyError),
    #[error("{0}")]
    Games(#[from] GamesError),
    #[error("{0}")]
    Import(#[from] ImportError),
    #[error("{0}")]
    Engine(#[from] ClientError),
    /// The engine could not be started or set up.
    #[error("{0}")]
    Start(AnalysisError),
    #[error("game {game}: {error}")]
    Analysis { game: i64, error: AnalysisError },
    #[error("{0} line(s) were not imported")]
    BadLines(usize),
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl PuzzlesError {
    /// 1 when bad lines were left out, 2 when the command could not run.
    pub fn status(&self) -> u8 {
        match self {
            PuzzlesError::BadLines(_) => 1,
            _ => 2,
        }
    }
}

/// Runs `tuzdyk puzzles`.
///
/// # Errors
/// [`PuzzlesError`], with its exit status.
pub fn run(args: Args) -> Result<(), PuzzlesError> {
    match args.command {
        Command::Mine {
            db,
            shard,
            depth,
            every,
            engine,
        } => {
            let shard: Shard = shard.parse()?;
            mine(
                db.db.as_deref(),
                shard,
                MineDepth::new(depth),
                every,
                &engine,
            )
        }
        Command::Export { db, json } => export(db.db.as_deref(), json),
        Command::Import { files, db } => import(&files, db.db.as_deref()),
    }
}

/// The database, as every `db` command opens it ([`crate::db::open`]).
fn open(path: Option<&Path>, create: bool) -> Result<Database, PuzzlesError> {
    Ok(crate::db::open(path, create)?)
}

/// What a `mine` run did.
#[derive(Default)]
struct Mined {
    games: usize,
    found: usize,
    new: usize,
    rejected: usize,
}

fn mine(
    path: Option<&Path>,
    shard: Shard,
    depth: MineDepth,
    every: u64,
    engine: &EngineCmd,
) -> Result<(), PuzzlesError> {
    let db = open(path, false)?;
    let before = db.mined_count(shard)?;
    let todo = db.games_to_mine(shard)?;
    let mut totals = Mined::default();
    if !todo.is_empty() {
        // One thread and a depth limit: the same answers on every machine.
        let options = [(EngineOption::Threads, 1), (EngineOption::MultiPv, 2)];
        let mut searcher =
            Searcher::start(&engine.spec()?, &options, SearchLimits::depth(depth.depth)).map_err(
                |error| PuzzlesError::Analysis {
                    game: todo[0],
                    error,
                },
            )?;
        let mined = mine_games(&db, &mut searcher, &todo, shard, depth, every, &mut totals);
        searcher.quit();
        mined?;
    }
    console::out(format!(
        "shard {shard}: mined {} games ({before} done before), found {} puzzles, {} new, \
         {} games the engine rejected; depth {} confirmed at {}",
        totals.games, totals.found, totals.new, totals.rejected, depth.depth, depth.confirm
    ))?;
    Ok(())
}

fn mine_games(
    db: &Database,
    searcher: &mut Searcher,
    todo: &[i64],
    shard: Shard,
    depth: MineDepth,
    every: u64,
    totals: &mut Mined,
) -> Result<(), PuzzlesError> {
    for &id in todo {
        let Some(record) = db.record(id)? else {
            continue;
        };
        let analysis = |error| PuzzlesError::Analysis { game: id, error };
        searcher.new_game().map_err(analysis)?;
        let found = match puzzles::mine_game(searcher, &record.game, depth) {
            Ok(found) => found,
            Err(AnalysisError::Rejected(rejected)) => {
                totals.rejected += 1;
                console::err(format!("game {id}: {}", AnalysisError::Rejected(rejected)))?;
                Vec::new()
            }
            Err(error) => return Err(analysis(error)),
        };
        let mut new = 0;
        for f in &found {
            let puzzle = Puzzle {
                id: 0,
                position: f.position,
                solution: f.solution.clone(),
                themes: f.theme_names(),
                rating: f.rating,
                deviation: 350.0,
                volatility: 0.06,
                attempts: 0,
                source: Some((id, f.ply as u32)),
            };
            if db.add_puzzle(&puzzle)?.is_some() {
                new += 1;
            }
        }
        db.mark_mined(id, depth.depth, new)?;
        totals.games += 1;
        totals.found += found.len();
        totals.new += new;
        if (totals.games as u64).is_multiple_of(every) || totals.games == todo.len() {
            console::err(format!(
                "shard {shard}: {}/{} games, {} puzzles new",
                totals.games,
                todo.len(),
                totals.new
            ))?;
        }
    }
    Ok(())
}

/// A puzzle as `export` writes it without `--json`.
fn text_line(p: &PuzzleLine) -> String {
    let holes: Vec<String> = p.solution.iter().map(u32::to_string).collect();
    let game = match &p.game {
        Some(g) => format!(
            "  game {} ply {} {} - {}",
            g.id,
            g.ply,
            g.white.as_deref().unwrap_or("?"),
            g.black.as_deref().unwrap_or("?")
        ),
        None => String::new(),
    };
    format!(
        "{}  {}  solution {}  {}  rating {:.0}{game}",
        p.id,
        p.fen,
        holes.join(" "),
        if p.themes.is_empty() {
            "-".to_string()
        } else {
            p.themes.join(",")
        },
        p.rating
    )
}

fn export(path: Option<&Path>, json: bool) -> Result<(), PuzzlesError> {
    let db = open(path, false)?;
    for line in db.puzzle_lines()? {
        console::out(if json {
            line.to_json()
        } else {
            text_line(&line)
        })?;
    }
    Ok(())
}

fn import(files: &[PathBuf], path: Option<&Path>) -> Result<(), PuzzlesError> {
    let mut db = open(path, true)?;
    let summary = crate::db::import_files(&mut db, files, |db, source, on_bad| {
        db.import_puzzles(source, on_bad)
    })?;
    if summary.bad > 0 {
        return Err(PuzzlesError::BadLines(summary.bad));
    }
    Ok(())
}
