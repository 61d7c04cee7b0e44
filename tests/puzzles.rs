//! `tuzdyk puzzles` as a user runs it (mine, export, import, shards, a
//! rerun that resumes), the miner on fixed fake answers, and the shipped
//! set (`crates/db/data/puzzles.jsonl`): every puzzle replays legally, its
//! themes are what the rules give now, nearly all of a hundred keep their move at a
//! deeper depth through the real engine. Searches are
//! shallow; no test looks at the time taken.

mod common;

use std::path::PathBuf;
use std::process::Output;

use tuzdyk_analysis::puzzles::{self, MARGIN, MineDepth, PuzzleEngine, RATING_RANGE, Theme};
use tuzdyk_analysis::{AnalysisError, SearchLimits, Searcher};
use tuzdyk_db::{Database, ImportSource, PuzzleLine};
use tuzdyk_protocol::{EngineOption, EngineSpec, InfoLine, Score, SearchReport};
use tuzdyk_rules::{Game, Move, Position};

use common::{TUZDYK, run_tuzdyk, scratch_dir};

/// The first four plies of PlayOK game 408 of `tests/data`: White's second
/// move, 9, ends on Black's 9 with 22 stones and takes them. The best other
/// move scores 7 to 11 stones less at depths 8-14 with generations 11 and
/// 12, so a new network keeps it a puzzle (the first game's 14-stone
/// capture, used before, fell to a 5-stone gap with generation 12, under
/// the miner's 6). With 13d the miner at its default depth still finds it;
/// at depth 4 it does not.
const CAPTURE: &str = "[White \"darru\"]\n[Black \"auuuf\"]\n[Result \"*\"]\n\n\
                       1. 76(10) 76(10) 2. 88 89(22) *\n";

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn tuzdyk_ok(args: &[&str]) -> Output {
    let output = run_tuzdyk(args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    output
}

/// A database in a scratch folder `name` holding the game [`CAPTURE`].
fn capture_database(name: &str) -> PathBuf {
    let path = scratch_dir(&format!("tuzdyk-puzzles-{name}")).join("games.sqlite");
    let mut db = Database::open(&path).unwrap();
    let source = ImportSource::Text {
        name: "capture",
        text: CAPTURE,
    };
    db.import(source, |bad| panic!("{bad}")).unwrap();
    path
}

/// Searched `DEEPER` plies past the miner's confirmation, whether `first`
/// is still the engine's best and missing it still costs at least half the
/// margin (3 stones, a mistake); `Err` says what the search found. Not the
/// whole margin: a gap measured at one depth moves a little at the next
/// (puzzle 2 of an earlier shipped set had 8.7 stones at depth 12 and 4.2
/// at 14), and the miner's test is the one it passed.
fn kept_deeper(engine: &mut Searcher, start: &Position, first: Move) -> Result<(), String> {
    let depth = MineDepth::default().confirm + DEEPER;
    let report = engine.search_to(start, depth).unwrap();
    let score = |k: usize| {
        let line = &report.lines[k];
        (line.pv[0], tuzdyk_analysis::capped(line.score.unwrap()))
    };
    let ((best, high), (_, low)) = (score(0), score(1));
    if best == first && high - low >= MARGIN / 2 {
        Ok(())
    } else {
        Err(format!("at depth {depth}: {:?}", report.lines))
    }
}

fn confirmed_deeper(engine: &mut Searcher, start: &Position, first: Move, what: &str) {
    if let Err(found) = kept_deeper(engine, start, first) {
        panic!("{what} {found}");
    }
}

/// How much deeper than the miner's confirmation the tests search.
const DEEPER: u32 = 2;

fn lines(text: &str) -> Vec<PuzzleLine> {
    text.lines()
        .map(|l| PuzzleLine::parse(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The real engine, two lines, one thread.
fn engine() -> Searcher {
    let spec = EngineSpec::from_command(Some(TUZDYK), "engine").unwrap();
    let options = [(EngineOption::Threads, 1), (EngineOption::MultiPv, 2)];
    Searcher::start(&spec, &options, SearchLimits::depth(1)).unwrap()
}

fn mv(number: u32) -> Move {
    Move::from_number(number).unwrap()
}

#[test]
fn mining_a_known_capture_finds_the_move_a_deeper_search_confirms() {
    let path = capture_database("capture");
    let db = path.to_str().unwrap();
    let mined = tuzdyk_ok(&["puzzles", "mine", "--db", db]);
    let summary = stdout(&mined);
    assert!(
        summary.starts_with("shard 1/1: mined 1 games (0 done before)"),
        "{summary}"
    );
    assert!(
        stderr(&mined).contains("shard 1/1: 1/1 games"),
        "{}",
        stderr(&mined)
    );
    let found = lines(&stdout(&tuzdyk_ok(&[
        "puzzles", "export", "--db", db, "--json",
    ])));
    let capture = found
        .iter()
        .find(|p| p.game.as_ref().is_some_and(|g| g.ply == 4))
        .unwrap_or_else(|| panic!("no puzzle at ply 4: {found:?}"));
    assert_eq!(capture.solution[0], 9, "{capture:?}");
    assert!(
        capture.themes.contains(&"even_capture".to_string()),
        "{capture:?}"
    );
    let game = capture.game.as_ref().unwrap();
    assert_eq!(
        (game.id, game.white.as_deref(), game.black.as_deref()),
        (1, Some("darru"), Some("auuuf"))
    );
    let (start, _) = capture.checked().unwrap();
    let mut engine = engine();
    confirmed_deeper(&mut engine, &start, mv(9), "the capture");
    engine.quit();

    // A rerun resumes: nothing left to mine.
    let again = tuzdyk_ok(&["puzzles", "mine", "--db", db]);
    assert!(
        stdout(&again).starts_with("shard 1/1: mined 0 games (1 done before), found 0"),
        "{}",
        stdout(&again)
    );
}

#[test]
fn export_then_import_gives_the_same_puzzles_and_bad_lines_are_named() {
    let from = capture_database("from");
    let from = from.to_str().unwrap();
    // At the default depth, where the first test finds the capture: at
    // depth 4, with generation 13d, the miner finds no puzzle in this game.
    tuzdyk_ok(&["puzzles", "mine", "--db", from]);
    let json = stdout(&tuzdyk_ok(&["puzzles", "export", "--db", from, "--json"]));
    assert!(!json.is_empty());
    let dir = scratch_dir("tuzdyk-puzzles-roundtrip");
    let file = dir.join("shard.jsonl");
    std::fs::write(&file, &json).unwrap();
    // Into a database with the same games: the same lines, sources kept.
    let to = capture_database("to");
    let to = to.to_str().unwrap();
    let file = file.to_str().unwrap();
    let imported = tuzdyk_ok(&["puzzles", "import", file, "--db", to]);
    let count = json.lines().count();
    assert_eq!(
        stdout(&imported).trim(),
        format!("imported {count} duplicates 0 bad 0")
    );
    assert_eq!(
        stdout(&tuzdyk_ok(&["puzzles", "export", "--db", to, "--json"])),
        json
    );
    // The text form: one line a puzzle too.
    let text = stdout(&tuzdyk_ok(&["puzzles", "export", "--db", to]));
    assert_eq!(text.lines().count(), count);
    assert!(text.contains("darru - auuuf"), "{text}");
    // Again, with a bad line: duplicates skipped, the bad line named.
    let bad = dir.join("bad.jsonl");
    std::fs::write(
        &bad,
        format!("{json}{{\"fen\":\"?\",\"solution\":[1],\"rating\":1500}}\n"),
    )
    .unwrap();
    let output = run_tuzdyk(&["puzzles", "import", bad.to_str().unwrap(), "--db", to]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(
        stdout(&output).trim(),
        format!("imported 0 duplicates {count} bad 1")
    );
    let errors = stderr(&output);
    assert!(
        errors.starts_with(&format!("{}:{}: TFEN '?'", bad.display(), count + 1)),
        "{errors}"
    );
    assert!(
        errors.ends_with("error: 1 line(s) were not imported\n"),
        "{errors}"
    );
}

#[test]
fn a_malformed_shard_is_one_line_of_error() {
    let path = capture_database("shards");
    for shard in ["0/4", "5/4", "x/y", "3"] {
        let output = run_tuzdyk(&[
            "puzzles",
            "mine",
            "--db",
            path.to_str().unwrap(),
            "--shard",
            shard,
        ]);
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(
            stderr(&output),
            format!("error: --shard: shard '{shard}' is not K/N with 1 <= K <= N (e.g. 1/4)\n")
        );
        assert!(stdout(&output).is_empty());
    }
    // A shard without games mines nothing and starts no engine.
    let empty = tuzdyk_ok(&[
        "puzzles",
        "mine",
        "--db",
        path.to_str().unwrap(),
        "--shard",
        "2/2",
        "--engine-cmd",
        "/nonexistent",
    ]);
    assert!(
        stdout(&empty).starts_with("shard 2/2: mined 0 games"),
        "{}",
        stdout(&empty)
    );
    let missing = run_tuzdyk(&["puzzles", "export", "--db", "/nonexistent/games.sqlite"]);
    assert_eq!(
        stderr(&missing),
        "error: no database at '/nonexistent/games.sqlite'\n"
    );
}

/// An engine whose only clear position is the start: 7 by six stones.
struct StartOnly;

impl PuzzleEngine for StartOnly {
    fn search_to(&mut self, pos: &Position, depth: u32) -> Result<SearchReport, AnalysisError> {
        let moves: Vec<Move> = pos.legal_moves().collect();
        let (best, second) = if *pos == Position::startpos() {
            ((mv(7), 250), (mv(2), 250 - MARGIN))
        } else {
            ((moves[0], 0), (moves[1], -10))
        };
        let line = |(m, cp): (Move, i32), k| InfoLine {
            depth: Some(depth),
            multipv: Some(k),
            score: Some(Score::Centistones(cp)),
            pv: vec![m],
            ..InfoLine::default()
        };
        Ok(SearchReport {
            bestmove_line: format!("bestmove {}", best.0),
            lines: vec![line(best, 1), line(second, 2)],
            nodes: None,
            strings: Vec::new(),
        })
    }
}

#[test]
fn the_miner_on_fixed_answers_finds_the_one_clear_position_with_its_themes() {
    let game = Game::replay(Position::startpos(), [mv(7), mv(2), mv(3)]).unwrap();
    let found = puzzles::mine_game(&mut StartOnly, &game, MineDepth::new(4)).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    let puzzle = &found[0];
    assert_eq!((puzzle.ply, puzzle.solution.clone()), (0, vec![mv(7)]));
    assert_eq!((puzzle.clear.best, puzzle.clear.gap()), (250, MARGIN));
    // 7 from the start ends on Black's 6 with 10 stones: an even capture.
    assert_eq!(puzzle.theme_names(), ["even_capture"]);
    assert_eq!(puzzle.found_at, 1);
}

/// The shipped puzzles.
fn shipped() -> Vec<PuzzleLine> {
    lines(tuzdyk_db::seed::PUZZLES)
}

#[test]
fn every_shipped_puzzle_replays_and_its_themes_are_the_rules_themes() {
    let set = shipped();
    assert!(set.len() >= 1000, "{} puzzles", set.len());
    let mut fens = std::collections::HashSet::new();
    for p in &set {
        let (start, solution) = p
            .checked()
            .unwrap_or_else(|e| panic!("puzzle {}: {e}", p.id));
        assert!(
            fens.insert(p.fen.clone()),
            "puzzle {}: a duplicate position",
            p.id
        );
        assert_eq!(
            solution.len() % 2,
            1,
            "puzzle {} ends on a solver move",
            p.id
        );
        assert!(solution.len() < 2 * puzzles::MAX_SOLVER_MOVES);
        assert!(
            (RATING_RANGE.0..=RATING_RANGE.1).contains(&p.rating),
            "puzzle {}",
            p.id
        );
        let themes: Vec<Theme> = p
            .themes
            .iter()
            .map(|t| Theme::from_name(t).unwrap_or_else(|| panic!("puzzle {}: theme {t}", p.id)))
            .collect();
        let by_rules: Vec<Theme> = themes.iter().copied().filter(|t| t.by_rules()).collect();
        assert_eq!(
            by_rules,
            Theme::of_line(&start, &solution),
            "puzzle {}",
            p.id
        );
        assert!(p.game.is_some(), "puzzle {} has its game", p.id);
    }
}

#[test]
fn a_new_default_database_has_the_shipped_puzzles_with_their_games() {
    let dir = scratch_dir("tuzdyk-puzzles-default");
    let path = dir.join("games.sqlite");
    let mut db = Database::open(&path).unwrap();
    let seeded = db.seed().unwrap();
    let set = shipped();
    assert_eq!(seeded.games.imported, 1229);
    assert_eq!(
        (seeded.puzzles.imported, seeded.puzzles.bad),
        (set.len(), 0)
    );
    // Same ids, same games (their players agree), so export gives the file.
    let exported: Vec<PuzzleLine> = db.puzzle_lines().unwrap();
    assert_eq!(exported, set);
    // Through the command line, with the default database in TUZDYK_DB.
    let other = dir.join("default.sqlite");
    let output = common::tuzdyk(&["puzzles", "export", "--json"])
        .env(tuzdyk_db::DB_ENV, &other)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), tuzdyk_db::seed::PUZZLES);
    assert!(stderr(&output).contains(&format!("with 1229 PlayOK games and {} puzzles", set.len())));
}

#[test]
fn nearly_every_shipped_puzzle_keeps_its_move_deeper() {
    // A hundred puzzles spread evenly over the set. A search two plies
    // deeper than the one that confirmed them changes its mind now and
    // then: over the whole set mined with generation 10 (4,753 puzzles; `tuzdyk analyse
    // --depth 14 --multipv 2`), 209 (4.4%) lost their move or
    // half their margin, and 157 of those that held at 12 lost it at 14,
    // about 3% a step. A fixed handful therefore fails on an engine change
    // about one time in four while the set is sound; the share cannot hide
    // a broken miner, which would keep few.
    let set = shipped();
    let mut engine = engine();
    let sample: Vec<&PuzzleLine> = set.iter().step_by(set.len() / 100).take(100).collect();
    let mut lost = Vec::new();
    for p in &sample {
        let (start, solution) = p.checked().unwrap();
        if let Err(found) = kept_deeper(&mut engine, &start, solution[0]) {
            lost.push(format!("puzzle {} {found}", p.id));
        }
    }
    engine.quit();
    assert_eq!(sample.len(), 100);
    assert!(
        lost.len() <= 10,
        "{} of 100 lost:\n{}",
        lost.len(),
        lost.join("\n")
    );
}
