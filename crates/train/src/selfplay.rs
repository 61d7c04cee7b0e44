//! Self-play games for tuning: random opening moves for variety, then the
//! engine at a fixed node count per move (one thread, fresh table per game,
//! so the games are reproducible from the seed). Every position after the
//! opening is kept with the game's final result.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;

use rayon::prelude::*;

use tuzdyk_notation::tfen;
use tuzdyk_rules::rng::SplitMix64;
use tuzdyk_rules::{GameResult, Move, Position, Side};
use tuzdyk_search::{Limits, SearchOptions, Searcher};

/// Plies after which a game is adjudicated a draw.
pub const MAX_PLIES: usize = 400;

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

/// Plays `games` games in parallel on the current rayon pool.
pub fn generate(games: usize, nodes: u64, seed: u64) -> Vec<Sample> {
    (0..games)
        .into_par_iter()
        .flat_map_iter(|game| {
            let game_seed = seed ^ (game as u64).wrapping_mul(0xA076_1D64_78BD_642F);
            play_game(nodes, game_seed)
        })
        .collect()
}

/// One self-play game's samples.
pub fn play_game(nodes: u64, seed: u64) -> Vec<Sample> {
    let mut rng = SplitMix64::new(seed);
    let mut pos = Position::startpos();
    let random_plies = 4 + rng.below(7);
    for _ in 0..random_plies {
        let moves: Vec<Move> = pos.legal_moves().collect();
        if moves.is_empty() {
            break;
        }
        pos.play(moves[rng.below(moves.len())]);
    }
    let limits = Limits::nodes(nodes);
    let mut searcher = Searcher::new(SearchOptions {
        hash_mb: 4,
        ..SearchOptions::default()
    });
    let mut positions = Vec::new();
    let result = loop {
        if let Some(result) = pos.result() {
            break result;
        }
        if positions.len() >= MAX_PLIES {
            break GameResult::Draw;
        }
        positions.push(pos);
        let found = searcher.search_silently(&pos, &limits);
        let Some(best) = found.best else {
            break pos.result().unwrap_or(GameResult::Draw);
        };
        pos.play(best);
    };
    let white_score = match result {
        GameResult::Win(Side::White) => 1.0,
        GameResult::Win(Side::Black) => 0.0,
        GameResult::Draw => 0.5,
    };
    positions
        .into_iter()
        .map(|position| Sample {
            position,
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

/// Reads what [`save`] wrote.
pub fn load(path: &Path) -> Result<Vec<Sample>, String> {
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut samples = Vec::new();
    for (number, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        let bad = |what: String| format!("{}:{}: {what}", path.display(), number + 1);
        if line.trim().is_empty() {
            continue;
        }
        let (text, score) = line
            .rsplit_once(' ')
            .ok_or_else(|| bad("expected '<TFEN> <result>'".to_string()))?;
        let position = tfen::parse(text).map_err(|e| bad(e.to_string()))?;
        let white_score = score
            .parse::<f32>()
            .ok()
            .filter(|s| (0.0..=1.0).contains(s))
            .ok_or_else(|| bad(format!("bad result '{score}'")))?;
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
    fn samples_round_trip_through_the_file() {
        let samples = play_game(200, 3);
        let path = std::env::temp_dir().join(format!("tuzdyk-samples-{}.txt", std::process::id()));
        save(&path, &samples).unwrap();
        let loaded = load(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(loaded, samples);
    }
}
