//! How long each search may take: the `--depth`, `--nodes` and
//! `--movetime` of every tool, the `go` they make and how long to wait for
//! its answer.

use std::time::Duration;

use tuzdyk_protocol::Go;

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
