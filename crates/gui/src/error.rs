//! What a page can get wrong, one line each, with a stable code the page
//! translates. Every error leaves the game as it was.

use tuzdyk_notation::excerpt;
use tuzdyk_notation::record::RecordError;
use tuzdyk_notation::tfen::TfenError;
use tuzdyk_rules::IllegalMove;

/// A request the server refused.
#[derive(Debug, thiserror::Error)]
pub enum GuiError {
    #[error("invalid TFEN '{text}': {error}")]
    Tfen { text: String, error: TfenError },
    #[error("invalid game record: {0}")]
    Record(RecordError),
    #[error("{0}")]
    Illegal(IllegalMove),
    #[error("there is no hole {0}: holes are numbered 1 to 9")]
    NoSuchHole(i64),
    #[error("it is not your turn: the engine is to move")]
    NotYourTurn,
    #[error("a past position is shown: go back to the game or continue from here")]
    Viewing,
    #[error("nothing to undo")]
    NothingToUndo,
    #[error("the game has no moves to review")]
    NothingToReview,
    #[error("the upload has {bytes} bytes, more than the {limit} allowed")]
    TooLarge { bytes: usize, limit: usize },
    #[error("unknown level '{0}'")]
    Level(String),
    #[error("move time {0} ms is out of range {min}..{max}", min = crate::session::MOVETIME_RANGE.start(), max = crate::session::MOVETIME_RANGE.end())]
    MoveTime(u64),
    #[error("ply {0} is not in this game")]
    NoSuchPly(usize),
    #[error("malformed message: {0}")]
    Malformed(String),
    #[error("too many games are open ({0}); close a page or restart the server")]
    TooManyGames(usize),
}

impl GuiError {
    /// The message's code, which the page looks up in its texts.
    pub fn code(&self) -> &'static str {
        match self {
            GuiError::Tfen { .. } => "bad_tfen",
            GuiError::Record(_) => "bad_record",
            GuiError::Illegal(IllegalMove::GameOver(_)) => "game_over",
            GuiError::Illegal(IllegalMove::EmptyHole(_)) => "empty_hole",
            GuiError::Illegal(IllegalMove::OpponentsTuzdik(_)) => "opponents_tuzdik",
            GuiError::NoSuchHole(_) => "no_such_hole",
            GuiError::NotYourTurn => "not_your_turn",
            GuiError::Viewing => "viewing",
            GuiError::NothingToUndo => "nothing_to_undo",
            GuiError::NothingToReview => "nothing_to_review",
            GuiError::TooLarge { .. } => "too_large",
            GuiError::Level(_) => "bad_level",
            GuiError::MoveTime(_) => "bad_movetime",
            GuiError::NoSuchPly(_) => "no_such_ply",
            GuiError::Malformed(_) => "malformed",
            GuiError::TooManyGames(_) => "too_many_games",
        }
    }

    /// An invalid TFEN, the text quoted as error messages quote input.
    pub fn tfen(text: &str, error: TfenError) -> GuiError {
        GuiError::Tfen {
            text: excerpt(text),
            error,
        }
    }

    /// The hole number the message is about, for the page's own wording.
    pub fn hole(&self) -> Option<u32> {
        match self {
            GuiError::Illegal(IllegalMove::EmptyHole(mv) | IllegalMove::OpponentsTuzdik(mv)) => {
                Some(mv.number())
            }
            _ => None,
        }
    }
}
