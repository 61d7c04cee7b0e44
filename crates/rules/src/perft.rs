//! Perft: the number of leaf positions at a fixed depth, counting a finished
//! game as a leaf that is not expanded. The numbers in `docs/rules.md` check
//! the rules; the speed checks the board.

use rayon::prelude::*;

use crate::{Move, Position};

/// Leaves at `depth` plies below `pos`, on the current thread.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves().count() as u64,
        _ => perft_inner(pos, depth),
    }
}

fn perft_inner(pos: &Position, depth: u32) -> u64 {
    let moves = pos.legal_moves();
    if depth == 2 {
        return pos.count_replies();
    }
    let mut leaves = 0;
    for mv in moves {
        let mut child = *pos;
        child.play_unhashed(mv);
        leaves += perft_inner(&child, depth - 1);
    }
    leaves
}

/// Leaves below each legal move at `depth` (the `--divide` split), computed
/// in parallel on the current rayon pool.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|mv| {
            let mut child = *pos;
            child.play_unhashed(mv);
            (mv, parallel_perft(&child, depth - 1))
        })
        .collect()
}

/// Leaves at `depth`, split over subtrees on the current rayon pool down
/// to a few plies from the leaves; below that each task runs serially.
pub fn parallel_perft(pos: &Position, depth: u32) -> u64 {
    const SERIAL_DEPTH: u32 = 6;
    if depth <= SERIAL_DEPTH {
        return perft(pos, depth);
    }
    divide(pos, depth).iter().map(|(_, leaves)| leaves).sum()
}
