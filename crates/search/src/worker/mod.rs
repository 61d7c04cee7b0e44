//! One search thread: iterative deepening with aspiration windows over the
//! root moves, and the node search below them ([`node`]), ordered by
//! [`ordering`].
//!
//! Every thread of a Lazy-SMP search runs a [`Worker`]; they share only the
//! transposition table and the [`Control`] (stop flag, node counter,
//! clock). Each keeps its own [`ThreadData`] (histories, killers).

mod node;
mod ordering;

use tuzdyk_rules::{BOARD_HOLES, HOLES, Move, Position};

use crate::control::Control;
use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::params::{
    ASPIRATION_FULL_WINDOW, ASPIRATION_MIN_DEPTH, HELPER_SKIP_FROM_DEPTH, NODE_BATCH,
    REPORT_BOUNDS_AFTER_MS, ROOT_LMR_FIRST_MOVE, ROOT_LMR_MIN_DEPTH, SINGLE_MOVE_DEPTH, param,
};
use crate::score::{self, INFINITY, MATE_BOUND};
use crate::tt::{Bound, TranspositionTable};
use crate::{Reporter, ScoreBound, SearchInfo};
use ordering::REDUCTIONS;

/// Deepest ply a search reaches (iterations, extensions and quiescence).
pub const MAX_PLY: usize = 128;

/// What a thread keeps from one search to the next (cleared by a new game).
/// The threads' data lie side by side in one `Vec`; each starts on a cache
/// line of its own, so that one thread's history writes never share a line
/// with its neighbour's.
#[derive(Clone)]
#[repr(align(64))]
pub struct ThreadData {
    /// Quiet-move history by side, origin hole and landing hole.
    history: [[[i32; BOARD_HOLES]; HOLES]; 2],
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
}

impl Default for ThreadData {
    fn default() -> Self {
        ThreadData {
            history: [[[0; BOARD_HOLES]; HOLES]; 2],
            killers: [[None; 2]; MAX_PLY + 1],
        }
    }
}

/// A root move with what the search found for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub mv: Move,
    /// Score of the last completed search of this move (-INFINITY if none).
    pub score: i32,
    pub previous_score: i32,
    /// Whether `score` is a bound rather than exact (aspiration failure).
    pub(crate) bound: Option<Bound>,
    pub pv: Vec<Move>,
    pub seldepth: u32,
}

impl RootMove {
    pub fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITY,
            previous_score: -INFINITY,
            bound: None,
            pv: vec![mv],
            seldepth: 0,
        }
    }
}

/// What a thread found: the depth it completed and its root moves, best first.
#[derive(Clone, Debug)]
pub struct ThreadResult {
    pub depth: u32,
    pub root_moves: Vec<RootMove>,
}

/// How one worker takes part in a search.
pub struct Role {
    /// 0 for the main thread, which watches the clock and reports.
    pub id: usize,
    /// Lines searched per iteration (a level below full strength scores them all).
    pub lines: usize,
    /// Lines reported per iteration (the MultiPV option).
    pub reported_lines: usize,
    /// Whether this helper ends a fixed-depth search when it completes the
    /// depth (not when the main thread's several lines are what is reported).
    pub may_end_search: bool,
}

/// One thread's search state.
pub struct Worker<'a> {
    id: usize,
    control: &'a Control,
    tt: &'a TranspositionTable,
    evaluator: &'a Evaluator,
    data: &'a mut ThreadData,
    root: Position,
    root_moves: Vec<RootMove>,
    unflushed: u64,
    seldepth: u32,
    completed_depth: u32,
    pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    stopped: bool,
    /// Evaluation at each ply, for the "improving" heuristic.
    static_evals: [i32; MAX_PLY + 1],
    lines: usize,
    reported_lines: usize,
    may_end_search: bool,
}

impl<'a> Worker<'a> {
    pub fn new(
        role: Role,
        control: &'a Control,
        tt: &'a TranspositionTable,
        evaluator: &'a Evaluator,
        data: &'a mut ThreadData,
        root: Position,
        root_moves: Vec<RootMove>,
    ) -> Worker<'a> {
        let lines = role.lines.clamp(1, root_moves.len().max(1));
        Worker {
            id: role.id,
            control,
            tt,
            evaluator,
            data,
            root,
            root_moves,
            unflushed: 0,
            seldepth: 0,
            completed_depth: 0,
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            stopped: false,
            static_evals: [0; MAX_PLY + 1],
            lines,
            reported_lines: role.reported_lines.clamp(1, lines),
            may_end_search: role.may_end_search,
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Searches until a limit, the clock or the stop flag ends it, then adds
    /// the last uncounted nodes and gives what the thread found.
    pub fn run(mut self, limits: &Limits, reporter: &dyn Reporter) -> ThreadResult {
        self.iterate(limits, reporter);
        self.control.add_nodes(self.unflushed);
        ThreadResult {
            depth: self.completed_depth,
            root_moves: self.root_moves,
        }
    }

    /// Iterative deepening.
    fn iterate(&mut self, limits: &Limits, reporter: &dyn Reporter) {
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut best_move_changes = 0u32;
        let mut previous_best: Option<Move> = None;
        let mut stable_iterations = 0u32;
        for depth in 1..=max_depth {
            if self.skips(depth, max_depth) {
                continue;
            }
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
            }
            for pv_index in 0..self.lines {
                self.search_root_window(depth as i32, pv_index, reporter);
                // Moves searched in this iteration go first, best first; a
                // move interrupted by the stop keeps its place behind them.
                self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                // A partial iteration still counts if its first move, the
                // previous best, finished: the sort above kept the moves
                // searched in it first. The others keep their last scores.
                for rm in &mut self.root_moves {
                    if rm.score == -INFINITY {
                        rm.score = rm.previous_score;
                    }
                }
                break;
            }
            // Each line's search may find a better score than the lines
            // before it; report them best first.
            self.root_moves[..self.lines].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            self.completed_depth = depth;
            // A fixed-depth search is done when any thread has completed
            // that depth: its result is as deep as the main thread's would be.
            // (Not while the search must wait for `stop` or `ponderhit`.)
            if self.may_end_search
                && depth == max_depth
                && limits.depth.is_some()
                && !self.control.must_wait()
            {
                self.control.stop();
            }
            if self.is_main() {
                for pv_index in 0..self.reported_lines {
                    reporter.info(&self.info(depth, pv_index, None));
                }
                let best = self.root_moves[0].mv;
                if previous_best == Some(best) {
                    stable_iterations += 1;
                } else {
                    best_move_changes += 1;
                    stable_iterations = 0;
                }
                previous_best = Some(best);
                if self.should_stop_iterating(limits, depth, stable_iterations, best_move_changes) {
                    break;
                }
            }
        }
    }

    /// Whether this thread leaves out the iteration at `depth`. Helpers
    /// search only every other depth past the first two, odd-numbered helpers
    /// the even depths and even-numbered ones the odd depths, so that they
    /// run ahead of the main thread and fill the table with deeper entries
    /// instead of repeating its work. The last depth is never left out.
    fn skips(&self, depth: u32, max_depth: u32) -> bool {
        !self.is_main()
            && depth > HELPER_SKIP_FROM_DEPTH
            && depth < max_depth
            && (depth + self.id as u32).is_multiple_of(2)
    }

    /// Whether the main thread should not start another iteration.
    fn should_stop_iterating(
        &self,
        limits: &Limits,
        depth: u32,
        stable_iterations: u32,
        best_move_changes: u32,
    ) -> bool {
        let best = self.root_moves[0].score;
        if let (Some(mate), Some(moves)) = (limits.mate, score::mate_in_moves(best))
            && moves > 0
            && moves <= mate as i32
        {
            return true;
        }
        let time = self.control.time();
        // One legal move: nothing to think about once it has a score.
        if self.root_moves.len() == 1 && depth >= SINGLE_MOVE_DEPTH && time.has_limit() {
            return true;
        }
        time.iteration_time_spent(stable_iterations, best_move_changes)
    }

    /// The search of one PV line at `depth`, widening its aspiration window
    /// until the score falls inside.
    fn search_root_window(&mut self, depth: i32, pv_index: usize, reporter: &dyn Reporter) {
        let previous = self.root_moves[pv_index].previous_score;
        let mut delta = param!(ASPIRATION_DELTA);
        let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && previous.abs() < MATE_BOUND
        {
            (
                (previous - delta).max(-INFINITY),
                (previous + delta).min(INFINITY),
            )
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.search_root(depth, alpha, beta, pv_index);
            if self.stopped {
                return;
            }
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                Bound::Upper
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
                Bound::Lower
            } else {
                self.root_moves[pv_index].bound = None;
                return;
            };
            self.root_moves[pv_index].bound = Some(bound);
            self.report_bound(depth, pv_index, bound, reporter);
            delta += delta / 2 + param!(ASPIRATION_GROWTH);
            if delta > ASPIRATION_FULL_WINDOW {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn report_bound(&self, depth: i32, pv_index: usize, bound: Bound, reporter: &dyn Reporter) {
        // Bounds are only worth a line in long searches.
        if self.is_main() && self.control.time().elapsed().as_millis() >= REPORT_BOUNDS_AFTER_MS {
            let bound = match bound {
                Bound::Lower => ScoreBound::Lower,
                _ => ScoreBound::Upper,
            };
            reporter.info(&self.info(depth as u32, pv_index, Some(bound)));
        }
    }

    /// The info line for PV `pv_index` after depth `depth`.
    fn info(&self, depth: u32, pv_index: usize, bound: Option<ScoreBound>) -> SearchInfo {
        let rm = &self.root_moves[pv_index];
        let score = if rm.score == -INFINITY {
            rm.previous_score
        } else {
            rm.score
        };
        let elapsed = self.control.time().elapsed();
        let nodes = self.control.nodes() + self.unflushed;
        SearchInfo {
            depth,
            seldepth: rm.seldepth.max(depth),
            multipv: pv_index + 1,
            score,
            bound,
            nodes,
            nps: (nodes as f64 / elapsed.as_secs_f64().max(0.001)) as u64,
            hashfull: self.tt.hashfull(),
            time: elapsed,
            pv: rm.pv.clone(),
        }
    }

    /// Searches the root moves from `pv_index` on (MultiPV excludes the
    /// lines before it) and records each move's score and PV.
    fn search_root(&mut self, depth: i32, mut alpha: i32, beta: i32, pv_index: usize) -> i32 {
        let mut best = -INFINITY;
        self.seldepth = 0;
        for rm in &mut self.root_moves[pv_index..] {
            rm.score = -INFINITY;
        }
        for i in pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let mut child = self.root;
            child.play(mv);
            let searched = i - pv_index;
            let reduction =
                if searched > 0 && depth >= ROOT_LMR_MIN_DEPTH && searched >= ROOT_LMR_FIRST_MOVE {
                    REDUCTIONS.get(depth, searched).min(depth - 2)
                } else {
                    0
                };
            let score = self.search_move(
                &child,
                depth,
                alpha,
                beta,
                1,
                true,
                searched == 0,
                reduction,
            );
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            rm.score = score;
            if searched == 0 || score > alpha {
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                let line = &self.pv[1][..self.pv_len[1]];
                rm.pv.extend(line.iter().map_while(|m| *m));
            }
            // Otherwise the move is not better than the best: its score is
            // only an upper bound.
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        if !self.stopped && pv_index == 0 {
            let best_move = self.root_moves[pv_index..]
                .iter()
                .max_by_key(|rm| rm.score)
                .map(|rm| rm.mv);
            let bound = if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.tt
                .store(self.root.key(), best_move, best, 0, depth, bound);
        }
        best
    }

    /// Counts a node and checks whether the search must stop.
    #[inline]
    fn visit(&mut self, ply: usize) -> bool {
        self.unflushed += 1;
        if ply as u32 > self.seldepth {
            self.seldepth = ply as u32;
        }
        if self.unflushed >= NODE_BATCH {
            self.control.add_nodes(self.unflushed);
            self.unflushed = 0;
            if self.is_main() && self.control.time().hard_limit_reached() {
                self.control.stop();
            }
        }
        if self.is_main()
            && let Some(limit) = self.control.node_limit()
            && self.control.nodes() + self.unflushed >= limit
            && self.completed_depth >= 1
        {
            // While pondering the move must wait for `ponderhit` or `stop`:
            // only the main thread stops, and the helpers go on till then.
            if self.control.must_wait() {
                self.stopped = true;
            } else {
                self.control.stop();
            }
        }
        if self.control.is_stopped() && self.completed_depth >= 1 {
            self.stopped = true;
        }
        self.stopped
    }
}
