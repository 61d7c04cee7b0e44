//! The `tuzdyk` binary: everything lives in the library.

fn main() -> std::process::ExitCode {
    tuzdyk::cli::run()
}
