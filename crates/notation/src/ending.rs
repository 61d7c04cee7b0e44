//! How a finished game is described: the result, the count that decided it
//! and why it ended, in the words every tool uses.

use std::fmt;

use tuzdyk_rules::{GameEnd, GameResult, Position, Side};

use crate::record::result_text;

/// A finished game, ready to describe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    pub result: GameResult,
    pub end: GameEnd,
    /// `[White, Black]`: the kazans, after the sweep when no move was left.
    pub count: [u32; 2],
    /// The side to move when it ended (the one without a move, for
    /// [`GameEnd::NoMoves`]).
    pub to_move: Side,
}

impl Ending {
    /// The ending of `position`, if its game is over.
    pub fn of(position: &Position) -> Option<Ending> {
        let (result, end) = position.game_over()?;
        Some(Ending {
            result,
            end,
            count: position.final_count(end),
            to_move: position.side_to_move(),
        })
    }

    /// Why it ended: `a kazan reached 82`, or `Black has no move; the
    /// stones left go to their sides`.
    pub fn reason(&self) -> String {
        match self.end {
            GameEnd::KazanMajority => "a kazan reached 82".to_string(),
            GameEnd::NoMoves => format!(
                "{} has no move; the stones left go to their sides",
                self.to_move
            ),
        }
    }

    /// `White 85, Black 77`.
    pub fn count_text(&self) -> String {
        format!("White {}, Black {}", self.count[0], self.count[1])
    }
}

impl fmt::Display for Ending {
    /// `1-0 (White 85, Black 77: a kazan reached 82)`.
    ///
    /// ```
    /// use tuzdyk_notation::{ending::Ending, tfen};
    ///
    /// let pos = tfen::parse("9S,9S,9S,9S,9S,9S,9S,9S,7S/1,1S,7 82 0 S 30").unwrap();
    /// let ending = Ending::of(&pos).unwrap();
    /// assert_eq!(ending.to_string(), "1-0 (White 82, Black 0: a kazan reached 82)");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}: {})",
            result_text(Some(self.result)),
            self.count_text(),
            self.reason()
        )
    }
}
