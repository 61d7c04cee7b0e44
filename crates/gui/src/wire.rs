//! The page protocol, as JSON over the WebSocket: this file is its schema.
//! A page sends [`Command`]s; the server sends [`ServerMessage`]s: the whole
//! [`State`] of the game after every change (to every page of the game),
//! the analysis [`Lines`] as they deepen, an [`ErrorMessage`] answering one
//! page's refused command, a [`Notice`], and a [`LineView`] answering
//! `line`. A page's requests to the games database are [`StudyRequest`]s,
//! told apart by their `study` field (a game command has `cmd`), and
//! answered to that page only: the [`ExplorerView`] of a position, the
//! [`PuzzleView`] of the puzzle mode, the [`PositionCheck`] of the
//! position editor.
//!
//! Holes are indices 0..17 in sowing order (White 1..9, then Black 1..9);
//! a sowing step is a hole index, or 18 + side for a kazan (a stone that
//! fell into a tuzdik). Every text a person reads is sent as a [`Text`]: a
//! key of the page's tables and its parameters, never as English words.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use tuzdyk_rules::Side;

// ---- texts -----------------------------------------------------------------

/// A text for a person: the page looks `key` up in its table for the
/// reader's language and fills `{name}` with the parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Text {
    pub key: &'static str,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<&'static str, Param>,
}

/// A parameter of a [`Text`]: a number, words quoted as they were (a token
/// of the input, an operating system's message), or a text of its own,
/// translated first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Param {
    Number(i64),
    Quoted(String),
    Text(Box<Text>),
}

impl Text {
    pub fn new(key: &'static str) -> Text {
        Text {
            key,
            params: BTreeMap::new(),
        }
    }

    /// Adds a parameter.
    pub fn with(mut self, name: &'static str, value: impl Into<Param>) -> Text {
        self.params.insert(name, value.into());
        self
    }
}

impl From<i64> for Param {
    fn from(value: i64) -> Param {
        Param::Number(value)
    }
}

impl From<u32> for Param {
    fn from(value: u32) -> Param {
        Param::Number(value.into())
    }
}

impl From<usize> for Param {
    fn from(value: usize) -> Param {
        Param::Number(i64::try_from(value).unwrap_or(i64::MAX))
    }
}

impl From<String> for Param {
    fn from(value: String) -> Param {
        Param::Quoted(value)
    }
}

impl From<&str> for Param {
    fn from(value: &str) -> Param {
        Param::Quoted(value.to_string())
    }
}

impl From<Text> for Param {
    fn from(value: Text) -> Param {
        Param::Text(Box::new(value))
    }
}

impl From<Side> for Param {
    fn from(side: Side) -> Param {
        Text::new(SideName::from(side).key()).into()
    }
}

// ---- what a page sends -------------------------------------------------------

/// A side as the page names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SideName {
    White,
    Black,
}

impl SideName {
    /// Its key in the page's texts: the rules' lower-case name.
    pub fn key(self) -> &'static str {
        Side::from(self).key()
    }
}

impl From<Side> for SideName {
    fn from(side: Side) -> SideName {
        match side {
            Side::White => SideName::White,
            Side::Black => SideName::Black,
        }
    }
}

impl From<SideName> for Side {
    fn from(side: SideName) -> Side {
        match side {
            SideName::White => Side::White,
            SideName::Black => Side::Black,
        }
    }
}

/// The person's side against the engine, as asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SideChoice {
    White,
    Black,
    /// Drawn by the server.
    Random,
}

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A person against the engine.
    Engine,
    /// Two people on one board.
    Humans,
    /// The engine against itself, to watch.
    Engines,
}

/// The settings of a new game, as a page sends them.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsRequest {
    pub mode: Mode,
    pub human: SideChoice,
    /// A level's name or number (`Level` option).
    pub level: String,
    /// A time per move at full strength instead of the level.
    pub movetime_ms: Option<u64>,
}

/// What a page asks.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// The state again.
    State,
    /// Play the hole with this number (1..9) of the side to move.
    Play {
        hole: i64,
    },
    New {
        settings: SettingsRequest,
    },
    Undo,
    Resign,
    Hint,
    Pause,
    /// Go on after a pause, or try the engine again after it failed.
    Resume,
    Analysis {
        on: bool,
    },
    Review,
    /// Show the position after `ply` moves (`None`: the game as it stands).
    View {
        ply: Option<usize>,
    },
    /// Drop the moves after the position shown and play on from it.
    ContinueHere,
    Setup {
        tfen: String,
    },
    Open {
        record: String,
    },
    /// The positions along `moves` played from the position after `ply`
    /// moves (an engine line to see on the board); answered with a
    /// [`LineView`] to this page only.
    Line {
        ply: usize,
        moves: Vec<i64>,
    },
    /// Learn from the reviewed game's mistakes: those of `side` (both
    /// players' when `None`; against the engine, the person's).
    Learn {
        side: Option<SideName>,
    },
    /// An answer to the exercise shown: the mover's hole 1..9.
    Answer {
        hole: i64,
    },
    /// Give up on the exercise shown and see the engine's move.
    ShowAnswer,
    /// On to the next exercise (after the last: the summary).
    NextExercise,
    /// Stop learning.
    StopLearning,
}

/// What a page asks of the games database; the game is untouched.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "study", rename_all = "snake_case", deny_unknown_fields)]
pub enum StudyRequest {
    /// The moves played in this position (TFEN) in the database's games.
    Explore { tfen: String },
    /// Save the game (its start and its moves) as a study.
    SaveStudy { name: String, comment: String },
    /// The saved studies.
    Studies,
    /// Set the game up from study `id`: its start, its moves played.
    OpenStudy { id: i64 },
    /// The mistakes saved to learn from.
    Mistakes,
    /// Set the position of stored mistake `id` up, to find a better move.
    OpenMistake { id: i64 },
    /// The next puzzle: unplayed, or the least recently played, rated near
    /// the solver, with this theme (`None`: any).
    PuzzleNext { theme: Option<String> },
    /// Puzzle `id` again from its start.
    PuzzleOpen { id: i64 },
    /// The solver's move (1..9) in the open puzzle `id`.
    PuzzleMove { id: i64, hole: i64 },
    /// The hole of the next move of the solution (not a failure).
    PuzzleHint { id: i64 },
    /// The rest of the solution, played out (a failure if not yet over).
    PuzzleSolution { id: i64 },
    /// Set the game up on the position of puzzle `id`, once over, for two
    /// people on one board with the engine's lines (answered with the
    /// puzzle as it is).
    PuzzleAnalyse { id: i64 },
    /// Whether the position editor's TFEN is a position the rules accept;
    /// answered with a [`PositionCheck`].
    CheckPosition { tfen: String },
    /// Save the position editor's position (TFEN) as a study with no
    /// moves, the game untouched.
    SavePosition {
        tfen: String,
        name: String,
        comment: String,
    },
}

/// A page's message: a command to its game, or a request to the database.
#[derive(Clone, Debug)]
pub enum Request {
    Game(Command),
    Study(StudyRequest),
}

impl Request {
    /// Reads a page's message: a `study` request when it has that field,
    /// else a game command.
    ///
    /// # Errors
    /// serde's error naming what does not fit.
    pub fn parse(text: &str) -> Result<Request, serde_json::Error> {
        let value: serde_json::Value = serde_json::from_str(text)?;
        if value.get("study").is_some() {
            serde_json::from_value(value).map(Request::Study)
        } else {
            serde_json::from_value(value).map(Request::Game)
        }
    }
}

// ---- what the server sends ---------------------------------------------------

/// Everything the server sends, tagged by `type`.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    State(Box<State>),
    Lines(Lines),
    Error(ErrorMessage),
    Notice(Notice),
    Line(LineView),
    Explorer(ExplorerView),
    Studies(StudiesView),
    Mistakes(MistakesView),
    Puzzle(PuzzleView),
    PositionCheck(PositionCheck),
}

impl ServerMessage {
    pub fn to_json(&self) -> String {
        // Serialising these plain structs cannot fail: no maps with
        // non-string keys, no custom serialisers.
        serde_json::to_string(self).unwrap_or_else(|e| {
            log::error!("cannot serialise a message: {e}");
            String::from("{\"type\":\"notice\",\"code\":\"internal\"}")
        })
    }
}

/// A position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Board {
    /// Stones per hole, by index.
    pub holes: [u8; 18],
    /// Kazans, White's first.
    pub kazans: [u8; 2],
    /// Each side's tuzdik as the index of the hole it took, White's first.
    pub tuzdiks: [Option<usize>; 2],
    pub to_move: SideName,
    pub fullmove: u16,
}

/// What a move does, from the rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Preview {
    /// The mover's hole number, 1..9.
    pub hole: u32,
    /// Its index.
    pub origin: usize,
    /// Stones taken and sown.
    pub sown: u8,
    /// Index of the hole where the last stone fell.
    pub landing: usize,
    pub landing_side: SideName,
    /// The landing hole as its owner numbers it.
    pub landing_number: u32,
    /// Stones there once the last stone fell (0: it went on into a tuzdik's kazan).
    pub found: u8,
    pub captured: u8,
    pub tuzdik: bool,
    /// The last stone fell into a tuzdik.
    pub into_tuzdik: bool,
    /// Three stones on the opponent's side and why they made no tuzdik:
    /// `hole_nine`, `second_tuzdik`, `same_number`.
    pub refused: Option<&'static str>,
    /// Stones sown into each side's tuzdik, which go to that side's kazan.
    pub to_tuzdiks: [u8; 2],
    /// Where each stone fell, in order.
    pub path: Vec<usize>,
}

/// The move that led to the position shown, with the board before it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LastMove {
    #[serde(flatten)]
    pub preview: Preview,
    pub mover: SideName,
    pub before: Board,
}

/// One move of the game's list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveEntry {
    /// The full-move number.
    pub number: u16,
    pub mover: SideName,
    pub hole: u32,
    /// The PlayOK token, `65(10)`.
    pub token: String,
    pub landing_side: SideName,
    pub landing_number: u32,
    pub captured: u8,
    pub tuzdik: bool,
    /// The mover's kazan after the move.
    pub kazan: u8,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ending {
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: &'static str,
    pub winner: Option<SideName>,
    /// `kazan`, `no_moves`, `resigned` or `recorded`.
    pub reason: &'static str,
    pub resigned: Option<SideName>,
    /// Final count, White's first.
    pub count: [u32; 2],
}

/// A score as the engine gave it (the side to move's view), with White's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Score {
    /// Centistones (100 = one stone), side to move's view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// A forced end in this many moves (negative: the side to move loses).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// White's view, capped as the review caps it (for bars and graphs).
    pub white: i32,
    /// White's view in centistones, uncapped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white_cp: Option<i32>,
}

/// One analysis line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    pub multipv: usize,
    pub depth: Option<u32>,
    pub score: Option<Score>,
    pub nodes: Option<u64>,
    pub pv: Vec<u32>,
}

/// The engine's suggestion for the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HintView {
    pub hole: u32,
    pub score: Option<Score>,
    pub pv: Vec<u32>,
}

/// One reviewed move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReviewedView {
    /// Moves before it.
    pub ply: usize,
    pub mover: SideName,
    pub token: String,
    /// The engine's choice, as it wrote it.
    pub best: String,
    pub before: Option<Score>,
    pub after: Option<Score>,
    /// Centistones lost against the best move, when both were scored.
    pub loss: Option<i32>,
    /// `inaccuracy`, `mistake` or `blunder`.
    pub mark: Option<&'static str>,
    pub pv: Vec<u32>,
}

/// A player's figures in the review.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReviewSummary {
    pub moves: u32,
    pub average_loss: f64,
    pub accuracy: f64,
    /// Inaccuracies, mistakes, blunders.
    pub marks: [u32; 3],
}

/// The review, complete or under way.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReviewView {
    pub moves: Vec<ReviewedView>,
    pub done: bool,
    /// Moves of the game.
    pub total: usize,
    /// Why the review stopped early.
    pub rejected: Option<Text>,
    /// White's, then Black's.
    pub summary: [ReviewSummary; 2],
}

/// The settings of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SettingsView {
    pub mode: Mode,
    pub human: SideName,
    /// The level's number on the ladder, 1 = weakest.
    pub level: u8,
    pub movetime_ms: Option<u64>,
}

/// How the engine is doing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineView {
    /// Its `id name`, first word.
    pub name: Option<String>,
    /// The last failure.
    pub fault: Option<Text>,
    /// It gave up: `resume` tries again.
    pub failed: bool,
}

/// The whole state of a game, sent after every change.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct State {
    /// The game's id, to find it again after a reload.
    pub game: String,
    /// Bumped by every change.
    pub version: u64,
    /// Bumped by every change of the moves other than a move added: a page
    /// animates a move only within one line.
    pub line: u64,
    pub settings: SettingsView,
    /// The position shown.
    pub board: Board,
    pub tfen: String,
    /// Moves up to the position shown.
    pub ply: usize,
    /// Moves of the game.
    pub plies: usize,
    pub viewing: bool,
    /// A person may move now (the game as it stands, their turn, not over).
    pub playable: bool,
    /// Every legal move of the position shown.
    pub previews: Vec<Preview>,
    pub last: Option<LastMove>,
    pub moves: Vec<MoveEntry>,
    pub ending: Option<Ending>,
    /// The PlayOK record of the game so far.
    pub record: String,
    pub thinking: bool,
    pub paused: bool,
    /// The engine plays the side to move (and the game goes on).
    pub engine_turn: bool,
    pub hint: Option<HintView>,
    pub analysis: bool,
    pub lines: Vec<Line>,
    /// The position shown, White's view: the analysis, else the review.
    pub evaluation: Option<Score>,
    pub review: Option<ReviewView>,
    pub engine: EngineView,
    /// How long the engine took for its last move, in ms (from the job's
    /// start to `bestmove`), so that a page can tell its own time apart.
    pub engine_ms: Option<u64>,
    /// "Learn from your mistakes", while it goes on.
    pub learn: Option<LearnView>,
}

/// The analysis of the position shown, as it deepens.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lines {
    pub ply: usize,
    pub lines: Vec<Line>,
    pub evaluation: Option<Score>,
}

/// A refused command, to the page that sent it. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ErrorMessage {
    /// Stable: `empty_hole`, `bad_tfen`, ...
    pub code: &'static str,
    pub text: Text,
    /// The same in English, for logs and scripts.
    pub message: String,
}

/// Something that happened without a command: the engine failed and was
/// started again, or gave up; a game asked for is gone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Notice {
    pub code: &'static str,
    pub text: Text,
}

/// One move of a [`LineView`] and the position after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineStep {
    pub hole: u32,
    pub mover: SideName,
    pub number: u16,
    pub token: String,
    pub origin: usize,
    pub landing: usize,
    pub board: Board,
}

/// The positions along an engine line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineView {
    pub ply: usize,
    pub steps: Vec<LineStep>,
}

/// One move of the explorer: what became of the games that played it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExplorerMove {
    /// The mover's hole number, 1..9.
    pub hole: u32,
    pub games: u64,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    /// The average rating of the games that have one.
    pub avg_rating: Option<u32>,
}

/// The moves played in a position in the database's games, most played
/// first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExplorerView {
    /// The position, as the page asked (it matches answers to positions).
    pub tfen: String,
    pub moves: Vec<ExplorerMove>,
    /// Games through the position (the sum over its moves).
    pub games: u64,
}

/// An answer given to an exercise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AnswerView {
    /// The mover's hole number, 1..9.
    pub hole: u32,
    pub accepted: bool,
    /// Its loss against the best move, in centistones, when known.
    pub loss: Option<i32>,
}

/// The exercise shown: find a better move than the one played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExerciseView {
    /// Moves of the game before it (the position shown).
    pub ply: usize,
    pub mover: SideName,
    /// The hole played and what it lost (centistones, when known).
    pub played: u32,
    pub loss: Option<i32>,
    /// `mistake` or `blunder` (`None` for a stored one).
    pub mark: Option<&'static str>,
    /// The last answer.
    pub answer: Option<AnswerView>,
    /// Found (an answer accepted) or given up: the engine's move and line
    /// are then told.
    pub solved: bool,
    pub revealed: bool,
    pub best: Option<u32>,
    pub pv: Vec<u32>,
}

/// "Learn from your mistakes": where it stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LearnView {
    /// Whose mistakes (`None`: both players').
    pub side: Option<SideName>,
    /// The exercises are still being made by the engine.
    pub preparing: bool,
    pub total: usize,
    /// The exercise shown, 0-based; `total` at the summary.
    pub index: usize,
    /// Exercises solved without being shown the answer.
    pub found: usize,
    pub exercise: Option<ExerciseView>,
    /// A mistake reopened from the database.
    pub stored: bool,
}

/// A saved study, as listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StudyView {
    pub id: i64,
    pub name: String,
    pub comment: String,
    /// When it was saved, `YYYY-MM-DDTHH:MM:SSZ`.
    pub created: String,
    pub plies: usize,
}

/// The saved studies, the newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StudiesView {
    pub studies: Vec<StudyView>,
    /// The study just saved or opened, if any.
    pub current: Option<i64>,
}

/// A stored mistake, as listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MistakeView {
    pub id: i64,
    pub tfen: String,
    pub mover: SideName,
    /// The hole played there.
    pub played: u32,
    pub ply: u32,
    /// Times it was solved.
    pub solved: u32,
}

/// The stored mistakes, the least solved first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MistakesView {
    pub mistakes: Vec<MistakeView>,
}

// ---- puzzles ---------------------------------------------------------------

/// A Glicko-2 rating as the page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RatingView {
    pub rating: f64,
    pub deviation: f64,
}

/// A position the puzzle board reaches, drawn as the play page draws a
/// game's state: `line` changes when the board jumps back (the sower sows
/// a step only when it follows the one before in the same line).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PuzzleStep {
    pub line: u64,
    /// Moves played from the puzzle's position.
    pub ply: usize,
    pub board: Board,
    pub previews: Vec<Preview>,
    pub last: Option<LastMove>,
    /// The solution's move, not the solver's (shown after a failure).
    pub shown: bool,
}

/// The open puzzle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PuzzleBoardView {
    pub id: i64,
    /// The puzzle's position (TFEN).
    pub tfen: String,
    /// The solver's side.
    pub side: SideName,
    pub themes: Vec<String>,
    /// The solver's moves in the solution.
    pub solver_moves: usize,
    /// `playing`, `solved` or `failed`.
    pub status: &'static str,
    /// The positions reached by this answer, in order (the whole line
    /// again when the puzzle is opened).
    pub steps: Vec<PuzzleStep>,
    /// The solver's wrong move, once failed by one.
    pub wrong: Option<u32>,
    /// The hole of the solution's next move, when a hint was asked.
    pub hint: Option<u32>,
    /// The puzzle's rating, once it is over.
    pub rating: Option<f64>,
    /// The solver's rating change from this puzzle, once it is over
    /// (none for a replay).
    pub change: Option<f64>,
    /// Tried before: this try is recorded, not rated.
    pub replay: bool,
}

/// The puzzle page: the solver's rating and the open puzzle, or why none.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PuzzleView {
    pub solver: RatingView,
    pub puzzle: Option<PuzzleBoardView>,
    /// Why there is no puzzle (`puzzles_empty`, `puzzles_none_theme`).
    pub empty: Option<Text>,
}

// ---- the position editor ---------------------------------------------------

/// Whether a position set up in the editor is one the rules accept.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionCheck {
    /// The TFEN as the page asked (it matches answers to positions).
    pub tfen: String,
    pub ok: bool,
    /// Why not, in one line: the TFEN's or the position's problem.
    pub error: Option<Text>,
}
