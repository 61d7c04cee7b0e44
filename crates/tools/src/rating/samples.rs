//! The rating's samples: one player in one game, with their average loss
//! per move. Made by reviewing game records on several engines at once, or
//! read back from the tab-separated file `--losses` wrote.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use tuzdyk_analysis::{PlayerStats, Reviewer};
use tuzdyk_notation::record::{self, GameRecord};
use tuzdyk_notation::{console, excerpt};
use tuzdyk_protocol::Level;
use tuzdyk_rules::Side;

use super::fit::Sample;
use super::{Args, RatingError};

/// Whose sample it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A rated player (the rating is their tag's).
    Rated,
    /// A level (the name is the level's).
    Level,
}

/// One player's average loss in one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub kind: Kind,
    /// The file and the game's number in it (from 1).
    pub source: String,
    pub game: usize,
    pub side: Side,
    pub name: String,
    /// The rating tag (0 for a level).
    pub rating: u32,
    /// The other player's name.
    pub opponent: String,
    /// Moves scored.
    pub scored: u32,
    pub loss: f64,
    /// The player's points from the game (1, 1/2, 0), if it has a result.
    pub points: Option<f64>,
}

impl Record {
    pub fn sample(&self) -> Sample {
        Sample {
            rating: self.rating as f64,
            loss: self.loss,
        }
    }

    /// The level a level's sample is of.
    pub fn level(&self) -> Option<Level> {
        match self.kind {
            Kind::Level => Level::parse(&self.name),
            Kind::Rated => None,
        }
    }
}

/// A game to review and what it is a sample of.
struct Job {
    kind: Kind,
    source: String,
    game: usize,
    record: GameRecord,
}

/// The games of `paths`; a rated game needs both rating tags, a level game
/// both players' names to be levels. Other games are skipped and counted.
fn jobs(paths: &[std::path::PathBuf], kind: Kind) -> Result<Vec<Job>, RatingError> {
    let mut jobs = Vec::new();
    for path in paths {
        let text = read_text(path)?;
        let mut skipped = 0;
        for (i, game) in record::parse_games(&text).into_iter().enumerate() {
            let usable = game.ok().filter(|game| match kind {
                Kind::Rated => ["WhiteElo", "BlackElo"]
                    .iter()
                    .all(|tag| game.tag(tag).and_then(|t| t.parse::<u32>().ok()).is_some()),
                Kind::Level => ["White", "Black"]
                    .iter()
                    .all(|tag| game.tag(tag).and_then(Level::parse).is_some()),
            });
            match usable {
                Some(record) => jobs.push(Job {
                    kind,
                    source: path.display().to_string(),
                    game: i + 1,
                    record,
                }),
                None => skipped += 1,
            }
        }
        if skipped > 0 {
            progress(&format!(
                "{}: {skipped} games skipped (unreadable, or without ratings or level names)",
                path.display()
            ))?;
        }
    }
    Ok(jobs)
}

/// A progress line on stderr.
fn progress(line: &str) -> Result<(), RatingError> {
    Ok(console::err(line)?)
}

/// A file's text, invalid UTF-8 replaced.
fn read_text(path: &Path) -> Result<String, RatingError> {
    std::fs::read(path)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .map_err(|error| RatingError::Read {
            path: path.display().to_string(),
            error,
        })
}

/// Reviews every game of `--rated` and `--levels`, `--jobs` at once; the
/// samples come in the order of the files and games. The first failure
/// stops every engine after its game.
pub fn review(args: &Args) -> Result<Vec<Record>, RatingError> {
    let mut all = jobs(&args.rated, Kind::Rated)?;
    all.extend(jobs(&args.levels, Kind::Level)?);
    let spec = args.engine.spec()?;
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<[PlayerStats; 2]>>> = Mutex::new(vec![None; all.len()]);
    let failure: Mutex<Option<RatingError>> = Mutex::new(None);
    let fail = |error: RatingError| {
        failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_or_insert(error);
    };
    let failed = || failure.lock().unwrap_or_else(|p| p.into_inner()).is_some();
    std::thread::scope(|scope| {
        for _ in 0..args.jobs {
            scope.spawn(|| {
                let mut reviewer = match Reviewer::start(&spec, args.depth) {
                    Ok(reviewer) => reviewer,
                    Err(e) => return fail(e.into()),
                };
                while !failed() {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = all.get(i) else { break };
                    match reviewer.review(&job.record) {
                        Ok(stats) => done.lock().unwrap_or_else(|p| p.into_inner())[i] = stats,
                        Err(e) => {
                            fail(e.into());
                            break;
                        }
                    }
                    if (i + 1).is_multiple_of(100)
                        && let Err(e) =
                            progress(&format!("reviewed {} of {} games", i + 1, all.len()))
                    {
                        fail(e);
                    }
                }
                reviewer.quit();
            });
        }
    });
    if let Some(error) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(error);
    }
    let done = done.into_inner().unwrap_or_else(|p| p.into_inner());
    Ok(all
        .iter()
        .zip(done)
        .filter_map(|(job, stats)| stats.map(|stats| records(job, &stats)))
        .flatten()
        .collect())
}

/// A reviewed game's two samples.
fn records(job: &Job, stats: &[PlayerStats; 2]) -> Vec<Record> {
    Side::BOTH
        .iter()
        .map(|&side| {
            let (name_tag, rating_tag) = match side {
                Side::White => ("White", "WhiteElo"),
                Side::Black => ("Black", "BlackElo"),
            };
            let player = &stats[side.index()];
            let other = match side {
                Side::White => "Black",
                Side::Black => "White",
            };
            Record {
                kind: job.kind,
                source: job.source.clone(),
                game: job.game,
                side,
                name: job.record.tag(name_tag).unwrap_or("?").to_string(),
                rating: job
                    .record
                    .tag(rating_tag)
                    .and_then(|t| t.parse().ok())
                    .unwrap_or(0),
                opponent: job.record.tag(other).unwrap_or("?").to_string(),
                scored: player.scored,
                loss: player.average_loss(),
                points: job.record.result.map(|result| result.points(side)),
            }
        })
        .collect()
}

const HEADER: &str = "kind\tsource\tgame\tside\tname\topponent\trating\tscored\tloss\tpoints";

/// Writes the samples, one a line after a header.
pub fn write(path: &Path, records: &[Record]) -> Result<(), RatingError> {
    let mut text = String::from(HEADER);
    text.push('\n');
    for r in records {
        let kind = match r.kind {
            Kind::Rated => "rated",
            Kind::Level => "level",
        };
        let side = r.side.key();
        let points = r.points.map_or("-".to_string(), |p| p.to_string());
        text.push_str(&format!(
            "{kind}\t{}\t{}\t{side}\t{}\t{}\t{}\t{}\t{:.3}\t{points}\n",
            r.source, r.game, r.name, r.opponent, r.rating, r.scored, r.loss
        ));
    }
    let write_error = |path: &Path, error| RatingError::Write {
        path: path.display().to_string(),
        error,
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| write_error(dir, e))?;
    }
    std::fs::write(path, text).map_err(|e| write_error(path, e))
}

/// Reads the samples of every file in `paths`, in order.
pub fn read_all(paths: &[std::path::PathBuf]) -> Result<Vec<Record>, RatingError> {
    let mut records = Vec::new();
    for path in paths {
        records.extend(read(path)?);
    }
    Ok(records)
}

/// Reads the samples `write` wrote; a bad line is named by its number.
pub fn read(path: &Path) -> Result<Vec<Record>, RatingError> {
    let text = read_text(path)?;
    text.lines()
        .enumerate()
        .filter(|(i, line)| !(line.trim().is_empty() || (*i == 0 && *line == HEADER)))
        .map(|(i, line)| {
            parse_line(line).ok_or_else(|| RatingError::SampleLine {
                path: path.display().to_string(),
                line: i + 1,
                text: excerpt(line),
            })
        })
        .collect()
}

fn parse_line(line: &str) -> Option<Record> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [
        kind,
        source,
        game,
        side,
        name,
        opponent,
        rating,
        scored,
        loss,
        points,
    ] = fields.as_slice()
    else {
        return None;
    };
    Some(Record {
        kind: match *kind {
            "rated" => Kind::Rated,
            "level" => Kind::Level,
            _ => return None,
        },
        source: source.to_string(),
        game: game.parse().ok()?,
        side: Side::from_key(side)?,
        name: name.to_string(),
        opponent: opponent.to_string(),
        rating: rating.parse().ok()?,
        scored: scored.parse().ok()?,
        loss: loss.parse().ok().filter(|l: &f64| l.is_finite())?,
        points: match *points {
            "-" => None,
            text => Some(
                text.parse()
                    .ok()
                    .filter(|p: &f64| (0.0..=1.0).contains(p))?,
            ),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_written_and_read_back() {
        let records = vec![Record {
            kind: Kind::Level,
            source: "a.pgn".to_string(),
            game: 3,
            side: Side::Black,
            name: "beginner".to_string(),
            opponent: "greedy".to_string(),
            rating: 0,
            scored: 40,
            loss: 123.5,
            points: Some(0.5),
        }];
        let path = std::env::temp_dir().join(format!("rating-{}.tsv", std::process::id()));
        write(&path, &records).unwrap();
        assert_eq!(read(&path).unwrap(), records);
        assert_eq!(records[0].level(), Some(Level::Beginner));
        std::fs::write(&path, format!("{HEADER}\nlevel\tx\n")).unwrap();
        let error = read(&path).unwrap_err().to_string();
        assert!(error.contains(":2: not a sample line"), "{error}");
        let _ = std::fs::remove_file(&path);
    }
}
