//! Bad input on the command line: every subcommand, given bad arguments or
//! a missing, unreadable, binary, empty or truncated file, says what is
//! wrong in one clear line (or clap's usage error) and exits non-zero —
//! never a panic or a backtrace, never a hang. Only quick cases: every
//! search is depth 1 and no match is played.

mod common;

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use common::TUZDYK;

struct Outcome {
    /// `None` when killed by a signal.
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs the binary with `args` and `stdin` (killed if it hangs).
fn run(args: &[OsString], stdin: &[u8]) -> Outcome {
    let output = common::run_tuzdyk_with_input(args, stdin);
    Outcome {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

/// A scratch directory with every kind of bad file.
struct Files {
    dir: PathBuf,
}

impl Files {
    fn new(test: &str) -> Files {
        let dir = common::scratch_dir(&format!("tuzdyk-bad-input-{test}"));
        let games = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/playok-games.pgn"
        ))
        .expect("the PlayOK games");
        let first_game_end = games.find("\n\n[").expect("more than one game");
        let first = &games[..first_game_end + 1];
        // Cut in the middle of the moves: no result at the end.
        let cut = first.len() * 2 / 3;
        let cut = (0..=cut)
            .rev()
            .find(|&i| first.is_char_boundary(i))
            .unwrap();
        std::fs::write(dir.join("truncated.pgn"), &first[..cut]).unwrap();
        // A landing hole changed: 1. 76(10) -> 1. 75(10).
        std::fs::write(
            dir.join("corrupt.pgn"),
            first.replacen("1. 76(10)", "1. 75(10)", 1),
        )
        .unwrap();
        // Binary: every byte value, NULs and invalid UTF-8 among them.
        let mut binary: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for byte in binary.iter_mut().skip(256) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            *byte = state as u8;
        }
        std::fs::write(dir.join("binary.dat"), &binary).unwrap();
        std::fs::write(dir.join("empty.txt"), "").unwrap();
        // One enormous line with no newline.
        std::fs::write(dir.join("long-line.txt"), "9S,".repeat(70_000)).unwrap();
        std::fs::write(dir.join("bad.tfen"), "9S/9S 0 0 S\n").unwrap();
        std::fs::write(
            dir.join("tune-good.txt"),
            "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1 0.5\n\
             9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 1 1\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("tune-bad-score.txt"),
            "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1 2.5\n",
        )
        .unwrap();
        std::fs::create_dir_all(dir.join("a-directory")).unwrap();
        Files { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }

    /// A path whose parent is a regular file: it cannot be created.
    fn unwritable(&self) -> String {
        self.path("empty.txt/sub/file.txt")
    }

    fn missing(&self) -> String {
        self.path("no-such-file.txt")
    }
}

impl Drop for Files {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn describe(args: &[OsString], outcome: &Outcome) -> String {
    format!(
        "tuzdyk {args:?}\nstatus {:?}\nstdout:\n{}\nstderr:\n{}",
        outcome.code,
        outcome.stdout.chars().take(2000).collect::<String>(),
        outcome.stderr.chars().take(2000).collect::<String>()
    )
}

/// No panic and no backtrace anywhere, and a normal exit.
fn assert_no_panic(args: &[OsString], outcome: &Outcome) {
    for text in [&outcome.stdout, &outcome.stderr] {
        assert!(
            !text.contains("panicked") && !text.contains("RUST_BACKTRACE"),
            "a panic: {}",
            describe(args, outcome)
        );
    }
    assert!(
        outcome.code.is_some(),
        "killed by a signal: {}",
        describe(args, outcome)
    );
}

/// clap's usage error: status 2, `error: ...` first, nothing on stdout.
fn assert_usage_error(args: &[OsString]) {
    let outcome = run(args, b"");
    assert_no_panic(args, &outcome);
    assert_eq!(outcome.code, Some(2), "{}", describe(args, &outcome));
    assert!(
        outcome.stderr.starts_with("error: ") && outcome.stderr.contains("--help"),
        "not a usage error: {}",
        describe(args, &outcome)
    );
    assert!(outcome.stdout.is_empty(), "{}", describe(args, &outcome));
}

/// Exactly one line `error: ...` on stderr naming `expected`, status 2.
fn assert_one_line_error(args: &[OsString], stdin: &[u8], expected: &str) {
    let outcome = run(args, stdin);
    assert_no_panic(args, &outcome);
    assert_eq!(outcome.code, Some(2), "{}", describe(args, &outcome));
    assert_eq!(
        outcome.stderr.lines().count(),
        1,
        "not one line: {}",
        describe(args, &outcome)
    );
    assert!(
        outcome.stderr.starts_with("error: ") && outcome.stderr.contains(expected),
        "expected 'error: ...{expected}...': {}",
        describe(args, &outcome)
    );
}

#[test]
fn perft_rejects_bad_arguments() {
    for args in [
        vec!["perft"],
        vec!["perft", "x"],
        vec!["perft", "-1"],
        vec!["perft", "3.5"],
        vec!["perft", "99999999999"],
        vec!["perft", "3", "--threads", "x"],
        vec!["perft", "3", "--bogus"],
        vec!["perft", "3", "--fen"],
    ] {
        assert_usage_error(&os(&args));
    }
    // An argument that is not UTF-8 at all.
    assert_usage_error(&[
        OsString::from("perft"),
        OsString::from("3"),
        OsString::from("--fen"),
        OsStr::from_bytes(b"9S\xff\xfe 0 0 S 1").to_os_string(),
    ]);
    for (args, expected) in [
        (vec!["perft", "31"], "out of range 1..30"),
        (
            vec!["perft", "3", "--fen", "garbage"],
            "invalid --fen 'garbage'",
        ),
        (vec!["perft", "3", "--fen", ""], "empty position string"),
        (
            vec!["perft", "3", "--fen", "9S/9S 0 0 S"],
            "North row has 1 holes",
        ),
        (
            vec![
                "perft",
                "3",
                "--fen",
                "t,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1",
            ],
            "invalid --fen",
        ),
        (
            vec![
                "perft",
                "3",
                "--fen",
                "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 5 0 S 1",
            ],
            "invalid --fen",
        ),
        (vec!["perft", "3", "--threads", "0"], "--threads"),
    ] {
        assert_one_line_error(&os(&args), b"", expected);
    }
}

/// protocol.md's `perft 0`, `bench 0` and `analyse --depth 0` are errors;
/// the command line's `perft 0` prints nothing and succeeds.
#[test]

fn perft_0_is_rejected() {
    assert_one_line_error(&os(&["perft", "0"]), b"", "depth");
}

#[test]
fn bench_rejects_bad_arguments() {
    for args in [
        vec!["bench", "x"],
        vec!["bench", "-3"],
        vec!["bench", "1", "--threads", "many"],
        vec!["bench", "1", "2"],
        vec!["bench", "--bogus"],
    ] {
        assert_usage_error(&os(&args));
    }
    for (args, expected) in [
        (vec!["bench", "0"], "out of range"),
        (vec!["bench", "65"], "out of range"),
        (vec!["bench", "1", "--threads", "0"], "out of range"),
        (vec!["bench", "1", "--threads", "257"], "out of range"),
    ] {
        assert_one_line_error(&os(&args), b"", expected);
    }
}

/// Replay reports each bad file or game on one line (stdout, or stderr with
/// `--fen`), then the summary, then says once on stderr why the status is 1.
#[test]
fn replay_reports_bad_files_and_fails() {
    let files = Files::new("replay");
    assert_usage_error(&os(&["replay"]));
    assert_usage_error(&os(&["replay", "--bogus", &files.path("corrupt.pgn")]));
    for (name, expected) in [
        (files.missing(), "cannot read"),
        (files.path("a-directory"), "cannot read"),
        (files.path("binary.dat"), "malformed move"),
        (files.path("truncated.pgn"), "game 1"),
        (files.path("corrupt.pgn"), "lands in hole"),
        (files.path("long-line.txt"), "malformed move"),
    ] {
        for fen in [false, true] {
            let mut args = vec!["replay", name.as_str()];
            if fen {
                args.push("--fen");
            }
            let args = os(&args);
            let outcome = run(&args, b"");
            assert_no_panic(&args, &outcome);
            assert_eq!(outcome.code, Some(1), "{}", describe(&args, &outcome));
            let (report, other) = if fen {
                (&outcome.stderr, &outcome.stdout)
            } else {
                (&outcome.stdout, &outcome.stderr)
            };
            let mut lines: Vec<&str> = report.lines().collect();
            if fen {
                lines.pop();
            }
            assert_eq!(lines.len(), 2, "{}", describe(&args, &outcome));
            assert_eq!(
                outcome.stderr.lines().last(),
                Some("error: 1 of the games and files failed (see above)"),
                "{}",
                describe(&args, &outcome)
            );
            assert!(
                lines[0].starts_with(&format!("{name}: ")) && lines[0].contains(expected),
                "expected '{name}: ...{expected}...': {}",
                describe(&args, &outcome)
            );
            assert!(
                lines[1].starts_with("games ") && lines[1].ends_with("failed 1"),
                "{}",
                describe(&args, &outcome)
            );
            if fen {
                assert!(other.is_empty(), "{}", describe(&args, &outcome));
            } else {
                assert_eq!(other.lines().count(), 1, "{}", describe(&args, &outcome));
            }
        }
    }
}

/// Analyse reports each bad source or line on stderr (`<source>:<line>: ...`)
/// with a closing count, and exits with status 1; bad options are one
/// `error:` line with status 2.
#[test]
fn analyse_reports_bad_sources_and_rejects_bad_options() {
    let files = Files::new("analyse");
    for (name, expected) in [
        (files.missing(), "cannot read"),
        (files.path("a-directory"), "cannot read"),
        (files.path("binary.dat"), "invalid TFEN"),
        (files.path("truncated.pgn"), "game 1"),
        (files.path("corrupt.pgn"), "lands in hole"),
        (files.path("bad.tfen"), "North row has 1 holes"),
        (
            files.path("long-line.txt"),
            "line of 210000 bytes is too long (at most 65536)",
        ),
    ] {
        let args = os(&["analyse", "--depth", "1", &name]);
        let outcome = run(&args, b"");
        assert_no_panic(&args, &outcome);
        assert_eq!(outcome.code, Some(1), "{}", describe(&args, &outcome));
        let lines: Vec<&str> = outcome.stderr.lines().collect();
        assert!(lines.len() >= 2, "{}", describe(&args, &outcome));
        for line in &lines[..lines.len() - 1] {
            assert!(
                line.starts_with(name.as_str()) && line.len() < 2000,
                "expected '{name}...': {}",
                describe(&args, &outcome)
            );
        }
        assert!(
            lines[0].contains(expected),
            "expected '{expected}': {}",
            describe(&args, &outcome)
        );
        assert!(
            lines.last().unwrap().starts_with("error: ")
                && lines.last().unwrap().contains("bad input"),
            "{}",
            describe(&args, &outcome)
        );
        assert!(outcome.stdout.is_empty(), "{}", describe(&args, &outcome));
    }
    // Binary on standard input.
    let binary = std::fs::read(files.path("binary.dat")).unwrap();
    let args = os(&["analyse", "--depth", "1"]);
    let outcome = run(&args, &binary);
    assert_no_panic(&args, &outcome);
    assert_eq!(outcome.code, Some(1), "{}", describe(&args, &outcome));
    assert!(
        outcome.stderr.starts_with("stdin:1: "),
        "{}",
        describe(&args, &outcome)
    );
    // An empty file is no position at all: nothing to do, not an error.
    let args = os(&["analyse", "--depth", "1", &files.path("empty.txt")]);
    let outcome = run(&args, b"");
    assert_no_panic(&args, &outcome);
    assert_eq!(outcome.code, Some(0), "{}", describe(&args, &outcome));

    for args in [
        vec!["analyse", "--depth", "x"],
        vec!["analyse", "--depth", "0"],
        vec!["analyse", "--nodes", "0"],
        vec!["analyse", "--movetime", "-5"],
        vec!["analyse", "--threads", "0"],
        vec!["analyse", "--hash", "0"],
        vec!["analyse", "--multipv", "10"],
        vec!["analyse", "--bogus"],
        vec!["analyse", "--json=yes"],
    ] {
        assert_usage_error(&os(&args));
    }
    let bad = files.path("bad.tfen");
    for (args, expected) in [
        (
            vec!["analyse", "--inaccuracy", "500", "--mistake", "100", &bad],
            "thresholds",
        ),
        (
            vec!["analyse", "--depth", "1", "--engine-cmd", "", &bad],
            "empty",
        ),
        (
            vec![
                "analyse",
                "--depth",
                "1",
                "--engine-cmd",
                &files.missing(),
                &bad,
            ],
            "cannot start",
        ),
        // An engine that exits at once (the error is its end of output or
        // the broken pipe, whichever comes first).
        (
            vec!["analyse", "--depth", "1", "--engine-cmd", "true", &bad],
            "engine",
        ),
    ] {
        assert_one_line_error(&os(&args), b"", expected);
    }
}

#[test]
fn match_rejects_bad_arguments_and_files() {
    let files = Files::new("match");
    let engine = format!("cmd={TUZDYK}");
    let two = |extra: &[&str]| -> Vec<OsString> {
        let mut args = vec!["match", "--engine", &engine, "--engine", &engine];
        args.extend_from_slice(extra);
        os(&args)
    };
    assert_usage_error(&os(&["match", "--bogus"]));
    assert_usage_error(&two(&["--depth", "1", "--games", "x"]));
    assert_usage_error(&two(&["--depth", "1", "--games", "0"]));
    assert_usage_error(&two(&["--depth", "1", "--concurrency", "0"]));
    assert_usage_error(&two(&["--depth", "0"]));
    for (args, expected) in [
        (os(&["match"]), "two engines"),
        (
            os(&["match", "--engine", &engine, "--depth", "1"]),
            "two engines",
        ),
        (two(&[]), "no time control"),
        (two(&["--tc", "abc"]), "--tc"),
        (two(&["--tc", "0"]), "--tc"),
        (
            two(&["--depth", "1", "--sprt", "elo0=x", "elo1=5"]),
            "--sprt",
        ),
        (
            two(&["--depth", "1", "--openings", &files.missing()]),
            "cannot read",
        ),
        (
            two(&["--depth", "1", "--openings", &files.path("a-directory")]),
            "openings",
        ),
        (
            two(&["--depth", "1", "--openings", &files.path("binary.dat")]),
            "invalid TFEN",
        ),
        (
            two(&["--depth", "1", "--openings", &files.path("empty.txt")]),
            "no openings",
        ),
        (
            two(&["--depth", "1", "--openings", &files.path("truncated.pgn")]),
            "game 1",
        ),
        (
            two(&["--depth", "1", "--openings", &files.path("corrupt.pgn")]),
            "lands in hole",
        ),
        (
            two(&["--depth", "1", "--openings", &files.path("bad.tfen")]),
            "invalid TFEN",
        ),
        (
            two(&["--depth", "1", "--pgn", &files.unwritable()]),
            "--pgn",
        ),
        (
            os(&[
                "match", "--engine", "foo=bar", "--engine", &engine, "--depth", "1",
            ]),
            "unknown key",
        ),
        (
            os(&[
                "match", "--engine", "cmd=", "--engine", &engine, "--depth", "1",
            ]),
            "empty",
        ),
        (
            os(&[
                "match",
                "--engine",
                &format!("cmd={}", files.missing()),
                "--engine",
                &engine,
                "--depth",
                "1",
            ]),
            "cannot start",
        ),
    ] {
        assert_one_line_error(&args, b"", expected);
    }
}

#[test]
fn play_rejects_bad_arguments() {
    let files = Files::new("play");
    for args in [
        vec!["play", "--level", "godlike"],
        vec!["play", "--side", "purple"],
        vec!["play", "--movetime", "x"],
        vec!["play", "--depth", "-1"],
        vec!["play", "--depth", "0"],
        vec!["play", "--nodes", "0"],
        vec!["play", "--bogus"],
    ] {
        assert_usage_error(&os(&args));
    }
    let missing = files.missing();
    for (args, expected) in [
        (vec!["play", "--fen", "garbage"], "invalid --fen"),
        (vec!["play", "--fen", ""], "invalid --fen"),
        (vec!["play", "--fen", "1S,8/9 82 79 N 30"], "already over"),
        (vec!["play", "--engine-cmd", ""], "cannot start"),
        (vec!["play", "--engine-cmd", &missing], "cannot start"),
    ] {
        assert_one_line_error(&os(&args), b"resign\n", expected);
    }
}

/// `play` is interactive: binary or truncated input is answered line by
/// line and the session ends cleanly at end of input; a record that cannot
/// be written is reported.
#[test]
fn play_survives_binary_input_and_an_unwritable_record() {
    let files = Files::new("play-input");
    let binary = std::fs::read(files.path("binary.dat")).unwrap();
    let args = os(&["play", "--depth", "1"]);
    let outcome = run(&args, &binary);
    assert_no_panic(&args, &outcome);
    assert_eq!(outcome.code, Some(0), "{}", describe(&args, &outcome));
    assert!(
        outcome.stdout.contains("Unknown command"),
        "{}",
        describe(&args, &outcome)
    );
    // A script cut in the middle of a word.
    let outcome = run(&args, b"5\n4\nhin");
    assert_no_panic(&args, &outcome);
    assert_eq!(outcome.code, Some(0), "{}", describe(&args, &outcome));

    let unwritable = files.unwritable();
    let args = os(&["play", "--depth", "1", "--pgn", &unwritable]);
    let outcome = run(&args, b"resign\n");
    assert_no_panic(&args, &outcome);
    let all = format!("{}{}", outcome.stdout, outcome.stderr);
    assert!(
        all.lines()
            .any(|l| l.contains(&unwritable) && l.to_lowercase().contains("cannot write")),
        "the failed write is not reported: {}",
        describe(&args, &outcome)
    );
}

#[test]
fn tune_rejects_bad_data_files() {
    let files = Files::new("tune");
    assert_usage_error(&os(&["tune", "--games", "x"]));
    assert_usage_error(&os(&["tune", "--reuse", "--iterations", "-1"]));
    let good = files.path("tune-good.txt");
    for (args, expected) in [
        (
            vec!["tune", "--reuse", "--data", &files.missing()],
            "cannot read",
        ),
        (
            vec!["tune", "--reuse", "--data", &files.path("a-directory")],
            "a-directory",
        ),
        (
            vec!["tune", "--reuse", "--data", &files.path("binary.dat")],
            "binary.dat",
        ),
        (
            vec!["tune", "--reuse", "--data", &files.path("empty.txt")],
            "no positions",
        ),
        (
            vec!["tune", "--reuse", "--data", &files.path("bad.tfen")],
            "bad.tfen:1",
        ),
        (
            vec![
                "tune",
                "--reuse",
                "--data",
                &files.path("tune-bad-score.txt"),
            ],
            "bad result",
        ),
        (
            vec!["tune", "--reuse", "--data", &files.path("long-line.txt")],
            "long-line.txt",
        ),
    ] {
        assert_one_line_error(&os(&args), b"", expected);
    }
    // Writes that cannot be done: the weights, the positions.
    let unwritable = files.unwritable();
    for (args, expected) in [
        (
            vec![
                "tune",
                "--reuse",
                "--data",
                &good,
                "--iterations",
                "2",
                "--write",
                &unwritable,
            ],
            "cannot write",
        ),
        (
            vec![
                "tune",
                "--games",
                "1",
                "--nodes",
                "10",
                "--threads",
                "1",
                "--iterations",
                "1",
                "--data",
                &unwritable,
            ],
            "cannot write",
        ),
    ] {
        let args = os(&args);
        let outcome = run(&args, b"");
        assert_no_panic(&args, &outcome);
        assert_eq!(outcome.code, Some(2), "{}", describe(&args, &outcome));
        let errors: Vec<&str> = outcome
            .stderr
            .lines()
            .filter(|l| l.starts_with("error: "))
            .collect();
        assert_eq!(errors.len(), 1, "{}", describe(&args, &outcome));
        assert!(
            errors[0].contains(expected),
            "{}",
            describe(&args, &outcome)
        );
    }
}

/// `tune --reuse` skips every line without a space as if it were blank, so
/// a garbled or truncated line (`garbage`, or a TFEN cut before its first
/// space) is silently dropped instead of being reported.
#[test]

fn tune_reports_a_garbled_data_line() {
    let files = Files::new("tune-garbled");
    let good = std::fs::read_to_string(files.path("tune-good.txt")).unwrap();
    let garbled = files.path("garbled.txt");
    std::fs::write(&garbled, format!("{good}garbage\n9S,9S,9S,9S,1,10S")).unwrap();
    assert_one_line_error(
        &os(&["tune", "--reuse", "--data", &garbled, "--iterations", "1"]),
        b"",
        "garbled.txt:3",
    );
}

/// Unknown subcommands and options of the program itself.
#[test]
fn unknown_subcommands_are_usage_errors() {
    for args in [vec!["flip"], vec!["--bogus"], vec!["perft3"], vec![""]] {
        assert_usage_error(&os(&args));
    }
}
