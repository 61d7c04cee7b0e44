//! Opening positions for a match: the shipped suite, or a file of TFEN lines
//! or PlayOK game records.
//!
//! - A TFEN file has one position per line; blank lines and lines starting
//!   with `#` are skipped.
//! - A game-record file (recognized by its first line starting with `[` or
//!   with a move number such as `1.`) gives one opening per game: the game's
//!   start (its `FEN` tag or the start position) and its recorded moves, all
//!   of them, or the first `max_plies` with `--opening-plies`. The engines
//!   are sent the start and the moves, and the moves are part of each game's
//!   record.
//!
//! An opening whose game is already over is an error.
//!
//! The shipped suite `openings/playok.tfen` is built into the binary. It is
//! made by [`generate_suite`] from `tests/data/playok-games.pgn`; the test
//! `shipped_openings_are_reproducible` in `tests/match_tool.rs` checks that
//! the file is exactly its output, and
//! `cargo test --release --test match_tool -- --ignored regenerate_openings`
//! rewrites it.

use std::collections::HashSet;

use tuzdyk_notation::record::{self, RecordError, result_text};
use tuzdyk_notation::source::{self, SourceKind};
use tuzdyk_notation::tfen::{self, TfenError};
use tuzdyk_rules::{Game, GameResult, Side};

/// The shipped suite, one TFEN per line (kept in [`tuzdyk_notation::suite`],
/// which the training-data generator reads too).
pub const DEFAULT_SUITE: &str = tuzdyk_notation::suite::PLAYOK;
/// How the shipped suite is named in reports.
pub const DEFAULT_SUITE_NAME: &str = "openings/playok.tfen (built in)";

/// Where a game starts: a position and the moves already played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub game: Game,
    /// Where it came from, for messages: `line 12`, `game 3`.
    pub origin: String,
}

/// Why an openings file was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsError {
    #[error("no openings in it")]
    Empty,
    #[error("{origin}: the game is already over ({}) in this opening", result_text(Some(*.result)))]
    Finished { origin: String, result: GameResult },
    #[error("{origin}: invalid TFEN '{line}': {error}")]
    Tfen {
        origin: String,
        line: String,
        error: TfenError,
    },
    #[error(transparent)]
    Record(#[from] RecordError),
}

/// Reads openings from a file's text: TFEN lines or game records (see the
/// module documentation). `max_plies` cuts record openings short.
///
/// # Errors
/// [`OpeningsError`]: a bad line or record, a finished game, no openings.
pub fn parse_openings(text: &str, max_plies: Option<usize>) -> Result<Vec<Opening>, OpeningsError> {
    let openings = if source::kind(text) == Some(SourceKind::Records) {
        parse_records(text, max_plies)?
    } else {
        parse_tfen_lines(text)?
    };
    if openings.is_empty() {
        return Err(OpeningsError::Empty);
    }
    for opening in &openings {
        if let Some(result) = opening.game.position().result() {
            return Err(OpeningsError::Finished {
                origin: opening.origin.clone(),
                result,
            });
        }
    }
    Ok(openings)
}

fn parse_tfen_lines(text: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut openings = Vec::new();
    for (number, line) in source::position_lines(text) {
        let origin = format!("line {number}");
        let start = tfen::parse(line).map_err(|error| OpeningsError::Tfen {
            origin: origin.clone(),
            line: line.to_string(),
            error,
        })?;
        openings.push(Opening {
            game: Game::new(start),
            origin,
        });
    }
    Ok(openings)
}

fn parse_records(text: &str, max_plies: Option<usize>) -> Result<Vec<Opening>, OpeningsError> {
    let mut openings = Vec::new();
    for record in record::parse_games(text) {
        let mut game = record?.game;
        let index = openings.len() + 1;
        if let Some(limit) = max_plies {
            game.truncate(limit);
        }
        openings.push(Opening {
            game,
            origin: format!("game {index}"),
        });
    }
    Ok(openings)
}

/// The shipped suite.
pub fn default_suite() -> Vec<Opening> {
    parse_openings(DEFAULT_SUITE, None).expect("the built-in opening suite is valid")
}

/// Positions for the shipped suite, as TFEN lines. From each game of the
/// PlayOK file in order (game `i`, counting from 0), at most one position:
/// the first of the positions after 6..10 plies, tried from `6 + i % 5`
/// plies upwards and round (so the suite mixes depths), in which the game
/// goes on, the kazans differ by at most 10 stones, and which was not kept
/// before.
pub fn generate_suite(games_text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut seen = HashSet::new();
    for (i, record) in record::parse_games(games_text).into_iter().enumerate() {
        let Ok(record) = record else { continue };
        for k in 0..5 {
            let plies = 6 + (i + k) % 5;
            if record.game.moves().len() <= plies {
                continue;
            }
            let pos = record.game.position_at(plies);
            let difference =
                (i32::from(pos.kazan(Side::White)) - i32::from(pos.kazan(Side::Black))).abs();
            if pos.game_over().is_some() || difference > 10 {
                continue;
            }
            let line = tfen::write(&pos);
            if seen.insert(line.clone()) {
                lines.push(line);
                break;
            }
        }
    }
    lines
}

/// The whole suite file for [`generate_suite`]'s positions.
pub fn suite_file(lines: &[String]) -> String {
    let mut text = String::from(
        "# tuzdyk match openings: positions after 6-10 plies of the PlayOK games in\n\
         # tests/data/playok-games.pgn, at most one per game (tried from 6 + i % 5\n\
         # plies for game i), kazans within 10 stones, no duplicates. Made by\n\
         # tuzdyk_tools::matches::openings::generate_suite;\n\
         # regenerate: cargo test --release --test match_tool -- --ignored regenerate_openings\n",
    );
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    text
}

pub use tuzdyk_rules::rng::shuffle;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_suite_is_valid_and_distinct() {
        let suite = default_suite();
        assert!(suite.len() >= 150, "{} openings", suite.len());
        let distinct: HashSet<String> = suite
            .iter()
            .map(|o| tfen::write(o.game.position()))
            .collect();
        assert_eq!(distinct.len(), suite.len());
    }

    #[test]
    fn tfen_lines_and_comments_are_read() {
        let text = format!("# comment\n\n{}\n  {}  \n", tfen::STARTPOS, tfen::STARTPOS);
        let openings = parse_openings(&text, None).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[1].origin, "line 4");
        assert_eq!(
            openings[0].game.start(),
            &tuzdyk_rules::Position::startpos()
        );
    }

    #[test]
    fn bad_tfen_lines_name_the_line() {
        let text = format!("{}\n9S,9S/9S 0 0 S 1\n", tfen::STARTPOS);
        let error = parse_openings(&text, None).unwrap_err().to_string();
        assert!(error.starts_with("line 2: invalid TFEN"), "{error}");
        assert!(parse_openings("# nothing\n", None).is_err());
    }

    #[test]
    fn records_give_their_moves_optionally_cut_short() {
        let text = "[White \"a\"]\n[Black \"b\"]\n\n1. 65(10) 98 2. 55 56 *\n\n1. 19 *\n";
        let openings = parse_openings(text, None).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].game.moves().len(), 4);
        assert_eq!(openings[1].origin, "game 2");
        let cut = parse_openings(text, Some(1)).unwrap();
        assert_eq!(cut[0].game.moves().len(), 1);
        assert!(parse_openings("1. 65(10) 98 2. 55 5 *\n", None).is_err());
    }

    #[test]
    fn finished_positions_are_rejected() {
        // South has 82: the game is over.
        let over = "9S,9S,9S,9S,9S,9S,9S,9S,7S/1,1S,7 82 0 S 30";
        let error = parse_openings(over, None).unwrap_err().to_string();
        assert!(error.contains("already over (1-0)"), "{error}");
    }

    #[test]
    fn shuffling_is_a_seeded_permutation() {
        let mut a: Vec<usize> = (0..50).collect();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        assert_ne!(a, (0..50).collect::<Vec<_>>());
        a.sort_unstable();
        assert_eq!(a, (0..50).collect::<Vec<_>>());
    }
}
