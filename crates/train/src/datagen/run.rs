//! Playing a range of games on worker threads and writing their records in
//! game order.
//!
//! Each worker owns one searcher (reset for every game, so a game does not
//! depend on the one before), takes the next game index, plays it and sends
//! its records to the writer. The writer keeps the games that finished out
//! of order until the ones before them are written; a worker takes a new
//! index only while it is fewer than [`WINDOW`] games ahead of the writer,
//! so memory stays bounded even behind one very long game. The output is
//! the same bytes whatever the thread count.

use std::collections::BTreeMap;
use std::io::Write;
use std::ops::Range;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use tuzdyk_rules::Position;

use super::game::{self, Counts, GameRecords, Recipe};

/// How many games a worker may run ahead of the writer, per thread.
pub const WINDOW_PER_THREAD: u64 = 4;

/// How often the writer wakes to let the progress report tick.
const TICK: Duration = Duration::from_millis(500);

/// Which games are handed out and which are written.
struct Schedule {
    next: u64,
    written: u64,
    end: u64,
    window: u64,
    stopped: bool,
}

/// The shared schedule and the condition workers wait on.
struct Dispatcher {
    state: Mutex<Schedule>,
    advanced: Condvar,
}

impl Dispatcher {
    /// The next game to play, waiting while the writer is too far behind;
    /// `None` when there are no more, or the run stopped.
    fn claim(&self) -> Option<u64> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if state.stopped || state.next >= state.end {
                return None;
            }
            if state.next < state.written + state.window {
                state.next += 1;
                return Some(state.next - 1);
            }
            state = self.advanced.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn update(&self, change: impl FnOnce(&mut Schedule)) {
        change(&mut self.state.lock().unwrap_or_else(|e| e.into_inner()));
        self.advanced.notify_all();
    }
}

/// Why a run stopped early.
#[derive(Debug)]
pub enum Stopped<E> {
    /// The records could not be written.
    Write(std::io::Error),
    /// The progress report failed (its output is gone).
    Progress(E),
}

/// Plays `games` with `threads` workers and writes their records to `out`
/// in game order; `progress` is called after every game written (with the
/// counts so far) and every [`TICK`] otherwise (with `None`).
///
/// # Errors
/// The first write or progress error; the workers then stop after their
/// current game.
pub fn generate<E>(
    suite: &[Position],
    recipe: &Recipe,
    games: Range<u64>,
    threads: usize,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(Option<&Counts>) -> Result<(), E>,
) -> Result<Counts, Stopped<E>> {
    let dispatcher = Dispatcher {
        state: Mutex::new(Schedule {
            next: games.start,
            written: games.start,
            end: games.end,
            window: WINDOW_PER_THREAD * threads as u64,
            stopped: false,
        }),
        advanced: Condvar::new(),
    };
    let (sender, receiver) = mpsc::channel::<(u64, GameRecords)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let sender = sender.clone();
            let dispatcher = &dispatcher;
            scope.spawn(move || {
                let mut searcher = game::searcher(&recipe.evaluator);
                while let Some(index) = dispatcher.claim() {
                    let records = game::play(&mut searcher, suite, recipe, index);
                    if sender.send((index, records)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let written = write_in_order(&receiver, &dispatcher, games.start, out, progress);
        if written.is_err() {
            dispatcher.update(|state| state.stopped = true);
        }
        drop(receiver);
        written
    })
}

/// The writer: takes finished games off `receiver` and writes each as soon
/// as every game before it is written.
fn write_in_order<E>(
    receiver: &mpsc::Receiver<(u64, GameRecords)>,
    dispatcher: &Dispatcher,
    first: u64,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(Option<&Counts>) -> Result<(), E>,
) -> Result<Counts, Stopped<E>> {
    let mut waiting = BTreeMap::new();
    let mut next = first;
    let mut counts = Counts::default();
    let mut bytes = Vec::new();
    loop {
        match receiver.recv_timeout(TICK) {
            Ok((index, records)) => {
                waiting.insert(index, records);
            }
            Err(RecvTimeoutError::Timeout) => {
                progress(None).map_err(Stopped::Progress)?;
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => break,
        }
        while let Some(game) = waiting.remove(&next) {
            bytes.clear();
            for record in &game.records {
                bytes.extend_from_slice(&record.encode());
            }
            out.write_all(&bytes).map_err(Stopped::Write)?;
            counts.add(&game.counts);
            next += 1;
            dispatcher.update(|state| state.written = next);
            progress(Some(&counts)).map_err(Stopped::Progress)?;
        }
    }
    out.flush().map_err(Stopped::Write)?;
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::args::{PliesRange, Shard};

    const RECIPE: Recipe = Recipe {
        seed: 9,
        evaluator: tuzdyk_search::eval::Evaluator::Classic,
        nodes: 150,
        random_plies: PliesRange { min: 2, max: 6 },
    };

    fn bytes(games: Range<u64>, threads: usize) -> (Vec<u8>, Counts) {
        let suite = tuzdyk_notation::suite::playok_positions();
        let mut out = Vec::new();
        let Ok(counts) = generate(&suite, &RECIPE, games, threads, &mut out, &mut |_| {
            Ok::<(), std::convert::Infallible>(())
        }) else {
            panic!("writing to memory cannot fail")
        };
        (out, counts)
    }

    #[test]
    fn the_output_does_not_depend_on_the_thread_count() {
        let (one, counts) = bytes(0..5, 1);
        let (two, _) = bytes(0..5, 2);
        let (three, _) = bytes(0..5, 3);
        assert_eq!(counts.games, 5);
        assert_eq!(one.len() as u64, counts.kept * 32);
        assert!(one == two && one == three);
    }

    #[test]
    fn shards_concatenated_are_the_whole_run() {
        let (whole, _) = bytes(0..5, 2);
        for count in [2, 3] {
            let mut joined = Vec::new();
            for index in 0..count {
                let range = Shard { index, count }.games(5);
                joined.extend(bytes(range, 2).0);
            }
            assert!(joined == whole, "{count} shards");
        }
    }

    struct Failing;

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_write_error_stops_the_run() {
        let suite = tuzdyk_notation::suite::playok_positions();
        let outcome = generate(&suite, &RECIPE, 0..40, 2, &mut Failing, &mut |_| {
            Ok::<(), std::convert::Infallible>(())
        });
        match outcome {
            Err(Stopped::Write(error)) => assert_eq!(error.to_string(), "disk full"),
            other => panic!("{other:?}"),
        }
    }
}
