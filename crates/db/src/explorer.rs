//! The opening explorer: for each position (its Zobrist key,
//! `Position::key`, which leaves out the move number, so that the same
//! position reached by different move orders is one entry) and each move
//! played there, how many games, with what results, at what rating.
//!
//! Only the first [`INDEXED_PLIES`] plies of each game are indexed. A row
//! of the index costs about 30 bytes in SQLite (a WITHOUT ROWID B-tree
//! keyed by (key, move)), and past the opening nearly every position is
//! reached by one game only, so each ply adds a row: 150 plies would be
//! about 4.5 KB a game. Measured with `tuzdyk db bench --games 5000`
//! (docs/database.md): 30 plies make ≈ 0.9 KB a game in all, the game row
//! included, under the 1 KB target.

use std::collections::HashMap;

use rusqlite::{Transaction, params};
use tuzdyk_rules::{Game, GameResult, Move, Position, Side};

use crate::Database;
use crate::import::winner;

/// Plies of each game the explorer indexes (the positions before moves
/// 1..=INDEXED_PLIES).
pub const INDEXED_PLIES: usize = 30;

/// What one or more games add to a (position, move) row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Delta {
    games: i64,
    white_wins: i64,
    draws: i64,
    black_wins: i64,
    rating_sum: i64,
    rated: i64,
}

impl Delta {
    pub(crate) fn add(&mut self, other: &Delta) {
        self.games += other.games;
        self.white_wins += other.white_wins;
        self.draws += other.draws;
        self.black_wins += other.black_wins;
        self.rating_sum += other.rating_sum;
        self.rated += other.rated;
    }
}

/// A move played in a position, and what became of the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveStats {
    pub mv: Move,
    pub games: u64,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    /// The average rating of the games with one, `None` if none had.
    pub avg_rating: Option<u32>,
}

/// Why the explorer could not answer.
#[derive(Debug, thiserror::Error)]
#[error("cannot read the explorer index: {0}")]
pub struct ExploreError(#[from] pub rusqlite::Error);

/// The explorer rows one game adds: one per indexed ply.
pub(crate) fn deltas(
    game: &Game,
    result: Option<GameResult>,
    rating: Option<u32>,
) -> Vec<((i64, u8), Delta)> {
    let won = winner(result);
    let one = Delta {
        games: 1,
        white_wins: i64::from(won == Some(Some(Side::White))),
        draws: i64::from(won == Some(None)),
        black_wins: i64::from(won == Some(Some(Side::Black))),
        rating_sum: rating.map_or(0, i64::from),
        rated: i64::from(rating.is_some()),
    };
    let mut position = *game.start();
    let mut rows = Vec::with_capacity(INDEXED_PLIES);
    for &mv in game.moves().iter().take(INDEXED_PLIES) {
        rows.push(((position.key() as i64, mv.number() as u8), one));
        position.play(mv);
    }
    rows
}

/// Adds a batch's deltas to the index, in key order.
pub(crate) fn add(tx: &Transaction<'_>, deltas: HashMap<(i64, u8), Delta>) -> rusqlite::Result<()> {
    let mut rows: Vec<_> = deltas.into_iter().collect();
    rows.sort_unstable_by_key(|&(at, _)| at);
    let mut upsert = tx.prepare_cached(
        "INSERT INTO explorer (key, move, games, white_wins, draws, black_wins, rating_sum, rated)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (key, move) DO UPDATE SET
             games = games + excluded.games,
             white_wins = white_wins + excluded.white_wins,
             draws = draws + excluded.draws,
             black_wins = black_wins + excluded.black_wins,
             rating_sum = rating_sum + excluded.rating_sum,
             rated = rated + excluded.rated",
    )?;
    for ((key, mv), d) in rows {
        upsert.execute(params![
            key,
            mv,
            d.games,
            d.white_wins,
            d.draws,
            d.black_wins,
            d.rating_sum,
            d.rated
        ])?;
    }
    Ok(())
}

impl Database {
    /// The moves played in `position`, most played first (then by number).
    /// Empty for a position no indexed game reached (or reached only past
    /// [`INDEXED_PLIES`]).
    ///
    /// # Errors
    /// [`ExploreError`] if SQLite fails.
    pub fn explore(&self, position: &Position) -> Result<Vec<MoveStats>, ExploreError> {
        let mut query = self.conn.prepare_cached(
            "SELECT move, games, white_wins, draws, black_wins, rating_sum, rated
             FROM explorer WHERE key = ?1 ORDER BY games DESC, move",
        )?;
        let rows = query.query_map([position.key() as i64], |r| {
            let number: u32 = r.get(0)?;
            let rating_sum: i64 = r.get(5)?;
            let rated: i64 = r.get(6)?;
            Ok((
                number,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                rating_sum,
                rated,
            ))
        })?;
        let mut moves = Vec::new();
        for row in rows {
            let (number, games, white_wins, draws, black_wins, sum, rated) = row?;
            // A row this program did not write (a hand edit) is left out.
            let Some(mv) = Move::from_number(number) else {
                continue;
            };
            moves.push(MoveStats {
                mv,
                games,
                white_wins,
                draws,
                black_wins,
                avg_rating: (rated > 0).then(|| (sum / rated) as u32),
            });
        }
        Ok(moves)
    }
}
