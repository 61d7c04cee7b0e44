//! Which engine job a game wants now, and its bookkeeping: the engine's
//! move (at its level or time per move), the hint and the review at full
//! strength, the exercises of "learn from your mistakes" after it, the
//! analysis of the position shown. One job runs at a time;
//! a job no longer wanted is stopped. Work nobody watches is not done: with
//! no page connected only the engine's reply in a game against a person
//! goes on (it is bounded, and the person finds the game as they left it);
//! analysis, hints, reviews and engine-vs-engine games wait for a page.

use std::time::{Duration, Instant};

use tuzdyk_analysis::Mark;
use tuzdyk_protocol::{EngineOption, Go, Level};
use tuzdyk_rules::Move;

use crate::game::GameState;
use crate::limits::{
    ANALYSIS_LINES, ENGINES_PACE, HINT_MOVETIME_MS, LEVEL_MOVETIME_MS, REVIEW_DEPTH,
    REVIEW_POSITION_TIMEOUT, THRESHOLDS, hang_timeout,
};
use crate::wire::Mode;
use crate::worker::{EngineWorker, Job, Task};

/// The job that should be running, told apart from an older one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKey {
    EngineMove {
        epoch: u64,
    },
    Hint {
        epoch: u64,
    },
    Review {
        epoch: u64,
    },
    /// The exercises of the learning started at `learn`.
    Exercises {
        epoch: u64,
        learn: u64,
    },
    Analysis {
        epoch: u64,
        view_epoch: u64,
    },
}

/// A job submitted to the worker.
#[derive(Clone, Copy, Debug)]
struct Running {
    id: u64,
    key: JobKey,
    started: Instant,
}

/// The jobs of one game.
#[derive(Debug)]
pub struct Scheduler {
    running: Option<Running>,
    /// The last job that finished, so that it is not run again.
    completed: Option<JobKey>,
    next_job: u64,
    /// The engine gave up at this epoch: no automatic retry until `resume`.
    halted: Option<u64>,
    last_engine_move: Option<Instant>,
}

impl Default for Scheduler {
    fn default() -> Scheduler {
        Scheduler::new()
    }
}

impl Scheduler {
    pub fn new() -> Scheduler {
        Scheduler {
            running: None,
            completed: None,
            next_job: 1,
            halted: None,
            last_engine_move: None,
        }
    }

    /// The job that should run now, if any; `watched` when a page is connected.
    pub fn wanted(&self, game: &GameState, watched: bool) -> Option<JobKey> {
        if self.halted == Some(game.epoch) {
            return None;
        }
        let over = game.result().is_some();
        let engine_moves = !over
            && game.view.is_none()
            && game.engine_to_move()
            && !game.paused
            && game.learn.is_none();
        let wanted = if engine_moves && (watched || game.settings.mode == Mode::Engine) {
            Some(JobKey::EngineMove { epoch: game.epoch })
        } else if !watched {
            None
        } else if game.hint_wanted && !over {
            Some(JobKey::Hint { epoch: game.epoch })
        } else if game.review.as_ref().is_some_and(|r| !r.done) {
            Some(JobKey::Review { epoch: game.epoch })
        } else if game.learn.as_ref().is_some_and(|l| l.exercises.is_none()) {
            Some(JobKey::Exercises {
                epoch: game.epoch,
                learn: game.learn_epoch,
            })
        } else if game.analysis && game.shown_position().game_over().is_none() {
            Some(JobKey::Analysis {
                epoch: game.epoch,
                view_epoch: game.view_epoch,
            })
        } else {
            None
        };
        wanted.filter(|key| self.completed != Some(*key))
    }

    /// Starts the job that should run, stopping the one that should not.
    pub fn schedule(&mut self, game: &GameState, watched: bool, worker: &EngineWorker) {
        let wanted = self.wanted(game, watched);
        match (wanted, self.running) {
            (Some(key), Some(running)) if key == running.key => {}
            (Some(key), _) => {
                let id = self.next_job;
                self.next_job += 1;
                self.running = Some(Running {
                    id,
                    key,
                    started: Instant::now(),
                });
                worker.submit(self.job(game, id, key));
            }
            (None, Some(_)) => {
                self.running = None;
                worker.cancel();
            }
            (None, None) => {}
        }
    }

    /// What job `id` is for, if it is the one running.
    pub fn current(&self, id: u64) -> Option<JobKey> {
        self.running.filter(|r| r.id == id).map(|r| r.key)
    }

    /// Job `id` finished: what it was for and how long it took.
    pub fn finished(&mut self, id: u64) -> Option<(JobKey, Duration)> {
        let running = self.running.filter(|r| r.id == id)?;
        self.running = None;
        self.completed = Some(running.key);
        if matches!(running.key, JobKey::EngineMove { .. }) {
            self.last_engine_move = Some(Instant::now());
        }
        Some((running.key, running.started.elapsed()))
    }

    /// The engine gave up on job `id`: no retry at this epoch until `resume`.
    pub fn gave_up(&mut self, id: u64, epoch: u64) {
        if self.running.is_some_and(|r| r.id == id) {
            self.running = None;
            self.halted = Some(epoch);
        }
    }

    /// The engine answered with no legal move: as if it gave up.
    pub fn halt(&mut self, epoch: u64) {
        self.halted = Some(epoch);
    }

    /// Try the engine again.
    pub fn resume(&mut self) {
        self.halted = None;
        self.completed = None;
    }

    /// Whether the engine is thinking about its move.
    pub fn thinking(&self) -> bool {
        matches!(
            self.running,
            Some(Running {
                key: JobKey::EngineMove { .. },
                ..
            })
        )
    }

    /// Whether any job is running.
    pub fn busy(&self) -> bool {
        self.running.is_some()
    }

    fn job(&self, game: &GameState, id: u64, key: JobKey) -> Job {
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
            start: *game.game.start(),
            moves: moves.to_vec(),
            go,
            timeout,
        };
        let moves = game.game.moves();
        let (options, task, not_before) = match key {
            JobKey::EngineMove { .. } => {
                let (strength, ms) = match game.settings.movetime_ms {
                    Some(ms) => (Level::FULL_STRENGTH, ms),
                    None => (game.settings.level, LEVEL_MOVETIME_MS),
                };
                let options = vec![
                    (level.clone(), strength.name().to_string()),
                    (multipv.clone(), "1".to_string()),
                ];
                let pace = (game.settings.mode == Mode::Engines)
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
                let from = game.review.as_ref().map_or(0, |r| r.moves.len());
                let task = Task::Review {
                    game: game.game.clone(),
                    from,
                    go,
                    thresholds: THRESHOLDS,
                    timeout: REVIEW_POSITION_TIMEOUT,
                };
                (full_strength(1), task, None)
            }
            JobKey::Exercises { learn, .. } => {
                let task = Task::Exercises {
                    learn,
                    reviewed: game.review.as_ref().map_or(Vec::new(), |r| r.moves.clone()),
                    side: game.learn.as_ref().and_then(|l| l.side),
                    thresholds: THRESHOLDS,
                    lowest: Mark::Mistake,
                    go: Go {
                        depth: Some(REVIEW_DEPTH),
                        ..Go::default()
                    },
                    timeout: REVIEW_POSITION_TIMEOUT,
                };
                (full_strength(1), task, None)
            }
            JobKey::Analysis { .. } => {
                let go = Go {
                    infinite: true,
                    ..Go::default()
                };
                let shown = &moves[..game.shown_ply()];
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nobody_watching_stops_analysis_and_engine_games_but_not_a_reply_to_a_person() {
        let scheduler = Scheduler::new();
        let mut game = GameState::new();
        game.analysis = true;
        assert!(matches!(
            scheduler.wanted(&game, true),
            Some(JobKey::Analysis { .. })
        ));
        assert_eq!(scheduler.wanted(&game, false), None);
        game.settings.human = tuzdyk_rules::Side::Black;
        assert!(matches!(
            scheduler.wanted(&game, false),
            Some(JobKey::EngineMove { .. })
        ));
        game.settings.mode = Mode::Engines;
        assert_eq!(scheduler.wanted(&game, false), None);
        assert!(matches!(
            scheduler.wanted(&game, true),
            Some(JobKey::EngineMove { .. })
        ));
    }
}
