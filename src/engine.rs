//! The engine: the layer between the protocol and the search.
//!
//! It owns the current position, the options, the transposition table and
//! the per-thread search state, and runs one search at a time on a
//! background thread. Every state change (new position, option, new game,
//! new search) first stops a running search, so a search's `bestmove` is
//! always given before the change takes effect.

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crate::board::Position;
use crate::search::tt::TranspositionTable;
use crate::search::{self, Control, Level, Limits, Reporter, SearchOptions, ThreadData};

/// Largest accepted `Hash`, in MB.
pub const MAX_HASH_MB: usize = 65_536;
/// Largest accepted `Threads`.
pub const MAX_THREADS: usize = 256;
/// Largest accepted `MultiPV` (there are at most nine moves).
pub const MAX_MULTIPV: usize = 9;
/// Largest accepted `MoveOverhead`, in ms.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;

/// The engine's options and their current values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: Duration,
    pub ponder: bool,
    pub level: Level,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(10),
            ponder: false,
            level: Level::Expert,
        }
    }
}

struct RunningSearch {
    control: Arc<Control>,
    handle: JoinHandle<Vec<ThreadData>>,
}

/// Why the table could not be resized.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {0} MB hash table; the previous table is kept")]
pub struct HashAllocationError(pub usize);

/// The engine state behind the protocol.
pub struct Engine {
    position: Position,
    options: EngineOptions,
    tt: Arc<TranspositionTable>,
    threads: Vec<ThreadData>,
    running: Option<RunningSearch>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    pub fn new() -> Engine {
        let options = EngineOptions::default();
        Engine {
            position: Position::startpos(),
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            threads: vec![ThreadData::default()],
            options,
            running: None,
        }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Sets the position to search next (stops a running search first).
    pub fn set_position(&mut self, position: Position) {
        self.stop();
        self.position = position;
    }

    /// Forgets everything learnt: the table and the histories.
    pub fn new_game(&mut self) {
        self.stop();
        self.tt.clear();
        for data in &mut self.threads {
            data.clear();
        }
    }

    pub fn clear_hash(&mut self) {
        self.stop();
        self.tt.clear();
    }

    /// Resizes the table to `megabytes` (already in range). On allocation
    /// failure the old table stays.
    pub fn set_hash(&mut self, megabytes: usize) -> Result<(), HashAllocationError> {
        self.stop();
        if megabytes == self.options.hash_mb {
            return Ok(());
        }
        // Free the old table first so that both never coexist.
        self.tt = Arc::new(TranspositionTable::new(1));
        match TranspositionTable::try_new(megabytes) {
            Some(table) => {
                self.tt = Arc::new(table);
                self.options.hash_mb = megabytes;
                Ok(())
            }
            None => {
                self.tt = Arc::new(
                    TranspositionTable::try_new(self.options.hash_mb)
                        .unwrap_or_else(|| TranspositionTable::new(1)),
                );
                Err(HashAllocationError(megabytes))
            }
        }
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.stop();
        self.options.threads = threads.clamp(1, MAX_THREADS);
    }

    pub fn set_multipv(&mut self, multipv: usize) {
        self.stop();
        self.options.multipv = multipv.clamp(1, MAX_MULTIPV);
    }

    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.stop();
        self.options.move_overhead = overhead;
    }

    pub fn set_ponder(&mut self, ponder: bool) {
        self.stop();
        self.options.ponder = ponder;
    }

    pub fn set_level(&mut self, level: Level) {
        self.stop();
        self.options.level = level;
    }

    /// Table usage in permille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Starts searching the current position in the background; the
    /// reporter receives the info lines and the best move. A running search
    /// is stopped first (and gives its own move).
    pub fn go(&mut self, limits: Limits, reporter: Arc<dyn Reporter + Send + Sync>) {
        self.stop();
        let options = SearchOptions {
            threads: self.options.threads,
            multipv: self.options.multipv,
            level: self.options.level,
            move_overhead: self.options.move_overhead,
        };
        let position = self.position;
        let control = Arc::new(Control::new(&position, &limits, &options));
        let tt = Arc::clone(&self.tt);
        let mut threads = std::mem::take(&mut self.threads);
        let search_control = Arc::clone(&control);
        let handle = std::thread::Builder::new()
            .name("search".to_string())
            .stack_size(16 * 1024 * 1024)
            .spawn(move || {
                search::run(
                    &position,
                    &limits,
                    &options,
                    &tt,
                    &mut threads,
                    &search_control,
                    reporter.as_ref(),
                );
                threads
            })
            .expect("the search thread starts");
        self.running = Some(RunningSearch { control, handle });
    }

    /// Whether a search is running (it may have finished and be waiting
    /// for `stop` in infinite or ponder mode).
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|running| !running.handle.is_finished())
    }

    /// Stops a running search and waits until it has given its move.
    pub fn stop(&mut self) {
        if let Some(running) = &self.running {
            running.control.stop();
        }
        self.wait();
    }

    /// Whether the running search ends by itself (a depth, node or time
    /// limit, not `infinite` or `ponder`).
    pub fn search_is_bounded(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|running| running.control.is_bounded())
    }

    /// Waits for a running search to finish by itself.
    pub fn wait(&mut self) {
        if let Some(running) = self.running.take() {
            match running.handle.join() {
                Ok(threads) => self.threads = threads,
                Err(_) => {
                    log::error!("the search thread panicked; its state is reset");
                    self.threads = vec![ThreadData::default()];
                }
            }
        }
    }

    /// The opponent played the ponder move: the search goes on on the clock.
    /// Returns false if no ponder search was running.
    pub fn ponderhit(&self) -> bool {
        match &self.running {
            Some(running) if running.control.is_pondering() => {
                running.control.ponderhit();
                true
            }
            _ => false,
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}
