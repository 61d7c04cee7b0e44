//! What a page can get wrong, and what can go wrong with the engine, as
//! [`Text`]s the page translates: a key and parameters, down to the token
//! of a TFEN or a record at fault. Every error leaves the game as it was.
//! The English `Display` of each is for logs and scripts.

use tuzdyk_notation::excerpt;
use tuzdyk_notation::record::{RecordError, RecordProblem, result_text};
use tuzdyk_notation::tfen::TfenError;
use tuzdyk_protocol::ClientError;
use tuzdyk_rules::{IllegalMove, PositionError};

use crate::limits::{
    MAX_LINE_MOVES, MAX_STUDY_COMMENT_CHARS, MAX_STUDY_NAME_CHARS, MOVETIME_RANGE,
};
use crate::wire::{ErrorMessage, Text};

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
    #[error("move time {0} ms is out of range {min}..{max}", min = MOVETIME_RANGE.start(), max = MOVETIME_RANGE.end())]
    MoveTime(u64),
    #[error("ply {0} is not in this game")]
    NoSuchPly(usize),
    #[error("move {index} of the line ({token}) cannot be played: {reason}")]
    BadLine {
        index: usize,
        token: i64,
        reason: LineProblem,
    },
    #[error("malformed message: {0}")]
    Malformed(String),
    #[error("too many games are open ({0}); close a page or restart the server")]
    TooManyGames(usize),
    /// The games database cannot be opened or read (its own message).
    #[error("the games database: {0}")]
    Database(String),
    #[error("review the game first: the exercises come from its review")]
    ReviewFirst,
    #[error("no mistakes or blunders to learn from")]
    NoMistakes,
    #[error("no exercise is waiting for an answer")]
    NotLearning,
    #[error("a study needs a name")]
    StudyNameEmpty,
    #[error("the study's name has {0} characters, more than the {MAX_STUDY_NAME_CHARS} allowed")]
    StudyNameTooLong(usize),
    #[error(
        "the study's comment has {0} characters, more than the {MAX_STUDY_COMMENT_CHARS} allowed"
    )]
    StudyCommentTooLong(usize),
    #[error("there is no study {0}")]
    NoSuchStudy(i64),
    #[error("there is no stored mistake {0}")]
    NoSuchMistake(i64),
    #[error("no puzzle is open")]
    NoPuzzle,
    #[error("there is no puzzle {0} (open)")]
    NoSuchPuzzle(i64),
    #[error("the puzzle is over: take the next one")]
    PuzzleOver,
    #[error("unknown puzzle theme '{0}'")]
    Theme(String),
    #[error("the puzzle is not over: finish it before analysing it")]
    PuzzleNotOver,
}

/// Why a move of an engine line cannot be shown.
#[derive(Debug, thiserror::Error)]
pub enum LineProblem {
    #[error("there is no such hole")]
    NoSuchHole,
    #[error("{0}")]
    Illegal(IllegalMove),
    #[error("a line of more than {MAX_LINE_MOVES} moves")]
    TooLong,
}

impl GuiError {
    /// The error's stable code, which the page also looks up (`err_<code>`).
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
            GuiError::BadLine { .. } => "bad_line",
            GuiError::Malformed(_) => "malformed",
            GuiError::TooManyGames(_) => "too_many_games",
            GuiError::Database(_) => "database",
            GuiError::ReviewFirst => "review_first",
            GuiError::NoMistakes => "no_mistakes",
            GuiError::NotLearning => "not_learning",
            GuiError::StudyNameEmpty => "study_name_empty",
            GuiError::StudyNameTooLong(_) => "study_name_too_long",
            GuiError::StudyCommentTooLong(_) => "study_comment_too_long",
            GuiError::NoSuchStudy(_) => "no_such_study",
            GuiError::NoSuchMistake(_) => "no_such_mistake",
            GuiError::NoPuzzle => "no_puzzle",
            GuiError::NoSuchPuzzle(_) => "no_such_puzzle",
            GuiError::PuzzleOver => "puzzle_over",
            GuiError::Theme(_) => "bad_theme",
            GuiError::PuzzleNotOver => "puzzle_not_over",
        }
    }

    /// The games database's error, as a page is told it.
    pub fn database(error: impl std::fmt::Display) -> GuiError {
        GuiError::Database(error.to_string())
    }

    /// An invalid TFEN, the text quoted as error messages quote input.
    pub fn tfen(text: &str, error: TfenError) -> GuiError {
        GuiError::Tfen {
            text: excerpt(text),
            error,
        }
    }

    /// The error as the page shows it.
    pub fn text(&self) -> Text {
        let key = match self.code() {
            "bad_tfen" => "err_bad_tfen",
            "bad_record" => "err_bad_record",
            "game_over" => "err_game_over",
            "empty_hole" => "err_empty_hole",
            "opponents_tuzdik" => "err_opponents_tuzdik",
            "no_such_hole" => "err_no_such_hole",
            "not_your_turn" => "err_not_your_turn",
            "viewing" => "err_viewing",
            "nothing_to_undo" => "err_nothing_to_undo",
            "nothing_to_review" => "err_nothing_to_review",
            "too_large" => "err_too_large",
            "bad_level" => "err_bad_level",
            "bad_movetime" => "err_bad_movetime",
            "no_such_ply" => "err_no_such_ply",
            "bad_line" => "err_bad_line",
            "too_many_games" => "err_too_many_games",
            "database" => "err_database",
            "review_first" => "err_review_first",
            "no_mistakes" => "err_no_mistakes",
            "not_learning" => "err_not_learning",
            "study_name_empty" => "err_study_name_empty",
            "study_name_too_long" => "err_study_name_too_long",
            "study_comment_too_long" => "err_study_comment_too_long",
            "no_such_study" => "err_no_such_study",
            "no_such_mistake" => "err_no_such_mistake",
            "no_puzzle" => "err_no_puzzle",
            "no_such_puzzle" => "err_no_such_puzzle",
            "puzzle_over" => "err_puzzle_over",
            "bad_theme" => "err_bad_theme",
            "puzzle_not_over" => "err_puzzle_not_over",
            _ => "err_malformed",
        };
        let text = Text::new(key);
        match self {
            GuiError::Tfen { text: input, error } => text
                .with("text", input.as_str())
                .with("detail", tfen_text(error)),
            GuiError::Record(error) => text.with("detail", record_text(error)),
            GuiError::Illegal(illegal) => text.with("detail", illegal_text(illegal)),
            GuiError::NoSuchHole(hole) => text.with("hole", *hole),
            GuiError::TooLarge { bytes, limit } => text.with("bytes", *bytes).with("limit", *limit),
            GuiError::Level(level) => text.with("level", excerpt(level)),
            GuiError::MoveTime(ms) => text
                .with("ms", i64::try_from(*ms).unwrap_or(i64::MAX))
                .with("min", i64::try_from(*MOVETIME_RANGE.start()).unwrap_or(0))
                .with("max", i64::try_from(*MOVETIME_RANGE.end()).unwrap_or(0)),
            GuiError::NoSuchPly(ply) => text.with("ply", *ply),
            GuiError::BadLine {
                index,
                token,
                reason,
            } => {
                let reason = match reason {
                    LineProblem::NoSuchHole => Text::new("line_no_such_hole"),
                    LineProblem::Illegal(illegal) => illegal_text(illegal),
                    LineProblem::TooLong => {
                        Text::new("line_too_long").with("limit", MAX_LINE_MOVES)
                    }
                };
                text.with("index", *index)
                    .with("hole", *token)
                    .with("detail", reason)
            }
            GuiError::Malformed(detail) | GuiError::Database(detail) => {
                text.with("detail", excerpt(detail))
            }
            GuiError::TooManyGames(limit) => text.with("limit", *limit),
            GuiError::StudyNameTooLong(chars) => {
                text.with("n", *chars).with("limit", MAX_STUDY_NAME_CHARS)
            }
            GuiError::StudyCommentTooLong(chars) => text
                .with("n", *chars)
                .with("limit", MAX_STUDY_COMMENT_CHARS),
            GuiError::NoSuchStudy(id) | GuiError::NoSuchMistake(id) => text.with("id", *id),
            GuiError::NoSuchPuzzle(id) => text.with("id", *id),
            GuiError::Theme(theme) => text.with("theme", excerpt(theme)),
            GuiError::NoPuzzle | GuiError::PuzzleOver | GuiError::PuzzleNotOver => text,
            GuiError::NotYourTurn
            | GuiError::ReviewFirst
            | GuiError::NoMistakes
            | GuiError::NotLearning
            | GuiError::StudyNameEmpty
            | GuiError::Viewing
            | GuiError::NothingToUndo
            | GuiError::NothingToReview => text,
        }
    }

    /// The message the page gets.
    pub fn message(&self) -> ErrorMessage {
        ErrorMessage {
            code: self.code(),
            text: self.text(),
            message: self.to_string(),
        }
    }
}

fn row(name: &str) -> Text {
    Text::new(if name.eq_ignore_ascii_case("north") {
        "row_north"
    } else {
        "row_south"
    })
}

/// A TFEN's problem.
pub fn tfen_text(error: &TfenError) -> Text {
    match error {
        TfenError::Empty => Text::new("tfen_empty"),
        TfenError::FieldCount(n) => Text::new("tfen_field_count").with("n", *n),
        TfenError::RowCount(n) => Text::new("tfen_row_count").with("n", *n),
        TfenError::RowLength { row: name, holes } => Text::new("tfen_row_length")
            .with("row", row(name))
            .with("holes", *holes),
        TfenError::UnknownToken { row: name, token } => Text::new("tfen_unknown_token")
            .with("row", row(name))
            .with("token", excerpt(token)),
        TfenError::Kazan { which, token } => Text::new("tfen_kazan")
            .with("row", row(which))
            .with("token", excerpt(token)),
        TfenError::Side(token) => Text::new("tfen_side").with("token", excerpt(token)),
        TfenError::FullMove(token) => Text::new("tfen_full_move").with("token", excerpt(token)),
        TfenError::TwoTuzdiks(name) => Text::new("tfen_two_tuzdiks").with("row", row(name)),
        TfenError::Position(error) => position_text(error),
    }
}

/// A position's problem.
pub fn position_text(error: &PositionError) -> Text {
    match *error {
        PositionError::StoneCount(n) => Text::new("position_stone_count").with("n", n),
        PositionError::HoleTooFull(n) => Text::new("position_hole_too_full").with("n", n),
        PositionError::TuzdikOnNine(side) => {
            Text::new("position_tuzdik_on_nine").with("side", side)
        }
        PositionError::TuzdiksSameNumber(hole) => {
            Text::new("position_tuzdiks_same_number").with("hole", hole)
        }
        PositionError::TuzdikNotEmpty { side, hole, stones } => {
            Text::new("position_tuzdik_not_empty")
                .with("side", side)
                .with("hole", hole)
                .with("n", stones)
        }
        PositionError::FullMove(n) => Text::new("position_full_move").with("n", n),
    }
}

/// Why a move is refused.
pub fn illegal_text(illegal: &IllegalMove) -> Text {
    match *illegal {
        IllegalMove::GameOver(result) => {
            Text::new("illegal_game_over").with("result", result_text(Some(result)))
        }
        IllegalMove::EmptyHole(mv) => Text::new("illegal_empty_hole").with("hole", mv.number()),
        IllegalMove::OpponentsTuzdik(mv) => {
            Text::new("illegal_opponents_tuzdik").with("hole", mv.number())
        }
    }
}

/// A record's problem, with where it is.
pub fn record_text(error: &RecordError) -> Text {
    let problem = match &error.problem {
        RecordProblem::UnterminatedTag(tag) => {
            Text::new("record_unterminated_tag").with("token", excerpt(tag))
        }
        RecordProblem::MalformedTag(tag) => {
            Text::new("record_malformed_tag").with("token", excerpt(tag))
        }
        RecordProblem::UnterminatedComment => Text::new("record_unterminated_comment"),
        RecordProblem::GameCount(n) => Text::new("record_game_count").with("n", *n),
        RecordProblem::FenTag { text, error } => Text::new("record_fen_tag")
            .with("token", excerpt(text))
            .with("detail", tfen_text(error)),
        RecordProblem::TagInMoves => Text::new("record_tag_in_moves"),
        RecordProblem::AfterResult(token) => {
            Text::new("record_after_result").with("token", excerpt(token))
        }
        RecordProblem::WrongResult { board, record } => Text::new("record_wrong_result")
            .with("board", result_text(Some(*board)))
            .with("record", result_text(*record)),
        RecordProblem::MoveNumber { found, expected } => Text::new("record_move_number")
            .with("token", excerpt(found))
            .with("expected", excerpt(expected)),
        RecordProblem::MalformedMove(token) => {
            Text::new("record_malformed_move").with("token", excerpt(token))
        }
        RecordProblem::IllegalMove { token, reason } => Text::new("record_illegal_move")
            .with("token", excerpt(token))
            .with("detail", illegal_text(reason)),
        RecordProblem::Landing {
            token,
            actual,
            claimed,
        } => Text::new("record_landing")
            .with("token", excerpt(token))
            .with("actual", *actual)
            .with("claimed", *claimed),
        RecordProblem::TuzdikNotMarked(token) => {
            Text::new("record_tuzdik_not_marked").with("token", excerpt(token))
        }
        RecordProblem::NoTuzdik(token) => {
            Text::new("record_no_tuzdik").with("token", excerpt(token))
        }
        RecordProblem::KazanWithoutCapture { token, claimed } => {
            Text::new("record_kazan_without_capture")
                .with("token", excerpt(token))
                .with("claimed", *claimed)
        }
        RecordProblem::KazanMismatch {
            token,
            actual,
            claimed,
        } => Text::new("record_kazan_mismatch")
            .with("token", excerpt(token))
            .with("actual", *actual)
            .with("claimed", *claimed),
        RecordProblem::KazanMissing { token, captured } => Text::new("record_kazan_missing")
            .with("token", excerpt(token))
            .with("n", u32::from(*captured)),
        RecordProblem::Truncated => Text::new("record_truncated"),
        RecordProblem::ResultTag { tag, written } => Text::new("record_result_tag")
            .with("token", excerpt(tag))
            .with("written", *written),
    };
    match error.at_move {
        Some((number, side)) => Text::new("record_at_move")
            .with("number", number)
            .with("side", side)
            .with("detail", problem),
        None => problem,
    }
}

/// What went wrong with the engine.
pub fn engine_text(error: &ClientError) -> Text {
    match error {
        ClientError::Start { command, reason } => Text::new("engine_start")
            .with("command", excerpt(command))
            .with("reason", excerpt(reason)),
        ClientError::Exited(_) => Text::new("engine_exited"),
        ClientError::Timeout {
            millis,
            waiting_for,
            ..
        } => Text::new("engine_timeout")
            .with("ms", i64::try_from(*millis).unwrap_or(i64::MAX))
            .with("waiting_for", excerpt(waiting_for)),
        ClientError::Write { reason, .. } => {
            Text::new("engine_write").with("reason", excerpt(reason))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tfen_error_names_its_row_as_a_text_and_its_token_as_written() {
        let error = tuzdyk_notation::tfen::parse("9S,9S/9S 0 0 S 1").unwrap_err();
        let text = GuiError::tfen("9S,9S/9S 0 0 S 1", error).text();
        let json = serde_json::to_value(&text).unwrap();
        assert_eq!(json["key"], "err_bad_tfen");
        assert_eq!(json["params"]["text"], "9S,9S/9S 0 0 S 1");
        assert_eq!(json["params"]["detail"]["key"], "tfen_row_length");
        assert_eq!(
            json["params"]["detail"]["params"]["row"]["key"],
            "row_north"
        );
        assert_eq!(json["params"]["detail"]["params"]["holes"], 2);
    }

    #[test]
    fn a_record_error_says_where_and_what() {
        let error = tuzdyk_notation::record::parse_game_text("1. 65(10) 99\n").unwrap_err();
        let json = serde_json::to_value(record_text(&error)).unwrap();
        assert_eq!(json["key"], "record_at_move", "{json}");
        assert_eq!(json["params"]["side"]["key"], "black", "{json}");
        assert!(
            json["params"]["detail"]["key"]
                .as_str()
                .unwrap()
                .starts_with("record_"),
            "{json}"
        );
    }
}
