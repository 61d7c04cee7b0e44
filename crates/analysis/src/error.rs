//! The crate's one error: why an analysis (a search, a review, exercises)
//! could not finish.

use tuzdyk_notation::excerpt;
use tuzdyk_protocol::ClientError;

/// A position the engine rejected (another engine may reject what this one
/// accepts): the ply of the game (0-based) and the engine's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    pub ply: usize,
    pub message: String,
}

/// Why an analysis stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// The engine cannot be started, exited, hung or cannot be written to.
    #[error(transparent)]
    Engine(#[from] ClientError),
    /// The engine rejected a position of the game (`info string error`).
    #[error("ply {}: the engine rejected the position: {}", .0.ply + 1, excerpt(&.0.message))]
    Rejected(Rejected),
    /// The caller asked to stop (a cancelled job, output nobody reads).
    #[error("stopped")]
    Stopped,
}
