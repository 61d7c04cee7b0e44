//! The puzzle mode, as lichess has it: the next puzzle rated near the
//! solver (unplayed, else the least recently played, with the theme asked),
//! the solver's moves checked against the stored solution and the
//! opponent's replies played, a hint that does not fail it, the solution
//! shown after a wrong move or on request; the first failure or the solve
//! records the attempt and rates the solver and the puzzle against each
//! other (Glicko-2), the first try of a puzzle only (a replay, after a
//! reload say, is recorded but rated no more). Once over, the puzzle's
//! position is set up on the play page to analyse. The puzzle open is kept here, one [`Seat`] per page
//! connection: a page only names holes, never which move is right.

use tuzdyk_analysis::glicko::Rating;
use tuzdyk_db::{Database, Puzzle, SolverRating};
use tuzdyk_notation::tfen;
use tuzdyk_rules::{Game, Move, Position};

use crate::convert::{board, preview, previews};
use crate::error::GuiError;
use crate::game::Handled;
use crate::library::Library;
use crate::session::Session;
use crate::wire::{
    LastMove, Mode, Notice, PuzzleBoardView, PuzzleStep, PuzzleView, RatingView, Text,
};

/// The themes a puzzle may carry, as the miner names them.
pub const THEMES: [&str; 6] = [
    "even_capture",
    "tuzdik",
    "into_tuzdik",
    "waiting_move",
    "only_defence",
    "endgame_sweep",
];

/// Where a puzzle stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Playing,
    Solved,
    Failed,
}

impl Status {
    fn key(self) -> &'static str {
        match self {
            Status::Playing => "playing",
            Status::Solved => "solved",
            Status::Failed => "failed",
        }
    }
}

/// The puzzle open on one page.
#[derive(Clone, Debug)]
struct Open {
    puzzle: Puzzle,
    /// The position on the board and its line (bumped by a jump back).
    position: Position,
    line: u64,
    /// Moves on the board from the puzzle's position.
    ply: usize,
    /// Moves of the solution played.
    played: usize,
    /// The solver's own moves, as recorded with the attempt.
    tried: Vec<Move>,
    status: Status,
    wrong: Option<Move>,
    hint: Option<Move>,
    change: Option<f64>,
    /// Tried before (on this page or another, before a reload): this try
    /// is recorded but rates nobody, so that no puzzle counts twice.
    replay: bool,
}

/// One page connection's puzzle and the solver's rating last read.
#[derive(Debug, Default)]
pub struct Seat {
    open: Option<Open>,
    solver: Option<RatingView>,
    /// Lines handed out on this connection, so that no two boards share one.
    lines: u64,
}

fn db_error(error: impl std::fmt::Display) -> GuiError {
    GuiError::Database(error.to_string())
}

fn rating_view(s: SolverRating) -> RatingView {
    RatingView {
        rating: s.rating,
        deviation: s.deviation,
    }
}

/// The position reached by `mv` from `before` (checked legal).
fn step(open: &mut Open, mv: Move, shown: bool) -> PuzzleStep {
    let before = open.position;
    let last = LastMove {
        preview: preview(&before, &before.preview_move(mv)),
        mover: before.side_to_move().into(),
        before: board(&before),
    };
    open.position.play(mv);
    open.ply += 1;
    PuzzleStep {
        last: Some(last),
        shown,
        ..still(open)
    }
}

/// The position on the board, as it is.
fn still(open: &Open) -> PuzzleStep {
    PuzzleStep {
        line: open.line,
        ply: open.ply,
        board: board(&open.position),
        previews: if open.status == Status::Playing {
            previews(&open.position)
        } else {
            Vec::new()
        },
        last: None,
        shown: false,
    }
}

/// Plays the rest of the solution from the position on the board.
fn play_out(open: &mut Open) -> Vec<PuzzleStep> {
    let rest: Vec<Move> = open.puzzle.solution[open.played..].to_vec();
    let mut steps = Vec::new();
    for mv in rest {
        if open.position.check(mv).is_err() {
            break;
        }
        steps.push(step(open, mv, true));
        open.played += 1;
    }
    steps
}

impl Seat {
    fn view(&self, steps: Vec<PuzzleStep>) -> PuzzleView {
        let solver = self.solver.unwrap_or(RatingView {
            rating: tuzdyk_analysis::glicko::DEFAULT_RATING,
            deviation: tuzdyk_analysis::glicko::DEFAULT_DEVIATION,
        });
        let puzzle = self.open.as_ref().map(|open| {
            let over = open.status != Status::Playing;
            PuzzleBoardView {
                id: open.puzzle.id,
                tfen: tfen::write(&open.puzzle.position),
                side: open.puzzle.position.side_to_move().into(),
                themes: open.puzzle.themes.clone(),
                solver_moves: open.puzzle.solution.len().div_ceil(2),
                status: open.status.key(),
                steps,
                wrong: open.wrong.map(Move::number),
                hint: open.hint.map(Move::number),
                rating: over.then_some(open.puzzle.rating),
                change: open.change,
                replay: open.replay,
            }
        });
        PuzzleView {
            solver,
            puzzle,
            empty: None,
        }
    }

    /// Puts `puzzle` on the board from its start (`replay`: tried before).
    fn open(&mut self, puzzle: Puzzle, replay: bool) -> PuzzleView {
        self.lines += 1;
        let open = Open {
            position: puzzle.position,
            puzzle,
            line: self.lines,
            ply: 0,
            played: 0,
            tried: Vec::new(),
            status: Status::Playing,
            wrong: None,
            hint: None,
            change: None,
            replay,
        };
        let first = still(&open);
        self.open = Some(open);
        self.view(vec![first])
    }

    /// The open puzzle, if it is `id`.
    fn current(&self, id: i64) -> Result<&Open, GuiError> {
        match &self.open {
            None => Err(GuiError::NoPuzzle),
            Some(open) if open.puzzle.id != id => Err(GuiError::NoSuchPuzzle(id)),
            Some(open) if open.status != Status::Playing => Err(GuiError::PuzzleOver),
            Some(open) => Ok(open),
        }
    }
}

/// The next puzzle with `theme` rated near the solver.
///
/// # Errors
/// [`GuiError::Theme`] for a theme not in [`THEMES`], the database's error.
pub async fn next(
    library: &Library,
    seat: &mut Seat,
    theme: Option<String>,
) -> Result<PuzzleView, GuiError> {
    let theme = match theme.filter(|t| t != "any") {
        Some(t) if !THEMES.contains(&t.as_str()) => return Err(GuiError::Theme(t)),
        other => other,
    };
    let current = seat.open.as_ref().map(|o| o.puzzle.id);
    let (solver, chosen) = library
        .run(move |db| {
            let solver = db.solver().map_err(db_error)?;
            let chosen = choose(db, theme.as_deref(), solver.rating, current)?;
            Ok((solver, chosen))
        })
        .await?;
    seat.solver = Some(rating_view(solver));
    match chosen {
        Ok((puzzle, replay)) => Ok(seat.open(puzzle, replay)),
        Err(why) => {
            seat.open = None;
            Ok(PuzzleView {
                empty: Some(Text::new(why)),
                ..seat.view(Vec::new())
            })
        }
    }
}

/// Puzzle `id` from its start (again after a lost connection or a
/// reload: a replay if it was tried before).
///
/// # Errors
/// [`GuiError::NoSuchPuzzle`], the database's error.
pub async fn open(library: &Library, seat: &mut Seat, id: i64) -> Result<PuzzleView, GuiError> {
    let (solver, puzzle, replay) = library
        .run(move |db| {
            Ok((
                db.solver().map_err(db_error)?,
                db.puzzle(id).map_err(db_error)?,
                db.tried(id).map_err(db_error)?,
            ))
        })
        .await?;
    let puzzle = puzzle.ok_or(GuiError::NoSuchPuzzle(id))?;
    seat.solver = Some(rating_view(solver));
    Ok(seat.open(puzzle, replay))
}

/// The solver's move `hole` in puzzle `id`: the opponent's reply when it
/// is the solution's, else the failure and the solution from there.
///
/// # Errors
/// [`GuiError::NoPuzzle`], [`GuiError::NoSuchPuzzle`],
/// [`GuiError::PuzzleOver`], [`GuiError::NoSuchHole`], [`GuiError::Illegal`],
/// the database's error; the puzzle is as it was after any of them.
pub async fn play(
    library: &Library,
    seat: &mut Seat,
    id: i64,
    hole: i64,
) -> Result<PuzzleView, GuiError> {
    let mut open = seat.current(id)?.clone();
    let mv = u32::try_from(hole)
        .ok()
        .and_then(Move::from_number)
        .ok_or(GuiError::NoSuchHole(hole))?;
    open.position.check(mv).map_err(GuiError::Illegal)?;
    open.tried.push(mv);
    open.hint = None;
    let mut steps = Vec::new();
    if open.puzzle.solution.get(open.played) == Some(&mv) {
        steps.push(step(&mut open, mv, false));
        open.played += 1;
        if let Some(&reply) = open.puzzle.solution.get(open.played) {
            if open.position.check(reply).is_ok() {
                steps.push(step(&mut open, reply, false));
            }
            open.played += 1;
        }
        if open.played >= open.puzzle.solution.len() {
            open.status = Status::Solved;
        }
    } else {
        let before = (open.position, open.ply);
        open.wrong = Some(mv);
        steps.push(step(&mut open, mv, false));
        // Back to the position before the wrong move, on a new line.
        seat.lines += 1;
        open.line = seat.lines;
        (open.position, open.ply) = before;
        open.status = Status::Failed;
        steps.push(still(&open));
        steps.extend(play_out(&mut open));
    }
    finish(library, seat, open, steps).await
}

/// The hole of the solution's next move in puzzle `id`.
///
/// # Errors
/// As [`play`]'s, but for the move's.
pub fn hint(seat: &mut Seat, id: i64) -> Result<PuzzleView, GuiError> {
    let open = seat.current(id)?;
    let next = open.puzzle.solution.get(open.played).copied();
    if let Some(open) = seat.open.as_mut() {
        open.hint = next;
    }
    Ok(seat.view(Vec::new()))
}

/// The rest of puzzle `id`'s solution, played out: a failure.
///
/// # Errors
/// As [`hint`]'s, and the database's.
pub async fn solution(library: &Library, seat: &mut Seat, id: i64) -> Result<PuzzleView, GuiError> {
    let mut open = seat.current(id)?.clone();
    open.status = Status::Failed;
    open.hint = None;
    let steps = play_out(&mut open);
    finish(library, seat, open, steps).await
}

/// Sets the page's game up on puzzle `id`'s position to analyse, as
/// lichess's analysis board: two people on one board (no engine move by
/// surprise) with the engine's lines on, once the puzzle is over. The
/// pages of the game get its state and a notice; this page the puzzle as
/// it is.
///
/// # Errors
/// [`GuiError::NoPuzzle`], [`GuiError::NoSuchPuzzle`],
/// [`GuiError::PuzzleNotOver`].
pub fn analyse(seat: &Seat, session: &Session, id: i64) -> Result<PuzzleView, GuiError> {
    let open = match &seat.open {
        None => return Err(GuiError::NoPuzzle),
        Some(open) if open.puzzle.id != id => return Err(GuiError::NoSuchPuzzle(id)),
        Some(open) if open.status == Status::Playing => return Err(GuiError::PuzzleNotOver),
        Some(open) => open,
    };
    let position = open.puzzle.position;
    session.apply(move |state| {
        state.settings.mode = Mode::Humans;
        state.load(Game::new(position));
        state.analysis = true;
        Ok(Handled::ChangedWith(Notice {
            code: "puzzle_analysis",
            text: Text::new("notice_puzzle_analysis"),
        }))
    })?;
    Ok(seat.view(Vec::new()))
}

/// Records the attempt of a puzzle that has just ended and rates both
/// sides (a replay is recorded only), then keeps `open` (nothing is kept
/// when the database fails).
async fn finish(
    library: &Library,
    seat: &mut Seat,
    mut open: Open,
    steps: Vec<PuzzleStep>,
) -> Result<PuzzleView, GuiError> {
    if open.status != Status::Playing {
        let solved = open.status == Status::Solved;
        let id = open.puzzle.id;
        let tried = open.tried.clone();
        let counts = !open.replay;
        let (before, after, puzzle) = library
            .run(move |db| record(db, id, solved, &tried, counts))
            .await?;
        open.change = counts.then_some(after.rating - before.rating);
        if let Some(puzzle) = puzzle {
            open.puzzle.rating = puzzle.rating;
        }
        seat.solver = Some(rating_view(after));
    }
    seat.open = Some(open);
    Ok(seat.view(steps))
}

/// The attempt recorded, both ratings updated when `rated`: the solver's
/// rating before and after, and the puzzle as it now is.
fn record(
    db: &mut Database,
    id: i64,
    solved: bool,
    tried: &[Move],
    counts: bool,
) -> Result<(SolverRating, SolverRating, Option<Puzzle>), GuiError> {
    let before = db.solver().map_err(db_error)?;
    let Some(mut puzzle) = db.puzzle(id).map_err(db_error)? else {
        return Err(GuiError::NoSuchPuzzle(id));
    };
    if !counts {
        db.insert_attempt(id, solved, tried).map_err(db_error)?;
        return Ok((before, before, Some(puzzle)));
    }
    let solver = Rating {
        rating: before.rating,
        deviation: before.deviation,
        volatility: before.volatility,
    };
    let rated = Rating {
        rating: puzzle.rating,
        deviation: puzzle.deviation,
        volatility: puzzle.volatility,
    };
    let (new_solver, new_puzzle) = Rating::attempt(solver, rated, solved);
    let after = SolverRating {
        rating: new_solver.rating,
        deviation: new_solver.deviation,
        volatility: new_solver.volatility,
    };
    puzzle.rating = new_puzzle.rating;
    puzzle.deviation = new_puzzle.deviation;
    puzzle.volatility = new_puzzle.volatility;
    puzzle.attempts += 1;
    db.insert_attempt(id, solved, tried).map_err(db_error)?;
    db.update_solver(&after).map_err(db_error)?;
    db.update_puzzle_rating(&puzzle).map_err(db_error)?;
    Ok((before, after, Some(puzzle)))
}

/// The puzzle to play next (see [`Database::next_puzzle`]) and whether it
/// was tried before; `Err` names why there is none (a text key).
fn choose(
    db: &Database,
    theme: Option<&str>,
    rating: f64,
    current: Option<i64>,
) -> Result<Result<(Puzzle, bool), &'static str>, GuiError> {
    match db.next_puzzle(theme, rating, current).map_err(db_error)? {
        Some(puzzle) => {
            let tried = db.tried(puzzle.id).map_err(db_error)?;
            Ok(Ok((puzzle, tried)))
        }
        None if theme.is_some() && db.has_puzzles().map_err(db_error)? => {
            Ok(Err("puzzles_none_theme"))
        }
        None => Ok(Err("puzzles_empty")),
    }
}
