//! "Learn from your mistakes": exercises made from a reviewed game, one per
//! move of a player that the review marked (a mistake or a blunder, and
//! inaccuracies when asked), and the judging of an answer to one.
//!
//! An exercise is the position before the move, the move played and its
//! loss, the engine's best move and line, and the loss of *every* legal
//! move against the best. A move is accepted when the review would not
//! mark it: its loss is below the inaccuracy threshold.
//!
//! Each other legal move is scored by a search of the same position
//! restricted to it (`go ... searchmoves <m>`, the review's limits, warm
//! hash; [`crate::review::score_move`]), not by MultiPV: the played move's
//! loss was found the same way, so every loss of an exercise is measured
//! alike; it needs no option changed on an engine the review set up (the
//! GUI's engines keep theirs); and an engine without `searchmoves` is
//! caught and scored from the position after the move. The best move is
//! the review's own line (loss 0) and the played move keeps its reviewed
//! loss, so at most seven searches are added per exercise.

use tuzdyk_notation::hole;
use tuzdyk_rules::{IllegalMove, Move, Position, Side};

use crate::AnalysisError;
use crate::review::{Mark, ReviewEngine, ReviewedMove, capped, score_move};

/// One position to find a better move in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exercise {
    /// 0-based ply of the move in its game.
    pub ply: usize,
    pub mover: Side,
    /// The position before the move.
    pub position: Position,
    /// The move played, its loss and mark.
    pub played: Move,
    pub loss: i32,
    pub mark: Mark,
    /// The engine's best move and line from the position.
    pub best: Option<Move>,
    pub pv: Vec<Move>,
    /// Every legal move, in hole order, with its loss against the best
    /// (centi-stones, capped scores, never below 0; `None` when the engine
    /// gave no score).
    pub losses: Vec<(Move, Option<i32>)>,
    /// A move losing less than this is accepted (the inaccuracy threshold).
    pub tolerance: i32,
}

impl Exercise {
    /// The accepted moves, in hole order: every legal move losing less
    /// than [`Exercise::tolerance`].
    pub fn accepted(&self) -> Vec<Move> {
        self.losses
            .iter()
            .filter(|(_, loss)| loss.is_some_and(|loss| loss < self.tolerance))
            .map(|&(mv, _)| mv)
            .collect()
    }
}

/// What an answer to an exercise is worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub accepted: bool,
    /// The answer's loss against the best, when the engine scored it.
    pub loss: Option<i32>,
    /// The engine's line from the position.
    pub line: Vec<Move>,
}

/// Judges `mv` as an answer to `exercise`.
///
/// # Errors
/// [`IllegalMove`] when `mv` cannot be played in the exercise's position.
pub fn judge(exercise: &Exercise, mv: Move) -> Result<Verdict, IllegalMove> {
    exercise.position.check(mv)?;
    let loss = exercise
        .losses
        .iter()
        .find(|&&(m, _)| m == mv)
        .and_then(|&(_, loss)| loss);
    Ok(Verdict {
        accepted: loss.is_some_and(|loss| loss < exercise.tolerance),
        loss,
        line: exercise.pv.clone(),
    })
}

/// The exercises of `reviewed` (a game's moves as [`crate::review_game`]
/// gave them, with `thresholds`), in the game's order: the moves of `side`
/// (of both players when `None`) marked `lowest` or worse.
///
/// # Errors
/// The engine's [`AnalysisError`] while scoring the other moves.
pub fn exercises<E: ReviewEngine + ?Sized>(
    engine: &mut E,
    reviewed: &[ReviewedMove],
    side: Option<Side>,
    thresholds: [i32; 3],
    lowest: Mark,
) -> Result<Vec<Exercise>, AnalysisError> {
    let mut exercises = Vec::new();
    for m in reviewed {
        if side.is_some_and(|side| side != m.mover) {
            continue;
        }
        let (Some(mark), Some(loss), Some(before)) = (m.mark, m.loss, m.review.before) else {
            continue;
        };
        if mark < lowest {
            continue;
        }
        let best = hole::parse(&m.review.best)
            .ok()
            .filter(|&mv| m.before.is_legal(mv))
            .or_else(|| m.review.pv.first().copied());
        let mut losses = Vec::new();
        for mv in m.before.legal_moves() {
            let mv_loss = if mv == m.mv {
                Some(loss)
            } else if Some(mv) == best {
                Some(0)
            } else {
                score_move(engine, m.ply, &m.before, mv)?
                    .map(|score| (capped(before) - capped(score)).max(0))
            };
            losses.push((mv, mv_loss));
        }
        exercises.push(Exercise {
            ply: m.ply,
            mover: m.mover,
            position: m.before,
            played: m.mv,
            loss,
            mark,
            best,
            pv: m.review.pv.clone(),
            losses,
            tolerance: thresholds[0],
        });
    }
    Ok(exercises)
}

#[cfg(test)]
mod tests {
    use tuzdyk_protocol::{InfoLine, Score, SearchReport};
    use tuzdyk_rules::{Game, Position};

    use super::*;
    use crate::review::review_game;

    fn mv(number: u32) -> Move {
        Move::from_number(number).unwrap()
    }

    /// An engine with a fixed score for each of White's moves (`None` for
    /// no score), best move 6, and no score for Black; counts searches.
    struct Fixed {
        scores: [Option<i32>; 9],
        searches: Vec<Option<Move>>,
    }

    impl ReviewEngine for Fixed {
        fn search(
            &mut self,
            pos: &Position,
            only: Option<Move>,
        ) -> Result<SearchReport, AnalysisError> {
            self.searches.push(only);
            let chosen = only.unwrap_or(mv(6));
            let white = pos.side_to_move() == Side::White;
            Ok(SearchReport {
                bestmove_line: format!("bestmove {chosen}"),
                lines: vec![InfoLine {
                    depth: Some(4),
                    score: self.scores[chosen.index()]
                        .filter(|_| white)
                        .map(Score::Centistones),
                    pv: vec![chosen, mv(1)],
                    ..InfoLine::default()
                }],
                nodes: Some(100),
                strings: Vec::new(),
            })
        }
    }

    const THRESHOLDS: [i32; 3] = [100, 300, 600];

    /// A one-move game (White plays `played` from the start), reviewed and
    /// made into exercises for White.
    fn exercise_of(played: u32, scores: [Option<i32>; 9], lowest: Mark) -> (Vec<Exercise>, Fixed) {
        let mut engine = Fixed {
            scores,
            searches: Vec::new(),
        };
        let game = Game::replay(Position::startpos(), [mv(played)]).unwrap();
        let mut reviewed = Vec::new();
        review_game(&mut engine, &game, 0, THRESHOLDS, |m| {
            reviewed.push(m);
            Ok(())
        })
        .unwrap();
        engine.searches.clear();
        let made = exercises(
            &mut engine,
            &reviewed,
            Some(Side::White),
            THRESHOLDS,
            lowest,
        )
        .unwrap();
        (made, engine)
    }

    const SCORES: [Option<i32>; 9] = [
        Some(50),   // 1: loses 50, accepted
        Some(0),    // 2: loses 100, exactly an inaccuracy: refused
        Some(-500), // 3: the blunder played (loses 600)
        Some(120),  // 4: scores above the best: loses 0
        None,       // 5: no score: refused
        Some(100),  // 6: the best
        Some(-300), // 7
        Some(1),    // 8: loses 99, accepted
        Some(-300), // 9
    ];

    #[test]
    fn accepted_moves_lose_less_than_an_inaccuracy() {
        let (made, engine) = exercise_of(3, SCORES, Mark::Mistake);
        assert_eq!(made.len(), 1);
        let exercise = &made[0];
        assert_eq!((exercise.ply, exercise.mover), (0, Side::White));
        assert_eq!((exercise.played, exercise.loss), (mv(3), 600));
        assert_eq!(exercise.mark, Mark::Blunder);
        assert_eq!(exercise.best, Some(mv(6)));
        assert_eq!(exercise.pv, vec![mv(6), mv(1)]);
        assert_eq!(exercise.accepted(), vec![mv(1), mv(4), mv(6), mv(8)]);
        assert_eq!(
            exercise.losses,
            vec![
                (mv(1), Some(50)),
                (mv(2), Some(100)),
                (mv(3), Some(600)),
                (mv(4), Some(0)),
                (mv(5), None),
                (mv(6), Some(0)),
                (mv(7), Some(400)),
                (mv(8), Some(99)),
                (mv(9), Some(400)),
            ]
        );
        // The best and the played move are the review's: not searched again.
        // Move 5, unscored, was also searched from the position after it.
        let searched: Vec<Option<Move>> = [1, 2, 4, 5]
            .map(|n| Some(mv(n)))
            .into_iter()
            .chain([None])
            .chain([7, 8, 9].map(|n| Some(mv(n))))
            .collect();
        assert_eq!(engine.searches, searched);
    }

    #[test]
    fn answers_are_judged_by_their_loss() {
        let (made, _) = exercise_of(3, SCORES, Mark::Mistake);
        let exercise = &made[0];
        let verdict = judge(exercise, mv(8)).unwrap();
        assert_eq!(
            verdict,
            Verdict {
                accepted: true,
                loss: Some(99),
                line: vec![mv(6), mv(1)],
            }
        );
        let wrong = judge(exercise, mv(2)).unwrap();
        assert_eq!((wrong.accepted, wrong.loss), (false, Some(100)));
        assert!(!judge(exercise, mv(3)).unwrap().accepted, "the move played");
        assert!(!judge(exercise, mv(5)).unwrap().accepted, "unscored");
        // White's hole 1 sown twice (9 stones, then the one left) is empty.
        let mut emptied = exercise.clone();
        emptied.position = *Game::replay(Position::startpos(), [1, 1, 1, 1].map(mv))
            .unwrap()
            .position();
        assert_eq!(judge(&emptied, mv(1)), Err(IllegalMove::EmptyHole(mv(1))));
    }

    #[test]
    fn only_the_marks_asked_for_make_exercises() {
        // Playing 2 loses 100: an inaccuracy.
        let (made, _) = exercise_of(2, SCORES, Mark::Mistake);
        assert!(made.is_empty());
        let (made, _) = exercise_of(2, SCORES, Mark::Inaccuracy);
        assert_eq!(made.len(), 1);
        assert_eq!(made[0].mark, Mark::Inaccuracy);
        assert!(!made[0].accepted().contains(&mv(2)));
        // The engine's own move is no exercise.
        let (made, _) = exercise_of(6, SCORES, Mark::Inaccuracy);
        assert!(made.is_empty());
    }
}
