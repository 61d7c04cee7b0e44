//! Reading the match's command-line values: engine specifications, the
//! time control and the limits of each game.

use std::fmt;

use tuzdyk_protocol::{EngineSpec, Go};

use crate::SearchLimits;

/// A clock: `base` for the game (or for each `moves` moves), plus `inc` per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// With `moves/base+inc`: the base time is given again after every
    /// `moves` moves of the engine (the engine is sent `movestogo`).
    pub moves: Option<u32>,
    pub base_ms: u64,
    pub inc_ms: u64,
}

/// Why a `--tc` or `--engine` value, or the choice of time control, was
/// rejected, naming it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("--tc '{tc}': moves '{moves}' is not a positive whole number")]
    Moves { tc: String, moves: String },
    #[error("--tc '{tc}': {what} '{text}' is not a number of seconds (e.g. 10+0.1)")]
    Seconds {
        tc: String,
        what: &'static str,
        text: String,
    },
    #[error("--tc '{0}': the base time must be above 0")]
    ZeroBase(String),
    #[error("--engine: expected key=value, got '{0}' (keys: cmd, name, option.<Name>)")]
    NotKeyValue(String),
    #[error("--engine: cmd= is empty")]
    EmptyCommand,
    #[error("--engine: name= is empty")]
    EmptyName,
    #[error("--engine: option name missing in '{0}'")]
    OptionName(String),
    #[error("--engine: unknown key '{key}' in '{word}' (keys: cmd, name, option.<Name>)")]
    UnknownKey { key: String, word: String },
    #[error("--engine {0}: cmd=<command> is missing")]
    MissingCommand(String),
    #[error("give either --tc or --movetime, not both")]
    TwoClocks,
    #[error("no time control: give --tc <seconds+increment>, --movetime, --nodes or --depth")]
    NoTimeControl,
}

/// The clock of `--tc` (if given) and the search limits of `--movetime`,
/// `--nodes`, `--depth`, checked: at least one, and not a clock and a
/// move time both.
///
/// # Errors
/// [`ConfigError`] for a bad `--tc`, two clocks or none.
pub fn clock_and_limits(
    tc: Option<&str>,
    search: &SearchLimits,
) -> Result<Option<TimeControl>, ConfigError> {
    let clock = tc.map(TimeControl::parse).transpose()?;
    if clock.is_some() && search.movetime.is_some() {
        return Err(ConfigError::TwoClocks);
    }
    if clock.is_none() && search.is_empty() {
        return Err(ConfigError::NoTimeControl);
    }
    Ok(clock)
}

/// Seconds as written by people: `10`, `0.1`, `2.5`.
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        format!("{}", ms as f64 / 1000.0)
    }
}

/// Parses a number of seconds into milliseconds.
fn parse_seconds(text: &str, what: &'static str, whole: &str) -> Result<u64, ConfigError> {
    let value: f64 = text
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v >= 0.0 && *v <= 1e8)
        .ok_or_else(|| ConfigError::Seconds {
            tc: whole.to_string(),
            what,
            text: text.to_string(),
        })?;
    Ok((value * 1000.0).round() as u64)
}

impl TimeControl {
    /// Reads `[moves/]seconds[+increment]`, e.g. `10+0.1`, `60`, `40/60+0.5`.
    ///
    /// # Errors
    /// [`ConfigError`] naming the part that is not a number of seconds.
    pub fn parse(text: &str) -> Result<TimeControl, ConfigError> {
        let trimmed = text.trim();
        let (moves, rest) =
            match trimmed.split_once('/') {
                Some((moves, rest)) => {
                    let moves: u32 = moves.parse().ok().filter(|&m| m > 0).ok_or_else(|| {
                        ConfigError::Moves {
                            tc: text.to_string(),
                            moves: moves.to_string(),
                        }
                    })?;
                    (Some(moves), rest)
                }
                None => (None, trimmed),
            };
        let (base, inc) = match rest.split_once('+') {
            Some((base, inc)) => (base, Some(inc)),
            None => (rest, None),
        };
        let base_ms = parse_seconds(base, "the base time", text)?;
        if base_ms == 0 {
            return Err(ConfigError::ZeroBase(text.to_string()));
        }
        let inc_ms = match inc {
            Some(inc) => parse_seconds(inc, "the increment", text)?,
            None => 0,
        };
        Ok(TimeControl {
            moves,
            base_ms,
            inc_ms,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", seconds(self.base_ms))?;
        if self.inc_ms > 0 {
            write!(f, "+{}", seconds(self.inc_ms))?;
        }
        Ok(())
    }
}

/// How long engines think and how long the referee waits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLimits {
    pub clock: Option<TimeControl>,
    /// `--movetime`, `--depth`, `--nodes`.
    pub search: SearchLimits,
    /// With a clock: an engine that has not answered this long after its
    /// clock ran out has hung.
    pub timeout_margin_ms: u64,
    /// Without a clock: an engine that has not answered this long after
    /// `go` (plus the movetime, if any) has hung.
    pub move_timeout_ms: u64,
    /// Time allowed for `uciok` and `readyok`.
    pub ready_timeout_ms: u64,
    /// Plies played in the match (opening moves not counted) after which a
    /// game still going on is adjudicated a draw.
    pub max_plies: usize,
}

impl GameLimits {
    /// The time control as reported: `5+0.05`, `movetime 100 ms`, `depth 3, nodes 1000`.
    pub fn describe(&self) -> String {
        let clock = self.clock.map(|clock| clock.to_string());
        let search = Some(self.search.describe()).filter(|s| !s.is_empty());
        [clock, search]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The `go` of every move without its clocks: movetime, depth, nodes.
    pub fn go(&self) -> Go {
        self.search.go()
    }
}

/// Reads one `--engine` group: `cmd=<command> [name=<name>] [option.<Name>=<value>]...`.
/// The name defaults to the command.
///
/// # Errors
/// [`ConfigError`] naming the word at fault.
pub fn parse_engine(words: &[String]) -> Result<EngineSpec, ConfigError> {
    let mut command = None;
    let mut name = None;
    let mut options = Vec::new();
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| ConfigError::NotKeyValue(word.clone()))?;
        if key == "cmd" {
            let parts: Vec<String> = value.split_whitespace().map(str::to_string).collect();
            if parts.is_empty() {
                return Err(ConfigError::EmptyCommand);
            }
            command = Some(parts);
        } else if key == "name" {
            if value.trim().is_empty() {
                return Err(ConfigError::EmptyName);
            }
            name = Some(value.trim().to_string());
        } else if let Some(option) = key.strip_prefix("option.") {
            if option.trim().is_empty() {
                return Err(ConfigError::OptionName(word.clone()));
            }
            options.push((option.trim().to_string(), value.to_string()));
        } else {
            return Err(ConfigError::UnknownKey {
                key: key.to_string(),
                word: word.clone(),
            });
        }
    }
    let command = command.ok_or_else(|| {
        ConfigError::MissingCommand(if words.is_empty() {
            "(empty)".to_string()
        } else {
            words.join(" ")
        })
    })?;
    let name = name.unwrap_or_else(|| command.join(" "));
    Ok(EngineSpec {
        command,
        name,
        options,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn time_controls_parse_and_print() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (None, 10_000, 100));
        assert_eq!(tc.to_string(), "10+0.1");
        let tc = TimeControl::parse("40/60+0.5").unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (Some(40), 60_000, 500));
        assert_eq!(tc.to_string(), "40/60+0.5");
        let tc = TimeControl::parse("5+0.05").unwrap();
        assert_eq!((tc.base_ms, tc.inc_ms), (5_000, 50));
        assert_eq!(tc.to_string(), "5+0.05");
        assert_eq!(TimeControl::parse("2.5").unwrap().to_string(), "2.5");
        for bad in [
            "", "abc", "10+", "+1", "0+1", "-5+1", "10+x", "0/10", "x/10+1", "10+-1",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "'{bad}'");
        }
    }

    #[test]
    fn engine_specs_parse() {
        let spec = parse_engine(&words(
            "cmd=./tuzdyk name=new option.Hash=64 option.Level=novice",
        ))
        .unwrap();
        assert_eq!(spec.command, vec!["./tuzdyk"]);
        assert_eq!(spec.name, "new");
        assert_eq!(
            spec.options,
            vec![
                ("Hash".to_string(), "64".to_string()),
                ("Level".to_string(), "novice".to_string())
            ]
        );
        let spec = parse_engine(&["cmd=prog --fast  -x".to_string()]).unwrap();
        assert_eq!(spec.command, vec!["prog", "--fast", "-x"]);
        assert_eq!(spec.name, "prog --fast -x");
        assert!(
            parse_engine(&words("name=x"))
                .unwrap_err()
                .to_string()
                .contains("cmd")
        );
        assert!(
            parse_engine(&words("cmd=a speed=3"))
                .unwrap_err()
                .to_string()
                .contains("unknown key 'speed'")
        );
        assert!(parse_engine(&words("cmd=a bare")).is_err());
        assert!(parse_engine(&words("cmd=")).is_err());
        assert!(parse_engine(&words("cmd=a option.=3")).is_err());
    }
}
