//! `tuzdyk analyse`: batch analysis of positions and review of games,
//! driving an engine through the protocol as an outside program would.
//!
//! Input is read from files, or from standard input when none is given (or
//! `-`), and each source is sorted by its first significant line: a `[` tag
//! or a numbered move (`1.`) means PlayOK game records, anything else TFEN
//! positions, one a line. Positions are analysed as they are read, one output
//! line each, flushed at once, so the tool fits a pipeline; records are
//! reviewed game by game (the review is `tuzdyk_analysis`'s), or, with
//! `--mistakes`, made into exercises ([`mistakes`]). Standard output carries only
//! results; problems with the input go to standard error, one line each, and
//! make the exit status 1 once everything else has been analysed.

mod json;
mod mistakes;
mod review;

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::PathBuf;

use tuzdyk_analysis::{AnalysisError, DEFAULT_THRESHOLDS, Mark, Searcher};
use tuzdyk_notation::console::{self, OutputError};
use tuzdyk_notation::ending::Ending;
use tuzdyk_notation::record::result_text;
use tuzdyk_notation::source::{self, SourceKind};
use tuzdyk_notation::{excerpt, tfen};
use tuzdyk_protocol::line::{Line, read_line};
use tuzdyk_protocol::{ClientError, EngineOption, MAX_LINE_BYTES, Score, SearchReport};
use tuzdyk_rules::{GameEnd, Move, Position, Side};

use crate::{EngineCmd, SearchLimits, option_range};
use json::{LineJson, PositionJson};
use mistakes::Selection;

/// The depth searched when no limit is given.
pub const DEFAULT_DEPTH: u32 = 16;

/// Analyse TFEN positions (one a line) or review PlayOK game records.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Files of TFEN positions or PlayOK game records; none, or `-`, reads
    /// standard input.
    pub files: Vec<PathBuf>,
    /// Each position's search (with none, depth 16).
    #[command(flatten)]
    pub limits: SearchLimits,
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
    #[arg(long, value_name = "CP", default_value_t = DEFAULT_THRESHOLDS[0])]
    pub inaccuracy: u32,
    /// Review: a move losing at least this many centi-stones is a mistake.
    #[arg(long, value_name = "CP", default_value_t = DEFAULT_THRESHOLDS[1])]
    pub mistake: u32,
    /// Review: a move losing at least this many centi-stones is a blunder.
    #[arg(long, value_name = "CP", default_value_t = DEFAULT_THRESHOLDS[2])]
    pub blunder: u32,
    /// Review game records (files only, unless with --json), then make an
    /// exercise of each mistake and blunder: the position before it, to
    /// find a better move in (see README).
    #[arg(long)]
    pub mistakes: bool,
    /// With --mistakes: only the moves of the player with this name (the
    /// White or Black tag).
    #[arg(
        long,
        value_name = "NAME",
        requires = "mistakes",
        conflicts_with = "side"
    )]
    pub player: Option<String>,
    /// With --mistakes: only White's or Black's moves.
    #[arg(long, requires = "mistakes", value_parser = side_parser())]
    pub side: Option<Side>,
    /// With --mistakes: inaccuracies make exercises too.
    #[arg(long, requires = "mistakes")]
    pub inaccuracies: bool,
    #[command(flatten)]
    pub engine: EngineCmd,
}

/// `--side`: `white` or `black`.
fn side_parser() -> impl clap::builder::TypedValueParser<Value = Side> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Side::BOTH.map(Side::key))
        .try_map(|key: String| Side::from_key(&key).ok_or("a side is white or black"))
}

impl Args {
    /// The limits of every search.
    fn limits(&self) -> SearchLimits {
        self.limits.or(SearchLimits::depth(DEFAULT_DEPTH))
    }
}

/// Why `analyse` failed.
#[derive(Debug, thiserror::Error)]
pub enum AnalyseError {
    #[error(
        "thresholds must rise: --inaccuracy {inaccuracy} <= --mistake {mistake} <= --blunder {blunder}"
    )]
    Thresholds {
        inaccuracy: u32,
        mistake: u32,
        blunder: u32,
    },
    #[error(
        "--mistakes reads the answers from standard input: give the games as files (or add --json)"
    )]
    MistakesFromStdin,
    /// The engine cannot be started, or failed.
    #[error(transparent)]
    Engine(#[from] AnalysisError),
    /// Input lines or games that could not be analysed, each reported.
    #[error("{count} bad input{} (see above)", if *.count == 1 { "" } else { "s" })]
    BadInput { count: usize },
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl AnalyseError {
    /// Bad input is 1 (everything else was analysed); a command line or an
    /// engine that cannot work is 2.
    pub fn status(&self) -> u8 {
        match self {
            AnalyseError::BadInput { .. } => 1,
            _ => 2,
        }
    }
}

impl From<ClientError> for AnalyseError {
    fn from(error: ClientError) -> AnalyseError {
        AnalyseError::Engine(error.into())
    }
}

/// Why the run stops early.
#[derive(Debug)]
pub(crate) enum Stop {
    /// Standard output or error cannot be written (`| head` closed it).
    Output(OutputError),
    /// The engine failed (exited, hung, or cannot be written to).
    Engine(AnalysisError),
}

impl From<AnalysisError> for Stop {
    fn from(error: AnalysisError) -> Stop {
        Stop::Engine(error)
    }
}

impl From<OutputError> for Stop {
    fn from(error: OutputError) -> Stop {
        Stop::Output(error)
    }
}

/// Writes one result line to standard output, at once.
fn emit(line: &str) -> Result<(), Stop> {
    Ok(console::out(line)?)
}

/// Runs the tool. A closed pipe ends it quietly, with the status of what
/// it found so far.
///
/// # Errors
/// [`AnalyseError`], after everything else has been analysed for bad input.
pub fn run(args: Args) -> Result<(), AnalyseError> {
    if !(args.inaccuracy <= args.mistake && args.mistake <= args.blunder) {
        return Err(AnalyseError::Thresholds {
            inaccuracy: args.inaccuracy,
            mistake: args.mistake,
            blunder: args.blunder,
        });
    }
    let sources: Vec<PathBuf> = if args.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.files.clone()
    };
    if args.mistakes && !args.json && sources.iter().any(|path| path.as_os_str() == "-") {
        return Err(AnalyseError::MistakesFromStdin);
    }
    let options = [
        (EngineOption::Threads, args.threads),
        (EngineOption::Hash, args.hash),
        (EngineOption::MultiPv, args.multipv),
    ];
    let engine = Searcher::start(&args.engine.spec()?, &options, args.limits())?;
    let mut analyser = Analyser {
        engine,
        json: args.json,
        thresholds: [args.inaccuracy, args.mistake, args.blunder].map(|t| t as i32),
        bad_inputs: 0,
    };
    let mut stopped = None;
    if args.mistakes {
        let selection = Selection {
            player: args.player.clone(),
            side: args.side,
            lowest: if args.inaccuracies {
                Mark::Inaccuracy
            } else {
                Mark::Mistake
            },
        };
        stopped = analyser.mistakes(&sources, &selection).err();
    }
    for path in sources.iter().filter(|_| !args.mistakes) {
        let result = if path.as_os_str() == "-" {
            let stdin = io::stdin();
            analyser.process("stdin", stdin.lock())
        } else {
            let name = path.display().to_string();
            match File::open(path) {
                Ok(file) => analyser.process(&name, BufReader::new(file)),
                Err(e) => analyser.bad(&format!("{name}: cannot read: {e}")),
            }
        };
        if let Err(stop) = result {
            stopped = Some(stop);
            break;
        }
    }
    let bad_inputs = analyser.bad_inputs;
    analyser.engine.quit();
    match stopped {
        Some(Stop::Engine(e)) => Err(AnalyseError::Engine(e)),
        Some(Stop::Output(error)) if !error.reader_gone() => Err(error.into()),
        _ if bad_inputs > 0 => Err(AnalyseError::BadInput { count: bad_inputs }),
        _ => Ok(()),
    }
}

/// The engine, the search settings and the running count of bad inputs.
pub(crate) struct Analyser {
    engine: Searcher,
    json: bool,
    /// Inaccuracy, mistake and blunder thresholds in centi-stones.
    thresholds: [i32; 3],
    bad_inputs: usize,
}

impl Analyser {
    /// Reports a bad input on stderr and counts it.
    fn bad(&mut self, message: &str) -> Result<(), Stop> {
        self.bad_inputs += 1;
        Ok(console::err(message)?)
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
            let line = match read_line(&mut reader, MAX_LINE_BYTES) {
                Ok(Some(Line::Text(line))) => line,
                Ok(Some(Line::TooLong { bytes })) => {
                    number += 1;
                    self.bad(&format!(
                        "{source}:{number}: line of {bytes} bytes is too long (at most {MAX_LINE_BYTES})"
                    ))?;
                    continue;
                }
                Ok(None) => break,
                Err(e) => return self.bad(&format!("{source}:{}: cannot read: {e}", number + 1)),
            };
            number += 1;
            let text = line.trim();
            if mode.is_none() {
                if !source::is_significant(text) {
                    continue;
                }
                mode = Some(if source::starts_records(text) {
                    chunk_start = number;
                    SourceKind::Records
                } else {
                    SourceKind::Positions
                });
            }
            match mode {
                Some(SourceKind::Records) => {
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
                    if source::is_significant(text) {
                        self.position_line(source, number, text)?;
                    }
                }
            }
        }
        if mode == Some(SourceKind::Records) && !chunk.trim().is_empty() {
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
                    self.bad(&format!("{source}:{first_line}: {e}"))?;
                }
            }
        }
        Ok(())
    }

    /// Analyses one TFEN line of the input.
    fn position_line(&mut self, source: &str, number: usize, text: &str) -> Result<(), Stop> {
        let pos = if text == "startpos" {
            Position::startpos()
        } else {
            match tfen::parse(text) {
                Ok(pos) => pos,
                Err(e) => {
                    return self.bad(&format!(
                        "{source}:{number}: invalid TFEN '{}': {e}",
                        excerpt(text)
                    ));
                }
            }
        };
        let fen = tfen::write(&pos);
        if let Some(ending) = Ending::of(&pos) {
            let line = if self.json {
                json::line(&PositionJson {
                    kind: "position",
                    source,
                    line: number,
                    fen: &fen,
                    bestmove: "0000",
                    ponder: None,
                    score_cp: None,
                    score_mate: None,
                    depth: Some(0),
                    pv: Vec::new(),
                    nodes: Some(0),
                    lines: Vec::new(),
                    game_over: true,
                    result: Some(result_text(Some(ending.result))),
                    end: Some(game_end_text(ending.end)),
                })
            } else {
                format!("{fen}  bestmove 0000  game over {ending}")
            };
            return emit(&line);
        }
        // A fresh state for each position: with one thread and a depth or
        // node limit, the result does not depend on what came before.
        self.engine.new_game()?;
        let report = self.engine.search(&pos, None)?;
        if let Some(message) = report.position_error() {
            return self.bad(&format!(
                "{source}:{number}: the engine rejected the position: {}",
                excerpt(message)
            ));
        }
        let legal = report
            .best()
            .ok()
            .and_then(|best| best.mv)
            .is_some_and(|mv| pos.is_legal(mv));
        if !legal {
            console::err(format_args!(
                "{source}:{number}: warning: the engine's bestmove '{}' is not legal here",
                excerpt(report.bestmove_token())
            ))?;
        }
        let line = if self.json {
            position_json(source, number, &fen, &report)
        } else {
            position_plain(&fen, &report)
        };
        emit(&line)
    }
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

/// Moves separated by spaces: `6 9 1`.
pub(crate) fn moves_text(moves: &[Move]) -> String {
    json::moves(moves).join(" ")
}

fn position_json(source: &str, number: usize, fen: &str, report: &SearchReport) -> String {
    let best = report.best_line();
    let (score_cp, score_mate) = json::split(best.and_then(|l| l.score));
    json::line(&PositionJson {
        kind: "position",
        source,
        line: number,
        fen,
        bestmove: report.bestmove_token(),
        ponder: report
            .best()
            .ok()
            .and_then(|best| best.ponder)
            .map(|mv| mv.to_string()),
        score_cp,
        score_mate,
        depth: best.and_then(|l| l.depth),
        pv: best.map_or(Vec::new(), |l| json::moves(&l.pv)),
        nodes: report.nodes,
        lines: LineJson::all(report),
        game_over: false,
        result: None,
        end: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_written_as_the_protocol_writes_them() {
        assert_eq!(score_text(Some(Score::Centistones(-12))), "cp -12");
        assert_eq!(score_text(Some(Score::Mate(3))), "mate 3");
        assert_eq!(score_text(None), "none");
    }
}
