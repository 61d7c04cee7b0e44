//! The `tuzdyk` binary: the engine when run with no arguments, the tools as
//! subcommands. Everything lives in the crates under `crates/`; this is the
//! command line only ([`cli`]) and the small commands without a crate of
//! their own ([`commands`]).

mod cli;
mod commands;

fn main() -> std::process::ExitCode {
    cli::run()
}
