//! What every fuzz input must satisfy, one function per fuzz target.
//!
//! The same file is the body of the fuzz targets (`fuzz/fuzz_targets/*.rs`
//! call it through the `tuzdyk_fuzz` library) and of the regression test
//! `tests/fuzz_regressions.rs` (which includes it with `#[path]`), so the
//! committed corpus is checked on every `cargo test` exactly as the fuzzer
//! checks it. Every check panics on a violation.
//!
//! - [`command`]: `command::parse` of one protocol line never panics; a
//!   blank line is `None`; an error is one line of text; a `position`
//!   command's position survives a TFEN round trip.
//! - [`tfen`]: `tfen::parse` never panics; whatever it accepts writes back
//!   to a string that parses to the same position and is written the same
//!   way again; the rules code does not panic on an accepted position.
//! - [`record`]: `record::parse_games` never panics; every game it accepts
//!   is printed by `Display` as text that reads back as exactly that game,
//!   and prints the same again.
//! - [`session`]: a whole protocol session run on the input's lines (at most
//!   [`MAX_SESSION_LINES`]; searches capped so that none runs long) never
//!   panics or hangs, every `go` gets exactly one `bestmove` with a legal move
//!   for the position it was given (`0000` only when that game is over),
//!   every `isready` exactly one `readyok`, every handshake its `uciok` or
//!   `ugiok`, and every line printed is one that protocol.md defines.

#![allow(dead_code)]

use std::io::Cursor;
use std::time::Duration;

use tuzdyk_engine::server::SharedBuffer;
use tuzdyk_engine::server::{Output, Session};
use tuzdyk_notation::{record as records, tfen as tfens};
use tuzdyk_protocol::MAX_LINE_BYTES;
use tuzdyk_protocol::command::{self, Command};
use tuzdyk_protocol::{EngineOption, Go, OptionValue};
use tuzdyk_rules::{Move, Position};

/// Lines of one input that the session target runs (the rest is dropped).
pub const MAX_SESSION_LINES: usize = 64;
/// Caps that keep every search, perft and table small and short.
pub const MAX_GO_DEPTH: u32 = 4;
pub const MAX_GO_NODES: u64 = 5_000;
pub const MAX_GO_MILLIS: u64 = 5;
pub const MAX_CLOCK_MILLIS: u64 = 50;
pub const MAX_PERFT_DEPTH: u32 = 4;
pub const MAX_HASH_MB: i64 = 2;
pub const MAX_THREADS: i64 = 2;

/// The protocol line parser on one line (the input up to its first newline,
/// as the session reads it; invalid UTF-8 replaced as the session does).
pub fn command(data: &[u8]) {
    let line = data.split(|&b| b == b'\n').next().unwrap_or(&[]);
    let text = String::from_utf8_lossy(line);
    let parsed = command::parse(&text);
    assert_eq!(parsed, command::parse(&text), "parsing is not repeatable");
    match parsed {
        Ok(None) => assert!(
            text.split_whitespace().next().is_none(),
            "{text:?} has tokens but parsed as a blank line"
        ),
        Ok(Some(Command::Position(game))) => check_position(game.position()),
        Ok(Some(_)) => {}
        Err(error) => {
            let message = error.to_string();
            assert!(!message.is_empty(), "empty error for {text:?}");
            assert!(
                !message.contains('\n'),
                "the error for {text:?} is not one line: {message:?}"
            );
        }
    }
}

/// The TFEN reader on arbitrary text.
pub fn tfen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        // The reader takes `&str`; check the lossy reading too.
        if let Ok(position) = tfens::parse(&String::from_utf8_lossy(data)) {
            check_position(&position);
        }
        return;
    };
    if let Ok(position) = tfens::parse(text) {
        check_position(&position);
    }
}

/// What every accepted position must allow: a TFEN round trip to the same
/// position and the same string, and the rules code running on it.
pub fn check_position(position: &Position) {
    let written = tfens::write(position);
    let again = tfens::parse(&written)
        .unwrap_or_else(|e| panic!("the written TFEN {written:?} does not parse: {e}"));
    assert_eq!(
        &again, position,
        "TFEN round trip changed the position ({written})"
    );
    assert_eq!(
        tfens::write(&again),
        written,
        "TFEN is not written canonically"
    );
    assert_eq!(again.key(), position.key(), "the key changed ({written})");
    // The rules on a position the reader accepted: every legal move plays,
    // and the game ends exactly when no move is legal or a kazan has 82.
    let over = position.game_over().is_some();
    let moves: Vec<Move> = position.legal_moves().collect();
    if !over {
        assert!(!moves.is_empty(), "no legal move but not over: {written}");
    }
    for mv in moves {
        let mut after = *position;
        let preview = position.preview(mv);
        let outcome = after.play(mv);
        assert_eq!(
            preview, outcome,
            "preview differs from play ({written} {mv})"
        );
        let total: u32 = after.stones_on_board()
            + after.kazan(tuzdyk_rules::Side::White) as u32
            + after.kazan(tuzdyk_rules::Side::Black) as u32;
        assert_eq!(total, 162, "{written} then {mv} does not keep 162 stones");
        let _ = after.game_over();
        let _ = tfens::write(&after);
    }
}

/// The game-record reader on arbitrary text.
pub fn record(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for game in records::parse_games(&text).into_iter().flatten() {
        check_game(&game);
    }
}

/// A game the reader accepted must print as text that reads back as the
/// same game, and print the same again.
pub fn check_game(game: &records::GameRecord) {
    let printed = game.to_string();
    let reread = records::parse_games(&printed);
    assert_eq!(
        reread.len(),
        1,
        "the printed game reads as {} games:\n{printed}",
        reread.len()
    );
    let again = match &reread[0] {
        Ok(again) => again,
        Err(e) => panic!("the printed game does not read back: {e}\n{printed}"),
    };
    // `Display` writes the `Result` tag from the movetext's result, and the
    // reader does not check that the two agree (a known difference, see
    // `tests/fuzz_regressions.rs`): compare with the tag as it is written.
    let mut expected = game.clone();
    for (key, value) in &mut expected.tags {
        if key == "Result" {
            *value = records::result_text(game.result).to_string();
        }
    }
    assert_eq!(
        again, &expected,
        "the printed game reads back differently:\n{printed}"
    );
    assert_eq!(again.to_string(), printed, "printing is not stable");
    let _ = game.final_position();
}

/// What one session must have printed, worked out from its input.
#[derive(Debug, Default)]
struct Expected {
    /// The position each `go` searched, in order.
    searches: Vec<(Position, Dialect)>,
    readyoks: usize,
    handshakes: Vec<&'static str>,
    /// Lines rejected by the parser (each prints one error line).
    parse_errors: usize,
    /// A `d` was run: its diagram lines are free-form.
    diagram: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum Dialect {
    #[default]
    Uci,
    Ugi,
}

/// A `go` with every limit capped (see the constants). A search that would
/// end by itself gets a node cap too, so that end of input never waits long.
pub fn capped_go(limits: &Go) -> String {
    let mut line = "go".to_string();
    let millis = |d: Duration, cap: u64| (d.as_millis() as u64).min(cap);
    if let Some(depth) = limits.depth {
        line += &format!(" depth {}", depth.min(MAX_GO_DEPTH));
    }
    let nodes = match limits.nodes {
        Some(nodes) => Some(nodes.min(MAX_GO_NODES)),
        None if !limits.infinite
            && !limits.ponder
            && (limits.depth.is_some()
                || limits.movetime.is_some()
                || limits.clock.time.iter().any(Option::is_some)) =>
        {
            Some(MAX_GO_NODES)
        }
        None => None,
    };
    if let Some(nodes) = nodes {
        line += &format!(" nodes {nodes}");
    }
    if let Some(time) = limits.movetime {
        line += &format!(" movetime {}", millis(time, MAX_GO_MILLIS));
    }
    for (i, name) in ["wtime", "btime"].iter().enumerate() {
        if let Some(time) = limits.clock.time[i] {
            line += &format!(" {name} {}", millis(time, MAX_CLOCK_MILLIS));
        }
    }
    for (i, name) in ["winc", "binc"].iter().enumerate() {
        let increment = limits.clock.increment[i];
        if !increment.is_zero() {
            line += &format!(" {name} {}", millis(increment, MAX_GO_MILLIS));
        }
    }
    if let Some(moves) = limits.clock.moves_to_go {
        line += &format!(" movestogo {moves}");
    }
    if let Some(mate) = limits.mate {
        line += &format!(" mate {mate}");
    }
    if limits.infinite {
        line += " infinite";
    }
    if limits.ponder {
        line += " ponder";
    }
    if !limits.searchmoves.is_empty() {
        line += " searchmoves";
        for mv in &limits.searchmoves {
            line += &format!(" {mv}");
        }
    }
    line
}

/// The input's lines made safe to run (searches, perft and option values
/// capped, `bench` dropped), and what the session must print for them.
fn prepare_session(data: &[u8]) -> (Vec<u8>, Expected) {
    let mut script = Vec::new();
    let mut expected = Expected::default();
    let mut position = Position::startpos();
    let mut dialect = Dialect::Uci;
    let mut rest = data;
    for _ in 0..MAX_SESSION_LINES {
        if rest.is_empty() {
            break;
        }
        let (raw, terminated) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => {
                let raw = &rest[..i];
                rest = &rest[i + 1..];
                (raw, true)
            }
            None => (std::mem::take(&mut rest), false),
        };
        let keep = |script: &mut Vec<u8>| {
            script.extend_from_slice(raw);
            script.push(b'\n');
        };
        if raw.len() + usize::from(terminated) > MAX_LINE_BYTES {
            // Rejected whole by the reader.
            expected.parse_errors += 1;
            keep(&mut script);
            continue;
        }
        let text = String::from_utf8_lossy(raw);
        match command::parse(&text) {
            Err(_) => {
                expected.parse_errors += 1;
                keep(&mut script);
            }
            Ok(None) => keep(&mut script),
            Ok(Some(command)) => match command {
                Command::Go(limits) => {
                    expected.searches.push((position, dialect));
                    script.extend_from_slice(capped_go(&limits).as_bytes());
                    script.push(b'\n');
                }
                Command::Position(game) => {
                    position = *game.position();
                    keep(&mut script);
                }
                Command::IsReady => {
                    expected.readyoks += 1;
                    keep(&mut script);
                }
                Command::Uci => {
                    dialect = Dialect::Uci;
                    expected.handshakes.push("uciok");
                    keep(&mut script);
                }
                Command::Ugi => {
                    dialect = Dialect::Ugi;
                    expected.handshakes.push("ugiok");
                    keep(&mut script);
                }
                Command::Display => {
                    expected.diagram = true;
                    keep(&mut script);
                }
                Command::Perft(depth) => {
                    script.extend_from_slice(
                        format!("perft {}\n", depth.min(MAX_PERFT_DEPTH)).as_bytes(),
                    );
                }
                Command::Bench(_) => {}
                Command::SetOption { option, value } => {
                    let cap = match option {
                        EngineOption::Hash => Some(MAX_HASH_MB),
                        EngineOption::Threads => Some(MAX_THREADS),
                        _ => None,
                    };
                    match (cap, value) {
                        (Some(cap), OptionValue::Spin { value, .. }) if value > cap => script
                            .extend_from_slice(
                                format!("setoption name {} value {cap}\n", option.spec().name)
                                    .as_bytes(),
                            ),
                        _ => keep(&mut script),
                    }
                }
                Command::Quit => {
                    keep(&mut script);
                    break;
                }
                _ => keep(&mut script),
            },
        }
    }
    (script, expected)
}

/// A whole protocol session on the input's lines.
pub fn session(data: &[u8]) {
    let (script, expected) = prepare_session(data);
    let buffer = SharedBuffer::default();
    let mut session = Session::new(Output::new(Box::new(buffer.clone())));
    session.run(Cursor::new(script.clone()));
    drop(session);
    check_transcript(&buffer.text(), &expected, &script);
}

fn check_transcript(output: &str, expected: &Expected, script: &[u8]) {
    let script = String::from_utf8_lossy(script);
    let context = || format!("script:\n{script}\noutput:\n{output}");
    let mut bestmoves = Vec::new();
    let mut readyoks = 0;
    let mut handshakes = Vec::new();
    let mut errors = 0;
    for line in output.lines() {
        match classify(line) {
            Ok(Line::BestMove(best, ponder)) => bestmoves.push((best, ponder, line)),
            Ok(Line::ReadyOk) => readyoks += 1,
            Ok(Line::HandshakeOk(ok)) => handshakes.push(ok),
            Ok(Line::Error) => errors += 1,
            Ok(Line::Other) => {}
            Err(problem) if expected.diagram => {
                // A diagram line is free-form, but never looks like an answer.
                assert!(
                    !["bestmove", "readyok", "uciok", "ugiok", "info"]
                        .iter()
                        .any(|w| line.starts_with(w)),
                    "{problem}\n{}",
                    context()
                );
            }
            Err(problem) => panic!("{problem}\n{}", context()),
        }
    }
    assert_eq!(
        bestmoves.len(),
        expected.searches.len(),
        "one bestmove per go\n{}",
        context()
    );
    for ((best, ponder, line), (position, dialect)) in bestmoves.iter().zip(&expected.searches) {
        let written = tfens::write(position);
        match best {
            None => assert!(
                position.game_over().is_some(),
                "'{line}' but the game is not over ({written})\n{}",
                context()
            ),
            Some(mv) => {
                assert!(
                    position.is_legal(*mv),
                    "'{line}' is illegal in {written}\n{}",
                    context()
                );
                if let Some(reply) = ponder {
                    let mut after = *position;
                    after.play(*mv);
                    assert!(
                        after.is_legal(*reply),
                        "'{line}': the ponder move is illegal\n{}",
                        context()
                    );
                }
            }
        }
        if *dialect == Dialect::Ugi {
            assert!(ponder.is_none(), "'{line}' in UGI\n{}", context());
        }
    }
    assert_eq!(
        readyoks,
        expected.readyoks,
        "one readyok per isready\n{}",
        context()
    );
    assert_eq!(
        handshakes,
        expected.handshakes,
        "one uciok/ugiok per handshake\n{}",
        context()
    );
    assert!(
        errors >= expected.parse_errors,
        "an error line for each bad line ({} < {})\n{}",
        errors,
        expected.parse_errors,
        context()
    );
}

/// The kinds of output line the session check counts.
#[derive(Debug)]
pub enum Line {
    BestMove(Option<Move>, Option<Move>),
    ReadyOk,
    HandshakeOk(&'static str),
    Error,
    Other,
}

fn hole(token: &str) -> Option<Move> {
    match token.as_bytes() {
        [b @ b'1'..=b'9'] => Move::from_number((b - b'0') as u32),
        _ => None,
    }
}

fn unsigned(token: Option<&&str>) -> bool {
    token.is_some_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
}

fn signed(token: Option<&&str>) -> bool {
    token.is_some_and(|t| unsigned(Some(&t.strip_prefix('-').unwrap_or(t))))
}

/// `info depth <d> seldepth <s> multipv <k> score cp <x>|mate <n>
/// [lowerbound|upperbound] nodes <n> nps <n> hashfull <p> time <ms> [pv <m> ...]`
fn is_search_info(t: &[&str]) -> bool {
    let fixed = t.len() >= 10
        && t[1] == "depth"
        && unsigned(t.get(2))
        && t[3] == "seldepth"
        && unsigned(t.get(4))
        && t[5] == "multipv"
        && unsigned(t.get(6))
        && t[7] == "score"
        && (t[8] == "cp" || t[8] == "mate")
        && signed(t.get(9));
    if !fixed {
        return false;
    }
    let mut i = 10;
    if matches!(t.get(i), Some(&"lowerbound") | Some(&"upperbound")) {
        i += 1;
    }
    for word in ["nodes", "nps", "hashfull", "time"] {
        if t.get(i) != Some(&word) || !unsigned(t.get(i + 1)) {
            return false;
        }
        i += 2;
    }
    match t.get(i) {
        None => true,
        Some(&"pv") => t.len() > i + 1 && t[i + 1..].iter().all(|m| hole(m).is_some()),
        Some(_) => false,
    }
}

/// Classifies one output line by protocol.md (the `d` diagram's free-form
/// lines and the bench lines excepted).
pub fn classify(line: &str) -> Result<Line, String> {
    let t: Vec<&str> = line.split(' ').collect();
    let n = t.len();
    let bad = || Err(format!("line not defined by protocol.md: {line:?}"));
    let ok = match t[0] {
        "uciok" if n == 1 => Line::HandshakeOk("uciok"),
        "ugiok" if n == 1 => Line::HandshakeOk("ugiok"),
        "readyok" if n == 1 => Line::ReadyOk,
        "bestmove" => {
            let best = match t.get(1) {
                Some(&"0000") => None,
                Some(m) => match hole(m) {
                    Some(mv) => Some(mv),
                    None => return bad(),
                },
                None => return bad(),
            };
            match &t[2..] {
                [] => Line::BestMove(best, None),
                ["ponder", p] if best.is_some() && hole(p).is_some() => {
                    Line::BestMove(best, hole(p))
                }
                _ => return bad(),
            }
        }
        "info" if line.starts_with("info string error: ") => Line::Error,
        "info" if line.starts_with("info string ") => Line::Other,
        "info" if is_search_info(&t) => Line::Other,
        "id" if n >= 3 && (t[1] == "name" || t[1] == "author") => Line::Other,
        "option" if n >= 4 && t[1] == "name" && line.contains(" type ") => Line::Other,
        "response"
            if n == 2 && ["true", "false", "p1win", "p2win", "draw", "none"].contains(&t[1]) =>
        {
            Line::Other
        }
        "fen" if n >= 2 && tfens::parse(&line[4..]).is_ok() => Line::Other,
        "key" if n == 2 && t[1].len() == 16 && t[1].bytes().all(|b| b.is_ascii_hexdigit()) => {
            Line::Other
        }
        "move"
            if n == 12
                && hole(t[1]).is_some()
                && t[2] == "sows"
                && unsigned(t.get(3))
                && t[4] == "lands"
                && (t[5].starts_with('S') || t[5].starts_with('N'))
                && hole(&t[5][1..]).is_some()
                && t[6] == "captures"
                && unsigned(t.get(7))
                && t[8] == "tuzdik"
                && (t[9] == "yes" || t[9] == "no")
                && t[10] == "kazan"
                && unsigned(t.get(11)) =>
        {
            Line::Other
        }
        "eval"
            if n == 7
                && t[1] == "term"
                && t[3] == "value"
                && signed(t.get(4))
                && t[5] == "cp"
                && signed(t.get(6)) =>
        {
            Line::Other
        }
        "eval"
            if n == 6
                && t[1] == "phase"
                && unsigned(t.get(2))
                && t[3] == "total"
                && t[4] == "cp"
                && signed(t.get(5)) =>
        {
            Line::Other
        }
        "eval"
            if n == 6
                && t[1] == "network"
                && t[2].len() == 8
                && t[2].chars().all(|c| c.is_ascii_hexdigit())
                && t[3] == "total"
                && t[4] == "cp"
                && signed(t.get(5)) =>
        {
            Line::Other
        }
        "depth"
            if n == 8
                && unsigned(t.get(1))
                && t[2] == "nodes"
                && unsigned(t.get(3))
                && t[4] == "time"
                && unsigned(t.get(5))
                && t[6] == "nps"
                && unsigned(t.get(7)) =>
        {
            Line::Other
        }
        first if n == 2 && hole(first).is_some() && unsigned(t.get(1)) => Line::Other,
        _ => return bad(),
    };
    Ok(ok)
}
