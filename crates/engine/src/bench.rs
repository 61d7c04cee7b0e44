//! `bench`: a fixed search over 30 positions from real PlayOK games, one
//! thread, a fixed table size and fresh state for every position, so that
//! the node count is the same from run to run and build to build unless the
//! search itself changed. Commits that change the search give that count.

use std::time::{Duration, Instant};

use tuzdyk_rules::Move;

use tuzdyk_notation::tfen;
use tuzdyk_search::eval::Evaluator;
use tuzdyk_search::{Limits, SearchOptions, Searcher};

/// The depth `bench` searches when none is given.
pub const DEFAULT_DEPTH: u32 = 20;

/// Table size used by `bench`, in MB.
pub const HASH_MB: usize = 16;

/// Positions from PlayOK games (plies 8 to 143), both sides to move.
pub const POSITIONS: [&str; 30] = [
    "3S,3S,1,1S,1,12S,12S,1S,13S/2S,1S,14S,14S,14S,1S,2S,14S,13S 34 8 S 5",
    "14S,1S,6S,1S,2S,1S,2S,2S,14S/3S,1,14S,t,14S,1S,2S,1S,16S 44 24 S 9",
    "3S,1S,21S,1S,7S,7S,7S,1,t/1S,3S,1,t,1S,21S,19S,2S,1S 41 26 S 13",
    "2S,1S,4S,4S,6S,5S,5S,6S,3S/2S,7S,4S,t,1,2S,4S,4S,21S 44 38 S 17",
    "2S,1S,1S,8S,7S,1S,7S,1S,t/1S,6S,21S,2S,22S,t,2S,2S,1S 47 30 S 21",
    "3S,2S,1S,t,6S,1S,1S,4S,1/1S,2S,2S,2S,27S,3S,t,2S,1 55 50 S 26",
    "8S,7S,2S,1S,3S,1S,1S,1,t/1S,1S,2S,2S,7S,t,2S,1S,2S 67 54 S 31",
    "6S,1S,1S,2S,2S,24S,1S,1S,t/1,2S,2,24S,t,3S,2S,1S 57 35 S 36",
    "11S,1S,2S,2S,1S,1S,2S,1,t/1,2S,t,1S,3S,4S,1S,2 65 66 S 41",
    "16S,1,t,3S,1,2S,1,2S,1/2,2S,2S,1S,t,1S,1S,3S 75 54 S 46",
    "1S,1,1S,1S,27S,5S,2,1S/t,1,1S,1S,25S,1S,1S,1S,1S 54 41 S 51",
    "22S,1S,1,2S,2,4S,1,t/1,2S,1S,1S,2S,t,2S,2S,2S 67 54 S 56",
    "10S,1S,1S,1,t,5S,1,4S,1/4,1S,t,1,3S,2S 80 55 S 61",
    "7S,1S,2S,1S,3S,2S,t,6S,1/1S,3S,2S,1,4S,t,1S,1S,2S 70 56 S 66",
    "16S,1,1S,1,1S,3,t/1,1S,1,1S,1S,t,3 76 65 S 71",
    "4S,1S,4S,1S,2S,14S,14S,3S,2S/3S,2S,1,17S,15S,2S,3S,15S,14S 38 8 N 6",
    "10S,2S,3S,7S,6S,18S,5S,7S,2S/2S,9S,1S,7S,2S,t,5S,17S,3S 38 18 N 10",
    "4S,4S,2S,8S,10S,1,2S,3S,t/5S,3S,1,2S,1S,t,24S,1S,7S 51 35 N 14",
    "2S,18S,t,19S,3S,1S,2S,2S,1/1,4S,23S,t,1S,1S,1S,19S,2S 33 31 N 18",
    "2S,1S,10S,4S,9S,1,2S,4S,t/1,12S,1,1S,6S,t,2S,25S,1 51 33 N 22",
    "1,9S,2S,1,2S,24S,1S,2S,t/2,8S,2S,6S,t,2,1S 59 46 N 27",
    "5S,1S,1,2S,1S,18S,1,21S,1S/1,1S,1S,4S,1S,t,2S,3S,2S 62 37 N 32",
    "5S,1S,1S,4S,3S,2S,3S,1,t/1,4S,6S,1S,26S,t,1S,1S,1S 58 45 N 37",
    "2S,23S,t,3S,6S,4S,4S,3S,1/1,6S,3S,t,1S,6S,2S,2S,12S 42 43 N 42",
    "6S,2S,1,t,3S,6S,1,2S,1/1,2S,1S,t,1S,1S,1,1S,3S 77 57 N 47",
    "16S,2S,2S,1,2S,2S,3/2,4S,t,1S,2S,2S,1S,4S 72 52 N 52",
    "18S,1,1S,2S,2S,1S,5S,1,t/4,6S,t,1S,2S,1S 74 49 N 57",
    "1,7S,t,1S,2S,5S,2S,1S,1/1,5S,1S,t,1S,4S,2S,1S,3S 69 58 N 62",
    "25S,1,2S,2S,2S,3,t/2,1S,1S,3S,t,2S,2S,1 71 51 N 67",
    "1S,1,3S,1S,2S,t,5S,4S,1/1,2S,1S,1S,1S,t,3S,1,3S 81 54 N 72",
];

/// One position's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    pub index: usize,
    pub nodes: u64,
    pub time: Duration,
    /// `None` only for a finished game (no bench position is one).
    pub best: Option<Move>,
}

impl std::fmt::Display for BenchLine {
    /// `position <i> nodes <n> time <ms> bestmove <m>`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "position {} nodes {} time {} bestmove ",
            self.index,
            self.nodes,
            self.time.as_millis()
        )?;
        match self.best {
            Some(mv) => write!(f, "{mv}"),
            None => f.write_str("0000"),
        }
    }
}

/// The whole run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    pub lines: Vec<BenchLine>,
    pub nodes: u64,
    pub time: Duration,
}

impl BenchReport {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-6)) as u64
    }
}

/// Searches every bench position to `depth` with one thread, calling
/// `progress` after each. This is the deterministic `bench`.
///
/// # Errors
/// `progress`'s error, which ends the run there (its output is gone).
pub fn run<E>(
    depth: u32,
    progress: impl FnMut(&BenchLine) -> Result<(), E>,
) -> Result<BenchReport, E> {
    run_with(depth, 1, &Evaluator::default(), progress)
}

/// [`run`] with `threads` Lazy-SMP threads (the time to reach the same
/// depth measures how well the threads share the work; the node count is
/// then no longer deterministic) and the evaluation `evaluator`.
///
/// # Errors
/// `progress`'s error, which ends the run there.
pub fn run_with<E>(
    depth: u32,
    threads: usize,
    evaluator: &Evaluator,
    mut progress: impl FnMut(&BenchLine) -> Result<(), E>,
) -> Result<BenchReport, E> {
    let options = SearchOptions {
        threads: threads.max(1),
        hash_mb: HASH_MB,
        evaluator: evaluator.clone(),
        ..SearchOptions::default()
    };
    let limits = Limits::depth(depth.max(1));
    let mut lines = Vec::with_capacity(POSITIONS.len());
    let mut total = 0;
    let mut time = Duration::ZERO;
    for (index, text) in POSITIONS.iter().enumerate() {
        let pos = tfen::parse(text).expect("bench positions are valid");
        let mut searcher = Searcher::new(options.clone());
        let started = Instant::now();
        let result = searcher.search_silently(&pos, &limits);
        let elapsed = started.elapsed();
        time += elapsed;
        total += result.nodes;
        let line = BenchLine {
            index: index + 1,
            nodes: result.nodes,
            time: elapsed,
            best: result.best,
        };
        progress(&line)?;
        lines.push(line);
    }
    Ok(BenchReport {
        lines,
        nodes: total,
        time,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_valid_and_unfinished() {
        for text in POSITIONS {
            let pos = tfen::parse(text).unwrap();
            assert!(pos.game_over().is_none(), "{text}");
        }
    }

    #[test]
    fn bench_is_deterministic() {
        let quiet = |_: &BenchLine| Ok::<(), std::convert::Infallible>(());
        let (Ok(a), Ok(b)) = (run(5, quiet), run(5, quiet));
        assert_eq!(a.nodes, b.nodes);
        let moves = |r: &BenchReport| -> Vec<(u64, Option<Move>)> {
            r.lines.iter().map(|l| (l.nodes, l.best)).collect()
        };
        assert_eq!(moves(&a), moves(&b));
        assert!(a.nodes > 0);
    }
}
