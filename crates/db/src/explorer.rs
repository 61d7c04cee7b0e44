//! The opening explorer: for each position (its Zobrist key,
//! `Position::key`, which leaves out the move number, so that the same
//! position reached by different move orders is one entry) and each move
//! played there, how many games, with what results, at what rating.
//!
//! Every position of every game is counted, in two tiers:
//! - the positions of the first [`OPENING_PLIES`] plies have a row per
//!   (position, move) holding the counts (the `explorer` table, a WITHOUT
//!   ROWID B-tree keyed by (key, move), 20-30 bytes a row): the positions
//!   many games share, answered in one B-tree descent;
//! - the later ones are in the [`deep`](crate::deep) index, about 3 bytes a
//!   position, which names the games that may pass through a position; the
//!   explorer replays those games and counts the moves played there.
//!
//! A position reached at ply 10 in one game and ply 40 in another is
//! counted from both tiers, each game once per time it stands there.

use std::collections::HashMap;

use rusqlite::{Transaction, params};
use tuzdyk_rules::{Game, GameResult, Move, Position, Side};

use tuzdyk_notation::record::parse_result;

use crate::codec::stored_game;
use crate::import::{INDEX_BATCH, game_rating, winner};
use crate::{Database, deep};

/// Plies of each game whose positions have rows of their own (the
/// positions before moves 1..=OPENING_PLIES); the later ones are in the
/// deep index. Chosen by size (docs/database.md): the rows of these plies
/// and the deep index's entries for the rest fit 1 KB a game with the game
/// row, measured with `tuzdyk db bench`.
pub const OPENING_PLIES: usize = 16;

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
    /// One game with `result`, rated `rating`.
    fn of_game(result: Option<GameResult>, rating: Option<u32>) -> Delta {
        let won = winner(result);
        Delta {
            games: 1,
            white_wins: i64::from(won == Some(Some(Side::White))),
            draws: i64::from(won == Some(None)),
            black_wins: i64::from(won == Some(Some(Side::Black))),
            rating_sum: rating.map_or(0, i64::from),
            rated: i64::from(rating.is_some()),
        }
    }

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

/// What one game adds to the index: a row per opening ply, and the keys of
/// its later positions (the deep index's, once the game has its id).
pub(crate) struct GameIndex {
    opening: Vec<((i64, u8), Delta)>,
    deep: Vec<u64>,
}

impl GameIndex {
    pub(crate) fn of(game: &Game, result: Option<GameResult>, rating: Option<u32>) -> GameIndex {
        let one = Delta::of_game(result, rating);
        let mut position = *game.start();
        let mut index = GameIndex {
            opening: Vec::with_capacity(OPENING_PLIES),
            deep: Vec::with_capacity(game.moves().len().saturating_sub(OPENING_PLIES)),
        };
        for (ply, &mv) in game.moves().iter().enumerate() {
            if ply < OPENING_PLIES {
                index
                    .opening
                    .push(((position.key() as i64, mv.number() as u8), one));
            } else {
                index.deep.push(position.key());
            }
            position.play(mv);
        }
        index
    }
}

/// The index of games stored but not yet indexed: opening rows summed per
/// row, deep entries.
#[derive(Default)]
pub(crate) struct Pending {
    pub(crate) games: usize,
    /// The highest id of the games held: a flush marks the unindexed games
    /// up to it indexed.
    last: i64,
    rows: HashMap<(i64, u8), Delta>,
    deep: Vec<deep::Entry>,
}

impl Pending {
    /// Adds the index of game `id`.
    pub(crate) fn add(&mut self, id: i64, index: GameIndex) {
        self.skip(id);
        for (at, delta) in index.opening {
            self.rows.entry(at).or_default().add(&delta);
        }
        self.deep
            .extend(index.deep.into_iter().map(|key| deep::Entry::new(key, id)));
    }

    /// Counts game `id` with nothing to index (a row this program cannot
    /// read).
    pub(crate) fn skip(&mut self, id: i64) {
        self.games += 1;
        self.last = self.last.max(id);
    }
}

/// Adds the opening rows, in key order (neighbouring rows share pages),
/// and the deep entries to the index, and marks the games not yet indexed
/// up to the last one held as indexed: the caller holds exactly their
/// index.
fn add(tx: &Transaction<'_>, pending: Pending) -> rusqlite::Result<()> {
    let last = pending.last;
    deep::add(tx, pending.deep)?;
    let mut rows: Vec<_> = pending.rows.into_iter().collect();
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
    tx.execute(
        "UPDATE games SET indexed = 1 WHERE indexed = 0 AND id <= ?1",
        [last],
    )?;
    Ok(())
}

impl Database {
    /// Adds `pending` to the index in one transaction.
    pub(crate) fn flush(&mut self, pending: &mut Pending) -> rusqlite::Result<()> {
        if pending.games == 0 {
            return Ok(());
        }
        let tx = self.conn.transaction()?;
        add(&tx, std::mem::take(pending))?;
        tx.commit()?;
        Ok(())
    }

    /// Indexes the games stored but not indexed (an import stopped between
    /// its flushes, or every game after migration 4), [`INDEX_BATCH`] games
    /// a flush so that memory stays that of one import flush. A game whose
    /// row this program cannot read is marked indexed without rows, and
    /// left to `games` to report.
    pub(crate) fn index_pending(&mut self) -> rusqlite::Result<()> {
        self.index_pending_by(INDEX_BATCH)
    }

    /// [`Database::index_pending`], `batch` games a flush.
    pub(crate) fn index_pending_by(&mut self, batch: usize) -> rusqlite::Result<()> {
        loop {
            let mut pending = Pending::default();
            {
                let mut query = self.conn.prepare_cached(
                    "SELECT id, fen, plies, moves, result, white_elo, black_elo FROM games
                     WHERE indexed = 0 ORDER BY id LIMIT ?1",
                )?;
                let mut rows = query.query([batch as i64])?;
                while let Some(r) = rows.next()? {
                    let id: i64 = r.get(0)?;
                    match StoredGame::read(r, 1)? {
                        Some(stored) => pending.add(
                            id,
                            GameIndex::of(&stored.game, stored.result, stored.rating),
                        ),
                        None => pending.skip(id),
                    }
                }
            }
            if pending.games == 0 {
                return Ok(());
            }
            self.flush(&mut pending)?;
        }
    }

    /// The moves played in `position`, most played first (then by number):
    /// from the opening rows, and from the games the deep index names,
    /// replayed.
    ///
    /// # Errors
    /// [`ExploreError`] if SQLite fails.
    pub fn explore(&self, position: &Position) -> Result<Vec<MoveStats>, ExploreError> {
        let key = position.key();
        let mut counts: HashMap<u8, Delta> = HashMap::new();
        let mut query = self.conn.prepare_cached(
            "SELECT move, games, white_wins, draws, black_wins, rating_sum, rated
             FROM explorer WHERE key = ?1",
        )?;
        let rows = query.query_map([key as i64], |r| {
            Ok((
                r.get::<_, u8>(0)?,
                Delta {
                    games: r.get(1)?,
                    white_wins: r.get(2)?,
                    draws: r.get(3)?,
                    black_wins: r.get(4)?,
                    rating_sum: r.get(5)?,
                    rated: r.get(6)?,
                },
            ))
        })?;
        for row in rows {
            let (mv, delta) = row?;
            counts.entry(mv).or_default().add(&delta);
        }
        let mut read = self.conn.prepare_cached(
            "SELECT fen, plies, moves, result, white_elo, black_elo FROM games WHERE id = ?1",
        )?;
        for id in deep::candidates(&self.conn, key)? {
            let mut rows = read.query([id])?;
            let Some(row) = rows.next()? else { continue };
            let Some(stored) = StoredGame::read(row, 0)? else {
                continue;
            };
            let one = Delta::of_game(stored.result, stored.rating);
            let mut at = *stored.game.start();
            for (ply, &mv) in stored.game.moves().iter().enumerate() {
                if ply >= OPENING_PLIES && at.key() == key {
                    counts.entry(mv.number() as u8).or_default().add(&one);
                }
                at.play(mv);
            }
        }
        let mut moves: Vec<MoveStats> = counts
            .into_iter()
            // A row this program did not write (a hand edit) is left out.
            .filter_map(|(number, d)| {
                Some(MoveStats {
                    mv: Move::from_number(u32::from(number))?,
                    games: d.games as u64,
                    white_wins: d.white_wins as u64,
                    draws: d.draws as u64,
                    black_wins: d.black_wins as u64,
                    avg_rating: (d.rated > 0).then(|| (d.rating_sum / d.rated) as u32),
                })
            })
            .collect();
        moves.sort_by_key(|m| (std::cmp::Reverse(m.games), m.mv.number()));
        Ok(moves)
    }
}

/// A stored game as the index reads it.
struct StoredGame {
    game: Game,
    result: Option<GameResult>,
    rating: Option<u32>,
}

impl StoredGame {
    /// The game of a row whose columns from `first` are fen, plies, moves,
    /// result, white_elo, black_elo; `None` if this program cannot read it
    /// (left to `games` to report).
    fn read(row: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<Option<StoredGame>> {
        let fen: Option<String> = row.get(first)?;
        let plies: usize = row.get(first + 1)?;
        let blob: Vec<u8> = row.get(first + 2)?;
        let result: String = row.get(first + 3)?;
        let rating = game_rating(row.get(first + 4)?, row.get(first + 5)?);
        let game = stored_game(fen.as_deref(), &blob, plies).ok();
        Ok(game
            .zip(parse_result(&result))
            .map(|(game, result)| StoredGame {
                game,
                result,
                rating,
            }))
    }
}
