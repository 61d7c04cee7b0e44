//! A small deterministic random number generator (SplitMix64), for
//! reproducible self-play, opening shuffles, level choices and the Zobrist
//! keys, and a seed from the clock ([`clock_seed`]) for what should not
//! repeat. Not for anything that needs unpredictability.

use std::ops::RangeInclusive;

/// One SplitMix64 step: advances `state` and returns the next output. A
/// `const fn`, so the Zobrist keys can be built at compile time.
pub const fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Nanoseconds of the system clock: a seed that differs from run to run,
/// for what should not repeat (a level's choices from game to game, the
/// side of `tuzdyk play --side random`). 0 if the clock is before 1970.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// A seeded generator.
///
/// ```
/// use tuzdyk_rules::rng::SplitMix64;
///
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(9) < 9);
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        next(&mut self.0)
    }

    /// A number in `0..bound` (0 when `bound` is 0), by multiply-shift, so
    /// without modulo bias worth noticing.
    pub fn below(&mut self, bound: usize) -> usize {
        ((self.next_u64() as u128 * bound as u128) >> 64) as usize
    }

    /// A number in `range` (both ends included): `start + below(end - start + 1)`.
    ///
    /// # Panics
    ///
    /// If the range is empty (`end < start`).
    ///
    /// ```
    /// use tuzdyk_rules::rng::SplitMix64;
    ///
    /// let mut rng = SplitMix64::new(3);
    /// assert!((2..=6).contains(&rng.in_range(2..=6)));
    /// assert_eq!(rng.in_range(4..=4), 4);
    /// ```
    pub fn in_range(&mut self, range: RangeInclusive<usize>) -> usize {
        let (start, end) = range.into_inner();
        assert!(start <= end, "empty range {start}..={end}");
        start + self.below(end - start + 1)
    }

    /// One of `items`, each as likely: `items[below(items.len())]`.
    ///
    /// # Panics
    ///
    /// If `items` is empty.
    ///
    /// ```
    /// use tuzdyk_rules::rng::SplitMix64;
    ///
    /// let mut rng = SplitMix64::new(3);
    /// assert!(["a", "b", "c"].contains(rng.pick(&["a", "b", "c"])));
    /// ```
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        assert!(!items.is_empty(), "pick from no items");
        &items[self.below(items.len())]
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Shuffles `items` (Fisher-Yates) with a generator seeded by `seed`.
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for i in (1..items.len()).rev() {
        let j = rng.below(i + 1);
        items.swap(i, j);
    }
}
