//! `tuzdyk play` with a script piped in: a full game to its end, hint,
//! preview, undo, resign, new, bad input and end of input. The engine plays
//! at the beginner level with a tiny depth, so games are quick; no test looks
//! at the time taken.

mod common;

use std::process::Output;

use tuzdyk_notation::record::{self, GameRecord};
use tuzdyk_rules::{GameResult, Side};

/// Runs `tuzdyk play <args>` with `script` on stdin.
fn play(args: &[&str], script: &str) -> Output {
    let args: Vec<&str> = ["play"].iter().chain(args).copied().collect();
    common::run_tuzdyk_with_input(&args, script)
}

/// A quick engine: beginner level, two plies.
const QUICK: [&str; 4] = ["--level", "beginner", "--depth", "2"];

fn quick(extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = QUICK.iter().map(|s| s.to_string()).collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn run(extra: &[&str], script: &str) -> (Output, String) {
    let args = quick(extra);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = play(&args, script);
    let text = String::from_utf8(output.stdout.clone()).expect("UTF-8 output");
    (output, text)
}

/// The game records printed after "The game record (PlayOK notation):".
fn printed_records(text: &str) -> Vec<GameRecord> {
    let mut records = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("The game record (PlayOK notation):\n") {
        let after = &rest[start..];
        let body = &after[after.find('\n').unwrap() + 1..];
        let end = ["\nRecord appended to ", "\nType new for another game"]
            .iter()
            .filter_map(|marker| body.find(marker))
            .min()
            .expect("the record is followed by the next step");
        let games = record::parse_games(&body[..end]);
        assert_eq!(games.len(), 1, "one record: {}", &body[..end]);
        records.push(
            games
                .into_iter()
                .next()
                .unwrap()
                .expect("the record replays"),
        );
        rest = &body[end..];
    }
    records
}

/// The first board's stone rows (top, bottom) after `marker`.
fn board_rows_after<'a>(text: &'a str, marker: &str) -> (Vec<&'a str>, Vec<&'a str>) {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("no '{marker}' in {text}"));
    let lines: Vec<&str> = text[at..].lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim_start().starts_with("9   8   7"))
        .expect("a board follows");
    (
        lines[start + 1].split_whitespace().collect(),
        lines[start + 2].split_whitespace().collect(),
    )
}

#[test]
fn a_scripted_game_is_played_to_its_end() {
    // The person tries holes 1, 2, ..., 9, 1, ... in turn: empty ones are
    // refused and the next line is tried, so every turn ends in a move.
    let mut script = String::new();
    for i in 0..9 * 600 {
        script.push_str(&format!("{}\n", i % 9 + 1));
    }
    script.push_str("quit\n");
    let pgn = common::scratch_file("play_tool", "full.pgn");
    let _ = std::fs::remove_file(&pgn);
    let (output, text) = run(&["--pgn", pgn.to_str().unwrap()], &script);
    assert!(output.status.success());
    assert!(text.contains("Game over: "), "the game ends");
    assert!(text.contains("Final score: White "), "the score is shown");
    let records = printed_records(&text);
    assert_eq!(records.len(), 1);
    let game = &records[0];
    assert_eq!(game.tag("White"), Some("You"));
    assert_eq!(game.tag("Black"), Some("tuzdyk (beginner)"));
    // The game ended by the rules: the record's result is the board's.
    let end = game.final_position();
    let result = end.result().expect("the final position is a finished game");
    assert_eq!(game.result, Some(result));
    let headline = match result {
        GameResult::Win(Side::White) => "You win!",
        GameResult::Win(Side::Black) => "tuzdyk wins.",
        GameResult::Draw => "A draw.",
    };
    assert!(text.contains(headline), "{headline}");
    assert!(text.contains(&format!("Game over: {}", record::result_text(Some(result)))));
    // Every move of the record was announced.
    let announced = text.matches("You play ").count() + text.matches("tuzdyk plays ").count();
    assert_eq!(announced, game.game.moves().len());
    // After the end, moves are refused politely.
    assert!(text.contains("The game is over: type new for another game"));
    // The same record went to the --pgn file.
    let written = std::fs::read_to_string(&pgn).unwrap();
    let from_file: Vec<GameRecord> = record::parse_games(&written)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(from_file, records);
}

#[test]
fn the_person_can_play_black() {
    let (output, text) = run(&["--side", "black"], "9\nquit\n");
    assert!(output.status.success());
    let engine_first = text.find("tuzdyk plays ").expect("the engine moves first");
    let person = text.find("You play 9").expect("then the person");
    assert!(engine_first < person);
    assert!(text.contains("You (Black)") && text.contains("tuzdyk (White, beginner)"));
    assert!(text.contains("Game abandoned."));
}

#[test]
fn without_options_the_person_plays_white_against_the_beginner() {
    let output = play(&["--depth", "2"], "quit\n");
    let text = String::from_utf8(output.stdout).expect("UTF-8 output");
    assert!(output.status.success());
    assert!(
        text.starts_with("New game: you play White against tuzdyk at level beginner."),
        "{text}"
    );
}

#[test]
fn hint_names_a_legal_move_and_what_it_wins() {
    let (output, text) = run(&[], "hint\nquit\n");
    assert!(output.status.success());
    let line = text
        .lines()
        .find(|l| l.starts_with("Hint: play "))
        .unwrap_or_else(|| panic!("no hint in {text}"));
    let hole: u32 = line["Hint: play ".len()..]
        .split(';')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=9).contains(&hole), "{line}");
    assert!(
        line.contains("stones for you") || line.contains("by force"),
        "{line}"
    );
    assert!(line.contains("the last stone lands in"), "{line}");
    assert!(!text.contains("You play"), "a hint plays nothing");
}

#[test]
fn preview_shows_the_landing_and_the_capture_without_playing() {
    let (output, text) = run(&[], "? 6\npreview 9\n?7\nquit\n");
    assert!(output.status.success());
    assert!(
        text.contains(
            "Preview of 6: sows 9, the last stone lands in tuzdyk's hole 5 (10 stones): even: captures 10; your kazan 0 -> 10. (Not played.)"
        ),
        "{text}"
    );
    assert!(text.contains("Preview of 9: sows 9, the last stone lands in tuzdyk's hole 8"));
    assert!(text.contains("Preview of 7: "));
    assert!(!text.contains("You play"), "a preview plays nothing");
}

#[test]
fn undo_takes_back_the_move_and_the_reply() {
    let (output, text) = run(&[], "undo\n6\nundo\nundo\nquit\n");
    assert!(output.status.success());
    let first = text
        .find("Nothing to undo")
        .expect("nothing to undo at first");
    let moved = text.find("You play 6").unwrap();
    let reply = text.find("tuzdyk plays ").unwrap();
    let undone = text.find("Took back 2 moves.").expect("undo");
    assert!(first < moved && moved < reply && reply < undone);
    // The board after the undo is the start again.
    let (top, bottom) = board_rows_after(&text, "Took back 2 moves.");
    assert_eq!(top, ["9"; 9]);
    assert_eq!(bottom, ["9"; 9]);
    assert_eq!(text.matches("Nothing to undo").count(), 2);
}

#[test]
fn resigning_ends_the_game_with_a_record() {
    let (output, text) = run(&[], "6\nresign\nresign\nquit\n");
    assert!(output.status.success());
    assert!(text.contains("Game over: 0-1 (you resigned). tuzdyk wins."));
    assert!(text.contains("Final score: White 10, Black "));
    assert!(text.contains("The game is already over."));
    let records = printed_records(&text);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].result, Some(GameResult::Win(Side::Black)));
    assert_eq!(records[0].game.moves().len(), 2);
    assert_eq!(records[0].comment.as_deref(), Some("White resigns"));

    let (_, text) = run(&["--side", "black"], "resign\n");
    assert!(text.contains("Game over: 1-0 (you resigned)."));
}

#[test]
fn undo_after_the_end_resumes_and_new_starts_again() {
    let (output, text) = run(&[], "6\nresign\nundo\n5\nresign\nnew\nquit\n");
    assert!(output.status.success());
    assert_eq!(text.matches("Game over: 0-1").count(), 2);
    assert!(text.contains("You play 5"));
    let records = printed_records(&text);
    assert_eq!(records.len(), 2);
    assert_eq!(records[1].game.moves()[0].to_string(), "5");
    assert_eq!(text.matches("New game: ").count(), 2);
}

#[test]
fn bad_input_is_explained_and_the_prompt_comes_back() {
    let script = "\n0\n10\n-3\nabc\n1 2\n? \n?0\n";
    let (output, text) = run(
        &["--fen", "1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 S 74"],
        script,
    );
    assert!(output.status.success());
    for expected in [
        "There is no hole 0: your holes are 1 to 9.",
        "There is no hole 10: your holes are 1 to 9.",
        "There is no hole -3: your holes are 1 to 9.",
        "Unknown command 'abc'. Type a hole number 1-9, or help.",
        "One move at a time: type a single hole number.",
        "Which hole? For example: ? 5",
    ] {
        assert!(text.contains(expected), "'{expected}' in {text}");
    }
    // In this position White's hole 1 is empty and hole 6 is Black's tuzdik.
    let (_, text) = run(
        &["--fen", "1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 S 74"],
        "1\n6\n? 6\n",
    );
    assert!(text.contains("Hole 1 is empty: choose a hole with stones."));
    assert!(text.contains("Hole 6 is tuzdyk's tuzdik: it stays empty and cannot be played."));
    assert!(!text.contains("You play"));
    // Every line read got a prompt: 3 lines, 4 prompts (the last meets the end).
    assert_eq!(text.matches("to play (you)> ").count(), 4);
}

#[test]
fn help_lists_the_commands() {
    let (output, text) = run(&[], "help\n");
    assert!(output.status.success());
    for command in ["hint", "undo", "resign", "new", "quit", "preview"] {
        assert!(text.contains(command), "{command}");
    }
}

#[test]
fn end_of_input_ends_cleanly_with_the_game_so_far() {
    let (output, text) = run(&[], "6\n");
    assert!(output.status.success());
    assert!(text.contains("End of input: the game is left unfinished."));
    let at = text.find("Its record so far:").unwrap();
    let games = record::parse_games(&text[at + "Its record so far:".len()..]);
    let game = games[0].as_ref().expect("the partial record replays");
    assert_eq!(game.result, None);
    assert_eq!(game.game.moves().len(), 2);

    let (output, text) = run(&[], "");
    assert!(output.status.success());
    assert!(
        !text.contains("End of input"),
        "nothing to say with no moves"
    );
}

#[test]
fn a_game_from_a_position_ends_by_the_rules() {
    // White has 77 and plays the last stones; whatever happens the game ends soon.
    let mut script = String::new();
    for _ in 0..60 {
        for hole in 1..=9 {
            script.push_str(&format!("{hole}\n"));
        }
    }
    let (output, text) = run(
        &["--fen", "1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 S 74"],
        &script,
    );
    assert!(output.status.success());
    let records = printed_records(&text);
    assert_eq!(records.len(), 1, "{text}");
    let game = &records[0];
    assert!(game.tag("FEN").is_some());
    assert_eq!(game.result, game.final_position().result());
    assert!(game.result.is_some());
}

#[test]
fn bad_options_are_refused() {
    let (output, _) = run(&["--fen", "9S/9S 0 0 S 1"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("invalid --fen"));
    let output = play(&["--level", "sultan"], "");
    assert_eq!(output.status.code(), Some(2));
    let output = play(&["--side", "north"], "");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn input_is_quoted_without_its_control_characters() {
    let (output, text) = run(&[], "\u{1b}[31mred\n5\u{1b}[0m\nquit\n");
    assert!(output.status.success());
    assert!(
        !text.contains('\u{1b}'),
        "an escape sequence got through: {text:?}"
    );
    assert!(text.contains("Unknown command '?[31mred'."), "{text}");
    assert!(
        text.contains("'5?[0m' is not a hole number (1 to 9)."),
        "{text}"
    );
}

#[test]
fn a_huge_line_is_measured_not_echoed() {
    let huge = "x".repeat(1 << 20);
    let (output, text) = run(&[], &format!("{huge}\nquit\n"));
    assert!(output.status.success());
    assert!(
        text.contains(&format!("That line is {} bytes long", 1 << 20)),
        "{}",
        &text[..text.len().min(2000)]
    );
    assert!(text.len() < 10_000, "{} bytes of output", text.len());
}

#[test]
fn the_record_file_is_made_only_when_a_game_ends() {
    let pgn = common::scratch_file("play_tool", "made-at-the-end.pgn");
    let _ = std::fs::remove_file(&pgn);
    let path = pgn.to_str().expect("a UTF-8 scratch path");
    let (output, _) = run(&["--pgn", path], "6\nquit\n");
    assert!(output.status.success());
    assert!(!pgn.exists(), "no game ended, yet {path} was made");
    let (output, _) = run(&["--pgn", path], "resign\nquit\n");
    assert!(output.status.success());
    let written = std::fs::read_to_string(&pgn).expect("the record was written");
    assert_eq!(record::parse_games(&written).len(), 1, "{written}");
}
