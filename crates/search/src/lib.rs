//! Evaluation and search for Togyz Kumalak, knowing the rules and nothing
//! of notation or protocol: iterative-deepening principal variation search
//! over a shared transposition table, run by Lazy-SMP threads.
//!
//! A [`Searcher`] owns the table, the threads' histories and the options.
//! [`Searcher::search`] searches one position to the given [`Limits`] and
//! reports each iteration through a [`Reporter`]; a [`Control`] shared with
//! the caller stops it, tells it that a ponder move was played, and counts
//! nodes. Only the main thread watches the clock ([`time`]); every thread
//! checks the one stop flag. The search never prints.
//!
//! - [`eval`]: the static evaluation;
//! - [`params`]: every tunable number;
//! - [`time`]: the time manager;
//! - [`score`]: mate scores and their distances.
//!
//! ```
//! use tuzdyk_rules::Position;
//! use tuzdyk_search::{Limits, SearchOptions, Searcher};
//!
//! let mut searcher = Searcher::new(SearchOptions::default());
//! let pos = Position::startpos();
//! let result = searcher.search_silently(&pos, &Limits::depth(4));
//! assert!(pos.is_legal(result.best.unwrap()));
//! assert_eq!(result.depth, 4);
//! ```

mod control;
pub mod eval;
mod limits;
pub mod params;
pub mod score;
pub mod time;
mod tt;
mod worker;

use std::time::Duration;

use tuzdyk_rules::{Move, Position, Side};

pub use control::Control;
pub use limits::{Limits, SideClock};
pub use worker::{MAX_PLY, RootMove, ThreadData};

use tt::TranspositionTable;
use worker::{Role, ThreadResult, Worker};

/// How a search is run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    pub threads: usize,
    /// Root lines searched to the full window each iteration (MultiPV; a
    /// level below full strength asks for all of them).
    pub lines: usize,
    /// Lines reported each iteration (at most `lines`).
    pub reported_lines: usize,
    /// Time each move loses outside the engine (`MoveOverhead`).
    pub move_overhead: Duration,
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// The static evaluation.
    pub evaluator: eval::Evaluator,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            lines: 1,
            reported_lines: 1,
            move_overhead: Duration::from_millis(10),
            hash_mb: 16,
            evaluator: eval::Evaluator::default(),
        }
    }
}

/// A score that is only a bound: the aspiration window failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// At least this.
    Lower,
    /// At most this.
    Upper,
}

/// One progress report: what an iteration found for one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based line number (MultiPV).
    pub multipv: usize,
    /// Search score for the side to move (see [`score`]).
    pub score: i32,
    /// `Some` when the score is only a bound.
    pub bound: Option<ScoreBound>,
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
    /// The main thread's root moves, best first, each with its last score
    /// and line: what a weaker level chooses among.
    pub root_moves: Vec<RootMove>,
}

/// Receives a search's progress.
pub trait Reporter: Sync {
    fn info(&self, info: &SearchInfo);
}

/// A reporter that discards everything.
pub struct Silent;

impl Reporter for Silent {
    fn info(&self, _info: &SearchInfo) {}
}

/// Why the table could not be resized.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {0} MB hash table; the previous table is kept")]
pub struct HashAllocationError(pub usize);

/// The table, the threads' histories and the options of a search.
pub struct Searcher {
    tt: TranspositionTable,
    threads: Vec<ThreadData>,
    options: SearchOptions,
    /// Time the clock lost outside the searches of this game.
    lost_time: time::LostTime,
}

impl Searcher {
    /// A searcher with a table of `options.hash_mb` MB.
    ///
    /// # Panics
    /// If that memory cannot be allocated.
    pub fn new(options: SearchOptions) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(options.hash_mb),
            threads: vec![ThreadData::default()],
            options,
            lost_time: time::LostTime::default(),
        }
    }

    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Sets every option but the table size (see [`Searcher::set_hash`]).
    pub fn set_options(&mut self, options: SearchOptions) {
        let hash_mb = self.options.hash_mb;
        self.options = SearchOptions { hash_mb, ..options };
    }

    /// Resizes the table to `megabytes`, emptying it. The old table is freed
    /// first, so that both never coexist.
    ///
    /// # Errors
    /// [`HashAllocationError`] when the memory cannot be had; the table
    /// then keeps its old size (or, if even that fails now, 1 MB).
    pub fn set_hash(&mut self, megabytes: usize) -> Result<(), HashAllocationError> {
        if megabytes == self.options.hash_mb {
            return Ok(());
        }
        self.tt = TranspositionTable::new(1);
        match TranspositionTable::try_new(megabytes) {
            Some(table) => {
                self.tt = table;
                self.options.hash_mb = megabytes;
                Ok(())
            }
            None => {
                if let Some(table) = TranspositionTable::try_new(self.options.hash_mb) {
                    self.tt = table;
                } else {
                    self.options.hash_mb = 1;
                }
                Err(HashAllocationError(megabytes))
            }
        }
    }

    /// Forgets everything learnt: the table, the histories and the time lost
    /// outside the search.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.lost_time.clear();
        for data in &mut self.threads {
            data.clear();
        }
    }

    /// Empties the table.
    pub fn clear_hash(&self) {
        self.tt.clear();
    }

    /// The control for searching `pos` with `limits`. Its clock keeps back
    /// `MoveOverhead` and what the clock has lately lost outside the search
    /// ([`time::LostTime`]), learnt from the clock in `limits`.
    pub fn control(&mut self, pos: &Position, limits: &Limits) -> Control {
        self.lost_time.learn(pos, limits.clock);
        let overhead = self.options.move_overhead + self.lost_time.allowance();
        Control::new(pos, limits, overhead)
    }

    /// What is kept back beyond `MoveOverhead` for time lost outside the
    /// search.
    pub fn lost_time_allowance(&self) -> Duration {
        self.lost_time.allowance()
    }

    /// Searches `pos` to `limits` and reports nothing: for self-play,
    /// benchmarks and tests.
    pub fn search_silently(&mut self, pos: &Position, limits: &Limits) -> SearchResult {
        let control = self.control(pos, limits);
        self.search(pos, limits, &control, &Silent)
    }

    /// Searches `pos` and reports each iteration to `reporter`. A search
    /// with `infinite` or `ponder` returns only after `control` is stopped
    /// (or, pondering, after the ponder hit and its own end).
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &Control,
        reporter: &dyn Reporter,
    ) -> SearchResult {
        self.tt.new_search();
        let moves = root_moves(pos, limits);
        if moves.is_empty() {
            return self.finished_game(pos, control, reporter);
        }
        let root_moves = order_root_moves(pos, moves);
        let (main, helpers) = self.run_threads(pos, limits, control, reporter, root_moves);
        // With several lines the main thread's are the ones reported.
        let chosen = if self.options.lines > 1 {
            main.clone()
        } else {
            vote(&main, &helpers, limits.depth).clone()
        };
        let result = self.final_report(pos, control, reporter, &main, chosen);
        self.lost_time.record(pos, limits, control.time());
        result
    }

    /// The search of a finished game: no move, one report of the final
    /// margin.
    fn finished_game(
        &self,
        pos: &Position,
        control: &Control,
        reporter: &dyn Reporter,
    ) -> SearchResult {
        let [white, black] = pos.final_scores();
        let margin = (white as i32 - black as i32) * 100;
        let score = match pos.side_to_move() {
            Side::White => margin,
            Side::Black => -margin,
        };
        reporter.info(&SearchInfo {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score,
            bound: None,
            nodes: 0,
            nps: 0,
            hashfull: self.tt.hashfull(),
            time: control.time().since_start(),
            pv: Vec::new(),
        });
        control.wait_while_required();
        SearchResult {
            best: None,
            ponder: None,
            score,
            depth: 0,
            nodes: control.nodes(),
            pv: Vec::new(),
            root_moves: Vec::new(),
        }
    }

    /// Runs the main thread here and the helpers beside it until the search
    /// ends; gives each thread's result, the main thread's first.
    fn run_threads(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &Control,
        reporter: &dyn Reporter,
        root_moves: Vec<RootMove>,
    ) -> (ThreadResult, Vec<ThreadResult>) {
        let lines = self.options.lines;
        let reported_lines = self.options.reported_lines;
        self.threads
            .resize_with(self.options.threads.max(1), ThreadData::default);
        let tt = &self.tt;
        let evaluator = &self.options.evaluator;
        let (main_data, helper_data) = self.threads.split_first_mut().expect("at least one thread");
        std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for (i, data) in helper_data.iter_mut().enumerate() {
                let root_moves = root_moves.clone();
                let role = Role {
                    id: i + 1,
                    lines: 1,
                    reported_lines: 1,
                    may_end_search: lines == 1,
                };
                handles.push(scope.spawn(move || {
                    Worker::new(role, control, tt, evaluator, data, *pos, root_moves)
                        .run(limits, &Silent)
                }));
            }
            let role = Role {
                id: 0,
                lines,
                reported_lines,
                may_end_search: false,
            };
            let main = Worker::new(role, control, tt, evaluator, main_data, *pos, root_moves)
                .run(limits, reporter);
            control.wait_while_required();
            control.stop();
            let mut helpers = Vec::with_capacity(handles.len());
            for handle in handles {
                match handle.join() {
                    Ok(result) => helpers.push(result),
                    Err(_) => {
                        log::error!("a helper search thread panicked; its result is left out")
                    }
                }
            }
            (main, helpers)
        })
    }

    /// Reports the chosen line when it differs from what the main thread
    /// reported last, and builds the result.
    fn final_report(
        &self,
        pos: &Position,
        control: &Control,
        reporter: &dyn Reporter,
        main: &ThreadResult,
        chosen: ThreadResult,
    ) -> SearchResult {
        let depth = chosen.depth;
        let best = chosen.root_moves[0].clone();
        let nodes = control.nodes();
        let since_start = control.time().since_start();
        let main_best = &main.root_moves[0];
        if self.options.lines == 1
            && (depth != main.depth || best.mv != main_best.mv || best.pv != main_best.pv)
        {
            reporter.info(&SearchInfo {
                depth: depth.max(1),
                seldepth: best.seldepth.max(depth),
                multipv: 1,
                score: best.score,
                bound: None,
                nodes,
                nps: (nodes as f64 / since_start.as_secs_f64().max(0.001)) as u64,
                hashfull: self.tt.hashfull(),
                time: since_start,
                pv: best.pv.clone(),
            });
        }
        SearchResult {
            best: Some(best.mv),
            ponder: self.expected_reply(pos, &best),
            score: best.score,
            depth,
            nodes,
            pv: best.pv,
            root_moves: main.root_moves.clone(),
        }
    }

    /// The reply expected after the root move `line`: the second move of its
    /// line, or the table's move in the position after it.
    pub fn expected_reply(&self, pos: &Position, line: &RootMove) -> Option<Move> {
        line.pv.get(1).copied().or_else(|| {
            let mut child = *pos;
            child.play(line.mv);
            self.tt
                .probe(child.key())
                .and_then(|e| e.mv)
                .filter(|&m| child.is_legal(m))
        })
    }

    /// Table usage in permille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
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

/// Picks the thread whose move most threads agree on, weighting each
/// thread by its depth and score (Lazy-SMP voting). Only threads that got
/// at least as deep as the main thread take part, and when a helper
/// completed the depth a search was asked for (which ends it), only threads
/// at that depth: a `go depth 14` answers at depth 14 even though the main
/// thread was still at 13. (With the main thread in the vote, about one run
/// in 25 of `go depth 14` on two threads answered at depth 13.) A proven win
/// is never replaced by an unproven score, and a proven loss stands against
/// shallower threads' scores and falls to deeper ones.
fn vote<'a>(
    main: &'a ThreadResult,
    helpers: &'a [ThreadResult],
    target_depth: Option<u32>,
) -> &'a ThreadResult {
    use score::MATE_BOUND;
    let candidates: Vec<&ThreadResult> = match target_depth {
        Some(depth) if main.depth < depth && helpers.iter().any(|h| h.depth >= depth) => {
            helpers.iter().filter(|h| h.depth >= depth).collect()
        }
        _ => std::iter::once(main)
            .chain(helpers.iter().filter(|h| h.depth >= main.depth.max(1)))
            .collect(),
    };
    let Some(&first) = candidates.first() else {
        return main;
    };
    if candidates.len() == 1 {
        return first;
    }
    let top = |thread: &ThreadResult| thread.root_moves[0].score;
    let min_score = candidates
        .iter()
        .map(|thread| top(thread).max(-MATE_BOUND))
        .min()
        .unwrap_or(0);
    let weight = |thread: &ThreadResult| {
        (top(thread).clamp(-MATE_BOUND, MATE_BOUND) - min_score + params::VOTE_OFFSET) as i64
            * thread.depth as i64
    };
    let votes = |mv: Move| -> i64 {
        candidates
            .iter()
            .filter(|thread| thread.root_moves[0].mv == mv)
            .map(|thread| weight(thread))
            .sum()
    };
    let mut best = first;
    for &candidate in &candidates[1..] {
        let (best_score, score) = (top(best), top(candidate));
        let better = if best_score >= MATE_BOUND {
            score > best_score
        } else if score >= MATE_BOUND {
            true
        } else if score <= -MATE_BOUND || best_score <= -MATE_BOUND {
            // A proven loss stands against what a shallower thread hoped
            // for, and falls to what a deeper thread found.
            candidate.depth > best.depth
        } else {
            let (new_votes, best_votes) = (
                votes(candidate.root_moves[0].mv),
                votes(best.root_moves[0].mv),
            );
            new_votes > best_votes || (new_votes == best_votes && candidate.depth > best.depth)
        };
        if better {
            best = candidate;
        }
    }
    best
}
