//! TFEN position strings and PlayOK game records: the examples and rules of
//! docs/rules.md, the 1,229 PlayOK games of `tests/data/playok-games.pgn`, and
//! records corrupted on purpose.

use tuzdyk_notation::record::{self, GameRecord, RecordError};
use tuzdyk_notation::tfen;
use tuzdyk_rules::{Game, GameEnd, GameResult, Move, Position, PositionParts, Side};

const GAMES_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/playok-games.pgn");

const START: &str = "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1";
const AFTER_6: &str = "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 1";
const P1: &str = "1S,1S,5S,7S,6S,18S,6S,1,t/1S,2S,20S,7S,19S,t,1S,2S,1 42 24 S 11";
const P2: &str = "1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 S 74";

fn games_text() -> String {
    std::fs::read_to_string(GAMES_FILE).expect("tests/data/playok-games.pgn")
}

/// The file split into the text of each game (every game starts with its
/// `[Event` tag).
fn game_texts(text: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("[Event ") || games.is_empty() {
            games.push(String::new());
        }
        let game = games.last_mut().unwrap();
        game.push_str(line);
        game.push('\n');
    }
    games
}

fn all_games() -> Vec<GameRecord> {
    record::parse_games(&games_text())
        .into_iter()
        .enumerate()
        .map(|(i, game)| game.unwrap_or_else(|e| panic!("game {} does not replay: {e}", i + 1)))
        .collect()
}

// ---------------------------------------------------------------- TFEN

#[test]
fn the_four_examples_parse_and_write_back_canonically() {
    for text in [START, AFTER_6, P1, P2] {
        let position = tfen::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(tfen::write(&position), text);
    }
    assert_eq!(tfen::STARTPOS, START);
    assert_eq!(tfen::parse(START).unwrap(), Position::startpos());
}

#[test]
fn the_examples_read_as_the_positions_they_describe() {
    // P1: North's row is written 9..1, so its last token (t) is North 1,
    // White's tuzdik; South 6 is Black's tuzdik.
    let p1 = tfen::parse(P1).unwrap();
    assert_eq!(p1.tuzdik(Side::White), Some(0));
    assert_eq!(p1.tuzdik(Side::Black), Some(5));
    assert_eq!(p1.stones(Side::Black, 8), 1, "North 9");
    assert_eq!(p1.stones(Side::Black, 3), 18, "North 4");
    assert_eq!(p1.stones(Side::Black, 1), 0, "North 2");
    assert_eq!(p1.stones(Side::White, 2), 20, "South 3");
    assert_eq!(p1.stones(Side::White, 8), 0, "South 9");
    assert_eq!((p1.kazan(Side::White), p1.kazan(Side::Black)), (42, 24));
    assert_eq!((p1.side_to_move(), p1.fullmove()), (Side::White, 11));
    // P2: runs of empty holes.
    let p2 = tfen::parse(P2).unwrap();
    assert_eq!(p2.tuzdik(Side::White), Some(0));
    assert_eq!(p2.tuzdik(Side::Black), Some(5));
    let south: Vec<u8> = (0..9).map(|h| p2.stones(Side::White, h)).collect();
    assert_eq!(south, [0, 0, 0, 2, 1, 0, 0, 0, 1]);
    let north: Vec<u8> = (0..9).rev().map(|h| p2.stones(Side::Black, h)).collect();
    assert_eq!(north, [1, 8, 1, 2, 1, 0, 0, 0, 0]);
}

#[test]
fn after_south_plays_6_is_the_start_plus_move_6() {
    let mut position = Position::startpos();
    position.play(Move::from_number(6).unwrap());
    assert_eq!(position, tfen::parse(AFTER_6).unwrap());
    assert_eq!(tfen::write(&position), AFTER_6);
}

#[test]
fn lenient_input_is_read_and_written_canonically() {
    // Lower-case s.
    let lower = "9s,9s,9s,9s,9s,9s,9s,9s,9s/9s,9s,9s,9s,9s,9s,9s,9s,9s 0 0 S 1";
    assert_eq!(tfen::write(&tfen::parse(lower).unwrap()), START);
    // No full-move number: 1.
    let short = "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S";
    assert_eq!(tfen::write(&tfen::parse(short).unwrap()), START);
    // Extra spaces, tabs and a trailing newline.
    let spaced = "  9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S \t 0   0  S  1 \n";
    assert_eq!(tfen::write(&tfen::parse(spaced).unwrap()), START);
    // Lower-case side and tuzdik, runs split in two.
    let loose = "1s,8S,1S,2S,1S,1,2,T/2,1,2S,1S,t,1,1,1S 77 68 s 74";
    assert_eq!(tfen::write(&tfen::parse(loose).unwrap()), P2);
    let north = "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 n 1";
    assert_eq!(tfen::write(&tfen::parse(north).unwrap()), AFTER_6);
}

/// Parses `text`, which must fail, and returns the error message.
fn rejected(text: &str) -> String {
    match tfen::parse(text) {
        Ok(position) => panic!("{text} was accepted as {position:?}"),
        Err(e) => e.to_string(),
    }
}

fn assert_mentions(message: &str, words: &[&str]) {
    for word in words {
        assert!(
            message.contains(word),
            "message '{message}' does not mention '{word}'"
        );
    }
}

#[test]
fn a_row_that_is_not_nine_holes_is_rejected() {
    // Eight holes in North's row (stones still total 162).
    let message = rejected("9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 9 0 S 1");
    assert_mentions(&message, &["North row", "8 holes", "not 9"]);
    // Ten holes in South's row, the last a run of one empty hole.
    let message = rejected("9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S,1 0 0 S 1");
    assert_mentions(&message, &["South row", "10 holes", "not 9"]);
    // A run that overshoots: 5S then a run of 9.
    let message = rejected("5S,9/9S,9S,9S,9S,9S,9S,9S,9S,9S 76 0 S 1");
    assert_mentions(&message, &["North row", "10 holes", "not 9"]);
    // Only one row.
    let message = rejected("9S,9S,9S,9S,9S,9S,9S,9S,9S 81 0 S 1");
    assert_mentions(&message, &["two rows", "'/'"]);
}

#[test]
fn an_unknown_token_is_rejected() {
    for (text, token, row) in [
        (
            "9S,9S,9S,9S,9S,9S,9S,9S,9X/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1",
            "9X",
            "North",
        ),
        (
            "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,0S,18S 0 0 S 1",
            "0S",
            "South",
        ),
        (
            "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,0,18S 0 0 S 1",
            "0",
            "South",
        ),
        (
            "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,S9 0 0 S 1",
            "S9",
            "South",
        ),
        (
            "9S,9S,9S,9S,9S,9S,9S,9S,,9S/9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1",
            "",
            "North",
        ),
        (
            "x,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 9 0 S 1",
            "x",
            "North",
        ),
    ] {
        let message = rejected(text);
        assert_mentions(&message, &["unknown token", &format!("'{token}'"), row]);
    }
}

#[test]
fn stones_plus_kazans_other_than_162_are_rejected() {
    let message = rejected("9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 1 0 S 1");
    assert_mentions(&message, &["163", "162"]);
    let message = rejected("9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,8S 0 0 S 1");
    assert_mentions(&message, &["161", "162"]);
    let message = rejected("9/9 80 81 N 1");
    assert_mentions(&message, &["161", "162"]);
}

#[test]
fn two_tuzdiks_owned_by_one_player_are_rejected() {
    // Both in North's row: both White's.
    let message = rejected("9S,9S,9S,t,t,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 18 0 S 1");
    assert_mentions(&message, &["two tuzdiks", "North row"]);
    let message = rejected("9S,9S,9S,9S,9S,9S,9S,9S,9S/t,9S,9S,9S,t,9S,9S,9S,9S 0 18 S 1");
    assert_mentions(&message, &["two tuzdiks", "South row"]);
}

#[test]
fn a_tuzdik_on_hole_9_is_rejected() {
    // North's hole 9 is the first token of its row: White's tuzdik.
    let message = rejected("t,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 9 0 S 1");
    assert_mentions(&message, &["White", "hole 9"]);
    // South's hole 9 is the last token of its row: Black's tuzdik.
    let message = rejected("9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,t 0 9 S 1");
    assert_mentions(&message, &["Black", "hole 9"]);
}

#[test]
fn two_tuzdiks_with_the_same_number_are_rejected() {
    // North 3 (White's) and South 3 (Black's).
    let message = rejected("9S,9S,9S,9S,9S,9S,t,9S,9S/9S,9S,t,9S,9S,9S,9S,9S,9S 9 9 S 1");
    assert_mentions(&message, &["both tuzdiks", "hole 3", "same number"]);
    // Different numbers are fine.
    assert!(tfen::parse("9S,9S,9S,9S,9S,9S,t,9S,9S/9S,9S,9S,t,9S,9S,9S,9S,9S 9 9 S 1").is_ok());
}

#[test]
fn a_side_other_than_s_or_n_is_rejected() {
    for side in ["W", "B", "x", "SN", "1"] {
        let message = rejected(&format!(
            "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 {side} 1"
        ));
        assert_mentions(&message, &["side to move", &format!("'{side}'"), "S or N"]);
    }
}

#[test]
fn other_malformed_fields_are_rejected() {
    assert_mentions(&rejected(""), &["empty"]);
    assert_mentions(&rejected("   "), &["empty"]);
    assert_mentions(
        &rejected("9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0"),
        &["fields", "found 3"],
    );
    assert_mentions(
        &rejected("9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1 x"),
        &["fields", "found 6"],
    );
    assert_mentions(
        &rejected("9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S -1 0 S 1"),
        &["South kazan", "'-1'"],
    );
    assert_mentions(
        &rejected("9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 x S 1"),
        &["North kazan", "'x'"],
    );
    assert_mentions(
        &rejected("9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 0"),
        &["full-move", "'0'"],
    );
}

#[test]
fn from_parts_rejects_a_tuzdik_holding_stones() {
    let mut parts: PositionParts = Position::startpos().parts();
    parts.tuzdiks = [Some(2), None];
    let error = Position::from_parts(parts).unwrap_err();
    assert_mentions(
        &error.to_string(),
        &["White", "hole 3", "9 stones", "empty"],
    );
}

#[test]
fn writing_then_reading_gives_back_every_position_of_every_game() {
    let mut checked = 0;
    for game in all_games() {
        for position in game.positions() {
            let text = tfen::write(&position);
            assert_eq!(tfen::parse(&text).unwrap(), position, "{text}");
            checked += 1;
        }
    }
    assert!(checked > 100_000, "only {checked} positions");
}

// ---------------------------------------------------------------- game records

#[test]
fn all_1229_playok_games_replay() {
    let results = record::parse_games(&games_text());
    assert_eq!(results.len(), 1229);
    let failures: Vec<String> = results
        .iter()
        .filter_map(|r| r.as_ref().err().map(RecordError::to_string))
        .collect();
    assert!(
        failures.is_empty(),
        "{} games failed: {failures:?}",
        failures.len()
    );
    // Every game starts from the start position and has moves.
    for game in results.iter().flatten() {
        assert_eq!(game.game.start(), &Position::startpos());
        assert!(!game.game.moves().is_empty());
        assert_eq!(game.tag("Site"), Some("PlayOK"));
    }
}

#[test]
fn exactly_239_games_run_to_a_natural_end_and_their_results_agree() {
    let games = all_games();
    let mut finished = 0;
    let mut by_end = [0usize; 2];
    for (i, game) in games.iter().enumerate() {
        let last = game.final_position();
        // No position before the last is finished.
        let positions = game.positions();
        assert_eq!(positions.len(), game.game.moves().len() + 1);
        assert_eq!(*positions.last().unwrap(), last);
        for p in &positions[..positions.len() - 1] {
            assert_eq!(p.game_over(), None, "game {} goes on after the end", i + 1);
        }
        if let Some((result, end)) = last.game_over() {
            finished += 1;
            by_end[(end == GameEnd::NoMoves) as usize] += 1;
            assert_eq!(game.result, Some(result), "game {}", i + 1);
            assert_eq!(
                game.tag("Result"),
                Some(record::result_text(Some(result))),
                "game {}",
                i + 1
            );
        }
    }
    assert_eq!(finished, 239);
    // Both ways of ending occur.
    assert!(by_end[0] > 0 && by_end[1] > 0, "{by_end:?}");
}

#[test]
fn every_game_writes_and_reads_back_the_same() {
    for (i, game) in all_games().iter().enumerate() {
        let written = game.to_string();
        let again = record::parse_game_text(&written)
            .unwrap_or_else(|e| panic!("game {} as written does not read: {e}\n{written}", i + 1));
        assert_eq!(again.game.moves(), game.game.moves(), "game {}", i + 1);
        assert_eq!(again.result, game.result, "game {}", i + 1);
        assert_eq!(&again, game, "game {}", i + 1);
        assert_eq!(
            again.to_string(),
            written,
            "game {} writes differently",
            i + 1
        );
        assert!(written.lines().all(|l| l.len() < 80), "game {}", i + 1);
    }
}

#[test]
fn the_written_move_tokens_are_the_ones_playok_wrote() {
    // The movetext of the first game, as PlayOK wrote it, token by token.
    let texts = game_texts(&games_text());
    let original = &texts[0];
    let game = record::parse_game_text(original).unwrap();
    let words = |text: &str| -> Vec<String> {
        let movetext = text
            .lines()
            .filter(|l| !l.starts_with('['))
            .collect::<Vec<_>>()
            .join(" ");
        movetext.split_whitespace().map(str::to_string).collect()
    };
    assert_eq!(words(&game.to_string()), words(original));
}

#[test]
fn a_game_from_another_start_position_round_trips_with_its_fen_tag() {
    let start = tfen::parse(P1).unwrap();
    let mut position = start;
    let mut moves = Vec::new();
    for _ in 0..6 {
        let m = position.legal_moves().next().unwrap();
        position.play(m);
        moves.push(m);
    }
    let game = GameRecord::new(Game::replay(start, moves).unwrap(), None);
    let written = game.to_string();
    assert!(written.contains(&format!("[FEN \"{P1}\"]")), "{written}");
    assert!(written.contains("11. "), "{written}");
    let again = record::parse_game_text(&written).unwrap();
    assert_eq!(again, game);
    assert_eq!(again.final_position(), position);
    // Starting with Black to move: `n...`.
    let mut black_start = start;
    black_start.play(Move::from_number(1).unwrap());
    let reply = black_start.legal_moves().next().unwrap();
    let game = GameRecord::new(Game::replay(black_start, [reply]).unwrap(), None);
    let written = game.to_string();
    assert!(written.contains(&format!("11... {reply}")), "{written}");
    assert_eq!(record::parse_game_text(&written).unwrap(), game);
}

// ---------------------------------------------------------------- corrupted records

/// The first game of the file (argenby vs sportt, 1-0), which begins
/// `1. 76(10) 87(2) 2. 99 91 3. 78 91(14) 4. 45(22) 77(16) 5. 58(26) 15(18) 6. 25X 27X`.
fn first_game() -> String {
    game_texts(&games_text())[0].clone()
}

/// Game 3 of the file, which runs to its end: White plays the last move
/// (68. 23), Black is left without a move and White wins 1-0.
fn finished_game() -> String {
    game_texts(&games_text())[2].clone()
}

/// Replaces the first occurrence of `from` (which must exist) in the movetext.
fn corrupt(game: &str, from: &str, to: &str) -> String {
    let (tags, moves) = game.split_at(game.find("\n\n").expect("tags then moves"));
    assert!(moves.contains(from), "'{from}' not in the game");
    format!("{tags}{}", moves.replacen(from, to, 1))
}

/// Reads a file of three games (the first game, `bad`, the first game again)
/// and returns the error of the second, after checking the others read.
fn error_in_middle(bad: &str) -> RecordError {
    let good = first_game();
    let text = format!("{good}\n{bad}\n{good}");
    let results = record::parse_games(&text);
    assert_eq!(results.len(), 3, "the three games are told apart");
    assert!(results[0].is_ok(), "{:?}", results[0]);
    assert!(
        results[2].is_ok(),
        "a bad game stopped the next one: {:?}",
        results[2]
    );
    let error = results[1]
        .clone()
        .expect_err("the corrupted game is rejected");
    assert_eq!(error.game, 2);
    let message = error.to_string();
    assert!(message.starts_with("game 2 "), "{message}");
    error
}

fn assert_error(error: &RecordError, at: Option<(u32, Side)>, words: &[&str]) {
    assert_eq!(error.at_move, at, "{error}");
    let message = error.to_string();
    if let Some((number, side)) = at {
        assert_mentions(&message, &[&format!("move {number} ({})", side.name())]);
    }
    assert_mentions(&error.problem.to_string(), words);
}

#[test]
fn the_uncorrupted_games_read() {
    assert!(record::parse_game_text(&first_game()).is_ok());
    let game = record::parse_game_text(&finished_game()).unwrap();
    assert_eq!(
        game.final_position().game_over(),
        Some((GameResult::Win(Side::White), GameEnd::NoMoves))
    );
    assert_eq!(game.comment.as_deref(), Some("zero"));
}

#[test]
fn an_error_names_the_game_and_its_players() {
    let error = error_in_middle(&corrupt(&first_game(), "1. 76(10)", "1. 75(10)"));
    assert_eq!(error.players.as_deref(), Some("argenby vs sportt"));
    assert_eq!(
        error.to_string(),
        "game 2 (argenby vs sportt), move 1 (White): '75(10)': the last stone lands in hole 6, not 5"
    );
}

#[test]
fn a_wrong_landing_hole_is_rejected() {
    let error = error_in_middle(&corrupt(&first_game(), "1. 76(10)", "1. 75(10)"));
    assert_error(
        &error,
        Some((1, Side::White)),
        &["'75(10)'", "lands in hole 6", "not 5"],
    );
    // Black's 2nd move 91: the last stone lands in North 1, not South 2.
    let error = error_in_middle(&corrupt(&first_game(), "2. 99 91", "2. 99 92"));
    assert_error(
        &error,
        Some((2, Side::Black)),
        &["'92'", "lands in hole 1", "not 2"],
    );
}

#[test]
fn a_missing_tuzdik_mark_is_rejected() {
    let error = error_in_middle(&corrupt(&first_game(), "6. 25X 27X", "6. 25 27X"));
    assert_error(
        &error,
        Some((6, Side::White)),
        &["'25'", "makes a tuzdik", "not marked X"],
    );
    let error = error_in_middle(&corrupt(&first_game(), "6. 25X 27X", "6. 25X 27"));
    assert_error(
        &error,
        Some((6, Side::Black)),
        &["'27'", "makes a tuzdik", "not marked X"],
    );
}

#[test]
fn an_extra_tuzdik_mark_is_rejected() {
    let error = error_in_middle(&corrupt(&first_game(), "2. 99 91", "2. 99X 91"));
    assert_error(
        &error,
        Some((2, Side::White)),
        &["'99X'", "marked X", "no tuzdik"],
    );
    // Lower-case x is read as the mark too.
    let error = error_in_middle(&corrupt(&first_game(), "2. 99 91", "2. 99 91x"));
    assert_error(
        &error,
        Some((2, Side::Black)),
        &["'91x'", "marked X", "no tuzdik"],
    );
}

#[test]
fn a_lower_case_tuzdik_mark_is_accepted() {
    let text = corrupt(&first_game(), "6. 25X 27X", "6. 25x 27x");
    let game = record::parse_game_text(&text).unwrap();
    assert_eq!(game, record::parse_game_text(&first_game()).unwrap());
}

#[test]
fn a_wrong_kazan_number_is_rejected() {
    let error = error_in_middle(&corrupt(&first_game(), "1. 76(10)", "1. 76(12)"));
    assert_error(
        &error,
        Some((1, Side::White)),
        &["'76(12)'", "kazan is 10", "not 12"],
    );
    let error = error_in_middle(&corrupt(
        &first_game(),
        "4. 45(22) 77(16)",
        "4. 45(22) 77(61)",
    ));
    assert_error(
        &error,
        Some((4, Side::Black)),
        &["'77(61)'", "kazan is 16", "not 61"],
    );
}

#[test]
fn a_missing_kazan_after_a_capture_is_rejected() {
    let error = error_in_middle(&corrupt(&first_game(), "87(2)", "87"));
    assert_error(
        &error,
        Some((1, Side::Black)),
        &["'87'", "captures 2", "kazan is not given"],
    );
}

#[test]
fn a_kazan_after_a_move_that_captures_nothing_is_rejected() {
    let error = error_in_middle(&corrupt(&first_game(), "2. 99 91", "2. 99(10) 91"));
    assert_error(
        &error,
        Some((2, Side::White)),
        &["'99(10)'", "captures nothing"],
    );
}

#[test]
fn a_move_from_an_empty_hole_is_rejected() {
    // Black's 87(2) took South 7, so South cannot play 7 on move 2.
    let error = error_in_middle(&corrupt(&first_game(), "2. 99 91", "2. 79 91"));
    assert_error(
        &error,
        Some((2, Side::White)),
        &["illegal move '79'", "hole 7 is empty"],
    );
}

#[test]
fn a_malformed_move_is_rejected() {
    let error = error_in_middle(&corrupt(&first_game(), "2. 99 91", "2. 9 91"));
    assert_error(&error, Some((2, Side::White)), &["malformed move '9'"]);
    let error = error_in_middle(&corrupt(&first_game(), "2. 99 91", "2. 09 91"));
    assert_error(&error, Some((2, Side::White)), &["malformed move '09'"]);
    let error = error_in_middle(&corrupt(&first_game(), "1. 76(10)", "1. 76(10"));
    assert_error(&error, Some((1, Side::White)), &["malformed move '76(10'"]);
}

#[test]
fn a_truncated_record_without_a_result_is_rejected() {
    let game = first_game();
    let cut = &game[..game.find(" 4. 45(22)").unwrap()];
    let error = error_in_middle(cut);
    assert_error(&error, Some((4, Side::White)), &["ends without a result"]);
    // At the end of a file as well.
    let results = record::parse_games(&format!("{}\n{cut}\n", first_game()));
    assert_eq!(results.len(), 2);
    assert!(results[0].is_ok());
    let error = results[1].clone().unwrap_err();
    assert_eq!(error.game, 2);
    assert_error(&error, Some((4, Side::White)), &["ends without a result"]);
}

#[test]
fn a_move_after_the_game_ended_is_rejected() {
    // Game 3 ends after 68. 23 with Black to move and no move left.
    let error = error_in_middle(&corrupt(&finished_game(), "68. 23 1-0", "68. 23 56 1-0"));
    assert_error(
        &error,
        Some((68, Side::Black)),
        &["illegal move '56'", "the game is over", "White won"],
    );
    // Game 4 ends when Black's kazan reaches 82, though White has stones.
    let texts = game_texts(&games_text());
    let game4 = record::parse_game_text(&texts[3]).unwrap();
    let last = game4.final_position();
    assert_eq!(
        last.game_over(),
        Some((GameResult::Win(Side::Black), GameEnd::KazanMajority))
    );
    let playable = last
        .movable_holes(Side::White)
        .next()
        .expect("White has stones");
    let (_, moves_end) = texts[3].split_at(texts[3].rfind("0-1").unwrap());
    let before_result = &texts[3][..texts[3].len() - moves_end.len()];
    let extended = format!("{before_result}{}1 {moves_end}", playable.number());
    let error = error_in_middle(&extended);
    assert_error(
        &error,
        Some((last.fullmove() as u32, Side::White)),
        &["the game is over", "Black won"],
    );
}

#[test]
fn a_wrong_result_for_a_finished_game_is_rejected() {
    for wrong in ["0-1", "1/2-1/2"] {
        let error = error_in_middle(&corrupt(
            &finished_game(),
            "68. 23 1-0",
            &format!("68. 23 {wrong}"),
        ));
        assert_error(
            &error,
            None,
            &["ended 1-0 on the board", &format!("record says {wrong}")],
        );
    }
    // An unfinished game may end in any recorded result (resignation, time),
    // as long as its Result tag says the same.
    let text = corrupt(&first_game(), "76. 56 1-0", "76. 56 0-1");
    let error = record::parse_game_text(&text).unwrap_err().to_string();
    assert!(error.contains("Result tag says '1-0'"), "{error}");
    let text = text.replacen("[Result \"1-0\"]", "[Result \"0-1\"]", 1);
    let game = record::parse_game_text(&text).unwrap();
    assert_eq!(game.final_position().game_over(), None);
    assert_eq!(game.result, Some(GameResult::Win(Side::Black)));
}

#[test]
fn an_out_of_sequence_move_number_is_rejected() {
    let error = error_in_middle(&corrupt(&first_game(), "2. 99 91", "3. 99 91"));
    assert_error(
        &error,
        Some((2, Side::White)),
        &["move number '3.'", "out of sequence", "expected 2."],
    );
    let error = error_in_middle(&corrupt(&first_game(), "2. 99 91", "2. 99 3... 91"));
    assert_error(
        &error,
        Some((2, Side::Black)),
        &["move number '3...'", "expected 2..."],
    );
    // Black's number style before White's move.
    let error = error_in_middle(&corrupt(&first_game(), "2. 99 91", "2... 99 91"));
    assert_error(
        &error,
        Some((2, Side::White)),
        &["move number '2...'", "expected 2."],
    );
}

#[test]
fn one_bad_game_does_not_stop_the_others_in_the_whole_file() {
    let text = games_text();
    let texts = game_texts(&text);
    assert_eq!(texts.len(), 1229);
    let mut corrupted = texts.clone();
    // Game 601 loses its first move, so every later landing is wrong.
    let first_move = texts[600]
        .split("1. ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    corrupted[600] = corrupt(&texts[600], &format!("1. {first_move} "), "1. ");
    let joined: String = corrupted.concat();
    let results = record::parse_games(&joined);
    assert_eq!(results.len(), 1229);
    let good = all_games();
    for (i, result) in results.iter().enumerate() {
        if i == 600 {
            let error = result.as_ref().unwrap_err();
            assert_eq!(error.game, 601);
            assert_eq!(error.at_move, Some((1, Side::White)));
        } else {
            assert_eq!(result.as_ref().unwrap(), &good[i], "game {}", i + 1);
        }
    }
}

#[test]
fn a_bad_fen_tag_is_rejected_with_the_tfen_problem() {
    let text = "[White \"a\"]\n[Black \"b\"]\n[FEN \"9/9 80 81 S 1\"]\n\n1. 11 *\n";
    let error = record::parse_game_text(text).unwrap_err();
    assert_eq!(error.game, 1);
    assert_eq!(error.at_move, None);
    assert_mentions(&error.to_string(), &["game 1 (a vs b)", "FEN tag", "161"]);
}

#[test]
fn tag_values_with_quotes_and_backslashes_round_trip() {
    let mut game = GameRecord::new(
        Game::replay(Position::startpos(), [Move::from_number(6).unwrap()]).unwrap(),
        None,
    );
    for value in [
        "a \"quoted\" name",
        "back\\slash",
        "ends with \\",
        "\\\"",
        "\"\\",
        "[bracket]",
    ] {
        game.set_tag("Event", value);
        let written = game.to_string();
        let again = record::parse_game_text(&written)
            .unwrap_or_else(|e| panic!("{value:?} does not read back: {e}\n{written}"));
        assert_eq!(again.tag("Event"), Some(value), "{written}");
        assert_eq!(again, game);
    }
}

#[test]
fn an_unfinished_game_reads_with_no_result() {
    let text = "[White \"a\"]\n[Black \"b\"]\n\n1. 65(10) 98 2. 11 *\n";
    let game = record::parse_game_text(text).unwrap();
    assert_eq!(game.result, None);
    assert_eq!(game.game.moves().len(), 3);
    assert_eq!(
        (game.tag("White"), game.tag("Black")),
        (Some("a"), Some("b"))
    );
}
