//! The position editor's questions: whether the position a page set up
//! (its TFEN) is one the rules accept, with the one-line reason when it is
//! not. The reading and the rule check are `tuzdyk_notation::tfen::parse`
//! and `tuzdyk_rules::Position::from_parts` behind it; nothing here adds a
//! rule. Saving the position as a study is [`crate::study::save_position`].

use tuzdyk_notation::tfen;

use crate::error::{GuiError, tfen_text};
use crate::game::check_size;
use crate::wire::PositionCheck;

/// The answer to the editor's `check_position`: ok, or why not (a
/// malformed TFEN's problem, or the rule the position breaks).
///
/// # Errors
/// [`GuiError::TooLarge`] for a text beyond the upload limit.
pub fn check(text: String) -> Result<PositionCheck, GuiError> {
    check_size(&text)?;
    let error = tfen::parse(text.trim()).err().map(|e| tfen_text(&e));
    Ok(PositionCheck {
        ok: error.is_none(),
        error,
        tfen: text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(text: &str) -> Option<&'static str> {
        check(text.to_string()).unwrap().error.map(|e| e.key)
    }

    #[test]
    fn each_problem_has_its_own_key() {
        assert_eq!(reason(tfen::STARTPOS), None);
        let start = "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S";
        assert_eq!(
            reason(&format!("{start} 1 0 S 1")),
            Some("position_stone_count")
        );
        // White's tuzdik on Black's hole 9 (the first of the North row).
        assert_eq!(
            reason("t,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 9 0 S 1"),
            Some("position_tuzdik_on_nine")
        );
        assert_eq!(
            reason("9S,9S,9S,9S,9S,9S,t,9S,9S/9S,9S,t,9S,9S,9S,9S,9S,9S 9 9 S 1"),
            Some("position_tuzdiks_same_number")
        );
        assert_eq!(reason("9S,9S/9S 0 0 S 1"), Some("tfen_row_length"));
        assert!(matches!(
            check("x".repeat(crate::limits::MAX_UPLOAD_BYTES + 1)),
            Err(GuiError::TooLarge { .. })
        ));
    }
}
