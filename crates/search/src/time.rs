//! The time manager: how long a move may take (a soft limit, after which no
//! new iteration starts, scaled by how stable the best move is, and a hard
//! limit, at which the search stops), and the clock of a ponder search,
//! which starts only at `ponderhit`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tuzdyk_rules::Position;

use crate::limits::Limits;
use crate::params::{
    CLOCK_SHARE_DENOMINATOR, CLOCK_SHARE_NUMERATOR, HARD_LIMIT_SHARES, INCREMENT_BONUS_CAP_DIVISOR,
    INCREMENT_BONUS_DIVISOR, INCREMENT_SHARE, INSTABILITY_MAX_CHANGES, INSTABILITY_PER_CHANGE,
    MOVES_LEFT_DIVISOR, MOVES_LEFT_MAX, MOVES_LEFT_MIN, MOVES_TO_GO_MAX, SOFT_LIMIT_DIVISOR,
    STABILITY_SCALE, TIME_RESERVE_DIVISOR, TIME_RESERVE_MS,
};

/// `CLOCK_SHARE_NUMERATOR / CLOCK_SHARE_DENOMINATOR` of `time`.
fn clock_share(time: Duration) -> Duration {
    time * CLOCK_SHARE_NUMERATOR / CLOCK_SHARE_DENOMINATOR
}

/// How long to think: stop starting new iterations after `soft`, abort at
/// `hard`. A fixed budget (`movetime` alone) is used to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub soft: Duration,
    pub hard: Duration,
    pub fixed: bool,
}

/// The moves the side to move has left to play, estimated from the stones
/// still on the board.
fn estimated_moves_left(pos: &Position) -> u32 {
    (pos.stones_on_board() / MOVES_LEFT_DIVISOR).clamp(MOVES_LEFT_MIN, MOVES_LEFT_MAX)
}

/// The time budget for the side to move, or `None` if no time limit applies.
/// `overhead` is the `MoveOverhead` option: time lost outside the engine
/// per move (transmission, GUI).
pub fn budget(limits: &Limits, pos: &Position, overhead: Duration) -> Option<TimeBudget> {
    let from_clock = limits.clock.map(|clock| {
        let increment = clock.increment;
        let moves = clock
            .moves_to_go
            .map_or(estimated_moves_left(pos), |m| m.clamp(1, MOVES_TO_GO_MAX));
        // Never plan to use more than what is left minus the overhead, and
        // keep a reserve that a slow move may eat into: a twentieth of the
        // clock, never less than the fixed reserve (all of it, on a shorter
        // clock). Part of the coming increment may be spent too, but never
        // more than a quarter of what is left, so a low clock grows back.
        let usable = clock.time.saturating_sub(overhead);
        let reserve = (usable / TIME_RESERVE_DIVISOR)
            .max(Duration::from_millis(TIME_RESERVE_MS))
            .min(usable);
        let spendable = usable - reserve;
        let bonus = (increment / INCREMENT_BONUS_DIVISOR).min(usable / INCREMENT_BONUS_CAP_DIVISOR);
        let share = spendable / moves + increment.mul_f64(INCREMENT_SHARE);
        let soft = share
            .min(spendable / SOFT_LIMIT_DIVISOR + bonus)
            .min(clock_share(usable));
        let hard = (share * HARD_LIMIT_SHARES)
            .min(clock_share(spendable) + bonus)
            .min(clock_share(usable))
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

/// The clock of one search, shared by its threads.
pub struct TimeManager {
    budget: Option<TimeBudget>,
    started: Instant,
    /// Microseconds after `started` at which the clock started (a ponder
    /// hit starts it again).
    clock_start_micros: AtomicU64,
    pondering: AtomicBool,
}

impl TimeManager {
    /// The clock for searching `pos` with `limits`; it starts now, or, for
    /// a ponder search, at [`TimeManager::ponderhit`].
    pub fn new(limits: &Limits, pos: &Position, overhead: Duration) -> TimeManager {
        TimeManager {
            budget: budget(limits, pos, overhead),
            started: Instant::now(),
            clock_start_micros: AtomicU64::new(0),
            pondering: AtomicBool::new(limits.ponder),
        }
    }

    /// The opponent played the expected move: the clock starts now.
    pub fn ponderhit(&self) {
        let now = self.started.elapsed().as_micros() as u64;
        self.clock_start_micros.store(now, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Release);
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// Time since the search began.
    pub fn since_start(&self) -> Duration {
        self.started.elapsed()
    }

    /// Time on the clock: since the search began, or since the ponder hit.
    pub fn elapsed(&self) -> Duration {
        let offset = Duration::from_micros(self.clock_start_micros.load(Ordering::Relaxed));
        self.started.elapsed().saturating_sub(offset)
    }

    /// Whether the clock or `movetime` limits this search.
    pub fn has_limit(&self) -> bool {
        self.budget.is_some()
    }

    /// Whether the hard limit has passed (never while pondering).
    pub fn hard_limit_reached(&self) -> bool {
        match self.budget {
            Some(budget) if !self.is_pondering() => self.elapsed() >= budget.hard,
            _ => false,
        }
    }

    /// Whether the main thread should start no other iteration: the soft
    /// limit, scaled up while the best move keeps changing and down once it
    /// has been stable for several iterations. A fixed `movetime` is used to
    /// the end, and a ponder search goes on.
    pub fn iteration_time_spent(&self, stable_iterations: u32, best_move_changes: u32) -> bool {
        let Some(soft) = self.budget.filter(|b| !b.fixed).map(|b| b.soft) else {
            return false;
        };
        if self.is_pondering() {
            return false;
        }
        let stability = STABILITY_SCALE[match stable_iterations {
            0 => 0,
            1 => 1,
            2..=4 => 2,
            _ => 3,
        }];
        let changes = best_move_changes.min(INSTABILITY_MAX_CHANGES);
        let instability = 1.0 + INSTABILITY_PER_CHANGE * changes as f64;
        self.elapsed().as_secs_f64() >= soft.as_secs_f64() * stability * instability
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::SideClock;

    fn clock(ms: u64, inc: u64) -> Limits {
        Limits {
            clock: Some(SideClock {
                time: Duration::from_millis(ms),
                increment: Duration::from_millis(inc),
                moves_to_go: None,
            }),
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
