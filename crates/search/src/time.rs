//! The time manager: how long a move may take (a soft limit, after which no
//! new iteration starts, scaled by how stable the best move is, and a hard
//! limit, at which the search stops), and the clock of a ponder search,
//! which starts only at `ponderhit`; and [`LostTime`], what the referee's
//! clock took beyond the plan, learnt over a game.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tuzdyk_rules::{Position, Side};

use crate::limits::{Limits, SideClock};
use crate::params::{
    CLOCK_SHARE_DENOMINATOR, CLOCK_SHARE_NUMERATOR, HARD_LIMIT_SHARES, INCREMENT_BONUS_CAP_DIVISOR,
    INCREMENT_BONUS_DIVISOR, INCREMENT_SHARE, INSTABILITY_MAX_CHANGES, INSTABILITY_PER_CHANGE,
    LOST_TIME_DECAY, LOST_TIME_FACTOR, LOST_TIME_MAX_MS, MOVES_LEFT_DIVISOR, MOVES_LEFT_MAX,
    MOVES_LEFT_MIN, MOVES_TO_GO_MAX, SOFT_LIMIT_DIVISOR, STABILITY_SCALE, TIME_RESERVE_DIVISOR,
    TIME_RESERVE_MS,
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

/// What the referee's clock took beyond what the engine planned, learnt from
/// one move to the next of a game and added to `MoveOverhead`.
///
/// The search checks its clock every `NODE_BATCH` nodes and keeps within
/// its hard limit, but a busy machine charges more: the process waits for a
/// core, the pipe is slow, the referee reads late. In 1,000 games at 1+0.01
/// with two games on two cores, one move was charged 61 ms with 38 ms left
/// while the engine had planned 5 ms. Such losses come in bursts, so after
/// one is seen the engine keeps more back (and lets a low clock grow back
/// faster) for the next moves. The loss is measured from the clocks the
/// referee sends: what the side's clock lost between two of its moves, less
/// the increment and the time the search itself planned and used.
#[derive(Clone, Debug, Default)]
pub struct LostTime {
    /// The last timed search of the game, if any.
    last: Option<PlannedMove>,
    /// Milliseconds added to `MoveOverhead`.
    allowance_ms: f64,
}

/// What one timed search knew and spent.
#[derive(Clone, Copy, Debug)]
struct PlannedMove {
    side: Side,
    ply: u32,
    clock: SideClock,
    /// The part of the move's time the engine accounts for: what it used,
    /// at most its hard limit.
    planned: Duration,
}

impl LostTime {
    /// The extra overhead for the next search.
    pub fn allowance(&self) -> Duration {
        Duration::from_micros((self.allowance_ms * 1000.0) as u64)
    }

    /// Learns from the clock given for searching `pos`: when the previous
    /// search was this side's previous move, whatever the clock lost beyond
    /// the increment and the plan was lost outside the search.
    pub fn learn(&mut self, pos: &Position, clock: Option<SideClock>) {
        let (Some(last), Some(clock)) = (self.last.take(), clock) else {
            return;
        };
        // Only the same side's next move in the same game, and not across
        // the end of a `movestogo` period (which adds time to the clock).
        // And only from a clock that ran down: a GUI that sends the same
        // time every move (a clock it does not run) says nothing of what
        // the move cost, and a clock that grew lost nothing worth learning.
        if last.side != pos.side_to_move()
            || pos.ply() != last.ply + 2
            || last.clock.moves_to_go == Some(1)
            || clock.time >= last.clock.time
        {
            return;
        }
        let Some(charged) = (last.clock.time + last.clock.increment).checked_sub(clock.time) else {
            return;
        };
        let lost = charged.saturating_sub(last.planned).as_secs_f64() * 1000.0;
        self.allowance_ms = (self.allowance_ms * LOST_TIME_DECAY)
            .max(lost * LOST_TIME_FACTOR as f64)
            .min(LOST_TIME_MAX_MS as f64);
        if lost >= 1.0 {
            log::debug!(
                "the clock lost {lost:.1} ms beyond the plan; {:.1} ms kept back",
                self.allowance_ms
            );
        }
    }

    /// Remembers what the search of `pos` just spent, as the next
    /// [`LostTime::learn`] compares it.
    pub fn record(&mut self, pos: &Position, limits: &Limits, time: &TimeManager) {
        self.last = match (limits.clock, time.hard_limit()) {
            (Some(clock), Some(hard)) if !limits.ponder => Some(PlannedMove {
                side: pos.side_to_move(),
                ply: pos.ply(),
                clock,
                planned: time.elapsed().min(hard),
            }),
            _ => None,
        };
    }

    /// A new game: nothing is known.
    pub fn clear(&mut self) {
        *self = LostTime::default();
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

    /// The hard limit, if the clock or `movetime` limits this search.
    pub fn hard_limit(&self) -> Option<Duration> {
        self.budget.map(|b| b.hard)
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
        for ms in [0, 5, 20, 60, 100, 140, 190, 240, 290] {
            let b = budget(&clock(ms, 10), &pos, Duration::ZERO).unwrap();
            let hard = b.hard.as_millis() as u64;
            if ms <= TIME_RESERVE_MS {
                // All of it is reserve: at most half the increment, and at
                // most a quarter of the clock.
                assert!(hard <= 5 && hard <= ms / 4, "{ms}+10: {b:?}");
            } else {
                // Even the longest move leaves the reserve.
                assert!(ms - hard + 10 >= TIME_RESERVE_MS, "{ms}+10: {b:?}");
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

    /// The position after `plies` moves of the start (always the first
    /// legal move), so that ply numbers follow one game.
    fn after(plies: u32) -> Position {
        let mut pos = Position::startpos();
        for _ in 0..plies {
            let mv = pos.legal_moves().next().unwrap();
            pos.play(mv);
        }
        pos
    }

    fn side_clock(ms: u64, inc: u64) -> Option<SideClock> {
        clock(ms, inc).clock
    }

    /// A search of `pos` at `ms`+`inc` that used `used_ms` of a 20 ms
    /// hard limit, as `LostTime::record` sees it.
    fn planned(lost: &mut LostTime, pos: &Position, ms: u64, inc: u64, used_ms: u64) {
        lost.last = Some(PlannedMove {
            side: pos.side_to_move(),
            ply: pos.ply(),
            clock: side_clock(ms, inc).unwrap(),
            planned: Duration::from_millis(used_ms.min(20)),
        });
    }

    #[test]
    fn time_lost_outside_the_search_is_kept_back_and_forgotten_slowly() {
        let mut lost = LostTime::default();
        // Planned and used 8 ms; the clock went 500 -> 472 (+10): 30 ms lost.
        planned(&mut lost, &after(10), 500, 10, 8);
        lost.learn(&after(12), side_clock(472, 10));
        assert_eq!(lost.allowance(), Duration::from_millis(60));
        // A move charged exactly what it used (15 ms): the allowance decays.
        planned(&mut lost, &after(12), 472, 10, 15);
        lost.learn(&after(14), side_clock(467, 10));
        assert_eq!(lost.allowance(), Duration::from_millis(57));
        // A move that ran past its 20 ms hard limit counts only the limit:
        // charged 60 ms, 40 of them lost.
        planned(&mut lost, &after(14), 467, 10, 50);
        lost.learn(&after(16), side_clock(417, 10));
        assert_eq!(lost.allowance(), Duration::from_millis(80));
        lost.clear();
        assert_eq!(lost.allowance(), Duration::ZERO);
    }

    #[test]
    fn only_the_same_sides_next_move_teaches() {
        let cases = [
            // Another game or an analysis: not two plies later.
            (after(10), after(14), side_clock(300, 10)),
            (after(10), after(11), side_clock(300, 10)),
            // The clock grew (a new period, or a GUI resetting it).
            (after(10), after(12), side_clock(900, 10)),
            // The same clock again: a GUI that does not run it.
            (after(10), after(12), side_clock(500, 10)),
            // No clock this time.
            (after(10), after(12), None),
        ];
        for (first, second, clock) in cases {
            let mut lost = LostTime::default();
            planned(&mut lost, &first, 500, 10, 8);
            lost.learn(&second, clock);
            assert_eq!(lost.allowance(), Duration::ZERO, "{clock:?}");
        }
        // The end of a `movestogo` period adds time: not a loss.
        let mut lost = LostTime {
            last: Some(PlannedMove {
                side: Side::White,
                ply: 10,
                clock: SideClock {
                    moves_to_go: Some(1),
                    ..side_clock(500, 0).unwrap()
                },
                planned: Duration::from_millis(8),
            }),
            allowance_ms: 0.0,
        };
        lost.learn(&after(12), side_clock(100, 0));
        assert_eq!(lost.allowance(), Duration::ZERO);
    }

    #[test]
    fn a_large_allowance_makes_the_engine_move_at_once_on_a_low_clock() {
        // 60 ms lost twice over: with 40 ms left nothing more is planned.
        let overhead = Duration::from_millis(10 + 120);
        let b = budget(&clock(40, 10), &Position::startpos(), overhead).unwrap();
        assert_eq!(b.hard, Duration::ZERO);
    }

    #[test]
    fn no_time_limit_without_clock_or_movetime() {
        assert_eq!(
            budget(&Limits::depth(5), &Position::startpos(), Duration::ZERO),
            None
        );
    }
}
