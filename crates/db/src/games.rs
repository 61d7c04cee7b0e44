//! The games as rows ([`GameRow`]), chosen by player and result
//! ([`GameFilter`]), and back to records ([`Database::record`]) for export.

use rusqlite::{Row, params_from_iter, types::Value};
use tuzdyk_notation::record::{GameRecord, parse_result};

use crate::Database;
use crate::codec::stored_game;

/// One stored game, without its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: i64,
    pub white: Option<String>,
    pub black: Option<String>,
    pub white_elo: Option<u32>,
    pub black_elo: Option<u32>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    pub event: Option<String>,
    pub site: Option<String>,
    pub date: Option<String>,
    pub plies: u32,
}

/// Which games: all by default.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    /// Games where this player has either side.
    pub player: Option<String>,
    /// Games with this result text.
    pub result: Option<String>,
    pub limit: Option<u64>,
}

/// Why games could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GamesError {
    #[error("cannot read the games: {0}")]
    Sql(#[from] rusqlite::Error),
    /// A row this program did not write (edited by hand).
    #[error("game {id} is damaged: {problem}")]
    Damaged { id: i64, problem: String },
}

const COLUMNS: &str = "g.id, w.name, b.name, g.white_elo, g.black_elo, g.result, g.event, g.site,
     g.date, g.plies, g.fen, g.moves, g.tags, g.comment";

fn game_row(r: &Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        white: r.get(1)?,
        black: r.get(2)?,
        white_elo: r.get(3)?,
        black_elo: r.get(4)?,
        result: r.get(5)?,
        event: r.get(6)?,
        site: r.get(7)?,
        date: r.get(8)?,
        plies: r.get(9)?,
    })
}

/// The rest of a row that a record needs: fen, moves, extra tags, comment.
type Body = (Option<String>, Vec<u8>, Option<String>, Option<String>);

impl Database {
    /// How many games there are.
    ///
    /// # Errors
    /// [`GamesError::Sql`].
    pub fn game_count(&self) -> Result<u64, GamesError> {
        Ok(self
            .conn
            .query_row("SELECT count(*) FROM games", [], |r| r.get(0))?)
    }

    /// Runs `f` on each game of `filter`, in import order, with its record.
    fn each_game(
        &self,
        filter: &GameFilter,
        mut f: impl FnMut(GameRow, Body) -> Result<(), GamesError>,
    ) -> Result<(), GamesError> {
        let mut sql = format!(
            "SELECT {COLUMNS} FROM games g LEFT JOIN players w ON w.id = g.white
             LEFT JOIN players b ON b.id = g.black WHERE 1"
        );
        let mut args: Vec<Value> = Vec::new();
        if let Some(player) = &filter.player {
            sql.push_str(" AND (w.name = ?1 OR b.name = ?1)");
            args.push(Value::Text(player.clone()));
        }
        if let Some(result) = &filter.result {
            sql.push_str(&format!(" AND g.result = ?{}", args.len() + 1));
            args.push(Value::Text(result.clone()));
        }
        sql.push_str(" ORDER BY g.id");
        if let Some(limit) = filter.limit {
            sql.push_str(&format!(" LIMIT {limit}"));
        }
        let mut query = self.conn.prepare(&sql)?;
        let mut rows = query.query(params_from_iter(args))?;
        while let Some(r) = rows.next()? {
            let body = (r.get(10)?, r.get(11)?, r.get(12)?, r.get(13)?);
            f(game_row(r)?, body)?;
        }
        Ok(())
    }

    /// The games of `filter`, in import order.
    ///
    /// # Errors
    /// [`GamesError::Sql`].
    pub fn games(&self, filter: &GameFilter) -> Result<Vec<GameRow>, GamesError> {
        let mut games = Vec::new();
        self.each_game(filter, |row, _| {
            games.push(row);
            Ok(())
        })?;
        Ok(games)
    }

    /// Runs `f` on the record of each game of `filter`, in import order,
    /// stopping at its first error (export writes them as they come).
    ///
    /// # Errors
    /// [`GamesError`], or `f`'s error.
    pub fn for_each_record<E: From<GamesError>>(
        &self,
        filter: &GameFilter,
        mut f: impl FnMut(GameRecord) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut failed = None;
        let walked = self.each_game(filter, |row, body| {
            let record = to_record(&row, body)?;
            f(record).map_err(|e| {
                failed = Some(e);
                GamesError::Damaged {
                    id: row.id,
                    problem: String::new(),
                }
            })
        });
        match (walked, failed) {
            (_, Some(e)) => Err(e),
            (Err(e), None) => Err(e.into()),
            (Ok(()), None) => Ok(()),
        }
    }

    /// The record of game `id`, `None` if there is none.
    ///
    /// # Errors
    /// [`GamesError`].
    pub fn record(&self, id: i64) -> Result<Option<GameRecord>, GamesError> {
        let mut found = None;
        let sql = format!(
            "SELECT {COLUMNS} FROM games g LEFT JOIN players w ON w.id = g.white
             LEFT JOIN players b ON b.id = g.black WHERE g.id = ?1"
        );
        let mut query = self.conn.prepare(&sql)?;
        let mut rows = query.query([id])?;
        if let Some(r) = rows.next()? {
            let body = (r.get(10)?, r.get(11)?, r.get(12)?, r.get(13)?);
            found = Some(to_record(&game_row(r)?, body)?);
        }
        Ok(found)
    }
}

/// A stored game as a record: the column tags in PlayOK's order, the others
/// in theirs.
fn to_record(row: &GameRow, (fen, blob, tags, comment): Body) -> Result<GameRecord, GamesError> {
    let damaged = |problem: String| GamesError::Damaged {
        id: row.id,
        problem,
    };
    let game = stored_game(fen.as_deref(), &blob, row.plies as usize).map_err(damaged)?;
    let result =
        parse_result(&row.result).ok_or_else(|| damaged(format!("result '{}'", row.result)))?;
    let mut record = GameRecord {
        tags: Vec::new(),
        game,
        result,
        comment,
    };
    let text = |v: &Option<String>| v.clone();
    for (name, value) in [
        ("Event", text(&row.event)),
        ("Site", text(&row.site)),
        ("Date", text(&row.date)),
    ] {
        if let Some(value) = value {
            record.tags.push((name.to_string(), value));
        }
    }
    let extra: Vec<(String, String)> = tags
        .as_deref()
        .unwrap_or("")
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    for (name, value) in [
        ("White", text(&row.white)),
        ("Black", text(&row.black)),
        ("Result", Some(row.result.clone())),
    ] {
        if let Some(value) = value {
            record.tags.push((name.to_string(), value));
        }
    }
    record.tags.extend(extra);
    for (name, value) in [("WhiteElo", row.white_elo), ("BlackElo", row.black_elo)] {
        if let Some(value) = value {
            record.tags.push((name.to_string(), value.to_string()));
        }
    }
    if let Some(fen) = fen {
        record.tags.push(("FEN".to_string(), fen));
    }
    Ok(record)
}
