//! The engine as a GUI drives it: the `tuzdyk` binary with no arguments,
//! spoken to line by line on stdin/stdout and checked against protocol.md.
//!
//! Every wait is bounded by a generous timeout (30 s, for a slow, busy
//! two-core machine); no test asserts how long anything took.

mod common;

use std::time::Duration;

use common::{
    Engine, Info, Kind, classify, hole, is_legal, join, parse_bestmove, parse_info, play,
    random_moves,
};
use tuzdyk_notation::{record, tfen};
use tuzdyk_rules::rng::SplitMix64;
use tuzdyk_rules::{GameResult, Move, Position, Side};

const START: &str = "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1";
/// A master game after 10 moves, two tuzdiks (docs/rules.md's P1).
const P1: &str = "1S,1S,5S,7S,6S,18S,6S,1,t/1S,2S,20S,7S,19S,t,1S,2S,1 42 24 S 11";
/// A PlayOK endgame (docs/rules.md's P2).
const P2: &str = "1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 S 74";
/// South to move: 9 captures two stones on North's hole 1 and reaches 82;
/// 1 wins nothing.
const WIN_NOW: &str = "4,3S,3,1S/1S,7,1S 80 76 S 60";
/// Finished: South has 82 (North to move).
const SOUTH_WON: &str = "1S,8/9 82 79 N 30";
/// Finished: South to move has no stones; the sweep gives North 77 + 5 = 82.
const NORTH_WON_BY_SWEEP: &str = "5S,8/9 80 77 S 40";
/// Finished: no stones left, 81-81.
const DRAWN: &str = "9/9 81 81 S 50";

fn pos(text: &str) -> Position {
    tfen::parse(text).unwrap_or_else(|e| panic!("bad test position {text}: {e}"))
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dialect {
    Uci,
    Ugi,
}

/// What one `go` printed, checked against protocol.md.
struct Search {
    infos: Vec<Info>,
    best: Option<u32>,
    ponder: Option<u32>,
    notices: Vec<String>,
}

impl Search {
    fn last_depth(&self) -> u64 {
        self.infos.last().map_or(0, |i| i.depth)
    }
}

/// Checks the lines of one search of `pos` (ending with `bestmove`): only
/// `info` lines before exactly one `bestmove`, at least one with a `pv`,
/// every number an integer, every PV a legal line, a legal best move (and
/// a legal ponder reply, never in UGI).
fn check_search(lines: &[String], pos: &Position, dialect: Dialect) -> Search {
    let (last, before) = lines.split_last().expect("at least the bestmove line");
    let (best, ponder) = parse_bestmove(last).unwrap_or_else(|e| panic!("{e}"));
    let mut infos = Vec::new();
    let mut notices = Vec::new();
    for line in before {
        match classify(line) {
            Ok(Kind::Info(info)) => infos.push(info),
            Ok(Kind::InfoString) => notices.push(line.clone()),
            other => panic!("unexpected line '{line}' during a search: {other:?}\nall: {lines:#?}"),
        }
    }
    if dialect == Dialect::Ugi {
        assert_eq!(
            last.split(' ').count(),
            2,
            "UGI bestmove must be two tokens: '{last}'"
        );
    }
    match best {
        Some(mv) => {
            assert!(is_legal(pos, mv), "bestmove {mv} is not legal in {pos:?}");
            assert!(
                infos.iter().any(|i| !i.pv.is_empty()),
                "no info line with a pv before '{last}': {lines:#?}"
            );
            for info in &infos {
                let mut p = *pos;
                for &m in &info.pv {
                    assert!(
                        is_legal(&p, m),
                        "pv {:?} is not a legal line from {pos:?}",
                        info.pv
                    );
                    p.play(Move::from_number(m).unwrap());
                }
            }
            if let Some(reply) = ponder {
                let after = play(pos, &[mv]);
                assert!(
                    is_legal(&after, reply),
                    "ponder move {reply} not legal after {mv}"
                );
            }
        }
        None => {
            assert!(
                pos.game_over().is_some(),
                "bestmove 0000 in an unfinished position {pos:?}"
            );
            assert!(ponder.is_none(), "ponder move with 0000: '{last}'");
        }
    }
    Search {
        infos,
        best,
        ponder,
        notices,
    }
}

fn start_uci() -> Engine {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.read_until("uciok", |l| l == "uciok");
    engine
}

fn start_ugi() -> Engine {
    let mut engine = Engine::start();
    engine.send("ugi");
    engine.read_until("ugiok", |l| l == "ugiok");
    engine
}

/// The option lines of protocol.md (indented `option name ...` lines).
fn spec_option_lines() -> Vec<String> {
    let spec = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md"))
        .expect("protocol.md is readable");
    let lines: Vec<String> = spec
        .lines()
        .filter_map(|l| l.strip_prefix("    option name "))
        .map(|rest| format!("option name {rest}"))
        .collect();
    assert!(lines.len() >= 7, "protocol.md lists its options");
    lines
}

fn check_handshake(lines: &[String], ok: &str) {
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(lines[0], format!("id name tuzdyk {version}"), "{lines:#?}");
    assert!(
        lines[1].starts_with("id author ") && lines[1].len() > "id author ".len(),
        "{lines:#?}"
    );
    let options: Vec<String> = lines[2..lines.len() - 1].to_vec();
    assert_eq!(options, spec_option_lines(), "option lines");
    assert_eq!(lines.last().unwrap(), ok);
    for line in lines {
        classify(line).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn uci_handshake_gives_ids_every_option_of_protocol_md_and_uciok() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.read_until("uciok", |l| l == "uciok");
    check_handshake(&lines, "uciok");
    assert!(engine.sync().is_empty());
    engine.send("position startpos");
    let lines = engine.go("go depth 5");
    let search = check_search(&lines, &Position::startpos(), Dialect::Uci);
    assert!(search.best.is_some());
    // Five plies deep the expected reply is known, and UCI names it.
    assert!(search.ponder.is_some(), "{lines:#?}");
}

#[test]
fn ugi_handshake_gives_the_same_lines_and_two_token_bestmoves() {
    let mut engine = Engine::start();
    engine.send("ugi");
    let lines = engine.read_until("ugiok", |l| l == "ugiok");
    check_handshake(&lines, "ugiok");
    for (fen, go) in [
        (START, "go depth 5"),
        (P1, "go depth 4"),
        (P2, "go nodes 3000"),
        (P1, "go p1time 300 p2time 300"),
    ] {
        engine.send(&format!("position fen {fen}"));
        let lines = engine.go(go);
        let search = check_search(&lines, &pos(fen), Dialect::Ugi);
        assert!(search.ponder.is_none());
    }
}

#[test]
fn isready_during_an_infinite_search_is_answered_first_and_stop_gives_one_bestmove() {
    let mut engine = start_uci();
    engine.send(&format!("position fen {P1}"));
    engine.send("go infinite");
    let before = engine.sync();
    assert!(
        before.iter().all(|l| l.starts_with("info ")),
        "only info lines before readyok: {before:#?}"
    );
    // The search goes on without a bestmove until it is stopped.
    let more = engine.drain_for(Duration::from_millis(300));
    assert!(
        more.iter().all(|l| !l.starts_with("bestmove")),
        "bestmove before stop: {more:#?}"
    );
    assert!(engine.sync().iter().all(|l| l.starts_with("info ")));
    engine.send("stop");
    let mut lines = engine.read_until("bestmove", |l| l.starts_with("bestmove"));
    let after = engine.sync();
    assert!(after.is_empty(), "nothing after the bestmove: {after:#?}");
    let mut all: Vec<String> = before.into_iter().chain(more).collect();
    all.append(&mut lines);
    check_search(&all, &pos(P1), Dialect::Uci);
    // `stop` with no search running is ignored.
    assert!(engine.command("stop").is_empty());
}

#[test]
fn stop_right_after_go_still_gives_a_legal_move() {
    let mut engine = start_uci();
    for (fen, go) in [
        (START, "go infinite"),
        (P1, "go"),
        (P2, "go depth 60"),
        (P1, "go ponder"),
        (START, "go movetime 100000"),
    ] {
        engine.send(&format!("position fen {fen}"));
        engine.send(go);
        engine.send("stop");
        let lines = engine.read_until("bestmove", |l| l.starts_with("bestmove"));
        let search = check_search(&lines, &pos(fen), Dialect::Uci);
        assert!(search.best.is_some(), "{go}: {lines:#?}");
        assert!(engine.sync().is_empty(), "exactly one bestmove after {go}");
    }
}

#[test]
fn quit_during_a_search_prints_its_bestmove_and_exits_with_status_0() {
    let mut engine = start_uci();
    engine.send("position startpos moves 6 4");
    engine.send("go infinite");
    engine.read_until("an info line", |l| l.starts_with("info depth"));
    engine.send("quit");
    let rest = engine.rest_of_output();
    let status = engine.wait_exit();
    assert!(status.success(), "exit status {status:?}");
    assert_eq!(
        rest.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{rest:#?}"
    );
}

#[test]
fn quit_without_a_search_exits_with_status_0() {
    let mut engine = start_ugi();
    engine.send("quit");
    assert!(engine.rest_of_output().is_empty());
    assert!(engine.wait_exit().success());
}

/// `(many commands) | tuzdyk | head -1`: once its answers cannot be
/// written, the engine stops reading and exits, quietly. Lines padded to a
/// kilobyte: a pipe and the engine's reader hold about a hundred, so a
/// feeder that could write all 20,000 means the engine read them all.
#[test]
fn the_engine_stops_within_a_bound_of_lines_once_its_output_is_closed() {
    use std::io::{Read, Write};
    use std::process::Stdio;

    const LINES: usize = 20_000;
    const BOUND: usize = 1_000;
    let mut child = common::tuzdyk::<&str>(&[])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    // The reader goes away before the first answer.
    drop(child.stdout.take());
    let mut errors = child.stderr.take().expect("piped stderr");
    let logged = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = errors.read_to_string(&mut text);
        text
    });
    let mut stdin = child.stdin.take().expect("piped stdin");
    let line = format!("isready{}\n", " ".repeat(1016));
    let written = (0..LINES)
        .take_while(|_| stdin.write_all(line.as_bytes()).is_ok())
        .count();
    drop(stdin);
    let status = child.wait().expect("the engine exits");
    let logged = logged.join().expect("the stderr reader ends");
    assert!(
        written < BOUND,
        "the engine read {written} lines after its output closed"
    );
    assert!(status.success(), "{status:?}: {logged}");
    assert!(logged.is_empty(), "the engine logged: {logged}");
}

#[test]
fn a_line_too_long_is_refused_with_its_length() {
    let mut engine = start_uci();
    for bytes in [65_537, 1_000_024] {
        let mut line = vec![b'x'; bytes];
        line.push(b'\n');
        engine.send_bytes(&line);
        assert_eq!(
            engine.sync(),
            [format!(
                "info string error: line of {bytes} bytes is too long (at most 65536)"
            )]
        );
    }
    // The limit itself is a line like any other.
    let mut line = vec![b' '; 65_536 - 7];
    line.extend_from_slice(b"isready\n");
    engine.send_bytes(&line);
    engine.read_until("readyok", |l| l == "readyok");
}

#[test]
fn help_lists_the_commands_as_info_strings() {
    let mut engine = start_uci();
    let lines = engine.command("help");
    assert!(lines.len() >= 3, "{lines:#?}");
    for line in &lines {
        assert_eq!(classify(line), Ok(Kind::InfoString), "{line}");
    }
    let text = lines.join("\n");
    for command in [
        "uci",
        "isready",
        "setoption",
        "position",
        "go",
        "stop",
        "query",
        "d",
        "perft",
        "quit",
    ] {
        assert!(
            text.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|word| word == command),
            "help does not name {command}: {text}"
        );
    }
    assert_eq!(
        engine.command("help me"),
        ["info string error: unknown command 'help me'"]
    );
}

/// A person who starts `tuzdyk` at a terminal is told on stderr what it is
/// and how to leave; a GUI (stdin a pipe) is told nothing.
#[test]
fn at_a_terminal_the_engine_says_what_it_is_and_how_to_leave() {
    use std::fs::File;
    use std::io::{Read, Write};
    use std::os::fd::FromRawFd;
    use std::process::Stdio;

    let (mut controller, mut terminal) = (-1, -1);
    // SAFETY: openpty writes the two descriptors it opens into the two
    // integers; the null name, settings and size ask for the defaults.
    let opened = unsafe {
        libc::openpty(
            &mut controller,
            &mut terminal,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(opened, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened by openpty and are owned
    // here only, by these files.
    let (mut controller, terminal) =
        unsafe { (File::from_raw_fd(controller), File::from_raw_fd(terminal)) };
    let mut child = common::tuzdyk::<&str>(&[])
        .stdin(terminal)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    controller
        .write_all(b"quit\n")
        .expect("the terminal takes a line");
    let mut said = String::new();
    child
        .stderr
        .take()
        .expect("piped stderr")
        .read_to_string(&mut said)
        .expect("stderr is text");
    assert!(child.wait().expect("the engine exits").success());
    drop(controller);
    assert!(
        said.contains("tuzdyk") && said.contains("help") && said.contains("quit"),
        "{said}"
    );

    let piped = common::run_tuzdyk_with_input::<&str>(&[], "quit\n");
    assert!(piped.stderr.is_empty(), "{piped:?}");
}

#[test]
fn go_depth_and_go_nodes_give_one_legal_bestmove_after_integer_info_lines() {
    let mut engine = start_uci();
    let mut rng = SplitMix64::new(7);
    let midgame = play(
        &Position::startpos(),
        &random_moves(&Position::startpos(), 40, &mut rng).0,
    );
    for fen in [
        START.to_string(),
        P1.to_string(),
        P2.to_string(),
        tfen::write(&midgame),
    ] {
        let position = pos(&fen);
        if position.game_over().is_some() {
            continue;
        }
        engine.send(&format!("position fen {fen}"));
        for depth in [1u64, 3, 7] {
            check_go_depth(&mut engine, &position, depth, &fen);
        }
        for nodes in [1u64, 500, 20_000] {
            let lines = engine.go(&format!("go nodes {nodes}"));
            let search = check_search(&lines, &position, Dialect::Uci);
            assert!(search.best.is_some());
            if nodes >= 20_000 {
                // One thread: the node limit is total nodes.
                for info in &search.infos {
                    assert!(info.nodes <= nodes, "go nodes {nodes}: {lines:#?}");
                }
            }
            assert!(engine.sync().is_empty(), "one bestmove only");
        }
    }
}

/// `go depth <depth>` in `position`: a valid search whose last line is at
/// exactly that depth, no line deeper, and one bestmove.
fn check_go_depth(engine: &mut Engine, position: &Position, depth: u64, context: &str) {
    let lines = engine.go(&format!("go depth {depth}"));
    let search = check_search(&lines, position, Dialect::Uci);
    assert_eq!(
        search.last_depth(),
        depth,
        "go depth {depth} ({context}): {lines:#?}"
    );
    assert!(search.infos.iter().all(|i| i.depth <= depth));
    assert!(engine.sync().is_empty(), "one bestmove only");
}

/// With several threads a helper that completes the depth first ends the
/// search; the last line must still show the depth asked for, and no line a
/// deeper one.
#[test]
fn go_depth_with_several_threads_ends_at_that_depth() {
    let mut engine = start_uci();
    for threads in [2, 4] {
        engine.send(&format!("setoption name Threads value {threads}"));
        for fen in [START, P1, P2] {
            let position = pos(fen);
            engine.send(&format!("position fen {fen}"));
            for depth in [6u64, 11, 14] {
                check_go_depth(
                    &mut engine,
                    &position,
                    depth,
                    &format!("Threads {threads}, {fen}"),
                );
            }
        }
    }
}

#[test]
fn every_iteration_reports_one_line_per_multipv_line() {
    let mut engine = start_uci();
    engine.send(&format!("position fen {P1}"));
    let lines = engine.go("go depth 6");
    let search = check_search(&lines, &pos(P1), Dialect::Uci);
    let depths: Vec<u64> = search.infos.iter().map(|i| i.depth).collect();
    assert_eq!(depths, (1..=6).collect::<Vec<_>>(), "{lines:#?}");
    assert!(search.infos.iter().all(|i| i.multipv == 1));
    assert_eq!(Some(search.infos[5].pv[0]), search.best);
}

#[test]
fn position_with_moves_matches_the_library() {
    let mut engine = start_uci();
    let mut rng = SplitMix64::new(42);
    let start = Position::startpos();
    assert_eq!(engine.fen(), START);
    for plies in [1, 2, 9, 30, 80, 200] {
        let moves = random_moves(&start, plies, &mut rng).0;
        assert!(
            engine
                .command(&format!("position startpos moves {}", join(&moves)))
                .is_empty()
        );
        assert_eq!(
            engine.fen(),
            tfen::write(&play(&start, &moves)),
            "after {moves:?}"
        );
    }
    for fen in [P1, P2] {
        let from = pos(fen);
        let moves = random_moves(&from, 12, &mut rng).0;
        assert!(
            engine
                .command(&format!("position fen {fen} moves {}", join(&moves)))
                .is_empty()
        );
        assert_eq!(engine.fen(), tfen::write(&play(&from, &moves)));
        assert!(engine.command(&format!("position fen {fen}")).is_empty());
        assert_eq!(engine.fen(), fen);
    }
    // Readers accept lower case, short runs and a missing move number; `fen` writes canonically.
    engine.command("position fen 1s,1s,5s,7s,6s,18s,6s,1,T/1S,2S,20S,7S,19S,T,1S,2S,1 42 24 s 11");
    assert_eq!(engine.fen(), P1);
    engine.command("position fen 2,2,3s,1,2,1s/1s,3,4,1s 80 76 s moves 9");
    assert_eq!(
        engine.fen(),
        tfen::write(&play(&pos("4,3S,3,1S/1S,7,1S 80 76 S 1"), &[9]))
    );
    assert!(engine.command("position startpos moves").is_empty());
    assert_eq!(engine.fen(), START);
    // Any white space separates tokens.
    engine.command("position\tstartpos   moves  6\t 4 ");
    assert_eq!(engine.fen(), tfen::write(&play(&start, &[6, 4])));
    // A whole finished game from the PlayOK file.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/playok-games.pgn"
    ))
    .unwrap();
    let game = record::parse_games(&text)
        .into_iter()
        .flatten()
        .find(|g| *g.game.start() == start && g.game.moves().len() > 100)
        .expect("a long game");
    let moves: Vec<u32> = game.game.moves().iter().map(|m| m.number()).collect();
    engine.command(&format!("position startpos moves {}", join(&moves)));
    assert_eq!(engine.fen(), tfen::write(&game.final_position()));
}

/// Lines of the last iteration of a MultiPV search.
fn final_lines(search: &Search) -> Vec<Info> {
    let depth = search.last_depth();
    search
        .infos
        .iter()
        .filter(|i| i.depth == depth && i.bound.is_none())
        .cloned()
        .collect()
}

#[test]
fn multipv_3_reports_lines_1_to_3_at_the_final_depth() {
    let mut engine = start_uci();
    engine.send("setoption name MultiPV value 3");
    for (fen, depth) in [(START, 5), (P1, 6), (P2, 8)] {
        engine.send(&format!("position fen {fen}"));
        let lines = engine.go(&format!("go depth {depth}"));
        let search = check_search(&lines, &pos(fen), Dialect::Uci);
        assert_eq!(search.last_depth(), depth);
        let last = final_lines(&search);
        let numbers: Vec<u64> = last.iter().map(|i| i.multipv).collect();
        assert_eq!(numbers, vec![1, 2, 3], "{lines:#?}");
        let mut firsts: Vec<u32> = last.iter().map(|i| i.pv[0]).collect();
        firsts.dedup();
        assert_eq!(firsts.len(), 3, "three different moves: {lines:#?}");
        assert_eq!(Some(last[0].pv[0]), search.best, "bestmove is line 1");
        // Every iteration has its three lines.
        for d in 1..=depth {
            let count = search
                .infos
                .iter()
                .filter(|i| i.depth == d && i.bound.is_none())
                .count();
            assert_eq!(count, 3, "depth {d}: {lines:#?}");
        }
    }
    // A position with two legal moves has only two lines.
    let two = "4,3S,3,1S/1S,7,1S 80 76 S 60";
    engine.send(&format!("position fen {two}"));
    let lines = engine.go("go depth 4");
    let search = check_search(&lines, &pos(two), Dialect::Uci);
    assert!(final_lines(&search).iter().all(|i| i.multipv <= 2));
}

/// protocol.md: "`multipv 1` is the best". A line's score must not be above
/// the score of the line before it in the same iteration.
///
/// BUG (ignored until fixed): from the start position with MultiPV 3 and
/// `go depth 4` (fresh engine, Threads 1) the depth-3 iteration prints
/// `multipv 1 score cp 137 pv 8 8 9` and then `multipv 2 score cp 330 pv 9 9 9`
/// (181 and 441 with the evaluation of f5b85d9): line 2 scores about two
/// stones more than line 1, and line 1 stays first. Each line is searched
/// after the ones before it are fixed, and the lines are never sorted
/// among themselves again.
#[test]
fn multipv_lines_are_sorted_best_first() {
    let mut engine = start_uci();
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos");
    let lines = engine.go("go depth 4");
    let search = check_search(&lines, &Position::startpos(), Dialect::Uci);
    for depth in 1..=4 {
        let scores: Vec<i64> = search
            .infos
            .iter()
            .filter(|i| i.depth == depth && i.score.0 == "cp" && i.bound.is_none())
            .map(|i| i.score.1)
            .collect();
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "depth {depth}: {lines:#?}"
        );
    }
}

fn query(engine: &mut Engine, question: &str) -> String {
    let lines = engine.command(&format!("query {question}"));
    assert_eq!(lines.len(), 1, "query {question}: {lines:#?}");
    let words: Vec<&str> = lines[0].split(' ').collect();
    assert_eq!(words.len(), 2, "'{}' is not two tokens", lines[0]);
    assert_eq!(words[0], "response");
    words[1].to_string()
}

fn expected_answers(position: &Position) -> [String; 3] {
    let result = match position.result() {
        Some(GameResult::Win(Side::White)) => "p1win",
        Some(GameResult::Win(Side::Black)) => "p2win",
        Some(GameResult::Draw) => "draw",
        None => "none",
    };
    [
        position.game_over().is_some().to_string(),
        (position.side_to_move() == Side::White).to_string(),
        result.to_string(),
    ]
}

#[test]
fn queries_answer_about_the_current_position() {
    let mut engine = start_ugi();
    let ask = |engine: &mut Engine| {
        [
            query(engine, "gameover"),
            query(engine, "p1turn"),
            query(engine, "result"),
        ]
    };
    assert_eq!(ask(&mut engine), ["false", "true", "none"]);
    engine.send("position startpos moves 6");
    assert_eq!(ask(&mut engine), ["false", "false", "none"]);
    for (fen, expected) in [
        (SOUTH_WON, ["true", "false", "p1win"]),
        (NORTH_WON_BY_SWEEP, ["true", "true", "p2win"]),
        (DRAWN, ["true", "true", "draw"]),
        (P2, ["false", "true", "none"]),
    ] {
        // A query may follow `position` directly.
        engine.send(&format!("position fen {fen}"));
        assert_eq!(ask(&mut engine), expected, "{fen}");
        assert_eq!(expected_answers(&pos(fen)), expected.map(String::from));
    }
    // Games from the PlayOK file that ran to a natural end.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/playok-games.pgn"
    ))
    .unwrap();
    let finished: Vec<record::GameRecord> = record::parse_games(&text)
        .into_iter()
        .flatten()
        .filter(|g| {
            *g.game.start() == Position::startpos() && g.final_position().game_over().is_some()
        })
        .take(4)
        .collect();
    assert_eq!(finished.len(), 4);
    for game in finished {
        let end = game.final_position();
        let moves: Vec<u32> = game.game.moves().iter().map(|m| m.number()).collect();
        engine.send(&format!("position startpos moves {}", join(&moves)));
        assert_eq!(ask(&mut engine), expected_answers(&end));
        if let Some(result) = game.result {
            assert_eq!(end.result(), Some(result), "the record's result");
        }
        let lines = engine.go("go depth 3");
        check_search(&lines, &end, Dialect::Ugi);
        // One move earlier the game is not over.
        engine.send(&format!(
            "position startpos moves {}",
            join(&moves[..moves.len() - 1])
        ));
        assert_eq!(query(&mut engine, "gameover"), "false");
        assert_eq!(query(&mut engine, "result"), "none");
    }
}

#[test]
fn both_clock_dialects_are_accepted_in_both_sessions() {
    for mut engine in [start_uci(), start_ugi()] {
        for go in [
            "go wtime 500 btime 500",
            "go wtime 400 btime 300 winc 10 binc 10 movestogo 5",
            "go p1time 500 p2time 500",
            "go p1time 400 p2time 300 p1inc 10 p2inc 10 movestogo 3",
            "go wtime 5 btime 5",
            "go p1time 0 p2time 0",
            "go wtime -100 btime -100",
            "go movetime 50",
        ] {
            for (fen, moves) in [(START, ""), (START, " moves 6")] {
                engine.send(&format!("position fen {fen}{moves}"));
                let position = if moves.is_empty() {
                    pos(fen)
                } else {
                    play(&pos(fen), &[6])
                };
                let lines = engine.go(go);
                let search = check_search(&lines, &position, Dialect::Uci);
                assert!(search.best.is_some(), "{go}");
                assert!(search.notices.is_empty(), "{go}: {lines:#?}");
                assert!(engine.sync().is_empty());
            }
        }
    }
}

#[test]
fn ponderhit_turns_a_ponder_search_into_a_timed_one() {
    let mut engine = start_uci();
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves 6 4");
    engine.send("go ponder wtime 2000 btime 2000");
    // Pondering: no bestmove until ponderhit, isready still answered.
    let before = engine.sync();
    assert!(before.iter().all(|l| l.starts_with("info ")), "{before:#?}");
    let more = engine.drain_for(Duration::from_millis(200));
    assert!(more.iter().all(|l| !l.starts_with("bestmove")), "{more:#?}");
    engine.send("ponderhit");
    let mut lines: Vec<String> = before.into_iter().chain(more).collect();
    lines.extend(engine.read_until("bestmove", |l| l.starts_with("bestmove")));
    let search = check_search(&lines, &play(&Position::startpos(), &[6, 4]), Dialect::Uci);
    assert!(search.best.is_some());
    assert!(engine.sync().is_empty(), "one bestmove");
    // `ponderhit` without a ponder search is ignored.
    assert!(engine.command("ponderhit").is_empty());
}

/// A node limit (`go nodes`, or a level's cap) reached while pondering or in
/// `go infinite` ends the thinking, not the wait: the move still comes only
/// after `ponderhit` or `stop`.
#[test]
fn a_node_limit_does_not_end_a_ponder_or_infinite_search() {
    let mut engine = start_uci();
    let position = play(&Position::startpos(), &[6, 4]);
    engine.send("position startpos moves 6 4");
    for (go, release) in [
        ("go ponder nodes 1000", "ponderhit"),
        ("go infinite nodes 1000", "stop"),
        ("go ponder wtime 3000 btime 3000", "ponderhit"),
    ] {
        if go.contains("wtime") {
            engine.send("setoption name Level value novice");
        }
        engine.send(go);
        let mut lines = engine.sync();
        lines.extend(engine.drain_for(Duration::from_millis(300)));
        assert!(
            lines.iter().all(|l| !l.starts_with("bestmove")),
            "{go}: bestmove before {release}: {lines:#?}"
        );
        engine.send(release);
        lines.extend(engine.read_until("bestmove", |l| l.starts_with("bestmove")));
        let search = check_search(&lines, &position, Dialect::Uci);
        assert!(search.best.is_some());
        assert!(engine.sync().is_empty(), "{go}: one bestmove");
    }
}

#[test]
fn stop_ends_a_ponder_search_with_one_bestmove() {
    let mut engine = start_ugi();
    engine.send(&format!("position fen {P1}"));
    engine.send("go ponder p1time 1000 p2time 1000");
    let before = engine.sync();
    assert!(before.iter().all(|l| l.starts_with("info ")));
    engine.send("stop");
    let mut lines = before;
    lines.extend(engine.read_until("bestmove", |l| l.starts_with("bestmove")));
    let search = check_search(&lines, &pos(P1), Dialect::Ugi);
    assert!(search.best.is_some());
    assert!(engine.sync().is_empty(), "one bestmove");
}

#[test]
fn searchmoves_restricts_the_root_moves() {
    let mut engine = start_uci();
    for (fen, allowed) in [
        (START, vec![1u32]),
        (START, vec![3, 7]),
        (P1, vec![2, 4, 8]),
        (WIN_NOW, vec![1]),
    ] {
        engine.send(&format!("position fen {fen}"));
        let lines = engine.go(&format!("go depth 5 searchmoves {}", join(&allowed)));
        let search = check_search(&lines, &pos(fen), Dialect::Uci);
        let best = search.best.unwrap();
        assert!(
            allowed.contains(&best),
            "{best} not in {allowed:?}: {lines:#?}"
        );
        for info in &search.infos {
            assert!(allowed.contains(&info.pv[0]), "{lines:#?}");
        }
        assert!(search.notices.is_empty());
    }
    // An illegal move among them is named and ignored; the legal ones still restrict.
    // In P1 South's hole 6 is North's tuzdik and hole 9 is empty.
    engine.send(&format!("position fen {P1}"));
    let lines = engine.go("go depth 4 searchmoves 6 3");
    let search = check_search(&lines, &pos(P1), Dialect::Uci);
    assert_eq!(search.best, Some(3));
    assert_eq!(
        search.notices,
        vec!["info string searchmoves: 6 not legal here, ignored".to_string()]
    );
    // None legal: every move is searched.
    let lines = engine.go("go depth 4 searchmoves 9 6");
    let search = check_search(&lines, &pos(P1), Dialect::Uci);
    assert!(search.best.is_some());
    assert_eq!(search.notices.len(), 1, "{lines:#?}");
    assert!(search.notices[0].starts_with("info string searchmoves: "));
    // searchmoves may come before other parameters.
    let lines = engine.go("go searchmoves 2 depth 3");
    let search = check_search(&lines, &pos(P1), Dialect::Uci);
    assert_eq!(search.best, Some(2));
}

/// Move lists from the start whose last move is from an empty hole (not a
/// tuzdik: that has an illegal-move reason of its own).
fn moves_into_empty_holes() -> Vec<(Vec<u32>, u32)> {
    let mut rng = SplitMix64::new(5);
    let start = Position::startpos();
    let mut found = Vec::new();
    while found.len() < 4 {
        let prefix = random_moves(&start, 2 + rng.below(40), &mut rng).0;
        let position = play(&start, &prefix);
        if position.game_over().is_some() {
            continue;
        }
        let mover = position.side_to_move();
        let tuzdik = position.tuzdik(mover.opponent()).map(|h| u32::from(h) + 1);
        let empty = |h: u32| position.stones(mover, h as usize - 1) == 0 && Some(h) != tuzdik;
        if let Some(hole) = (1..=9).find(|&h| empty(h)) {
            found.push((prefix, hole));
        }
    }
    found
}

/// Lines that are not valid commands. Each must get exactly one
/// `info string error:` line and change nothing.
fn bad_lines() -> Vec<String> {
    let mut lines: Vec<String> = [
        "flip",
        "xyzzy 1 2 3",
        "UCI",
        "Go depth 3",
        "isready now",
        "uci please",
        "quit now",
        "stop it",
        "ponderhit x",
        "ucinewgame again",
        "d 2",
        "fen please",
        "moves 3",
        "eval all",
        "debug",
        "debug maybe",
        "query",
        "query score",
        "query gameover now",
        "perft",
        "perft 0",
        "perft 13",
        "perft x",
        "perft 3 4",
        "perft -1",
        "bench x",
        "bench 0",
        "bench 3 4",
        // position
        "position",
        "position   ",
        "position start",
        "position startpos 6",
        "position startpos moves 0",
        "position startpos moves 10",
        "position startpos moves x",
        "position startpos moves 6 4 -3",
        "position startpos moves 6 4 4.5",
        "position startpos moves 66",
        "position fen",
        "position fen moves 6",
        "position fen 9S/9S 0 0 S",
        "position fen 9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 W 1",
        "position fen 9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 1 0 S 1",
        "position fen 9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 0",
        "position fen 9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1 2",
        "position fen 9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 x S 1",
        "position fen 9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9Q 0 0 S 1",
        "position fen 9S,9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1",
        "position fen 9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1",
        // a tuzdik on hole 9, two tuzdiks with one number, two for one player
        "position fen t,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1",
        "position fen 1S,8S,1S,2S,1S,3,t/t,2,2S,1S,1,2,1S 77 68 S 74",
        "position fen 1S,t,1S,2S,1S,3,t/3,2S,9S,t,2,1S 77 68 S 74",
        // a move from an empty hole (P2: South's holes 1-3 are empty)
        &format!("position fen {P2} moves 1"),
        // a move from a tuzdik (P1: South's hole 6 belongs to North)
        &format!("position fen {P1} moves 6"),
        &format!("position fen {P1} moves 1 1"),
        // a move after the game has ended
        &format!("position fen {SOUTH_WON} moves 9"),
        &format!("position fen {WIN_NOW} moves 9 5"),
        "position startpos moves 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1 9 1",
        // go
        "go depth",
        "go depth x",
        "go depth 2.5",
        "go depth 99999999999999999999999",
        "go nodes -",
        "go nodes 1e6",
        "go wtime soon",
        "go btime",
        "go winc x",
        "go p1time fast",
        "go p2inc",
        "go movestogo many",
        "go movetime 1.5",
        "go mate two",
        "go foo",
        "go depth 3 foo",
        "go infinite please",
        "go searchmoves 0",
        "go searchmoves x",
        "go searchmoves 10 depth 3",
        // setoption
        "setoption",
        "setoption Hash 32",
        "setoption name",
        "setoption name value 3",
        "setoption name Foo",
        "setoption name Foo value 3",
        "setoption name Hash",
        "setoption name Hash value",
        "setoption name Hash value abc",
        "setoption name Hash value 1.5",
        "setoption name Threads value many",
        "setoption name MultiPV value ",
        "setoption name MoveOverhead value 10ms",
        "setoption name Ponder value maybe",
        "setoption name Ponder",
        "setoption name Level value sultan",
        "setoption name Level value 21",
        "setoption name Level value 0",
        "setoption name UCI_Elo value strong",
        "setoption name UCI_LimitStrength value maybe",
        "setoption name Level",
        "setoption name Clear",
        "setoption name ClearHash",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for (prefix, hole) in moves_into_empty_holes() {
        lines.push(format!("position startpos moves {} {hole}", join(&prefix)));
    }
    let mut long = "position startpos moves".to_string();
    while long.len() <= 70_000 {
        long.push_str(" 1");
    }
    lines.push(long);
    lines
}

/// Runs each bad line in `engine` after setting `setup`; checks one error
/// line each, the position unchanged, and the engine still searching.
fn check_bad_lines(engine: &mut Engine, setup: &str, expected_fen: &str) {
    assert!(engine.command(setup).is_empty());
    assert_eq!(engine.fen(), expected_fen);
    for line in bad_lines() {
        let answer = engine.command(&line);
        let shown: String = line.chars().take(120).collect();
        assert_eq!(answer.len(), 1, "'{shown}' gave {answer:#?}");
        assert!(
            answer[0].starts_with("info string error: "),
            "'{shown}' gave {answer:#?}"
        );
        assert_eq!(engine.fen(), expected_fen, "'{shown}' changed the position");
    }
}

#[test]
fn bad_lines_each_get_one_error_and_change_nothing() {
    let mut engine = start_uci();
    let moves = [6, 4, 7, 3];
    let position = play(&Position::startpos(), &moves);
    check_bad_lines(
        &mut engine,
        &format!("position startpos moves {}", join(&moves)),
        &tfen::write(&position),
    );
    // Garbage bytes: invalid UTF-8, control characters, NUL.
    for bytes in [
        &b"\xff\xfe\xfd\n"[..],
        b"\x00\x01\x02 garbage\n",
        b"go \xc3\x28 depth 3\n",
        b"\x1b[31mred\x1b[0m\n",
        b"position startpos moves 6 \xe2\x82\n",
    ] {
        engine.send_bytes(bytes);
        let answer = engine.sync();
        assert_eq!(answer.len(), 1, "{bytes:?} gave {answer:#?}");
        assert!(answer[0].starts_with("info string error: "), "{answer:#?}");
    }
    // Blank lines and a CR at the end of a line are only white space.
    engine.send_bytes(b"\n   \n\t\n");
    assert!(engine.sync().is_empty());
    engine.send_bytes(b"isready\r\n");
    engine.read_until("readyok", |l| l == "readyok");
    assert_eq!(engine.fen(), tfen::write(&position));
    // Still a working engine, with its options untouched.
    let lines = engine.go("go depth 3");
    let search = check_search(&lines, &position, Dialect::Uci);
    assert_eq!(search.last_depth(), 3);
    assert!(search.infos.iter().all(|i| i.multipv == 1));
    let lines = engine.go("go nodes 2000");
    check_search(&lines, &position, Dialect::Uci);
}

#[test]
fn bad_lines_keep_a_fen_position_too() {
    let mut engine = start_ugi();
    check_bad_lines(&mut engine, &format!("position fen {P1}"), P1);
    let lines = engine.go("go depth 3");
    check_search(&lines, &pos(P1), Dialect::Ugi);
}

#[test]
fn error_messages_name_the_offending_token() {
    let mut engine = start_uci();
    for (line, token) in [
        ("flip", "'flip'"),
        ("position startpos moves 6 x", "'x'"),
        ("position fen 9S/9S 0 0 S", "9S/9S"),
        ("go wtime soon", "'soon'"),
        ("go frobnicate", "'frobnicate'"),
        ("setoption name Foo value 3", "'Foo'"),
        ("setoption name Hash value lots", "'lots'"),
        ("setoption name Level value sultan", "'sultan'"),
        ("query score", "'score'"),
        ("go depth -5", "'-5'"),
        ("go nodes -1", "'nodes'"),
        ("go movestogo -2", "'movestogo'"),
    ] {
        let answer = engine.command(line);
        assert_eq!(answer.len(), 1, "{line}: {answer:?}");
        assert!(
            answer[0].starts_with("info string error: ") && answer[0].contains(token),
            "'{line}' gave '{}', which does not name {token}",
            answer[0]
        );
    }
    // The examples of protocol.md, word for word.
    assert_eq!(
        engine.command("flip"),
        ["info string error: unknown command 'flip'"]
    );
    assert_eq!(
        engine.command("go wtime soon"),
        ["info string error: go: 'wtime' needs a number, got 'soon'"]
    );
    assert_eq!(
        engine.command("setoption name Foo value 1"),
        ["info string error: setoption: unknown option 'Foo', ignored"]
    );
    assert_eq!(
        engine.command("position fen 9S/9S 0 0 S"),
        ["info string error: position: invalid TFEN '9S/9S 0 0 S': North row has 1 holes, not 9"]
    );
    // protocol.md's illegal-move example: which move of the list, and why.
    for (prefix, hole) in moves_into_empty_holes() {
        let answer = engine.command(&format!("position startpos moves {} {hole}", join(&prefix)));
        assert_eq!(
            answer,
            [format!(
                "info string error: position: illegal move '{hole}' (move {} of the list): hole {hole} is empty",
                prefix.len() + 1
            )]
        );
    }
    let answer = engine.command(&format!("position fen {P1} moves 6"));
    assert_eq!(answer.len(), 1);
    assert!(
        answer[0].contains("illegal move '6' (move 1 of the list)"),
        "{answer:?}"
    );
}

#[test]
fn out_of_range_option_values_are_clamped_with_a_notice() {
    let mut engine = start_uci();
    engine.send("position startpos moves 6");
    let position = play(&Position::startpos(), &[6]);
    for (line, notice) in [
        (
            "setoption name Hash value 0",
            "info string Hash 0 is out of range 1..65536; set to 1",
        ),
        (
            "setoption name Threads value 0",
            "info string Threads 0 is out of range 1..256; set to 1",
        ),
        (
            "setoption name Threads value 1000",
            "info string Threads 1000 is out of range 1..256; set to 256",
        ),
        (
            "setoption name MultiPV value 0",
            "info string MultiPV 0 is out of range 1..9; set to 1",
        ),
        (
            "setoption name MultiPV value 12",
            "info string MultiPV 12 is out of range 1..9; set to 9",
        ),
        (
            "setoption name MoveOverhead value -5",
            "info string MoveOverhead -5 is out of range 0..5000; set to 0",
        ),
        (
            "setoption name MoveOverhead value 99999",
            "info string MoveOverhead 99999 is out of range 0..5000; set to 5000",
        ),
    ] {
        assert_eq!(engine.command(line), [notice], "{line}");
    }
    // MultiPV 9 is in force now (and Threads 2): every legal move gets a line.
    engine.send("setoption name Threads value 2");
    let lines = engine.go("go depth 3");
    let search = check_search(&lines, &position, Dialect::Uci);
    let last = final_lines(&search);
    assert_eq!(
        last.len(),
        position.legal_moves().count() as usize,
        "{lines:#?}"
    );
    // Option names are case-insensitive; good values print nothing.
    for line in [
        "setoption name multipv value 1",
        "setoption name HASH value 2",
        "setoption name threads value 1",
        "setoption name moveoverhead value 0",
        "setoption name ponder value TRUE",
        "setoption name level value Casual",
        "setoption name LEVEL value 7",
        "setoption name clear hash",
        "setoption name Clear Hash",
        "setoption name Ponder value false",
    ] {
        assert!(engine.command(line).is_empty(), "{line}");
    }
    let lines = engine.go("go depth 3");
    let search = check_search(&lines, &position, Dialect::Uci);
    assert!(search.infos.iter().all(|i| i.multipv == 1));
    assert_eq!(engine.fen(), tfen::write(&position));
}

#[test]
fn hash_can_be_resized_in_the_middle_of_a_game() {
    let mut engine = start_uci();
    engine.send("ucinewgame");
    let mut moves: Vec<u32> = Vec::new();
    let mut position = Position::startpos();
    for hash in [16, 1, 64, 1, 16] {
        assert!(
            engine
                .command(&format!("setoption name Hash value {hash}"))
                .is_empty()
        );
        for _ in 0..2 {
            engine.send(&format!("position startpos moves {}", join(&moves)));
            let lines = engine.go("go depth 6");
            let search = check_search(&lines, &position, Dialect::Uci);
            let best = search.best.unwrap();
            moves.push(best);
            position = play(&position, &[best]);
            if position.game_over().is_some() {
                return;
            }
        }
        engine.send(&format!("position startpos moves {}", join(&moves)));
        assert_eq!(engine.fen(), tfen::write(&position));
    }
}

#[test]
fn every_level_plays_legal_moves_and_keeps_an_immediate_win() {
    let mut engine = start_uci();
    let mut rng = SplitMix64::new(3);
    let mid = play(
        &Position::startpos(),
        &random_moves(&Position::startpos(), 30, &mut rng).0,
    );
    let levels = tuzdyk_protocol::Level::NAMES;
    for (number, level) in levels.iter().enumerate() {
        for value in [level.to_string(), (number + 1).to_string()] {
            assert!(
                engine
                    .command(&format!("setoption name Level value {value}"))
                    .is_empty()
            );
            for fen in [
                START.to_string(),
                P1.to_string(),
                P2.to_string(),
                tfen::write(&mid),
            ] {
                let position = pos(&fen);
                engine.send(&format!("position fen {fen}"));
                let lines = engine.go("go depth 6");
                let search = check_search(&lines, &position, Dialect::Uci);
                assert!(search.best.is_some(), "level {value}");
            }
            // Only 9 wins at once (it reaches 82); no level gives that up.
            engine.send(&format!("position fen {WIN_NOW}"));
            for _ in 0..3 {
                let lines = engine.go("go depth 4");
                let search = check_search(&lines, &pos(WIN_NOW), Dialect::Uci);
                assert_eq!(search.best, Some(9), "level {value}: {lines:#?}");
            }
        }
    }
}

/// protocol.md: "An `info` line is printed after each completed iteration
/// for each of the `MultiPV` lines".
///
/// A level below `expert` searches every root move to draw among them;
/// it must still report only the `MultiPV` lines (a regression: it once
/// printed `multipv 1` through `multipv 9` at every depth).
#[test]
fn levels_report_only_multipv_lines() {
    let mut engine = start_uci();
    engine.send("setoption name Level value beginner");
    engine.send("position startpos");
    let lines = engine.go("go depth 5");
    let search = check_search(&lines, &Position::startpos(), Dialect::Uci);
    assert!(search.infos.iter().all(|i| i.multipv == 1), "{lines:#?}");
}

#[test]
fn go_in_a_finished_position_gives_bestmove_0000() {
    for mut engine in [start_uci(), start_ugi()] {
        for fen in [SOUTH_WON, NORTH_WON_BY_SWEEP, DRAWN] {
            engine.send(&format!("position fen {fen}"));
            for go in [
                "go depth 5",
                "go nodes 1000",
                "go movetime 20",
                "go wtime 100 btime 100",
            ] {
                let lines = engine.go(go);
                assert_eq!(lines.len(), 2, "{fen} {go}: {lines:#?}");
                assert_eq!(lines[1], "bestmove 0000");
                let info = parse_info(&lines[0]).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(info.depth, 0, "{lines:#?}");
                assert!(info.pv.is_empty());
            }
            // An infinite search of a finished game still waits for `stop`.
            engine.send("go infinite");
            let first = engine.sync();
            assert!(
                first.iter().all(|l| !l.starts_with("bestmove")),
                "{first:#?}"
            );
            engine.send("stop");
            let lines = engine.read_until("bestmove", |l| l.starts_with("bestmove"));
            assert_eq!(lines.last().unwrap(), "bestmove 0000");
            let moves = engine.command("moves");
            assert_eq!(moves.len(), 1);
            assert!(
                moves[0].starts_with("info string no legal moves: the game is over ("),
                "{moves:?}"
            );
        }
    }
}

/// The score of a finished game for the side to move. protocol.md: the
/// final margin (kazan plus the stones on one's side) in centi-stones.
#[test]
fn finished_games_score_their_final_margin() {
    let mut engine = start_uci();
    for (fen, score) in [
        // North to move: 79 + 1 against 82.
        (SOUTH_WON, ("cp", -200)),
        // South to move: 80 against 77 + 5.
        (NORTH_WON_BY_SWEEP, ("cp", -200)),
        (DRAWN, ("cp", 0)),
        // South to move has won: 82 + 1 against 79.
        ("9/1S,8 82 79 S 30", ("cp", 400)),
    ] {
        engine.send(&format!("position fen {fen}"));
        let lines = engine.go("go depth 3");
        let info = parse_info(&lines[0]).unwrap();
        assert_eq!(info.score, (score.0.to_string(), score.1), "{fen}");
    }
}

/// Mate scores in moves of the side to move, from positions solved by
/// hand (and by the exhaustive solver of tests/search.rs).
#[test]
fn forced_results_are_reported_as_mate_in_moves() {
    let mut engine = start_uci();
    for (fen, mate) in [
        // South wins with its next move (1 ply).
        ("8,t/1,1S,2S,6 80 79 S 60", 1),
        (WIN_NOW, 1),
        // North wins in 2 plies: one move of its own.
        ("2,2S,5,1S/4,1S,t,3 77 81 N 60", 1),
        // South wins in 5 plies: three moves of its own.
        ("1S,3,1S,2,t,1/1,1S,1,1S,3,2S,1S 81 74 S 60", 3),
        // South loses in 2 plies: after one move of its own.
        ("1,1S,2,1S,1S,1,1S,1S/8,1S 77 79 S 60", -1),
        // North loses in 14 plies: after seven moves of its own.
        ("5,1S,t,1S,1/1,1S,1,t,1S,4 80 78 N 60", -7),
    ] {
        engine.send(&format!("position fen {fen}"));
        let lines = engine.go("go depth 20");
        let search = check_search(&lines, &pos(fen), Dialect::Uci);
        let last = search.infos.last().unwrap();
        assert_eq!(last.score, ("mate".to_string(), mate), "{fen}: {lines:#?}");
    }
}

/// BUG / spec mismatch (ignored until fixed): a position where every move
/// loses at once is reported as `mate 0` ("the game is already lost") though
/// the side to move still has a move to make; `mate -1` expected.
/// `position fen 8,5S/6,1S,t,1 75 81 S 60` (South's only move, 7, drops its
/// stone into North's tuzdik on South's hole 8 and North reaches 82), then
/// `go depth 5`: `info depth 1 seldepth 1 multipv 1 score mate 0 ... pv 7`.
/// More generally a loss in an odd number of plies 2k+1 (the side to move
/// makes k+1 moves) is printed as `mate -k`.
#[test]
fn a_loss_by_the_only_move_is_mate_minus_1() {
    let mut engine = start_uci();
    engine.send("position fen 8,5S/6,1S,t,1 75 81 S 60");
    let lines = engine.go("go depth 5");
    let search = check_search(&lines, &pos("8,5S/6,1S,t,1 75 81 S 60"), Dialect::Uci);
    let last = search.infos.last().unwrap();
    assert_eq!(last.score, ("mate".to_string(), -1), "{lines:#?}");
}

#[test]
fn moves_lists_every_legal_move_as_the_library_plays_it() {
    let mut engine = start_uci();
    let mut rng = SplitMix64::new(11);
    let mut fens = vec![
        START.to_string(),
        P1.to_string(),
        P2.to_string(),
        WIN_NOW.to_string(),
    ];
    for plies in [1, 25, 60, 90] {
        let start = Position::startpos();
        fens.push(tfen::write(&play(
            &start,
            &random_moves(&start, plies, &mut rng).0,
        )));
    }
    for fen in fens {
        let position = pos(&fen);
        engine.send(&format!("position fen {fen}"));
        let lines = engine.command("moves");
        if position.game_over().is_some() {
            assert_eq!(lines.len(), 1);
            continue;
        }
        let us = position.side_to_move();
        let expected: Vec<String> = position
            .legal_moves()
            .map(|mv| {
                let mut after = position;
                let outcome = after.play(mv);
                let landing = outcome.landing_hole();
                let (side, hole) = (landing.side, landing.number);
                format!(
                    "move {mv} sows {} lands {}{hole} captures {} tuzdik {} kazan {}",
                    position.stones(us, mv.index()),
                    if side == Side::White { 'S' } else { 'N' },
                    outcome.captured,
                    if outcome.tuzdik { "yes" } else { "no" },
                    after.kazan(us)
                )
            })
            .collect();
        assert_eq!(lines, expected, "{fen}");
        for line in &lines {
            assert_eq!(classify(line), Ok(Kind::Move));
        }
    }
    // After `position startpos moves 6` North's hole 1 holds 10 stones: the
    // tenth lands on South's hole 1, making 10 there, taken. (protocol.md's
    // example shows `move 1 sows 9 lands N1 captures 0 ...` here, which no
    // position gives: 9 stones from hole 1 always end on the mover's hole 9.)
    engine.send("position startpos moves 6");
    let lines = engine.command("moves");
    assert_eq!(
        lines[0],
        "move 1 sows 10 lands S1 captures 10 tuzdik no kazan 10"
    );
}

#[test]
fn eval_prints_its_terms_then_phase_and_total() {
    let network = tuzdyk_search::eval::network::Network::built_in().expect("a built-in network");
    let mut engine = start_uci();
    for eval in ["network", "classic"] {
        let lines = engine.command(&format!("setoption name Eval value {eval}"));
        assert!(lines.is_empty(), "{lines:?}");
        for fen in [START, P1, P2] {
            engine.send(&format!("position fen {fen}"));
            let mut lines = engine.command("eval");
            if eval == "network" {
                // The network's line comes last, after the classic breakdown.
                let last = lines.pop().expect("eval lines");
                assert_eq!(classify(&last), Ok(Kind::EvalNetwork), "{last}");
                assert_eq!(
                    last,
                    format!(
                        "eval network {} total cp {}",
                        network.id(),
                        network.evaluate(&pos(fen))
                    )
                );
            }
            assert!(lines.len() >= 2, "{lines:#?}");
            let (total, terms) = lines.split_last().unwrap();
            for line in terms {
                assert_eq!(classify(line), Ok(Kind::EvalTerm), "{line}");
            }
            let mut names: Vec<&str> = terms.iter().map(|l| l.split(' ').nth(2).unwrap()).collect();
            names.dedup();
            assert_eq!(names.len(), terms.len(), "one line per term");
            assert_eq!(classify(total), Ok(Kind::EvalTotal), "{total}");
            let words: Vec<&str> = total.split(' ').collect();
            let phase: i64 = words[2].parse().unwrap();
            assert!((0..=256).contains(&phase), "{total}");
            let score: i32 = words[5].parse().unwrap();
            assert_eq!(
                score,
                tuzdyk_search::eval::classic::evaluate(&pos(fen)),
                "{fen}"
            );
        }
    }
}

#[test]
fn d_draws_the_board_then_fen_and_key() {
    let mut engine = start_uci();
    for fen in [START, P1, P2] {
        let position = pos(fen);
        engine.send(&format!("position fen {fen}"));
        let lines = engine.command("d");
        let n = lines.len();
        assert!(n >= 4, "{lines:#?}");
        assert_eq!(lines[n - 2], format!("fen {fen}"));
        assert_eq!(lines[n - 1], format!("key {:016x}", position.key()));
        let diagram = &lines[..n - 2];
        // Black's row on top from hole 9 down to 1, White's below from 1 to 9.
        let cell = |side: Side, hole: usize| {
            if position.tuzdik(side.opponent()) == Some(hole as u8) {
                "X".to_string()
            } else {
                position.stones(side, hole).to_string()
            }
        };
        let black: Vec<String> = (0..9).rev().map(|h| cell(Side::Black, h)).collect();
        let white: Vec<String> = (0..9).map(|h| cell(Side::White, h)).collect();
        let row_at = |row: &[String], from: usize| {
            diagram.iter().skip(from).position(|line| {
                let words: Vec<&str> = line.split_whitespace().collect();
                words.len() >= 9 && words[..9] == *row
            })
        };
        let top = row_at(&black, 0).unwrap_or_else(|| panic!("no Black row {black:?}: {lines:#?}"));
        let below = row_at(&white, top + 1)
            .unwrap_or_else(|| panic!("no White row {white:?} below Black's: {lines:#?}"));
        assert_eq!(below, 0, "White's row right below Black's: {lines:#?}");
        // Each hole's number stands right over or under its count.
        let ends = |line: &str| -> Vec<usize> {
            let bytes = line.as_bytes();
            (0..bytes.len())
                .filter(|&i| bytes[i] != b' ' && bytes.get(i + 1).is_none_or(|&b| b == b' '))
                .collect()
        };
        let numbers: Vec<&String> = diagram
            .iter()
            .filter(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                words == ["9", "8", "7", "6", "5", "4", "3", "2", "1"]
                    || words == ["1", "2", "3", "4", "5", "6", "7", "8", "9"]
            })
            .collect();
        assert_eq!(numbers.len(), 2, "{lines:#?}");
        for row in [top, top + 1] {
            assert_eq!(ends(numbers[0]), ends(&diagram[row]), "{lines:#?}");
        }
        let has_tuzdik =
            position.tuzdik(Side::White).is_some() || position.tuzdik(Side::Black).is_some();
        assert_eq!(diagram.iter().any(|l| l.contains('X')), has_tuzdik);
        assert!(
            diagram
                .iter()
                .any(|l| l.contains(&position.kazan(Side::White).to_string())),
            "kazans shown"
        );
    }
}

#[test]
fn perft_3_from_the_start_is_613() {
    let mut engine = start_uci();
    let lines = engine.command("perft 3");
    assert_eq!(lines.len(), 10, "{lines:#?}");
    let mut sum = 0;
    for (i, line) in lines[..9].iter().enumerate() {
        assert_eq!(classify(line), Ok(Kind::PerftMove));
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(hole(words[0]), Some(i as u32 + 1));
        let start = play(&Position::startpos(), &[i as u32 + 1]);
        let leaves: u64 = words[1].parse().unwrap();
        assert_eq!(leaves, tuzdyk_rules::perft::perft(&start, 2));
        sum += leaves;
    }
    assert_eq!(sum, 613);
    assert_eq!(classify(&lines[9]), Ok(Kind::PerftTotal));
    assert!(
        lines[9].starts_with("depth 3 nodes 613 time "),
        "{}",
        lines[9]
    );
    // From a position with a tuzdik, through the library.
    engine.send(&format!("position fen {P2}"));
    let lines = engine.command("perft 4");
    assert!(
        lines.last().unwrap().starts_with("depth 4 nodes 216 "),
        "{lines:#?}"
    );
}

#[test]
fn end_of_input_lets_a_bounded_search_finish() {
    for (go, want_depth) in [("go depth 9", Some(9)), ("go nodes 30000", None)] {
        let mut engine = Engine::start();
        engine.send("uci");
        engine.send("position startpos moves 6");
        engine.send(go);
        engine.close_input();
        let lines = engine.rest_of_output();
        assert!(engine.wait_exit().success());
        let uciok = lines.iter().position(|l| l == "uciok").expect("uciok");
        let search = check_search(
            &lines[uciok + 1..],
            &play(&Position::startpos(), &[6]),
            Dialect::Uci,
        );
        if let Some(depth) = want_depth {
            assert_eq!(search.last_depth(), depth, "{lines:#?}");
        }
    }
}

#[test]
fn end_of_input_stops_an_infinite_or_ponder_search() {
    for go in ["go infinite", "go ponder wtime 1000 btime 1000", "go"] {
        let mut engine = Engine::start();
        engine.send("position startpos");
        engine.send(go);
        engine.close_input();
        let lines = engine.rest_of_output();
        assert!(engine.wait_exit().success());
        check_search(&lines, &Position::startpos(), Dialect::Uci);
    }
}

#[test]
fn commands_during_a_search_stop_it_first() {
    let mut engine = start_uci();
    let first = play(&Position::startpos(), &[6]);
    for (command, after) in [
        ("position startpos moves 6 4", Some(play(&first, &[4]))),
        ("setoption name Hash value 2", None),
        ("ucinewgame", None),
        ("setoption name MultiPV value 1", None),
        ("go depth 2", None),
    ] {
        engine.send("position startpos moves 6");
        engine.send("go infinite");
        let mut lines = engine.sync();
        engine.send(command);
        // The running search gives its move for the old position first.
        lines.extend(engine.read_until("bestmove", |l| l.starts_with("bestmove")));
        check_search(&lines, &first, Dialect::Uci);
        if command.starts_with("go") {
            let lines = engine.read_until("bestmove", |l| l.starts_with("bestmove"));
            check_search(&lines, &first, Dialect::Uci);
        }
        assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
        if let Some(after) = after {
            assert_eq!(engine.fen(), tfen::write(&after));
        }
    }
}

/// An info line without the fields that depend on the clock.
fn timeless(info: &Info) -> Info {
    Info {
        nps: 0,
        time: 0,
        ..info.clone()
    }
}

#[test]
fn one_thread_is_deterministic_after_ucinewgame() {
    let mut engine = start_uci();
    for (fen, go) in [
        (START, "go nodes 20000"),
        (P1, "go depth 7"),
        (P2, "go nodes 50000"),
    ] {
        engine.send(&format!("position fen {fen}"));
        let mut runs = Vec::new();
        for _ in 0..2 {
            engine.send("ucinewgame");
            let lines = engine.go(go);
            let search = check_search(&lines, &pos(fen), Dialect::Uci);
            let infos: Vec<_> = search.infos.iter().map(timeless).collect();
            runs.push((infos, lines.last().unwrap().clone()));
        }
        assert_eq!(runs[0], runs[1], "{fen} {go}");
    }
}

#[test]
fn bench_prints_thirty_positions_and_a_total() {
    let mut engine = start_uci();
    let lines = engine.command("bench 3");
    assert_eq!(lines.len(), 31, "{lines:#?}");
    let mut sum = 0u64;
    for (i, line) in lines[..30].iter().enumerate() {
        assert_eq!(classify(line), Ok(Kind::BenchPosition), "{line}");
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words[1], (i + 1).to_string());
        sum += words[3].parse::<u64>().unwrap();
    }
    assert_eq!(classify(&lines[30]), Ok(Kind::BenchTotal));
    assert_eq!(lines[30].split(' ').next().unwrap(), sum.to_string());
    // Everything but the times is the same from run to run.
    let timeless = |lines: &[String]| -> Vec<(String, String, String)> {
        lines[..30]
            .iter()
            .map(|l| {
                let w: Vec<&str> = l.split(' ').collect();
                (w[1].to_string(), w[3].to_string(), w[7].to_string())
            })
            .collect()
    };
    assert_eq!(
        timeless(&engine.command("bench 3")),
        timeless(&lines),
        "deterministic"
    );
}

/// Every line of a normal session (everything but `d`'s free-form diagram)
/// is one protocol.md defines.
#[test]
fn a_normal_session_prints_only_protocol_lines() {
    let mut engine = Engine::start();
    for line in [
        "uci",
        "debug on",
        "setoption name Hash value 8",
        "setoption name MultiPV value 2",
        "setoption name Ponder value true",
        "isready",
        "ucinewgame",
        "position startpos moves 6 4 7",
        "fen",
        "moves",
        "eval",
        "query gameover",
        "query p1turn",
        "query result",
        "perft 2",
    ] {
        engine.send(line);
    }
    engine.sync();
    engine.go("go depth 6");
    engine.go("go nodes 5000 searchmoves 1 2 9");
    engine.send("setoption name MultiPV value 1");
    engine.go("go wtime 300 btime 300 winc 10 binc 10");
    engine.send("go infinite");
    engine.sync();
    engine.send("stop");
    engine.read_until("bestmove", |l| l.starts_with("bestmove"));
    engine.send("go ponder wtime 300 btime 300");
    engine.sync();
    engine.send("ponderhit");
    engine.read_until("bestmove", |l| l.starts_with("bestmove"));
    engine.send(&format!("position fen {SOUTH_WON}"));
    engine.go("go depth 3");
    engine.command("moves");
    engine.send("ugi");
    engine.read_until("ugiok", |l| l == "ugiok");
    engine.send(&format!("position fen {P1}"));
    engine.go("go p1time 200 p2time 200");
    engine.command("query result");
    engine.command("bench 2");
    engine.command("flip");
    engine.command("setoption name Hash value 0");
    engine.send("quit");
    engine.rest_of_output();
    assert!(engine.wait_exit().success());
    let mut kinds = std::collections::HashSet::new();
    for line in &engine.transcript {
        let kind =
            classify(line).unwrap_or_else(|e| panic!("{e}\nsession: {:#?}", engine.transcript));
        kinds.insert(std::mem::discriminant(&kind));
    }
    assert!(
        kinds.len() >= 17,
        "the session exercised most kinds of line"
    );
}

#[test]
fn go_mate_ends_the_search_when_a_short_enough_win_is_found() {
    let mut engine = start_ugi();
    for (fen, moves) in [
        (WIN_NOW, 1),
        ("1S,3,1S,2,t,1/1,1S,1,1S,3,2S,1S 81 74 S 60", 3),
        ("1S,3,1S,2,t,1/1,1S,1,1S,3,2S,1S 81 74 S 60", 5),
    ] {
        engine.send(&format!("position fen {fen}"));
        let lines = engine.go(&format!("go mate {moves}"));
        let search = check_search(&lines, &pos(fen), Dialect::Ugi);
        let (kind, n) = search.infos.last().unwrap().score.clone();
        assert!(kind == "mate" && n > 0 && n <= moves, "{fen}: {lines:#?}");
    }
}

#[test]
fn several_threads_give_legal_moves() {
    let mut engine = start_uci();
    for threads in [2, 4] {
        engine.send(&format!("setoption name Threads value {threads}"));
        for fen in [START, P1, P2] {
            engine.send(&format!("position fen {fen}"));
            for go in ["go depth 7", "go nodes 20000", "go movetime 100"] {
                let lines = engine.go(go);
                let search = check_search(&lines, &pos(fen), Dialect::Uci);
                assert!(search.best.is_some());
                assert!(engine.sync().is_empty(), "one bestmove");
            }
        }
        engine.send(&format!("position fen {WIN_NOW}"));
        let lines = engine.go("go depth 6");
        assert_eq!(
            check_search(&lines, &pos(WIN_NOW), Dialect::Uci).best,
            Some(9)
        );
    }
}

#[test]
fn housekeeping_commands_print_nothing() {
    let mut engine = start_uci();
    engine.send("position startpos moves 6");
    for line in [
        "debug on",
        "debug off",
        "ucinewgame",
        "uginewgame",
        "stop",
        "ponderhit",
        "",
        "   ",
        "setoption name Clear Hash",
    ] {
        assert!(engine.command(line).is_empty(), "'{line}'");
    }
    // None of them moved the position.
    assert_eq!(
        engine.fen(),
        tfen::write(&play(&Position::startpos(), &[6]))
    );
}
