//! The games database and the explorer through the binary (`tuzdyk db`,
//! `tuzdyk explore`) and the `tuzdyk-db` API, on small databases made in
//! temporary folders. No test touches the real home: every run names its
//! database, or points HOME and XDG_DATA_HOME at a temporary folder.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{run_tuzdyk, tuzdyk};
use tuzdyk_db::{Database, GameFilter, ImportSource};
use tuzdyk_notation::record::{self, GameRecord};
use tuzdyk_rules::{GameResult, Move, Position, Side};

const GAMES_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/playok-games.pgn");

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tuzdyk-db-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn import(db: &Path, files: &[&Path]) -> std::process::Output {
    let mut args: Vec<String> = vec!["db".into(), "import".into()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    args.extend(["--db".into(), db.display().to_string()]);
    run_tuzdyk(&args)
}

fn games_text() -> String {
    std::fs::read_to_string(GAMES_FILE).expect("the PlayOK games")
}

#[test]
fn import_then_reimport_skips_every_duplicate() {
    let dir = temp_dir("reimport");
    let db = dir.join("g.sqlite");
    let out = import(&db, &[Path::new(GAMES_FILE)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "imported 1229 duplicates 0 bad 0");
    let out = import(&db, &[Path::new(GAMES_FILE)]);
    assert_eq!(text(&out.stdout).trim(), "imported 0 duplicates 1229 bad 0");
    let list = run_tuzdyk(&["db", "games", "--db", db.to_str().unwrap(), "--json"]);
    assert_eq!(text(&list.stdout).lines().count(), 1229);
    let first: serde_json::Value =
        serde_json::from_str(text(&list.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first["white"], "argenby");
    assert_eq!(first["white_elo"], 1200);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_bad_record_in_the_middle_is_reported_by_line_and_the_rest_imported() {
    let dir = temp_dir("bad");
    let db = dir.join("g.sqlite");
    let good = "[White \"a\"]\n[Black \"b\"]\n\n1. 65(10) 98 *\n\n";
    let bad = "[White \"c\"]\n[Black \"d\"]\n\n1. 65(10) 99 *\n\n";
    let other = "[White \"e\"]\n[Black \"f\"]\n\n1. 65(10) 98 *\n";
    let file = dir.join("three.pgn");
    std::fs::write(&file, format!("{good}{bad}{other}")).unwrap();
    let out = import(&db, &[&file]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout).trim(), "imported 2 duplicates 0 bad 1");
    let stderr = text(&out.stderr);
    let expected = format!("{}:6: ", file.display());
    assert!(
        stderr.lines().next().unwrap().starts_with(&expected),
        "{stderr}"
    );
    assert!(stderr.contains("'99'"), "{stderr}");
    let missing = import(&db, &[&dir.join("nothing.pgn")]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("nothing.pgn"));
    let _ = std::fs::remove_dir_all(dir);
}

/// Counts per (position key, move) over every ply of `records`.
fn replayed_counts(records: &[GameRecord]) -> HashMap<(u64, u32), [u64; 4]> {
    let mut counts: HashMap<(u64, u32), [u64; 4]> = HashMap::new();
    for r in records {
        let mut pos = *r.game.start();
        for &mv in r.game.moves() {
            let c = counts.entry((pos.key(), mv.number())).or_default();
            c[0] += 1;
            match r.result {
                Some(GameResult::Win(Side::White)) => c[1] += 1,
                Some(GameResult::Draw) => c[2] += 1,
                Some(GameResult::Win(Side::Black)) => c[3] += 1,
                None => {}
            }
            pos.play(mv);
        }
    }
    counts
}

#[test]
fn the_explorer_counts_what_the_games_played() {
    let records: Vec<GameRecord> = record::parse_games(&games_text())
        .into_iter()
        .map(|r| r.unwrap())
        .collect();
    let mut db = Database::open_in_memory().unwrap();
    let text = games_text();
    db.import(
        ImportSource::Text {
            name: "playok",
            text: &text,
        },
        |_| {},
    )
    .unwrap();
    let counts = replayed_counts(&records);
    // The start and positions along a few games, in the opening rows, at
    // their edge and in the deep index: every move played there, with
    // its counts, and no other.
    let opening = tuzdyk_db::explorer::OPENING_PLIES;
    let mut checked = 0;
    for r in records.iter().step_by(97) {
        let last = r.game.moves().len() - 1;
        for ply in [
            0,
            1,
            5,
            opening - 1,
            opening,
            opening + 1,
            29,
            60,
            100,
            last,
        ] {
            let pos = r.game.position_at(ply.min(last));
            let mut expected: Vec<(u32, [u64; 4])> = counts
                .iter()
                .filter(|((key, _), _)| *key == pos.key())
                .map(|(&(_, mv), &c)| (mv, c))
                .collect();
            expected.sort_unstable();
            let mut got: Vec<(u32, [u64; 4])> = db
                .explore(&pos)
                .unwrap()
                .iter()
                .map(|s| {
                    let c = [s.games, s.white_wins, s.draws, s.black_wins];
                    (s.mv.number(), c)
                })
                .collect();
            got.sort_unstable();
            assert!(!got.is_empty(), "ply {ply}: its game is there");
            assert_eq!(got, expected, "ply {ply}");
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
    let start = db.explore(&Position::startpos()).unwrap();
    assert_eq!(start.iter().map(|s| s.games).sum::<u64>(), 1229);
}

#[test]
fn transpositions_merge() {
    // No two move orders of a few plies from the start reach one position
    // (the kazans tell them apart), so the test makes the same position
    // twice: once after 6 from the start, once as a record's FEN start with
    // another move number. The key leaves the move number out, as it leaves
    // out the order of the moves (Zobrist keys hash the position alone).
    let mv = |n| Move::from_number(n).unwrap();
    let mut after_six = Position::startpos();
    after_six.play(mv(6));
    let mut later = after_six;
    later.set_fullmove(7);
    assert_eq!(later.key(), after_six.key());
    let from_start = "[White \"a\"]\n[Black \"b\"]\n\n1. 65(10) 98 *\n";
    let fen = tuzdyk_notation::tfen::write(&later);
    let from_fen = format!("[White \"c\"]\n[Black \"d\"]\n[FEN \"{fen}\"]\n\n7... 98 *\n");
    let mut db = Database::open_in_memory().unwrap();
    let text = format!("{from_start}\n{from_fen}");
    let mut bad = Vec::new();
    let s = db
        .import(
            ImportSource::Text {
                name: "t",
                text: &text,
            },
            |b| bad.push(b.to_string()),
        )
        .unwrap();
    assert_eq!(s.imported, 2, "{bad:?}");
    let stats = db.explore(&after_six).unwrap();
    assert_eq!(stats.len(), 1);
    assert_eq!((stats[0].mv, stats[0].games), (mv(9), 2));
}

#[test]
fn export_then_reimport_gives_the_same_games() {
    let dir = temp_dir("export");
    let db = dir.join("g.sqlite");
    import(&db, &[Path::new(GAMES_FILE)]);
    let out = run_tuzdyk(&[
        "db",
        "export",
        "--db",
        db.to_str().unwrap(),
        "--result",
        "1/2-1/2",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let exported = dir.join("draws.pgn");
    std::fs::write(&exported, &out.stdout).unwrap();
    let draws = records_of(&text(&out.stdout));
    assert!(!draws.is_empty());
    let again = import(&db, &[&exported]);
    assert_eq!(
        text(&again.stdout).trim(),
        format!("imported 0 duplicates {} bad 0", draws.len())
    );
    let fresh = dir.join("fresh.sqlite");
    import(&fresh, &[&exported]);
    let a = Database::open(&db).unwrap();
    let b = Database::open(&fresh).unwrap();
    let filter = GameFilter {
        result: Some("1/2-1/2".into()),
        ..GameFilter::default()
    };
    let strip = |rows: Vec<tuzdyk_db::GameRow>| {
        rows.into_iter()
            .map(|mut r| {
                r.id = 0;
                r
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        strip(a.games(&filter).unwrap()),
        strip(b.games(&filter).unwrap())
    );
    let _ = std::fs::remove_dir_all(dir);
}

fn records_of(text: &str) -> Vec<GameRecord> {
    record::parse_games(text)
        .into_iter()
        .map(|r| r.unwrap())
        .collect()
}

#[test]
fn an_import_killed_halfway_then_run_again_has_every_game_once() {
    let dir = temp_dir("killed");
    let db = dir.join("g.sqlite");
    let big = dir.join("big.pgn");
    // The PlayOK games ten times over, each copy with its own Event tag.
    let base = games_text();
    let mut copies = String::new();
    for i in 0..10 {
        copies.push_str(&base.replace("[Event \"?\"]", &format!("[Event \"copy {i}\"]")));
        copies.push('\n');
    }
    std::fs::write(&big, &copies).unwrap();
    let mut child = tuzdyk(&[
        "db",
        "import",
        big.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ])
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null())
    .spawn()
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut killed_at = None;
    while Instant::now() < deadline {
        if let Ok(conn) = rusqlite_count(&db)
            && conn > 0
        {
            let _ = child.kill();
            killed_at = Some(conn);
            break;
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.wait();
    let first = killed_at.expect("some games were committed before the kill");
    let out = import(&db, &[&big]);
    assert!(out.status.success(), "{}", text_of(&out));
    let line = text(&out.stdout);
    let imported: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    let all = Database::open(&db).unwrap();
    assert_eq!(
        all.game_count().unwrap(),
        12290,
        "killed at {first}: {line}"
    );
    assert!(
        imported < 12290,
        "the rerun found games already there: {line}"
    );
    let start = all.explore(&Position::startpos()).unwrap();
    assert_eq!(start.iter().map(|s| s.games).sum::<u64>(), 12290);
    let _ = std::fs::remove_dir_all(dir);
}

fn text_of(out: &std::process::Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

/// Games committed in the database at `path`, read as another process
/// would (WAL lets it read while the import writes).
fn rusqlite_count(path: &Path) -> Result<u64, ()> {
    if !path.exists() {
        return Err(());
    }
    let db = Database::open_read_only(path).map_err(|_| ())?;
    db.game_count().map_err(|_| ())
}

#[test]
fn the_default_database_is_made_with_the_playok_games() {
    let home = temp_dir("home");
    let run = |args: &[&str]| {
        let mut command = tuzdyk(args);
        command
            .env_remove("TUZDYK_DB")
            .env("HOME", &home)
            .env("XDG_DATA_HOME", home.join("data"));
        command.output().unwrap()
    };
    let out = run(&["explore", "--moves", "7"]);
    assert!(out.status.success(), "{}", text_of(&out));
    let made = home.join("data").join("tuzdyk").join("games.sqlite");
    assert!(made.exists());
    assert!(
        text(&out.stderr).contains("1229 PlayOK games"),
        "{}",
        text(&out.stderr)
    );
    assert!(!text(&out.stdout).is_empty());
    let again = run(&["db", "games", "--limit", "3"]);
    assert_eq!(text(&again.stdout).lines().count(), 3);
    assert!(
        text(&again.stderr).is_empty(),
        "made once: {}",
        text(&again.stderr)
    );
    let _ = std::fs::remove_dir_all(home);
}

#[test]
fn explore_names_what_is_wrong_with_its_input() {
    let dir = temp_dir("explore");
    let db = dir.join("g.sqlite");
    import(&db, &[Path::new(GAMES_FILE)]);
    let d = db.to_str().unwrap();
    let out = run_tuzdyk(&["explore", "--db", d, "--json"]);
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines[0]["games"].as_u64() >= lines[1]["games"].as_u64());
    assert!(lines[0]["avg_rating"].is_u64());
    for (args, needle) in [
        (vec!["--moves", "6 x"], "'x'"),
        (vec!["--moves", "6 0"], "'0'"),
        (vec!["--fen", "nonsense"], "'nonsense'"),
    ] {
        let mut all = vec!["explore", "--db", d];
        all.extend(args);
        let out = run_tuzdyk(&all);
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{err}");
    }
    let not_db = dir.join("text.sqlite");
    std::fs::write(&not_db, "not a database at all, just some text in a file").unwrap();
    let out = run_tuzdyk(&["explore", "--db", not_db.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not a games database"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// `explore --depth N` scores each move as the engine scores it alone
/// (`go depth N searchmoves <move>` from the same position).
#[test]
fn explore_scores_each_move_as_the_engine_does() {
    let dir = temp_dir("explore-depth");
    let db = dir.join("g.sqlite");
    let games = dir.join("two.pgn");
    // Two openings from the start: hole 9 and hole 6.
    let record = |hole: u32| {
        let mut game = tuzdyk_rules::Game::new(Position::startpos());
        game.play(Move::from_number(hole).unwrap()).unwrap();
        GameRecord::new(game, None).to_string()
    };
    std::fs::write(&games, [record(9), record(6)].join("\n")).unwrap();
    assert!(import(&db, &[&games]).status.success());
    let out = run_tuzdyk(&[
        "explore",
        "--db",
        db.to_str().unwrap(),
        "--depth",
        "4",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    for line in &lines {
        let hole = line["move"].as_str().unwrap();
        let protocol = common::run_tuzdyk_with_input::<&str>(
            &[],
            format!("position startpos\ngo depth 4 searchmoves {hole}\n"),
        );
        let answer = text(&protocol.stdout);
        let last_score = answer
            .lines()
            .rev()
            .filter_map(|l| l.split_once(" score cp ").map(|(_, rest)| rest))
            .find_map(|rest| rest.split_whitespace().next()?.parse::<i64>().ok())
            .expect("a score from the engine");
        assert_eq!(
            line["score_cp"].as_i64(),
            Some(last_score),
            "{line} vs {answer}"
        );
    }
}
