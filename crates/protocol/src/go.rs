//! The parameters of `go`: clocks, limits, ponder and infinite searches,
//! and a root move restriction. Read by the engine, written by clients.

use std::fmt;
use std::time::Duration;

use tuzdyk_notation::{excerpt, hole};
use tuzdyk_rules::{Move, Side};

/// Why the parameters of `go` were rejected, naming the token at fault
/// ([`crate::CommandError::Go`] puts `go: ` before it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    #[error("'{name}' needs a number, got '{value}'")]
    Number { name: String, value: String },
    #[error("'{name}' is a count and cannot be negative, got '{value}'")]
    Negative { name: String, value: String },
    #[error("'{0}' needs a value")]
    MissingValue(String),
    #[error("unknown parameter '{0}'")]
    Unknown(String),
    #[error("searchmoves: '{0}' is not a hole number 1-9")]
    SearchMove(String),
}

/// The parameters that are times: a negative one is taken as 0 (a GUI may
/// send a clock that has run out). The others are counts.
const TIMES: [&str; 9] = [
    "wtime", "btime", "winc", "binc", "p1time", "p2time", "p1inc", "p2inc", "movetime",
];

/// The players' clocks as `go` gives them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left, indexed by [`Side::index`].
    pub time: [Option<Duration>; 2],
    pub increment: [Duration; 2],
    pub moves_to_go: Option<u32>,
}

/// Everything `go` can ask for. Empty parameters mean "search until stopped".
///
/// ```
/// use std::time::Duration;
/// use tuzdyk_protocol::Go;
///
/// let go = Go { depth: Some(12), movetime: Some(Duration::from_millis(500)), ..Go::default() };
/// assert_eq!(go.to_string(), "go depth 12 movetime 500");
/// assert_eq!(go.parameters(), "depth 12 movetime 500");
/// let tokens: Vec<&str> = "depth 12 movetime 500".split(' ').collect();
/// assert_eq!(Go::parse(&tokens).unwrap(), go);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub clock: Clock,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Stop when a win in at most this many moves is found.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
}

/// The words that start a `go` parameter (and so end a `searchmoves` list).
const KEYWORDS: [&str; 16] = [
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
];

impl Go {
    /// Reads the tokens after `go`. A negative time is taken as 0; a
    /// negative count (`depth`, `nodes`, `mate`, `movestogo`) is refused.
    ///
    /// # Errors
    /// [`GoError`] naming the parameter or value at fault.
    pub fn parse(tokens: &[&str]) -> Result<Go, GoError> {
        let mut go = Go::default();
        let mut i = 0;
        while i < tokens.len() {
            let name = tokens[i];
            i += 1;
            match name {
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "searchmoves" => {
                    while i < tokens.len() && !KEYWORDS.contains(&tokens[i]) {
                        let mv = hole::parse(tokens[i])
                            .map_err(|_| GoError::SearchMove(excerpt(tokens[i])))?;
                        go.searchmoves.push(mv);
                        i += 1;
                    }
                }
                _ if KEYWORDS.contains(&name) => {
                    let value = tokens
                        .get(i)
                        .ok_or_else(|| GoError::MissingValue(name.to_string()))?;
                    i += 1;
                    let number = value.parse::<i64>().map_err(|_| GoError::Number {
                        name: name.to_string(),
                        value: excerpt(value),
                    })?;
                    if number < 0 && !TIMES.contains(&name) {
                        return Err(GoError::Negative {
                            name: name.to_string(),
                            value: excerpt(value),
                        });
                    }
                    go.set(name, number.max(0) as u64);
                }
                other => return Err(GoError::Unknown(excerpt(other))),
            }
        }
        Ok(go)
    }

    /// The parameters as the line gives them, without `go`: `depth 12
    /// movetime 500` (empty for a bare `go`).
    pub fn parameters(&self) -> String {
        let line = self.to_string();
        line.strip_prefix("go ").unwrap_or_default().to_string()
    }

    /// Sets the numeric parameter `name` (one of [`KEYWORDS`]).
    fn set(&mut self, name: &str, number: u64) {
        let millis = Duration::from_millis(number);
        let small = number.min(u32::MAX as u64) as u32;
        let side = if name.starts_with('w') || name.starts_with("p1") {
            Side::White
        } else {
            Side::Black
        };
        match name {
            "wtime" | "btime" | "p1time" | "p2time" => self.clock.time[side.index()] = Some(millis),
            "winc" | "binc" | "p1inc" | "p2inc" => self.clock.increment[side.index()] = millis,
            "movestogo" => self.clock.moves_to_go = Some(small),
            "depth" => self.depth = Some(small),
            "nodes" => self.nodes = Some(number),
            "movetime" => self.movetime = Some(millis),
            _ => self.mate = Some(small),
        }
    }
}

impl fmt::Display for Go {
    /// The `go` line, with the UCI clock names.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        let clock = &self.clock;
        if clock.time.iter().any(Option::is_some) {
            for (name, time) in ["wtime", "btime"].iter().zip(clock.time) {
                if let Some(time) = time {
                    write!(f, " {name} {}", time.as_millis())?;
                }
            }
            for (name, increment) in ["winc", "binc"].iter().zip(clock.increment) {
                write!(f, " {name} {}", increment.as_millis())?;
            }
        }
        if let Some(moves) = clock.moves_to_go {
            write!(f, " movestogo {moves}")?;
        }
        if let Some(depth) = self.depth {
            write!(f, " depth {depth}")?;
        }
        if let Some(nodes) = self.nodes {
            write!(f, " nodes {nodes}")?;
        }
        if let Some(movetime) = self.movetime {
            write!(f, " movetime {}", movetime.as_millis())?;
        }
        if let Some(mate) = self.mate {
            write!(f, " mate {mate}")?;
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if self.ponder {
            f.write_str(" ponder")?;
        }
        if !self.searchmoves.is_empty() {
            f.write_str(" searchmoves")?;
            for mv in &self.searchmoves {
                write!(f, " {mv}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Go, GoError> {
        Go::parse(&text.split_whitespace().collect::<Vec<_>>())
    }

    #[test]
    fn both_clock_dialects_read_alike() {
        let uci = parse("wtime 1000 btime 2000 winc 10 binc 20 movestogo 5").unwrap();
        let ugi = parse("p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 5").unwrap();
        assert_eq!(uci, ugi);
        assert_eq!(uci.clock.time[1], Some(Duration::from_millis(2000)));
        assert_eq!(uci.clock.increment[0], Duration::from_millis(10));
        assert_eq!(
            uci.to_string(),
            "go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5"
        );
    }

    #[test]
    fn every_parameter_round_trips() {
        let line = "go wtime 0 btime 5 winc 0 binc 0 depth 3 nodes 7 movetime 9 mate 2 infinite ponder searchmoves 1 9";
        let go = parse(&line[3..]).unwrap();
        assert_eq!(go.to_string(), line);
        assert_eq!(
            parse("wtime -5").unwrap().clock.time[0],
            Some(Duration::ZERO)
        );
        assert_eq!(Go::default().to_string(), "go");
    }

    #[test]
    fn errors_name_the_parameter() {
        let error = parse("wtime soon").unwrap_err().to_string();
        assert!(
            error.contains("'soon'") && error.contains("wtime"),
            "{error}"
        );
        assert!(matches!(parse("depth"), Err(GoError::MissingValue(_))));
        assert!(matches!(parse("fast"), Err(GoError::Unknown(_))));
        assert!(matches!(
            parse("searchmoves 1 x"),
            Err(GoError::SearchMove(_))
        ));
        assert!(matches!(
            parse("searchmoves 1 perft"),
            Err(GoError::SearchMove(_))
        ));
    }

    #[test]
    fn negative_counts_are_refused_and_negative_times_are_zero() {
        for (line, name) in [
            ("depth -5", "depth"),
            ("nodes -1", "nodes"),
            ("mate -2", "mate"),
            ("wtime 100 movestogo -3", "movestogo"),
        ] {
            let error = parse(line).unwrap_err();
            assert!(matches!(error, GoError::Negative { .. }), "{line}");
            assert!(
                error.to_string().starts_with(&format!("'{name}'")),
                "{error}"
            );
        }
        assert_eq!(parse("movetime -1").unwrap().movetime, Some(Duration::ZERO));
        assert_eq!(parse("binc -7").unwrap().clock.increment[1], Duration::ZERO);
        assert_eq!(parse("depth 0").unwrap().depth, Some(0));
    }
}
