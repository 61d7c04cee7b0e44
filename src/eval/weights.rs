//! The evaluation weights. Hand-set starting values: tuzdik values follow
//! one expert estimate (16, 20, 18, 22, 24, 24, 22, 24 stones for the
//! opponent's holes 1..8) in the middlegame and shrink as fewer stones are
//! left to fall into them. `tuzdyk tune` rewrites this file.

use super::{FEATURES, Weights};

pub const DEFAULT: Weights = Weights {
    middlegame: MIDDLEGAME,
    endgame: ENDGAME,
};

#[rustfmt::skip]
const MIDDLEGAME: [i32; FEATURES] = [
    100,                                            // kazan
    1600, 2000, 1800, 2200, 2400, 2400, 2200, 2400, // tuzdik 1..8
    5,                                              // side stones
    20,                                             // mobility
    60, -30,                                        // our / their best capture
    800, -400,                                      // our / their tuzdik threat
    20,                                             // heavy holes
    0,                                              // waiting moves
    0, 0, 0, 0, 0, 0, 0, 0, 0,                      // stones in holes 1..9
];

#[rustfmt::skip]
const ENDGAME: [i32; FEATURES] = [
    100,                                            // kazan
    400, 500, 450, 550, 600, 600, 550, 600,         // tuzdik 1..8
    60,                                             // side stones
    40,                                             // mobility
    80, -40,                                        // our / their best capture
    200, -100,                                      // our / their tuzdik threat
    0,                                              // heavy holes
    30,                                             // waiting moves
    0, 0, 0, 0, 0, 0, 0, 0, 0,                      // stones in holes 1..9
];
