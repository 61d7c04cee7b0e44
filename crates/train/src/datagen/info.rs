//! `tuzdyk datagen --info FILE`: checks a file of records and summarises
//! it: how many, the results, the side to move, the scores and the plies.

use std::fmt::Write as _;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use tuzdyk_rules::{GameResult, Side};

use super::record::{RECORD_SIZE, ReadError, Reader, Record};

/// Why a file could not be summarised.
#[derive(Debug, thiserror::Error)]
pub enum InfoError {
    #[error("cannot read {}: {error}", .path.display())]
    Open {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error(
        "{}: {size} bytes is not a whole number of {RECORD_SIZE}-byte records \
         ({} records and {} bytes over)", .path.display(), size / RECORD_SIZE as u64, size % RECORD_SIZE as u64
    )]
    Size { path: PathBuf, size: u64 },
    #[error("{}: {error}", .path.display())]
    Record { path: PathBuf, error: ReadError },
}

/// What a file holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub records: u64,
    /// Records by result from White's view: Black won, draw, White won.
    pub results: [u64; 3],
    /// Records by side to move: White, Black.
    pub to_move: [u64; 2],
    pub adjudicated: u64,
    /// Records whose score's sign names the side that went on to win
    /// (decisive games, nonzero scores), and how many could.
    pub score_agrees: [u64; 2],
    /// How many records have each score, by `score + 32768`.
    scores: Vec<u64>,
    plies: Vec<u64>,
}

impl Stats {
    fn add(&mut self, record: &Record) {
        if self.scores.is_empty() {
            self.scores = vec![0; 1 << 16];
            self.plies = vec![0; 1 << 16];
        }
        self.records += 1;
        let result = match record.result {
            GameResult::Win(Side::Black) => 0,
            GameResult::Draw => 1,
            GameResult::Win(Side::White) => 2,
        };
        self.results[result] += 1;
        let mover = record.position.side_to_move();
        self.to_move[mover.index()] += 1;
        self.adjudicated += record.adjudicated as u64;
        if let GameResult::Win(winner) = record.result
            && record.score != 0
        {
            self.score_agrees[1] += 1;
            self.score_agrees[0] += ((record.score > 0) == (winner == mover)) as u64;
        }
        self.scores[(record.score as i32 + 32768) as usize] += 1;
        self.plies[record.ply() as usize] += 1;
    }

    /// The score at fraction `q` (0 = least, 1 = greatest) of the records.
    fn score_quantile(&self, q: f64) -> i32 {
        quantile(&self.scores, self.records, q) as i32 - 32768
    }

    /// The report, one line a statistic.
    pub fn report(&self) -> String {
        let mut text = format!("records {}\n", self.records);
        if self.records == 0 {
            return text;
        }
        let share = |n: u64| 100.0 * n as f64 / self.records as f64;
        let [black, draw, white] = self.results;
        let _ = writeln!(
            text,
            "results White won {white} ({:.1}%), draw {draw} ({:.1}%), Black won {black} ({:.1}%)",
            share(white),
            share(draw),
            share(black)
        );
        let _ = writeln!(
            text,
            "to move White {}, Black {}",
            self.to_move[0], self.to_move[1]
        );
        let (sum, squares) = (0..self.scores.len()).fold((0f64, 0f64), |(s, q), i| {
            let (value, n) = (i as f64 - 32768.0, self.scores[i] as f64);
            (s + value * n, q + value * value * n)
        });
        let mean = sum / self.records as f64;
        let deviation = (squares / self.records as f64 - mean * mean)
            .max(0.0)
            .sqrt();
        let points = [0.0, 0.1, 0.5, 0.9, 1.0].map(|q| self.score_quantile(q));
        let _ = writeln!(
            text,
            "score (side to move, centi-stones) mean {mean:.1} sd {deviation:.1} \
             min {} p10 {} median {} p90 {} max {}",
            points[0], points[1], points[2], points[3], points[4]
        );
        let [agree, of] = self.score_agrees;
        let _ = writeln!(
            text,
            "score sign agrees with the winner {agree} of {of} ({:.1}%)",
            100.0 * agree as f64 / of.max(1) as f64
        );
        let plies = [0.0, 0.5, 1.0].map(|q| quantile(&self.plies, self.records, q));
        let _ = writeln!(
            text,
            "ply min {} median {} max {}",
            plies[0], plies[1], plies[2]
        );
        let _ = writeln!(text, "adjudicated {}", self.adjudicated);
        text
    }
}

/// The value (an index of `counts`) at fraction `q` of `total` items.
fn quantile(counts: &[u64], total: u64, q: f64) -> usize {
    let rank = (total.saturating_sub(1) as f64 * q).round() as u64;
    let mut seen = 0;
    for (value, &n) in counts.iter().enumerate() {
        seen += n;
        if seen > rank {
            return value;
        }
    }
    counts.len() - 1
}

/// Reads and checks every record of the file at `path`.
///
/// # Errors
/// [`InfoError`]: the file cannot be read, its size is not a whole number
/// of records, or a record is not valid.
pub fn read(path: &Path) -> Result<Stats, InfoError> {
    let open = |error| InfoError::Open {
        path: path.to_path_buf(),
        error,
    };
    let file = std::fs::File::open(path).map_err(open)?;
    let size = file.metadata().map_err(open)?.len();
    if size % RECORD_SIZE as u64 != 0 {
        return Err(InfoError::Size {
            path: path.to_path_buf(),
            size,
        });
    }
    let mut stats = Stats::default();
    for record in Reader::new(BufReader::new(file)) {
        let record = record.map_err(|error| InfoError::Record {
            path: path.to_path_buf(),
            error,
        })?;
        stats.add(&record);
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tuzdyk_rules::{Move, Position};

    fn record(score: i16, result: GameResult) -> Record {
        Record {
            position: Position::startpos(),
            score,
            result,
            final_count: [81, 81],
            best: Move::from_index(0),
            adjudicated: false,
        }
    }

    #[test]
    fn the_report_counts_results_and_summarises_scores() {
        let mut stats = Stats::default();
        assert_eq!(stats.report(), "records 0\n");
        for (score, result) in [
            (-300, GameResult::Win(Side::Black)),
            (0, GameResult::Draw),
            (100, GameResult::Win(Side::White)),
            (200, GameResult::Win(Side::Black)),
        ] {
            stats.add(&record(score, result));
        }
        assert_eq!(stats.results, [2, 1, 1]);
        assert_eq!(stats.score_agrees, [2, 3]);
        let report = stats.report();
        assert!(report.contains("White won 1 (25.0%), draw 1 (25.0%), Black won 2 (50.0%)"));
        assert!(report.contains("mean 0.0 "), "{report}");
        assert!(
            report.contains("min -300 p10 -300 median 100 p90 200 max 200"),
            "{report}"
        );
        assert!(report.contains("ply min 0 median 0 max 0"), "{report}");
    }
}
