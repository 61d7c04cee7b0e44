//! The rules of Togyz Kumalak (Toguz Korgool), with no knowledge of notation,
//! evaluation or search: `docs/rules.md` states them.
//!
//! - [`Position`]: the board, sowing, captures, tuzdiks, the end of the game;
//! - [`Game`]: a start position and the checked moves played from it;
//! - [`IllegalMove`]: the one explanation of a move that cannot be played;
//! - [`MovePreview`]: what a move would do, told before it is played;
//! - [`perft`]: move-path counting, which checks the rules against published
//!   numbers;
//! - [`rng`]: a small seeded generator for everything reproducible.
//!
//! Holes are indexed 0..17 in sowing order (White/South 1..9, then
//! Black/North 1..9); a [`Move`] is a hole 0..8 of the side to move and is
//! written 1..9.
//!
//! ```
//! use tuzdyk_rules::{Move, Position, Side};
//!
//! let mut pos = Position::startpos();
//! assert_eq!(pos.legal_moves().count(), 9);
//! let outcome = pos.play(Move::from_number(6).unwrap());
//! assert_eq!(outcome.captured, 10); // the last stone makes 10 on Black's hole 5
//! assert_eq!(outcome.landing_hole().number, 5);
//! assert_eq!(pos.kazan(Side::White), 10);
//! ```

mod game;
mod lanes;
pub mod perft;
mod position;
mod preview;
pub mod rng;
mod sowing;
mod types;
mod zobrist;

pub use game::{Game, Ply, ReplayError};
pub use position::{Position, PositionError, PositionParts};
pub use preview::{MovePreview, StoneDrop, TuzdikRefusal};
pub use types::{
    BOARD_HOLES, GameEnd, GameResult, HOLES, Hole, IllegalMove, Move, MoveGains, MoveOutcome,
    MoveSet, Side, TOTAL_STONES, WINNING_KAZAN,
};
