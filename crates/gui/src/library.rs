//! The games database as the page's study features reach it (the opening
//! explorer; puzzles, studies and the mistakes to learn from build on the
//! same handle): one connection, opened on first use (so a server whose
//! pages never study never creates a database), used on tokio's blocking
//! threads so that SQLite never holds up a WebSocket. A database that
//! cannot be opened leaves the rest of the GUI working: each study command
//! gets that error, and the next one tries again.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tuzdyk_db::Database;

use crate::error::GuiError;

/// Where the database is, and the connection once opened; a clone shares
/// them (each game's session keeps one to save its exercises).
#[derive(Clone)]
pub struct Library {
    path: Option<PathBuf>,
    db: Arc<Mutex<Option<Database>>>,
}

impl Library {
    /// The database at `path`, or the user's default one (`None`),
    /// opened when first used.
    pub fn new(path: Option<PathBuf>) -> Library {
        Library {
            path,
            db: Arc::new(Mutex::new(None)),
        }
    }

    /// Runs `work` on the database, on a blocking thread.
    ///
    /// # Errors
    /// [`GuiError::Database`] when it cannot be opened or `work` fails.
    pub async fn run<T, F>(&self, work: F) -> Result<T, GuiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Database) -> Result<T, GuiError> + Send + 'static,
    {
        let library = self.clone();
        tokio::task::spawn_blocking(move || library.blocking(work))
            .await
            .map_err(|e| GuiError::Database(e.to_string()))?
    }

    /// Runs `work` on the database on this thread, which may wait for it:
    /// an engine worker's thread, or a blocking one.
    ///
    /// # Errors
    /// [`GuiError::Database`] when it cannot be opened or `work` fails.
    pub fn blocking<T, F>(&self, work: F) -> Result<T, GuiError>
    where
        F: FnOnce(&mut Database) -> Result<T, GuiError>,
    {
        let mut guard = self
            .db
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if guard.is_none() {
            *guard = Some(open(self.path.clone())?);
        }
        match guard.as_mut() {
            Some(db) => work(db),
            None => Err(GuiError::Database("not open".to_string())),
        }
    }

    /// Runs `work` on the database in the background, its failure logged:
    /// from a page's command, which must not wait for SQLite.
    pub fn spawn<F>(&self, work: F)
    where
        F: FnOnce(&mut Database) -> Result<(), GuiError> + Send + 'static,
    {
        let library = self.clone();
        let job = move || {
            if let Err(error) = library.blocking(work) {
                log::warn!("{error}");
            }
        };
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn_blocking(job)),
            Err(_) => job(),
        }
    }
}

/// Opens the database at `path`, or the user's default one (made on first
/// use with the games the program carries, said in the log).
fn open(path: Option<PathBuf>) -> Result<Database, GuiError> {
    let error = |e: &dyn std::fmt::Display| GuiError::Database(e.to_string());
    match path {
        Some(path) => Database::open(&path).map_err(|e| error(&e)),
        None => {
            let default = Database::open_default().map_err(|e| error(&e))?;
            if let Some(seeded) = default.seeded {
                // A note nobody can read is no reason to fail.
                let _ = tuzdyk_notation::console::err(format_args!(
                    "made the games database {} with {} PlayOK games and {} puzzles",
                    default.path.display(),
                    seeded.games.imported,
                    seeded.puzzles.imported
                ));
            }
            Ok(default.db)
        }
    }
}
