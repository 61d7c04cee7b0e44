//! The search below the root: principal variation search with the table,
//! reverse futility, null move, late-move pruning and reductions, and a
//! quiescence search over captures and tuzdik-making moves.

use tuzdyk_rules::{GameResult, HOLES, Move, Position};

use super::ordering::{OrderedMoves, REDUCTIONS};
use super::{MAX_PLY, Worker};
use crate::params::{
    EXACT_ENDGAME_STONES, FUTILITY_MAX_DEPTH, LMP_MAX_DEPTH, LMR_FIRST_MOVE, LMR_MIN_DEPTH,
    NMP_MIN_DEPTH, NMP_MIN_MOVES, param,
};
use crate::score::{self, INFINITY, MATE_BOUND};
use crate::tt::Bound;

impl Worker<'_> {
    fn terminal_score(pos: &Position, ply: usize) -> i32 {
        match pos.result() {
            Some(GameResult::Win(side)) if side == pos.side_to_move() => score::win_in(ply as u32),
            Some(GameResult::Win(_)) => score::loss_in(ply as u32),
            _ => 0,
        }
    }

    /// The score of the move that led to `child` (at `ply`), searched from
    /// a node at `depth` with the window `alpha..beta`: the first move with
    /// the full window; a later one with a null window, `reduction` plies
    /// shallower, searched again at full depth if it beats alpha, and again
    /// with the full window at a PV node if it lands inside it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_move(
        &mut self,
        child: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        first: bool,
        reduction: i32,
    ) -> i32 {
        if first {
            return -self.negamax(child, depth - 1, -beta, -alpha, ply, pv_node);
        }
        let mut score = -self.negamax(child, depth - 1 - reduction, -alpha - 1, -alpha, ply, false);
        if score > alpha && reduction > 0 {
            score = -self.negamax(child, depth - 1, -alpha - 1, -alpha, ply, false);
        }
        if pv_node && score > alpha && score < beta {
            score = -self.negamax(child, depth - 1, -beta, -alpha, ply, true);
        }
        score
    }

    pub(super) fn negamax(
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
            return self.evaluator.evaluate(pos);
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
            _ => self
                .evaluator
                .evaluate_given(pos, gains.insert(pos.immediate_gains(pos.side_to_move()))),
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
            let margin =
                param!(RFP_MARGIN) * depth - if improving { param!(RFP_IMPROVING) } else { 0 };
            if depth <= param!(RFP_MAX_DEPTH) && static_eval - margin >= beta {
                return static_eval;
            }
            // Null move: if passing still holds beta, a real move will too.
            // Running out of moves is the game's zugzwang, so not with few moves.
            let them = pos.side_to_move().opponent();
            if depth >= NMP_MIN_DEPTH
                && static_eval >= beta
                && moves.count() >= NMP_MIN_MOVES
                && !pos.movable_holes(them).is_empty()
            {
                let reduction = param!(NMP_BASE_REDUCTION) + depth / param!(NMP_DEPTH_DIVISOR);
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
        let mut ordered = self.order_moves(pos, moves, tt_move, &gains, ply);
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
                if depth <= LMP_MAX_DEPTH
                    && quiet_count >= param!(LMP_BASE) + depth as usize * depth as usize
                {
                    continue;
                }
                if depth <= FUTILITY_MAX_DEPTH
                    && static_eval + param!(FUTILITY_PER_PLY) * depth + param!(FUTILITY_BASE)
                        <= alpha
                {
                    continue;
                }
            }
            let mut child = *pos;
            child.play(mv);
            self.tt.prefetch(child.key());
            let mut reduction = 0;
            if depth >= LMR_MIN_DEPTH && searched >= LMR_FIRST_MOVE && !noisy && !exact {
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
            let score = self.search_move(
                &child,
                depth,
                alpha,
                beta,
                ply + 1,
                pv_node,
                searched == 0,
                reduction,
            );
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
        let stand_pat = self.evaluator.evaluate_given(pos, &gains);
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
            if !makes_tuzdik && stand_pat + gain * 100 + param!(QS_DELTA_MARGIN) <= alpha {
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
