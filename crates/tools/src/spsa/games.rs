//! A batch's games: the tuning build with θ + c·flip against itself with
//! θ − c·flip, in colour-swapped pairs from the match runner's openings,
//! each game refereed by the match runner (`matches::referee`: clocks,
//! forfeits, a crashed or hung engine started again for the next game).
//! Every batch starts its engines afresh with its values, as fishtest's
//! workers do.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use tuzdyk_notation::console;
use tuzdyk_protocol::EngineSpec;

use crate::matches::config::GameLimits;
use crate::matches::openings::Opening;
use crate::matches::referee::{self, GameSpec, Player, Termination};

/// The θ + c·flip side's games in a batch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Score {
    /// fishtest's `result`: wins minus losses.
    pub fn result(&self) -> i64 {
        self.wins as i64 - self.losses as i64
    }
}

/// One batch to play: the pairs' place in the run (which openings) and the
/// two sides' values, by parameter name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// 1-based.
    pub iteration: u64,
    /// The run's pair number of the batch's first pair (0-based).
    pub first_pair: u64,
    pub pairs: u64,
    pub plus: Vec<(String, i64)>,
    pub minus: Vec<(String, i64)>,
}

/// Plays a batch: the batch's score, or why the run cannot go on.
pub trait Games {
    /// # Errors
    /// A message when an engine's program cannot be run at all.
    fn play(&mut self, pairing: &Pairing) -> Result<Score, String>;
}

/// The real games, through engine processes.
pub struct Arena {
    /// The tuning build, with the options given on the command line.
    pub engine: EngineSpec,
    pub limits: GameLimits,
    pub openings: Vec<Opening>,
    pub concurrency: usize,
}

impl Arena {
    /// The engine with `values` set after the command line's options.
    fn side(&self, name: &str, values: &[(String, i64)]) -> EngineSpec {
        let mut spec = self.engine.clone();
        spec.name = name.to_string();
        spec.options
            .extend(values.iter().map(|(n, v)| (n.clone(), v.to_string())));
        spec
    }
}

impl Games for Arena {
    fn play(&mut self, pairing: &Pairing) -> Result<Score, String> {
        let specs = [
            self.side("theta+", &pairing.plus),
            self.side("theta-", &pairing.minus),
        ];
        let games = (pairing.pairs * 2) as usize;
        let next_game = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let this = &*self;
        let results: Vec<Result<Score, String>> = std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for worker in 0..this.concurrency.min(games) {
                let (specs, next_game, stop) = (&specs, &next_game, &stop);
                let spawned = std::thread::Builder::new()
                    .name(format!("spsa worker {worker}"))
                    .spawn_scoped(scope, move || {
                        this.worker(specs, pairing, games, next_game, stop)
                    });
                match spawned {
                    Ok(handle) => handles.push(handle),
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        return vec![Err(format!("cannot start a worker thread: {e}"))];
                    }
                }
            }
            handles
                .into_iter()
                .map(|handle| {
                    handle
                        .join()
                        .unwrap_or_else(|_| Err("a worker thread panicked".to_string()))
                })
                .collect()
        });
        let mut total = Score::default();
        for result in results {
            let score = result?;
            total.wins += score.wins;
            total.draws += score.draws;
            total.losses += score.losses;
        }
        Ok(total)
    }
}

impl Arena {
    /// One worker's games: the next game of the batch until there are none.
    /// Its own two engine processes, quit at the end.
    fn worker(
        &self,
        specs: &[EngineSpec; 2],
        pairing: &Pairing,
        games: usize,
        next_game: &AtomicUsize,
        stop: &AtomicBool,
    ) -> Result<Score, String> {
        let mut players = specs.clone().map(Player::new);
        let mut score = Score::default();
        let mut result = Ok(());
        while !stop.load(Ordering::Relaxed) {
            let index = next_game.fetch_add(1, Ordering::Relaxed);
            if index >= games {
                break;
            }
            let pair = pairing.first_pair as usize + index / 2;
            let game = GameSpec {
                number: index + 1,
                opening: &self.openings[pair % self.openings.len()],
                white: index % 2,
            };
            let outcome = match referee::play_game(&mut players, &game, &self.limits, stop) {
                Ok(Some(outcome)) => outcome,
                Ok(None) => break,
                Err(message) => {
                    stop.store(true, Ordering::Relaxed);
                    result = Err(message);
                    break;
                }
            };
            if let Termination::Forfeit { loser, forfeit } = &outcome.termination {
                // Said, and played on: the referee starts the engine again.
                let name = &specs[outcome.engine(*loser)].name;
                let _ = console::err(format_args!(
                    "iteration {} game {}: {}",
                    pairing.iteration,
                    index + 1,
                    forfeit.describe(name)
                ));
            }
            match outcome.first_engine_points() {
                2 => score.wins += 1,
                1 => score.draws += 1,
                _ => score.losses += 1,
            }
        }
        for player in &mut players {
            player.shutdown();
        }
        result.map(|()| score)
    }
}
