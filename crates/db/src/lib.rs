//! The games database: a SQLite file holding imported game records, the
//! opening explorer built from them, and the study tables (puzzles and the
//! solver's rating, studies, the mistakes to learn from). `docs/database.md`
//! gives the schema.
//!
//! - [`Database`]: opening (creating and migrating, [`schema`]), and the
//!   operations of the modules below, each with its own error;
//! - [`import`]: PlayOK records in, checked, deduplicated, in batches;
//! - [`games`]: the games as rows, and back to records;
//! - [`explorer`]: the moves played in a position, with their results;
//! - [`deep`]: which games pass through a position after the opening;
//! - [`study`]: puzzles, the solver, attempts, studies, mistakes;
//! - [`mining`]: which games the puzzle miner did, puzzles as JSON lines;
//! - [`seed`]: what a new default database starts with
//!   ([`Database::open_default`]);
//! - [`default_path`]: where the user's database lives.
//!
//! ```
//! use tuzdyk_db::{Database, ImportSource};
//! use tuzdyk_rules::Position;
//!
//! let mut db = Database::open_in_memory().unwrap();
//! let text = "[White \"a\"]\n[Black \"b\"]\n\n1. 65(10) 98 *\n";
//! let summary = db.import(ImportSource::Text { name: "t", text }, |_| {}).unwrap();
//! assert_eq!(summary.imported, 1);
//! let moves = db.explore(&Position::startpos()).unwrap();
//! assert_eq!((moves[0].mv.number(), moves[0].games), (6, 1));
//! ```

mod codec;
pub mod deep;
pub mod explorer;
pub mod games;
pub mod import;
pub mod mining;
pub mod schema;
pub mod seed;
pub mod study;

use std::path::{Path, PathBuf};

use rusqlite::Connection;

pub use explorer::{ExploreError, MoveStats};
pub use games::{GameFilter, GameRow, GamesError};
pub use import::{BadRecord, ImportError, ImportSource, ImportSummary};
pub use mining::{BadLine, LineError, PuzzleLine, Shard, ShardError, SourceGame};
pub use seed::{DefaultDatabase, DefaultError, Seeded};
pub use study::{Mistake, Puzzle, PuzzleAttempt, SolverRating, Study, StudyError};

/// How long an operation waits for another connection's write before it
/// fails: longer than an import's batch takes on a slow machine.
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Setups of a busy new file tried again, and the pause between: 10 s in
/// all, for another program making the same database.
const OPEN_RETRIES: u32 = 200;
const OPEN_RETRY_PAUSE: std::time::Duration = std::time::Duration::from_millis(50);

/// Whether SQLite refused because another connection holds the file.
fn is_busy(error: &rusqlite::Error) -> bool {
    matches!(
        error.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

/// An open games database.
pub struct Database {
    conn: Connection,
}

/// Why a database could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("cannot create the folder '{}': {error}", path.display())]
    Folder {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
    #[error("cannot open '{}': {error}", path.display())]
    Open {
        path: PathBuf,
        #[source]
        error: rusqlite::Error,
    },
    #[error("'{}' is not a games database: {error}", path.display())]
    NotADatabase {
        path: PathBuf,
        #[source]
        error: rusqlite::Error,
    },
    #[error("'{}' is version {found} of the games database, newer than this program's {known}", path.display())]
    TooNew {
        path: PathBuf,
        found: i64,
        known: usize,
    },
}

impl Database {
    /// Opens the database at `path`, creating it (and its folder) when it
    /// does not exist, and brings its schema to the latest version.
    ///
    /// # Errors
    /// [`OpenError`] naming the file: not creatable, not SQLite, or a
    /// version this program does not know.
    pub fn open(path: &Path) -> Result<Database, OpenError> {
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder).map_err(|error| OpenError::Folder {
                path: folder.to_path_buf(),
                error,
            })?;
        }
        // Another program may be making the same new file (the GUI and a
        // `db` command on a new default database): a setup that finds the
        // file busy starts again, a bounded number of times.
        let mut tries = 0;
        loop {
            let conn = Connection::open(path).map_err(|error| OpenError::Open {
                path: path.to_path_buf(),
                error,
            })?;
            match Database::setup(conn, path) {
                Err(OpenError::NotADatabase { error, .. })
                    if is_busy(&error) && tries < OPEN_RETRIES =>
                {
                    tries += 1;
                    std::thread::sleep(OPEN_RETRY_PAUSE);
                }
                opened => return opened,
            }
        }
    }

    /// Opens an existing database for reading only, as it is (no
    /// migration, no indexing): for watching a database another process
    /// writes.
    ///
    /// # Errors
    /// [`OpenError::Open`].
    pub fn open_read_only(path: &Path) -> Result<Database, OpenError> {
        let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
        let conn = Connection::open_with_flags(path, flags).map_err(|error| OpenError::Open {
            path: path.to_path_buf(),
            error,
        })?;
        Ok(Database { conn })
    }

    /// A database in memory (tests, examples).
    ///
    /// # Errors
    /// [`OpenError`] if SQLite cannot start.
    pub fn open_in_memory() -> Result<Database, OpenError> {
        let path = Path::new(":memory:");
        let conn = Connection::open_in_memory().map_err(|error| OpenError::Open {
            path: path.to_path_buf(),
            error,
        })?;
        Database::setup(conn, path)
    }

    fn setup(mut conn: Connection, path: &Path) -> Result<Database, OpenError> {
        let not_db = |error| OpenError::NotADatabase {
            path: path.to_path_buf(),
            error,
        };
        conn.busy_timeout(BUSY_TIMEOUT).map_err(not_db)?;
        // WAL: readers (the explorer) never wait for an import, and a
        // commit is one append; NORMAL sync is safe with WAL (a power cut
        // may lose the last commits, never corrupt the file).
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(not_db)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(not_db)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(not_db)?;
        // 64 MB of page cache: the explorer index's upper levels stay in memory.
        conn.pragma_update(None, "cache_size", -65536)
            .map_err(not_db)?;
        schema::migrate(&mut conn).map_err(|e| match e {
            schema::MigrateError::Sql(error) => not_db(error),
            schema::MigrateError::TooNew(found) => OpenError::TooNew {
                path: path.to_path_buf(),
                found,
                known: schema::MIGRATIONS.len(),
            },
        })?;
        let mut db = Database { conn };
        db.index_pending().map_err(not_db)?;
        Ok(db)
    }

    /// The schema version (`PRAGMA user_version`).
    ///
    /// # Errors
    /// A SQLite error.
    pub fn version(&self) -> rusqlite::Result<i64> {
        self.conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
    }

    /// The SQLite connection, for what the typed API does not cover.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }
}

/// The environment variable that overrides [`default_path`] (tests,
/// scripts).
pub const DB_ENV: &str = "TUZDYK_DB";

/// The user's database: `$TUZDYK_DB` when set, else
/// `<data dir>/tuzdyk/games.sqlite` (`~/.local/share` on Linux, or
/// `$XDG_DATA_HOME`). `None` when the system has no data directory.
pub fn default_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(DB_ENV).filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    dirs::data_dir().map(|dir| dir.join("tuzdyk").join("games.sqlite"))
}

#[cfg(test)]
mod tests;
