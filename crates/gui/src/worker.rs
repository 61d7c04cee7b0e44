//! One engine process per game, driven from its own thread through the
//! protocol client exactly as an outside GUI would: jobs in (a search or a
//! review), events out (lines as they arrive, results, faults).
//!
//! At most one job runs and one waits; a new job replaces the waiting one
//! and stops the running one (`stop`, then a short grace before the engine
//! counts as hung). An engine that exits or hangs is killed, started again
//! and given the job again, so the game goes on from its last position.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use tuzdyk_analysis::{
    AnalysisError, Exercise, Mark, Rejected, ReviewEngine, ReviewedMove, exercises, review_game,
};
use tuzdyk_protocol::client::position_line;
use tuzdyk_protocol::{
    ClientError, EngineProcess, EngineSpec, Go, InfoLine, LineSender, SearchReport,
};
use tuzdyk_rules::{Game, Move, Position, Side};

use crate::limits::{ATTEMPTS, HANDSHAKE_TIMEOUT, STOP_GRACE};

/// What the engine is asked to do.
#[derive(Clone, Debug)]
pub enum Task {
    /// Search the position after `moves` from `start`.
    Search {
        start: Position,
        moves: Vec<Move>,
        go: Go,
        /// Longest wait for `bestmove` before the engine counts as hung.
        timeout: Duration,
    },
    /// Review `game` from ply `from` on, each position searched with `go`.
    Review {
        game: Game,
        from: usize,
        go: Go,
        /// Inaccuracy, mistake and blunder thresholds.
        thresholds: [i32; 3],
        timeout: Duration,
    },
    /// Make the exercises of `reviewed` for `side` (both when `None`):
    /// the moves marked `lowest` or worse, every legal move scored.
    Exercises {
        /// The learning they are for.
        learn: u64,
        reviewed: Vec<ReviewedMove>,
        side: Option<Side>,
        thresholds: [i32; 3],
        lowest: Mark,
        go: Go,
        timeout: Duration,
    },
}

/// A task with its number and the options it needs set first.
#[derive(Clone, Debug)]
pub struct Job {
    pub id: u64,
    pub task: Task,
    /// `setoption` pairs; only those that differ from the last sent go out.
    pub options: Vec<(String, String)>,
    /// Do not start before this (engine-vs-engine games are paced for the eye).
    pub not_before: Option<Instant>,
}

/// What the worker reports.
#[derive(Clone, Debug)]
pub enum WorkerEvent {
    /// An engine finished its handshake; `id name` when it gave one.
    Ready {
        name: Option<String>,
    },
    Info {
        job: u64,
        info: InfoLine,
    },
    Done {
        job: u64,
        report: SearchReport,
    },
    Reviewed {
        job: u64,
        reviewed: Box<ReviewedMove>,
    },
    ReviewDone {
        job: u64,
        rejected: Option<Rejected>,
    },
    Exercises {
        job: u64,
        learn: u64,
        exercises: Vec<Exercise>,
    },
    /// The engine failed and is being started again.
    Fault {
        error: ClientError,
    },
    /// The job was given up after [`ATTEMPTS`] tries.
    Failed {
        job: u64,
        error: ClientError,
    },
}

/// Where the worker's events go.
pub type Notify = Arc<dyn Fn(WorkerEvent) + Send + Sync>;

/// The job being run, as the other threads see it.
struct Active {
    job: u64,
    /// Writes to the engine while a search runs.
    sender: Option<LineSender>,
    cancelled: bool,
    stop_sent_at: Option<Instant>,
    /// A `stop` went out after the engine's first line of this search, so it
    /// cannot have arrived before the `go`.
    stop_confirmed: bool,
}

#[derive(Default)]
struct Control {
    pending: Option<Job>,
    active: Option<Active>,
    quit: bool,
}

impl Control {
    fn cancel_active(&mut self) {
        if let Some(active) = &mut self.active {
            active.cancelled = true;
            if let Some(sender) = &active.sender
                && active.stop_sent_at.is_none()
            {
                let _ = sender.send("stop");
                active.stop_sent_at = Some(Instant::now());
            }
        }
    }
}

struct Shared {
    control: Mutex<Control>,
    wake: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Control> {
        self.control
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The next job to run, once its time has come; `None` to quit.
    fn next_job(&self) -> Option<Job> {
        let mut control = self.lock();
        loop {
            if control.quit {
                return None;
            }
            let Some(job) = control.pending.take() else {
                control = self.wake.wait(control).unwrap_or_else(|p| p.into_inner());
                continue;
            };
            let due = job.not_before.filter(|&at| at > Instant::now());
            if let Some(at) = due {
                let wait = at.saturating_duration_since(Instant::now());
                control.pending = Some(job);
                control = self
                    .wake
                    .wait_timeout(control, wait)
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
                if let Some(job) = &mut control.pending
                    && job.not_before.is_some_and(|at| at <= Instant::now())
                {
                    job.not_before = None;
                }
                continue;
            }
            control.active = Some(Active {
                job: job.id,
                sender: None,
                cancelled: false,
                stop_sent_at: None,
                stop_confirmed: false,
            });
            return Some(job);
        }
    }

    fn is_cancelled(&self, job: u64) -> bool {
        let control = self.lock();
        control.quit
            || control
                .active
                .as_ref()
                .is_none_or(|active| active.job != job || active.cancelled)
    }

    /// A search of `job` starts with `sender`: false if it was cancelled.
    fn search_starts(&self, job: u64, sender: LineSender) -> bool {
        let mut control = self.lock();
        match &mut control.active {
            Some(active) if active.job == job && !active.cancelled => {
                active.sender = Some(sender);
                active.stop_sent_at = None;
                active.stop_confirmed = false;
                true
            }
            _ => false,
        }
    }

    fn search_ends(&self, job: u64) {
        if let Some(active) = self.lock().active.as_mut().filter(|a| a.job == job) {
            active.sender = None;
        }
    }

    /// The engine printed a line of `job`'s search: a cancelled search is
    /// stopped (again) now that the `go` surely arrived.
    fn line_seen(&self, job: u64) {
        let mut control = self.lock();
        if let Some(active) = control.active.as_mut().filter(|a| a.job == job)
            && active.cancelled
            && !active.stop_confirmed
        {
            if let Some(sender) = &active.sender {
                let _ = sender.send("stop");
            }
            active.stop_confirmed = true;
            active.stop_sent_at.get_or_insert_with(Instant::now);
        }
    }

    /// When `job`'s search counts as hung: its own deadline, or the grace
    /// after a `stop`.
    fn deadline(&self, job: u64, own: Instant) -> Instant {
        let control = self.lock();
        match control.active.as_ref().filter(|a| a.job == job) {
            Some(Active {
                stop_sent_at: Some(at),
                ..
            }) => own.min(*at + STOP_GRACE),
            _ => own,
        }
    }

    fn finish(&self, job: u64) {
        let mut control = self.lock();
        if control.active.as_ref().is_some_and(|a| a.job == job) {
            control.active = None;
        }
    }
}

/// The handle a game keeps: submit, cancel; dropping it ends the engine.
pub struct EngineWorker {
    shared: Arc<Shared>,
}

impl EngineWorker {
    /// Starts the worker thread; the engine itself starts with the first job.
    ///
    /// # Errors
    /// When the thread cannot be started.
    pub fn start(spec: EngineSpec, notify: Notify) -> std::io::Result<EngineWorker> {
        let shared = Arc::new(Shared {
            control: Mutex::new(Control::default()),
            wake: Condvar::new(),
        });
        let thread_shared = Arc::clone(&shared);
        thread::Builder::new()
            .name("engine worker".to_string())
            .spawn(move || Runner::new(spec, thread_shared, notify).run())?;
        Ok(EngineWorker { shared })
    }

    /// Runs `job` next, replacing a job still waiting and stopping the one
    /// running.
    pub fn submit(&self, job: Job) {
        let mut control = self.shared.lock();
        control.pending = Some(job);
        control.cancel_active();
        self.shared.wake.notify_all();
    }

    /// Stops the running job and drops the waiting one.
    pub fn cancel(&self) {
        let mut control = self.shared.lock();
        control.pending = None;
        control.cancel_active();
        self.shared.wake.notify_all();
    }
}

impl Drop for EngineWorker {
    fn drop(&mut self) {
        let mut control = self.shared.lock();
        control.quit = true;
        control.pending = None;
        control.cancel_active();
        self.shared.wake.notify_all();
    }
}

/// Why a job stopped before its end.
enum JobStop {
    Cancelled,
    Engine(ClientError),
}

impl From<ClientError> for JobStop {
    fn from(error: ClientError) -> JobStop {
        JobStop::Engine(error)
    }
}

/// A running engine and the options it was last given.
struct Engine {
    process: EngineProcess,
    options: Vec<(String, String)>,
}

/// The worker thread's side.
struct Runner {
    spec: EngineSpec,
    shared: Arc<Shared>,
    notify: Notify,
    engine: Option<Engine>,
}

impl Runner {
    fn new(spec: EngineSpec, shared: Arc<Shared>, notify: Notify) -> Runner {
        Runner {
            spec,
            shared,
            notify,
            engine: None,
        }
    }

    fn run(mut self) {
        while let Some(mut job) = self.shared.next_job() {
            self.run_with_restarts(&mut job);
            self.shared.finish(job.id);
        }
        if let Some(engine) = self.engine.take() {
            engine.process.quit();
        }
    }

    /// Runs `job`, starting the engine again after each failure.
    fn run_with_restarts(&mut self, job: &mut Job) {
        for attempt in 1..=ATTEMPTS {
            let error = match self.run_job(job) {
                Ok(()) | Err(JobStop::Cancelled) => return,
                Err(JobStop::Engine(error)) => error,
            };
            log::warn!("engine failed ({error}); attempt {attempt} of {ATTEMPTS}");
            if let Some(mut engine) = self.engine.take() {
                engine.process.kill();
            }
            if self.shared.is_cancelled(job.id) {
                return;
            }
            if attempt == ATTEMPTS {
                (self.notify)(WorkerEvent::Failed { job: job.id, error });
            } else {
                (self.notify)(WorkerEvent::Fault { error });
            }
        }
    }

    /// The engine, started and set up with `options`.
    fn engine(&mut self, options: &[(String, String)]) -> Result<&mut EngineProcess, ClientError> {
        let engine = match self.engine.take() {
            Some(engine) => engine,
            None => {
                let (process, id) = EngineProcess::launch(&self.spec, HANDSHAKE_TIMEOUT)?;
                (self.notify)(WorkerEvent::Ready { name: id.name });
                Engine {
                    process,
                    options: Vec::new(),
                }
            }
        };
        let engine = self.engine.insert(engine);
        for (name, value) in options {
            if !engine.options.iter().any(|(n, v)| n == name && v == value) {
                engine
                    .process
                    .send(&format!("setoption name {name} value {value}"))?;
                engine.options.retain(|(n, _)| n != name);
                engine.options.push((name.clone(), value.clone()));
            }
        }
        Ok(&mut engine.process)
    }

    fn run_job(&mut self, job: &mut Job) -> Result<(), JobStop> {
        let id = job.id;
        let (shared, notify) = (Arc::clone(&self.shared), Arc::clone(&self.notify));
        match &mut job.task {
            Task::Search {
                start,
                moves,
                go,
                timeout,
            } => {
                let line = position_line(start, moves);
                let process = self.engine(&job.options)?;
                let report = search(process, &shared, id, &line, go, *timeout, |info| {
                    notify(WorkerEvent::Info {
                        job: id,
                        info: info.clone(),
                    })
                })?;
                notify(WorkerEvent::Done { job: id, report });
                Ok(())
            }
            Task::Review {
                game,
                from,
                go,
                thresholds,
                timeout,
            } => {
                let result = self.analyse(id, &job.options, go, *timeout, |run| {
                    review_game(run, game, *from, *thresholds, |reviewed| {
                        *from = reviewed.ply + 1;
                        notify(WorkerEvent::Reviewed {
                            job: id,
                            reviewed: Box::new(reviewed),
                        });
                        Ok(())
                    })
                })?;
                let rejected = result.err();
                notify(WorkerEvent::ReviewDone { job: id, rejected });
                Ok(())
            }
            Task::Exercises {
                learn,
                reviewed,
                side,
                thresholds,
                lowest,
                go,
                timeout,
            } => {
                let result = self.analyse(id, &job.options, go, *timeout, |run| {
                    exercises(run, reviewed, *side, *thresholds, *lowest)
                })?;
                // A position the engine refused makes no exercise.
                let made = result.unwrap_or_else(|rejected| {
                    log::warn!("exercises: {rejected:?}");
                    Vec::new()
                });
                notify(WorkerEvent::Exercises {
                    job: id,
                    learn: *learn,
                    exercises: made,
                });
                Ok(())
            }
        }
    }
}

impl Runner {
    /// Runs `work` on the engine set up with `options`, each position
    /// searched with `go` as job `id`: a position the engine rejected is
    /// the inner error; an engine failure or a stop ends the job.
    fn analyse<T>(
        &mut self,
        id: u64,
        options: &[(String, String)],
        go: &Go,
        timeout: Duration,
        work: impl FnOnce(&mut ReviewRun<'_>) -> Result<T, AnalysisError>,
    ) -> Result<Result<T, Rejected>, JobStop> {
        let shared = Arc::clone(&self.shared);
        let process = self.engine(options)?;
        let mut run = ReviewRun {
            process,
            shared: &shared,
            job: id,
            go,
            timeout,
        };
        match work(&mut run) {
            Ok(done) => Ok(Ok(done)),
            Err(AnalysisError::Rejected(rejected)) => Ok(Err(rejected)),
            Err(AnalysisError::Engine(error)) => Err(JobStop::Engine(error)),
            Err(AnalysisError::Stopped) => Err(JobStop::Cancelled),
        }
    }
}

/// Sends the position and searches it, as `job`, until `bestmove`.
fn search(
    process: &mut EngineProcess,
    shared: &Shared,
    job: u64,
    position: &str,
    go: &Go,
    timeout: Duration,
    mut on_info: impl FnMut(&InfoLine),
) -> Result<SearchReport, JobStop> {
    process.send(position)?;
    if !shared.search_starts(job, process.sender()) {
        return Err(JobStop::Cancelled);
    }
    let own_deadline = Instant::now() + timeout;
    let result = process.search_watched(
        go,
        || shared.deadline(job, own_deadline),
        |info| {
            shared.line_seen(job);
            on_info(info);
        },
    );
    shared.search_ends(job);
    let report = result?;
    if shared.is_cancelled(job) {
        return Err(JobStop::Cancelled);
    }
    Ok(report)
}

/// The review's searches, on this worker's engine.
struct ReviewRun<'a> {
    process: &'a mut EngineProcess,
    shared: &'a Shared,
    job: u64,
    go: &'a Go,
    timeout: Duration,
}

impl ReviewEngine for ReviewRun<'_> {
    fn search(
        &mut self,
        pos: &Position,
        only: Option<Move>,
    ) -> Result<SearchReport, AnalysisError> {
        let go = Go {
            searchmoves: only.into_iter().collect(),
            ..self.go.clone()
        };
        let line = position_line(pos, &[]);
        // The review looks for a rejected position itself.
        search(
            self.process,
            self.shared,
            self.job,
            &line,
            &go,
            self.timeout,
            |_| {},
        )
        .map_err(|stop| match stop {
            JobStop::Engine(error) => AnalysisError::Engine(error),
            JobStop::Cancelled => AnalysisError::Stopped,
        })
    }
}
