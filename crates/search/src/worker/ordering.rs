//! Move ordering: the table move, tuzdik-making moves, captures by size,
//! killers, then quiet moves by history; and the late-move reduction table.

use tuzdyk_rules::{HOLES, Move, MoveGains, MoveSet, Position};

use super::{ThreadData, Worker};
use crate::params::{HISTORY_LIMIT, LMR_DIVISOR, param};

/// Reductions for late moves, by depth and move number (the tuning build
/// computes them instead, its divisor being an option).
#[cfg_attr(feature = "tune", allow(dead_code))]
pub(super) struct Reductions([[u8; 16]; 64]);

pub(super) static REDUCTIONS: Reductions = Reductions::new();

/// `ln(n) * 100` for `n` below 64 (0 for 0 and 1): a small integer log
/// table, so that the reductions can be built at compile time.
const LN_X100: [i32; 64] = [
    0, 0, 69, 110, 139, 161, 179, 195, 208, 220, 230, 240, 248, 256, 264, 271, 277, 283, 289, 294,
    300, 304, 309, 314, 318, 322, 326, 330, 333, 337, 340, 343, 347, 350, 353, 356, 358, 361, 364,
    366, 369, 371, 374, 376, 378, 381, 383, 385, 387, 389, 391, 393, 395, 397, 399, 401, 402, 404,
    406, 408, 409, 411, 413, 414,
];

/// The reduction at depth `d` (below 64) and move `m` (below 16).
const fn reduction(d: usize, m: usize, divisor: i32) -> u8 {
    (LN_X100[d] * LN_X100[m] / divisor) as u8
}

impl Reductions {
    const fn new() -> Reductions {
        let mut table = [[0u8; 16]; 64];
        let mut d = 1;
        while d < 64 {
            let mut m = 1;
            while m < 16 {
                table[d][m] = reduction(d, m, LMR_DIVISOR);
                m += 1;
            }
            d += 1;
        }
        Reductions(table)
    }

    pub(super) fn get(&self, depth: i32, move_number: usize) -> i32 {
        let (d, m) = ((depth as usize).min(63), move_number.min(15));
        // The tuning build's divisor changes at run time: computed each time.
        #[cfg(feature = "tune")]
        let r = reduction(d, m, param!(LMR_DIVISOR));
        #[cfg(not(feature = "tune"))]
        let r = self.0[d][m];
        r as i32
    }
}

/// Up to nine moves with ordering scores, handed out best first.
#[derive(Default)]
pub(super) struct OrderedMoves {
    moves: [(i32, Option<Move>); HOLES],
    len: usize,
}

impl OrderedMoves {
    pub(super) fn push(&mut self, mv: Move, score: i32) {
        self.moves[self.len] = (score, Some(mv));
        self.len += 1;
    }

    pub(super) fn next_best(&mut self) -> Option<Move> {
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

impl ThreadData {
    /// Forgets the histories and killers (a new game).
    pub fn clear(&mut self) {
        *self = ThreadData::default();
    }
}

impl Worker<'_> {
    /// A quiet move caused a cutoff: remember it as a killer and move the
    /// history towards it and away from the quiets tried before it.
    pub(super) fn reward_quiet(
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
        let bonus = (depth * depth * param!(HISTORY_SCALE)).min(param!(HISTORY_MAX_BONUS));
        for &other in tried.iter().flatten() {
            let landing = pos.landing_of(other);
            let entry = &mut self.data.history[side][other.index()][landing];
            let delta = if other == mv { bonus } else { -bonus };
            *entry += delta - *entry * delta.abs() / HISTORY_LIMIT;
        }
    }

    pub(super) fn order_moves(
        &self,
        pos: &Position,
        moves: MoveSet,
        tt_move: Option<Move>,
        gains: &MoveGains,
        ply: usize,
    ) -> OrderedMoves {
        let side = pos.side_to_move().index();
        let killers = self.data.killers[ply];
        let mut list = OrderedMoves::default();
        for mv in moves {
            let gain = gains.stones[mv.index()] as i32;
            let score = if Some(mv) == tt_move {
                1 << 30
            } else if gains.tuzdik & (1 << mv.index()) != 0 {
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
}
