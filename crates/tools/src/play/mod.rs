//! `tuzdyk play`: a person plays the engine in the terminal.
//!
//! Plain line-by-line input and output (no raw mode, no cursor control), so
//! it works the same with a script piped in. The engine is driven through the
//! protocol like any outside program would (`tuzdyk_protocol::client`);
//! the rules are checked here too, so an illegal move typed by the person is
//! explained before the engine sees it, and an illegal engine move is caught.

mod explain;
mod session;

use std::fs::OpenOptions;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::builder::{PossibleValuesParser, TypedValueParser};

use tuzdyk_notation::console::{self, OutputError, Stream};
use tuzdyk_notation::ending::Ending as RulesEnding;
use tuzdyk_notation::hole::{self, HoleError};
use tuzdyk_notation::record::{self, GameRecord, result_text};
use tuzdyk_notation::tfen::{self, TfenError};
use tuzdyk_notation::{diagram, excerpt};
use tuzdyk_protocol::line::{Line, read_line};
use tuzdyk_protocol::{ClientError, EngineOption, EngineProcess, Go, Level, Score, SearchReport};
use tuzdyk_rules::rng::{SplitMix64, clock_seed};
use tuzdyk_rules::{Game, GameEnd, GameResult, IllegalMove, Move, Position, Side};

use crate::{EngineCmd, SearchLimits};

/// The engine's move time when no limit is given.
pub const DEFAULT_MOVETIME: u64 = 1000;

/// The longest line the session reads: a command is a word or two, so
/// anything longer is a mistake (a paste gone wrong), refused unread.
pub(crate) const MAX_COMMAND_BYTES: usize = 1024;

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
    /// The engine's search per move (with none, a movetime of 1000 ms).
    #[command(flatten)]
    pub limits: SearchLimits,
    /// Start from this TFEN position instead of the start.
    #[arg(long)]
    pub fen: Option<String>,
    /// Append each finished game's record (PlayOK notation) to this file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Your name in the game record.
    #[arg(long, default_value = "You")]
    pub name: String,
    #[command(flatten)]
    pub engine: EngineCmd,
}

impl Args {
    /// The limits of the engine's moves.
    fn limits(&self) -> SearchLimits {
        self.limits.or(SearchLimits::movetime(DEFAULT_MOVETIME))
    }
}

/// Why `play` cannot run, or had to stop.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    #[error("invalid --fen '{text}': {error}")]
    Fen { text: String, error: TfenError },
    #[error("the game is already over in the --fen position")]
    GameOver,
    #[error("cannot write --pgn {path}: {error}")]
    Pgn {
        path: String,
        #[source]
        error: io::Error,
    },
    /// The engine cannot be started, or failed (exited, hung, or played a
    /// move that is not legal).
    #[error(transparent)]
    Engine(#[from] ClientError),
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl PlayError {
    /// Every failure stops the session before or during a game: 2.
    pub fn status(&self) -> u8 {
        2
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
}

/// Checks, before the first game, that the record file can be written,
/// without making it: the file is made when a game ends, so a session with
/// no finished game leaves nothing behind.
fn check_record_file(path: &Path) -> io::Result<()> {
    if path.exists() {
        return OpenOptions::new().append(true).open(path).map(drop);
    }
    // Made and removed at once: the folder takes a new file.
    OpenOptions::new().write(true).create_new(true).open(path)?;
    std::fs::remove_file(path)
}

/// Runs the tool. A closed standard output ends the session quietly.
///
/// # Errors
/// [`PlayError`]: a bad `--fen`, an unwritable `--pgn`, an engine that
/// cannot be started or fails.
pub fn run(args: Args) -> Result<(), PlayError> {
    let start = match &args.fen {
        Some(text) => tfen::parse(text).map_err(|error| PlayError::Fen {
            text: excerpt(text),
            error,
        })?,
        None => Position::startpos(),
    };
    if start.game_over().is_some() {
        return Err(PlayError::GameOver);
    }
    // Fail before the game, not after it, if the record cannot be kept.
    if let Some(path) = &args.pgn {
        check_record_file(path).map_err(|error| PlayError::Pgn {
            path: path.display().to_string(),
            error,
        })?;
    }
    let mut engine = EngineProcess::start(&args.engine.spec()?)?;
    let options = vec![(level_option(), args.level.name().to_string())];
    let id = engine.handshake(&options, Duration::from_secs(30))?;
    // The engine's name as it gives it (`id name tuzdyk 0.1.0`), first word.
    let engine_name = id
        .name
        .as_deref()
        .and_then(|name| name.split_whitespace().next())
        .unwrap_or("engine")
        .to_string();
    let limits = args.limits();
    let mut session = Session {
        engine,
        go: limits.go(),
        timeout: limits.timeout(),
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
        args,
    };
    let result = session.run();
    session.engine.quit();
    result
}

/// A side drawn from the clock, for `--side random`.
fn random_side() -> Side {
    Side::BOTH[SplitMix64::new(clock_seed()).below(2)]
}

/// The name of the engine's `Level` option.
fn level_option() -> String {
    EngineOption::Level.spec().name.to_string()
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
pub(crate) fn parse_hole(text: &str) -> Result<Move, String> {
    hole::parse(text).map_err(|error| match error {
        HoleError::OutOfRange(n) => format!("There is no hole {n}: your holes are 1 to 9."),
        HoleError::Malformed(_) => format!("'{}' is not a hole number (1 to 9).", excerpt(text)),
    })
}

/// Why a move cannot be played, in the person's words; `engine` names the
/// opponent.
pub(crate) fn illegal_for_person(reason: IllegalMove, engine: &str) -> String {
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
        assert_eq!(
            parse_hole("5\u{1b}[31m").unwrap_err(),
            "'5?[31m' is not a hole number (1 to 9)."
        );
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
        assert_eq!(cli.args.limits().go().to_string(), "go movetime 1000");
        let cli = Cli::parse_from(["play", "--depth", "3"]);
        assert_eq!(cli.args.limits().go().to_string(), "go depth 3");
    }
}
