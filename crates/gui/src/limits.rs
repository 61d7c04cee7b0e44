//! Every limit and pace of the server in one place: what a page may send,
//! how many games and pages are kept, how long the engine is given. The
//! page learns the ones it needs from `/config.js` ([`PageLimits`]), so
//! nothing here is copied into the page's scripts.

use std::ops::RangeInclusive;
use std::time::Duration;

use serde::Serialize;

/// Games kept at once when `--max-games` is not given.
pub const DEFAULT_MAX_GAMES: u16 = 8;
/// What `--max-games` accepts.
pub const MAX_GAMES_RANGE: RangeInclusive<i64> = 1..=64;
/// Pages connected at once, over all games.
pub const MAX_CONNECTIONS: usize = 32;
/// The largest TFEN or game record a page may send.
pub const MAX_UPLOAD_BYTES: usize = 256 * 1024;
/// The largest message a page may send; larger ones close the connection.
/// Uploads up to four times the limit still get a clear answer.
pub const MAX_MESSAGE_BYTES: usize = 4 * MAX_UPLOAD_BYTES;
/// Messages waiting for a slow page before it gets a fresh state instead.
pub const BROADCAST_BACKLOG: usize = 64;

/// A time per move a page may ask for, in ms.
pub const MOVETIME_RANGE: RangeInclusive<u64> = 50..=60_000;
/// The times per move the page offers, in ms.
pub const MOVETIME_CHOICES: [u64; 4] = [500, 1000, 3000, 10_000];
/// The time bound of a move at a level (whose node cap usually ends it first).
pub const LEVEL_MOVETIME_MS: u64 = 1000;
/// The hint's time: a full-strength move.
pub const HINT_MOVETIME_MS: u64 = 1000;
/// Each position of a review is searched to this depth.
pub const REVIEW_DEPTH: u32 = 10;
/// Inaccuracy, mistake and blunder thresholds of the review, in
/// centistones; an exercise accepts a move losing less than the first.
pub const THRESHOLDS: [i32; 3] = [
    tuzdyk_analysis::DEFAULT_THRESHOLDS[0] as i32,
    tuzdyk_analysis::DEFAULT_THRESHOLDS[1] as i32,
    tuzdyk_analysis::DEFAULT_THRESHOLDS[2] as i32,
];
/// Longest a review's search of one position may take.
pub const REVIEW_POSITION_TIMEOUT: Duration = Duration::from_secs(120);
/// The pause between moves of an engine-vs-engine game, to watch it.
pub const ENGINES_PACE: Duration = Duration::from_millis(700);
/// MultiPV lines of the analysis.
pub const ANALYSIS_LINES: usize = 3;
/// The most moves of an engine line a page may ask to see on the board.
pub const MAX_LINE_MOVES: usize = 64;

/// The longest name of a study, in characters.
pub const MAX_STUDY_NAME_CHARS: usize = 100;
/// The longest comment of a study, in characters.
pub const MAX_STUDY_COMMENT_CHARS: usize = 4000;
/// The most studies or stored mistakes a list sends, the newest first.
pub const MAX_LISTED: usize = 200;

/// How long an engine may take to answer `bestmove` after `stop`.
pub const STOP_GRACE: Duration = Duration::from_secs(5);
/// How long the engine's handshake may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);
/// Tries of one job, each on a freshly started engine after the first.
pub const ATTEMPTS: u32 = 3;

/// How long a timed search may take before the engine counts as hung.
pub fn hang_timeout(movetime_ms: u64) -> Duration {
    Duration::from_millis(movetime_ms.saturating_mul(2)) + Duration::from_secs(5)
}

/// The limits a page needs to know before it asks.
#[derive(Clone, Debug, Serialize)]
pub struct PageLimits {
    pub upload_bytes: usize,
    pub movetime_choices_ms: [u64; 4],
    pub movetime_range_ms: [u64; 2],
    pub max_line_moves: usize,
    pub study_name_chars: usize,
    pub study_comment_chars: usize,
}

impl PageLimits {
    pub fn get() -> PageLimits {
        PageLimits {
            upload_bytes: MAX_UPLOAD_BYTES,
            movetime_choices_ms: MOVETIME_CHOICES,
            movetime_range_ms: [*MOVETIME_RANGE.start(), *MOVETIME_RANGE.end()],
            max_line_moves: MAX_LINE_MOVES,
            study_name_chars: MAX_STUDY_NAME_CHARS,
            study_comment_chars: MAX_STUDY_COMMENT_CHARS,
        }
    }
}
