//! What a match reports: a line per game on stderr, the summary on stdout
//! (text, or one JSON object), and each game's record.

use serde::Serialize;
use tuzdyk_notation::record::{GameRecord, result_text};
use tuzdyk_notation::tfen;
use tuzdyk_rules::Position;

use super::args::Setup;
use super::referee::{ForfeitKind, GameOutcome};
use super::sprt::{self, Decision};
use super::standings::Standings;
use crate::elo::{Tally, format_elo};

/// The two progress lines of a finished game (for stderr): the game, then
/// the running score.
pub(super) fn game_lines(game: &GameOutcome, standings: &Standings, total: usize) -> String {
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
    line
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
    if !setup.resumed.is_empty() {
        out.push_str(&format!(
            "resumed: {} games read back from the --pgn file\n",
            setup.resumed.len()
        ));
    }
    if let Some(line) = standings.closest_to_flag_line() {
        // A record keeps no clock readings: after --resume, only the
        // games played since are known.
        let since = if setup.resumed.is_empty() {
            ""
        } else {
            " (in the games played since resuming)"
        };
        out.push_str(&format!("least time left after a move{since}: {line}\n"));
    }
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

/// The JSON summary (`--json`): one object, its schema these structs (and
/// README's `match` section).
#[derive(Serialize)]
struct Summary<'a> {
    engines: Vec<EngineJson<'a>>,
    time_control: String,
    openings: &'a str,
    games_requested: usize,
    games: u64,
    /// Of `games`, those read back from the `--pgn` file (`--resume`).
    resumed_games: usize,
    pairs: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    /// The first engine's mean score per game; `null` before a game.
    score: Option<f64>,
    /// `null` when infinite (a score of 0% or 100%) or before a game.
    elo: Option<f64>,
    elo_lower: Option<f64>,
    elo_upper: Option<f64>,
    elo_interval: &'static str,
    los: f64,
    draw_ratio: Option<f64>,
    pentanomial: [u64; 5],
    sprt: Option<SprtJson>,
    normal: u64,
    adjudicated: u64,
    forfeits: [ForfeitsJson<'a>; 2],
    /// By engine: the least time it had left after a move (before the
    /// increment) in any game played by this run (records keep no clock
    /// readings); `null` without clocks.
    closest_to_flag_ms: [Option<u64>; 2],
    results: Vec<ResultJson<'a>>,
}

#[derive(Serialize)]
struct EngineJson<'a> {
    name: &'a str,
    command: String,
    /// The `option.<Name>=<value>` pairs, in the order given.
    #[serde(serialize_with = "pairs_as_object")]
    options: &'a [(String, String)],
}

#[derive(Serialize)]
struct SprtJson {
    model: &'static str,
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    llr: f64,
    lower_bound: f64,
    upper_bound: f64,
    decision: &'static str,
}

/// One engine's forfeits by kind; the keys are [`ForfeitKind::name`]s.
#[derive(Serialize)]
struct ForfeitsJson<'a> {
    engine: &'a str,
    illegal_move: u64,
    crash: u64,
    hang: u64,
    time_forfeit: u64,
    start_failure: u64,
}

#[derive(Serialize)]
struct ResultJson<'a> {
    round: usize,
    white: &'a str,
    black: &'a str,
    result: &'static str,
    termination: &'a str,
}

/// Name-value pairs as one JSON object, in their order.
fn pairs_as_object<S: serde::Serializer>(
    pairs: &&[(String, String)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(pairs.iter().map(|(name, value)| (name, value)))
}

/// A number, or `None` when it is not finite (JSON has no infinity).
fn finite(value: f64) -> Option<f64> {
    value.is_finite().then_some(value)
}

/// The summary as one JSON object.
pub(super) fn json_summary(standings: &Standings, setup: &Setup) -> String {
    let t = &standings.tally;
    let elo = t.elo();
    let forfeits = |engine: usize| {
        let count = |kind| standings.forfeit_count(engine, kind);
        ForfeitsJson {
            engine: &standings.names[engine],
            illegal_move: count(ForfeitKind::IllegalMove),
            crash: count(ForfeitKind::Crash),
            hang: count(ForfeitKind::Hang),
            time_forfeit: count(ForfeitKind::TimeForfeit),
            start_failure: count(ForfeitKind::StartFailure),
        }
    };
    let mut games = standings.games.clone();
    games.sort_by_key(|game| game.0);
    let summary = Summary {
        engines: setup
            .specs
            .iter()
            .map(|spec| EngineJson {
                name: &spec.name,
                command: spec.command.join(" "),
                options: &spec.options,
            })
            .collect(),
        time_control: setup.limits.describe(),
        openings: &setup.openings_name,
        games_requested: setup.games,
        games: t.games(),
        resumed_games: setup.resumed.len(),
        pairs: t.pairs(),
        wins: t.wins,
        draws: t.draws,
        losses: t.losses,
        score: t.score(),
        elo: elo.and_then(|e| finite(e.elo)),
        elo_lower: elo.and_then(|e| finite(e.lower)),
        elo_upper: elo.and_then(|e| finite(e.upper)),
        elo_interval: interval_method(t),
        los: t.los(),
        draw_ratio: t.draw_ratio(),
        pentanomial: t.pentanomial,
        sprt: standings.sprt.map(|(sprt, llr, decision)| {
            let (lower, upper) = sprt.bounds();
            SprtJson {
                model: sprt::MODEL,
                elo0: sprt.elo0,
                elo1: sprt.elo1,
                alpha: sprt.alpha,
                beta: sprt.beta,
                llr,
                lower_bound: lower,
                upper_bound: upper,
                decision: decision.describe(),
            }
        }),
        normal: standings.normal,
        adjudicated: standings.adjudicated,
        forfeits: [forfeits(0), forfeits(1)],
        closest_to_flag_ms: standings.closest_to_flag.map(|c| c.map(|(ms, _)| ms)),
        results: Vec::new(),
    };
    let results = games
        .iter()
        .map(|(number, white, result, termination)| ResultJson {
            round: *number,
            white: &standings.names[*white],
            black: &standings.names[1 - white],
            result,
            termination,
        })
        .collect();
    serde_json::to_string(&Summary { results, ..summary })
        .unwrap_or_else(|e| unreachable!("plain structs always serialise: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forfeit_keys_are_the_kinds_names() {
        let standings = Standings::new(["a".to_string(), "b".to_string()], None);
        let json = serde_json::to_value(ForfeitsJson {
            engine: "a",
            illegal_move: standings.forfeit_count(0, ForfeitKind::IllegalMove),
            crash: 0,
            hang: 0,
            time_forfeit: 0,
            start_failure: 0,
        })
        .unwrap();
        let mut keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut names: Vec<&str> = ForfeitKind::ALL.iter().map(|k| k.name()).collect();
        names.push("engine");
        keys.sort_unstable();
        names.sort_unstable();
        assert_eq!(keys, names);
    }

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
