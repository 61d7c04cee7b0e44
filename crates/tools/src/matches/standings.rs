//! The running results of a match: the tally, the pairs, the forfeits and
//! the SPRT.

use std::collections::HashMap;

use tuzdyk_notation::record::result_text;
use tuzdyk_rules::GameResult;

use super::referee::{self, ForfeitKind, GameOutcome, Termination};
use super::sprt::{Decision, Sprt};
use crate::elo::{Tally, format_elo};

/// How a game ended, as the standings count it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ending {
    /// By the rules of the game.
    Rules,
    /// A draw after the maximum number of plies.
    Adjudicated,
    /// `engine` (0 or 1) lost by its own fault.
    Forfeit { engine: usize, kind: ForfeitKind },
}

/// A finished game as the standings count it: one just played, or one read
/// back from the record of an interrupted match (`--resume`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Finished {
    /// 1-based, in the order games are scheduled.
    pub number: usize,
    /// The engine (0 or 1) that played White.
    pub white: usize,
    pub result: GameResult,
    pub ending: Ending,
    /// Why it ended, as the record's `Termination` tag says.
    pub described: String,
    /// By engine: the least time left after a move; unknown (`None`) for
    /// a game read back from its record.
    pub closest_to_flag_ms: [Option<u64>; 2],
}

impl Finished {
    /// A game just played.
    pub fn played(game: &GameOutcome, names: &[String; 2]) -> Finished {
        Finished {
            number: game.number,
            white: game.white,
            result: game.result,
            ending: match &game.termination {
                Termination::Rules(_) => Ending::Rules,
                Termination::Adjudicated { .. } => Ending::Adjudicated,
                Termination::Forfeit { loser, forfeit } => Ending::Forfeit {
                    engine: game.engine(*loser),
                    kind: forfeit.kind(),
                },
            },
            described: game.describe(names),
            closest_to_flag_ms: game.closest_to_flag_ms,
        }
    }
}

/// The running results.
pub(super) struct Standings {
    pub names: [String; 2],
    pub tally: Tally,
    /// First games of pairs whose second game has not ended: pair -> points.
    pub open_pairs: HashMap<usize, u8>,
    /// Games ended by the rules, and adjudicated.
    pub normal: u64,
    pub adjudicated: u64,
    /// Per engine, forfeits by kind.
    pub forfeits: [HashMap<ForfeitKind, u64>; 2],
    /// By engine: the least time left after a move in any game, and the
    /// game's number.
    pub closest_to_flag: [Option<(u64, usize)>; 2],
    /// Every game: number, White engine, result, termination text.
    pub games: Vec<(usize, usize, &'static str, String)>,
    pub sprt: Option<(Sprt, f64, Decision)>,
}

impl Standings {
    pub fn new(names: [String; 2], sprt: Option<Sprt>) -> Standings {
        Standings {
            names,
            tally: Tally::default(),
            open_pairs: HashMap::new(),
            normal: 0,
            adjudicated: 0,
            forfeits: [HashMap::new(), HashMap::new()],
            closest_to_flag: [None; 2],
            games: Vec::new(),
            sprt: sprt.map(|s| (s, 0.0, Decision::Continue)),
        }
    }

    pub fn add(&mut self, game: &Finished) {
        let points = referee::first_engine_points(game.result, game.white);
        self.tally.add_game(points);
        let pair = (game.number - 1) / 2;
        match self.open_pairs.remove(&pair) {
            Some(other) => {
                self.tally.add_pair(points + other);
                if let Some((sprt, llr, decision)) = &mut self.sprt {
                    *llr = sprt.llr(&self.tally.pentanomial);
                    *decision = sprt.decision(*llr);
                }
            }
            None => {
                self.open_pairs.insert(pair, points);
            }
        }
        match game.ending {
            Ending::Rules => self.normal += 1,
            Ending::Adjudicated => self.adjudicated += 1,
            Ending::Forfeit { engine, kind } => {
                *self.forfeits[engine].entry(kind).or_default() += 1;
            }
        }
        for (closest, ms) in self.closest_to_flag.iter_mut().zip(game.closest_to_flag_ms) {
            if let Some(ms) = ms
                && closest.is_none_or(|(least, _)| ms < least)
            {
                *closest = Some((ms, game.number));
            }
        }
        self.games.push((
            game.number,
            game.white,
            result_text(Some(game.result)),
            game.described.clone(),
        ));
    }

    /// `W 5 D 3 L 4, 54.2%, Elo +29.0 [-66.1, +124.5]`.
    pub fn score_line(&self) -> String {
        let t = &self.tally;
        let mut line = format!("W {} D {} L {}", t.wins, t.draws, t.losses);
        if let (Some(score), Some(elo)) = (t.score(), t.elo()) {
            line.push_str(&format!(
                ", {:.1}%, Elo {} [{}, {}]",
                100.0 * score,
                format_elo(elo.elo),
                format_elo(elo.lower),
                format_elo(elo.upper)
            ));
        }
        line
    }

    /// `LLR 0.31 [-2.94, 2.94]`.
    pub fn sprt_line(&self) -> Option<String> {
        self.sprt.map(|(sprt, llr, _)| {
            let (lower, upper) = sprt.bounds();
            format!("LLR {llr:.2} [{lower:.2}, {upper:.2}]")
        })
    }

    /// Forfeits of `engine` (0 or 1) of one kind.
    pub fn forfeit_count(&self, engine: usize, kind: ForfeitKind) -> u64 {
        self.forfeits[engine].get(&kind).copied().unwrap_or(0)
    }

    pub fn decision(&self) -> Decision {
        self.sprt.map_or(Decision::Continue, |(_, _, d)| d)
    }

    /// `a 12 ms (game 17), b 40 ms (game 3)`: the least time each engine
    /// had left after a move; `None` without clocks.
    pub fn closest_to_flag_line(&self) -> Option<String> {
        let parts: Vec<String> = (0..2)
            .filter_map(|engine| {
                self.closest_to_flag[engine]
                    .map(|(ms, game)| format!("{} {ms} ms (game {game})", self.names[engine]))
            })
            .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// `12 normal, 1 adjudicated, new: 2 crash, old: 1 time_forfeit`.
    pub fn terminations_line(&self) -> String {
        let mut parts = vec![
            format!("{} normal", self.normal),
            format!("{} adjudicated", self.adjudicated),
        ];
        for engine in 0..2 {
            let listed: Vec<String> = ForfeitKind::ALL
                .iter()
                .filter_map(|kind| {
                    let count = self.forfeit_count(engine, *kind);
                    (count > 0).then(|| format!("{count} {}", kind.name().replace('_', " ")))
                })
                .collect();
            if !listed.is_empty() {
                parts.push(format!("{}: {}", self.names[engine], listed.join(", ")));
            }
        }
        parts.join("; ")
    }
}
