//! A game: where it started and the moves played since, with the position
//! they lead to. Every move is checked; the one place that replays a start
//! and a move list.

use crate::{GameEnd, GameResult, IllegalMove, Move, MoveOutcome, Position, Side};

/// A start position and the legal moves played from it.
///
/// ```
/// use tuzdyk_rules::{Game, IllegalMove, Move, Position};
///
/// let mut game = Game::new(Position::startpos());
/// let [one, five, six] = [1, 5, 6].map(|n| Move::from_number(n).unwrap());
/// assert_eq!(game.play(six).unwrap().captured, 10); // Black's hole 5 taken
/// assert_eq!(game.play(five), Err(IllegalMove::EmptyHole(five)));
/// game.play(one).unwrap();
/// assert_eq!(game.moves().len(), 2);
/// assert_eq!(game.undo(), Some(one));
/// assert_eq!(game.moves(), &[six]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start: Position,
    moves: Vec<Move>,
    position: Position,
}

/// A move list that does not replay: which move (0-based) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {} ({mv}): {reason}", .index + 1)]
pub struct ReplayError {
    /// 0-based index of the move in the list.
    pub index: usize,
    pub mv: Move,
    pub reason: IllegalMove,
}

impl Game {
    /// A game with no moves yet.
    pub fn new(start: Position) -> Game {
        Game {
            start,
            moves: Vec::new(),
            position: start,
        }
    }

    /// Replays `moves` from `start`.
    ///
    /// # Errors
    /// The first move that cannot be played, with its index and why.
    pub fn replay(
        start: Position,
        moves: impl IntoIterator<Item = Move>,
    ) -> Result<Game, ReplayError> {
        let mut game = Game::new(start);
        for (index, mv) in moves.into_iter().enumerate() {
            game.play(mv)
                .map_err(|reason| ReplayError { index, mv, reason })?;
        }
        Ok(game)
    }

    /// Plays `mv` if it is legal.
    ///
    /// # Errors
    /// [`IllegalMove`] when the game is over or the hole cannot be played;
    /// the game is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<MoveOutcome, IllegalMove> {
        self.position.check(mv)?;
        self.moves.push(mv);
        Ok(self.position.play(mv))
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let last = self.moves.pop()?;
        self.position = self.position_at(self.moves.len());
        Some(last)
    }

    /// Keeps only the first `plies` moves.
    pub fn truncate(&mut self, plies: usize) {
        if plies < self.moves.len() {
            self.moves.truncate(plies);
            self.position = self.position_at(plies);
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position now, after every move.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position after the first `plies` moves (clamped to the game).
    pub fn position_at(&self, plies: usize) -> Position {
        let mut position = self.start;
        for &mv in &self.moves[..plies.min(self.moves.len())] {
            position.play(mv);
        }
        position
    }

    /// Every position of the game, from the start to after the last move.
    pub fn positions(&self) -> Vec<Position> {
        let mut positions = Vec::with_capacity(self.moves.len() + 1);
        let mut position = self.start;
        positions.push(position);
        for &mv in &self.moves {
            position.play(mv);
            positions.push(position);
        }
        positions
    }

    /// Each move with the position before it and what it did.
    pub fn plies(&self) -> Vec<Ply> {
        let mut plies = Vec::with_capacity(self.moves.len());
        let mut position = self.start;
        for &mv in &self.moves {
            let before = position;
            let outcome = position.play(mv);
            plies.push(Ply {
                before,
                mv,
                outcome,
                after: position,
            });
        }
        plies
    }

    /// The side that made move `index` (0-based).
    pub fn mover(&self, index: usize) -> Side {
        let first = self.start.side_to_move();
        if index.is_multiple_of(2) {
            first
        } else {
            first.opponent()
        }
    }

    /// The result if the game is over by the rules, with how it ended.
    pub fn game_over(&self) -> Option<(GameResult, GameEnd)> {
        self.position.game_over()
    }
}

/// One move of a game in context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    pub before: Position,
    pub mv: Move,
    pub outcome: MoveOutcome,
    pub after: Position,
}

impl Ply {
    /// The side that made the move.
    pub fn mover(&self) -> Side {
        self.before.side_to_move()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(n: u32) -> Move {
        Move::from_number(n).unwrap()
    }

    #[test]
    fn a_bad_move_list_names_the_move_and_keeps_nothing() {
        // White's 6 takes Black's hole 5.
        let error = Game::replay(Position::startpos(), [mv(6), mv(5), mv(1)]).unwrap_err();
        assert_eq!(error.index, 1);
        assert_eq!(error.reason, IllegalMove::EmptyHole(mv(5)));
        assert_eq!(error.to_string(), "move 2 (5): hole 5 is empty");
    }

    #[test]
    fn undo_and_truncate_replay_from_the_start() {
        let mut game = Game::replay(Position::startpos(), [mv(6), mv(1), mv(2)]).unwrap();
        let after_two = game.position_at(2);
        assert_eq!(game.undo(), Some(mv(2)));
        assert_eq!(game.position(), &after_two);
        game.truncate(0);
        assert_eq!(game.position(), &Position::startpos());
        assert_eq!(game.undo(), None);
    }

    #[test]
    fn plies_know_their_movers() {
        let game = Game::replay(Position::startpos(), [mv(6), mv(1)]).unwrap();
        let plies = game.plies();
        assert_eq!(plies[0].mover(), Side::White);
        assert_eq!(game.mover(1), Side::Black);
        assert_eq!(plies[0].outcome.captured, 10);
        assert_eq!(plies[1].before, plies[0].after);
    }
}
