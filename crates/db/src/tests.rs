//! The crate's API on small databases in memory or in a temporary folder.

use std::path::PathBuf;

use tuzdyk_rules::{Move, Position};

use crate::schema::{MIGRATIONS, V1_GAMES};
use crate::*;

const GAME: &str = "[White \"a\"]\n[Black \"b\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1700\"]\n\
                    [Result \"*\"]\n\n1. 65(10) 98 *\n";

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tuzdyk-db-unit-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.join("games.sqlite")
}

fn mv(n: u32) -> Move {
    Move::from_number(n).unwrap()
}

#[test]
fn a_v1_database_is_migrated_with_its_games_kept() {
    let path = temp_path("v1");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(V1_GAMES).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        conn.execute(
            "INSERT INTO games (hash, result, plies, moves) VALUES (7, '*', 2, x'69')",
            [],
        )
        .unwrap();
    }
    let db = Database::open(&path).unwrap();
    assert_eq!(db.version().unwrap(), MIGRATIONS.len() as i64);
    assert_eq!(db.version().unwrap(), 3);
    let record = db.record(1).unwrap().expect("the v1 game is there");
    assert_eq!(record.game.moves(), [mv(6), mv(9)]);
    assert_eq!(
        db.solver().unwrap().rating,
        1500.0,
        "v2's solver row is made"
    );
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn a_file_that_is_not_a_database_is_refused_by_name() {
    let path = temp_path("notdb");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        "this is text, not SQLite, and long enough to have a header",
    )
    .unwrap();
    let error = Database::open(&path).err().expect("refused");
    assert!(matches!(error, OpenError::NotADatabase { .. }), "{error}");
    assert!(error.to_string().contains("games.sqlite"), "{error}");
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn import_skips_duplicates_and_reports_bad_records_by_line() {
    let mut db = Database::open_in_memory().unwrap();
    let text = format!("{GAME}\n[White \"c\"]\n\n1. 65(10) 99 *\n");
    let mut bad = Vec::new();
    let summary = db
        .import(
            ImportSource::Text {
                name: "x.pgn",
                text: &text,
            },
            |b| bad.push(b.to_string()),
        )
        .unwrap();
    assert_eq!(
        (summary.imported, summary.duplicates, summary.bad),
        (1, 0, 1)
    );
    assert_eq!(bad.len(), 1);
    assert!(bad[0].starts_with("x.pgn:9: "), "{}", bad[0]);
    let again = db
        .import(
            ImportSource::Text {
                name: "x.pgn",
                text: GAME,
            },
            |_| {},
        )
        .unwrap();
    assert_eq!((again.imported, again.duplicates), (0, 1));
    assert_eq!(db.game_count().unwrap(), 1);
    let stats = db.explore(&Position::startpos()).unwrap();
    assert_eq!(stats.len(), 1);
    assert_eq!(
        (stats[0].mv, stats[0].games, stats[0].avg_rating),
        (mv(6), 1, Some(1600))
    );
}

#[test]
fn exported_records_are_the_same_games() {
    let mut db = Database::open_in_memory().unwrap();
    db.import(
        ImportSource::Text {
            name: "t",
            text: GAME,
        },
        |_| {},
    )
    .unwrap();
    let record = db.record(1).unwrap().unwrap();
    assert_eq!(record.tag("WhiteElo"), Some("1500"));
    assert_eq!(record.tag("White"), Some("a"));
    let again = db
        .import(
            ImportSource::Text {
                name: "t",
                text: &record.to_string(),
            },
            |_| {},
        )
        .unwrap();
    assert_eq!(again.duplicates, 1, "{record}");
}

#[test]
fn study_rows_go_in_and_come_back() {
    let db = Database::open_in_memory().unwrap();
    let start = Position::startpos();
    let mut p = Puzzle {
        id: 0,
        position: start,
        solution: vec![mv(6), mv(9)],
        themes: vec!["capture".into(), "opening".into()],
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
        attempts: 0,
        source: None,
    };
    p.id = db.insert_puzzle(&p).unwrap();
    assert_eq!(db.puzzle(p.id).unwrap().as_ref(), Some(&p));
    p.rating = 1620.5;
    p.attempts = 3;
    db.update_puzzle_rating(&p).unwrap();
    assert_eq!(db.puzzles(1600.0..=1700.0).unwrap(), vec![p.clone()]);
    assert!(db.puzzles(1000.0..=1100.0).unwrap().is_empty());

    let solver = SolverRating {
        rating: 1712.0,
        deviation: 80.0,
        volatility: 0.059,
    };
    db.update_solver(&solver).unwrap();
    assert_eq!(db.solver().unwrap(), solver);

    let a = db.insert_attempt(p.id, true, &[mv(6)]).unwrap();
    let attempts = db.attempts(p.id).unwrap();
    assert_eq!(
        (
            attempts[0].id,
            attempts[0].solved,
            attempts[0].moves.clone()
        ),
        (a, true, vec![mv(6)])
    );
    assert!(
        db.insert_attempt(p.id + 100, false, &[]).is_err(),
        "the puzzle must exist"
    );

    let mut s = Study {
        id: 0,
        name: "the 6 opening".into(),
        start,
        moves: vec![mv(6), mv(9), mv(1)],
        comment: "a line".into(),
        created: String::new(),
    };
    s.id = db.insert_study(&s).unwrap();
    let stored = db.study(s.id).unwrap().unwrap();
    assert_eq!(stored.moves, s.moves);
    assert!(stored.created.ends_with('Z'), "{}", stored.created);
    s.comment = "changed".into();
    s.created = stored.created.clone();
    db.update_study(&s).unwrap();
    assert_eq!(db.study(s.id).unwrap(), Some(s));

    let mut m = Mistake {
        id: 0,
        position: start,
        played: mv(1),
        best: mv(6),
        accepted: vec![mv(6), mv(7)],
        game_id: None,
        ply: 0,
        solved: 0,
    };
    m.id = db.insert_mistake(&m).unwrap();
    db.mark_mistake_solved(m.id).unwrap();
    m.solved = 1;
    assert_eq!(db.mistakes().unwrap(), vec![m]);
}
