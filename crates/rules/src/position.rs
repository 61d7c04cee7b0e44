//! The position and the rules of a move: sowing, captures, tuzdiks and the
//! end of the game.
//!
//! A [`Position`] is a small `Copy` value: the 18 holes as 8-bit lanes (each
//! side's nine holes in one `u128`), the two kazans, the two tuzdiks, the side
//! to move, the full-move number and an incrementally updated Zobrist key.
//! Sowing costs the same whatever the number of stones: full laps are one
//! broadcast add over all lanes, the rest one add over a precomputed range of
//! lanes, and stones that fell into a tuzdik lane move to its owner's kazan.

use std::fmt;

use crate::lanes::{LANE_CLEAR, LANE_ONES, lane, lane_bound, nonzero_lanes};
use crate::sowing::{RANGE_ADD, SOWING, Sowing};
use crate::zobrist::ZOBRIST;
use crate::{
    BOARD_HOLES, GameEnd, GameResult, HOLES, IllegalMove, Move, MoveGains, MoveOutcome, MoveSet,
    Side, TOTAL_STONES, WINNING_KAZAN,
};

/// A Togyz Kumalak position. See the module documentation for the layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Each side's nine holes as 8-bit lanes 0..8.
    holes: [u128; 2],
    key: u64,
    kazans: [u8; 2],
    /// The opponent hole (0..8) each side owns as its tuzdik, or `NO_TUZDIK`
    /// (9, an unused lane that is always empty, so reads of it give 0).
    tuzdiks: [u8; 2],
    side_to_move: Side,
    fullmove: u16,
}

const NO_TUZDIK: u8 = HOLES as u8;

/// Bits 0..8: every hole of a side.
const ALL_LANES: u32 = (1 << HOLES) - 1;

/// Which of the opponent's holes (bits 0..8) a move of one side takes,
/// by the count found in the hole where its last stone lands.
#[derive(Clone, Copy, Debug)]
struct TakeRule {
    /// Holes taken with an even count: all but one's own tuzdik.
    even: u32,
    /// Holes turned into a tuzdik with a count of exactly 3.
    three: u32,
}

impl TakeRule {
    #[inline(always)]
    fn takes(self, hole: u32, count: u32) -> bool {
        let even = (count & 1 == 0) as u32;
        let three = (count == 3) as u32;
        ((self.even >> hole) & even) | ((self.three >> hole) & three) != 0
    }
}

/// Stones a sowing drops into a tuzdik on hole `tuzdik` (`NO_TUZDIK` for
/// none) of a side whose reached lanes are `reached`: one per lap and one
/// if the rest reaches it.
#[inline(always)]
fn tuzdik_fallen(laps: u32, reached: u32, tuzdik: u8) -> u8 {
    if tuzdik == NO_TUZDIK {
        0
    } else {
        (laps + ((reached >> tuzdik) & 1)) as u8
    }
}

/// Why a set of hole counts, kazans and tuzdiks is not a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("stones plus kazans make {0}, not 162")]
    StoneCount(u32),
    #[error("a hole holds {0} stones, more than 162")]
    HoleTooFull(u32),
    #[error("{0}'s tuzdik is on hole 9, which can never be a tuzdik")]
    TuzdikOnNine(Side),
    #[error("both tuzdiks are on hole {0}; two tuzdiks cannot carry the same number")]
    TuzdiksSameNumber(u32),
    #[error("{side}'s tuzdik on hole {hole} holds {stones} stones; a tuzdik is always empty")]
    TuzdikNotEmpty { side: Side, hole: u32, stones: u32 },
    #[error("full-move number {0} is out of range 1..=65535")]
    FullMove(u32),
}

/// Everything that defines a position, in plain arrays: what
/// [`Position::from_parts`] checks and builds from, and what
/// [`Position::parts`] gives back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionParts {
    /// Stones per hole, in sowing order (White 1..9, Black 1..9).
    pub holes: [u8; BOARD_HOLES],
    /// Kazans, indexed by [`Side::index`].
    pub kazans: [u8; 2],
    /// The opponent hole (0..8) each side owns as tuzdik, if any.
    pub tuzdiks: [Option<u8>; 2],
    pub side_to_move: Side,
    pub fullmove: u16,
}

impl Position {
    /// The starting position: nine stones in every hole, White to move.
    pub fn startpos() -> Position {
        Position::from_parts(PositionParts {
            holes: [9; BOARD_HOLES],
            kazans: [0, 0],
            tuzdiks: [None, None],
            side_to_move: Side::White,
            fullmove: 1,
        })
        .expect("the start position is valid")
    }

    /// Builds a position, checking that it can occur under the rules'
    /// invariants: 162 stones, tuzdiks empty, not on hole 9, not the same number.
    pub fn from_parts(parts: PositionParts) -> Result<Position, PositionError> {
        let mut total: u32 = parts.kazans.iter().map(|&k| k as u32).sum();
        for &count in &parts.holes {
            if count as u32 > TOTAL_STONES {
                return Err(PositionError::HoleTooFull(count as u32));
            }
            total += count as u32;
        }
        if total != TOTAL_STONES {
            return Err(PositionError::StoneCount(total));
        }
        for side in Side::BOTH {
            if let Some(hole) = parts.tuzdiks[side.index()] {
                if hole as usize >= HOLES - 1 {
                    return Err(PositionError::TuzdikOnNine(side));
                }
                let stones = parts.holes[side.opponent().index() * HOLES + hole as usize];
                if stones != 0 {
                    return Err(PositionError::TuzdikNotEmpty {
                        side,
                        hole: hole as u32 + 1,
                        stones: stones as u32,
                    });
                }
            }
        }
        if let [Some(a), Some(b)] = parts.tuzdiks
            && a == b
        {
            return Err(PositionError::TuzdiksSameNumber(a as u32 + 1));
        }
        if parts.fullmove == 0 {
            return Err(PositionError::FullMove(0));
        }
        let mut holes = [0u128; 2];
        for (index, &count) in parts.holes.iter().enumerate() {
            holes[index / HOLES] |= (count as u128) << (8 * (index % HOLES));
        }
        let mut position = Position {
            holes,
            key: 0,
            kazans: parts.kazans,
            tuzdiks: parts.tuzdiks.map(|t| t.unwrap_or(NO_TUZDIK)),
            side_to_move: parts.side_to_move,
            fullmove: parts.fullmove,
        };
        position.key = position.compute_key();
        Ok(position)
    }

    /// The same position with the colours swapped: White's row, kazan and
    /// tuzdik become Black's and the other way round, and the other side is
    /// to move. Play from it mirrors play from this position exactly.
    ///
    /// ```
    /// use tuzdyk_rules::{Position, Side};
    ///
    /// let start = Position::startpos();
    /// assert_eq!(start.flipped().side_to_move(), Side::Black);
    /// assert_eq!(start.flipped().flipped(), start);
    /// ```
    pub fn flipped(&self) -> Position {
        let parts = self.parts();
        let mut holes = parts.holes;
        holes.rotate_left(HOLES);
        let flipped = PositionParts {
            holes,
            kazans: [parts.kazans[1], parts.kazans[0]],
            tuzdiks: [parts.tuzdiks[1], parts.tuzdiks[0]],
            side_to_move: parts.side_to_move.opponent(),
            fullmove: parts.fullmove,
        };
        // The rules are the same for both colours: what was valid stays valid.
        Position::from_parts(flipped).expect("the flipped position is valid")
    }

    /// The plain-array view of this position.
    pub fn parts(&self) -> PositionParts {
        let mut holes = [0u8; BOARD_HOLES];
        for (index, count) in holes.iter_mut().enumerate() {
            *count = self.stones_at(index);
        }
        PositionParts {
            holes,
            kazans: self.kazans,
            tuzdiks: [self.tuzdik(Side::White), self.tuzdik(Side::Black)],
            side_to_move: self.side_to_move,
            fullmove: self.fullmove,
        }
    }

    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    /// The full-move number, which rises after Black moves.
    #[inline]
    pub fn fullmove(&self) -> u16 {
        self.fullmove
    }

    /// Plies played since the start, as implied by the full-move number.
    #[inline]
    pub fn ply(&self) -> u32 {
        (self.fullmove as u32 - 1) * 2 + self.side_to_move.index() as u32
    }

    /// The Zobrist key, always equal to [`Position::compute_key`].
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    #[inline]
    pub fn kazan(&self, side: Side) -> u8 {
        self.kazans[side.index()]
    }

    /// Stones in `side`'s hole `hole` (0..8).
    #[inline]
    pub fn stones(&self, side: Side, hole: usize) -> u8 {
        lane(self.holes[side.index()], hole)
    }

    /// Stones in hole `index` (0..17 in sowing order).
    #[inline]
    pub fn stones_at(&self, index: usize) -> u8 {
        lane(self.holes[index / HOLES], index % HOLES)
    }

    /// Stones on `side`'s nine holes.
    #[inline]
    pub fn stones_on_side(&self, side: Side) -> u32 {
        let word = self.holes[side.index()];
        // Lanes hold at most 162, so pairwise sums fit in 16 bits.
        let pairs = (word & 0x00FF_00FF_00FF_00FF_00FF) + ((word >> 8) & 0x00FF_00FF_00FF_00FF);
        let mut sum = 0u32;
        let mut rest = pairs;
        while rest != 0 {
            sum += (rest & 0xFFFF) as u32;
            rest >>= 16;
        }
        sum
    }

    /// Stones still in play (not in a kazan).
    #[inline]
    pub fn stones_on_board(&self) -> u32 {
        TOTAL_STONES - self.kazans[0] as u32 - self.kazans[1] as u32
    }

    /// The opponent hole (0..8) that `side` owns as its tuzdik.
    #[inline]
    pub fn tuzdik(&self, side: Side) -> Option<u8> {
        let hole = self.tuzdiks[side.index()];
        (hole != NO_TUZDIK).then_some(hole)
    }

    /// The legal moves: the side to move's holes that hold stones. A tuzdik is
    /// always empty, so it never appears. Empty once the game is over.
    #[inline]
    pub fn legal_moves(&self) -> MoveSet {
        if self.kazans[0] >= WINNING_KAZAN || self.kazans[1] >= WINNING_KAZAN {
            return MoveSet::EMPTY;
        }
        self.movable_holes(self.side_to_move)
    }

    /// The holes of `side` that hold stones, whether or not the game is over.
    #[inline]
    pub fn movable_holes(&self, side: Side) -> MoveSet {
        MoveSet(nonzero_lanes(self.holes[side.index()]))
    }

    #[inline]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(mv)
    }

    /// Whether `mv` can be played here, and if not, why.
    ///
    /// ```
    /// use tuzdyk_rules::{IllegalMove, Move, Position};
    ///
    /// let mut pos = Position::startpos();
    /// let [five, six] = [5, 6].map(|n| Move::from_number(n).unwrap());
    /// assert_eq!(pos.check(six), Ok(()));
    /// pos.play(six); // takes Black's hole 5
    /// assert_eq!(pos.check(five), Err(IllegalMove::EmptyHole(five)));
    /// ```
    ///
    /// # Errors
    /// [`IllegalMove`]: the game is over, the hole is empty, or it is the
    /// opponent's tuzdik.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        if let Some(result) = self.result() {
            return Err(IllegalMove::GameOver(result));
        }
        if self.is_legal(mv) {
            Ok(())
        } else if self.tuzdik(self.side_to_move.opponent()) == Some(mv.index() as u8) {
            Err(IllegalMove::OpponentsTuzdik(mv))
        } else {
            Err(IllegalMove::EmptyHole(mv))
        }
    }

    /// The game's result if it is over, with how it ended.
    pub fn game_over(&self) -> Option<(GameResult, GameEnd)> {
        for side in Side::BOTH {
            if self.kazans[side.index()] >= WINNING_KAZAN {
                return Some((GameResult::Win(side), GameEnd::KazanMajority));
            }
        }
        if !self.movable_holes(self.side_to_move).is_empty() {
            return None;
        }
        let [white, black] = self.final_scores();
        let result = match white.cmp(&black) {
            std::cmp::Ordering::Greater => GameResult::Win(Side::White),
            std::cmp::Ordering::Less => GameResult::Win(Side::Black),
            std::cmp::Ordering::Equal => GameResult::Draw,
        };
        Some((result, GameEnd::NoMoves))
    }

    /// The result if the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.game_over().map(|(result, _)| result)
    }

    /// Each side's kazan plus the stones on its side: the final count if the
    /// game ended now by the sweep.
    pub fn final_scores(&self) -> [u32; 2] {
        Side::BOTH.map(|side| self.kazans[side.index()] as u32 + self.stones_on_side(side))
    }

    /// The count that decided a finished game, `[White, Black]`: the kazans
    /// when one reached 82, else each kazan with the stones swept into it.
    pub fn final_count(&self, end: GameEnd) -> [u32; 2] {
        match end {
            GameEnd::KazanMajority => self.kazans.map(u32::from),
            GameEnd::NoMoves => self.final_scores(),
        }
    }

    /// Where the last stone of `mv` would land and what it would win, without
    /// changing this position.
    pub fn preview(&self, mv: Move) -> MoveOutcome {
        let mut copy = *self;
        copy.play(mv)
    }

    /// Plays `mv`, which must be legal, and reports what it did.
    ///
    /// Costs the same whatever the number of stones sown. Playing an illegal
    /// move is a logic error: it is caught by a debug assertion.
    #[inline]
    pub fn play(&mut self, mv: Move) -> MoveOutcome {
        self.play_impl::<true>(mv)
    }

    /// [`Position::play`] without updating the key: for perft, which never
    /// reads it. The key of the result is stale.
    #[inline]
    pub(crate) fn play_unhashed(&mut self, mv: Move) -> MoveOutcome {
        self.play_impl::<false>(mv)
    }

    #[inline(always)]
    fn play_impl<const HASH: bool>(&mut self, mv: Move) -> MoveOutcome {
        debug_assert!(self.is_legal(mv), "illegal move {mv} in {self:?}");
        let us = self.side_to_move.index();
        let them = 1 - us;
        let index = mv.index();
        let sown = self.holes[us].to_le_bytes()[index] as usize;
        let sowing = SOWING[index][sown];
        let laps = sowing.laps();
        let hole = sowing.landing_lane() as usize;
        let landing = (us * HOLES + sowing.landing()) % BOARD_HOLES;

        if HASH {
            self.key ^= self.sowing_key_change(index, sown, sowing);
        }

        // Sowing only adds: what the landing hole and the tuzdiks hold
        // afterwards follows from the laps and the lanes the rest reach.
        let our_tuzdik = self.tuzdiks[us];
        let their_tuzdik = self.tuzdiks[them];
        let found = self.holes[them].to_le_bytes()[hole] as u32
            + laps
            + ((sowing.opponent_reached() >> hole) & 1);
        let mut tuzdik_stones = [0u8; 2];
        tuzdik_stones[us] = tuzdik_fallen(laps, sowing.opponent_reached(), our_tuzdik);
        tuzdik_stones[them] = tuzdik_fallen(laps, sowing.own_reached(), their_tuzdik);
        let taken = sowing.lands_on_opponent()
            && self.take_rule(self.side_to_move).takes(hole as u32, found);
        let makes_tuzdik = taken & (found == 3);

        let add = &RANGE_ADD[sowing.range()];
        let broadcast = LANE_ONES * laps as u128;
        let mut ours = (self.holes[us] & LANE_CLEAR[index]) + broadcast + add[0];
        let mut theirs = self.holes[them] + broadcast + add[1];
        ours &= LANE_CLEAR[their_tuzdik as usize];
        theirs &= LANE_CLEAR[our_tuzdik as usize];
        theirs &= if taken { LANE_CLEAR[hole] } else { !0 };
        self.holes[us] = ours;
        self.holes[them] = theirs;

        let taken_stones = if taken { found as u8 } else { 0 };
        if HASH {
            let z = &ZOBRIST;
            for (owner, &fallen) in tuzdik_stones.iter().enumerate() {
                if fallen != 0 {
                    let index = (1 - owner) * HOLES + self.tuzdiks[owner] as usize;
                    self.key ^= z.hole[index][fallen as usize] ^ z.hole[index][0];
                }
            }
            if makes_tuzdik {
                self.key ^= z.tuzdik[us][NO_TUZDIK as usize] ^ z.tuzdik[us][hole];
            }
            if taken {
                self.key ^= z.hole[landing][found as usize] ^ z.hole[landing][0];
            }
            self.key ^= z.black_to_move;
        }
        if makes_tuzdik {
            self.tuzdiks[us] = hole as u8;
        }
        let mut gains = tuzdik_stones;
        gains[us] += taken_stones;
        for side in Side::BOTH {
            self.add_to_kazan::<HASH>(side, gains[side.index()]);
        }
        self.side_to_move = Side::BOTH[them];
        self.fullmove += us as u16;
        MoveOutcome {
            landing,
            captured: if makes_tuzdik { 0 } else { taken_stones },
            tuzdik: makes_tuzdik,
            tuzdik_stones,
        }
    }

    /// The key change of sowing `sown` stones from the mover's hole `index`,
    /// before any tuzdik or capture: every hole whose count changes.
    fn sowing_key_change(&self, index: usize, sown: usize, sowing: Sowing) -> u64 {
        let z = &ZOBRIST;
        let first = self.side_to_move.index() * HOLES;
        let origin = first + index;
        let mut change = z.hole[origin][sown] ^ z.hole[origin][0];
        let laps = sowing.laps() as usize;
        let reached = sowing.reached();
        // A full lap changes every hole; most sowings have none and change
        // only the holes they reach.
        let mut changed = if laps > 0 {
            (1 << BOARD_HOLES) - 1
        } else {
            reached
        };
        while changed != 0 {
            let relative = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            let hole = (first + relative) % BOARD_HOLES;
            let old = if hole == origin {
                0
            } else {
                self.stones_at(hole) as usize
            };
            let new = old + laps + ((reached >> relative) & 1) as usize;
            change ^= z.hole[hole][old] ^ z.hole[hole][new];
        }
        change
    }

    /// The capture rule for moves of `side`: an even count is taken
    /// anywhere on the opponent's side but in one's own tuzdik; exactly 3
    /// makes a tuzdik if one has none yet, not on hole 9, and not on the
    /// number of the opponent's tuzdik.
    #[inline(always)]
    fn take_rule(&self, side: Side) -> TakeRule {
        let our_tuzdik = self.tuzdiks[side.index()] as u32;
        let their_tuzdik = self.tuzdiks[side.opponent().index()] as u32;
        let three = if our_tuzdik == NO_TUZDIK as u32 {
            ALL_LANES & !(1 << (HOLES - 1)) & !(1 << their_tuzdik)
        } else {
            0
        };
        TakeRule {
            even: ALL_LANES & !(1 << our_tuzdik),
            three,
        }
    }

    /// What each legal move of `side` would take at once if `side` were to
    /// move now: captured stones (or 3 for a tuzdik), and which moves make a
    /// tuzdik. Computed from the sowing tables without playing the moves;
    /// stones falling into tuzdiks are not counted. For evaluation and move
    /// ordering.
    pub fn immediate_gains(&self, side: Side) -> MoveGains {
        let us = side.index();
        let our_row = self.holes[us].to_le_bytes();
        let their_row = self.holes[1 - us].to_le_bytes();
        let rule = self.take_rule(side);
        let mut gains = MoveGains::default();
        for mv in self.movable_holes(side) {
            let index = mv.index();
            let sowing = SOWING[index][our_row[index] as usize];
            let hole = sowing.landing_lane();
            let found = their_row[hole as usize] as u32
                + sowing.laps()
                + ((sowing.opponent_reached() >> hole) & 1);
            if sowing.lands_on_opponent() && rule.takes(hole, found) {
                gains.stones[index] = found as u8;
                if found == 3 {
                    gains.tuzdik |= 1 << index;
                }
            }
        }
        gains
    }

    /// The number of legal replies summed over every legal move: perft(2)
    /// without building the children, for bulk counting at the last ply.
    ///
    /// Sowing only adds, so each child's opponent row is known from this
    /// row, the laps and the lanes the rest of the stones reach: no lane
    /// arithmetic per move, only bit masks and the landing hole.
    pub fn count_replies(&self) -> u64 {
        let us = self.side_to_move.index();
        let them = 1 - us;
        let our_row = self.holes[us].to_le_bytes();
        let their_row = self.holes[them].to_le_bytes();
        let their_nonempty = nonzero_lanes(self.holes[them]) as u32;
        let our_tuzdik = self.tuzdiks[us];
        let their_tuzdik = self.tuzdiks[them];
        let our_kazan = self.kazans[us] as u32;
        let their_kazan = self.kazans[them] as u32;
        let rule = self.take_rule(self.side_to_move);
        let not_our_tuzdik = !(1u32 << our_tuzdik);
        // A move gains at most its landing hole (the largest opposing hole
        // plus one per lap and one more) and one tuzdik stone per lap and one
        // more; the opponent gains at most the latter. Bounds by bit folding
        // are enough to skip the end-of-game test in most positions.
        let max_laps = lane_bound(self.holes[us]) / BOARD_HOLES as u32;
        let near_the_end = our_kazan + lane_bound(self.holes[them]) + 2 * (max_laps + 1)
            >= WINNING_KAZAN as u32
            || their_kazan + max_laps + 1 >= WINNING_KAZAN as u32;
        let mut total = 0u64;
        for mv in self.legal_moves() {
            let index = mv.index();
            let sowing = SOWING[index][our_row[index] as usize];
            let laps = sowing.laps();
            let their_reached = sowing.opponent_reached();
            // Hole 15 (landing on our own side) is in no mask: never taken.
            let hole = sowing.capture_hole();
            let count = their_row[hole as usize] as u32 + sowing.landing_adds();
            let taken = rule.takes(hole, count) as u32;
            let nonempty = if laps > 0 {
                ALL_LANES
            } else {
                their_nonempty | their_reached
            };
            let replies = nonempty & not_our_tuzdik & !(taken << hole);
            if near_the_end {
                let our_fallen = tuzdik_fallen(laps, their_reached, our_tuzdik) as u32;
                let their_fallen = tuzdik_fallen(laps, sowing.own_reached(), their_tuzdik) as u32;
                if our_kazan + our_fallen + taken * count >= WINNING_KAZAN as u32
                    || their_kazan + their_fallen >= WINNING_KAZAN as u32
                {
                    continue;
                }
            }
            total += replies.count_ones() as u64;
        }
        total
    }

    #[inline(always)]
    fn add_to_kazan<const HASH: bool>(&mut self, side: Side, stones: u8) {
        let old = self.kazans[side.index()];
        let new = old + stones;
        self.kazans[side.index()] = new;
        if HASH && stones != 0 {
            let z = &ZOBRIST;
            self.key ^= z.kazan[side.index()][old as usize] ^ z.kazan[side.index()][new as usize];
        }
    }

    /// The hole (0..17 in sowing order) where the last stone of `mv` lands.
    #[inline]
    pub fn landing_of(&self, mv: Move) -> usize {
        let us = self.side_to_move.index();
        let sown = self.holes[us].to_le_bytes()[mv.index()] as usize;
        (us * HOLES + SOWING[mv.index()][sown].landing()) % BOARD_HOLES
    }

    /// Passes the turn without moving: not a move of the game, but what a
    /// search's null-move pruning asks ("what if the opponent moved twice?").
    pub fn pass(&mut self) {
        self.fullmove += self.side_to_move.index() as u16;
        self.side_to_move = self.side_to_move.opponent();
        self.key ^= ZOBRIST.black_to_move;
    }

    /// The Zobrist key computed from scratch. The full-move number is not part
    /// of it: positions that differ only by move number are the same position.
    pub fn compute_key(&self) -> u64 {
        let z = &ZOBRIST;
        let mut key = 0;
        for hole in 0..BOARD_HOLES {
            key ^= z.hole[hole][self.stones_at(hole) as usize];
        }
        for side in Side::BOTH {
            key ^= z.kazan[side.index()][self.kazans[side.index()] as usize];
            let tuzdik = match self.tuzdik(side) {
                Some(hole) => hole as usize,
                None => NO_TUZDIK as usize,
            };
            key ^= z.tuzdik[side.index()][tuzdik];
        }
        if self.side_to_move == Side::Black {
            key ^= z.black_to_move;
        }
        key
    }

    /// Sets the full-move number (kept apart from the key).
    pub fn set_fullmove(&mut self, fullmove: u16) {
        self.fullmove = fullmove.max(1);
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl fmt::Debug for Position {
    /// The counts as plain arrays (a TFEN needs the notation layer, which
    /// sits above this one).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |side: Side| -> [u8; HOLES] { std::array::from_fn(|h| self.stones(side, h)) };
        f.debug_struct("Position")
            .field("white", &row(Side::White))
            .field("black", &row(Side::Black))
            .field("kazans", &self.kazans)
            .field(
                "tuzdiks",
                &[self.tuzdik(Side::White), self.tuzdik(Side::Black)],
            )
            .field("to_move", &self.side_to_move)
            .field("fullmove", &self.fullmove)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stones_on_side_sums_lanes() {
        let pos = Position::startpos();
        assert_eq!(pos.stones_on_side(Side::White), 81);
        assert_eq!(pos.stones_on_side(Side::Black), 81);
    }
}
