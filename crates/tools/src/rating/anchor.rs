//! The levels on the PlayOK scale by an anchor and a chain.
//!
//! The chain: each ladder step's Elo, from the games between the two
//! levels (their score, logistic Elo; its 95% error by the delta method),
//! or from `--chain` for a step without games. Summed from the bottom it
//! puts every level on one Elo scale, up to a constant.
//!
//! The anchor fixes the constant: the rated players' mean `ln(loss +
//! OFFSET)` falls between two neighbouring levels' own means, at some
//! fraction of the step between them; that point of the chain is given the
//! rated players' mean rating. The anchor's error is a bootstrap (the rated
//! samples and the two levels' samples drawn again), and each level's
//! interval adds it to the errors of the steps between the level and the
//! anchor.
//!
//! The loss says which level plays like the rated players on average; it
//! is not asked to tell ratings apart, which in the PlayOK games it cannot
//! (STRENGTH.md: the loss hardly moves with the rating).

use tuzdyk_protocol::Level;
use tuzdyk_rules::rng::SplitMix64;

use super::fit::{OFFSET, quantile, resample};
use super::samples::Record;
use crate::elo::{Z95, elo_from_score};

/// One step of the chain: `upper`'s Elo over the ladder level below it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    pub upper: Level,
    pub elo: f64,
    /// The 95% error of `elo`.
    pub error: f64,
    /// Games between the two (0: given by `--chain`).
    pub games: usize,
}

/// The Elo of `a` over `b` from their games in `records`, its 95% error
/// and the number of games; `None` without games.
pub fn match_elo(records: &[&Record], a: Level, b: Level) -> Option<(f64, f64, usize)> {
    let points: Vec<f64> = records
        .iter()
        .filter(|r| r.level() == Some(a) && Level::parse(&r.opponent) == Some(b))
        .filter_map(|r| r.points)
        .collect();
    let n = points.len() as f64;
    if points.is_empty() {
        return None;
    }
    let mean = points.iter().sum::<f64>() / n;
    let variance = points.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / n;
    // A whitewash is taken as half a game short of one.
    let score = mean.clamp(0.5 / n, 1.0 - 0.5 / n);
    let elo = elo_from_score(score);
    // d(elo)/d(score), for the delta method.
    let slope = 400.0 / (std::f64::consts::LN_10 * score * (1.0 - score));
    let error = Z95 * (variance.max(score * (1.0 - score) / n.max(1.0)) / n).sqrt() * slope;
    Some((elo, error, points.len()))
}

/// The chain's steps from the bottom of the ladder, as far as games or
/// `given` steps reach.
pub fn chain(records: &[&Record], given: &[Step]) -> Vec<Step> {
    let mut steps = Vec::new();
    for pair in Level::LADDER.windows(2) {
        let (lower, upper) = (pair[0], pair[1]);
        let step = match given.iter().find(|s| s.upper == upper) {
            Some(step) => *step,
            None => {
                let Some((elo, error, games)) = match_elo(records, upper, lower)
                    .or_else(|| match_elo(records, lower, upper).map(|(e, err, g)| (-e, err, g)))
                else {
                    break;
                };
                Step {
                    upper,
                    elo,
                    error,
                    games,
                }
            }
        };
        steps.push(step);
    }
    steps
}

/// Where the rated players sit: between `ladder[index]` and the next
/// level, `fraction` of the way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Anchor {
    pub index: usize,
    pub fraction: f64,
    /// The rated players' mean rating and mean loss.
    pub rating: f64,
    pub loss: f64,
    /// The 95% error of the anchor's place on the chain, in Elo.
    pub error: f64,
}

fn mean_log(samples: &[f64]) -> f64 {
    samples.iter().map(|l| (l + OFFSET).ln()).sum::<f64>() / samples.len().max(1) as f64
}

/// The first ladder step (of `levels`, each level's losses, in ladder
/// order) whose two levels' mean log-losses bracket `target`, and the
/// fraction of the way.
fn crossing(levels: &[Vec<f64>], target: f64) -> Option<(usize, f64)> {
    (0..levels.len().saturating_sub(1)).find_map(|i| {
        let (upper, lower) = (mean_log(&levels[i]), mean_log(&levels[i + 1]));
        (upper >= target && target > lower).then(|| (i, (upper - target) / (upper - lower)))
    })
}

/// The anchor of the rated players' `losses` and `ratings` on the chain
/// of `levels` (each ladder level's losses, bottom first), with `rounds`
/// bootstrap rounds from `seed`; `None` when no step brackets them.
pub fn anchor(
    rated: &[(f64, f64)],
    levels: &[Vec<f64>],
    steps: &[Step],
    rounds: usize,
    seed: u64,
) -> Option<Anchor> {
    let losses: Vec<f64> = rated.iter().map(|(_, loss)| *loss).collect();
    let target = mean_log(&losses);
    let (index, fraction) = crossing(levels, target)?;
    let step_elo = steps.get(index)?.elo;
    let mut rng = SplitMix64::new(seed);
    let mut places: Vec<f64> = (0..rounds)
        .filter_map(|_| {
            let target = mean_log(&resample(&losses, &mut rng));
            let pair = [
                resample(&levels[index], &mut rng),
                resample(&levels[index + 1], &mut rng),
            ];
            let (upper, lower) = (mean_log(&pair[0]), mean_log(&pair[1]));
            (upper > lower).then(|| step_elo * (upper - target) / (upper - lower))
        })
        .collect();
    let low = quantile(&mut places, 0.025);
    let high = quantile(&mut places, 0.975);
    Some(Anchor {
        index,
        fraction,
        rating: rated.iter().map(|(rating, _)| rating).sum::<f64>() / rated.len() as f64,
        loss: losses.iter().sum::<f64>() / losses.len() as f64,
        error: ((high - low) / 2.0).max(0.0),
    })
}

/// Each ladder level's rating and 95% half-width: the anchor's rating
/// plus the Elo between the level and the anchor.
pub fn ladder_ratings(steps: &[Step], anchor: &Anchor) -> Vec<(Level, f64, f64)> {
    let mut place = vec![0.0];
    for step in steps {
        place.push(place.last().copied().unwrap_or(0.0) + step.elo);
    }
    let variance = |k: usize| (steps[k].error / Z95).powi(2);
    let (i, t) = (anchor.index, anchor.fraction);
    let at = place[i] + t * steps[i].elo;
    (0..place.len())
        .map(|level| {
            let chain_variance = if level > i {
                (1.0 - t).powi(2) * variance(i) + (i + 1..level).map(variance).sum::<f64>()
            } else {
                t.powi(2) * variance(i) + (level..i).map(variance).sum::<f64>()
            };
            let half = Z95 * (chain_variance + (anchor.error / Z95).powi(2)).sqrt();
            (
                Level::LADDER[level],
                anchor.rating + place[level] - at,
                half,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(upper: Level, elo: f64) -> Step {
        Step {
            upper,
            elo,
            error: 50.0,
            games: 100,
        }
    }

    #[test]
    fn the_anchor_falls_between_the_levels_that_bracket_the_loss() {
        // Losses 300, 100 and 30: the rated players' 100 sit on the second.
        let levels = vec![vec![300.0; 50], vec![100.0; 50], vec![30.0; 50]];
        let steps = [step(Level::Learner, 200.0), step(Level::Improver, 150.0)];
        let rated: Vec<(f64, f64)> = (0..100).map(|i| (1500.0 + i as f64, 100.0)).collect();
        let anchor = anchor(&rated, &levels, &steps, 100, 1).unwrap();
        assert_eq!(anchor.index, 0);
        assert!((anchor.fraction - 1.0).abs() < 1e-9);
        let ratings = ladder_ratings(&steps, &anchor);
        let learner = ratings[1];
        assert_eq!(learner.0, Level::Learner);
        assert!((learner.1 - anchor.rating).abs() < 1e-6, "{ratings:?}");
        assert!((ratings[0].1 - (anchor.rating - 200.0)).abs() < 1e-6);
        assert!((ratings[2].1 - (anchor.rating + 150.0)).abs() < 1e-6);
        // Each level's interval holds the steps between it and the anchor.
        assert!(ratings[2].2 >= 50.0 - 1e-9 && ratings[0].2 >= 50.0 - 1e-9);
    }

    #[test]
    fn no_anchor_outside_the_ladder() {
        let levels = vec![vec![100.0; 5], vec![50.0; 5]];
        let steps = [step(Level::Learner, 200.0)];
        assert_eq!(anchor(&[(1500.0, 500.0)], &levels, &steps, 10, 1), None);
        assert_eq!(anchor(&[(1500.0, 10.0)], &levels, &steps, 10, 1), None);
    }
}
