//! Puzzles mined from real games: the positions of a game where one move
//! is clearly best, each with its solution line, its themes and a starting
//! rating. It searches through a [`PuzzleEngine`] (the [`Searcher`], or a
//! fake one in tests) and knows nothing of where games or puzzles are kept
//! (the tools glue it to the games database).
//!
//! # The margin test
//!
//! A position passes when, searched with two lines (MultiPV 2):
//! - it has more than one legal move;
//! - the best line's score is at least [`MARGIN`] above the second's
//!   (scores capped as the review caps them, [`capped`]);
//! - the second-best is within ±[`DECIDED`]: beyond it the game is already
//!   won or lost whatever is played, and the "only move" is a formality.
//!
//! [`MARGIN`] is 600 centistones (6 stones): the review's *blunder*
//! threshold ([`DEFAULT_THRESHOLDS`]), so missing the move would be marked
//! a blunder. The mistake threshold (3 stones) was tried first: on the
//! repository's PlayOK games it made 15 puzzles a game (most plies of a
//! capture race have a 3-stone gap); at 6 stones it is about 5.
//!
//! A candidate found at the mining depth is searched again
//! [`CONFIRM_PLIES`] deeper and kept only when the deeper search passes the
//! test with the same best move: a gap that a deeper look closes was a
//! horizon effect, not a tactic.
//!
//! # The solution
//!
//! The solver's move, the opponent's reply (the engine's best at the
//! confirming depth), and on while the solver again has one clearly best
//! move by the same margin test at the confirming depth, at most
//! [`MAX_SOLVER_MOVES`] solver moves. The line always ends on a solver
//! move, and every solver move in it passed the margin test. A move that
//! ends the game ends the line.
//!
//! # Themes
//!
//! Named in the rules' words (docs/rules.md), computed from what the
//! solution's moves do by the rules ([`Theme::of_line`]), except
//! `only_defence`, which is the engine's verdict:
//! - `even_capture`: a solver move ends on an even count on the opponent's
//!   side and captures it;
//! - `tuzdik`: a solver move makes a tuzdik;
//! - `into_tuzdik`: a solver move sows stones into the solver's own tuzdik
//!   (they go straight to the solver's kazan);
//! - `waiting_move`: the first move captures nothing and makes no tuzdik,
//!   yet wins the margin: a tempo, the hardest kind to see;
//! - `endgame_sweep`: at most [`FEW_STONES`] stones are on the board, or
//!   the line ends the game;
//! - `only_defence`: every other move loses (the second-best is at most
//!   −[`MARGIN`]) while the best holds (at least −[`HOLDS`]).
//!
//! # The starting rating
//!
//! `rating = 700 + 150 × found_at + 150 × (solver moves − 1)`, clamped to
//! [`RATING_RANGE`], where `found_at` is the shallowest depth from which on
//! (up to the mining depth) the engine's best move is already the
//! solution's first: a move a 1-ply search sees starts at 850, one found
//! only at depth 8 at 1900, and each further move the solver must find adds
//! 150. The Glicko-2 updates of real attempts ([`crate::glicko`]) correct it.

use tuzdyk_protocol::SearchReport;
use tuzdyk_rules::{Game, Move, Position};

use crate::review::{DEFAULT_THRESHOLDS, capped};
use crate::{AnalysisError, Rejected, SearchLimits, Searcher};

/// The gap between the best move and the second (centistones): the
/// review's blunder threshold (module docs say why not the mistake's).
pub const MARGIN: i32 = DEFAULT_THRESHOLDS[2] as i32;

/// Beyond ± this (centistones, 15 stones) for the second-best move the
/// game is decided and the position is no puzzle.
pub const DECIDED: i32 = 1500;

/// The best move "holds" for `only_defence` when it scores at least −this:
/// the review's inaccuracy threshold.
pub const HOLDS: i32 = DEFAULT_THRESHOLDS[0] as i32;

/// The mining depth by default: the 1,229 PlayOK games of the repository
/// (about 120,000 positions) are mined at it in 7 minutes of one core, the
/// engine's searches included, within the 20 minutes the shipped set was
/// allowed; of 50 of its puzzles searched again at depth 14, all keep their
/// move and 49 a gap of 3 stones or more.
pub const DEFAULT_DEPTH: u32 = 8;

/// How much deeper a candidate is searched again.
pub const CONFIRM_PLIES: u32 = 4;

/// The most solver moves in a solution.
pub const MAX_SOLVER_MOVES: usize = 3;

/// At most this many stones on the board make an `endgame_sweep`.
pub const FEW_STONES: u32 = 30;

/// The starting ratings' range.
pub const RATING_RANGE: (f64, f64) = (800.0, 2200.0);

/// Searches a position to a depth with two lines (MultiPV 2).
pub trait PuzzleEngine {
    /// Searches `pos` to `depth` and gives the report as read.
    ///
    /// # Errors
    /// [`AnalysisError::Engine`] when the engine fails.
    fn search_to(&mut self, pos: &Position, depth: u32) -> Result<SearchReport, AnalysisError>;
}

impl PuzzleEngine for Searcher {
    fn search_to(&mut self, pos: &Position, depth: u32) -> Result<SearchReport, AnalysisError> {
        self.set_limits(SearchLimits::depth(depth));
        self.search(pos, None)
    }
}

/// A puzzle's theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Theme {
    EvenCapture,
    Tuzdik,
    IntoTuzdik,
    WaitingMove,
    OnlyDefence,
    EndgameSweep,
}

impl Theme {
    pub const ALL: [Theme; 6] = [
        Theme::EvenCapture,
        Theme::Tuzdik,
        Theme::IntoTuzdik,
        Theme::WaitingMove,
        Theme::OnlyDefence,
        Theme::EndgameSweep,
    ];

    /// The theme's name as stored and exported.
    pub const fn name(self) -> &'static str {
        match self {
            Theme::EvenCapture => "even_capture",
            Theme::Tuzdik => "tuzdik",
            Theme::IntoTuzdik => "into_tuzdik",
            Theme::WaitingMove => "waiting_move",
            Theme::OnlyDefence => "only_defence",
            Theme::EndgameSweep => "endgame_sweep",
        }
    }

    /// The theme named `name`.
    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Whether the rules alone decide it (every theme but `only_defence`,
    /// the engine's verdict).
    pub const fn by_rules(self) -> bool {
        !matches!(self, Theme::OnlyDefence)
    }

    /// The themes the rules give the solution `line` from `start` (the
    /// solver's moves are its even plies), in [`Theme::ALL`]'s order.
    /// Moves that are not legal end the line.
    pub fn of_line(start: &Position, line: &[Move]) -> Vec<Theme> {
        let solver = start.side_to_move();
        let mut pos = *start;
        let mut found = Vec::new();
        if start.stones_on_board() <= FEW_STONES {
            found.push(Theme::EndgameSweep);
        }
        for (ply, &mv) in line.iter().enumerate() {
            if !pos.is_legal(mv) {
                break;
            }
            let outcome = pos.play(mv);
            if ply % 2 == 1 {
                continue;
            }
            if outcome.captured > 0 {
                found.push(Theme::EvenCapture);
            }
            if outcome.tuzdik {
                found.push(Theme::Tuzdik);
            }
            if outcome.tuzdik_stones[solver.index()] > 0 {
                found.push(Theme::IntoTuzdik);
            }
            if ply == 0 && outcome.captured == 0 && !outcome.tuzdik {
                found.push(Theme::WaitingMove);
            }
        }
        if pos.game_over().is_some() {
            found.push(Theme::EndgameSweep);
        }
        found.sort();
        found.dedup();
        found
    }
}

/// A position's clear best move: what passed the margin test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClearBest {
    pub mv: Move,
    /// The best and second-best scores, capped (centistones, mover's view).
    pub best: i32,
    pub second: i32,
}

impl ClearBest {
    /// `best − second`.
    pub fn gap(&self) -> i32 {
        self.best - self.second
    }
}

/// The margin test (module docs) on `report`, a two-line search of `pos`.
pub fn margin_test(pos: &Position, report: &SearchReport) -> Option<ClearBest> {
    if pos.legal_moves().count() < 2 {
        return None;
    }
    let score = |k: usize| {
        let line = report.lines.get(k)?;
        Some((*line.pv.first()?, capped(line.score?)))
    };
    let (mv, best) = score(0)?;
    let (other, second) = score(1)?;
    if !pos.is_legal(mv) || !pos.is_legal(other) {
        return None;
    }
    let clear = ClearBest { mv, best, second };
    (other != mv && second.abs() <= DECIDED && clear.gap() >= MARGIN).then_some(clear)
}

/// How deep to mine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MineDepth {
    /// Every position is searched to this depth.
    pub depth: u32,
    /// Candidates and solution lines are searched to this one.
    pub confirm: u32,
}

impl MineDepth {
    /// `depth`, confirmed [`CONFIRM_PLIES`] deeper.
    pub fn new(depth: u32) -> MineDepth {
        MineDepth {
            depth,
            confirm: depth + CONFIRM_PLIES,
        }
    }
}

impl Default for MineDepth {
    fn default() -> MineDepth {
        MineDepth::new(DEFAULT_DEPTH)
    }
}

/// A puzzle found in a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// 0-based ply of the game: the puzzle is the position before it.
    pub ply: usize,
    pub position: Position,
    /// Solver, opponent, solver...: always odd in length.
    pub solution: Vec<Move>,
    pub themes: Vec<Theme>,
    pub rating: f64,
    /// The shallowest depth from which the engine finds the first move.
    pub found_at: u32,
    /// The first move's test at the confirming depth.
    pub clear: ClearBest,
}

impl Found {
    /// The themes' names.
    pub fn theme_names(&self) -> Vec<String> {
        self.themes.iter().map(|t| t.name().to_string()).collect()
    }
}

/// The starting rating (module docs).
pub fn starting_rating(found_at: u32, solver_moves: usize) -> f64 {
    let raw = 700.0 + 150.0 * found_at as f64 + 150.0 * solver_moves.saturating_sub(1) as f64;
    raw.clamp(RATING_RANGE.0, RATING_RANGE.1)
}

/// The report, or [`AnalysisError::Rejected`] at `ply`.
fn search<E: PuzzleEngine + ?Sized>(
    engine: &mut E,
    pos: &Position,
    depth: u32,
    ply: usize,
) -> Result<SearchReport, AnalysisError> {
    let report = engine.search_to(pos, depth)?;
    match report.position_error() {
        Some(message) => Err(AnalysisError::Rejected(Rejected {
            ply,
            message: message.to_string(),
        })),
        None => Ok(report),
    }
}

/// The engine's move in `report`.
fn best_move(report: &SearchReport) -> Option<Move> {
    report
        .best_line()
        .and_then(|l| l.pv.first().copied())
        .or_else(|| report.best().ok().and_then(|b| b.mv))
}

/// The puzzles of `game`, in ply order, each checked as the module docs
/// say.
///
/// # Errors
/// The engine's error, or [`AnalysisError::Rejected`] for a position the
/// engine rejected.
pub fn mine_game<E: PuzzleEngine + ?Sized>(
    engine: &mut E,
    game: &Game,
    depth: MineDepth,
) -> Result<Vec<Found>, AnalysisError> {
    let mut found = Vec::new();
    for (ply, pos) in game.positions().into_iter().enumerate() {
        if pos.game_over().is_some() || pos.legal_moves().count() < 2 {
            continue;
        }
        if let Some(puzzle) = puzzle_at(engine, &pos, ply, depth)? {
            found.push(puzzle);
        }
    }
    Ok(found)
}

/// The puzzle at `pos` (ply `ply` of its game), if there is one.
///
/// # Errors
/// As [`mine_game`].
pub fn puzzle_at<E: PuzzleEngine + ?Sized>(
    engine: &mut E,
    pos: &Position,
    ply: usize,
    depth: MineDepth,
) -> Result<Option<Found>, AnalysisError> {
    let Some(shallow) = margin_test(pos, &search(engine, pos, depth.depth, ply)?) else {
        return Ok(None);
    };
    let Some(clear) = margin_test(pos, &search(engine, pos, depth.confirm, ply)?) else {
        return Ok(None);
    };
    if clear.mv != shallow.mv {
        return Ok(None);
    }
    let solution = solution_line(engine, pos, clear.mv, ply, depth.confirm)?;
    let mut found_at = 1;
    for d in (1..depth.depth).rev() {
        if best_move(&search(engine, pos, d, ply)?) != Some(clear.mv) {
            found_at = d + 1;
            break;
        }
    }
    let mut themes = Theme::of_line(pos, &solution);
    if clear.second <= -MARGIN && clear.best >= -HOLDS {
        themes.push(Theme::OnlyDefence);
        themes.sort();
    }
    Ok(Some(Found {
        ply,
        position: *pos,
        rating: starting_rating(found_at, solution.len().div_ceil(2)),
        solution,
        themes,
        found_at,
        clear,
    }))
}

/// The solution from `pos` whose first move `first` passed the test: the
/// engine's replies and the solver's next clear moves (module docs).
fn solution_line<E: PuzzleEngine + ?Sized>(
    engine: &mut E,
    pos: &Position,
    first: Move,
    ply: usize,
    depth: u32,
) -> Result<Vec<Move>, AnalysisError> {
    let mut line = vec![first];
    let mut at = *pos;
    at.play(first);
    while line.len().div_ceil(2) < MAX_SOLVER_MOVES && at.game_over().is_none() {
        let Some(reply) = best_move(&search(engine, &at, depth, ply)?) else {
            break;
        };
        if !at.is_legal(reply) {
            break;
        }
        let mut next = at;
        next.play(reply);
        if next.game_over().is_some() {
            break;
        }
        let Some(clear) = margin_test(&next, &search(engine, &next, depth, ply)?) else {
            break;
        };
        next.play(clear.mv);
        line.extend([reply, clear.mv]);
        at = next;
    }
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tuzdyk_notation::tfen;
    use tuzdyk_protocol::{InfoLine, Score};
    use tuzdyk_rules::rng::SplitMix64;

    fn mv(number: u32) -> Move {
        Move::from_number(number).unwrap()
    }

    /// A report with these (move, score) lines, best first.
    fn report(lines: &[(u32, i32)]) -> SearchReport {
        SearchReport {
            bestmove_line: format!("bestmove {}", lines.first().map_or(0, |l| l.0)),
            lines: lines
                .iter()
                .map(|&(m, cp)| InfoLine {
                    depth: Some(8),
                    score: Some(Score::Centistones(cp)),
                    pv: vec![mv(m)],
                    ..InfoLine::default()
                })
                .collect(),
            nodes: Some(1),
            strings: Vec::new(),
        }
    }

    /// An engine answering from a function of the position and the depth,
    /// counting its searches.
    struct Fake<F: FnMut(&Position, u32) -> Vec<(u32, i32)>> {
        answer: F,
        searches: Vec<u32>,
    }

    impl<F: FnMut(&Position, u32) -> Vec<(u32, i32)>> PuzzleEngine for Fake<F> {
        fn search_to(&mut self, pos: &Position, depth: u32) -> Result<SearchReport, AnalysisError> {
            self.searches.push(depth);
            Ok(report(&(self.answer)(pos, depth)))
        }
    }

    fn fake<F: FnMut(&Position, u32) -> Vec<(u32, i32)>>(answer: F) -> Fake<F> {
        Fake {
            answer,
            searches: Vec::new(),
        }
    }

    #[test]
    fn the_margin_is_six_stones_and_a_decided_game_is_no_puzzle() {
        let start = Position::startpos();
        let pass = |lines: &[(u32, i32)]| margin_test(&start, &report(lines));
        assert_eq!(MARGIN, 600);
        let clear = pass(&[(6, 100), (2, -500)]).expect("a 6-stone gap passes");
        assert_eq!((clear.mv, clear.gap()), (mv(6), 600));
        assert_eq!(pass(&[(6, 100), (2, -499)]), None, "599 is not enough");
        assert_eq!(pass(&[(6, 2500), (2, 1600)]), None, "already won");
        assert_eq!(pass(&[(6, -900), (2, -1600)]), None, "already lost");
        assert!(
            pass(&[(6, -900), (2, -1500)]).is_some(),
            "15 stones is not yet decided"
        );
        assert_eq!(pass(&[(6, 900)]), None, "no second line");
        assert_eq!(pass(&[(6, 900), (6, 100)]), None, "the same move twice");
        let one_move = tfen::parse("1S,1S,1S,1S,1S,1S,1S,1S,1S/1S,8 76 76 S 60").unwrap();
        assert_eq!(margin_test(&one_move, &report(&[(1, 900), (2, 0)])), None);
        // An engine's move that is not legal is no clear best.
        let two = tfen::parse("1S,1S,1S,1S,1S,1S,1S,1S,1S/2S,8 75 76 S 60").unwrap();
        assert_eq!(margin_test(&two, &report(&[(3, 900), (2, 0)])), None);
    }

    #[test]
    fn a_candidate_the_deeper_search_does_not_confirm_is_rejected() {
        let start = Position::startpos();
        // The deeper search prefers another move.
        let mut other = fake(|_, d| {
            if d > 8 {
                vec![(2, 900), (6, 0)]
            } else {
                vec![(6, 900), (2, 0)]
            }
        });
        assert_eq!(
            puzzle_at(&mut other, &start, 0, MineDepth::new(8)).unwrap(),
            None
        );
        assert_eq!(other.searches, [8, 12]);
        // The deeper search closes the gap.
        let mut closed = fake(|_, d| {
            if d > 8 {
                vec![(6, 300), (2, 0)]
            } else {
                vec![(6, 900), (2, 0)]
            }
        });
        assert_eq!(
            puzzle_at(&mut closed, &start, 0, MineDepth::new(8)).unwrap(),
            None
        );
        // No gap: one search only.
        let mut none = fake(|_, _| vec![(6, 100), (2, 0)]);
        assert_eq!(
            puzzle_at(&mut none, &start, 0, MineDepth::new(8)).unwrap(),
            None
        );
        assert_eq!(none.searches, [8]);
    }

    #[test]
    fn the_line_goes_on_while_the_solver_has_a_clear_move_and_ends_on_one() {
        let start = Position::startpos();
        let solver = start.side_to_move();
        // The solver always has a clear best (its first legal move); the
        // opponent's best is its last legal move.
        let mut always = fake(|pos: &Position, _| {
            let moves: Vec<u32> = pos.legal_moves().map(|m| m.number()).collect();
            if pos.side_to_move() == solver {
                vec![(moves[0], 700), (moves[1], 0)]
            } else {
                vec![(moves[moves.len() - 1], 0), (moves[0], -50)]
            }
        });
        let found = puzzle_at(&mut always, &start, 0, MineDepth::new(3))
            .unwrap()
            .unwrap();
        assert_eq!(found.solution.len(), 2 * MAX_SOLVER_MOVES - 1);
        assert_eq!(found.solution[0], mv(1));
        // Shallower depths found it too: rated as a 1-ply puzzle of 3 moves.
        assert_eq!(found.found_at, 1);
        assert_eq!(found.rating, starting_rating(1, 3));
        // Only the first move is clear: the line is that move alone.
        let mut once = fake(|pos: &Position, _| {
            let moves: Vec<u32> = pos.legal_moves().map(|m| m.number()).collect();
            if *pos == Position::startpos() {
                vec![(moves[0], 700), (moves[1], 0)]
            } else {
                vec![(moves[0], 10), (moves[1], 0)]
            }
        });
        let found = puzzle_at(&mut once, &start, 0, MineDepth::new(3))
            .unwrap()
            .unwrap();
        assert_eq!(found.solution, [mv(1)]);
    }

    #[test]
    fn the_depth_it_is_found_at_and_the_length_make_the_rating() {
        let start = Position::startpos();
        // Depths below 5 prefer move 2.
        let mut late = fake(|_, d| {
            if d < 5 {
                vec![(2, 100), (6, 0)]
            } else {
                vec![(6, 900), (2, 0)]
            }
        });
        let found = puzzle_at(&mut late, &start, 0, MineDepth::new(8))
            .unwrap()
            .unwrap();
        assert_eq!(found.found_at, 5);
        let solver_moves = found.solution.len().div_ceil(2);
        assert_eq!(found.rating, starting_rating(5, solver_moves));
        assert_eq!(starting_rating(5, 1), 700.0 + 150.0 * 5.0);
        assert_eq!(starting_rating(5, 2), 700.0 + 150.0 * 6.0);
        assert_eq!(starting_rating(1, 1), RATING_RANGE.0.max(850.0));
        assert_eq!(starting_rating(20, 3), RATING_RANGE.1);
    }

    #[test]
    fn only_defence_is_every_other_move_losing_while_the_best_holds() {
        let start = Position::startpos();
        let themes = |best: i32, second: i32| {
            let mut engine = fake(move |pos: &Position, _| {
                if *pos == Position::startpos() {
                    vec![(2, best), (6, second)]
                } else {
                    let m: Vec<u32> = pos.legal_moves().map(|m| m.number()).collect();
                    vec![(m[0], 0), (m[1], 0)]
                }
            });
            puzzle_at(&mut engine, &start, 0, MineDepth::new(2))
                .unwrap()
                .unwrap()
                .themes
        };
        assert!(themes(0, -600).contains(&Theme::OnlyDefence));
        assert!(themes(-100, -700).contains(&Theme::OnlyDefence));
        assert!(
            !themes(-101, -701).contains(&Theme::OnlyDefence),
            "the best does not hold"
        );
        assert!(
            !themes(900, 300).contains(&Theme::OnlyDefence),
            "the second does not lose"
        );
    }

    #[test]
    fn themes_have_the_rules_names() {
        let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
        assert_eq!(
            names,
            [
                "even_capture",
                "tuzdik",
                "into_tuzdik",
                "waiting_move",
                "only_defence",
                "endgame_sweep"
            ]
        );
        for theme in Theme::ALL {
            assert_eq!(Theme::from_name(theme.name()), Some(theme));
        }
        assert_eq!(Theme::from_name("capture"), None);
        // From the start, 6 ends on Black's 5 with 10 stones: captured.
        assert_eq!(
            Theme::of_line(&Position::startpos(), &[mv(6)]),
            [Theme::EvenCapture]
        );
        // 1 ends on White's own 9: nothing taken, a waiting move.
        assert_eq!(
            Theme::of_line(&Position::startpos(), &[mv(1)]),
            [Theme::WaitingMove]
        );
    }

    #[test]
    fn themes_follow_what_the_solver_moves_do() {
        let mut rng = SplitMix64::new(7);
        let mut seen = [false; 6];
        for _ in 0..200 {
            let mut pos = Position::startpos();
            while pos.game_over().is_none() {
                let moves: Vec<Move> = pos.legal_moves().collect();
                let m = *rng.pick(&moves);
                let mover = pos.side_to_move();
                let themes = Theme::of_line(&pos, &[m]);
                let outcome = pos.preview(m);
                let few = pos.stones_on_board() <= FEW_STONES;
                let mut after = pos;
                after.play(m);
                let expect = [
                    outcome.captured > 0,
                    outcome.tuzdik,
                    outcome.tuzdik_stones[mover.index()] > 0,
                    outcome.captured == 0 && !outcome.tuzdik,
                    false,
                    few || after.game_over().is_some(),
                ];
                for (k, theme) in Theme::ALL.into_iter().enumerate() {
                    assert_eq!(
                        themes.contains(&theme),
                        expect[k],
                        "{theme:?} at {}",
                        tfen::write(&pos)
                    );
                    seen[k] |= expect[k];
                }
                // The opponent's reply adds nothing of its own.
                let reply = after.legal_moves().next();
                if let Some(reply) = reply.filter(|_| after.game_over().is_none()) {
                    let line = Theme::of_line(&pos, &[m, reply]);
                    let mut end = after;
                    end.play(reply);
                    let ends = end.game_over().is_some() && !themes.contains(&Theme::EndgameSweep);
                    assert_eq!(line.len(), themes.len() + usize::from(ends));
                }
                pos = after;
            }
        }
        assert_eq!(
            seen,
            [true, true, true, true, false, true],
            "every rules theme was met"
        );
    }
}
