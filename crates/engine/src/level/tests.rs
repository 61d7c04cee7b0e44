//! The levels' choices: softmax draws, glances, and whole seeded games of
//! the stand-ins.

use super::*;
use tuzdyk_rules::rng::SplitMix64;

fn scored(scores: &[i32]) -> Vec<RootMove> {
    scores
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            let mut rm = RootMove::new(Move::from_index(i));
            rm.score = s;
            rm
        })
        .collect()
}

/// The position's legal moves as unscored root moves (what a glance gets).
fn unscored(position: &Position) -> Vec<RootMove> {
    position.legal_moves().map(RootMove::new).collect()
}

/// What `level` plays with `seed`, searching or glancing as the seed says.
fn play(level: Level, position: &Position, rms: &[RootMove], seed: u64) -> Option<Move> {
    choose(level, way(level, seed), position, rms, seed)
}

fn draw(temperature: i32, rms: &[RootMove], seed: u64) -> usize {
    softmax(rms, temperature, &mut SplitMix64::new(seed)).unwrap()
}

#[test]
fn expert_and_champion_always_play_the_best() {
    let rms = scored(&[100, 90, -50]);
    for level in [Level::Expert, Level::Champion] {
        for seed in 0..50 {
            let mv = play(level, &Position::startpos(), &rms, seed);
            assert_eq!(mv, Some(Move::from_index(0)), "{level}");
        }
    }
}

#[test]
fn a_choice_is_a_function_of_its_seed() {
    let rms = scored(&[100, 95, 90, 20, 10, 0, -5, -10, -20]);
    let position = Position::startpos();
    for level in Level::ALL {
        for seed in 0..100 {
            assert_eq!(way(level, seed), way(level, seed));
            assert_eq!(
                play(level, &position, &rms, seed),
                play(level, &position, &rms, seed)
            );
        }
    }
}

#[test]
fn a_softmax_sometimes_errs_but_never_into_a_forced_loss() {
    let rms = scored(&[100, 60, -MATE_BOUND - 5]);
    let picks: Vec<usize> = (0..400).map(|s| draw(75, &rms, s)).collect();
    assert!(picks.contains(&0) && picks.contains(&1));
    assert!(!picks.contains(&2));
    // The better move is played more often, about e^(40/75) = 1.7 times.
    let best = picks.iter().filter(|&&p| p == 0).count();
    assert!((220..=290).contains(&best), "{best} of 400");
}

#[test]
fn a_forced_win_is_always_played() {
    let rms = scored(&[MATE_BOUND + 3, 500, 400]);
    for seed in 0..100 {
        assert_eq!(draw(75, &rms, seed), 0);
    }
}

#[test]
fn the_ladder_looks_more_and_then_searches_more_as_it_rises() {
    for pair in Level::LADDER.windows(2) {
        let (weaker, stronger) = (style(pair[0]), style(pair[1]));
        assert!(weaker.think <= stronger.think, "{pair:?}");
        if weaker.think == 0 {
            assert!(weaker.own <= stronger.own && weaker.look <= stronger.look);
        }
        if weaker.think == 1000 {
            // The caps rise while the evaluation stays; from the classic
            // evaluation at full strength (expert) the network starts
            // again at a cap (candidate).
            match (weaker.evaluation, stronger.evaluation) {
                (a, b) if a == b => match (weaker.nodes, stronger.nodes) {
                    (Some(a), Some(b)) => assert!(a < b, "{pair:?}"),
                    (Some(_), None) => {}
                    other => panic!("{pair:?}: {other:?}"),
                },
                (LevelEvaluation::Classic, LevelEvaluation::Chosen) => {
                    assert_eq!(pair, [Level::Expert, Level::Candidate]);
                    assert_eq!(weaker.nodes, None);
                }
                other => panic!("{pair:?}: {other:?}"),
            }
        }
    }
    assert_eq!(style(Level::Beginner).think, 0);
    for seed in 0..20 {
        assert!(plays_best(Level::Expert, way(Level::Expert, seed)));
        assert!(plays_best(Level::Champion, way(Level::Champion, seed)));
        assert_eq!(way(Level::Greedy, seed), Way::Glance);
        assert_eq!(way(Level::Novice, seed), Way::Search);
    }
}

/// Greedy takes the biggest capture; greedy2 does not when it loses more.
#[test]
fn the_stand_ins_take_what_they_see() {
    // After 6: White's 1-4 and 6 each capture 10 (an even 10 on Black's side).
    let position = tuzdyk_rules::Game::new(Position::startpos());
    let mut position = *position.position();
    position.play(Move::from_index(5));
    for seed in 0..50 {
        let mv = play(Level::Greedy, &position, &unscored(&position), seed).unwrap();
        let (taken, _) = gain(&position, mv);
        assert_eq!(taken, 10, "seed {seed}: {mv}");
        let mv = play(Level::Greedy2, &position, &unscored(&position), seed).unwrap();
        let best = position
            .legal_moves()
            .map(|m| {
                let (taken, after) = gain(&position, m);
                taken - best_answer(&after)
            })
            .max()
            .unwrap();
        let (taken, after) = gain(&position, mv);
        assert_eq!(taken - best_answer(&after), best, "seed {seed}: {mv}");
    }
}

/// A whole game between two levels choosing with seeds from `seed`.
fn game(white: Level, black: Level, seed: u64) -> Vec<Move> {
    let mut position = Position::startpos();
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    while position.game_over().is_none() && moves.len() < 600 {
        let level = if moves.len() % 2 == 0 { white } else { black };
        let mv = play(level, &position, &unscored(&position), rng.next_u64())
            .expect("a move while the game goes on");
        assert!(position.is_legal(mv), "{level} played {mv}");
        position.play(mv);
        moves.push(mv);
    }
    moves
}

#[test]
fn the_stand_ins_play_legal_seeded_games() {
    let glances = [
        Level::Greedy,
        Level::Greedy2,
        Level::Beginner,
        Level::Learner,
    ];
    for (i, &white) in glances.iter().enumerate() {
        let black = glances[(i + 1) % glances.len()];
        let first = game(white, black, 7 + i as u64);
        assert_eq!(first, game(white, black, 7 + i as u64));
        assert_ne!(first, game(white, black, 100 + i as u64));
    }
}

/// Only 9 wins at once (it reaches 82): every glance plays it.
#[test]
fn a_glance_never_misses_a_win_at_once() {
    let position = tuzdyk_notation::tfen::parse("4,3S,3,1S/1S,7,1S 80 76 S 60").unwrap();
    for level in [
        Level::Beginner,
        Level::Learner,
        Level::Greedy,
        Level::Greedy2,
    ] {
        for seed in 0..50 {
            let mv = choose(level, Way::Glance, &position, &unscored(&position), seed);
            let (_, after) = gain(&position, mv.unwrap());
            assert!(wins(&after, &position), "{level} seed {seed}");
        }
    }
}
