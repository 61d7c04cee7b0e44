//! Differential tests: the engine's board against the plain reference
//! implementation in `tests/reference`, move by move over thousands of
//! random games, and perft against perft.

mod reference;

use reference::{RefPosition, engine_end, engine_result};
use tuzdyk_notation::tfen;
use tuzdyk_rules::perft::perft;
use tuzdyk_rules::rng::SplitMix64;
use tuzdyk_rules::{BOARD_HOLES, Move, Position, PositionParts, Side};

/// Games from the start position and from random positions. Fewer in debug
/// builds; `cargo test --release` runs them all.
const START_GAMES: u64 = if cfg!(debug_assertions) { 300 } else { 10_000 };
const RANDOM_POSITION_GAMES: u64 = if cfg!(debug_assertions) { 100 } else { 5_000 };

/// Describes where a check failed; only called when it did.
type Context<'a> = &'a dyn Fn() -> String;

/// Checks that the engine and the reference agree on everything about one
/// position that does not involve playing a move.
fn check_position(pos: &Position, rp: &RefPosition, context: Context) {
    let parts = pos.parts();
    assert_eq!(parts, rp.to_parts(), "parts differ: {}", context());
    assert_eq!(
        RefPosition::from_parts(&parts),
        *rp,
        "from_parts: {}",
        context()
    );

    let engine_moves: Vec<usize> = pos.legal_moves().map(Move::index).collect();
    assert_eq!(engine_moves, rp.legal_moves(), "legal moves: {}", context());
    assert_eq!(
        pos.legal_moves().count() as u64,
        rp.legal_count(),
        "legal move count: {}",
        context()
    );
    for hole in 0..9 {
        assert_eq!(
            pos.is_legal(Move::from_index(hole)),
            rp.is_legal(hole),
            "is_legal({}): {}",
            hole + 1,
            context()
        );
    }

    let expected = rp
        .game_over()
        .map(|(result, end)| (engine_result(result), engine_end(end)));
    assert_eq!(pos.game_over(), expected, "game_over: {}", context());
    assert_eq!(
        pos.result(),
        expected.map(|(result, _)| result),
        "result: {}",
        context()
    );
    assert_eq!(
        pos.final_scores(),
        rp.final_scores(),
        "scores: {}",
        context()
    );
    for (player, side) in Side::BOTH.into_iter().enumerate() {
        assert_eq!(
            pos.stones_on_side(side),
            rp.stones_on_side(player),
            "stones on {side:?}'s side: {}",
            context()
        );
        assert_eq!(pos.kazan(side), rp.kazans[player], "kazan: {}", context());
    }

    // count_replies is perft(2) without building children: compare it with
    // the children built both ways.
    let mut engine_sum = 0u64;
    let mut reference_sum = 0u64;
    for mv in pos.legal_moves() {
        let mut child = *pos;
        child.play(mv);
        engine_sum += child.legal_moves().count() as u64;
        let mut ref_child = *rp;
        ref_child.play(mv.index());
        reference_sum += ref_child.legal_count();
    }
    assert_eq!(
        engine_sum,
        reference_sum,
        "replies by children: {}",
        context()
    );
    assert_eq!(
        pos.count_replies(),
        engine_sum,
        "count_replies: {}",
        context()
    );
}

/// Plays one move on both and checks the outcomes and the results.
fn play_both(pos: &mut Position, rp: &mut RefPosition, hole: usize, context: Context) {
    let mv = Move::from_index(hole);
    let preview = pos.preview(mv);
    let outcome = pos.play(mv);
    let expected = rp.play(hole);
    let context = || format!("{} playing {}", context(), hole + 1);
    assert_eq!(preview, outcome, "preview differs from play: {}", context());
    assert_eq!(outcome.landing, expected.landing, "landing: {}", context());
    assert_eq!(
        outcome.captured,
        expected.captured,
        "captured: {}",
        context()
    );
    assert_eq!(outcome.tuzdik, expected.tuzdik, "tuzdik: {}", context());
    assert_eq!(
        outcome.tuzdik_stones,
        expected.tuzdik_stones,
        "tuzdik stones: {}",
        context()
    );
}

/// How the moves of a game are chosen.
#[derive(Clone, Copy, Debug)]
enum Policy {
    /// Any legal move, uniformly.
    Uniform,
    /// Mostly the move that wins the most stones at once (per the
    /// reference), which reaches captures, tuzdiks and 82 more often.
    Greedy,
}

fn choose(rp: &RefPosition, policy: Policy, rng: &mut SplitMix64) -> usize {
    let moves = rp.legal_moves();
    let random = *rng.pick(&moves);
    match policy {
        Policy::Uniform => random,
        Policy::Greedy if rng.below(4) == 0 => random,
        Policy::Greedy => {
            let gain = |hole: usize| {
                let mut child = *rp;
                child.play(hole);
                child.kazans[rp.side] as i32 - child.kazans[1 - rp.side] as i32
            };
            let best = moves.iter().map(|&h| gain(h)).max().unwrap_or(0);
            let best_moves: Vec<usize> = moves.into_iter().filter(|&h| gain(h) == best).collect();
            *rng.pick(&best_moves)
        }
    }
}

/// A random valid position: random kazans, tuzdiks and stones piled
/// unevenly (some holes far above 18, so sowing laps the board).
fn random_position(rng: &mut SplitMix64) -> Position {
    let mut tuzdiks: [Option<u8>; 2] = [None, None];
    for tuzdik in &mut tuzdiks {
        if rng.below(2) == 0 {
            *tuzdik = Some(rng.below(8) as u8);
        }
    }
    if tuzdiks[0].is_some() && tuzdiks[0] == tuzdiks[1] {
        tuzdiks[1] = None;
    }
    let white_kazan = rng.below(81) as u8;
    let black_kazan = rng.below(81) as u8;
    let mut rest = 162 - white_kazan as u32 - black_kazan as u32;

    // Holes that may receive stones: not a tuzdik, and a random subset.
    let is_tuzdik = |index: usize| {
        let side = index / 9;
        tuzdiks[1 - side] == Some((index % 9) as u8)
    };
    let mut open: Vec<usize> = (0..BOARD_HOLES)
        .filter(|&i| !is_tuzdik(i) && rng.below(10) < 7)
        .collect();
    if open.is_empty() {
        open.push(if is_tuzdik(8) { 17 } else { 8 });
    }
    let mut holes = [0u8; BOARD_HOLES];
    while rest > 0 {
        let chunk = 1 + rng.below(rest.min(40) as usize) as u32;
        let index = *rng.pick(&open);
        holes[index] += chunk as u8;
        rest -= chunk;
    }
    let parts = PositionParts {
        holes,
        kazans: [white_kazan, black_kazan],
        tuzdiks,
        side_to_move: if rng.below(2) == 0 {
            Side::White
        } else {
            Side::Black
        },
        fullmove: 1 + rng.below(60) as u16,
    };
    Position::from_parts(parts).unwrap_or_else(|e| panic!("{parts:?} rejected: {e}"))
}

/// Plays one random game on both boards, checking every position and move.
/// Returns the positions seen (for perft comparisons) and the number of plies.
fn differential_game(start: Position, seed: u64, policy: Policy) -> (Vec<Position>, usize) {
    let mut rng = SplitMix64::new(seed);
    let mut pos = start;
    let mut rp = RefPosition::from_parts(&start.parts());
    let mut seen = vec![pos];
    let mut moves = Vec::new();
    loop {
        let before = pos;
        let context =
            || format!("seed {seed} {policy:?}, moves {moves:?} from {start:?}, at {before:?}");
        check_position(&pos, &rp, &context);
        if rp.game_over().is_some() {
            break;
        }
        let hole = choose(&rp, policy, &mut rng);
        play_both(&mut pos, &mut rp, hole, &context);
        moves.push(hole + 1);
        seen.push(pos);
    }
    (seen, moves.len())
}

#[test]
fn random_games_from_the_start_agree_with_the_reference() {
    let mut plies = 0;
    let mut finished_by_kazan = 0;
    let mut tuzdiks = 0;
    for game in 0..START_GAMES {
        let policy = if game % 2 == 0 {
            Policy::Uniform
        } else {
            Policy::Greedy
        };
        let (seen, n) = differential_game(Position::startpos(), 0x5EED_0000 + game, policy);
        plies += n;
        let last = seen.last().expect("at least the start");
        assert!(last.game_over().is_some(), "game {game} stopped early");
        if last.kazan(Side::White) >= 82 || last.kazan(Side::Black) >= 82 {
            finished_by_kazan += 1;
        }
        tuzdiks += Side::BOTH
            .into_iter()
            .filter(|&s| last.tuzdik(s).is_some())
            .count();
    }
    // The games must have exercised the interesting rules.
    assert!(plies > START_GAMES as usize * 50, "only {plies} plies");
    assert!(finished_by_kazan > 0 && finished_by_kazan < START_GAMES);
    assert!(tuzdiks > START_GAMES as usize / 2, "only {tuzdiks} tuzdiks");
}

#[test]
fn random_games_from_random_positions_agree_with_the_reference() {
    let mut rng = SplitMix64::new(0xD1FF_E4E7);
    let mut plies = 0;
    for game in 0..RANDOM_POSITION_GAMES {
        let start = random_position(&mut rng);
        let policy = if game % 3 == 0 {
            Policy::Greedy
        } else {
            Policy::Uniform
        };
        let (_, n) = differential_game(start, rng.next_u64(), policy);
        plies += n;
    }
    assert!(
        plies > RANDOM_POSITION_GAMES as usize * 10,
        "only {plies} plies"
    );
}

/// A position with these stones (board index, count), the rest of the 162
/// split between the kazans.
fn position(stones: &[(usize, u8)], tuzdiks: [Option<u8>; 2], side: Side) -> Position {
    let mut holes = [0u8; BOARD_HOLES];
    for &(index, count) in stones {
        holes[index] = count;
    }
    let rest = 162 - holes.iter().map(|&n| n as u32).sum::<u32>();
    let parts = PositionParts {
        holes,
        kazans: [(rest / 2) as u8, (rest - rest / 2) as u8],
        tuzdiks,
        side_to_move: side,
        fullmove: 20,
    };
    Position::from_parts(parts).unwrap_or_else(|e| panic!("{parts:?} rejected: {e}"))
}

#[test]
fn hand_made_corner_cases_agree_with_the_reference_and_the_rules() {
    use Side::{Black, White};
    // (what, position, move 1..9, landing 0..17, captured, tuzdik made, tuzdik stones)
    let cases = [
        (
            "one stone from White's 9 crosses to Black's 1 and makes 2",
            position(&[(0, 5), (8, 1), (9, 1), (12, 4)], [None, None], White),
            9,
            9,
            2,
            false,
            [0, 0],
        ),
        (
            "one stone from Black's 9 wraps to White's 1 and makes 3: a tuzdik",
            position(&[(0, 2), (5, 4), (17, 1), (12, 4)], [None, None], Black),
            9,
            0,
            0,
            true,
            [0, 0],
        ),
        (
            "3 on White's 1, but White owns Black's 1: no tuzdik",
            position(&[(0, 2), (5, 4), (17, 1), (12, 4)], [Some(0), None], Black),
            9,
            0,
            0,
            false,
            [0, 0],
        ),
        (
            "3 on the opponent's hole 9: no tuzdik",
            position(&[(8, 10), (17, 2), (3, 6)], [None, None], White),
            9,
            17,
            0,
            false,
            [0, 0],
        ),
        (
            "one stone into Black's tuzdik on White's 4 goes to Black",
            position(&[(2, 1), (7, 5), (15, 6)], [None, Some(3)], White),
            3,
            3,
            0,
            false,
            [0, 1],
        ),
        (
            "40 stones lap twice through both tuzdiks",
            position(&[(0, 40), (14, 7)], [Some(4), Some(1)], White),
            1,
            3,
            0,
            false,
            [2, 3],
        ),
        (
            "20 stones lap once and make 6 on Black's 1",
            position(&[(8, 20), (9, 4), (2, 3)], [None, None], White),
            9,
            9,
            6,
            false,
            [0, 0],
        ),
        (
            "the last stone falls into the mover's own tuzdik",
            position(&[(8, 3), (9, 4), (2, 3)], [Some(1), None], White),
            9,
            10,
            0,
            false,
            [1, 0],
        ),
        (
            "3 on the opponent's side when the mover already has a tuzdik",
            position(&[(8, 2), (9, 2), (2, 3)], [Some(4), None], White),
            9,
            9,
            0,
            false,
            [0, 0],
        ),
        (
            "120 stones lap six times and make 8 on Black's 3",
            position(&[(0, 120), (11, 1)], [None, None], White),
            1,
            11,
            8,
            false,
            [0, 0],
        ),
    ];
    for (what, start, number, landing, captured, tuzdik, tuzdik_stones) in cases {
        let rp = RefPosition::from_parts(&start.parts());
        check_position(&start, &rp, &|| what.to_string());
        let hole = number - 1;
        let mut ref_child = rp;
        let expected = ref_child.play(hole);
        assert_eq!(
            (
                expected.landing,
                expected.captured,
                expected.tuzdik,
                expected.tuzdik_stones
            ),
            (landing, captured, tuzdik, tuzdik_stones),
            "reference: {what}"
        );
        for hole in rp.legal_moves() {
            let mut pos = start;
            let mut child = rp;
            let context = || format!("{what}: {start:?}");
            play_both(&mut pos, &mut child, hole, &context);
            check_position(&pos, &child, &|| {
                format!("{} after {}", context(), hole + 1)
            });
        }
    }
}

#[test]
fn reference_perft_matches_the_published_numbers() {
    let start = RefPosition::start();
    let expected = [9, 73, 613, 5199, 43184, 360035];
    for (depth, &nodes) in (1..).zip(expected.iter()) {
        assert_eq!(start.perft(depth), nodes, "start depth {depth}");
    }
    let split: Vec<u64> = start
        .legal_moves()
        .into_iter()
        .map(|hole| {
            let mut child = start;
            child.play(hole);
            child.perft(5)
        })
        .collect();
    assert_eq!(
        split,
        [
            47832, 41850, 41052, 40210, 39389, 38541, 37704, 36893, 36564
        ]
    );

    let p1 = "1S,1S,5S,7S,6S,18S,6S,1,t/1S,2S,20S,7S,19S,t,1S,2S,1 42 24 S 11";
    let p1_counts = [7, 51, 367, 2716, 20040, 151364];
    let p2 = "1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 S 74";
    let p2_counts = [3, 15, 48, 216, 849, 3546, 15657, 61405, 281839, 1045520];
    for (text, counts) in [(p1, &p1_counts[..]), (p2, &p2_counts[..])] {
        let pos = tfen::parse(text).expect("valid TFEN");
        let rp = RefPosition::from_parts(&pos.parts());
        for (depth, &nodes) in (1..).zip(counts.iter()) {
            assert_eq!(rp.perft(depth), nodes, "{text} depth {depth}");
        }
    }
}

#[test]
fn engine_perft_matches_reference_perft_on_game_positions() {
    let mut rng = SplitMix64::new(0xBEEF);
    let mut positions = vec![Position::startpos()];
    for game in 0..12u64 {
        let policy = if game % 2 == 0 {
            Policy::Uniform
        } else {
            Policy::Greedy
        };
        let (seen, _) = differential_game(Position::startpos(), 0xABC0 + game, policy);
        // Positions from the opening, the middle game and near the end.
        for index in [10, 40, 80, seen.len().saturating_sub(12), seen.len() - 3] {
            if let Some(&pos) = seen.get(index) {
                positions.push(pos);
            }
        }
    }
    for _ in 0..10 {
        positions.push(random_position(&mut rng));
    }
    let mut compared = 0;
    for pos in &positions {
        let rp = RefPosition::from_parts(&pos.parts());
        for depth in 0..=5 {
            assert_eq!(
                perft(pos, depth),
                rp.perft(depth),
                "perft {depth} of {pos:?}"
            );
            compared += 1;
        }
    }
    assert!(compared >= 60 * 6);
}
