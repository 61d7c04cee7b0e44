//! The user tools: engine-vs-engine matches, batch analysis and game review
//! (the review itself is `tuzdyk_analysis`'s, shared with the GUI), play in
//! the terminal, the levels' rating on the PlayOK scale ([`rating`]), and
//! the search's parameters tuned by SPSA against a tuning build ([`spsa`]).
//! Each drives engines through the protocol as an
//! outside program would ([`tuzdyk_protocol::client`]); none of them links
//! the search.
//!
//! Each command's `run` returns its own error type (with the command's exit
//! status); the command line prints it. Output that cannot be written keeps
//! its `std::io::Error`, so the command line can tell a reader that went
//! away (`| head`) from a failure.

pub mod analyse;
pub mod db;
mod elo;
pub mod explore;
pub mod matches;
pub mod play;
pub mod puzzles;
pub mod rating;
pub mod spsa;

pub use tuzdyk_analysis::SearchLimits;
use tuzdyk_protocol::{ClientError, EngineOption, EngineSpec};

/// A command-line parser for a value of the engine option `option`, taking
/// exactly the option's range (so that `--threads` or `--hash` take what
/// the engine takes).
pub fn option_range(option: EngineOption) -> clap::builder::RangedI64ValueParser<u32> {
    let (min, max) = option.range();
    clap::value_parser!(u32).range(min..=max)
}

/// `--engine-cmd`: the engine a tool runs, with its arguments.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct EngineCmd {
    /// The engine to run, with its arguments, split on white space
    /// (default: this program).
    #[arg(long, value_name = "CMD")]
    pub engine_cmd: Option<String>,
}

impl EngineCmd {
    /// The engine to start.
    ///
    /// # Errors
    /// [`ClientError::Start`] for an empty command.
    pub fn spec(&self) -> Result<EngineSpec, ClientError> {
        EngineSpec::from_command(self.engine_cmd.as_deref(), "engine")
    }
}
