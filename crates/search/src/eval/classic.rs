//! The hand-written evaluation: how good a position is for the side to
//! move, in centi-stones (100 per stone of expected final kazan difference).
//!
//! It is linear in a fixed list of features (see [`FEATURES`]),
//! most measured as "side to move minus opponent", with one weight for the
//! middlegame and one for the endgame, blended by the stones still on the
//! board. The weights are the named constants of [`Weights::DEFAULT`], which
//! the tuner (`tuzdyk tune`) replaces; [`Evaluation`] keeps every term so
//! the `eval` command can show them.
//!
//! ```
//! use tuzdyk_rules::Position;
//! use tuzdyk_search::eval::classic::{FEATURE_NAMES, Weights, evaluate, evaluate_with, feature};
//!
//! let e = evaluate_with(&Position::startpos(), &Weights::DEFAULT);
//! assert_eq!(e.score, e.terms.iter().sum::<i32>());
//! assert_eq!(e.score, evaluate(&Position::startpos()));
//! // The kazans are level and every side-difference feature is 0.
//! assert_eq!(e.features[feature::KAZAN], 0);
//! assert_eq!(FEATURE_NAMES[feature::KAZAN], "kazan");
//! ```

mod weights;

use tuzdyk_rules::{HOLES, MoveGains, Position, Side, TOTAL_STONES};

/// Indices of the features.
pub mod feature {
    /// Kazan difference. Its weight is fixed at 100 so that scores stay in
    /// centi-stones; the tuner leaves it alone.
    pub const KAZAN: usize = 0;
    /// Owning a tuzdik on the opponent's hole 1..8: `TUZDIK + hole - 1`
    /// (+1 for ours, -1 for theirs).
    pub const TUZDIK: usize = 1;
    /// Stones on one's own nine holes (they fall to their owner when a
    /// side runs dry).
    pub const SIDE_STONES: usize = 9;
    /// Holes one can move from.
    pub const MOBILITY: usize = 10;
    /// The largest capture the side to move can make now.
    pub const OUR_CAPTURE: usize = 11;
    /// The largest capture the opponent threatens (if it were to move).
    pub const THEIR_CAPTURE: usize = 12;
    /// The side to move can make a tuzdik now.
    pub const OUR_TUZDIK_THREAT: usize = 13;
    /// The opponent threatens to make a tuzdik.
    pub const THEIR_TUZDIK_THREAT: usize = 14;
    /// Holes with 18 or more stones (a full lap, a hoard).
    pub const HEAVY_HOLES: usize = 15;
    /// Waiting moves: moves whose stones all stay on one's own side (they
    /// give the opponent nothing, which matters when the board runs dry).
    pub const WAITING_MOVES: usize = 16;
    /// Stones in one's own hole h minus the opponent's hole h, h = 1..9:
    /// `HOLE_STONES + h - 1`.
    pub const HOLE_STONES: usize = 17;
    /// Stones in one's own holes that no move can carry across: a hole
    /// whose whole sowing stays on one's own side (its stones wait there
    /// for the end-of-game sweep).
    pub const STAYING_STONES: usize = 26;
    /// Moves of the side to move that capture or make a tuzdik.
    pub const OUR_CAPTURING_MOVES: usize = 27;
    /// Moves of the opponent that would capture or make a tuzdik.
    pub const THEIR_CAPTURING_MOVES: usize = 28;
    /// Kazan stones beyond 70, one's own minus the opponent's: the last
    /// stones before 82 decide more than earlier ones.
    pub const KAZAN_NEAR_WIN: usize = 29;
    /// Number of features.
    pub const COUNT: usize = 30;
}

/// Number of features.
pub const FEATURES: usize = feature::COUNT;

/// The features' names, as the `eval` command prints them.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "kazan",
    "tuzdik-1",
    "tuzdik-2",
    "tuzdik-3",
    "tuzdik-4",
    "tuzdik-5",
    "tuzdik-6",
    "tuzdik-7",
    "tuzdik-8",
    "side-stones",
    "mobility",
    "our-capture",
    "their-capture",
    "our-tuzdik-threat",
    "their-tuzdik-threat",
    "heavy-holes",
    "waiting-moves",
    "hole-1-stones",
    "hole-2-stones",
    "hole-3-stones",
    "hole-4-stones",
    "hole-5-stones",
    "hole-6-stones",
    "hole-7-stones",
    "hole-8-stones",
    "hole-9-stones",
    "staying-stones",
    "our-capturing-moves",
    "their-capturing-moves",
    "kazan-near-win",
];

/// A middlegame and an endgame weight per feature, in centi-stones per unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub middlegame: [i32; FEATURES],
    pub endgame: [i32; FEATURES],
}

impl Weights {
    /// The weights the engine plays with (see `classic/weights.rs` for where
    /// they come from).
    pub const DEFAULT: Weights = weights::DEFAULT;
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

/// The most stones hole `h` (0..8) can sow without one leaving its side:
/// 9 - h (a single stone goes to the next hole, several start in the hole
/// itself), and none from hole 9, whose single stone crosses.
const MOST_STAYING: [u8; HOLES] = [9, 8, 7, 6, 5, 4, 3, 2, 0];

/// Whether `n > 0` stones sown from hole `h` (0..8) all land on their own
/// side.
fn stays_on_side(h: usize, n: u8) -> bool {
    // n = 0 wraps to 255 and fails the comparison.
    n.wrapping_sub(1) < MOST_STAYING[h]
}

/// Waiting moves of `side` (moves whose stones all stay on its side) and
/// the stones in those holes.
fn waiting(pos: &Position, side: Side) -> (i32, i32) {
    let mut moves = 0;
    let mut stones = 0;
    for h in 0..HOLES {
        let n = pos.stones(side, h);
        let stays = stays_on_side(h, n) as i32;
        moves += stays;
        stones += stays * n as i32;
    }
    (moves, stones)
}

/// Measures every feature, side to move minus opponent.
pub fn features(pos: &Position) -> [i32; FEATURES] {
    features_given(pos, &pos.immediate_gains(pos.side_to_move()))
}

/// [`features`], given the side to move's [`Position::immediate_gains`].
fn features_given(pos: &Position, our_gains: &MoveGains) -> [i32; FEATURES] {
    use feature::*;
    let us = pos.side_to_move();
    let them = us.opponent();
    let mut f = [0i32; FEATURES];
    f[KAZAN] = pos.kazan(us) as i32 - pos.kazan(them) as i32;
    for (side, sign) in [(us, 1), (them, -1)] {
        if let Some(hole) = pos.tuzdik(side) {
            f[TUZDIK + hole as usize] += sign;
        }
    }
    f[SIDE_STONES] = pos.stones_on_side(us) as i32 - pos.stones_on_side(them) as i32;
    f[MOBILITY] = pos.movable_holes(us).count() as i32 - pos.movable_holes(them).count() as i32;
    let their_gains = pos.immediate_gains(them);
    f[OUR_CAPTURE] = our_gains.best() as i32;
    f[THEIR_CAPTURE] = their_gains.best() as i32;
    f[OUR_TUZDIK_THREAT] = our_gains.can_make_tuzdik() as i32;
    f[THEIR_TUZDIK_THREAT] = their_gains.can_make_tuzdik() as i32;
    for h in 0..HOLES {
        let (ours, theirs) = (pos.stones(us, h) as i32, pos.stones(them, h) as i32);
        f[HEAVY_HOLES] += (ours >= 18) as i32 - (theirs >= 18) as i32;
        f[HOLE_STONES + h] = ours - theirs;
    }
    let (our_waiting, our_staying) = waiting(pos, us);
    let (their_waiting, their_staying) = waiting(pos, them);
    f[WAITING_MOVES] = our_waiting - their_waiting;
    f[STAYING_STONES] = our_staying - their_staying;
    let capturing = |gains: &MoveGains| gains.stones.iter().filter(|&&g| g > 0).count() as i32;
    f[OUR_CAPTURING_MOVES] = capturing(our_gains);
    f[THEIR_CAPTURING_MOVES] = capturing(&their_gains);
    let beyond_70 = |side: Side| (pos.kazan(side) as i32 - 70).max(0);
    f[KAZAN_NEAR_WIN] = beyond_70(us) - beyond_70(them);
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
    score_features(pos, features(pos), weights)
}

fn score_features(pos: &Position, features: [i32; FEATURES], weights: &Weights) -> Evaluation {
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

/// [`evaluate`] for a caller that already has the side to move's
/// [`Position::immediate_gains`] (the search, which orders moves by them),
/// so that they are not computed twice.
#[inline]
pub fn evaluate_given(pos: &Position, our_gains: &MoveGains) -> i32 {
    score_features(pos, features_given(pos, our_gains), &Weights::DEFAULT).score
}

#[cfg(test)]
mod tests {
    use super::feature::*;
    use super::*;
    use tuzdyk_notation::tfen;

    #[test]
    fn features_flip_with_the_side_to_move() {
        let white =
            tfen::parse("9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 S 1")
                .unwrap();
        let black =
            tfen::parse("9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 1")
                .unwrap();
        let (w, b) = (features(&white), features(&black));
        assert_eq!(w[KAZAN], 10);
        assert_eq!(b[KAZAN], -10);
        for i in [
            SIDE_STONES,
            MOBILITY,
            HEAVY_HOLES,
            WAITING_MOVES,
            HOLE_STONES + 5,
        ] {
            assert_eq!(w[i], -b[i], "{}", FEATURE_NAMES[i]);
        }
        assert_eq!(w[OUR_CAPTURE], b[THEIR_CAPTURE]);
    }

    #[test]
    fn a_kazan_stone_is_worth_100() {
        // The same board with five stones moved from one kazan to the
        // other: only the kazan term changes, by 2 x 5 x 100.
        let a = tfen::parse("9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 1")
            .unwrap();
        let b = tfen::parse("9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 5 5 N 1")
            .unwrap();
        assert_eq!(evaluate(&b) - evaluate(&a), 1000);
    }

    #[test]
    fn tuzdik_features_count_each_owner() {
        let pos =
            tfen::parse("1S,1S,5S,7S,6S,18S,6S,1,t/1S,2S,20S,7S,19S,t,1S,2S,1 42 24 S 11").unwrap();
        let f = features(&pos);
        // South (to move) owns North's hole 1; North owns South's hole 6.
        assert_eq!(f[TUZDIK], 1);
        assert_eq!(f[TUZDIK + 5], -1);
    }

    #[test]
    fn waiting_moves_stay_on_their_side() {
        // White: hole 1 has 1 stone (stays), hole 8 has 2 (8, 9: stays),
        // hole 9 has 1 (leaves). Black: hole 1 has 9 (1..9 stays).
        let pos = tfen::parse("8,9S/1S,6,2S,1S 70 79 S 30").unwrap();
        assert_eq!(waiting(&pos, Side::White), (2, 3));
        assert_eq!(waiting(&pos, Side::Black), (1, 9));
    }

    #[test]
    fn staying_sowings_match_the_sowing_rule() {
        // The first stone goes back into the hole it came from, unless it
        // is the only one; the sowing stays on the side when its last
        // stone lands in hole 9 or before.
        for h in 0..HOLES {
            for n in 0..=u8::MAX {
                let last = if n == 1 {
                    h + 1
                } else {
                    (h + n as usize).saturating_sub(1)
                };
                let expected = n > 0 && last < HOLES;
                assert_eq!(stays_on_side(h, n), expected, "hole {} with {n}", h + 1);
            }
        }
    }

    #[test]
    fn the_given_gains_give_the_same_evaluation() {
        let pos =
            tfen::parse("1S,1S,5S,7S,6S,18S,6S,1,t/1S,2S,20S,7S,19S,t,1S,2S,1 42 24 S 11").unwrap();
        let gains = pos.immediate_gains(pos.side_to_move());
        assert_eq!(evaluate_given(&pos, &gains), evaluate(&pos));
    }

    #[test]
    fn names_match_the_count() {
        assert_eq!(FEATURE_NAMES.len(), FEATURES);
        assert_eq!(HOLE_STONES + HOLES, STAYING_STONES);
        assert_eq!(KAZAN_NEAR_WIN + 1, COUNT);
    }
}
