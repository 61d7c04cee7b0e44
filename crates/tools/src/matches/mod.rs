//! `tuzdyk match`: two engines play each other, refereed, with live Elo and
//! an optional SPRT.
//!
//! Games come in pairs from the same opening with colours swapped: game
//! `2k+1` has the first engine as White, game `2k+2` the second. Openings are
//! taken in order (shuffled once with `--seed`) and reused in a cycle when
//! there are more pairs than openings. `--concurrency K` plays K games at
//! once, each worker thread with its own two engine processes, kept from
//! game to game (`ucinewgame` between games) and started again after a crash
//! or a hang.
//!
//! - [`args`]: the command line and the checked setup;
//! - [`referee`]: one game, with the clocks and the rules;
//! - [`standings`]: the running results;
//! - [`report`]: the lines per game, the summary, the game records;
//! - Elo and its interval: `crate::elo`;
//! - [`sprt`]: the sequential test;
//! - [`openings`]: opening files and the built-in suite;
//! - [`resume`]: `--resume`, the games of an interrupted match read back;
//! - [`config`]: engine specifications and time controls.
//!
//! Progress goes to standard error, one line per game and one with the
//! running score; the summary goes to standard output (or, with `--json`,
//! one JSON object instead).

mod args;
pub(crate) mod config;
pub mod openings;
pub(crate) mod referee;
mod report;
mod resume;
mod sprt;
mod standings;

use std::collections::HashSet;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use tuzdyk_notation::console::{self, Stream};
use tuzdyk_protocol::EngineProcess;

use args::Setup;
pub use args::{Args, MatchError};
use openings::Opening;
use referee::{GameOutcome, GameSpec, Player};
use sprt::Decision;
use standings::{Finished, Standings};

/// Runs the tool.
///
/// # Errors
/// [`MatchError`]: bad arguments or an engine that does not start (before
/// the first game), an engine that cannot be started again (the match
/// stops, its summary printed), or output that cannot be written.
pub fn run(args: Args) -> Result<(), MatchError> {
    let setup = args.check()?;
    // Start each engine once before the match, so that a wrong command or
    // an engine that does not speak the protocol is one clear error.
    let timeout = Duration::from_millis(setup.limits.ready_timeout_ms);
    for spec in &setup.specs {
        let (process, id) =
            EngineProcess::launch(spec, timeout).map_err(|error| MatchError::Engine {
                name: spec.name.clone(),
                error,
            })?;
        for line in id.errors {
            console::err(format_args!("warning: engine {}: {line}", spec.name))?;
        }
        process.quit();
    }
    play_match(setup)
}

/// What the workers send the main thread.
enum Message {
    Game(Box<GameOutcome>),
    Fatal(String),
}

/// Plays the match and prints the reports. A report that cannot be written
/// (its reader gone) stops the match: the games in flight are abandoned.
fn play_match(mut setup: Setup) -> Result<(), MatchError> {
    let names = [setup.specs[0].name.clone(), setup.specs[1].name.clone()];
    let mut standings = Standings::new(names.clone(), setup.sprt);
    for game in &setup.resumed {
        standings.add(game);
    }
    // Game indices (0-based) still to play, in order.
    let done: HashSet<usize> = setup.resumed.iter().map(|g| g.number - 1).collect();
    let pending: Vec<usize> = (0..setup.games).filter(|i| !done.contains(i)).collect();
    if let Some((path, _)) = &setup.pgn
        && !setup.resumed.is_empty()
    {
        let sprt = standings
            .sprt_line()
            .map_or(String::new(), |line| format!(", {line}"));
        console::err(format_args!(
            "resuming: {} games of {} counted, {} to play; after {} games: {} vs {}: {}{sprt}",
            setup.resumed.len(),
            path.display(),
            pending.len(),
            standings.tally.games(),
            names[0],
            names[1],
            standings.score_line()
        ))?;
    }
    let next_game = AtomicUsize::new(0);
    let stop = AtomicBool::new(standings.decision() != Decision::Continue);
    let mut fatal = None;
    let mut closed = None;
    let date = tuzdyk_notation::record::today();
    let mut pgn_failed = false;
    let mut pgn = setup.pgn.take();
    let setup = setup;

    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<Message>();
        for worker in 0..setup.concurrency {
            let sender = sender.clone();
            let (setup, pending, next_game, stop) = (&setup, &pending, &next_game, &stop);
            let spawned = std::thread::Builder::new()
                .name(format!("match worker {worker}"))
                .spawn_scoped(scope, move || {
                    run_worker(setup, pending, next_game, stop, &sender);
                });
            if let Err(e) = spawned {
                stop.store(true, Ordering::Relaxed);
                fatal = Some(format!("cannot start a worker thread: {e}"));
                break;
            }
        }
        drop(sender);
        for message in receiver {
            if closed.is_some() {
                // Draining: the workers see `stop` after their game.
                continue;
            }
            let game = match message {
                Message::Game(game) => game,
                Message::Fatal(message) => {
                    stop.store(true, Ordering::Relaxed);
                    fatal.get_or_insert(message);
                    continue;
                }
            };
            let reported = if standings.decision() != Decision::Continue {
                // In flight when the test decided: the decision stands on
                // the games before it, so this one is left out.
                console::err(format_args!(
                    "game {} ended after the SPRT decision: not counted",
                    game.number
                ))
            } else {
                standings.add(&Finished::played(&game, &names));
                if let Some((path, file)) = &mut pgn {
                    let text = report::game_record(&game, &names, &setup, &date).to_string();
                    if let Err(e) = writeln!(file, "{text}").and_then(|()| file.flush())
                        && !pgn_failed
                    {
                        pgn_failed = true;
                        // Said once; the match goes on without its records.
                        let _ = console::err(format_args!(
                            "warning: cannot write to '{}': {e}",
                            path.display()
                        ));
                    }
                }
                if standings.decision() != Decision::Continue {
                    stop.store(true, Ordering::Relaxed);
                }
                console::err(report::game_lines(&game, &standings, setup.games))
            };
            if let Err(error) = reported {
                stop.store(true, Ordering::Relaxed);
                closed = Some(error);
            }
        }
    });

    if let Some(error) = closed {
        return Err(MatchError::Output(error));
    }
    let summary = if setup.json {
        report::json_summary(&standings, &setup) + "\n"
    } else {
        report::text_summary(&standings, &setup)
    };
    console::write(Stream::Output, &summary)?;
    match fatal {
        Some(message) => Err(MatchError::Stopped(message)),
        None => Ok(()),
    }
}

/// Game `index` (0-based) of the schedule: its opening, and the engine (0
/// or 1) that plays White. Pairs share an opening, colours swapped, and the
/// openings cycle.
fn scheduled(index: usize, openings: &[Opening]) -> (&Opening, usize) {
    (&openings[(index / 2) % openings.len()], index % 2)
}

/// One worker: takes the next game of `pending` until there are none or
/// the match stops.
fn run_worker(
    setup: &Setup,
    pending: &[usize],
    next_game: &AtomicUsize,
    stop: &AtomicBool,
    sender: &mpsc::Sender<Message>,
) {
    let mut players = setup.specs.clone().map(Player::new);
    while !stop.load(Ordering::Relaxed) {
        let Some(&index) = pending.get(next_game.fetch_add(1, Ordering::Relaxed)) else {
            break;
        };
        let (opening, white) = scheduled(index, &setup.openings);
        let game = GameSpec {
            number: index + 1,
            opening,
            white,
        };
        match referee::play_game(&mut players, &game, &setup.limits, stop) {
            Ok(Some(outcome)) => {
                if sender.send(Message::Game(Box::new(outcome))).is_err() {
                    break;
                }
            }
            Ok(None) => break,
            Err(message) => {
                let _ = sender.send(Message::Fatal(message));
                break;
            }
        }
    }
    for player in &mut players {
        player.shutdown();
    }
}
