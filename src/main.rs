//! The `tuzdyk` binary: the engine when run with no arguments, the tools as
//! subcommands. Everything lives in the crates under `crates/`; this is the
//! command line only ([`cli`]).

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
