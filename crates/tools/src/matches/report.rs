//! What a match reports: a line per game on stderr, the summary on stdout
//! (text, or one JSON object), and each game's record.

use tuzdyk_notation::record::{GameRecord, result_text};
use tuzdyk_notation::tfen;
use tuzdyk_rules::Position;

use super::args::Setup;
use super::elo::{Tally, format_elo};
use super::referee::{ForfeitKind, GameOutcome};
use super::sprt::{self, Decision};
use super::standings::Standings;
use crate::json::Object;

/// Prints the progress lines of a finished game on stderr.
pub(super) fn report_game(game: &GameOutcome, standings: &Standings, total: usize) {
    let names = &standings.names;
    let mut line = format!(
        "game {}/{total}: {} vs {}: {} ({})\nafter {} games: {} vs {}: {}",
        game.number,
        names[game.white],
        names[1 - game.white],
        result_text(Some(game.result)),
        game.describe(names),
        standings.tally.games(),
        names[0],
        names[1],
        standings.score_line()
    );
    if let Some(sprt) = standings.sprt_line() {
        line.push_str(&format!(", {sprt}"));
    }
    let decision = standings.decision();
    if decision != Decision::Continue {
        line.push_str(&format!(", {}", decision.describe()));
    }
    eprintln!("{line}");
}

/// The game as a PlayOK record with the match's tags.
pub(super) fn game_record(
    game: &GameOutcome,
    names: &[String; 2],
    setup: &Setup,
    date: &str,
) -> GameRecord {
    let mut record = GameRecord::new(game.game.clone(), Some(game.result));
    let mut tags = vec![
        ("Event".to_string(), setup.event.clone()),
        ("Site".to_string(), "tuzdyk match".to_string()),
        ("Date".to_string(), date.to_string()),
        ("Round".to_string(), game.number.to_string()),
        ("White".to_string(), names[game.white].clone()),
        ("Black".to_string(), names[1 - game.white].clone()),
        (
            "Result".to_string(),
            result_text(Some(game.result)).to_string(),
        ),
    ];
    if *game.game.start() != Position::startpos() {
        tags.push(("FEN".to_string(), tfen::write(game.game.start())));
    }
    if let Some(clock) = &setup.limits.clock {
        tags.push(("TimeControl".to_string(), clock.to_string()));
    }
    tags.push(("Termination".to_string(), game.describe(names)));
    tags.push(("PlyCount".to_string(), game.game.moves().len().to_string()));
    record.tags = tags;
    record
}

/// How the Elo interval was computed, for the reports.
fn interval_method(tally: &Tally) -> &'static str {
    if tally.pairs() > 0 {
        "95%, pentanomial variance of the colour-swapped pairs"
    } else {
        "95%, trinomial variance"
    }
}

/// The text summary (standard output).
pub(super) fn text_summary(standings: &Standings, setup: &Setup) -> String {
    let names = &standings.names;
    let t = &standings.tally;
    let mut out = String::new();
    out.push_str(&format!(
        "match {} vs {}: {} of {} games ({} pairs), {}, openings {} ({}), concurrency {}\n",
        names[0],
        names[1],
        t.games(),
        setup.games,
        t.pairs(),
        setup.limits.describe(),
        setup.openings_name,
        setup.openings.len(),
        setup.concurrency
    ));
    out.push_str(&format!(
        "score of {} vs {}: {}\n",
        names[0],
        names[1],
        standings.score_line()
    ));
    if let Some(elo) = t.elo() {
        let margin = elo
            .margin()
            .map_or(String::new(), |m| format!(" (+/- {m:.1})"));
        out.push_str(&format!(
            "elo {} [{}, {}]{margin} ({}), LOS {:.1}%, draw ratio {:.1}%\n",
            format_elo(elo.elo),
            format_elo(elo.lower),
            format_elo(elo.upper),
            interval_method(t),
            100.0 * t.los(),
            100.0 * t.draw_ratio().unwrap_or(0.0)
        ));
    }
    let p = &t.pentanomial;
    out.push_str(&format!(
        "pentanomial (pairs where {} scored 0, 1/2, 1, 3/2, 2): {} {} {} {} {}\n",
        names[0], p[0], p[1], p[2], p[3], p[4]
    ));
    out.push_str(&format!(
        "terminations: {}\n",
        standings.terminations_line()
    ));
    if let Some((sprt, llr, decision)) = standings.sprt {
        let (lower, upper) = sprt.bounds();
        out.push_str(&format!(
            "sprt ({}): elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.3} [{lower:.3}, {upper:.3}], {}\n",
            sprt::MODEL,
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            decision.describe()
        ));
    }
    let mut result = format!(
        "result: {} vs {}: {}, {} games",
        names[0],
        names[1],
        standings.score_line(),
        t.games()
    );
    if let Some((_, llr, decision)) = standings.sprt {
        result.push_str(&format!(", LLR {llr:.2}, {}", decision.describe()));
    }
    out.push_str(&result);
    out.push('\n');
    out
}

/// The summary as one JSON object.
pub(super) fn json_summary(standings: &Standings, setup: &Setup) -> String {
    let t = &standings.tally;
    let elo = t.elo();
    let mut object = Object::new();
    object
        .array(
            "engines",
            &setup.specs.iter().map(engine_json).collect::<Vec<_>>(),
        )
        .str("time_control", &setup.limits.describe())
        .str("openings", &setup.openings_name)
        .int("games_requested", setup.games as i64)
        .int("games", t.games() as i64)
        .int("pairs", t.pairs() as i64)
        .int("wins", t.wins as i64)
        .int("draws", t.draws as i64)
        .int("losses", t.losses as i64)
        .opt_number("score", t.score())
        .opt_number("elo", elo.map(|e| e.elo))
        .opt_number("elo_lower", elo.map(|e| e.lower))
        .opt_number("elo_upper", elo.map(|e| e.upper))
        .str("elo_interval", interval_method(t))
        .number("los", t.los())
        .opt_number("draw_ratio", t.draw_ratio())
        .array("pentanomial", &t.pentanomial.map(|c| c.to_string()))
        .raw("sprt", &sprt_json(standings))
        .int("normal", standings.normal as i64)
        .int("adjudicated", standings.adjudicated as i64)
        .array(
            "forfeits",
            &[forfeits_json(standings, 0), forfeits_json(standings, 1)],
        );
    let mut games = standings.games.clone();
    games.sort_by_key(|game| game.0);
    let games: Vec<String> = games
        .iter()
        .map(|(number, white, result, termination)| {
            let mut game = Object::new();
            game.int("round", *number as i64)
                .str("white", &standings.names[*white])
                .str("black", &standings.names[1 - white])
                .str("result", result)
                .str("termination", termination);
            game.finish()
        })
        .collect();
    object.array("results", &games);
    object.finish()
}

fn engine_json(spec: &tuzdyk_protocol::EngineSpec) -> String {
    let mut options = Object::new();
    for (name, value) in &spec.options {
        options.str(name, value);
    }
    let mut engine = Object::new();
    engine
        .str("name", &spec.name)
        .str("command", &spec.command.join(" "))
        .raw("options", &options.finish());
    engine.finish()
}

fn sprt_json(standings: &Standings) -> String {
    let Some((sprt, llr, decision)) = standings.sprt else {
        return "null".to_string();
    };
    let (lower, upper) = sprt.bounds();
    let mut object = Object::new();
    object
        .str("model", sprt::MODEL)
        .number("elo0", sprt.elo0)
        .number("elo1", sprt.elo1)
        .number("alpha", sprt.alpha)
        .number("beta", sprt.beta)
        .number("llr", llr)
        .number("lower_bound", lower)
        .number("upper_bound", upper)
        .str("decision", decision.describe());
    object.finish()
}

fn forfeits_json(standings: &Standings, engine: usize) -> String {
    let mut object = Object::new();
    object.str("engine", &standings.names[engine]);
    for kind in ForfeitKind::ALL {
        object.int(kind.name(), standings.forfeit_count(engine, kind) as i64);
    }
    object.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_method_follows_the_pairs() {
        let mut tally = Tally::default();
        tally.add_game(2);
        assert_eq!(interval_method(&tally), "95%, trinomial variance");
        tally.add_game(0);
        tally.add_pair(2);
        assert!(interval_method(&tally).contains("pentanomial"));
    }
}
