//! The study tables that the puzzles, studies and "learn from your
//! mistakes" build on: typed rows and their insert, list, get and update.
//! Positions are TFEN text and moves `6 4 9` in the database, so that
//! `sqlite3` shows them as people write them; here they are typed.

use rusqlite::{OptionalExtension, Row, params};
use tuzdyk_notation::tfen;
use tuzdyk_rules::{Move, Position};

use crate::Database;

/// Why a study row could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    #[error("cannot use the study tables: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("{table} {id} is damaged: {problem}")]
    Damaged {
        table: &'static str,
        id: i64,
        problem: String,
    },
}

/// A puzzle: a position, its solution, and its Glicko-2 rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// 0 before it is inserted.
    pub id: i64,
    pub position: Position,
    pub solution: Vec<Move>,
    pub themes: Vec<String>,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub attempts: u32,
    /// The game and ply it comes from, if any.
    pub source: Option<(i64, u32)>,
}

/// The local player's Glicko-2 rating as a solver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolverRating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// One try at a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleAttempt {
    pub id: i64,
    pub puzzle_id: i64,
    pub solved: bool,
    pub moves: Vec<Move>,
    /// When, `YYYY-MM-DDTHH:MM:SSZ`.
    pub at: String,
}

/// A study: a line from a position, with a comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Study {
    pub id: i64,
    pub name: String,
    pub start: Position,
    pub moves: Vec<Move>,
    pub comment: String,
    /// When it was made, `YYYY-MM-DDTHH:MM:SSZ` (set by the database).
    pub created: String,
}

/// A "learn from your mistakes" exercise: where a move went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistake {
    pub id: i64,
    pub position: Position,
    pub played: Move,
    pub best: Move,
    /// Moves as good as the best.
    pub accepted: Vec<Move>,
    pub game_id: Option<i64>,
    pub ply: u32,
    pub solved: u32,
}

fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.number().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn damaged(table: &'static str, id: i64, problem: impl Into<String>) -> StudyError {
    StudyError::Damaged {
        table,
        id,
        problem: problem.into(),
    }
}

fn parse_moves(table: &'static str, id: i64, text: &str) -> Result<Vec<Move>, StudyError> {
    text.split_whitespace()
        .map(|t| {
            t.parse()
                .ok()
                .and_then(Move::from_number)
                .ok_or_else(|| damaged(table, id, format!("move '{t}'")))
        })
        .collect()
}

fn parse_move(table: &'static str, id: i64, number: u32) -> Result<Move, StudyError> {
    Move::from_number(number).ok_or_else(|| damaged(table, id, format!("move {number}")))
}

fn parse_fen(table: &'static str, id: i64, text: &str) -> Result<Position, StudyError> {
    tfen::parse(text).map_err(|e| damaged(table, id, format!("TFEN: {e}")))
}

type PuzzleRow = (
    i64,
    String,
    String,
    String,
    f64,
    f64,
    f64,
    u32,
    Option<i64>,
    Option<u32>,
);

fn puzzle_row(r: &Row<'_>) -> rusqlite::Result<PuzzleRow> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get(7)?,
        r.get(8)?,
        r.get(9)?,
    ))
}

fn puzzle(row: PuzzleRow) -> Result<Puzzle, StudyError> {
    let (id, fen, solution, themes, rating, deviation, volatility, attempts, game, ply) = row;
    Ok(Puzzle {
        id,
        position: parse_fen("puzzle", id, &fen)?,
        solution: parse_moves("puzzle", id, &solution)?,
        themes: themes.split_whitespace().map(str::to_string).collect(),
        rating,
        deviation,
        volatility,
        attempts,
        source: game.zip(ply),
    })
}

const PUZZLE_COLUMNS: &str =
    "id, fen, solution, themes, rating, deviation, volatility, attempts, game_id, ply";

impl Database {
    /// Adds a puzzle; returns its id.
    ///
    /// # Errors
    /// [`StudyError::Sql`] (a puzzle of the same position is there: the
    /// positions are unique, [`Database::add_puzzle`] skips them).
    pub fn insert_puzzle(&self, p: &Puzzle) -> Result<i64, StudyError> {
        Ok(self.put_puzzle(p, "INSERT")?.unwrap_or(0))
    }

    /// Adds a puzzle with `insert` (`INSERT` or `INSERT OR IGNORE`); its id,
    /// `None` when it was ignored.
    pub(crate) fn put_puzzle(&self, p: &Puzzle, insert: &str) -> rusqlite::Result<Option<i64>> {
        let added = self.conn.execute(
            &format!(
                "{insert} INTO puzzles (fen, solution, themes, rating, deviation, volatility, attempts, game_id, ply)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
            ),
            params![
                tfen::write(&p.position),
                moves_text(&p.solution),
                p.themes.join(" "),
                p.rating,
                p.deviation,
                p.volatility,
                p.attempts,
                p.source.map(|s| s.0),
                p.source.map(|s| s.1),
            ],
        )?;
        Ok((added > 0).then(|| self.conn.last_insert_rowid()))
    }

    /// Puzzle `id`.
    ///
    /// # Errors
    /// [`StudyError`].
    pub fn puzzle(&self, id: i64) -> Result<Option<Puzzle>, StudyError> {
        let sql = format!("SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = ?1");
        let row = self.conn.query_row(&sql, [id], puzzle_row).optional()?;
        row.map(puzzle).transpose()
    }

    /// The puzzles rated within `range`, by rating.
    ///
    /// # Errors
    /// [`StudyError`].
    pub fn puzzles(&self, range: std::ops::RangeInclusive<f64>) -> Result<Vec<Puzzle>, StudyError> {
        let sql = format!(
            "SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE rating BETWEEN ?1 AND ?2 ORDER BY rating, id"
        );
        let mut query = self.conn.prepare(&sql)?;
        let rows = query.query_map(params![range.start(), range.end()], puzzle_row)?;
        rows.map(|r| puzzle(r?)).collect()
    }

    /// The puzzle to play next, in one query: of `theme` (any when
    /// `None`), never tried before, else tried the longest ago; among those
    /// the nearest in rating to `rating` (the lower id on a tie), and
    /// `skip` (the puzzle on the board) only when no other fits. A
    /// puzzle's last try is found through the `puzzle_attempts(puzzle_id)`
    /// index; no other index is needed.
    ///
    /// # Errors
    /// [`StudyError`].
    pub fn next_puzzle(
        &self,
        theme: Option<&str>,
        rating: f64,
        skip: Option<i64>,
    ) -> Result<Option<Puzzle>, StudyError> {
        let sql = format!(
            "SELECT {PUZZLE_COLUMNS} FROM puzzles AS p
             WHERE ?1 IS NULL OR instr(' ' || p.themes || ' ', ' ' || ?1 || ' ') > 0
             ORDER BY p.id IS ?3,
                      (SELECT max(a.id) FROM puzzle_attempts AS a WHERE a.puzzle_id = p.id) NULLS FIRST,
                      abs(p.rating - ?2), p.id
             LIMIT 1"
        );
        let row = self
            .conn
            .query_row(&sql, params![theme, rating, skip], puzzle_row)
            .optional()?;
        row.map(puzzle).transpose()
    }

    /// Whether there is any puzzle at all.
    ///
    /// # Errors
    /// [`StudyError::Sql`].
    pub fn has_puzzles(&self) -> Result<bool, StudyError> {
        Ok(self
            .conn
            .query_row("SELECT EXISTS (SELECT 1 FROM puzzles)", [], |r| r.get(0))?)
    }

    /// Whether puzzle `id` has been tried before.
    ///
    /// # Errors
    /// [`StudyError::Sql`].
    pub fn tried(&self, id: i64) -> Result<bool, StudyError> {
        Ok(self.conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM puzzle_attempts WHERE puzzle_id = ?1)",
            [id],
            |r| r.get(0),
        )?)
    }

    /// Stores a puzzle's new rating and attempt count.
    ///
    /// # Errors
    /// [`StudyError::Sql`].
    pub fn update_puzzle_rating(&self, p: &Puzzle) -> Result<(), StudyError> {
        self.conn.execute(
            "UPDATE puzzles SET rating = ?2, deviation = ?3, volatility = ?4, attempts = ?5 WHERE id = ?1",
            params![p.id, p.rating, p.deviation, p.volatility, p.attempts],
        )?;
        Ok(())
    }

    /// The solver's rating.
    ///
    /// # Errors
    /// [`StudyError::Sql`].
    pub fn solver(&self) -> Result<SolverRating, StudyError> {
        Ok(self.conn.query_row(
            "SELECT rating, deviation, volatility FROM solver WHERE id = 1",
            [],
            |r| {
                Ok(SolverRating {
                    rating: r.get(0)?,
                    deviation: r.get(1)?,
                    volatility: r.get(2)?,
                })
            },
        )?)
    }

    /// Stores the solver's rating.
    ///
    /// # Errors
    /// [`StudyError::Sql`].
    pub fn update_solver(&self, s: &SolverRating) -> Result<(), StudyError> {
        self.conn.execute(
            "UPDATE solver SET rating = ?1, deviation = ?2, volatility = ?3 WHERE id = 1",
            params![s.rating, s.deviation, s.volatility],
        )?;
        Ok(())
    }

    /// Records a try at puzzle `puzzle_id`; returns its id.
    ///
    /// # Errors
    /// [`StudyError::Sql`] (a puzzle that does not exist among them).
    pub fn insert_attempt(
        &self,
        puzzle_id: i64,
        solved: bool,
        moves: &[Move],
    ) -> Result<i64, StudyError> {
        self.conn.execute(
            "INSERT INTO puzzle_attempts (puzzle_id, solved, moves) VALUES (?1, ?2, ?3)",
            params![puzzle_id, solved, moves_text(moves)],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    /// The tries at puzzle `puzzle_id`, oldest first.
    ///
    /// # Errors
    /// [`StudyError`].
    pub fn attempts(&self, puzzle_id: i64) -> Result<Vec<PuzzleAttempt>, StudyError> {
        let mut query = self.conn.prepare(
            "SELECT id, puzzle_id, solved, moves, at FROM puzzle_attempts WHERE puzzle_id = ?1 ORDER BY id",
        )?;
        let rows = query.query_map([puzzle_id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get::<_, String>(3)?,
                r.get(4)?,
            ))
        })?;
        rows.map(|r| {
            let (id, puzzle_id, solved, moves, at) = r?;
            Ok(PuzzleAttempt {
                id,
                puzzle_id,
                solved,
                moves: parse_moves("attempt", id, &moves)?,
                at,
            })
        })
        .collect()
    }

    /// Adds a study; returns its id (`created` is set by the database).
    ///
    /// # Errors
    /// [`StudyError::Sql`].
    pub fn insert_study(&self, s: &Study) -> Result<i64, StudyError> {
        self.conn.execute(
            "INSERT INTO studies (name, fen, moves, comment) VALUES (?1, ?2, ?3, ?4)",
            params![
                s.name,
                tfen::write(&s.start),
                moves_text(&s.moves),
                s.comment
            ],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Every study, oldest first.
    ///
    /// # Errors
    /// [`StudyError`].
    pub fn studies(&self) -> Result<Vec<Study>, StudyError> {
        let mut query = self
            .conn
            .prepare("SELECT id, name, fen, moves, comment, created FROM studies ORDER BY id")?;
        let rows = query.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })?;
        rows.map(|r| {
            let (id, name, fen, moves, comment, created) = r?;
            Ok(Study {
                id,
                name,
                start: parse_fen("study", id, &fen)?,
                moves: parse_moves("study", id, &moves)?,
                comment,
                created,
            })
        })
        .collect()
    }

    /// Study `id`.
    ///
    /// # Errors
    /// [`StudyError`].
    pub fn study(&self, id: i64) -> Result<Option<Study>, StudyError> {
        Ok(self.studies()?.into_iter().find(|s| s.id == id))
    }

    /// Changes a study's name, moves and comment.
    ///
    /// # Errors
    /// [`StudyError::Sql`].
    pub fn update_study(&self, s: &Study) -> Result<(), StudyError> {
        self.conn.execute(
            "UPDATE studies SET name = ?2, fen = ?3, moves = ?4, comment = ?5 WHERE id = ?1",
            params![
                s.id,
                s.name,
                tfen::write(&s.start),
                moves_text(&s.moves),
                s.comment
            ],
        )?;
        Ok(())
    }

    /// Adds a mistake to learn from; returns its id.
    ///
    /// # Errors
    /// [`StudyError::Sql`].
    pub fn insert_mistake(&self, m: &Mistake) -> Result<i64, StudyError> {
        self.conn.execute(
            "INSERT INTO mistakes (fen, played, best, accepted, game_id, ply, solved)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                tfen::write(&m.position),
                m.played.number(),
                m.best.number(),
                moves_text(&m.accepted),
                m.game_id,
                m.ply,
                m.solved
            ],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    /// The mistakes, the least solved first.
    ///
    /// # Errors
    /// [`StudyError`].
    pub fn mistakes(&self) -> Result<Vec<Mistake>, StudyError> {
        let mut query = self.conn.prepare(
            "SELECT id, fen, played, best, accepted, game_id, ply, solved FROM mistakes ORDER BY solved, id",
        )?;
        let rows = query.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, u32>(2)?,
                r.get::<_, u32>(3)?,
                r.get::<_, String>(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
            ))
        })?;
        rows.map(|r| {
            let (id, fen, played, best, accepted, game_id, ply, solved) = r?;
            Ok(Mistake {
                id,
                position: parse_fen("mistake", id, &fen)?,
                played: parse_move("mistake", id, played)?,
                best: parse_move("mistake", id, best)?,
                accepted: parse_moves("mistake", id, &accepted)?,
                game_id,
                ply,
                solved,
            })
        })
        .collect()
    }

    /// Counts one more solve of mistake `id`.
    ///
    /// # Errors
    /// [`StudyError::Sql`].
    pub fn mark_mistake_solved(&self, id: i64) -> Result<(), StudyError> {
        self.conn.execute(
            "UPDATE mistakes SET solved = solved + 1 WHERE id = ?1",
            [id],
        )?;
        Ok(())
    }
}
