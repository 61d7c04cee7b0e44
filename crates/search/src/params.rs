//! Every tunable number of the search, in one place. Each was set by a match
//! (STRENGTH.md has the ones that were tested); changing one changes the
//! `bench` node count, and needs an SPRT before it stays.
//!
//! The numbers SPSA may tune (`tuzdyk spsa`, STRENGTH.md) are declared once,
//! in the `tunables!` list below: name, default, range and SPSA's `c_end`
//! and `r_end`. The release build reads each as the plain `const` it always
//! was; the tuning build (`--features tune`) reads it from an atomic that the
//! engine's `setoption` sets (`set_tunable`). The search reads both through
//! `param!`, so the release build's code is the same as with the constants
//! written in.

/// One number SPSA may tune: its default (the `const` of the same name), the
/// range it is kept in, and fishtest's SPSA step sizes at the end of a run
/// (`c_end`: the perturbation; `r_end`: the learning rate, `a_end / c_end²`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunable {
    pub name: &'static str,
    pub default: i64,
    pub min: i64,
    pub max: i64,
    pub c_end: f64,
    pub r_end: f64,
}

/// Declares the tunables, once each: the `const`, its entry in
/// [`TUNABLES`], and in the tuning build its atomic and its reader in
/// `tuned`. `NAME: type = default, min..=max, c_end c, r_end r;`
macro_rules! tunables {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident: $ty:ty = $default:literal, $min:literal..=$max:literal,
            c_end $c_end:literal, r_end $r_end:literal;
    )*) => {
        $(
            $(#[doc = $doc])*
            pub const $name: $ty = $default;
        )*

        /// Every tunable, in declaration order (the order of the tuning
        /// build's options and of `tuzdyk spsa`'s parameters).
        pub const TUNABLES: &[Tunable] = &[$(
            Tunable {
                name: stringify!($name),
                default: $default,
                min: $min,
                max: $max,
                c_end: $c_end,
                r_end: $r_end,
            },
        )*];

        /// Each tunable's `const`, as the search's type gives it, for the
        /// test that the list and the constants agree.
        #[cfg(test)]
        const DECLARED: &[(&str, i64)] = &[$((stringify!($name), $name as i64)),*];

        /// The tuning build's values: one atomic per tunable, read by
        /// `param!` through the function of the tunable's name.
        #[cfg(feature = "tune")]
        pub mod tuned {
            use std::sync::atomic::{AtomicI32, Ordering};

            mod cells {
                use std::sync::atomic::AtomicI32;
                $(pub static $name: AtomicI32 = AtomicI32::new($default);)*
            }

            /// The cells in [`super::TUNABLES`]'s order.
            pub(super) static CELLS: &[&AtomicI32] = &[$(&cells::$name),*];

            $(
                #[allow(non_snake_case)]
                #[inline(always)]
                pub fn $name() -> $ty {
                    cells::$name.load(Ordering::Relaxed) as $ty
                }
            )*
        }
    };
}

/// A tunable's value where the search uses it: the `const` in the release
/// build, its atomic in the tuning build.
#[cfg(not(feature = "tune"))]
macro_rules! param {
    ($name:ident) => {
        $crate::params::$name
    };
}
#[cfg(feature = "tune")]
macro_rules! param {
    ($name:ident) => {
        $crate::params::tuned::$name()
    };
}
pub(crate) use param;

/// Sets the tunable at `index` of [`TUNABLES`] (tuning build only), kept
/// within its range. Whole process: every search after it uses the value.
/// Returns the value set, or `None` for an index past the list.
#[cfg(feature = "tune")]
pub fn set_tunable(index: usize, value: i64) -> Option<i64> {
    let tunable = TUNABLES.get(index)?;
    let value = value.clamp(tunable.min, tunable.max);
    tuned::CELLS[index].store(value as i32, std::sync::atomic::Ordering::Relaxed);
    Some(value)
}

/// The value the tunable at `index` has now (tuning build only).
#[cfg(feature = "tune")]
pub fn tunable_value(index: usize) -> Option<i64> {
    tuned::CELLS
        .get(index)
        .map(|cell| i64::from(cell.load(std::sync::atomic::Ordering::Relaxed)))
}

/// At or below this many stones on the board the search prunes nothing and
/// reduces nothing, so that it proves the game's result.
pub const EXACT_ENDGAME_STONES: u32 = 16;

/// Aspiration windows: from this depth on, the first window is the last
/// score plus or minus `ASPIRATION_DELTA`; after a failed window, the
/// margin grows by half of itself and `ASPIRATION_GROWTH`.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// A margin beyond this opens the window fully.
pub const ASPIRATION_FULL_WINDOW: i32 = 1500;

/// Aspiration failures are reported (`lowerbound`/`upperbound`) only in
/// searches that have run this long, in milliseconds.
pub const REPORT_BOUNDS_AFTER_MS: u128 = 1000;

/// At the root, reductions start from this depth and this move (0-based).
pub const ROOT_LMR_MIN_DEPTH: i32 = 3;
pub const ROOT_LMR_FIRST_MOVE: usize = 3;
/// Inside the tree, quiet moves are reduced from this depth and this move.
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_FIRST_MOVE: usize = 2;

/// Null move: from this depth, with at least this many legal moves (running
/// out of moves is the game's zugzwang), reduced by `NMP_BASE_REDUCTION +
/// depth / NMP_DEPTH_DIVISOR`.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_MIN_MOVES: u32 = 3;

/// Late-move pruning: at depth up to this, quiet moves after
/// `LMP_BASE + depth * depth` quiet ones are skipped.
pub const LMP_MAX_DEPTH: i32 = 3;

/// Futility pruning: at depth up to this, a quiet move is skipped when the
/// static evaluation plus `FUTILITY_BASE + FUTILITY_PER_PLY * depth` does not
/// reach alpha.
pub const FUTILITY_MAX_DEPTH: i32 = 2;

/// History entries saturate towards this.
pub const HISTORY_LIMIT: i32 = 16_384;

// The five pruning and reduction margins (LMR_DIVISOR, RFP_MARGIN,
// RFP_IMPROVING, FUTILITY_BASE, FUTILITY_PER_PLY) take twice the `c_end` the
// others would: at the smaller steps 8,000 games moved none of them beyond
// the run's noise (STRENGTH.md, "The first run"), and a step's Elo, the
// signal, grows with its size while the noise does not.
tunables! {
    /// The first aspiration window's margin on each side of the last score.
    ASPIRATION_DELTA: i32 = 40, 10..=120, c_end 6.0, r_end 0.002;
    /// After a failed window the margin grows by half of itself and this.
    ASPIRATION_GROWTH: i32 = 10, 0..=60, c_end 4.0, r_end 0.002;
    /// Late-move reductions: `ln(depth) * ln(move number) / LMR_DIVISOR`,
    /// with both logarithms taken times 100. 10,000 was tried and reverted:
    /// it passed an SPRT at 5+0.05 (+32.0 [+13.6, +50.7], 620 games) but
    /// measured -5.2 [-29.5, +19.0] over 400 games at 10+0.1, the clock the
    /// engine is judged at (STRENGTH.md, "Along the gradient"). The range
    /// reaches down to 5,000 for the next tuning run.
    LMR_DIVISOR: i32 = 20_000, 5_000..=40_000, c_end 3000.0, r_end 0.002;
    /// Reverse futility: at depth up to this, a static evaluation
    /// `RFP_MARGIN` per ply above beta (`RFP_IMPROVING` less when
    /// improving) returns at once.
    RFP_MAX_DEPTH: i32 = 7, 3..=12, c_end 1.0, r_end 0.002;
    RFP_MARGIN: i32 = 90, 30..=200, c_end 16.0, r_end 0.002;
    RFP_IMPROVING: i32 = 40, 0..=120, c_end 16.0, r_end 0.002;
    /// The null move's reduction: `NMP_BASE_REDUCTION + depth /
    /// NMP_DEPTH_DIVISOR`.
    NMP_BASE_REDUCTION: i32 = 3, 1..=6, c_end 1.0, r_end 0.002;
    NMP_DEPTH_DIVISOR: i32 = 4, 2..=8, c_end 1.0, r_end 0.002;
    /// Late-move pruning's base: `LMP_BASE + depth * depth` quiet moves.
    LMP_BASE: usize = 2, 0..=8, c_end 1.0, r_end 0.002;
    /// Futility pruning's margin: `FUTILITY_BASE + FUTILITY_PER_PLY * depth`.
    FUTILITY_BASE: i32 = 100, 0..=300, c_end 30.0, r_end 0.002;
    FUTILITY_PER_PLY: i32 = 150, 50..=300, c_end 30.0, r_end 0.002;
    /// History: a cutoff's bonus is `HISTORY_SCALE * depth * depth`, at most
    /// `HISTORY_MAX_BONUS`.
    HISTORY_SCALE: i32 = 8, 1..=32, c_end 1.0, r_end 0.002;
    HISTORY_MAX_BONUS: i32 = 2000, 500..=8000, c_end 200.0, r_end 0.002;
    /// Quiescence delta pruning: a capture is skipped when the stand-pat
    /// score plus its stones and this margin cannot reach alpha.
    QS_DELTA_MARGIN: i32 = 200, 50..=500, c_end 20.0, r_end 0.002;
}

/// Lazy-SMP vote: each thread's weight is `(score - lowest + VOTE_OFFSET) *
/// depth`.
pub const VOTE_OFFSET: i32 = 14;

/// Helper threads skip every other depth after this one.
pub const HELPER_SKIP_FROM_DEPTH: u32 = 2;

/// With one legal move, a timed search stops after this depth.
pub const SINGLE_MOVE_DEPTH: u32 = 4;

/// Time: the soft limit is scaled by how many iterations the best move has
/// stayed the same (0, 1, 2-4, 5+) ...
pub const STABILITY_SCALE: [f64; 4] = [1.4, 1.1, 0.9, 0.7];
/// ... and by `1 + INSTABILITY_PER_CHANGE * changes`, at most
/// `INSTABILITY_MAX_CHANGES` changes of the best move.
pub const INSTABILITY_PER_CHANGE: f64 = 0.05;
pub const INSTABILITY_MAX_CHANGES: u32 = 6;

/// Clock time always kept back: what a busy machine may take between the
/// referee's clock and the engine's. Below it the engine lives on its
/// increment and lets the clock grow back. With 50 ms, one game of 1,000 at
/// 1+0.01 on an oversubscribed 2-core machine was lost on time (67 ms used
/// with 53 ms left); with 100 ms, one in 1,000 (61 ms used, 38 left) and
/// then two in 1,000, and the engine that also kept back the time lost
/// outside the search (`LOST_TIME_FACTOR`) came within 12 ms of its flag.
/// A stall comes before anything can be learnt from it, so the first one
/// must fit in the reserve.
pub const TIME_RESERVE_MS: u64 = 200;
/// ... or this share of the clock, if larger.
pub const TIME_RESERVE_DIVISOR: u32 = 20;
/// Moves left in the game, estimated as the stones on the board divided by
/// this, within the range below: about 40 moves each at the start, fewer as
/// the board empties. (A third and a fifth were both tried and lost.)
pub const MOVES_LEFT_DIVISOR: u32 = 4;
pub const MOVES_LEFT_MIN: u32 = 12;
pub const MOVES_LEFT_MAX: u32 = 40;
/// `movestogo` is taken within this range.
pub const MOVES_TO_GO_MAX: u32 = 60;
/// The share of the increment planned into each move.
pub const INCREMENT_SHARE: f64 = 0.75;
/// A move may spend, beyond its share, this part of the coming increment
/// (a half) ...
pub const INCREMENT_BONUS_DIVISOR: u32 = 2;
/// ... but never more than this part of what is left (a quarter), so that a
/// low clock grows back.
pub const INCREMENT_BONUS_CAP_DIVISOR: u32 = 4;
/// The soft limit is at most this part of the spendable time (a half),
/// plus the increment bonus.
pub const SOFT_LIMIT_DIVISOR: u32 = 2;
/// No move plans to use more than `CLOCK_SHARE_NUMERATOR /
/// CLOCK_SHARE_DENOMINATOR` (three quarters, as protocol.md says) of the
/// clock left after `MoveOverhead`; the hard limit is at most that share
/// of the spendable time, plus the increment bonus.
pub const CLOCK_SHARE_NUMERATOR: u32 = 3;
pub const CLOCK_SHARE_DENOMINATOR: u32 = 4;
/// The hard limit: this many times the planned share of a move.
pub const HARD_LIMIT_SHARES: u32 = 4;
/// Time the referee's clock takes beyond what a search planned (a
/// descheduled process, a slow pipe) is added to `MoveOverhead` for the next
/// moves of the game: this many times the largest such loss seen, ...
pub const LOST_TIME_FACTOR: u32 = 2;
/// ... forgetting this share of it at each move (after 20 moves a third is
/// left) ...
pub const LOST_TIME_DECAY: f64 = 0.95;
/// ... and never more than this, in milliseconds. Measured at 1+0.01 with
/// two games on two cores (`tuzdyk match ... --concurrency 2`, 300 games,
/// 42,202 moves): the referee charged a move 0.1 ms more than the engine
/// measured at the median, 3.7 ms at the 99th percentile and 25 ms at
/// most, and one move in about 100,000 lost 50-60 ms.
pub const LOST_TIME_MAX_MS: u64 = 1000;

/// Nodes a thread counts before adding them to the shared counter (and
/// checking the clock).
pub const NODE_BATCH: u64 = 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_is_declared_once_within_its_range_with_its_const_as_default() {
        assert!(TUNABLES.len() >= 10, "{} tunables", TUNABLES.len());
        assert_eq!(TUNABLES.len(), DECLARED.len());
        for (tunable, (name, value)) in TUNABLES.iter().zip(DECLARED) {
            assert_eq!(tunable.name, *name);
            assert_eq!(tunable.default, *value, "{name}");
            assert!(
                tunable.min <= tunable.default && tunable.default <= tunable.max,
                "{name}: {} outside {}..={}",
                tunable.default,
                tunable.min,
                tunable.max
            );
            assert!(tunable.c_end > 0.0 && tunable.r_end > 0.0, "{name}");
            // A step of c_end stays inside the range, or SPSA only clips.
            assert!(
                2.0 * tunable.c_end <= (tunable.max - tunable.min) as f64,
                "{name}"
            );
            let twice = TUNABLES.iter().filter(|t| t.name == tunable.name).count();
            assert_eq!(twice, 1, "{name} declared twice");
        }
        // Spot checks that the list names the constants the search uses.
        assert_eq!(
            DECLARED[0],
            ("ASPIRATION_DELTA", i64::from(ASPIRATION_DELTA))
        );
        assert!(DECLARED.contains(&("LMR_DIVISOR", i64::from(LMR_DIVISOR))));
        assert!(DECLARED.contains(&("LMP_BASE", LMP_BASE as i64)));
    }

    #[cfg(feature = "tune")]
    #[test]
    fn the_tuning_build_reads_what_was_set_kept_in_range() {
        let index = TUNABLES
            .iter()
            .position(|t| t.name == "QS_DELTA_MARGIN")
            .expect("QS_DELTA_MARGIN is tunable");
        assert_eq!(param!(QS_DELTA_MARGIN), QS_DELTA_MARGIN);
        assert_eq!(set_tunable(index, 321), Some(321));
        assert_eq!(param!(QS_DELTA_MARGIN), 321);
        assert_eq!(tunable_value(index), Some(321));
        assert_eq!(set_tunable(index, 1_000_000), Some(TUNABLES[index].max));
        assert_eq!(set_tunable(TUNABLES.len(), 1), None);
        set_tunable(index, QS_DELTA_MARGIN.into());
        assert_eq!(param!(QS_DELTA_MARGIN), QS_DELTA_MARGIN);
    }
}
