//! Self-play: the one game loop of Texel tuning (`tuzdyk tune`) and of the
//! training-data generator (`tuzdyk datagen`).
//!
//! A game starts from an opening plus a few random plies ([`random_plies`])
//! for variety, then the engine plays both sides at a fixed node count per
//! move ([`play_out`]) with a searcher its caller has just reset, so a game
//! depends only on its start and the node count. [`play_game`] is tuning's
//! game: every position the engine moved from, labelled with the result.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;

use rayon::prelude::*;

use tuzdyk_notation::tfen;
use tuzdyk_rules::rng::SplitMix64;
use tuzdyk_rules::{GameResult, Move, Position, Side};
use tuzdyk_search::{Limits, SearchOptions, Searcher};

/// Engine plies after which a game is adjudicated a draw.
pub const MAX_PLIES: usize = 400;

/// One engine move: the position, the move chosen and its search score
/// (centi-stones or a forced result, from the side to move's view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    pub position: Position,
    pub best: Move,
    pub score: i32,
}

/// A game the engine played from its start to the end (or to [`MAX_PLIES`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// Every position the engine moved from, in order.
    pub turns: Vec<Turn>,
    pub result: GameResult,
    /// The stones each side finished with, `[White, Black]`: the count
    /// that decided the game ([`Position::final_count`]), or for an
    /// adjudicated game each kazan plus the stones on its side then.
    pub final_count: [u32; 2],
    /// Stopped at [`MAX_PLIES`] and called a draw.
    pub adjudicated: bool,
}

impl PlayedGame {
    /// The result as White's points: 1, 0.5 or 0.
    pub fn white_score(&self) -> f32 {
        self.result.points(Side::White) as f32
    }
}

/// Plays `plies` uniformly random moves from `pos`, never one that ends the
/// game; stops early when every move would.
pub fn random_plies(pos: &mut Position, plies: usize, rng: &mut SplitMix64) {
    for _ in 0..plies {
        let moves: Vec<Move> = pos
            .legal_moves()
            .filter(|&mv| {
                let mut after = *pos;
                after.play(mv);
                after.game_over().is_none()
            })
            .collect();
        if moves.is_empty() {
            break;
        }
        pos.play(*rng.pick(&moves));
    }
}

/// The engine plays `start` out at `nodes` per move with `searcher`, which
/// the caller has reset ([`Searcher::new_game`] or new) for this game; after
/// `max_plies` engine moves ([`MAX_PLIES`] in real use) it is a draw.
pub fn play_out(
    start: Position,
    searcher: &mut Searcher,
    nodes: u64,
    max_plies: usize,
) -> PlayedGame {
    let limits = Limits::nodes(nodes);
    let mut pos = start;
    let mut turns = Vec::new();
    loop {
        if let Some((result, end)) = pos.game_over() {
            return PlayedGame {
                turns,
                result,
                final_count: pos.final_count(end),
                adjudicated: false,
            };
        }
        if turns.len() >= max_plies {
            return PlayedGame {
                turns,
                result: GameResult::Draw,
                final_count: pos.final_scores(),
                adjudicated: true,
            };
        }
        let found = searcher.search_silently(&pos, &limits);
        let best = found
            .best
            .expect("the search gives a move while the game goes on");
        turns.push(Turn {
            position: pos,
            best,
            score: found.score,
        });
        pos.play(best);
    }
}

/// A position and the result of its game, from White's side: 1, 0.5 or 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub position: Position,
    pub white_score: f32,
}

impl Sample {
    /// The result from the side to move's point of view.
    pub fn score_for_side_to_move(&self) -> f32 {
        match self.position.side_to_move() {
            Side::White => self.white_score,
            Side::Black => 1.0 - self.white_score,
        }
    }
}

/// Plays `games` tuning games in parallel on the current rayon pool.
pub fn generate(games: usize, nodes: u64, seed: u64) -> Vec<Sample> {
    (0..games)
        .into_par_iter()
        .flat_map_iter(|game| {
            let game_seed = seed ^ (game as u64).wrapping_mul(0xA076_1D64_78BD_642F);
            play_game(nodes, game_seed)
        })
        .collect()
}

/// One tuning game's samples: the start position, 4 to 10 random plies,
/// then the engine with a fresh 4 MB table.
pub fn play_game(nodes: u64, seed: u64) -> Vec<Sample> {
    let mut rng = SplitMix64::new(seed);
    let mut pos = Position::startpos();
    let plies = rng.in_range(4..=10);
    random_plies(&mut pos, plies, &mut rng);
    let mut searcher = Searcher::new(SearchOptions {
        hash_mb: 4,
        ..SearchOptions::default()
    });
    let game = play_out(pos, &mut searcher, nodes, MAX_PLIES);
    let white_score = game.white_score();
    game.turns
        .into_iter()
        .map(|turn| Sample {
            position: turn.position,
            white_score,
        })
        .collect()
}

/// Writes one `<TFEN> <white score>` line per sample.
pub fn save(path: &Path, samples: &[Sample]) -> std::io::Result<()> {
    let mut out = BufWriter::new(std::fs::File::create(path)?);
    for sample in samples {
        writeln!(
            out,
            "{} {}",
            tfen::write(&sample.position),
            sample.white_score
        )?;
    }
    out.flush()
}

/// Why a file of labelled positions cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{path}:{line}: expected '<TFEN> <result>'")]
    Fields { path: String, line: usize },
    #[error("{path}:{line}: {error}")]
    Tfen {
        path: String,
        line: usize,
        error: tuzdyk_notation::tfen::TfenError,
    },
    #[error("{path}:{line}: bad result '{result}' (expected 0, 0.5 or 1)")]
    Result {
        path: String,
        line: usize,
        result: String,
    },
}

/// Reads what [`save`] wrote.
///
/// # Errors
/// [`LoadError`] naming the file, the line and what is wrong with it.
pub fn load(path: &Path) -> Result<Vec<Sample>, LoadError> {
    let shown = || path.display().to_string();
    let io = |error| LoadError::Io {
        path: shown(),
        error,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut samples = Vec::new();
    for (number, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(io)?;
        let line_number = number + 1;
        if line.trim().is_empty() {
            continue;
        }
        let (text, score) = line.rsplit_once(' ').ok_or_else(|| LoadError::Fields {
            path: shown(),
            line: line_number,
        })?;
        let position = tfen::parse(text).map_err(|error| LoadError::Tfen {
            path: shown(),
            line: line_number,
            error,
        })?;
        let white_score = score
            .parse::<f32>()
            .ok()
            .filter(|s| (0.0..=1.0).contains(s))
            .ok_or_else(|| LoadError::Result {
                path: shown(),
                line: line_number,
                result: score.to_string(),
            })?;
        samples.push(Sample {
            position,
            white_score,
        });
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_play_is_reproducible_and_labelled() {
        let a = play_game(300, 7);
        let b = play_game(300, 7);
        assert_eq!(a, b);
        assert!(a.len() > 20);
        let score = a[0].white_score;
        assert!(a.iter().all(|s| s.white_score == score));
        assert!([0.0, 0.5, 1.0].contains(&score));
    }

    #[test]
    fn a_played_game_ends_as_its_final_count_says() {
        let mut searcher = Searcher::new(SearchOptions::default());
        let game = play_out(Position::startpos(), &mut searcher, 200, MAX_PLIES);
        assert!(!game.adjudicated);
        let [white, black] = game.final_count;
        let expected = match white.cmp(&black) {
            std::cmp::Ordering::Greater => GameResult::Win(Side::White),
            std::cmp::Ordering::Less => GameResult::Win(Side::Black),
            std::cmp::Ordering::Equal => GameResult::Draw,
        };
        assert_eq!(game.result, expected);
        let mut pos = Position::startpos();
        for turn in &game.turns {
            assert_eq!(turn.position, pos);
            pos.play(turn.best);
        }
        let (_, end) = pos.game_over().expect("the game is over");
        assert_eq!(pos.final_count(end), game.final_count);
    }

    #[test]
    fn a_long_game_is_adjudicated_a_draw_with_the_count_then() {
        let mut searcher = Searcher::new(SearchOptions::default());
        let game = play_out(Position::startpos(), &mut searcher, 100, 6);
        assert!(game.adjudicated);
        assert_eq!(game.result, GameResult::Draw);
        assert_eq!(game.turns.len(), 6);
        assert_eq!(game.final_count.iter().sum::<u32>(), 162);
    }

    #[test]
    fn samples_round_trip_through_the_file() {
        let samples = play_game(200, 3);
        let path = std::env::temp_dir().join(format!("tuzdyk-samples-{}.txt", std::process::id()));
        save(&path, &samples).unwrap();
        let loaded = load(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(loaded, samples);
    }
}
