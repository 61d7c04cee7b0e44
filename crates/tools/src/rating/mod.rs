//! `tuzdyk rating`: each level's rating on the PlayOK scale.
//!
//! Every game of the rated players (`--rated`, records with `WhiteElo` and
//! `BlackElo` tags) and of the levels (`--levels`, records from `tuzdyk
//! match --pgn` whose players are named by their level) is reviewed at one
//! fixed depth by the `analyse` review, on `--jobs` engines at once; each
//! player of each game gives one sample, their average loss per move
//! ([`samples`]). The levels' games also give each ladder step's Elo, and
//! [`anchor`] puts the ladder on the PlayOK scale: the chain of steps,
//! pinned where the rated players' mean loss falls. [`fit`] shows how the
//! rated players' loss depends on their rating. Steps without games can be
//! given (`--chain`). The output is the table for STRENGTH.md and the
//! `RATINGS` table of the protocol crate, ready to paste.

mod anchor;
mod fit;
mod samples;

use std::io::{self, Write};
use std::path::PathBuf;

use tuzdyk_analysis::AnalysisError;
use tuzdyk_notation::console::{OutputError, Stream};
use tuzdyk_notation::excerpt;
use tuzdyk_protocol::{ClientError, Level};

use crate::EngineCmd;
use anchor::{Anchor, Step};
use fit::{Line, Sample};
use samples::{Kind, Record};

/// Place each level on the PlayOK rating scale.
#[derive(clap::Args, Debug)]
#[command(after_help = "Example (STRENGTH.md has the whole pipeline):\n  \
    tuzdyk rating --rated tests/data/playok-games.pgn --levels target/levels/*.pgn \
    --depth 12 --jobs 2 --losses target/rating/losses.tsv")]
pub struct Args {
    /// Game records of rated players (WhiteElo and BlackElo tags).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub rated: Vec<PathBuf>,
    /// Game records of the levels (players named by level, as `tuzdyk
    /// match --pgn` writes them with name=<level>).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub levels: Vec<PathBuf>,
    /// Review depth of every move.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// Engines reviewing at once.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub jobs: u32,
    /// A player's game counts only with at least this many moves scored.
    #[arg(long, default_value_t = 20)]
    pub min_moves: u32,
    /// Bootstrap rounds for the intervals.
    #[arg(long, default_value_t = 1000)]
    pub bootstrap: usize,
    /// Seed of the bootstrap draws.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write every sample (one player in one game) to this file, tab-separated.
    #[arg(long, value_name = "FILE")]
    pub losses: Option<PathBuf>,
    /// Fit the samples of files written by --losses instead of reviewing.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["rated", "levels"])]
    pub from_losses: Vec<PathBuf>,
    /// <level>=<elo>/<error>: rate <level> as the ladder level below it plus
    /// <elo> (their match, with its 95% error), not by its loss.
    #[arg(long, value_name = "LEVEL=ELO/ERR")]
    pub chain: Vec<String>,
    /// The engine that reviews.
    #[command(flatten)]
    pub engine: EngineCmd,
}

/// Why `rating` cannot rate.
#[derive(Debug, thiserror::Error)]
pub enum RatingError {
    #[error("--chain '{0}': expected <level>=<elo>/<error>, e.g. skilled=+159/50")]
    ChainSyntax(String),
    #[error("--chain '{text}': '{name}' is not a ladder level above beginner")]
    ChainLevel { text: String, name: String },
    #[error("nothing to rate: give --rated and --levels, or --from-losses")]
    NothingToRate,
    #[error("cannot read {path}: {error}")]
    Read {
        path: String,
        #[source]
        error: io::Error,
    },
    #[error("cannot write {path}: {error}")]
    Write {
        path: String,
        #[source]
        error: io::Error,
    },
    #[error("{path}:{line}: not a sample line: '{text}'")]
    SampleLine {
        path: String,
        line: usize,
        text: String,
    },
    /// The engine command cannot be used.
    #[error(transparent)]
    Engine(#[from] ClientError),
    /// The reviewing engine cannot be started, or failed.
    #[error(transparent)]
    Review(#[from] AnalysisError),
    #[error("too few rated samples to fit (need two or more ratings)")]
    TooFewRated,
    #[error("the rated players' mean loss is outside the levels' losses: no anchor")]
    NoAnchor,
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl RatingError {
    /// Every failure leaves nothing rated: 2.
    pub fn status(&self) -> u8 {
        2
    }
}

/// Reads `--chain` values: steps given without games.
fn chains(values: &[String]) -> Result<Vec<Step>, RatingError> {
    values
        .iter()
        .map(|text| {
            let bad = || RatingError::ChainSyntax(excerpt(text));
            let (name, numbers) = text.split_once('=').ok_or_else(bad)?;
            let upper = Level::parse(name)
                .filter(|level| level.is_ladder() && *level != Level::Beginner)
                .ok_or_else(|| RatingError::ChainLevel {
                    text: excerpt(text),
                    name: excerpt(name),
                })?;
            let (elo, error) = numbers.split_once('/').ok_or_else(bad)?;
            let number = |t: &str| t.trim().parse::<f64>().ok().filter(|v| v.is_finite());
            match (number(elo), number(error)) {
                (Some(elo), Some(error)) => Ok(Step {
                    upper,
                    elo,
                    error,
                    games: 0,
                }),
                _ => Err(bad()),
            }
        })
        .collect()
}

/// Runs the tool.
///
/// # Errors
/// [`RatingError`]: bad arguments, files that cannot be read or written,
/// an engine that fails, or samples that cannot be fitted.
pub fn run(args: Args) -> Result<(), RatingError> {
    let chains = chains(&args.chain)?;
    if args.from_losses.is_empty() && args.rated.is_empty() && args.levels.is_empty() {
        return Err(RatingError::NothingToRate);
    }
    let records = if args.from_losses.is_empty() {
        samples::review(&args)?
    } else {
        samples::read_all(&args.from_losses)?
    };
    if let Some(path) = &args.losses {
        samples::write(path, &records)?;
    }
    // The tables go out as they are made; a failed write is standard
    // output's, as the console's would be.
    let mut out = io::stdout().lock();
    let output = |error| OutputError {
        stream: Stream::Output,
        error,
    };
    let counted: Vec<&Record> = records
        .iter()
        .filter(|r| r.scored >= args.min_moves)
        .collect();
    let rated: Vec<&Record> = counted
        .iter()
        .copied()
        .filter(|r| r.kind == Kind::Rated)
        .collect();
    if rated.is_empty() && args.losses.is_some() {
        return Ok(writeln!(
            out,
            "{} samples written; no rated samples to fit",
            records.len()
        )
        .map_err(output)?);
    }
    let samples: Vec<Sample> = rated.iter().map(|r| r.sample()).collect();
    let line = Line::fit(&samples).ok_or(RatingError::TooFewRated)?;
    write_fit(&mut out, &line, &samples).map_err(output)?;
    // Every game counts for the steps' Elo: leaving out the short ones
    // would leave out the quickest wins.
    let all: Vec<&Record> = records.iter().collect();
    let steps = anchor::chain(&all, &chains);
    let losses = |level: Level| -> Vec<f64> {
        counted
            .iter()
            .filter(|r| r.level() == Some(level))
            .map(|r| r.loss)
            .collect()
    };
    let ladder: Vec<Vec<f64>> = Level::LADDER[..=steps.len()]
        .iter()
        .map(|&level| losses(level))
        .take_while(|losses| !losses.is_empty())
        .collect();
    let pairs: Vec<(f64, f64)> = samples.iter().map(|s| (s.rating, s.loss)).collect();
    let anchor = anchor::anchor(&pairs, &ladder, &steps, args.bootstrap, args.seed)
        .ok_or(RatingError::NoAnchor)?;
    let estimates = estimates(&all, &steps, &anchor);
    Ok(write_levels(&mut out, &estimates, &anchor, &losses).map_err(output)?)
}

/// One level's estimate as printed.
#[derive(Clone, Copy, Debug)]
struct Estimate {
    level: Level,
    rating: f64,
    /// The 95% half-width.
    error: f64,
    /// The step it rests on: its Elo over the level below, or for a
    /// stand-in over the ladder level it played.
    step: Option<Step>,
    /// The level a stand-in is rated against.
    against: Option<Level>,
}

/// The ladder's estimates, then each stand-in's: the rating of the ladder
/// level it scored nearest 50% against, plus its Elo over that level.
fn estimates(counted: &[&Record], steps: &[Step], anchor: &Anchor) -> Vec<Estimate> {
    let mut estimates: Vec<Estimate> = anchor::ladder_ratings(steps, anchor)
        .into_iter()
        .enumerate()
        .map(|(i, (level, rating, error))| Estimate {
            level,
            rating,
            error,
            step: i.checked_sub(1).map(|k| steps[k]),
            against: None,
        })
        .collect();
    let ladder = estimates.clone();
    for stand_in in Level::ALL.into_iter().filter(|l| !l.is_ladder()) {
        let nearest = ladder
            .iter()
            .filter_map(|e| anchor::match_elo(counted, stand_in, e.level).map(|m| (e, m)))
            .min_by(|(_, a), (_, b)| a.0.abs().total_cmp(&b.0.abs()));
        if let Some((base, (elo, error, games))) = nearest {
            estimates.push(Estimate {
                level: stand_in,
                rating: base.rating + elo,
                error: base.error.hypot(error),
                step: Some(Step {
                    upper: stand_in,
                    elo,
                    error,
                    games,
                }),
                against: Some(base.level),
            });
        }
    }
    estimates
}

/// The fit, and the rated players' mean loss by rating band beside it.
fn write_fit(out: &mut impl Write, line: &Line, rated: &[Sample]) -> io::Result<()> {
    writeln!(
        out,
        "fit: ln(loss + {}) = {:.4} {:+.6} * rating over {} samples; residual sd {:.3}, R^2 {:.3}",
        fit::OFFSET,
        line.a,
        line.b,
        line.samples,
        line.residual_sd,
        line.r_squared
    )?;
    writeln!(
        out,
        "the loss halves every {:.0} rating points; one game's loss places its player within +/-{:.0} (1 sd)",
        (2f64.ln() / line.b).abs(),
        (line.residual_sd / line.b).abs()
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "| PlayOK rating | samples | mean loss (cp/move) | the fit's loss |"
    )?;
    writeln!(out, "|---|---|---|---|")?;
    for band in (1100..2200).step_by(100) {
        let (low, high) = (band as f64, band as f64 + 100.0);
        let in_band: Vec<&Sample> = rated
            .iter()
            .filter(|s| s.rating >= low && s.rating < high)
            .collect();
        if in_band.is_empty() {
            continue;
        }
        let mean = in_band.iter().map(|s| s.loss).sum::<f64>() / in_band.len() as f64;
        let centre = in_band.iter().map(|s| s.rating).sum::<f64>() / in_band.len() as f64;
        writeln!(
            out,
            "| {band}-{} | {} | {mean:.1} | {:.1} |",
            band + 99,
            in_band.len(),
            line.loss_at(centre)
        )?;
    }
    writeln!(out)
}

/// The levels' table, and the `RATINGS` table to paste.
fn write_levels(
    out: &mut impl Write,
    estimates: &[Estimate],
    anchor: &Anchor,
    losses: &dyn Fn(Level) -> Vec<f64>,
) -> io::Result<()> {
    let below = Level::LADDER[anchor.index];
    let above = Level::LADDER[anchor.index + 1];
    writeln!(
        out,
        "anchor: the rated players' mean loss {:.1} falls {:.0}% of the way from {below} to {above}; \
         that point is their mean rating {:.0} (+/-{:.0} Elo, 95%)",
        anchor.loss,
        100.0 * anchor.fraction,
        anchor.rating,
        anchor.error
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "| level | samples | mean loss (cp/move) | Elo over the level below (games) | PlayOK rating (95%) |"
    )?;
    writeln!(out, "|---|---|---|---|---|")?;
    for e in estimates {
        let mine = losses(e.level);
        let loss = if mine.is_empty() {
            "-".to_string()
        } else {
            format!("{:.1}", mine.iter().sum::<f64>() / mine.len() as f64)
        };
        let step = e.step.map_or("-".to_string(), |step| {
            let over = e.against.map_or(String::new(), |l| format!(" over {l}"));
            let games = if step.games > 0 {
                format!("{} games", step.games)
            } else {
                "given".to_string()
            };
            format!("{:+.0} +/- {:.0}{over} ({games})", step.elo, step.error)
        });
        writeln!(
            out,
            "| {} | {} | {loss} | {step} | {:.0} [{:.0}, {:.0}] |",
            e.level,
            mine.len(),
            e.rating,
            e.rating - e.error,
            e.rating + e.error
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "pub const RATINGS: [(Level, Rating); {}] = [",
        estimates.len()
    )?;
    for e in estimates {
        writeln!(
            out,
            "    (Level::{:?}, rating({:.0}, {:.0}, {:.0})),",
            e.level,
            e.rating,
            e.rating - e.error,
            e.rating + e.error
        )?;
    }
    writeln!(out, "];")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_are_read_and_bad_ones_named() {
        let chain = chains(&["Skilled=+159/50".to_string()]).unwrap();
        assert_eq!(
            chain,
            vec![Step {
                upper: Level::Skilled,
                elo: 159.0,
                error: 50.0,
                games: 0
            }]
        );
        for bad in [
            "skilled",
            "skilled=159",
            "sultan=1/2",
            "beginner=1/2",
            "greedy=1/2",
            "skilled=x/5",
        ] {
            let error = chains(&[bad.to_string()]).unwrap_err().to_string();
            assert!(error.contains(bad.split('=').next().unwrap()), "{error}");
        }
    }
}
