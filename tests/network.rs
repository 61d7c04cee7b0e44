//! The learned evaluation end to end through the binary: `tuzdyk datagen`
//! makes a little data, `tuzdyk train` a network from it, and the engine
//! plays with it after `setoption name EvalFile` and `Eval network`. A file
//! that is not a network is refused with one clear line and the previous
//! evaluation stays. Small runs only.

mod common;

use std::path::PathBuf;
use std::process::Output;

use common::Engine;
use tuzdyk_search::eval::network::Network;

fn run(args: &[&str]) -> Output {
    common::run_tuzdyk(args)
}

fn scratch(name: &str) -> PathBuf {
    common::scratch_file("network", name)
}

fn path(p: &std::path::Path) -> &str {
    p.to_str().expect("a UTF-8 temp path")
}

/// A network trained for two epochs on 12 games at 200 nodes, and its data
/// (files named after `test`: the tests run side by side).
fn trained_network(test: &str) -> (PathBuf, PathBuf) {
    let data = scratch(&format!("{test}-data.bin"));
    let net = scratch(&format!("{test}-net.tznn"));
    let output = run(&[
        "datagen",
        "--games",
        "12",
        "--nodes",
        "200",
        "--seed",
        "4",
        "--out",
        path(&data),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let output = run(&[
        "train",
        path(&data),
        "--out",
        path(&net),
        "--epochs",
        "2",
        "--batch",
        "256",
        "--validation-every",
        "4",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("epoch 2/2: training loss "), "{stderr}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("network "), "{stdout}");
    (data, net)
}

#[test]
fn a_trained_network_loads_and_plays() {
    let (_, net) = trained_network("plays");
    let network = Network::from_bytes(&std::fs::read(&net).unwrap()).unwrap();
    let mut engine = Engine::start();
    engine.command("uci");
    let lines = engine.command(&format!("setoption name EvalFile value {}", path(&net)));
    assert!(lines.is_empty(), "{lines:?}");
    let lines = engine.command("setoption name Eval value network");
    assert!(lines.is_empty(), "{lines:?}");
    engine.command("position startpos moves 6");
    let eval = engine.command("eval");
    let last = eval.last().expect("eval lines");
    assert!(
        last.starts_with(&format!("eval network {} total cp ", network.id())),
        "{eval:?}"
    );
    let expected = network.evaluate(&common::play(&tuzdyk_rules::Position::startpos(), &[6]));
    assert!(
        last.ends_with(&format!(" cp {expected}")),
        "{last} vs {expected}"
    );
    let search = engine.go("go depth 4");
    assert!(
        search.last().unwrap().starts_with("bestmove "),
        "{search:?}"
    );
}

/// `--init` starts from a network's own weights: steps too small to move
/// any weight by a quantisation step give the same network back, and
/// ordinary steps a different one.
#[test]
fn training_from_a_network_starts_at_its_weights() {
    let (data, net) = trained_network("init");
    let again = |rate: &str, out: &str| {
        let out = scratch(out);
        let output = run(&[
            "train",
            path(&data),
            "--out",
            path(&out),
            "--init",
            path(&net),
            "--epochs",
            "1",
            "--batch",
            "256",
            "--rate",
            rate,
            "--validation-every",
            "4",
        ]);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        std::fs::read(out).unwrap()
    };
    let original = std::fs::read(&net).unwrap();
    assert_eq!(again("0.000000001", "tiny.tznn"), original);
    assert_ne!(again("0.001", "step.tznn"), original);
}

#[test]
fn a_bad_network_file_is_refused_and_the_evaluation_stays() {
    let bad = scratch("bad.tznn");
    std::fs::write(&bad, b"TZNN not really").unwrap();
    let mut engine = Engine::start();
    engine.command("uci");
    let before = engine.command("eval");
    let lines = engine.command(&format!("setoption name EvalFile value {}", path(&bad)));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with(&format!("info string error: EvalFile '{}': ", path(&bad))),
        "{lines:?}"
    );
    let missing = engine.command("setoption name EvalFile value /no/such/file.tznn");
    assert!(missing[0].starts_with("info string error: EvalFile '/no/such/file.tznn': "));
    // The evaluation stays the one built in.
    let eval = engine.command("eval");
    assert_eq!(eval, before);
    let built_in = Network::built_in().expect("a built-in network");
    assert_eq!(
        eval.last().unwrap(),
        &format!(
            "eval network {} total cp {}",
            built_in.id(),
            built_in.evaluate(&tuzdyk_rules::Position::startpos())
        ),
        "{eval:?}"
    );
    let search = engine.go("go depth 3");
    assert!(search.last().unwrap().starts_with("bestmove "));
}

#[test]
fn train_rejects_bad_input_with_one_line() {
    let garbage = scratch("garbage.bin");
    std::fs::write(&garbage, [1u8; 40]).unwrap();
    let garbage = path(&garbage);
    for (data, extra, expected) in [
        ("/no/such.bin", &[][..], "cannot read"),
        (garbage, &[], "error: "),
        (
            garbage,
            &["--lambda", "2"],
            "--lambda must be between 0 and 1",
        ),
        (
            garbage,
            &["--init", "/no/such.tznn"],
            "--init '/no/such.tznn': ",
        ),
        (garbage, &["--init", garbage], "not a tuzdyk network file"),
    ] {
        let mut args = vec!["train", data, "--out", "x.tznn"];
        args.extend_from_slice(extra);
        let output = run(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}
