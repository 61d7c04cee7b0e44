//! Every command as the left end of a shell pipeline whose reader goes away
//! (`tuzdyk ... | head`, `tuzdyk ... 2>&1 | head`): it ends by itself,
//! quietly, with status 0, or 1 when it had already found bad input. A panic
//! (status 101), a signal, a message about the pipe or a command that goes
//! on working for nobody fails. `tuzdyk gui` writes one line, its URL,
//! before it serves: it is checked with its reader gone at once.

mod common;

use std::path::PathBuf;

use common::{Closed, run_tuzdyk, run_tuzdyk_into_closed_pipe};

const GAMES_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/playok-games.pgn");
const P1: &str = "1S,1S,5S,7S,6S,18S,6S,1,t/1S,2S,20S,7S,19S,t,1S,2S,1 42 24 S 11";

fn scratch(name: &str) -> PathBuf {
    common::scratch_file("pipelines", name)
}

fn path(p: &std::path::Path) -> String {
    p.to_str().expect("a UTF-8 scratch path").to_string()
}

/// One command of the table: its arguments, its input, and the status it
/// ends with once its reader has gone.
struct Case {
    args: Vec<String>,
    input: Vec<u8>,
    status: i32,
}

fn case(args: &[&str], input: impl Into<Vec<u8>>, status: i32) -> Case {
    Case {
        args: args.iter().map(|a| a.to_string()).collect(),
        input: input.into(),
        status,
    }
}

/// Files the commands read: a few datagen records, tuning positions, and
/// rating samples of levels only (so `rating` writes its one line).
fn data_files() -> (String, String, String) {
    let records = scratch("records.bin");
    let made = run_tuzdyk(&[
        "datagen",
        "--games",
        "2",
        "--nodes",
        "100",
        "--seed",
        "5",
        "--out",
        &path(&records),
    ]);
    assert!(made.status.success(), "{made:?}");
    let positions = scratch("tune.txt");
    std::fs::write(
        &positions,
        "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1 0.5\n\
         9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 1 1\n",
    )
    .expect("a scratch file");
    let samples = scratch("losses.tsv");
    std::fs::write(
        &samples,
        "kind\tsource\tgame\tside\tname\topponent\trating\tscored\tloss\tpoints\n\
         level\ta.pgn\t1\twhite\tbeginner\tgreedy\t0\t40\t123.500\t0.5\n",
    )
    .expect("a scratch file");
    (path(&records), path(&positions), path(&samples))
}

fn cases() -> Vec<Case> {
    let (records, positions, samples) = data_files();
    let engine = format!("cmd={}", common::TUZDYK);
    let network = path(&scratch("network.tznn"));
    let datagen_out = path(&scratch("datagen-out.bin"));
    let losses_out = path(&scratch("losses-out.tsv"));
    let many_positions: String = std::iter::repeat_n(format!("{P1}\n"), 500).collect();
    vec![
        // The engine: many commands, every answer unread.
        case(&[], "isready\n".repeat(20_000), 0),
        // A count that would take years: it must stop when it cannot report.
        case(&["perft", "30"], "", 0),
        case(&["perft", "7", "--divide"], "", 0),
        case(&["bench", "2"], "", 0),
        case(&["replay", GAMES_FILE, GAMES_FILE], "", 0),
        case(&["replay", "--fen", GAMES_FILE, GAMES_FILE], "", 0),
        // A bad game first: reported or not, it was found.
        case(&["replay", "-"], "1. 11 22 *\n", 1),
        case(&["analyse", "--depth", "1"], many_positions.clone(), 0),
        case(
            &["analyse", "--depth", "1", "--json"],
            many_positions.clone(),
            0,
        ),
        case(
            &["analyse", "--depth", "1"],
            format!("bad\n{many_positions}"),
            1,
        ),
        case(&["analyse", "--depth", "1", GAMES_FILE], "", 0),
        case(&["play", "--depth", "1"], "board\n".repeat(1000), 0),
        case(
            &[
                "match", "--engine", &engine, "--engine", &engine, "--depth", "1", "--games", "4",
            ],
            "",
            0,
        ),
        case(
            &[
                "match", "--engine", &engine, "--engine", &engine, "--depth", "1", "--games", "4",
                "--json",
            ],
            "",
            0,
        ),
        case(
            &["rating", "--from-losses", &samples, "--losses", &losses_out],
            "",
            0,
        ),
        case(
            &[
                "tune",
                "--reuse",
                "--data",
                &positions,
                "--iterations",
                "10",
            ],
            "",
            0,
        ),
        case(
            &[
                "datagen",
                "--games",
                "2",
                "--nodes",
                "100",
                "--out",
                &datagen_out,
            ],
            "",
            0,
        ),
        case(&["datagen", "--info", &records], "", 0),
        case(
            &["train", &records, "--out", &network, "--epochs", "1"],
            "",
            0,
        ),
    ]
}

#[test]
fn every_command_ends_quietly_when_its_reader_goes_away() {
    for case in cases() {
        // Closed at once, and after a few bytes (the first write goes
        // through, a later one fails).
        for (closed, keep) in [(Closed::Both, 0), (Closed::Both, 20), (Closed::Stdout, 0)] {
            let (status, errors) =
                run_tuzdyk_into_closed_pipe(&case.args, &case.input, closed, keep);
            let what = format!(
                "tuzdyk {:?} ({closed:?} closed after {keep} bytes)",
                case.args
            );
            assert_eq!(
                status.code(),
                Some(case.status),
                "{what}: {status:?}\n{errors}"
            );
            // Only what the command had to say about its input, never a
            // word about the pipe.
            for word in ["panicked", "Broken pipe", "os error", "cannot write"] {
                assert!(!errors.contains(word), "{what} said '{word}':\n{errors}");
            }
            if case.status == 0 {
                assert!(
                    !errors.contains("error"),
                    "{what} reported an error:\n{errors}"
                );
            }
        }
    }
}

/// `tuzdyk analyse` keeps going when only its stderr has gone, but stops:
/// a closed stderr ends a command as a closed stdout does.
#[test]
fn a_closed_stderr_alone_ends_the_command() {
    let input = format!("bad\n{}", format!("{P1}\n").repeat(5));
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let output = common::tuzdyk(&["analyse", "--depth", "1"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(writer)
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            let mut stdin = child.stdin.take().expect("piped stdin");
            stdin.write_all(input.as_bytes())?;
            drop(stdin);
            child.wait_with_output()
        })
        .expect("tuzdyk runs");
    // The bad line came first: its report failed, and nothing after it ran.
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(output.stdout.is_empty(), "{output:?}");
}

/// `tuzdyk gui | true`: nobody can read the URL, so nobody can use the
/// server; it ends at once, quietly (it panicked on the closed stdout).
#[test]
fn the_gui_ends_quietly_when_nobody_can_read_its_url() {
    for closed in [Closed::Stdout, Closed::Both] {
        let (status, errors) = run_tuzdyk_into_closed_pipe(&["gui", "--port", "0"], "", closed, 0);
        assert_eq!(status.code(), Some(0), "{closed:?}: {status:?}\n{errors}");
        assert_eq!(errors, "", "{closed:?}");
    }
}
