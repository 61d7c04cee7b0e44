//! Game review, the one implementation behind `tuzdyk analyse`, `tuzdyk
//! rating` and the GUI: every move of a game scored against the engine's
//! choice, its loss, its mark, and the players' accuracy.
//!
//! For each move the position before it is searched: the best line's score
//! is the mover's *before* score. The played move's *after* score (also the
//! mover's view) is then found as cheaply as possible: the same score when
//! the engine would have played it too, the score of its line when MultiPV
//! reports it, else one more search of the same position restricted to it
//! (`go ... searchmoves <m>`, same limits, warm hash). An engine that ignores
//! `searchmoves` is caught (its answer is another move) and the position after
//! the move is searched instead, its score negated.
//!
//! The loss is `before - after` in centi-stones, never below 0, with both
//! scores first capped to ±[`SCORE_CAP`] (a forced win counts as `+SCORE_CAP`,
//! a forced loss as `-SCORE_CAP`): a player already 20 stones up loses
//! nothing by winning more slowly, and turning a win into a loss costs at most
//! `2 × SCORE_CAP`. A move losing at least the inaccuracy, mistake or blunder
//! threshold is marked so.
//!
//! How positions are searched is the caller's ([`ReviewEngine`]): the CLI
//! searches through [`crate::Searcher`] and stops at the first engine
//! failure, the GUI restarts the engine and goes on.

use tuzdyk_notation::record::move_token;
use tuzdyk_protocol::{Score, SearchReport};
use tuzdyk_rules::{Game, GameResult, Move, Position, Side};

use crate::{AnalysisError, Rejected};

/// Inaccuracy, mistake and blunder thresholds in centi-stones (100 = one
/// stone) when none are given.
pub const DEFAULT_THRESHOLDS: [u32; 3] = [100, 300, 600];

/// Scores are capped to ± this (20 stones) before losses are computed; a
/// forced win or loss counts as the cap.
pub const SCORE_CAP: i32 = 2000;

/// A move losing this many centi-stones counts 50% in the accuracy figure
/// (100% for no loss, 25% for twice this...).
pub const ACCURACY_HALF_LOSS: f64 = 300.0;

/// How bad a move was, by its loss (ordered: an inaccuracy is the least).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    pub const ALL: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

    /// `inaccuracy`, `mistake`, `blunder`.
    pub const fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The mark of a move losing `loss`, with thresholds (centi-stones) for
    /// an inaccuracy, a mistake and a blunder.
    pub fn of(loss: i32, thresholds: [i32; 3]) -> Option<Mark> {
        (0..3)
            .rev()
            .find(|&k| loss >= thresholds[k])
            .map(|k| Mark::ALL[k])
    }
}

/// A score in centi-stones for loss arithmetic, capped.
pub fn capped(score: Score) -> i32 {
    match score {
        Score::Centistones(cp) => cp.clamp(-SCORE_CAP, SCORE_CAP),
        Score::Mate(n) if n > 0 => SCORE_CAP,
        Score::Mate(_) => -SCORE_CAP,
    }
}

/// The accuracy of one move (0..100) from its loss.
pub fn move_accuracy(loss: i32) -> f64 {
    100.0 * 0.5f64.powf(loss.max(0) as f64 / ACCURACY_HALF_LOSS)
}

/// One player's totals over a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerStats {
    pub moves: u32,
    /// Moves with a loss (the engine scored both sides of them).
    pub scored: u32,
    pub total_loss: i64,
    pub accuracy_sum: f64,
    /// Inaccuracies, mistakes, blunders.
    pub marks: [u32; 3],
}

impl PlayerStats {
    /// Counts one move of this player.
    pub fn add(&mut self, reviewed: &ReviewedMove) {
        self.moves += 1;
        if let Some(loss) = reviewed.loss {
            self.scored += 1;
            self.total_loss += loss as i64;
            self.accuracy_sum += move_accuracy(loss);
            if let Some(mark) = reviewed.mark {
                self.marks[mark as usize] += 1;
            }
        }
    }

    pub fn average_loss(&self) -> f64 {
        if self.scored == 0 {
            0.0
        } else {
            self.total_loss as f64 / self.scored as f64
        }
    }

    pub fn accuracy(&self) -> f64 {
        if self.scored == 0 {
            100.0
        } else {
            self.accuracy_sum / self.scored as f64
        }
    }
}

/// What the engine said about one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReview {
    /// The engine's `bestmove` token.
    pub best: String,
    /// The mover's score before the move (the engine's best).
    pub before: Option<Score>,
    /// The mover's score of the move played.
    pub after: Option<Score>,
    pub depth: Option<u32>,
    /// The engine's line from the position before the move.
    pub pv: Vec<Move>,
}

/// One move of a game, reviewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewedMove {
    /// 0-based index of the move in the game.
    pub ply: usize,
    pub mover: Side,
    pub mv: Move,
    /// The position before the move.
    pub before: Position,
    /// The move as records write it (`65(10)`).
    pub token: String,
    pub review: MoveReview,
    /// Centi-stones lost, when both scores are known.
    pub loss: Option<i32>,
    pub mark: Option<Mark>,
}

/// Searches a position for the review, the way its caller drives an engine.
pub trait ReviewEngine {
    /// Searches `pos`, only the move `only` when given (`go ... searchmoves`),
    /// and gives the report as read: the review itself looks for the
    /// engine's rejection of the position ([`SearchReport::position_error`]).
    ///
    /// # Errors
    /// [`AnalysisError::Engine`] or [`AnalysisError::Stopped`] when the
    /// review cannot go on.
    fn search(&mut self, pos: &Position, only: Option<Move>)
    -> Result<SearchReport, AnalysisError>;
}

/// The report, or [`AnalysisError::Rejected`] at `ply` when the engine
/// rejected the position.
fn accepted(report: SearchReport, ply: usize) -> Result<SearchReport, AnalysisError> {
    match report.position_error() {
        Some(message) => Err(AnalysisError::Rejected(Rejected {
            ply,
            message: message.to_string(),
        })),
        None => Ok(report),
    }
}

/// Reviews the moves of `game` from ply `from` on, handing each to
/// `on_move` as soon as it is scored; `thresholds` are those of [`Mark::of`].
///
/// # Errors
/// The engine's error, [`AnalysisError::Rejected`] for a position the
/// engine rejected, or `on_move`'s error (normally
/// [`AnalysisError::Stopped`]).
pub fn review_game<E: ReviewEngine + ?Sized>(
    engine: &mut E,
    game: &Game,
    from: usize,
    thresholds: [i32; 3],
    mut on_move: impl FnMut(ReviewedMove) -> Result<(), AnalysisError>,
) -> Result<(), AnalysisError> {
    for (ply, step) in game.plies().into_iter().enumerate().skip(from) {
        let mover = step.mover();
        let review = review_move(engine, ply, &step.before, step.mv)?;
        let loss = match (review.before, review.after) {
            (Some(b), Some(a)) => Some((capped(b) - capped(a)).max(0)),
            _ => None,
        };
        on_move(ReviewedMove {
            ply,
            mover,
            mv: step.mv,
            before: step.before,
            token: move_token(step.mv, &step.outcome, &step.after, mover),
            review,
            loss,
            mark: loss.and_then(|loss| Mark::of(loss, thresholds)),
        })?;
    }
    Ok(())
}

/// Scores the move `mv` from `before`, the game's move at `ply`.
///
/// # Errors
/// The engine's error, or [`AnalysisError::Rejected`] at `ply`.
pub fn review_move<E: ReviewEngine + ?Sized>(
    engine: &mut E,
    ply: usize,
    before: &Position,
    mv: Move,
) -> Result<MoveReview, AnalysisError> {
    let report = accepted(engine.search(before, None)?, ply)?;
    let best_line = report.best_line();
    let mut review = MoveReview {
        best: report.bestmove_token().to_string(),
        before: best_line.and_then(|l| l.score),
        after: None,
        depth: best_line.and_then(|l| l.depth),
        pv: best_line.map_or(Vec::new(), |l| l.pv.clone()),
    };
    // The engine's own choice, or a line MultiPV already scored.
    if chose(&report, mv) {
        review.after = review.before;
        return Ok(review);
    }
    if let Some(line) = report
        .lines
        .iter()
        .find(|l| l.pv.first() == Some(&mv) && l.score.is_some())
    {
        review.after = line.score;
        return Ok(review);
    }
    review.after = score_move(engine, ply, before, mv)?;
    Ok(review)
}

/// Whether the search chose `mv`.
fn chose(report: &SearchReport, mv: Move) -> bool {
    report.best().ok().and_then(|best| best.mv) == Some(mv)
}

/// The mover's score of the legal move `mv` from `before` (the game's
/// position at `ply`): a search of `before` restricted to it (`go ...
/// searchmoves`, same limits, warm hash), or, for an engine that ignores
/// `searchmoves` (its answer is another move), the position after the move
/// searched and its score negated.
///
/// # Errors
/// The engine's error, or [`AnalysisError::Rejected`] at `ply` for a
/// position after the move that the engine rejected.
pub fn score_move<E: ReviewEngine + ?Sized>(
    engine: &mut E,
    ply: usize,
    before: &Position,
    mv: Move,
) -> Result<Option<Score>, AnalysisError> {
    let restricted = engine.search(before, Some(mv))?;
    if restricted.position_error().is_none()
        && chose(&restricted, mv)
        && let Some(score) = restricted.best_line().and_then(|l| l.score)
    {
        return Ok(Some(score));
    }
    let mut after = *before;
    after.play(mv);
    Ok(match after.game_over() {
        Some((result, _)) => Some(match result {
            GameResult::Win(side) if side == before.side_to_move() => Score::Mate(1),
            GameResult::Win(_) => Score::Mate(0),
            GameResult::Draw => Score::Centistones(0),
        }),
        None => accepted(engine.search(&after, None)?, ply)?
            .best_line()
            .and_then(|l| l.score)
            .map(Score::negate),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_capped_for_losses() {
        assert_eq!(capped(Score::Centistones(150)), 150);
        assert_eq!(capped(Score::Centistones(-9000)), -SCORE_CAP);
        assert_eq!(capped(Score::Mate(3)), SCORE_CAP);
        assert_eq!(capped(Score::Mate(-1)), -SCORE_CAP);
        assert_eq!(capped(Score::Mate(0)), -SCORE_CAP);
    }

    #[test]
    fn accuracy_halves_every_half_loss() {
        assert_eq!(move_accuracy(0), 100.0);
        assert!((move_accuracy(300) - 50.0).abs() < 1e-9);
        assert!((move_accuracy(600) - 25.0).abs() < 1e-9);
        assert_eq!(move_accuracy(-5), 100.0);
    }

    #[test]
    fn marks_follow_the_thresholds() {
        let thresholds = [100, 300, 600];
        assert_eq!(Mark::of(99, thresholds), None);
        assert_eq!(Mark::of(100, thresholds), Some(Mark::Inaccuracy));
        assert_eq!(Mark::of(599, thresholds), Some(Mark::Mistake));
        assert_eq!(Mark::of(4000, thresholds), Some(Mark::Blunder));
    }
}
