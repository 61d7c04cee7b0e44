//! Playing levels, from a beginner a new player can beat to full strength.
//!
//! A level below expert searches fewer nodes (a cap, so that a level plays
//! alike on any machine) and then does not always play its best move: it
//! draws one of the moves from a softmax over their scores, so that a mistake
//! is usually a plausible move a little worse than the best, and only rarely
//! a bad one, as a person's mistakes are. The caps and temperatures are
//! calibrated by matches (STRENGTH.md) to score 60-80% against the level
//! below.

use super::score::MATE_BOUND;
use super::worker::RootMove;

/// A playing level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Beginner = 1,
    Novice = 2,
    Casual = 3,
    Intermediate = 4,
    Skilled = 5,
    Advanced = 6,
    Expert = 7,
}

impl Level {
    pub const ALL: [Level; 7] = [
        Level::Beginner,
        Level::Novice,
        Level::Casual,
        Level::Intermediate,
        Level::Skilled,
        Level::Advanced,
        Level::Expert,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Novice => "novice",
            Level::Casual => "casual",
            Level::Intermediate => "intermediate",
            Level::Skilled => "skilled",
            Level::Advanced => "advanced",
            Level::Expert => "expert",
        }
    }

    /// A level by name (any case) or number 1..7.
    pub fn parse(text: &str) -> Option<Level> {
        let text = text.trim();
        Level::ALL.into_iter().find(|level| {
            level.name().eq_ignore_ascii_case(text) || text == (*level as u8).to_string()
        })
    }

    /// The most nodes this level searches per move.
    pub const fn max_nodes(self) -> Option<u64> {
        match self {
            Level::Beginner => Some(2_000),
            Level::Novice => Some(5_000),
            Level::Casual => Some(18_000),
            Level::Intermediate => Some(50_000),
            Level::Skilled => Some(120_000),
            Level::Advanced => Some(450_000),
            Level::Expert => None,
        }
    }

    /// The softmax temperature in centi-stones: how far below the best a
    /// move may score and still be played now and then.
    pub const fn temperature(self) -> i32 {
        match self {
            Level::Beginner => 75,
            Level::Novice => 50,
            Level::Casual => 28,
            Level::Intermediate => 18,
            Level::Skilled => 12,
            Level::Advanced => 6,
            Level::Expert => 0,
        }
    }

    /// Picks the index of the root move to play. `seed` varies the choice.
    pub fn choose(self, root_moves: &[RootMove], seed: u64) -> usize {
        let temperature = self.temperature();
        if temperature == 0 || root_moves.len() < 2 {
            return 0;
        }
        let best = root_moves.iter().map(|rm| rm.score).max().unwrap_or(0);
        // A forced win is never thrown away, nor a forced loss chosen.
        if best >= MATE_BOUND {
            return 0;
        }
        let weights: Vec<f64> = root_moves
            .iter()
            .map(|rm| {
                if rm.score <= -MATE_BOUND {
                    0.0
                } else {
                    (((rm.score - best) as f64) / temperature as f64).exp()
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            return 0;
        }
        let mut draw = random_unit(seed) * total;
        for (i, w) in weights.iter().enumerate() {
            if draw < *w {
                return i;
            }
            draw -= w;
        }
        0
    }
}

/// A number in [0, 1) from the seed mixed with the current time.
fn random_unit(seed: u64) -> f64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    crate::rng::SplitMix64::new(seed ^ nanos).unit()
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    fn moves(scores: &[i32]) -> Vec<RootMove> {
        scores
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                let mut rm = RootMove::new(Move::from_index(i));
                rm.score = s;
                rm
            })
            .collect()
    }

    #[test]
    fn levels_parse_by_name_and_number() {
        assert_eq!(Level::parse("Expert"), Some(Level::Expert));
        assert_eq!(Level::parse("1"), Some(Level::Beginner));
        assert_eq!(Level::parse("5"), Some(Level::Skilled));
        assert_eq!(Level::parse("7"), Some(Level::Expert));
        assert_eq!(Level::parse("8"), None);
        assert_eq!(Level::parse("grandmaster"), None);
    }

    #[test]
    fn expert_always_plays_the_best() {
        let rms = moves(&[100, 90, -50]);
        for seed in 0..50 {
            assert_eq!(Level::Expert.choose(&rms, seed), 0);
        }
    }

    #[test]
    fn beginner_sometimes_errs_but_never_into_a_forced_loss() {
        let rms = moves(&[100, 60, -MATE_BOUND - 5]);
        let picks: Vec<usize> = (0..400).map(|s| Level::Beginner.choose(&rms, s)).collect();
        assert!(picks.contains(&0) && picks.contains(&1));
        assert!(!picks.contains(&2));
    }
}
