//! The user tools: engine-vs-engine matches, batch analysis, play in the
//! terminal, the game review that `analyse`, `rating` and the GUI share
//! ([`review`]), and the levels' rating on the PlayOK scale ([`rating`]).
//! Each drives engines through the protocol as an
//! outside program would ([`tuzdyk_protocol::client`]); none of them links
//! the search.
//!
//! Each command's `run` returns its own error type (with the command's exit
//! status); the command line prints it. Output that cannot be written keeps
//! its `std::io::Error`, so the command line can tell a reader that went
//! away (`| head`) from a failure.

pub mod analyse;
pub mod db;
mod elo;
pub mod explore;
pub mod matches;
pub mod play;
pub mod rating;
pub mod review;

use std::process::ExitCode;
use std::time::Duration;

use tuzdyk_protocol::{ClientError, EngineOption, EngineSpec, Go};

/// The engine a tool or the GUI runs: `--engine-cmd` split on white space,
/// or this program. An unusable command is one `error:` line on stderr and
/// exit status 2. (The tools themselves use [`EngineCmd::spec`], whose
/// error their command line prints; this form is the GUI's.)
pub fn engine_spec(command: Option<&str>) -> Result<EngineSpec, ExitCode> {
    EngineSpec::from_command(command, "engine").map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })
}

/// A command-line parser for a value of the engine option `option`, taking
/// exactly the option's range (so that `--threads` or `--hash` take what
/// the engine takes).
pub fn option_range(option: EngineOption) -> clap::builder::RangedI64ValueParser<u32> {
    let (min, max) = option.range();
    clap::value_parser!(u32).range(min..=max)
}

/// `--engine-cmd`: the engine a tool runs, with its arguments.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct EngineCmd {
    /// The engine to run, with its arguments, split on white space
    /// (default: this program).
    #[arg(long, value_name = "CMD")]
    pub engine_cmd: Option<String>,
}

impl EngineCmd {
    /// The engine to start.
    ///
    /// # Errors
    /// [`ClientError::Start`] for an empty command.
    pub fn spec(&self) -> Result<EngineSpec, ClientError> {
        EngineSpec::from_command(self.engine_cmd.as_deref(), "engine")
    }
}

/// `--depth`, `--nodes` and `--movetime`: how long each search may take,
/// the first limit reached ending it. Each tool says what it does without
/// any.
#[derive(clap::Args, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Search to this depth (plies).
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// Search this many nodes.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Search for this many milliseconds.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
}

/// How long a tool waits for an untimed search (a depth or node limit):
/// as long as it takes.
const UNTIMED_WAIT: Duration = Duration::from_secs(30 * 24 * 3600);

/// The slack a timed search gets before its engine counts as hung: a
/// slow, busy machine may take far longer than asked.
const TIMED_SLACK: Duration = Duration::from_secs(60);

impl SearchLimits {
    /// A depth limit alone.
    pub fn depth(depth: u32) -> SearchLimits {
        SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        }
    }

    /// A time limit alone.
    pub fn movetime(ms: u64) -> SearchLimits {
        SearchLimits {
            movetime: Some(ms),
            ..SearchLimits::default()
        }
    }

    /// Whether no limit was given.
    pub fn is_empty(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.movetime.is_none()
    }

    /// These limits, or `default` when none was given.
    pub fn or(self, default: SearchLimits) -> SearchLimits {
        if self.is_empty() { default } else { self }
    }

    /// The `go` of these limits.
    pub fn go(&self) -> Go {
        Go {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            ..Go::default()
        }
    }

    /// How long to wait for a search's `bestmove`: a timed search gets
    /// twice its time and a minute; depth and node searches are waited for.
    pub fn timeout(&self) -> Duration {
        match self.movetime {
            Some(ms) => Duration::from_millis(ms.saturating_mul(2)) + TIMED_SLACK,
            None => UNTIMED_WAIT,
        }
    }

    /// `depth 3, nodes 1000` or `movetime 100 ms`: the limits as reports
    /// name them.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(ms) = self.movetime {
            parts.push(format!("movetime {ms} ms"));
        }
        if let Some(depth) = self.depth {
            parts.push(format!("depth {depth}"));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("nodes {nodes}"));
        }
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_make_the_go_and_the_wait() {
        let depth = SearchLimits::depth(3);
        assert_eq!(depth.go().to_string(), "go depth 3");
        assert_eq!(depth.timeout(), UNTIMED_WAIT);
        let timed = SearchLimits {
            movetime: Some(500),
            nodes: Some(10),
            ..SearchLimits::default()
        };
        assert_eq!(timed.go().to_string(), "go nodes 10 movetime 500");
        assert_eq!(timed.timeout(), Duration::from_millis(1000) + TIMED_SLACK);
        assert_eq!(timed.describe(), "movetime 500 ms, nodes 10");
        assert_eq!(SearchLimits::default().or(depth), depth);
        assert_eq!(timed.or(depth), timed);
    }
}
