//! The match's command line, and the checked setup made from it.

use std::fs::File;
use std::path::PathBuf;

use tuzdyk_notation::console::OutputError;
use tuzdyk_protocol::EngineSpec;

use super::config::{self, ConfigError, GameLimits};
use super::openings::{self, Opening, OpeningsError};
use super::resume::{self, Expected, ResumeError};
use super::sprt::{Sprt, SprtError};
use super::standings::Finished;
use crate::SearchLimits;

/// `--games`, `--concurrency`, `--max-plies`: a count of at least one.
fn count() -> impl clap::builder::TypedValueParser<Value = usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
}

/// Command-line arguments.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  tuzdyk match --engine cmd=./target/release/tuzdyk name=new option.Hash=64 \
    --engine cmd=./old-tuzdyk name=old --tc 10+0.1 --games 200 \
    --concurrency 2 --pgn games.pgn --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05"
)]
pub struct Args {
    #[command(flatten)]
    pub engines: EngineArgs,
    /// Clock for each engine: [moves/]seconds[+increment], e.g. 10+0.1 or 40/60+0.5.
    #[arg(long, value_name = "TC", allow_hyphen_values = true)]
    pub tc: Option<String>,
    /// Each move's search (with --tc, as well as the clock).
    #[command(flatten)]
    pub limits: SearchLimits,
    /// Games to play, in colour-swapped pairs (with --sprt: at most this many).
    #[arg(long, default_value_t = 2, value_parser = count())]
    pub games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = count())]
    pub concurrency: usize,
    /// Opening file: one TFEN per line, or PlayOK game records (each record's
    /// moves are the opening). Default: the built-in openings/playok.tfen.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Use at most this many plies of each game record in --openings.
    #[arg(long, value_name = "N")]
    pub opening_plies: Option<usize>,
    /// Shuffle the openings with this seed (default: in file order).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Append every game to this file as a PlayOK game record.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Continue the match whose games --pgn holds (the same engines,
    /// --games, --openings and --seed): its games are counted, the SPRT
    /// included, and only the games it lacks are played.
    #[arg(long)]
    pub resume: bool,
    /// Print the summary as one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Sequential test: elo0=<x> elo1=<y> [alpha=0.05] [beta=0.05]; the match
    /// stops when the log-likelihood ratio crosses a bound.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub sprt: Option<Vec<String>>,
    /// A game still going on after this many plies (opening moves not
    /// counted) is adjudicated a draw.
    #[arg(long, value_name = "PLIES", default_value_t = 600, value_parser = count())]
    pub max_plies: usize,
    /// With --tc: an engine with no bestmove this long after its clock ran
    /// out has hung (it loses and is restarted).
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub timeout_margin: u64,
    /// Without a clock: an engine with no bestmove this long after go (plus
    /// the --movetime) has hung.
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    pub move_timeout: u64,
    /// Time allowed for uciok and readyok.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub ready_timeout: u64,
    /// The Event tag of the game records.
    #[arg(long, default_value = "tuzdyk match")]
    pub event: String,
}

/// The `--engine` groups, one per occurrence: `cmd=<command>
/// [name=<name>] [option.<Name>=<value>]...`. Implemented by hand because
/// clap's derive reads `Vec<Vec<String>>` only with an unstable feature.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineArgs(pub Vec<Vec<String>>);

impl clap::FromArgMatches for EngineArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>("engine")
            .map(|occurrences| {
                occurrences
                    .map(|values| values.cloned().collect())
                    .collect()
            })
            .unwrap_or_default();
        Ok(EngineArgs(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        let parsed = EngineArgs::from_arg_matches(matches)?;
        if !parsed.0.is_empty() {
            *self = parsed;
        }
        Ok(())
    }
}

impl clap::Args for EngineArgs {
    fn augment_args(command: clap::Command) -> clap::Command {
        command.arg(
            clap::Arg::new("engine")
                .long("engine")
                .value_name("KEY=VALUE")
                .num_args(1..)
                .action(clap::ArgAction::Append)
                .value_parser(clap::value_parser!(String))
                .help(
                    "An engine: cmd=<command> [name=<name>] [option.<Name>=<value>]... \
                     Give exactly two; scores are the first engine's. The command is \
                     split on white space; the name defaults to the command.",
                ),
        )
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        EngineArgs::augment_args(command)
    }
}

/// Everything the match needs, checked.
pub(super) struct Setup {
    pub specs: [EngineSpec; 2],
    pub limits: GameLimits,
    pub openings: Vec<Opening>,
    pub openings_name: String,
    pub games: usize,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    pub pgn: Option<(PathBuf, File)>,
    /// With `--resume`: the games the `--pgn` file already holds.
    pub resumed: Vec<Finished>,
    pub json: bool,
    pub event: String,
}

/// Why the match cannot start, or had to stop.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error(
        "give exactly two engines with --engine cmd=<command> [name=<name>] [option.<Name>=<value>] (got {0})"
    )]
    EngineCount(usize),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Sprt(#[from] SprtError),
    #[error(transparent)]
    Resume(#[from] ResumeError),
    #[error("cannot read openings file '{path}': {error}")]
    ReadOpenings { path: String, error: std::io::Error },
    #[error("openings file '{path}': {error}")]
    Openings {
        path: String,
        error: Box<OpeningsError>,
    },
    #[error("cannot open --pgn file '{path}': {error}")]
    Pgn { path: String, error: std::io::Error },
    #[error("engine {name}: {error}")]
    Engine {
        name: String,
        error: tuzdyk_protocol::ClientError,
    },
    /// An engine could not be started again during the match.
    #[error("match stopped: {0}")]
    Stopped(String),
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl MatchError {
    /// A match that started and had to stop is 1 (its summary is printed);
    /// one that cannot start, or cannot report, is 2.
    pub fn status(&self) -> u8 {
        match self {
            MatchError::Stopped(_) => 1,
            _ => 2,
        }
    }
}

impl Args {
    /// Checks the arguments and reads the openings.
    pub(super) fn check(self) -> Result<Setup, MatchError> {
        let engines = &self.engines.0;
        if engines.len() != 2 {
            return Err(MatchError::EngineCount(engines.len()));
        }
        let mut first = config::parse_engine(&engines[0])?;
        let mut second = config::parse_engine(&engines[1])?;
        if first.name == second.name {
            first.name.push_str(" (1)");
            second.name.push_str(" (2)");
        }
        let clock = config::clock_and_limits(self.tc.as_deref(), &self.limits)?;
        let limits = GameLimits {
            clock,
            search: self.limits,
            timeout_margin_ms: self.timeout_margin,
            move_timeout_ms: self.move_timeout,
            ready_timeout_ms: self.ready_timeout,
            max_plies: self.max_plies,
        };
        let (mut openings, openings_name) = self.openings()?;
        if let Some(seed) = self.seed {
            openings::shuffle(&mut openings, seed);
        }
        let sprt = self.sprt.as_deref().map(Sprt::parse).transpose()?;
        let specs = [first, second];
        let resumed = match (self.resume, &self.pgn) {
            (false, _) => Vec::new(),
            (true, None) => return Err(ResumeError::NoPgn.into()),
            (true, Some(path)) => resume::read_finished(
                path,
                &Expected {
                    names: &[specs[0].name.clone(), specs[1].name.clone()],
                    openings: &openings,
                    limits: &limits,
                    games: self.games,
                    event: &self.event,
                },
            )?,
        };
        let pgn = match &self.pgn {
            Some(path) => {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|error| MatchError::Pgn {
                        path: path.display().to_string(),
                        error,
                    })?;
                Some((path.clone(), file))
            }
            None => None,
        };
        Ok(Setup {
            specs,
            limits,
            openings,
            openings_name,
            games: self.games,
            concurrency: self.concurrency.min(self.games),
            sprt,
            pgn,
            resumed,
            json: self.json,
            event: self.event,
        })
    }

    /// The openings and how reports name them.
    fn openings(&self) -> Result<(Vec<Opening>, String), MatchError> {
        let Some(path) = &self.openings else {
            return Ok((
                openings::default_suite(),
                openings::DEFAULT_SUITE_NAME.to_string(),
            ));
        };
        let shown = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|error| MatchError::ReadOpenings {
            path: shown.clone(),
            error,
        })?;
        let text = String::from_utf8_lossy(&bytes);
        let openings = openings::parse_openings(&text, self.opening_plies).map_err(|error| {
            MatchError::Openings {
                path: shown.clone(),
                error: Box::new(error),
            }
        })?;
        Ok((openings, shown))
    }
}
