//! One game as the server keeps it, without any I/O: the moves, the
//! settings and how it ended, the position shown, the hint, the analysis
//! lines, the review and learning from its mistakes. A page's [`Command`] changes it through
//! [`GameState::handle`]; the engine's answers come in through the
//! `engine_*`, `hint_found`, `analysis_line` and `reviewed` methods. Which
//! engine job runs is the scheduler's business ([`crate::scheduler`]).

use tuzdyk_analysis::{Exercise, Mark, Rejected, ReviewedMove};
use tuzdyk_db::Mistake;
use tuzdyk_notation::record;
use tuzdyk_notation::tfen;
use tuzdyk_protocol::{InfoLine, Level, Score};
use tuzdyk_rules::{Game, GameResult, IllegalMove, Move, Position, Side};

use crate::error::{GuiError, LineProblem};
use crate::learn::Learn;
use crate::limits::{ANALYSIS_LINES, MAX_LINE_MOVES, MAX_UPLOAD_BYTES, MOVETIME_RANGE, THRESHOLDS};
use crate::wire::{Command, Mode, Notice, SettingsRequest, SideChoice, Text};

/// How a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub mode: Mode,
    /// The person's side against the engine.
    pub human: Side,
    pub level: Level,
    /// A time per move at full strength instead of a level.
    pub movetime_ms: Option<u64>,
}

impl Default for Settings {
    /// A newcomer's first game: White against the weakest level.
    fn default() -> Settings {
        Settings {
            mode: Mode::Engine,
            human: Side::White,
            level: Level::LADDER[0],
            movetime_ms: None,
        }
    }
}

impl SettingsRequest {
    /// The settings, checked; `coin` decides a random side.
    ///
    /// # Errors
    /// An unknown level or a time per move out of range.
    pub fn check(&self, coin: bool) -> Result<Settings, GuiError> {
        let level = Level::parse(&self.level).ok_or_else(|| GuiError::Level(self.level.clone()))?;
        if let Some(ms) = self.movetime_ms
            && !MOVETIME_RANGE.contains(&ms)
        {
            return Err(GuiError::MoveTime(ms));
        }
        let human = match self.human {
            SideChoice::White => Side::White,
            SideChoice::Black => Side::Black,
            SideChoice::Random if coin => Side::White,
            SideChoice::Random => Side::Black,
        };
        Ok(Settings {
            mode: self.mode,
            human,
            level,
            movetime_ms: self.movetime_ms,
        })
    }
}

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
    pub fault: Option<Text>,
    pub failed: bool,
}

/// What a command did.
#[derive(Debug)]
pub enum Handled {
    /// The game changed: every page gets the new state.
    Changed,
    /// The game changed, and the engine may be tried again.
    Resumed,
    /// The game changed, with a word for every page.
    ChangedWith(Notice),
    /// Nothing changed; the answer goes to the page that asked.
    Reply(crate::wire::LineView),
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
    pub hint_wanted: bool,
    pub analysis: bool,
    /// The analysis lines of the position shown, by MultiPV index.
    pub lines: Vec<InfoLine>,
    pub review: Option<Review>,
    pub engine: EngineStatus,
    /// How long the engine's last move took, in ms.
    pub engine_ms: Option<u64>,
    /// Bumped by every change of the moves.
    pub epoch: u64,
    /// Bumped by every change of the position shown.
    pub view_epoch: u64,
    /// Bumped by every change of the moves other than a move added: the
    /// page animates a move only within one line.
    pub line: u64,
    /// Bumped by every change, so that pages can tell states apart.
    pub version: u64,
    /// "Learn from your mistakes", while it goes on.
    pub learn: Option<Learn>,
    /// Bumped by every start of learning, so that its exercises are made
    /// again for a new one.
    pub learn_epoch: u64,
    /// A stored mistake found, to count as solved in the database.
    pub solved_mistake: Option<i64>,
}

impl Default for GameState {
    fn default() -> GameState {
        GameState::new()
    }
}

impl GameState {
    pub fn new() -> GameState {
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
            engine_ms: None,
            epoch: 0,
            view_epoch: 0,
            line: 0,
            version: 0,
            learn: None,
            learn_epoch: 0,
            solved_mistake: None,
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

    /// `level 3`, or `1000 ms` for a time per move.
    pub fn strength_name(&self) -> String {
        match self.settings.movetime_ms {
            Some(ms) => format!("{ms} ms"),
            None => format!("level {}", self.settings.level.number()),
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
        self.learn = None;
    }

    fn game_over(&self) -> Result<(), GuiError> {
        match self.result() {
            Some(result) => Err(GuiError::Illegal(IllegalMove::GameOver(result))),
            None => Ok(()),
        }
    }

    /// Carries out a page's command; on an error nothing has changed.
    ///
    /// # Errors
    /// [`GuiError`] for a command that cannot be carried out.
    pub fn handle(&mut self, command: Command, coin: bool) -> Result<Handled, GuiError> {
        match command {
            Command::State => {}
            Command::Play { hole } => self.play(hole)?,
            Command::New { settings } => {
                self.settings = settings.check(coin)?;
                self.start(Game::new(Position::startpos()));
            }
            Command::Undo => self.undo()?,
            Command::Resign => self.resign()?,
            Command::Hint => {
                self.game_over()?;
                if self.engine_to_move() && !self.paused {
                    return Err(GuiError::NotYourTurn);
                }
                self.hint = None;
                self.hint_wanted = true;
            }
            Command::Pause => self.paused = true,
            Command::Resume => {
                self.paused = false;
                return Ok(Handled::Resumed);
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
                    return Ok(Handled::Resumed);
                }
            }
            Command::Setup { tfen: text } => {
                check_size(&text)?;
                let start = tfen::parse(text.trim()).map_err(|e| GuiError::tfen(text.trim(), e))?;
                self.start(Game::new(start));
                return Ok(Handled::Resumed);
            }
            Command::Open { record: text } => return self.open(&text),
            Command::Line { ply, moves } => return self.line_view(ply, &moves).map(Handled::Reply),
            Command::Learn { side } => self.start_learning(side.map(Side::from))?,
            Command::Answer { hole } => {
                let mv = u32::try_from(hole)
                    .ok()
                    .and_then(Move::from_number)
                    .ok_or(GuiError::NoSuchHole(hole))?;
                let learn = self.learn.as_mut().ok_or(GuiError::NotLearning)?;
                self.solved_mistake = learn.answer(mv)?;
            }
            Command::ShowAnswer => self.learn.as_mut().ok_or(GuiError::NotLearning)?.reveal()?,
            Command::NextExercise => {
                let learn = self.learn.as_mut().ok_or(GuiError::NotLearning)?;
                if let Some(ply) = learn.advance()? {
                    self.show(Some(ply))?;
                }
            }
            Command::StopLearning => {
                if self.learn.take().is_some_and(|l| l.stored) {
                    return Ok(Handled::Resumed);
                }
            }
        }
        Ok(Handled::Changed)
    }

    /// A new game from `game`, with the settings as they are.
    fn start(&mut self, game: Game) {
        self.game = game;
        self.tags.clear();
        self.declared = None;
        self.paused = false;
        self.engine_ms = None;
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
        self.game_over()?;
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
        self.moves_changed(true);
        Ok(())
    }

    fn resign(&mut self) -> Result<(), GuiError> {
        self.game_over()?;
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

    /// Opens a game record: its moves, its tags, its result. Two people
    /// play on from it (nobody's engine moves by surprise), and the pages
    /// are told so.
    fn open(&mut self, text: &str) -> Result<Handled, GuiError> {
        check_size(text)?;
        let record = record::parse_game_text(text).map_err(GuiError::Record)?;
        let over_by_rules = record.game.position().game_over().is_some();
        let was_against_engine = self.settings.mode != Mode::Humans;
        self.settings.mode = Mode::Humans;
        self.start(record.game);
        self.tags = record.tags;
        self.declared = match record.result {
            Some(result) if !over_by_rules => Some(Declared::Recorded(result)),
            _ => None,
        };
        let key = if was_against_engine {
            "notice_record_opened_two_players"
        } else {
            "notice_record_opened"
        };
        let text = Text::new(key).with("plies", self.game.moves().len());
        Ok(Handled::ChangedWith(Notice {
            code: "record_opened",
            text,
        }))
    }

    /// Learning from the reviewed game's mistakes of `side` (against the
    /// engine, the person's; else both players' when `None`); the engine
    /// then makes the exercises.
    fn start_learning(&mut self, side: Option<Side>) -> Result<(), GuiError> {
        let review = self.review.as_ref().ok_or(GuiError::ReviewFirst)?;
        if !review.done {
            return Err(GuiError::ReviewFirst);
        }
        let side = match self.settings.mode {
            Mode::Engine => Some(self.settings.human),
            Mode::Humans | Mode::Engines => side,
        };
        let marked = review.moves.iter().any(|m| {
            m.mark.is_some_and(|mark| mark >= Mark::Mistake)
                && side.is_none_or(|side| side == m.mover)
        });
        if !marked {
            return Err(GuiError::NoMistakes);
        }
        self.learn_epoch += 1;
        self.learn = Some(Learn::preparing(side));
        Ok(())
    }

    /// The engine made the exercises of the learning started at `epoch`;
    /// the first is shown.
    pub fn exercises_made(&mut self, epoch: u64, exercises: Vec<Exercise>) {
        if epoch != self.learn_epoch {
            return;
        }
        let Some(learn) = self.learn.as_mut() else {
            return;
        };
        let first = exercises.first().map(|e| e.ply);
        learn.ready(exercises);
        if let Some(ply) = first {
            // The exercise's ply is a move of this game.
            let _ = self.show(Some(ply));
        }
    }

    /// Stored mistake `mistake` set up to find a better move in: its
    /// position is the game's start, and nobody's engine moves until the
    /// exercise ends.
    pub fn practise(&mut self, mistake: &Mistake) {
        self.start(Game::new(mistake.position));
        self.learn = Some(Learn::stored(mistake, THRESHOLDS[0]));
    }

    /// The game set up from a study: its start with its moves played.
    pub fn load(&mut self, game: Game) {
        self.start(game);
    }

    /// The positions along `moves` from the position after `ply` moves.
    fn line_view(&self, ply: usize, moves: &[i64]) -> Result<crate::wire::LineView, GuiError> {
        if ply > self.game.moves().len() {
            return Err(GuiError::NoSuchPly(ply));
        }
        let bad = |index: usize, token: i64, reason: LineProblem| GuiError::BadLine {
            index: index + 1,
            token,
            reason,
        };
        if moves.len() > MAX_LINE_MOVES {
            return Err(bad(
                MAX_LINE_MOVES,
                moves[MAX_LINE_MOVES],
                LineProblem::TooLong,
            ));
        }
        let mut game = Game::new(self.game.position_at(ply));
        for (index, &token) in moves.iter().enumerate() {
            let mv = u32::try_from(token)
                .ok()
                .and_then(Move::from_number)
                .ok_or_else(|| bad(index, token, LineProblem::NoSuchHole))?;
            game.play(mv)
                .map_err(|e| bad(index, token, LineProblem::Illegal(e)))?;
        }
        Ok(crate::convert::line_view(ply, &game))
    }

    /// The engine finished its handshake.
    pub fn engine_ready(&mut self, name: Option<&str>) {
        self.engine.name = name
            .and_then(|n| n.split_whitespace().next())
            .map(str::to_string);
        self.engine.failed = false;
    }

    /// The engine failed; `gave_up` when it will not be tried again
    /// without a `resume`.
    pub fn engine_fault(&mut self, fault: Text, gave_up: bool) {
        self.engine.fault = Some(fault);
        self.engine.failed |= gave_up;
    }

    /// The engine chose `mv` for its side after `ms` ms; false if it is
    /// not a legal move here (the game is then unchanged).
    pub fn engine_moved(&mut self, mv: Option<Move>, ms: u64) -> bool {
        let Some(mv) = mv.filter(|&mv| self.game.position().is_legal(mv)) else {
            return false;
        };
        self.engine.fault = None;
        self.engine_ms = Some(ms);
        if self.game.play(mv).is_ok() {
            self.moves_changed(false);
        }
        true
    }

    pub fn hint_found(&mut self, hint: Hint) {
        self.hint = Some(hint);
        self.hint_wanted = false;
    }

    /// An analysis line as the engine deepens; false if it is not one to show.
    pub fn analysis_line(&mut self, info: &InfoLine) -> bool {
        if info.bound.is_some() || info.pv.is_empty() || info.score.is_none() {
            return false;
        }
        let index = info.line_number() - 1;
        if index >= ANALYSIS_LINES {
            return false;
        }
        if self.lines.len() <= index {
            self.lines.resize(index + 1, InfoLine::default());
        }
        self.lines[index] = info.clone();
        true
    }

    pub fn reviewed(&mut self, reviewed: ReviewedMove) {
        if let Some(review) = &mut self.review {
            review.moves.push(reviewed);
        }
    }

    pub fn review_done(&mut self, rejected: Option<Rejected>) {
        if let Some(review) = &mut self.review {
            review.done = true;
            review.rejected = rejected;
        }
    }
}

/// Refuses a text beyond the upload limit.
///
/// # Errors
/// [`GuiError::TooLarge`].
pub fn check_size(text: &str) -> Result<(), GuiError> {
    if text.len() > MAX_UPLOAD_BYTES {
        return Err(GuiError::TooLarge {
            bytes: text.len(),
            limit: MAX_UPLOAD_BYTES,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(state: &mut GameState, hole: i64) -> Result<Handled, GuiError> {
        state.handle(Command::Play { hole }, true)
    }

    #[test]
    fn a_refused_move_changes_nothing() {
        let mut state = GameState::new();
        assert!(matches!(
            play(&mut state, 10),
            Err(GuiError::NoSuchHole(10))
        ));
        assert!(matches!(play(&mut state, 0), Err(GuiError::NoSuchHole(0))));
        assert_eq!(state.game.moves().len(), 0);
        assert_eq!(state.epoch, 0);
        assert!(play(&mut state, 6).is_ok());
        assert!(matches!(play(&mut state, 6), Err(GuiError::NotYourTurn)));
        assert_eq!(state.game.moves().len(), 1);
    }

    #[test]
    fn a_line_is_played_out_from_the_position_asked_and_refused_at_its_bad_move() {
        let mut state = GameState::new();
        state.settings.mode = Mode::Humans;
        play(&mut state, 6).unwrap();
        let Ok(Handled::Reply(view)) = state.handle(
            Command::Line {
                ply: 1,
                moves: vec![9, 1],
            },
            true,
        ) else {
            panic!("a line view");
        };
        assert_eq!(view.steps.len(), 2);
        assert_eq!(view.steps[0].hole, 9);
        let refused = state.handle(
            Command::Line {
                ply: 0,
                moves: vec![6, 4, 10],
            },
            true,
        );
        match refused {
            Err(GuiError::BadLine { index, token, .. }) => assert_eq!((index, token), (3, 10)),
            other => panic!("{other:?}"),
        }
        assert_eq!(state.game.moves().len(), 1);
    }

    #[test]
    fn opening_a_record_says_that_two_people_play_on() {
        let mut state = GameState::new();
        let handled = state
            .handle(
                Command::Open {
                    record: "1. 65(10) 98 *\n".to_string(),
                },
                true,
            )
            .unwrap();
        match handled {
            Handled::ChangedWith(notice) => {
                assert_eq!(notice.text.key, "notice_record_opened_two_players")
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(state.settings.mode, Mode::Humans);
        assert_eq!(state.game.moves().len(), 2);
    }
}
