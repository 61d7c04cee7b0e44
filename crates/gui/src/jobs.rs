//! Which engine job a game wants now, and the job itself: the engine's
//! move (at its level or time per move), the hint and the review at full
//! strength, the analysis of the position shown with three lines.

use std::time::Duration;

use tuzdyk_protocol::{EngineOption, Go, Level};
use tuzdyk_rules::Move;

use crate::command::Mode;
use crate::session::GameState;
use crate::worker::{EngineWorker, Job, Task};

/// The time bound of a move at a level (whose node cap usually ends it first).
const LEVEL_MOVETIME_MS: u64 = 1000;
/// The hint's time: a full-strength move.
const HINT_MOVETIME_MS: u64 = 1000;
/// Each position of a review is searched to this depth.
const REVIEW_DEPTH: u32 = 10;
/// The pause between moves of an engine-vs-engine game, to watch it.
const ENGINES_PACE: Duration = Duration::from_millis(700);
/// MultiPV lines of the analysis.
pub const ANALYSIS_LINES: usize = 3;

/// The job that should be running, told apart from an older one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKey {
    EngineMove { epoch: u64 },
    Hint { epoch: u64 },
    Review { epoch: u64 },
    Analysis { epoch: u64, view_epoch: u64 },
}

impl GameState {
    /// The job that should run now, if any.
    pub(crate) fn wanted_job(&self) -> Option<JobKey> {
        if self.halted == Some(self.epoch) {
            return None;
        }
        let over = self.result().is_some();
        let wanted = if !over && self.view.is_none() && self.engine_to_move() && !self.paused {
            Some(JobKey::EngineMove { epoch: self.epoch })
        } else if self.hint_wanted && !over {
            Some(JobKey::Hint { epoch: self.epoch })
        } else if self.review.as_ref().is_some_and(|r| !r.done) {
            Some(JobKey::Review { epoch: self.epoch })
        } else if self.analysis && self.shown_position().game_over().is_none() {
            Some(JobKey::Analysis {
                epoch: self.epoch,
                view_epoch: self.view_epoch,
            })
        } else {
            None
        };
        wanted.filter(|key| self.completed != Some(*key))
    }

    /// Starts the job that should run, stopping the one that should not.
    pub(crate) fn schedule(&mut self, worker: &EngineWorker) {
        let wanted = self.wanted_job();
        match (wanted, self.running) {
            (Some(key), Some((_, running))) if key == running => {}
            (Some(key), _) => {
                let id = self.next_job;
                self.next_job += 1;
                self.running = Some((id, key));
                worker.submit(self.job(id, key));
            }
            (None, Some(_)) => {
                self.running = None;
                worker.cancel();
            }
            (None, None) => {}
        }
    }

    fn job(&self, id: u64, key: JobKey) -> Job {
        let level = EngineOption::Level.spec().name.to_string();
        let multipv = EngineOption::MultiPv.spec().name.to_string();
        let full_strength = |lines: usize| {
            vec![
                (level.clone(), Level::FULL_STRENGTH.name().to_string()),
                (multipv.clone(), lines.to_string()),
            ]
        };
        let timed = |ms: u64| Go {
            movetime: Some(Duration::from_millis(ms)),
            ..Go::default()
        };
        let search = |moves: &[Move], go: Go, timeout: Duration| Task::Search {
            start: *self.game.start(),
            moves: moves.to_vec(),
            go,
            timeout,
        };
        let moves = self.game.moves();
        let (options, task, not_before) = match key {
            JobKey::EngineMove { .. } => {
                let (strength, ms) = match self.settings.movetime_ms {
                    Some(ms) => (Level::FULL_STRENGTH, ms),
                    None => (self.settings.level, LEVEL_MOVETIME_MS),
                };
                let options = vec![
                    (level.clone(), strength.name().to_string()),
                    (multipv.clone(), "1".to_string()),
                ];
                let pace = (self.settings.mode == Mode::Engines)
                    .then(|| self.last_engine_move.map(|at| at + ENGINES_PACE))
                    .flatten();
                (options, search(moves, timed(ms), hang_timeout(ms)), pace)
            }
            JobKey::Hint { .. } => (
                full_strength(1),
                search(
                    moves,
                    timed(HINT_MOVETIME_MS),
                    hang_timeout(HINT_MOVETIME_MS),
                ),
                None,
            ),
            JobKey::Review { .. } => {
                let go = Go {
                    depth: Some(REVIEW_DEPTH),
                    ..Go::default()
                };
                let from = self.review.as_ref().map_or(0, |r| r.moves.len());
                let task = Task::Review {
                    game: self.game.clone(),
                    from,
                    go,
                    timeout: Duration::from_secs(120),
                };
                (full_strength(1), task, None)
            }
            JobKey::Analysis { .. } => {
                let go = Go {
                    infinite: true,
                    ..Go::default()
                };
                let shown = &moves[..self.shown_ply()];
                let day = Duration::from_secs(24 * 3600);
                (full_strength(ANALYSIS_LINES), search(shown, go, day), None)
            }
        };
        Job {
            id,
            task,
            options,
            not_before,
        }
    }
}

/// How long a timed search may take before the engine counts as hung.
fn hang_timeout(movetime_ms: u64) -> Duration {
    Duration::from_millis(movetime_ms.saturating_mul(2)) + Duration::from_secs(5)
}
