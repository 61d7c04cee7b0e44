//! Precomputed sowing, in the mover's frame: holes 0..8 are the mover's
//! own, 9..17 the opponent's, in sowing order. The board looks the same to
//! both players, so one table serves both.
//!
//! A move from own hole `h` with `n` stones adds `n / 18` full laps to
//! every hole and one stone to each of the `n % 18` holes from its start
//! (hole `h` itself when `n >= 2`, the next hole when `n == 1`). [`SOWING`]
//! holds that as one word per (hole, n), and [`RANGE_ADD`] the lane words
//! to add for the partial lap.

use crate::{BOARD_HOLES, HOLES, TOTAL_STONES};

const COUNTS: usize = TOTAL_STONES as usize + 1;

/// How the stones of one move are spread, packed in a word.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sowing(u64);

impl Sowing {
    /// The mover's own lanes reached by the partial lap, as a 9-bit mask.
    #[inline(always)]
    pub(crate) const fn own_reached(self) -> u32 {
        (self.0 & 0x1FF) as u32
    }

    /// The opponent's lanes reached by the partial lap, as a 9-bit mask.
    #[inline(always)]
    pub(crate) const fn opponent_reached(self) -> u32 {
        ((self.0 >> 9) & 0x1FF) as u32
    }

    /// Both sides' lanes reached, own in bits 0..8 and the opponent's in 9..17.
    #[inline(always)]
    pub(crate) const fn reached(self) -> u32 {
        (self.0 & 0x3FFFF) as u32
    }

    /// Full laps: stones added to every hole.
    #[inline(always)]
    pub(crate) const fn laps(self) -> u32 {
        ((self.0 >> 18) & 0xF) as u32
    }

    /// The hole (0..17, mover's frame) where the last stone falls.
    #[inline(always)]
    pub(crate) const fn landing(self) -> usize {
        ((self.0 >> 22) & 0x1F) as usize
    }

    /// The landing hole's lane (0..8) on its owner's side.
    #[inline(always)]
    pub(crate) const fn landing_lane(self) -> u32 {
        ((self.0 >> 27) & 0xF) as u32
    }

    /// Whether the last stone falls on the opponent's side.
    #[inline(always)]
    pub(crate) const fn lands_on_opponent(self) -> bool {
        (self.0 >> 31) & 1 != 0
    }

    /// The opponent's hole (0..8) where the last stone lands, or 15 (an
    /// unused lane, outside every 9-bit mask) when it lands on one's own side.
    #[inline(always)]
    pub(crate) const fn capture_hole(self) -> u32 {
        ((self.0 >> 41) & 0xF) as u32
    }

    /// Stones the landing hole receives: one per lap, and the last stone
    /// of the partial lap if there is one.
    #[inline(always)]
    pub(crate) const fn landing_adds(self) -> u32 {
        ((self.0 >> 45) & 0xF) as u32
    }

    /// The index into [`RANGE_ADD`] of the partial lap.
    #[inline(always)]
    pub(crate) const fn range(self) -> usize {
        ((self.0 >> 32) & 0x1FF) as usize
    }

    const fn new(origin: usize, stones: usize) -> Sowing {
        let start = if stones == 1 {
            (origin + 1) % BOARD_HOLES
        } else {
            origin
        };
        let laps = stones / BOARD_HOLES;
        let rest = stones % BOARD_HOLES;
        let landing = (start + stones + BOARD_HOLES - 1) % BOARD_HOLES;
        let mut reached = 0u64;
        let mut i = 0;
        while i < rest {
            reached |= 1 << ((start + i) % BOARD_HOLES);
            i += 1;
        }
        Sowing(
            reached
                | (laps as u64) << 18
                | (landing as u64) << 22
                | ((landing % HOLES) as u64) << 27
                | ((landing / HOLES) as u64) << 31
                | ((start * BOARD_HOLES + rest) as u64) << 32
                | (if landing >= HOLES {
                    landing - HOLES
                } else {
                    15
                } as u64)
                    << 41
                | ((laps + (rest > 0) as usize) as u64) << 45,
        )
    }
}

/// `SOWING[hole][stones]` for the mover's hole 0..8 and 0..=162 stones (0 is unused).
pub(crate) static SOWING: [[Sowing; COUNTS]; HOLES] = {
    let mut table = [[Sowing(0); COUNTS]; HOLES];
    let mut hole = 0;
    while hole < HOLES {
        let mut stones = 1;
        while stones < COUNTS {
            table[hole][stones] = Sowing::new(hole, stones);
            stones += 1;
        }
        hole += 1;
    }
    table
};

/// `RANGE_ADD[start * 18 + len]`: one stone in each hole of the cyclic range
/// `start..start+len` (mover's frame), as lane words `[mover, opponent]`.
pub(crate) static RANGE_ADD: [[u128; 2]; BOARD_HOLES * BOARD_HOLES] = {
    let mut table = [[0u128; 2]; BOARD_HOLES * BOARD_HOLES];
    let mut start = 0;
    while start < BOARD_HOLES {
        let mut len = 0;
        while len < BOARD_HOLES {
            let mut i = 0;
            while i < len {
                let hole = (start + i) % BOARD_HOLES;
                table[start * BOARD_HOLES + len][hole / HOLES] |= 1u128 << (8 * (hole % HOLES));
                i += 1;
            }
            len += 1;
        }
        start += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_stone_goes_to_the_next_hole() {
        let sowing = SOWING[8][1];
        assert_eq!(sowing.landing(), 9);
        assert!(sowing.lands_on_opponent());
        assert_eq!(sowing.opponent_reached(), 1);
        assert_eq!(sowing.own_reached(), 0);
        assert_eq!(sowing.laps(), 0);
    }

    #[test]
    fn first_stone_goes_back_into_the_hole() {
        let sowing = SOWING[5][9];
        assert_eq!(sowing.range(), 5 * BOARD_HOLES + 9);
        assert_eq!(sowing.landing(), 13);
        assert_eq!(sowing.landing_lane(), 4);
        assert_eq!(sowing.own_reached(), 0b1_1110_0000);
        assert_eq!(sowing.opponent_reached(), 0b0_0001_1111);
    }

    #[test]
    fn laps_wrap_round_the_board() {
        let sowing = SOWING[7][40];
        assert_eq!(sowing.laps(), 2);
        assert_eq!(sowing.range(), 7 * BOARD_HOLES + 4);
        assert_eq!(sowing.landing(), 10);
        assert_eq!(sowing.own_reached(), 0b1_1000_0000);
        assert_eq!(sowing.opponent_reached(), 0b11);
        assert_eq!((sowing.capture_hole(), sowing.landing_adds()), (1, 3));
        let own = SOWING[0][36];
        assert_eq!(
            (
                own.laps(),
                own.landing(),
                own.capture_hole(),
                own.landing_adds()
            ),
            (2, 17, 8, 2)
        );
        assert_eq!(RANGE_ADD[sowing.range()][0], (1u128 << 56) | (1u128 << 64));
        assert_eq!(RANGE_ADD[sowing.range()][1], 1 | (1u128 << 8));
    }
}
