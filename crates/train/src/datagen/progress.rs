//! Progress on stderr: an `indicatif` bar on a terminal, a plain line every
//! [`PLAIN_EVERY`] otherwise (a log file or a scheduler's output capture,
//! where a redrawn bar would be noise), and one summary line at the end.
//!
//! `indicatif` is the field's standard progress bar: it redraws at a
//! bounded rate, fits the terminal's width, estimates the remaining time
//! from a moving average, and stays out of the way of other output.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tuzdyk_notation::console::{self, OutputError};

use super::game::Counts;

/// How often a plain progress line is printed when stderr is not a terminal.
pub const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// The progress of one run of `total` games.
pub struct Progress {
    total: u64,
    started: Instant,
    counts: Counts,
    bar: Option<ProgressBar>,
    last_line: Instant,
}

impl Progress {
    /// A bar when stderr is a terminal, plain lines otherwise.
    pub fn new(total: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let template = "{bar:30} {pos}/{len} games  {msg}  ETA {eta}";
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar
        });
        let now = Instant::now();
        Progress {
            total,
            started: now,
            counts: Counts::default(),
            bar,
            last_line: now,
        }
    }

    /// Called after each game written (`Some`) and now and then (`None`).
    ///
    /// # Errors
    /// A progress line that cannot be written to stderr.
    pub fn update(&mut self, counts: Option<&Counts>) -> Result<(), OutputError> {
        if let Some(counts) = counts {
            self.counts = *counts;
        }
        let rates = self.rates();
        match &self.bar {
            Some(bar) => {
                bar.set_position(self.counts.games);
                let rates = rates.join("  ");
                bar.set_message(format!("{} positions kept  {rates}", self.counts.kept));
            }
            None if self.last_line.elapsed() >= PLAIN_EVERY => {
                self.last_line = Instant::now();
                console::err(format_args!(
                    "datagen: {}/{} games, {} positions kept, {}, ETA {}",
                    self.counts.games,
                    self.total,
                    self.counts.kept,
                    rates.join(", "),
                    self.eta()
                ))?;
            }
            None => {}
        }
        Ok(())
    }

    fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64().max(1e-3)
    }

    /// Kept positions per second and games per second.
    fn rates(&self) -> [String; 2] {
        let seconds = self.seconds();
        [
            format!("{:.0} positions/s", self.counts.kept as f64 / seconds),
            format!("{:.2} games/s", self.counts.games as f64 / seconds),
        ]
    }

    fn eta(&self) -> String {
        if self.counts.games == 0 {
            return "unknown".to_string();
        }
        let left = self.total.saturating_sub(self.counts.games) as f64;
        let seconds = self.seconds() * left / self.counts.games as f64;
        format!("{}m {:02}s", seconds as u64 / 60, seconds as u64 % 60)
    }

    /// Clears the bar and prints the summary line of `counts`.
    ///
    /// # Errors
    /// The summary cannot be written to stderr.
    pub fn finish(&mut self, counts: &Counts) -> Result<(), OutputError> {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        self.counts = *counts;
        console::err(summary(counts, self.started.elapsed()))
    }
}

/// The summary line: games, positions searched, kept and left out by each
/// filter, time and rates (of kept positions).
pub fn summary(counts: &Counts, time: Duration) -> String {
    let seconds = time.as_secs_f64().max(1e-3);
    format!(
        "datagen: {} games ({} adjudicated), {} positions, {} kept (left out: {} capture or tuzdik, \
         {} forced result, {} opening), {:.1} s, {:.0} positions/s, {:.2} games/s",
        counts.games,
        counts.adjudicated,
        counts.positions,
        counts.kept,
        counts.capture,
        counts.forced_result,
        counts.opening,
        seconds,
        counts.kept as f64 / seconds,
        counts.games as f64 / seconds
    )
}
