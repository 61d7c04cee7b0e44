//! Driving the `tuzdyk` binary through its protocol, and a classifier for
//! every line protocol.md lets the engine print.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use tuzdyk_rules::rng::SplitMix64;
use tuzdyk_rules::{Move, Position};

/// How long to wait for any expected answer: generous, for a slow, busy
/// two-core machine. Tests never assert on elapsed time.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// How long one run may take before it counts as hung and is killed: far
/// more than any run needs on a slow, busy machine (a hang is a failure; no
/// test asserts how long anything took).
pub const RUN_LIMIT: Duration = Duration::from_secs(600);

/// The binary under test, for tests that name it as an engine command.
pub const TUZDYK: &str = env!("CARGO_BIN_EXE_tuzdyk");

/// The `tuzdyk` binary with `args`, as a user starts it: without the test
/// environment's `RUST_LOG` and `RUST_BACKTRACE`, and with a games
/// database of its own in place of the user's (`TUZDYK_DB`; a test that
/// wants another sets it after). The one place the tests name the binary.
pub fn tuzdyk<S: AsRef<OsStr>>(args: &[S]) -> Command {
    let mut command = Command::new(TUZDYK);
    command
        .args(args)
        .env_remove("RUST_LOG")
        .env_remove("RUST_BACKTRACE")
        .env("TUZDYK_DB", fresh_database_path());
    command
}

/// A path for a games database no run has used: under the system's
/// temporary folder, per test process and call.
pub fn fresh_database_path() -> std::path::PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    std::env::temp_dir()
        .join("tuzdyk-tests")
        .join(format!("{}-{call}.sqlite", std::process::id()))
}

/// Runs `tuzdyk args` to its end with nothing on its stdin.
pub fn run_tuzdyk<S: AsRef<OsStr>>(args: &[S]) -> Output {
    run_tuzdyk_with_input(args, b"")
}

/// Runs `tuzdyk args` to its end with `input` on its stdin (written from a
/// thread of its own, so that a large output cannot block the writer),
/// killing it after [`RUN_LIMIT`], and checks that it did not panic.
pub fn run_tuzdyk_with_input<S: AsRef<OsStr>>(args: &[S], input: impl AsRef<[u8]>) -> Output {
    let shown: Vec<String> = args
        .iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect();
    let mut child = tuzdyk(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tuzdyk binary starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.as_ref().to_vec();
    let writer = std::thread::spawn(move || {
        // The program may exit before reading it all (a `quit` line).
        let _ = stdin.write_all(&input);
    });
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped stderr")));
    let status = wait_within_limit(&mut child, || format!("tuzdyk {shown:?} did not finish"));
    let _ = writer.join();
    let output = Output {
        status,
        stdout: stdout.join().expect("the stdout reader ends"),
        stderr: stderr.join().expect("the stderr reader ends"),
    };
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        !err.contains("panicked"),
        "tuzdyk {shown:?} panicked: {err}"
    );
    output
}

/// Waits for `child` to end, killing it and failing with `what()` after
/// [`RUN_LIMIT`].
fn wait_within_limit(child: &mut Child, what: impl Fn() -> String) -> ExitStatus {
    let deadline = Instant::now() + RUN_LIMIT;
    loop {
        if let Some(status) = child.try_wait().expect("the child can be waited on") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{} within {RUN_LIMIT:?}", what());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Which of the program's outputs go to the pipe whose reader goes away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closed {
    /// Standard output only; standard error is kept and returned.
    Stdout,
    /// Both, on one pipe, as `2>&1 | head` does.
    Both,
}

/// Runs `tuzdyk args` with `input` on its stdin, as the left end of a
/// pipeline whose reader takes `keep` bytes and goes away (`| head -c
/// <keep>`; with 0 the reader is gone before the program starts, so its
/// first write fails). Returns the exit status and what standard error
/// said (empty with [`Closed::Both`]).
pub fn run_tuzdyk_into_closed_pipe<S: AsRef<OsStr>>(
    args: &[S],
    input: impl AsRef<[u8]>,
    closed: Closed,
    keep: usize,
) -> (ExitStatus, String) {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    let mut reader = Some(reader);
    if keep == 0 {
        reader = None;
    }
    let mut command = tuzdyk(args);
    command
        .stdin(Stdio::piped())
        .stdout(writer.try_clone().expect("a second end of the pipe"));
    match closed {
        Closed::Both => command.stderr(writer),
        Closed::Stdout => command.stderr(Stdio::piped()),
    };
    let mut child = command.spawn().expect("the tuzdyk binary starts");
    // The child holds the only write ends now: the parent's are closed
    // with `command`.
    drop(command);
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.as_ref().to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let errors = child.stderr.take().map(|mut pipe| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    });
    if let Some(mut reader) = reader {
        let mut kept = vec![0u8; keep];
        let mut got = 0;
        while got < keep {
            match reader.read(&mut kept[got..]) {
                Ok(0) | Err(_) => break,
                Ok(n) => got += n,
            }
        }
    }
    let status = wait_within_limit(&mut child, || {
        let shown: Vec<_> = args.iter().map(|a| a.as_ref().to_string_lossy()).collect();
        format!("tuzdyk {shown:?} did not end after its reader went away")
    });
    let _ = feeder.join();
    let errors = errors.map_or(String::new(), |thread| {
        thread.join().expect("the stderr reader ends")
    });
    (status, errors)
}

/// A file `name` in the scratch folder of the test file `test`, under
/// Cargo's target directory (so that nothing is left in the system's temp
/// folder; the names are fixed, so runs overwrite rather than pile up).
pub fn scratch_file(test: &str, name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tuzdyk-{test}"));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir.join(name)
}

/// The command of the stand-in engine `name` in `tests/fake_engines`.
pub fn fake_engine(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake_engines")
        .join(name);
    path.to_str().expect("a UTF-8 path").to_string()
}

/// An empty scratch folder for one test, `name`, under Cargo's target
/// directory (emptied first: what an earlier run left is gone).
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// A running engine process: commands go to its stdin, its stdout lines
/// arrive on a channel filled by a reader thread.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, in order.
    pub transcript: Vec<String>,
    /// Every line sent so far, for failure messages.
    pub sent: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = tuzdyk::<&str>(&[])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the tuzdyk binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
            sent: Vec::new(),
        }
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        self.sent.push(line.to_string());
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.send_bytes(&bytes);
    }

    /// Sends raw bytes as they are.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("the engine reads its input");
        stdin.flush().expect("the engine reads its input");
    }

    /// Closes the engine's input (end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` if none comes within `timeout` or the
    /// output ended.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first one that `done` accepts.
    pub fn read_until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let finished = done(&line);
                    got.push(line);
                    if finished {
                        return got;
                    }
                }
                None => panic!(
                    "no {what} within {TIMEOUT:?} (or the output ended);\nsent: {:#?}\nread after the last wait: {got:#?}",
                    self.sent
                ),
            }
        }
    }

    /// Lines that arrive within `wait` (none expected to end the wait).
    pub fn drain_for(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        while let Some(line) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            got.push(line);
        }
        got
    }

    /// Sends `isready` and returns every line before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until("readyok", |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends a command and returns what it printed (up to the next `readyok`).
    pub fn command(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// Sends a `go` command and returns every line up to and including
    /// its `bestmove`.
    pub fn go(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.read_until("bestmove", |l| l.starts_with("bestmove"))
    }

    /// Sends `fen` and returns the TFEN it prints.
    pub fn fen(&mut self) -> String {
        let lines = self.command("fen");
        assert_eq!(lines.len(), 1, "fen printed {lines:?}");
        lines[0]
            .strip_prefix("fen ")
            .unwrap_or_else(|| panic!("not a fen line: '{}'", lines[0]))
            .to_string()
    }

    /// Waits for the process to exit.
    pub fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("the child can be waited on") {
                return status;
            }
            if Instant::now() > deadline {
                panic!(
                    "the engine did not exit within {TIMEOUT:?}; sent: {:#?}",
                    self.sent
                );
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Every line left on stdout until it closes.
    pub fn rest_of_output(&mut self) -> Vec<String> {
        let mut got = Vec::new();
        let deadline = Instant::now() + TIMEOUT;
        loop {
            match self
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    got.push(line);
                }
                Err(RecvTimeoutError::Disconnected) => return got,
                Err(RecvTimeoutError::Timeout) => {
                    panic!("stdout did not close within {TIMEOUT:?}; read {got:#?}")
                }
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// A parsed `info` search line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u64,
    pub seldepth: u64,
    pub multipv: u64,
    /// `("cp" | "mate", value)`.
    pub score: (String, i64),
    pub bound: Option<String>,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u64,
    pub time: u64,
    pub pv: Vec<u32>,
}

fn unsigned(token: Option<&&str>, line: &str) -> Result<u64, String> {
    let token = token.ok_or_else(|| format!("'{line}' ends early"))?;
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("'{token}' in '{line}' is not a whole number"));
    }
    token
        .parse()
        .map_err(|_| format!("'{token}' in '{line}' is too large"))
}

fn signed(token: Option<&&str>, line: &str) -> Result<i64, String> {
    let token = token.ok_or_else(|| format!("'{line}' ends early"))?;
    let digits = token.strip_prefix('-').unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("'{token}' in '{line}' is not an integer"));
    }
    token
        .parse()
        .map_err(|_| format!("'{token}' in '{line}' is too large"))
}

/// A move token 1..9.
pub fn hole(token: &str) -> Option<u32> {
    match token.as_bytes() {
        [b @ b'1'..=b'9'] => Some((b - b'0') as u32),
        _ => None,
    }
}

/// Parses a search `info` line exactly as protocol.md writes it:
/// `info depth <d> seldepth <s> multipv <k> score cp <x>|mate <n>
/// [lowerbound|upperbound] nodes <n> nps <n> hashfull <p> time <ms> [pv <m> ...]`.
pub fn parse_info(line: &str) -> Result<Info, String> {
    let t: Vec<&str> = line.split(' ').collect();
    let expect = |i: usize, word: &str| -> Result<(), String> {
        if t.get(i) == Some(&word) {
            Ok(())
        } else {
            Err(format!("expected '{word}' as word {i} of '{line}'"))
        }
    };
    expect(0, "info")?;
    expect(1, "depth")?;
    let depth = unsigned(t.get(2), line)?;
    expect(3, "seldepth")?;
    let seldepth = unsigned(t.get(4), line)?;
    expect(5, "multipv")?;
    let multipv = unsigned(t.get(6), line)?;
    expect(7, "score")?;
    let kind = match t.get(8) {
        Some(&"cp") => "cp",
        Some(&"mate") => "mate",
        _ => return Err(format!("expected 'cp' or 'mate' in '{line}'")),
    };
    let value = signed(t.get(9), line)?;
    let mut i = 10;
    let bound = match t.get(i) {
        Some(&b) if b == "lowerbound" || b == "upperbound" => {
            i += 1;
            Some(b.to_string())
        }
        _ => None,
    };
    let mut numbers = [0u64; 4];
    for (k, word) in ["nodes", "nps", "hashfull", "time"].iter().enumerate() {
        expect(i, word)?;
        numbers[k] = unsigned(t.get(i + 1), line)?;
        i += 2;
    }
    let mut pv = Vec::new();
    if i < t.len() {
        expect(i, "pv")?;
        if i + 1 == t.len() {
            return Err(format!("empty pv in '{line}'"));
        }
        for token in &t[i + 1..] {
            pv.push(hole(token).ok_or_else(|| format!("bad pv move '{token}' in '{line}'"))?);
        }
    }
    if multipv == 0 || multipv > 9 {
        return Err(format!("multipv out of range in '{line}'"));
    }
    if numbers[2] > 1000 {
        return Err(format!("hashfull over 1000 permille in '{line}'"));
    }
    Ok(Info {
        depth,
        seldepth,
        multipv,
        score: (kind.to_string(), value),
        bound,
        nodes: numbers[0],
        nps: numbers[1],
        hashfull: numbers[2],
        time: numbers[3],
        pv,
    })
}

/// A parsed `bestmove` line: the move (`None` for `0000`) and the ponder move.
pub fn parse_bestmove(line: &str) -> Result<(Option<u32>, Option<u32>), String> {
    let t: Vec<&str> = line.split(' ').collect();
    let best = |token: &str| -> Result<Option<u32>, String> {
        if token == "0000" {
            Ok(None)
        } else {
            hole(token)
                .map(Some)
                .ok_or_else(|| format!("bad move '{token}' in '{line}'"))
        }
    };
    match t.as_slice() {
        ["bestmove", m] => Ok((best(m)?, None)),
        ["bestmove", m, "ponder", p] => {
            let p = hole(p).ok_or_else(|| format!("bad ponder move in '{line}'"))?;
            Ok((best(m)?, Some(p)))
        }
        _ => Err(format!("malformed bestmove line '{line}'")),
    }
}

/// What kind of line protocol.md says this is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Id,
    Option,
    UciOk,
    UgiOk,
    ReadyOk,
    Info(Info),
    InfoString,
    Error,
    BestMove,
    Response,
    Fen,
    Key,
    Move,
    EvalTerm,
    EvalTotal,
    /// `eval network <id> total cp <score>`, after the classic total when `Eval` is `network`.
    EvalNetwork,
    /// `<move> <leaves>` of perft.
    PerftMove,
    PerftTotal,
    BenchPosition,
    BenchTotal,
}

fn numbers_at(t: &[&str], at: &[usize]) -> bool {
    at.iter().all(|&i| {
        t.get(i)
            .is_some_and(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))
    })
}

fn words_at(t: &[&str], words: &[(usize, &str)]) -> bool {
    words.iter().all(|(i, w)| t.get(*i) == Some(w))
}

/// Classifies one output line (the `d` diagram's free-form lines excepted).
pub fn classify(line: &str) -> Result<Kind, String> {
    let t: Vec<&str> = line.split(' ').collect();
    let n = t.len();
    let kind = match t[0] {
        "id" if n >= 3 && (t[1] == "name" || t[1] == "author") => Kind::Id,
        "option" if n >= 4 && t[1] == "name" => Kind::Option,
        "uciok" if n == 1 => Kind::UciOk,
        "ugiok" if n == 1 => Kind::UgiOk,
        "readyok" if n == 1 => Kind::ReadyOk,
        "info" if line.starts_with("info string error: ") => Kind::Error,
        "info" if line.starts_with("info string ") => Kind::InfoString,
        "info" => Kind::Info(parse_info(line)?),
        "bestmove" => {
            parse_bestmove(line)?;
            Kind::BestMove
        }
        "response" if n == 2 => match t[1] {
            "true" | "false" | "p1win" | "p2win" | "draw" | "none" => Kind::Response,
            _ => return Err(format!("unknown response '{line}'")),
        },
        "fen" if n >= 5 => {
            tuzdyk_notation::tfen::parse(&line[4..])
                .map_err(|e| format!("bad TFEN in '{line}': {e}"))?;
            Kind::Fen
        }
        "key" if n == 2 && t[1].len() == 16 && t[1].bytes().all(|b| b.is_ascii_hexdigit()) => {
            Kind::Key
        }
        "move"
            if n == 12
                && hole(t[1]).is_some()
                && words_at(
                    &t,
                    &[
                        (2, "sows"),
                        (4, "lands"),
                        (6, "captures"),
                        (8, "tuzdik"),
                        (10, "kazan"),
                    ],
                )
                && numbers_at(&t, &[3, 7, 11])
                && (t[9] == "yes" || t[9] == "no")
                && (t[5].starts_with('S') || t[5].starts_with('N'))
                && hole(&t[5][1..]).is_some() =>
        {
            Kind::Move
        }
        "eval"
            if n == 7
                && words_at(&t, &[(1, "term"), (3, "value"), (5, "cp")])
                && signed(t.get(4), line).is_ok()
                && signed(t.get(6), line).is_ok() =>
        {
            Kind::EvalTerm
        }
        "eval"
            if n == 6
                && words_at(&t, &[(1, "phase"), (3, "total"), (4, "cp")])
                && numbers_at(&t, &[2])
                && signed(t.get(5), line).is_ok() =>
        {
            Kind::EvalTotal
        }
        "eval"
            if n == 6
                && words_at(&t, &[(1, "network"), (3, "total"), (4, "cp")])
                && t[2].len() == 8
                && t[2].bytes().all(|b| b.is_ascii_hexdigit())
                && signed(t.get(5), line).is_ok() =>
        {
            Kind::EvalNetwork
        }
        "depth"
            if n == 8
                && words_at(&t, &[(2, "nodes"), (4, "time"), (6, "nps")])
                && numbers_at(&t, &[1, 3, 5, 7]) =>
        {
            Kind::PerftTotal
        }
        "position"
            if n == 8
                && words_at(&t, &[(2, "nodes"), (4, "time"), (6, "bestmove")])
                && numbers_at(&t, &[1, 3, 5])
                && (hole(t[7]).is_some() || t[7] == "0000") =>
        {
            Kind::BenchPosition
        }
        first if n == 2 && hole(first).is_some() && numbers_at(&t, &[1]) => Kind::PerftMove,
        _ if n == 4 && words_at(&t, &[(1, "nodes"), (3, "nps")]) && numbers_at(&t, &[0, 2]) => {
            Kind::BenchTotal
        }
        _ => return Err(format!("line not defined by protocol.md: '{line}'")),
    };
    Ok(kind)
}

/// Whether `mv` (1..9) is legal in `pos`.
pub fn is_legal(pos: &Position, mv: u32) -> bool {
    Move::from_number(mv).is_some_and(|m| pos.is_legal(m))
}

/// Plays a sequence of moves written 1..9.
pub fn play(pos: &Position, moves: &[u32]) -> Position {
    let mut p = *pos;
    for &m in moves {
        let mv = Move::from_number(m).expect("a hole 1..9");
        assert!(p.is_legal(mv), "{m} is not legal in {p:?}");
        p.play(mv);
    }
    p
}

/// Moves written 1..9, separated by spaces, as a `moves` list takes them.
pub fn join(moves: &[u32]) -> String {
    moves
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Random legal moves from `start`, at most `plies` (fewer if the game
/// ends), and the position they reach.
pub fn random_moves(start: &Position, plies: usize, rng: &mut SplitMix64) -> (Vec<u32>, Position) {
    let mut pos = *start;
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal: Vec<Move> = pos.legal_moves().collect();
        if legal.is_empty() {
            break;
        }
        let mv = *rng.pick(&legal);
        pos.play(mv);
        moves.push(mv.number());
    }
    (moves, pos)
}
