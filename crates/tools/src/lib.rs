//! The user tools: engine-vs-engine matches, batch analysis, play in the
//! terminal, the game review that `analyse`, `rating` and the GUI share
//! ([`review`]), and the levels' rating on the PlayOK scale ([`rating`]).
//! Each drives engines through the protocol as an
//! outside program would ([`tuzdyk_protocol::client`]); none of them links
//! the search.

pub mod analyse;
pub mod json;
pub mod matches;
pub mod play;
pub mod rating;
pub mod review;

use std::process::ExitCode;

use tuzdyk_protocol::{EngineOption, EngineSpec};

/// The engine a tool or the GUI runs: `--engine-cmd` split on white space,
/// or this program. An unusable command is one `error:` line on stderr and
/// exit status 2.
pub fn engine_spec(command: Option<&str>) -> Result<EngineSpec, ExitCode> {
    EngineSpec::from_command(command, "engine").map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })
}

/// A command-line parser for a value of the engine option `option`, taking
/// exactly the option's range (so that `--threads` or `--hash` take what
/// the engine takes).
pub fn option_range(option: EngineOption) -> clap::builder::RangedI64ValueParser<u32> {
    let (min, max) = option.range();
    clap::value_parser!(u32).range(min..=max)
}
