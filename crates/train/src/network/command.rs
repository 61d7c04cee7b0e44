//! `tuzdyk train`: reads datagen files, splits off a validation set by game,
//! trains the network and writes it as the engine's quantised file.

use std::fs::File;
use std::io::{BufReader, IsTerminal};
use std::path::PathBuf;
use std::time::Instant;

use tuzdyk_notation::console::{self, OutputError};
use tuzdyk_search::eval::network::{DEFAULT_HIDDEN, HIDDEN_SIZES, HIDDEN_SIZES_TEXT, Network};

use super::data::Sample;
use super::loss::Loss;
use super::model::Model;
use super::trainer::{self, Config, EpochReport};
use crate::datagen::record::{ReadError, Reader, Record};

/// `tuzdyk train` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Datagen files (their records are read in the order given).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Where the network goes (the engine's .tznn format).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16_384)]
    pub batch: usize,
    /// Adam's first step size (a third after 60% of the epochs, a tenth
    /// after 85%).
    #[arg(long, default_value_t = 0.001)]
    pub rate: f32,
    /// The weight of the game's result in the target (the rest is the
    /// search score's).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f32,
    /// The logistic scale in centi-stones (default: fitted so that the
    /// search scores best predict the results).
    #[arg(long, value_name = "CP")]
    pub scale: Option<f32>,
    /// Seed of the starting weights and of the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Start from this network file's weights instead of random ones (to
    /// train a network further on new data).
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,
    /// Hidden units: 256 or 512 (default: the --init network's, else 256).
    /// More than the --init network's widens it: its units keep their
    /// weights, the new ones get random hidden weights from the seed and
    /// zero output weights, so that training starts from its evaluation. A
    /// network cannot be narrowed.
    #[arg(long, value_name = "UNITS")]
    pub hidden: Option<usize>,
    /// One game in this many goes to the validation set.
    #[arg(long, default_value_t = 20)]
    pub validation_every: u64,
    /// Worker threads (default: all cores); the result is the same for any.
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Why training failed.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error("cannot read '{path}': {error}")]
    Open { path: String, error: std::io::Error },
    #[error("'{path}': {error}")]
    Read { path: String, error: ReadError },
    #[error("no positions in the data")]
    Empty,
    #[error("--{name} must be {what}")]
    Argument {
        name: &'static str,
        what: &'static str,
    },
    #[error("cannot start {threads} threads: {reason}")]
    Threads { threads: usize, reason: String },
    #[error("cannot write '{path}': {error}")]
    Write {
        path: String,
        #[source]
        error: std::io::Error,
    },
    #[error("--init '{path}': {error}")]
    Init { path: String, error: String },
    #[error(
        "--hidden {asked}: the --init network '{path}' has {found} hidden units, and a network cannot be narrowed"
    )]
    Narrow {
        path: String,
        found: usize,
        asked: usize,
    },
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl TrainError {
    /// Every failure leaves no network: 2.
    pub fn status(&self) -> u8 {
        2
    }
}

/// The starting model: `--init`'s network (widened to `--hidden`), or
/// random weights of `--hidden` units from the seed.
fn starting_model(args: &Args) -> Result<Model, TrainError> {
    let Some(path) = &args.init else {
        return Ok(Model::random(
            args.seed,
            args.hidden.unwrap_or(DEFAULT_HIDDEN),
        ));
    };
    let init_error = |error: String| TrainError::Init {
        path: path.display().to_string(),
        error,
    };
    let bytes = std::fs::read(path).map_err(|e| init_error(e.to_string()))?;
    let network = Network::from_bytes(&bytes).map_err(|e| init_error(e.to_string()))?;
    let model = Model::from_network(&network);
    match args.hidden {
        None => Ok(model),
        Some(asked) if asked == model.hidden_size => Ok(model),
        Some(asked) if asked > model.hidden_size => Ok(model.widened(asked, args.seed)),
        Some(asked) => Err(TrainError::Narrow {
            path: path.display().to_string(),
            found: model.hidden_size,
            asked,
        }),
    }
}

/// The samples of the data files, split into training and validation: a
/// game (a run of records whose plies rise) goes wholly to one side, so that
/// the validation positions are not neighbours of training ones.
fn read_samples(args: &Args) -> Result<(Vec<Sample>, Vec<Sample>), TrainError> {
    let (mut training, mut validation) = (Vec::new(), Vec::new());
    let mut game = 0u64;
    let mut last_ply = None;
    for path in &args.data {
        let shown = path.display().to_string();
        let file = File::open(path).map_err(|error| TrainError::Open {
            path: shown.clone(),
            error,
        })?;
        for record in Reader::new(BufReader::new(file)) {
            let record: Record = record.map_err(|error| TrainError::Read {
                path: shown.clone(),
                error,
            })?;
            if last_ply.is_some_and(|ply| record.ply() <= ply) {
                game += 1;
            }
            last_ply = Some(record.ply());
            let sample = Sample::new(
                &record.position,
                record.score as i32,
                record.result.points(tuzdyk_rules::Side::White) as f32,
            );
            if game % args.validation_every == args.validation_every - 1 {
                validation.push(sample);
            } else {
                training.push(sample);
            }
        }
    }
    if training.is_empty() {
        return Err(TrainError::Empty);
    }
    Ok((training, validation))
}

fn check(args: &Args) -> Result<(), TrainError> {
    let checks = [
        (args.epochs == 0, "epochs", "at least 1"),
        (args.batch == 0, "batch", "at least 1"),
        (
            !(args.rate > 0.0 && args.rate.is_finite()),
            "rate",
            "a positive number",
        ),
        (
            !(0.0..=1.0).contains(&args.lambda),
            "lambda",
            "between 0 and 1",
        ),
        (
            args.scale.is_some_and(|s| !(s > 0.0 && s.is_finite())),
            "scale",
            "a positive number",
        ),
        (args.validation_every < 2, "validation-every", "at least 2"),
        (
            args.hidden.is_some_and(|h| !HIDDEN_SIZES.contains(&h)),
            "hidden",
            HIDDEN_SIZES_TEXT,
        ),
    ];
    match checks.into_iter().find(|(bad, _, _)| *bad) {
        Some((_, name, what)) => Err(TrainError::Argument { name, what }),
        None => Ok(()),
    }
}

/// Trains and writes the network; progress on stderr, a summary on stdout.
fn train(args: &Args) -> Result<(), TrainError> {
    check(args)?;
    let mut model = starting_model(args)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| TrainError::Threads {
            threads,
            reason: e.to_string(),
        })?;
    let started = Instant::now();
    let (training, validation) = read_samples(args)?;
    let scale = args
        .scale
        .unwrap_or_else(|| pool.install(|| trainer::fit_scale(&training)));
    console::err(format_args!(
        "{} training and {} validation positions, logistic scale {scale:.1} cp, lambda {}",
        training.len(),
        validation.len(),
        args.lambda
    ))?;
    let config = Config {
        epochs: args.epochs,
        batch: args.batch,
        rate: args.rate,
        loss: Loss {
            lambda: args.lambda,
            scale,
        },
        seed: args.seed,
    };
    let terminal = std::io::stderr().is_terminal();
    pool.install(|| {
        trainer::train(&mut model, &training, &validation, &config, |r| {
            report_epoch(r, args.epochs, started, terminal)
        })
    })?;
    let network: Network = model.quantise();
    std::fs::write(&args.out, network.to_bytes()).map_err(|error| TrainError::Write {
        path: args.out.display().to_string(),
        error,
    })?;
    console::out(format_args!(
        "network {} written to {} ({} hidden units, {} positions, {} epochs, {:.0} s)",
        network.id(),
        args.out.display(),
        network.hidden_size(),
        training.len(),
        args.epochs,
        started.elapsed().as_secs_f64()
    ))?;
    Ok(())
}

/// One line per epoch: the losses, the step size, the time so far.
fn report_epoch(
    report: &EpochReport,
    epochs: usize,
    started: Instant,
    terminal: bool,
) -> Result<(), TrainError> {
    let elapsed = started.elapsed().as_secs_f64();
    let left = elapsed / report.epoch as f64 * (epochs - report.epoch) as f64;
    let bar_width = 20;
    let filled = bar_width * report.epoch / epochs.max(1);
    let bar = if terminal {
        format!(
            "[{}{}] ",
            "#".repeat(filled),
            ".".repeat(bar_width - filled)
        )
    } else {
        String::new()
    };
    Ok(console::err(format_args!(
        "{bar}epoch {}/{epochs}: training loss {:.6}, validation loss {:.6}, rate {:.2e}, {:.0} s, about {:.0} s left",
        report.epoch, report.training_loss, report.validation_loss, report.rate, elapsed, left
    ))?)
}

/// Runs `tuzdyk train`.
///
/// # Errors
/// [`TrainError`]: bad arguments or data, a network that cannot be written,
/// output that cannot be written.
pub fn run(args: Args) -> Result<(), TrainError> {
    train(&args)
}
