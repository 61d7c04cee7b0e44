//! What a new default database starts with: the PlayOK games of the
//! repository and the puzzles mined from them (`data/puzzles.jsonl`, made
//! by `tuzdyk puzzles mine` and `export --json`). The games go first, so
//! the puzzles' games have the ids they were mined with.

use std::path::PathBuf;

use crate::{Database, ImportError, ImportSource, ImportSummary, OpenError};

/// The 1,229 PlayOK games of `tests/data/` (the one copy).
pub const PLAYOK_GAMES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/playok-games.pgn"
));

/// The puzzles mined from [`PLAYOK_GAMES`], one JSON line each.
pub const PUZZLES: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/puzzles.jsonl"));

/// What seeding added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seeded {
    pub games: ImportSummary,
    pub puzzles: ImportSummary,
}

/// The default database, open.
pub struct DefaultDatabase {
    pub db: Database,
    pub path: PathBuf,
    /// What it was filled with, when it was made now.
    pub seeded: Option<Seeded>,
}

/// Why the default database could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum DefaultError {
    #[error(
        "the system has no data folder for the default database: give --db PATH or set TUZDYK_DB"
    )]
    NoDataFolder,
    #[error("{0}")]
    Open(#[from] OpenError),
    #[error("cannot fill the new database: {0}")]
    Seed(#[from] ImportError),
}

impl Database {
    /// Adds the PlayOK games and the shipped puzzles (what a new default
    /// database starts with); what is there already is skipped.
    ///
    /// # Errors
    /// [`ImportError`] when SQLite fails.
    pub fn seed(&mut self) -> Result<Seeded, ImportError> {
        let games = self.import(
            ImportSource::Text {
                name: "playok-games.pgn",
                text: PLAYOK_GAMES,
            },
            |_| {},
        )?;
        let puzzles = self.import_puzzles(
            ImportSource::Text {
                name: "puzzles.jsonl",
                text: PUZZLES,
            },
            |_| {},
        )?;
        Ok(Seeded { games, puzzles })
    }

    /// Opens the user's database ([`crate::default_path`]), made and
    /// seeded ([`Database::seed`]) when it does not exist.
    ///
    /// # Errors
    /// [`DefaultError`].
    pub fn open_default() -> Result<DefaultDatabase, DefaultError> {
        let path = crate::default_path().ok_or(DefaultError::NoDataFolder)?;
        let new = !path.exists();
        let mut db = Database::open(&path)?;
        let seeded = if new { Some(db.seed()?) } else { None };
        Ok(DefaultDatabase { db, path, seeded })
    }
}
