//! SPSA as fishtest runs it: the gain schedule, the ±1 flips, the two probe
//! points θ ± c·flip, and the update from a batch of game pairs. No I/O.
//!
//! fishtest counts its SPSA iterations in game pairs (`spsa["iter"] +=
//! num_games // 2`), and so does this module: a run of `iterations`
//! batches of `pairs` game pairs is fishtest's `num_iter = iterations *
//! pairs`, and batch `b` (1-based) draws its gains at fishtest's
//! `iter_local = (b - 1) * pairs + 1`. `c_end` and `r_end` then mean what they
//! mean in a fishtest SPSA test.

use serde::{Deserialize, Serialize};

use tuzdyk_rules::rng::{self, SplitMix64};

/// fishtest's defaults: `alpha` (the learning rate's decay), `gamma` (the
/// perturbation's), and `A` as a share of all iterations.
pub const ALPHA: f64 = 0.602;
pub const GAMMA: f64 = 0.101;
pub const A_RATIO: f64 = 0.1;

/// One parameter being tuned: its declaration and its current value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Param {
    pub name: String,
    /// The value the run started from (params.rs's default).
    pub start: f64,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
    pub r_end: f64,
    /// θ, the current estimate (not rounded).
    pub theta: f64,
}

impl Param {
    /// θ plus `increment`, kept in `min..=max`: fishtest's `_param_clip`.
    fn clip(&self, increment: f64) -> f64 {
        (self.theta + increment).clamp(self.min, self.max)
    }
}

/// The constants of a run's schedule (fixed when the run starts).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schedule {
    /// fishtest's `num_iter`: every game pair of the run.
    pub total_pairs: u64,
    /// fishtest's `A`.
    pub a_stability: f64,
    pub alpha: f64,
    pub gamma: f64,
}

impl Schedule {
    /// fishtest's schedule for a run of `total_pairs` game pairs.
    pub fn new(total_pairs: u64) -> Schedule {
        Schedule {
            total_pairs,
            a_stability: A_RATIO * total_pairs as f64,
            alpha: ALPHA,
            gamma: GAMMA,
        }
    }

    /// One parameter's perturbation `c` and learning rate `R` at fishtest's
    /// `iter_local` `k` (1-based), as fishtest's `parse_spsa_params` and
    /// `_generate_data` compute them:
    ///
    /// ```text
    /// c_0 = c_end * num_iter^gamma            a_end = r_end * c_end^2
    /// a_0 = a_end * (A + num_iter)^alpha
    /// c   = c_0 / k^gamma                     R = a_0 / (A + k)^alpha / c^2
    /// ```
    ///
    /// so that at the last iteration `c = c_end` and `R = r_end`.
    pub fn gains(&self, param: &Param, k: u64) -> (f64, f64) {
        let n = self.total_pairs as f64;
        let k = k as f64;
        let c0 = param.c_end * n.powf(self.gamma);
        let a0 = param.r_end * param.c_end * param.c_end * (self.a_stability + n).powf(self.alpha);
        let c = c0 / k.powf(self.gamma);
        let r = a0 / (self.a_stability + k).powf(self.alpha) / (c * c);
        (c, r)
    }
}

/// One parameter's part of a batch: the flip, the gains, and the values the
/// two sides play with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Probe {
    /// +1 or -1.
    pub flip: i8,
    pub c: f64,
    pub r: f64,
    /// θ + c·flip and θ − c·flip, clipped (fishtest's `w_params` and
    /// `b_params`), rounded to the whole numbers the engine takes as
    /// fishtest's worker rounds them.
    pub plus: i64,
    pub minus: i64,
}

/// The ±1 flips of batch `batch` (1-based): drawn from the run's seed and
/// the batch's number alone, so a resumed run draws what an uninterrupted
/// one would.
pub fn flips(seed: u64, batch: u64, count: usize) -> Vec<i8> {
    let mut mix = seed ^ batch.wrapping_mul(0xD1B5_4A32_D192_ED03);
    let mut random = SplitMix64::new(rng::next(&mut mix));
    (0..count)
        .map(|_| if random.next_u64() >> 63 == 1 { 1 } else { -1 })
        .collect()
}

/// The probes of every parameter at fishtest's `iter_local` `k`.
pub fn probes(params: &[Param], schedule: &Schedule, k: u64, flips: &[i8]) -> Vec<Probe> {
    params
        .iter()
        .zip(flips)
        .map(|(param, &flip)| {
            let (c, r) = schedule.gains(param, k);
            let step = c * f64::from(flip);
            Probe {
                flip,
                c,
                r,
                plus: param.clip(step).round() as i64,
                minus: param.clip(-step).round() as i64,
            }
        })
        .collect()
}

/// The update after a batch, fishtest's rule (`spsa_handler.py`,
/// `__update_spsa_data`):
///
/// ```text
/// result = wins - losses            (of the θ + c·flip side, over the batch)
/// theta  = clip(theta + R * c * result * flip)
/// ```
pub fn update(params: &mut [Param], probes: &[Probe], result: i64) {
    for (param, probe) in params.iter_mut().zip(probes) {
        let increment = probe.r * probe.c * result as f64 * f64::from(probe.flip);
        param.theta = param.clip(increment);
    }
}

/// How strongly a run's games said that raising each parameter wins, as a
/// z-score: `Σ result·flip / √(Σ result²)` over its batches (`results`:
/// each batch's number and W − L of the θ + c·flip side; the flips are
/// drawn again from `seed`). Where the games do not care about a
/// parameter, its flips are independent of the results and the score is
/// about normal with mean 0 and spread 1, so a |z| below 2 is noise; θ's
/// move alone cannot tell, as its size follows `r_end` and the schedule.
/// 0 for a run with no decided batch.
pub fn evidence(seed: u64, results: &[(u64, i64)], count: usize) -> Vec<f64> {
    let mut along = vec![0.0; count];
    let mut squares = 0.0;
    for &(batch, result) in results {
        let result = result as f64;
        squares += result * result;
        for (sum, flip) in along.iter_mut().zip(flips(seed, batch, count)) {
            *sum += result * f64::from(flip);
        }
    }
    if squares == 0.0 {
        return vec![0.0; count];
    }
    along.iter().map(|sum| sum / squares.sqrt()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(start: f64, min: f64, max: f64, c_end: f64) -> Param {
        Param {
            name: "X".to_string(),
            start,
            min,
            max,
            c_end,
            r_end: 0.002,
            theta: start,
        }
    }

    #[test]
    fn the_gains_reach_c_end_and_r_end_at_the_last_iteration() {
        let schedule = Schedule::new(1000);
        assert_eq!(schedule.a_stability, 100.0);
        let p = param(50.0, 0.0, 100.0, 5.0);
        let (c, r) = schedule.gains(&p, 1000);
        assert!((c - 5.0).abs() < 1e-9, "{c}");
        assert!((r - 0.002).abs() < 1e-12, "{r}");
        // Earlier, both are larger: c by (N/k)^gamma.
        let (c1, r1) = schedule.gains(&p, 1);
        assert!((c1 - 5.0 * 1000f64.powf(GAMMA)).abs() < 1e-9);
        assert!(r1 > r);
    }

    #[test]
    fn probes_are_clipped_and_rounded_and_updates_move_towards_the_winner() {
        let schedule = Schedule::new(100);
        let mut params = vec![param(98.0, 0.0, 100.0, 5.0), param(10.0, 0.0, 100.0, 5.0)];
        let probes = probes(&params, &schedule, 100, &[1, -1]);
        assert_eq!((probes[0].plus, probes[0].minus), (100, 93));
        assert_eq!((probes[1].plus, probes[1].minus), (5, 15));
        // The plus side won by 4: θ moves by R·c·4 along each flip.
        update(&mut params, &probes, 4);
        let step = probes[0].r * probes[0].c * 4.0;
        assert!((params[0].theta - (98.0 + step)).abs() < 1e-9);
        assert!((params[1].theta - (10.0 - step)).abs() < 1e-9);
        // A landslide moves θ no further than its range.
        update(&mut params, &probes, 10_000);
        assert_eq!(params[0].theta, 100.0);
        // No decided games: nothing moves.
        let before = params.clone();
        update(&mut params, &probes, 0);
        assert_eq!(params, before);
    }

    #[test]
    fn flips_depend_on_the_seed_and_the_batch_only() {
        assert_eq!(flips(1, 7, 20), flips(1, 7, 20));
        assert_ne!(flips(1, 7, 20), flips(1, 8, 20));
        assert_ne!(flips(1, 7, 20), flips(2, 7, 20));
        let all: Vec<i8> = (1..200).flat_map(|b| flips(3, b, 4)).collect();
        assert!(all.iter().all(|f| *f == 1 || *f == -1));
        let plus = all.iter().filter(|f| **f == 1).count();
        assert!((300..500).contains(&plus), "{plus} of {}", all.len());
    }

    #[test]
    fn evidence_finds_the_parameter_the_games_follow() {
        // 400 batches where the plus side wins by 2 when parameter 1's
        // flip is +1 and loses by 2 otherwise, plus noise that follows no
        // flip: parameter 1's z is large, the others' are noise-sized.
        let mut noise = SplitMix64::new(7);
        let results: Vec<(u64, i64)> = (1..=400)
            .map(|batch| {
                let flip = flips(5, batch, 3)[1];
                let jitter = (noise.next_u64() % 7) as i64 - 3;
                (batch, 2 * i64::from(flip) + jitter)
            })
            .collect();
        let z = evidence(5, &results, 3);
        assert!(z[1] > 10.0, "{z:?}");
        assert!(z[0].abs() < 3.5 && z[2].abs() < 3.5, "{z:?}");
        // The opposite results point the other way.
        let flipped: Vec<(u64, i64)> = results.iter().map(|&(b, r)| (b, -r)).collect();
        assert!(evidence(5, &flipped, 3)[1] < -10.0);
        // Nothing decided, nothing said.
        assert_eq!(evidence(5, &[(1, 0), (2, 0)], 3), vec![0.0; 3]);
    }
}
