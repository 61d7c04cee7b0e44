//! The lines the command-line tools write for people, on standard output
//! (results) or standard error (problems, progress): each written whole and
//! flushed, a failure kept as an [`OutputError`] with its `io::Error`, so
//! that the command line can tell a reader that went away (`| head`, a
//! broken pipe: the command ends quietly) from a real failure (a full disk).
//! The tools and the trainers share it; messages quote input with
//! [`crate::excerpt`].

use std::fmt;
use std::io::{self, Write};

/// A standard stream could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write standard {stream}: {error}")]
pub struct OutputError {
    pub stream: Stream,
    #[source]
    pub error: io::Error,
}

impl OutputError {
    /// Whether the stream's reader has gone (a closed pipe): nothing
    /// failed, nobody reads any more.
    pub fn reader_gone(&self) -> bool {
        self.error.kind() == io::ErrorKind::BrokenPipe
    }
}

/// Standard output or standard error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Output,
    Error,
}

impl fmt::Display for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stream::Output => "output",
            Stream::Error => "error",
        })
    }
}

/// Writes `text` to `stream` as it is (add the line break) and flushes it.
///
/// # Errors
/// [`OutputError`] when the stream cannot be written.
pub fn write(stream: Stream, text: &str) -> Result<(), OutputError> {
    let written = match stream {
        Stream::Output => {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes()).and_then(|()| out.flush())
        }
        Stream::Error => io::stderr().lock().write_all(text.as_bytes()),
    };
    written.map_err(|error| OutputError { stream, error })
}

/// Writes one line of results to standard output, flushed at once so that
/// it goes down a pipeline as soon as it is known.
///
/// # Errors
/// [`OutputError`] when standard output cannot be written.
pub fn out(line: impl fmt::Display) -> Result<(), OutputError> {
    write(Stream::Output, &format!("{line}\n"))
}

/// Writes one line (a problem, a warning, progress) to standard error.
///
/// # Errors
/// [`OutputError`] when standard error cannot be written.
pub fn err(line: impl fmt::Display) -> Result<(), OutputError> {
    write(Stream::Error, &format!("{line}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_pipe_is_told_from_a_failure() {
        let gone = OutputError {
            stream: Stream::Output,
            error: io::Error::from(io::ErrorKind::BrokenPipe),
        };
        assert!(gone.reader_gone());
        let full = OutputError {
            stream: Stream::Error,
            error: io::Error::other("no space left"),
        };
        assert!(!full.reader_gone());
        assert_eq!(
            full.to_string(),
            "cannot write standard error: no space left"
        );
    }
}
