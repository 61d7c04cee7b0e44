//! Zobrist keys: one for every count a hole can hold (0..=162), every kazan
//! total, every tuzdik (or none) of each side, and the side to move. Built at
//! compile time from a fixed seed, so keys are the same in every run.

use crate::rng::next;
use crate::{BOARD_HOLES, HOLES, TOTAL_STONES};

const COUNTS: usize = TOTAL_STONES as usize + 1;

/// The key tables.
pub(crate) struct Zobrist {
    pub hole: [[u64; COUNTS]; BOARD_HOLES],
    pub kazan: [[u64; COUNTS]; 2],
    /// Slots 0..8 for a tuzdik on that opponent hole, slot 9 for none.
    pub tuzdik: [[u64; HOLES + 1]; 2],
    pub black_to_move: u64,
}

/// The one key set.
pub(crate) static ZOBRIST: Zobrist = Zobrist::new();

impl Zobrist {
    const fn new() -> Zobrist {
        let mut state = 0x7475_7A64_796B_u64; // "tuzdyk"
        let mut hole = [[0u64; COUNTS]; BOARD_HOLES];
        let mut h = 0;
        while h < BOARD_HOLES {
            let mut c = 0;
            while c < COUNTS {
                hole[h][c] = next(&mut state);
                c += 1;
            }
            h += 1;
        }
        let mut kazan = [[0u64; COUNTS]; 2];
        let mut s = 0;
        while s < 2 {
            let mut c = 0;
            while c < COUNTS {
                kazan[s][c] = next(&mut state);
                c += 1;
            }
            s += 1;
        }
        let mut tuzdik = [[0u64; HOLES + 1]; 2];
        let mut s = 0;
        while s < 2 {
            let mut t = 0;
            while t <= HOLES {
                tuzdik[s][t] = next(&mut state);
                t += 1;
            }
            s += 1;
        }
        let black_to_move = next(&mut state);
        Zobrist {
            hole,
            kazan,
            tuzdik,
            black_to_move,
        }
    }
}
