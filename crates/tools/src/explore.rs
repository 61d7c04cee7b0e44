//! `tuzdyk explore`: the opening explorer. For a position (`--fen`, or
//! `--moves` from the start) it prints each move played there in the games
//! database, most played first, with the results and the average rating;
//! `--depth N` adds the engine's score of each move (`go depth N
//! searchmoves <move>` through the protocol client).

use std::time::Duration;

use serde::Serialize;
use tuzdyk_db::{ExploreError, MoveStats};
use tuzdyk_notation::console::{self, OutputError};
use tuzdyk_notation::excerpt;
use tuzdyk_notation::hole::{self, HoleError};
use tuzdyk_notation::tfen::{self, TfenError};
use tuzdyk_protocol::{ClientError, EngineOption, EngineProcess, Go, Score};
use tuzdyk_rules::{IllegalMove, Position};

use crate::db::{DbError, DbPath};
use crate::{EngineCmd, SearchLimits};

/// `tuzdyk explore`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    db: DbPath,
    /// The position (TFEN; default: the start).
    #[arg(long, value_name = "TFEN", conflicts_with = "moves")]
    fen: Option<String>,
    /// The moves from the start that lead to the position: `"6 4 9"`.
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    moves: Option<String>,
    /// One JSON object per line.
    #[arg(long)]
    json: bool,
    /// Also each move's score from the engine searched to this depth.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..))]
    depth: Option<u32>,
    #[command(flatten)]
    engine: EngineCmd,
}

/// Why `explore` could not answer.
#[derive(Debug, thiserror::Error)]
pub enum ExploreCmdError {
    #[error("invalid TFEN '{}': {error}", excerpt(text))]
    Fen { text: String, error: TfenError },
    #[error("--moves: move {index} '{}': {error}", excerpt(token))]
    Token {
        index: usize,
        token: String,
        error: HoleError,
    },
    #[error("--moves: move {index} '{token}' is illegal: {reason}")]
    Illegal {
        index: usize,
        token: String,
        reason: IllegalMove,
    },
    #[error("{0}")]
    Db(#[from] DbError),
    #[error("{0}")]
    Explore(#[from] ExploreError),
    #[error("engine: {0}")]
    Engine(#[from] ClientError),
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl ExploreCmdError {
    /// 2: `explore` either answers or could not run.
    pub fn status(&self) -> u8 {
        2
    }
}

/// A move as `explore --json` writes it.
#[derive(Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    mv: String,
    games: u64,
    white_wins: u64,
    draws: u64,
    black_wins: u64,
    avg_rating: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score_cp: Option<Option<i32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score_mate: Option<Option<i32>>,
}

/// The position the arguments name.
fn position(fen: Option<&str>, moves: Option<&str>) -> Result<Position, ExploreCmdError> {
    let mut pos = match fen {
        Some(text) => tfen::parse(text).map_err(|error| ExploreCmdError::Fen {
            text: text.to_string(),
            error,
        })?,
        None => Position::startpos(),
    };
    for (i, token) in moves.unwrap_or("").split_whitespace().enumerate() {
        let mv = hole::parse(token).map_err(|error| ExploreCmdError::Token {
            index: i + 1,
            token: token.to_string(),
            error,
        })?;
        pos.check(mv).map_err(|reason| ExploreCmdError::Illegal {
            index: i + 1,
            token: token.to_string(),
            reason,
        })?;
        pos.play(mv);
    }
    Ok(pos)
}

/// Runs `tuzdyk explore`.
///
/// # Errors
/// [`ExploreCmdError`], with its exit status.
pub fn run(args: Args) -> Result<(), ExploreCmdError> {
    let pos = position(args.fen.as_deref(), args.moves.as_deref())?;
    let db = crate::db::open(args.db.db.as_deref(), false)?;
    let moves = db.explore(&pos)?;
    if moves.is_empty() {
        console::err("no game in the database reaches this position")?;
        return Ok(());
    }
    let scores = match args.depth {
        Some(depth) => Some(scores(&args.engine, &pos, &moves, depth)?),
        None => None,
    };
    for (i, stats) in moves.iter().enumerate() {
        let score = scores.as_ref().map(|s| s[i]);
        console::out(line(stats, score, args.json))?;
    }
    Ok(())
}

/// Each move's score to `depth`, from the mover's side.
fn scores(
    engine: &EngineCmd,
    pos: &Position,
    moves: &[MoveStats],
    depth: u32,
) -> Result<Vec<Option<Score>>, ExploreCmdError> {
    let mut process = EngineProcess::start(&engine.spec()?)?;
    let threads = EngineOption::Threads.spec().name.to_string();
    process.handshake(&[(threads, "1".to_string())], Duration::from_secs(30))?;
    let limits = SearchLimits::depth(depth);
    let mut scores = Vec::with_capacity(moves.len());
    for stats in moves {
        process.send(&format!("position fen {}", tfen::write(pos)))?;
        let go = Go {
            searchmoves: vec![stats.mv],
            ..limits.go()
        };
        let report = process.go(&go, limits.timeout())?;
        scores.push(report.best_line().and_then(|l| l.score));
    }
    process.quit();
    Ok(scores)
}

fn line(s: &MoveStats, score: Option<Option<Score>>, json: bool) -> String {
    if json {
        let part = |mate: bool| {
            score.map(|s| match s {
                Some(Score::Centistones(cp)) if !mate => Some(cp),
                Some(Score::Mate(n)) if mate => Some(n),
                _ => None,
            })
        };
        let line = MoveJson {
            mv: s.mv.number().to_string(),
            games: s.games,
            white_wins: s.white_wins,
            draws: s.draws,
            black_wins: s.black_wins,
            avg_rating: s.avg_rating,
            score_cp: part(false),
            score_mate: part(true),
        };
        return serde_json::to_string(&line).unwrap_or_else(|e| unreachable!("a JSON line: {e}"));
    }
    let mut text = format!(
        "{}  games {}  white {}  draws {}  black {}",
        s.mv.number(),
        s.games,
        s.white_wins,
        s.draws,
        s.black_wins
    );
    if let Some(rating) = s.avg_rating {
        text.push_str(&format!("  rating {rating}"));
    }
    match score {
        Some(Some(score)) => text.push_str(&format!("  score {score}")),
        Some(None) => text.push_str("  score none"),
        None => {}
    }
    text
}
