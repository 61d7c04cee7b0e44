//! `tuzdyk analyse` as a user runs it: positions on stdin or in files, plain
//! and JSON output, bad lines, finished games, and the review of a real game.
//! Searches are shallow so that a slow, busy machine runs them quickly; no
//! test looks at the time taken.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Output;

use tuzdyk_notation::{record, tfen};
use tuzdyk_rules::Move;

const GAMES_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/playok-games.pgn");
const P1: &str = "1S,1S,5S,7S,6S,18S,6S,1,t/1S,2S,20S,7S,19S,t,1S,2S,1 42 24 S 11";
const P2: &str = "1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 S 74";
/// White reached 82: the game is over.
const FINISHED: &str = "1S,1S,1S,1S,2S,2S,2S,3S,t/3S,2S,2S,2S,3S,t,2S,2S,1 82 51 N 68";

/// Runs `tuzdyk analyse <args>` with `input` on stdin.
fn analyse(args: &[&str], input: &str) -> Output {
    let args: Vec<&str> = ["analyse"].iter().chain(args).copied().collect();
    common::run_tuzdyk_with_input(&args, input)
}

fn stdout_lines(output: &Output) -> Vec<String> {
    String::from_utf8(output.stdout.clone())
        .expect("UTF-8 output")
        .lines()
        .map(str::to_string)
        .collect()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let path = common::scratch_file("analyse_tool", name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The text of the `n`th game (0-based) of the PlayOK file.
fn game_text(n: usize) -> String {
    let text = std::fs::read_to_string(GAMES_FILE).unwrap();
    let starts: Vec<usize> = text.match_indices("[Event ").map(|(i, _)| i).collect();
    let end = starts.get(n + 1).copied().unwrap_or(text.len());
    text[starts[n]..end].to_string()
}

fn is_legal(fen: &str, mv: &str) -> bool {
    let pos = tfen::parse(fen).unwrap();
    mv.parse::<u32>()
        .ok()
        .and_then(Move::from_number)
        .is_some_and(|mv| pos.is_legal(mv))
}

// ---------------------------------------------------------------------------
// A small JSON reader, strict enough to check that each line is one valid
// JSON object.

#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Number(f64),
    Str(String),
    Array(Vec<Json>),
    Object(BTreeMap<String, Json>),
}

impl Json {
    fn parse(text: &str) -> Result<Json, String> {
        let mut parser = JsonParser {
            bytes: text.as_bytes(),
            at: 0,
        };
        let value = parser.value()?;
        parser.space();
        if parser.at != parser.bytes.len() {
            return Err(format!("trailing text at byte {}", parser.at));
        }
        Ok(value)
    }

    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Object(map) => map
                .get(key)
                .unwrap_or_else(|| panic!("no field '{key}' in {self:?}")),
            _ => panic!("not an object: {self:?}"),
        }
    }

    fn has(&self, key: &str) -> bool {
        matches!(self, Json::Object(map) if map.contains_key(key))
    }

    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => panic!("not a string: {self:?}"),
        }
    }

    fn int(&self) -> i64 {
        match self {
            Json::Number(n) if n.fract() == 0.0 => *n as i64,
            _ => panic!("not an integer: {self:?}"),
        }
    }

    fn num(&self) -> f64 {
        match self {
            Json::Number(n) => *n,
            _ => panic!("not a number: {self:?}"),
        }
    }

    fn array(&self) -> &[Json] {
        match self {
            Json::Array(items) => items,
            _ => panic!("not an array: {self:?}"),
        }
    }

    fn is_null(&self) -> bool {
        *self == Json::Null
    }
}

struct JsonParser<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl JsonParser<'_> {
    fn space(&mut self) {
        while self.at < self.bytes.len() && b" \t\r\n".contains(&self.bytes[self.at]) {
            self.at += 1;
        }
    }

    fn expect(&mut self, literal: &str) -> Result<(), String> {
        if self.bytes[self.at..].starts_with(literal.as_bytes()) {
            self.at += literal.len();
            Ok(())
        } else {
            Err(format!("expected '{literal}' at byte {}", self.at))
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        self.space();
        match self.bytes.get(self.at) {
            Some(b'{') => {
                self.at += 1;
                let mut map = BTreeMap::new();
                self.space();
                if self.bytes.get(self.at) == Some(&b'}') {
                    self.at += 1;
                    return Ok(Json::Object(map));
                }
                loop {
                    self.space();
                    let key = self.string()?;
                    self.space();
                    self.expect(":")?;
                    let value = self.value()?;
                    if map.insert(key.clone(), value).is_some() {
                        return Err(format!("duplicate key '{key}'"));
                    }
                    self.space();
                    match self.bytes.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b'}') => {
                            self.at += 1;
                            return Ok(Json::Object(map));
                        }
                        _ => return Err(format!("expected ',' or '}}' at byte {}", self.at)),
                    }
                }
            }
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                self.space();
                if self.bytes.get(self.at) == Some(&b']') {
                    self.at += 1;
                    return Ok(Json::Array(items));
                }
                loop {
                    items.push(self.value()?);
                    self.space();
                    match self.bytes.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b']') => {
                            self.at += 1;
                            return Ok(Json::Array(items));
                        }
                        _ => return Err(format!("expected ',' or ']' at byte {}", self.at)),
                    }
                }
            }
            Some(b'"') => self.string().map(Json::Str),
            Some(b't') => self.expect("true").map(|()| Json::Bool(true)),
            Some(b'f') => self.expect("false").map(|()| Json::Bool(false)),
            Some(b'n') => self.expect("null").map(|()| Json::Null),
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let start = self.at;
                self.at += 1;
                while self.at < self.bytes.len()
                    && b"0123456789.eE+-".contains(&self.bytes[self.at])
                {
                    self.at += 1;
                }
                let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap();
                text.parse()
                    .map(Json::Number)
                    .map_err(|_| format!("bad number '{text}'"))
            }
            _ => Err(format!("unexpected byte at {}", self.at)),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect("\"")?;
        let mut out = String::new();
        loop {
            let Some(&c) = self.bytes.get(self.at) else {
                return Err("unterminated string".to_string());
            };
            self.at += 1;
            match c {
                b'"' => return Ok(out),
                b'\\' => {
                    let escaped = *self.bytes.get(self.at).ok_or("bad escape")?;
                    self.at += 1;
                    match escaped {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'u' => {
                            let hex = std::str::from_utf8(&self.bytes[self.at..self.at + 4])
                                .map_err(|e| e.to_string())?;
                            let code = u32::from_str_radix(hex, 16).map_err(|e| e.to_string())?;
                            out.push(char::from_u32(code).ok_or("bad \\u escape")?);
                            self.at += 4;
                        }
                        _ => return Err("bad escape".to_string()),
                    }
                }
                c if c < 0x20 => return Err("control character in a string".to_string()),
                _ => {
                    // Copy the whole UTF-8 sequence.
                    let start = self.at - 1;
                    let len = match c {
                        0xF0.. => 4,
                        0xE0.. => 3,
                        0xC0.. => 2,
                        _ => 1,
                    };
                    self.at = start + len;
                    out.push_str(std::str::from_utf8(&self.bytes[start..self.at]).unwrap());
                }
            }
        }
    }
}

#[test]
fn the_json_reader_reads_json() {
    let value = Json::parse(r#"{"a":[1,-2.5,"x\"y\u0041"],"b":null,"c":true,"d":{}}"#).unwrap();
    assert_eq!(value.get("a").array()[2].str(), "x\"yA");
    assert!(value.get("b").is_null());
    assert!(Json::parse(r#"{"a":1,}"#).is_err());
    assert!(Json::parse(r#"{"a":1} x"#).is_err());
}

/// Checks a score given as `<prefix>_cp` and `<prefix>_mate`: exactly one is
/// a number.
fn check_score(value: &Json, prefix: &str) {
    let cp = value.get(&format!("{prefix}_cp"));
    let mate = value.get(&format!("{prefix}_mate"));
    assert!(
        cp.is_null() != mate.is_null(),
        "exactly one of {prefix}_cp and {prefix}_mate: {value:?}"
    );
    if !cp.is_null() {
        cp.int();
    } else {
        mate.int();
    }
}

// ---------------------------------------------------------------------------
// Positions.

#[test]
fn positions_in_plain_text_give_one_line_each() {
    let input = format!("{}\n{P1}\n\n{P2}\n", tfen::STARTPOS);
    let output = analyse(&["--depth", "5"], &input);
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 3, "{lines:?}");
    for (line, fen) in lines.iter().zip([tfen::STARTPOS, P1, P2]) {
        assert!(line.starts_with(fen), "'{line}' should start with {fen}");
        let words: Vec<&str> = line[fen.len()..].split_whitespace().collect();
        assert_eq!(words[0], "bestmove", "{line}");
        assert!(is_legal(fen, words[1]), "{line}");
        assert_eq!(words[2], "score", "{line}");
        assert!(["cp", "mate"].contains(&words[3]), "{line}");
        words[4].parse::<i32>().unwrap();
        assert_eq!(words[5], "depth", "{line}");
        assert!(
            (1..=5).contains(&words[6].parse::<u32>().unwrap()),
            "{line}"
        );
        assert_eq!(words[7], "nodes", "{line}");
        assert!(words[8].parse::<u64>().unwrap() > 0, "{line}");
        assert_eq!(words[9], "pv", "{line}");
        assert_eq!(
            words[10], words[1],
            "the pv starts with the best move: {line}"
        );
    }
}

#[test]
fn positions_in_json_have_every_field() {
    let input = format!("{}\n{P1}\n", tfen::STARTPOS);
    let output = analyse(&["--depth", "4", "--json", "--multipv", "3"], &input);
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 2, "{lines:?}");
    for ((line, fen), number) in lines.iter().zip([tfen::STARTPOS, P1]).zip([1, 2]) {
        let value = Json::parse(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(value.get("type").str(), "position");
        assert_eq!(value.get("fen").str(), fen);
        assert_eq!(value.get("line").int(), number);
        assert_eq!(value.get("source").str(), "stdin");
        let best = value.get("bestmove").str();
        assert!(is_legal(fen, best), "{line}");
        check_score(&value, "score");
        assert!((1..=4).contains(&value.get("depth").int()));
        assert!(value.get("nodes").int() > 0);
        let pv = value.get("pv").array();
        assert!(!pv.is_empty());
        assert_eq!(pv[0].str(), best);
        let mut pos = tfen::parse(fen).unwrap();
        for mv in pv {
            let mv = Move::from_number(mv.str().parse().unwrap()).unwrap();
            if pos.game_over().is_some() {
                break;
            }
            assert!(pos.is_legal(mv), "pv {pv:?} in {fen}");
            pos.play(mv);
        }
        assert_eq!(value.get("game_over"), &Json::Bool(false));
        // Three lines, three different first moves, best first.
        let multi = value.get("lines").array();
        assert_eq!(multi.len(), 3, "{line}");
        let firsts: Vec<&str> = multi.iter().map(|l| l.get("move").str()).collect();
        assert_eq!(firsts[0], best);
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        for (k, l) in multi.iter().enumerate() {
            assert_eq!(l.get("multipv").int(), k as i64 + 1);
            check_score(l, "score");
            assert!(is_legal(fen, l.get("move").str()));
        }
    }
}

#[test]
fn a_pipeline_of_game_positions_gives_one_line_per_position() {
    // What `tuzdyk replay --fen games.pgn | head -8` gives: final positions of
    // real games, some of them finished.
    let replay = common::run_tuzdyk(&["replay", "--fen", GAMES_FILE]);
    let text = String::from_utf8(replay.stdout).unwrap();
    let fens: Vec<&str> = text.lines().take(8).collect();
    let mut input = fens.join("\n");
    input.push('\n');
    let output = analyse(&["--depth", "4", "--json"], &input);
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).trim(),
        "",
        "nothing on stderr for good input"
    );
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), fens.len());
    let mut finished = 0;
    for ((line, fen), number) in lines.iter().zip(&fens).zip(1..) {
        let value = Json::parse(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(value.get("line").int(), number);
        let pos = tfen::parse(fen).unwrap();
        assert_eq!(value.get("fen").str(), tfen::write(&pos));
        let best = value.get("bestmove").str();
        if let Some(result) = pos.result() {
            finished += 1;
            assert_eq!(best, "0000");
            assert_eq!(value.get("game_over"), &Json::Bool(true));
            assert_eq!(value.get("result").str(), record::result_text(Some(result)));
        } else {
            assert!(is_legal(fen, best), "{best} in {fen}");
            assert_eq!(value.get("game_over"), &Json::Bool(false));
        }
    }
    assert!(finished > 0, "the first games include finished ones");
}

#[test]
fn a_finished_game_says_so() {
    let output = analyse(&["--depth", "3"], &format!("{FINISHED}\n"));
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with(FINISHED), "{}", lines[0]);
    assert!(
        lines[0].contains("bestmove 0000  game over 1-0"),
        "{}",
        lines[0]
    );
}

#[test]
fn bad_lines_are_reported_and_the_rest_is_analysed() {
    let input = format!(
        "{}\nnot a position\n9S/9S 0 0 S 1\n{P2}\n9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 X 1\n",
        tfen::STARTPOS
    );
    let output = analyse(&["--depth", "3", "--json"], &input);
    assert_eq!(output.status.code(), Some(1), "bad input gives status 1");
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 2, "the two good lines are analysed: {lines:?}");
    let numbers: Vec<i64> = lines
        .iter()
        .map(|l| Json::parse(l).unwrap().get("line").int())
        .collect();
    assert_eq!(numbers, [1, 4]);
    let err = stderr(&output);
    let err_lines: Vec<&str> = err.lines().collect();
    assert!(
        err_lines
            .iter()
            .any(|l| l.starts_with("stdin:2: invalid TFEN 'not a position'")),
        "{err}"
    );
    assert!(
        err_lines
            .iter()
            .any(|l| l.starts_with("stdin:3: ") && l.contains("North row has 1 holes")),
        "{err}"
    );
    assert!(
        err_lines
            .iter()
            .any(|l| l.starts_with("stdin:5: ") && l.contains("side to move 'X'")),
        "{err}"
    );
}

#[test]
fn files_and_stdin_are_read_in_order() {
    let file = temp_file("positions.txt", &format!("# a comment\n{P1}\n"));
    let output = analyse(
        &["--depth", "3", file.to_str().unwrap(), "-"],
        &format!("{P2}\n"),
    );
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with(P1) && lines[1].starts_with(P2));

    let missing = analyse(&["--depth", "3", "/nonexistent/positions.txt"], "");
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("/nonexistent/positions.txt: cannot read"));
}

#[test]
fn another_engine_command_can_be_given() {
    let engine = common::TUZDYK;
    let output = analyse(
        &["--engine-cmd", engine, "--nodes", "2000"],
        &format!("{P1}\n"),
    );
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    assert_eq!(stdout_lines(&output).len(), 1);

    let output = analyse(&["--engine-cmd", "/nonexistent/engine"], &format!("{P1}\n"));
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("cannot start"),
        "{}",
        stderr(&output)
    );
}

// ---------------------------------------------------------------------------
// Game review.

#[test]
fn a_real_game_is_reviewed_move_by_move_in_plain_text() {
    let text = game_text(1);
    let game = record::parse_game_text(&text).unwrap();
    let output = analyse(&["--depth", "4"], &text);
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 1 + game.game.moves().len() + 2, "{lines:#?}");
    assert!(
        lines[0].starts_with("game 1: sportt vs argenby, 0-1"),
        "{}",
        lines[0]
    );
    let mut pos = *game.game.start();
    for (line, &mv) in lines[1..=game.game.moves().len()]
        .iter()
        .zip(game.game.moves())
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        // `12. White 65(10) best 6 before cp 12 after cp -40 loss 52 [mark]`
        assert!(words[0].ends_with('.'), "{line}");
        assert_eq!(words[1], pos.side_to_move().name(), "{line}");
        assert!(words[2].starts_with(&mv.to_string()), "{line}");
        assert_eq!(words[3], "best");
        assert!(is_legal(&tfen::write(&pos), words[4]), "{line}");
        assert_eq!([words[5], words[8], words[11]], ["before", "after", "loss"]);
        let loss: i32 = words[12].parse().unwrap();
        assert!(loss >= 0);
        let mark = match loss {
            600.. => Some("blunder"),
            300.. => Some("mistake"),
            100.. => Some("inaccuracy"),
            _ => None,
        };
        assert_eq!(words.get(13).copied(), mark, "{line}");
        assert!(words.len() <= 14, "{line}");
        if words[4] == mv.to_string() {
            assert_eq!(loss, 0, "the engine's own move loses nothing: {line}");
        }
        pos.play(mv);
    }
    let white = &lines[lines.len() - 2];
    let black = &lines[lines.len() - 1];
    assert!(white.starts_with("summary White sportt: moves "), "{white}");
    assert!(
        black.starts_with("summary Black argenby: moves "),
        "{black}"
    );
    let white_moves = game.game.moves().len().div_ceil(2);
    assert!(white.contains(&format!("moves {white_moves},")), "{white}");
    for summary in [white, black] {
        for part in [
            "average loss",
            "inaccuracies",
            "mistakes",
            "blunders",
            "accuracy",
        ] {
            assert!(summary.contains(part), "{summary}");
        }
    }
}

#[test]
fn a_real_game_is_reviewed_in_json_with_a_summary() {
    let text = game_text(0);
    let game = record::parse_game_text(&text).unwrap();
    let output = analyse(&["--depth", "3", "--json"], &text);
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), game.game.moves().len() + 1);
    let positions = game.positions();
    let mut counts = [[0i64; 4]; 2];
    for (ply, line) in lines[..game.game.moves().len()].iter().enumerate() {
        let value = Json::parse(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(value.get("type").str(), "move");
        assert_eq!(value.get("game").int(), 1);
        assert_eq!(value.get("ply").int(), ply as i64 + 1);
        let before = positions[ply];
        assert_eq!(value.get("fen").str(), tfen::write(&before));
        assert_eq!(value.get("move").str(), game.game.moves()[ply].to_string());
        assert!(is_legal(value.get("fen").str(), value.get("best").str()));
        let side = value.get("side").str();
        assert_eq!(side, ["white", "black"][before.side_to_move().index()]);
        check_score(&value, "before");
        check_score(&value, "after");
        let loss = value.get("loss").int();
        assert!(loss >= 0);
        let mark = value.get("mark");
        let index = match mark {
            Json::Null => 0,
            Json::Str(m) if m == "inaccuracy" => 1,
            Json::Str(m) if m == "mistake" => 2,
            Json::Str(m) if m == "blunder" => 3,
            other => panic!("bad mark {other:?}"),
        };
        let expected = match loss {
            600.. => 3,
            300.. => 2,
            100.. => 1,
            _ => 0,
        };
        assert_eq!(index, expected, "{line}");
        let side = before.side_to_move().index();
        counts[side][0] += 1;
        if index > 0 {
            counts[side][index] += 1;
        }
        assert!(value.has("notation") && value.has("pv") && value.has("depth"));
    }
    let summary = Json::parse(lines.last().unwrap()).unwrap();
    assert_eq!(summary.get("type").str(), "summary");
    assert_eq!(summary.get("result").str(), "1-0");
    assert_eq!(summary.get("plies").int(), game.game.moves().len() as i64);
    for (side, key) in ["white", "black"].into_iter().enumerate() {
        let player = summary.get(key);
        assert_eq!(player.get("name").str(), game.tag(key).unwrap_or("?"));
        assert_eq!(player.get("moves").int(), counts[side][0]);
        assert_eq!(player.get("inaccuracies").int(), counts[side][1]);
        assert_eq!(player.get("mistakes").int(), counts[side][2]);
        assert_eq!(player.get("blunders").int(), counts[side][3]);
        assert!(player.get("average_loss").num() >= 0.0);
        let accuracy = player.get("accuracy").num();
        assert!((0.0..=100.0).contains(&accuracy));
    }
}

#[test]
fn review_thresholds_are_configurable_and_checked() {
    let text = game_text(2);
    let game = record::parse_game_text(&text).unwrap();
    // Every move loses at least 0: with all thresholds at 0, all are blunders.
    let output = analyse(
        &[
            "--depth",
            "2",
            "--json",
            "--inaccuracy",
            "0",
            "--mistake",
            "0",
            "--blunder",
            "0",
        ],
        &text,
    );
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let lines = stdout_lines(&output);
    let summary = Json::parse(lines.last().unwrap()).unwrap();
    let blunders =
        summary.get("white").get("blunders").int() + summary.get("black").get("blunders").int();
    assert_eq!(blunders, game.game.moves().len() as i64);

    let output = analyse(&["--mistake", "50", "--inaccuracy", "100"], &text);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("thresholds must rise"));
}

#[test]
fn a_bad_game_is_reported_and_the_others_reviewed() {
    let good = game_text(3);
    let bad = game_text(4).replacen("1. ", "1. 11 ", 1);
    let good_game = record::parse_game_text(&good).unwrap();
    let file = temp_file("games.pgn", &format!("{bad}\n{good}"));
    let output = analyse(&["--depth", "2", file.to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("game 1"), "{err}");
    let lines = stdout_lines(&output);
    assert!(lines[0].starts_with("game 2: "), "{}", lines[0]);
    assert_eq!(lines.len(), 1 + good_game.game.moves().len() + 2);
}

#[test]
fn bad_lines_are_quoted_without_control_characters() {
    let output = analyse(&["--depth", "1"], "bad\u{1b}[31mline\n");
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(
        !err.contains('\u{1b}'),
        "an escape sequence got through: {err:?}"
    );
    assert!(
        err.contains("stdin:1: invalid TFEN 'bad?[31mline'"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------
// Learning from mistakes (`--mistakes`).

/// Four plies of a real game; White's second move (hole 1, ply 3) throws
/// away more than ten stones at any depth.
const BLUNDER_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/blunder.pgn");

/// The exercises of `--mistakes --json` with `extra` arguments.
fn exercises(extra: &[&str]) -> Vec<Json> {
    let mut args = vec!["--mistakes", "--json", "--depth", "4"];
    args.extend(extra);
    args.push(BLUNDER_FILE);
    let output = analyse(&args, "");
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    stdout_lines(&output)
        .iter()
        .map(|line| Json::parse(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

fn strings(value: &Json) -> Vec<String> {
    value.array().iter().map(|v| v.str().to_string()).collect()
}

#[test]
fn a_blunder_becomes_an_exercise_in_json() {
    let game = record::parse_game_text(&std::fs::read_to_string(BLUNDER_FILE).unwrap()).unwrap();
    let before = game.positions()[2];
    let all = exercises(&[]);
    assert_eq!(all.len(), 1, "{all:?}");
    let exercise = &all[0];
    assert_eq!(exercise.get("game").int(), 1);
    assert_eq!(exercise.get("ply").int(), 3);
    assert_eq!(exercise.get("side").str(), "white");
    assert_eq!(exercise.get("player").str(), "sportt");
    assert_eq!(exercise.get("fen").str(), tfen::write(&before));
    assert_eq!(exercise.get("played").str(), "1");
    assert!(exercise.get("loss").int() >= 600, "{exercise:?}");
    assert_eq!(exercise.get("mark").str(), "blunder");
    let best = exercise.get("best").str();
    assert!(is_legal(exercise.get("fen").str(), best), "{best}");
    let pv = strings(exercise.get("pv"));
    assert_eq!(pv.first().map(String::as_str), Some(best));
    let accepted = strings(exercise.get("accepted"));
    assert!(accepted.iter().any(|mv| mv == best), "{accepted:?}");
    assert!(!accepted.iter().any(|mv| mv == "1"), "{accepted:?}");
    for mv in &accepted {
        assert!(is_legal(exercise.get("fen").str(), mv), "{mv}");
    }
    // The player and the side choose whose mistakes.
    assert_eq!(exercises(&["--player", "sportt"]), all);
    assert_eq!(exercises(&["--side", "white"]), all);
    assert!(exercises(&["--player", "argenby"]).is_empty());
    assert!(exercises(&["--side", "black"]).is_empty());
}

#[test]
fn mistakes_are_asked_with_the_answers_on_stdin() {
    let exercise = exercises(&[]).remove(0);
    let fen = exercise.get("fen").str();
    let best = exercise.get("best").str().to_string();
    let accepted = strings(exercise.get("accepted"));
    let wrong = (1..=9)
        .map(|n| n.to_string())
        .find(|mv| is_legal(fen, mv) && !accepted.contains(mv) && mv != "1")
        .expect("a legal move that is not accepted");
    let empty = (1..=9)
        .map(|n| n.to_string())
        .find(|mv| !is_legal(fen, mv))
        .expect("an empty hole");
    // The game twice: two exercises. The first gets a wrong answer, the
    // second a malformed line, an empty hole, then the best move.
    let input = format!("{wrong}\nx\n{empty}\n{best}\n");
    let args = ["--mistakes", "--depth", "4", BLUNDER_FILE, BLUNDER_FILE];
    let output = analyse(&args, &input);
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let out = String::from_utf8(output.stdout).unwrap();
    let question = "find a better move (1-9, or skip, quit)> ";
    assert_eq!(out.matches(question).count(), 4, "{out}");
    for answer in [&wrong, "x", &empty, &best] {
        assert!(
            out.contains(&format!("{question}{answer}\n")),
            "{answer}: {out}"
        );
    }
    assert!(out.contains("sportt played 1, a blunder (loses "), "{out}");
    assert!(out.contains("  sportt (White)"), "the board: {out}");
    assert!(
        out.contains(&format!("{wrong} is not accepted: it loses ")),
        "{out}"
    );
    assert!(out.contains("'x' is not a hole number (1 to 9)."), "{out}");
    assert!(out.contains(&format!("Hole {empty} is empty")), "{out}");
    assert!(
        out.contains(&format!("{best} is accepted: it loses 0.0 stones.")),
        "{out}"
    );
    let engine_line = format!("engine: best {best}, line {best}");
    assert_eq!(out.matches(&engine_line).count(), 2, "{out}");
    // `quit` stops before the second exercise.
    let quit = analyse(&args, "quit\n");
    assert!(quit.status.success());
    assert_eq!(
        String::from_utf8_lossy(&quit.stdout)
            .matches(question)
            .count(),
        1
    );
}

#[test]
fn mistakes_in_json_read_the_games_from_stdin_and_refuse_positions() {
    let text = std::fs::read_to_string(BLUNDER_FILE).unwrap();
    let output = analyse(&["--mistakes", "--json", "--depth", "4"], &text);
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let exercise = Json::parse(&lines[0]).unwrap();
    assert_eq!(exercise.get("source").str(), "stdin");
    assert_eq!(exercise.get("played").str(), "1");
    let positions = analyse(
        &["--mistakes", "--json", "--depth", "4"],
        &format!("{P1}\n"),
    );
    assert_eq!(positions.status.code(), Some(1));
    assert!(positions.stdout.is_empty());
    assert!(
        stderr(&positions).contains("stdin: --mistakes takes game records, not positions"),
        "{}",
        stderr(&positions)
    );
}

#[test]
fn mistakes_without_json_need_files_for_the_games() {
    let output = analyse(&["--mistakes", "--depth", "4"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--mistakes reads the answers from standard input"),
        "{}",
        stderr(&output)
    );
    let nobody = analyse(
        &[
            "--mistakes",
            "--json",
            "--depth",
            "4",
            "--player",
            "nobody",
            BLUNDER_FILE,
        ],
        "",
    );
    assert_eq!(nobody.status.code(), Some(1));
    assert!(stderr(&nobody).contains("no game has a player named 'nobody'"));
}
