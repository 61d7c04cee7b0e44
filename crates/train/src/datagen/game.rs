//! One game of the generator: its opening, drawn from `(seed, index)` only,
//! the engine's self-play from it, and the filters that choose which of its
//! positions become records.
//!
//! Openings: one game in [`STARTPOS_ONE_IN`] starts from the start position
//! plus 4..=10 random plies; the others from a position of the shipped
//! suite (real games after 6-10 plies) plus the `--random-plies` range.
//!
//! Filters, in the order they are asked (a position left out counts once,
//! under the first that applies):
//! - *game over*: a finished position has no move and nothing to learn;
//!   self-play never searches one, so none is ever written;
//! - [`Filter::Opening`]: the opening position itself when no random ply
//!   changed it (the suite's 195 positions would repeat across games); the
//!   positions the random plies pass through are never searched at all;
//! - [`Filter::Capture`]: the best move captures or makes a tuzdik. The
//!   score there rests on a gain that quiescence resolves and a static
//!   evaluation cannot see, so it is not what a network should predict
//!   from the position alone;
//! - [`Filter::ForcedResult`]: the score is a forced win or loss (a "mate"
//!   score, a distance rather than centi-stones).

use tuzdyk_rules::rng::{self, SplitMix64};
use tuzdyk_rules::{Position, TOTAL_STONES};
use tuzdyk_search::eval::Evaluator;
use tuzdyk_search::score::MATE_BOUND;
use tuzdyk_search::{SearchOptions, Searcher};

use super::args::PliesRange;
use super::record::Record;
use crate::selfplay::{self, Turn};

/// One game in this many starts from the start position.
pub const STARTPOS_ONE_IN: usize = 8;
/// Random plies after the start position.
pub const STARTPOS_RANDOM_PLIES: PliesRange = PliesRange { min: 4, max: 10 };
/// Table size of each game's searcher.
pub const HASH_MB: usize = 8;

/// Why a searched position is not written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    Opening,
    Capture,
    ForcedResult,
}

/// Positions searched and what became of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub games: u64,
    pub adjudicated: u64,
    /// Positions the engine searched.
    pub positions: u64,
    pub kept: u64,
    pub opening: u64,
    pub capture: u64,
    pub forced_result: u64,
}

impl Counts {
    /// Adds another game's counts.
    pub fn add(&mut self, other: &Counts) {
        self.games += other.games;
        self.adjudicated += other.adjudicated;
        self.positions += other.positions;
        self.kept += other.kept;
        self.opening += other.opening;
        self.capture += other.capture;
        self.forced_result += other.forced_result;
    }

    fn left_out(&mut self, filter: Filter) {
        match filter {
            Filter::Opening => self.opening += 1,
            Filter::Capture => self.capture += 1,
            Filter::ForcedResult => self.forced_result += 1,
        }
    }
}

/// What one game gives: its records in order, and its counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecords {
    pub records: Vec<Record>,
    pub counts: Counts,
}

/// What decides every game: the same recipe gives the same game `index`
/// whatever the thread count or shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipe {
    pub seed: u64,
    /// The evaluation both sides play with.
    pub evaluator: Evaluator,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Random plies after a suite opening.
    pub random_plies: PliesRange,
}

/// Where a game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    pub position: Position,
    /// Random plies were played from the chosen position.
    pub varied: bool,
}

/// The seed of game `index`'s generator: both numbers mixed, so nearby
/// games and nearby seeds give unrelated streams.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut a = seed;
    let mut b = index ^ 0x5851_F42D_4C95_7F2D;
    rng::next(&mut a) ^ rng::next(&mut b).rotate_left(17)
}

/// Game `index`'s opening.
pub fn opening(suite: &[Position], recipe: &Recipe, index: u64) -> Opening {
    let mut rng = SplitMix64::new(game_seed(recipe.seed, index));
    let (mut position, range) = if suite.is_empty() || rng.below(STARTPOS_ONE_IN) == 0 {
        (Position::startpos(), STARTPOS_RANDOM_PLIES)
    } else {
        (*rng.pick(suite), recipe.random_plies)
    };
    let count = rng.in_range(range.min..=range.max);
    let before = position;
    selfplay::random_plies(&mut position, count, &mut rng);
    Opening {
        position,
        varied: position != before,
    }
}

/// Which filter, if any, leaves out `turn`; `first` when it is the game's
/// first searched position.
pub fn filter(turn: &Turn, first: bool, opening: &Opening) -> Option<Filter> {
    if first && !opening.varied {
        return Some(Filter::Opening);
    }
    let outcome = turn.position.preview(turn.best);
    if outcome.captured > 0 || outcome.tuzdik {
        return Some(Filter::Capture);
    }
    if turn.score.abs() >= MATE_BOUND {
        return Some(Filter::ForcedResult);
    }
    None
}

/// Plays game `index` with `searcher` (reset here) and keeps what the
/// filters let through.
pub fn play(
    searcher: &mut Searcher,
    suite: &[Position],
    recipe: &Recipe,
    index: u64,
) -> GameRecords {
    let opening = opening(suite, recipe, index);
    searcher.new_game();
    let game = selfplay::play_out(
        opening.position,
        searcher,
        recipe.nodes,
        selfplay::MAX_PLIES,
    );
    let mut counts = Counts {
        games: 1,
        adjudicated: game.adjudicated as u64,
        positions: game.turns.len() as u64,
        ..Counts::default()
    };
    let final_count = game.final_count.map(|c| c.min(TOTAL_STONES) as u8);
    let mut records = Vec::new();
    for (i, turn) in game.turns.iter().enumerate() {
        if let Some(reason) = filter(turn, i == 0, &opening) {
            counts.left_out(reason);
            continue;
        }
        records.push(Record {
            position: turn.position,
            score: turn.score.clamp(-i16::MAX as i32, i16::MAX as i32) as i16,
            result: game.result,
            final_count,
            best: turn.best,
            adjudicated: game.adjudicated,
        });
    }
    counts.kept = records.len() as u64;
    GameRecords { records, counts }
}

/// A searcher for datagen games: one thread, a [`HASH_MB`] table.
pub fn searcher(evaluator: &Evaluator) -> Searcher {
    Searcher::new(SearchOptions {
        threads: 1,
        hash_mb: HASH_MB,
        evaluator: evaluator.clone(),
        ..SearchOptions::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recipe(nodes: u64) -> Recipe {
        Recipe {
            seed: 5,
            evaluator: Evaluator::Classic,
            nodes,
            random_plies: PliesRange { min: 2, max: 6 },
        }
    }

    #[test]
    fn openings_depend_on_the_seed_and_index_only() {
        let suite = tuzdyk_notation::suite::playok_positions();
        let openings: Vec<Opening> = (0..40).map(|i| opening(&suite, &recipe(1), i)).collect();
        let again: Vec<Opening> = (0..40)
            .rev()
            .map(|i| opening(&suite, &recipe(1), i))
            .collect();
        assert!(openings.iter().eq(again.iter().rev()));
        assert!(
            openings
                .iter()
                .all(|o| o.varied && o.position.game_over().is_none())
        );
        let distinct: std::collections::HashSet<u64> =
            openings.iter().map(|o| o.position.key()).collect();
        assert!(
            distinct.len() > 35,
            "{} distinct openings of 40",
            distinct.len()
        );
        let from_start = openings.iter().filter(|o| o.position.ply() <= 10).count();
        assert!(
            (1..20).contains(&from_start),
            "{from_start} from the start position"
        );
        let other_seed = Recipe {
            seed: 6,
            ..recipe(1)
        };
        assert_ne!(opening(&suite, &other_seed, 0), openings[0]);
    }

    #[test]
    fn no_random_plies_leaves_the_opening_position_out() {
        let suite = tuzdyk_notation::suite::playok_positions();
        let fixed = Recipe {
            random_plies: PliesRange { min: 0, max: 0 },
            ..recipe(200)
        };
        let index = (0..50)
            .find(|&i| !opening(&suite, &fixed, i).varied)
            .expect("some game starts from a suite position unchanged");
        let game = play(&mut searcher(&Evaluator::Classic), &suite, &fixed, index);
        assert_eq!(game.counts.opening, 1);
        let start = opening(&suite, &fixed, index).position;
        assert!(game.records.iter().all(|r| r.position != start));
    }

    #[test]
    fn kept_positions_pass_every_filter_and_the_counts_add_up() {
        let suite = tuzdyk_notation::suite::playok_positions();
        let mut searcher = searcher(&Evaluator::Classic);
        for index in 0..3 {
            let game = play(&mut searcher, &suite, &recipe(200), index);
            let c = game.counts;
            assert_eq!(
                c.positions,
                c.kept + c.opening + c.capture + c.forced_result
            );
            assert_eq!(c.kept, game.records.len() as u64);
            assert!(c.capture > 0, "{c:?}");
            for record in &game.records {
                assert!(record.position.game_over().is_none());
                let outcome = record.position.preview(record.best);
                assert!(outcome.captured == 0 && !outcome.tuzdik, "{record:?}");
                assert!(i32::from(record.score).abs() < MATE_BOUND);
            }
        }
    }

    #[test]
    fn a_game_is_the_same_after_other_games() {
        let suite = tuzdyk_notation::suite::playok_positions();
        let mut used = searcher(&Evaluator::Classic);
        play(&mut used, &suite, &recipe(200), 0);
        let after = play(&mut used, &suite, &recipe(200), 1);
        let fresh = play(&mut searcher(&Evaluator::Classic), &suite, &recipe(200), 1);
        assert_eq!(after, fresh);
    }
}
