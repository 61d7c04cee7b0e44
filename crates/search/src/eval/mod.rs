//! Static evaluation: how good a position is for the side to move, in
//! centi-stones (100 per stone of expected final kazan difference).
//!
//! Two evaluations exist and an [`Evaluator`] chooses between them per
//! search: the learned [`network`] (the default) and the hand-written
//! [`classic`] one, kept so that the two can be compared at any time.
//!
//! ```
//! use tuzdyk_rules::Position;
//! use tuzdyk_search::eval::Evaluator;
//!
//! let mut pos = Position::startpos();
//! pos.play(tuzdyk_rules::Move::from_number(6).unwrap());
//! for evaluator in [Evaluator::classic(), Evaluator::default_network()] {
//!     // Both see the position alike for either colour.
//!     assert_eq!(evaluator.evaluate(&pos), evaluator.evaluate(&pos.flipped()));
//! }
//! ```

pub mod classic;
pub mod network;

use std::fmt;
use std::sync::Arc;

use tuzdyk_rules::{MoveGains, Position};

use network::Network;

/// Which evaluation a search uses.
#[derive(Clone)]
pub enum Evaluator {
    /// The hand-written linear evaluation ([`classic`]).
    Classic,
    /// A learned network ([`network`]); shared by every search thread.
    Network(Arc<Network>),
}

impl Evaluator {
    pub fn classic() -> Evaluator {
        Evaluator::Classic
    }

    /// The network built into the program (the classic evaluation if the
    /// program has none).
    pub fn default_network() -> Evaluator {
        Network::built_in().map_or(Evaluator::Classic, Evaluator::Network)
    }

    /// The score of `pos` for the side to move.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            Evaluator::Classic => classic::evaluate(pos),
            Evaluator::Network(network) => network.evaluate(pos),
        }
    }

    /// [`Evaluator::evaluate`] for a caller that already has the side to
    /// move's [`Position::immediate_gains`] (the search, which orders moves
    /// by them); the classic evaluation uses them.
    #[inline]
    pub fn evaluate_given(&self, pos: &Position, gains: &MoveGains) -> i32 {
        match self {
            Evaluator::Classic => classic::evaluate_given(pos, gains),
            Evaluator::Network(network) => network.evaluate(pos),
        }
    }

    /// The evaluation a command line names: `classic`, `network` (the built-in
    /// network) or the path of a network file.
    ///
    /// # Errors
    /// [`ChoiceError`] for `network` in a program without a built-in network,
    /// or a file that cannot be read or is not a network.
    pub fn named(name: &str) -> Result<Evaluator, ChoiceError> {
        match name {
            "classic" => Ok(Evaluator::Classic),
            "network" => Network::built_in()
                .map(Evaluator::Network)
                .ok_or(ChoiceError::NoBuiltIn),
            path => {
                let error = |reason: String| ChoiceError::File {
                    path: path.to_string(),
                    reason,
                };
                let bytes = std::fs::read(path).map_err(|e| error(e.to_string()))?;
                let network = Network::from_bytes(&bytes).map_err(|e| error(e.to_string()))?;
                Ok(Evaluator::Network(Arc::new(network)))
            }
        }
    }

    /// `classic`, or `network <id>`.
    pub fn name(&self) -> String {
        match self {
            Evaluator::Classic => "classic".to_string(),
            Evaluator::Network(network) => format!("network {}", network.id()),
        }
    }
}

/// Why a name does not name an evaluation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChoiceError {
    #[error("network: this program has no built-in network")]
    NoBuiltIn,
    #[error("'{path}': {reason}")]
    File { path: String, reason: String },
}

impl Default for Evaluator {
    /// The evaluation the engine plays with unless told otherwise: the
    /// built-in network (it beat the classic evaluation, STRENGTH.md).
    fn default() -> Self {
        Evaluator::default_network()
    }
}

impl fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl PartialEq for Evaluator {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Evaluator::Classic, Evaluator::Classic) => true,
            (Evaluator::Network(a), Evaluator::Network(b)) => a.id() == b.id(),
            _ => false,
        }
    }
}

impl Eq for Evaluator {}
