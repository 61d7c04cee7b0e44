//! How each playing level plays: below full strength a level searches at most
//! a fixed number of nodes (so that it plays alike on any machine), scores
//! every root move, and then does not always play its best: it draws one from
//! a softmax over their scores, so that a mistake is usually a plausible move
//! a little worse than the best, and only rarely a bad one, as a person's
//! mistakes are. The caps and temperatures are calibrated by matches
//! (STRENGTH.md) to score 60-80% against the level below.

use tuzdyk_protocol::Level;
use tuzdyk_rules::rng::SplitMix64;
use tuzdyk_search::RootMove;
use tuzdyk_search::score::MATE_BOUND;

/// The most nodes `level` searches per move (`None`: no cap).
pub const fn max_nodes(level: Level) -> Option<u64> {
    match level {
        Level::Beginner => Some(2_000),
        Level::Novice => Some(5_000),
        Level::Casual => Some(18_000),
        Level::Intermediate => Some(50_000),
        Level::Skilled => Some(120_000),
        Level::Advanced => Some(450_000),
        Level::Expert => None,
    }
}

/// The softmax temperature in centi-stones: how far below the best a move
/// may score and still be played now and then (0: always the best).
pub const fn temperature(level: Level) -> i32 {
    match level {
        Level::Beginner => 75,
        Level::Novice => 50,
        Level::Casual => 28,
        Level::Intermediate => 18,
        Level::Skilled => 12,
        Level::Advanced => 6,
        Level::Expert => 0,
    }
}

/// Whether `level` chooses among all root moves (and so needs them all scored).
pub const fn chooses(level: Level) -> bool {
    temperature(level) > 0
}

/// The index of the root move `level` plays, from moves scored by the
/// search. The same `seed` gives the same choice; the caller varies it.
pub fn choose(level: Level, root_moves: &[RootMove], seed: u64) -> usize {
    let temperature = temperature(level);
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
    let mut draw = SplitMix64::new(seed).unit() * total;
    for (i, w) in weights.iter().enumerate() {
        if draw < *w {
            return i;
        }
        draw -= w;
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use tuzdyk_rules::Move;

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
    fn expert_always_plays_the_best() {
        let rms = moves(&[100, 90, -50]);
        for seed in 0..50 {
            assert_eq!(choose(Level::Expert, &rms, seed), 0);
        }
    }

    #[test]
    fn a_choice_is_a_function_of_its_seed() {
        let rms = moves(&[100, 95, 90, 20]);
        for level in Level::ALL {
            for seed in 0..100 {
                assert_eq!(choose(level, &rms, seed), choose(level, &rms, seed));
            }
        }
    }

    #[test]
    fn beginner_sometimes_errs_but_never_into_a_forced_loss() {
        let rms = moves(&[100, 60, -MATE_BOUND - 5]);
        let picks: Vec<usize> = (0..400).map(|s| choose(Level::Beginner, &rms, s)).collect();
        assert!(picks.contains(&0) && picks.contains(&1));
        assert!(!picks.contains(&2));
        // The better move is played more often, about e^(40/75) = 1.7 times.
        let best = picks.iter().filter(|&&p| p == 0).count();
        assert!((220..=290).contains(&best), "{best} of 400");
    }

    #[test]
    fn a_forced_win_is_always_played() {
        let rms = moves(&[MATE_BOUND + 3, 500, 400]);
        for seed in 0..100 {
            assert_eq!(choose(Level::Beginner, &rms, seed), 0);
        }
    }

    #[test]
    fn caps_and_temperatures_fall_with_strength() {
        for pair in Level::ALL.windows(2) {
            let (weaker, stronger) = (pair[0], pair[1]);
            assert!(temperature(weaker) > temperature(stronger));
            match (max_nodes(weaker), max_nodes(stronger)) {
                (Some(a), Some(b)) => assert!(a < b),
                (Some(_), None) => assert_eq!(stronger, Level::Expert),
                other => panic!("{other:?}"),
            }
        }
    }
}
