//! `tuzdyk datagen` through the binary: the same seed gives the same bytes
//! on one thread or two, shard files concatenated are the single run's
//! file, every record decodes to a legal, consistent position, `--info`
//! reads the file back, and bad input gets one clear line and status 2.
//! Small runs only: a few games at a few hundred nodes.

mod common;

use std::path::PathBuf;
use std::process::Output;

use tuzdyk_rules::{GameResult, Side};
use tuzdyk_search::score::MATE_BOUND;
use tuzdyk_train::datagen::{Reader, Record};

fn run(args: &[&str]) -> Output {
    common::run_tuzdyk(args)
}

fn scratch(name: &str) -> PathBuf {
    common::scratch_file("datagen", name)
}

/// Runs a small datagen to a new file and gives its bytes.
fn generate(name: &str, extra: &[&str]) -> Vec<u8> {
    let out = scratch(name);
    let out_text = out.to_str().expect("a UTF-8 temp path");
    let mut args = vec!["datagen", "--games", "5", "--nodes", "200", "--seed", "3"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--out", out_text]);
    let output = run(&args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?}: {stderr}");
    let summary = stderr.lines().last().unwrap_or("");
    assert!(summary.starts_with("datagen: "), "{stderr}");
    assert!(summary.contains(" kept (left out: "), "{summary}");
    std::fs::read(&out).expect("the output file")
}

#[test]
fn one_thread_and_two_give_the_same_bytes() {
    let one = generate("t1.bin", &["--threads", "1"]);
    let two = generate("t2.bin", &["--threads", "2"]);
    assert!(!one.is_empty() && one.len().is_multiple_of(32));
    assert!(one == two, "{} bytes against {}", one.len(), two.len());
}

#[test]
fn shards_concatenated_are_the_single_run() {
    let whole = generate("whole.bin", &["--threads", "2"]);
    for count in [2, 3] {
        let mut joined = Vec::new();
        for index in 0..count {
            let shard = format!("{index}/{count}");
            joined.extend(generate(
                &format!("shard{index}of{count}.bin"),
                &["--shard", &shard],
            ));
        }
        assert!(joined == whole, "{count} shards: {} bytes", joined.len());
    }
}

/// The result agrees with the count the game finished with.
fn consistent(record: &Record) -> bool {
    let [white, black] = record.final_count;
    if record.adjudicated {
        return record.result == GameResult::Draw;
    }
    match record.result {
        GameResult::Win(Side::White) => white > black,
        GameResult::Win(Side::Black) => black > white,
        GameResult::Draw => white == black,
    }
}

#[test]
fn records_are_legal_consistent_positions_that_passed_the_filters() {
    let bytes = generate("check.bin", &[]);
    let records: Vec<Record> = Reader::new(&bytes[..])
        .collect::<Result<_, _>>()
        .expect("every record decodes");
    assert_eq!(records.len() * 32, bytes.len());
    for record in &records {
        let pos = record.position;
        assert!(pos.game_over().is_none(), "{record:?}");
        assert!(tuzdyk_rules::Position::from_parts(pos.parts()).is_ok());
        assert!(pos.is_legal(record.best));
        let outcome = pos.preview(record.best);
        assert!(outcome.captured == 0 && !outcome.tuzdik, "{record:?}");
        assert!(i32::from(record.score).abs() < MATE_BOUND, "{record:?}");
        assert!(consistent(record), "{record:?}");
    }
    // One game's records share its result and final count, and plies rise.
    let first = &records[0];
    let game: Vec<&Record> = records
        .iter()
        .take_while(|r| r.final_count == first.final_count && r.result == first.result)
        .collect();
    assert!(game.windows(2).all(|w| w[0].ply() < w[1].ply()));
}

#[test]
fn info_reads_the_file_back() {
    let bytes = generate("info.bin", &[]);
    let path = scratch("info.bin");
    let output = run(&["datagen", "--info", path.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(
        stdout.starts_with(&format!("records {}\n", bytes.len() / 32)),
        "{stdout}"
    );
    assert!(stdout.contains("\nresults White won "), "{stdout}");
    assert!(
        stdout.contains("\nscore (side to move, centi-stones) mean "),
        "{stdout}"
    );
}

/// The command fails with status 2 and an `error:` line; `expected` is in
/// that line, or for clap's usage errors in the lines under it.
fn fails(args: &[&str], expected: &str) {
    let output = run(args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    let first = stderr.lines().next().unwrap_or("");
    assert!(first.starts_with("error: "), "{args:?}: {stderr}");
    assert!(stderr.contains(expected), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn bad_input_gets_one_clear_line_and_status_2() {
    let out = scratch("never.bin");
    let out = out.to_str().unwrap();
    let base = ["datagen", "--games", "4", "--nodes", "100"];
    let with = |extra: &[&'static str]| -> Vec<String> {
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let check = |args: Vec<String>, expected: &str| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        fails(&args, expected);
    };
    check(
        with(&["--shard", "3/2", "--out", "x"]),
        "invalid value '3/2' for '--shard <K/N>': shard 3 does not exist",
    );
    check(
        with(&["--shard", "1:2", "--out", "x"]),
        "invalid value '1:2' for '--shard <K/N>': not K/N",
    );
    check(
        with(&["--random-plies", "6..2", "--out", "x"]),
        "MIN is larger than MAX",
    );
    check(with(&["--frobnicate", "--out", "x"]), "--frobnicate");
    fails(&["datagen", "--games", "0", "--out", out], "'0'");
    fails(&["datagen", "--games", "2"], "--out");
    fails(
        &["datagen", "--games", "1", "--out", "/nonexistent-dir/x.bin"],
        "cannot write /nonexistent-dir/x.bin",
    );
    let odd = scratch("odd.bin");
    std::fs::write(&odd, [0u8; 33]).unwrap();
    fails(
        &["datagen", "--info", odd.to_str().unwrap()],
        "33 bytes is not a whole number of 32-byte records",
    );
    let bad = scratch("bad.bin");
    std::fs::write(&bad, [0u8; 32]).unwrap();
    fails(
        &["datagen", "--info", bad.to_str().unwrap()],
        "record 0 (byte 0): the position is not legal",
    );
    fails(
        &["datagen", "--info", "/nonexistent-file.bin"],
        "cannot read /nonexistent-file.bin",
    );
}
