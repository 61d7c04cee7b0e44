//! Protocol torture: the real binary driven with long random (seeded,
//! deterministic) sequences of valid and invalid commands — every kind of
//! `go`, `stop` (often repeated), `isready`, `position` (valid and invalid),
//! `setoption` (Hash, Threads, MultiPV, Level, bad values), `ucinewgame` in
//! the middle of searches, `ponderhit`, handshakes, queries, and `quit` or
//! end of input at a random point.
//!
//! The test keeps a model of what the engine must have (its position after
//! each valid `position`, which `go`s are still allowed to be running) and
//! checks the whole transcript against protocol.md:
//! - every valid `go` gets exactly one `bestmove`, in order, with a legal
//!   move for the position it was given (within `searchmoves` when they
//!   name a legal move), `0000` exactly when that game is over, a legal
//!   `ponder` reply (never one in UGI), and an `info ... pv` line before it;
//!   every `info` line's PV is legal in its search's position;
//! - every `isready` gets exactly one `readyok`, in order, and by then every
//!   search that an earlier command stopped (`stop`, `position`, `go`,
//!   `setoption`, `ucinewgame`, `perft`) has given its `bestmove`;
//! - `fen` and `query` answer about the model's position (so an invalid
//!   `position` changed nothing), every invalid line gets exactly one
//!   `info string error:` line, every other line is one protocol.md defines;
//! - no panic on stderr, and the process exits with status 0 promptly after
//!   `quit`, or after end of input.
//!
//! Searches are kept small (depth 5, 20,000 nodes, 30 ms, Hash at most 64)
//! so that the whole file runs in well under a minute on a busy two-core
//! machine.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use common::{Kind, classify, join, parse_bestmove, random_moves};
use tuzdyk_notation::tfen;
use tuzdyk_rules::rng::SplitMix64;
use tuzdyk_rules::{GameResult, Move, Position, Side};

/// How long any expected answer may take (a slow, busy machine).
const TIMEOUT: Duration = Duration::from_secs(30);
/// How long the process may take to exit after `quit`.
const QUIT_TIMEOUT: Duration = Duration::from_secs(10);

const P1: &str = "1S,1S,5S,7S,6S,18S,6S,1,t/1S,2S,20S,7S,19S,t,1S,2S,1 42 24 S 11";
const P2: &str = "1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 S 74";
const WIN_NOW: &str = "4,3S,3,1S/1S,7,1S 80 76 S 60";
const FINISHED: [&str; 3] = ["1S,8/9 82 79 N 30", "5S,8/9 80 77 S 40", "9/9 81 81 S 50"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dialect {
    Uci,
    Ugi,
}

/// A valid `go` as the engine must answer it.
#[derive(Clone, Debug)]
struct Search {
    line: String,
    position: Position,
    /// The `searchmoves` that are legal here (empty: any move).
    allowed: Vec<u32>,
    dialect: Dialect,
}

/// An `isready`: by its `readyok`, at least `must_have` bestmoves (of the
/// searches an earlier command stopped), at most `gos_before`.
#[derive(Clone, Copy, Debug)]
struct Ready {
    must_have: usize,
    gos_before: usize,
}

/// The running engine, its transcript and the model of what it must print.
struct Torture {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<std::thread::JoinHandle<String>>,
    transcript: Vec<String>,
    sent: Vec<String>,
    // The model.
    position: Position,
    dialect: Dialect,
    searches: Vec<Search>,
    /// Searches stopped (or replaced) by a command sent so far.
    closed: usize,
    /// Whether the last search ends by itself (so its bestmove can be awaited).
    last_bounded: bool,
    /// A ponder search with a clock: `ponderhit` makes it end by itself.
    last_ponder_with_clock: bool,
    readies: Vec<Ready>,
    fens: Vec<String>,
    responses: Vec<String>,
    handshakes: Vec<&'static str>,
    errors: usize,
    // Counted live while reading.
    bestmoves_read: usize,
    readyoks_read: usize,
}

impl Torture {
    fn start() -> Torture {
        let mut child = common::tuzdyk::<&str>(&[])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the tuzdyk binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        Torture {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr: Some(stderr),
            transcript: Vec::new(),
            sent: Vec::new(),
            position: Position::startpos(),
            dialect: Dialect::Uci,
            searches: Vec::new(),
            closed: 0,
            last_bounded: false,
            last_ponder_with_clock: false,
            readies: Vec::new(),
            fens: Vec::new(),
            responses: Vec::new(),
            handshakes: Vec::new(),
            errors: 0,
            bestmoves_read: 0,
            readyoks_read: 0,
        }
    }

    fn context(&self) -> String {
        let sent: Vec<&String> = self.sent.iter().rev().take(40).collect();
        let read: Vec<&String> = self.transcript.iter().rev().take(60).collect();
        format!(
            "last lines sent (newest first): {sent:#?}\nlast lines read (newest first): {read:#?}"
        )
    }

    fn send_raw(&mut self, bytes: &[u8], shown: String) {
        self.sent.push(shown);
        let stdin = self.stdin.as_mut().expect("stdin is open");
        if let Err(e) = stdin.write_all(bytes).and_then(|()| stdin.flush()) {
            panic!("the engine stopped reading ({e})\n{}", self.context());
        }
    }

    fn send(&mut self, line: &str) {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.send_raw(&bytes, line.to_string());
    }

    /// Takes one line from the engine into the transcript.
    fn take(&mut self, line: String) {
        if line.starts_with("bestmove") {
            self.bestmoves_read += 1;
        } else if line == "readyok" {
            self.readyoks_read += 1;
        }
        self.transcript.push(line);
    }

    /// Reads until `done` holds (or fails after [`TIMEOUT`]: a hang).
    fn read_until(&mut self, what: &str, done: impl Fn(&Torture) -> bool) {
        let deadline = Instant::now() + TIMEOUT;
        while !done(self) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => self.take(line),
                Err(_) => panic!("no {what} within {TIMEOUT:?}\n{}", self.context()),
            }
        }
    }

    /// Takes whatever has arrived, without waiting.
    fn poll(&mut self) {
        while let Ok(line) = self.lines.try_recv() {
            self.take(line);
        }
    }

    // --- Commands, each updating the model.

    /// A command that stops the running search first.
    fn closing(&mut self) {
        self.closed = self.searches.len();
    }

    fn isready(&mut self, wait: bool) {
        self.readies.push(Ready {
            must_have: self.closed,
            gos_before: self.searches.len(),
        });
        self.send("isready");
        if wait {
            let expected = self.readies.len();
            self.read_until("readyok", |t| t.readyoks_read >= expected);
        }
    }

    fn go(&mut self, line: &str, searchmoves: &[u32], bounded: bool, ponder_with_clock: bool) {
        self.closing();
        let allowed = searchmoves
            .iter()
            .copied()
            .filter(|&m| Move::from_number(m).is_some_and(|mv| self.position.is_legal(mv)))
            .collect();
        self.searches.push(Search {
            line: line.to_string(),
            position: self.position,
            allowed,
            dialect: self.dialect,
        });
        self.last_bounded = bounded;
        self.last_ponder_with_clock = ponder_with_clock;
        self.send(line);
    }

    fn position(&mut self, line: &str, position: Position) {
        self.closing();
        self.position = position;
        self.send(line);
    }

    fn invalid(&mut self, line: &str) {
        self.errors += 1;
        self.send(line);
    }

    fn fen(&mut self) {
        self.fens.push(tfen::write(&self.position));
        self.send("fen");
    }

    fn query(&mut self, rng: &mut SplitMix64) {
        let position = self.position;
        let (question, answer) = match rng.below(3) {
            0 => ("gameover", position.game_over().is_some().to_string()),
            1 => (
                "p1turn",
                (position.side_to_move() == Side::White).to_string(),
            ),
            _ => (
                "result",
                match position.result() {
                    Some(GameResult::Win(Side::White)) => "p1win",
                    Some(GameResult::Win(Side::Black)) => "p2win",
                    Some(GameResult::Draw) => "draw",
                    None => "none",
                }
                .to_string(),
            ),
        };
        self.responses.push(format!("response {answer}"));
        self.send(&format!("query {question}"));
    }

    fn handshake(&mut self, dialect: Dialect) {
        self.dialect = dialect;
        let (command, ok) = match dialect {
            Dialect::Uci => ("uci", "uciok"),
            Dialect::Ugi => ("ugi", "ugiok"),
        };
        self.handshakes.push(ok);
        self.send(command);
    }

    /// Waits for the last search's bestmove if it ends by itself.
    fn wait_bestmove(&mut self) {
        if self.last_bounded && self.bestmoves_read < self.searches.len() {
            let expected = self.searches.len();
            self.read_until("bestmove", |t| t.bestmoves_read >= expected);
        }
    }

    /// Ends the session with `quit` (or end of input) and checks the exit.
    fn finish(mut self, quit: bool) -> Torture {
        let started = Instant::now();
        let limit = if quit {
            self.send("quit");
            QUIT_TIMEOUT
        } else {
            // End of input: a bounded search may finish first.
            self.stdin = None;
            TIMEOUT
        };
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("the child can be waited on") {
                break status;
            }
            if started.elapsed() > limit {
                let how = if quit { "quit" } else { "end of input" };
                panic!(
                    "the engine did not exit within {limit:?} of {how}\n{}",
                    self.context()
                );
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        self.stdin = None;
        // Everything it printed: stdout closes when it exits.
        loop {
            match self.lines.recv_timeout(TIMEOUT) {
                Ok(line) => self.take(line),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    panic!("stdout did not close\n{}", self.context())
                }
            }
        }
        let stderr = self.stderr.take().expect("once").join().unwrap_or_default();
        assert!(
            !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
            "a panic on stderr:\n{stderr}\n{}",
            self.context()
        );
        assert!(
            status.success(),
            "exit status {status:?} after {}\nstderr:\n{stderr}\n{}",
            if quit { "quit" } else { "end of input" },
            self.context()
        );
        self
    }

    fn fail(&self, why: String, at: usize) -> ! {
        let from = at.saturating_sub(30);
        panic!(
            "{why}\ntranscript lines {from}..={at}: {:#?}\n{}",
            &self.transcript[from..=at],
            self.context()
        )
    }

    /// Checks the whole transcript against the model.
    fn check(&self) {
        let mut bestmoves = 0usize;
        let mut readyoks = 0usize;
        let mut fens = 0usize;
        let mut responses = 0usize;
        let mut handshakes = Vec::new();
        let mut errors = 0usize;
        let mut saw_pv = vec![false; self.searches.len()];
        for (at, line) in self.transcript.iter().enumerate() {
            let kind = classify(line).unwrap_or_else(|e| self.fail(e, at));
            match kind {
                Kind::Info(info) => {
                    let Some(search) = self.searches.get(bestmoves) else {
                        self.fail(format!("'{line}' with no search running"), at)
                    };
                    let mut p = search.position;
                    for (i, &m) in info.pv.iter().enumerate() {
                        let mv = Move::from_number(m).filter(|&mv| p.is_legal(mv));
                        let Some(mv) = mv else {
                            self.fail(
                                format!(
                                    "pv move {m} of '{line}' is illegal ({} for '{}')",
                                    tfen::write(&search.position),
                                    search.line
                                ),
                                at,
                            )
                        };
                        if i == 0 && !search.allowed.is_empty() && !search.allowed.contains(&m) {
                            self.fail(format!("'{line}' starts outside '{}'", search.line), at);
                        }
                        p.play(mv);
                    }
                    if !info.pv.is_empty() {
                        saw_pv[bestmoves] = true;
                    }
                }
                Kind::BestMove => {
                    let Some(search) = self.searches.get(bestmoves) else {
                        self.fail(format!("'{line}' with no search running"), at)
                    };
                    let where_ = format!("{} for '{}'", tfen::write(&search.position), search.line);
                    let (best, ponder) = parse_bestmove(line).unwrap_or_else(|e| self.fail(e, at));
                    let over = search.position.game_over().is_some();
                    match best {
                        None if over => {}
                        None => {
                            self.fail(format!("'{line}' but the game is not over: {where_}"), at)
                        }
                        Some(_) if over => {
                            self.fail(format!("'{line}' but the game is over: {where_}"), at)
                        }
                        Some(m) => {
                            let mv = Move::from_number(m).expect("a hole");
                            if !search.position.is_legal(mv) {
                                self.fail(format!("'{line}' is illegal: {where_}"), at);
                            }
                            if !search.allowed.is_empty() && !search.allowed.contains(&m) {
                                self.fail(
                                    format!("'{line}' is not among the searchmoves: {where_}"),
                                    at,
                                );
                            }
                            if !saw_pv[bestmoves] {
                                self.fail(
                                    format!("no info line with a pv before '{line}': {where_}"),
                                    at,
                                );
                            }
                            if let Some(reply) = ponder {
                                let mut after = search.position;
                                after.play(mv);
                                let legal =
                                    Move::from_number(reply).is_some_and(|r| after.is_legal(r));
                                if !legal {
                                    self.fail(
                                        format!("the ponder move of '{line}' is illegal: {where_}"),
                                        at,
                                    );
                                }
                            }
                        }
                    }
                    if search.dialect == Dialect::Ugi && ponder.is_some() {
                        self.fail(format!("'{line}' carries ponder in UGI"), at);
                    }
                    bestmoves += 1;
                }
                Kind::ReadyOk => {
                    let Some(ready) = self.readies.get(readyoks) else {
                        self.fail("a readyok without an isready".to_string(), at)
                    };
                    if bestmoves < ready.must_have {
                        self.fail(
                            format!(
                                "readyok #{} after {bestmoves} bestmoves, but {} searches had been stopped before its isready",
                                readyoks + 1,
                                ready.must_have
                            ),
                            at,
                        );
                    }
                    if bestmoves > ready.gos_before {
                        self.fail(
                            format!(
                                "readyok #{} after {bestmoves} bestmoves, but only {} gos came before its isready",
                                readyoks + 1,
                                ready.gos_before
                            ),
                            at,
                        );
                    }
                    readyoks += 1;
                }
                Kind::Fen => {
                    let expected = self.fens.get(fens).unwrap_or_else(|| {
                        self.fail("a fen line without a fen command".to_string(), at)
                    });
                    if line[4..] != *expected {
                        self.fail(format!("'{line}', but the position is {expected}"), at);
                    }
                    fens += 1;
                }
                Kind::Response => {
                    let expected = self
                        .responses
                        .get(responses)
                        .unwrap_or_else(|| self.fail("a response without a query".to_string(), at));
                    if line != expected {
                        self.fail(format!("'{line}', expected '{expected}'"), at);
                    }
                    responses += 1;
                }
                Kind::Error => errors += 1,
                Kind::InfoString => {
                    if !is_defined_notice(line) {
                        self.fail(format!("'{line}' is not a notice protocol.md defines"), at);
                    }
                }
                Kind::UciOk => handshakes.push("uciok"),
                Kind::UgiOk => handshakes.push("ugiok"),
                Kind::Id
                | Kind::Option
                | Kind::Move
                | Kind::EvalTerm
                | Kind::EvalTotal
                | Kind::EvalNetwork
                | Kind::PerftMove
                | Kind::PerftTotal => {}
                Kind::Key | Kind::BenchPosition | Kind::BenchTotal => {
                    self.fail(format!("'{line}' answers no command sent"), at)
                }
            }
        }
        let check = |ok: bool, why: String| {
            if !ok {
                panic!("{why}\n{}", self.context());
            }
        };
        check(
            bestmoves == self.searches.len(),
            format!(
                "{} valid gos but {bestmoves} bestmoves",
                self.searches.len()
            ),
        );
        check(
            readyoks == self.readies.len(),
            format!("{} isready but {readyoks} readyok", self.readies.len()),
        );
        check(
            fens == self.fens.len(),
            format!("{} fen commands but {fens} fen lines", self.fens.len()),
        );
        check(
            responses == self.responses.len(),
            format!("{} queries but {responses} responses", self.responses.len()),
        );
        check(
            handshakes == self.handshakes,
            format!("handshakes {:?} answered {handshakes:?}", self.handshakes),
        );
        check(
            errors == self.errors,
            format!("{} invalid lines but {errors} error lines", self.errors),
        );
    }
}

/// A failed test must not leave an engine searching in the background.
impl Drop for Torture {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// The `info string` notices protocol.md lists (errors are counted apart).
fn is_defined_notice(line: &str) -> bool {
    let Some(text) = line.strip_prefix("info string ") else {
        return false;
    };
    if let Some(rest) = text.strip_prefix("searchmoves: ") {
        return rest.ends_with(" not legal here, ignored");
    }
    if text.starts_with("no legal moves: the game is over (") {
        return true;
    }
    // `help`'s lines.
    if tuzdyk_engine::server::HELP.contains(&text) {
        return true;
    }
    if is_strength_notice(text) {
        return true;
    }
    // `<Name> <n> is out of range <min>..<max>; set to <m>`
    let words: Vec<&str> = text.split(' ').collect();
    matches!(
        words.as_slice(),
        [name, _, "is", "out", "of", "range", _, "set", "to", _]
            if ["Hash", "Threads", "MultiPV", "MoveOverhead", "UCI_Elo"]
                .iter()
                .any(|n| n.eq_ignore_ascii_case(name))
    )
}

/// The notices of the strength options (protocol.md, Levels):
/// `Level set to <level> (UCI_Elo <n>)`, `UCI_Elo set to <n> (Level
/// <level>)` and `UCI_Elo <n> is kept; it sets Level when UCI_LimitStrength
/// is true`.
fn is_strength_notice(text: &str) -> bool {
    let words: Vec<&str> = text.split(' ').collect();
    let number = |w: &str| w.parse::<i64>().is_ok();
    let level = |w: &str| tuzdyk_protocol::Level::parse(w).is_some_and(|l| l.name() == w);
    match words.as_slice() {
        ["Level", "set", "to", name, "(UCI_Elo", n] => {
            level(name) && n.strip_suffix(')').is_some_and(number)
        }
        ["UCI_Elo", "set", "to", n, "(Level", name] => {
            number(n) && name.strip_suffix(')').is_some_and(level)
        }
        [
            "UCI_Elo",
            n,
            "is",
            "kept;",
            "it",
            "sets",
            "Level",
            "when",
            "UCI_LimitStrength",
            "is",
            "true",
        ] => number(n),
        _ => false,
    }
}

/// A random valid `position` command and the position it sets.
fn valid_position(rng: &mut SplitMix64) -> (String, Position) {
    let (prefix, start) = match rng.below(10) {
        0..=4 => ("position startpos".to_string(), Position::startpos()),
        5 => (format!("position fen {P1}"), tfen::parse(P1).unwrap()),
        6 => (format!("position fen {P2}"), tfen::parse(P2).unwrap()),
        7 => (
            format!("position fen {WIN_NOW}"),
            tfen::parse(WIN_NOW).unwrap(),
        ),
        _ => {
            let text = *rng.pick(&FINISHED);
            return (format!("position fen {text}"), tfen::parse(text).unwrap());
        }
    };
    let plies = match rng.below(4) {
        0 => 0,
        1 => rng.in_range(1..=12),
        2 => rng.in_range(10..=60),
        // Often to the very end of the game.
        _ => 400,
    };
    let (moves, position) = random_moves(&start, plies, rng);
    if moves.is_empty() && rng.below(100) < 50 {
        (prefix, position)
    } else {
        (format!("{prefix} moves {}", join(&moves)), position)
    }
}

/// A random invalid `position` command (the position must not change).
fn invalid_position(rng: &mut SplitMix64) -> String {
    let (line, position) = valid_position(rng);
    let with_moves = if line.contains(" moves ") {
        line.clone()
    } else {
        format!("{line} moves")
    };
    match rng.below(4) {
        // A move from an empty hole (or a tuzdik), or after the game ended.
        0 | 1 => {
            let illegal: Vec<u32> = (1..=9)
                .filter(|&m| !position.is_legal(Move::from_number(m).unwrap()))
                .collect();
            match illegal.as_slice() {
                [] => format!("{with_moves} {}", rng.pick(&["0", "10", "x", "-1", "5.5"])),
                holes => format!("{with_moves} {}", rng.pick(holes)),
            }
        }
        2 => format!(
            "{with_moves} {}",
            rng.pick(&["0", "10", "x", "66", "-3", "1,2"])
        ),
        _ => rng
            .pick(&[
                "position",
                "position start",
                "position startpos 6",
                "position fen",
                "position fen moves 6",
                "position fen 9S/9S 0 0 S",
                "position fen 9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 W 1",
                "position fen 9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 1 0 S 1",
                "position fen t,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1",
                "position fen 1S,t,1S,2S,1S,3,t/3,2S,9S,t,2,1S 77 68 S 74",
            ])
            .to_string(),
    }
}

/// A random valid `go`: (line, searchmoves, ends by itself, ponder with a clock).
fn valid_go(rng: &mut SplitMix64) -> (String, Vec<u32>, bool, bool) {
    let clock = |rng: &mut SplitMix64| -> String {
        let (w, b, wi, bi) = if rng.below(100) < 30 {
            ("p1time", "p2time", "p1inc", "p2inc")
        } else {
            ("wtime", "btime", "winc", "binc")
        };
        let mut line = format!(
            " {w} {} {b} {}",
            rng.in_range(0..=300),
            rng.in_range(0..=300)
        );
        if rng.below(100) < 50 {
            line += &format!(
                " {wi} {} {bi} {}",
                rng.in_range(0..=20),
                rng.in_range(0..=20)
            );
        }
        if rng.below(100) < 30 {
            line += &format!(" movestogo {}", rng.in_range(1..=40));
        }
        line
    };
    let mut searchmoves = Vec::new();
    let (mut line, bounded, ponder_clock) = match rng.below(12) {
        0 => (format!("go depth {}", rng.in_range(1..=5)), true, false),
        1 => (
            format!("go nodes {}", rng.in_range(1..=20_000)),
            true,
            false,
        ),
        2 => (format!("go movetime {}", rng.in_range(1..=30)), true, false),
        3 | 4 => (format!("go{}", clock(rng)), true, false),
        5 => {
            let extra = if rng.below(100) < 50 {
                format!(" depth {}", rng.in_range(1..=4))
            } else {
                String::new()
            };
            (format!("go infinite{extra}"), false, false)
        }
        6 => {
            if rng.below(100) < 50 {
                (format!("go ponder{}", clock(rng)), false, true)
            } else {
                ("go ponder".to_string(), false, false)
            }
        }
        7 => ("go".to_string(), false, false),
        8 => {
            if rng.below(100) < 50 {
                (
                    format!(
                        "go mate {} depth {}",
                        rng.in_range(1..=5),
                        rng.in_range(1..=5)
                    ),
                    true,
                    false,
                )
            } else {
                (format!("go mate {}", rng.in_range(1..=5)), false, false)
            }
        }
        9 => (
            format!(
                "go depth {} nodes {} movetime {}",
                rng.in_range(1..=6),
                rng.in_range(100..=20_000),
                rng.in_range(1..=30)
            ),
            true,
            false,
        ),
        _ => {
            // searchmoves, legal or not, last or followed by a limit.
            let count = rng.in_range(1..=4);
            for _ in 0..count {
                searchmoves.push(rng.in_range(1..=9) as u32);
            }
            match rng.below(3) {
                0 => (
                    format!(
                        "go searchmoves {} depth {}",
                        join(&searchmoves),
                        rng.in_range(1..=4)
                    ),
                    true,
                    false,
                ),
                1 => (
                    format!(
                        "go nodes {} searchmoves {}",
                        rng.in_range(100..=5000),
                        join(&searchmoves)
                    ),
                    true,
                    false,
                ),
                _ => (
                    format!("go searchmoves {}", join(&searchmoves)),
                    false,
                    false,
                ),
            }
        }
    };
    if rng.below(100) < 10 {
        line = line.replace(' ', "  \t");
    }
    (line, searchmoves, bounded, ponder_clock)
}

const INVALID_GO: &[&str] = &[
    "go depth",
    "go depth x",
    "go depth 2.5",
    "go nodes -",
    "go wtime soon",
    "go btime",
    "go p1time fast",
    "go movestogo many",
    "go foo",
    "go depth 3 foo",
    "go infinite please",
    "go searchmoves 0",
    "go searchmoves x",
    "go searchmoves 10 depth 3",
];

const INVALID_SETOPTION: &[&str] = &[
    "setoption",
    "setoption Hash 32",
    "setoption name",
    "setoption name value 3",
    "setoption name Foo value 3",
    "setoption name Hash",
    "setoption name Hash value",
    "setoption name Hash value abc",
    "setoption name Hash value 1.5",
    "setoption name Threads value many",
    "setoption name MultiPV value two",
    "setoption name MoveOverhead value 10ms",
    "setoption name Ponder value maybe",
    "setoption name Level value sultan",
    "setoption name Level value 21",
    "setoption name Level value 0",
    "setoption name UCI_Elo value strong",
    "setoption name Level",
    "setoption name Clear",
];

const GARBAGE: &[&str] = &[
    "flip",
    "xyzzy 1 2 3",
    "UCI",
    "Go depth 3",
    "isready now",
    "stop it",
    "ponderhit x",
    "ucinewgame again",
    "quit now",
    "fen please",
    "debug maybe",
    "query",
    "query score",
    "perft",
    "perft 0",
    "perft 13",
    "bench x",
    "help me",
];

/// A random valid `setoption` (possibly out of range: clamped, with a notice).
fn valid_setoption(rng: &mut SplitMix64) -> String {
    match rng.below(9) {
        0 | 1 => format!(
            "setoption name {} value {}",
            rng.pick(&["Hash", "hash", "HASH"]),
            rng.in_range(1..=64)
        ),
        2 | 3 => format!("setoption name Threads value {}", rng.in_range(1..=4)),
        4 => format!("setoption name MultiPV value {}", rng.in_range(1..=9)),
        5 => format!(
            "setoption name Level value {}",
            rng.pick(&[
                "beginner",
                "amateur",
                "keen",
                "novice",
                "casual",
                "intermediate",
                "skilled",
                "advanced",
                "expert",
                "Expert",
                "candidate",
                "master",
                "grandmaster",
                "champion",
                "greedy",
                "greedy2",
                "1",
                "3",
                "7",
                "15",
                "17",
            ])
        ),
        6 => format!(
            "setoption name {}",
            rng.pick(&[
                "Clear Hash",
                "clear hash",
                "Ponder value true",
                "Ponder value false",
                "MoveOverhead value 0",
                "MoveOverhead value 20",
                "UCI_LimitStrength value true",
                "UCI_LimitStrength value false",
                "UCI_Elo value 1500",
            ])
        ),
        7 => rng
            .pick(&[
                "setoption name Hash value 0",
                "setoption name Threads value 0",
                "setoption name MultiPV value 0",
                "setoption name MultiPV value 12",
                "setoption name MoveOverhead value -5",
                "setoption name UCI_Elo value 0",
                "setoption name UCI_Elo value 9000",
            ])
            .to_string(),
        _ => "setoption name Level value expert".to_string(),
    }
}

/// One random session of about `steps` commands; ends with `quit` or end
/// of input at a random point.
fn session(rng: &mut SplitMix64, steps: usize) {
    let mut t = Torture::start();
    if rng.below(100) < 80 {
        let dialect = if rng.below(100) < 70 {
            Dialect::Uci
        } else {
            Dialect::Ugi
        };
        t.handshake(dialect);
    }
    if rng.below(100) < 50 {
        t.isready(true);
    }
    for _ in 0..steps {
        match rng.below(100) {
            0..=9 => {
                let (line, position) = valid_position(rng);
                t.position(&line, position);
            }
            10..=13 => {
                let line = invalid_position(rng);
                t.invalid(&line);
            }
            14..=33 => {
                let (line, moves, bounded, ponder_clock) = valid_go(rng);
                t.go(&line, &moves, bounded, ponder_clock);
                if bounded && rng.below(100) < 30 {
                    t.wait_bestmove();
                }
            }
            34..=35 => {
                let line = *rng.pick(INVALID_GO);
                t.invalid(line);
            }
            36..=43 => {
                t.closing();
                let repeats = if rng.below(100) < 25 {
                    rng.in_range(2..=4)
                } else {
                    1
                };
                for _ in 0..repeats {
                    t.send("stop");
                }
            }
            44..=51 => {
                let wait = rng.below(100) < 50;
                t.isready(wait);
            }
            52..=57 => {
                t.closing();
                let line = valid_setoption(rng);
                t.send(&line);
            }
            58..=59 => {
                let line = *rng.pick(INVALID_SETOPTION);
                t.invalid(line);
            }
            60..=62 => {
                t.closing();
                t.send(if rng.below(100) < 80 {
                    "ucinewgame"
                } else {
                    "uginewgame"
                });
            }
            63..=66 => {
                t.send("ponderhit");
                if t.last_ponder_with_clock {
                    // The search now ends by itself on its clock.
                    t.last_bounded = true;
                    t.last_ponder_with_clock = false;
                }
            }
            67..=70 => t.wait_bestmove(),
            71..=75 => std::thread::sleep(Duration::from_millis(rng.in_range(1..=25) as u64)),
            76..=78 => t.fen(),
            79..=81 => t.query(rng),
            82 => {
                let line: &&str = rng.pick(&["moves", "eval", "help"]);
                t.send(line);
            }
            83 => {
                t.closing();
                let line = format!("perft {}", rng.in_range(1..=3));
                t.send(&line);
            }
            84..=87 => {
                let line = *rng.pick(GARBAGE);
                t.invalid(line);
            }
            88 => {
                // Random bytes that cannot be a command.
                let mut bytes = b"x".to_vec();
                for _ in 0..rng.in_range(0..=20) {
                    bytes.push(rng.in_range(1..=255) as u8);
                }
                bytes.retain(|&b| b != b'\n' && b != b'\r');
                bytes.push(b'\n');
                t.errors += 1;
                let shown = String::from_utf8_lossy(&bytes).trim_end().to_string();
                t.send_raw(&bytes, shown);
            }
            89..=90 => {
                let dialect = if rng.below(100) < 60 {
                    Dialect::Uci
                } else {
                    Dialect::Ugi
                };
                t.handshake(dialect);
            }
            91 => t.send(if rng.below(100) < 50 {
                "debug on"
            } else {
                "debug off"
            }),
            92..=93 => t.send(""),
            _ => t.poll(),
        }
    }
    // A sync point now and then before the end.
    if rng.below(100) < 50 {
        t.isready(true);
    }
    let quit = rng.below(100) < 65;
    let t = t.finish(quit);
    t.check();
    eprintln!(
        "session: {} lines sent, {} read, {} searches, {} isready, {} errors, ended by {}",
        t.sent.len(),
        t.transcript.len(),
        t.searches.len(),
        t.readies.len(),
        t.errors,
        if quit { "quit" } else { "end of input" }
    );
}

/// Several sessions for one seed.
fn torture(seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for _ in 0..4 {
        let steps = rng.in_range(80..=300);
        session(&mut rng, steps);
    }
}

#[test]
fn torture_seed_1() {
    torture(1);
}

#[test]
fn torture_seed_2() {
    torture(0x5EED_0002);
}

#[test]
fn torture_seed_3() {
    torture(0xDEAD_BEEF);
}

#[test]
fn torture_seed_4() {
    torture(20_261_129);
}

/// `quit` right after each kind of open-ended search: the move, then exit 0.
#[test]
fn quit_at_once_after_every_kind_of_search() {
    for go in [
        "go infinite",
        "go ponder",
        "go",
        "go mate 5",
        "go searchmoves 3",
        "go depth 3",
        "go wtime 100 btime 100",
    ] {
        for wait in [false, true] {
            let mut t = Torture::start();
            t.handshake(Dialect::Uci);
            t.position("position startpos moves 6 4", {
                let mut p = Position::startpos();
                p.play(Move::from_number(6).unwrap());
                p.play(Move::from_number(4).unwrap());
                p
            });
            t.go(go, &[], false, false);
            if wait {
                t.isready(true);
            }
            let t = t.finish(true);
            t.check();
        }
    }
}

/// A clock for the side not to move only (`go wtime 100` with Black to
/// move, `go btime 100` or `go p2time 100` with White to move): the search
/// has no limit of its own and runs as if infinite, yet at end of input the
/// engine waits for it as for a bounded search (`Limits::is_bounded` counts
/// any clock), so `printf 'go btime 100\n' | tuzdyk` never exits.
#[test]

fn end_of_input_after_a_clock_for_the_other_side_only_exits() {
    let mut after_1 = Position::startpos();
    after_1.play(Move::from_number(1).unwrap());
    for (position_line, position, go) in [
        ("position startpos moves 1", after_1, "go wtime 100"),
        ("position startpos", Position::startpos(), "go btime 100"),
        (
            "position startpos",
            Position::startpos(),
            "go p2time 100 p2inc 10",
        ),
    ] {
        let mut t = Torture::start();
        t.position(position_line, position);
        t.go(go, &[], false, false);
        let t = t.finish(false);
        t.check();
    }
}

/// A longer soak for bug hunting, not run by default:
/// `TUZDYK_TORTURE_SEEDS=200 cargo test --release --test torture -- --ignored soak`.
#[test]
#[ignore = "a long soak: run by hand"]
fn soak_many_seeds() {
    let seeds: u64 = std::env::var("TUZDYK_TORTURE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    for seed in 0..seeds {
        eprintln!("seed {seed}");
        torture(1_000 + seed);
    }
}
