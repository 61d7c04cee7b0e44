//! How rated players' average loss per move depends on their rating: a
//! straight line through the logarithm of the loss, `ln(loss + OFFSET) = a
//! + b * rating`, fitted by least squares, one sample per player and game
//! (the offset keeps a game without a loss finite). `tuzdyk rating` prints
//! it to show how much the loss tells about a rating; the bootstrap
//! helpers serve the anchor's interval ([`super::anchor`]).

use tuzdyk_rules::rng::SplitMix64;

/// Centi-stones added to every loss before its logarithm.
pub const OFFSET: f64 = 10.0;

/// One player's average loss per move in one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The player's rating (0 for a level, whose rating is sought).
    pub rating: f64,
    pub loss: f64,
}

impl Sample {
    fn y(&self) -> f64 {
        (self.loss + OFFSET).ln()
    }
}

/// The fitted line `ln(loss + OFFSET) = a + b * rating`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    pub a: f64,
    pub b: f64,
    /// The residuals' standard deviation.
    pub residual_sd: f64,
    /// The share of the variance of `ln(loss + OFFSET)` the line explains.
    pub r_squared: f64,
    pub samples: usize,
}

impl Line {
    /// The least-squares line through `samples`; `None` with fewer than
    /// two, or when every rating is the same.
    pub fn fit(samples: &[Sample]) -> Option<Line> {
        let n = samples.len() as f64;
        if samples.len() < 2 {
            return None;
        }
        let mean_x = samples.iter().map(|s| s.rating).sum::<f64>() / n;
        let mean_y = samples.iter().map(Sample::y).sum::<f64>() / n;
        let sxx: f64 = samples.iter().map(|s| (s.rating - mean_x).powi(2)).sum();
        let sxy: f64 = samples
            .iter()
            .map(|s| (s.rating - mean_x) * (s.y() - mean_y))
            .sum();
        let syy: f64 = samples.iter().map(|s| (s.y() - mean_y).powi(2)).sum();
        if sxx <= 0.0 {
            return None;
        }
        let b = sxy / sxx;
        let a = mean_y - b * mean_x;
        let rss: f64 = samples
            .iter()
            .map(|s| (s.y() - a - b * s.rating).powi(2))
            .sum();
        Some(Line {
            a,
            b,
            residual_sd: (rss / (n - 2.0).max(1.0)).sqrt(),
            r_squared: if syy > 0.0 { 1.0 - rss / syy } else { 0.0 },
            samples: samples.len(),
        })
    }

    /// The average loss the line expects at `rating`.
    pub fn loss_at(&self, rating: f64) -> f64 {
        (self.a + self.b * rating).exp() - OFFSET
    }
}

/// `samples` drawn again with replacement.
pub fn resample<T: Copy>(samples: &[T], rng: &mut SplitMix64) -> Vec<T> {
    (0..samples.len()).map(|_| *rng.pick(samples)).collect()
}

/// The `q` quantile (0..1) of `values`, sorted here; NaN when empty.
pub fn quantile(values: &mut [f64], q: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    let at = ((values.len() as f64 - 1.0) * q).round() as usize;
    values.get(at).copied().unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rated samples on an exact line, with a spread that averages out.
    fn on_line(a: f64, b: f64) -> Vec<Sample> {
        // 360 = 2 x 9 x 20: each rating gets as much noise up as down.
        (0..360)
            .map(|i| {
                let rating = 1200.0 + (i % 9) as f64 * 100.0;
                let noise = if i % 2 == 0 { 0.3 } else { -0.3 };
                Sample {
                    rating,
                    loss: (a + b * rating + noise).exp() - OFFSET,
                }
            })
            .collect()
    }

    #[test]
    fn the_line_is_found() {
        let (a, b) = (8.0, -0.002);
        let line = Line::fit(&on_line(a, b)).unwrap();
        assert!((line.a - a).abs() < 1e-6 && (line.b - b).abs() < 1e-9);
        assert!((line.residual_sd - 0.3).abs() < 0.01);
        assert!((line.loss_at(1500.0) - ((a + b * 1500.0).exp() - OFFSET)).abs() < 1e-6);
        let mut values = vec![3.0, 1.0, 2.0];
        assert_eq!(quantile(&mut values, 0.5), 2.0);
        assert_eq!(resample(&[7], &mut SplitMix64::new(1)), vec![7]);
    }

    #[test]
    fn no_line_without_spread() {
        let same = vec![
            Sample {
                rating: 1500.0,
                loss: 50.0
            };
            10
        ];
        assert_eq!(Line::fit(&same), None);
        assert_eq!(Line::fit(&same[..1]), None);
    }
}
