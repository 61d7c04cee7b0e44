//! tuzdyk's analysis library, shared by the tools (`analyse`, `rating`)
//! and the GUI: positions searched through the protocol client
//! ([`Searcher`], an engine process like any other program would run),
//! games reviewed move by move ([`review_game`]: losses, marks, accuracy),
//! and exercises made from a player's marked moves ([`exercises`], answers
//! judged by [`judge`]), and the Glicko-2 ratings of puzzles and their
//! solver ([`glicko`]), and puzzles mined from games ([`puzzles`]). It never links the search, and prints nothing.
//!
//! Every failure is one [`AnalysisError`].

mod error;
mod exercise;
pub mod glicko;
mod limits;
pub mod puzzles;
pub mod review;
mod searcher;

pub use error::{AnalysisError, Rejected};
pub use exercise::{Exercise, Verdict, exercises, judge};
pub use limits::SearchLimits;
pub use review::{
    DEFAULT_THRESHOLDS, Mark, MoveReview, PlayerStats, ReviewEngine, ReviewedMove, capped,
    review_game, review_move, score_move,
};
pub use searcher::{Reviewer, Searcher};
