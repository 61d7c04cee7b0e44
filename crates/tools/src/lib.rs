//! The user tools: engine-vs-engine matches, batch analysis, play in the
//! terminal, and the game review that `analyse` and the GUI share
//! ([`review`]). Each drives engines through the protocol as an
//! outside program would ([`tuzdyk_protocol::client`]); none of them links
//! the search.

pub mod analyse;
pub mod json;
pub mod matches;
pub mod play;
pub mod review;

use tuzdyk_protocol::EngineOption;

/// A command-line parser for a value of the engine option `option`, taking
/// exactly the option's range (so that `--threads` or `--hash` take what
/// the engine takes).
pub fn option_range(option: EngineOption) -> clap::builder::RangedI64ValueParser<u32> {
    let (min, max) = option.range();
    clap::value_parser!(u32).range(min..=max)
}
