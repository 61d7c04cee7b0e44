//! One search thread: iterative deepening over principal variation search
//! with aspiration windows, quiescence over captures and tuzdik-making moves,
//! and the pruning that pays for a branching factor of six or seven.
//!
//! Every thread of a Lazy-SMP search runs a [`Worker`]; they share only the
//! transposition table and the [`Control`](super::Control) (stop flag, node
//! counter, clock). Each keeps its own [`ThreadData`] (histories, killers).

use std::sync::atomic::Ordering;

use super::score::{self, INFINITY, MATE_BOUND};
use super::tt::{Bound, TranspositionTable};
use super::{Control, Limits, Reporter, SearchInfo};
use crate::board::{BOARD_HOLES, GameResult, HOLES, Move, MoveSet, Position};
use crate::eval;

/// Deepest ply a search reaches (iterations, extensions and quiescence).
pub const MAX_PLY: usize = 128;

/// At or below this many stones on the board the search prunes nothing.
pub const EXACT_ENDGAME_STONES: u32 = 16;

/// Nodes a thread counts before adding them to the shared counter.
const NODE_BATCH: u64 = 1024;

/// What a thread keeps from one search to the next (cleared by a new game).
#[derive(Clone)]
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

impl ThreadData {
    pub fn clear(&mut self) {
        *self = ThreadData::default();
    }
}

/// A root move with what the search found for it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    /// Score of the last completed search of this move (-INFINITY if none).
    pub score: i32,
    pub previous_score: i32,
    /// Whether `score` is a bound rather than exact (aspiration failure).
    pub bound: Option<Bound>,
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

/// Reductions for late moves, by depth and move number.
struct Reductions([[u8; 16]; 64]);

static REDUCTIONS: Reductions = Reductions::new();

impl Reductions {
    const fn new() -> Reductions {
        // ln(d) * ln(m) / 2, computed with a small integer log table so it
        // can be built at compile time.
        const LN_X100: [i32; 64] = [
            0, 0, 69, 110, 139, 161, 179, 195, 208, 220, 230, 240, 248, 256, 264, 271, 277, 283,
            289, 294, 300, 304, 309, 314, 318, 322, 326, 330, 333, 337, 340, 343, 347, 350, 353,
            356, 358, 361, 364, 366, 369, 371, 374, 376, 378, 381, 383, 385, 387, 389, 391, 393,
            395, 397, 399, 401, 402, 404, 406, 408, 409, 411, 413, 414,
        ];
        let mut table = [[0u8; 16]; 64];
        let mut d = 1;
        while d < 64 {
            let mut m = 1;
            while m < 16 {
                let r = LN_X100[d] * LN_X100[m] / 20_000;
                table[d][m] = r as u8;
                m += 1;
            }
            d += 1;
        }
        Reductions(table)
    }

    fn get(&self, depth: i32, move_number: usize) -> i32 {
        self.0[(depth as usize).min(63)][move_number.min(15)] as i32
    }
}

/// One thread's search state.
pub struct Worker<'a> {
    pub id: usize,
    control: &'a Control,
    tt: &'a TranspositionTable,
    data: &'a mut ThreadData,
    root: Position,
    pub root_moves: Vec<RootMove>,
    /// Nodes this thread searched in this search.
    pub nodes: u64,
    unflushed: u64,
    seldepth: u32,
    pub completed_depth: u32,
    pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    stopped: bool,
    /// Evaluation at each ply, for the "improving" heuristic.
    static_evals: [i32; MAX_PLY + 1],
    /// Lines searched per iteration (a weaker level searches them all).
    multipv: usize,
    /// Lines reported per iteration (the MultiPV option).
    pub report_lines: usize,
    /// Whether this helper ends a fixed-depth search when it completes the
    /// depth (not when the main thread's several lines are what is reported).
    pub may_end_search: bool,
}

impl<'a> Worker<'a> {
    pub fn new(
        id: usize,
        control: &'a Control,
        tt: &'a TranspositionTable,
        data: &'a mut ThreadData,
        root: Position,
        root_moves: Vec<RootMove>,
        multipv: usize,
    ) -> Worker<'a> {
        let multipv = multipv.clamp(1, root_moves.len().max(1));
        Worker {
            id,
            control,
            tt,
            data,
            root,
            root_moves,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            completed_depth: 0,
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            stopped: false,
            static_evals: [0; MAX_PLY + 1],
            multipv,
            report_lines: multipv,
            may_end_search: false,
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Iterative deepening until a limit, the clock or the stop flag ends it.
    pub fn iterate(&mut self, limits: &Limits, reporter: &dyn Reporter) {
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
            for pv_index in 0..self.multipv {
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
            self.root_moves[..self.multipv].sort_by_key(|rm| std::cmp::Reverse(rm.score));
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
                for pv_index in 0..self.report_lines.min(self.multipv) {
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
            && depth > 2
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
        if let Some(mate) = limits.mate
            && best >= MATE_BOUND
            && matches!(score::Reported::from_score(best), score::Reported::Mate(n) if n <= mate as i32)
        {
            return true;
        }
        // One legal move: nothing to think about once it has a score.
        if self.root_moves.len() == 1 && depth >= 4 && self.control.has_time_limit() {
            return true;
        }
        if let Some(soft) = self.control.soft_limit() {
            if self.control.is_pondering() {
                return false;
            }
            let stability = match stable_iterations {
                0 => 1.4,
                1 => 1.1,
                2..=4 => 0.9,
                _ => 0.7,
            };
            let instability = 1.0 + 0.05 * best_move_changes.min(6) as f64;
            let elapsed = self.control.elapsed();
            if elapsed.as_secs_f64() >= soft.as_secs_f64() * stability * instability {
                return true;
            }
        }
        false
    }

    /// The search of one PV line at `depth`, widening its aspiration window
    /// until the score falls inside.
    fn search_root_window(&mut self, depth: i32, pv_index: usize, reporter: &dyn Reporter) {
        let previous = self.root_moves[pv_index].previous_score;
        let mut delta = 40;
        let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE_BOUND {
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
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                self.root_moves[pv_index].bound = Some(Bound::Upper);
                self.report_bound(depth, pv_index, Bound::Upper, reporter);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
                self.root_moves[pv_index].bound = Some(Bound::Lower);
                self.report_bound(depth, pv_index, Bound::Lower, reporter);
            } else {
                self.root_moves[pv_index].bound = None;
                return;
            }
            delta += delta / 2 + 10;
            if delta > 1500 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn report_bound(&self, depth: i32, pv_index: usize, bound: Bound, reporter: &dyn Reporter) {
        // Bounds are only worth a line in long searches.
        if self.is_main() && self.control.elapsed().as_millis() >= 1000 {
            reporter.info(&self.info(depth as u32, pv_index, Some(bound)));
        }
    }

    /// The info line for PV `pv_index` after depth `depth`.
    pub fn info(&self, depth: u32, pv_index: usize, bound: Option<Bound>) -> SearchInfo {
        let rm = &self.root_moves[pv_index];
        let score = if rm.score == -INFINITY {
            rm.previous_score
        } else {
            rm.score
        };
        let elapsed = self.control.elapsed();
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
            let score = if searched == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1, true)
            } else {
                let reduction = if depth >= 3 && searched >= 3 {
                    REDUCTIONS.get(depth, searched).min(depth - 2)
                } else {
                    0
                };
                let mut score =
                    -self.negamax(&child, depth - 1 - reduction, -alpha - 1, -alpha, 1, false);
                if score > alpha && reduction > 0 {
                    score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, false);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, depth - 1, -beta, -alpha, 1, true);
                }
                score
            };
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if searched == 0 || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                let line = &self.pv[1][..self.pv_len[1]];
                rm.pv.extend(line.iter().map_while(|m| *m));
            } else {
                // Not better than the best: only an upper bound is known.
                rm.score = score;
            }
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
        if !self.stopped {
            let best_move = self.root_moves[pv_index..]
                .iter()
                .max_by_key(|rm| rm.score)
                .map(|rm| rm.mv);
            if pv_index == 0 {
                let bound = if best >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                self.tt
                    .store(self.root.key(), best_move, best, 0, depth, bound);
            }
        }
        best
    }

    /// Counts a node and checks whether the search must stop.
    #[inline]
    fn visit(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.unflushed += 1;
        if ply as u32 > self.seldepth {
            self.seldepth = ply as u32;
        }
        if self.unflushed >= NODE_BATCH {
            self.control.add_nodes(self.unflushed);
            self.unflushed = 0;
            if self.is_main() && self.control.hard_limit_reached() {
                self.control.stop();
            }
        }
        if self.is_main()
            && let Some(limit) = self.control.node_limit
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
        if self.control.stop.load(Ordering::Relaxed) && self.completed_depth >= 1 {
            self.stopped = true;
        }
        self.stopped
    }

    /// Adds this thread's uncounted nodes to the shared counter.
    pub fn flush_nodes(&mut self) {
        self.control.add_nodes(self.unflushed);
        self.unflushed = 0;
    }

    fn terminal_score(pos: &Position, ply: usize) -> i32 {
        match pos.result() {
            Some(GameResult::Win(side)) if side == pos.side_to_move() => score::win_in(ply as u32),
            Some(GameResult::Win(_)) => score::loss_in(ply as u32),
            _ => 0,
        }
    }

    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if self.visit(ply) {
            return 0;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Self::terminal_score(pos, ply);
        }
        if ply >= MAX_PLY {
            return eval::evaluate(pos);
        }
        // Mate distance pruning: no result here beats a win at this ply.
        alpha = alpha.max(score::loss_in(ply as u32));
        beta = beta.min(score::win_in(ply as u32 + 1));
        if alpha >= beta {
            return alpha;
        }
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply);
        }

        let key = pos.key();
        let entry = self.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv).filter(|&m| moves.contains(m));
        if let Some(entry) = entry
            && !pv_node
            && entry.depth >= depth
        {
            let score = score::from_table(entry.score, ply as u32);
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if usable {
                return score;
            }
        }

        // The move gains order the moves; an evaluation needs them too.
        let mut gains = None;
        let static_eval = match entry {
            Some(e) if e.eval.abs() < MATE_BOUND => e.eval,
            _ => eval::evaluate_given(pos, gains.insert(pos.immediate_gains(pos.side_to_move()))),
        };
        self.static_evals[ply] = static_eval;
        let improving = ply >= 2 && static_eval > self.static_evals[ply - 2];

        // With only one move there is nothing to choose: look one ply further.
        if moves.count() == 1 && ply < MAX_PLY / 2 {
            depth += 1;
        }

        // With few stones left the tree is small and exactness matters more
        // than speed: no forward pruning or reductions, so that the search
        // proves the game's result.
        let exact = pos.stones_on_board() <= EXACT_ENDGAME_STONES;

        if !pv_node && !exact && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta with little depth left.
            let margin = 90 * depth - if improving { 40 } else { 0 };
            if depth <= 7 && static_eval - margin >= beta {
                return static_eval;
            }
            // Null move: if passing still holds beta, a real move will too.
            // Running out of moves is the game's zugzwang, so not with few moves.
            let them = pos.side_to_move().opponent();
            if depth >= 3
                && static_eval >= beta
                && moves.count() >= 3
                && !pos.movable_holes(them).is_empty()
            {
                let reduction = 3 + depth / 4;
                let mut child = *pos;
                child.pass();
                let score = -self.negamax(
                    &child,
                    depth - 1 - reduction,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                );
                if self.stopped {
                    return 0;
                }
                if score >= beta && score < MATE_BOUND {
                    return score;
                }
            }
        }

        let gains = gains.unwrap_or_else(|| pos.immediate_gains(pos.side_to_move()));
        let mut ordered = self.order_moves(pos, moves, tt_move, gains.stones, gains.tuzdik, ply);
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut quiets_tried: [Option<Move>; HOLES] = [None; HOLES];
        let mut quiet_count = 0;
        let original_alpha = alpha;
        let mut searched = 0;
        while let Some(mv) = ordered.next_best() {
            let noisy = gains.stones[mv.index()] > 0;
            let is_killer = self.data.killers[ply].contains(&Some(mv));
            // Late quiet moves at shallow depth are rarely worth a look.
            if !pv_node && !exact && searched > 0 && !noisy && best > -MATE_BOUND {
                if depth <= 3 && quiet_count >= 2 + depth as usize * depth as usize {
                    continue;
                }
                if depth <= 2 && static_eval + 150 * depth + 100 <= alpha {
                    continue;
                }
            }
            let mut child = *pos;
            child.play(mv);
            self.tt.prefetch(child.key());
            let score = if searched == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, pv_node)
            } else {
                let mut reduction = 0;
                if depth >= 3 && searched >= 2 && !noisy && !exact {
                    reduction = REDUCTIONS.get(depth, searched);
                    if pv_node {
                        reduction -= 1;
                    }
                    if is_killer {
                        reduction -= 1;
                    }
                    if !improving {
                        reduction += 1;
                    }
                    reduction = reduction.clamp(0, depth - 2);
                }
                let mut score = -self.negamax(
                    &child,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                );
                if score > alpha && reduction > 0 {
                    score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, false);
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
                }
                score
            };
            if self.stopped {
                return 0;
            }
            searched += 1;
            if !noisy {
                quiets_tried[quiet_count] = Some(mv);
                quiet_count += 1;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        if !noisy {
                            self.reward_quiet(pos, mv, depth, ply, &quiets_tried[..quiet_count]);
                        }
                        break;
                    }
                }
            }
        }
        if searched == 0 {
            // Everything was pruned: the static evaluation stands.
            return static_eval.min(beta);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move.or(tt_move),
            score::to_table(best, ply as u32),
            static_eval,
            depth,
            bound,
        );
        best
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].min(MAX_PLY - ply - 1);
        self.pv[ply][0] = Some(mv);
        for i in 0..child_len {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    /// A quiet move caused a cutoff: remember it as a killer and move the
    /// history towards it and away from the quiets tried before it.
    fn reward_quiet(
        &mut self,
        pos: &Position,
        mv: Move,
        depth: i32,
        ply: usize,
        tried: &[Option<Move>],
    ) {
        let killers = &mut self.data.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let side = pos.side_to_move().index();
        let bonus = (depth * depth * 8).min(2000);
        for &other in tried.iter().flatten() {
            let landing = pos.landing_of(other);
            let entry = &mut self.data.history[side][other.index()][landing];
            let delta = if other == mv { bonus } else { -bonus };
            *entry += delta - *entry * delta.abs() / 16_384;
        }
    }

    fn order_moves(
        &self,
        pos: &Position,
        moves: MoveSet,
        tt_move: Option<Move>,
        gains: [u8; HOLES],
        tuzdik: u16,
        ply: usize,
    ) -> OrderedMoves {
        let side = pos.side_to_move().index();
        let killers = self.data.killers[ply];
        let mut list = OrderedMoves::default();
        for mv in moves {
            let gain = gains[mv.index()] as i32;
            let score = if Some(mv) == tt_move {
                1 << 30
            } else if tuzdik & (1 << mv.index()) != 0 {
                (1 << 28) + mv.index() as i32
            } else if gain > 0 {
                (1 << 27) + gain * 64
            } else if killers[0] == Some(mv) {
                1 << 26
            } else if killers[1] == Some(mv) {
                (1 << 26) - 1
            } else {
                self.data.history[side][mv.index()][pos.landing_of(mv)]
            };
            list.push(mv, score);
        }
        list
    }

    fn quiescence(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = 0;
        if self.visit(ply) {
            return 0;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Self::terminal_score(pos, ply);
        }
        let gains = pos.immediate_gains(pos.side_to_move());
        let stand_pat = eval::evaluate_given(pos, &gains);
        if ply >= MAX_PLY || stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut ordered = OrderedMoves::default();
        for mv in moves {
            let gain = gains.stones[mv.index()] as i32;
            if gain == 0 {
                continue;
            }
            let makes_tuzdik = gains.tuzdik & (1 << mv.index()) != 0;
            // Delta pruning: even winning these stones cannot reach alpha.
            if !makes_tuzdik && stand_pat + gain * 100 + 200 <= alpha {
                continue;
            }
            ordered.push(mv, if makes_tuzdik { 1 << 20 } else { gain });
        }
        let mut best = stand_pat;
        while let Some(mv) = ordered.next_best() {
            let mut child = *pos;
            child.play(mv);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Up to nine moves with ordering scores, handed out best first.
#[derive(Default)]
struct OrderedMoves {
    moves: [(i32, Option<Move>); HOLES],
    len: usize,
}

impl OrderedMoves {
    fn push(&mut self, mv: Move, score: i32) {
        self.moves[self.len] = (score, Some(mv));
        self.len += 1;
    }

    fn next_best(&mut self) -> Option<Move> {
        if self.len == 0 {
            return None;
        }
        let mut best = 0;
        for i in 1..self.len {
            if self.moves[i].0 > self.moves[best].0 {
                best = i;
            }
        }
        let mv = self.moves[best].1;
        self.len -= 1;
        self.moves.swap(best, self.len);
        mv
    }
}
