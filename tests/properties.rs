//! Property tests over random legal games: each game is a vector of
//! move-choice indices applied from the start position (or from a position
//! reached by another random game), every choice picking one of the legal
//! moves.

use proptest::prelude::*;
use tuzdyk_notation::record::{GameRecord, parse_games};
use tuzdyk_notation::tfen;
use tuzdyk_rules::{BOARD_HOLES, GameEnd, HOLES, Move, MoveOutcome, Position, Side};

/// A game played from a position by move-choice indices.
struct Walk {
    /// Every position, the start first; one more than the moves.
    positions: Vec<Position>,
    moves: Vec<Move>,
    outcomes: Vec<MoveOutcome>,
}

impl Walk {
    fn last(&self) -> &Position {
        self.positions.last().expect("the start is always there")
    }
}

/// Plays `choices` from `start`: each picks a legal move by its index modulo
/// the number of legal moves. Stops when the game ends or the choices run out.
fn walk(start: Position, choices: &[u16]) -> Walk {
    let mut game = Walk {
        positions: vec![start],
        moves: Vec::new(),
        outcomes: Vec::new(),
    };
    let mut pos = start;
    for &choice in choices {
        let moves: Vec<Move> = pos.legal_moves().collect();
        if moves.is_empty() {
            break;
        }
        let mv = moves[choice as usize % moves.len()];
        let outcome = pos.play(mv);
        game.positions.push(pos);
        game.moves.push(mv);
        game.outcomes.push(outcome);
    }
    game
}

fn choices(max_len: usize) -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(any::<u16>(), 0..max_len)
}

/// The board index (0..17) of `owner`'s tuzdik, which lies on the other side.
fn tuzdik_index(pos: &Position, owner: Side) -> Option<usize> {
    pos.tuzdik(owner)
        .map(|hole| owner.opponent().index() * HOLES + hole as usize)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn stones_are_conserved_and_the_key_stays_incremental(choices in choices(400)) {
        let game = walk(Position::startpos(), &choices);
        for (i, pos) in game.positions.iter().enumerate() {
            let parts = pos.parts();
            let total: u32 = parts.holes.iter().map(|&n| n as u32).sum::<u32>()
                + parts.kazans.iter().map(|&n| n as u32).sum::<u32>();
            prop_assert_eq!(total, 162, "ply {} {:?}", i, pos);
            prop_assert_eq!(pos.key(), pos.compute_key(), "ply {} {:?}", i, pos);
            prop_assert_eq!(pos.ply(), i as u32);
        }
        for (i, outcome) in game.outcomes.iter().enumerate() {
            let (before, after) = (&game.positions[i], &game.positions[i + 1]);
            let mover = before.side_to_move();
            let other = mover.opponent();
            // The kazans grow by exactly what the outcome reports.
            let taken = outcome.captured + if outcome.tuzdik { 3 } else { 0 };
            prop_assert_eq!(
                after.kazan(mover),
                before.kazan(mover) + taken + outcome.tuzdik_stones[mover.index()],
                "mover's kazan after {:?} in {:?}", game.moves[i], before
            );
            prop_assert_eq!(
                after.kazan(other),
                before.kazan(other) + outcome.tuzdik_stones[other.index()],
                "other kazan after {:?} in {:?}", game.moves[i], before
            );
            prop_assert!(!(outcome.tuzdik && outcome.captured > 0));
            prop_assert!(outcome.captured % 2 == 0);
            prop_assert!(outcome.landing < BOARD_HOLES);
            prop_assert_eq!(after.side_to_move(), other);
            prop_assert_eq!(
                after.fullmove(),
                before.fullmove() + if mover == Side::Black { 1 } else { 0 }
            );
            // A tuzdik, once made, never changes; a move makes at most one.
            for side in Side::BOTH {
                if before.tuzdik(side).is_some() {
                    prop_assert_eq!(after.tuzdik(side), before.tuzdik(side));
                }
            }
            let made = before.tuzdik(mover).is_none() && after.tuzdik(mover).is_some();
            prop_assert_eq!(made, outcome.tuzdik);
            if outcome.tuzdik {
                prop_assert_eq!(tuzdik_index(after, mover), Some(outcome.landing));
            }
        }
    }

    #[test]
    fn legal_moves_are_the_nonempty_holes_of_the_side_to_move(choices in choices(400)) {
        let game = walk(Position::startpos(), &choices);
        for pos in &game.positions {
            let parts = pos.parts();
            // Tuzdiks: empty, never hole 9, never the same number.
            for side in Side::BOTH {
                if let Some(index) = tuzdik_index(pos, side) {
                    prop_assert_eq!(parts.holes[index], 0, "{:?}", pos);
                    prop_assert!(index % HOLES != HOLES - 1, "{:?}", pos);
                }
            }
            if let [Some(a), Some(b)] = parts.tuzdiks {
                prop_assert_ne!(a, b, "{:?}", pos);
            }

            let us = pos.side_to_move();
            let nonempty: Vec<usize> = (0..HOLES)
                .filter(|&hole| pos.stones(us, hole) > 0)
                .collect();
            let legal: Vec<usize> = pos.legal_moves().map(Move::index).collect();
            let kazan_won = pos.kazan(Side::White) >= 82 || pos.kazan(Side::Black) >= 82;
            match pos.game_over() {
                Some((_, GameEnd::KazanMajority)) => {
                    prop_assert!(kazan_won);
                    prop_assert!(legal.is_empty());
                }
                Some((_, GameEnd::NoMoves)) => {
                    prop_assert!(!kazan_won);
                    prop_assert!(nonempty.is_empty());
                    prop_assert!(legal.is_empty());
                }
                None => {
                    prop_assert!(!kazan_won);
                    prop_assert_eq!(&legal, &nonempty, "{:?}", pos);
                }
            }
            // Never a move from an empty hole or from a tuzdik.
            for hole in legal {
                prop_assert!(pos.stones(us, hole) > 0);
                prop_assert_ne!(pos.tuzdik(us.opponent()), Some(hole as u8));
            }
        }
        // Walking stops only when the game is over or the choices ran out.
        if game.moves.len() < choices.len() {
            prop_assert!(game.last().game_over().is_some());
        }
    }

    #[test]
    fn tfen_round_trips(choices in choices(400)) {
        let game = walk(Position::startpos(), &choices);
        for pos in &game.positions {
            let text = tfen::write(pos);
            let parsed = tfen::parse(&text);
            prop_assert!(parsed.is_ok(), "{} does not parse: {:?}", text, parsed);
            let parsed = parsed.expect("checked");
            prop_assert_eq!(parsed, *pos, "{}", text);
            prop_assert_eq!(parsed.key(), pos.key());
            prop_assert_eq!(tfen::write(&parsed), text);
        }
    }

    #[test]
    fn game_records_round_trip(prefix in choices(200), moves in choices(400)) {
        // A start reached by one random game (the start position when the
        // prefix is empty), then another random game from there.
        let start = *walk(Position::startpos(), &prefix).last();
        let game = walk(start, &moves);
        let result = game.last().result();
        let replayed = tuzdyk_rules::Game::replay(start, game.moves.clone()).expect("a legal walk");
        let record = GameRecord::new(replayed, result);
        let text = record.to_string();
        let parsed = parse_games(&text);
        prop_assert_eq!(parsed.len(), 1, "{}", text);
        let back = match &parsed[0] {
            Ok(back) => back,
            Err(error) => return Err(TestCaseError::fail(format!("{error}\n{text}"))),
        };
        prop_assert_eq!(back.game.moves(), &game.moves[..], "{}", text);
        prop_assert_eq!(back.result, result, "{}", text);
        prop_assert_eq!(back.game.start(), &start, "{}", text);
        prop_assert_eq!(back.final_position(), *game.last(), "{}", text);
        prop_assert_eq!(back.to_string(), text);
    }
}
