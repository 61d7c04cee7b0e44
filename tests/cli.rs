//! The `tuzdyk` binary as a user runs it: `perft` and `replay`, their output
//! formats, exit statuses and error messages.

mod common;

use std::path::PathBuf;
use std::process::Output;

use tuzdyk_notation::{record, tfen};

const GAMES_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/playok-games.pgn");
const P1: &str = "1S,1S,5S,7S,6S,18S,6S,1,t/1S,2S,20S,7S,19S,t,1S,2S,1 42 24 S 11";

fn run(args: &[&str]) -> Output {
    common::run_tuzdyk(args)
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 errors")
}

/// Checks a `depth <d> nodes <n> time <ms> nps <n>` line and returns (d, n).
fn depth_line(line: &str) -> (u32, u64) {
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.len(), 8, "'{line}'");
    assert_eq!(
        [words[0], words[2], words[4], words[6]],
        ["depth", "nodes", "time", "nps"],
        "'{line}'"
    );
    for number in [words[1], words[3], words[5], words[7]] {
        assert!(
            !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()),
            "'{number}' in '{line}' is not a whole number"
        );
    }
    (words[1].parse().unwrap(), words[3].parse().unwrap())
}

fn assert_no_panic(output: &Output) {
    let err = stderr(output);
    assert!(
        !err.contains("panicked") && !err.contains("backtrace") && !err.contains("RUST_BACKTRACE"),
        "the binary panicked: {err}"
    );
    // 101 is the status of a Rust panic.
    assert_ne!(output.status.code(), Some(101), "{err}");
}

/// A scratch file for one test.
fn scratch(name: &str, contents: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, contents).expect("write a scratch file");
    path
}

#[test]
fn perft_5_prints_five_depth_lines_with_the_published_counts() {
    let output = run(&["perft", "5"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    let counts: Vec<(u32, u64)> = lines.iter().map(|l| depth_line(l)).collect();
    assert_eq!(counts, [(1, 9), (2, 73), (3, 613), (4, 5199), (5, 43184)]);
    assert!(text.ends_with('\n'));
}

#[test]
fn perft_divide_prints_the_moves_first() {
    let output = run(&["perft", "3", "--divide"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9 + 3, "{text}");
    let start = tfen::parse(tfen::STARTPOS).unwrap();
    let mut total = 0;
    for (i, line) in lines[..9].iter().enumerate() {
        let (mv, nodes) = line.split_once(' ').unwrap_or_else(|| panic!("'{line}'"));
        assert_eq!(mv, (i + 1).to_string(), "'{line}'");
        let nodes: u64 = nodes.parse().unwrap_or_else(|_| panic!("'{line}'"));
        // Each entry is perft 2 below that move.
        let mut child = start;
        child.play(tuzdyk_rules::Move::from_number(i as u32 + 1).unwrap());
        assert_eq!(nodes, tuzdyk_rules::perft::perft(&child, 2), "'{line}'");
        total += nodes;
    }
    assert_eq!(total, 613);
    let depths: Vec<(u32, u64)> = lines[9..].iter().map(|l| depth_line(l)).collect();
    assert_eq!(depths, [(1, 9), (2, 73), (3, 613)]);
}

#[test]
fn perft_from_a_fen() {
    let output = run(&["perft", "4", "--fen", P1]);
    assert!(output.status.success(), "{}", stderr(&output));
    let counts: Vec<(u32, u64)> = stdout(&output).lines().map(depth_line).collect();
    assert_eq!(counts, [(1, 7), (2, 51), (3, 367), (4, 2716)]);
}

#[test]
fn perft_on_one_thread() {
    let output = run(&["perft", "7", "--threads", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let counts: Vec<u64> = stdout(&output).lines().map(|l| depth_line(l).1).collect();
    assert_eq!(counts, [9, 73, 613, 5199, 43184, 360035, 3003052]);
    // And with a divide and a position.
    let output = run(&["perft", "2", "--threads", "1", "--divide", "--fen", P1]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 7 + 2, "{text}");
    assert!(
        text.ends_with("\n") && text.contains("depth 2 nodes 51 "),
        "{text}"
    );
}

#[test]
fn perft_with_a_bad_fen_fails_with_one_line() {
    for bad in [
        "9S,9S/9S 0 0 S 1",
        "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 1 0 S 1",
        "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 W 1",
        "",
    ] {
        let output = run(&["perft", "3", "--fen", bad]);
        assert!(!output.status.success(), "'{bad}' was accepted");
        assert_no_panic(&output);
        assert_eq!(stdout(&output), "", "no results for '{bad}'");
        let err = stderr(&output);
        assert_eq!(err.lines().count(), 1, "'{err}'");
        assert!(err.contains("fen") || err.contains("FEN"), "'{err}'");
    }
    // The message names the problem.
    let output = run(&[
        "perft",
        "3",
        "--fen",
        "9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 63 0 S 1",
    ]);
    assert!(
        stderr(&output).contains("North row has 2 holes, not 9"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn perft_with_bad_arguments_fails_without_panicking() {
    for args in [
        &["perft", "x"][..],
        &["perft"][..],
        &["perft", "3", "--threads", "0"][..],
        &["perft", "3", "--threads", "-1"][..],
        &["perft", "99"][..],
    ] {
        let output = run(args);
        assert!(!output.status.success(), "{args:?} was accepted");
        assert_no_panic(&output);
        assert!(
            !stderr(&output).trim().is_empty(),
            "{args:?} gave no message"
        );
        assert_eq!(stdout(&output), "", "{args:?}");
    }
}

#[test]
fn replay_of_the_playok_games_succeeds() {
    let output = run(&["replay", GAMES_FILE]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "games 1229 ok 1229 failed 0\n");
}

#[test]
fn replay_with_a_corrupted_game_prints_the_problem_and_fails() {
    let text = std::fs::read_to_string(GAMES_FILE).unwrap();
    // Game 1's first move lands on North 6, not North 5.
    let corrupted = text.replacen("1. 76(10) 87(2)", "1. 75(10) 87(2)", 1);
    assert_ne!(corrupted, text);
    let path = scratch("cli-corrupted.pgn", &corrupted);
    let output = run(&["replay", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_no_panic(&output);
    let out = stdout(&output);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].contains("cli-corrupted.pgn"), "{}", lines[0]);
    assert!(lines[0].contains("game 1 "), "{}", lines[0]);
    assert!(lines[0].contains("move 1 (White)"), "{}", lines[0]);
    assert!(lines[0].contains("lands in hole 6, not 5"), "{}", lines[0]);
    assert_eq!(lines[1], "games 1229 ok 1228 failed 1");
}

#[test]
fn replay_with_fen_prints_the_final_positions() {
    let output = run(&["replay", "--fen", GAMES_FILE]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // Only positions on stdout, so that it pipes into `analyse`; the
    // summary goes to stderr.
    let out = stdout(&output);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1229);
    assert_eq!(stderr(&output).trim(), "games 1229 ok 1229 failed 0");
    let text = std::fs::read_to_string(GAMES_FILE).unwrap();
    let games = record::parse_games(&text);
    for (line, game) in lines.iter().zip(&games) {
        let game = game.as_ref().unwrap();
        assert_eq!(*line, tfen::write(&game.final_position()));
        assert!(tfen::parse(line).is_ok(), "'{line}'");
    }
    // The first game's final position (a fixed value: every move leading to
    // it is checked against the landing holes and kazans PlayOK wrote).
    assert_eq!(lines[0], "4S,1S,1S,1,t,1S,3/4,1S,3S,t,2S,4S 69 76 N 76");
}

#[test]
fn replay_of_several_files_counts_them_all() {
    let text = std::fs::read_to_string(GAMES_FILE).unwrap();
    let first_two: String = {
        let third = text.match_indices("[Event ").nth(2).unwrap().0;
        text[..third].to_string()
    };
    let path = scratch("cli-two-games.pgn", &first_two);
    let output = run(&["replay", path.to_str().unwrap(), GAMES_FILE]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "games 1231 ok 1231 failed 0\n");
}

#[test]
fn replay_of_a_missing_file_fails_with_a_clear_message() {
    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-such-games-file.pgn");
    let _ = std::fs::remove_file(&missing);
    let output = run(&["replay", missing.to_str().unwrap()]);
    assert!(!output.status.success());
    assert_no_panic(&output);
    let all = format!("{}{}", stdout(&output), stderr(&output));
    assert!(all.contains("no-such-games-file.pgn"), "{all}");
    assert!(all.contains("cannot read"), "{all}");
    // Other files are still replayed.
    let output = run(&["replay", missing.to_str().unwrap(), GAMES_FILE]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).ends_with("ok 1229 failed 1\n"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn replay_without_a_file_fails() {
    let output = run(&["replay"]);
    assert!(!output.status.success());
    assert_no_panic(&output);
    assert!(!stderr(&output).is_empty());
}

#[test]
fn replay_dash_reads_standard_input() {
    let games = std::fs::read_to_string(GAMES_FILE).unwrap();
    let output = common::run_tuzdyk_with_input(&["replay", "-"], &games);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "games 1229 ok 1229 failed 0\n");
    // Bad games on stdin are named after it.
    let output = common::run_tuzdyk_with_input(&["replay", "-", GAMES_FILE], "1. 11 22 *\n");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let out = stdout(&output);
    assert!(out.starts_with("stdin: game 1"), "{out}");
    assert!(out.ends_with("games 1230 ok 1229 failed 1\n"), "{out}");
    assert_eq!(
        stderr(&output),
        "error: 1 of the games and files failed (see above)\n"
    );
}

/// What `--help` says is so: the file `tune --write` is for exists, and
/// `replay --fen` prints only positions, as README says.
#[test]
fn help_texts_say_what_is_so() {
    let tune = stdout(&run(&["tune", "--help"]));
    let named: Vec<&str> = tune
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .filter(|word| word.starts_with("crates/") && word.ends_with(".rs"))
        .collect();
    assert!(!named.is_empty(), "{tune}");
    for file in named {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(file);
        assert!(
            path.exists(),
            "tune --help names {file}, which does not exist"
        );
    }
    let replay = stdout(&run(&["replay", "--help"]));
    assert!(
        replay.contains("Print only each good game's final position"),
        "{replay}"
    );
}
