//! `--resume`: the games an interrupted match already wrote to its `--pgn`
//! file, read back and checked to be this match's, so that the match and
//! its SPRT go on where they stopped instead of starting again (a test of
//! a few Elo takes more games than one sitting holds).
//!
//! A record is this match's game `n` when its `Round` is `n` (1 to
//! `--games`), its `White` and `Black` are the engines that game `n` pairs
//! (the first engine is White in odd games), it starts from the opening
//! `--openings` and `--seed` give game `n`, and its `Event` and
//! `TimeControl` are the match's. Anything else is refused by name, with
//! the file's line, and nothing is played: counting another match's games
//! would make the result a mixture.

use std::collections::HashSet;
use std::path::Path;

use tuzdyk_notation::record::{self, GameRecord, RecordError};

use super::config::GameLimits;
use super::openings::Opening;
use super::referee::ForfeitKind;
use super::standings::{Ending, Finished};

/// Why the games of a `--pgn` file cannot be counted into this match.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    #[error("--resume needs --pgn <file>: the games played so far are read back from it")]
    NoPgn,
    #[error("cannot read --pgn file '{path}' to resume: {error}")]
    Read { path: String, error: std::io::Error },
    #[error("--resume: {path}:{line}: {problem}")]
    Record {
        path: String,
        line: usize,
        problem: Box<RecordProblem>,
    },
}

/// What is wrong with one record of the file.
#[derive(Debug, thiserror::Error)]
pub enum RecordProblem {
    #[error("not a game record ({0})")]
    Unreadable(RecordError),
    #[error("Round tag '{round}' is not a game of this match (1 to {games})")]
    Round { round: String, games: usize },
    #[error("game {0} is recorded twice")]
    Twice(usize),
    #[error("game {number} has no result (*)")]
    Unfinished { number: usize },
    #[error(
        "game {number} has White '{white}' and Black '{black}'; this match's game {number} is '{want_white}' against '{want_black}'"
    )]
    Players {
        number: usize,
        white: String,
        black: String,
        want_white: String,
        want_black: String,
    },
    #[error(
        "game {number} starts from another opening than this match's game {number}: give the --openings, --opening-plies and --seed it was started with"
    )]
    Opening { number: usize },
    #[error("game {number} has {tag} '{recorded}'; this match's is '{ours}'")]
    Tag {
        number: usize,
        tag: &'static str,
        recorded: String,
        ours: String,
    },
    #[error("game {number}'s Termination '{text}' is not one tuzdyk match writes")]
    Termination { number: usize, text: String },
}

/// What a finished game of this match must be.
pub(super) struct Expected<'a> {
    pub names: &'a [String; 2],
    /// In the schedule's order (`scheduled`).
    pub openings: &'a [Opening],
    pub limits: &'a GameLimits,
    pub games: usize,
    pub event: &'a str,
}

/// The finished games of `path`, checked to be this match's (a missing or
/// empty file has none: the match starts at game 1).
pub(super) fn read_finished(
    path: &Path,
    expected: &Expected,
) -> Result<Vec<Finished>, ResumeError> {
    let shown = path.display().to_string();
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(ResumeError::Read { path: shown, error }),
    };
    let mut seen = HashSet::new();
    let mut finished = Vec::new();
    for read in record::parse_games_at(&text) {
        let at = |problem| ResumeError::Record {
            path: shown.clone(),
            line: read.line,
            problem: Box::new(problem),
        };
        let game = read.record.map_err(|e| at(RecordProblem::Unreadable(e)))?;
        let game = check(&game, expected).map_err(at)?;
        if !seen.insert(game.number) {
            return Err(at(RecordProblem::Twice(game.number)));
        }
        finished.push(game);
    }
    Ok(finished)
}

/// One record, as this match's game.
fn check(game: &GameRecord, expected: &Expected) -> Result<Finished, RecordProblem> {
    let tag = |name| game.tag(name).unwrap_or("").to_string();
    let round = tag("Round");
    let number = round
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=expected.games).contains(n))
        .ok_or(RecordProblem::Round {
            round,
            games: expected.games,
        })?;
    let (opening, white) = super::scheduled(number - 1, expected.openings);
    let names = expected.names;
    if tag("White") != names[white] || tag("Black") != names[1 - white] {
        return Err(RecordProblem::Players {
            number,
            white: tag("White"),
            black: tag("Black"),
            want_white: names[white].clone(),
            want_black: names[1 - white].clone(),
        });
    }
    if game.game.start() != opening.game.start()
        || !game.game.moves().starts_with(opening.game.moves())
    {
        return Err(RecordProblem::Opening { number });
    }
    let clock = expected
        .limits
        .clock
        .as_ref()
        .map_or(String::new(), ToString::to_string);
    for (name, ours) in [
        ("Event", expected.event.to_string()),
        ("TimeControl", clock),
    ] {
        if tag(name) != ours {
            return Err(RecordProblem::Tag {
                number,
                tag: name,
                recorded: tag(name),
                ours,
            });
        }
    }
    let result = game.result.ok_or(RecordProblem::Unfinished { number })?;
    let described = tag("Termination");
    let ending = ending(&described, names).ok_or_else(|| RecordProblem::Termination {
        number,
        text: described.clone(),
    })?;
    Ok(Finished {
        number,
        white,
        result,
        ending,
        described,
        closest_to_flag_ms: [None; 2],
    })
}

/// How a game ended, read back from the `Termination` tag that
/// `GameOutcome::describe` wrote; `None` for a text it does not write.
fn ending(text: &str, names: &[String; 2]) -> Option<Ending> {
    if text.starts_with("normal: ") {
        return Some(Ending::Rules);
    }
    if text.starts_with("adjudicated: ") {
        return Some(Ending::Adjudicated);
    }
    let forfeits = [
        (" crashed ", ForfeitKind::Crash),
        (" hung ", ForfeitKind::Hang),
        (" lost on time ", ForfeitKind::TimeForfeit),
        (" failed to start: ", ForfeitKind::StartFailure),
    ];
    (0..2).find_map(|engine| {
        let name = &names[engine];
        let forfeit = |kind| Some(Ending::Forfeit { engine, kind });
        // `illegal move '<token>' by <name> at move ...`: a bestmove token
        // has no white space, so the first `' by ` ends it.
        if let Some(rest) = text.strip_prefix("illegal move '") {
            let (token, by) = rest.split_once("' by ")?;
            let named = by.strip_prefix(name.as_str())?.starts_with(" at move ");
            return (named && !token.contains(char::is_whitespace))
                .then(|| forfeit(ForfeitKind::IllegalMove))
                .flatten();
        }
        let rest = text.strip_prefix(name.as_str())?;
        forfeits
            .iter()
            .find(|(words, _)| rest.starts_with(words))
            .and_then(|&(_, kind)| forfeit(kind))
    })
}

#[cfg(test)]
mod tests {
    use super::super::referee::{Forfeit, GameOutcome, Termination};
    use super::*;
    use tuzdyk_rules::{Game, GameEnd, GameResult, Position, Side};

    /// The side `engine` (0 or 1) played in game `number`.
    fn side_of(engine: usize, number: usize) -> Side {
        if (number - 1) % 2 == engine {
            Side::White
        } else {
            Side::Black
        }
    }

    fn names() -> [String; 2] {
        ["new".to_string(), "new2".to_string()]
    }

    fn outcome(termination: Termination) -> GameOutcome {
        GameOutcome {
            number: 3,
            white: 0,
            result: GameResult::Draw,
            termination,
            game: Game::new(Position::startpos()),
            closest_to_flag_ms: [None; 2],
        }
    }

    #[test]
    fn every_termination_the_referee_writes_reads_back() {
        let names = names();
        let forfeits = [
            Forfeit::IllegalMove {
                token: "10".to_string(),
                detail: "no such hole".to_string(),
                move_number: 9,
            },
            Forfeit::Crashed {
                during: "during its move".to_string(),
            },
            Forfeit::Hung {
                waited_ms: 1000,
                during: "during its move".to_string(),
            },
            Forfeit::LostOnTime {
                used_ms: 120,
                had_ms: 100,
                move_number: 30,
            },
            Forfeit::StartFailed {
                reason: "no uciok".to_string(),
            },
        ];
        let mut cases = vec![
            (
                outcome(Termination::Rules(GameEnd::KazanMajority)),
                Ending::Rules,
            ),
            (outcome(Termination::Rules(GameEnd::NoMoves)), Ending::Rules),
            (
                outcome(Termination::Adjudicated { plies: 600 }),
                Ending::Adjudicated,
            ),
        ];
        for forfeit in forfeits {
            for engine in 0..2 {
                let kind = forfeit.kind();
                let loser = side_of(engine, 3);
                cases.push((
                    outcome(Termination::Forfeit {
                        loser,
                        forfeit: forfeit.clone(),
                    }),
                    Ending::Forfeit { engine, kind },
                ));
            }
        }
        for (game, want) in cases {
            let text = game.describe(&names);
            assert_eq!(ending(&text, &names), Some(want), "{text}");
        }
        assert_eq!(ending("resigned", &names), None);
        assert_eq!(ending("other crashed during its move", &names), None);
    }
}
