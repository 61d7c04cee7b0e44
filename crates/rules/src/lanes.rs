//! Lane arithmetic: a side's nine holes as 8-bit lanes of one `u128`
//! (lanes 9..15 unused and always zero), and the few word operations the
//! rules need on them.

/// 0x01 in each of the nine lanes of one side.
pub(crate) const LANE_ONES: u128 = 0x01_0101_0101_0101_0101;
/// 0x7f in each of the nine lanes.
const LANE_LOW7: u128 = LANE_ONES * 0x7F;
/// 0x80 in each of the nine lanes.
const LANE_HIGH: u128 = LANE_ONES * 0x80;

/// Lane `index` (0..15) of a word. Lanes 0..7 are the low half, 8..15 the
/// high half; splitting the shift keeps it to one 64-bit shift.
#[inline(always)]
pub(crate) const fn lane(word: u128, index: usize) -> u8 {
    let half = if index < 8 {
        word as u64
    } else {
        (word >> 64) as u64
    };
    (half >> (8 * (index & 7))) as u8
}

/// `LANE_CLEAR[i]`: every bit set but lane i's (index 9, an unused lane,
/// clears nothing that is set).
pub(crate) static LANE_CLEAR: [u128; 16] = {
    let mut table = [0u128; 16];
    let mut i = 0;
    while i < 16 {
        table[i] = !(0xFFu128 << (8 * i));
        i += 1;
    }
    table
};

/// An upper bound of the largest lane of a word (below twice the largest).
#[inline(always)]
pub(crate) const fn lane_bound(word: u128) -> u32 {
    let mut folded = word | (word >> 64);
    folded |= folded >> 32;
    folded |= folded >> 16;
    folded |= folded >> 8;
    let byte = folded as u8;
    (1u32 << (8 - byte.leading_zeros())) - 1
}

/// The mask of lanes (bit i for lane i) that are not zero.
#[inline]
pub(crate) const fn nonzero_lanes(word: u128) -> u16 {
    let high = (((word & LANE_LOW7) + LANE_LOW7) | word) & LANE_HIGH;
    let low = high as u64;
    // Gather bit 7 of lanes 0..7 into bits 0..7, lane 8 separately.
    let gathered = ((low >> 7) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    (gathered as u16) | ((((high >> 71) & 1) as u16) << 8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HOLES;

    #[test]
    fn nonzero_lanes_finds_every_nonzero_value() {
        for value in 0..=255u128 {
            for index in 0..HOLES {
                let word = value << (8 * index);
                let expected = if value == 0 { 0 } else { 1 << index };
                assert_eq!(nonzero_lanes(word), expected, "value {value} lane {index}");
            }
        }
        assert_eq!(nonzero_lanes(LANE_ONES * 162), 0x1FF);
    }

    #[test]
    fn lane_bound_is_at_least_the_largest_lane() {
        for value in 0..=162u128 {
            for index in 0..HOLES {
                let bound = lane_bound(value << (8 * index));
                assert!(bound as u128 >= value && (bound as u128) < 2 * value.max(1));
            }
        }
    }
}
