//! What a search is asked to do: depth, nodes, time, the side to move's
//! clock, and which root moves.

use std::time::Duration;

use tuzdyk_rules::Move;

/// The side to move's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideClock {
    /// Time left.
    pub time: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves until the time comes again, when the control has periods.
    pub moves_to_go: Option<u32>,
}

/// Everything a search can be asked for. Empty limits mean "search until
/// stopped".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<SideClock>,
    pub infinite: bool,
    pub ponder: bool,
    /// Stop when a win in at most this many moves is found.
    pub mate: Option<u32>,
    /// Only these root moves (empty, or none of them legal: all).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }
}
