//! Perft against the published numbers of docs/rules.md, and the serial,
//! parallel, divided and move-by-move counts against each other.
//!
//! Depths 10 and 11 from the start take seconds to minutes and are left to
//! `tuzdyk perft 11`; everything here runs in well under a second in release.

use tuzdyk_notation::tfen;
use tuzdyk_rules::perft::{divide, parallel_perft, perft};
use tuzdyk_rules::rng::SplitMix64;
use tuzdyk_rules::{BOARD_HOLES, Move, Position, PositionParts, Side};

const P1: &str = "1S,1S,5S,7S,6S,18S,6S,1,t/1S,2S,20S,7S,19S,t,1S,2S,1 42 24 S 11";
const P2: &str = "1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 S 74";

const START_COUNTS: [u64; 9] = [
    9,
    73,
    613,
    5_199,
    43_184,
    360_035,
    3_003_052,
    25_166_174,
    210_521_787,
];
const DEPTH_6_SPLIT: [u64; 9] = [
    47832, 41850, 41052, 40210, 39389, 38541, 37704, 36893, 36564,
];
const P1_COUNTS: [u64; 9] = [7, 51, 367, 2716, 20040, 151364, 1120823, 8473630, 62882089];
const P2_COUNTS: [u64; 12] = [
    3, 15, 48, 216, 849, 3546, 15657, 61405, 281839, 1045520, 4907696, 17212236,
];

fn pos(text: &str) -> Position {
    tfen::parse(text).expect("valid reference position")
}

/// Perft by playing every move with the public `play` and counting leaves
/// one by one: no bulk counting, no parallelism.
fn plain_perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    position
        .legal_moves()
        .map(|m| {
            let mut child = *position;
            child.play(m);
            plain_perft(&child, depth - 1)
        })
        .sum()
}

#[test]
fn perft_from_the_start_depths_1_to_9() {
    let start = Position::startpos();
    for (depth, &expected) in (1..).zip(START_COUNTS.iter()) {
        assert_eq!(
            perft(&start, depth),
            expected,
            "perft({depth}) from the start"
        );
    }
}

#[test]
fn parallel_perft_from_the_start_depths_1_to_9() {
    let start = Position::startpos();
    for (depth, &expected) in (1..).zip(START_COUNTS.iter()) {
        assert_eq!(
            parallel_perft(&start, depth),
            expected,
            "parallel_perft({depth})"
        );
    }
}

#[test]
fn perft_depth_0_is_one_leaf() {
    assert_eq!(perft(&Position::startpos(), 0), 1);
    assert_eq!(parallel_perft(&Position::startpos(), 0), 1);
    assert!(divide(&Position::startpos(), 0).is_empty());
}

#[test]
fn divide_at_depth_6_gives_the_published_split() {
    let split = divide(&Position::startpos(), 6);
    let moves: Vec<u32> = split.iter().map(|(m, _)| m.number()).collect();
    assert_eq!(
        moves,
        (1..=9).collect::<Vec<_>>(),
        "one entry per move, in order"
    );
    let counts: Vec<u64> = split.iter().map(|&(_, n)| n).collect();
    assert_eq!(counts, DEPTH_6_SPLIT);
    assert_eq!(counts.iter().sum::<u64>(), START_COUNTS[5]);
}

#[test]
fn perft_p1_depths_1_to_9() {
    let p1 = pos(P1);
    for (depth, &expected) in (1..).zip(P1_COUNTS.iter()) {
        assert_eq!(perft(&p1, depth), expected, "P1 perft({depth})");
        assert_eq!(
            parallel_perft(&p1, depth),
            expected,
            "P1 parallel_perft({depth})"
        );
    }
}

#[test]
fn perft_p2_depths_1_to_12() {
    let p2 = pos(P2);
    for (depth, &expected) in (1..).zip(P2_COUNTS.iter()) {
        assert_eq!(perft(&p2, depth), expected, "P2 perft({depth})");
        assert_eq!(
            parallel_perft(&p2, depth),
            expected,
            "P2 parallel_perft({depth})"
        );
    }
}

#[test]
fn divide_sums_to_perft_and_each_entry_is_the_childs_perft() {
    for (text, depth) in [(tfen::STARTPOS, 7), (P1, 6), (P2, 9)] {
        let position = pos(text);
        let split = divide(&position, depth);
        assert_eq!(
            split.len(),
            position.legal_moves().count() as usize,
            "{text}"
        );
        let mut total = 0;
        for &(m, nodes) in &split {
            assert!(position.is_legal(m), "divide gave an illegal move {m}");
            let mut child = position;
            child.play(m);
            assert_eq!(
                nodes,
                perft(&child, depth - 1),
                "divide entry {m} of {text}"
            );
            total += nodes;
        }
        assert_eq!(total, perft(&position, depth), "divide total of {text}");
        assert_eq!(total, parallel_perft(&position, depth));
    }
}

#[test]
fn bulk_counting_agrees_with_playing_every_move() {
    // perft counts the last two plies without making the moves; count them
    // the slow way too.
    for (text, depths) in [(tfen::STARTPOS, 1..=5), (P1, 1..=5), (P2, 1..=8)] {
        let position = pos(text);
        for depth in depths {
            assert_eq!(
                perft(&position, depth),
                plain_perft(&position, depth),
                "perft({depth}) of {text}"
            );
        }
    }
}

#[test]
fn no_game_ends_in_the_first_eight_plies() {
    // docs/rules.md: no game can end before ply 11.
    fn finished_at(position: &Position, depth: u32, ply: u32, out: &mut [u64]) {
        if position.game_over().is_some() {
            out[ply as usize] += 1;
            return;
        }
        if depth == 0 {
            return;
        }
        for m in position.legal_moves() {
            let mut child = *position;
            child.play(m);
            finished_at(&child, depth - 1, ply + 1, out);
        }
    }
    // Depth 11 would visit 14.8 billion leaves: check the first 8 plies.
    let mut ends = [0u64; 9];
    finished_at(&Position::startpos(), 8, 0, &mut ends);
    assert_eq!(ends, [0; 9], "a game ended before ply 9");
}

#[test]
fn a_finished_game_is_a_leaf_that_is_not_expanded() {
    // White has 82 but North still has stones: nothing is counted below it.
    let won = pos("4,2S,4/5S,8 82 73 N 5");
    assert!(won.game_over().is_some());
    for depth in 1..=4 {
        assert_eq!(perft(&won, depth), 0);
        assert_eq!(parallel_perft(&won, depth), 0);
    }
    assert_eq!(perft(&won, 0), 1);
    // One move from the end: South's capture to 82 (hole 9) is one leaf at
    // depth 1 with no children at depth 2; South's other move (hole 1, five
    // stones on its own side) leaves North its two moves.
    let before = pos("4,2S,3,1S/5S,7,1S 80 73 S 5");
    assert_eq!(perft(&before, 1), 2);
    let mut after_1 = before;
    after_1.play(Move::from_number(1).unwrap());
    assert_eq!(perft(&before, 2), after_1.legal_moves().count() as u64);
    assert_eq!(perft(&before, 2), 2);
    assert_eq!(perft(&before, 3), plain_perft(&before, 3));
}

#[test]
fn bulk_counting_agrees_with_playing_every_move_in_random_positions() {
    // Random positions near the end of the game (kazans close to 82, big
    // holes, tuzdiks) exercise the last-ply shortcuts the start does not.
    let mut rng = SplitMix64::new(0x1234_5678_9ABC_DEF1);
    let mut checked = 0;
    while checked < 3000 {
        let mut tuzdiks = [None, None];
        for t in tuzdiks.iter_mut() {
            if rng.below(3) > 0 {
                *t = Some(rng.below(8) as u8);
            }
        }
        let mut kazans = [rng.below(82) as u8, rng.below(82) as u8];
        if rng.below(2) == 0 {
            kazans[rng.below(2)] = 60 + rng.below(22) as u8;
        }
        if kazans[0] as u32 + kazans[1] as u32 > 150 {
            continue;
        }
        let mut holes = [0u8; BOARD_HOLES];
        let mut rest = 162 - kazans[0] as u32 - kazans[1] as u32;
        while rest > 0 {
            let hole = rng.below(18);
            let owner_of_tuzdik_here = if hole < 9 { 1 } else { 0 };
            if tuzdiks[owner_of_tuzdik_here] == Some((hole % 9) as u8) {
                continue;
            }
            let chunk = (1 + rng.below(25) as u32).min(rest);
            holes[hole] += chunk as u8;
            rest -= chunk;
        }
        let Ok(position) = Position::from_parts(PositionParts {
            holes,
            kazans,
            tuzdiks,
            side_to_move: Side::BOTH[rng.below(2)],
            fullmove: 30,
        }) else {
            continue; // two tuzdiks on one number
        };
        for depth in 1..=3 {
            assert_eq!(
                perft(&position, depth),
                plain_perft(&position, depth),
                "perft({depth}) of {position:?}"
            );
        }
        checked += 1;
    }
}
