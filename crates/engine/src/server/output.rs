//! The one writer of protocol output: every line is written whole and
//! flushed at once, from whichever thread (protocol loop or search) sends it.
//! Once a write fails (the reader closed the pipe) the output is closed:
//! nothing more is written, and the protocol loop stops.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A shared, line-flushing protocol writer.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    closed: Arc<AtomicBool>,
}

impl Output {
    /// Writes to standard output.
    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Arc::new(Mutex::new(sink)),
            closed: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Whether a write has failed: whoever read the output has gone.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }

    /// Writes one line and flushes it. A line break inside `text` (from
    /// echoed input) is written as `?`, so that one line stays one line. A
    /// failed write closes the output, said once in the log (at debug
    /// level: a reader that stops reading is no fault of the engine's).
    pub fn line(&self, text: &str) {
        if self.is_closed() {
            return;
        }
        let text: std::borrow::Cow<str> = if text.contains(['\n', '\r']) {
            text.replace(['\n', '\r'], "?").into()
        } else {
            text.into()
        };
        log::debug!(">> {text}");
        let mut sink = match self.sink.lock() {
            Ok(sink) => sink,
            Err(poisoned) => poisoned.into_inner(),
        };
        let written = sink
            .write_all(text.as_bytes())
            .and_then(|()| sink.write_all(b"\n"))
            .and_then(|()| sink.flush());
        if let Err(e) = written
            && !self.closed.swap(true, Ordering::Relaxed)
        {
            log::debug!("cannot write protocol output, closing it: {e}");
        }
    }

    /// `info string <text>`.
    pub fn info_string(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }

    /// `info string error: <text>`.
    pub fn error(&self, text: &str) {
        self.line(&format!("info string error: {text}"));
    }
}

/// A `Write` that collects into a shared buffer, for tests and in-process drivers.
#[derive(Clone, Default)]
pub struct SharedBuffer(pub Arc<Mutex<Vec<u8>>>);

impl SharedBuffer {
    /// The text written so far.
    pub fn text(&self) -> String {
        let bytes = match self.0.lock() {
            Ok(bytes) => bytes.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        };
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.0.lock() {
            Ok(mut bytes) => bytes.extend_from_slice(buf),
            Err(poisoned) => poisoned.into_inner().extend_from_slice(buf),
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
