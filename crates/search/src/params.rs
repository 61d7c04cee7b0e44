//! Every tunable number of the search, in one place. Each was set by a match
//! (STRENGTH.md has the ones that were tested); changing one changes the
//! `bench` node count, and needs an SPRT before it stays.

/// At or below this many stones on the board the search prunes nothing and
/// reduces nothing, so that it proves the game's result.
pub const EXACT_ENDGAME_STONES: u32 = 16;

/// Aspiration windows: from this depth on, the first window is the last
/// score plus or minus `ASPIRATION_DELTA`.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
pub const ASPIRATION_DELTA: i32 = 40;
/// After a failed window, the margin grows by half of itself and this much.
pub const ASPIRATION_GROWTH: i32 = 10;
/// A margin beyond this opens the window fully.
pub const ASPIRATION_FULL_WINDOW: i32 = 1500;

/// Aspiration failures are reported (`lowerbound`/`upperbound`) only in
/// searches that have run this long, in milliseconds.
pub const REPORT_BOUNDS_AFTER_MS: u128 = 1000;

/// Late-move reductions: `ln(depth) * ln(move number) / LMR_DIVISOR`, with
/// both logarithms taken times 100.
pub const LMR_DIVISOR: i32 = 20_000;
/// At the root, reductions start from this depth and this move (0-based).
pub const ROOT_LMR_MIN_DEPTH: i32 = 3;
pub const ROOT_LMR_FIRST_MOVE: usize = 3;
/// Inside the tree, quiet moves are reduced from this depth and this move.
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_FIRST_MOVE: usize = 2;

/// Reverse futility: at depth up to this, a static evaluation this far above
/// beta (per ply, less when improving) returns at once.
pub const RFP_MAX_DEPTH: i32 = 7;
pub const RFP_MARGIN: i32 = 90;
pub const RFP_IMPROVING: i32 = 40;

/// Null move: from this depth, with at least this many legal moves (running
/// out of moves is the game's zugzwang), reduced by `BASE + depth / DIVISOR`.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_MIN_MOVES: u32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 4;

/// Late-move pruning: at depth up to this, quiet moves after
/// `LMP_BASE + depth * depth` quiet ones are skipped.
pub const LMP_MAX_DEPTH: i32 = 3;
pub const LMP_BASE: usize = 2;

/// Futility pruning: at depth up to this, a quiet move is skipped when the
/// static evaluation plus `FUTILITY_BASE + FUTILITY_PER_PLY * depth` does not
/// reach alpha.
pub const FUTILITY_MAX_DEPTH: i32 = 2;
pub const FUTILITY_BASE: i32 = 100;
pub const FUTILITY_PER_PLY: i32 = 150;

/// History: a cutoff's bonus is `HISTORY_SCALE * depth * depth`, at most
/// `HISTORY_MAX_BONUS`; entries saturate towards `HISTORY_LIMIT`.
pub const HISTORY_SCALE: i32 = 8;
pub const HISTORY_MAX_BONUS: i32 = 2000;
pub const HISTORY_LIMIT: i32 = 16_384;

/// Quiescence delta pruning: a capture is skipped when the stand-pat score
/// plus its stones and this margin cannot reach alpha.
pub const QS_DELTA_MARGIN: i32 = 200;

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
/// referee's clock and the engine's. With 50 ms, one game of 1,000 at
/// 1+0.01 on an oversubscribed 2-core machine was lost on time (67 ms used
/// with 53 ms left). Below it the engine lives on its increment and lets the
/// clock grow back.
pub const TIME_RESERVE_MS: u64 = 100;
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
