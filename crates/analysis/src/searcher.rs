//! Positions searched through the protocol client: an engine process
//! started with its options ([`Searcher::start`]), each position set and
//! searched with the same limits, optionally one move alone (`go ...
//! searchmoves`); and [`Reviewer`], the quiet review of whole games that
//! `tuzdyk rating` runs on several engines at once.

use std::time::Duration;

use tuzdyk_notation::record::GameRecord;
use tuzdyk_notation::tfen;
use tuzdyk_protocol::{EngineOption, EngineProcess, EngineSpec, Go, SearchReport};
use tuzdyk_rules::{Move, Position};

use crate::review::{self, DEFAULT_THRESHOLDS, PlayerStats, ReviewEngine};
use crate::{AnalysisError, SearchLimits};

/// How long the engine may take to answer the handshake.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);

/// An engine process and the limits of every search it makes.
pub struct Searcher {
    engine: EngineProcess,
    limits: SearchLimits,
}

impl Searcher {
    /// Starts the engine `spec`, sets `options` and searches with `limits`.
    ///
    /// # Errors
    /// [`AnalysisError::Engine`] when the engine cannot be started or set up.
    pub fn start(
        spec: &EngineSpec,
        options: &[(EngineOption, u32)],
        limits: SearchLimits,
    ) -> Result<Searcher, AnalysisError> {
        let mut engine = EngineProcess::start(spec)?;
        let options: Vec<(String, String)> = options
            .iter()
            .map(|(option, value)| (option.spec().name.to_string(), value.to_string()))
            .collect();
        engine.handshake(&options, HANDSHAKE_TIMEOUT)?;
        Ok(Searcher { engine, limits })
    }

    /// The limits of each search.
    pub fn limits(&self) -> SearchLimits {
        self.limits
    }

    /// Changes the limits of the searches that follow (the puzzle miner
    /// searches one position to several depths).
    pub fn set_limits(&mut self, limits: SearchLimits) {
        self.limits = limits;
    }

    /// A fresh state (`ucinewgame`): with one thread and a depth or node
    /// limit, what follows does not depend on what came before.
    ///
    /// # Errors
    /// [`AnalysisError::Engine`] when the engine cannot be written to.
    pub fn new_game(&mut self) -> Result<(), AnalysisError> {
        Ok(self.engine.send("ucinewgame")?)
    }

    /// Sets up `pos` and searches it, only `only` when given (`go ...
    /// searchmoves`). An `info string error` about the position (another
    /// engine may reject what this one accepts) is in the report
    /// ([`SearchReport::position_error`]).
    ///
    /// # Errors
    /// [`AnalysisError::Engine`] when the engine fails.
    pub fn search(
        &mut self,
        pos: &Position,
        only: Option<Move>,
    ) -> Result<SearchReport, AnalysisError> {
        self.engine
            .send(&format!("position fen {}", tfen::write(pos)))?;
        let go = Go {
            searchmoves: only.into_iter().collect(),
            ..self.limits.go()
        };
        Ok(self.engine.go(&go, self.limits.timeout())?)
    }

    /// Ends the engine.
    pub fn quit(self) {
        self.engine.quit();
    }
}

impl ReviewEngine for Searcher {
    fn search(
        &mut self,
        pos: &Position,
        only: Option<Move>,
    ) -> Result<SearchReport, AnalysisError> {
        Searcher::search(self, pos, only)
    }
}

/// Reviews games for another tool (`tuzdyk rating`): an engine on one
/// thread at a fixed depth, each game from a new game, nothing printed.
pub struct Reviewer(Searcher);

impl Reviewer {
    /// Starts the engine `spec` to search every move to `depth`.
    ///
    /// # Errors
    /// [`AnalysisError::Engine`] when the engine cannot be started or set up.
    pub fn start(spec: &EngineSpec, depth: u32) -> Result<Reviewer, AnalysisError> {
        let options = [(EngineOption::Threads, 1), (EngineOption::MultiPv, 1)];
        Ok(Reviewer(Searcher::start(
            spec,
            &options,
            SearchLimits::depth(depth),
        )?))
    }

    /// Each player's totals over `game` (White's first); `None` when the
    /// engine rejected one of its positions.
    ///
    /// # Errors
    /// [`AnalysisError::Engine`] when the engine fails.
    pub fn review(&mut self, game: &GameRecord) -> Result<Option<[PlayerStats; 2]>, AnalysisError> {
        let mut stats = [PlayerStats::default(), PlayerStats::default()];
        let thresholds = DEFAULT_THRESHOLDS.map(|t| t as i32);
        let reviewed = self.0.new_game().and_then(|()| {
            review::review_game(&mut self.0, &game.game, 0, thresholds, |m| {
                stats[m.mover.index()].add(&m);
                Ok(())
            })
        });
        match reviewed {
            Ok(()) => Ok(Some(stats)),
            Err(AnalysisError::Rejected(_)) => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// Ends the engine.
    pub fn quit(self) {
        self.0.quit();
    }
}
