//! What the caller and the search threads share while a search runs: the
//! stop flag, the node counter and limit, and the clock.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use tuzdyk_rules::Position;

use crate::limits::Limits;
use crate::time::TimeManager;

/// A value alone on its 64-byte cache line, so that writes to one shared
/// value do not make every core fetch its neighbour again.
#[repr(align(64))]
struct CacheLine<T>(T);

impl<T> std::ops::Deref for CacheLine<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

/// Shared by the caller and every search thread of one search.
pub struct Control {
    /// Set to end the search; every worker polls it at every node. It is
    /// read at every node by every thread and written once, so it has a
    /// cache line of its own: the node counter beside it was written by
    /// each thread every 1,024 nodes, and each write made every other core
    /// fetch the stop flag again (at 16 threads of 2.5 M nodes a second,
    /// about 600,000 such misses a second).
    stop: CacheLine<AtomicBool>,
    /// Added to by each thread every `NODE_BATCH` nodes.
    nodes: CacheLine<AtomicU64>,
    /// The total nodes after which the main worker stops the search.
    node_limit: Option<u64>,
    time: TimeManager,
    infinite: bool,
    bounded: bool,
}

impl Control {
    /// The control for searching `pos` with `limits`: the node limit and the
    /// time budget from the clock, `movetime` and `overhead` (`MoveOverhead`).
    pub fn new(pos: &Position, limits: &Limits, overhead: Duration) -> Control {
        let time = TimeManager::new(limits, pos, overhead);
        // What ends this search by itself: a depth or node limit, or the
        // side to move's clock or movetime.
        let bounded = !limits.infinite
            && !limits.ponder
            && (limits.depth.is_some() || limits.nodes.is_some() || time.has_limit());
        Control {
            stop: CacheLine(AtomicBool::new(false)),
            nodes: CacheLine(AtomicU64::new(0)),
            node_limit: limits.nodes,
            time,
            // A search with nothing that ends it (bare, only the other
            // side's clock, or `mate` alone) runs until `stop`.
            infinite: limits.infinite || (!limits.ponder && !bounded && limits.mate.is_none()),
            bounded,
        }
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the clock starts now and the
    /// search continues as a normal timed search.
    pub fn ponderhit(&self) {
        self.time.ponderhit();
    }

    pub fn is_pondering(&self) -> bool {
        self.time.is_pondering()
    }

    /// The search's clock.
    pub fn time(&self) -> &TimeManager {
        &self.time
    }

    /// Nodes counted so far by every thread (each adds its own in batches).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    pub(crate) fn add_nodes(&self, nodes: u64) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
    }

    pub(crate) fn node_limit(&self) -> Option<u64> {
        self.node_limit
    }

    /// Whether a depth, node or time limit ends the search by itself.
    pub fn is_bounded(&self) -> bool {
        self.bounded
    }

    /// Whether the search must wait for `stop` (or `ponderhit`) before
    /// giving its move, even when it has finished.
    pub(crate) fn must_wait(&self) -> bool {
        self.infinite || self.is_pondering()
    }

    /// `go infinite` and `go ponder` give their move only after `stop`
    /// (or, when pondering, `ponderhit`), even when the search has finished.
    pub(crate) fn wait_while_required(&self) {
        while self.must_wait() && !self.is_stopped() {
            std::thread::sleep(Duration::from_micros(500));
        }
    }
}
