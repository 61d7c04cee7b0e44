//! Game records in the PlayOK notation: `[Tag "value"]` headers, then
//! numbered move pairs, then the result.
//!
//! A move token is `<from><landing>[X][(kazan)]`: the mover's hole, the
//! number of the hole where the last stone fell (on whichever side), `X` when
//! the move made a tuzdik, and after a capture the mover's kazan total.
//! Reading ([`parse_games`]) replays every move and checks every annotation;
//! writing (`Display`) produces exactly what reading accepts.
//!
//! ```
//! use tuzdyk_notation::record::{self, GameRecord};
//!
//! let text = "[White \"a\"]\n[Black \"b\"]\n\n1. 65(10) 98 *\n";
//! let games = record::parse_games(text);
//! let game: &GameRecord = games[0].as_ref().unwrap();
//! assert_eq!(game.game.moves().len(), 2);
//! assert_eq!(record::parse_games(&game.to_string())[0].as_ref().unwrap(), game);
//! ```

mod date;
mod read;
mod write;

use std::fmt;

use tuzdyk_rules::{Game, GameResult, IllegalMove, Position, Side};

use crate::tfen::{self, TfenError};

pub use date::{civil_from_days, date_tag, today};
pub use read::{GameReader, InputError, ReadGame, parse_game_text, parse_games, parse_games_at};
pub use write::move_token;

/// One game: its tags, the game itself and how the record says it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Tags in the order read or set (a `FEN` tag among them when the game
    /// does not start from the start position).
    pub tags: Vec<(String, String)>,
    /// The start position and the moves, all checked.
    pub game: Game,
    /// The recorded result; `None` for `*` (unfinished). A resignation or a
    /// loss on time ends a game that the rules would go on with.
    pub result: Option<GameResult>,
    /// A comment after the result (PlayOK writes `{zero}`), without braces.
    pub comment: Option<String>,
}

/// The result as records write it: `1-0`, `0-1`, `1/2-1/2`, or `*` for a
/// game that has not ended.
pub const fn result_text(result: Option<GameResult>) -> &'static str {
    match result {
        Some(GameResult::Win(Side::White)) => "1-0",
        Some(GameResult::Win(Side::Black)) => "0-1",
        Some(GameResult::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// Reads a result token: `Some(None)` for `*`, `None` if it is not one.
pub fn parse_result(word: &str) -> Option<Option<GameResult>> {
    match word {
        "1-0" => Some(Some(GameResult::Win(Side::White))),
        "0-1" => Some(Some(GameResult::Win(Side::Black))),
        "1/2-1/2" => Some(Some(GameResult::Draw)),
        "*" => Some(None),
        _ => None,
    }
}

/// What is wrong with a record, naming the token at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordProblem {
    #[error("unterminated tag '{0}'")]
    UnterminatedTag(String),
    #[error("malformed tag '{0}'")]
    MalformedTag(String),
    #[error("unterminated comment '{{'")]
    UnterminatedComment,
    #[error("expected one game, found {0}")]
    GameCount(usize),
    #[error("FEN tag '{text}': {error}")]
    FenTag { text: String, error: TfenError },
    #[error("tag inside the moves")]
    TagInMoves,
    #[error("'{0}' after the result")]
    AfterResult(String),
    #[error(
        "the game ended {} on the board but the record says {}",
        result_text(Some(*.board)),
        result_text(*.record)
    )]
    WrongResult {
        board: GameResult,
        record: Option<GameResult>,
    },
    #[error("move number '{found}' out of sequence (expected {expected})")]
    MoveNumber { found: String, expected: String },
    #[error("malformed move '{0}'")]
    MalformedMove(String),
    #[error("illegal move '{token}': {reason}")]
    IllegalMove { token: String, reason: IllegalMove },
    #[error("'{token}': the last stone lands in hole {actual}, not {claimed}")]
    Landing {
        token: String,
        actual: u32,
        claimed: u32,
    },
    #[error("'{0}': the move makes a tuzdik but is not marked X")]
    TuzdikNotMarked(String),
    #[error("'{0}': marked X but the move makes no tuzdik")]
    NoTuzdik(String),
    #[error("'{token}': kazan ({claimed}) given but the move captures nothing")]
    KazanWithoutCapture { token: String, claimed: u32 },
    #[error("'{token}': the mover's kazan is {actual} after the move, not {claimed}")]
    KazanMismatch {
        token: String,
        actual: u32,
        claimed: u32,
    },
    #[error("'{token}': the move captures {captured} but the kazan is not given")]
    KazanMissing { token: String, captured: u8 },
    #[error("the record ends without a result (truncated?)")]
    Truncated,
    #[error("the Result tag says '{tag}' but the moves end with '{written}'")]
    ResultTag { tag: String, written: &'static str },
}

/// Why a game record was rejected: which game, which move, what differed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct RecordError {
    /// 1-based position of the game in its file.
    pub game: usize,
    /// The players, when the tags name them.
    pub players: Option<String>,
    /// The 1-based full-move number and side of the move at fault, if any.
    pub at_move: Option<(u32, Side)>,
    pub problem: RecordProblem,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if let Some(players) = &self.players {
            write!(f, " ({players})")?;
        }
        if let Some((number, side)) = self.at_move {
            write!(f, ", move {number} ({side})")?;
        }
        write!(f, ": {}", self.problem)
    }
}

impl GameRecord {
    /// A record of `game`, with the standard tags.
    pub fn new(game: Game, result: Option<GameResult>) -> GameRecord {
        let mut tags = vec![
            ("Event".to_string(), "?".to_string()),
            ("Site".to_string(), "tuzdyk".to_string()),
            ("White".to_string(), "?".to_string()),
            ("Black".to_string(), "?".to_string()),
            ("Result".to_string(), result_text(result).to_string()),
        ];
        if *game.start() != Position::startpos() {
            tags.push(("FEN".to_string(), tfen::write(game.start())));
        }
        GameRecord {
            tags,
            game,
            result,
            comment: None,
        }
    }

    /// The value of tag `name` (any case), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// Sets tag `name`, replacing an existing one.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(key, _)| key == name) {
            Some(entry) => entry.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Every position of the game, from the start to after the last move.
    pub fn positions(&self) -> Vec<Position> {
        self.game.positions()
    }

    /// The position after the last move.
    pub fn final_position(&self) -> Position {
        *self.game.position()
    }
}
