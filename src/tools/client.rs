//! Driving an engine process through the protocol, exactly as an outside
//! program would: start it, send lines, read lines with deadlines, and tell
//! a crash (end of output) from a hang (no answer in time).
//!
//! The match runner, `analyse` and `play` all talk to engines this way, so
//! they work with any program that speaks `protocol.md`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::search::score::Reported;

/// How to start an engine and set it up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program and its arguments, split on white space.
    pub command: Vec<String>,
    /// The name used in reports and game records.
    pub name: String,
    /// `setoption` pairs sent after the handshake.
    pub options: Vec<(String, String)>,
}

/// Why talking to an engine failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientError {
    #[error("cannot start '{command}': {reason}")]
    Start { command: String, reason: String },
    #[error("engine {0} exited (end of its output)")]
    Exited(String),
    #[error("engine {name} did not answer within {millis} ms (waiting for '{waiting_for}')")]
    Timeout {
        name: String,
        millis: u128,
        waiting_for: String,
    },
    #[error("cannot write to engine {name}: {reason}")]
    Write { name: String, reason: String },
}

/// A running engine process.
pub struct EngineProcess {
    pub name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Lines read while waiting for something else, kept for the caller.
    pub transcript: Vec<String>,
    /// Keep at most this many transcript lines (the most recent).
    transcript_limit: usize,
}

impl EngineProcess {
    /// Starts the engine's program with piped stdin/stdout (stderr is
    /// discarded so that a chatty engine cannot block on a full pipe).
    pub fn start(spec: &EngineSpec) -> Result<EngineProcess, ClientError> {
        let (program, args) = spec
            .command
            .split_first()
            .ok_or_else(|| ClientError::Start {
                command: String::new(),
                reason: "empty command".to_string(),
            })?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ClientError::Start {
                command: spec.command.join(" "),
                reason: e.to_string(),
            })?;
        let stdin = child.stdin.take().ok_or_else(|| ClientError::Start {
            command: spec.command.join(" "),
            reason: "no stdin pipe".to_string(),
        })?;
        let stdout = child.stdout.take().ok_or_else(|| ClientError::Start {
            command: spec.command.join(" "),
            reason: "no stdout pipe".to_string(),
        })?;
        let (sender, lines) = mpsc::channel();
        std::thread::Builder::new()
            .name(format!("read {}", spec.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buffer = Vec::new();
                loop {
                    buffer.clear();
                    match reader.read_until(b'\n', &mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buffer).trim_end().to_string();
                            if sender.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .map_err(|e| ClientError::Start {
                command: spec.command.join(" "),
                reason: e.to_string(),
            })?;
        Ok(EngineProcess {
            name: spec.name.clone(),
            child,
            stdin,
            lines,
            transcript: Vec::new(),
            transcript_limit: 200,
        })
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        log::debug!("{} << {line}", self.name);
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| ClientError::Write {
                name: self.name.clone(),
                reason: e.to_string(),
            })
    }

    /// The next line, waiting until `deadline`.
    pub fn recv_until(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
    ) -> Result<String, ClientError> {
        let timeout = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                log::debug!("{} >> {line}", self.name);
                if self.transcript.len() >= self.transcript_limit {
                    self.transcript.remove(0);
                }
                self.transcript.push(line.clone());
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout {
                name: self.name.clone(),
                millis: timeout.as_millis(),
                waiting_for: waiting_for.to_string(),
            }),
            Err(RecvTimeoutError::Disconnected) => Err(ClientError::Exited(self.name.clone())),
        }
    }

    /// Reads lines until one whose first token is `token`, returning it and
    /// the lines before it.
    pub fn wait_for(
        &mut self,
        token: &str,
        timeout: Duration,
    ) -> Result<(String, Vec<String>), ClientError> {
        let deadline = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let line = self.recv_until(deadline, token)?;
            if line.split_whitespace().next() == Some(token) {
                return Ok((line, before));
            }
            before.push(line);
        }
    }

    /// `uci` ... `uciok`, the options, then `isready` ... `readyok`.
    pub fn handshake(
        &mut self,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<(), ClientError> {
        self.send("uci")?;
        self.wait_for("uciok", timeout)?;
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.sync(timeout)
    }

    /// `isready` ... `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.send("isready")?;
        self.wait_for("readyok", timeout).map(|_| ())
    }

    /// Sends `quit` and waits a little for the process to exit, then kills it.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Ends the process at once.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Whether the process has exited.
    pub fn has_exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if !self.has_exited() {
            self.kill();
        }
    }
}

/// The `go` parameters for a tool's `--depth`, `--nodes` and `--movetime`
/// (ms), or `default` when none of them is given.
pub fn go_params(
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    default: &str,
) -> String {
    let mut params = Vec::new();
    if let Some(depth) = depth {
        params.push(format!("depth {depth}"));
    }
    if let Some(nodes) = nodes {
        params.push(format!("nodes {nodes}"));
    }
    if let Some(movetime) = movetime {
        params.push(format!("movetime {movetime}"));
    }
    if params.is_empty() {
        params.push(default.to_string());
    }
    params.join(" ")
}

/// The parts of an `info` line a tool needs.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct InfoLine {
    pub depth: Option<u32>,
    pub multipv: Option<usize>,
    pub score: Option<Reported>,
    pub bound: bool,
    pub nodes: Option<u64>,
    pub time_ms: Option<u64>,
    pub pv: Vec<String>,
}

impl InfoLine {
    /// Parses an `info` line; `None` for `info string` and other lines.
    pub fn parse(line: &str) -> Option<InfoLine> {
        let mut tokens = line.split_whitespace();
        if tokens.next() != Some("info") {
            return None;
        }
        let tokens: Vec<&str> = tokens.collect();
        if tokens.first() == Some(&"string") {
            return None;
        }
        let mut info = InfoLine::default();
        let mut i = 0;
        while i < tokens.len() {
            let next = tokens.get(i + 1).copied();
            match tokens[i] {
                "depth" => info.depth = next.and_then(|t| t.parse().ok()),
                "multipv" => info.multipv = next.and_then(|t| t.parse().ok()),
                "nodes" => info.nodes = next.and_then(|t| t.parse().ok()),
                "time" => info.time_ms = next.and_then(|t| t.parse().ok()),
                "score" => {
                    let value = tokens.get(i + 2).and_then(|t| t.parse::<i32>().ok());
                    info.score = match (next, value) {
                        (Some("cp"), Some(v)) => Some(Reported::Centistones(v)),
                        (Some("mate"), Some(v)) => Some(Reported::Mate(v)),
                        _ => None,
                    };
                    i += 1;
                }
                "lowerbound" | "upperbound" => {
                    info.bound = true;
                    i += 1;
                    continue;
                }
                "pv" => {
                    info.pv = tokens[i + 1..].iter().map(|t| t.to_string()).collect();
                    break;
                }
                _ => {
                    i += 1;
                    continue;
                }
            }
            i += 2;
        }
        Some(info)
    }
}

/// What one `go` gave back: the `bestmove` line and, for each MultiPV index,
/// the last exact `info` line with a principal variation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchReport {
    /// The move of the `bestmove` line (`0000` when the game is over).
    pub bestmove: String,
    /// The `ponder` move, when the engine gave one.
    pub ponder: Option<String>,
    /// Index 0 is `multipv 1` (an info line without `multipv` counts as 1).
    pub lines: Vec<InfoLine>,
    /// The node count of the last `info` line that gave one.
    pub nodes: Option<u64>,
    /// The `info string` lines read during the search, without `info string `.
    pub strings: Vec<String>,
}

impl SearchReport {
    /// The best line (`multipv 1`), if the engine reported one.
    pub fn best_line(&self) -> Option<&InfoLine> {
        self.lines.first().filter(|line| !line.pv.is_empty())
    }
}

impl EngineSpec {
    /// An engine started with `command` split on white space, or, with no
    /// command, this very program with no arguments (it then speaks the
    /// protocol).
    pub fn from_command(command: Option<&str>, name: &str) -> Result<EngineSpec, ClientError> {
        let command: Vec<String> = match command {
            Some(text) => text.split_whitespace().map(str::to_string).collect(),
            None => {
                let exe = std::env::current_exe().map_err(|e| ClientError::Start {
                    command: "<this program>".to_string(),
                    reason: e.to_string(),
                })?;
                vec![exe.to_string_lossy().into_owned()]
            }
        };
        if command.is_empty() {
            return Err(ClientError::Start {
                command: String::new(),
                reason: "empty command".to_string(),
            });
        }
        Ok(EngineSpec {
            command,
            name: name.to_string(),
            options: Vec::new(),
        })
    }
}

impl EngineProcess {
    /// Sends `go <params>` and reads up to its `bestmove`, collecting the
    /// search's `info` lines (bound lines from aspiration failures are
    /// skipped: their scores are not exact).
    pub fn go(&mut self, params: &str, timeout: Duration) -> Result<SearchReport, ClientError> {
        let deadline = Instant::now() + timeout;
        self.send(format!("go {params}").trim_end())?;
        let mut report = SearchReport::default();
        loop {
            let line = self.recv_until(deadline, "bestmove")?;
            let mut tokens = line.split_whitespace();
            match tokens.next() {
                Some("bestmove") => {
                    report.bestmove = tokens.next().unwrap_or("0000").to_string();
                    if tokens.next() == Some("ponder") {
                        report.ponder = tokens.next().map(str::to_string);
                    }
                    return Ok(report);
                }
                Some("info") => {
                    if let Some(text) = line.trim_start().strip_prefix("info string ") {
                        report.strings.push(text.to_string());
                        continue;
                    }
                    let Some(info) = InfoLine::parse(&line) else {
                        continue;
                    };
                    if info.nodes.is_some() {
                        report.nodes = info.nodes;
                    }
                    if info.bound || info.pv.is_empty() || info.score.is_none() {
                        continue;
                    }
                    let index = info.multipv.unwrap_or(1).max(1) - 1;
                    if report.lines.len() <= index {
                        report.lines.resize(index + 1, InfoLine::default());
                    }
                    report.lines[index] = info;
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_parse() {
        let info = InfoLine::parse(
            "info depth 7 seldepth 9 multipv 2 score cp -35 lowerbound nodes 1234 nps 5 hashfull 0 time 12 pv 3 9 1",
        )
        .unwrap();
        assert_eq!(info.depth, Some(7));
        assert_eq!(info.multipv, Some(2));
        assert_eq!(info.score, Some(Reported::Centistones(-35)));
        assert!(info.bound);
        assert_eq!(info.nodes, Some(1234));
        assert_eq!(info.pv, vec!["3", "9", "1"]);
        let mate = InfoLine::parse("info depth 3 score mate -2 pv 1").unwrap();
        assert_eq!(mate.score, Some(Reported::Mate(-2)));
        assert_eq!(InfoLine::parse("info string hello"), None);
    }
}
