//! Search scores: centi-stones for ordinary positions, and "mate" scores for
//! a forced end of the game, counted by distance so that a quicker win (or a
//! slower loss) scores better.

/// A won game at the root. Wins `n` plies away score `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores at or beyond this are forced game results.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any score.
pub const INFINITY: i32 = MATE + 1;

/// The score of a finished game won by the side to move `ply` plies from the root.
pub const fn win_in(ply: u32) -> i32 {
    MATE - ply as i32
}

/// The score of a finished game lost by the side to move `ply` plies from the root.
pub const fn loss_in(ply: u32) -> i32 {
    -MATE + ply as i32
}

pub const fn is_mate(score: i32) -> bool {
    score >= MATE_BOUND || score <= -MATE_BOUND
}

/// A score as the transposition table keeps it: mate distances counted from
/// the stored node rather than the root.
pub const fn to_table(score: i32, ply: u32) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_table`].
pub const fn from_table(score: i32, ply: u32) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The moves to a forced end of the game, as a report counts them: `Some(n)`
/// when the side to move wins with its `n`-th move from now, `Some(-n)` when
/// it loses after its own `n`-th move (`Some(0)`: already lost), `None` for an
/// ordinary score.
pub const fn mate_in_moves(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-((MATE + score + 1) / 2))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_report_moves() {
        assert_eq!(mate_in_moves(win_in(1)), Some(1));
        assert_eq!(mate_in_moves(win_in(3)), Some(2));
        assert_eq!(mate_in_moves(loss_in(1)), Some(-1));
        assert_eq!(mate_in_moves(loss_in(2)), Some(-1));
        assert_eq!(mate_in_moves(loss_in(3)), Some(-2));
        assert_eq!(mate_in_moves(loss_in(0)), Some(0));
        assert_eq!(mate_in_moves(-250), None);
    }

    #[test]
    fn table_scores_round_trip() {
        for score in [win_in(7), loss_in(4), 123, -5] {
            assert_eq!(from_table(to_table(score, 5), 5), score);
        }
    }
}
