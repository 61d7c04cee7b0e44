//! The schema and its migrations. `PRAGMA user_version` is the number of
//! steps of [`MIGRATIONS`] applied; opening a database applies the missing
//! ones in order, each in one transaction (a step that fails leaves the
//! database at the version before it). A step once released never changes:
//! a change to the schema is a new step. `docs/database.md` describes the
//! tables.

use rusqlite::{Connection, TransactionBehavior};

/// Version 1: the games, their players and the opening explorer.
pub const V1_GAMES: &str = "
CREATE TABLE players (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE games (
    id        INTEGER PRIMARY KEY,
    hash      INTEGER NOT NULL UNIQUE,
    white     INTEGER REFERENCES players(id),
    black     INTEGER REFERENCES players(id),
    white_elo INTEGER,
    black_elo INTEGER,
    result    TEXT NOT NULL,
    event     TEXT,
    site      TEXT,
    date      TEXT,
    fen       TEXT,
    plies     INTEGER NOT NULL,
    moves     BLOB NOT NULL,
    tags      TEXT,
    comment   TEXT,
    indexed   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX games_unindexed ON games(id) WHERE indexed = 0;
CREATE INDEX games_white ON games(white);
CREATE INDEX games_black ON games(black);
CREATE TABLE explorer (
    key        INTEGER NOT NULL,
    move       INTEGER NOT NULL,
    games      INTEGER NOT NULL,
    white_wins INTEGER NOT NULL,
    draws      INTEGER NOT NULL,
    black_wins INTEGER NOT NULL,
    rating_sum INTEGER NOT NULL,
    rated      INTEGER NOT NULL,
    PRIMARY KEY (key, move)
) WITHOUT ROWID;
";

/// Version 2: the study tables.
pub const V2_STUDY: &str = "
CREATE TABLE puzzles (
    id         INTEGER PRIMARY KEY,
    fen        TEXT NOT NULL,
    solution   TEXT NOT NULL,
    themes     TEXT NOT NULL DEFAULT '',
    rating     REAL NOT NULL DEFAULT 1500,
    deviation  REAL NOT NULL DEFAULT 350,
    volatility REAL NOT NULL DEFAULT 0.06,
    attempts   INTEGER NOT NULL DEFAULT 0,
    game_id    INTEGER REFERENCES games(id) ON DELETE SET NULL,
    ply        INTEGER
);
CREATE TABLE solver (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL
);
INSERT INTO solver (id, rating, deviation, volatility) VALUES (1, 1500, 350, 0.06);
CREATE TABLE puzzle_attempts (
    id        INTEGER PRIMARY KEY,
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE,
    solved    INTEGER NOT NULL,
    moves     TEXT NOT NULL,
    at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX puzzle_attempts_puzzle ON puzzle_attempts(puzzle_id);
CREATE TABLE studies (
    id      INTEGER PRIMARY KEY,
    name    TEXT NOT NULL,
    fen     TEXT NOT NULL,
    moves   TEXT NOT NULL,
    comment TEXT NOT NULL DEFAULT '',
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE mistakes (
    id       INTEGER PRIMARY KEY,
    fen      TEXT NOT NULL,
    played   INTEGER NOT NULL,
    best     INTEGER NOT NULL,
    accepted TEXT NOT NULL,
    game_id  INTEGER REFERENCES games(id) ON DELETE SET NULL,
    ply      INTEGER NOT NULL,
    solved   INTEGER NOT NULL DEFAULT 0
);
";

/// Version 3: puzzles mined from the games. A position is one puzzle (a
/// UNIQUE index on its TFEN: an import or a rerun of the miner skips the
/// ones it has; duplicates already there are dropped first, the oldest
/// kept), and `mined_games` says which games the miner has done and at
/// which depth, so that a rerun resumes.
pub const V3_MINING: &str = "
DELETE FROM puzzles WHERE id NOT IN (SELECT min(id) FROM puzzles GROUP BY fen);
CREATE UNIQUE INDEX puzzles_fen ON puzzles(fen);
CREATE TABLE mined_games (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    depth   INTEGER NOT NULL,
    puzzles INTEGER NOT NULL,
    at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
";

/// Version 4: every position in the explorer. The opening rows now stop at
/// `explorer::OPENING_PLIES` (they went to ply 30) and the later positions
/// go to the deep index (`deep`): its segments, and its buckets, one row
/// per (segment, bucket) with `id = segment << 16 | bucket`. The explorer
/// is emptied and every game marked unindexed, so that opening the
/// database indexes them all again the new way.
pub const V4_DEEP: &str = "
CREATE TABLE explorer_segments (
    id    INTEGER PRIMARY KEY,
    level INTEGER NOT NULL
);
CREATE TABLE explorer_deep (
    id      INTEGER PRIMARY KEY,
    entries BLOB NOT NULL
);
DELETE FROM explorer;
UPDATE games SET indexed = 0;
";

/// Every step, in order: the database's version is how many are applied.
pub const MIGRATIONS: &[&str] = &[V1_GAMES, V2_STUDY, V3_MINING, V4_DEEP];

/// Why the schema could not be brought up to date.
#[derive(Debug)]
pub enum MigrateError {
    Sql(rusqlite::Error),
    /// The file is of a later version than [`MIGRATIONS`] knows.
    TooNew(i64),
}

/// Applies the steps the database lacks, each in its own transaction.
///
/// # Errors
/// [`MigrateError`]: a SQLite error (not a database, a step that fails),
/// or a version newer than this program's.
pub fn migrate(conn: &mut Connection) -> Result<(), MigrateError> {
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(MigrateError::Sql)?;
    if version > MIGRATIONS.len() as i64 {
        return Err(MigrateError::TooNew(version));
    }
    for (done, step) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
        // Each step takes the write lock first and looks again: another
        // connection opening the same new file may have applied it since.
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(MigrateError::Sql)?;
        let current: i64 = tx
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(MigrateError::Sql)?;
        if current > done as i64 {
            continue;
        }
        tx.execute_batch(step).map_err(MigrateError::Sql)?;
        tx.pragma_update(None, "user_version", done as i64 + 1)
            .map_err(MigrateError::Sql)?;
        tx.commit().map_err(MigrateError::Sql)?;
    }
    Ok(())
}
