//! Static evaluation: how good a position is for the side to move, in
//! centi-stones (100 per stone of expected final kazan difference).
//!
//! The evaluation is linear in a fixed list of [`Feature`]s, each measured as
//! "side to move minus opponent", with one weight for the middlegame and one
//! for the endgame, blended by the stones still on the board. The weights are
//! named constants in [`Weights::DEFAULT`] so that a tuning pass can replace
//! them; [`Evaluation`] keeps every term so the `eval` command can show them.
//!
//! ```
//! use tuzdyk::board::Position;
//! use tuzdyk::eval::evaluate;
//!
//! // The start is symmetric but the side to move has the initiative.
//! assert!(evaluate(&Position::startpos()).abs() < 300);
//! ```

use crate::board::{HOLES, Position, Side, TOTAL_STONES};

/// One measured property of a position, side to move minus opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Feature {
    /// Stones in the kazans.
    Kazan,
    /// Owning a tuzdik on the opponent's hole 1..8 (one feature per hole).
    Tuzdik1,
    Tuzdik2,
    Tuzdik3,
    Tuzdik4,
    Tuzdik5,
    Tuzdik6,
    Tuzdik7,
    Tuzdik8,
    /// Stones on one's own nine holes (they fall to their owner when a side runs dry).
    SideStones,
    /// Holes one can move from.
    Mobility,
    /// The largest capture available at once (for the side to move, what it
    /// can take now; for the opponent, what it threatens next).
    BestCapture,
    /// A tuzdik can be made at once.
    TuzdikThreat,
    /// Holes holding 18 or more stones: a full lap, which feeds both sides.
    HeavyHoles,
    /// Stones that the side to move's best capture would take, counted for
    /// the side to move only (the initiative of moving first).
    Initiative,
}

/// Number of features.
pub const FEATURES: usize = Feature::Initiative as usize + 1;

impl Feature {
    pub const ALL: [Feature; FEATURES] = [
        Feature::Kazan,
        Feature::Tuzdik1,
        Feature::Tuzdik2,
        Feature::Tuzdik3,
        Feature::Tuzdik4,
        Feature::Tuzdik5,
        Feature::Tuzdik6,
        Feature::Tuzdik7,
        Feature::Tuzdik8,
        Feature::SideStones,
        Feature::Mobility,
        Feature::BestCapture,
        Feature::TuzdikThreat,
        Feature::HeavyHoles,
        Feature::Initiative,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Feature::Kazan => "kazan",
            Feature::Tuzdik1 => "tuzdik-1",
            Feature::Tuzdik2 => "tuzdik-2",
            Feature::Tuzdik3 => "tuzdik-3",
            Feature::Tuzdik4 => "tuzdik-4",
            Feature::Tuzdik5 => "tuzdik-5",
            Feature::Tuzdik6 => "tuzdik-6",
            Feature::Tuzdik7 => "tuzdik-7",
            Feature::Tuzdik8 => "tuzdik-8",
            Feature::SideStones => "side-stones",
            Feature::Mobility => "mobility",
            Feature::BestCapture => "best-capture",
            Feature::TuzdikThreat => "tuzdik-threat",
            Feature::HeavyHoles => "heavy-holes",
            Feature::Initiative => "initiative",
        }
    }
}

/// A middlegame and an endgame weight per feature, in centi-stones per unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub middlegame: [i32; FEATURES],
    pub endgame: [i32; FEATURES],
}

impl Weights {
    /// The weights the engine plays with. Tuzdik values follow one expert
    /// estimate (16, 20, 18, 22, 24, 24, 22, 24 stones for holes 1..8) in the
    /// middlegame and shrink as fewer stones are left to fall into them.
    pub const DEFAULT: Weights = Weights {
        middlegame: [
            100, 1600, 2000, 1800, 2200, 2400, 2400, 2200, 2400, 10, 20, 40, 600, 20, 30,
        ],
        endgame: [
            100, 400, 500, 450, 550, 600, 600, 550, 600, 60, 40, 50, 200, 0, 40,
        ],
    };
}

/// Blend weight of the middlegame, from 0 (no stones on the board) to
/// `PHASE_SCALE` (all 162 on the board).
pub const PHASE_SCALE: i32 = 256;

/// The features of a position and the score they give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluation {
    pub features: [i32; FEATURES],
    /// 0..=`PHASE_SCALE`: how much of the middlegame weight applies.
    pub phase: i32,
    /// Per-feature contribution in centi-stones.
    pub terms: [i32; FEATURES],
    /// The sum of the terms.
    pub score: i32,
}

/// Measures every feature, side to move minus opponent.
pub fn features(pos: &Position) -> [i32; FEATURES] {
    let us = pos.side_to_move();
    let them = us.opponent();
    let mut f = [0i32; FEATURES];
    f[Feature::Kazan as usize] = pos.kazan(us) as i32 - pos.kazan(them) as i32;
    for (side, sign) in [(us, 1), (them, -1)] {
        if let Some(hole) = pos.tuzdik(side) {
            f[Feature::Tuzdik1 as usize + hole as usize] += sign;
        }
    }
    f[Feature::SideStones as usize] =
        pos.stones_on_side(us) as i32 - pos.stones_on_side(them) as i32;
    let our_moves = pos.movable_holes(us);
    let their_moves = pos.movable_holes(them);
    f[Feature::Mobility as usize] = our_moves.count() as i32 - their_moves.count() as i32;
    let our_gains = pos.immediate_gains(us);
    let their_gains = pos.immediate_gains(them);
    f[Feature::BestCapture as usize] = our_gains.best() as i32 - their_gains.best() as i32;
    f[Feature::TuzdikThreat as usize] =
        our_gains.can_make_tuzdik() as i32 - their_gains.can_make_tuzdik() as i32;
    let heavy = |side: Side| (0..HOLES).filter(|&h| pos.stones(side, h) >= 18).count() as i32;
    f[Feature::HeavyHoles as usize] = heavy(us) - heavy(them);
    f[Feature::Initiative as usize] = our_gains.best() as i32;
    f
}

/// The middlegame share of the blend for a position.
pub fn phase(pos: &Position) -> i32 {
    let on_board =
        TOTAL_STONES as i32 - pos.kazan(Side::White) as i32 - pos.kazan(Side::Black) as i32;
    on_board * PHASE_SCALE / TOTAL_STONES as i32
}

/// Evaluates with the given weights, keeping every term.
pub fn evaluate_with(pos: &Position, weights: &Weights) -> Evaluation {
    let features = features(pos);
    let phase = phase(pos);
    let mut terms = [0i32; FEATURES];
    for i in 0..FEATURES {
        let blended = weights.middlegame[i] * phase + weights.endgame[i] * (PHASE_SCALE - phase);
        terms[i] = features[i] * blended / PHASE_SCALE;
    }
    Evaluation {
        features,
        phase,
        terms,
        score: terms.iter().sum(),
    }
}

/// The score of a position for the side to move, in centi-stones.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &Weights::DEFAULT).score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::notation::tfen;

    #[test]
    fn evaluation_is_antisymmetric_in_the_side_to_move() {
        // The same board seen from each side: kazan and side terms flip sign.
        let white =
            tfen::parse("9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 S 1")
                .unwrap();
        let black =
            tfen::parse("9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 1")
                .unwrap();
        let w = features(&white);
        let b = features(&black);
        assert_eq!(w[Feature::Kazan as usize], 10);
        assert_eq!(b[Feature::Kazan as usize], -10);
        assert_eq!(
            w[Feature::SideStones as usize],
            -b[Feature::SideStones as usize]
        );
    }

    #[test]
    fn a_capture_raises_the_capturers_score() {
        let start = Position::startpos();
        let mut after = start;
        after.play(Move::from_number(6).unwrap());
        // After White takes 10, Black to move is worse off than White was.
        assert!(
            evaluate(&after) < -500,
            "{:?}",
            evaluate_with(&after, &Weights::DEFAULT)
        );
    }

    #[test]
    fn tuzdik_features_count_each_owner() {
        let pos =
            tfen::parse("1S,1S,5S,7S,6S,18S,6S,1,t/1S,2S,20S,7S,19S,t,1S,2S,1 42 24 S 11").unwrap();
        let f = features(&pos);
        // South (to move) owns North's hole 1; North owns South's hole 6.
        assert_eq!(f[Feature::Tuzdik1 as usize], 1);
        assert_eq!(f[Feature::Tuzdik6 as usize], -1);
    }
}
