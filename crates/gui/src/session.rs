//! One game with its engine and the pages watching it: the glue between the
//! game ([`GameState`], no I/O), its jobs ([`Scheduler`]), the engine
//! process ([`EngineWorker`]) and the pages (a broadcast of every change).
//! A reload or a reconnection finds the game as it was.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use tokio::sync::broadcast;

use tuzdyk_analysis::Exercise;
use tuzdyk_db::Mistake;
use tuzdyk_protocol::{EngineSpec, SearchReport};

use crate::error::{GuiError, engine_text};
use crate::game::{GameState, Handled, Hint};
use crate::library::Library;
use crate::limits::BROADCAST_BACKLOG;
use crate::scheduler::{JobKey, Scheduler};
use crate::snapshot;
use crate::wire::{Command, Notice, ServerMessage, Text};
use crate::worker::{EngineWorker, Notify, WorkerEvent};

/// The game and its jobs, under one lock.
struct Inner {
    game: GameState,
    scheduler: Scheduler,
    /// Pages connected now.
    watchers: usize,
    /// When the last page left (or the game was made).
    last_seen: Instant,
}

/// A game with its engine and the pages watching it.
pub struct Session {
    pub id: String,
    inner: Mutex<Inner>,
    worker: Option<EngineWorker>,
    events: broadcast::Sender<Arc<str>>,
    /// Pages connected now, readable without the lock.
    watchers: AtomicUsize,
    /// Where the exercises are saved and found mistakes counted.
    library: Library,
}

impl Session {
    /// A new game with the start position, its engine started on demand.
    pub fn new(id: String, spec: EngineSpec, library: Library) -> Arc<Session> {
        Arc::new_cyclic(|weak: &Weak<Session>| {
            let weak = weak.clone();
            let notify: Notify = Arc::new(move |event| {
                if let Some(session) = weak.upgrade() {
                    session.on_event(event);
                }
            });
            let worker = EngineWorker::start(spec, notify)
                .map_err(|e| log::error!("cannot start an engine thread: {e}"))
                .ok();
            let mut game = GameState::new();
            if worker.is_none() {
                game.engine_fault(Text::new("engine_no_thread"), true);
            }
            Session {
                id,
                inner: Mutex::new(Inner {
                    game,
                    scheduler: Scheduler::new(),
                    watchers: 0,
                    last_seen: Instant::now(),
                }),
                worker,
                events: broadcast::channel(BROADCAST_BACKLOG).0,
                watchers: AtomicUsize::new(0),
                library,
            }
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The game's messages, for one more page.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.events.subscribe()
    }

    /// The state message as it is now.
    pub fn state_message(&self) -> String {
        let inner = self.lock();
        state_json(&self.id, &inner)
    }

    /// Carries out a page's command: a change goes to every page, a reply
    /// (`Ok(Some(..))`) to the asking page only.
    ///
    /// # Errors
    /// [`GuiError`] for a command that cannot be carried out; the game is
    /// then unchanged.
    pub fn command(&self, command: Command) -> Result<Option<ServerMessage>, GuiError> {
        self.apply(|game| game.handle(command, random_bit()))
    }

    /// Changes the game with `change` as a command would (a study opened, a
    /// stored mistake set up).
    ///
    /// # Errors
    /// `change`'s [`GuiError`]; the game is then unchanged.
    pub fn apply(
        &self,
        change: impl FnOnce(&mut GameState) -> Result<Handled, GuiError>,
    ) -> Result<Option<ServerMessage>, GuiError> {
        let mut inner = self.lock();
        let handled = change(&mut inner.game)?;
        if let Some(id) = inner.game.solved_mistake.take() {
            self.library
                .spawn(move |db| db.mark_mistake_solved(id).map_err(GuiError::database));
        }
        match handled {
            Handled::Reply(view) => return Ok(Some(ServerMessage::Line(view))),
            Handled::Resumed => {
                inner.scheduler.resume();
                inner.game.engine.failed = false;
            }
            Handled::ChangedWith(notice) => self.send(&ServerMessage::Notice(notice)),
            Handled::Changed => {}
        }
        self.changed(&mut inner);
        Ok(None)
    }

    /// The game's start and moves (to save it as a study).
    pub fn game(&self) -> tuzdyk_rules::Game {
        self.lock().game.game.clone()
    }

    /// A page connects.
    pub fn watch(&self) {
        let mut inner = self.lock();
        inner.watchers += 1;
        self.watchers.store(inner.watchers, Ordering::SeqCst);
        self.reschedule(&mut inner);
    }

    /// A page leaves; with none left, work nobody watches stops.
    pub fn unwatch(&self) {
        let mut inner = self.lock();
        inner.watchers = inner.watchers.saturating_sub(1);
        inner.last_seen = Instant::now();
        self.watchers.store(inner.watchers, Ordering::SeqCst);
        self.reschedule(&mut inner);
    }

    /// Pages connected now.
    pub fn watchers(&self) -> usize {
        self.watchers.load(Ordering::SeqCst)
    }

    /// How long no page has been connected (zero while one is).
    pub fn idle_for(&self) -> Duration {
        let inner = self.lock();
        if inner.watchers > 0 {
            return Duration::ZERO;
        }
        inner.last_seen.elapsed()
    }

    /// Whether an engine job is running (for tests and logs).
    pub fn busy(&self) -> bool {
        self.lock().scheduler.busy()
    }

    fn send(&self, message: &ServerMessage) {
        let _ = self.events.send(message.to_json().into());
    }

    fn reschedule(&self, inner: &mut Inner) {
        if let Some(worker) = &self.worker {
            let watched = inner.watchers > 0;
            let Inner {
                game, scheduler, ..
            } = inner;
            scheduler.schedule(game, watched, worker);
        }
    }

    /// Schedules the engine for the new state and sends the state out.
    fn changed(&self, inner: &mut Inner) {
        inner.game.version += 1;
        self.reschedule(inner);
        let _ = self.events.send(state_json(&self.id, inner).into());
    }

    fn on_event(&self, event: WorkerEvent) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        match event {
            WorkerEvent::Ready { name } => inner.game.engine_ready(name.as_deref()),
            WorkerEvent::Fault { error } => {
                let text = engine_text(&error);
                inner.game.engine_fault(text.clone(), false);
                self.send(&ServerMessage::Notice(Notice {
                    code: "engine_restarted",
                    text: Text::new("notice_engine_restarted").with("detail", text),
                }));
            }
            WorkerEvent::Failed { job, error } => {
                let text = engine_text(&error);
                inner.game.engine_fault(text.clone(), true);
                inner.scheduler.gave_up(job, inner.game.epoch);
                self.send(&ServerMessage::Notice(Notice {
                    code: "engine_failed",
                    text: Text::new("notice_engine_failed").with("detail", text),
                }));
            }
            WorkerEvent::Info { job, info } => {
                if matches!(inner.scheduler.current(job), Some(JobKey::Analysis { .. }))
                    && inner.game.analysis_line(&info)
                {
                    self.send(&ServerMessage::Lines(snapshot::lines_message(&inner.game)));
                }
                return;
            }
            WorkerEvent::Done { job, report } => {
                let Some((key, took)) = inner.scheduler.finished(job) else {
                    return;
                };
                self.search_done(inner, key, &report, took);
            }
            WorkerEvent::Reviewed { job, reviewed } => {
                if !matches!(inner.scheduler.current(job), Some(JobKey::Review { .. })) {
                    return;
                }
                inner.game.reviewed(*reviewed);
            }
            WorkerEvent::ReviewDone { job, rejected } => {
                if inner.scheduler.finished(job).is_none() {
                    return;
                }
                inner.game.review_done(rejected);
            }
            WorkerEvent::Exercises {
                job,
                learn,
                exercises,
            } => {
                if inner.scheduler.finished(job).is_none() {
                    return;
                }
                let rows: Vec<Mistake> = exercises.iter().map(mistake_row).collect();
                inner.game.exercises_made(learn, exercises);
                self.changed(inner);
                // Saved on this engine thread, the game's lock given back.
                drop(guard);
                self.save_mistakes(learn, rows);
                return;
            }
        }
        self.changed(inner);
    }

    /// Saves the exercises of the learning `learn` to the database's
    /// mistakes (each position and move once), and keeps their rows to count
    /// the ones found.
    fn save_mistakes(&self, learn: u64, rows: Vec<Mistake>) {
        let saved = self.library.blocking(move |db| {
            let known = db.mistakes().map_err(GuiError::database)?;
            rows.iter()
                .map(|row| {
                    let same = known
                        .iter()
                        .find(|k| k.position == row.position && k.played == row.played);
                    match same {
                        Some(known) => Ok(Some(known.id)),
                        None if row.accepted.is_empty() => Ok(None),
                        None => db.insert_mistake(row).map(Some).map_err(GuiError::database),
                    }
                })
                .collect::<Result<Vec<_>, GuiError>>()
        });
        match saved {
            Ok(ids) => {
                let mut inner = self.lock();
                if inner.game.learn_epoch == learn
                    && let Some(learning) = inner.game.learn.as_mut()
                {
                    learning.ids = ids;
                }
            }
            Err(error) => log::warn!("cannot save the exercises: {error}"),
        }
    }

    fn search_done(&self, inner: &mut Inner, key: JobKey, report: &SearchReport, took: Duration) {
        let best = report.best().ok().and_then(|best| best.mv);
        match key {
            JobKey::EngineMove { .. } => {
                let ms = u64::try_from(took.as_millis()).unwrap_or(u64::MAX);
                if !inner.game.engine_moved(best, ms) {
                    let text = Text::new("engine_illegal").with("token", report.bestmove_token());
                    inner.game.engine_fault(text.clone(), true);
                    inner.scheduler.halt(inner.game.epoch);
                    self.send(&ServerMessage::Notice(Notice {
                        code: "engine_failed",
                        text: Text::new("notice_engine_failed").with("detail", text),
                    }));
                }
            }
            JobKey::Hint { .. } => {
                let position = *inner.game.game.position();
                if let Some(mv) = best.filter(|&mv| position.is_legal(mv)) {
                    let line = report.best_line();
                    inner.game.hint_found(Hint {
                        mv,
                        score: line.and_then(|l| l.score),
                        pv: line.map_or(Vec::new(), |l| l.pv.clone()),
                    });
                }
            }
            JobKey::Review { .. } | JobKey::Exercises { .. } | JobKey::Analysis { .. } => {}
        }
    }
}

/// An exercise as the database keeps it.
fn mistake_row(exercise: &Exercise) -> Mistake {
    Mistake {
        id: 0,
        position: exercise.position,
        played: exercise.played,
        best: exercise.best.unwrap_or(exercise.played),
        accepted: exercise.accepted(),
        game_id: None,
        ply: u32::try_from(exercise.ply).unwrap_or(u32::MAX),
        solved: 0,
    }
}

/// A coin for a random side: the standard library's random hash keys.
fn random_bit() -> bool {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u8(0);
    hasher.finish() & 1 == 1
}

fn state_json(id: &str, inner: &Inner) -> String {
    let state = snapshot::state(id, &inner.game, inner.scheduler.thinking());
    ServerMessage::State(Box::new(state)).to_json()
}
