//! The levels as a GUI sees them through the protocol: the stand-ins answer
//! every kind of `go` like the engine, and `Level`, `UCI_LimitStrength` and
//! `UCI_Elo` agree as protocol.md says (closest estimate, clamped values,
//! the notices). No test looks at the time taken.

mod common;

use std::time::Duration;

use common::{Engine, is_legal, parse_bestmove, parse_info, play};
use tuzdyk_protocol::Level;
use tuzdyk_protocol::level::ELO_RANGE;
use tuzdyk_rules::Position;

fn start() -> Engine {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.read_until("uciok", |l| l == "uciok");
    engine
}

/// Checks a finished search: `info` lines with a legal pv, then a legal
/// `bestmove`.
fn check(lines: &[String], position: &Position, what: &str) {
    let (last, infos) = lines.split_last().expect("a bestmove line");
    let (best, _) = parse_bestmove(last).unwrap_or_else(|e| panic!("{what}: {e}"));
    let best = best.unwrap_or_else(|| panic!("{what}: no move: {lines:#?}"));
    assert!(is_legal(position, best), "{what}: bestmove {best}");
    let mut with_pv = 0;
    for line in infos {
        let info = parse_info(line).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(!info.pv.is_empty(), "{what}: {line}");
        assert!(is_legal(position, info.pv[0]), "{what}: {line}");
        with_pv += 1;
    }
    assert!(with_pv > 0, "{what}: no info line: {lines:#?}");
}

#[test]
fn the_stand_ins_answer_every_go_like_the_engine() {
    let mut engine = start();
    let position = play(&Position::startpos(), &[6, 4]);
    for level in ["greedy", "greedy2", "beginner", "amateur"] {
        assert!(
            engine
                .command(&format!("setoption name Level value {level}"))
                .is_empty()
        );
        engine.send("position startpos moves 6 4");
        for go in [
            "go depth 5",
            "go nodes 500",
            "go movetime 50",
            "go wtime 2000 btime 2000 winc 10 binc 10",
        ] {
            let lines = engine.go(go);
            check(&lines, &position, &format!("{level} {go}"));
        }
        // Infinite and ponder searches wait for stop and ponderhit.
        for (go, release) in [
            ("go infinite", "stop"),
            ("go ponder wtime 2000 btime 2000", "ponderhit"),
        ] {
            engine.send(go);
            let mut lines = engine.sync();
            lines.extend(engine.drain_for(Duration::from_millis(200)));
            assert!(
                lines.iter().all(|l| !l.starts_with("bestmove")),
                "{level} {go}: bestmove before {release}: {lines:#?}"
            );
            engine.send(release);
            lines.extend(engine.read_until("bestmove", |l| l.starts_with("bestmove")));
            check(&lines, &position, &format!("{level} {go}"));
        }
    }
}

/// The `option` line of `name` in the handshake.
fn option_line(engine: &mut Engine, hello: &str, ok: &str, name: &str) -> String {
    engine.send(hello);
    let lines = engine.read_until(ok, |l| l == ok);
    lines
        .into_iter()
        .find(|l| l.starts_with(&format!("option name {name} type ")))
        .unwrap_or_else(|| panic!("no {name} option after {hello}"))
}

#[test]
fn the_strength_options_are_declared_in_uci_and_ugi() {
    let mut engine = Engine::start();
    let (min, max) = ELO_RANGE;
    for (hello, ok) in [("uci", "uciok"), ("ugi", "ugiok")] {
        assert_eq!(
            option_line(&mut engine, hello, ok, "UCI_LimitStrength"),
            "option name UCI_LimitStrength type check default false"
        );
        assert_eq!(
            option_line(&mut engine, hello, ok, "UCI_Elo"),
            format!("option name UCI_Elo type spin default {max} min {min} max {max}")
        );
    }
}

#[test]
fn uci_elo_is_clamped_and_sets_the_closest_level_when_limited() {
    let mut engine = start();
    let (min, max) = ELO_RANGE;
    // Not limited: kept, the level stays.
    assert_eq!(
        engine.command("setoption name UCI_Elo value 0"),
        vec![
            format!("info string UCI_Elo 0 is out of range {min}..{max}; set to {min}"),
            format!(
                "info string UCI_Elo {min} is kept; it sets Level when UCI_LimitStrength is true"
            ),
        ]
    );
    let level = option_line(&mut engine, "uci", "uciok", "Level");
    assert!(level.contains("type combo default champion "), "{level}");
    // Limited: the kept value takes effect.
    let beginner = Level::Beginner.rating().elo;
    assert_eq!(
        engine.command("setoption name UCI_LimitStrength value true"),
        vec![format!(
            "info string Level set to beginner (UCI_Elo {beginner})"
        )]
    );
    for level in Level::LADDER {
        let elo = level.rating().elo;
        let near = (i64::from(elo) + 1).min(max);
        assert_eq!(
            engine.command(&format!("setoption name UCI_Elo value {near}")),
            vec![format!("info string Level set to {level} (UCI_Elo {elo})")]
        );
        let line = option_line(&mut engine, "uci", "uciok", "Level");
        assert!(line.contains(&format!(" default {level} ")), "{line}");
    }
    let top = Level::FULL_STRENGTH.rating().elo;
    assert_eq!(
        engine.command("setoption name UCI_Elo value 99999"),
        vec![
            format!("info string UCI_Elo 99999 is out of range {min}..{max}; set to {max}"),
            format!(
                "info string Level set to {} (UCI_Elo {top})",
                Level::FULL_STRENGTH
            ),
        ]
    );
}

#[test]
fn a_level_set_while_limited_reports_its_uci_elo() {
    let mut engine = start();
    assert!(
        engine
            .command("setoption name Level value casual")
            .is_empty()
    );
    engine.command("setoption name UCI_LimitStrength value true");
    let novice = Level::Novice.rating().elo;
    assert_eq!(
        engine.command("setoption name Level value novice"),
        vec![format!(
            "info string UCI_Elo set to {novice} (Level novice)"
        )]
    );
    let line = option_line(&mut engine, "uci", "uciok", "UCI_Elo");
    assert!(line.contains(&format!(" default {novice} ")), "{line}");
    // Off again: Level alone decides, and nothing is reported.
    assert!(
        engine
            .command("setoption name UCI_LimitStrength value false")
            .is_empty()
    );
    let line = option_line(&mut engine, "uci", "uciok", "Level");
    assert!(line.contains(" default novice "), "{line}");
}
