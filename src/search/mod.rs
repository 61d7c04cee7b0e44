//! The search: iterative-deepening alpha-beta over a shared transposition
//! table, run by `Threads` Lazy-SMP workers.
//!
//! [`run`] searches one position to the given [`Limits`] and reports through
//! a [`Reporter`]; a [`Control`] shared with the caller stops it, tells it
//! that a ponder move was played, and counts nodes. Only the main worker
//! watches the clock; every worker checks the one stop flag.
//!
//! ```
//! use tuzdyk::board::Position;
//! use tuzdyk::search::{self, Limits, SearchOptions, Silent, ThreadData};
//! use tuzdyk::search::tt::TranspositionTable;
//!
//! let pos = Position::startpos();
//! let limits = Limits::depth(4);
//! let options = SearchOptions::default();
//! let tt = TranspositionTable::new(1);
//! let mut threads = vec![ThreadData::default()];
//! let control = search::Control::new(&pos, &limits, &options);
//! let result = search::run(&pos, &limits, &options, &tt, &mut threads, &control, &Silent);
//! assert!(pos.is_legal(result.best.unwrap()));
//! ```

pub mod bench;
pub mod level;
pub mod limits;
pub mod score;
pub mod tt;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub use level::Level;
pub use limits::{Clock, Limits, TimeBudget};
pub use worker::{MAX_PLY, RootMove, ThreadData};

use crate::board::{Move, Position};
use tt::{Bound, TranspositionTable};
use worker::Worker;

/// How the engine is set up for a search (the options that matter to it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    pub threads: usize,
    pub multipv: usize,
    pub level: Level,
    pub move_overhead: Duration,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            level: Level::Expert,
            move_overhead: Duration::from_millis(10),
        }
    }
}

/// One progress report: what an `info` line carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based line number (MultiPV).
    pub multipv: usize,
    /// Search score for the side to move (see [`score`]).
    pub score: i32,
    /// `Some` when the score is only a bound (aspiration window failure).
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub nps: u64,
    /// Permille of the table in use.
    pub hashfull: u32,
    pub time: Duration,
    pub pv: Vec<Move>,
}

/// What a search settled on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the game is already over.
    pub best: Option<Move>,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// Receives a search's progress and its final move.
pub trait Reporter: Sync {
    fn info(&self, info: &SearchInfo);
    fn best_move(&self, _result: &SearchResult) {}
}

/// A reporter that discards everything.
pub struct Silent;

impl Reporter for Silent {
    fn info(&self, _info: &SearchInfo) {}
}

/// What the caller and the search threads share while a search runs.
pub struct Control {
    /// Set to end the search; every worker polls it at every node.
    pub stop: AtomicBool,
    nodes: AtomicU64,
    /// The total nodes after which the main worker stops the search.
    pub node_limit: Option<u64>,
    budget: Option<TimeBudget>,
    started: Instant,
    /// Microseconds after `started` at which the clock started (a ponder
    /// hit starts it again).
    clock_start_micros: AtomicU64,
    pondering: AtomicBool,
    infinite: bool,
    bounded: bool,
}

impl Control {
    /// The control for searching `pos` with `limits` and `options`: the
    /// node limit (the smaller of `go nodes` and the level's) and the time
    /// budget from the clock, `movetime` and `MoveOverhead`.
    pub fn new(pos: &Position, limits: &Limits, options: &SearchOptions) -> Control {
        let node_limit = match (limits.nodes, options.level.max_nodes()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let budget = limits::budget(limits, pos, options.move_overhead);
        // What ends this search by itself: a depth or node limit (the
        // level's included), or the side to move's clock or movetime.
        let bounded = !limits.infinite
            && !limits.ponder
            && (limits.depth.is_some() || node_limit.is_some() || budget.is_some());
        Control {
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            node_limit,
            budget,
            started: Instant::now(),
            clock_start_micros: AtomicU64::new(0),
            pondering: AtomicBool::new(limits.ponder),
            // A `go` with nothing that ends it (bare, only the other side's
            // clock, or `mate` alone) runs until `stop`.
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
        let now = self.started.elapsed().as_micros() as u64;
        self.clock_start_micros.store(now, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Release);
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// Time since the search began.
    pub fn since_start(&self) -> Duration {
        self.started.elapsed()
    }

    /// Time on the clock: since the search began, or since the ponder hit.
    pub fn elapsed(&self) -> Duration {
        let offset = Duration::from_micros(self.clock_start_micros.load(Ordering::Relaxed));
        self.started.elapsed().saturating_sub(offset)
    }

    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    fn add_nodes(&self, nodes: u64) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
    }

    fn has_time_limit(&self) -> bool {
        self.budget.is_some()
    }

    /// When to stop starting iterations; `None` for no limit or a fixed
    /// `movetime`, which is used to the end.
    fn soft_limit(&self) -> Option<Duration> {
        self.budget.filter(|b| !b.fixed).map(|b| b.soft)
    }

    fn hard_limit_reached(&self) -> bool {
        match self.budget {
            Some(budget) if !self.is_pondering() => self.elapsed() >= budget.hard,
            _ => false,
        }
    }

    /// Whether a depth, node or time limit ends the search by itself.
    pub fn is_bounded(&self) -> bool {
        self.bounded
    }

    /// Whether the search must wait for `stop` (or `ponderhit`) before
    /// giving its move, even when it has finished.
    fn must_wait(&self) -> bool {
        self.infinite || self.is_pondering()
    }
}

/// The root moves to search: the legal moves, restricted to `searchmoves`
/// when that names at least one of them.
pub fn root_moves(pos: &Position, limits: &Limits) -> Vec<Move> {
    let legal: Vec<Move> = pos.legal_moves().collect();
    let chosen: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|mv| limits.searchmoves.contains(mv))
        .collect();
    if chosen.is_empty() { legal } else { chosen }
}

/// Searches `pos` and reports progress and the final move to `reporter`.
///
/// `threads` keeps each worker's histories between searches; it is resized
/// to `options.threads`. The table is shared by all workers.
pub fn run(
    pos: &Position,
    limits: &Limits,
    options: &SearchOptions,
    tt: &TranspositionTable,
    threads: &mut Vec<ThreadData>,
    control: &Control,
    reporter: &dyn Reporter,
) -> SearchResult {
    tt.new_search();
    let moves = root_moves(pos, limits);
    if moves.is_empty() {
        let result = game_over_result(pos, control);
        reporter.info(&SearchInfo {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score: result.score,
            bound: None,
            nodes: 0,
            nps: 0,
            hashfull: tt.hashfull(),
            time: control.since_start(),
            pv: Vec::new(),
        });
        wait_while_required(control);
        reporter.best_move(&result);
        return result;
    }

    let multipv = if options.level == Level::Expert {
        options.multipv
    } else {
        // A weaker level needs every move's score to choose among them.
        moves.len()
    };
    let root_moves: Vec<RootMove> = order_root_moves(pos, moves);
    threads.resize_with(options.threads.max(1), ThreadData::default);
    let (main_data, helper_data) = threads.split_first_mut().expect("at least one thread");

    let (main, helpers) = std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for (i, data) in helper_data.iter_mut().enumerate() {
            let root_moves = root_moves.clone();
            handles.push(scope.spawn(move || {
                let mut worker = Worker::new(i + 1, control, tt, data, *pos, root_moves, 1);
                worker.may_end_search = multipv == 1;
                worker.iterate(limits, &Silent);
                worker.flush_nodes();
                (worker.completed_depth, worker.root_moves)
            }));
        }
        let mut worker = Worker::new(0, control, tt, main_data, *pos, root_moves, multipv);
        worker.report_lines = options.multipv.clamp(1, multipv);
        worker.iterate(limits, reporter);
        worker.flush_nodes();
        wait_while_required(control);
        control.stop();
        let helpers: Vec<(u32, Vec<RootMove>)> =
            handles.into_iter().filter_map(|h| h.join().ok()).collect();
        ((worker.completed_depth, worker.root_moves), helpers)
    });

    // With several lines the main thread's are the ones reported.
    let (depth, chosen_moves) = if multipv > 1 {
        main.clone()
    } else {
        vote(main.clone(), &helpers)
    };
    let mut best = chosen_moves[0].clone();
    if options.level != Level::Expert {
        let index = options.level.choose(&main.1, pos.key());
        best = main.1[index].clone();
    }
    let nodes = control.nodes();
    let info = SearchInfo {
        depth: depth.max(1),
        seldepth: best.seldepth.max(depth),
        multipv: 1,
        score: best.score,
        bound: None,
        nodes,
        nps: (nodes as f64 / control.since_start().as_secs_f64().max(0.001)) as u64,
        hashfull: tt.hashfull(),
        time: control.since_start(),
        pv: best.pv.clone(),
    };
    let main_best = &main.1[0];
    if multipv == 1 && (depth != main.0 || best.mv != main_best.mv || best.pv != main_best.pv) {
        reporter.info(&info);
    }
    let ponder = best.pv.get(1).copied().or_else(|| {
        let mut child = *pos;
        child.play(best.mv);
        tt.probe(child.key())
            .and_then(|e| e.mv)
            .filter(|&m| child.is_legal(m))
    });
    let result = SearchResult {
        best: Some(best.mv),
        ponder,
        score: best.score,
        depth,
        nodes,
        pv: best.pv,
    };
    reporter.best_move(&result);
    result
}

/// Root moves, captures and tuzdik-making moves first.
fn order_root_moves(pos: &Position, moves: Vec<Move>) -> Vec<RootMove> {
    let gains = pos.immediate_gains(pos.side_to_move());
    let mut moves = moves;
    moves.sort_by_key(|mv| {
        let tuzdik = gains.tuzdik & (1 << mv.index()) != 0;
        std::cmp::Reverse((tuzdik, gains.stones[mv.index()]))
    });
    moves.into_iter().map(RootMove::new).collect()
}

/// Picks the move of the thread that most threads agree on, weighting each
/// thread by its depth and score (Lazy-SMP voting). Only threads that got
/// at least as deep as the main thread take part (a helper that completed
/// a fixed depth first ends the search, so it can be much deeper), a proven
/// win is never replaced by an unproven score, and a proven loss stands
/// against shallower threads' scores and falls to deeper ones.
fn vote(main: (u32, Vec<RootMove>), helpers: &[(u32, Vec<RootMove>)]) -> (u32, Vec<RootMove>) {
    let main_depth = main.0;
    let candidates: Vec<&(u32, Vec<RootMove>)> = std::iter::once(&main)
        .chain(
            helpers
                .iter()
                .filter(|(depth, _)| *depth >= main_depth.max(1)),
        )
        .collect();
    if candidates.len() == 1 {
        return main;
    }
    let min_score = candidates
        .iter()
        .map(|(_, rm)| rm[0].score.max(-score::MATE_BOUND))
        .min()
        .unwrap_or(0);
    let weight = |(depth, rm): &(u32, Vec<RootMove>)| {
        (rm[0].score.clamp(-score::MATE_BOUND, score::MATE_BOUND) - min_score + 14) as i64
            * *depth as i64
    };
    let votes = |mv: Move| -> i64 {
        candidates
            .iter()
            .filter(|(_, rm)| rm[0].mv == mv)
            .map(|c| weight(c))
            .sum()
    };
    let mut best = 0;
    for i in 1..candidates.len() {
        let best_score = candidates[best].1[0].score;
        let (depth, rm) = candidates[i];
        let score = rm[0].score;
        let better = if best_score >= score::MATE_BOUND {
            score > best_score
        } else if score >= score::MATE_BOUND {
            true
        } else if score <= -score::MATE_BOUND || best_score <= -score::MATE_BOUND {
            // A proven loss stands against what a shallower thread hoped
            // for, and falls to what a deeper thread found.
            *depth > candidates[best].0
        } else {
            let (new_votes, best_votes) = (votes(rm[0].mv), votes(candidates[best].1[0].mv));
            new_votes > best_votes || (new_votes == best_votes && *depth > candidates[best].0)
        };
        if better {
            best = i;
        }
    }
    candidates[best].clone()
}

/// The result of a finished game: no move, and the final margin (kazan and
/// side stones) in centi-stones, which is what the game ended with.
fn game_over_result(pos: &Position, control: &Control) -> SearchResult {
    let [white, black] = pos.final_scores();
    let margin = (white as i32 - black as i32) * 100;
    let score = match pos.side_to_move() {
        crate::board::Side::White => margin,
        crate::board::Side::Black => -margin,
    };
    SearchResult {
        best: None,
        ponder: None,
        score,
        depth: 0,
        nodes: control.nodes(),
        pv: Vec::new(),
    }
}

/// `go infinite` and `go ponder` give their move only after `stop` (or,
/// when pondering, `ponderhit`), even when the search has finished.
fn wait_while_required(control: &Control) {
    while control.must_wait() && !control.is_stopped() {
        std::thread::sleep(Duration::from_micros(500));
    }
}
