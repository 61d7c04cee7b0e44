//! `tuzdyk spsa` and the tuning build's options as a user meets them: the
//! release build declares no search parameter, params.rs declares each
//! tunable with its default (what `--write-params` rewrites), a default
//! build is refused as an engine, and a short run against a stand-in tuning
//! build (`tests/fake_engines/tuning.sh`: the default build with the option
//! `RFP_MARGIN` added) plays, survives a crashed engine, finishes and writes
//! its value back.
//!
//! No test asserts on elapsed time; the clocks are short only so that the
//! tests stay fast.

mod common;

use std::path::PathBuf;

use common::TUZDYK;
use tuzdyk_search::params::TUNABLES;
use tuzdyk_tools::spsa::params_file;

const PARAMS_RS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/search/src/params.rs");

fn scratch(test: &str) -> PathBuf {
    common::scratch_dir(&format!("spsa_{test}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// The option names the binary declares in its `uci` answer.
fn declared_options() -> Vec<String> {
    let output = common::run_tuzdyk_with_input(&[] as &[&str], "uci\nquit\n");
    text(&output.stdout)
        .lines()
        .filter_map(|line| line.strip_prefix("option name "))
        .filter_map(|rest| rest.split(" type ").next())
        .map(str::to_string)
        .collect()
}

#[cfg(not(feature = "tune"))]
#[test]
fn the_release_build_declares_no_search_parameter() {
    let options = declared_options();
    assert!(options.contains(&"Hash".to_string()), "{options:?}");
    for tunable in TUNABLES {
        assert!(
            !options.iter().any(|o| o.eq_ignore_ascii_case(tunable.name)),
            "{} is an option of the release build",
            tunable.name
        );
    }
}

#[cfg(feature = "tune")]
#[test]
fn the_tuning_build_declares_every_search_parameter() {
    let options = declared_options();
    for tunable in TUNABLES {
        assert!(
            options.contains(&tunable.name.to_string()),
            "{}",
            tunable.name
        );
    }
}

#[test]
fn params_rs_declares_every_tunable_with_its_default() {
    let source = std::fs::read_to_string(PARAMS_RS).unwrap();
    let names: Vec<&str> = TUNABLES.iter().map(|t| t.name).collect();
    let written = params_file::defaults(&source, PARAMS_RS, &names).unwrap();
    for (tunable, literal) in TUNABLES.iter().zip(written) {
        assert_eq!(
            literal.replace('_', "").parse::<i64>(),
            Ok(tunable.default),
            "{}",
            tunable.name
        );
    }
    // Written back unchanged, the file stays the same.
    let values: Vec<(&str, i64)> = TUNABLES.iter().map(|t| (t.name, t.default)).collect();
    let (same, changes) = params_file::rewrite(&source, PARAMS_RS, &values).unwrap();
    assert!(changes.is_empty(), "{changes:?}");
    assert_eq!(same, source);
}

#[cfg(not(feature = "tune"))]
#[test]
fn a_default_build_is_not_a_tuning_build() {
    let dir = scratch("default_build");
    let state = dir.join("state.json");
    let output = common::run_tuzdyk(&[
        "spsa",
        "--engine",
        &format!("cmd={TUZDYK}"),
        "--tc",
        "1+0.01",
        "--state",
        state.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "error: engine {TUZDYK} has no option {}: not a tuning build; build it with --features tune",
            TUNABLES[0].name
        )),
        "{stderr}"
    );
    assert!(!state.exists());
}

#[test]
fn a_short_run_plays_survives_a_crash_resumes_finished_and_writes_back() {
    let dir = scratch("run");
    let state = dir.join("state.json");
    let params_rs = dir.join("params.rs");
    std::fs::copy(PARAMS_RS, &params_rs).unwrap();
    let marker = dir.join("crashed");
    // The first engine processes crash at their first move; the referee
    // starts them again, and the stand-in then runs the real engine.
    let engine = format!(
        "cmd={} {} {} {TUZDYK}",
        common::fake_engine("tuning.sh"),
        common::fake_engine("crash.sh"),
        marker.display()
    );
    let run = |extra: &[&str]| {
        let mut args = vec![
            "spsa",
            "--engine",
            &engine,
            "--params",
            "rfp_margin",
            "--tc",
            "0.5+0.01",
            "--pairs-per-iteration",
            "2",
            "--iterations",
            "2",
            "--seed",
            "5",
            "--state",
            state.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        common::run_tuzdyk(&args)
    };
    let output = run(&[]);
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("game 1: theta+ crashed"), "{stderr}");
    for i in 1..=2 {
        let line = stderr
            .lines()
            .find(|l| l.starts_with(&format!("iteration {i}/2: W ")))
            .unwrap_or_else(|| panic!("no line for iteration {i}: {stderr}"));
        assert!(line.contains(" | RFP_MARGIN "), "{line}");
    }
    let stdout = text(&output.stdout);
    assert!(stdout.starts_with("RFP_MARGIN "), "{stdout}");
    // The value, where it started, and the games' evidence about it.
    assert!(stdout.contains(" (from 90, z "), "{stdout}");
    assert!(stdout.trim_end().ends_with(')'), "{stdout}");
    assert!(stderr.contains("below 2 either way is noise"), "{stderr}");
    let saved = std::fs::read_to_string(&state).unwrap();
    assert!(
        saved.contains("\"format\": \"tuzdyk spsa state\""),
        "{saved}"
    );
    assert_eq!(saved.matches("\"iteration\":").count(), 2, "{saved}");

    // The file alone says where the run stands: the same values and
    // evidence, without an engine.
    let report = common::run_tuzdyk(&["spsa", "--state", state.to_str().unwrap()]);
    assert!(report.status.success(), "{}", text(&report.stderr));
    assert_eq!(text(&report.stdout), stdout);
    assert!(
        text(&report.stderr).starts_with("2 of 2 iterations played (8 games, "),
        "{}",
        text(&report.stderr)
    );

    // Started again with the finished run's file: nothing more is played,
    // and its value goes into params.rs, no other line changed.
    let output = run(&[
        "--write-params",
        "--params-file",
        params_rs.to_str().unwrap(),
    ]);
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(!stderr.contains("iteration "), "{stderr}");
    assert_eq!(std::fs::read_to_string(&state).unwrap(), saved);
    let value: i64 = text(&output.stdout)
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .expect("RFP_MARGIN <value>");
    let original = std::fs::read_to_string(PARAMS_RS).unwrap();
    let rewritten = std::fs::read_to_string(&params_rs).unwrap();
    let differing: Vec<(&str, &str)> = original
        .lines()
        .zip(rewritten.lines())
        .filter(|(a, b)| a != b)
        .collect();
    if value == 90 {
        assert!(differing.is_empty(), "{differing:?}");
    } else {
        assert_eq!(differing.len(), 1, "{differing:?}");
        assert!(
            differing[0]
                .1
                .contains(&format!("RFP_MARGIN: i32 = {value},")),
            "{differing:?}"
        );
    }
}

/// A run at a node limit instead of a clock (what makes a tune fit in hours
/// here): it plays, and its state file says which limit its games had.
#[test]
fn a_run_at_a_node_limit_plays_and_records_it() {
    let dir = scratch("nodes");
    let state = dir.join("state.json");
    let engine = format!("cmd={} {TUZDYK}", common::fake_engine("tuning.sh"));
    let output = common::run_tuzdyk(&[
        "spsa",
        "--engine",
        &engine,
        "--params",
        "RFP_MARGIN",
        "--nodes",
        "2000",
        "--pairs-per-iteration",
        "1",
        "--iterations",
        "1",
        "--state",
        state.to_str().unwrap(),
    ]);
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("iteration 1/1: W "), "{stderr}");
    let saved = std::fs::read_to_string(&state).unwrap();
    assert!(saved.contains("\"tc\": \"nodes 2000\""), "{saved}");
}
