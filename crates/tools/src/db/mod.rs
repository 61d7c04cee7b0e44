//! `tuzdyk db`: the games database from the command line. `import` reads
//! PlayOK records into it, `games` lists them, `export` writes them back
//! as records, `bench` measures import and explorer speed on generated
//! games. [`open`] is the one way the commands (and `explore`) reach a
//! database: `--db`, or the user's default one, made on first use with the
//! PlayOK games the program carries.

mod bench;

use std::path::{Path, PathBuf};

use serde::Serialize;
use tuzdyk_db::{
    Database, DefaultError, GameFilter, GameRow, GamesError, ImportError, ImportSource, OpenError,
};
use tuzdyk_notation::console::{self, OutputError};

/// `--db PATH`: which database.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct DbPath {
    /// The database file (default: `$TUZDYK_DB`, else
    /// `<data dir>/tuzdyk/games.sqlite`, made with the PlayOK games and
    /// their puzzles on first use).
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
}

/// `tuzdyk db ...`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Import PlayOK game records (every move checked; duplicates skipped).
    Import {
        /// Files of records.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        db: DbPath,
    },
    /// List the games, one line each.
    Games {
        #[command(flatten)]
        db: DbPath,
        #[command(flatten)]
        filter: Filter,
        /// At most this many games.
        #[arg(long, value_name = "N")]
        limit: Option<u64>,
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
    },
    /// Write the games back as PlayOK records on standard output.
    Export {
        #[command(flatten)]
        db: DbPath,
        #[command(flatten)]
        filter: Filter,
    },
    /// Measure: generate games, import them into a fresh database, time the
    /// explorer.
    Bench(bench::Args),
}

/// `--player` and `--result`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Filter {
    /// Games where this player has either side.
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// Games with this result.
    #[arg(long, value_name = "RESULT", value_parser = ["1-0", "0-1", "1/2-1/2", "*"])]
    pub result: Option<String>,
}

/// Why a `db` command failed.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("no database at '{}'", .0.display())]
    Missing(PathBuf),
    #[error("{0}")]
    Open(#[from] OpenError),
    #[error("{0}")]
    Default(#[from] DefaultError),
    #[error("{0}")]
    Import(#[from] ImportError),
    #[error("{0} record(s) were not imported")]
    BadRecords(usize),
    #[error("{0}")]
    Games(#[from] GamesError),
    #[error("{0}")]
    Bench(#[from] bench::BenchError),
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl DbError {
    /// 1 when bad records were left out, 2 when the command could not run.
    pub fn status(&self) -> u8 {
        match self {
            DbError::BadRecords(_) => 1,
            _ => 2,
        }
    }
}

/// Opens the database: `path` (which must exist unless `create`), or the
/// default one, which is made with the PlayOK games when it is new (one
/// line on stderr says so).
///
/// # Errors
/// [`DbError`]: no such file, not a database, the seeding failed.
pub fn open(path: Option<&Path>, create: bool) -> Result<Database, DbError> {
    if let Some(path) = path {
        if !create && !path.exists() {
            return Err(DbError::Missing(path.to_path_buf()));
        }
        return Ok(Database::open(path)?);
    }
    let default = Database::open_default()?;
    if let Some(seeded) = default.seeded {
        console::err(format!(
            "made the games database {} with {} PlayOK games and {} puzzles",
            default.path.display(),
            seeded.games.imported,
            seeded.puzzles.imported
        ))?;
    }
    Ok(default.db)
}

/// Runs `tuzdyk db`.
///
/// # Errors
/// [`DbError`], with its exit status.
pub fn run(args: Args) -> Result<(), DbError> {
    match args.command {
        Command::Import { files, db } => import(&files, db.db.as_deref()),
        Command::Games {
            db,
            filter,
            limit,
            json,
        } => games(db.db.as_deref(), filter, limit, json),
        Command::Export { db, filter } => export(db.db.as_deref(), filter),
        Command::Bench(args) => Ok(bench::run(args)?),
    }
}

fn import(files: &[PathBuf], path: Option<&Path>) -> Result<(), DbError> {
    let mut db = open(path, true)?;
    let summary = import_files(&mut db, files, |db, source, on_bad| {
        db.import(source, on_bad)
    })?;
    if summary.bad > 0 {
        return Err(DbError::BadRecords(summary.bad));
    }
    Ok(())
}

/// Imports `files` one after the other with `import_one` (games, or
/// puzzles): each bad entry one line on stderr as it is found, the summary
/// on stdout at the end.
///
/// # Errors
/// [`DbError`]: the database failed, or a line could not be written.
pub(crate) fn import_files<Bad: std::fmt::Display>(
    db: &mut Database,
    files: &[PathBuf],
    mut import_one: impl FnMut(
        &mut Database,
        ImportSource<'_>,
        &mut dyn FnMut(&Bad),
    ) -> Result<tuzdyk_db::ImportSummary, ImportError>,
) -> Result<tuzdyk_db::ImportSummary, DbError> {
    let mut summary = tuzdyk_db::ImportSummary::default();
    for file in files {
        let mut written = Ok(());
        summary += import_one(db, ImportSource::File(file), &mut |bad| {
            if written.is_ok() {
                written = console::err(bad);
            }
        })?;
        written?;
    }
    console::out(summary)?;
    Ok(summary)
}

fn game_filter(filter: Filter, limit: Option<u64>) -> GameFilter {
    GameFilter {
        player: filter.player,
        result: filter.result,
        limit,
    }
}

/// A game as `db games --json` writes it.
#[derive(Serialize)]
struct GameJson<'a> {
    id: i64,
    white: Option<&'a str>,
    black: Option<&'a str>,
    white_elo: Option<u32>,
    black_elo: Option<u32>,
    result: &'a str,
    event: Option<&'a str>,
    site: Option<&'a str>,
    date: Option<&'a str>,
    plies: u32,
}

fn player(name: Option<&str>, elo: Option<u32>) -> String {
    let name = name.unwrap_or("?");
    match elo {
        Some(elo) => format!("{name} ({elo})"),
        None => name.to_string(),
    }
}

fn game_line(g: &GameRow, json: bool) -> String {
    if json {
        let line = GameJson {
            id: g.id,
            white: g.white.as_deref(),
            black: g.black.as_deref(),
            white_elo: g.white_elo,
            black_elo: g.black_elo,
            result: &g.result,
            event: g.event.as_deref(),
            site: g.site.as_deref(),
            date: g.date.as_deref(),
            plies: g.plies,
        };
        return serde_json::to_string(&line).unwrap_or_else(|e| unreachable!("a JSON line: {e}"));
    }
    format!(
        "{}  {}  {} - {}  {}  {} plies",
        g.id,
        g.date.as_deref().unwrap_or("?"),
        player(g.white.as_deref(), g.white_elo),
        player(g.black.as_deref(), g.black_elo),
        g.result,
        g.plies
    )
}

fn games(
    path: Option<&Path>,
    filter: Filter,
    limit: Option<u64>,
    json: bool,
) -> Result<(), DbError> {
    let db = open(path, false)?;
    for game in db.games(&game_filter(filter, limit))? {
        console::out(game_line(&game, json))?;
    }
    Ok(())
}

fn export(path: Option<&Path>, filter: Filter) -> Result<(), DbError> {
    let db = open(path, false)?;
    db.for_each_record(&game_filter(filter, None), |record| {
        console::out(record).map_err(DbError::from)
    })
}
