//! The evaluation weights, fitted by Texel tuning (do not edit by hand:
//! run the tuner again; see STRENGTH.md for the rounds and their matches).
//!
//! Round 2: 679,220 positions from 4,000 self-play games of the round-1
//! engine, `tuzdyk tune --games 4000 --nodes 3000 --seed 2 --iterations
//! 3000`, fitted from the round-1 weights. The last four features came
//! after this round and have weight 0.

use super::{FEATURES, Weights};

pub const DEFAULT: Weights = Weights {
    middlegame: MIDDLEGAME,
    endgame: ENDGAME,
};

#[rustfmt::skip]
const MIDDLEGAME: [i32; FEATURES] = [
       100, // kazan
      1061, // tuzdik-1
      3427, // tuzdik-2
      3440, // tuzdik-3
      3316, // tuzdik-4
      3865, // tuzdik-5
      5201, // tuzdik-6
      5940, // tuzdik-7
      3694, // tuzdik-8
       -77, // side-stones
       332, // mobility
        22, // our-capture
        33, // their-capture
       914, // our-tuzdik-threat
       -64, // their-tuzdik-threat
       415, // heavy-holes
     -1242, // waiting-moves
        26, // hole-1-stones
      -121, // hole-2-stones
      -103, // hole-3-stones
       -79, // hole-4-stones
       -20, // hole-5-stones
       -18, // hole-6-stones
         5, // hole-7-stones
        -4, // hole-8-stones
        30, // hole-9-stones
         0, // staying-stones
         0, // our-capturing-moves
         0, // their-capturing-moves
         0, // kazan-near-win
];

#[rustfmt::skip]
const ENDGAME: [i32; FEATURES] = [
       100, // kazan
      2736, // tuzdik-1
      1557, // tuzdik-2
      2626, // tuzdik-3
      3615, // tuzdik-4
      3588, // tuzdik-5
      3523, // tuzdik-6
      2949, // tuzdik-7
      2291, // tuzdik-8
       129, // side-stones
      -113, // mobility
       102, // our-capture
       -73, // their-capture
      2288, // our-tuzdik-threat
      -527, // their-tuzdik-threat
        14, // heavy-holes
      1613, // waiting-moves
      -193, // hole-1-stones
       108, // hole-2-stones
        71, // hole-3-stones
        72, // hole-4-stones
       -31, // hole-5-stones
       -55, // hole-6-stones
       -47, // hole-7-stones
       -37, // hole-8-stones
       -24, // hole-9-stones
         0, // staying-stones
         0, // our-capturing-moves
         0, // their-capturing-moves
         0, // kazan-near-win
];
