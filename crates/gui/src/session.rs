//! One game as the server keeps it, whoever is connected: the game, its
//! settings and how it ended, what is shown, the hint, the analysis and the
//! review, and the engine job running (see [`crate::jobs`]). Pages send commands
//! ([`Command`]); every change is broadcast as a fresh state to all of the
//! game's pages, so a reload or a reconnection finds the game as it was.

use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use tokio::sync::broadcast;

use tuzdyk_notation::record;
use tuzdyk_notation::tfen;
use tuzdyk_protocol::{EngineSpec, InfoLine, Score};
use tuzdyk_rules::{Game, GameResult, Move, Position, Side};
use tuzdyk_tools::review::{DEFAULT_THRESHOLDS, Rejected, ReviewedMove};

pub use crate::command::{Command, Mode, Settings, SettingsRequest, SideName};
use crate::error::GuiError;
use crate::jobs::{ANALYSIS_LINES, JobKey};
use crate::snapshot;
use crate::worker::{EngineWorker, Notify, WorkerEvent};

/// A time per move the page may ask for, in ms.
pub const MOVETIME_RANGE: RangeInclusive<u64> = 50..=60_000;
/// Inaccuracy, mistake and blunder thresholds of the review.
pub const THRESHOLDS: [i32; 3] = [
    DEFAULT_THRESHOLDS[0] as i32,
    DEFAULT_THRESHOLDS[1] as i32,
    DEFAULT_THRESHOLDS[2] as i32,
];
/// The largest TFEN or game record a page may send.
pub const MAX_UPLOAD_BYTES: usize = 256 * 1024;
/// Messages waiting for a slow page before it gets a fresh state instead.
const BROADCAST_BACKLOG: usize = 64;

/// A game that ended other than by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declared {
    Resigned(Side),
    /// The record's result (a resignation or a loss on time).
    Recorded(GameResult),
}

/// The engine's move suggestion for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    pub mv: Move,
    pub score: Option<Score>,
    pub pv: Vec<Move>,
}

/// A review, complete or under way.
#[derive(Clone, Debug, Default)]
pub struct Review {
    pub moves: Vec<ReviewedMove>,
    pub done: bool,
    pub rejected: Option<Rejected>,
}

/// How the engine is doing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineStatus {
    pub name: Option<String>,
    /// The last failure, while the engine is started again or after it gave up.
    pub fault: Option<String>,
    pub failed: bool,
}

/// Everything about one game.
pub struct GameState {
    pub settings: Settings,
    pub game: Game,
    /// A loaded record's tags (empty: made up when the record is written).
    pub tags: Vec<(String, String)>,
    pub declared: Option<Declared>,
    /// The number of moves shown, when not the whole game.
    pub view: Option<usize>,
    pub paused: bool,
    pub hint: Option<Hint>,
    pub(crate) hint_wanted: bool,
    pub analysis: bool,
    /// The analysis lines of the position shown, by MultiPV index.
    pub lines: Vec<InfoLine>,
    pub review: Option<Review>,
    pub engine: EngineStatus,
    /// Bumped by every change of the moves.
    pub(crate) epoch: u64,
    pub(crate) view_epoch: u64,
    /// Bumped by every change of the moves other than a move added: the
    /// page animates a move only within one line.
    pub line: u64,
    pub(crate) running: Option<(u64, JobKey)>,
    pub(crate) completed: Option<JobKey>,
    pub(crate) next_job: u64,
    /// The engine gave up at this epoch: no automatic retry until `resume`.
    pub(crate) halted: Option<u64>,
    pub(crate) last_engine_move: Option<Instant>,
    /// Bumped by every change, so that pages can tell states apart.
    pub version: u64,
}

impl GameState {
    fn new() -> GameState {
        GameState {
            settings: Settings::default(),
            game: Game::new(Position::startpos()),
            tags: Vec::new(),
            declared: None,
            view: None,
            paused: false,
            hint: None,
            hint_wanted: false,
            analysis: false,
            lines: Vec::new(),
            review: None,
            engine: EngineStatus::default(),
            epoch: 0,
            view_epoch: 0,
            line: 0,
            running: None,
            completed: None,
            next_job: 1,
            halted: None,
            last_engine_move: None,
            version: 0,
        }
    }

    /// The number of moves up to the position shown.
    pub fn shown_ply(&self) -> usize {
        self.view.unwrap_or(self.game.moves().len())
    }

    pub fn shown_position(&self) -> Position {
        self.game.position_at(self.shown_ply())
    }

    /// The result, by the rules or as declared.
    pub fn result(&self) -> Option<GameResult> {
        if let Some(result) = self.game.position().result() {
            return Some(result);
        }
        match self.declared? {
            Declared::Resigned(side) => Some(GameResult::Win(side.opponent())),
            Declared::Recorded(result) => Some(result),
        }
    }

    /// Whether the engine plays the side to move.
    pub fn engine_to_move(&self) -> bool {
        match self.settings.mode {
            Mode::Engine => self.game.position().side_to_move() != self.settings.human,
            Mode::Humans => false,
            Mode::Engines => true,
        }
    }

    /// Whether the engine is thinking about its move.
    pub fn thinking(&self) -> bool {
        matches!(self.running, Some((_, JobKey::EngineMove { .. })))
    }

    /// The game record, with the result so far.
    pub fn record(&self) -> record::GameRecord {
        let mut record = record::GameRecord::new(self.game.clone(), self.result());
        if !self.tags.is_empty() {
            record.tags = self.tags.clone();
            return record;
        }
        record.set_tag("Event", "tuzdyk gui");
        record.set_tag("Date", &record::today());
        let engine = format!(
            "{} ({})",
            self.engine.name.as_deref().unwrap_or("engine"),
            self.strength_name()
        );
        let names = match self.settings.mode {
            Mode::Engine if self.settings.human == Side::White => ["You".to_string(), engine],
            Mode::Engine => [engine, "You".to_string()],
            Mode::Humans => ["White".to_string(), "Black".to_string()],
            Mode::Engines => [engine.clone(), engine],
        };
        record.set_tag("White", &names[0]);
        record.set_tag("Black", &names[1]);
        if let Some(Declared::Resigned(side)) = self.declared {
            record.comment = Some(format!("{} resigns", side.name()));
        }
        record
    }

    /// `casual`, or `1000 ms` for a time per move.
    pub fn strength_name(&self) -> String {
        match self.settings.movetime_ms {
            Some(ms) => format!("{ms} ms"),
            None => self.settings.level.name().to_string(),
        }
    }

    /// The moves changed: everything computed for the old ones is dropped.
    fn moves_changed(&mut self, new_line: bool) {
        self.epoch += 1;
        if new_line {
            self.line += 1;
        }
        self.view = None;
        self.view_epoch += 1;
        self.hint = None;
        self.hint_wanted = false;
        self.lines.clear();
        self.review = None;
    }

    fn handle(&mut self, command: Command) -> Result<(), GuiError> {
        match command {
            Command::State => {}
            Command::Play { hole } => self.play(hole)?,
            Command::New { settings } => {
                self.settings = settings.check()?;
                self.start(Game::new(Position::startpos()));
            }
            Command::Undo => self.undo()?,
            Command::Resign => self.resign()?,
            Command::Hint => {
                if let Some(result) = self.result() {
                    return Err(GuiError::Illegal(tuzdyk_rules::IllegalMove::GameOver(
                        result,
                    )));
                }
                if self.engine_to_move() && !self.paused {
                    return Err(GuiError::NotYourTurn);
                }
                self.hint = None;
                self.hint_wanted = true;
            }
            Command::Pause => self.paused = true,
            Command::Resume => {
                self.paused = false;
                self.halted = None;
                self.completed = None;
            }
            Command::Analysis { on } => {
                self.analysis = on;
                self.lines.clear();
            }
            Command::Review => {
                if self.game.moves().is_empty() {
                    return Err(GuiError::NothingToReview);
                }
                self.review = Some(Review::default());
            }
            Command::View { ply } => self.show(ply)?,
            Command::ContinueHere => {
                if let Some(ply) = self.view {
                    self.game.truncate(ply);
                    self.declared = None;
                    self.paused |= self.settings.mode == Mode::Engines;
                    self.moves_changed(true);
                }
            }
            Command::Setup { tfen: text } => {
                check_size(&text)?;
                let start = tfen::parse(text.trim()).map_err(|e| GuiError::tfen(text.trim(), e))?;
                self.start(Game::new(start));
            }
            Command::Open { record: text } => self.open(&text)?,
        }
        Ok(())
    }

    /// A new game from `game`, with the settings as they are.
    fn start(&mut self, game: Game) {
        self.game = game;
        self.tags.clear();
        self.declared = None;
        self.paused = false;
        self.halted = None;
        self.moves_changed(true);
    }

    fn play(&mut self, hole: i64) -> Result<(), GuiError> {
        let mv = u32::try_from(hole)
            .ok()
            .and_then(Move::from_number)
            .ok_or(GuiError::NoSuchHole(hole))?;
        if self.view.is_some() {
            return Err(GuiError::Viewing);
        }
        if let Some(result) = self.result() {
            return Err(GuiError::Illegal(tuzdyk_rules::IllegalMove::GameOver(
                result,
            )));
        }
        if self.engine_to_move() {
            return Err(GuiError::NotYourTurn);
        }
        self.game.play(mv).map_err(GuiError::Illegal)?;
        self.moves_changed(false);
        Ok(())
    }

    /// Against the engine: back to before the person's last move. Otherwise
    /// one move (and an engine-vs-engine game pauses).
    fn undo(&mut self) -> Result<(), GuiError> {
        let moves = self.game.moves().len();
        let keep = match self.settings.mode {
            Mode::Engine => (0..moves)
                .rev()
                .find(|&i| self.game.mover(i) == self.settings.human),
            Mode::Humans | Mode::Engines => moves.checked_sub(1),
        };
        let keep = keep.ok_or(GuiError::NothingToUndo)?;
        self.game.truncate(keep);
        self.declared = None;
        self.paused |= self.settings.mode == Mode::Engines;
        self.halted = None;
        self.moves_changed(true);
        Ok(())
    }

    fn resign(&mut self) -> Result<(), GuiError> {
        if let Some(result) = self.result() {
            return Err(GuiError::Illegal(tuzdyk_rules::IllegalMove::GameOver(
                result,
            )));
        }
        let side = match self.settings.mode {
            Mode::Engine => self.settings.human,
            Mode::Humans | Mode::Engines => self.game.position().side_to_move(),
        };
        self.declared = Some(Declared::Resigned(side));
        self.epoch += 1;
        self.hint = None;
        self.hint_wanted = false;
        Ok(())
    }

    fn show(&mut self, ply: Option<usize>) -> Result<(), GuiError> {
        let moves = self.game.moves().len();
        let view = match ply {
            Some(ply) if ply > moves => return Err(GuiError::NoSuchPly(ply)),
            Some(ply) if ply < moves => Some(ply),
            _ => None,
        };
        if view != self.view {
            self.view = view;
            self.view_epoch += 1;
            self.lines.clear();
        }
        Ok(())
    }

    /// Opens a game record: its moves, its tags, its result; two people
    /// play on from it (nobody's engine moves by surprise).
    fn open(&mut self, text: &str) -> Result<(), GuiError> {
        check_size(text)?;
        let record = record::parse_game_text(text).map_err(GuiError::Record)?;
        let over_by_rules = record.game.position().game_over().is_some();
        self.settings.mode = Mode::Humans;
        self.start(record.game);
        self.tags = record.tags;
        self.declared = match record.result {
            Some(result) if !over_by_rules => Some(Declared::Recorded(result)),
            _ => None,
        };
        Ok(())
    }

    /// Takes in what the engine worker reports; whether the page should get
    /// a fresh state (lines go out as they come, without one).
    fn on_event(&mut self, event: &WorkerEvent) -> Outcome {
        let current = |job: u64| {
            self.running
                .filter(|(id, _)| *id == job)
                .map(|(_, key)| key)
        };
        match event {
            WorkerEvent::Ready { name } => {
                self.engine.name = name
                    .as_deref()
                    .and_then(|n| n.split_whitespace().next())
                    .map(str::to_string);
                self.engine.failed = false;
                Outcome::State
            }
            WorkerEvent::Fault { message } => {
                self.engine.fault = Some(message.clone());
                Outcome::Notice("engine_restarted", message.clone())
            }
            WorkerEvent::Failed { job, message } => {
                self.engine.fault = Some(message.clone());
                self.engine.failed = true;
                if current(*job).is_some() {
                    self.running = None;
                    self.halted = Some(self.epoch);
                }
                Outcome::Notice("engine_failed", message.clone())
            }
            WorkerEvent::Info { job, info } => match current(*job) {
                Some(JobKey::Analysis { .. }) => {
                    if info.bound.is_some() || info.pv.is_empty() || info.score.is_none() {
                        return Outcome::Nothing;
                    }
                    let index = info.line_number() - 1;
                    if index < ANALYSIS_LINES {
                        if self.lines.len() <= index {
                            self.lines.resize(index + 1, InfoLine::default());
                        }
                        self.lines[index] = info.clone();
                    }
                    Outcome::Lines
                }
                _ => Outcome::Nothing,
            },
            WorkerEvent::Done { job, report } => {
                let Some(key) = current(*job) else {
                    return Outcome::Nothing;
                };
                self.running = None;
                self.completed = Some(key);
                self.search_done(key, report)
            }
            WorkerEvent::Reviewed { job, reviewed } => {
                if let (Some(JobKey::Review { .. }), Some(review)) =
                    (current(*job), &mut self.review)
                {
                    review.moves.push((**reviewed).clone());
                    return Outcome::State;
                }
                Outcome::Nothing
            }
            WorkerEvent::ReviewDone { job, rejected } => {
                if let (Some(key), Some(review)) = (current(*job), &mut self.review) {
                    review.done = true;
                    review.rejected = rejected.clone();
                    self.running = None;
                    self.completed = Some(key);
                    return Outcome::State;
                }
                Outcome::Nothing
            }
        }
    }

    fn search_done(&mut self, key: JobKey, report: &tuzdyk_protocol::SearchReport) -> Outcome {
        let position = *self.game.position();
        let best = report
            .best()
            .ok()
            .and_then(|best| best.mv)
            .filter(|&mv| position.is_legal(mv));
        match (key, best) {
            (JobKey::EngineMove { .. }, Some(mv)) => {
                self.engine.fault = None;
                if self.game.play(mv).is_ok() {
                    self.last_engine_move = Some(Instant::now());
                    self.moves_changed(false);
                }
                Outcome::State
            }
            (JobKey::EngineMove { .. }, None) => {
                let message = format!(
                    "the engine answered '{}', not a legal move",
                    report.bestmove_token()
                );
                self.engine.fault = Some(message.clone());
                self.halted = Some(self.epoch);
                Outcome::Notice("engine_failed", message)
            }
            (JobKey::Hint { .. }, Some(mv)) => {
                let line = report.best_line();
                self.hint = Some(Hint {
                    mv,
                    score: line.and_then(|l| l.score),
                    pv: line.map_or(Vec::new(), |l| l.pv.clone()),
                });
                self.hint_wanted = false;
                Outcome::State
            }
            _ => Outcome::State,
        }
    }
}

fn check_size(text: &str) -> Result<(), GuiError> {
    if text.len() > MAX_UPLOAD_BYTES {
        return Err(GuiError::TooLarge {
            bytes: text.len(),
            limit: MAX_UPLOAD_BYTES,
        });
    }
    Ok(())
}

/// What an engine event calls for.
enum Outcome {
    Nothing,
    State,
    Lines,
    Notice(&'static str, String),
}

/// A game with its engine and the pages watching it.
pub struct Session {
    pub id: String,
    state: Mutex<GameState>,
    worker: Option<EngineWorker>,
    events: broadcast::Sender<Arc<str>>,
    /// Pages connected now.
    pub connections: AtomicUsize,
    last_seen: Mutex<Instant>,
}

impl Session {
    /// A new game with the start position, its engine started on demand.
    pub fn new(id: String, spec: EngineSpec) -> Arc<Session> {
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
            let mut state = GameState::new();
            if worker.is_none() {
                state.engine.failed = true;
                state.engine.fault = Some("cannot start an engine thread".to_string());
            }
            Session {
                id,
                state: Mutex::new(state),
                worker,
                events: broadcast::channel(BROADCAST_BACKLOG).0,
                connections: AtomicUsize::new(0),
                last_seen: Mutex::new(Instant::now()),
            }
        })
    }

    fn lock(&self) -> MutexGuard<'_, GameState> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The game's messages, for one more page.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.events.subscribe()
    }

    /// The state message as it is now.
    pub fn state_message(&self) -> String {
        snapshot::state(&self.id, &self.lock())
    }

    /// Carries out a page's command; the change goes to every page.
    ///
    /// # Errors
    /// [`GuiError`] for a command that cannot be carried out; the game is
    /// then unchanged.
    pub fn command(&self, command: Command) -> Result<(), GuiError> {
        let mut state = self.lock();
        state.handle(command)?;
        state.version += 1;
        self.changed(&mut state);
        Ok(())
    }

    /// Schedules the engine for the new state and sends the state out.
    fn changed(&self, state: &mut GameState) {
        if let Some(worker) = &self.worker {
            state.schedule(worker);
        }
        let _ = self.events.send(snapshot::state(&self.id, state).into());
    }

    fn on_event(&self, event: WorkerEvent) {
        let mut state = self.lock();
        match state.on_event(&event) {
            Outcome::Nothing => {}
            Outcome::Lines => {
                let _ = self.events.send(snapshot::lines(&state).into());
            }
            Outcome::State => {
                state.version += 1;
                self.changed(&mut state);
            }
            Outcome::Notice(code, message) => {
                let _ = self.events.send(snapshot::notice(code, &message).into());
                state.version += 1;
                self.changed(&mut state);
            }
        }
    }

    /// Notes that a page is connected now.
    pub fn touch(&self) {
        *self.last_seen.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
    }

    /// How long no page has been connected (zero while one is).
    pub fn idle_for(&self) -> Duration {
        if self.connections.load(Ordering::SeqCst) > 0 {
            return Duration::ZERO;
        }
        self.last_seen
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .elapsed()
    }
}
