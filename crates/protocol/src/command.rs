//! Parsing protocol lines into typed commands. Every rejection is a
//! [`CommandError`] whose message names the offending token; parsing never
//! touches engine state, so a bad line changes nothing.

use tuzdyk_notation::tfen::{self, TfenError};
use tuzdyk_notation::{excerpt, hole};
use tuzdyk_rules::{Game, IllegalMove, Position};

use crate::go::{Go, GoError};
use crate::options::{EngineOption, OptionError, OptionValue};

/// A UGI question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    GameOver,
    P1Turn,
    Result,
}

/// One protocol command, checked and ready to execute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Ugi,
    IsReady,
    /// `ucinewgame` or `uginewgame`.
    NewGame,
    /// A known option with a checked value.
    SetOption {
        option: EngineOption,
        value: OptionValue,
    },
    /// The start position and the moves, already replayed.
    Position(Game),
    Go(Go),
    Stop,
    PonderHit,
    Quit,
    Query(Query),
    /// `debug on|off`: accepted, no effect.
    Debug,
    /// `d`: the board diagram.
    Display,
    Fen,
    Moves,
    Eval,
    Perft(u32),
    Bench(Option<u32>),
    /// `help`: the commands, for a person at a terminal.
    Help,
}

/// Deepest `perft` the protocol runs (it blocks the command loop).
pub const MAX_PROTOCOL_PERFT: u32 = 12;

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("unknown command '{0}'")]
    Unknown(String),
    #[error("position: expected 'startpos' or 'fen', got '{0}'")]
    PositionKind(String),
    #[error("position: missing 'startpos' or 'fen'")]
    PositionMissing,
    #[error("position: invalid TFEN '{text}': {error}")]
    Tfen { text: String, error: TfenError },
    #[error("position: expected 'moves' after the position, got '{0}'")]
    ExpectedMoves(String),
    #[error("position: malformed move '{0}' (expected a hole number 1-9)")]
    MalformedMove(String),
    #[error("position: illegal move '{token}' (move {index} of the list): {reason}")]
    IllegalMove {
        token: String,
        index: usize,
        reason: IllegalMove,
    },
    #[error("go: {0}")]
    Go(#[from] GoError),
    #[error("setoption: expected 'setoption name <name> [value <value>]'")]
    SetOptionSyntax,
    #[error("setoption: unknown option '{0}', ignored")]
    UnknownOption(String),
    #[error("setoption: {0}")]
    Option(#[from] OptionError),
    #[error("query: unknown question '{0}' (expected gameover, p1turn or result)")]
    Query(String),
    #[error("query: missing question (gameover, p1turn or result)")]
    QueryMissing,
    #[error("debug: expected 'on' or 'off', got '{0}'")]
    Debug(String),
    #[error("{command}: expected a depth 1-{max}, got '{value}'")]
    Depth {
        command: &'static str,
        max: u32,
        value: String,
    },
}

/// Parses one line. `Ok(None)` for a blank line.
///
/// ```
/// use tuzdyk_protocol::command::{self, Command};
///
/// let Ok(Some(Command::Position(game))) = command::parse("position startpos moves 6 4") else {
///     panic!("a position");
/// };
/// assert_eq!(game.moves().len(), 2);
/// assert!(command::parse("position startpos moves 6 x").is_err());
/// ```
///
/// # Errors
/// [`CommandError`], naming the token at fault.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = tokens.split_first() else {
        return Ok(None);
    };
    let command = match head {
        "uci" if rest.is_empty() => Command::Uci,
        "ugi" if rest.is_empty() => Command::Ugi,
        "isready" if rest.is_empty() => Command::IsReady,
        "ucinewgame" | "uginewgame" if rest.is_empty() => Command::NewGame,
        "stop" if rest.is_empty() => Command::Stop,
        "ponderhit" if rest.is_empty() => Command::PonderHit,
        "quit" if rest.is_empty() => Command::Quit,
        "d" if rest.is_empty() => Command::Display,
        "fen" if rest.is_empty() => Command::Fen,
        "moves" if rest.is_empty() => Command::Moves,
        "eval" if rest.is_empty() => Command::Eval,
        "help" if rest.is_empty() => Command::Help,
        "setoption" => parse_setoption(rest)?,
        "position" => Command::Position(parse_position(rest)?),
        "go" => Command::Go(Go::parse(rest)?),
        "query" => Command::Query(parse_query(rest)?),
        "debug" => match rest {
            ["on"] | ["off"] => Command::Debug,
            _ => return Err(CommandError::Debug(excerpt(&rest.join(" ")))),
        },
        "perft" => Command::Perft(parse_depth(
            "perft",
            rest.first(),
            MAX_PROTOCOL_PERFT,
            rest.len(),
        )?),
        "bench" => Command::Bench(match rest.first() {
            None => None,
            Some(_) => Some(parse_depth("bench", rest.first(), 64, rest.len())?),
        }),
        _ => return Err(CommandError::Unknown(excerpt(line.trim()))),
    };
    Ok(Some(command))
}

fn parse_depth(
    command: &'static str,
    token: Option<&&str>,
    max: u32,
    count: usize,
) -> Result<u32, CommandError> {
    let error = || CommandError::Depth {
        command,
        max,
        value: token.map_or(String::new(), |t| excerpt(t)),
    };
    if count != 1 {
        return Err(error());
    }
    token
        .and_then(|t| t.parse::<u32>().ok())
        .filter(|d| (1..=max).contains(d))
        .ok_or_else(error)
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    let Some(("name", rest)) = rest.split_first().map(|(h, r)| (*h, r)) else {
        return Err(CommandError::SetOptionSyntax);
    };
    let value_at = rest.iter().position(|t| *t == "value");
    let (name, value) = match value_at {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(CommandError::SetOptionSyntax);
    }
    let name = name.join(" ");
    let option =
        EngineOption::by_name(&name).ok_or_else(|| CommandError::UnknownOption(excerpt(&name)))?;
    let value = option.spec().parse_value(value.as_deref())?;
    Ok(Command::SetOption { option, value })
}

/// Parses `startpos|fen <TFEN> [moves ...]` and replays the moves.
///
/// # Errors
/// [`CommandError`] for a bad TFEN, a malformed or illegal move.
pub fn parse_position(rest: &[&str]) -> Result<Game, CommandError> {
    let (&kind, rest) = rest.split_first().ok_or(CommandError::PositionMissing)?;
    let (start, rest) = match kind {
        "startpos" => (Position::startpos(), rest),
        "fen" => {
            let end = rest
                .iter()
                .position(|t| *t == "moves")
                .unwrap_or(rest.len());
            let text = rest[..end].join(" ");
            let position = tfen::parse(&text).map_err(|error| CommandError::Tfen {
                text: excerpt(&text),
                error,
            })?;
            (position, &rest[end..])
        }
        other => return Err(CommandError::PositionKind(excerpt(other))),
    };
    let moves = match rest.split_first() {
        None => &[][..],
        Some((&"moves", moves)) => moves,
        Some((other, _)) => return Err(CommandError::ExpectedMoves(excerpt(other))),
    };
    let mut game = Game::new(start);
    for (i, &token) in moves.iter().enumerate() {
        let mv = hole::parse(token).map_err(|_| CommandError::MalformedMove(excerpt(token)))?;
        game.play(mv).map_err(|reason| CommandError::IllegalMove {
            token: token.to_string(),
            index: i + 1,
            reason,
        })?;
    }
    Ok(game)
}

fn parse_query(rest: &[&str]) -> Result<Query, CommandError> {
    match rest {
        ["gameover"] => Ok(Query::GameOver),
        ["p1turn"] => Ok(Query::P1Turn),
        ["result"] => Ok(Query::Result),
        [] => Err(CommandError::QueryMissing),
        other => Err(CommandError::Query(excerpt(&other.join(" ")))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tuzdyk_rules::Move;

    #[test]
    fn position_with_moves_is_replayed() {
        let Ok(Some(Command::Position(game))) = parse("position startpos moves 6 4") else {
            panic!("not a position");
        };
        let mut expected = Position::startpos();
        expected.play(Move::from_number(6).unwrap());
        expected.play(Move::from_number(4).unwrap());
        assert_eq!(game.position(), &expected);
    }

    #[test]
    fn fen_positions_stop_at_moves() {
        let line = "position fen 1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 S 74 moves 4";
        assert!(matches!(parse(line), Ok(Some(Command::Position(_)))));
    }

    #[test]
    fn errors_name_the_token() {
        let error = parse("position startpos moves 6 x")
            .unwrap_err()
            .to_string();
        assert!(error.contains("'x'"), "{error}");
        let error = parse("go wtime soon").unwrap_err().to_string();
        assert!(
            error.contains("'soon'") && error.contains("wtime"),
            "{error}"
        );
        let error = parse("position fen 9S/9S 0 0 S").unwrap_err().to_string();
        assert!(error.contains("9S/9S"), "{error}");
        let error = parse("flip").unwrap_err().to_string();
        assert!(error.contains("'flip'"), "{error}");
        let error = parse("position startpos moves 6 5")
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "position: illegal move '5' (move 2 of the list): hole 5 is empty"
        );
    }

    #[test]
    fn setoption_names_may_have_spaces_and_any_case() {
        assert_eq!(
            parse("setoption name clear HASH").unwrap(),
            Some(Command::SetOption {
                option: EngineOption::ClearHash,
                value: OptionValue::Button
            })
        );
        assert_eq!(
            parse("setoption name Hash value 64").unwrap(),
            Some(Command::SetOption {
                option: EngineOption::Hash,
                value: OptionValue::Spin {
                    value: 64,
                    requested: 64
                }
            })
        );
        assert_eq!(
            parse("setoption name Foo value 1").unwrap_err().to_string(),
            "setoption: unknown option 'Foo', ignored"
        );
        assert_eq!(
            parse("setoption name Hash").unwrap_err().to_string(),
            "setoption: option 'Hash' needs a value"
        );
    }
}
