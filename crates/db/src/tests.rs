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
    assert_eq!(db.version().unwrap(), 4);
    let record = db.record(1).unwrap().expect("the v1 game is there");
    assert_eq!(record.game.moves(), [mv(6), mv(9)]);
    assert_eq!(
        db.solver().unwrap().rating,
        1500.0,
        "v2's solver row is made"
    );
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// The first PlayOK game, as imported into a fresh database.
fn first_playok_game() -> tuzdyk_notation::record::GameRecord {
    let first = tuzdyk_notation::record::parse_games(crate::seed::PLAYOK_GAMES)
        .into_iter()
        .next()
        .unwrap()
        .unwrap();
    assert!(first.game.moves().len() > 40, "a game long enough");
    first
}

#[test]
fn a_v3_database_is_indexed_again_with_every_position() {
    // A v3 database held rows for the first 30 plies and nothing later.
    // After the migration a position of ply 20 is counted once (the old
    // row is gone, the deep index has it) and one of ply 40 is found.
    let record = first_playok_game();
    let path = temp_path("v3");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        for step in &MIGRATIONS[..3] {
            conn.execute_batch(step).unwrap();
        }
        conn.pragma_update(None, "user_version", 3).unwrap();
        let moves = crate::codec::pack_moves(record.game.moves());
        conn.execute(
            "INSERT INTO games (hash, result, plies, moves, indexed) VALUES (7, '*', ?1, ?2, 1)",
            rusqlite::params![record.game.moves().len() as i64, moves],
        )
        .unwrap();
        let mut pos = Position::startpos();
        for &m in record.game.moves().iter().take(30) {
            conn.execute(
                "INSERT INTO explorer VALUES (?1, ?2, 1, 0, 0, 0, 0, 0)",
                rusqlite::params![pos.key() as i64, m.number()],
            )
            .unwrap();
            pos.play(m);
        }
    }
    let db = Database::open(&path).unwrap();
    for ply in [0, 20, 40] {
        let stats = db.explore(&record.game.position_at(ply)).unwrap();
        let played = record.game.moves()[ply];
        assert_eq!(stats.len(), 1, "ply {ply}");
        assert_eq!((stats[0].mv, stats[0].games), (played, 1), "ply {ply}");
    }
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn deep_segments_merge_like_a_binary_counter_and_lose_no_game() {
    // Five imports of one game each (an import flushes at its end), every game through the same late
    // position: segments of levels 2 and 0 stay (5 = 101 in binary), and
    // the explorer counts all five games at that position.
    let record = first_playok_game();
    let mut db = Database::open_in_memory().unwrap();
    for n in 0..5 {
        let mut game = record.clone();
        game.set_tag("White", &format!("p{n}"));
        let text = game.to_string();
        let summary = db
            .import(
                ImportSource::Text {
                    name: "t",
                    text: &text,
                },
                |b| panic!("{b}"),
            )
            .unwrap();
        assert_eq!(summary.imported, 1);
    }
    let levels: Vec<i64> = db
        .conn
        .prepare("SELECT level FROM explorer_segments ORDER BY level")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(levels, [0, 2]);
    let late = record.game.position_at(40);
    let stats = db.explore(&late).unwrap();
    assert_eq!(stats[0].games, 5);
    assert_eq!(stats[0].mv, record.game.moves()[40]);
}

#[test]
fn games_indexed_again_in_small_batches_give_the_same_answers() {
    // Opening a database indexes what is unindexed a batch at a time (all
    // of it after migration 4): 13 flushes of 100 PlayOK games must count
    // what one import counted, in the opening rows and the deep index.
    let mut db = Database::open_in_memory().unwrap();
    let text = crate::seed::PLAYOK_GAMES;
    db.import(
        ImportSource::Text {
            name: "playok",
            text,
        },
        |b| panic!("{b}"),
    )
    .unwrap();
    let records: Vec<_> = tuzdyk_notation::record::parse_games(text)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let positions: Vec<Position> = records
        .iter()
        .step_by(50)
        .flat_map(|r| {
            [0, 10, 16, 40, 90].map(|ply| r.game.position_at(ply.min(r.game.moves().len() - 1)))
        })
        .collect();
    let before: Vec<_> = positions.iter().map(|p| db.explore(p).unwrap()).collect();
    db.conn
        .execute_batch(
            "DELETE FROM explorer; DELETE FROM explorer_deep; DELETE FROM explorer_segments;
             UPDATE games SET indexed = 0;",
        )
        .unwrap();
    assert!(db.explore(&Position::startpos()).unwrap().is_empty());
    db.index_pending_by(100).unwrap();
    let after: Vec<_> = positions.iter().map(|p| db.explore(p).unwrap()).collect();
    assert_eq!(after, before);
    let unindexed: i64 = db
        .conn
        .query_row("SELECT count(*) FROM games WHERE indexed = 0", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(unindexed, 0);
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

/// A puzzle from the start with solution `holes`.
fn start_puzzle(holes: &[u32], source: Option<(i64, u32)>) -> Puzzle {
    Puzzle {
        id: 0,
        position: Position::startpos(),
        solution: holes.iter().map(|&h| mv(h)).collect(),
        themes: vec!["even_capture".into()],
        rating: 1150.0,
        deviation: 350.0,
        volatility: 0.06,
        attempts: 0,
        source,
    }
}

#[test]
fn migration_3_drops_duplicate_puzzles_then_keeps_positions_unique() {
    let path = temp_path("v2");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let start = tuzdyk_notation::tfen::write(&Position::startpos());
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(V1_GAMES).unwrap();
        conn.execute_batch(crate::schema::V2_STUDY).unwrap();
        conn.pragma_update(None, "user_version", 2).unwrap();
        for solution in ["6", "7", "6 9 1"] {
            conn.execute(
                "INSERT INTO puzzles (fen, solution) VALUES (?1, ?2)",
                [&start, solution],
            )
            .unwrap();
        }
    }
    let db = Database::open(&path).unwrap();
    assert_eq!(db.version().unwrap(), MIGRATIONS.len() as i64);
    let kept = db.puzzle_lines().unwrap();
    assert_eq!(kept.len(), 1, "the oldest of the three is kept");
    assert_eq!((kept[0].id, kept[0].solution.clone()), (1, vec![6]));
    assert!(
        db.insert_puzzle(&start_puzzle(&[7], None)).is_err(),
        "unique fen"
    );
    assert_eq!(db.add_puzzle(&start_puzzle(&[7], None)).unwrap(), None);
    assert!(db.games_to_mine(Shard::ALL).unwrap().is_empty());
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn shards_split_the_games_by_id_and_mined_games_are_not_mined_again() {
    for (text, shard) in [("1/4", (1, 4)), ("4/4", (4, 4)), (" 2 / 3 ", (2, 3))] {
        let parsed: Shard = text.parse().unwrap();
        assert_eq!((parsed.index, parsed.count), shard);
    }
    for bad in ["0/4", "5/4", "x/y", "1", "1/0", "", "-1/4", "1/4/2"] {
        let error = bad.parse::<Shard>().expect_err(bad);
        assert!(error.to_string().contains(&format!("'{bad}'")), "{error}");
    }
    let mut db = Database::open_in_memory().unwrap();
    let text: String = (1..=10)
        .map(|k| format!("[White \"w{k}\"]\n[Black \"b\"]\n\n1. 65(10) 98 *\n\n"))
        .collect();
    let summary = db
        .import(
            ImportSource::Text {
                name: "t",
                text: &text,
            },
            |b| panic!("{b}"),
        )
        .unwrap();
    assert_eq!(summary.imported, 10);
    let shard: Shard = "2/3".parse().unwrap();
    assert_eq!(db.games_to_mine(shard).unwrap(), [2, 5, 8]);
    assert!((1..=10).all(|id| shard.contains(id) == [2, 5, 8].contains(&id)));
    let all: Vec<i64> = (1..=3)
        .flat_map(|k| db.games_to_mine(Shard { index: k, count: 3 }).unwrap())
        .collect();
    assert_eq!(all.len(), 10, "the shards cover every game once");
    db.mark_mined(5, 8, 2).unwrap();
    assert_eq!(db.games_to_mine(shard).unwrap(), [2, 8]);
    assert_eq!(db.mined_count(shard).unwrap(), 1);
    assert_eq!(db.mined_count(Shard::ALL).unwrap(), 1);
}

#[test]
fn puzzle_lines_go_out_and_come_back_with_bad_lines_reported_by_line() {
    let mut db = Database::open_in_memory().unwrap();
    db.import(
        ImportSource::Text {
            name: "g",
            text: GAME,
        },
        |b| panic!("{b}"),
    )
    .unwrap();
    let id = db
        .add_puzzle(&start_puzzle(&[6, 9, 1], Some((1, 0))))
        .unwrap();
    assert_eq!(id, Some(1));
    let lines = db.puzzle_lines().unwrap();
    let json = lines[0].to_json();
    assert_eq!(
        json,
        format!(
            "{{\"id\":1,\"fen\":\"{}\",\"solution\":[6,9,1],\"themes\":[\"even_capture\"],\
             \"rating\":1150.0,\"game\":{{\"id\":1,\"ply\":1,\"white\":\"a\",\"black\":\"b\"}}}}",
            tuzdyk_notation::tfen::write(&Position::startpos())
        )
    );
    // Into a new database: the game is not there, so the source is left out.
    let mut other = Database::open_in_memory().unwrap();
    let after_6 = "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 1";
    let text = format!(
        "{json}\n\n{json}\nnot json\n{{\"fen\":\"x\",\"solution\":[1],\"rating\":1}}\n\
         {{\"fen\":\"{after_6}\",\"solution\":[],\"rating\":1}}\n\
         {{\"fen\":\"{after_6}\",\"solution\":[1,10],\"rating\":1}}\n\
         {{\"fen\":\"{after_6}\",\"solution\":[6,5],\"rating\":1}}\n\
         {{\"fen\":\"{after_6}\",\"solution\":[1],\"rating\":900}}\n"
    );
    let mut bad = Vec::new();
    let summary = other
        .import_puzzles(
            ImportSource::Text {
                name: "p.jsonl",
                text: &text,
            },
            |b| bad.push(b.to_string()),
        )
        .unwrap();
    assert_eq!(
        (summary.imported, summary.duplicates, summary.bad),
        (2, 1, 5)
    );
    assert!(
        bad[0].starts_with("p.jsonl:4: not a puzzle line"),
        "{bad:?}"
    );
    assert!(bad[1].starts_with("p.jsonl:5: TFEN 'x'"), "{bad:?}");
    assert_eq!(bad[2], "p.jsonl:6: the solution is empty");
    assert_eq!(bad[3], "p.jsonl:7: solution move 2 (10) is not a hole 1..9");
    assert!(
        bad[4].starts_with("p.jsonl:8: solution move 2 (5): "),
        "{bad:?}"
    );
    let back = other.puzzle_lines().unwrap();
    assert_eq!(back[0].game, None, "no such game here");
    assert_eq!(
        (
            back[0].fen.as_str(),
            &back[0].solution,
            &back[0].themes,
            back[0].rating
        ),
        (
            lines[0].fen.as_str(),
            &lines[0].solution,
            &lines[0].themes,
            lines[0].rating
        )
    );
    // Into a database with the game: the source is kept.
    let mut with_game = Database::open_in_memory().unwrap();
    with_game
        .import(
            ImportSource::Text {
                name: "g",
                text: GAME,
            },
            |b| panic!("{b}"),
        )
        .unwrap();
    with_game
        .import_puzzles(
            ImportSource::Text {
                name: "p",
                text: &json,
            },
            |b| panic!("{b}"),
        )
        .unwrap();
    assert_eq!(with_game.puzzle_lines().unwrap(), lines);
}

/// Programs that make the same new database at once (the GUI and a `db`
/// command on a new default database) all open it, each step applied once.
#[test]
fn connections_making_one_new_database_at_once_all_open_it() {
    for round in 0..5 {
        let path = temp_path(&format!("race-{round}"));
        let openers: Vec<_> = (0..4)
            .map(|_| {
                let path = path.clone();
                std::thread::spawn(move || {
                    Database::open(&path)
                        .map_err(|e| e.to_string())
                        .and_then(|db| db.version().map_err(|e| e.to_string()))
                })
            })
            .collect();
        for opener in openers {
            let version = opener.join().expect("no panic");
            assert_eq!(version, Ok(crate::schema::MIGRATIONS.len() as i64));
        }
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}

/// The next puzzle, as the puzzle page asks for it: of the theme, never
/// tried before and nearest the solver's rating; a solved or failed one
/// only once no untried one of the theme is left, then the one tried the
/// longest ago; the puzzle on the board only when nothing else fits.
#[test]
fn the_next_puzzle_is_untried_nearest_the_rating_and_never_a_repeat() {
    let db = Database::open_in_memory().unwrap();
    assert!(!db.has_puzzles().unwrap());
    assert_eq!(db.next_puzzle(None, 1500.0, None).unwrap(), None);
    // Five positions, each a puzzle: (rating, themes).
    let rated = [
        (1500.0, "even_capture"),
        (1380.0, "tuzdik even_capture"),
        (1700.0, "even_capture"),
        (1440.0, "endgame_sweep"),
        (1900.0, "tuzdik"),
    ];
    let mut pos = Position::startpos();
    let ids: Vec<i64> = rated
        .iter()
        .map(|&(rating, themes)| {
            pos.play(pos.legal_moves().next().unwrap());
            let p = Puzzle {
                id: 0,
                position: pos,
                solution: vec![pos.legal_moves().next().unwrap()],
                themes: themes.split(' ').map(str::to_string).collect(),
                rating,
                deviation: 200.0,
                volatility: 0.06,
                attempts: 0,
                source: None,
            };
            db.insert_puzzle(&p).unwrap()
        })
        .collect();
    assert!(db.has_puzzles().unwrap());
    let next = |theme: Option<&str>, rating: f64, skip: Option<i64>| {
        db.next_puzzle(theme, rating, skip).unwrap().map(|p| p.id)
    };
    // By rating: the nearest, of the theme asked.
    assert_eq!(next(None, 1490.0, None), Some(ids[0]));
    assert_eq!(next(None, 1430.0, None), Some(ids[3]));
    assert_eq!(next(None, 2400.0, None), Some(ids[4]));
    assert_eq!(next(Some("even_capture"), 1460.0, None), Some(ids[0]));
    assert_eq!(next(Some("tuzdik"), 1500.0, None), Some(ids[1]));
    assert_eq!(next(Some("endgame_sweep"), 3000.0, None), Some(ids[3]));
    // A theme is a whole word: "capture" names none.
    assert_eq!(next(Some("capture"), 1500.0, None), None);
    // The puzzle on the board only when nothing else fits.
    assert_eq!(next(None, 1490.0, Some(ids[0])), Some(ids[3]));
    assert_eq!(
        next(Some("endgame_sweep"), 1500.0, Some(ids[3])),
        Some(ids[3])
    );

    // Solving or failing puzzles one after another as they come: never a
    // repeat while an untried one of the theme is left.
    let mut seen = Vec::new();
    let mut rating = 1500.0;
    for k in 0..rated.len() {
        let id = next(Some("even_capture"), rating, seen.last().copied());
        let Some(id) = id else { break };
        if seen.contains(&id) {
            assert_eq!(
                seen.len(),
                3,
                "a repeat with untried puzzles left: {seen:?}"
            );
            break;
        }
        db.insert_attempt(id, k % 2 == 0, &[]).unwrap();
        seen.push(id);
        rating += 50.0;
    }
    assert_eq!(seen, vec![ids[0], ids[2], ids[1]]);
    // All three tried: the one tried the longest ago, not the one on the
    // board; a new try makes it the latest.
    assert_eq!(
        next(Some("even_capture"), 1500.0, Some(ids[1])),
        Some(ids[0])
    );
    db.insert_attempt(ids[0], true, &[]).unwrap();
    assert_eq!(next(Some("even_capture"), 1500.0, None), Some(ids[2]));
    // Untried ones of other themes come first when any theme will do.
    assert_eq!(next(None, 1500.0, None), Some(ids[3]));
    assert!(db.tried(ids[0]).unwrap() && !db.tried(ids[3]).unwrap());
}
