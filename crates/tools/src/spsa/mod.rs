//! `tuzdyk spsa`: the search's parameters tuned by SPSA, as fishtest and
//! OpenBench tune engines. The engine is a tuning build (`cargo build
//! --release --features tune`), whose `params.rs` tunables are spin
//! options; each iteration plays a batch of game pairs between the build
//! set to θ + c·flip and to θ − c·flip and moves θ by fishtest's rule.
//!
//! - [`rule`]: the schedule, the flips, the probes and the update (no I/O);
//! - [`games`]: a batch's games, through the match runner's referee;
//! - [`state`]: the `--state` file, written after every batch, so that a
//!   run killed and started again continues where it was;
//! - [`params_file`]: the tuned values written back into params.rs.
//!
//! The tunables' list (names, ranges, `c_end`, `r_end`) is the search's
//! (`tuzdyk_search::params::TUNABLES`); the command line hands it over as
//! [`Tunable`]s, so this crate does not link the search.
//!
//! One line per iteration goes to standard error; the tuned values, at the
//! end, to standard output.

pub mod games;
pub mod params_file;
pub mod rule;
pub mod state;

use std::path::{Path, PathBuf};
use std::time::Duration;

use tuzdyk_notation::console::{self, OutputError};
use tuzdyk_protocol::{ClientError, EngineProcess, EngineSpec};

use crate::SearchLimits;
use crate::matches::config::{self, ConfigError, GameLimits};
use crate::matches::openings;
use games::{Arena, Games, Pairing};
use params_file::ParamsFileError;
use rule::Param;
use state::{Batch, State, StateError};

/// A tunable parameter as params.rs declares it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunable {
    pub name: &'static str,
    pub default: i64,
    pub min: i64,
    pub max: i64,
    pub c_end: f64,
    pub r_end: f64,
}

/// Defaults of a new run.
pub const DEFAULT_ITERATIONS: u64 = 100;
pub const DEFAULT_PAIRS: u64 = 8;
pub const DEFAULT_SEED: u64 = 1;

/// A count of at least one.
fn count<T: TryFrom<u64> + Clone + Send + Sync + 'static>() -> clap::builder::RangedU64ValueParser<T>
{
    clap::builder::RangedU64ValueParser::<T>::new().range(1..)
}

/// Command-line arguments.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  cargo build --release --features tune --target-dir target-tune\n  \
    tuzdyk spsa --engine cmd=target-tune/release/tuzdyk --tc 5+0.05 --concurrency 2 \
    --iterations 200 --state spsa.json\n  \
    tuzdyk spsa --state spsa.json --write-params"
)]
pub struct Args {
    /// The tuning build: cmd=<command> [option.<Name>=<value>]... (built
    /// with --features tune, so that its search parameters are options).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub engine: Option<Vec<String>>,
    /// Clock for each engine: [moves/]seconds[+increment], e.g. 5+0.05.
    #[arg(long, value_name = "TC", allow_hyphen_values = true)]
    pub tc: Option<String>,
    /// Each move's search (with --tc, as well as the clock): --nodes plays
    /// many more games an hour than a clock, and games a busy machine does
    /// not change.
    #[command(flatten)]
    pub limits: SearchLimits,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = count::<usize>())]
    pub concurrency: usize,
    /// Game pairs (same opening, colours swapped) per iteration [default: 8].
    #[arg(long, value_name = "N", value_parser = count::<u64>())]
    pub pairs_per_iteration: Option<u64>,
    /// Iterations of the run [default: 100].
    #[arg(long, value_name = "N", value_parser = count::<u64>())]
    pub iterations: Option<u64>,
    /// Keep the run's state in this JSON file, after every iteration; with
    /// an existing file, continue that run at its next iteration (without
    /// --engine: print where it stands).
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Seed of the flips and of the openings' order [default: 1].
    #[arg(long)]
    pub seed: Option<u64>,
    /// The parameters to tune, by name (default: every tunable).
    #[arg(long, value_name = "NAME,...", value_delimiter = ',')]
    pub params: Option<Vec<String>>,
    /// Write the tuned values into --params-file (at the end of the run, or
    /// at once from --state without --engine).
    #[arg(long)]
    pub write_params: bool,
    /// The search's params.rs, whose tunables' defaults --write-params rewrites.
    #[arg(long, value_name = "FILE", default_value = params_file::DEFAULT_PATH)]
    pub params_file: PathBuf,
}

/// Why the run cannot start, or had to stop.
#[derive(Debug, thiserror::Error)]
pub enum SpsaError {
    #[error(
        "give the tuning build with --engine cmd=<command> (built with cargo build --release --features tune)"
    )]
    NoEngine,
    #[error("--write-params without --engine writes the values of a --state file: give one")]
    NothingToWrite,
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("--params: unknown parameter '{name}' (the tunables: {known})")]
    UnknownParam { name: String, known: String },
    #[error("--params: no parameter named")]
    NoParams,
    #[error(transparent)]
    State(#[from] StateError),
    #[error(
        "state file '{path}' tunes {state}, not {given}: give its --params, or another --state"
    )]
    StateParams {
        path: String,
        state: String,
        given: String,
    },
    #[error(
        "state file '{path}' tunes '{name}', which this build's params.rs does not declare: it is from other parameters"
    )]
    StateForeign { path: String, name: String },
    #[error(
        "state file '{path}' was started with --{what} {state}; --{what} {given} would change its run"
    )]
    StateMismatch {
        path: String,
        what: &'static str,
        state: u64,
        given: u64,
    },
    #[error("engine {name}: {error}")]
    Engine { name: String, error: ClientError },
    #[error(
        "engine {engine} has no option {option}: not a tuning build; build it with --features tune (cargo build --release --features tune)"
    )]
    NotTuning { engine: String, option: String },
    #[error(
        "engine {engine} declares {option} in {engine_range}, this program's params.rs in {ours}: build both from the same tree"
    )]
    OtherRange {
        engine: String,
        option: String,
        engine_range: String,
        ours: String,
    },
    #[error("spsa stopped: {0} (the state file keeps the last finished iteration)")]
    Stopped(String),
    #[error(transparent)]
    ParamsFile(#[from] ParamsFileError),
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl SpsaError {
    /// A run that started and had to stop is 1; one that cannot start is 2.
    pub fn status(&self) -> u8 {
        match self {
            SpsaError::Stopped(_) => 1,
            _ => 2,
        }
    }
}

/// Runs the tool with the search's `tunables`.
///
/// # Errors
/// [`SpsaError`]: bad arguments, a state file that is not this run's, an
/// engine that is not a tuning build (before the first game), an engine
/// that cannot be started again, a params file that cannot be rewritten.
pub fn run(args: Args, tunables: &[Tunable]) -> Result<(), SpsaError> {
    let selected = select(args.params.as_deref(), tunables)?;
    let existing = match &args.state {
        Some(path) => State::load(path)?,
        None => None,
    };
    if let (Some(state), Some(path)) = (&existing, &args.state) {
        check_state(state, path, &args, selected.as_deref(), tunables)?;
    }
    let Some(engine) = &args.engine else {
        return match (existing, args.write_params) {
            (Some(state), true) => write_params(&state, &args.params_file),
            (None, true) => Err(SpsaError::NothingToWrite),
            (Some(state), false) => report(&state),
            (None, false) => Err(SpsaError::NoEngine),
        };
    };
    let clock = config::clock_and_limits(args.tc.as_deref(), &args.limits)?;
    let engine = config::parse_engine(engine)?;
    let limits = GameLimits {
        clock,
        search: args.limits,
        timeout_margin_ms: 1000,
        move_timeout_ms: 60_000,
        ready_timeout_ms: 10_000,
        max_plies: 600,
    };
    let mut state = match existing {
        Some(state) => state,
        None => State::new(
            start_params(selected.as_deref().unwrap_or(tunables)),
            args.iterations.unwrap_or(DEFAULT_ITERATIONS),
            args.pairs_per_iteration.unwrap_or(DEFAULT_PAIRS),
            args.seed.unwrap_or(DEFAULT_SEED),
            limits.describe(),
        ),
    };
    check_engine(&engine, &state.params, &limits)?;
    let mut openings = openings::default_suite();
    openings::shuffle(&mut openings, state.seed);
    let mut arena = Arena {
        engine,
        limits,
        openings,
        concurrency: args.concurrency,
    };
    if state.done() > 0 && state.done() < state.iterations {
        console::err(format_args!(
            "resuming at iteration {}/{}",
            state.done() + 1,
            state.iterations
        ))?;
    }
    drive(&mut state, &mut arena, &mut |state| {
        console::err(log_line(state))?;
        match &args.state {
            Some(path) => state.save(path).map_err(SpsaError::from),
            None => Ok(()),
        }
    })?;
    print_values(&state)?;
    if args.write_params {
        write_params(&state, &args.params_file)
    } else {
        let state_arg = args
            .state
            .as_ref()
            .map_or(String::new(), |p| format!(" --state {}", p.display()));
        console::err(format_args!(
            "to write them into params.rs: tuzdyk spsa{state_arg} --write-params (then an SPRT, STRENGTH.md)"
        ))?;
        Ok(())
    }
}

/// The tunables `--params` names (any case), in the list's order; `None`
/// without `--params`.
fn select(
    names: Option<&[String]>,
    tunables: &[Tunable],
) -> Result<Option<Vec<Tunable>>, SpsaError> {
    let Some(names) = names else {
        return Ok(None);
    };
    let mut wanted = Vec::new();
    for name in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        let tunable = tunables
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| SpsaError::UnknownParam {
                name: name.to_string(),
                known: tunables
                    .iter()
                    .map(|t| t.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        wanted.push(tunable.name);
    }
    if wanted.is_empty() {
        return Err(SpsaError::NoParams);
    }
    Ok(Some(
        tunables
            .iter()
            .filter(|t| wanted.contains(&t.name))
            .copied()
            .collect(),
    ))
}

/// A new run's parameters, at their defaults.
fn start_params(tunables: &[Tunable]) -> Vec<Param> {
    tunables
        .iter()
        .map(|t| Param {
            name: t.name.to_string(),
            start: t.default as f64,
            min: t.min as f64,
            max: t.max as f64,
            c_end: t.c_end,
            r_end: t.r_end,
            theta: t.default as f64,
        })
        .collect()
}

/// A state file to continue must be a run of these parameters, with the
/// same schedule.
fn check_state(
    state: &State,
    path: &Path,
    args: &Args,
    selected: Option<&[Tunable]>,
    tunables: &[Tunable],
) -> Result<(), SpsaError> {
    let shown = path.display().to_string();
    for name in state.names() {
        if !tunables.iter().any(|t| t.name == name) {
            return Err(SpsaError::StateForeign {
                path: shown,
                name: name.to_string(),
            });
        }
    }
    if let Some(selected) = selected {
        let given: Vec<&str> = selected.iter().map(|t| t.name).collect();
        if given != state.names() {
            return Err(SpsaError::StateParams {
                path: shown,
                state: state.names().join(","),
                given: given.join(","),
            });
        }
    }
    for (what, ours, given) in [
        ("iterations", state.iterations, args.iterations),
        (
            "pairs-per-iteration",
            state.pairs_per_iteration,
            args.pairs_per_iteration,
        ),
        ("seed", state.seed, args.seed),
    ] {
        if let Some(given) = given.filter(|g| *g != ours) {
            return Err(SpsaError::StateMismatch {
                path: shown,
                what,
                state: ours,
                given,
            });
        }
    }
    Ok(())
}

/// Starts the engine once: it must declare every parameter as a spin
/// option with the range params.rs gives.
fn check_engine(
    engine: &EngineSpec,
    params: &[Param],
    limits: &GameLimits,
) -> Result<(), SpsaError> {
    let timeout = Duration::from_millis(limits.ready_timeout_ms);
    let (process, id) =
        EngineProcess::launch(engine, timeout).map_err(|error| SpsaError::Engine {
            name: engine.name.clone(),
            error,
        })?;
    process.quit();
    for param in params {
        let declared = id
            .options
            .iter()
            .find_map(|line| spin_range(line, &param.name))
            .ok_or_else(|| SpsaError::NotTuning {
                engine: engine.name.clone(),
                option: param.name.clone(),
            })?;
        let ours = (param.min as i64, param.max as i64);
        if declared != ours {
            return Err(SpsaError::OtherRange {
                engine: engine.name.clone(),
                option: param.name.clone(),
                engine_range: format!("{}..={}", declared.0, declared.1),
                ours: format!("{}..={}", ours.0, ours.1),
            });
        }
    }
    Ok(())
}

/// `(min, max)` of an `option name <name> type spin ... min A max B` line.
fn spin_range(line: &str, name: &str) -> Option<(i64, i64)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let type_at = words.iter().position(|w| *w == "type")?;
    if words.get(..3)? != ["option", "name", name] || type_at != 3 {
        return None;
    }
    let after = |key: &str| {
        let at = words.iter().position(|w| *w == key)?;
        words.get(at + 1)?.parse().ok()
    };
    (words.get(4) == Some(&"spin")).then_some(())?;
    Some((after("min")?, after("max")?))
}

/// Plays the run's remaining iterations; `after` is called with the state
/// after each one (to log it and save it).
///
/// # Errors
/// [`SpsaError::Stopped`] when the games cannot go on; whatever `after`
/// returns.
pub fn drive(
    state: &mut State,
    games: &mut dyn Games,
    after: &mut dyn FnMut(&State) -> Result<(), SpsaError>,
) -> Result<(), SpsaError> {
    while state.done() < state.iterations {
        let iteration = state.done() + 1;
        let first_pair = state.done() * state.pairs_per_iteration;
        let flips = rule::flips(state.seed, iteration, state.params.len());
        let probes = rule::probes(&state.params, &state.schedule, first_pair + 1, &flips);
        let values = |pick: fn(&rule::Probe) -> i64| {
            state
                .params
                .iter()
                .zip(&probes)
                .map(|(param, probe)| (param.name.clone(), pick(probe)))
                .collect()
        };
        let pairing = Pairing {
            iteration,
            first_pair,
            pairs: state.pairs_per_iteration,
            plus: values(|p| p.plus),
            minus: values(|p| p.minus),
        };
        let score = games.play(&pairing).map_err(SpsaError::Stopped)?;
        rule::update(&mut state.params, &probes, score.result());
        state.batches.push(Batch {
            iteration,
            wins: score.wins,
            draws: score.draws,
            losses: score.losses,
            theta: state.params.iter().map(|p| p.theta).collect(),
        });
        after(state)?;
    }
    Ok(())
}

/// The log line of the last finished iteration: `iteration 3/100: W 7 D 2
/// L 7 (+0) | ASPIRATION_DELTA 40.3 RFP_MARGIN 89.6 ...`.
pub fn log_line(state: &State) -> String {
    let Some(batch) = state.batches.last() else {
        return String::new();
    };
    let theta: Vec<String> = state
        .params
        .iter()
        .zip(&batch.theta)
        .map(|(param, theta)| format!("{} {theta:.1}", param.name))
        .collect();
    format!(
        "iteration {}/{}: W {} D {} L {} ({:+}) | {}",
        batch.iteration,
        state.iterations,
        batch.wins,
        batch.draws,
        batch.losses,
        batch.result(),
        theta.join(" ")
    )
}

/// The tuned values, rounded, in params.rs's order.
fn rounded(state: &State) -> Vec<(&str, i64)> {
    state
        .params
        .iter()
        .map(|p| (p.name.as_str(), p.theta.round() as i64))
        .collect()
}

/// Where a run stands, from its state file alone: the iterations played
/// and the values so far, with their evidence.
fn report(state: &State) -> Result<(), SpsaError> {
    let games: u64 = state
        .batches
        .iter()
        .map(|b| b.wins + b.draws + b.losses)
        .sum();
    console::err(format_args!(
        "{} of {} iterations played ({games} games, {})",
        state.done(),
        state.iterations,
        state.tc
    ))?;
    print_values(state)
}

/// The tuned values on standard output: `NAME value (from start, z +1.2)`,
/// with each parameter's [`rule::evidence`].
fn print_values(state: &State) -> Result<(), SpsaError> {
    let results: Vec<(u64, i64)> = state
        .batches
        .iter()
        .map(|b| (b.iteration, b.result()))
        .collect();
    let evidence = rule::evidence(state.seed, &results, state.params.len());
    for ((param, (name, value)), z) in state.params.iter().zip(rounded(state)).zip(evidence) {
        console::out(format_args!(
            "{name} {value} (from {}, z {z:+.1})",
            param.start
        ))?;
    }
    console::err(format_args!(
        "z: how many standard errors the games favoured a parameter's higher side; below 2 either way is noise"
    ))?;
    Ok(())
}

/// Rewrites params.rs's defaults with the tuned values, saying what changed.
fn write_params(state: &State, path: &Path) -> Result<(), SpsaError> {
    let changes = params_file::write_back(path, &rounded(state))?;
    if changes.is_empty() {
        console::err(format_args!(
            "{}: the tuned values are its defaults already",
            path.display()
        ))?;
    }
    for change in changes {
        console::err(format_args!(
            "{}: {} {} -> {}",
            path.display(),
            change.name,
            change.old,
            change.new
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
