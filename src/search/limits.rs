//! What a search is asked to do: the `go` parameters, and the time budget
//! derived from them.

use std::time::Duration;

use crate::board::{Move, Position, Side};

/// The players' clocks as `go` gives them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left, indexed by [`Side::index`].
    pub time: [Option<Duration>; 2],
    pub increment: [Duration; 2],
    pub moves_to_go: Option<u32>,
}

/// Everything `go` can ask for. Empty limits mean "search until stopped".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Clock,
    pub infinite: bool,
    pub ponder: bool,
    /// Stop when a win in at most this many moves is found.
    pub mate: Option<u32>,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }
}

/// How long to think: stop starting new iterations after `soft`, abort at
/// `hard`. A fixed budget (`movetime` alone) is used to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub soft: Duration,
    pub hard: Duration,
    pub fixed: bool,
}

/// Clock time always kept back: what a busy machine may take between the
/// referee's clock and the engine's. With 50 ms, one game of 1,000 at
/// 1+0.01 on an oversubscribed 2-core machine was lost on time (67 ms used
/// with 53 ms left). Below it the engine lives on its increment and lets the
/// clock grow back.
const RESERVE: Duration = Duration::from_millis(100);

/// Plies a game of Togyz Kumalak lasts at most in practice; past the start,
/// the remaining moves are estimated from the stones still on the board.
fn estimated_moves_left(pos: &Position) -> u32 {
    let on_board = 162 - pos.kazan(Side::White) as u32 - pos.kazan(Side::Black) as u32;
    // About 40 moves each at the start, fewer as the board empties.
    (on_board / 4).clamp(12, 40)
}

/// The time budget for the side to move, or `None` if no time limit applies.
/// `overhead` is the `MoveOverhead` option: time lost outside the engine
/// per move (transmission, GUI).
pub fn budget(limits: &Limits, pos: &Position, overhead: Duration) -> Option<TimeBudget> {
    let side = pos.side_to_move().index();
    let from_clock = limits.clock.time[side].map(|left| {
        let increment = limits.clock.increment[side];
        let moves = limits
            .clock
            .moves_to_go
            .map_or(estimated_moves_left(pos), |m| m.clamp(1, 60));
        // Never plan to use more than what is left minus the overhead, and
        // keep a reserve that a slow move may eat into: a twentieth of the
        // clock, never less than RESERVE (all of it, on a shorter clock).
        // Part of the coming increment may be spent too, but never more than
        // a quarter of what is left, so a low clock grows back.
        let usable = left.saturating_sub(overhead);
        let reserve = (usable / 20).max(RESERVE).min(usable);
        let spendable = usable - reserve;
        let bonus = (increment / 2).min(usable / 4);
        let share = spendable / moves + increment.mul_f64(0.75);
        let soft = share.min(spendable / 2 + bonus).min(usable * 3 / 4);
        let hard = (share * 4)
            .min(spendable * 3 / 4 + bonus)
            .min(usable * 3 / 4)
            .max(soft);
        TimeBudget {
            soft,
            hard,
            fixed: false,
        }
    });
    let from_movetime = limits.movetime.map(|time| {
        let time = time.saturating_sub(overhead);
        TimeBudget {
            soft: time,
            hard: time,
            fixed: true,
        }
    });
    match (from_clock, from_movetime) {
        (Some(a), Some(b)) => Some(TimeBudget {
            soft: a.soft.min(b.soft),
            hard: a.hard.min(b.hard),
            fixed: false,
        }),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc: u64) -> Limits {
        Limits {
            clock: Clock {
                time: [Some(Duration::from_millis(ms)); 2],
                increment: [Duration::from_millis(inc); 2],
                moves_to_go: None,
            },
            ..Limits::default()
        }
    }

    #[test]
    fn budget_stays_inside_the_clock() {
        let pos = Position::startpos();
        for (ms, inc) in [
            (10_000, 100),
            (1_000, 10),
            (400, 200),
            (150, 1000),
            (50, 0),
            (5, 0),
            (0, 0),
        ] {
            let overhead = Duration::from_millis(10);
            let b = budget(&clock(ms, inc), &pos, overhead).unwrap();
            assert!(b.soft <= b.hard);
            assert!(b.hard <= Duration::from_millis(ms).saturating_sub(overhead) * 3 / 4);
            assert!(
                b.hard + overhead <= Duration::from_millis(ms).max(overhead),
                "{ms}+{inc}: {b:?}"
            );
        }
    }

    #[test]
    fn a_low_clock_grows_back_on_its_increment() {
        let pos = Position::startpos();
        for ms in [0, 5, 20, 60, 100, 140, 190] {
            let b = budget(&clock(ms, 10), &pos, Duration::ZERO).unwrap();
            let hard = b.hard.as_millis() as u64;
            if ms <= 100 {
                // All of it is reserve: at most half the increment, and at
                // most a quarter of the clock.
                assert!(hard <= 5 && hard <= ms / 4, "{ms}+10: {b:?}");
            } else {
                // Even the longest move leaves the reserve.
                assert!(ms - hard + 10 >= 100, "{ms}+10: {b:?}");
            }
        }
    }

    #[test]
    fn long_clocks_keep_a_twentieth() {
        let pos = Position::startpos();
        let b = budget(&clock(60_000, 0), &pos, Duration::ZERO).unwrap();
        assert!(b.hard <= Duration::from_millis(57_000 * 3 / 4), "{b:?}");
        assert!(b.soft >= Duration::from_millis(57_000 / 40), "{b:?}");
    }

    #[test]
    fn movetime_is_used_minus_overhead() {
        let b = budget(
            &Limits::movetime(Duration::from_millis(500)),
            &Position::startpos(),
            Duration::from_millis(20),
        )
        .unwrap();
        assert_eq!(b.hard, Duration::from_millis(480));
    }

    #[test]
    fn no_time_limit_without_clock_or_movetime() {
        assert_eq!(
            budget(&Limits::depth(5), &Position::startpos(), Duration::ZERO),
            None
        );
    }
}
