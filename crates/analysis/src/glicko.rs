//! Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system",
//! 2013): the puzzle solver's and each puzzle's rating, deviation and
//! volatility, updated after every attempt: an attempt is a game between
//! the solver and the puzzle (solved: the solver won), each rated against
//! the other's rating from before it, as lichess rates its puzzles.

/// The system constant τ: how fast the volatility may change. Glickman
/// suggests 0.3 to 1.2; 0.75 lets a puzzle's rating move after a few
/// dozen attempts without swinging on each one. Smaller is steadier.
pub const TAU: f64 = 0.75;

/// The Glicko scale's factor to the Glicko-2 scale (173.7178).
const SCALE: f64 = 173.7178;

/// Where a new solver or a new puzzle without a better guess starts.
pub const DEFAULT_RATING: f64 = 1500.0;
pub const DEFAULT_DEVIATION: f64 = 350.0;
pub const DEFAULT_VOLATILITY: f64 = 0.06;

/// The deviation is kept at least this (a rating never becomes certain),
/// and at most the default.
pub const MIN_DEVIATION: f64 = 45.0;

/// The convergence tolerance of the volatility's iteration (Glickman: 1e-6).
const EPSILON: f64 = 1e-6;

/// A rating on the Glicko scale (1500 for the average).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: DEFAULT_RATING,
            deviation: DEFAULT_DEVIATION,
            volatility: DEFAULT_VOLATILITY,
        }
    }
}

/// One game of a rating period: the opponent's rating before it and the
/// score (1 a win, 0.5 a draw, 0 a loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub opponent: Rating,
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// The rating after one rating period with `outcomes` (Glickman's steps
    /// 2 to 8, τ given). With no games only the deviation grows.
    pub fn updated_with(self, outcomes: &[Outcome], tau: f64) -> Rating {
        let mu = (self.rating - DEFAULT_RATING) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if outcomes.is_empty() {
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return Rating {
                deviation: phi_star * SCALE,
                ..self
            };
        }
        // Step 3: the estimated variance; step 4: the improvement.
        let mut v_inverse = 0.0;
        let mut delta_sum = 0.0;
        for outcome in outcomes {
            let mu_j = (outcome.opponent.rating - DEFAULT_RATING) / SCALE;
            let phi_j = outcome.opponent.deviation / SCALE;
            let e = expected(mu, mu_j, phi_j);
            let g_j = g(phi_j);
            v_inverse += g_j * g_j * e * (1.0 - e);
            delta_sum += g_j * (outcome.score - e);
        }
        let v = 1.0 / v_inverse;
        let delta = v * delta_sum;
        // Step 5: the new volatility, by the Illinois algorithm.
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let (mut f_a, mut f_b) = (f(big_a), f(big_b));
        // Bounded: the interval halves at least every other step.
        for _ in 0..100 {
            if (big_b - big_a).abs() <= EPSILON {
                break;
            }
            let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(big_c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = big_c;
            f_b = f_c;
        }
        let new_sigma = (big_a / 2.0).exp();
        // Steps 6 and 7: the new deviation and rating.
        let phi_star = (phi * phi + new_sigma * new_sigma).sqrt();
        let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let new_mu = mu + new_phi * new_phi * delta_sum;
        Rating {
            rating: new_mu * SCALE + DEFAULT_RATING,
            deviation: new_phi * SCALE,
            volatility: new_sigma,
        }
    }

    /// One puzzle attempt: the solver's and the puzzle's new ratings, each
    /// against the other's old one (`solved`: the solver won), deviations
    /// kept within [`MIN_DEVIATION`] and the default.
    pub fn attempt(solver: Rating, puzzle: Rating, solved: bool) -> (Rating, Rating) {
        let score = if solved { 1.0 } else { 0.0 };
        let clamp = |r: Rating| Rating {
            deviation: r.deviation.clamp(MIN_DEVIATION, DEFAULT_DEVIATION),
            ..r
        };
        let new_solver = solver.updated_with(
            &[Outcome {
                opponent: puzzle,
                score,
            }],
            TAU,
        );
        let new_puzzle = puzzle.updated_with(
            &[Outcome {
                opponent: solver,
                score: 1.0 - score,
            }],
            TAU,
        );
        (clamp(new_solver), clamp(new_puzzle))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's worked example: a 1500 player (deviation 200, volatility
    /// 0.06, τ 0.5) beats a 1400 (30), loses to a 1550 (100) and to a 1700
    /// (300): 1464.06, 151.52, 0.05999.
    #[test]
    fn the_published_example() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let outcomes = [
            Outcome {
                opponent: opponent(1400.0, 30.0),
                score: 1.0,
            },
            Outcome {
                opponent: opponent(1550.0, 100.0),
                score: 0.0,
            },
            Outcome {
                opponent: opponent(1700.0, 300.0),
                score: 0.0,
            },
        ];
        let after = player.updated_with(&outcomes, 0.5);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let player = Rating {
            rating: 1600.0,
            deviation: 100.0,
            volatility: 0.06,
        };
        let after = player.updated_with(&[], TAU);
        assert_eq!(after.rating, 1600.0);
        assert!(
            after.deviation > 100.0 && after.deviation < 101.0,
            "{after:?}"
        );
    }

    #[test]
    fn solving_raises_the_solver_and_lowers_the_puzzle() {
        let (solver, puzzle) = Rating::attempt(Rating::default(), Rating::default(), true);
        assert!(solver.rating > DEFAULT_RATING && puzzle.rating < DEFAULT_RATING);
        let (solver, puzzle) = Rating::attempt(Rating::default(), Rating::default(), false);
        assert!(solver.rating < DEFAULT_RATING && puzzle.rating > DEFAULT_RATING);
        assert!(solver.deviation < DEFAULT_DEVIATION && solver.deviation >= MIN_DEVIATION);
    }
}
