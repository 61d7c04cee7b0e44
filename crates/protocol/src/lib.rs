//! The tuzdyk protocol (`protocol.md`): the vocabulary both sides of the
//! wire share, and a client for the side that drives an engine. Nothing
//! here knows how an engine searches.
//!
//! - [`command`]: a typed parser of the lines an engine reads;
//! - [`go`]: the parameters of `go`;
//! - [`info`]: `info` and `bestmove` lines and their scores;
//! - [`options`]: tuzdyk's option table;
//! - [`level`]: the playing levels and their rating estimates;
//! - [`line`]: reading a line of input with a bound on memory;
//! - [`client`]: starting an engine process and talking to it.
//!
//! ```
//! use tuzdyk_protocol::{BestMove, InfoLine, Score};
//!
//! let info = InfoLine::parse("info depth 4 score cp 81 pv 6 9 8 1").unwrap();
//! assert_eq!(info.score, Some(Score::Centistones(81)));
//! let best: BestMove = "bestmove 6 ponder 9".parse().unwrap();
//! assert_eq!(best.mv, info.pv.first().copied());
//! ```

pub mod client;
pub mod command;
pub mod go;
pub mod info;
pub mod level;
pub mod line;
pub mod options;

pub use client::{ClientError, EngineId, EngineProcess, EngineSpec, LineSender, SearchReport};
pub use command::{Command, CommandError, Query};
pub use go::{Clock, Go, GoError};
pub use info::{BestMove, BestMoveError, Bound, InfoLine, Score};
pub use level::{Level, Rating};
pub use options::{
    BUILT_IN_NETWORK, EVALUATIONS, EngineOption, OPTIONS, OptionError, OptionKind, OptionSpec,
    OptionValue,
};

/// Which dialect a handshake chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `uci` ... `uciok`; `bestmove` may carry `ponder`.
    Uci,
    /// `ugi` ... `ugiok`; `bestmove` is always two tokens.
    Ugi,
}

/// Longest accepted input line; longer lines are rejected whole.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
