//! Training positions as the trainer keeps them in memory: the switched-on
//! features, the phase bucket and the target, read once from the positions.

use tuzdyk_rules::{Position, Side};
use tuzdyk_search::eval::network::features::{self, MAX_ACTIVE};

use super::loss::Target;

/// One position, ready for the network.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    active: [u16; MAX_ACTIVE],
    len: u8,
    pub bucket: u8,
    pub target: Target,
}

impl Sample {
    /// `score` is the search's score for the side to move, in centi-stones;
    /// `white_points` the game's result for White (1, 0.5 or 0).
    pub fn new(position: &Position, score: i32, white_points: f32) -> Sample {
        let found = features::active(position);
        let mut active = [0u16; MAX_ACTIVE];
        active[..found.indices().len()].copy_from_slice(found.indices());
        let result = match position.side_to_move() {
            Side::White => white_points,
            Side::Black => 1.0 - white_points,
        };
        Sample {
            active,
            len: found.indices().len() as u8,
            bucket: features::bucket(position) as u8,
            target: Target {
                score: score as f32,
                result,
            },
        }
    }

    /// The switched-on features.
    pub fn active(&self) -> &[u16] {
        &self.active[..self.len as usize]
    }
}
