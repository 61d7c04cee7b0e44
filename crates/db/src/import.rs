//! Import: PlayOK records read with the notation crate (every move and
//! annotation checked), stored in batches of [`BATCH`] games, one
//! transaction each. A game already there (same start, moves, result and
//! tags: its content hash) is skipped and counted; a bad record is handed
//! to the caller with its file and line and the rest imported. An import
//! that stops halfway keeps every batch it committed, and running it again
//! adds only what is missing.
//!
//! The explorer index is added to every [`INDEX_BATCH`] games, in a
//! transaction of its own that also marks those games `indexed`: the
//! opening rows of a batch fall all over the index (position keys are
//! random), so each flush rewrites most of its pages, and flushing once per
//! 1,000 games made import four times slower at 100,000 games (measured
//! with `tuzdyk db bench`, docs/database.md); the deep index writes a
//! segment per flush, so fewer flushes also mean fewer merges. Games committed but not yet indexed (an
//! import killed between flushes) are indexed when the database is next
//! opened, so every game is counted in the explorer exactly once.

use std::collections::HashMap;
use std::fmt;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use rusqlite::{OptionalExtension, Transaction, params};
use tuzdyk_notation::record::{self, GameReader, GameRecord, InputError, RecordError};
use tuzdyk_notation::tfen;
use tuzdyk_rules::{GameResult, Position, Side};

use crate::Database;
use crate::codec::{content_hash, pack_moves};
use crate::explorer::{self, GameIndex};

/// Games per transaction: a commit costs a sync, so fewer is slower; an
/// interrupted import loses at most this many games' work.
pub const BATCH: usize = 1000;

/// Games whose explorer rows are added in one transaction.
pub const INDEX_BATCH: usize = 20_000;

/// The tags stored in columns of their own; the others go, in their
/// order, to the `tags` column.
const COLUMN_TAGS: [&str; 9] = [
    "White", "Black", "WhiteElo", "BlackElo", "Result", "Event", "Site", "Date", "FEN",
];

/// What to import.
#[derive(Clone, Copy, Debug)]
pub enum ImportSource<'a> {
    /// A file of PlayOK records.
    File(&'a Path),
    /// Records in memory; `name` stands for the file in reports.
    Text { name: &'a str, text: &'a str },
}

impl<'a> ImportSource<'a> {
    /// The source's name for reports, and its text to read as it goes (a
    /// file is never read whole into memory).
    ///
    /// # Errors
    /// [`ImportError::Read`] when the file cannot be opened.
    pub(crate) fn open(&self) -> Result<(String, Box<dyn BufRead + 'a>), ImportError> {
        match *self {
            ImportSource::File(path) => {
                let file = std::fs::File::open(path).map_err(|error| ImportError::Read {
                    path: path.to_path_buf(),
                    error,
                })?;
                let input = std::io::BufReader::new(file);
                Ok((path.display().to_string(), Box::new(input)))
            }
            ImportSource::Text { name, text } => Ok((name.to_string(), Box::new(text.as_bytes()))),
        }
    }
}

/// What an import did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportSummary {
    pub imported: usize,
    pub duplicates: usize,
    pub bad: usize,
}

impl std::ops::AddAssign for ImportSummary {
    fn add_assign(&mut self, other: ImportSummary) {
        self.imported += other.imported;
        self.duplicates += other.duplicates;
        self.bad += other.bad;
    }
}

impl fmt::Display for ImportSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "imported {} duplicates {} bad {}",
            self.imported, self.duplicates, self.bad
        )
    }
}

/// A record that was not imported, and where it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {error}")]
pub struct BadRecord {
    pub file: String,
    /// The 1-based line the game starts on.
    pub line: usize,
    pub error: RecordError,
}

/// Why an import stopped. The batches committed before stay.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("cannot read '{}': {error}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
    /// The file stopped being readable part way (the games before stay).
    #[error("cannot read '{file}': {error}")]
    Input {
        file: String,
        #[source]
        error: InputError,
    },
    #[error("cannot store the games of '{file}': {error}")]
    Store {
        file: String,
        #[source]
        error: rusqlite::Error,
    },
}

/// A game ready to store.
struct Row {
    hash: i64,
    white: Option<String>,
    black: Option<String>,
    white_elo: Option<u32>,
    black_elo: Option<u32>,
    result: &'static str,
    event: Option<String>,
    site: Option<String>,
    date: Option<String>,
    fen: Option<String>,
    plies: usize,
    moves: Vec<u8>,
    tags: Option<String>,
    comment: Option<String>,
    index: GameIndex,
}

impl Database {
    /// Imports the records of `source`; `on_bad` hears of each bad one.
    ///
    /// # Errors
    /// [`ImportError`]: the file cannot be read, or SQLite fails (the
    /// batches committed before stay).
    pub fn import(
        &mut self,
        source: ImportSource<'_>,
        mut on_bad: impl FnMut(&BadRecord),
    ) -> Result<ImportSummary, ImportError> {
        let (name, input) = source.open()?;
        let games = GameReader::new(input);
        let store = |error| ImportError::Store {
            file: name.clone(),
            error,
        };
        let mut summary = ImportSummary::default();
        let mut players = HashMap::new();
        let mut batch = Vec::with_capacity(BATCH);
        let mut pending = explorer::Pending::default();
        let mut failed = None;
        for game in games {
            let game = match game {
                Ok(game) => game,
                Err(error) => {
                    failed = Some(error);
                    break;
                }
            };
            match game.record {
                Ok(record) => batch.push(row(&record)),
                Err(error) => {
                    summary.bad += 1;
                    on_bad(&BadRecord {
                        file: name.clone(),
                        line: game.line,
                        error,
                    });
                }
            }
            if batch.len() == BATCH {
                summary += self
                    .store(&mut batch, &mut players, &mut pending)
                    .map_err(store)?;
            }
            if pending.games >= INDEX_BATCH {
                self.flush(&mut pending).map_err(store)?;
            }
        }
        summary += self
            .store(&mut batch, &mut players, &mut pending)
            .map_err(store)?;
        self.flush(&mut pending).map_err(store)?;
        match failed {
            Some(error) => Err(ImportError::Input { file: name, error }),
            None => Ok(summary),
        }
    }

    /// Stores a batch in one transaction; the explorer rows of the games
    /// that were new go to `pending`.
    fn store(
        &mut self,
        batch: &mut Vec<Row>,
        players: &mut HashMap<String, i64>,
        pending: &mut explorer::Pending,
    ) -> rusqlite::Result<ImportSummary> {
        let mut summary = ImportSummary::default();
        if batch.is_empty() {
            return Ok(summary);
        }
        let tx = self.conn.transaction()?;
        {
            let mut insert = tx.prepare_cached(
                "INSERT OR IGNORE INTO games (hash, white, black, white_elo, black_elo, result,
                 event, site, date, fen, plies, moves, tags, comment)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            )?;
            for row in batch.drain(..) {
                let white = player_id(&tx, players, row.white.as_deref())?;
                let black = player_id(&tx, players, row.black.as_deref())?;
                let added = insert.execute(params![
                    row.hash,
                    white,
                    black,
                    row.white_elo,
                    row.black_elo,
                    row.result,
                    row.event,
                    row.site,
                    row.date,
                    row.fen,
                    row.plies as i64,
                    row.moves,
                    row.tags,
                    row.comment,
                ])?;
                if added == 0 {
                    summary.duplicates += 1;
                    continue;
                }
                summary.imported += 1;
                pending.add(tx.last_insert_rowid(), row.index);
            }
        }
        tx.commit()?;
        Ok(summary)
    }
}

/// The id of player `name`, added when new; `None` without a name.
fn player_id(
    tx: &Transaction<'_>,
    cache: &mut HashMap<String, i64>,
    name: Option<&str>,
) -> rusqlite::Result<Option<i64>> {
    let Some(name) = name else { return Ok(None) };
    if let Some(&id) = cache.get(name) {
        return Ok(Some(id));
    }
    let found: Option<i64> = tx
        .prepare_cached("SELECT id FROM players WHERE name = ?1")?
        .query_row([name], |r| r.get(0))
        .optional()?;
    let id = match found {
        Some(id) => id,
        None => {
            tx.prepare_cached("INSERT INTO players (name) VALUES (?1)")?
                .execute([name])?;
            tx.last_insert_rowid()
        }
    };
    cache.insert(name.to_string(), id);
    Ok(Some(id))
}

/// A rating tag's number, if it is one.
fn elo(record: &GameRecord, tag: &str) -> Option<u32> {
    record.tag(tag).and_then(|v| v.trim().parse().ok())
}

/// The row of a good record: its columns, hash and explorer index.
fn row(record: &GameRecord) -> Row {
    let start = *record.game.start();
    let fen = (start != Position::startpos()).then(|| tfen::write(&start));
    let moves = pack_moves(record.game.moves());
    let result = record::result_text(record.result);
    let extra: Vec<String> = record
        .tags
        .iter()
        .filter(|(k, v)| {
            // A rating that is not a number stays a tag, as it was.
            let unrated = k.ends_with("Elo") && v.trim().parse::<u32>().is_err();
            unrated || !COLUMN_TAGS.iter().any(|c| c.eq_ignore_ascii_case(k))
        })
        .map(|(k, v)| format!("{k}\t{v}"))
        .collect();
    // The hash sees the tags in name order, so a record written back with
    // its tags in another order is the same game.
    let mut hashed: Vec<String> = record
        .tags
        .iter()
        .filter(|(k, _)| !["Result", "FEN"].iter().any(|c| c.eq_ignore_ascii_case(k)))
        .map(|(k, v)| format!("{k}\t{v}"))
        .collect();
    hashed.sort();
    let hash = content_hash(
        [
            fen.as_deref().unwrap_or("").as_bytes(),
            moves.as_slice(),
            result.as_bytes(),
        ]
        .into_iter()
        .chain(hashed.iter().map(|t| t.as_bytes())),
    );
    let white_elo = elo(record, "WhiteElo");
    let black_elo = elo(record, "BlackElo");
    Row {
        hash,
        white: record.tag("White").map(str::to_string),
        black: record.tag("Black").map(str::to_string),
        white_elo,
        black_elo,
        result,
        event: record.tag("Event").map(str::to_string),
        site: record.tag("Site").map(str::to_string),
        date: record.tag("Date").map(str::to_string),
        fen,
        plies: record.game.moves().len(),
        moves,
        tags: (!extra.is_empty()).then(|| extra.join("\n")),
        comment: record.comment.clone(),
        index: GameIndex::of(
            &record.game,
            record.result,
            game_rating(white_elo, black_elo),
        ),
    }
}

/// A game's rating for the explorer: its players' average, or the one
/// rating known.
pub(crate) fn game_rating(white: Option<u32>, black: Option<u32>) -> Option<u32> {
    match (white, black) {
        (Some(w), Some(b)) => Some((w + b) / 2),
        (one, other) => one.or(other),
    }
}

/// The side a result favours, for the explorer's counts.
pub(crate) fn winner(result: Option<GameResult>) -> Option<Option<Side>> {
    match result {
        Some(GameResult::Win(side)) => Some(Some(side)),
        Some(GameResult::Draw) => Some(None),
        None => None,
    }
}
