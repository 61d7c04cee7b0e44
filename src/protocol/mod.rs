//! The text protocol on stdin/stdout (UCI tradition, with the UGI dialect),
//! exactly as `protocol.md` specifies it.
//!
//! [`Session`] reads one command per line and executes it against the
//! [`Engine`]; searches run in the background, so `isready`, `stop`,
//! `ponderhit` and `quit` are answered during a search. All output goes
//! through one [`Output`], which flushes every line.

pub mod command;
pub mod output;

use std::io::BufRead;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::board::{GameResult, Position, Side};
use crate::engine::{Engine, MAX_HASH_MB, MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV, MAX_THREADS};
use crate::eval::{self, FEATURE_NAMES, Weights};
use crate::notation::{excerpt, tfen};
use crate::search::score::Reported;
use crate::search::tt::Bound;
use crate::search::{Level, Reporter, SearchInfo, SearchResult, bench};
use crate::{perft, search};
use command::{Command, Query};
pub use output::Output;

/// The engine's name and version as `id name` gives them.
pub const ENGINE_NAME: &str = concat!("tuzdyk ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the tuzdyk developers";

/// Longest accepted input line; longer lines are rejected whole.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Which dialect the handshake chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Ugi,
}

/// What the loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Prints a search's progress and move in the session's dialect.
struct ProtocolReporter {
    out: Output,
    dialect: Dialect,
}

impl Reporter for ProtocolReporter {
    fn info(&self, info: &SearchInfo) {
        self.out.line(&format_info(info));
    }

    fn best_move(&self, result: &SearchResult) {
        let best = result.best.map_or("0000".to_string(), |m| m.to_string());
        match (self.dialect, result.ponder) {
            (Dialect::Uci, Some(ponder)) => {
                self.out.line(&format!("bestmove {best} ponder {ponder}"))
            }
            _ => self.out.line(&format!("bestmove {best}")),
        }
    }
}

/// An `info` line.
pub fn format_info(info: &SearchInfo) -> String {
    let bound = match info.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} time {}",
        info.depth,
        info.seldepth,
        info.multipv,
        Reported::from_score(info.score),
        bound,
        info.nodes,
        info.nps,
        info.hashfull,
        info.time.as_millis()
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for mv in &info.pv {
            line.push(' ');
            line.push_str(&mv.to_string());
        }
    }
    line
}

/// One protocol conversation.
pub struct Session {
    engine: Engine,
    out: Output,
    dialect: Dialect,
}

impl Session {
    pub fn new(out: Output) -> Session {
        Session {
            engine: Engine::new(),
            out,
            dialect: Dialect::Uci,
        }
    }

    /// Reads commands until `quit` or the end of input. At the end of input
    /// a search that ends by itself (depth, nodes, time) is finished first,
    /// so that `echo "go depth 12" | tuzdyk` gives its full answer; an
    /// infinite or ponder search is stopped, as `quit` would.
    pub fn run(&mut self, input: impl BufRead) {
        let mut input = input;
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match read_line(&mut input, &mut buffer) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    log::error!("cannot read input: {e}");
                    break;
                }
            }
            if buffer.len() > MAX_LINE_BYTES {
                self.out.error(&format!(
                    "line of {} bytes is too long (at most {MAX_LINE_BYTES})",
                    buffer.len()
                ));
                continue;
            }
            let line = String::from_utf8_lossy(&buffer);
            if self.execute_line(&line) == Flow::Quit {
                return;
            }
        }
        if self.engine.search_is_bounded() {
            self.engine.wait();
        }
        self.engine.stop();
    }

    /// Parses and executes one line.
    pub fn execute_line(&mut self, line: &str) -> Flow {
        log::debug!("<< {}", line.trim_end());
        match command::parse(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(command)) => self.execute(command),
            Err(error) => {
                self.out.error(&error.to_string());
                Flow::Continue
            }
        }
    }

    pub fn execute(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => self.handshake(Dialect::Uci),
            Command::Ugi => self.handshake(Dialect::Ugi),
            Command::IsReady => self.out.line("readyok"),
            Command::NewGame => self.engine.new_game(),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position(position) => self.engine.set_position(position),
            Command::Go(limits) => {
                let reporter = Arc::new(ProtocolReporter {
                    out: self.out.clone(),
                    dialect: self.dialect,
                });
                let position = *self.engine.position();
                let unknown: Vec<String> = limits
                    .searchmoves
                    .iter()
                    .filter(|mv| !position.is_legal(**mv))
                    .map(|mv| mv.to_string())
                    .collect();
                if !unknown.is_empty() {
                    self.out.info_string(&format!(
                        "searchmoves: {} not legal here, ignored",
                        unknown.join(" ")
                    ));
                }
                self.engine.go(limits, reporter);
            }
            Command::Stop => self.engine.stop(),
            Command::PonderHit => {
                if !self.engine.ponderhit() {
                    log::debug!("ponderhit without a ponder search");
                }
            }
            Command::Quit => {
                self.engine.stop();
                return Flow::Quit;
            }
            Command::Query(query) => self.query(query),
            Command::Debug => {}
            Command::Display => self.display(),
            Command::Fen => self
                .out
                .line(&format!("fen {}", tfen::write(self.engine.position()))),
            Command::Moves => self.list_moves(),
            Command::Eval => self.show_eval(),
            Command::Perft(depth) => {
                self.engine.stop();
                self.perft(depth);
            }
            Command::Bench(depth) => {
                self.engine.stop();
                self.bench(depth.unwrap_or(bench::DEFAULT_DEPTH));
            }
        }
        Flow::Continue
    }

    fn handshake(&mut self, dialect: Dialect) {
        self.dialect = dialect;
        let options = self.engine.options();
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line(&format!("id author {ENGINE_AUTHOR}"));
        self.out.line(&format!(
            "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
            options.hash_mb
        ));
        self.out.line(&format!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            options.threads
        ));
        self.out.line(&format!(
            "option name MultiPV type spin default {} min 1 max {MAX_MULTIPV}",
            options.multipv
        ));
        self.out.line(&format!(
            "option name MoveOverhead type spin default {} min 0 max {MAX_MOVE_OVERHEAD_MS}",
            options.move_overhead.as_millis()
        ));
        self.out.line(&format!(
            "option name Ponder type check default {}",
            options.ponder
        ));
        let levels: Vec<String> = Level::ALL.iter().map(|l| format!("var {l}")).collect();
        self.out.line(&format!(
            "option name Level type combo default {} {}",
            options.level,
            levels.join(" ")
        ));
        self.out.line("option name Clear Hash type button");
        self.out.line(match dialect {
            Dialect::Uci => "uciok",
            Dialect::Ugi => "ugiok",
        });
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let key = name.to_ascii_lowercase();
        let shown = excerpt(name);
        let needs_value = |out: &Output| {
            out.error(&format!("setoption: option '{shown}' needs a value"));
        };
        match key.as_str() {
            "clear hash" => self.engine.clear_hash(),
            "hash" | "threads" | "multipv" | "moveoverhead" => {
                let Some(value) = value else {
                    return needs_value(&self.out);
                };
                let (min, max) = match key.as_str() {
                    "hash" => (1, MAX_HASH_MB as u64),
                    "threads" => (1, MAX_THREADS as u64),
                    "multipv" => (1, MAX_MULTIPV as u64),
                    _ => (0, MAX_MOVE_OVERHEAD_MS),
                };
                let Some(number) = value.trim().parse::<i64>().ok() else {
                    return self.out.error(&format!(
                        "setoption: {shown} value '{}' is not a number",
                        excerpt(value)
                    ));
                };
                let clamped = number.clamp(min as i64, max as i64) as u64;
                if clamped as i64 != number {
                    self.out.info_string(&format!(
                        "{shown} {number} is out of range {min}..{max}; set to {clamped}"
                    ));
                }
                match key.as_str() {
                    "hash" => {
                        if let Err(e) = self.engine.set_hash(clamped as usize) {
                            self.out.error(&e.to_string());
                        }
                    }
                    "threads" => self.engine.set_threads(clamped as usize),
                    "multipv" => self.engine.set_multipv(clamped as usize),
                    _ => self
                        .engine
                        .set_move_overhead(Duration::from_millis(clamped)),
                }
            }
            "ponder" => match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
                Some("true") => self.engine.set_ponder(true),
                Some("false") => self.engine.set_ponder(false),
                Some(other) => self.out.error(&format!(
                    "setoption: Ponder value '{}' is not true or false",
                    excerpt(other)
                )),
                None => needs_value(&self.out),
            },
            "level" => match value {
                Some(value) => match Level::parse(value) {
                    Some(level) => self.engine.set_level(level),
                    None => {
                        let names: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
                        self.out.error(&format!(
                            "setoption: Level value '{}' is not one of {} (or 1-{})",
                            excerpt(value),
                            names.join(", "),
                            Level::ALL.len()
                        ))
                    }
                },
                None => needs_value(&self.out),
            },
            _ => self
                .out
                .error(&format!("setoption: unknown option '{shown}', ignored")),
        }
    }

    fn query(&self, query: Query) {
        let position = self.engine.position();
        let answer = match query {
            Query::GameOver => position.game_over().is_some().to_string(),
            Query::P1Turn => (position.side_to_move() == Side::White).to_string(),
            Query::Result => match position.result() {
                Some(GameResult::Win(Side::White)) => "p1win".to_string(),
                Some(GameResult::Win(Side::Black)) => "p2win".to_string(),
                Some(GameResult::Draw) => "draw".to_string(),
                None => "none".to_string(),
            },
        };
        self.out.line(&format!("response {answer}"));
    }

    fn display(&self) {
        let position = self.engine.position();
        for line in position.to_string().lines() {
            self.out.line(line);
        }
        self.out.line(&format!("fen {}", tfen::write(position)));
        self.out.line(&format!("key {:016x}", position.key()));
    }

    /// For each legal move: stones sown, where the last one lands and what
    /// the move takes (what a GUI highlights when a player holds a hole).
    fn list_moves(&self) {
        let position = self.engine.position();
        if let Some(result) = position.result() {
            self.out.info_string(&format!(
                "no legal moves: the game is over ({})",
                result.notation()
            ));
            return;
        }
        let us = position.side_to_move();
        for mv in position.legal_moves() {
            let outcome = position.preview(mv);
            let (side, hole) = outcome.landing_hole();
            let mut after = *position;
            after.play(mv);
            self.out.line(&format!(
                "move {mv} sows {} lands {}{hole} captures {} tuzdik {} kazan {}",
                position.stones(us, mv.index()),
                side.tfen_letter(),
                outcome.captured,
                if outcome.tuzdik { "yes" } else { "no" },
                after.kazan(us),
            ));
        }
    }

    fn show_eval(&self) {
        let position = self.engine.position();
        let evaluation = eval::evaluate_with(position, &Weights::DEFAULT);
        for (i, name) in FEATURE_NAMES.iter().enumerate() {
            self.out.line(&format!(
                "eval term {name} value {} cp {}",
                evaluation.features[i], evaluation.terms[i]
            ));
        }
        self.out.line(&format!(
            "eval phase {} total cp {}",
            evaluation.phase, evaluation.score
        ));
    }

    fn perft(&self, depth: u32) {
        let position: Position = *self.engine.position();
        let started = Instant::now();
        let split = perft::divide(&position, depth);
        let nodes: u64 = split.iter().map(|(_, n)| n).sum();
        for (mv, n) in split {
            self.out.line(&format!("{mv} {n}"));
        }
        let elapsed = started.elapsed();
        self.out.line(&format!(
            "depth {depth} nodes {nodes} time {} nps {}",
            elapsed.as_millis(),
            (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64
        ));
    }

    fn bench(&self, depth: u32) {
        let report = search::bench::run(depth, |line| {
            self.out.line(&format!(
                "position {} nodes {} time {} bestmove {}",
                line.index,
                line.nodes,
                line.time.as_millis(),
                line.best
            ));
        });
        self.out
            .line(&format!("{} nodes {} nps", report.nodes, report.nps()));
    }
}

/// Reads up to a newline, keeping at most one byte past the limit so that
/// an endless line cannot exhaust memory. Returns the bytes consumed.
fn read_line(input: &mut impl BufRead, buffer: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut consumed = 0;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(consumed);
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..=i], true),
            None => (available, false),
        };
        let room = (MAX_LINE_BYTES + 1).saturating_sub(buffer.len());
        buffer.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = chunk.len();
        input.consume(used);
        consumed += used;
        if done {
            return Ok(consumed);
        }
    }
}

/// Runs the protocol on stdin/stdout until `quit` or end of input.
pub fn run_stdio() {
    let mut session = Session::new(Output::stdout());
    let stdin = std::io::stdin();
    session.run(stdin.lock());
}
