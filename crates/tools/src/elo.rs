//! The score of a match and the Elo difference it suggests (also the
//! Elo of the rating tool's ladder steps, `crate::rating::anchor`).
//!
//! Scores are from the first engine's point of view (win 1, draw 1/2,
//! loss 0). The Elo difference is the usual logistic one,
//! `elo = -400 log10(1/s - 1)`. Its 95% interval uses the pentanomial
//! variance once there is a complete colour-swapped pair: the two games of
//! a pair share an opening and are not independent, so the pair is the unit
//! of sampling. Before that the trinomial (per-game) variance is used.

/// Two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The expected score of an engine `elo` points stronger than its opponent.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of a score in 0..1: `-inf` at 0, `+inf` at 1.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The error function, by Abramowitz and Stegun 7.1.26 (error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// Results counted from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Complete colour-swapped pairs by the first engine's points in the
    /// pair: index 0 = two losses, 1 = loss + draw, 2 = two draws or win +
    /// loss, 3 = win + draw, 4 = two wins.
    pub pentanomial: [u64; 5],
}

/// An Elo estimate with its 95% interval (infinite ends when the score or
/// a bound of its interval reaches 0% or 100%).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

impl EloEstimate {
    /// Half the interval's width when both ends are finite.
    pub fn margin(&self) -> Option<f64> {
        (self.lower.is_finite() && self.upper.is_finite()).then(|| (self.upper - self.lower) / 2.0)
    }
}

impl Tally {
    /// Adds one game: `points` 2 for a win, 1 for a draw, 0 for a loss.
    pub fn add_game(&mut self, points: u8) {
        match points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// Adds a complete pair: the first engine's points in it, 0..4 in half points.
    pub fn add_pair(&mut self, half_points: u8) {
        self.pentanomial[half_points.min(4) as usize] += 1;
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn pairs(&self) -> u64 {
        self.pentanomial.iter().sum()
    }

    /// The mean score per game, `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / games as f64)
    }

    /// The fraction of drawn games.
    pub fn draw_ratio(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.draws as f64 / games as f64)
    }

    /// The likelihood of superiority: the probability that the first
    /// engine is the stronger, from wins and losses (draws say nothing).
    pub fn los(&self) -> f64 {
        let decisive = self.wins + self.losses;
        if decisive == 0 {
            return 0.5;
        }
        let z = (self.wins as f64 - self.losses as f64) / (2.0 * decisive as f64).sqrt();
        0.5 * (1.0 + erf(z))
    }

    /// The variance of one game's score: from the pentanomial (twice the
    /// variance of a pair's mean score) when a pair is complete, else from
    /// the trinomial counts.
    pub fn variance_per_game(&self) -> Option<f64> {
        let pairs = self.pairs();
        if pairs > 0 {
            let values = [0.0, 0.25, 0.5, 0.75, 1.0];
            let n = pairs as f64;
            let mean: f64 = (0..5)
                .map(|i| values[i] * self.pentanomial[i] as f64)
                .sum::<f64>()
                / n;
            let variance: f64 = (0..5)
                .map(|i| self.pentanomial[i] as f64 * (values[i] - mean).powi(2))
                .sum::<f64>()
                / n;
            return Some(2.0 * variance);
        }
        let games = self.games();
        if games == 0 {
            return None;
        }
        let n = games as f64;
        let mean = self.score()?;
        let variance = (self.wins as f64 * (1.0 - mean).powi(2)
            + self.draws as f64 * (0.5 - mean).powi(2)
            + self.losses as f64 * mean.powi(2))
            / n;
        Some(variance)
    }

    /// The Elo difference with its 95% interval, `None` before the first game.
    pub fn elo(&self) -> Option<EloEstimate> {
        let score = self.score()?;
        let variance = self.variance_per_game()?;
        let stderr = (variance / self.games() as f64).sqrt();
        let bound = |s: f64| elo_from_score(s.clamp(0.0, 1.0));
        Some(EloEstimate {
            elo: elo_from_score(score),
            lower: bound(score - Z95 * stderr),
            upper: bound(score + Z95 * stderr),
        })
    }
}

/// An Elo value for people: `+12.3`, `-4.0`, `0.0`, `+inf`, `-inf`. What
/// rounds to zero has no sign (a 50% score is `-400 log10(1)`, which is
/// `-0.0` in floating point).
pub fn format_elo(elo: f64) -> String {
    if elo == f64::INFINITY {
        "+inf".to_string()
    } else if elo == f64::NEG_INFINITY {
        "-inf".to_string()
    } else if elo.is_nan() {
        "nan".to_string()
    } else if (elo * 10.0).round() == 0.0 {
        "0.0".to_string()
    } else {
        format!("{elo:+.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn logistic_elo_round_trips() {
        assert_eq!(elo_from_score(0.5), 0.0);
        // 3/4 of the points: 400 log10(3) = 190.848...
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(score_from_elo(190.848_501_887_865), 0.75, 1e-12));
        assert!(close(score_from_elo(-100.0), 0.359_935_000_6, 1e-9));
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn zero_has_no_sign() {
        assert_eq!(elo_from_score(0.5).to_string(), "-0");
        assert_eq!(format_elo(elo_from_score(0.5)), "0.0");
        assert_eq!(format_elo(-0.04), "0.0");
        assert_eq!(format_elo(0.05), "+0.1");
        assert_eq!(format_elo(-12.34), "-12.3");
    }

    #[test]
    fn erf_matches_known_values() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(1.0), 0.842_700_79, 2e-7));
        assert!(close(erf(-0.5), -0.520_499_88, 2e-7));
        assert!(close(erf(3.0), 0.999_977_91, 2e-7));
    }

    #[test]
    fn empty_tally_has_no_estimate_and_does_not_divide_by_zero() {
        let tally = Tally::default();
        assert_eq!(tally.score(), None);
        assert_eq!(tally.elo(), None);
        assert_eq!(tally.draw_ratio(), None);
        assert_eq!(tally.los(), 0.5);
    }

    #[test]
    fn all_wins_and_all_losses_give_infinite_elo_without_panicking() {
        let mut wins = Tally::default();
        let mut losses = Tally::default();
        for _ in 0..4 {
            wins.add_game(2);
            losses.add_game(0);
        }
        wins.add_pair(4);
        wins.add_pair(4);
        losses.add_pair(0);
        losses.add_pair(0);
        let w = wins.elo().unwrap();
        assert_eq!(
            (w.elo, w.lower, w.upper),
            (f64::INFINITY, f64::INFINITY, f64::INFINITY)
        );
        let l = losses.elo().unwrap();
        assert_eq!(l.elo, f64::NEG_INFINITY);
        assert_eq!(l.margin(), None);
        // Phi(+-4/sqrt(4)) = Phi(+-2).
        assert!((wins.los() - 0.977_250).abs() < 1e-5);
        assert!((losses.los() - 0.022_750).abs() < 1e-5);
        assert_eq!(format_elo(w.elo), "+inf");
        assert_eq!(format_elo(l.elo), "-inf");
    }

    #[test]
    fn trinomial_interval_matches_a_hand_computation() {
        // W 6 D 2 L 2: score 0.7, variance (6*0.09 + 2*0.04 + 2*0.49)/10 = 0.16,
        // stderr 0.4/sqrt(10) = 0.126491; bounds 0.7 -/+ 1.96*0.126491 =
        // 0.452082, 0.947918, i.e. -33.40 and +504.03 Elo.
        let tally = Tally {
            wins: 6,
            draws: 2,
            losses: 2,
            pentanomial: [0; 5],
        };
        let e = tally.elo().unwrap();
        assert!(close(e.elo, elo_from_score(0.7), 1e-9));
        assert!(close(e.elo, 147.19, 0.01));
        let half = Z95 * (0.16f64 / 10.0).sqrt();
        assert!(close(e.lower, elo_from_score(0.7 - half), 1e-9));
        assert!(close(e.upper, elo_from_score(0.7 + half), 1e-9));
        assert!(close(e.lower, -33.40, 0.01), "{}", e.lower);
        assert!(close(e.upper, 504.03, 0.01), "{}", e.upper);
    }

    #[test]
    fn pentanomial_interval_matches_a_hand_computation() {
        // Pairs LL 1, LD 2, DD 4, WD 2, WW 1 (10 pairs, 20 games, score 0.5):
        // pair means 0, .25, .5, .75, 1; variance (2*.25 + 4*.0625)/10 = 0.075,
        // per game 0.15; stderr sqrt(0.15/20) = 0.0866025: +/-122.82 Elo.
        let mut tally = Tally {
            wins: 6,
            draws: 8,
            losses: 6,
            pentanomial: [1, 2, 4, 2, 1],
        };
        let e = tally.elo().unwrap();
        assert_eq!(e.elo, 0.0);
        let half = Z95 * (0.15f64 / 20.0).sqrt();
        assert!(close(e.upper, elo_from_score(0.5 + half), 1e-6));
        assert!(close(e.lower, -e.upper, 1e-9));
        assert!(close(e.upper, 122.82, 0.01), "{}", e.upper);
        // Only draws: no spread, a zero-width interval.
        tally = Tally {
            wins: 0,
            draws: 4,
            losses: 0,
            pentanomial: [0, 0, 2, 0, 0],
        };
        let e = tally.elo().unwrap();
        assert_eq!((e.elo, e.lower, e.upper), (0.0, 0.0, 0.0));
    }

    #[test]
    fn los_matches_the_normal_approximation() {
        // W 60 L 40: Phi((W - L)/sqrt(W + L)) = Phi(2) = 0.977250.
        let tally = Tally {
            wins: 60,
            draws: 10,
            losses: 40,
            pentanomial: [0; 5],
        };
        assert!(close(tally.los(), 0.977_250, 1e-5));
    }
}
