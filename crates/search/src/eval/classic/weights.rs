//! The evaluation weights, fitted by Texel tuning (do not edit by hand:
//! run the tuner again; see STRENGTH.md for the rounds and their matches).
//!
//! Round 3: 687,583 positions from 4,000 self-play games of the round-2
//! engine (`tuzdyk tune --games 4000 --nodes 3000 --seed 3`), fitted from the
//! round-2 weights with `--iterations 4000`; the first round to fit the last
//! four features.

use super::{FEATURES, Weights};

pub const DEFAULT: Weights = Weights {
    middlegame: MIDDLEGAME,
    endgame: ENDGAME,
};

#[rustfmt::skip]
const MIDDLEGAME: [i32; FEATURES] = [
       100, // kazan
       680, // tuzdik-1
      3537, // tuzdik-2
      3179, // tuzdik-3
      3764, // tuzdik-4
      4487, // tuzdik-5
      5288, // tuzdik-6
      5291, // tuzdik-7
      4339, // tuzdik-8
       -68, // side-stones
       385, // mobility
        38, // our-capture
        22, // their-capture
      1166, // our-tuzdik-threat
        92, // their-tuzdik-threat
       362, // heavy-holes
     -1208, // waiting-moves
        34, // hole-1-stones
      -106, // hole-2-stones
       -84, // hole-3-stones
       -65, // hole-4-stones
       -51, // hole-5-stones
       -46, // hole-6-stones
         5, // hole-7-stones
         9, // hole-8-stones
         0, // hole-9-stones
       -62, // staying-stones
       -44, // our-capturing-moves
        31, // their-capturing-moves
       -38, // kazan-near-win
];

#[rustfmt::skip]
const ENDGAME: [i32; FEATURES] = [
       100, // kazan
      3203, // tuzdik-1
      1990, // tuzdik-2
      3303, // tuzdik-3
      4133, // tuzdik-4
      4294, // tuzdik-5
      4236, // tuzdik-6
      3723, // tuzdik-7
      2664, // tuzdik-8
       113, // side-stones
       188, // mobility
        25, // our-capture
       -38, // their-capture
      1881, // our-tuzdik-threat
      -720, // their-tuzdik-threat
       324, // heavy-holes
      1241, // waiting-moves
      -256, // hole-1-stones
        92, // hole-2-stones
        61, // hole-3-stones
        33, // hole-4-stones
         5, // hole-5-stones
        -9, // hole-6-stones
       -49, // hole-7-stones
       -44, // hole-8-stones
         3, // hole-9-stones
       229, // staying-stones
       309, // our-capturing-moves
      -248, // their-capturing-moves
       236, // kazan-near-win
];
