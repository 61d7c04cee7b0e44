//! How each playing level chooses its move: each move it either glances
//! or searches ([`Way`]), as its [`Style`] says.
//!
//! - A glance: no search, what a new player sees at a glance. For each move
//!   it sees what the move adds to its kazan at once (a capture, a tuzdik)
//!   with the chance `own`, drawn anew for every move; with the chance
//!   `look`, drawn once for the whole choice, it also looks at the
//!   opponent's best immediate answer to every move and subtracts it. It
//!   plays the move that looks best, at random among equals. So it misses
//!   the opponent's threats on the moves it does not look, sometimes its
//!   own captures, sows into the opponent's tuzdik without noticing, and
//!   knows nothing of the ending. A move that wins the game at once is
//!   always seen. The two stand-ins for new players are glances that see
//!   everything: `greedy` its own gains only, `greedy2` the answers too.
//!   (A chance to see each move's threat apart fails: the best-looking move
//!   is then the one whose threat went unseen.)
//! - A search of at most a fixed number of nodes (so that the level plays
//!   alike on any machine), every root move scored, and a draw from a
//!   softmax over their scores, so that a mistake is usually a plausible
//!   move a little worse than the best, and only rarely a bad one. Expert
//!   and champion search without a cap and play their best.
//!
//! Every level up to expert searches with the hand-written evaluation it
//! was calibrated with; candidate, master, grandmaster and champion use the
//! one `Eval` chooses (the network) ([`LevelEvaluation`]). The network is
//! worth three to four steps of the ladder at 5+0.05, and most at small
//! node counts (STRENGTH.md: generation 3 at 120,000 nodes scored 90%
//! against expert), so the hand-written evaluation at full strength stays
//! as a step (expert) and the network climbs again from a node cap:
//! candidate at 18,000 nodes, master at 40,000, grandmaster at 160,000,
//! champion at full strength.
//!
//! A level searches with the chance `think` per move and glances (as
//! `greedy2`) otherwise. The numbers are calibrated by matches
//! (STRENGTH.md): beginner scores 30-50% against greedy, and each ladder
//! level 60-80% against the one below.

use tuzdyk_protocol::Level;
use tuzdyk_rules::rng::SplitMix64;
use tuzdyk_rules::{GameResult, Move, Position};
use tuzdyk_search::RootMove;
use tuzdyk_search::score::MATE_BOUND;

/// How a level chooses: each move it thinks (searches) with chance `think`
/// per mille, and otherwise glances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// The chance per mille, drawn anew each move, that the level searches.
    pub think: u32,
    /// Searching: at most this many nodes (`None`: no cap).
    pub nodes: Option<u64>,
    /// Searching: the softmax temperature in centi-stones (0: the best).
    pub temperature: i32,
    /// Glancing: the chance per mille of seeing each move's own gain.
    pub own: u32,
    /// Glancing: the chance per mille, drawn once a move, of looking at the
    /// opponent's best answer to every move.
    pub look: u32,
    /// Searching: the evaluation the level's searches use.
    pub evaluation: LevelEvaluation,
}

/// Which evaluation a level's searches use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelEvaluation {
    /// The hand-written one: the levels up to expert were calibrated with
    /// it (STRENGTH.md), and their strength is set by their node cap and
    /// temperature, so they keep it whatever `Eval` says.
    Classic,
    /// The one `Eval` chooses (candidate, master, grandmaster, champion,
    /// and so analysis).
    Chosen,
}

/// What a level does for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// No search (the search runs one ply, for the `info` line only).
    Glance,
    /// A search of every root move to the level's node cap.
    Search,
}

/// A level that only glances.
const fn glance(own: u32, look: u32) -> Style {
    Style {
        think: 0,
        nodes: None,
        temperature: 0,
        own,
        look,
        evaluation: LevelEvaluation::Classic,
    }
}

/// A level that thinks with chance `think`, else glances as `greedy2`.
const fn mixed(think: u32, nodes: u64, temperature: i32) -> Style {
    Style {
        think,
        nodes: Some(nodes),
        temperature,
        own: 1000,
        look: 1000,
        evaluation: LevelEvaluation::Classic,
    }
}

/// How `level` chooses.
pub const fn style(level: Level) -> Style {
    match level {
        Level::Greedy => glance(1000, 0),
        Level::Greedy2 => glance(1000, 1000),
        Level::Beginner => glance(650, 100),
        Level::Learner => glance(1000, 400),
        Level::Improver => glance(1000, 750),
        Level::Apprentice => glance(1000, 950),
        Level::Amateur => mixed(900, 300, 60),
        Level::Hobbyist => mixed(1000, 500, 80),
        Level::Regular => mixed(1000, 1_500, 100),
        Level::Keen => mixed(1000, 3_000, 70),
        Level::Novice => mixed(1000, 6_000, 45),
        Level::Casual => mixed(1000, 18_000, 28),
        Level::Intermediate => mixed(1000, 50_000, 18),
        Level::Skilled => mixed(1000, 120_000, 12),
        Level::Advanced => mixed(1000, 450_000, 6),
        Level::Expert => Style {
            nodes: None,
            temperature: 0,
            ..mixed(1000, 0, 0)
        },
        Level::Candidate => Style {
            evaluation: LevelEvaluation::Chosen,
            ..mixed(1000, 18_000, 15)
        },
        Level::Master => Style {
            evaluation: LevelEvaluation::Chosen,
            ..mixed(1000, 40_000, 12)
        },
        Level::Grandmaster => Style {
            evaluation: LevelEvaluation::Chosen,
            ..mixed(1000, 160_000, 9)
        },
        Level::Champion => Style {
            evaluation: LevelEvaluation::Chosen,
            ..style(Level::Expert)
        },
    }
}

/// Whether `level` searches or glances for the move with this `seed`.
pub fn way(level: Level, seed: u64) -> Way {
    way_in_style(style(level), seed)
}

/// [`way`] for a style given directly (for calibration).
pub fn way_in_style(style: Style, seed: u64) -> Way {
    let draw = SplitMix64::new(seed ^ 0x7461_6B65_206C_6F6F).below(1000);
    if draw < style.think as usize {
        Way::Search
    } else {
        Way::Glance
    }
}

/// The node and depth caps of the search `level` runs its `way`: a glance
/// searches one ply, for the `info` line only.
pub const fn caps(level: Level, way: Way) -> (Option<u64>, Option<u32>) {
    match way {
        Way::Glance => (None, Some(1)),
        Way::Search => (style(level).nodes, None),
    }
}

/// Whether `level` going its `way` plays the search's best move.
pub const fn plays_best(level: Level, way: Way) -> bool {
    matches!(way, Way::Search) && style(level).temperature == 0
}

/// Whether `level` going its `way` needs every root move scored.
pub const fn needs_all_scores(level: Level, way: Way) -> bool {
    matches!(way, Way::Search) && style(level).temperature > 0
}

/// The move `level` plays in `position` going its `way`, from root moves
/// scored by the search (best first). The same `seed` gives the same move;
/// the caller varies it. `None` only when there is no root move.
pub fn choose(
    level: Level,
    way: Way,
    position: &Position,
    root_moves: &[RootMove],
    seed: u64,
) -> Option<Move> {
    choose_in_style(style(level), way, position, root_moves, seed)
}

/// [`choose`] for a style given directly (for calibration).
pub fn choose_in_style(
    style: Style,
    way: Way,
    position: &Position,
    root_moves: &[RootMove],
    seed: u64,
) -> Option<Move> {
    let mut rng = SplitMix64::new(seed);
    match way {
        Way::Glance => {
            let moves: Vec<Move> = root_moves.iter().map(|rm| rm.mv).collect();
            glance_at(position, &moves, style.own, style.look, &mut rng)
        }
        Way::Search => softmax(root_moves, style.temperature, &mut rng).map(|i| root_moves[i].mv),
    }
}

/// What `side`'s move `mv` adds to its kazan at once (captures, a tuzdik,
/// stones sown into its tuzdik), and the position after it.
fn gain(position: &Position, mv: Move) -> (i32, Position) {
    let mover = position.side_to_move();
    let mut after = *position;
    after.play(mv);
    (
        after.kazan(mover) as i32 - position.kazan(mover) as i32,
        after,
    )
}

/// A gain that stands for winning the game at once.
const WINS: i32 = 1000;

/// The opponent's best immediate gain in `after` (their move), [`WINS`]
/// when a move of theirs wins at once.
fn best_answer(after: &Position) -> i32 {
    if after.game_over().is_some() {
        return 0;
    }
    after
        .legal_moves()
        .map(|reply| {
            let (taken, next) = gain(after, reply);
            if wins(&next, after) { WINS } else { taken }
        })
        .max()
        .unwrap_or(0)
}

/// Whether the game is over in `after` with a win for the side that moved
/// in `before`.
fn wins(after: &Position, before: &Position) -> bool {
    after.result() == Some(GameResult::Win(before.side_to_move()))
}

/// The glance: each move valued as its own gain (seen with chance `own`
/// per mille, for each move) less, when the level looks this move (chance
/// `look`, once), the opponent's best answer; the best value played, at
/// random among equals. A move that wins at once is always played.
fn glance_at(
    position: &Position,
    moves: &[Move],
    own: u32,
    look: u32,
    rng: &mut SplitMix64,
) -> Option<Move> {
    let mut seen = |chance: u32| rng.below(1000) < chance as usize;
    let careful = seen(look);
    let mut best: Vec<Move> = Vec::new();
    let mut best_value = i32::MIN;
    for &mv in moves {
        let (taken, after) = gain(position, mv);
        if wins(&after, position) {
            return Some(mv);
        }
        let mut value = if seen(own) { taken } else { 0 };
        if careful {
            value -= best_answer(&after);
        }
        if value > best_value {
            best_value = value;
            best.clear();
        }
        if value == best_value {
            best.push(mv);
        }
    }
    let pick = rng.below(best.len());
    best.get(pick).copied()
}

/// The index of the root move drawn from a softmax over their scores at
/// `temperature` (0: the first, the best). A forced win is never thrown
/// away, nor a forced loss chosen while another move is not one.
fn softmax(root_moves: &[RootMove], temperature: i32, rng: &mut SplitMix64) -> Option<usize> {
    if root_moves.is_empty() {
        return None;
    }
    if temperature == 0 || root_moves.len() < 2 {
        return Some(0);
    }
    let best = root_moves.iter().map(|rm| rm.score).max().unwrap_or(0);
    if best >= MATE_BOUND {
        return Some(0);
    }
    let weights: Vec<f64> = root_moves
        .iter()
        .map(|rm| {
            if rm.score <= -MATE_BOUND {
                0.0
            } else {
                (((rm.score - best) as f64) / temperature as f64).exp()
            }
        })
        .collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return Some(0);
    }
    let mut draw = rng.unit() * total;
    for (i, w) in weights.iter().enumerate() {
        if draw < *w {
            return Some(i);
        }
        draw -= w;
    }
    Some(0)
}

#[cfg(test)]
mod tests;
