//! The run's pieces with a fake match: SPSA finds a known optimum, a state
//! file resumes a run exactly, and bad arguments are refused by name.

use super::*;
use games::Score;
use tuzdyk_rules::rng::SplitMix64;

/// A fake match: the θ + c·flip side's chance of winning a game is the
/// logistic of the difference of a known objective, peaked at `optimum`;
/// the games' luck comes from the batch's number, so a batch played again
/// gives the same score.
struct Objective {
    optimum: Vec<f64>,
    /// Elo-like loss per unit squared distance, per parameter.
    scale: Vec<f64>,
    /// Batches to play before the fake "engine" can no longer be run.
    budget: Option<u64>,
    played: Vec<Pairing>,
}

impl Objective {
    fn new(optimum: Vec<f64>, scale: Vec<f64>) -> Objective {
        Objective {
            optimum,
            scale,
            budget: None,
            played: Vec::new(),
        }
    }

    fn strength(&self, values: &[(String, i64)]) -> f64 {
        values
            .iter()
            .zip(self.optimum.iter().zip(&self.scale))
            .map(|((_, v), (o, s))| -s * (*v as f64 - o).powi(2))
            .sum()
    }
}

impl Games for Objective {
    fn play(&mut self, pairing: &Pairing) -> Result<Score, String> {
        if self.budget == Some(0) {
            return Err("killed".to_string());
        }
        self.budget = self.budget.map(|b| b - 1);
        self.played.push(pairing.clone());
        let diff = self.strength(&pairing.plus) - self.strength(&pairing.minus);
        let p_win = 1.0 / (1.0 + 10f64.powf(-diff / 400.0));
        let mut luck = SplitMix64::new(pairing.iteration.wrapping_mul(0x2545_F491_4F6C_DD1D));
        let mut score = Score::default();
        for _ in 0..pairing.pairs * 2 {
            let x = (luck.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            if x < p_win * 0.8 {
                score.wins += 1;
            } else if x < 1.0 - (1.0 - p_win) * 0.8 {
                score.draws += 1;
            } else {
                score.losses += 1;
            }
        }
        Ok(score)
    }
}

const TUNABLES: [Tunable; 2] = [
    Tunable {
        name: "ALPHA_MARGIN",
        default: 50,
        min: 0,
        max: 200,
        c_end: 6.0,
        r_end: 0.002,
    },
    Tunable {
        name: "BETA_DIVISOR",
        default: 300,
        min: 100,
        max: 1000,
        c_end: 30.0,
        r_end: 0.002,
    },
];

fn new_state(iterations: u64, pairs: u64) -> State {
    State::new(
        start_params(&TUNABLES),
        iterations,
        pairs,
        7,
        "1+0.01".to_string(),
    )
}

#[test]
fn spsa_moves_theta_to_a_known_optimum_with_a_fixed_seed() {
    // The optimum is 120 and 500; a step of c_end from it costs a few Elo,
    // as fishtest's guidance for c_end has it.
    let mut games = Objective::new(vec![120.0, 500.0], vec![0.1, 0.004]);
    let mut state = new_state(1500, 8);
    drive(&mut state, &mut games, &mut |_| Ok(())).unwrap();
    let theta: Vec<f64> = state.params.iter().map(|p| p.theta).collect();
    assert!((theta[0] - 120.0).abs() < 10.0, "{theta:?}");
    assert!((theta[1] - 500.0).abs() < 50.0, "{theta:?}");
    // And it got there from far away: 50 and 300, below both optima, so
    // the games favoured the higher side of each, beyond noise.
    assert_eq!(state.done(), 1500);
    let results: Vec<(u64, i64)> = state
        .batches
        .iter()
        .map(|b| (b.iteration, b.result()))
        .collect();
    let z = rule::evidence(state.seed, &results, 2);
    assert!(z[0] > 3.0 && z[1] > 3.0, "{z:?}");
    assert_eq!(games.played.len(), 1500);
    // Every batch's sides stay inside the ranges and straddle θ.
    for pairing in &games.played {
        for ((_, plus), (_, minus)) in pairing.plus.iter().zip(&pairing.minus) {
            assert_ne!(plus, minus);
        }
    }
}

#[test]
fn a_run_killed_after_three_iterations_resumes_to_the_same_six() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("spsa.json");
    let objective = || Objective::new(vec![80.0, 400.0], vec![0.2, 0.01]);

    let mut whole = new_state(6, 2);
    let mut lines = Vec::new();
    drive(&mut whole, &mut objective(), &mut |s| {
        lines.push(log_line(s));
        Ok(())
    })
    .unwrap();

    // The first run is killed when its fourth batch starts.
    let mut first = objective();
    first.budget = Some(3);
    let mut state = new_state(6, 2);
    let stopped = drive(&mut state, &mut first, &mut |s| {
        s.save(&path).map_err(SpsaError::from)
    });
    assert!(matches!(stopped, Err(SpsaError::Stopped(_))), "{stopped:?}");
    let mut resumed = State::load(&path).unwrap().expect("the state was saved");
    assert_eq!(resumed.done(), 3);

    let mut second = objective();
    let mut resumed_lines: Vec<String> = resumed.batches.iter().map(|_| String::new()).collect();
    drive(&mut resumed, &mut second, &mut |s| {
        resumed_lines.push(log_line(s));
        s.save(&path).map_err(SpsaError::from)
    })
    .unwrap();
    // It went on at iteration 4 with the openings' pairs after the third.
    assert_eq!(second.played[0].iteration, 4);
    assert_eq!(second.played[0].first_pair, 6);
    assert_eq!(resumed, whole);
    assert_eq!(State::load(&path).unwrap(), Some(whole));
    assert_eq!(&resumed_lines[3..], &lines[3..]);
    assert!(lines[5].starts_with("iteration 6/6: W "), "{}", lines[5]);
    assert!(lines[5].contains("| ALPHA_MARGIN "), "{}", lines[5]);
}

fn args(words: &str) -> Args {
    use clap::Parser;
    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }
    let words = std::iter::once("spsa").chain(words.split_whitespace());
    Cli::try_parse_from(words).unwrap().args
}

#[test]
fn bad_parameters_and_foreign_state_files_are_refused_by_name() {
    let error = run(args("--params ALPHA_MARGIN,GAMMA --tc 1"), &TUNABLES).unwrap_err();
    assert_eq!(
        error.to_string(),
        "--params: unknown parameter 'GAMMA' (the tunables: ALPHA_MARGIN, BETA_DIVISOR)"
    );
    assert_eq!(error.status(), 2);
    // Any case, in the list's order.
    let chosen = select(Some(&["beta_divisor".to_string()]), &TUNABLES).unwrap();
    assert_eq!(chosen.unwrap()[0].name, "BETA_DIVISOR");

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.json");
    new_state(6, 2).save(&path).unwrap();
    let shown = path.display();
    let error = run(
        args(&format!("--state {shown} --params ALPHA_MARGIN")),
        &TUNABLES,
    );
    assert_eq!(
        error.unwrap_err().to_string(),
        format!(
            "state file '{shown}' tunes ALPHA_MARGIN,BETA_DIVISOR, not ALPHA_MARGIN: give its --params, or another --state"
        )
    );
    let error = run(args(&format!("--state {shown} --iterations 9")), &TUNABLES);
    assert_eq!(
        error.unwrap_err().to_string(),
        format!(
            "state file '{shown}' was started with --iterations 6; --iterations 9 would change its run"
        )
    );
    let error = run(args(&format!("--state {shown}")), &TUNABLES[..1]).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "state file '{shown}' tunes 'BETA_DIVISOR', which this build's params.rs does not declare: it is from other parameters"
        )
    );
    std::fs::write(&path, "{\"hello\": 1}").unwrap();
    let error = run(args(&format!("--state {shown}")), &TUNABLES).unwrap_err();
    assert!(
        error.to_string().starts_with(&format!(
            "state file '{shown}' is not a tuzdyk spsa state: "
        )),
        "{error}"
    );
    assert_eq!(error.status(), 2);
    let error = run(args("--write-params"), &TUNABLES).unwrap_err();
    assert!(matches!(error, SpsaError::NothingToWrite), "{error}");
    // Neither an engine nor a state file to report on.
    let error = run(args(""), &TUNABLES).unwrap_err();
    assert!(matches!(error, SpsaError::NoEngine), "{error}");
}

#[test]
fn write_params_rewrites_only_the_tuned_defaults_from_a_state_file() {
    let dir = tempfile::tempdir().unwrap();
    let params_rs = dir.path().join("params.rs");
    let text = "tunables! {\n    ALPHA_MARGIN: i32 = 50, 0..=200, c_end 6.0, r_end 0.002;\n    BETA_DIVISOR: i32 = 300, 100..=1000, c_end 30.0, r_end 0.002;\n}\n";
    std::fs::write(&params_rs, text).unwrap();
    let mut state = new_state(6, 2);
    state.params[0].theta = 57.4;
    state.params[1].theta = 299.6;
    let path = dir.path().join("s.json");
    state.save(&path).unwrap();
    let words = format!(
        "--state {} --write-params --params-file {}",
        path.display(),
        params_rs.display()
    );
    run(args(&words), &TUNABLES).unwrap();
    assert_eq!(
        std::fs::read_to_string(&params_rs).unwrap(),
        text.replace("= 50,", "= 57,")
    );
}

#[test]
fn a_run_needs_a_clock_or_a_search_limit_and_not_two_clocks() {
    let engine = "--engine cmd=/nonexistent/tuning-build";
    let error = run(args(engine), &TUNABLES).unwrap_err();
    assert_eq!(
        error.to_string(),
        "no time control: give --tc <seconds+increment>, --movetime, --nodes or --depth"
    );
    assert_eq!(error.status(), 2);
    let error = run(args(&format!("{engine} --tc 1 --movetime 50")), &TUNABLES).unwrap_err();
    assert_eq!(
        error.to_string(),
        "give either --tc or --movetime, not both"
    );
    // A node limit alone is a time control: the run gets as far as
    // starting the engine.
    let error = run(args(&format!("{engine} --nodes 5000")), &TUNABLES).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("engine /nonexistent/tuning-build: "),
        "{error}"
    );
}

#[test]
fn an_engine_without_the_options_is_not_a_tuning_build() {
    assert_eq!(
        spin_range(
            "option name RFP_MARGIN type spin default 90 min 30 max 200",
            "RFP_MARGIN"
        ),
        Some((30, 200))
    );
    assert_eq!(
        spin_range(
            "option name RFP_MARGIN_X type spin default 9 min 3 max 20",
            "RFP_MARGIN"
        ),
        None
    );
    assert_eq!(
        spin_range(
            "option name Hash type spin default 16 min 1 max 65536",
            "RFP_MARGIN"
        ),
        None
    );
    assert_eq!(
        spin_range(
            "option name RFP_MARGIN type string default 90",
            "RFP_MARGIN"
        ),
        None
    );
}
