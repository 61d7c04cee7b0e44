//! Running `tuzdyk gui` for a test: the server on a free port, a WebSocket
//! client for its API, and plain HTTP requests with chosen headers.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

/// Longest wait for any answer: generous, for a slow, busy machine.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// A running `tuzdyk gui`, killed when dropped.
pub struct Server {
    child: Child,
    pub port: u16,
    pub url: String,
}

impl Server {
    /// Starts `tuzdyk gui --port 0` with `args`, and waits for its URL.
    pub fn start(args: &[&str]) -> Server {
        let mut child = crate::common::tuzdyk(&["gui", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tuzdyk gui starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the server prints its URL");
        let url = line
            .trim()
            .strip_prefix("tuzdyk gui: ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        let port = url
            .trim_end_matches('/')
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .expect("a port in the URL");
        Server { child, port, url }
    }

    pub fn authority(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// The server's process id, to measure it.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A GET of `path` with these headers: the status code and the body.
    pub fn get(&self, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
        let mut stream = TcpStream::connect(self.authority()).expect("connect");
        stream.set_read_timeout(Some(TIMEOUT)).unwrap();
        let mut request = format!("GET {path} HTTP/1.1\r\nConnection: close\r\n");
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {response:?}"));
        let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        (status, body.to_string())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One page's WebSocket.
pub struct Client {
    socket: WebSocket<TcpStream>,
    /// The last state received.
    pub state: Value,
    /// Every message received, for failure messages.
    pub seen: Vec<Value>,
}

impl Client {
    /// Connects as a page of the server's own origin, to game `game` (or a
    /// new one), and reads the first state.
    pub fn connect(server: &Server, game: Option<&str>) -> Client {
        Client::connect_with(
            server,
            game,
            Some(&format!("http://{}", server.authority())),
        )
        .expect("the server accepts its own origin")
    }

    /// Connects with this Origin header (none: no header).
    pub fn connect_with(
        server: &Server,
        game: Option<&str>,
        origin: Option<&str>,
    ) -> Result<Client, tungstenite::Error> {
        let query = game.map_or(String::new(), |id| format!("?game={id}"));
        let mut request = format!("ws://{}/ws{query}", server.authority())
            .into_client_request()
            .unwrap();
        if let Some(origin) = origin {
            request
                .headers_mut()
                .insert("Origin", origin.parse().unwrap());
        }
        let stream = TcpStream::connect(server.authority()).expect("connect");
        stream.set_read_timeout(Some(TIMEOUT)).unwrap();
        let (socket, _) = tungstenite::client(request, stream).map_err(|e| match e {
            tungstenite::HandshakeError::Failure(e) => e,
            tungstenite::HandshakeError::Interrupted(_) => panic!("blocking handshake interrupted"),
        })?;
        let mut client = Client {
            socket,
            state: Value::Null,
            seen: Vec::new(),
        };
        client.next_state();
        Ok(client)
    }

    pub fn game_id(&self) -> String {
        self.state["game"].as_str().expect("a game id").to_string()
    }

    pub fn send(&mut self, command: Value) {
        self.socket
            .send(Message::text(command.to_string()))
            .expect("send");
    }

    pub fn send_text(&mut self, text: &str) {
        self.socket.send(Message::text(text)).expect("send");
    }

    /// The next message.
    pub fn next(&mut self) -> Value {
        loop {
            match self.socket.read() {
                Ok(Message::Text(text)) => {
                    let value: Value = serde_json::from_str(&text).expect("JSON from the server");
                    if value["type"] == "state" {
                        self.state = value.clone();
                    }
                    self.seen.push(value.clone());
                    return value;
                }
                Ok(_) => continue,
                Err(e) => panic!("reading from the server: {e}; last state {}", self.state),
            }
        }
    }

    pub fn next_state(&mut self) -> Value {
        self.wait_for("a state", |m| m["type"] == "state")
    }

    /// Reads messages until one satisfies `wanted`.
    pub fn wait_for(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            assert!(
                Instant::now() < deadline,
                "no {what} within {TIMEOUT:?}; last state {}",
                self.state
            );
            let message = self.next();
            if wanted(&message) {
                return message;
            }
        }
    }

    /// Reads until a state satisfies `wanted`.
    pub fn wait_state(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        self.wait_for(what, |m| m["type"] == "state" && wanted(m))
    }

    /// Sends `command` and reads until the error that answers it.
    pub fn expect_error(&mut self, command: Value) -> Value {
        self.send(command);
        self.wait_for("an error", |m| m["type"] == "error")
    }

    /// Starts a new game with these settings and returns its first state.
    pub fn new_game(&mut self, mode: &str, human: &str, level: &str) -> Value {
        let line = self.state["line"].as_u64().unwrap_or(0);
        self.send(json!({"cmd": "new", "settings": {
            "mode": mode, "human": human, "level": level, "movetime_ms": null}}));
        self.wait_state("the new game", |s| s["line"].as_u64() > Some(line))
    }
}

/// Imports the game records `text` into the games database at `path`
/// (made if need be) with tuzdyk_db, as a test's own data; returns how
/// many games it took.
pub fn import_games(path: &std::path::Path, text: &str) -> usize {
    let mut db = tuzdyk_db::Database::open(path).expect("a database");
    let source = tuzdyk_db::ImportSource::Text { name: "t", text };
    db.import(source, |_| {}).expect("imported").imported
}

/// The first message of a new page's socket (no Origin, as a tool sends).
pub fn first_message(server: &Server) -> Value {
    let request = format!("ws://{}/ws", server.authority())
        .into_client_request()
        .unwrap();
    let stream = TcpStream::connect(server.authority()).expect("connect");
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    let (mut socket, _) = tungstenite::client(request, stream).expect("the handshake");
    let message = socket.read().expect("a first message");
    serde_json::from_str(message.to_text().expect("text")).expect("JSON")
}

/// A folder a test made, removed when the test ends (a browser profile,
/// a test's database).
pub struct TempDir(pub std::path::PathBuf);

impl TempDir {
    /// The folder holding `file`.
    pub fn of_file(file: &std::path::Path) -> TempDir {
        TempDir(file.parent().expect("a file in a folder").to_path_buf())
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A database in a temporary folder holding three puzzles cut from a real
/// game (tests/data/playok-games.pgn, its first game): the position after
/// `ply` moves and the moves played from there as the solution. Returns
/// the path and the puzzles as inserted.
pub fn puzzle_database(name: &str) -> (std::path::PathBuf, Vec<tuzdyk_db::Puzzle>) {
    let folder = std::env::temp_dir().join(format!("tuzdyk-gui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("games.sqlite");
    let text = std::fs::read_to_string("tests/data/playok-games.pgn").unwrap();
    let game = tuzdyk_notation::record::parse_games(&text)
        .remove(0)
        .expect("the first game reads");
    let db = tuzdyk_db::Database::open(&path).expect("a database");
    let mut puzzles = Vec::new();
    for (ply, length, rating, themes) in [
        (10, 3, 1500.0, "even_capture"),
        (21, 1, 1560.0, "tuzdik even_capture"),
        (30, 3, 1440.0, "endgame_sweep"),
    ] {
        let mut puzzle = tuzdyk_db::Puzzle {
            id: 0,
            position: game.game.position_at(ply),
            solution: game.game.moves()[ply..ply + length].to_vec(),
            themes: themes.split(' ').map(str::to_string).collect(),
            rating,
            deviation: 200.0,
            volatility: 0.06,
            attempts: 0,
            source: None,
        };
        puzzle.id = db.insert_puzzle(&puzzle).expect("a puzzle");
        puzzles.push(puzzle);
    }
    (path, puzzles)
}

/// A legal first move of `puzzle` that is not its solution's.
pub fn wrong_move(puzzle: &tuzdyk_db::Puzzle) -> tuzdyk_rules::Move {
    puzzle
        .position
        .legal_moves()
        .find(|&mv| mv != puzzle.solution[0])
        .expect("a wrong move")
}
