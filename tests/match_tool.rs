//! `tuzdyk match` as a user runs it: a real match between two tuzdyk
//! processes, the referee against misbehaving engines (the bash scripts in
//! `tests/fake_engines/`), bad input, and the shipped opening suite.
//!
//! No test asserts on elapsed time; time limits are short only so that the
//! tests stay fast, and every check holds on a slow, busy machine.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tuzdyk_notation::record;
use tuzdyk_tools::matches::openings;

const GAMES_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/playok-games.pgn");
const SUITE_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openings/playok.tfen");

#[test]
fn shipped_openings_are_reproducible() {
    let games = std::fs::read_to_string(GAMES_FILE).unwrap();
    let expected = openings::suite_file(&openings::generate_suite(&games));
    let shipped = std::fs::read_to_string(SUITE_FILE).unwrap();
    assert!(
        shipped == expected,
        "openings/playok.tfen is stale: cargo test --release --test match_tool -- --ignored regenerate_openings"
    );
}

/// Rewrites `openings/playok.tfen` from the PlayOK games.
#[test]
#[ignore]
fn regenerate_openings() {
    let games = std::fs::read_to_string(GAMES_FILE).unwrap();
    let lines = openings::generate_suite(&games);
    std::fs::write(SUITE_FILE, openings::suite_file(&lines)).unwrap();
    println!("{} openings written to {SUITE_FILE}", lines.len());
}

const TUZDYK: &str = env!("CARGO_BIN_EXE_tuzdyk");

/// A position where each side's hole 1 is empty and stays empty for a
/// move: White (South) has one stone in each of holes 2-4, which stay on
/// White's side when sown; Black (North) has 5 in holes 2-9. An engine
/// that plays hole 1 plays an illegal move at its first turn either way.
const HOLE_1_EMPTY: &str = "5S,5S,5S,5S,5S,5S,5S,5S,1/1,1S,1S,1S,5 60 59 S 1";

fn fake(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake_engines")
        .join(name);
    path.to_str().expect("a UTF-8 path").to_string()
}

/// A fresh directory for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("match_tool_{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run_match(args: &[&str]) -> Output {
    Command::new(TUZDYK)
        .arg("match")
        .args(args)
        .env_remove("RUST_LOG")
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("the tuzdyk binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// The value of `"key":` in a flat stretch of JSON, as written (numbers,
/// `null`, strings with their quotes); the first occurrence.
fn json_field<'a>(json: &'a str, key: &str) -> &'a str {
    let pattern = format!("\"{key}\":");
    let start = json
        .find(&pattern)
        .unwrap_or_else(|| panic!("no {key} in {json}"))
        + pattern.len();
    let rest = &json[start..];
    let end = if let Some(string) = rest.strip_prefix('"') {
        1 + string.find('"').unwrap() + 1
    } else if rest.starts_with('[') {
        rest.find(']').unwrap() + 1
    } else {
        rest.find([',', '}']).unwrap()
    };
    &rest[..end]
}

/// The forfeit counts of engine `index` (0 or 1) in the JSON summary.
fn forfeits(json: &str, index: usize) -> String {
    let start = json.find("\"forfeits\":[").unwrap();
    let entries = &json[start..];
    let entry = entries.split("{\"engine\":").nth(index + 1).unwrap();
    entry[..entry.find('}').unwrap()].to_string()
}

/// Checks that the file's games all replay cleanly and returns them.
fn replay(path: &Path) -> Vec<record::GameRecord> {
    let text = std::fs::read_to_string(path).unwrap();
    record::parse_games(&text)
        .into_iter()
        .map(|game| game.unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display())))
        .collect()
}

fn write_openings(dir: &Path, lines: &[&str]) -> PathBuf {
    let path = dir.join("openings.tfen");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

#[test]
fn a_real_match_between_two_levels() {
    let dir = scratch("real");
    let pgn = dir.join("games.pgn");
    let casual = format!("cmd={TUZDYK}");
    let output = run_match(&[
        "--engine",
        &casual,
        "name=casual",
        "option.Level=casual",
        "option.Hash=4",
        "--engine",
        &casual,
        "name=beginner",
        "option.Level=beginner",
        "--nodes",
        "3000",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
        "--sprt",
        "elo0=0",
        "elo1=10",
    ]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(output.status.success(), "{stdout}\n{stderr}");
    // One result line and one running-score line per game on stderr.
    for game in 1..=4 {
        assert!(stderr.contains(&format!("game {game}/4: ")), "{stderr}");
    }
    assert!(
        stderr.contains("after 4 games: casual vs beginner: W "),
        "{stderr}"
    );
    assert!(stderr.contains("LLR "), "{stderr}");
    let result = stdout.lines().last().unwrap();
    assert!(
        result.starts_with("result: casual vs beginner: W "),
        "{stdout}"
    );
    assert!(result.contains(", 4 games"), "{stdout}");
    assert!(stdout.contains("pentanomial"), "{stdout}");
    assert!(stdout.contains("logistic Elo"), "{stdout}");
    // W + D + L = 4.
    let words: Vec<&str> = result.split([' ', ',']).collect();
    let count = |key: &str| -> u32 {
        let i = words.iter().position(|w| *w == key).unwrap();
        words[i + 1].parse().unwrap()
    };
    assert_eq!(count("W") + count("D") + count("L"), 4, "{result}");

    let games = replay(&pgn);
    assert_eq!(games.len(), 4);
    let mut rounds: Vec<String> = games
        .iter()
        .map(|g| g.tag("Round").unwrap().to_string())
        .collect();
    rounds.sort();
    assert_eq!(rounds, ["1", "2", "3", "4"]);
    for game in &games {
        let round: usize = game.tag("Round").unwrap().parse().unwrap();
        let (white, black) = if round % 2 == 1 {
            ("casual", "beginner")
        } else {
            ("beginner", "casual")
        };
        assert_eq!(game.tag("White"), Some(white));
        assert_eq!(game.tag("Black"), Some(black));
        assert_eq!(game.tag("Event"), Some("tuzdyk match"));
        assert!(game.tag("Date").is_some() && game.tag("Site").is_some());
        assert!(
            game.tag("FEN").is_some(),
            "built-in openings are not the start"
        );
        let result = game.result.expect("every game has a result");
        assert_eq!(game.tag("Result"), Some(record::result_text(Some(result))));
        let termination = game.tag("Termination").unwrap();
        assert!(
            termination.starts_with("normal") || termination.starts_with("adjudicated"),
            "{termination}"
        );
        if termination.starts_with("normal") {
            assert_eq!(game.final_position().result(), Some(result));
        }
    }
    // Both games of a pair start from the same opening.
    let start_of = |round: &str| {
        games
            .iter()
            .find(|g| g.tag("Round") == Some(round))
            .unwrap()
            .game
            .start()
    };
    assert_eq!(start_of("1"), start_of("2"));
    assert_eq!(start_of("3"), start_of("4"));
    assert_ne!(start_of("1"), start_of("3"));

    // And the binary's own replay agrees.
    let replayed = Command::new(TUZDYK)
        .arg("replay")
        .arg(&pgn)
        .output()
        .unwrap();
    assert!(replayed.status.success());
    assert_eq!(text(&replayed.stdout).trim(), "games 4 ok 4 failed 0");
}

#[test]
fn the_json_summary_is_one_object() {
    let dir = scratch("json");
    let openings = write_openings(&dir, &[HOLE_1_EMPTY]);
    let engine = format!("cmd={TUZDYK}");
    let output = run_match(&[
        "--engine",
        &engine,
        "name=a \"quoted\" name",
        "--engine",
        &engine,
        "name=b",
        "--depth",
        "2",
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--json",
    ]);
    let stdout = text(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        text(&output.stderr)
    );
    let json = stdout.trim();
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(json.starts_with('{') && json.ends_with('}'), "{json}");
    assert!(json.contains(r#""name":"a \"quoted\" name""#), "{json}");
    assert_eq!(json_field(json, "games"), "2");
    assert_eq!(json_field(json, "games_requested"), "2");
    assert_eq!(json_field(json, "pairs"), "1");
    assert_eq!(json_field(json, "sprt"), "null");
    assert_eq!(json_field(json, "time_control"), "\"depth 2\"");
    let wins: u32 = json_field(json, "wins").parse().unwrap();
    let draws: u32 = json_field(json, "draws").parse().unwrap();
    let losses: u32 = json_field(json, "losses").parse().unwrap();
    assert_eq!(wins + draws + losses, 2);
    // Balanced braces and brackets outside strings.
    let (mut depth, mut in_string, mut escaped) = (0i32, false, false);
    for c in json.chars() {
        match (in_string, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (true, false, '"') => in_string = false,
            (false, _, '"') => in_string = true,
            (false, _, '{' | '[') => depth += 1,
            (false, _, '}' | ']') => depth -= 1,
            _ => {}
        }
        assert!(depth >= 0, "{json}");
    }
    assert_eq!((depth, in_string), (0, false), "{json}");
}

#[test]
fn an_illegal_move_loses_and_is_recorded() {
    let dir = scratch("illegal");
    let openings = write_openings(&dir, &[HOLE_1_EMPTY]);
    let pgn = dir.join("games.pgn");
    let illegal = format!("cmd={}", fake("illegal.sh"));
    let engine = format!("cmd={TUZDYK}");
    let output = run_match(&[
        "--engine",
        &illegal,
        "name=fake",
        "--engine",
        &engine,
        "name=tuzdyk",
        "--depth",
        "2",
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
    ]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert_eq!(json_field(&stdout, "losses"), "2", "{stdout}");
    assert!(
        forfeits(&stdout, 0).contains("\"illegal_move\":2"),
        "{stdout}"
    );
    assert!(
        forfeits(&stdout, 1).contains("\"illegal_move\":0"),
        "{stdout}"
    );
    assert!(
        stderr.contains("illegal move '1' by fake at move 1 (hole 1 is empty)"),
        "{stderr}"
    );
    let games = replay(&pgn);
    assert_eq!(games.len(), 2);
    for game in &games {
        let termination = game.tag("Termination").unwrap();
        assert!(
            termination.starts_with("illegal move '1' by fake at move 1"),
            "{termination}"
        );
        let fake_is_white = game.tag("White") == Some("fake");
        // As White the fake moves first; as Black after tuzdyk's one move.
        assert_eq!(game.game.moves().len(), if fake_is_white { 0 } else { 1 });
        assert_eq!(
            game.tag("Result"),
            Some(if fake_is_white { "0-1" } else { "1-0" })
        );
    }
}

#[test]
fn a_crash_loses_and_the_match_goes_on() {
    let dir = scratch("crash");
    let marker = dir.join("crashed-once");
    let pgn = dir.join("games.pgn");
    // Crashes in its first game, then is a real tuzdyk when restarted.
    let crash_once = format!("cmd={} {} {TUZDYK}", fake("crash.sh"), marker.display());
    let engine = format!("cmd={TUZDYK}");
    let output = run_match(&[
        "--engine",
        &crash_once,
        "name=fragile",
        "--engine",
        &engine,
        "name=tuzdyk",
        "--depth",
        "2",
        "--games",
        "4",
        "--max-plies",
        "30",
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
    ]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(marker.exists());
    assert_eq!(json_field(&stdout, "games"), "4", "{stdout}");
    assert!(forfeits(&stdout, 0).contains("\"crash\":1"), "{stdout}");
    assert!(stderr.contains("fragile crashed at move "), "{stderr}");
    let mut games = replay(&pgn);
    games.sort_by_key(|g| g.tag("Round").unwrap().parse::<u32>().unwrap());
    assert_eq!(games.len(), 4);
    let terminations: Vec<&str> = games
        .iter()
        .map(|g| g.tag("Termination").unwrap())
        .collect();
    assert!(
        terminations[0].starts_with("fragile crashed at move "),
        "{terminations:?}"
    );
    assert_eq!(record::result_text(games[0].result), "0-1");
    // After the restart the games are played out (or adjudicated at 30 plies).
    for (game, termination) in games.iter().zip(&terminations).skip(1) {
        assert!(
            termination.starts_with("normal") || *termination == "adjudicated: draw after 30 plies",
            "{terminations:?}"
        );
        assert!(game.game.moves().len() >= 11, "{termination}");
    }
}

#[test]
fn a_hung_engine_loses_and_is_restarted() {
    let dir = scratch("hang");
    let pgn = dir.join("games.pgn");
    let hang = format!("cmd={}", fake("hang.sh"));
    let engine = format!("cmd={TUZDYK}");
    let output = run_match(&[
        "--engine",
        &engine,
        "name=tuzdyk",
        "--engine",
        &hang,
        "name=sleeper",
        "--tc",
        "0.5+0",
        "--timeout-margin",
        "300",
        "--games",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
    ]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert_eq!(json_field(&stdout, "wins"), "2", "{stdout}");
    assert!(forfeits(&stdout, 1).contains("\"hang\":2"), "{stdout}");
    let games = replay(&pgn);
    assert_eq!(games.len(), 2);
    for game in &games {
        let termination = game.tag("Termination").unwrap();
        assert!(
            termination.starts_with("sleeper hung at move ")
                && termination.contains(" (no answer within "),
            "{termination}"
        );
        assert_eq!(game.tag("TimeControl"), Some("0.5"));
    }
}

#[test]
fn a_flag_loses_on_time() {
    let dir = scratch("flag");
    let openings = write_openings(&dir, &[HOLE_1_EMPTY]);
    let pgn = dir.join("games.pgn");
    // Answers a legal move (hole 2) after 0.3 s with 0.1 s on its clock.
    let slow = format!("cmd={} 0.3 2", fake("slow.sh"));
    let engine = format!("cmd={TUZDYK}");
    let output = run_match(&[
        "--engine",
        &slow,
        "name=slowpoke",
        "--engine",
        &engine,
        "name=tuzdyk",
        "--tc",
        "0.1",
        "--timeout-margin",
        "20000",
        "--games",
        "1",
        "--openings",
        openings.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("slowpoke: 1 time forfeit"), "{stdout}");
    let games = replay(&pgn);
    assert_eq!(games.len(), 1);
    let termination = games[0].tag("Termination").unwrap();
    assert!(
        termination.starts_with("slowpoke lost on time at move 1 (used "),
        "{termination}"
    );
    assert!(termination.ends_with(", had 100 ms)"), "{termination}");
    assert_eq!(record::result_text(games[0].result), "0-1");
}

#[test]
fn sprt_stops_the_match_at_a_bound() {
    // An engine that loses every game: every pair scores 0, and with
    // elo0=0 elo1=100 the LLR falls by 0.3288 a pair (fishtest's
    // LLR_logistic), past -2.944 at the 9th pair.
    let crash = format!("cmd={}", fake("crash.sh"));
    let engine = format!("cmd={TUZDYK}");
    let output = run_match(&[
        "--engine",
        &crash,
        "name=crash",
        "--engine",
        &engine,
        "name=tuzdyk",
        "--depth",
        "1",
        "--games",
        "100",
        "--sprt",
        "elo0=0",
        "elo1=100",
        "--json",
    ]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert_eq!(json_field(&stdout, "games"), "18", "{stdout}");
    assert_eq!(
        json_field(&stdout, "pentanomial"),
        "[9,0,0,0,0]",
        "{stdout}"
    );
    assert_eq!(
        json_field(&stdout, "decision"),
        "\"H0 accepted\"",
        "{stdout}"
    );
    let llr: f64 = json_field(&stdout, "llr").parse().unwrap();
    assert!((llr + 2.959).abs() < 0.01, "{llr}");
    assert_eq!(json_field(&stdout, "elo"), "null", "-inf is written null");
    assert!(stderr.contains("H0 accepted"), "{stderr}");
}

#[test]
fn bad_input_is_one_clear_error() {
    let dir = scratch("bad");
    let bad_openings = write_openings(&dir, &[HOLE_1_EMPTY, "9S,9S/9S 0 0 S 1"]);
    let engine = format!("cmd={TUZDYK}");
    let missing = dir.join("missing.tfen");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--engine", &engine, "--engine", &engine, "--tc", "ten"],
            "--tc 'ten'",
        ),
        (
            vec![
                "--engine", &engine, "speed=3", "--engine", &engine, "--depth", "1",
            ],
            "unknown key 'speed'",
        ),
        (
            vec!["--engine", "name=x", "--engine", &engine, "--depth", "1"],
            "cmd=<command> is missing",
        ),
        (
            vec!["--engine", &engine, "--depth", "1"],
            "exactly two engines",
        ),
        (
            vec!["--engine", &engine, "--engine", &engine],
            "no time control",
        ),
        (
            vec![
                "--engine",
                &engine,
                "--engine",
                &engine,
                "--depth",
                "1",
                "--openings",
                missing.to_str().unwrap(),
            ],
            "cannot read openings file",
        ),
        (
            vec![
                "--engine",
                &engine,
                "--engine",
                &engine,
                "--depth",
                "1",
                "--openings",
                bad_openings.to_str().unwrap(),
            ],
            "line 2: invalid TFEN '9S,9S/9S 0 0 S 1'",
        ),
        (
            vec![
                "--engine",
                "cmd=/nonexistent/engine",
                "--engine",
                &engine,
                "--depth",
                "1",
            ],
            "engine /nonexistent/engine: cannot start",
        ),
        (
            vec![
                "--engine", &engine, "--engine", &engine, "--depth", "1", "--sprt", "elo0=5",
                "elo1=0",
            ],
            "elo0 (5) must be below elo1 (0)",
        ),
    ];
    for (args, expected) in cases {
        let output = run_match(&args);
        let stderr = text(&output.stderr);
        assert!(!output.status.success(), "{args:?} succeeded");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}
