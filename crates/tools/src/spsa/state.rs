//! The run's state, `--state FILE`: the schedule, θ and every finished
//! batch, as one JSON object. It is written after each batch to a
//! temporary file beside it and renamed over it, so a run killed at any
//! moment leaves the last finished batch's state, and a run started again
//! with the file continues with the next batch.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::rule::{Param, Schedule};

/// What the `format` field of our state files says.
pub const FORMAT: &str = "tuzdyk spsa state";
/// The layout's version.
pub const VERSION: u32 = 1;

/// One finished batch, as logged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Batch {
    /// 1-based.
    pub iteration: u64,
    /// The θ + c·flip side's games.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// θ after the update, in the order of the run's parameters.
    pub theta: Vec<f64>,
}

impl Batch {
    /// W − L of the θ + c·flip side, what the update moves θ by.
    pub fn result(&self) -> i64 {
        self.wins as i64 - self.losses as i64
    }
}

/// A run: fixed when it starts, but for θ and the batches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub format: String,
    pub version: u32,
    pub seed: u64,
    pub iterations: u64,
    pub pairs_per_iteration: u64,
    pub schedule: Schedule,
    /// The time control played, for the record.
    pub tc: String,
    pub params: Vec<Param>,
    /// Batches finished, in order.
    pub batches: Vec<Batch>,
}

/// Why a state file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error("cannot read state file '{path}': {error}")]
    Read { path: String, error: std::io::Error },
    #[error("state file '{path}' is not a tuzdyk spsa state: {reason}")]
    NotOurs { path: String, reason: String },
    #[error("cannot write state file '{path}': {error}")]
    Write { path: String, error: std::io::Error },
}

impl State {
    /// A new run from `params` at their start values.
    pub fn new(
        params: Vec<Param>,
        iterations: u64,
        pairs_per_iteration: u64,
        seed: u64,
        tc: String,
    ) -> State {
        State {
            format: FORMAT.to_string(),
            version: VERSION,
            seed,
            iterations,
            pairs_per_iteration,
            schedule: Schedule::new(iterations * pairs_per_iteration),
            tc,
            params,
            batches: Vec::new(),
        }
    }

    /// Batches finished.
    pub fn done(&self) -> u64 {
        self.batches.len() as u64
    }

    /// The parameters' names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.params.iter().map(|p| p.name.as_str()).collect()
    }

    /// Reads a state file, `Ok(None)` when there is none yet.
    ///
    /// # Errors
    /// [`StateError`]: unreadable, not JSON, or not our layout.
    pub fn load(path: &Path) -> Result<Option<State>, StateError> {
        let shown = path.display().to_string();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(StateError::Read { path: shown, error }),
        };
        let not_ours = |reason: String| StateError::NotOurs {
            path: shown.clone(),
            reason,
        };
        let state: State = serde_json::from_str(&text).map_err(|e| not_ours(e.to_string()))?;
        if state.format != FORMAT || state.version != VERSION {
            return Err(not_ours(format!(
                "format '{}' version {}, expected '{FORMAT}' version {VERSION}",
                state.format, state.version
            )));
        }
        if state.batches.len() as u64 > state.iterations
            || state
                .batches
                .iter()
                .any(|b| b.theta.len() != state.params.len())
        {
            return Err(not_ours(
                "its batches do not fit its parameters".to_string(),
            ));
        }
        Ok(Some(state))
    }

    /// Writes the state atomically: a temporary file beside `path`, synced,
    /// then renamed over it.
    ///
    /// # Errors
    /// [`StateError::Write`]; the file at `path` is then as it was.
    pub fn save(&self, path: &Path) -> Result<(), StateError> {
        let error = |error| StateError::Write {
            path: path.display().to_string(),
            error,
        };
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other);
        let mut temporary = PathBuf::from(path);
        temporary.as_mut_os_string().push(".tmp");
        let written = text.and_then(|text| {
            let mut file = std::fs::File::create(&temporary)?;
            file.write_all(text.as_bytes())?;
            file.write_all(b"\n")?;
            file.sync_all()
        });
        written
            .and_then(|()| std::fs::rename(&temporary, path))
            .map_err(|e| {
                let _ = std::fs::remove_file(&temporary);
                error(e)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> State {
        let param = Param {
            name: "RFP_MARGIN".to_string(),
            start: 90.0,
            min: 30.0,
            max: 200.0,
            c_end: 8.0,
            r_end: 0.002,
            theta: 91.25,
        };
        let mut state = State::new(vec![param], 6, 2, 9, "5+0.05".to_string());
        state.batches.push(Batch {
            iteration: 1,
            wins: 2,
            draws: 1,
            losses: 1,
            theta: vec![91.25],
        });
        state
    }

    #[test]
    fn a_state_file_round_trips_and_a_missing_one_is_a_new_run() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.json");
        assert!(State::load(&path).unwrap().is_none());
        let state = state();
        state.save(&path).unwrap();
        assert_eq!(State::load(&path).unwrap(), Some(state.clone()));
        // Saved again over itself, no temporary file left beside it.
        state.save(&path).unwrap();
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("run.json")]);
    }

    #[test]
    fn a_file_that_is_not_our_state_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("other.json");
        for text in [
            "not json",
            "{\"games\": 3}",
            &serde_json::to_string(&State {
                format: "something else".to_string(),
                ..state()
            })
            .unwrap(),
        ] {
            std::fs::write(&path, text).unwrap();
            let error = State::load(&path).unwrap_err().to_string();
            assert!(
                error.starts_with(&format!(
                    "state file '{}' is not a tuzdyk spsa state: ",
                    path.display()
                )),
                "{error}"
            );
            assert!(!error.contains('\n'), "{error}");
        }
    }
}
