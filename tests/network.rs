//! The learned evaluation end to end through the binary: `tuzdyk datagen`
//! makes a little data, `tuzdyk train` a network from it (of 256 hidden
//! units, or 512 trained afresh or widened from a 256 one), and the engine
//! plays with it after `setoption name EvalFile` and `Eval network`. A file
//! that is not a network is refused with one clear line and the previous
//! evaluation stays. Small runs only.

mod common;

use std::path::PathBuf;
use std::process::Output;

use common::Engine;
use tuzdyk_search::eval::Evaluator;
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

/// `tuzdyk train` with `args` after the data and `--out`, for one epoch;
/// the output file's bytes, or the failed run's output.
fn train_more(data: &std::path::Path, out: &str, args: &[&str]) -> Result<Vec<u8>, Output> {
    let out = scratch(out);
    let mut all = vec![
        "train",
        path(data),
        "--out",
        path(&out),
        "--epochs",
        "1",
        "--batch",
        "256",
        "--validation-every",
        "4",
    ];
    all.extend_from_slice(args);
    let output = run(&all);
    if !output.status.success() {
        return Err(output);
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let units = if args.contains(&"512") { 512 } else { 256 };
    assert!(
        stdout.contains(&format!("({units} hidden units, ")),
        "{stdout}"
    );
    Ok(std::fs::read(out).unwrap())
}

/// `--hidden 512` trains a network of 512 units the engine loads; from a
/// 256 network (`--init`) it widens it, and steps too small to move any
/// weight by a quantisation step give a network that evaluates exactly as
/// the parent (the new units' output weights are zero). Narrowing is
/// refused with one line.
#[test]
fn a_512_network_trains_afresh_or_widened_and_the_engine_reads_it() {
    let (data, net) = trained_network("wide");
    let parent = Network::from_bytes(&std::fs::read(&net).unwrap()).unwrap();
    assert_eq!(parent.hidden_size(), 256);
    let fresh = train_more(&data, "wide-fresh.tznn", &["--hidden", "512"]).unwrap();
    assert_eq!(fresh.len(), Network::file_size(512));
    let fresh = Network::from_bytes(&fresh).unwrap();
    assert_eq!(fresh.hidden_size(), 512);
    let loaded = Evaluator::named(path(&scratch("wide-fresh.tznn"))).unwrap();
    assert_eq!(loaded.name(), format!("network {}", fresh.id()));

    let widened = train_more(
        &data,
        "widened.tznn",
        &[
            "--init",
            path(&net),
            "--hidden",
            "512",
            "--rate",
            "0.000000001",
        ],
    )
    .unwrap();
    let widened = Network::from_bytes(&widened).unwrap();
    assert_eq!(widened.hidden_size(), 512);
    let mut rng = tuzdyk_rules::rng::SplitMix64::new(3);
    for _ in 0..200 {
        let plies = rng.below(100);
        let (_, pos) = common::random_moves(&tuzdyk_rules::Position::startpos(), plies, &mut rng);
        assert_eq!(widened.evaluate(&pos), parent.evaluate(&pos));
    }
    // The same size as the --init network's is no widening.
    let same = train_more(
        &data,
        "same.tznn",
        &[
            "--init",
            path(&net),
            "--hidden",
            "256",
            "--rate",
            "0.000000001",
        ],
    )
    .unwrap();
    assert_eq!(same, std::fs::read(&net).unwrap());

    let wide_path = scratch("wide-fresh.tznn");
    let narrowed = train_more(
        &data,
        "narrowed.tznn",
        &["--init", path(&wide_path), "--hidden", "256"],
    )
    .unwrap_err();
    assert_eq!(narrowed.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&narrowed.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot be narrowed"), "{stderr}");
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
        (garbage, &["--hidden", "384"], "--hidden must be 256 or 512"),
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
