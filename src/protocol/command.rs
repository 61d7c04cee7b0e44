//! Parsing protocol lines into typed commands. Every rejection is a
//! [`CommandError`] whose message names the offending token; parsing never
//! touches engine state, so a bad line changes nothing.

use std::time::Duration;

use crate::board::{Move, Position, Side};
use crate::notation::excerpt;
use crate::notation::tfen::{self, TfenError};
use crate::search::Limits;

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
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// The position after all the moves, already replayed.
    Position(Position),
    Go(Limits),
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
        reason: String,
    },
    #[error("go: '{name}' needs a number, got '{value}'")]
    GoNumber { name: String, value: String },
    #[error("go: '{0}' needs a value")]
    GoMissingValue(String),
    #[error("go: unknown parameter '{0}'")]
    GoUnknown(String),
    #[error("go: searchmoves: '{0}' is not a hole number 1-9")]
    SearchMove(String),
    #[error("setoption: expected 'setoption name <name> [value <value>]'")]
    SetOptionSyntax,
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
        "setoption" => parse_setoption(rest)?,
        "position" => Command::Position(parse_position(rest)?),
        "go" => Command::Go(parse_go(rest)?),
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
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

/// Parses `startpos|fen <TFEN> [moves ...]` and replays the moves.
pub fn parse_position(rest: &[&str]) -> Result<Position, CommandError> {
    let (&kind, rest) = rest.split_first().ok_or(CommandError::PositionMissing)?;
    let (mut position, rest) = match kind {
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
    for (i, &token) in moves.iter().enumerate() {
        let mv = parse_move(token).ok_or_else(|| CommandError::MalformedMove(excerpt(token)))?;
        if let Some(result) = position.result() {
            return Err(CommandError::IllegalMove {
                token: token.to_string(),
                index: i + 1,
                reason: format!("the game is already over ({})", result.notation()),
            });
        }
        if !position.is_legal(mv) {
            let reason =
                if position.tuzdik(position.side_to_move().opponent()) == Some(mv.index() as u8) {
                    format!("hole {mv} is the opponent's tuzdik")
                } else {
                    format!("hole {mv} is empty")
                };
            return Err(CommandError::IllegalMove {
                token: token.to_string(),
                index: i + 1,
                reason,
            });
        }
        position.play(mv);
    }
    Ok(position)
}

/// A move token: the hole number 1..9.
pub fn parse_move(token: &str) -> Option<Move> {
    if token.len() != 1 {
        return None;
    }
    token.parse::<u32>().ok().and_then(Move::from_number)
}

const GO_KEYWORDS: [&str; 17] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "p1time",
    "p2time",
    "p1inc",
    "p2inc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

fn parse_go(rest: &[&str]) -> Result<Limits, CommandError> {
    let mut limits = Limits::default();
    let mut i = 0;
    while i < rest.len() {
        let name = rest[i];
        i += 1;
        match name {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while i < rest.len() && !GO_KEYWORDS.contains(&rest[i]) {
                    let mv = parse_move(rest[i])
                        .ok_or_else(|| CommandError::SearchMove(excerpt(rest[i])))?;
                    limits.searchmoves.push(mv);
                    i += 1;
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "p1time" | "p2time" | "p1inc" | "p2inc"
            | "movestogo" | "depth" | "nodes" | "movetime" | "mate" => {
                let value = rest
                    .get(i)
                    .ok_or_else(|| CommandError::GoMissingValue(name.to_string()))?;
                i += 1;
                let number = value
                    .parse::<i64>()
                    .map_err(|_| CommandError::GoNumber {
                        name: name.to_string(),
                        value: excerpt(value),
                    })?
                    .max(0) as u64;
                let millis = Duration::from_millis(number);
                let side = |n: &str| {
                    if n.starts_with('w') || n.starts_with("p1") {
                        Side::White
                    } else {
                        Side::Black
                    }
                };
                match name {
                    "wtime" | "btime" | "p1time" | "p2time" => {
                        limits.clock.time[side(name).index()] = Some(millis)
                    }
                    "winc" | "binc" | "p1inc" | "p2inc" => {
                        limits.clock.increment[side(name).index()] = millis
                    }
                    "movestogo" => {
                        limits.clock.moves_to_go = Some(number.min(u32::MAX as u64) as u32)
                    }
                    "depth" => limits.depth = Some(number.min(u32::MAX as u64) as u32),
                    "nodes" => limits.nodes = Some(number),
                    "movetime" => limits.movetime = Some(millis),
                    _ => limits.mate = Some(number.min(u32::MAX as u64) as u32),
                }
            }
            other => return Err(CommandError::GoUnknown(excerpt(other))),
        }
    }
    Ok(limits)
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

    #[test]
    fn position_with_moves_is_replayed() {
        let Ok(Some(Command::Position(pos))) = parse("position startpos moves 6 4") else {
            panic!("not a position");
        };
        let mut expected = Position::startpos();
        expected.play(Move::from_number(6).unwrap());
        expected.play(Move::from_number(4).unwrap());
        assert_eq!(pos, expected);
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
    }

    #[test]
    fn go_reads_both_clock_dialects() {
        let Ok(Some(Command::Go(uci))) =
            parse("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5")
        else {
            panic!();
        };
        let Ok(Some(Command::Go(ugi))) =
            parse("go p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 5")
        else {
            panic!();
        };
        assert_eq!(uci, ugi);
        assert_eq!(uci.clock.time[1], Some(Duration::from_millis(2000)));
        assert_eq!(uci.clock.increment[0], Duration::from_millis(10));
    }

    #[test]
    fn setoption_names_may_have_spaces() {
        assert_eq!(
            parse("setoption name Clear Hash").unwrap(),
            Some(Command::SetOption {
                name: "Clear Hash".to_string(),
                value: None
            })
        );
        assert_eq!(
            parse("setoption name Hash value 64").unwrap(),
            Some(Command::SetOption {
                name: "Hash".to_string(),
                value: Some("64".to_string())
            })
        );
    }
}
