//! What a move would do, in the terms a front end shows before it is
//! played: the stone-by-stone path of the sowing, where the last stone
//! lands, what it finds there and takes, and why three stones there make
//! no tuzdik.

use std::fmt;

use crate::{BOARD_HOLES, HOLES, Hole, Move, MoveOutcome, Position, Side};

/// Why three stones in the opponent's hole where the last stone lands make
/// no tuzdik (the move stands; nothing is taken).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TuzdikRefusal {
    /// The opponent's hole 9 can never be a tuzdik.
    HoleNine,
    /// The mover already has its one tuzdik.
    SecondTuzdik,
    /// The opponent's tuzdik carries the same number.
    SameNumber,
}

impl TuzdikRefusal {
    /// A short stable name: `hole_nine`, `second_tuzdik`, `same_number`.
    pub const fn key(self) -> &'static str {
        match self {
            TuzdikRefusal::HoleNine => "hole_nine",
            TuzdikRefusal::SecondTuzdik => "second_tuzdik",
            TuzdikRefusal::SameNumber => "same_number",
        }
    }
}

impl fmt::Display for TuzdikRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TuzdikRefusal::HoleNine => "hole 9 can never be a tuzdik",
            TuzdikRefusal::SecondTuzdik => "the mover already has a tuzdik",
            TuzdikRefusal::SameNumber => "the opponent's tuzdik has the same number",
        })
    }
}

/// Where one sown stone ends up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StoneDrop {
    /// In a hole (0..17 in sowing order).
    Hole(usize),
    /// In this side's kazan: the stone fell into its tuzdik.
    Kazan(Side),
}

/// Everything a legal move would do, without playing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovePreview {
    pub mv: Move,
    /// Stones taken from the hole and sown.
    pub sown: u8,
    pub outcome: MoveOutcome,
    /// Stones in the landing hole once the last stone fell there (0 when it
    /// fell into a tuzdik and went on to the tuzdik owner's kazan).
    pub found: u8,
    /// Whether the last stone fell into a tuzdik.
    pub into_tuzdik: bool,
    /// Three stones on the opponent's side, and why they make no tuzdik.
    pub tuzdik_refused: Option<TuzdikRefusal>,
}

impl MovePreview {
    /// The landing hole as its owner numbers it.
    pub const fn landing(&self) -> Hole {
        self.outcome.landing_hole()
    }
}

impl Position {
    /// What the legal move `mv` would do here.
    ///
    /// ```
    /// use tuzdyk_rules::{Move, Position, Side};
    ///
    /// let preview = Position::startpos().preview_move(Move::from_number(6).unwrap());
    /// assert_eq!((preview.landing().side, preview.landing().number), (Side::Black, 5));
    /// assert_eq!((preview.sown, preview.found, preview.outcome.captured), (9, 10, 10));
    /// assert_eq!(preview.tuzdik_refused, None);
    /// ```
    pub fn preview_move(&self, mv: Move) -> MovePreview {
        let mover = self.side_to_move();
        let mut after = *self;
        let outcome = after.play(mv);
        let landing = outcome.landing_hole();
        let lane = landing.number as u8 - 1;
        let into_tuzdik = !outcome.tuzdik && after.tuzdik(landing.side.opponent()) == Some(lane);
        let found = if outcome.tuzdik {
            3
        } else if outcome.captured > 0 {
            outcome.captured
        } else {
            after.stones_at(outcome.landing)
        };
        let three_refused = !outcome.tuzdik && !into_tuzdik && landing.side != mover && found == 3;
        let tuzdik_refused = three_refused.then(|| self.tuzdik_refusal(lane)).flatten();
        MovePreview {
            mv,
            sown: self.stones(mover, mv.index()),
            outcome,
            found,
            into_tuzdik,
            tuzdik_refused,
        }
    }

    /// Why the side to move cannot make the opponent's hole `lane` (0..8)
    /// its tuzdik, if it cannot.
    fn tuzdik_refusal(&self, lane: u8) -> Option<TuzdikRefusal> {
        let mover = self.side_to_move();
        if lane as usize == HOLES - 1 {
            Some(TuzdikRefusal::HoleNine)
        } else if self.tuzdik(mover).is_some() {
            Some(TuzdikRefusal::SecondTuzdik)
        } else if self.tuzdik(mover.opponent()) == Some(lane) {
            Some(TuzdikRefusal::SameNumber)
        } else {
            None
        }
    }

    /// Where each stone of the legal move `mv` falls, in order: the first
    /// back into the emptied hole when there are two or more, then one per
    /// hole; a stone falling into a tuzdik goes to its owner's kazan.
    ///
    /// ```
    /// use tuzdyk_rules::{Move, Position, StoneDrop};
    ///
    /// let path = Position::startpos().sowing_path(Move::from_number(6).unwrap());
    /// assert_eq!(path.len(), 9);
    /// assert_eq!(path[0], StoneDrop::Hole(5));
    /// assert_eq!(path[8], StoneDrop::Hole(13)); // Black's hole 5
    /// ```
    pub fn sowing_path(&self, mv: Move) -> Vec<StoneDrop> {
        let mover = self.side_to_move();
        let origin = mover.index() * HOLES + mv.index();
        let sown = self.stones(mover, mv.index()) as usize;
        let first = if sown >= 2 { origin } else { origin + 1 };
        (0..sown)
            .map(|k| {
                let index = (first + k) % BOARD_HOLES;
                let hole = Hole::from_index(index);
                let owner = hole.side.opponent();
                if self.tuzdik(owner) == Some(hole.number as u8 - 1) {
                    StoneDrop::Kazan(owner)
                } else {
                    StoneDrop::Hole(index)
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::{PositionParts, Side};

    fn mv(n: u32) -> Move {
        Move::from_number(n).unwrap()
    }

    /// The board after following `path` from `before`, then taking the
    /// landing hole as `outcome` says: must be the position `play` gives.
    fn replay_path(before: &Position, mv: Move, path: &[StoneDrop], outcome: &MoveOutcome) {
        let mut parts = before.parts();
        let mover = before.side_to_move();
        parts.holes[mover.index() * HOLES + mv.index()] = 0;
        for drop in path {
            match *drop {
                StoneDrop::Hole(index) => parts.holes[index] += 1,
                StoneDrop::Kazan(side) => parts.kazans[side.index()] += 1,
            }
        }
        let taken = if outcome.tuzdik { 3 } else { outcome.captured };
        parts.holes[outcome.landing] -= taken;
        parts.kazans[mover.index()] += taken;
        let mut after = *before;
        after.play(mv);
        let expected = after.parts();
        assert_eq!(parts.holes, expected.holes, "{before:?} {mv}");
        assert_eq!(parts.kazans, expected.kazans, "{before:?} {mv}");
    }

    #[test]
    fn the_path_leads_to_the_position_play_gives() {
        let mut rng = SplitMix64::new(15);
        for _ in 0..200 {
            let mut pos = Position::startpos();
            while pos.game_over().is_none() {
                for mv in pos.legal_moves() {
                    let preview = pos.preview_move(mv);
                    let path = pos.sowing_path(mv);
                    assert_eq!(path.len(), preview.sown as usize);
                    replay_path(&pos, mv, &path, &preview.outcome);
                }
                let moves: Vec<Move> = pos.legal_moves().collect();
                pos.play(*rng.pick(&moves));
            }
        }
    }

    /// White to move, Black's holes set as given (others empty), the rest
    /// of the stones in White's hole 1 and the kazans.
    fn position(black: [u8; HOLES], white_hole: (usize, u8), tuzdiks: [Option<u8>; 2]) -> Position {
        let mut holes = [0u8; BOARD_HOLES];
        holes[HOLES..].copy_from_slice(&black);
        holes[white_hole.0] = white_hole.1;
        let on_board: u32 = holes.iter().map(|&h| h as u32).sum();
        let rest = 162 - on_board;
        Position::from_parts(PositionParts {
            holes,
            kazans: [(rest / 2) as u8, (rest - rest / 2) as u8],
            tuzdiks,
            side_to_move: Side::White,
            fullmove: 20,
        })
        .unwrap()
    }

    #[test]
    fn three_stones_that_make_no_tuzdik_say_why() {
        // White's hole 9 with 1 stone drops it in Black's hole 1.
        let black = [2, 2, 2, 2, 2, 2, 2, 2, 2];
        let makes = position(black, (8, 1), [None, None]).preview_move(mv(9));
        assert!(makes.outcome.tuzdik);
        assert_eq!(makes.tuzdik_refused, None);
        // Black already owns White's hole 1 as its tuzdik (White's hole 1 empty).
        let same = position(black, (8, 1), [None, Some(0)]).preview_move(mv(9));
        assert_eq!(same.tuzdik_refused, Some(TuzdikRefusal::SameNumber));
        assert_eq!(same.outcome.captured, 0);
        let mut black_with_tuzdik = black;
        black_with_tuzdik[4] = 0;
        let second = position(black_with_tuzdik, (8, 1), [Some(4), None]).preview_move(mv(9));
        assert_eq!(second.tuzdik_refused, Some(TuzdikRefusal::SecondTuzdik));
        // Eleven stones from White's hole 8: the last lands in Black's hole 9.
        let nine = position(black, (7, 11), [None, None]).preview_move(mv(8));
        assert_eq!(nine.landing().number, 9);
        assert_eq!(nine.found, 3);
        assert_eq!(nine.tuzdik_refused, Some(TuzdikRefusal::HoleNine));
        assert_eq!(
            TuzdikRefusal::HoleNine.to_string(),
            "hole 9 can never be a tuzdik"
        );
    }

    #[test]
    fn a_stone_into_a_tuzdik_goes_to_its_owner() {
        // White owns Black's hole 1: White's 9 with one stone drops it there.
        let mut black = [2u8; HOLES];
        black[0] = 0;
        let pos = position(black, (8, 1), [Some(0), None]);
        let preview = pos.preview_move(mv(9));
        assert!(preview.into_tuzdik);
        assert_eq!(preview.found, 0);
        assert_eq!(pos.sowing_path(mv(9)), [StoneDrop::Kazan(Side::White)]);
    }
}
