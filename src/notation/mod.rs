//! Text forms of positions and games: TFEN position strings and PlayOK game
//! records. Depends only on the board.

pub mod record;
pub mod tfen;

/// A piece of user input as an error message quotes it: control characters
/// shown as `?` (so the message stays one line), and long input cut to its
/// first 48 characters and `...`.
///
/// ```
/// use tuzdyk::notation::excerpt;
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
