//! Text forms of positions, moves and games, depending only on the rules:
//!
//! - [`tfen`]: TFEN position strings;
//! - [`record`]: PlayOK game records (and the result and date tags);
//! - [`hole`]: a hole number as typed or sent, `1`..`9`;
//! - [`diagram`]: the board as lines of text;
//! - [`ending`]: how a finished game is described;
//! - [`source`]: telling a file of records from a file of positions;
//! - [`suite`]: the shipped opening suite;
//! - [`console`]: the command-line tools' lines to people, and
//!   [`excerpt`], how any message quotes their input.

pub mod console;
pub mod diagram;
pub mod ending;
pub mod hole;
pub mod record;
pub mod source;
pub mod suite;
pub mod tfen;

/// A piece of user input as an error message quotes it: control characters
/// shown as `?` (so the message stays one line), and long input cut to its
/// first 48 characters and `...`.
///
/// ```
/// use tuzdyk_notation::excerpt;
///
/// assert_eq!(excerpt("flip\rx"), "flip?x");
/// assert_eq!(excerpt(&"9".repeat(100)).len(), 51);
/// ```
pub fn excerpt(text: &str) -> String {
    const LONGEST: usize = 48;
    let mut shown: String = text
        .chars()
        .take(LONGEST)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().nth(LONGEST).is_some() {
        shown.push_str("...");
    }
    shown
}
