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

/// A score as the protocol reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reported {
    /// Centi-stones for the side to move.
    Centistones(i32),
    /// A forced win in `n` moves (the side to move's own), or a loss if negative.
    Mate(i32),
}

impl Reported {
    pub const fn from_score(score: i32) -> Reported {
        if score >= MATE_BOUND {
            Reported::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            // Lost after the side to move's own n-th move (n = 0: already lost).
            Reported::Mate(-((MATE + score + 1) / 2))
        } else {
            Reported::Centistones(score)
        }
    }
}

impl std::fmt::Display for Reported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reported::Centistones(cp) => write!(f, "cp {cp}"),
            Reported::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_report_moves() {
        assert_eq!(Reported::from_score(win_in(1)), Reported::Mate(1));
        assert_eq!(Reported::from_score(win_in(3)), Reported::Mate(2));
        assert_eq!(Reported::from_score(loss_in(1)), Reported::Mate(-1));
        assert_eq!(Reported::from_score(loss_in(2)), Reported::Mate(-1));
        assert_eq!(Reported::from_score(loss_in(3)), Reported::Mate(-2));
        assert_eq!(Reported::from_score(loss_in(0)), Reported::Mate(0));
        assert_eq!(Reported::from_score(-250), Reported::Centistones(-250));
    }

    #[test]
    fn table_scores_round_trip() {
        for score in [win_in(7), loss_in(4), 123, -5] {
            assert_eq!(from_table(to_table(score, 5), 5), score);
        }
    }
}
