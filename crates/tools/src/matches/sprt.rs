//! The sequential probability ratio test, as fishtest computes it.
//!
//! Model: the generalized SPRT (GSPRT) on the pentanomial counts of
//! colour-swapped game pairs, with *logistic* Elo: hypothesis H0 says the
//! expected score per game is `L(elo0)`, H1 says `L(elo1)`, with
//! `L(x) = 1 / (1 + 10^(-x/400))`. Under each hypothesis the pair-score
//! distribution is the maximum-likelihood one with that mean (Proposition 1.1
//! of Van den Bergh, "support_MLE_multinomial"); the LLR is the log of the
//! ratio of their likelihoods of the observed pairs. This is fishtest's
//! `LLR_logistic` (stat_util.py), including its regularization: a count of 0
//! is taken as 0.001 so that extreme results do not divide by zero.
//!
//! The test stops with H1 accepted when the LLR reaches
//! `ln((1 - beta) / alpha)`, with H0 accepted when it falls to
//! `ln(beta / (1 - alpha))`.

use crate::elo::score_from_elo;

/// The name of the model, for reports.
pub const MODEL: &str = "GSPRT on pentanomial pairs, logistic Elo (fishtest LLR_logistic)";

/// Why `--sprt` was rejected.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("--sprt: expected key=value, got '{0}'")]
    NotKeyValue(String),
    #[error("--sprt: '{key}' needs a number, got '{value}'")]
    NotANumber { key: String, value: String },
    #[error("--sprt: unknown key '{0}' (expected elo0, elo1, alpha, beta)")]
    UnknownKey(String),
    #[error("--sprt: {0}=<Elo> is missing")]
    Missing(&'static str),
    #[error("--sprt: elo0 ({elo0}) must be below elo1 ({elo1})")]
    Order { elo0: f64, elo1: f64 },
    #[error("--sprt: elo0 and elo1 must lie within -2000..2000")]
    EloRange,
    #[error("--sprt: {name} must lie strictly between 0 and 0.5, got {value}")]
    Probability { name: &'static str, value: f64 },
}

/// The test's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Neither bound reached.
    Continue,
    /// The lower bound: the first engine is not `elo1` better (H0).
    AcceptH0,
    /// The upper bound: the first engine is not only `elo0` better (H1).
    AcceptH1,
}

impl Decision {
    pub fn describe(self) -> &'static str {
        match self {
            Decision::Continue => "no decision",
            Decision::AcceptH0 => "H0 accepted",
            Decision::AcceptH1 => "H1 accepted",
        }
    }
}

impl Sprt {
    /// Reads `elo0=<x> elo1=<y> [alpha=<a>] [beta=<b>]` (alpha and beta
    /// default to 0.05).
    ///
    /// # Errors
    /// [`SprtError`] naming the key or value at fault.
    pub fn parse(words: &[String]) -> Result<Sprt, SprtError> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for word in words.iter().flat_map(|w| w.split_whitespace()) {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(word.to_string()))?;
            let number: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| SprtError::NotANumber {
                    key: key.to_string(),
                    value: value.to_string(),
                })?;
            match key {
                "elo0" => elo0 = Some(number),
                "elo1" => elo1 = Some(number),
                "alpha" => alpha = number,
                "beta" => beta = number,
                _ => return Err(SprtError::UnknownKey(key.to_string())),
            }
        }
        let elo0 = elo0.ok_or(SprtError::Missing("elo0"))?;
        let elo1 = elo1.ok_or(SprtError::Missing("elo1"))?;
        if elo0 >= elo1 {
            return Err(SprtError::Order { elo0, elo1 });
        }
        if elo0.abs() >= 2000.0 || elo1.abs() >= 2000.0 {
            return Err(SprtError::EloRange);
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(SprtError::Probability { name, value });
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The lower (accept H0) and upper (accept H1) bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pentanomial counts.
    pub fn llr(&self, pentanomial: &[u64; 5]) -> f64 {
        llr_logistic(self.elo0, self.elo1, pentanomial)
    }

    pub fn decision(&self, llr: f64) -> Decision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::AcceptH1
        } else if llr <= lower {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }
}

/// fishtest's `LLR_logistic`: the GSPRT log-likelihood ratio of H1 (score
/// `L(elo1)`) against H0 (`L(elo0)`) for `counts` of results whose scores are
/// spread evenly over 0..1 (3 counts: loss, draw, win; 5 counts: the
/// pentanomial of pairs). 0 when there are no results.
pub fn llr_logistic(elo0: f64, elo1: f64, counts: &[u64]) -> f64 {
    if counts.len() < 2 || counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let (total, pdf) = results_to_pdf(counts);
    let s0 = score_from_elo(elo0);
    let s1 = score_from_elo(elo1);
    let (Some(p0), Some(p1)) = (mle_expected(&pdf, s0), mle_expected(&pdf, s1)) else {
        return 0.0;
    };
    let mean: f64 = pdf
        .iter()
        .zip(p0.iter().zip(&p1))
        .map(|(&(_, p), (&q0, &q1))| p * (q1.ln() - q0.ln()))
        .sum();
    total * mean
}

/// The empirical distribution: (score, probability) pairs, zero counts
/// regularized to 0.001; and the (regularized) number of results.
fn results_to_pdf(counts: &[u64]) -> (f64, Vec<(f64, f64)>) {
    const EPSILON: f64 = 1e-3;
    let regularized: Vec<f64> = counts.iter().map(|&c| (c as f64).max(EPSILON)).collect();
    let total: f64 = regularized.iter().sum();
    let last = (counts.len() - 1) as f64;
    let pdf = regularized
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / last, c / total))
        .collect();
    (total, pdf)
}

/// The distribution closest (maximum likelihood) to `pdf` whose mean is
/// `s`: `p_i / (1 + x (a_i - s))` where `x` solves the secular equation
/// `sum p_i (a_i - s) / (1 + x (a_i - s)) = 0`. `None` if `s` is not
/// strictly inside the range of scores.
fn mle_expected(pdf: &[(f64, f64)], s: f64) -> Option<Vec<f64>> {
    let shifted: Vec<(f64, f64)> = pdf.iter().map(|&(a, p)| (a - s, p)).collect();
    let x = secular(&shifted)?;
    Some(shifted.iter().map(|&(a, p)| p / (1.0 + x * a)).collect())
}

/// Solves `sum p_i a_i / (1 + x a_i) = 0` for `x` in `(-1/max a, -1/min a)`,
/// where the left side falls from +inf to -inf: by bisection.
fn secular(pdf: &[(f64, f64)]) -> Option<f64> {
    const EPSILON: f64 = 1e-9;
    let v = pdf.iter().map(|&(a, _)| a).fold(f64::INFINITY, f64::min);
    let w = pdf
        .iter()
        .map(|&(a, _)| a)
        .fold(f64::NEG_INFINITY, f64::max);
    if !(v < 0.0 && w > 0.0) {
        return None;
    }
    let f = |x: f64| -> f64 { pdf.iter().map(|&(a, p)| p * a / (1.0 + x * a)).sum() };
    let (mut low, mut high) = (-1.0 / w + EPSILON, -1.0 / v - EPSILON);
    for _ in 0..200 {
        let middle = (low + high) / 2.0;
        if middle <= low || middle >= high {
            break;
        }
        if f(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    Some((low + high) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference values from a Python one-off that copies fishtest's
    /// `stat_util.LLR_logistic` (results_to_pdf with epsilon 1e-3,
    /// MLE_expected, secular), with scipy's brentq replaced by 300 steps of
    /// bisection:
    ///
    /// ```text
    /// def L(x): return 1/(1+10**(-x/400))
    /// def results_to_pdf(results):
    ///     r=[max(1e-3,float(x)) for x in results]; N=sum(r); l=len(r)
    ///     return N,[(i/(l-1), r[i]/N) for i in range(l)]
    /// def secular(pdf):
    ///     v=min(a for a,p in pdf); w=max(a for a,p in pdf)
    ///     lo=-1/w+1e-9; hi=-1/v-1e-9; f=lambda x: sum(p*a/(1+x*a) for a,p in pdf)
    ///     for _ in range(300):
    ///         mid=(lo+hi)/2
    ///         if f(mid)>0: lo=mid
    ///         else: hi=mid
    ///     return (lo+hi)/2
    /// def mle(pdfhat,s):
    ///     x=secular([(a-s,p) for a,p in pdfhat]); return [p/(1+x*(a-s)) for a,p in pdfhat]
    /// def llr(elo0,elo1,results):
    ///     N,pdf=results_to_pdf(results); p0,p1=mle(pdf,L(elo0)),mle(pdf,L(elo1))
    ///     return N*sum(pdf[i][1]*(log(p1[i])-log(p0[i])) for i in range(len(pdf)))
    /// ```
    const REFERENCE: [(f64, f64, &[u64], f64); 8] = [
        (0.0, 10.0, &[10, 20, 40, 25, 5], -0.437_486_232_891),
        (0.0, 5.0, &[100, 800, 2000, 850, 120], 1.511_473_302_466),
        (-5.0, 5.0, &[3, 1, 7, 2, 0], -0.348_847_271_643),
        (0.0, 10.0, &[5, 0, 0, 0, 0], -0.146_041_509_145),
        (0.0, 10.0, &[0, 0, 0, 0, 5], 0.141_896_656_920),
        (0.0, 10.0, &[0, 0, 7, 0, 0], -0.198_563_218_229),
        (0.0, 10.0, &[30, 40, 50], 0.790_255_950_140),
        (0.0, 10.0, &[1, 0, 0, 0, 0], -0.029_255_446_370),
    ];

    #[test]
    fn llr_matches_fishtest_reference_values() {
        for (elo0, elo1, counts, expected) in REFERENCE {
            let llr = llr_logistic(elo0, elo1, counts);
            assert!(
                (llr - expected).abs() < 1e-7,
                "{elo0} {elo1} {counts:?}: {llr} != {expected}"
            );
        }
    }

    #[test]
    fn llr_is_close_to_the_normal_approximation_for_many_pairs() {
        // LLR ~ N (s1 - s0) (2 mean - s0 - s1) / (2 var), pair means and variance.
        let counts = [100u64, 800, 2000, 850, 120];
        let n: f64 = counts.iter().sum::<u64>() as f64;
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean: f64 = (0..5).map(|i| values[i] * counts[i] as f64).sum::<f64>() / n;
        let var: f64 = (0..5)
            .map(|i| counts[i] as f64 * (values[i] - mean).powi(2))
            .sum::<f64>()
            / n;
        let (s0, s1) = (score_from_elo(0.0), score_from_elo(5.0));
        let approx = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        let exact = llr_logistic(0.0, 5.0, &counts);
        assert!((exact - approx).abs() < 0.05, "{exact} vs {approx}");
    }

    #[test]
    fn empty_and_extreme_results_do_not_panic() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert_eq!(sprt.llr(&[0; 5]), 0.0);
        assert_eq!(sprt.decision(0.0), Decision::Continue);
        let losses = sprt.llr(&[1000, 0, 0, 0, 0]);
        let wins = sprt.llr(&[0, 0, 0, 0, 1000]);
        assert!(losses.is_finite() && losses < sprt.bounds().0);
        assert!(wins.is_finite() && wins > sprt.bounds().1);
        assert_eq!(sprt.decision(losses), Decision::AcceptH0);
        assert_eq!(sprt.decision(wins), Decision::AcceptH1);
        assert!(llr_logistic(0.0, 10.0, &[0, 0, 1_000_000, 0, 0]).is_finite());
    }

    #[test]
    fn bounds_are_the_wald_bounds() {
        let sprt = Sprt::parse(&["elo0=0 elo1=10".to_string()]).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!((lower + 2.944_438_979_166_44).abs() < 1e-12);
        assert!((upper - 2.944_438_979_166_44).abs() < 1e-12);
        let asymmetric = Sprt::parse(&[
            "elo0=-3".to_string(),
            "elo1=1".to_string(),
            "alpha=0.1".to_string(),
            "beta=0.2".to_string(),
        ])
        .unwrap();
        assert_eq!(asymmetric.elo0, -3.0);
        let (lower, upper) = asymmetric.bounds();
        assert!((lower - (0.2f64 / 0.9).ln()).abs() < 1e-12);
        assert!((upper - 8f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn bad_parameters_are_rejected() {
        for bad in [
            "elo0=10 elo1=0",
            "elo0=0",
            "elo1=5",
            "elo0=0 elo1=5 alpha=0",
            "elo0=0 elo1=5 beta=0.7",
            "elo0=0 elo1=5 gamma=1",
            "elo0=x elo1=5",
            "elo0 elo1=5",
        ] {
            assert!(Sprt::parse(&[bad.to_string()]).is_err(), "{bad}");
        }
    }
}
