//! The shipped opening suite, `openings/playok.tfen`: 195 positions after
//! 6-10 plies of real PlayOK games, one TFEN a line (with `#` comments).
//!
//! Built into the binary here, below every tool that starts games from it:
//! the match runner (`tuzdyk_tools::matches::openings`, which also makes
//! the file) and the training-data generator (`tuzdyk_train::datagen`).

use tuzdyk_rules::Position;

use crate::source;
use crate::tfen;

/// The suite's text, as shipped.
pub const PLAYOK: &str = include_str!("../../../openings/playok.tfen");

/// The suite's positions, in file order.
///
/// ```
/// let suite = tuzdyk_notation::suite::playok_positions();
/// assert!(suite.len() >= 150);
/// assert!(suite.iter().all(|pos| pos.game_over().is_none()));
/// ```
pub fn playok_positions() -> Vec<Position> {
    source::position_lines(PLAYOK)
        .map(|(_, line)| tfen::parse(line).expect("the built-in opening suite is valid TFEN"))
        .collect()
}
