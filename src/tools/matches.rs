//! `tuzdyk matches` (being written).

use std::process::ExitCode;

/// Command-line arguments.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the tool.
pub fn run(_args: Args) -> ExitCode {
    eprintln!("error: not yet available");
    ExitCode::from(2)
}
