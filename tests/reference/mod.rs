//! A deliberately plain implementation of the Togyz Kumalak rules, written
//! from `docs/rules.md` and independently of the `tuzdyk_rules` crate, to check the engine
//! against. Plain arrays, stone-by-stone sowing, no tables, no bit tricks.
//!
//! Holes are indexed 0..17 in sowing order: White (South) 1..9 are 0..8,
//! Black (North) 1..9 are 9..17. Players are 0 (White, moves first) and
//! 1 (Black). A move is the mover's hole 0..8.
//!
//! Shared by the integration tests (`mod reference;`) and the benchmarks
//! (`#[path = "../tests/reference/mod.rs"] mod reference;`), which each use
//! only part of it.

#![allow(dead_code)]

use tuzdyk_rules::{GameEnd, GameResult, PositionParts, Side};

/// Holes per side.
pub const HOLES: usize = 9;
/// Holes on the board.
pub const BOARD: usize = 18;
/// Stones in the game.
pub const STONES: u32 = 162;
/// A kazan with this many stones has won.
pub const WINNING: u8 = 82;

/// A position in plain arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefPosition {
    /// Stones per hole, in sowing order.
    pub holes: [u8; BOARD],
    /// Kazans of player 0 (White) and 1 (Black).
    pub kazans: [u8; 2],
    /// The board index (0..17, on the opponent's side) of the hole each
    /// player owns as tuzdik.
    pub tuzdiks: [Option<usize>; 2],
    /// The player to move: 0 White, 1 Black.
    pub side: usize,
    /// Full-move number, rising after Black moves.
    pub fullmove: u16,
}

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefOutcome {
    /// Board index 0..17 of the hole where the last stone fell.
    pub landing: usize,
    /// Stones taken by an even capture (0 when none, and 0 for a tuzdik).
    pub captured: u8,
    /// Whether the move made a tuzdik (its 3 stones go to the mover).
    pub tuzdik: bool,
    /// Stones that fell into the tuzdik owned by player 0 and by player 1.
    pub tuzdik_stones: [u8; 2],
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefResult {
    /// Player 0 or 1 won.
    Win(usize),
    Draw,
}

/// Why a finished game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefEnd {
    /// A kazan holds 82 or more.
    Kazan,
    /// The player to move had no move; the board was swept.
    NoMoves,
}

impl RefPosition {
    /// Nine stones in each hole, empty kazans, White to move.
    pub fn start() -> RefPosition {
        RefPosition {
            holes: [9; BOARD],
            kazans: [0, 0],
            tuzdiks: [None, None],
            side: 0,
            fullmove: 1,
        }
    }

    /// The player (0 or 1) who owns hole `index` as tuzdik, if anyone does.
    pub fn tuzdik_owner(&self, index: usize) -> Option<usize> {
        if self.tuzdiks[0] == Some(index) {
            Some(0)
        } else if self.tuzdiks[1] == Some(index) {
            Some(1)
        } else {
            None
        }
    }

    /// Whether a kazan holds 82 or more.
    pub fn kazan_won(&self) -> bool {
        self.kazans[0] >= WINNING || self.kazans[1] >= WINNING
    }

    /// Whether the side to move may play its hole `hole` (0..8).
    pub fn is_legal(&self, hole: usize) -> bool {
        if hole >= HOLES || self.kazan_won() {
            return false;
        }
        let index = self.side * HOLES + hole;
        self.holes[index] > 0 && self.tuzdik_owner(index).is_none()
    }

    /// The legal moves, holes 0..8 in increasing order.
    pub fn legal_moves(&self) -> Vec<usize> {
        (0..HOLES).filter(|&hole| self.is_legal(hole)).collect()
    }

    /// The number of legal moves.
    pub fn legal_count(&self) -> u64 {
        let mut count = 0;
        for hole in 0..HOLES {
            if self.is_legal(hole) {
                count += 1;
            }
        }
        count
    }

    /// Stones on player `player`'s nine holes.
    pub fn stones_on_side(&self, player: usize) -> u32 {
        self.holes[player * HOLES..(player + 1) * HOLES]
            .iter()
            .map(|&n| n as u32)
            .sum()
    }

    /// Each kazan plus the stones on its owner's side.
    pub fn final_scores(&self) -> [u32; 2] {
        [0, 1].map(|player| self.kazans[player] as u32 + self.stones_on_side(player))
    }

    /// The result if the game is over, and why.
    pub fn game_over(&self) -> Option<(RefResult, RefEnd)> {
        for player in 0..2 {
            if self.kazans[player] >= WINNING {
                return Some((RefResult::Win(player), RefEnd::Kazan));
            }
        }
        // Only the player to move matters.
        let mut can_move = false;
        for hole in 0..HOLES {
            let index = self.side * HOLES + hole;
            if self.holes[index] > 0 && self.tuzdik_owner(index).is_none() {
                can_move = true;
            }
        }
        if can_move {
            return None;
        }
        let [white, black] = self.final_scores();
        let result = if white > black {
            RefResult::Win(0)
        } else if black > white {
            RefResult::Win(1)
        } else {
            RefResult::Draw
        };
        Some((result, RefEnd::NoMoves))
    }

    /// Plays hole `hole` (0..8) of the side to move, which must be legal.
    pub fn play(&mut self, hole: usize) -> RefOutcome {
        assert!(self.is_legal(hole), "illegal move {hole} in {self:?}");
        let me = self.side;
        let them = 1 - me;
        let origin = me * HOLES + hole;
        let stones = self.holes[origin];
        self.holes[origin] = 0;

        // With one stone it goes into the next hole; with more, the first
        // goes back into the hole just emptied. `current` is the hole
        // before the next one to receive a stone.
        let mut current = if stones == 1 {
            origin
        } else {
            (origin + BOARD - 1) % BOARD
        };
        let mut tuzdik_stones = [0u8; 2];
        for _ in 0..stones {
            current = (current + 1) % BOARD;
            match self.tuzdik_owner(current) {
                Some(owner) => {
                    self.kazans[owner] += 1;
                    tuzdik_stones[owner] += 1;
                }
                None => self.holes[current] += 1,
            }
        }
        let landing = current;

        let mut captured = 0;
        let mut made_tuzdik = false;
        let on_their_side = landing / HOLES == them;
        if on_their_side && self.tuzdik_owner(landing).is_none() {
            let count = self.holes[landing];
            let number = landing % HOLES;
            if count.is_multiple_of(2) {
                captured = count;
                self.kazans[me] += count;
                self.holes[landing] = 0;
            } else if count == 3
                && self.tuzdiks[me].is_none()
                && number != HOLES - 1
                && self.tuzdiks[them].map(|t| t % HOLES) != Some(number)
            {
                made_tuzdik = true;
                self.tuzdiks[me] = Some(landing);
                self.kazans[me] += 3;
                self.holes[landing] = 0;
            }
        }

        self.side = them;
        if me == 1 {
            self.fullmove += 1;
        }
        RefOutcome {
            landing,
            captured,
            tuzdik: made_tuzdik,
            tuzdik_stones,
        }
    }

    /// Leaves `depth` plies below, a finished game being a leaf that is not
    /// expanded; the last ply is counted, not played.
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.legal_count(),
            _ => {
                let mut leaves = 0;
                for hole in 0..HOLES {
                    if self.is_legal(hole) {
                        let mut child = *self;
                        child.play(hole);
                        leaves += child.perft(depth - 1);
                    }
                }
                leaves
            }
        }
    }

    /// Converts from the engine's plain-array view (no validation).
    pub fn from_parts(parts: &PositionParts) -> RefPosition {
        // A player's tuzdik lies on the opponent's side.
        let tuzdiks = [0, 1].map(|player: usize| {
            parts.tuzdiks[player].map(|hole| (1 - player) * HOLES + hole as usize)
        });
        RefPosition {
            holes: parts.holes,
            kazans: parts.kazans,
            tuzdiks,
            side: match parts.side_to_move {
                Side::White => 0,
                Side::Black => 1,
            },
            fullmove: parts.fullmove,
        }
    }

    /// Converts to the engine's plain-array view.
    pub fn to_parts(self) -> PositionParts {
        PositionParts {
            holes: self.holes,
            kazans: self.kazans,
            tuzdiks: self.tuzdiks.map(|t| t.map(|index| (index % HOLES) as u8)),
            side_to_move: if self.side == 0 {
                Side::White
            } else {
                Side::Black
            },
            fullmove: self.fullmove,
        }
    }
}

/// The engine's type for a reference result.
pub fn engine_result(result: RefResult) -> GameResult {
    match result {
        RefResult::Win(0) => GameResult::Win(Side::White),
        RefResult::Win(_) => GameResult::Win(Side::Black),
        RefResult::Draw => GameResult::Draw,
    }
}

/// The engine's type for a reference game end.
pub fn engine_end(end: RefEnd) -> GameEnd {
    match end {
        RefEnd::Kazan => GameEnd::KazanMajority,
        RefEnd::NoMoves => GameEnd::NoMoves,
    }
}
