//! `tuzdyk play`: a person plays the engine in the terminal.
//!
//! Plain line-by-line input and output (no raw mode, no cursor control), so
//! it works the same with a script piped in. The engine is driven through the
//! protocol like any outside program would (`tuzdyk_protocol::client`);
//! the rules are checked here too, so an illegal move typed by the person is
//! explained before the engine sees it, and an illegal engine move is caught.

mod explain;
mod session;

use std::collections::hash_map::RandomState;
use std::fs::OpenOptions;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::builder::{PossibleValuesParser, TypedValueParser};

use tuzdyk_notation::ending::Ending as RulesEnding;
use tuzdyk_notation::hole::{self, HoleError};
use tuzdyk_notation::record::{self, GameRecord, result_text};
use tuzdyk_notation::{diagram, tfen};
use tuzdyk_protocol::{ClientError, EngineOption, EngineProcess, Go, Level, Score, SearchReport};
use tuzdyk_rules::{Game, GameEnd, GameResult, IllegalMove, Move, Position, Side};

/// The engine's move time when no limit is given.
pub const DEFAULT_MOVETIME: u64 = 1000;

/// Which side the person plays.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideChoice {
    White,
    Black,
    Random,
}

/// `--level`: one of the protocol's `Level` names, listed in `--help` with
/// each level's PlayOK rating estimate.
fn level_parser() -> impl TypedValueParser<Value = Level> {
    let values = Level::ALL
        .map(|level| clap::builder::PossibleValue::new(level.name()).help(level.rating_text()));
    PossibleValuesParser::new(values).try_map(|name: String| {
        Level::parse(&name).ok_or_else(|| format!("unknown level '{name}'"))
    })
}

/// Play against the engine in the terminal.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Your side: white moves first.
    #[arg(long, value_enum, default_value_t = SideChoice::White)]
    pub side: SideChoice,
    /// The engine's strength: a level of the ladder (weakest first) or a
    /// stand-in for a new player, each with its estimated PlayOK rating.
    #[arg(long, value_parser = level_parser(), default_value = "beginner")]
    pub level: Level,
    /// The engine's thinking time per move, in milliseconds (default 1000
    /// when no --depth or --nodes is given).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Limit the engine's search to this depth.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Limit the engine's search to this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Start from this TFEN position instead of the start.
    #[arg(long)]
    pub fen: Option<String>,
    /// Append each finished game's record (PlayOK notation) to this file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Your name in the game record.
    #[arg(long, default_value = "You")]
    pub name: String,
    /// The engine to run, with its arguments (default: this program).
    #[arg(long, value_name = "CMD")]
    pub engine_cmd: Option<String>,
}

impl Args {
    fn go(&self) -> Go {
        Go::with_limits(self.depth, self.nodes, self.movetime).unwrap_or(Go {
            movetime: Some(Duration::from_millis(DEFAULT_MOVETIME)),
            ..Go::default()
        })
    }

    fn search_timeout(&self) -> Duration {
        match (self.movetime, self.depth, self.nodes) {
            (Some(ms), _, _) => {
                Duration::from_millis(ms.saturating_mul(2)) + Duration::from_secs(60)
            }
            (None, None, None) => Duration::from_millis(2 * DEFAULT_MOVETIME + 60_000),
            _ => Duration::from_secs(24 * 3600),
        }
    }
}

const HELP: &str = "\
Commands:
  1..9           play the hole with that number (your holes are numbered from your left)
  ? <n>, preview <n>
                 show where the last stone of hole n would land and what it would take
  hint           ask the engine (at full strength) for a move, with its score and what it wins
  undo           take back your last move and the engine's reply
  board          show the board again
  resign         give up this game
  new            start a new game
  help           this list
  quit           leave
The board shows the engine's row on top (its holes numbered from its left, so 9
down to 1) and yours below; X marks a tuzdik: stones sown into it go to its
owner's kazan. An even count in the opponent's hole where your last stone lands
is captured; exactly 3 there can make it your tuzdik (one per game, not hole 9).";

/// Why the session ends early.
enum Exit {
    /// Standard output is closed.
    Output,
    Engine(ClientError),
}

impl From<ClientError> for Exit {
    fn from(error: ClientError) -> Exit {
        Exit::Engine(error)
    }
}

impl From<io::Error> for Exit {
    fn from(_: io::Error) -> Exit {
        Exit::Output
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    Rules(GameResult, GameEnd),
    /// This side resigned.
    Resigned(Side),
}

impl Ending {
    fn result(self) -> GameResult {
        match self {
            Ending::Rules(result, _) => result,
            Ending::Resigned(side) => GameResult::Win(side.opponent()),
        }
    }
}

/// One game in progress or just finished.
struct Match {
    game: Game,
    human: Side,
    /// `[White name, Black name]` for the record.
    names: [String; 2],
    /// `[White, Black]` as the board labels them.
    labels: [String; 2],
    ending: Option<Ending>,
}

impl Match {
    fn record(&self) -> GameRecord {
        let result = self.ending.map(Ending::result);
        let mut record = GameRecord::new(self.game.clone(), result);
        record.set_tag("Event", "tuzdyk play");
        record.set_tag("Date", &record::today());
        record.set_tag("White", &self.names[0]);
        record.set_tag("Black", &self.names[1]);
        if let Some(Ending::Resigned(side)) = self.ending {
            record.comment = Some(format!("{} resigns", side.name()));
        }
        record
    }
}

/// The session: the engine, the settings, the current game, the terminal.
struct Session {
    engine: EngineProcess,
    args: Args,
    go: Go,
    timeout: Duration,
    /// The engine's short name, for messages.
    engine_name: String,
    start: Position,
    game: Match,
    /// Echo each line read, so that a piped session reads like a typed one.
    echo: bool,
    out: io::Stdout,
}

/// Runs the tool.
pub fn run(args: Args) -> ExitCode {
    let start = match &args.fen {
        Some(text) => match tfen::parse(text) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("error: invalid --fen '{text}': {e}");
                return ExitCode::from(2);
            }
        },
        None => Position::startpos(),
    };
    if start.game_over().is_some() {
        eprintln!("error: the game is already over in the --fen position");
        return ExitCode::from(2);
    }
    if args.depth == Some(0) || args.nodes == Some(0) {
        eprintln!("error: --depth and --nodes must be at least 1");
        return ExitCode::from(2);
    }
    // Fail before the game, not after it, if the record cannot be kept.
    if let Some(path) = &args.pgn
        && let Err(e) = OpenOptions::new().create(true).append(true).open(path)
    {
        eprintln!("error: cannot write --pgn {}: {e}", path.display());
        return ExitCode::from(2);
    }
    let spec = match crate::engine_spec(args.engine_cmd.as_deref()) {
        Ok(spec) => spec,
        Err(status) => return status,
    };
    let mut engine = match EngineProcess::start(&spec) {
        Ok(engine) => engine,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let options = vec![(level_option(), args.level.name().to_string())];
    let id = match engine.handshake(&options, Duration::from_secs(30)) {
        Ok(id) => id,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // The engine's name as it gives it (`id name tuzdyk 0.1.0`), first word.
    let engine_name = id
        .name
        .as_deref()
        .and_then(|name| name.split_whitespace().next())
        .unwrap_or("engine")
        .to_string();
    let mut session = Session {
        engine,
        go: args.go(),
        timeout: args.search_timeout(),
        game: Match {
            game: Game::new(start),
            human: Side::White,
            names: [String::new(), String::new()],
            labels: [String::new(), String::new()],
            ending: None,
        },
        engine_name,
        start,
        echo: !io::stdin().is_terminal(),
        out: io::stdout(),
        args,
    };
    let status = match session.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(Exit::Output) => ExitCode::SUCCESS,
        Err(Exit::Engine(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    };
    session.engine.quit();
    status
}

/// A random side, from the standard library's random hash keys.
fn random_side() -> Side {
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    );
    if hasher.finish() & 1 == 0 {
        Side::White
    } else {
        Side::Black
    }
}

/// The name of the engine's `Level` option.
fn level_option() -> String {
    EngineOption::Level.spec().name.to_string()
}

/// One line of input without its line ending; `None` at the end.
fn read_line(input: &mut impl BufRead) -> Option<String> {
    let mut buffer = Vec::new();
    match input.read_until(b'\n', &mut buffer) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(String::from_utf8_lossy(&buffer).trim().to_string()),
    }
}

/// A score from the person's view, in words: `+1.4 stones for you (cp 137)`.
fn score_for_person(score: Score) -> String {
    match score {
        Score::Centistones(cp) => {
            format!("{:+.1} stones for you (cp {cp})", cp as f64 / 100.0)
        }
        Score::Mate(n) if n > 0 => format!("you win by force in {n} moves (mate {n})"),
        Score::Mate(n) => format!("you lose by force in {} moves (mate {n})", -n),
    }
}

/// A hole number typed by the person: `Ok(move)` or why it is not one, in
/// the person's words.
fn parse_hole(text: &str) -> Result<Move, String> {
    hole::parse(text).map_err(|error| match error {
        HoleError::OutOfRange(n) => format!("There is no hole {n}: your holes are 1 to 9."),
        HoleError::Malformed(_) => format!("'{text}' is not a hole number (1 to 9)."),
    })
}

/// Why a move cannot be played, in the person's words; `engine` names the
/// opponent.
fn illegal_for_person(reason: IllegalMove, engine: &str) -> String {
    match reason {
        IllegalMove::OpponentsTuzdik(mv) => {
            format!("Hole {mv} is {engine}'s tuzdik: it stays empty and cannot be played.")
        }
        IllegalMove::EmptyHole(mv) => format!("Hole {mv} is empty: choose a hole with stones."),
        IllegalMove::GameOver(_) => "The game is over.".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn illegal_moves_are_explained_to_the_person() {
        let six = Move::from_number(6).unwrap();
        assert_eq!(
            illegal_for_person(IllegalMove::OpponentsTuzdik(six), "tuzdyk"),
            "Hole 6 is tuzdyk's tuzdik: it stays empty and cannot be played."
        );
        assert_eq!(
            illegal_for_person(IllegalMove::EmptyHole(six), "tuzdyk"),
            "Hole 6 is empty: choose a hole with stones."
        );
    }

    #[test]
    fn holes_are_parsed() {
        assert_eq!(parse_hole("5"), Ok(Move::from_number(5).unwrap()));
        assert!(parse_hole("0").unwrap_err().contains("no hole 0"));
        assert!(parse_hole("12").unwrap_err().contains("no hole 12"));
        assert!(parse_hole("-3").unwrap_err().contains("no hole -3"));
        assert!(parse_hole("5x").unwrap_err().contains("not a hole"));
    }

    #[test]
    fn engine_limits_default_to_a_move_time() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: Args,
        }
        let cli = Cli::parse_from(["play"]);
        assert_eq!(cli.args.go().to_string(), "go movetime 1000");
        let cli = Cli::parse_from(["play", "--depth", "3"]);
        assert_eq!(cli.args.go().to_string(), "go depth 3");
    }
}
