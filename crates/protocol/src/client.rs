//! Driving an engine process through the protocol, exactly as an outside
//! program would: start it, do the handshake, send positions and searches,
//! read lines with deadlines, and tell a crash (end of output) from a hang
//! (no answer in time).
//!
//! The match runner, `analyse`, `play` and the GUI all talk to engines this
//! way, so they work with any program that speaks `protocol.md`.

use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tuzdyk_notation::tfen;
use tuzdyk_rules::{Game, Move, Position};

use crate::MAX_LINE_BYTES;
use crate::go::Go;
use crate::info::{BestMove, BestMoveError, InfoLine};
use crate::line::{Line, read_line};

/// How to start an engine and set it up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program and its arguments, split on white space.
    pub command: Vec<String>,
    /// The name used in reports and game records.
    pub name: String,
    /// `setoption` pairs sent after the handshake (an empty value sends none,
    /// for a button).
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

impl ClientError {
    /// Whether the engine stopped answering in time (rather than exiting or
    /// failing to start).
    pub fn is_timeout(&self) -> bool {
        matches!(self, ClientError::Timeout { .. })
    }
}

impl EngineSpec {
    /// An engine started with `command` split on white space, or, with no
    /// command, this very program with no arguments (it then speaks the
    /// protocol).
    ///
    /// # Errors
    /// [`ClientError::Start`] for an empty command, or when this program's
    /// path cannot be found.
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

/// The `position` line for a game: `position startpos|fen <TFEN> [moves ...]`.
///
/// ```
/// use tuzdyk_protocol::client::position_line;
/// use tuzdyk_rules::{Game, Move, Position};
///
/// let game = Game::replay(Position::startpos(), [Move::from_number(6).unwrap()]).unwrap();
/// assert_eq!(position_line(game.start(), game.moves()), "position startpos moves 6");
/// ```
pub fn position_line(start: &Position, moves: &[Move]) -> String {
    let mut line = if *start == Position::startpos() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", tfen::write(start))
    };
    if !moves.is_empty() {
        line.push_str(" moves");
        for mv in moves {
            line.push_str(&format!(" {mv}"));
        }
    }
    line
}

/// What the handshake told about the engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineId {
    /// From `id name`, when given.
    pub name: Option<String>,
    pub author: Option<String>,
    /// The `option name ...` lines, as sent.
    pub options: Vec<String>,
    /// `info string error` lines answered to the options set (rejected options).
    pub errors: Vec<String>,
}

/// What one `go` gave back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport {
    /// The `bestmove` line as read.
    pub bestmove_line: String,
    /// The last exact `info` line with a principal variation for each
    /// MultiPV index (index 0 is `multipv 1`).
    pub lines: Vec<InfoLine>,
    /// The node count of the last `info` line that gave one.
    pub nodes: Option<u64>,
    /// The `info string` lines read during the search, without `info string `.
    pub strings: Vec<String>,
}

impl SearchReport {
    /// Counts an `info` line: its node count, and its line when it is an
    /// exact score with a principal variation.
    fn keep(&mut self, info: InfoLine) {
        if info.nodes.is_some() {
            self.nodes = info.nodes;
        }
        if info.bound.is_some() || info.pv.is_empty() || info.score.is_none() {
            return;
        }
        let index = info.line_number() - 1;
        if self.lines.len() <= index {
            self.lines.resize(index + 1, InfoLine::default());
        }
        self.lines[index] = info;
    }

    /// The move of the `bestmove` line.
    ///
    /// # Errors
    /// [`BestMoveError`] when the line names no hole (nor `0000`).
    pub fn best(&self) -> Result<BestMove, BestMoveError> {
        self.bestmove_line.parse()
    }

    /// The `bestmove` token as sent (`?` if there was none), for messages.
    pub fn bestmove_token(&self) -> &str {
        self.bestmove_line.split_whitespace().nth(1).unwrap_or("?")
    }

    /// The engine's complaint about the position sent before this search
    /// (`info string error: position ...`), if it made one.
    pub fn position_error(&self) -> Option<&str> {
        self.strings
            .iter()
            .map(String::as_str)
            .find(|s| s.starts_with("error: position"))
    }

    /// The best line (`multipv 1`), if the engine reported one.
    pub fn best_line(&self) -> Option<&InfoLine> {
        self.lines.first().filter(|line| !line.pv.is_empty())
    }
}

/// Writes lines to an engine; cheap to clone, so that another thread can
/// send `stop` while one waits for `bestmove`.
#[derive(Clone)]
pub struct LineSender {
    name: String,
    stdin: Arc<Mutex<ChildStdin>>,
}

impl LineSender {
    /// Sends one line.
    ///
    /// # Errors
    /// [`ClientError::Write`] when the engine's input is closed.
    pub fn send(&self, line: &str) -> Result<(), ClientError> {
        log::debug!("{} << {line}", self.name);
        let mut stdin = match self.stdin.lock() {
            Ok(stdin) => stdin,
            Err(poisoned) => poisoned.into_inner(),
        };
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| ClientError::Write {
                name: self.name.clone(),
                reason: e.to_string(),
            })
    }
}

/// A running engine process.
pub struct EngineProcess {
    pub name: String,
    child: Child,
    sender: LineSender,
    lines: Receiver<String>,
    /// The most recent lines read (at most [`TRANSCRIPT_LINES`]).
    pub transcript: Vec<String>,
}

/// How often [`EngineProcess::search_watched`] asks for its deadline again.
pub const WATCH_INTERVAL: Duration = Duration::from_millis(100);

/// Lines of an engine's output kept for messages.
pub const TRANSCRIPT_LINES: usize = 200;

impl EngineProcess {
    /// Starts the engine's program with piped stdin/stdout (stderr is
    /// discarded so that a chatty engine cannot block on a full pipe).
    ///
    /// # Errors
    /// [`ClientError::Start`] when the program cannot be run.
    pub fn start(spec: &EngineSpec) -> Result<EngineProcess, ClientError> {
        let start_error = |reason: String| ClientError::Start {
            command: spec.command.join(" "),
            reason,
        };
        let (program, args) = spec
            .command
            .split_first()
            .ok_or_else(|| start_error("empty command".to_string()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| start_error(e.to_string()))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let (Some(stdin), Some(stdout)) = (stdin, stdout) else {
            let _ = child.kill();
            return Err(start_error("no pipes to the process".to_string()));
        };
        let (sender, lines) = mpsc::channel();
        let name = spec.name.clone();
        let reader = std::thread::Builder::new()
            .name(format!("read {}", spec.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let line = match read_line(&mut reader, MAX_LINE_BYTES) {
                        Ok(Some(Line::Text(line))) => line.trim_end().to_string(),
                        // No protocol line is that long: it is dropped, so
                        // that an engine gone wrong cannot fill the memory.
                        Ok(Some(Line::TooLong { bytes })) => {
                            log::warn!("{name}: a line of {bytes} bytes, ignored");
                            continue;
                        }
                        Ok(None) | Err(_) => break,
                    };
                    if sender.send(line).is_err() {
                        break;
                    }
                }
            });
        if let Err(e) = reader {
            let _ = child.kill();
            return Err(start_error(e.to_string()));
        }
        Ok(EngineProcess {
            name: spec.name.clone(),
            child,
            sender: LineSender {
                name: spec.name.clone(),
                stdin: Arc::new(Mutex::new(stdin)),
            },
            lines,
            transcript: Vec::new(),
        })
    }

    /// Starts the engine and does the handshake with `spec`'s options.
    ///
    /// # Errors
    /// [`ClientError`] when it cannot be started or does not finish the
    /// handshake within `timeout` (the process is then killed).
    pub fn launch(
        spec: &EngineSpec,
        timeout: Duration,
    ) -> Result<(EngineProcess, EngineId), ClientError> {
        let mut process = EngineProcess::start(spec)?;
        match process.handshake(&spec.options, timeout) {
            Ok(id) => Ok((process, id)),
            Err(e) => {
                process.kill();
                Err(e)
            }
        }
    }

    /// A handle that sends lines to this engine from any thread.
    pub fn sender(&self) -> LineSender {
        self.sender.clone()
    }

    /// Sends one line.
    ///
    /// # Errors
    /// [`ClientError::Write`] when the engine's input is closed.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        self.sender.send(line)
    }

    /// The next line, waiting until `deadline`.
    ///
    /// # Errors
    /// [`ClientError::Timeout`] at the deadline, [`ClientError::Exited`] at
    /// the end of the engine's output.
    pub fn recv_until(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
    ) -> Result<String, ClientError> {
        let timeout = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                log::debug!("{} >> {line}", self.name);
                if self.transcript.len() >= TRANSCRIPT_LINES {
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
    ///
    /// # Errors
    /// As [`EngineProcess::recv_until`].
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

    /// `uci` ... `uciok` (collecting the `id` and `option` lines), the
    /// options, then `isready` ... `readyok`.
    ///
    /// # Errors
    /// As [`EngineProcess::recv_until`], each answer within `timeout`.
    pub fn handshake(
        &mut self,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<EngineId, ClientError> {
        self.send("uci")?;
        let (_, lines) = self.wait_for("uciok", timeout)?;
        let mut id = EngineId::default();
        for line in lines {
            if let Some(name) = line.strip_prefix("id name ") {
                id.name = Some(name.trim().to_string());
            } else if let Some(author) = line.strip_prefix("id author ") {
                id.author = Some(author.trim().to_string());
            } else if line.starts_with("option ") {
                id.options.push(line);
            }
        }
        for (name, value) in options {
            if value.is_empty() {
                self.send(&format!("setoption name {name}"))?;
            } else {
                self.send(&format!("setoption name {name} value {value}"))?;
            }
        }
        self.send("isready")?;
        let (_, lines) = self.wait_for("readyok", timeout)?;
        id.errors = lines
            .into_iter()
            .filter(|line| line.starts_with("info string error"))
            .collect();
        Ok(id)
    }

    /// `isready` ... `readyok`.
    ///
    /// # Errors
    /// As [`EngineProcess::recv_until`].
    pub fn sync(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.send("isready")?;
        self.wait_for("readyok", timeout).map(|_| ())
    }

    /// Sends the position of `game`.
    ///
    /// # Errors
    /// [`ClientError::Write`] when the engine's input is closed.
    pub fn set_position(&mut self, game: &Game) -> Result<(), ClientError> {
        self.send(&position_line(game.start(), game.moves()))
    }

    /// Sends `go` and reads up to its `bestmove`, waiting until `deadline`.
    /// Each `info` line is handed to `on_info` as it arrives; the report keeps
    /// the last exact line of each MultiPV index (bound lines from aspiration
    /// failures are not exact).
    ///
    /// # Errors
    /// As [`EngineProcess::recv_until`].
    pub fn search(
        &mut self,
        go: &Go,
        deadline: Instant,
        on_info: impl FnMut(&InfoLine),
    ) -> Result<SearchReport, ClientError> {
        self.search_watched(go, || deadline, on_info)
    }

    /// [`EngineProcess::search`] with a deadline that may move while the
    /// search runs: `deadline` is asked again at least every
    /// [`WATCH_INTERVAL`], so that a caller who sent `stop` can give the
    /// engine only a short grace before calling it hung.
    ///
    /// # Errors
    /// As [`EngineProcess::recv_until`]; a timeout says how long was waited.
    pub fn search_watched(
        &mut self,
        go: &Go,
        mut deadline: impl FnMut() -> Instant,
        mut on_info: impl FnMut(&InfoLine),
    ) -> Result<SearchReport, ClientError> {
        self.send(&go.to_string())?;
        let started = Instant::now();
        let mut report = SearchReport {
            bestmove_line: String::new(),
            lines: Vec::new(),
            nodes: None,
            strings: Vec::new(),
        };
        loop {
            let slice = deadline().min(Instant::now() + WATCH_INTERVAL);
            let line = match self.recv_until(slice, "bestmove") {
                Ok(line) => line,
                Err(ClientError::Timeout { .. }) if Instant::now() < deadline() => continue,
                Err(ClientError::Timeout {
                    name, waiting_for, ..
                }) => {
                    return Err(ClientError::Timeout {
                        name,
                        millis: started.elapsed().as_millis(),
                        waiting_for,
                    });
                }
                Err(error) => return Err(error),
            };
            match line.split_whitespace().next() {
                Some("bestmove") => {
                    report.bestmove_line = line;
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
                    on_info(&info);
                    report.keep(info);
                }
                _ => {}
            }
        }
    }

    /// [`EngineProcess::search`] within `timeout`, without watching the lines.
    ///
    /// # Errors
    /// As [`EngineProcess::recv_until`].
    pub fn go(&mut self, go: &Go, timeout: Duration) -> Result<SearchReport, ClientError> {
        self.search(go, Instant::now() + timeout, |_| {})
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

    /// The process id, for tools that watch it.
    pub fn id(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if !self.has_exited() {
            self.kill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_lines_name_the_start_and_the_moves() {
        let start = Position::startpos();
        assert_eq!(position_line(&start, &[]), "position startpos");
        let moves = [Move::from_number(6).unwrap(), Move::from_number(1).unwrap()];
        assert_eq!(position_line(&start, &moves), "position startpos moves 6 1");
        let mut after = start;
        after.play(moves[0]);
        assert_eq!(
            position_line(&after, &moves[1..]),
            format!("position fen {} moves 1", tfen::write(&after))
        );
    }
}
