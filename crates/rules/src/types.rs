//! The small values of the game: sides, moves, sets of moves, holes, what a
//! move did and how a game ended.

use std::fmt;

/// Stones in the game.
pub const TOTAL_STONES: u32 = 162;
/// A kazan holding this many stones wins at once.
pub const WINNING_KAZAN: u8 = 82;
/// Holes on each side.
pub const HOLES: usize = 9;
/// Holes on the board.
pub const BOARD_HOLES: usize = 18;

/// One of the two players. White (South, P1) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    White = 0,
    Black = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    /// 0 for White, 1 for Black: the index of per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// `White` or `Black`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }

    /// `white` or `black`: the side as a key of JSON and data files.
    ///
    /// ```
    /// use tuzdyk_rules::Side;
    ///
    /// assert_eq!(Side::Black.key(), "black");
    /// assert_eq!(Side::from_key("white"), Some(Side::White));
    /// assert_eq!(Side::from_key("White"), None);
    /// ```
    pub const fn key(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// The side whose [`Side::key`] is `key`.
    pub fn from_key(key: &str) -> Option<Side> {
        Side::BOTH.into_iter().find(|side| side.key() == key)
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A move: the mover's hole, 0..8 internally, written 1..9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The move from hole `index` (0..8) of the side to move.
    #[inline]
    pub const fn from_index(index: usize) -> Move {
        debug_assert!(index < HOLES);
        Move(index as u8)
    }

    /// The move written `number` (1..9), or `None` outside that range.
    ///
    /// ```
    /// use tuzdyk_rules::Move;
    ///
    /// assert_eq!(Move::from_number(6).map(Move::index), Some(5));
    /// assert_eq!(Move::from_number(10), None);
    /// ```
    pub const fn from_number(number: u32) -> Option<Move> {
        if number >= 1 && number <= HOLES as u32 {
            Some(Move(number as u8 - 1))
        } else {
            None
        }
    }

    /// The hole index 0..8.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The hole number 1..9 as written.
    #[inline]
    pub const fn number(self) -> u32 {
        self.0 as u32 + 1
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// The set of legal moves of a position, as a 9-bit mask over the holes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MoveSet(pub(crate) u16);

impl MoveSet {
    pub const EMPTY: MoveSet = MoveSet(0);

    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn contains(self, mv: Move) -> bool {
        self.0 & (1 << mv.0) != 0
    }
}

impl Iterator for MoveSet {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Move(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for MoveSet {}

/// A hole as its owner numbers it: a side and a number 1..9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hole {
    pub side: Side,
    /// 1..9, from the owner's left.
    pub number: u32,
}

impl Hole {
    /// The hole at `index` (0..17 in sowing order: White 1..9, Black 1..9).
    pub const fn from_index(index: usize) -> Hole {
        let side = if index < HOLES {
            Side::White
        } else {
            Side::Black
        };
        Hole {
            side,
            number: (index % HOLES) as u32 + 1,
        }
    }

    /// The index 0..17 in sowing order.
    pub const fn index(self) -> usize {
        self.side.index() * HOLES + self.number as usize - 1
    }
}

/// What a move did: where its last stone fell and what it won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveOutcome {
    /// The hole (0..17 in sowing order) where the last stone fell.
    pub landing: usize,
    /// Stones taken by an even capture (0 if none).
    pub captured: u8,
    /// Whether the move made a tuzdik (its 3 stones went to the mover).
    pub tuzdik: bool,
    /// Stones that fell into tuzdiks, for each side's kazan.
    pub tuzdik_stones: [u8; 2],
}

impl MoveOutcome {
    /// The landing hole as its owner numbers it (1..9), with its side.
    pub const fn landing_hole(&self) -> Hole {
        Hole::from_index(self.landing)
    }
}

/// What each move would take at once (see
/// [`Position::immediate_gains`](crate::Position::immediate_gains)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveGains {
    /// Stones taken by the move from each hole (0..8): an even capture, or
    /// 3 for a tuzdik, else 0.
    pub stones: [u8; HOLES],
    /// Bit i set when the move from hole i makes a tuzdik.
    pub tuzdik: u16,
}

impl MoveGains {
    /// The largest gain of any move.
    pub fn best(&self) -> u8 {
        self.stones.iter().copied().max().unwrap_or(0)
    }

    /// Whether some move makes a tuzdik.
    pub fn can_make_tuzdik(&self) -> bool {
        self.tuzdik != 0
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Win(Side),
    Draw,
}

impl GameResult {
    /// The points of `side`: 1 for a win, 1/2 for a draw, 0 for a loss.
    pub fn points(self, side: Side) -> f64 {
        match self {
            GameResult::Win(winner) if winner == side => 1.0,
            GameResult::Win(_) => 0.0,
            GameResult::Draw => 0.5,
        }
    }
}

impl fmt::Display for GameResult {
    /// `White won`, `Black won` or `a draw`: the words of error messages
    /// (records write the result as `1-0`, `0-1`, `1/2-1/2`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Win(side) => write!(f, "{side} won"),
            GameResult::Draw => f.write_str("a draw"),
        }
    }
}

/// Why a finished game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// A kazan reached 82.
    KazanMajority,
    /// The side to move had no move; the remaining stones went to their sides' owners.
    NoMoves,
}

/// Why a move cannot be played. The one explanation of an illegal move,
/// for the protocol, the records, the match referee and the front ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is over ({0})")]
    GameOver(GameResult),
    #[error("hole {0} is empty")]
    EmptyHole(Move),
    #[error("hole {0} is the opponent's tuzdik")]
    OpponentsTuzdik(Move),
}
