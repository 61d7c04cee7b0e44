//! Every rule of docs/rules.md, each shown on a small hand-built position.
//!
//! Positions are written as TFEN (`<North 9..1>/<South 1..9> <South kazan>
//! <North kazan> <side> <full-move>`); the stones not on the board are put in
//! the kazans so that every position holds 162. Each test states the exact
//! position after the move and what the move reported, both worked out by
//! hand from the rules, not taken from the engine.
//!
//! The last tests compare the engine with a plain array model of the rules,
//! written here from docs/rules.md alone, over many random games and positions.

use tuzdyk_notation::tfen;
use tuzdyk_rules::rng::SplitMix64;
use tuzdyk_rules::{
    BOARD_HOLES, GameEnd, GameResult, HOLES, Hole, Move, MoveOutcome, Position, PositionParts, Side,
};

fn pos(text: &str) -> Position {
    tfen::parse(text).unwrap_or_else(|e| panic!("bad test position {text}: {e}"))
}

fn mv(number: u32) -> Move {
    Move::from_number(number).expect("hole 1..9")
}

/// Plays hole `hole` of the side to move in `before`, checks that the
/// position after it reads back from its TFEN, and returns both.
fn play(before: &str, hole: u32) -> (Position, MoveOutcome) {
    let mut position = pos(before);
    assert!(
        position.is_legal(mv(hole)),
        "move {hole} should be legal in {before}"
    );
    let outcome = position.play(mv(hole));
    assert_eq!(
        position.key(),
        position.compute_key(),
        "incremental key after {hole} in {before}"
    );
    let total: u32 = position
        .parts()
        .holes
        .iter()
        .map(|&k| k as u32)
        .sum::<u32>()
        + position.kazan(Side::White) as u32
        + position.kazan(Side::Black) as u32;
    assert_eq!(total, 162, "stones lost or made by {hole} in {before}");
    (position, outcome)
}

fn outcome(landing: usize, captured: u8, tuzdik: bool, tuzdik_stones: [u8; 2]) -> MoveOutcome {
    MoveOutcome {
        landing,
        captured,
        tuzdik,
        tuzdik_stones,
    }
}

/// Asserts the TFEN after the move and the reported outcome.
fn check(before: &str, hole: u32, after: &str, expected: MoveOutcome) -> Position {
    let (position, got) = play(before, hole);
    assert_eq!(
        tfen::write(&position),
        after,
        "position after {hole} in {before}"
    );
    assert_eq!(got, expected, "outcome of {hole} in {before}");
    position
}

// ---------------------------------------------------------------- sowing

#[test]
fn first_stone_goes_back_into_the_emptied_hole() {
    // South hole 1 holds 3: one stays in hole 1, then holes 2 and 3.
    let after = check(
        "8,5S/3S,7,1S 80 73 S 1",
        1,
        "8,5S/1S,1S,1S,5,1S 80 73 N 1",
        outcome(2, 0, false, [0, 0]),
    );
    assert_eq!(after.stones(Side::White, 0), 1);
}

#[test]
fn two_stones_fill_the_emptied_hole_and_the_next() {
    // North hole 4 holds 2: one back into North 4, one into North 5.
    check(
        "5,2S,3/4,2S,4 78 80 N 3",
        4,
        "4,1S,1S,3/4,2S,4 78 80 S 4",
        outcome(13, 0, false, [0, 0]),
    );
}

#[test]
fn a_single_stone_moves_to_the_next_hole_and_leaves_its_hole_empty() {
    // South hole 4 holds 1: it goes to hole 5 and hole 4 is left empty.
    let after = check(
        "8,5S/3,1S,5 78 78 S 1",
        4,
        "8,5S/4,1S,4 78 78 N 1",
        outcome(4, 0, false, [0, 0]),
    );
    assert_eq!(after.stones(Side::White, 3), 0);
    assert_eq!(after.stones(Side::White, 4), 1);
}

#[test]
fn a_single_stone_from_hole_9_crosses_to_the_opponent_not_the_kazan() {
    // South hole 9 holds 1: it goes to North hole 1 (empty, so 1: odd,
    // nothing taken); the kazans are never sown into.
    let (after, got) = play("7,5S,1/3S,7,1S 80 73 S 1", 9);
    assert_eq!(tfen::write(&after), "7,5S,1S/3S,8 80 73 N 1");
    assert_eq!(got, outcome(9, 0, false, [0, 0]));
    assert_eq!(
        got.landing_hole(),
        Hole {
            side: Side::Black,
            number: 1
        }
    );
}

#[test]
fn twenty_stones_make_a_full_lap_and_pass_the_origin() {
    // 20 from South hole 1: stones 1..18 go to every hole once (the first
    // back into hole 1), stones 19 and 20 into South 1 and 2 again.
    check(
        "4S,8/20S,1S,2S,3S,5 66 66 S 1",
        1,
        "5S,1S,1S,1S,1S,1S,1S,1S,1S/2S,3S,3S,4S,1S,1S,1S,1S,1S 66 66 N 1",
        outcome(1, 0, false, [0, 0]),
    );
}

#[test]
fn thirty_seven_stones_make_two_laps_and_end_in_the_origin() {
    // 37 from South hole 5: two full laps (every hole +2), the 37th stone
    // lands in hole 5 again, making 3 there: own side, so nothing happens.
    let (after, got) = play("2S,8/1S,3,37S,4 60 62 S 1", 5);
    assert_eq!(
        tfen::write(&after),
        "4S,2S,2S,2S,2S,2S,2S,2S,2S/3S,2S,2S,2S,3S,2S,2S,2S,2S 60 62 N 1"
    );
    assert_eq!(got, outcome(4, 0, false, [0, 0]));
    assert_eq!(
        got.landing_hole(),
        Hole {
            side: Side::White,
            number: 5
        }
    );
    assert_eq!(after.tuzdik(Side::White), None);
}

#[test]
fn forty_stones_wrap_round_the_board_and_capture_on_the_far_side() {
    // 40 from North hole 7: two laps (+2 everywhere), then North 7, 8, 9 and
    // South 1. South 1 had 1, now 4: even, North takes it.
    check(
        "2,40S,4,1S,1/1S,1,5S,6 50 65 N 7",
        7,
        "3S,3S,3S,2S,2S,2S,2S,3S,2S/1,2S,7S,2S,2S,2S,2S,2S,2S 50 69 S 8",
        outcome(0, 4, false, [0, 0]),
    );
}

#[test]
fn laps_drop_one_stone_into_each_tuzdik_per_pass() {
    // 40 from South hole 1 with White's tuzdik on North 5 and Black's on
    // South 3: North 5 is passed twice (2 to White), South 3 three times
    // (the 37th..40th stones are South 1..4): 3 to Black.
    check(
        "10S,3,t,4/40S,1,t,6 56 56 S 15",
        1,
        "12S,2S,2S,2S,t,2S,2S,2S,2S/3S,3S,t,3S,2S,2S,2S,2S,2S 58 59 N 15",
        outcome(3, 0, false, [2, 3]),
    );
}

// ---------------------------------------------------------------- tuzdiks while sowing

#[test]
fn a_stone_sown_into_the_movers_own_tuzdik_goes_to_the_movers_kazan() {
    // White owns North 3. 6 from South 8: S8 S9 N1 N2 N3(tuzdik) N4. The
    // stone in N3 goes to White's kazan and still counts, so the last stone
    // is in N4 (4 -> 5, odd). N2 becomes 2 but is not where the last fell.
    let after = check(
        "5,4S,t,1S,1/7,6S,1 80 71 S 20",
        8,
        "5,5S,t,2S,1S/7,1S,1S 81 71 N 20",
        outcome(12, 0, false, [1, 0]),
    );
    assert_eq!(after.stones(Side::Black, 2), 0, "a tuzdik stays empty");
    assert_eq!(after.tuzdik(Side::White), Some(2));
}

#[test]
fn a_stone_sown_into_the_opponents_tuzdik_goes_to_the_opponents_kazan() {
    // Black owns South 2. 3 from South 1: S1, S2 (tuzdik: to Black's
    // kazan), S3.
    let after = check(
        "8,5S/3S,t,7 77 77 S 30",
        1,
        "8,5S/1S,t,1S,6 77 78 N 30",
        outcome(2, 0, false, [0, 1]),
    );
    assert_eq!(after.stones(Side::White, 1), 0, "a tuzdik stays empty");
}

#[test]
fn a_tuzdik_is_never_a_legal_move_for_its_sides_owner() {
    // Black owns South 2: South can play 1 and 3 but never 2.
    let position = pos("8,5S/3S,t,1S,6 77 76 S 30");
    let moves: Vec<u32> = position.legal_moves().map(Move::number).collect();
    assert_eq!(moves, vec![1, 3]);
    assert!(!position.is_legal(mv(2)));
}

// ---------------------------------------------------------------- tuzdik creation

#[test]
fn landing_on_three_makes_a_tuzdik_and_takes_the_three_stones() {
    // 5 from South 8: S8 S9 N1 N2 N3; N3 had 2, now 3. Black's tuzdik is on
    // South 4, a different number, so North 3 becomes White's tuzdik.
    let after = check(
        "6,2S,2/3,t,3,5S,1 77 78 S 40",
        8,
        "6,t,1S,1S/3,t,3,1S,1S 80 78 N 40",
        outcome(11, 0, true, [0, 0]),
    );
    assert_eq!(after.tuzdik(Side::White), Some(2));
    assert_eq!(after.tuzdik(Side::Black), Some(3));
    // North can no longer play its hole 3.
    let moves: Vec<u32> = after.legal_moves().map(Move::number).collect();
    assert_eq!(moves, vec![1, 2]);
}

#[test]
fn north_makes_a_tuzdik_on_south_side() {
    // 5 from North 6: N6 N7 N8 N9 S1. South 1 had 2, now 3, and North has
    // no tuzdik: South 1 becomes Black's and Black takes the 3 stones.
    let after = check(
        "3,5S,5/2S,7,1S 80 74 N 12",
        6,
        "1S,1S,1S,1S,5/t,7,1S 80 77 S 13",
        outcome(0, 0, true, [0, 0]),
    );
    assert_eq!(after.tuzdik(Side::Black), Some(0));
    // South 9 into North 1, then North 9's single stone falls into the new
    // tuzdik on South 1: it goes to Black's kazan.
    let after = check(
        "1S,1S,1S,1S,5/t,7,1S 80 77 S 13",
        9,
        "1S,1S,1S,1S,4,1S/t,8 80 77 N 13",
        outcome(9, 0, false, [0, 0]),
    );
    assert_eq!(after.game_over(), None);
    check(
        "1S,1S,1S,1S,4,1S/t,8 80 77 N 13",
        9,
        "1,1S,1S,1S,4,1S/t,8 80 78 S 14",
        outcome(0, 0, false, [0, 1]),
    );
}

#[test]
fn no_second_tuzdik_when_the_mover_already_owns_one() {
    // White owns North 2. 8 from South 7: S7 S8 S9 N1 N2(tuzdik) N3 N4 N5;
    // N5 had 2, now 3. White already has a tuzdik: the move stands, nothing
    // is made and nothing is taken (only the tuzdik stone reaches the kazan).
    let after = check(
        "4,2S,2,t,1S/6,8S,2 75 76 S 12",
        7,
        "4,3S,1S,1S,t,2S/6,1S,1S,1S 76 76 N 12",
        outcome(13, 0, false, [1, 0]),
    );
    assert_eq!(
        after.tuzdik(Side::White),
        Some(1),
        "the first tuzdik is kept"
    );
}

#[test]
fn no_tuzdik_on_the_opponents_hole_9() {
    // 10 from South 9: S9, then N1..N9; N9 had 2, now 3: hole 9 never
    // becomes a tuzdik, so nothing happens.
    let after = check(
        "2S,8/8,10S 75 75 S 1",
        9,
        "3S,1S,1S,1S,1S,1S,1S,1S,1S/8,1S 75 75 N 1",
        outcome(17, 0, false, [0, 0]),
    );
    assert_eq!(after.tuzdik(Side::White), None);
}

#[test]
fn no_tuzdik_on_the_opponents_hole_9_for_north_either() {
    // 10 from North 9: N9, then S1..S9; S9 had 2, now 3.
    let after = check(
        "10S,8/8,2S 75 75 N 1",
        9,
        "1S,8/1S,1S,1S,1S,1S,1S,1S,1S,3S 75 75 S 2",
        outcome(8, 0, false, [0, 0]),
    );
    assert_eq!(after.tuzdik(Side::Black), None);
}

#[test]
fn no_tuzdik_with_the_same_number_as_the_opponents() {
    // Black owns South 3; 5 from South 8 makes 3 on North 3. The same number
    // as Black's tuzdik: the move stands, nothing is made or taken.
    let after = check(
        "6,2S,2/2,t,4,5S,1 77 78 S 40",
        8,
        "6,3S,1S,1S/2,t,4,1S,1S 77 78 N 40",
        outcome(11, 0, false, [0, 0]),
    );
    assert_eq!(after.tuzdik(Side::White), None);
}

// ---------------------------------------------------------------- captures

#[test]
fn even_capture_of_two() {
    // 1 from South 9 into North 1, which had 1: 2, taken.
    check(
        "4,3S,3,1S/8,1S 78 79 S 5",
        9,
        "4,3S,4/9 80 79 N 5",
        outcome(9, 2, false, [0, 0]),
    );
}

#[test]
fn even_capture_of_four_by_north() {
    // 2 from North 9: N9, S1. South 1 had 3, now 4: North takes it.
    check(
        "2S,8/3S,3,2S,4 80 75 N 9",
        9,
        "1S,8/4,2S,4 80 79 S 10",
        outcome(0, 4, false, [0, 0]),
    );
}

#[test]
fn large_even_capture() {
    // 10 from South 1: S1..S9, N1. North 1 had 25, now 26: taken.
    check(
        "40S,7,25S/10S,8 44 43 S 3",
        1,
        "40S,8/1S,1S,1S,1S,1S,1S,1S,1S,1S 70 43 N 3",
        outcome(9, 26, false, [0, 0]),
    );
}

#[test]
fn odd_counts_other_than_three_are_not_captured() {
    // 1 from South 9 into North 1 holding 4: 5, odd, nothing happens.
    check(
        "8,4S/3S,7,1S 78 76 S 2",
        9,
        "8,5S/3S,8 78 76 N 2",
        outcome(9, 0, false, [0, 0]),
    );
    // Into North 1 holding 6: 7.
    check(
        "8,6S/3S,7,1S 76 76 S 2",
        9,
        "8,7S/3S,8 76 76 N 2",
        outcome(9, 0, false, [0, 0]),
    );
    // A large odd count: 10 from South 1 makes 25 on North 1.
    check(
        "40S,7,24S/10S,8 44 44 S 3",
        1,
        "40S,7,25S/1S,1S,1S,1S,1S,1S,1S,1S,1S 44 44 N 3",
        outcome(9, 0, false, [0, 0]),
    );
}

#[test]
fn an_even_count_on_the_movers_own_side_is_not_captured() {
    // 3 from South 1: S1 S2 S3; South 3 had 3, now 4 but it is South's own.
    check(
        "8,5S/3S,1,3S,6 77 74 S 1",
        1,
        "8,5S/1S,1S,4S,6 77 74 N 1",
        outcome(2, 0, false, [0, 0]),
    );
}

#[test]
fn landing_in_the_movers_tuzdik_captures_nothing() {
    // White owns North 3. 4 from South 9: S9 N1 N2 N3: the last stone falls
    // into the tuzdik and goes to White's kazan. North 1 (4) and North 2 (2)
    // are even but not the landing hole.
    let (after, got) = play("6,t,1S,3S/8,4S 77 77 S 50", 9);
    assert_eq!(tfen::write(&after), "6,t,2S,4S/8,1S 78 77 N 50");
    assert_eq!(got, outcome(11, 0, false, [1, 0]));
    assert_eq!(
        got.landing_hole(),
        Hole {
            side: Side::Black,
            number: 3
        }
    );
}

#[test]
fn landing_in_the_movers_tuzdik_after_a_lap_captures_nothing() {
    // 22 from South 9 with White's tuzdik on North 3: the 4th and the 22nd
    // stones fall into it (2 stones: even, but a tuzdik is never captured).
    check(
        "6,t,1,1S/8,22S 70 69 S 60",
        9,
        "1S,1S,1S,1S,1S,1S,t,2S,3S/1S,1S,1S,1S,1S,1S,1S,1S,2S 72 69 N 60",
        outcome(11, 0, false, [2, 0]),
    );
}

#[test]
fn landing_in_the_opponents_tuzdik_captures_nothing() {
    // Black owns South 2. 2 from South 1: S1, S2 (tuzdik, to Black).
    check(
        "8,5S/2S,t,7 77 78 S 30",
        1,
        "8,5S/1S,t,7 77 79 N 30",
        outcome(1, 0, false, [0, 1]),
    );
}

#[test]
fn a_capture_does_not_earn_a_second_move() {
    let (after, got) = play("40S,7,25S/10S,8 44 43 S 3", 1);
    assert!(got.captured > 0);
    assert_eq!(after.side_to_move(), Side::Black);
    let (after, got) = play("6,2S,2/3,t,3,5S,1 77 78 S 40", 8);
    assert!(got.tuzdik);
    assert_eq!(after.side_to_move(), Side::Black);
}

#[test]
fn the_full_move_number_rises_after_north_moves() {
    let mut position = Position::startpos();
    position.play(mv(1));
    assert_eq!(position.fullmove(), 1);
    assert_eq!(position.side_to_move(), Side::Black);
    position.play(mv(1));
    assert_eq!(position.fullmove(), 2);
    assert_eq!(position.side_to_move(), Side::White);
    assert_eq!(position.ply(), 2);
}

// ---------------------------------------------------------------- end of the game

#[test]
fn eighty_two_by_a_capture_wins_at_once() {
    // 1 from South 9 takes 2 on North 1: White's kazan reaches 82. North
    // still has stones, but the game is over.
    let after = check(
        "4,2S,3,1S/5S,7,1S 80 73 S 5",
        9,
        "4,2S,4/5S,8 82 73 N 5",
        outcome(9, 2, false, [0, 0]),
    );
    assert_eq!(
        after.game_over(),
        Some((GameResult::Win(Side::White), GameEnd::KazanMajority))
    );
    assert!(after.legal_moves().is_empty());
    assert_eq!(after.legal_moves().count(), 0);
    assert!(!after.is_legal(mv(5)));
    assert!(after.movable_holes(Side::Black).contains(mv(5)));
}

#[test]
fn eighty_two_by_a_stone_falling_into_the_movers_tuzdik_wins() {
    // White owns North 3 and has 81. 4 from South 9: S9 N1 N2 N3: the last
    // stone falls into the tuzdik: 82, no capture.
    let after = check(
        "4,3S,1,t,2/8,4S 81 74 S 60",
        9,
        "4,3S,1,t,1S,1S/8,1S 82 74 N 60",
        outcome(11, 0, false, [1, 0]),
    );
    assert_eq!(
        after.game_over(),
        Some((GameResult::Win(Side::White), GameEnd::KazanMajority))
    );
    assert!(after.legal_moves().is_empty());
}

#[test]
fn eighty_two_reached_by_the_opponents_tuzdik_during_my_move_loses() {
    // Black owns South 2 and has 81. South sows 3 from South 1 through it:
    // Black's kazan reaches 82 on South's own move.
    let after = check(
        "4,4S,4/3S,t,7 74 81 S 60",
        1,
        "4,4S,4/1S,t,1S,6 74 82 N 60",
        outcome(2, 0, false, [0, 1]),
    );
    assert_eq!(
        after.game_over(),
        Some((GameResult::Win(Side::Black), GameEnd::KazanMajority))
    );
    assert_eq!(after.result(), Some(GameResult::Win(Side::Black)));
    assert!(after.legal_moves().is_empty());
}

#[test]
fn eighty_one_is_not_a_win() {
    let position = pos("4,2S,3,1S/5S,7,1S 81 72 S 5");
    assert_eq!(position.game_over(), None);
    assert_eq!(position.legal_moves().count(), 2);
}

#[test]
fn no_move_sweep_after_a_capture_white_wins() {
    // South takes North's last 2 stones; North is to move with nothing:
    // South's 3 remaining stones go to South: 81 + 3 = 84 against 78.
    let after = check(
        "8,1S/3S,7,1S 79 78 S 40",
        9,
        "9/3S,8 81 78 N 40",
        outcome(9, 2, false, [0, 0]),
    );
    assert_eq!(
        after.game_over(),
        Some((GameResult::Win(Side::White), GameEnd::NoMoves))
    );
    assert_eq!(after.final_scores(), [84, 78]);
    assert!(after.legal_moves().is_empty());
}

#[test]
fn no_move_sweep_draw_81_81() {
    // As above, but the sweep makes 78 + 3 = 81 against 81.
    let after = check(
        "8,1S/3S,7,1S 76 81 S 40",
        9,
        "9/3S,8 78 81 N 40",
        outcome(9, 2, false, [0, 0]),
    );
    assert_eq!(after.final_scores(), [81, 81]);
    assert_eq!(
        after.game_over(),
        Some((GameResult::Draw, GameEnd::NoMoves))
    );
    assert_eq!(
        tuzdyk_notation::record::result_text(Some(GameResult::Draw)),
        "1/2-1/2"
    );
}

#[test]
fn no_move_sweep_black_wins_when_south_is_stuck() {
    // South to move with an empty row: North's 30 stones go to North.
    let position = pos("30S,8/9 80 52 S 40");
    assert_eq!(position.final_scores(), [80, 82]);
    assert_eq!(
        position.game_over(),
        Some((GameResult::Win(Side::Black), GameEnd::NoMoves))
    );
    assert!(position.legal_moves().is_empty());
    // The stuck side can at best draw.
    let position = pos("30S,8/9 81 51 S 40");
    assert_eq!(
        position.game_over(),
        Some((GameResult::Draw, GameEnd::NoMoves))
    );
}

#[test]
fn no_move_sweep_when_only_a_tuzdik_is_left() {
    // South's row is empty but for Black's tuzdik on South 4: South has no
    // move, and North's 20 stones go to North.
    let position = pos("20S,8/3,t,5 80 62 S 70");
    assert_eq!(
        position.game_over(),
        Some((GameResult::Win(Side::Black), GameEnd::NoMoves))
    );
    assert_eq!(position.final_scores(), [80, 82]);
}

#[test]
fn all_stones_in_kazans_81_81_is_a_draw() {
    for side in ["S", "N"] {
        let position = pos(&format!("9/9 81 81 {side} 50"));
        assert_eq!(position.result(), Some(GameResult::Draw));
        assert_eq!(position.final_scores(), [81, 81]);
        assert!(position.legal_moves().is_empty());
    }
}

#[test]
fn an_empty_side_while_the_other_is_to_move_does_not_end_the_game() {
    // South's row is empty but North is to move: the game goes on.
    let mut position = pos("4,5S,4/9 80 77 N 10");
    assert_eq!(position.game_over(), None);
    assert_eq!(position.result(), None);
    let moves: Vec<u32> = position.legal_moves().map(Move::number).collect();
    assert_eq!(moves, vec![5]);
    // North plays 5 (N5..N9, all its own side); now South is to move with
    // nothing, and the sweep gives North's 5 stones to North: 82 > 80.
    let got = position.play(mv(5));
    assert_eq!(got, outcome(17, 0, false, [0, 0]));
    assert_eq!(tfen::write(&position), "1S,1S,1S,1S,1S,4/9 80 77 S 11");
    assert_eq!(
        position.game_over(),
        Some((GameResult::Win(Side::Black), GameEnd::NoMoves))
    );
    assert_eq!(position.final_scores(), [80, 82]);
}

#[test]
fn the_start_position_is_not_over_and_has_nine_moves() {
    let position = Position::startpos();
    assert_eq!(position.game_over(), None);
    assert_eq!(position.legal_moves().count(), 9);
    assert_eq!(position.final_scores(), [81, 81]);
}

// ---------------------------------------------------------------- outcome helpers

#[test]
fn landing_hole_names_the_side_and_the_owners_number() {
    let at = |landing| outcome(landing, 0, false, [0, 0]).landing_hole();
    assert_eq!(
        at(0),
        Hole {
            side: Side::White,
            number: 1
        }
    );
    assert_eq!(
        at(8),
        Hole {
            side: Side::White,
            number: 9
        }
    );
    assert_eq!(
        at(9),
        Hole {
            side: Side::Black,
            number: 1
        }
    );
    assert_eq!(
        at(13),
        Hole {
            side: Side::Black,
            number: 5
        }
    );
    assert_eq!(
        at(17),
        Hole {
            side: Side::Black,
            number: 9
        }
    );
    // From a real move: South 6 at the start lands on North 5 (10: taken).
    let mut position = Position::startpos();
    let got = position.play(mv(6));
    assert_eq!(got.landing, 13);
    assert_eq!(
        got.landing_hole(),
        Hole {
            side: Side::Black,
            number: 5
        }
    );
    assert_eq!(got.captured, 10);
    // North 9 (9 stones) then lands on South 8.
    let got = position.play(mv(9));
    assert_eq!(
        got.landing_hole(),
        Hole {
            side: Side::White,
            number: 8
        }
    );
}

#[test]
fn preview_reports_the_move_and_leaves_the_position_unchanged() {
    for text in [
        tfen::STARTPOS,
        "2,40S,4,1S,1/1S,1,5S,6 50 65 N 7",
        "6,2S,2/3,t,3,5S,1 77 78 S 40",
        "10S,3,t,4/40S,1,t,6 56 56 S 15",
        "4,4S,4/3S,t,7 74 81 S 60",
    ] {
        let position = pos(text);
        for m in position.legal_moves() {
            let copy = position;
            let previewed = position.preview(m);
            assert_eq!(position, copy, "preview changed {text}");
            assert_eq!(tfen::write(&position), text);
            assert_eq!(position.key(), copy.key());
            let mut played = position;
            assert_eq!(played.play(m), previewed, "preview of {m} in {text}");
        }
    }
}

#[test]
fn legal_moves_are_empty_in_every_finished_position() {
    for text in [
        "4,2S,4/5S,8 82 73 N 5",
        "4,2S,4/5S,8 73 82 S 5",
        "9/3S,8 81 78 N 40",
        "30S,8/9 80 52 S 40",
        "9/9 81 81 S 50",
    ] {
        let position = pos(text);
        assert!(position.game_over().is_some(), "{text} should be over");
        assert!(position.legal_moves().is_empty(), "moves in {text}");
        for n in 1..=9 {
            assert!(!position.is_legal(mv(n)), "{n} legal in finished {text}");
        }
    }
}

#[test]
fn from_parts_builds_the_same_position_as_tfen() {
    let mut holes = [0u8; BOARD_HOLES];
    holes[0] = 3; // South 1
    holes[HOLES] = 5; // North 1
    holes[HOLES + 2] = 0; // North 3: White's tuzdik
    let built = Position::from_parts(PositionParts {
        holes,
        kazans: [80, 74],
        tuzdiks: [Some(2), None],
        side_to_move: Side::White,
        fullmove: 9,
    })
    .unwrap();
    assert_eq!(tfen::write(&built), "6,t,1,5S/3S,8 80 74 S 9");
    assert_eq!(built, pos("6,t,1,5S/3S,8 80 74 S 9"));
    assert_eq!(built.parts().holes, holes);
}

// ---------------------------------------------------------------- a plain model of the rules

/// The rules of docs/rules.md on plain arrays, as directly as they are written.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Model {
    holes: [u32; 18],
    kazans: [u32; 2],
    /// The board index (0..17) of each side's tuzdik.
    tuzdiks: [Option<usize>; 2],
    side: usize,
    fullmove: u32,
}

impl Model {
    fn from(position: &Position) -> Model {
        let parts = position.parts();
        Model {
            holes: parts.holes.map(u32::from),
            kazans: parts.kazans.map(u32::from),
            tuzdiks: [
                parts.tuzdiks[0].map(|h| HOLES + h as usize),
                parts.tuzdiks[1].map(|h| h as usize),
            ],
            side: parts.side_to_move.index(),
            fullmove: parts.fullmove as u32,
        }
    }

    fn tuzdik_owner(&self, index: usize) -> Option<usize> {
        (0..2).find(|&s| self.tuzdiks[s] == Some(index))
    }

    fn over(&self) -> bool {
        self.kazans.iter().any(|&k| k >= 82) || (0..9).all(|h| self.holes[self.side * 9 + h] == 0)
    }

    fn moves(&self) -> Vec<u32> {
        if self.over() {
            return Vec::new();
        }
        (0..9)
            .filter(|&h| self.holes[self.side * 9 + h] > 0)
            .map(|h| h as u32 + 1)
            .collect()
    }

    fn result(&self) -> Option<GameResult> {
        for s in 0..2 {
            if self.kazans[s] >= 82 {
                return Some(GameResult::Win(Side::BOTH[s]));
            }
        }
        if !self.over() {
            return None;
        }
        let score = |s: usize| self.kazans[s] + (0..9).map(|h| self.holes[s * 9 + h]).sum::<u32>();
        Some(match score(0).cmp(&score(1)) {
            std::cmp::Ordering::Greater => GameResult::Win(Side::White),
            std::cmp::Ordering::Less => GameResult::Win(Side::Black),
            std::cmp::Ordering::Equal => GameResult::Draw,
        })
    }

    /// Plays hole `number` (1..9); returns the landing index, the stones
    /// captured, whether a tuzdik was made, and the tuzdik stones per kazan.
    fn play(&mut self, number: u32) -> MoveOutcome {
        let us = self.side;
        let them = 1 - us;
        let origin = us * 9 + number as usize - 1;
        let n = self.holes[origin];
        assert!(n > 0);
        self.holes[origin] = 0;
        let mut fallen = [0u8; 2];
        let mut at = (if n == 1 { origin + 1 } else { origin }) % 18;
        let mut last = at;
        for _ in 0..n {
            match self.tuzdik_owner(at) {
                Some(owner) => {
                    self.kazans[owner] += 1;
                    fallen[owner] += 1;
                }
                None => self.holes[at] += 1,
            }
            last = at;
            at = (at + 1) % 18;
        }
        let mut captured = 0u8;
        let mut made = false;
        if last / 9 == them && self.tuzdik_owner(last).is_none() {
            let count = self.holes[last];
            if count.is_multiple_of(2) {
                captured = count as u8;
                self.kazans[us] += count;
                self.holes[last] = 0;
            } else if count == 3 {
                let hole = last % 9;
                let allowed = self.tuzdiks[us].is_none()
                    && hole != 8
                    && self.tuzdiks[them].map(|t| t % 9) != Some(hole);
                if allowed {
                    made = true;
                    self.tuzdiks[us] = Some(last);
                    self.kazans[us] += 3;
                    self.holes[last] = 0;
                }
            }
        }
        self.side = them;
        if us == 1 {
            self.fullmove += 1;
        }
        MoveOutcome {
            landing: last,
            captured,
            tuzdik: made,
            tuzdik_stones: fallen,
        }
    }
}

/// Plays random legal moves from `start` to the end (or `max_plies`),
/// checking every move, every position and every result against the model.
fn compare_game(start: Position, rng: &mut SplitMix64, max_plies: usize) -> usize {
    let mut position = start;
    let mut model = Model::from(&position);
    for ply in 0..max_plies {
        let moves: Vec<u32> = position.legal_moves().map(Move::number).collect();
        assert_eq!(
            moves,
            model.moves(),
            "legal moves at ply {ply} of {position:?}"
        );
        assert_eq!(position.result(), model.result(), "result of {position:?}");
        if moves.is_empty() {
            return ply;
        }
        let number = *rng.pick(&moves);
        let before = position;
        let got = position.play(mv(number));
        let expected = model.play(number);
        assert_eq!(got, expected, "outcome of {number} in {before:?}");
        assert_eq!(
            Model::from(&position),
            model,
            "after {number} in {before:?}"
        );
        assert_eq!(
            position.key(),
            position.compute_key(),
            "key after {number} in {before:?}"
        );
    }
    max_plies
}

#[test]
fn random_games_from_the_start_follow_the_plain_model() {
    let mut rng = SplitMix64::new(0x9E37_79B9_7F4A_7C15);
    let mut plies = 0;
    let mut finished = 0;
    for _ in 0..1500 {
        let played = compare_game(Position::startpos(), &mut rng, 1000);
        plies += played;
        finished += (played < 1000) as usize;
    }
    assert_eq!(finished, 1500, "every random game ends");
    assert!(plies > 100_000, "only {plies} plies compared");
}

/// A random valid position: random tuzdiks, kazans below 82 and the rest
/// of the 162 stones piled unevenly on the other holes (so that long laps
/// of 20 to 100+ stones occur).
fn random_position(rng: &mut SplitMix64) -> Position {
    loop {
        let mut tuzdiks = [None, None];
        for t in tuzdiks.iter_mut() {
            if rng.below(3) > 0 {
                *t = Some(rng.below(8) as u8);
            }
        }
        if let [Some(a), Some(b)] = tuzdiks
            && a == b
        {
            continue;
        }
        let kazans = [rng.below(82) as u8, rng.below(82) as u8];
        let mut holes = [0u8; BOARD_HOLES];
        let is_tuzdik = |i: usize| {
            (i >= HOLES && tuzdiks[0] == Some((i - HOLES) as u8))
                || (i < HOLES && tuzdiks[1] == Some(i as u8))
        };
        let mut rest = 162 - kazans[0] as u32 - kazans[1] as u32;
        let piles = 1 + rng.below(18);
        let targets: Vec<usize> = (0..piles)
            .map(|_| rng.below(18))
            .filter(|&i| !is_tuzdik(i))
            .collect();
        if targets.is_empty() {
            continue;
        }
        while rest > 0 {
            let chunk = (1 + rng.below(12) as u32).min(rest);
            holes[*rng.pick(&targets)] += chunk as u8;
            rest -= chunk;
        }
        let side = Side::BOTH[rng.below(2)];
        return Position::from_parts(PositionParts {
            holes,
            kazans,
            tuzdiks,
            side_to_move: side,
            fullmove: 1 + rng.below(100) as u16,
        })
        .expect("a valid random position");
    }
}

#[test]
fn random_positions_with_long_laps_follow_the_plain_model() {
    let mut rng = SplitMix64::new(0xD1B5_4A32_D192_ED03);
    let mut long_laps = 0;
    for _ in 0..4000 {
        let start = random_position(&mut rng);
        for m in start.legal_moves() {
            if start.stones(start.side_to_move(), m.index()) >= 20 {
                long_laps += 1;
            }
            let mut position = start;
            let mut model = Model::from(&start);
            assert_eq!(position.play(m), model.play(m.number()), "{m} in {start:?}");
            assert_eq!(Model::from(&position), model, "after {m} in {start:?}");
            assert_eq!(position.result(), model.result());
        }
        compare_game(start, &mut rng, 40);
    }
    assert!(long_laps > 1000, "only {long_laps} long laps tried");
}

#[test]
fn the_plain_model_gives_the_published_perft_counts() {
    // Shows that the model used above is the rules of docs/rules.md.
    fn count(model: &Model, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        model
            .moves()
            .into_iter()
            .map(|m| {
                let mut child = model.clone();
                child.play(m);
                count(&child, depth - 1)
            })
            .sum()
    }
    let start = Model::from(&Position::startpos());
    assert_eq!(
        (1..=5).map(|d| count(&start, d)).collect::<Vec<_>>(),
        vec![9, 73, 613, 5199, 43184]
    );
    let p2 = Model::from(&pos("1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 S 74"));
    assert_eq!(
        (1..=7).map(|d| count(&p2, d)).collect::<Vec<_>>(),
        vec![3, 15, 48, 216, 849, 3546, 15657]
    );
}
