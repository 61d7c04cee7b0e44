//! What a page asks for, as it sends it: the commands and the settings
//! of a new game, checked before they change anything.

use serde::Deserialize;

use tuzdyk_protocol::Level;
use tuzdyk_rules::Side;

use crate::error::GuiError;
use crate::session::MOVETIME_RANGE;

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A person against the engine.
    Engine,
    /// Two people on one board.
    Humans,
    /// The engine against itself, to watch.
    Engines,
}

/// How a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub mode: Mode,
    /// The person's side against the engine.
    pub human: Side,
    pub level: Level,
    /// A time per move at full strength instead of a level.
    pub movetime_ms: Option<u64>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            mode: Mode::Engine,
            human: Side::White,
            level: Level::Beginner,
            movetime_ms: None,
        }
    }
}

/// Settings as a page sends them.
#[derive(Clone, Debug, Deserialize)]
pub struct SettingsRequest {
    pub mode: Mode,
    pub human: SideName,
    pub level: String,
    pub movetime_ms: Option<u64>,
}

/// A side as the page names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SideName {
    White,
    Black,
}

impl From<SideName> for Side {
    fn from(side: SideName) -> Side {
        match side {
            SideName::White => Side::White,
            SideName::Black => Side::Black,
        }
    }
}

impl SettingsRequest {
    pub(crate) fn check(&self) -> Result<Settings, GuiError> {
        let level = Level::parse(&self.level).ok_or_else(|| GuiError::Level(self.level.clone()))?;
        if let Some(ms) = self.movetime_ms
            && !MOVETIME_RANGE.contains(&ms)
        {
            return Err(GuiError::MoveTime(ms));
        }
        Ok(Settings {
            mode: self.mode,
            human: self.human.into(),
            level,
            movetime_ms: self.movetime_ms,
        })
    }
}

/// What a page asks.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum Command {
    /// The state again.
    State,
    Play {
        hole: i64,
    },
    New {
        settings: SettingsRequest,
    },
    Undo,
    Resign,
    Hint,
    Pause,
    /// Go on after a pause, or try the engine again after it failed.
    Resume,
    Analysis {
        on: bool,
    },
    Review,
    /// Show the position after `ply` moves (`None`: the game as it stands).
    View {
        ply: Option<usize>,
    },
    /// Drop the moves after the position shown and play on from it.
    ContinueHere,
    Setup {
        tfen: String,
    },
    Open {
        record: String,
    },
}
