//! The engine: the one layer between the protocol and the search.
//!
//! It owns the current position, the option values and the [`Searcher`], and
//! runs one search at a time on a background thread. It turns a `go` into
//! search limits (the level's node cap included), the search's reports into
//! `info` lines, and its result into a `bestmove` (the level's choice
//! included). Every state change (new position, option, new game, new search)
//! first stops a running search, so a search's `bestmove` is always given
//! before the change takes effect.

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use tuzdyk_protocol::{
    BUILT_IN_NETWORK, BestMove, Bound, EVALUATIONS, EngineOption, Go, InfoLine, Level, OptionKind,
    OptionValue, Score,
};
use tuzdyk_rules::{Game, Position, rng};
use tuzdyk_search::eval::Evaluator;
use tuzdyk_search::eval::classic::{self, Evaluation, Weights};
use tuzdyk_search::eval::network::{Network, NetworkError};
use tuzdyk_search::{
    Control, HashAllocationError, Limits, Reporter, ScoreBound, SearchInfo, SearchOptions,
    SearchResult, Searcher, SideClock, score,
};

use crate::level::{self, LevelEvaluation, Way};
use crate::strength::Strength;

/// Receives what a search says: its `info` lines and its one `bestmove`.
pub trait Listener: Send + Sync {
    fn info(&self, info: &InfoLine);
    fn best_move(&self, best: &BestMove);
}

/// The values of the options that are not the searcher's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub multipv: usize,
    pub ponder: bool,
    /// `Level`, `UCI_LimitStrength` and `UCI_Elo`.
    pub strength: Strength,
    /// Whether the network evaluates (`Eval network`) rather than the
    /// hand-written evaluation.
    pub use_network: bool,
    /// The `EvalFile` value, and the network it names.
    pub eval_file: String,
    pub network: Option<Arc<Network>>,
}

/// Why an option could not be set; the previous value stays.
#[derive(Debug, thiserror::Error)]
pub enum OptionError {
    #[error(transparent)]
    Hash(#[from] HashAllocationError),
    #[error("EvalFile '{path}': {reason}")]
    EvalFile { path: String, reason: String },
    #[error("Eval network: the program has no built-in network; set EvalFile first")]
    NoNetwork,
}

struct RunningSearch {
    control: Arc<Control>,
    handle: JoinHandle<Searcher>,
}

/// The engine state behind the protocol.
pub struct Engine {
    game: Game,
    settings: Settings,
    /// `None` only while a search runs, which owns it.
    searcher: Option<Searcher>,
    running: Option<RunningSearch>,
    /// Varies a level's choices from search to search.
    searches: u64,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

/// The evaluation the `Eval` option's declared default names.
fn default_evaluator() -> Evaluator {
    match EngineOption::Eval.spec().kind {
        OptionKind::Combo {
            default: "network", ..
        } => Evaluator::default_network(),
        _ => Evaluator::Classic,
    }
}

/// A spin option's declared default.
fn spin_default(option: EngineOption) -> i64 {
    match option.spec().kind {
        OptionKind::Spin { default, .. } => default,
        _ => 0,
    }
}

impl Engine {
    /// An engine with every option at its declared default.
    pub fn new() -> Engine {
        let options = SearchOptions {
            threads: spin_default(EngineOption::Threads) as usize,
            lines: 1,
            reported_lines: 1,
            move_overhead: Duration::from_millis(spin_default(EngineOption::MoveOverhead) as u64),
            hash_mb: spin_default(EngineOption::Hash) as usize,
            evaluator: default_evaluator(),
        };
        Engine {
            game: Game::new(Position::startpos()),
            settings: Settings {
                multipv: spin_default(EngineOption::MultiPv) as usize,
                ponder: false,
                strength: Strength::default(),
                use_network: matches!(options.evaluator, Evaluator::Network(_)),
                eval_file: BUILT_IN_NETWORK.to_string(),
                network: Network::built_in(),
            },
            searcher: Some(Searcher::new(options)),
            running: None,
            searches: 0,
        }
    }

    /// The position to search next.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The searcher, once any running search has given its move.
    fn searcher(&mut self) -> &mut Searcher {
        self.stop();
        self.searcher.get_or_insert_with(|| {
            log::error!("the search thread was lost; a new searcher is set up");
            Searcher::new(SearchOptions::default())
        })
    }

    /// Sets the game to search next (stops a running search first).
    pub fn set_game(&mut self, game: Game) {
        self.stop();
        self.game = game;
    }

    /// Forgets everything learnt: the table and the histories.
    pub fn new_game(&mut self) {
        self.searcher().new_game();
    }

    /// Sets an option (stops a running search first). Returns the notice
    /// to print when the change moved another option (the strength options).
    ///
    /// # Errors
    /// [`OptionError`] when a new `Hash` cannot be allocated, an `EvalFile`
    /// cannot be read, or the network is asked for without one; the old
    /// value stays.
    pub fn set_option(
        &mut self,
        option: EngineOption,
        value: OptionValue,
    ) -> Result<Option<String>, OptionError> {
        let spin = match value {
            OptionValue::Spin { value, .. } => value.max(0) as usize,
            _ => 0,
        };
        let mut options = self.searcher().options().clone();
        let mut notice = None;
        match (option, value) {
            (EngineOption::Hash, _) => return Ok(self.searcher().set_hash(spin).map(|()| None)?),
            (EngineOption::ClearHash, _) => self.searcher().clear_hash(),
            (EngineOption::Threads, _) => options.threads = spin,
            (EngineOption::MoveOverhead, _) => {
                options.move_overhead = Duration::from_millis(spin as u64)
            }
            (EngineOption::MultiPv, _) => self.settings.multipv = spin,
            (EngineOption::Ponder, OptionValue::Check(on)) => self.settings.ponder = on,
            (EngineOption::Level, OptionValue::Combo(index)) => {
                let level = Level::ALL
                    .get(index)
                    .copied()
                    .unwrap_or(Level::FULL_STRENGTH);
                notice = self.settings.strength.set_level(level);
            }
            (EngineOption::LimitStrength, OptionValue::Check(on)) => {
                notice = self.settings.strength.set_limit(on);
            }
            (EngineOption::Elo, OptionValue::Spin { value, .. }) => {
                notice = self.settings.strength.set_elo(value);
            }
            (EngineOption::Eval, OptionValue::Combo(index)) => {
                let use_network = EVALUATIONS.get(index) == Some(&"network");
                if use_network && self.settings.network.is_none() {
                    return Err(OptionError::NoNetwork);
                }
                self.settings.use_network = use_network;
            }
            (EngineOption::EvalFile, OptionValue::String(path)) => {
                self.settings.network = Some(load_network(&path)?);
                self.settings.eval_file = path;
            }
            // The tuning build's search parameters: process-wide, read by
            // every search from the next one on.
            #[cfg(feature = "tune")]
            (EngineOption::Tuned(index), OptionValue::Spin { value, .. }) => {
                tuzdyk_search::params::set_tunable(usize::from(index), value);
            }
            (option, value) => {
                log::error!("{option:?} set with a value of the wrong kind: {value:?}");
            }
        }
        options.evaluator = self.evaluator();
        self.searcher().set_options(options);
        Ok(notice)
    }

    /// The value an option has now, as `setoption` would give it.
    pub fn option_value(&self, option: EngineOption) -> String {
        let options = self
            .searcher
            .as_ref()
            .map(|s| s.options().clone())
            .unwrap_or_default();
        match option {
            EngineOption::Hash => options.hash_mb.to_string(),
            EngineOption::Threads => options.threads.to_string(),
            EngineOption::MoveOverhead => options.move_overhead.as_millis().to_string(),
            EngineOption::MultiPv => self.settings.multipv.to_string(),
            EngineOption::Ponder => self.settings.ponder.to_string(),
            EngineOption::Level => self.settings.strength.level.to_string(),
            EngineOption::LimitStrength => self.settings.strength.limit.to_string(),
            EngineOption::Elo => self.settings.strength.elo.to_string(),
            EngineOption::ClearHash => String::new(),
            EngineOption::Eval => {
                EVALUATIONS[if self.settings.use_network { 0 } else { 1 }].to_string()
            }
            EngineOption::EvalFile => self.settings.eval_file.clone(),
            #[cfg(feature = "tune")]
            EngineOption::Tuned(index) => tuzdyk_search::params::tunable_value(usize::from(index))
                .map_or_else(String::new, |value| value.to_string()),
        }
    }

    /// The evaluation `Eval` and `EvalFile` choose: what full-strength
    /// searches use (a weaker level may keep its own, [`level::style`]).
    pub fn evaluator(&self) -> Evaluator {
        match (&self.settings.network, self.settings.use_network) {
            (Some(network), true) => Evaluator::Network(Arc::clone(network)),
            _ => Evaluator::Classic,
        }
    }

    /// The evaluation a search at `level` uses.
    pub fn evaluator_at(&self, level: Level) -> Evaluator {
        match level::style(level).evaluation {
            LevelEvaluation::Classic => Evaluator::Classic,
            LevelEvaluation::Chosen => self.evaluator(),
        }
    }

    /// The hand-written evaluation of the current position, term by term.
    pub fn classic_evaluation(&self) -> Evaluation {
        classic::evaluate_with(self.position(), &Weights::DEFAULT)
    }

    /// Starts searching the current position in the background; `listener`
    /// receives the `info` lines and the `bestmove`. A running search is
    /// stopped first (and gives its own move).
    pub fn go(&mut self, go: &Go, listener: Arc<dyn Listener>) {
        self.stop();
        let position = *self.position();
        let level = self.settings.strength.level;
        self.searches += 1;
        let seed =
            position.key() ^ self.searches.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ rng::clock_seed();
        let way = level::way(level, seed);
        let limits = self.limits(go, &position, way);
        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| Searcher::new(SearchOptions::default()));
        let lines = if level::needs_all_scores(level, way) {
            // A weaker level needs every move's score to choose among them.
            tuzdyk_search::root_moves(&position, &limits).len()
        } else {
            self.settings.multipv
        };
        searcher.set_options(SearchOptions {
            lines,
            reported_lines: self.settings.multipv,
            evaluator: self.evaluator_at(level),
            ..searcher.options().clone()
        });
        let control = Arc::new(searcher.control(&position, &limits));
        let search_control = Arc::clone(&control);
        let spawned = std::thread::Builder::new()
            .name("search".to_string())
            .stack_size(16 * 1024 * 1024)
            .spawn(move || {
                let reporter = InfoReporter(listener.as_ref());
                let result = searcher.search(&position, &limits, &search_control, &reporter);
                let best = chosen_move(&searcher, &position, (level, way), &result, seed);
                listener.best_move(&best);
                searcher
            });
        match spawned {
            Ok(handle) => self.running = Some(RunningSearch { control, handle }),
            Err(e) => log::error!("cannot start the search thread: {e}"),
        }
    }

    /// The search limits for `go` in `position`: the side to move's clock,
    /// and the smaller of each `go` limit and the level's cap for its `way`.
    fn limits(&self, go: &Go, position: &Position, way: Way) -> Limits {
        let side = position.side_to_move().index();
        let clock = go.clock.time[side].map(|time| SideClock {
            time,
            increment: go.clock.increment[side],
            moves_to_go: go.clock.moves_to_go,
        });
        let smaller = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let (max_nodes, max_depth) = level::caps(self.settings.strength.level, way);
        let nodes = smaller(go.nodes, max_nodes);
        let depth = smaller(go.depth.map(u64::from), max_depth.map(u64::from));
        Limits {
            depth: depth.map(|d| d as u32),
            nodes,
            movetime: go.movetime,
            clock,
            infinite: go.infinite,
            ponder: go.ponder,
            mate: go.mate,
            searchmoves: go.searchmoves.clone(),
        }
    }

    /// Stops a running search and waits until it has given its move.
    pub fn stop(&mut self) {
        if let Some(running) = &self.running {
            running.control.stop();
        }
        self.wait();
    }

    /// Whether the running search ends by itself (a depth, node or time
    /// limit, not `infinite` or `ponder`).
    pub fn search_is_bounded(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|running| running.control.is_bounded())
    }

    /// Waits for a running search to finish by itself.
    pub fn wait(&mut self) {
        if let Some(running) = self.running.take() {
            match running.handle.join() {
                Ok(searcher) => self.searcher = Some(searcher),
                Err(_) => log::error!("the search thread panicked; its state is reset"),
            }
        }
    }

    /// The opponent played the ponder move: the search goes on on the clock.
    /// Returns false if no ponder search was running.
    pub fn ponderhit(&self) -> bool {
        match &self.running {
            Some(running) if running.control.is_pondering() => {
                running.control.ponderhit();
                true
            }
            _ => false,
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The network in the file at `path`, or the built-in one for
/// [`BUILT_IN_NETWORK`].
fn load_network(path: &str) -> Result<Arc<Network>, OptionError> {
    let error = |reason: String| OptionError::EvalFile {
        path: path.to_string(),
        reason,
    };
    if path == BUILT_IN_NETWORK {
        return Network::built_in()
            .ok_or_else(|| error("the program has no built-in network".to_string()));
    }
    let bytes = std::fs::read(path).map_err(|e| error(e.to_string()))?;
    Network::from_bytes(&bytes)
        .map(Arc::new)
        .map_err(|e: NetworkError| error(e.to_string()))
}

/// The move to play: the search's best, or at a weaker level its own
/// choice among the root moves.
fn chosen_move(
    searcher: &Searcher,
    position: &Position,
    (level, way): (Level, Way),
    result: &SearchResult,
    seed: u64,
) -> BestMove {
    let chosen = if level::plays_best(level, way) {
        None
    } else {
        level::choose(level, way, position, &result.root_moves, seed)
            .and_then(|mv| result.root_moves.iter().find(|rm| rm.mv == mv))
    };
    match chosen {
        Some(chosen) => BestMove {
            mv: Some(chosen.mv),
            ponder: searcher.expected_reply(position, chosen),
        },
        None => BestMove {
            mv: result.best,
            ponder: result.ponder,
        },
    }
}

/// A search score as the protocol reports it.
pub fn reported_score(search_score: i32) -> Score {
    match score::mate_in_moves(search_score) {
        Some(moves) => Score::Mate(moves),
        None => Score::Centistones(search_score),
    }
}

/// Hands the search's reports to a listener as `info` lines.
struct InfoReporter<'a>(&'a dyn Listener);

impl Reporter for InfoReporter<'_> {
    fn info(&self, info: &SearchInfo) {
        self.0.info(&info_line(info));
    }
}

/// The `info` line of a search report.
pub fn info_line(info: &SearchInfo) -> InfoLine {
    InfoLine {
        depth: Some(info.depth),
        seldepth: Some(info.seldepth),
        multipv: Some(info.multipv),
        score: Some(reported_score(info.score)),
        bound: info.bound.map(|bound| match bound {
            ScoreBound::Lower => Bound::Lower,
            ScoreBound::Upper => Bound::Upper,
        }),
        nodes: Some(info.nodes),
        nps: Some(info.nps),
        hashfull: Some(info.hashfull),
        time_ms: Some(info.time.as_millis() as u64),
        pv: info.pv.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tuzdyk_protocol::OptionValue;

    #[test]
    fn full_strength_uses_the_chosen_evaluation_and_weaker_levels_the_classic_one() {
        let mut engine = Engine::new();
        let built_in = Network::built_in().expect("the program has a built-in network");
        assert_eq!(
            engine.evaluator(),
            Evaluator::Network(Arc::clone(&built_in))
        );
        assert_eq!(engine.option_value(EngineOption::Eval), "network");
        for level in Level::ALL {
            let expected = if matches!(
                level,
                Level::Candidate | Level::Master | Level::Grandmaster | Level::Champion
            ) {
                Evaluator::Network(Arc::clone(&built_in))
            } else {
                Evaluator::Classic
            };
            assert_eq!(engine.evaluator_at(level), expected, "{level}");
        }
        let classic = EVALUATIONS.iter().position(|&e| e == "classic").unwrap();
        engine
            .set_option(EngineOption::Eval, OptionValue::Combo(classic))
            .unwrap();
        assert_eq!(engine.evaluator_at(Level::Champion), Evaluator::Classic);
        assert_eq!(engine.option_value(EngineOption::Eval), "classic");
    }

    #[cfg(feature = "tune")]
    #[test]
    fn the_tuning_build_sets_search_parameters_by_option() {
        let option = EngineOption::by_name("LMP_BASE").expect("LMP_BASE is an option");
        let mut engine = Engine::new();
        assert_eq!(
            engine.option_value(option),
            tuzdyk_search::params::LMP_BASE.to_string()
        );
        let value = option.spec().parse_value(Some("5")).unwrap();
        engine.set_option(option, value).unwrap();
        assert_eq!(engine.option_value(option), "5");
        let default = tuzdyk_search::params::LMP_BASE.to_string();
        let value = option.spec().parse_value(Some(&default)).unwrap();
        engine.set_option(option, value).unwrap();
        assert_eq!(engine.option_value(option), default);
    }
}
