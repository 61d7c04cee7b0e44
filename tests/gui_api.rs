//! `tuzdyk gui`'s API against a real server on a free port and a real
//! engine process: whole games, the previews against the rules, refused
//! moves and input with the game kept (each error a text the page
//! translates), engines that crash or hang, the Host and Origin checks,
//! reconnection, the limit on games, hint, analysis, engine lines and
//! review, an unwatched game that stops using the CPU, the explorer, learn
//! from your mistakes (verdicts against `judge`, the exercises saved to the
//! games database), studies, and the position editor's check.

mod common;
mod gui_support;

use serde_json::{Value, json};

use gui_support::{Client, Server, TempDir};
use tuzdyk_notation::ending::Ending;
use tuzdyk_notation::{record, tfen};
use tuzdyk_rules::{GameResult, Move, Position, Side, StoneDrop};

/// What the rules say about every legal move of the state's position must
/// be what the server sent.
fn check_previews(state: &Value) {
    let pos = tfen::parse(state["tfen"].as_str().unwrap()).expect("the state's TFEN parses");
    let previews = state["previews"].as_array().unwrap();
    assert_eq!(previews.len(), pos.legal_moves().len(), "{state}");
    for sent in previews {
        let mv = Move::from_number(sent["hole"].as_u64().unwrap() as u32).unwrap();
        let rules = pos.preview_move(mv);
        assert_eq!(sent["landing"], rules.outcome.landing, "{sent}");
        assert_eq!(sent["captured"], rules.outcome.captured, "{sent}");
        assert_eq!(sent["tuzdik"], rules.outcome.tuzdik, "{sent}");
        assert_eq!(sent["found"], rules.found, "{sent}");
        assert_eq!(
            sent["refused"].as_str(),
            rules.tuzdik_refused.map(|r| r.key()),
            "{sent}"
        );
        let path: Vec<u64> = pos
            .sowing_path(mv)
            .into_iter()
            .map(|drop| match drop {
                StoneDrop::Hole(i) => i as u64,
                StoneDrop::Kazan(side) => 18 + side.index() as u64,
            })
            .collect();
        assert_eq!(sent["path"], json!(path), "{sent}");
    }
}

fn first_playable(state: &Value) -> u64 {
    state["previews"][0]["hole"].as_u64().expect("a legal move")
}

#[test]
fn a_whole_game_against_the_engine_is_played_to_its_end() {
    let server = Server::start(&[]);
    let mut client = Client::connect(&server, None);
    let mut state = client.new_game("engine", "white", "beginner");
    let mut checked = 0;
    while state["ending"].is_null() {
        if state["playable"] == true {
            if checked < 40 {
                check_previews(&state);
                checked += 1;
            }
            let plies = state["plies"].as_u64().unwrap();
            client.send(json!({"cmd": "play", "hole": first_playable(&state)}));
            state = client.wait_state("my move", |s| s["plies"].as_u64() > Some(plies));
        } else {
            let plies = state["plies"].as_u64().unwrap();
            state = client.wait_state("the engine's move", |s| {
                s["plies"].as_u64() > Some(plies) || !s["ending"].is_null()
            });
        }
    }
    let game =
        record::parse_game_text(state["record"].as_str().unwrap()).expect("the record reads back");
    let ending = Ending::of(game.game.position()).expect("the game ended by the rules");
    assert_eq!(
        state["ending"]["result"],
        record::result_text(Some(ending.result))
    );
    assert_eq!(state["ending"]["count"], json!(ending.count));
    assert_eq!(state["tfen"], tfen::write(game.game.position()));
    assert_eq!(state["plies"], game.game.moves().len());
    assert!(
        game.tag("Black").unwrap().contains("level 1"),
        "{}",
        state["record"]
    );
    assert!(checked > 5);
}

#[test]
fn illegal_moves_are_refused_and_the_game_kept() {
    let server = Server::start(&[]);
    let mut client = Client::connect(&server, None);
    client.new_game("humans", "white", "casual");
    client.send(json!({"cmd": "play", "hole": 6}));
    let state = client.wait_state("the move", |s| s["plies"] == 1);
    // White's 6 took Black's hole 5.
    let error = client.expect_error(json!({"cmd": "play", "hole": 5}));
    assert_eq!(error["code"], "empty_hole");
    assert_eq!(error["message"], "hole 5 is empty");
    // The page's text: its key, the reason as a text of its own, the hole.
    assert_eq!(error["text"]["key"], "err_empty_hole", "{error}");
    let detail = &error["text"]["params"]["detail"];
    assert_eq!(detail["key"], "illegal_empty_hole", "{error}");
    assert_eq!(detail["params"]["hole"], 5, "{error}");
    for hole in [0, 10, -3] {
        let error = client.expect_error(json!({"cmd": "play", "hole": hole}));
        assert_eq!(error["code"], "no_such_hole", "{error}");
        assert_eq!(error["text"]["params"]["hole"], hole, "{error}");
    }
    let error = client.expect_error(json!({"cmd": "play"}));
    assert_eq!(error["code"], "malformed");
    client.send_text("flip the board");
    let error = client.wait_for("an error", |m| m["type"] == "error");
    assert_eq!(error["code"], "malformed");
    client.send(json!({"cmd": "state"}));
    let after = client.next_state();
    assert_eq!(after["tfen"], state["tfen"]);
    assert_eq!(after["plies"], 1);

    // White owns Black's hole 3; Black cannot play it.
    let with_tuzdik = "9S,9S,9S,9S,9S,9S,t,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,6S 12 0 N 5";
    tfen::parse(with_tuzdik).unwrap();
    client.send(json!({"cmd": "setup", "tfen": with_tuzdik}));
    client.wait_state("the setup", |s| s["tfen"] == with_tuzdik);
    let error = client.expect_error(json!({"cmd": "play", "hole": 3}));
    assert_eq!(error["code"], "opponents_tuzdik");

    // Against the engine (two seconds a move, White), its turn is not the person's.
    client.send(json!({"cmd": "new", "settings": {
        "mode": "engine", "human": "black", "level": "expert", "movetime_ms": 2000}}));
    client.wait_state("the new game", |s| s["plies"] == 0 && s["thinking"] == true);
    let error = client.expect_error(json!({"cmd": "play", "hole": 1}));
    assert_eq!(error["code"], "not_your_turn");
    let state = client.wait_state("the engine's move", |s| s["plies"] == 1);
    assert_eq!(state["playable"], true);
}

#[test]
fn bad_tfen_and_bad_records_are_refused_with_the_state_kept() {
    let server = Server::start(&[]);
    let mut client = Client::connect(&server, None);
    client.new_game("humans", "white", "casual");
    client.send(json!({"cmd": "play", "hole": 3}));
    let before = client.wait_state("the move", |s| s["plies"] == 1);

    let error = client.expect_error(json!({"cmd": "setup", "tfen": "9S/9S 0 0 S"}));
    assert_eq!(error["code"], "bad_tfen");
    let problem = tfen::parse("9S/9S 0 0 S").unwrap_err();
    assert_eq!(
        error["message"],
        format!("invalid TFEN '9S/9S 0 0 S': {problem}")
    );
    assert_eq!(error["text"]["params"]["text"], "9S/9S 0 0 S");
    let detail = &error["text"]["params"]["detail"];
    assert_eq!(detail["key"], "tfen_row_length", "{error}");
    assert_eq!(detail["params"]["row"]["key"], "row_north", "{error}");
    let error = client.expect_error(json!({"cmd": "setup", "tfen": "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9Q 0 0 S 1"}));
    assert!(
        error["message"].as_str().unwrap().contains("'9Q'"),
        "{error}"
    );

    let error = client.expect_error(json!({"cmd": "open", "record": "1. 65(11) 98 *\n"}));
    assert_eq!(error["code"], "bad_record");
    assert!(
        error["message"].as_str().unwrap().contains("'65(11)'"),
        "{error}"
    );
    let error = client.expect_error(json!({"cmd": "open", "record": "x".repeat(300 * 1024)}));
    assert_eq!(error["code"], "too_large");

    client.send(json!({"cmd": "state"}));
    let after = client.next_state();
    assert_eq!(after["tfen"], before["tfen"]);
    assert_eq!(after["moves"], before["moves"]);

    // A good record opens, with its result and tags, and the page is told
    // that two people now play on this board.
    let text = "[White \"a\"]\n[Black \"b\"]\n\n1. 65(10) 98 2. 55 56 0-1\n";
    client.send(json!({"cmd": "open", "record": text}));
    let notice = client.wait_for("the notice", |m| m["type"] == "notice");
    assert_eq!(notice["code"], "record_opened", "{notice}");
    assert_eq!(notice["text"]["params"]["plies"], 4, "{notice}");
    let opened = client.wait_state("the record", |s| s["plies"] == 4);
    assert_eq!(opened["settings"]["mode"], "humans");
    assert_eq!(opened["ending"]["result"], "0-1");
    assert_eq!(opened["ending"]["reason"], "recorded");
    assert!(opened["record"].as_str().unwrap().contains("[White \"a\"]"));
}

#[test]
fn the_server_checks_host_and_origin() {
    let server = Server::start(&[]);
    let own = server.authority();
    let (status, body) = server.get("/", &[("Host", &own)]);
    assert_eq!(status, 200);
    assert!(body.contains("<script type=\"module\" src=\"/app.js\">"));
    let (status, _) = server.get(
        "/app.js",
        &[("Host", &format!("localhost:{}", server.port))],
    );
    assert_eq!(status, 200);
    let (status, body) = server.get(
        "/",
        &[("Host", &format!("rebound.example:{}", server.port))],
    );
    assert_eq!(status, 403, "{body}");
    assert!(
        body.starts_with("forbidden: Host 'rebound.example:"),
        "{body}"
    );
    let (status, _) = server.get("/", &[("Host", &own), ("Origin", "http://evil.example")]);
    assert_eq!(status, 403);
    let (status, _) = server.get("/", &[("Host", "127.0.0.1:1")]);
    assert_eq!(status, 403);
    let (status, _) = server.get("/", &[]);
    assert_eq!(status, 403);
    let (status, _) = server.get("/nothing", &[("Host", &own)]);
    assert_eq!(status, 404);

    let refused = Client::connect_with(&server, None, Some("http://evil.example"));
    match refused {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 403),
        Err(other) => panic!("expected a 403, got {other}"),
        Ok(_) => panic!("a WebSocket from another origin was accepted"),
    }
    let other_port = format!("http://127.0.0.1:{}", server.port.wrapping_add(1));
    assert!(Client::connect_with(&server, None, Some(&other_port)).is_err());
    // A page served by another machine on the same port.
    let other_machine = format!("http://192.168.1.50:{}", server.port);
    assert!(Client::connect_with(&server, None, Some(&other_machine)).is_err());
    let (status, _) = server.get("/", &[("Host", &format!("192.168.1.50:{}", server.port))]);
    assert_eq!(status, 403);
    assert!(Client::connect_with(&server, None, None).is_ok());
}

/// A server whose engine, a fake one, fails once (`script MARKER ENGINE`
/// runs the real engine once MARKER exists): the engine plays White, so its
/// first search fails. The notice's detail must be the text `says`, and
/// the game go on.
fn engine_fails_once_and_the_game_goes_on(script: &str, says: &str) {
    let marker = std::env::temp_dir().join(format!(
        "tuzdyk-gui-{}-{}",
        says.replace(' ', "-"),
        std::process::id()
    ));
    let _ = std::fs::remove_file(&marker);
    let command = format!(
        "tests/fake_engines/{script} {} {}",
        marker.display(),
        env!("CARGO_BIN_EXE_tuzdyk")
    );
    let server = Server::start(&["--engine-cmd", &command]);
    let mut client = Client::connect(&server, None);
    client.new_game("engine", "black", "beginner");
    let notice = client.wait_for("the notice", |m| m["type"] == "notice");
    assert_eq!(notice["code"], "engine_restarted", "{notice}");
    assert_eq!(notice["text"]["key"], "notice_engine_restarted", "{notice}");
    assert_eq!(notice["text"]["params"]["detail"]["key"], says, "{notice}");
    let state = client.wait_state("the engine's move", |s| s["plies"] == 1);
    assert_eq!(state["playable"], true);
    client.send(json!({"cmd": "play", "hole": first_playable(&state)}));
    client.wait_state("the game going on", |s| s["plies"] == 3);
    let _ = std::fs::remove_file(&marker);
}

#[test]
fn a_crashing_engine_is_restarted_and_the_game_goes_on() {
    engine_fails_once_and_the_game_goes_on("crash.sh", "engine_exited");
}

#[test]
fn a_hanging_engine_is_killed_restarted_and_the_game_goes_on() {
    engine_fails_once_and_the_game_goes_on("hang_once.sh", "engine_timeout");
}

#[test]
fn a_reconnection_or_a_reload_finds_the_same_game() {
    let server = Server::start(&[]);
    let mut first = Client::connect(&server, None);
    first.new_game("humans", "white", "casual");
    first.send(json!({"cmd": "play", "hole": 7}));
    first.send(json!({"cmd": "play", "hole": 2}));
    let state = first.wait_state("two moves", |s| s["plies"] == 2);
    let id = first.game_id();
    drop(first);
    let again = Client::connect(&server, Some(&id));
    assert_eq!(again.state["game"], id.as_str());
    assert_eq!(again.state["tfen"], state["tfen"]);
    assert_eq!(again.state["moves"], state["moves"]);
    // Two pages of one game see each other's moves.
    let mut other = Client::connect(&server, Some(&id));
    let mut again = again;
    again.send(json!({"cmd": "play", "hole": 1}));
    other.wait_state("the other page's move", |s| s["plies"] == 3);
    // An unknown id gets a new game, against the level a newcomer can
    // beat, and a word that the game asked for is gone.
    let mut fresh = Client::connect(&server, Some("0123456789abcdef0123456789abcdef"));
    assert_ne!(fresh.state["game"], id.as_str());
    assert_eq!(fresh.state["plies"], 0);
    assert_eq!(fresh.state["settings"]["level"], 1, "{}", fresh.state);
    let notice = fresh.wait_for("the notice", |m| m["type"] == "notice");
    assert_eq!(notice["code"], "game_gone", "{notice}");
}

#[test]
fn games_beyond_the_limit_are_refused_until_a_page_closes() {
    let server = Server::start(&["--max-games", "1"]);
    let first = Client::connect(&server, None);
    let id = first.game_id();
    let error = gui_support::first_message(&server);
    assert_eq!(error["type"], "error", "{error}");
    assert_eq!(error["code"], "too_many_games", "{error}");
    assert_eq!(error["text"]["params"]["limit"], 1, "{error}");
    // Closing the page frees its place at once.
    drop(first);
    let deadline = std::time::Instant::now() + gui_support::TIMEOUT;
    let second = loop {
        let message = gui_support::first_message(&server);
        if message["type"] == "state" {
            break message;
        }
        assert!(std::time::Instant::now() < deadline, "{message}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_ne!(second["game"], id.as_str());
}

#[test]
fn hint_analysis_and_review_come_from_the_engine() {
    let server = Server::start(&[]);
    let mut client = Client::connect(&server, None);
    client.new_game("humans", "white", "casual");
    client.send(json!({"cmd": "hint"}));
    let state = client.wait_state("the hint", |s| !s["hint"].is_null());
    let hole = state["hint"]["hole"].as_u64().unwrap();
    assert!((1..=9).contains(&hole));
    assert!(!state["hint"]["pv"].as_array().unwrap().is_empty());

    client.send(json!({"cmd": "analysis", "on": true}));
    let lines = client.wait_for("analysis lines", |m| {
        m["type"] == "lines" && m["lines"].as_array().is_some_and(|l| l.len() == 3)
    });
    for line in lines["lines"].as_array().unwrap() {
        assert!(!line["pv"].as_array().unwrap().is_empty(), "{line}");
        assert!(line["score"]["white"].is_i64(), "{line}");
    }
    // An engine line seen on the board: each position along it, by the rules.
    let pv = lines["lines"][0]["pv"].clone();
    client.send(json!({"cmd": "line", "ply": 0, "moves": pv}));
    let view = client.wait_for("the line", |m| m["type"] == "line");
    let steps = view["steps"].as_array().unwrap();
    assert_eq!(steps.len(), pv.as_array().unwrap().len());
    let mut pos = Position::startpos();
    for (step, hole) in steps.iter().zip(pv.as_array().unwrap()) {
        pos.play(Move::from_number(hole.as_u64().unwrap() as u32).unwrap());
        assert_eq!(step["board"]["holes"], json!(pos.parts().holes), "{step}");
    }
    let error = client.expect_error(json!({"cmd": "line", "ply": 0, "moves": [6, 5]}));
    assert_eq!(error["code"], "bad_line", "{error}");
    assert_eq!(error["text"]["params"]["index"], 2, "{error}");
    client.send(json!({"cmd": "analysis", "on": false}));

    let text = "[White \"a\"]\n[Black \"b\"]\n\n1. 65(10) 98 2. 55 56 3. 11(22) 45X *\n";
    client.send(json!({"cmd": "open", "record": text}));
    client.wait_state("the record", |s| s["plies"] == 6);
    client.send(json!({"cmd": "review"}));
    let done = client.wait_state("the review", |s| s["review"]["done"] == true);
    let moves = done["review"]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    for (ply, reviewed) in moves.iter().enumerate() {
        assert_eq!(reviewed["ply"], ply);
        assert!(reviewed["loss"].as_i64().unwrap() >= 0, "{reviewed}");
        assert!(reviewed["after"]["white"].is_i64(), "{reviewed}");
    }
    assert_eq!(moves[5]["token"], "45X");
    assert_eq!(done["review"]["summary"][0]["moves"], 3);

    // A click on the graph or a move: the position after it.
    client.send(json!({"cmd": "view", "ply": 2}));
    let shown = client.wait_state("the view", |s| s["viewing"] == true);
    let mut pos = Position::startpos();
    for n in [6, 9] {
        pos.play(Move::from_number(n).unwrap());
    }
    assert_eq!(shown["tfen"], tfen::write(&pos));
    assert_eq!(
        shown["board"]["to_move"],
        if pos.side_to_move() == Side::White {
            "white"
        } else {
            "black"
        }
    );
    let error = client.expect_error(json!({"cmd": "play", "hole": 1}));
    assert_eq!(error["code"], "viewing");
    client.send(json!({"cmd": "continue_here"}));
    let state = client.wait_state("the game from there", |s| s["viewing"] == false);
    assert_eq!(state["plies"], 2);
}

#[test]
fn engine_against_engine_plays_on_its_own_pauses_and_resumes() {
    let server = Server::start(&[]);
    let mut client = Client::connect(&server, None);
    client.new_game("engines", "white", "beginner");
    let playing = client.wait_state("four engine moves", |s| s["plies"].as_u64() >= Some(4));
    assert_eq!(playing["playable"], false, "{playing}");
    let position = tfen::parse(playing["tfen"].as_str().unwrap()).unwrap();
    let legal = position.legal_moves().next().expect("a legal move");
    let refused = client.expect_error(json!({"cmd": "play", "hole": legal.number()}));
    assert!(refused["message"].is_string(), "{refused}");

    client.send(json!({"cmd": "pause"}));
    let paused = client.wait_state("the pause", |s| s["paused"] == true);
    let plies = paused["plies"].clone();
    // A hint is a whole engine search: while it runs and after, the paused
    // game does not move on.
    client.send(json!({"cmd": "hint"}));
    let hinted = client.wait_state("the hint", |s| !s["hint"].is_null());
    assert_eq!(hinted["plies"], plies, "{hinted}");
    assert_eq!(hinted["paused"], true);

    client.send(json!({"cmd": "resume"}));
    let on = client.wait_state("a move after the pause", |s| {
        s["plies"].as_u64() > plies.as_u64() || !s["ending"].is_null()
    });
    assert_eq!(on["paused"], false, "{on}");
}

/// CPU time (user and system, in clock ticks) of the engine processes the
/// server started.
fn engines_cpu_ticks(server: &Server) -> u64 {
    let tasks = std::fs::read_dir(format!("/proc/{}/task", server.pid())).expect("/proc");
    tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .flat_map(|children| {
            children
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/stat")).ok())
        .map(|stat| {
            // After the command in brackets: fields 3.., utime and stime
            // are the 14th and 15th of the line.
            let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            let fields: Vec<u64> = after
                .split_whitespace()
                .map(|f| f.parse().unwrap_or(0))
                .collect();
            fields.get(11).unwrap_or(&0) + fields.get(12).unwrap_or(&0)
        })
        .sum()
}

/// Waits until the engines' CPU time stays still for a whole second, and
/// says whether it did before the timeout.
fn engines_go_idle(server: &Server) -> bool {
    let deadline = std::time::Instant::now() + gui_support::TIMEOUT;
    while std::time::Instant::now() < deadline {
        let before = engines_cpu_ticks(server);
        std::thread::sleep(std::time::Duration::from_secs(1));
        if engines_cpu_ticks(server) <= before + 1 {
            return true;
        }
    }
    false
}

#[test]
#[cfg(target_os = "linux")]
fn an_unwatched_game_stops_using_the_cpu() {
    let server = Server::start(&[]);
    let mut client = Client::connect(&server, None);
    let id = client.game_id();
    client.new_game("humans", "white", "1");
    client.send(json!({"cmd": "analysis", "on": true}));
    client.wait_for("analysis lines", |m| m["type"] == "lines");
    // Analysing: the engine works while the page watches.
    let start = engines_cpu_ticks(&server);
    let deadline = std::time::Instant::now() + gui_support::TIMEOUT;
    while engines_cpu_ticks(&server) < start + 20 {
        assert!(
            std::time::Instant::now() < deadline,
            "the engine is not analysing"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    drop(client);
    assert!(
        engines_go_idle(&server),
        "the engine went on analysing with no page open"
    );
    // The page comes back: the analysis goes on.
    let mut again = Client::connect(&server, Some(&id));
    assert_eq!(again.state["analysis"], true);
    again.wait_for("analysis lines again", |m| m["type"] == "lines");
}

/// The explorer answers from the games database the server was given,
/// with the counts of its games; a bad position gets its error, the game
/// untouched.
#[test]
fn the_explorer_answers_from_the_database() {
    let folder = std::env::temp_dir().join(format!("tuzdyk-gui-explorer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    let path = folder.join("games.sqlite");
    // Two games opening with hole 6 (White wins one, Black the other;
    // ratings 1500 and 1700 in the first only), one with hole 1, drawn.
    let record = |holes: [u32; 2], result: GameResult, elo: Option<(&str, &str)>| {
        let mut game = tuzdyk_rules::Game::new(Position::startpos());
        for hole in holes {
            game.play(Move::from_number(hole).unwrap()).unwrap();
        }
        let mut record = record::GameRecord::new(game, Some(result));
        if let Some((white, black)) = elo {
            record.set_tag("WhiteElo", white);
            record.set_tag("BlackElo", black);
        }
        record.to_string()
    };
    let text = [
        record([6, 9], GameResult::Win(Side::White), Some(("1500", "1700"))),
        record([6, 1], GameResult::Win(Side::Black), None),
        record([1, 1], GameResult::Draw, None),
    ]
    .join("\n");
    assert_eq!(gui_support::import_games(&path, &text), 3);
    let server = Server::start(&["--db", path.to_str().unwrap()]);
    let mut client = Client::connect(&server, None);
    let start = tfen::write(&Position::startpos());
    client.send(json!({"study": "explore", "tfen": start}));
    let answer = client.wait_for("the explorer", |m| m["type"] == "explorer");
    assert_eq!(answer["tfen"], start.as_str());
    assert_eq!(answer["games"], 3, "{answer}");
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2, "{answer}");
    assert_eq!(moves[0]["hole"], 6, "the most played first: {answer}");
    assert_eq!(
        (
            &moves[0]["games"],
            &moves[0]["white_wins"],
            &moves[0]["black_wins"],
            &moves[0]["draws"]
        ),
        (&json!(2), &json!(1), &json!(1), &json!(0)),
        "{answer}"
    );
    assert_eq!(moves[0]["avg_rating"], 1600, "{answer}");
    assert_eq!(
        (&moves[1]["hole"], &moves[1]["draws"]),
        (&json!(1), &json!(1)),
        "{answer}"
    );
    assert!(moves[1]["avg_rating"].is_null(), "{answer}");
    // After 6: the position of both hole-6 games, whatever the move order.
    let mut after = Position::startpos();
    after.play(Move::from_number(6).unwrap());
    client.send(json!({"study": "explore", "tfen": tfen::write(&after)}));
    let answer = client.wait_for("the explorer", |m| m["type"] == "explorer");
    assert_eq!(answer["games"], 2, "{answer}");
    let before = (client.state["tfen"].clone(), client.state["plies"].clone());
    let error = client.expect_error(json!({"study": "explore", "tfen": "not a position"}));
    assert_eq!(error["code"], "bad_tfen", "{error}");
    let error = client.expect_error(json!({"study": "nonsense"}));
    assert_eq!(error["code"], "malformed", "{error}");
    client.send(json!({"cmd": "state"}));
    let state = client.next_state();
    assert_eq!(
        (state["tfen"].clone(), state["plies"].clone()),
        before,
        "the game is untouched"
    );
    let _ = std::fs::remove_dir_all(&folder);
}

/// A temporary folder with an empty games database, `games.sqlite`.
fn db_folder(name: &str) -> std::path::PathBuf {
    let folder = std::env::temp_dir().join(format!("tuzdyk-gui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("a temporary folder");
    // Made before the server starts, so that the test's reads never race
    // the server's first opening (which makes the tables).
    drop(tuzdyk_db::Database::open(&folder.join("games.sqlite")).expect("a database"));
    folder
}

/// Reads the database until `wanted` holds of its mistakes (the server
/// saves them on its engine thread, after the state that shows them).
fn mistakes_when(
    path: &std::path::Path,
    wanted: impl Fn(&[tuzdyk_db::Mistake]) -> bool,
) -> Vec<tuzdyk_db::Mistake> {
    let deadline = std::time::Instant::now() + gui_support::TIMEOUT;
    loop {
        // The server may be writing: a busy database is read again.
        let read = tuzdyk_db::Database::open(path)
            .map_err(|e| e.to_string())
            .and_then(|db| db.mistakes().map_err(|e| e.to_string()));
        let mistakes = read.unwrap_or_default();
        if wanted(&mistakes) {
            return mistakes;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the database has {mistakes:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// The exercise a stored mistake makes: its accepted moves lose nothing.
fn stored_exercise(mistake: &tuzdyk_db::Mistake) -> tuzdyk_analysis::Exercise {
    let position = mistake.position;
    tuzdyk_analysis::Exercise {
        ply: 0,
        mover: position.side_to_move(),
        position,
        played: mistake.played,
        loss: 0,
        mark: tuzdyk_analysis::Mark::Mistake,
        best: Some(mistake.best),
        pv: vec![mistake.best],
        losses: position
            .legal_moves()
            .into_iter()
            .map(|mv| (mv, mistake.accepted.contains(&mv).then_some(0)))
            .collect(),
        tolerance: 100,
    }
}

fn hole(number: u64) -> Move {
    Move::from_number(number as u32).expect("a hole 1..9")
}

/// Learn from your mistakes over the WebSocket: White's blunder of
/// tests/data/blunder.pgn (hole 1, about 13 stones) found again after a
/// wrong answer, the verdicts those of `judge`, the exercise saved to the
/// database and counted as solved; bad requests refused, the game kept.
#[test]
fn learn_from_the_mistakes_of_a_reviewed_record() {
    let folder = db_folder("learn");
    let path = folder.join("games.sqlite");
    let server = Server::start(&["--db", path.to_str().unwrap()]);
    let mut client = Client::connect(&server, None);
    let text = std::fs::read_to_string("tests/data/blunder.pgn").expect("the blunder record");
    client.send(json!({"cmd": "open", "record": text}));
    client.wait_state("the record", |s| s["plies"] == 4);
    let error = client.expect_error(json!({"cmd": "learn", "side": "white"}));
    assert_eq!(error["code"], "review_first", "{error}");
    let error = client.expect_error(json!({"cmd": "answer", "hole": 2}));
    assert_eq!(error["code"], "not_learning", "{error}");

    client.send(json!({"cmd": "review"}));
    let reviewed = client.wait_state("the review", |s| s["review"]["done"] == true);
    // The review's depth finds a mistake or a blunder, several stones lost.
    let blunder = &reviewed["review"]["moves"][2];
    assert_eq!(blunder["token"], "11", "{blunder}");
    assert!(
        blunder["mark"] == "mistake" || blunder["mark"] == "blunder",
        "{blunder}"
    );
    assert!(blunder["loss"].as_i64().unwrap() >= 300, "{blunder}");

    client.send(json!({"cmd": "learn", "side": "white"}));
    let mut state = client.wait_state("the first exercise", |s| {
        s["learn"]["preparing"] == false && !s["learn"]["exercise"].is_null()
    });
    assert_eq!(state["learn"]["side"], "white");
    let total = state["learn"]["total"].as_u64().unwrap();
    // White's exercises in the game's order, up to the blunder (the ones
    // before it given up).
    let mut index = 0;
    while state["learn"]["exercise"]["ply"] != 2 {
        assert!(
            state["learn"]["exercise"]["ply"].as_u64() < Some(2),
            "{state}"
        );
        client.send(json!({"cmd": "show_answer"}));
        let shown = client.wait_state("the answer", |s| s["learn"]["exercise"]["revealed"] == true);
        assert!(
            !shown["learn"]["exercise"]["pv"]
                .as_array()
                .unwrap()
                .is_empty()
        );
        client.send(json!({"cmd": "next_exercise"}));
        index += 1;
        state = client.wait_state("the next", |s| s["learn"]["index"] == index);
    }
    let learn = &state["learn"];
    let exercise = &learn["exercise"];
    assert_eq!(
        (&exercise["ply"], &exercise["mover"], &exercise["played"]),
        (&json!(2), &json!("white"), &json!(1)),
        "{learn}"
    );
    assert_eq!(exercise["loss"], blunder["loss"], "{learn}");
    assert!(
        exercise["pv"].as_array().unwrap().is_empty(),
        "no answer told"
    );
    assert_eq!(
        (&state["ply"], &state["viewing"]),
        (&json!(2), &json!(true)),
        "the position before the blunder is shown"
    );

    let mistakes = mistakes_when(&path, |m| m.iter().any(|m| m.ply == 2));
    let saved = mistakes.iter().find(|m| m.ply == 2).unwrap();
    assert_eq!(saved.played, hole(1));
    assert!(!saved.accepted.is_empty() && !saved.accepted.contains(&hole(1)));
    let judged = stored_exercise(saved);

    let error = client.expect_error(json!({"cmd": "answer", "hole": 10}));
    assert_eq!(error["code"], "no_such_hole", "{error}");
    let error = client.expect_error(json!({"cmd": "answer"}));
    assert_eq!(error["code"], "malformed", "{error}");
    client.send(json!({"cmd": "answer", "hole": 1}));
    let wrong = client.wait_state("the refusal", |s| {
        !s["learn"]["exercise"]["answer"].is_null()
    });
    let answer = &wrong["learn"]["exercise"]["answer"];
    assert_eq!(answer["accepted"], false, "{answer}");
    assert!(!tuzdyk_analysis::judge(&judged, hole(1)).unwrap().accepted);
    assert_eq!(
        answer["loss"], blunder["loss"],
        "the move played loses what it lost"
    );
    assert_eq!(wrong["learn"]["exercise"]["solved"], false);

    let right = saved.accepted[0];
    assert!(tuzdyk_analysis::judge(&judged, right).unwrap().accepted);
    client.send(json!({"cmd": "answer", "hole": right.number()}));
    let found = client.wait_state("the find", |s| s["learn"]["exercise"]["solved"] == true);
    let exercise = &found["learn"]["exercise"];
    assert_eq!(exercise["answer"]["accepted"], true, "{exercise}");
    assert!(
        exercise["answer"]["loss"].as_i64().unwrap() < 100,
        "{exercise}"
    );
    assert!(
        !exercise["pv"].as_array().unwrap().is_empty(),
        "the engine's line is told"
    );
    assert_eq!(found["learn"]["found"], 1);
    let before = found["learn"].clone();
    let error = client.expect_error(json!({"cmd": "answer", "hole": right.number()}));
    assert_eq!(error["code"], "not_learning", "{error}");
    client.send(json!({"cmd": "state"}));
    assert_eq!(client.next_state()["learn"], before, "the exercise is kept");
    mistakes_when(&path, |m| m.iter().any(|m| m.ply == 2 && m.solved == 1));

    // The others given up; then the summary.
    for _ in index + 1..total {
        client.send(json!({"cmd": "next_exercise"}));
        client.wait_state("the next", |s| s["learn"]["exercise"]["answer"].is_null());
        client.send(json!({"cmd": "show_answer"}));
        client.wait_state("the answer", |s| s["learn"]["exercise"]["revealed"] == true);
    }
    client.send(json!({"cmd": "next_exercise"}));
    let summary = client.wait_state("the summary", |s| s["learn"]["exercise"].is_null());
    assert_eq!(
        (&summary["learn"]["found"], &summary["learn"]["total"]),
        (&json!(1), &json!(total))
    );
    client.send(json!({"cmd": "stop_learning"}));
    client.wait_state("the end of learning", |s| s["learn"].is_null());

    // Mistakes to review: the stored one set up again.
    client.send(json!({"study": "mistakes"}));
    let list = client.wait_for("the mistakes", |m| m["type"] == "mistakes");
    let id = list["mistakes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["ply"] == 2)
        .map(|m| m["id"].clone())
        .expect("the blunder is listed");
    let error = client.expect_error(json!({"study": "open_mistake", "id": 999_999}));
    assert_eq!(error["code"], "no_such_mistake", "{error}");
    client.send(json!({"study": "open_mistake", "id": id}));
    let state = client.wait_state("the stored mistake", |s| s["learn"]["stored"] == true);
    assert_eq!(state["tfen"], tfen::write(&saved.position));
    assert_eq!(state["plies"], 0);
    client.send(json!({"cmd": "answer", "hole": 1}));
    client.wait_state("refused", |s| {
        s["learn"]["exercise"]["answer"]["accepted"] == false
    });
    client.send(json!({"cmd": "answer", "hole": right.number()}));
    client.wait_state("found", |s| s["learn"]["exercise"]["solved"] == true);
    mistakes_when(&path, |m| m.iter().any(|m| m.ply == 2 && m.solved == 2));
    let _ = std::fs::remove_dir_all(&folder);
}

/// Studies: the game saved with a name and a comment, listed, and set up
/// again from its start with its moves; bad names, comments and ids refused
/// with the game kept.
#[test]
fn studies_are_saved_and_opened_again() {
    let folder = db_folder("studies");
    let path = folder.join("games.sqlite");
    let server = Server::start(&["--db", path.to_str().unwrap()]);
    let mut client = Client::connect(&server, None);
    client.new_game("humans", "white", "casual");
    for n in [6, 9, 1] {
        client.send(json!({"cmd": "play", "hole": n}));
        client.wait_state("the move", |s| {
            s["ply"].as_u64() > Some(0)
                && s["moves"].as_array().unwrap().last().unwrap()["hole"] == n
        });
    }
    let played = client.state.clone();
    client.send(json!({"study": "studies"}));
    let list = client.wait_for("the studies", |m| m["type"] == "studies");
    assert_eq!(list["studies"], json!([]));
    for (request, code) in [
        (
            json!({"study": "save_study", "name": "  ", "comment": ""}),
            "study_name_empty",
        ),
        (
            json!({"study": "save_study", "name": "x".repeat(101), "comment": ""}),
            "study_name_too_long",
        ),
        (
            json!({"study": "save_study", "name": "a", "comment": "y".repeat(4001)}),
            "study_comment_too_long",
        ),
        (json!({"study": "open_study", "id": 42}), "no_such_study"),
        (json!({"study": "open_study", "id": "one"}), "malformed"),
        (json!({"study": "save_study", "name": "a"}), "malformed"),
    ] {
        let error = client.expect_error(request);
        assert_eq!(error["code"], code, "{error}");
    }
    client.send(json!({"cmd": "state"}));
    let state = client.next_state();
    assert_eq!(
        (&state["tfen"], &state["plies"]),
        (&played["tfen"], &played["plies"]),
        "the game is kept"
    );

    client.send(
        json!({"study": "save_study", "name": " The 6 9 1 line ", "comment": "Black's 9\nthen 1"}),
    );
    let saved = client.wait_for("the saved study", |m| m["type"] == "studies");
    let study = &saved["studies"][0];
    assert_eq!(
        (&study["name"], &study["comment"], &study["plies"]),
        (
            &json!("The 6 9 1 line"),
            &json!("Black's 9\nthen 1"),
            &json!(3)
        ),
        "{saved}"
    );
    assert_eq!(saved["current"], study["id"]);
    let db = tuzdyk_db::Database::open(&path).unwrap();
    let stored = db.studies().unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].moves, [6, 9, 1].map(hole).to_vec());
    drop(db);

    client.new_game("engine", "black", "casual");
    client.send(json!({"study": "open_study", "id": study["id"]}));
    let opened = client.wait_state("the study", |s| s["plies"] == 3);
    assert_eq!(opened["tfen"], played["tfen"]);
    assert_eq!(
        opened["settings"]["mode"], "engine",
        "ready to play on against the engine"
    );
    let _ = std::fs::remove_dir_all(&folder);
}

/// The puzzle answer to a request.
fn puzzle_answer(client: &mut Client, request: Value) -> Value {
    client.send(request);
    client.wait_for("a puzzle", |m| {
        m["type"] == "puzzle" || m["type"] == "error"
    })
}

fn glicko(rating: f64, deviation: f64, volatility: f64) -> tuzdyk_analysis::glicko::Rating {
    tuzdyk_analysis::glicko::Rating {
        rating,
        deviation,
        volatility,
    }
}

fn close(a: &Value, b: f64) -> bool {
    a.as_f64().is_some_and(|a| (a - b).abs() < 1e-6)
}

#[test]
fn a_puzzle_is_solved_another_failed_and_both_rated_as_glicko_computes() {
    let (path, puzzles) = gui_support::puzzle_database("puzzles");
    let _folder = TempDir::of_file(&path);
    let server = Server::start(&["--db", path.to_str().unwrap()]);
    let mut client = Client::connect(&server, None);
    // Nothing open yet: a move or a hint is refused.
    let refused = puzzle_answer(
        &mut client,
        json!({"study": "puzzle_move", "id": puzzles[0].id, "hole": 1}),
    );
    assert_eq!(refused["code"], "no_puzzle", "{refused}");
    let refused = puzzle_answer(&mut client, json!({"study": "puzzle_open", "id": 999}));
    assert_eq!(refused["code"], "no_such_puzzle", "{refused}");
    let refused = puzzle_answer(
        &mut client,
        json!({"study": "puzzle_next", "theme": "gambit"}),
    );
    assert_eq!(refused["code"], "bad_theme", "{refused}");

    // The nearest to the solver's 1500, unplayed.
    let view = puzzle_answer(&mut client, json!({"study": "puzzle_next", "theme": null}));
    let first = &puzzles[0];
    assert_eq!(view["type"], "puzzle", "{view}");
    assert_eq!(view["solver"]["rating"], 1500.0, "{view}");
    let open = &view["puzzle"];
    assert_eq!(open["id"], first.id, "{view}");
    assert_eq!(open["status"], "playing");
    assert_eq!(open["solver_moves"], 2);
    assert_eq!(
        open["side"],
        json!(tuzdyk_gui::wire::SideName::from(
            first.position.side_to_move()
        ))
    );
    assert!(
        open["rating"].is_null(),
        "the rating is hidden until the end: {view}"
    );
    assert_eq!(open["tfen"], tfen::write(&first.position));
    let step = &open["steps"][0];
    assert_eq!(
        step["board"],
        json!(tuzdyk_gui::convert::board(&first.position))
    );
    check_previews(&json!({"tfen": open["tfen"], "previews": step["previews"]}));

    // Refused moves change nothing.
    let id = first.id;
    let bad = puzzle_answer(
        &mut client,
        json!({"study": "puzzle_move", "id": id, "hole": 10}),
    );
    assert_eq!(bad["code"], "no_such_hole", "{bad}");
    let bad = puzzle_answer(
        &mut client,
        json!({"study": "puzzle_move", "id": id + 1, "hole": 1}),
    );
    assert_eq!(bad["code"], "no_such_puzzle", "{bad}");
    let empty = (1..=9)
        .find(|&n| !first.position.is_legal(Move::from_number(n).unwrap()))
        .map(|n| json!({"study": "puzzle_move", "id": id, "hole": n}));
    if let Some(request) = empty {
        let bad = puzzle_answer(&mut client, request);
        assert!(
            ["empty_hole", "opponents_tuzdik"].contains(&bad["code"].as_str().unwrap()),
            "{bad}"
        );
    }
    // A hint names the solution's move and fails nothing.
    let hinted = puzzle_answer(&mut client, json!({"study": "puzzle_hint", "id": id}));
    assert_eq!(
        hinted["puzzle"]["hint"],
        first.solution[0].number(),
        "{hinted}"
    );
    assert_eq!(hinted["puzzle"]["status"], "playing");

    // The solution: the reply is played, then the last move solves it.
    let view = puzzle_answer(
        &mut client,
        json!({"study": "puzzle_move", "id": id, "hole": first.solution[0].number()}),
    );
    let steps = view["puzzle"]["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2, "my move and the reply: {view}");
    assert_eq!(steps[1]["last"]["hole"], first.solution[1].number());
    let mut after = first.position;
    after.play(first.solution[0]);
    after.play(first.solution[1]);
    assert_eq!(steps[1]["board"], json!(tuzdyk_gui::convert::board(&after)));
    assert_eq!(view["puzzle"]["status"], "playing");
    let view = puzzle_answer(
        &mut client,
        json!({"study": "puzzle_move", "id": id, "hole": first.solution[2].number()}),
    );
    assert_eq!(view["puzzle"]["status"], "solved", "{view}");
    let solver0 = glicko(1500.0, 350.0, 0.06);
    let (solver1, rated) =
        tuzdyk_analysis::glicko::Rating::attempt(solver0, glicko(1500.0, 200.0, 0.06), true);
    assert!(
        close(&view["solver"]["rating"], solver1.rating),
        "{view} against {solver1:?}"
    );
    assert!(
        close(&view["puzzle"]["change"], solver1.rating - 1500.0),
        "{view}"
    );
    assert!(close(&view["puzzle"]["rating"], rated.rating), "{view}");
    assert!(solver1.rating > 1500.0);
    let over = puzzle_answer(
        &mut client,
        json!({"study": "puzzle_move", "id": id, "hole": 1}),
    );
    assert_eq!(over["code"], "puzzle_over", "{over}");

    // The next one: a wrong move fails it, and the solution is shown.
    let view = puzzle_answer(
        &mut client,
        json!({"study": "puzzle_next", "theme": "even_capture"}),
    );
    let second = &puzzles[1];
    assert_eq!(
        view["puzzle"]["id"], second.id,
        "the other puzzle of the theme: {view}"
    );
    let wrong = gui_support::wrong_move(second);
    let view = puzzle_answer(
        &mut client,
        json!({"study": "puzzle_move", "id": second.id, "hole": wrong.number()}),
    );
    let open = &view["puzzle"];
    assert_eq!(open["status"], "failed", "{view}");
    assert_eq!(open["wrong"], wrong.number());
    let steps = open["steps"].as_array().unwrap();
    assert_eq!(
        steps.len(),
        3,
        "the wrong move, back, the right one: {view}"
    );
    assert_eq!(steps[0]["last"]["hole"], wrong.number());
    assert_ne!(steps[1]["line"], steps[0]["line"], "the board jumps back");
    assert_eq!(
        steps[1]["board"],
        json!(tuzdyk_gui::convert::board(&second.position))
    );
    assert_eq!(steps[2]["last"]["hole"], second.solution[0].number());
    let (solver2, rated2) =
        tuzdyk_analysis::glicko::Rating::attempt(solver1, glicko(1560.0, 200.0, 0.06), false);
    assert!(
        close(&view["solver"]["rating"], solver2.rating),
        "{view} against {solver2:?}"
    );
    assert!(solver2.rating < solver1.rating);

    // The database has both attempts and the new ratings.
    let db = tuzdyk_db::Database::open(&path).expect("the database");
    let solved = db.attempts(first.id).unwrap();
    assert_eq!(solved.len(), 1);
    assert!(solved[0].solved);
    assert_eq!(solved[0].moves, vec![first.solution[0], first.solution[2]]);
    let failed = db.attempts(second.id).unwrap();
    assert_eq!(failed.len(), 1);
    assert!(!failed[0].solved);
    assert_eq!(failed[0].moves, vec![wrong]);
    let stored = db.puzzle(second.id).unwrap().unwrap();
    assert!((stored.rating - rated2.rating).abs() < 1e-6, "{stored:?}");
    assert_eq!(stored.attempts, 1);
    let solver = db.solver().unwrap();
    assert!((solver.rating - solver2.rating).abs() < 1e-6, "{solver:?}");
    drop(db);

    // "View the solution" fails the third, and is recorded.
    let view = puzzle_answer(
        &mut client,
        json!({"study": "puzzle_next", "theme": "endgame_sweep"}),
    );
    let third = &puzzles[2];
    assert_eq!(view["puzzle"]["id"], third.id, "{view}");
    let view = puzzle_answer(
        &mut client,
        json!({"study": "puzzle_solution", "id": third.id}),
    );
    assert_eq!(view["puzzle"]["status"], "failed", "{view}");
    assert_eq!(
        view["puzzle"]["steps"].as_array().unwrap().len(),
        3,
        "{view}"
    );
    let db = tuzdyk_db::Database::open(&path).expect("the database");
    assert_eq!(db.attempts(third.id).unwrap().len(), 1);
}

#[test]
fn an_empty_puzzle_database_says_how_to_make_puzzles() {
    let folder = std::env::temp_dir().join(format!("tuzdyk-gui-no-puzzles-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    let _folder = TempDir(folder.clone());
    let path = folder.join("games.sqlite");
    let server = Server::start(&["--db", path.to_str().unwrap()]);
    let mut client = Client::connect(&server, None);
    let view = puzzle_answer(&mut client, json!({"study": "puzzle_next", "theme": null}));
    assert!(view["puzzle"].is_null(), "{view}");
    assert_eq!(view["empty"]["key"], "puzzles_empty", "{view}");
    let refused = puzzle_answer(&mut client, json!({"study": "puzzle_hint", "id": 1}));
    assert_eq!(refused["code"], "no_puzzle", "{refused}");
}

/// A puzzle opened again (a reload: a new page, a new connection) is
/// played, but only its first try rates anybody: a failure followed by a
/// solve of the same puzzle leaves the failure standing. Once over, and
/// only then, its position is set up on the page's game to analyse: two
/// players on one board, the engine lines on, nobody's move played.
#[test]
fn a_puzzle_counts_once_and_is_analysed_once_over() {
    let (path, puzzles) = gui_support::puzzle_database("puzzles-once");
    let _folder = TempDir::of_file(&path);
    let server = Server::start(&["--db", path.to_str().unwrap()]);
    let mut client = Client::connect(&server, None);
    let game = client.game_id();
    let view = puzzle_answer(&mut client, json!({"study": "puzzle_next", "theme": null}));
    let first = &puzzles[0];
    assert_eq!(view["puzzle"]["id"], first.id, "{view}");
    assert_eq!(view["puzzle"]["replay"], false, "{view}");
    let refused = puzzle_answer(
        &mut client,
        json!({"study": "puzzle_analyse", "id": first.id}),
    );
    assert_eq!(refused["code"], "puzzle_not_over", "{refused}");
    assert_eq!(refused["text"]["key"], "err_puzzle_not_over", "{refused}");
    assert_eq!(client.state["tfen"], tfen::write(&Position::startpos()));

    // Failed by a wrong move: rated once.
    let wrong = gui_support::wrong_move(first);
    let view = puzzle_answer(
        &mut client,
        json!({"study": "puzzle_move", "id": first.id, "hole": wrong.number()}),
    );
    assert_eq!(view["puzzle"]["status"], "failed", "{view}");
    assert!(view["puzzle"]["change"].as_f64().unwrap() < 0.0, "{view}");
    let db = tuzdyk_db::Database::open(&path).expect("the database");
    let solver = db.solver().unwrap();
    let rated = db.puzzle(first.id).unwrap().unwrap();
    drop(db);

    // A reload: the same puzzle opened on a new connection and solved.
    let mut again = Client::connect(&server, Some(&game));
    let view = puzzle_answer(&mut again, json!({"study": "puzzle_open", "id": first.id}));
    assert_eq!(view["puzzle"]["replay"], true, "{view}");
    for (k, mv) in first.solution.iter().enumerate().step_by(2) {
        let view = puzzle_answer(
            &mut again,
            json!({"study": "puzzle_move", "id": first.id, "hole": mv.number()}),
        );
        assert_eq!(view["type"], "puzzle", "move {k}: {view}");
    }
    let view = puzzle_answer(
        &mut again,
        json!({"study": "puzzle_analyse", "id": first.id}),
    );
    assert_eq!(view["puzzle"]["status"], "solved", "{view}");
    assert!(view["puzzle"]["change"].is_null(), "not rated: {view}");
    assert!(close(&view["solver"]["rating"], solver.rating), "{view}");
    let db = tuzdyk_db::Database::open(&path).expect("the database");
    assert_eq!(db.solver().unwrap(), solver, "the solver is rated once");
    assert_eq!(db.puzzle(first.id).unwrap().unwrap(), rated);
    let tries: Vec<bool> = db
        .attempts(first.id)
        .unwrap()
        .iter()
        .map(|a| a.solved)
        .collect();
    assert_eq!(tries, vec![false, true], "both tries recorded");
    // The next puzzle is another: the tried one comes last.
    let view = puzzle_answer(&mut again, json!({"study": "puzzle_next", "theme": null}));
    assert_ne!(view["puzzle"]["id"], first.id, "{view}");

    // The analysis: the puzzle's position, two players, the engine lines.
    let wanted = json!(tfen::write(&first.position));
    let seen = again
        .seen
        .iter()
        .find(|m| m["type"] == "state" && m["tfen"] == wanted)
        .cloned();
    let state =
        seen.unwrap_or_else(|| again.wait_state("the puzzle's position", |s| s["tfen"] == wanted));
    assert_eq!(state["settings"]["mode"], "humans", "{state}");
    assert_eq!(state["analysis"], true, "{state}");
    assert_eq!(state["plies"], 0, "{state}");
    assert!(
        again
            .seen
            .iter()
            .any(|m| m["type"] == "notice" && m["code"] == "puzzle_analysis"),
        "{:?}",
        again.seen
    );
}

/// The position editor's check: a legal position and each kind of illegal
/// one answered to the page with its own text key (wrong total, a tuzdik
/// on hole 9, two tuzdiks with one number, two in a row, malformed TFENs),
/// the game untouched and the server still answering; a position saved as
/// a study with no moves, and set up again from it.
#[test]
fn the_position_editor_is_told_whether_a_position_is_legal() {
    let folder = db_folder("editor");
    let path = folder.join("games.sqlite");
    let server = Server::start(&["--db", path.to_str().unwrap()]);
    let mut client = Client::connect(&server, None);
    client.new_game("humans", "white", "casual");
    client.send(json!({"cmd": "play", "hole": 6}));
    let played = client.wait_state("the move", |s| s["plies"] == 1);
    let check = |client: &mut Client, text: &str| -> Value {
        client.send(json!({"study": "check_position", "tfen": text}));
        let answer = client.wait_for("the check", |m| m["type"] == "position_check");
        assert_eq!(answer["tfen"], text, "{answer}");
        answer
    };

    let legal = "1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 N 74";
    let answer = check(&mut client, legal);
    assert_eq!(
        (&answer["ok"], &answer["error"]),
        (&json!(true), &Value::Null)
    );
    let start = "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S";
    for (text, key) in [
        (format!("{start} 1 0 S 1"), "position_stone_count"),
        (
            "t,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 9 0 S 1".to_string(),
            "position_tuzdik_on_nine",
        ),
        (
            "9S,9S,9S,9S,9S,9S,t,9S,9S/9S,9S,t,9S,9S,9S,9S,9S,9S 9 9 S 1".to_string(),
            "position_tuzdiks_same_number",
        ),
        (
            "9S,t,9S,9S,9S,t,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 18 0 S 1".to_string(),
            "tfen_two_tuzdiks",
        ),
        ("9S,9S/9S 0 0 S 1".to_string(), "tfen_row_length"),
        (format!("{start} 0 0 X 1"), "tfen_side"),
        (format!("{start} zero 0 S 1"), "tfen_kazan"),
        ("".to_string(), "tfen_empty"),
    ] {
        let answer = check(&mut client, &text);
        assert_eq!(answer["ok"], false, "{answer}");
        assert_eq!(answer["error"]["key"], key, "{text}: {answer}");
    }
    let answer = check(&mut client, &format!("{start} 1 0 S 1"));
    assert_eq!(answer["error"]["params"]["n"], 163, "{answer}");
    let answer = check(
        &mut client,
        "t,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 9 0 S 1",
    );
    assert_eq!(
        answer["error"]["params"]["side"]["key"], "white",
        "{answer}"
    );
    // Requests that do not fit are refused, one error each.
    for (request, code) in [
        (json!({"study": "check_position", "tfen": 5}), "malformed"),
        (json!({"study": "check_position"}), "malformed"),
        (
            json!({"study": "check_position", "tfen": "9".repeat(300_000)}),
            "too_large",
        ),
        (
            json!({"study": "save_position", "tfen": format!("{start} 1 0 S 1"), "name": "a", "comment": ""}),
            "bad_tfen",
        ),
        (
            json!({"study": "save_position", "tfen": legal, "name": " ", "comment": ""}),
            "study_name_empty",
        ),
    ] {
        let error = client.expect_error(request);
        assert_eq!(error["code"], code, "{error}");
    }
    client.send(json!({"cmd": "state"}));
    let state = client.next_state();
    assert_eq!(
        (&state["tfen"], &state["plies"], &state["line"]),
        (&played["tfen"], &played["plies"], &played["line"]),
        "the game is untouched"
    );

    client.send(json!({"study": "save_position", "tfen": legal, "name": "Endgame", "comment": ""}));
    let saved = client.wait_for("the saved study", |m| m["type"] == "studies");
    let study = &saved["studies"][0];
    assert_eq!(
        (&study["name"], &study["plies"]),
        (&json!("Endgame"), &json!(0)),
        "{saved}"
    );
    assert_eq!(saved["current"], study["id"]);
    client.send(json!({"cmd": "state"}));
    assert_eq!(
        client.next_state()["tfen"],
        played["tfen"],
        "saving keeps the game"
    );
    client.send(json!({"study": "open_study", "id": study["id"]}));
    let opened = client.wait_state("the study", |s| s["tfen"] == legal);
    assert_eq!(opened["plies"], 0);
    let _ = std::fs::remove_dir_all(&folder);
}
