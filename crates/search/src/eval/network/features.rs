//! The network's inputs: which of its input features a position switches on,
//! all from the side to move's view. The trainer and the engine both use
//! this one encoding.
//!
//! - Each of the 18 holes (the mover's nine first, then the opponent's, each
//!   numbered from its owner's left) has one feature per stone count
//!   0..=35 (two full laps), and one for 36 or more: where a hole's last
//!   stone lands depends on its exact count, so counts are one-hot rather
//!   than a number.
//! - Each kazan has one feature per count 0..=81 (a kazan at 82 has ended
//!   the game): the mover's and the opponent's.
//! - Each player's tuzdik, by the hole it stands on (1..8; hole 9 is never
//!   one): the mover's (on the opponent's side) and the opponent's.
//!
//! About 20 of the 846 features are on in any position: 18 holes, two
//! kazans and up to two tuzdiks.

use tuzdyk_rules::{HOLES, Position, Side, TOTAL_STONES, WINNING_KAZAN};

/// Counts with a feature of their own; larger counts share the last one.
pub const COUNT_BUCKETS: usize = 37;
/// Features of the 18 holes.
const HOLE_FEATURES: usize = 2 * HOLES * COUNT_BUCKETS;
/// Kazan counts with a feature.
const KAZAN_VALUES: usize = WINNING_KAZAN as usize;
const OUR_KAZAN: usize = HOLE_FEATURES;
const THEIR_KAZAN: usize = OUR_KAZAN + KAZAN_VALUES;
/// Holes that can be a tuzdik (1..8).
const TUZDIK_HOLES: usize = HOLES - 1;
const OUR_TUZDIK: usize = THEIR_KAZAN + KAZAN_VALUES;
const THEIR_TUZDIK: usize = OUR_TUZDIK + TUZDIK_HOLES;

/// Input features in all.
pub const INPUTS: usize = THEIR_TUZDIK + TUZDIK_HOLES;
/// The most features a position switches on.
pub const MAX_ACTIVE: usize = 2 * HOLES + 2 + 2;

/// Output buckets: each has its own output layer, chosen by the stones still
/// on the board (the game's phase).
pub const BUCKETS: usize = 8;

/// The features `pos` switches on, at most [`MAX_ACTIVE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Active {
    indices: [u16; MAX_ACTIVE],
    len: usize,
}

impl Active {
    /// The switched-on feature indices.
    pub fn indices(&self) -> &[u16] {
        &self.indices[..self.len]
    }

    fn push(&mut self, index: usize) {
        self.indices[self.len] = index as u16;
        self.len += 1;
    }
}

/// The features of `pos`, from the side to move's view.
///
/// ```
/// use tuzdyk_rules::Position;
/// use tuzdyk_search::eval::network::features::{self, INPUTS};
///
/// let active = features::active(&Position::startpos());
/// assert_eq!(active.indices().len(), 20); // 18 holes and two kazans
/// assert!(active.indices().iter().all(|&f| (f as usize) < INPUTS));
/// ```
#[inline]
pub fn active(pos: &Position) -> Active {
    let us = pos.side_to_move();
    let them = us.opponent();
    let mut active = Active {
        indices: [0; MAX_ACTIVE],
        len: 0,
    };
    for (row, side) in [us, them].into_iter().enumerate() {
        for hole in 0..HOLES {
            let count = (pos.stones(side, hole) as usize).min(COUNT_BUCKETS - 1);
            active.push((row * HOLES + hole) * COUNT_BUCKETS + count);
        }
    }
    let kazan = |side: Side| (pos.kazan(side) as usize).min(KAZAN_VALUES - 1);
    active.push(OUR_KAZAN + kazan(us));
    active.push(THEIR_KAZAN + kazan(them));
    if let Some(hole) = pos.tuzdik(us) {
        active.push(OUR_TUZDIK + (hole as usize).min(TUZDIK_HOLES - 1));
    }
    if let Some(hole) = pos.tuzdik(them) {
        active.push(THEIR_TUZDIK + (hole as usize).min(TUZDIK_HOLES - 1));
    }
    active
}

/// The output bucket of `pos`: 0 with the fewest stones on the board.
#[inline]
pub fn bucket(pos: &Position) -> usize {
    let per_bucket = TOTAL_STONES as usize / BUCKETS + 1;
    (pos.stones_on_board() as usize / per_bucket).min(BUCKETS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tuzdyk_notation::tfen;

    #[test]
    fn the_layout_has_no_gaps_or_overlaps() {
        assert_eq!(INPUTS, 18 * 37 + 2 * 82 + 2 * 8);
        assert_eq!(bucket(&Position::startpos()), BUCKETS - 1);
        let p1 =
            tfen::parse("1S,1S,5S,7S,6S,18S,6S,1,t/1S,2S,20S,7S,19S,t,1S,2S,1 42 24 S 11").unwrap();
        let active = active(&p1);
        assert_eq!(active.indices().len(), MAX_ACTIVE);
        let mut seen = active.indices().to_vec();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), MAX_ACTIVE);
        // South (to move) owns North's hole 1, North owns South's hole 6.
        assert!(active.indices().contains(&(OUR_TUZDIK as u16)));
        assert!(active.indices().contains(&(THEIR_TUZDIK as u16 + 5)));
        assert!(active.indices().contains(&(OUR_KAZAN as u16 + 42)));
    }

    #[test]
    fn the_features_are_the_side_to_moves() {
        // The same board seen by the other player: the colours swapped.
        let white = tfen::parse("1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 S 74").unwrap();
        let black = white.flipped();
        assert_eq!(
            tfen::write(&black),
            "1S,2,t,1S,2S,3/t,3,1S,2S,1S,8S,1S 68 77 N 74"
        );
        let sorted = |pos: &Position| {
            let mut f = active(pos).indices().to_vec();
            f.sort_unstable();
            f
        };
        assert_eq!(sorted(&white), sorted(&black));
    }
}
