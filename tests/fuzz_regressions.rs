//! The fuzzers' findings and a little fuzzing on every `cargo test`.
//!
//! - Every file of `fuzz/corpus/<target>/` (the minimised corpora the
//!   cargo-fuzz targets built) and of `fuzz/artifacts/<target>/` (crashes,
//!   if any are kept) is run through the very checks the fuzz targets run
//!   (`fuzz/src/checks.rs`, compiled in here): no panic, round trips hold,
//!   a protocol session answers every command as protocol.md says.
//! - proptest feeds the three readers (protocol lines, TFEN, game records)
//!   arbitrary strings and randomly edited real inputs, and runs a few
//!   short sessions of random protocol lines.

#[path = "../fuzz/src/checks.rs"]
mod checks;

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use tuzdyk_notation::record::{self, GameRecord};
use tuzdyk_notation::tfen;
use tuzdyk_rules::{Game, Position};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// The files of `fuzz/corpus/<target>` and `fuzz/artifacts/<target>`.
fn inputs(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for dir in ["corpus", "artifacts"] {
        let Ok(entries) = std::fs::read_dir(fuzz_dir().join(dir).join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("a readable directory entry").path();
            if path.is_file() {
                let data = std::fs::read(&path).expect("a readable corpus file");
                files.push((path, data));
            }
        }
    }
    files.sort();
    files
}

/// Runs every stored input of `target` through `check`, naming the file
/// that fails.
fn replay(target: &str, check: fn(&[u8]), at_least: usize) {
    let files = inputs(target);
    assert!(
        files.len() >= at_least,
        "fuzz/corpus/{target} has {} files, expected at least {at_least}",
        files.len()
    );
    for (path, data) in files {
        let result = std::panic::catch_unwind(|| check(&data));
        if let Err(panic) = result {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("{} fails: {message}", path.display());
        }
    }
}

#[test]
fn command_corpus_passes() {
    replay("command", checks::command, 50);
}

#[test]
fn tfen_corpus_passes() {
    replay("tfen", checks::tfen, 50);
}

#[test]
fn record_corpus_passes() {
    replay("record", checks::record, 50);
}

#[test]
fn session_corpus_passes() {
    replay("session", checks::session, 10);
}

#[test]
fn every_playok_game_round_trips_through_display() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/playok-games.pgn"
    ))
    .expect("the PlayOK games");
    let games = record::parse_games(&text);
    assert_eq!(games.len(), 1229);
    for game in games {
        checks::check_game(&game.expect("every PlayOK game reads"));
    }
}

/// A `Result` tag that contradicts the result at the end of the moves is
/// rejected with an error naming both (the fuzzer found it accepted, and
/// then written back with a different tag).
#[test]
fn a_result_tag_that_contradicts_the_moves_is_rejected() {
    let text = "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. 65(10) 98 *\n";
    let games = record::parse_games(text);
    let error = games[0].as_ref().unwrap_err().to_string();
    assert!(error.contains("'1-0'") && error.contains("'*'"), "{error}");
}

// ---------------------------------------------------------------------
// proptest: arbitrary and mutated inputs.

const TFENS: &[&str] = &[
    tfen::STARTPOS,
    "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 1",
    "1S,1S,5S,7S,6S,18S,6S,1,t/1S,2S,20S,7S,19S,t,1S,2S,1 42 24 S 11",
    "1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 S 74",
    "4,3S,3,1S/1S,7,1S 80 76 S 60",
    "1S,8/9 82 79 N 30",
    "5S,8/9 80 77 S 40",
    "9/9 81 81 S 50",
    "1S,8S,1S,2S,1S,1,2,T/1,1,1,2S,1S,t,2,1S 77 68 n 74",
];

const LINES: &[&str] = &[
    "uci",
    "ugi",
    "isready",
    "ucinewgame",
    "debug on",
    "stop",
    "ponderhit",
    "d",
    "fen",
    "moves",
    "eval",
    "perft 2",
    "query gameover",
    "query result",
    "position startpos",
    "position startpos moves 6 4 7 3",
    "position fen 1S,1S,5S,7S,6S,18S,6S,1,t/1S,2S,20S,7S,19S,t,1S,2S,1 42 24 S 11 moves 1 2",
    "position fen 1S,8/9 82 79 N 30",
    "go depth 2",
    "go nodes 300",
    "go movetime 2",
    "go wtime 20 btime 20 winc 1 binc 1 movestogo 3",
    "go p1time 20 p2time 20",
    "go infinite",
    "go ponder",
    "go mate 2 depth 3",
    "go searchmoves 1 5 9 depth 2",
    "setoption name Hash value 1",
    "setoption name Threads value 2",
    "setoption name MultiPV value 3",
    "setoption name Level value beginner",
    "setoption name Clear Hash",
    "setoption name Ponder value true",
];

/// Real game records from the PlayOK file, every 25th game.
fn real_records() -> &'static [String] {
    static RECORDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    RECORDS.get_or_init(|| {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/playok-games.pgn"
        ))
        .expect("the PlayOK games");
        let mut games: Vec<String> = text
            .split("\n\n[")
            .enumerate()
            .map(|(i, chunk)| {
                if i == 0 {
                    chunk.to_string()
                } else {
                    format!("[{chunk}")
                }
            })
            .step_by(25)
            .collect();
        // A record from a FEN position, Black first, with a comment.
        let full = record::parse_games(&games[3])
            .remove(0)
            .expect("a real game");
        let start: Position = full.positions()[11];
        let game = Game::replay(start, full.game.moves()[11..31].to_vec()).expect("legal moves");
        let mut from_fen = GameRecord::new(game, None);
        from_fen.comment = Some("zero".to_string());
        games.push(from_fen.to_string());
        games
    })
}

/// Characters the mutations insert: the notations' own, and a few others.
const ALPHABET: &[char] = &[
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'S', 's', 'N', 'n', 't', 'T', 'X', 'x', ',',
    '/', ' ', '\t', '\n', '\r', '(', ')', '[', ']', '"', '\\', '{', '}', '.', '-', '*', '+', 'é',
    '\u{2028}', '\u{0}',
];

/// One random edit of a string.
#[derive(Clone, Debug)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, char),
    Replace(usize, char),
    /// Copies a slice of the text somewhere else.
    Duplicate(usize, usize, usize),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let any_char = prop_oneof![
        4 => prop::sample::select(ALPHABET),
        1 => any::<char>(),
    ];
    prop_oneof![
        (any::<usize>(), 1usize..8).prop_map(|(at, n)| Edit::Delete(at, n)),
        (any::<usize>(), any_char.clone()).prop_map(|(at, c)| Edit::Insert(at, c)),
        (any::<usize>(), any_char).prop_map(|(at, c)| Edit::Replace(at, c)),
        (any::<usize>(), 1usize..20, any::<usize>())
            .prop_map(|(from, n, to)| Edit::Duplicate(from, n, to)),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let len = chars.len();
        let at = |i: usize| if len == 0 { 0 } else { i % (len + 1) };
        match *edit {
            Edit::Delete(i, n) => {
                let start = at(i).min(len);
                chars.drain(start..(start + n).min(len));
            }
            Edit::Insert(i, c) => chars.insert(at(i), c),
            Edit::Replace(i, c) if len > 0 => chars[i % len] = c,
            Edit::Replace(_, c) => chars.push(c),
            Edit::Duplicate(from, n, to) if len > 0 => {
                let start = from % len;
                let slice: Vec<char> = chars[start..(start + n).min(len)].to_vec();
                let to = at(to);
                chars.splice(to..to, slice);
            }
            Edit::Duplicate(..) => {}
            Edit::Truncate(i) => chars.truncate(at(i)),
        }
    }
    chars.into_iter().collect()
}

fn mutated(seeds: &'static [&'static str]) -> impl Strategy<Value = String> {
    (
        prop::sample::select(seeds),
        prop::collection::vec(edit(), 1..6),
    )
        .prop_map(|(seed, edits)| apply(seed, &edits))
}

/// A string built from the notation's tokens, so that some are valid.
fn tfen_like() -> impl Strategy<Value = String> {
    let cell = prop_oneof![
        (1u32..30).prop_map(|k| format!("{k}S")),
        (1u32..10).prop_map(|d| d.to_string()),
        Just("t".to_string()),
    ];
    let row = prop::collection::vec(cell, 1..10).prop_map(|cells| cells.join(","));
    (
        row.clone(),
        row,
        0u32..170,
        0u32..170,
        prop::sample::select(&["S", "N", "s", "x"][..]),
        0u32..200,
    )
        .prop_map(|(north, south, k1, k2, side, full)| {
            format!("{north}/{south} {k1} {k2} {side} {full}")
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_lines_parse_without_panicking(line in any::<String>()) {
        checks::command(line.as_bytes());
    }

    #[test]
    fn arbitrary_bytes_parse_as_lines_without_panicking(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        checks::command(&bytes);
    }

    #[test]
    fn edited_protocol_lines_parse_without_panicking(line in mutated(LINES)) {
        checks::command(line.as_bytes());
    }

    #[test]
    fn arbitrary_tfen_strings_are_rejected_or_round_trip(text in any::<String>()) {
        checks::tfen(text.as_bytes());
    }

    #[test]
    fn edited_tfen_strings_are_rejected_or_round_trip(text in mutated(TFENS)) {
        checks::tfen(text.as_bytes());
    }

    #[test]
    fn tfen_like_strings_are_rejected_or_round_trip(text in tfen_like()) {
        checks::tfen(text.as_bytes());
    }

    #[test]
    fn arbitrary_record_text_is_rejected_or_round_trips(text in any::<String>()) {
        checks::record(text.as_bytes());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn edited_game_records_are_rejected_or_round_trip(
        index in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        let records = real_records();
        let text = apply(&records[index.index(records.len())], &edits);
        checks::record(text.as_bytes());
    }

    #[test]
    fn spliced_game_records_are_rejected_or_round_trip(
        a in any::<prop::sample::Index>(),
        b in any::<prop::sample::Index>(),
        cut_a in any::<prop::sample::Index>(),
        cut_b in any::<prop::sample::Index>(),
    ) {
        // The head of one game glued to the tail of another.
        let records = real_records();
        let (a, b) = (&records[a.index(records.len())], &records[b.index(records.len())]);
        let head: String = a.chars().take(cut_a.index(a.len() + 1)).collect();
        let tail: String = b.chars().skip(cut_b.index(b.len() + 1)).collect();
        checks::record(format!("{head}{tail}").as_bytes());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn short_sessions_of_random_lines_answer_every_command(
        lines in prop::collection::vec(
            prop_oneof![
                6 => prop::sample::select(LINES).prop_map(str::to_string),
                2 => mutated(LINES),
                1 => "[a-z ]{0,12}",
            ],
            1..12,
        ),
    ) {
        checks::session(lines.join("\n").as_bytes());
    }
}
