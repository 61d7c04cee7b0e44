//! `tuzdyk analyse`: batch analysis of positions and review of games,
//! driving an engine through the protocol as an outside program would.
//!
//! Input is read from files, or from standard input when none is given (or
//! `-`), and each source is sorted by its first significant line: a `[` tag
//! or a numbered move (`1.`) means PlayOK game records, anything else TFEN
//! positions, one a line. Positions are analysed as they are read, one output
//! line each, flushed at once, so the tool fits a pipeline; records are
//! reviewed game by game (see [`crate::review`]). Standard output carries only
//! results; problems with the input go to standard error, one line each, and
//! make the exit status 1 once everything else has been analysed.

mod review;

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use tuzdyk_notation::ending::Ending;
use tuzdyk_notation::record::GameRecord;
use tuzdyk_notation::record::result_text;
use tuzdyk_notation::{source, tfen};
use tuzdyk_protocol::{
    ClientError, EngineOption, EngineProcess, Go, InfoLine, Score, SearchReport,
};
use tuzdyk_rules::{GameEnd, Move, Position};

use crate::review::PlayerStats;
use crate::{json, option_range};

/// The depth searched when no limit is given.
pub const DEFAULT_DEPTH: u32 = 16;

/// Analyse TFEN positions (one a line) or review PlayOK game records.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Files of TFEN positions or PlayOK game records; none, or `-`, reads
    /// standard input.
    pub files: Vec<PathBuf>,
    /// Search each position to this depth (plies). With no limit at all,
    /// the depth is 16.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search each position for this many milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Search each position for this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Engine search threads.
    #[arg(long, default_value_t = 1, value_parser = option_range(EngineOption::Threads))]
    pub threads: u32,
    /// Engine hash table size in MB.
    #[arg(long, value_name = "MB", default_value_t = 16, value_parser = option_range(EngineOption::Hash))]
    pub hash: u32,
    /// Number of best lines to report for each position.
    #[arg(long, default_value_t = 1, value_parser = option_range(EngineOption::MultiPv))]
    pub multipv: u32,
    /// One JSON object per line instead of plain text.
    #[arg(long)]
    pub json: bool,
    /// Review: a move losing at least this many centi-stones (100 = one
    /// stone) is an inaccuracy.
    #[arg(long, value_name = "CP", default_value_t = crate::review::DEFAULT_THRESHOLDS[0])]
    pub inaccuracy: u32,
    /// Review: a move losing at least this many centi-stones is a mistake.
    #[arg(long, value_name = "CP", default_value_t = crate::review::DEFAULT_THRESHOLDS[1])]
    pub mistake: u32,
    /// Review: a move losing at least this many centi-stones is a blunder.
    #[arg(long, value_name = "CP", default_value_t = crate::review::DEFAULT_THRESHOLDS[2])]
    pub blunder: u32,
    /// The engine to run, with its arguments (default: this program).
    #[arg(long, value_name = "CMD")]
    pub engine_cmd: Option<String>,
}

impl Args {
    /// The `go` of every search.
    fn go(&self) -> Go {
        Go::with_limits(self.depth, self.nodes, self.movetime).unwrap_or(Go {
            depth: Some(DEFAULT_DEPTH),
            ..Go::default()
        })
    }

    /// How long to wait for a search's `bestmove`: a timed search gets
    /// generous slack; depth and node searches are waited for.
    fn search_timeout(&self) -> Duration {
        match (self.movetime, self.depth, self.nodes) {
            (Some(ms), _, _) => {
                Duration::from_millis(ms.saturating_mul(2)) + Duration::from_secs(60)
            }
            _ => Duration::from_secs(30 * 24 * 3600),
        }
    }

    fn check(&self) -> Result<(), ArgsError> {
        if self.depth == Some(0) {
            return Err(ArgsError::ZeroDepth);
        }
        if self.nodes == Some(0) {
            return Err(ArgsError::ZeroNodes);
        }
        if !(self.inaccuracy <= self.mistake && self.mistake <= self.blunder) {
            return Err(ArgsError::Thresholds {
                inaccuracy: self.inaccuracy,
                mistake: self.mistake,
                blunder: self.blunder,
            });
        }
        if self
            .engine_cmd
            .as_deref()
            .is_some_and(|c| c.trim().is_empty())
        {
            return Err(ArgsError::EmptyEngineCommand);
        }
        Ok(())
    }
}

/// Why the command line cannot run.
#[derive(Debug, thiserror::Error)]
enum ArgsError {
    #[error("--depth must be at least 1")]
    ZeroDepth,
    #[error("--nodes must be at least 1")]
    ZeroNodes,
    #[error(
        "thresholds must rise: --inaccuracy {inaccuracy} <= --mistake {mistake} <= --blunder {blunder}"
    )]
    Thresholds {
        inaccuracy: u32,
        mistake: u32,
        blunder: u32,
    },
    #[error("--engine-cmd is empty")]
    EmptyEngineCommand,
}

/// Why the run stops early.
#[derive(Debug)]
pub(crate) enum Stop {
    /// Standard output was closed (`| head`): nothing more can be written.
    OutputClosed,
    /// The engine failed (exited, hung, or cannot be written to).
    Engine(ClientError),
}

impl From<ClientError> for Stop {
    fn from(error: ClientError) -> Stop {
        Stop::Engine(error)
    }
}

/// Runs the tool.
pub fn run(args: Args) -> ExitCode {
    if let Err(message) = args.check() {
        eprintln!("error: {message}");
        return ExitCode::from(2);
    }
    let options = [
        (EngineOption::Threads, args.threads),
        (EngineOption::Hash, args.hash),
        (EngineOption::MultiPv, args.multipv),
    ];
    let engine = match start_engine(args.engine_cmd.as_deref(), &options) {
        Ok(engine) => engine,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };

    let sources: Vec<PathBuf> = if args.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.files.clone()
    };
    let mut analyser = Analyser {
        engine,
        go: args.go(),
        timeout: args.search_timeout(),
        json: args.json,
        thresholds: [args.inaccuracy, args.mistake, args.blunder].map(|t| t as i32),
        bad_inputs: 0,
    };
    let mut stopped = None;
    for path in &sources {
        let result = if path.as_os_str() == "-" {
            let stdin = io::stdin();
            analyser.process("stdin", stdin.lock())
        } else {
            let name = path.display().to_string();
            match File::open(path) {
                Ok(file) => analyser.process(&name, BufReader::new(file)),
                Err(e) => {
                    analyser.bad(&format!("{name}: cannot read: {e}"));
                    Ok(())
                }
            }
        };
        if let Err(stop) = result {
            stopped = Some(stop);
            break;
        }
    }
    let status = match stopped {
        Some(Stop::Engine(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
        _ if analyser.bad_inputs > 0 => {
            eprintln!(
                "{} bad input{} (see above)",
                analyser.bad_inputs,
                if analyser.bad_inputs == 1 { "" } else { "s" }
            );
            ExitCode::from(1)
        }
        _ => ExitCode::SUCCESS,
    };
    analyser.engine.quit();
    status
}

/// Starts the engine (`cmd`, or this program) and sets `options`.
fn start_engine(
    cmd: Option<&str>,
    options: &[(EngineOption, u32)],
) -> Result<EngineProcess, ClientError> {
    let spec = tuzdyk_protocol::EngineSpec::from_command(cmd, "engine")?;
    let mut engine = EngineProcess::start(&spec)?;
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(option, value)| (option.spec().name.to_string(), value.to_string()))
        .collect();
    engine.handshake(&options, Duration::from_secs(30))?;
    Ok(engine)
}

/// Reviews games for another tool (`tuzdyk rating`): an engine on one
/// thread at fixed limits, each game from a new game, nothing printed.
pub struct Reviewer(Analyser);

impl Reviewer {
    /// Starts the engine (`cmd`, or this program) to search every move to
    /// `depth`.
    ///
    /// # Errors
    /// [`ClientError`] when the engine cannot be started or set up.
    pub fn start(cmd: Option<&str>, depth: u32) -> Result<Reviewer, ClientError> {
        let options = [(EngineOption::Threads, 1), (EngineOption::MultiPv, 1)];
        let engine = start_engine(cmd, &options)?;
        Ok(Reviewer(Analyser {
            engine,
            go: Go {
                depth: Some(depth),
                ..Go::default()
            },
            timeout: Duration::from_secs(30 * 24 * 3600),
            json: false,
            thresholds: crate::review::DEFAULT_THRESHOLDS.map(|t| t as i32),
            bad_inputs: 0,
        }))
    }

    /// Each player's totals over `game` (White's first); `None` when the
    /// engine rejected one of its positions.
    ///
    /// # Errors
    /// [`ClientError`] when the engine fails.
    pub fn review(&mut self, game: &GameRecord) -> Result<Option<[PlayerStats; 2]>, ClientError> {
        self.0.engine.send("ucinewgame")?;
        let mut stats = [PlayerStats::default(), PlayerStats::default()];
        let thresholds = self.0.thresholds;
        let reviewed = crate::review::review_game(&mut self.0, &game.game, 0, thresholds, |m| {
            stats[m.mover.index()].add(&m);
            Ok(())
        });
        match reviewed {
            Ok(Ok(())) => Ok(Some(stats)),
            Ok(Err(_rejected)) => Ok(None),
            Err(Stop::Engine(e)) => Err(e),
            Err(Stop::OutputClosed) => Ok(None),
        }
    }

    /// Ends the engine.
    pub fn quit(self) {
        self.0.engine.quit();
    }
}

/// What a source holds, decided by its first significant line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Positions,
    Records,
}

/// One line of input without its line ending, invalid UTF-8 replaced;
/// `None` at the end.
fn read_line(reader: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut buffer = Vec::new();
    if reader.read_until(b'\n', &mut buffer)? == 0 {
        return Ok(None);
    }
    while buffer.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
        buffer.pop();
    }
    Ok(Some(String::from_utf8_lossy(&buffer).into_owned()))
}

/// `text` cut to a length fit for an error message.
fn quoted(text: &str) -> String {
    const LIMIT: usize = 100;
    if text.chars().count() <= LIMIT {
        text.to_string()
    } else {
        let cut: String = text.chars().take(LIMIT).collect();
        format!("{cut}...")
    }
}

/// The engine, the search settings and the running count of bad inputs.
pub(crate) struct Analyser {
    engine: EngineProcess,
    go: Go,
    timeout: Duration,
    json: bool,
    /// Inaccuracy, mistake and blunder thresholds in centi-stones.
    thresholds: [i32; 3],
    bad_inputs: usize,
}

impl Analyser {
    /// Reports a bad input on stderr and counts it.
    fn bad(&mut self, message: &str) {
        eprintln!("{message}");
        self.bad_inputs += 1;
    }

    /// Writes one result line to stdout and flushes it.
    fn emit(&mut self, line: &str) -> Result<(), Stop> {
        emit_line(line)
    }

    /// Reads one source to its end: positions one by one, records game by game.
    fn process(&mut self, source: &str, mut reader: impl BufRead) -> Result<(), Stop> {
        let mut number = 0usize;
        let mut mode = None;
        let mut chunk = String::new();
        let mut chunk_start = 0usize;
        let mut seen_movetext = false;
        let mut games = 0usize;
        loop {
            let line = match read_line(&mut reader) {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(e) => {
                    self.bad(&format!("{source}:{}: cannot read: {e}", number + 1));
                    break;
                }
            };
            number += 1;
            let text = line.trim();
            if mode.is_none() {
                if text.is_empty() || text.starts_with('#') {
                    continue;
                }
                mode = Some(if source::starts_records(text) {
                    chunk_start = number;
                    Mode::Records
                } else {
                    Mode::Positions
                });
            }
            match mode {
                Some(Mode::Records) => {
                    if text.starts_with('[') && seen_movetext {
                        self.review_chunk(source, chunk_start, &chunk, &mut games)?;
                        chunk.clear();
                        seen_movetext = false;
                        chunk_start = number;
                    }
                    if !text.is_empty() && !text.starts_with('[') {
                        seen_movetext = true;
                    }
                    chunk.push_str(&line);
                    chunk.push('\n');
                }
                _ => {
                    if !text.is_empty() && !text.starts_with('#') {
                        self.position_line(source, number, text)?;
                    }
                }
            }
        }
        if mode == Some(Mode::Records) && !chunk.trim().is_empty() {
            self.review_chunk(source, chunk_start, &chunk, &mut games)?;
        }
        Ok(())
    }

    /// Reviews the games of one chunk of record text (normally one game).
    fn review_chunk(
        &mut self,
        source: &str,
        first_line: usize,
        text: &str,
        games: &mut usize,
    ) -> Result<(), Stop> {
        for game in tuzdyk_notation::record::parse_games(text) {
            *games += 1;
            match game {
                Ok(game) => self.review_game(source, *games, &game)?,
                Err(mut e) => {
                    e.game = *games;
                    self.bad(&format!("{source}:{first_line}: {e}"));
                }
            }
        }
        Ok(())
    }

    /// Sets up `pos` in the engine and searches it, only `only` when given
    /// (`go ... searchmoves`). An `info string error` about the position
    /// (another engine may reject what this one accepts) comes back as
    /// `Ok(Err(message))`.
    fn search(
        &mut self,
        pos: &Position,
        only: Option<Move>,
    ) -> Result<Result<SearchReport, String>, Stop> {
        self.engine
            .send(&format!("position fen {}", tfen::write(pos)))?;
        let go = Go {
            searchmoves: only.into_iter().collect(),
            ..self.go.clone()
        };
        let report = self.engine.go(&go, self.timeout)?;
        if let Some(error) = report.position_error() {
            return Ok(Err(error.to_string()));
        }
        Ok(Ok(report))
    }

    /// Analyses one TFEN line of the input.
    fn position_line(&mut self, source: &str, number: usize, text: &str) -> Result<(), Stop> {
        let pos = if text == "startpos" {
            Position::startpos()
        } else {
            match tfen::parse(text) {
                Ok(pos) => pos,
                Err(e) => {
                    self.bad(&format!(
                        "{source}:{number}: invalid TFEN '{}': {e}",
                        quoted(text)
                    ));
                    return Ok(());
                }
            }
        };
        let fen = tfen::write(&pos);
        if let Some(ending) = Ending::of(&pos) {
            let line = if self.json {
                let mut object = json::Object::new();
                object
                    .str("type", "position")
                    .str("source", source)
                    .int("line", number as i64)
                    .str("fen", &fen)
                    .str("bestmove", "0000")
                    .raw("score_cp", "null")
                    .raw("score_mate", "null")
                    .int("depth", 0)
                    .raw("pv", "[]")
                    .int("nodes", 0)
                    .raw("lines", "[]")
                    .bool("game_over", true)
                    .str("result", result_text(Some(ending.result)))
                    .str("end", game_end_text(ending.end));
                object.finish()
            } else {
                format!("{fen}  bestmove 0000  game over {ending}")
            };
            return self.emit(&line);
        }
        // A fresh state for each position: with one thread and a depth or
        // node limit, the result does not depend on what came before.
        self.engine.send("ucinewgame")?;
        let report = match self.search(&pos, None)? {
            Ok(report) => report,
            Err(message) => {
                self.bad(&format!(
                    "{source}:{number}: the engine rejected the position: {message}"
                ));
                return Ok(());
            }
        };
        let legal = report
            .best()
            .ok()
            .and_then(|best| best.mv)
            .is_some_and(|mv| pos.is_legal(mv));
        if !legal {
            eprintln!(
                "{source}:{number}: warning: the engine's bestmove '{}' is not legal here",
                report.bestmove_token()
            );
        }
        let line = if self.json {
            position_json(source, number, &fen, &report)
        } else {
            position_plain(&fen, &report)
        };
        self.emit(&line)
    }
}

/// Writes one result line to stdout and flushes it.
fn emit_line(line: &str) -> Result<(), Stop> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(|_| Stop::OutputClosed)
}

fn game_end_text(end: GameEnd) -> &'static str {
    match end {
        GameEnd::KazanMajority => "kazan",
        GameEnd::NoMoves => "no moves",
    }
}

/// `cp 12`, `mate -3`, or `none`.
pub(crate) fn score_text(score: Option<Score>) -> String {
    score.map_or_else(|| "none".to_string(), |s| s.to_string())
}

/// Adds `<prefix>_cp` and `<prefix>_mate`, one of them null.
fn score_fields(object: &mut json::Object, prefix: &str, score: Option<Score>) {
    let (cp, mate) = match score {
        Some(Score::Centistones(cp)) => (Some(cp), None),
        Some(Score::Mate(n)) => (None, Some(n)),
        None => (None, None),
    };
    object.opt_int(&format!("{prefix}_cp"), cp);
    object.opt_int(&format!("{prefix}_mate"), mate);
}

fn position_plain(fen: &str, report: &SearchReport) -> String {
    let best = report.best_line();
    let mut line = format!(
        "{fen}  bestmove {}  score {}  depth {}  nodes {}  pv {}",
        report.bestmove_token(),
        score_text(best.and_then(|l| l.score)),
        best.and_then(|l| l.depth).unwrap_or(0),
        report.nodes.unwrap_or(0),
        best.map_or(String::new(), |l| moves_text(&l.pv)),
    );
    for (k, info) in report.lines.iter().enumerate().skip(1) {
        if info.pv.is_empty() {
            continue;
        }
        line.push_str(&format!(
            "  multipv {} score {} pv {}",
            k + 1,
            score_text(info.score),
            moves_text(&info.pv)
        ));
    }
    line
}

/// Moves as JSON strings.
pub(crate) fn move_strings(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

/// Moves separated by spaces: `6 9 1`.
pub(crate) fn moves_text(moves: &[Move]) -> String {
    move_strings(moves).join(" ")
}

fn line_json(k: usize, info: &InfoLine) -> String {
    let mut object = json::Object::new();
    object
        .int("multipv", k as i64 + 1)
        .opt_str("move", info.pv.first().map(Move::to_string).as_deref());
    score_fields(&mut object, "score", info.score);
    object
        .opt_int("depth", info.depth)
        .strings("pv", &move_strings(&info.pv));
    object.finish()
}

fn position_json(source: &str, number: usize, fen: &str, report: &SearchReport) -> String {
    let best = report.best_line();
    let mut object = json::Object::new();
    object
        .str("type", "position")
        .str("source", source)
        .int("line", number as i64)
        .str("fen", fen)
        .str("bestmove", report.bestmove_token())
        .opt_str(
            "ponder",
            report
                .best()
                .ok()
                .and_then(|best| best.ponder)
                .map(|mv| mv.to_string())
                .as_deref(),
        );
    score_fields(&mut object, "score", best.and_then(|l| l.score));
    object
        .opt_int("depth", best.and_then(|l| l.depth))
        .strings("pv", &best.map_or(Vec::new(), |l| move_strings(&l.pv)))
        .opt_int(
            "nodes",
            report.nodes.map(|n| i64::try_from(n).unwrap_or(i64::MAX)),
        );
    let lines: Vec<String> = report
        .lines
        .iter()
        .enumerate()
        .filter(|(_, info)| !info.pv.is_empty())
        .map(|(k, info)| line_json(k, info))
        .collect();
    object
        .raw("lines", &format!("[{}]", lines.join(",")))
        .bool("game_over", false)
        .raw("result", "null")
        .raw("end", "null");
    object.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_written_as_the_protocol_writes_them() {
        assert_eq!(score_text(Some(Score::Centistones(-12))), "cp -12");
        assert_eq!(score_text(Some(Score::Mate(3))), "mate 3");
        assert_eq!(score_text(None), "none");
        let mut object = json::Object::new();
        score_fields(&mut object, "before", Some(Score::Mate(-2)));
        assert_eq!(object.finish(), r#"{"before_cp":null,"before_mate":-2}"#);
    }
}
