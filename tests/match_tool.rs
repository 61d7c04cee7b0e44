//! `tuzdyk match` as a user runs it: a real match between two tuzdyk
//! processes, the referee against misbehaving engines (the bash scripts in
//! `tests/fake_engines/`), bad input, and the shipped opening suite.
//!
//! No test asserts on elapsed time; time limits are short only so that the
//! tests stay fast, and every check holds on a slow, busy machine.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::TUZDYK;
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

/// A position where each side's hole 1 is empty and stays empty for a
/// move: White (South) has one stone in each of holes 2-4, which stay on
/// White's side when sown; Black (North) has 5 in holes 2-9. An engine
/// that plays hole 1 plays an illegal move at its first turn either way.
const HOLE_1_EMPTY: &str = "5S,5S,5S,5S,5S,5S,5S,5S,1/1,1S,1S,1S,5 60 59 S 1";

/// A fresh directory for one test's files.
fn scratch(test: &str) -> PathBuf {
    common::scratch_dir(&format!("match_tool_{test}"))
}

fn run_match(args: &[&str]) -> Output {
    let args: Vec<&str> = ["match"].iter().chain(args).copied().collect();
    common::run_tuzdyk(&args)
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
    let replayed = common::run_tuzdyk(&["replay", pgn.to_str().unwrap()]);
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
    // No clocks, so no closest call.
    assert_eq!(json_field(json, "closest_to_flag_ms"), "[null,null]");
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

/// One kind of misbehaving engine and what the referee makes of it.
struct Forfeit {
    test: &'static str,
    /// The fake engine's `cmd=` value, given the test's scratch folder.
    fake: fn(&Path) -> String,
    name: &'static str,
    /// Whether the fake is the first engine (else the second).
    first: bool,
    limits: &'static [&'static str],
    games: usize,
    /// Start from [`HOLE_1_EMPTY`] (else the built-in openings).
    hole_1_empty: bool,
    /// The forfeit kind, as the JSON summary names it, and how many.
    kind: &'static str,
    count: usize,
    /// How the forfeited games' Termination tag starts and ends.
    starts: &'static str,
    ends: &'static str,
}

/// The referee against every kind of misbehaving engine: it loses the
/// games it spoils, by the right kind of forfeit, recorded in the summary,
/// on stderr and in the game records (which replay), and the match goes on.
#[test]
fn a_misbehaving_engine_loses_by_forfeit_and_the_match_goes_on() {
    let cases = [
        Forfeit {
            test: "illegal",
            // Answers hole 1 at once, which is empty in both colours' first move.
            fake: |_| format!("cmd={}", common::fake_engine("illegal.sh")),
            name: "fake",
            first: true,
            limits: &["--depth", "2"],
            games: 2,
            hole_1_empty: true,
            kind: "illegal_move",
            count: 2,
            starts: "illegal move '1' by fake at move 1",
            ends: "(hole 1 is empty)",
        },
        Forfeit {
            test: "crash",
            // Crashes in its first game, then is a real tuzdyk when restarted.
            fake: |dir| {
                format!(
                    "cmd={} {} {TUZDYK}",
                    common::fake_engine("crash.sh"),
                    dir.join("crashed-once").display()
                )
            },
            name: "fragile",
            first: true,
            limits: &["--depth", "2", "--max-plies", "30"],
            games: 4,
            hole_1_empty: false,
            kind: "crash",
            count: 1,
            starts: "fragile crashed at move ",
            ends: "",
        },
        Forfeit {
            test: "hang",
            fake: |_| format!("cmd={}", common::fake_engine("hang.sh")),
            name: "sleeper",
            first: false,
            limits: &["--tc", "0.5+0", "--timeout-margin", "300"],
            games: 2,
            hole_1_empty: false,
            kind: "hang",
            count: 2,
            starts: "sleeper hung at move ",
            ends: " ms)",
        },
        Forfeit {
            test: "flag",
            // Answers a legal move (hole 2) after 0.3 s with 0.1 s on its clock.
            fake: |_| format!("cmd={} 0.3 2", common::fake_engine("slow.sh")),
            name: "slowpoke",
            first: true,
            limits: &["--tc", "0.1", "--timeout-margin", "20000"],
            games: 1,
            hole_1_empty: true,
            kind: "time_forfeit",
            count: 1,
            starts: "slowpoke lost on time at move 1 (used ",
            ends: ", had 100 ms)",
        },
    ];
    for case in cases {
        let dir = scratch(case.test);
        let pgn = dir.join("games.pgn");
        let fake_engine = (case.fake)(&dir);
        let real = format!("cmd={TUZDYK}");
        let fake_name = format!("name={}", case.name);
        let mut engines = [
            ["--engine", &fake_engine, &fake_name],
            ["--engine", &real, "name=tuzdyk"],
        ];
        if !case.first {
            engines.swap(0, 1);
        }
        let games = case.games.to_string();
        let openings = write_openings(&dir, &[HOLE_1_EMPTY]);
        let mut args: Vec<&str> = engines.concat();
        args.extend_from_slice(case.limits);
        args.extend_from_slice(&["--games", &games, "--pgn", pgn.to_str().unwrap(), "--json"]);
        if case.hole_1_empty {
            args.extend_from_slice(&["--openings", openings.to_str().unwrap()]);
        }
        let output = run_match(&args);
        let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
        let what = format!("{}: {stdout}\n{stderr}", case.test);
        assert!(output.status.success(), "{what}");
        assert_eq!(json_field(&stdout, "games"), games, "{what}");
        let fake_index = usize::from(!case.first);
        let kinds = forfeits(&stdout, fake_index);
        assert!(
            kinds.contains(&format!("\"{}\":{}", case.kind, case.count)),
            "{what}"
        );
        assert!(
            forfeits(&stdout, 1 - fake_index).contains(&format!("\"{}\":0", case.kind)),
            "{what}"
        );
        assert!(stderr.contains(case.starts), "{what}");
        let mut records = replay(&pgn);
        assert_eq!(records.len(), case.games, "{what}");
        records.sort_by_key(|g| g.tag("Round").unwrap().parse::<u32>().unwrap());
        let mut forfeited = 0;
        for game in &records {
            let termination = game.tag("Termination").unwrap();
            if termination.starts_with(case.starts) {
                forfeited += 1;
                assert!(termination.ends_with(case.ends), "{termination}");
                // The fake lost it.
                let fake_is_white = game.tag("White") == Some(case.name);
                let lost = if fake_is_white { "0-1" } else { "1-0" };
                assert_eq!(record::result_text(game.result), lost, "{termination}");
            } else {
                // The other games are played out after a restart (or
                // adjudicated at the ply limit).
                assert!(
                    termination.starts_with("normal")
                        || termination.starts_with("adjudicated: draw after"),
                    "{termination}"
                );
                assert!(game.game.moves().len() >= 11, "{termination}");
            }
            if let Some(index) = case.limits.iter().position(|a| *a == "--tc") {
                let clock = case.limits[index + 1].trim_end_matches("+0");
                assert_eq!(game.tag("TimeControl"), Some(clock));
            }
        }
        assert_eq!(forfeited, case.count, "{what}");
    }
}

#[test]
fn sprt_stops_the_match_at_a_bound() {
    // An engine that loses every game: every pair scores 0, and with
    // elo0=0 elo1=100 the LLR falls by 0.3288 a pair (fishtest's
    // LLR_logistic), past -2.944 at the 9th pair.
    let crash = format!("cmd={}", common::fake_engine("crash.sh"));
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

/// An SPRT run across two sittings: the first is cut off after seven
/// games, the same command with `--resume` counts them and plays only the
/// rest, and the test ends as the uninterrupted one did.
#[test]
fn a_match_resumes_from_its_record_file() {
    let dir = scratch("resume");
    let pgn = dir.join("games.pgn");
    let crash = format!("cmd={}", common::fake_engine("crash.sh"));
    let engine = format!("cmd={TUZDYK}");
    // `swapped`: the engines given in the other order.
    let run = |swapped: bool, extra: &[&str]| {
        let mut engines = [
            ["--engine", crash.as_str(), "name=crash"],
            ["--engine", engine.as_str(), "name=tuzdyk"],
        ];
        if swapped {
            engines.swap(0, 1);
        }
        let mut args: Vec<&str> = engines.concat();
        // The match's settings, each unless `extra` gives its own.
        for [flag, value] in [["--games", "100"], ["--seed", "3"]] {
            if !extra.contains(&flag) {
                args.extend_from_slice(&[flag, value]);
            }
        }
        args.extend_from_slice(&[
            "--depth",
            "1",
            "--pgn",
            pgn.to_str().unwrap(),
            "--sprt",
            "elo0=0",
            "elo1=100",
            "--json",
        ]);
        args.extend_from_slice(extra);
        run_match(&args)
    };
    // The whole test: H0 at the 9th pair, as in the test above.
    let whole = run(false, &[]);
    assert!(whole.status.success(), "{}", text(&whole.stderr));
    let records = std::fs::read_to_string(&pgn).unwrap();
    let games: Vec<&str> = records.split("\n\n[Event").collect();
    assert_eq!(games.len(), 18);

    // Cut off after game 7: the fourth pair is open.
    std::fs::write(&pgn, games[..7].join("\n\n[Event") + "\n\n").unwrap();
    let resumed = run(false, &["--resume"]);
    let (stdout, stderr) = (text(&resumed.stdout), text(&resumed.stderr));
    assert!(resumed.status.success(), "{stderr}");
    assert!(
        stderr.starts_with("resuming: 7 games of "),
        "the first line says what was counted: {stderr}"
    );
    let first = stderr.lines().next().unwrap_or("");
    assert!(
        first.contains("after 7 games: crash vs tuzdyk: W 0 D 0 L 7")
            && first.contains(", LLR -0.99"),
        "{first}"
    );
    assert!(!stderr.contains("game 7/100:"), "{stderr}");
    assert!(stderr.contains("game 8/100: tuzdyk vs crash: "), "{stderr}");
    assert_eq!(json_field(&stdout, "games"), "18", "{stdout}");
    assert_eq!(json_field(&stdout, "resumed_games"), "7", "{stdout}");
    assert_eq!(json_field(&stdout, "pentanomial"), "[9,0,0,0,0]");
    assert_eq!(json_field(&stdout, "decision"), "\"H0 accepted\"");
    assert!(forfeits(&stdout, 0).contains("\"crash\":18"), "{stdout}");
    let mut rounds: Vec<usize> = replay(&pgn)
        .iter()
        .map(|g| g.tag("Round").unwrap().parse().unwrap())
        .collect();
    rounds.sort_unstable();
    assert_eq!(rounds, (1..=18).collect::<Vec<_>>());

    // A decided test resumed: nothing more is played.
    let again = run(false, &["--resume"]);
    let (stdout, stderr) = (text(&again.stdout), text(&again.stderr));
    assert!(again.status.success(), "{stderr}");
    assert!(!stderr.contains("\ngame "), "{stderr}");
    assert_eq!(json_field(&stdout, "games"), "18", "{stdout}");
    assert_eq!(replay(&pgn).len(), 18);

    // Records of another match are refused by name, and nothing is played.
    let refused = |output: Output, expected: &str| {
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
        assert!(stderr.contains(expected), "{expected}: {stderr}");
        assert_eq!(replay(&pgn).len(), 18, "the file is left as it was");
    };
    let pgn_name = pgn.display().to_string();
    refused(
        run(true, &["--resume"]),
        &format!(
            "error: --resume: {pgn_name}:1: game 1 has White 'crash' and Black 'tuzdyk'; this match's game 1 is 'tuzdyk' against 'crash'"
        ),
    );
    refused(
        run(false, &["--resume", "--seed", "4"]),
        "game 1 starts from another opening than this match's game 1",
    );
    refused(
        run(false, &["--resume", "--games", "10"]),
        "Round tag '11' is not a game of this match (1 to 10)",
    );
    refused(
        run(false, &["--resume", "--event", "other"]),
        "game 1 has Event 'tuzdyk match'; this match's is 'other'",
    );
    let no_pgn = run_match(&[
        "--engine", &crash, "--engine", &engine, "--depth", "1", "--resume",
    ]);
    assert_eq!(no_pgn.status.code(), Some(2));
    assert!(
        text(&no_pgn.stderr).contains("--resume needs --pgn <file>"),
        "{}",
        text(&no_pgn.stderr)
    );
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

/// On a clock, the summary says how close each engine came to its flag:
/// the least time it had left after a move, and in which game, in the text
/// and in the JSON summary.
#[test]
fn the_summary_says_how_close_each_engine_came_to_the_flag() {
    let dir = scratch("flag");
    let openings = write_openings(&dir, &[HOLE_1_EMPTY]);
    let engine = format!("cmd={TUZDYK}");
    let run = |json: bool| {
        let mut args = vec![
            "--engine",
            &engine,
            "name=a",
            "--engine",
            &engine,
            "name=b",
            "--tc",
            "0.3+0.01",
            "--games",
            "2",
            "--openings",
            openings.to_str().unwrap(),
        ];
        if json {
            args.push("--json");
        }
        let output = run_match(&args);
        let stdout = text(&output.stdout);
        assert!(
            output.status.success(),
            "{stdout}\n{}",
            text(&output.stderr)
        );
        stdout
    };
    let stdout = run(false);
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("least time left after a move: "))
        .unwrap_or_else(|| panic!("no closest call in {stdout}"));
    for (part, name) in line.split(", ").zip(["a", "b"]) {
        let words: Vec<&str> = part.split(' ').collect();
        assert_eq!(
            (words[0], words[2], words[3]),
            (name, "ms", "(game"),
            "{line}"
        );
        let ms: u64 = words[1].parse().unwrap();
        // After its first move an engine has less than the 300 ms it began with.
        assert!(ms < 300, "{line}");
        assert!(["1)", "2)"].contains(&words[4]), "{line}");
    }
    let stdout = run(true);
    let json = stdout.trim();
    let closest = json_field(json, "closest_to_flag_ms");
    let ms: Vec<u64> = closest
        .trim_matches(['[', ']'])
        .split(',')
        .map(|ms| ms.parse().unwrap())
        .collect();
    assert!(ms.len() == 2 && ms.iter().all(|&ms| ms < 300), "{json}");
}
