//! "Learn from your mistakes" as a game keeps it, without I/O: the
//! exercises of a reviewed game (made by the engine, the analysis crate's
//! [`exercises`](tuzdyk_analysis::exercises)) or one stored mistake, the
//! one shown, the answers judged by [`judge`], and how many were found.

use tuzdyk_analysis::{Exercise, Mark, Verdict, judge};
use tuzdyk_db::Mistake;
use tuzdyk_rules::{Move, Side};

use crate::convert::moves;
use crate::error::GuiError;
use crate::wire::{AnswerView, ExerciseView, LearnView};

/// An answer and its verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub mv: Move,
    pub verdict: Verdict,
}

/// The exercises and where the player is in them.
#[derive(Clone, Debug, Default)]
pub struct Learn {
    /// Whose mistakes (`None`: both players').
    pub side: Option<Side>,
    /// `None` while the engine makes them.
    pub exercises: Option<Vec<Exercise>>,
    /// Each exercise's row in the database's `mistakes`, once saved.
    pub ids: Vec<Option<i64>>,
    pub index: usize,
    pub found: usize,
    pub answer: Option<Answer>,
    /// The exercise shown was solved (an answer accepted).
    pub solved: bool,
    /// The exercise shown had its answer shown.
    pub revealed: bool,
    /// A mistake reopened from the database.
    pub stored: bool,
}

impl Learn {
    /// The exercises of `side`, to be made by the engine.
    pub fn preparing(side: Option<Side>) -> Learn {
        Learn {
            side,
            ..Learn::default()
        }
    }

    /// Stored mistake `mistake` as an exercise (its position is the game's
    /// start): the accepted moves lose nothing, the others are refused.
    pub fn stored(mistake: &Mistake, tolerance: i32) -> Learn {
        let position = mistake.position;
        let losses = position
            .legal_moves()
            .into_iter()
            .map(|mv| (mv, mistake.accepted.contains(&mv).then_some(0)))
            .collect();
        let exercise = Exercise {
            ply: 0,
            mover: position.side_to_move(),
            position,
            played: mistake.played,
            loss: 0,
            mark: Mark::Mistake,
            best: Some(mistake.best),
            pv: vec![mistake.best],
            losses,
            tolerance,
        };
        Learn {
            side: Some(position.side_to_move()),
            exercises: Some(vec![exercise]),
            ids: vec![Some(mistake.id)],
            stored: true,
            ..Learn::default()
        }
    }

    /// The exercise shown, if any (none while preparing, nor at the summary).
    pub fn current(&self) -> Option<&Exercise> {
        self.exercises.as_ref()?.get(self.index)
    }

    /// The engine made the exercises.
    pub fn ready(&mut self, exercises: Vec<Exercise>) {
        self.ids = vec![None; exercises.len()];
        self.exercises = Some(exercises);
        self.index = 0;
    }

    /// Judges `mv`; returns the stored mistake to count as solved, if the
    /// answer found it.
    ///
    /// # Errors
    /// [`GuiError::NotLearning`] with no exercise shown, or the rules'
    /// reason `mv` cannot be played.
    pub fn answer(&mut self, mv: Move) -> Result<Option<i64>, GuiError> {
        let exercise = self.current().ok_or(GuiError::NotLearning)?;
        if self.solved || self.revealed {
            return Err(GuiError::NotLearning);
        }
        let verdict = judge(exercise, mv).map_err(GuiError::Illegal)?;
        let accepted = verdict.accepted;
        self.answer = Some(Answer { mv, verdict });
        if !accepted {
            return Ok(None);
        }
        self.solved = true;
        self.found += 1;
        Ok(self.ids.get(self.index).copied().flatten())
    }

    /// Shows the engine's answer to the exercise shown.
    ///
    /// # Errors
    /// [`GuiError::NotLearning`] with no exercise shown.
    pub fn reveal(&mut self) -> Result<(), GuiError> {
        self.current().ok_or(GuiError::NotLearning)?;
        self.revealed = true;
        Ok(())
    }

    /// On to the next exercise (or the summary); returns its ply.
    ///
    /// # Errors
    /// [`GuiError::NotLearning`] with no exercise shown.
    pub fn advance(&mut self) -> Result<Option<usize>, GuiError> {
        self.current().ok_or(GuiError::NotLearning)?;
        self.index += 1;
        self.answer = None;
        self.solved = false;
        self.revealed = false;
        Ok(self.current().map(|e| e.ply))
    }

    /// What the page is sent.
    pub fn view(&self) -> LearnView {
        let exercise = self.current().map(|e| {
            let told = self.solved || self.revealed;
            ExerciseView {
                ply: e.ply,
                mover: e.mover.into(),
                played: e.played.number(),
                loss: (!self.stored).then_some(e.loss),
                mark: (!self.stored).then_some(e.mark.name()),
                answer: self.answer.as_ref().map(|a| AnswerView {
                    hole: a.mv.number(),
                    accepted: a.verdict.accepted,
                    loss: a.verdict.loss,
                }),
                solved: self.solved,
                revealed: self.revealed,
                best: e.best.filter(|_| told).map(Move::number),
                pv: if told { moves(&e.pv) } else { Vec::new() },
            }
        });
        LearnView {
            side: self.side.map(Into::into),
            preparing: self.exercises.is_none(),
            total: self.exercises.as_ref().map_or(0, Vec::len),
            index: self.index,
            found: self.found,
            exercise,
            stored: self.stored,
        }
    }
}

#[cfg(test)]
mod tests {
    use tuzdyk_rules::Position;

    use super::*;

    fn mv(n: u32) -> Move {
        Move::from_number(n).unwrap()
    }

    #[test]
    fn a_stored_mistake_accepts_its_moves_and_counts_a_find_once() {
        let mistake = Mistake {
            id: 7,
            position: Position::startpos(),
            played: mv(1),
            best: mv(6),
            accepted: vec![mv(6), mv(8)],
            game_id: None,
            ply: 0,
            solved: 0,
        };
        let mut learn = Learn::stored(&mistake, 100);
        assert_eq!(learn.answer(mv(1)).unwrap(), None);
        assert!(!learn.view().exercise.unwrap().answer.unwrap().accepted);
        assert!(
            learn.view().exercise.unwrap().pv.is_empty(),
            "no answer told"
        );
        assert_eq!(learn.answer(mv(8)).unwrap(), Some(7));
        assert!(matches!(learn.answer(mv(6)), Err(GuiError::NotLearning)));
        assert_eq!(learn.found, 1);
        assert_eq!(learn.view().exercise.unwrap().pv, vec![6]);
        assert_eq!(learn.advance().unwrap(), None);
        assert!(learn.view().exercise.is_none());
        assert!(matches!(learn.advance(), Err(GuiError::NotLearning)));
    }
}
