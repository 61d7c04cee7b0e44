//! Puzzles mined from the games, as the database keeps and exchanges them:
//! which games a miner has done ([`Shard`], [`Database::games_to_mine`],
//! [`Database::mark_mined`]), a new puzzle stored unless its position is
//! there ([`Database::add_puzzle`]), and the puzzles as JSON lines
//! ([`PuzzleLine`]): exported, and imported with every line checked (the
//! TFEN parses, the solution is legal from it), bad lines reported by file
//! and line, duplicates skipped.

use std::fmt;
use std::io::BufRead as _;
use std::str::FromStr;

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};
use tuzdyk_notation::record::InputError;
use tuzdyk_notation::{excerpt, tfen};
use tuzdyk_rules::{IllegalMove, Move, Position};

use crate::study::{Puzzle, StudyError};
use crate::{Database, ImportError, ImportSource, ImportSummary};

/// One of `count` equal parts of the games: those whose id satisfies
/// `(id − 1) % count == index − 1`, so that shards can run anywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1..=count.
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// Every game.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Whether game `id` is in this shard.
    pub fn contains(&self, id: i64) -> bool {
        (id - 1).rem_euclid(i64::from(self.count)) == i64::from(self.index) - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Why a shard is not `K/N` with 1 ≤ K ≤ N.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("shard '{}' is not K/N with 1 <= K <= N (e.g. 1/4)", excerpt(.0))]
pub struct ShardError(pub String);

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// A puzzle as one JSON line of `tuzdyk puzzles export --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleLine {
    /// The id in the database it was exported from (not kept on import).
    #[serde(default)]
    pub id: i64,
    pub fen: String,
    /// Hole numbers 1..9: the solver's moves and the replies between them.
    pub solution: Vec<u32>,
    #[serde(default)]
    pub themes: Vec<String>,
    pub rating: f64,
    /// The game it was found in, if any.
    #[serde(default)]
    pub game: Option<SourceGame>,
}

/// Where a puzzle comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceGame {
    pub id: i64,
    /// 1-based, as `analyse --mistakes` counts: the puzzle is the position
    /// before this move of the game (the database keeps it 0-based).
    pub ply: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<String>,
}

/// Why a puzzle line is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("not a puzzle line: {0}")]
    Json(String),
    #[error("TFEN '{}': {error}", excerpt(.fen))]
    Fen { fen: String, error: String },
    #[error("the solution is empty")]
    NoSolution,
    #[error("solution move {index} ({hole}) is not a hole 1..9")]
    NotAHole { index: usize, hole: u32 },
    #[error("solution move {index} ({hole}): {reason}")]
    Illegal {
        index: usize,
        hole: u32,
        reason: IllegalMove,
    },
}

impl PuzzleLine {
    /// Reads one line.
    ///
    /// # Errors
    /// [`LineError::Json`].
    pub fn parse(text: &str) -> Result<PuzzleLine, LineError> {
        serde_json::from_str(text).map_err(|e| LineError::Json(e.to_string()))
    }

    /// The line as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| unreachable!("a puzzle line: {e}"))
    }

    /// The position and the solution, checked: the TFEN parses and every
    /// move is legal in turn.
    ///
    /// # Errors
    /// [`LineError`] naming the bad part.
    pub fn checked(&self) -> Result<(Position, Vec<Move>), LineError> {
        let start = tfen::parse(&self.fen).map_err(|e| LineError::Fen {
            fen: self.fen.clone(),
            error: e.to_string(),
        })?;
        if self.solution.is_empty() {
            return Err(LineError::NoSolution);
        }
        let mut pos = start;
        let mut moves = Vec::new();
        for (k, &hole) in self.solution.iter().enumerate() {
            let index = k + 1;
            let mv = Move::from_number(hole).ok_or(LineError::NotAHole { index, hole })?;
            pos.check(mv).map_err(|reason| LineError::Illegal {
                index,
                hole,
                reason,
            })?;
            pos.play(mv);
            moves.push(mv);
        }
        Ok((start, moves))
    }
}

/// A line that was not imported, and where it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {error}")]
pub struct BadLine {
    pub file: String,
    /// 1-based.
    pub line: usize,
    pub error: LineError,
}

impl Database {
    /// Stores a new puzzle; `None` when a puzzle of the same position is
    /// already there.
    ///
    /// # Errors
    /// [`StudyError::Sql`].
    pub fn add_puzzle(&self, p: &Puzzle) -> Result<Option<i64>, StudyError> {
        Ok(self.put_puzzle(p, "INSERT OR IGNORE")?)
    }

    /// The games of `shard` not mined yet, by id.
    ///
    /// # Errors
    /// [`StudyError::Sql`].
    pub fn games_to_mine(&self, shard: Shard) -> Result<Vec<i64>, StudyError> {
        let mut query = self.conn.prepare(
            "SELECT id FROM games WHERE (id - 1) % ?1 = ?2
             AND id NOT IN (SELECT game_id FROM mined_games) ORDER BY id",
        )?;
        let rows = query.query_map(params![shard.count, shard.index - 1], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// How many games of `shard` are mined.
    ///
    /// # Errors
    /// [`StudyError::Sql`].
    pub fn mined_count(&self, shard: Shard) -> Result<u64, StudyError> {
        Ok(self.conn.query_row(
            "SELECT count(*) FROM mined_games WHERE (game_id - 1) % ?1 = ?2",
            params![shard.count, shard.index - 1],
            |r| r.get(0),
        )?)
    }

    /// Records that game `id` was mined at `depth`, giving `puzzles` new
    /// puzzles.
    ///
    /// # Errors
    /// [`StudyError::Sql`].
    pub fn mark_mined(&self, id: i64, depth: u32, puzzles: usize) -> Result<(), StudyError> {
        self.conn.execute(
            "INSERT OR REPLACE INTO mined_games (game_id, depth, puzzles) VALUES (?1, ?2, ?3)",
            params![id, depth, puzzles as i64],
        )?;
        Ok(())
    }

    /// Every puzzle as a JSON line, by id, with its game's players.
    ///
    /// # Errors
    /// [`StudyError::Sql`].
    pub fn puzzle_lines(&self) -> Result<Vec<PuzzleLine>, StudyError> {
        let mut query = self.conn.prepare(
            "SELECT p.id, p.fen, p.solution, p.themes, p.rating, p.game_id, p.ply, w.name, b.name
             FROM puzzles p LEFT JOIN games g ON g.id = p.game_id
             LEFT JOIN players w ON w.id = g.white LEFT JOIN players b ON b.id = g.black
             ORDER BY p.id",
        )?;
        let rows = query.query_map([], |r| {
            let solution: String = r.get(2)?;
            let themes: String = r.get(3)?;
            let game: Option<i64> = r.get(5)?;
            let ply: Option<u32> = r.get(6)?;
            Ok(PuzzleLine {
                id: r.get(0)?,
                fen: r.get(1)?,
                solution: solution
                    .split_whitespace()
                    .map(|t| t.parse().unwrap_or(0))
                    .collect(),
                themes: themes.split_whitespace().map(str::to_string).collect(),
                rating: r.get(4)?,
                game: match (game, ply) {
                    (Some(id), Some(ply)) => Some(SourceGame {
                        id,
                        ply: ply + 1,
                        white: r.get(7)?,
                        black: r.get(8)?,
                    }),
                    _ => None,
                },
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The game a puzzle line names, when this database has it: the same
    /// id and, when the line names them, the same players.
    fn same_game(&self, game: &SourceGame) -> rusqlite::Result<bool> {
        let players: Option<(Option<String>, Option<String>)> = self
            .conn
            .query_row(
                "SELECT w.name, b.name FROM games g LEFT JOIN players w ON w.id = g.white
                 LEFT JOIN players b ON b.id = g.black WHERE g.id = ?1",
                [game.id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        Ok(players.is_some_and(|(white, black)| {
            (game.white.is_none() || game.white == white)
                && (game.black.is_none() || game.black == black)
        }))
    }

    /// Imports puzzle lines (`tuzdyk puzzles export --json`): each checked,
    /// a bad one handed to `on_bad`, a position already there skipped. The
    /// source game is kept when this database has it (same id and
    /// players), else left out. Empty lines are skipped.
    ///
    /// # Errors
    /// [`ImportError`]: the file cannot be read, or SQLite fails.
    pub fn import_puzzles(
        &mut self,
        source: ImportSource<'_>,
        mut on_bad: impl FnMut(&BadLine),
    ) -> Result<ImportSummary, ImportError> {
        let (name, input) = source.open()?;
        let store = |error| ImportError::Store {
            file: name.clone(),
            error,
        };
        let mut summary = ImportSummary::default();
        let mut failed = None;
        let tx = self.conn.unchecked_transaction().map_err(store)?;
        for (k, text) in input.lines().enumerate() {
            let text = match text {
                Ok(text) => text,
                Err(error) => {
                    failed = Some(InputError { line: k + 1, error });
                    break;
                }
            };
            if text.trim().is_empty() {
                continue;
            }
            let checked = PuzzleLine::parse(&text).and_then(|l| Ok((l.checked()?, l)));
            let ((position, solution), line) = match checked {
                Ok(found) => found,
                Err(error) => {
                    summary.bad += 1;
                    on_bad(&BadLine {
                        file: name.clone(),
                        line: k + 1,
                        error,
                    });
                    continue;
                }
            };
            let source = match &line.game {
                Some(g) if g.ply > 0 && self.same_game(g).map_err(store)? => {
                    Some((g.id, g.ply - 1))
                }
                _ => None,
            };
            let puzzle = Puzzle {
                id: 0,
                position,
                solution,
                themes: line.themes,
                rating: line.rating,
                deviation: 350.0,
                volatility: 0.06,
                attempts: 0,
                source,
            };
            match self
                .put_puzzle(&puzzle, "INSERT OR IGNORE")
                .map_err(store)?
            {
                Some(_) => summary.imported += 1,
                None => summary.duplicates += 1,
            }
        }
        tx.commit().map_err(store)?;
        match failed {
            Some(error) => Err(ImportError::Input { file: name, error }),
            None => Ok(summary),
        }
    }
}
