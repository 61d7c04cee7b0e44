//! `tuzdyk match`: two engines play each other, refereed, with live Elo and
//! an optional SPRT.
//!
//! Games come in pairs from the same opening with colours swapped: game
//! `2k+1` has the first engine as White, game `2k+2` the second. Openings are
//! taken in order (shuffled once with `--seed`) and reused in a cycle when
//! there are more pairs than openings. `--concurrency K` plays K games at
//! once, each worker thread with its own two engine processes, kept from
//! game to game (`ucinewgame` between games) and started again after a crash
//! or a hang.
//!
//! - [`referee`]: one game, with the clocks and the rules;
//! - [`elo`]: score, Elo and its interval;
//! - [`sprt`]: the sequential test;
//! - [`openings`]: opening files and the built-in suite;
//! - [`config`]: engine specifications and time controls.
//!
//! Progress goes to standard error, one line per game and one with the
//! running score; the summary goes to standard output (or, with `--json`,
//! one JSON object instead).

pub mod config;
pub mod elo;
pub mod openings;
pub mod referee;
pub mod sprt;

use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crate::notation::record::GameRecord;
use crate::tools::client::EngineSpec;

use config::{Limits, TimeControl};
use elo::{Tally, format_elo};
use openings::Opening;
use referee::{Engine, Forfeit, GameOutcome, GameSpec, Termination};
use sprt::{Decision, Sprt};

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
    /// Fixed time per move, in milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Node limit per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth limit per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Games to play, in colour-swapped pairs (with --sprt: at most this many).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
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
    /// Print the summary as one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Sequential test: elo0=<x> elo1=<y> [alpha=0.05] [beta=0.05]; the match
    /// stops when the log-likelihood ratio crosses a bound.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub sprt: Option<Vec<String>>,
    /// A game still going on after this many plies (opening moves not
    /// counted) is adjudicated a draw.
    #[arg(long, value_name = "PLIES", default_value_t = 600)]
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
struct Setup {
    specs: [EngineSpec; 2],
    limits: Limits,
    openings: Vec<Opening>,
    openings_name: String,
    games: usize,
    concurrency: usize,
    sprt: Option<Sprt>,
    pgn: Option<(PathBuf, File)>,
    json: bool,
    event: String,
}

/// Prints `error: <message>` on stderr; the exit status for bad input.
fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

/// Runs the tool.
pub fn run(args: Args) -> ExitCode {
    let setup = match check(args) {
        Ok(setup) => setup,
        Err(message) => return fail(message),
    };
    // Start each engine once before the match, so that a wrong command or
    // an engine that does not speak the protocol is one clear error.
    let timeout = Duration::from_millis(setup.limits.ready_timeout_ms);
    for spec in &setup.specs {
        match Engine::start(spec, timeout) {
            Ok((process, errors)) => {
                for line in errors {
                    eprintln!("warning: engine {}: {line}", spec.name);
                }
                process.quit();
            }
            Err(e) => return fail(format!("engine {}: {e}", spec.name)),
        }
    }
    play_match(setup)
}

/// Checks the arguments and reads the openings.
fn check(args: Args) -> Result<Setup, String> {
    let engines = &args.engines.0;
    if engines.len() != 2 {
        return Err(format!(
            "give exactly two engines with --engine cmd=<command> [name=<name>] [option.<Name>=<value>] (got {})",
            engines.len()
        ));
    }
    let mut first = config::parse_engine(&engines[0])?;
    let mut second = config::parse_engine(&engines[1])?;
    if first.name == second.name {
        first.name.push_str(" (1)");
        second.name.push_str(" (2)");
    }
    let clock = args.tc.as_deref().map(TimeControl::parse).transpose()?;
    if clock.is_some() && args.movetime.is_some() {
        return Err("give either --tc or --movetime, not both".to_string());
    }
    if clock.is_none() && args.movetime.is_none() && args.nodes.is_none() && args.depth.is_none() {
        return Err(
            "no time control: give --tc <seconds+increment>, --movetime, --nodes or --depth"
                .to_string(),
        );
    }
    for (name, value) in [
        ("--movetime", args.movetime),
        ("--nodes", args.nodes),
        ("--depth", args.depth.map(u64::from)),
        ("--games", Some(args.games as u64)),
        ("--concurrency", Some(args.concurrency as u64)),
        ("--max-plies", Some(args.max_plies as u64)),
    ] {
        if value == Some(0) {
            return Err(format!("{name} must be at least 1"));
        }
    }
    let limits = Limits {
        clock,
        movetime: args.movetime,
        nodes: args.nodes,
        depth: args.depth,
        timeout_margin_ms: args.timeout_margin,
        move_timeout_ms: args.move_timeout,
        ready_timeout_ms: args.ready_timeout,
        max_plies: args.max_plies,
    };
    let (mut openings, openings_name) = match &args.openings {
        Some(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| format!("cannot read openings file '{}': {e}", path.display()))?;
            let text = String::from_utf8_lossy(&bytes);
            let openings = openings::parse_openings(&text, args.opening_plies)
                .map_err(|e| format!("openings file '{}': {e}", path.display()))?;
            (openings, path.display().to_string())
        }
        None => (
            openings::default_suite(),
            openings::DEFAULT_SUITE_NAME.to_string(),
        ),
    };
    if let Some(seed) = args.seed {
        openings::shuffle(&mut openings, seed);
    }
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let pgn = match &args.pgn {
        Some(path) => {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open --pgn file '{}': {e}", path.display()))?;
            Some((path.clone(), file))
        }
        None => None,
    };
    Ok(Setup {
        specs: [first, second],
        limits,
        openings,
        openings_name,
        games: args.games,
        concurrency: args.concurrency.min(args.games),
        sprt,
        pgn,
        json: args.json,
        event: args.event,
    })
}

/// What the workers send the main thread.
enum Message {
    Game(Box<GameOutcome>),
    Fatal(String),
}

/// The running results.
struct Standings {
    names: [String; 2],
    tally: Tally,
    /// First games of pairs whose second game has not ended: pair -> points.
    open_pairs: HashMap<usize, u8>,
    /// Games ended by the rules, and adjudicated.
    normal: u64,
    adjudicated: u64,
    /// Per engine, forfeits by kind (see [`Forfeit::KINDS`]).
    forfeits: [[u64; 5]; 2],
    /// Every game: number, White engine, result, termination text.
    games: Vec<(usize, usize, &'static str, String)>,
    sprt: Option<(Sprt, f64, Decision)>,
}

impl Standings {
    fn new(names: [String; 2], sprt: Option<Sprt>) -> Standings {
        Standings {
            names,
            tally: Tally::default(),
            open_pairs: HashMap::new(),
            normal: 0,
            adjudicated: 0,
            forfeits: [[0; 5]; 2],
            games: Vec::new(),
            sprt: sprt.map(|s| (s, 0.0, Decision::Continue)),
        }
    }

    fn add(&mut self, game: &GameOutcome) {
        let points = game.first_engine_points();
        self.tally.add_game(points);
        let pair = (game.number - 1) / 2;
        match self.open_pairs.remove(&pair) {
            Some(other) => {
                self.tally.add_pair(points + other);
                if let Some((sprt, llr, decision)) = &mut self.sprt {
                    *llr = sprt.llr(&self.tally.pentanomial);
                    *decision = sprt.decision(*llr);
                }
            }
            None => {
                self.open_pairs.insert(pair, points);
            }
        }
        match &game.termination {
            Termination::Rules(_) => self.normal += 1,
            Termination::Adjudicated { .. } => self.adjudicated += 1,
            Termination::Forfeit { loser, forfeit } => {
                self.forfeits[game.engine(*loser)][forfeit.kind()] += 1;
            }
        }
        self.games.push((
            game.number,
            game.white,
            game.result.notation(),
            game.describe(&self.names),
        ));
    }

    /// `W 5 D 3 L 4, 54.2%, Elo +29.0 [-66.1, +124.5]`.
    fn score_line(&self) -> String {
        let t = &self.tally;
        let mut line = format!("W {} D {} L {}", t.wins, t.draws, t.losses);
        if let (Some(score), Some(elo)) = (t.score(), t.elo()) {
            line.push_str(&format!(
                ", {:.1}%, Elo {} [{}, {}]",
                100.0 * score,
                format_elo(elo.elo),
                format_elo(elo.lower),
                format_elo(elo.upper)
            ));
        }
        line
    }

    /// `LLR 0.31 [-2.94, 2.94]`.
    fn sprt_line(&self) -> Option<String> {
        self.sprt.map(|(sprt, llr, _)| {
            let (lower, upper) = sprt.bounds();
            format!("LLR {llr:.2} [{lower:.2}, {upper:.2}]")
        })
    }

    fn decision(&self) -> Decision {
        self.sprt.map_or(Decision::Continue, |(_, _, d)| d)
    }

    /// `12 normal, 1 adjudicated, new: 2 crash, old: 1 time_forfeit`.
    fn terminations_line(&self) -> String {
        let mut parts = vec![
            format!("{} normal", self.normal),
            format!("{} adjudicated", self.adjudicated),
        ];
        for (engine, counts) in self.forfeits.iter().enumerate() {
            let listed: Vec<String> = counts
                .iter()
                .zip(Forfeit::KINDS)
                .filter(|(count, _)| **count > 0)
                .map(|(count, kind)| format!("{count} {}", kind.replace('_', " ")))
                .collect();
            if !listed.is_empty() {
                parts.push(format!("{}: {}", self.names[engine], listed.join(", ")));
            }
        }
        parts.join("; ")
    }
}

/// Plays the match and prints the reports.
fn play_match(mut setup: Setup) -> ExitCode {
    let names = [setup.specs[0].name.clone(), setup.specs[1].name.clone()];
    let mut standings = Standings::new(names.clone(), setup.sprt);
    let next_game = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut fatal = None;
    let date = today();
    let mut pgn_failed = false;
    let mut pgn = setup.pgn.take();
    let setup = setup;

    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<Message>();
        for worker in 0..setup.concurrency {
            let sender = sender.clone();
            let (setup, next_game, stop) = (&setup, &next_game, &stop);
            let spawned = std::thread::Builder::new()
                .name(format!("match worker {worker}"))
                .spawn_scoped(scope, move || {
                    run_worker(setup, next_game, stop, &sender);
                });
            if let Err(e) = spawned {
                stop.store(true, Ordering::Relaxed);
                fatal = Some(format!("cannot start a worker thread: {e}"));
                break;
            }
        }
        drop(sender);
        for message in receiver {
            let game = match message {
                Message::Game(game) => game,
                Message::Fatal(message) => {
                    stop.store(true, Ordering::Relaxed);
                    fatal.get_or_insert(message);
                    continue;
                }
            };
            if standings.decision() != Decision::Continue {
                // In flight when the test decided: the decision stands on
                // the games before it, so this one is left out.
                eprintln!(
                    "game {} ended after the SPRT decision: not counted",
                    game.number
                );
                continue;
            }
            standings.add(&game);
            if let Some((path, file)) = &mut pgn {
                let text = game_record(&game, &names, &setup, &date).to_string();
                if let Err(e) = writeln!(file, "{text}").and_then(|()| file.flush())
                    && !pgn_failed
                {
                    pgn_failed = true;
                    eprintln!("warning: cannot write to '{}': {e}", path.display());
                }
            }
            report_game(&game, &standings, setup.games);
            if standings.decision() != Decision::Continue {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });

    if setup.json {
        println!("{}", json_summary(&standings, &setup));
    } else {
        print!("{}", text_summary(&standings, &setup));
    }
    let _ = std::io::stdout().flush();
    match fatal {
        Some(message) => {
            eprintln!("error: match stopped: {message}");
            ExitCode::from(1)
        }
        None => ExitCode::SUCCESS,
    }
}

/// One worker: takes the next game until there are none or the match stops.
fn run_worker(
    setup: &Setup,
    next_game: &AtomicUsize,
    stop: &AtomicBool,
    sender: &mpsc::Sender<Message>,
) {
    let mut engines = setup.specs.clone().map(Engine::new);
    while !stop.load(Ordering::Relaxed) {
        let index = next_game.fetch_add(1, Ordering::Relaxed);
        if index >= setup.games {
            break;
        }
        let opening = &setup.openings[(index / 2) % setup.openings.len()];
        let game = GameSpec {
            number: index + 1,
            opening,
            white: index % 2,
        };
        match referee::play_game(&mut engines, &game, &setup.limits, stop) {
            Ok(Some(outcome)) => {
                if sender.send(Message::Game(Box::new(outcome))).is_err() {
                    break;
                }
            }
            Ok(None) => break,
            Err(message) => {
                let _ = sender.send(Message::Fatal(message));
                break;
            }
        }
    }
    for engine in &mut engines {
        engine.shutdown();
    }
}

/// Prints the progress lines of a finished game on stderr.
fn report_game(game: &GameOutcome, standings: &Standings, total: usize) {
    let names = &standings.names;
    let mut line = format!(
        "game {}/{total}: {} vs {}: {} ({})\nafter {} games: {} vs {}: {}",
        game.number,
        names[game.white],
        names[1 - game.white],
        game.result.notation(),
        game.describe(names),
        standings.tally.games(),
        names[0],
        names[1],
        standings.score_line()
    );
    if let Some(sprt) = standings.sprt_line() {
        line.push_str(&format!(", {sprt}"));
    }
    let decision = standings.decision();
    if decision != Decision::Continue {
        line.push_str(&format!(", {}", decision.describe()));
    }
    eprintln!("{line}");
}

/// The game as a PlayOK record with the match's tags.
fn game_record(game: &GameOutcome, names: &[String; 2], setup: &Setup, date: &str) -> GameRecord {
    let mut record = GameRecord::new(game.start, game.moves.clone(), Some(game.result));
    let mut tags = vec![
        ("Event".to_string(), setup.event.clone()),
        ("Site".to_string(), "tuzdyk match".to_string()),
        ("Date".to_string(), date.to_string()),
        ("Round".to_string(), game.number.to_string()),
        ("White".to_string(), names[game.white].clone()),
        ("Black".to_string(), names[1 - game.white].clone()),
        ("Result".to_string(), game.result.notation().to_string()),
    ];
    if game.start != crate::board::Position::startpos() {
        tags.push(("FEN".to_string(), crate::notation::tfen::write(&game.start)));
    }
    if let Some(clock) = &setup.limits.clock {
        tags.push(("TimeControl".to_string(), clock.to_string()));
    }
    tags.push(("Termination".to_string(), game.describe(names)));
    tags.push(("PlyCount".to_string(), game.moves.len().to_string()));
    record.tags = tags;
    record
}

/// Today's date (UTC) as `YYYY.MM.DD`.
fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The proleptic Gregorian date of a day counted from 1970-01-01
/// (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// How the Elo interval was computed, for the reports.
fn interval_method(tally: &Tally) -> &'static str {
    if tally.pairs() > 0 {
        "95%, pentanomial variance of the colour-swapped pairs"
    } else {
        "95%, trinomial variance"
    }
}

/// The text summary (standard output).
fn text_summary(standings: &Standings, setup: &Setup) -> String {
    let names = &standings.names;
    let t = &standings.tally;
    let mut out = String::new();
    out.push_str(&format!(
        "match {} vs {}: {} of {} games ({} pairs), {}, openings {} ({}), concurrency {}\n",
        names[0],
        names[1],
        t.games(),
        setup.games,
        t.pairs(),
        setup.limits.describe(),
        setup.openings_name,
        setup.openings.len(),
        setup.concurrency
    ));
    out.push_str(&format!(
        "score of {} vs {}: {}\n",
        names[0],
        names[1],
        standings.score_line()
    ));
    if let Some(elo) = t.elo() {
        let margin = elo
            .margin()
            .map_or(String::new(), |m| format!(" (+/- {m:.1})"));
        out.push_str(&format!(
            "elo {} [{}, {}]{margin} ({}), LOS {:.1}%, draw ratio {:.1}%\n",
            format_elo(elo.elo),
            format_elo(elo.lower),
            format_elo(elo.upper),
            interval_method(t),
            100.0 * t.los(),
            100.0 * t.draw_ratio().unwrap_or(0.0)
        ));
    }
    let p = &t.pentanomial;
    out.push_str(&format!(
        "pentanomial (pairs where {} scored 0, 1/2, 1, 3/2, 2): {} {} {} {} {}\n",
        names[0], p[0], p[1], p[2], p[3], p[4]
    ));
    out.push_str(&format!(
        "terminations: {}\n",
        standings.terminations_line()
    ));
    if let Some((sprt, llr, decision)) = standings.sprt {
        let (lower, upper) = sprt.bounds();
        out.push_str(&format!(
            "sprt ({}): elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.3} [{lower:.3}, {upper:.3}], {}\n",
            sprt::MODEL,
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            decision.describe()
        ));
    }
    let mut result = format!(
        "result: {} vs {}: {}, {} games",
        names[0],
        names[1],
        standings.score_line(),
        t.games()
    );
    if let Some((_, llr, decision)) = standings.sprt {
        result.push_str(&format!(", LLR {llr:.2}, {}", decision.describe()));
    }
    out.push_str(&result);
    out.push('\n');
    out
}

/// A JSON number, or `null` for infinities and NaN.
fn json_number(value: f64) -> String {
    if value.is_finite() {
        format!("{value}")
    } else {
        "null".to_string()
    }
}

fn json_option(value: Option<f64>) -> String {
    value.map_or("null".to_string(), json_number)
}

/// The summary as one JSON object.
fn json_summary(standings: &Standings, setup: &Setup) -> String {
    let t = &standings.tally;
    let mut fields: Vec<(&str, String)> = Vec::new();
    let engines: Vec<String> = setup
        .specs
        .iter()
        .map(|spec| {
            let options: Vec<String> = spec
                .options
                .iter()
                .map(|(name, value)| {
                    format!(
                        "{}:{}",
                        crate::tools::json::string(name),
                        crate::tools::json::string(value)
                    )
                })
                .collect();
            format!(
                "{{\"name\":{},\"command\":{},\"options\":{{{}}}}}",
                crate::tools::json::string(&spec.name),
                crate::tools::json::string(&spec.command.join(" ")),
                options.join(",")
            )
        })
        .collect();
    fields.push(("engines", format!("[{}]", engines.join(","))));
    fields.push((
        "time_control",
        crate::tools::json::string(&setup.limits.describe()),
    ));
    fields.push(("openings", crate::tools::json::string(&setup.openings_name)));
    fields.push(("games_requested", setup.games.to_string()));
    fields.push(("games", t.games().to_string()));
    fields.push(("pairs", t.pairs().to_string()));
    fields.push(("wins", t.wins.to_string()));
    fields.push(("draws", t.draws.to_string()));
    fields.push(("losses", t.losses.to_string()));
    fields.push(("score", json_option(t.score())));
    let elo = t.elo();
    fields.push(("elo", json_option(elo.map(|e| e.elo))));
    fields.push(("elo_lower", json_option(elo.map(|e| e.lower))));
    fields.push(("elo_upper", json_option(elo.map(|e| e.upper))));
    fields.push((
        "elo_interval",
        crate::tools::json::string(interval_method(t)),
    ));
    fields.push(("los", json_number(t.los())));
    fields.push(("draw_ratio", json_option(t.draw_ratio())));
    fields.push((
        "pentanomial",
        format!("[{}]", t.pentanomial.map(|c| c.to_string()).join(",")),
    ));
    let sprt = match standings.sprt {
        Some((sprt, llr, decision)) => {
            let (lower, upper) = sprt.bounds();
            format!(
                "{{\"model\":{},\"elo0\":{},\"elo1\":{},\"alpha\":{},\"beta\":{},\"llr\":{},\"lower_bound\":{},\"upper_bound\":{},\"decision\":{}}}",
                crate::tools::json::string(sprt::MODEL),
                json_number(sprt.elo0),
                json_number(sprt.elo1),
                json_number(sprt.alpha),
                json_number(sprt.beta),
                json_number(llr),
                json_number(lower),
                json_number(upper),
                crate::tools::json::string(decision.describe())
            )
        }
        None => "null".to_string(),
    };
    fields.push(("sprt", sprt));
    fields.push(("normal", standings.normal.to_string()));
    fields.push(("adjudicated", standings.adjudicated.to_string()));
    let forfeits: Vec<String> = standings
        .forfeits
        .iter()
        .enumerate()
        .map(|(engine, counts)| {
            let kinds: Vec<String> = Forfeit::KINDS
                .iter()
                .zip(counts)
                .map(|(kind, count)| format!("\"{kind}\":{count}"))
                .collect();
            format!(
                "{{\"engine\":{},{}}}",
                crate::tools::json::string(&standings.names[engine]),
                kinds.join(",")
            )
        })
        .collect();
    fields.push(("forfeits", format!("[{}]", forfeits.join(","))));
    let mut games = standings.games.clone();
    games.sort_by_key(|game| game.0);
    let games: Vec<String> = games
        .iter()
        .map(|(number, white, result, termination)| {
            format!(
                "{{\"round\":{number},\"white\":{},\"black\":{},\"result\":{},\"termination\":{}}}",
                crate::tools::json::string(&standings.names[*white]),
                crate::tools::json::string(&standings.names[1 - white]),
                crate::tools::json::string(result),
                crate::tools::json::string(termination)
            )
        })
        .collect();
    fields.push(("results", format!("[{}]", games.join(","))));
    let body: Vec<String> = fields
        .iter()
        .map(|(key, value)| format!("{}:{value}", crate::tools::json::string(key)))
        .collect();
    format!("{{{}}}", body.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(
            crate::tools::json::string("a\"b\\c\nd\u{1}"),
            "\"a\\\"b\\\\c\\nd\\u0001\""
        );
        assert_eq!(json_number(f64::INFINITY), "null");
        assert_eq!(json_number(0.5), "0.5");
    }
}
