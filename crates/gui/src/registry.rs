//! The games the server keeps, by id: found again after a reload or a lost
//! connection, and never more than the limit. A game no page is connected
//! to makes room for a new one when the limit is reached (the one left
//! longest first), so closing a page frees its place at once.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use tuzdyk_protocol::EngineSpec;

use crate::error::GuiError;
use crate::library::Library;
use crate::session::Session;

/// A game a page connected to.
pub struct Opened {
    pub session: Arc<Session>,
    /// The game asked for (false: a new one).
    pub found: bool,
}

/// The games and the engine they start.
pub struct Registry {
    games: Mutex<HashMap<String, Arc<Session>>>,
    spec: EngineSpec,
    /// The games database each game saves its exercises to.
    library: Library,
    max_games: usize,
    counter: AtomicU64,
}

impl Registry {
    pub fn new(spec: EngineSpec, library: Library, max_games: usize) -> Registry {
        Registry {
            games: Mutex::new(HashMap::new()),
            spec,
            library,
            max_games,
            counter: AtomicU64::new(0),
        }
    }

    /// The game `id`, or a new one when there is no such game, counted as
    /// watched by one more page (the caller calls [`Session::unwatch`] when
    /// the page leaves); `found` says which.
    ///
    /// # Errors
    /// [`GuiError::TooManyGames`] when the limit is reached and a page is
    /// connected to every game.
    pub fn open(&self, id: Option<&str>) -> Result<Opened, GuiError> {
        let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(session) = id.and_then(|id| games.get(id)) {
            session.watch();
            return Ok(Opened {
                session: Arc::clone(session),
                found: true,
            });
        }
        if games.len() >= self.max_games {
            let oldest = games
                .values()
                .filter(|s| s.watchers() == 0)
                .max_by_key(|s| s.idle_for())
                .map(|s| s.id.clone());
            match oldest {
                Some(id) => {
                    log::info!("closing game {id}, unwatched, to make room");
                    games.remove(&id);
                }
                None => return Err(GuiError::TooManyGames(self.max_games)),
            }
        }
        let id = self.new_id();
        let session = Session::new(id.clone(), self.spec.clone(), self.library.clone());
        session.watch();
        games.insert(id, Arc::clone(&session));
        Ok(Opened {
            session,
            found: false,
        })
    }

    /// Games open now.
    pub fn len(&self) -> usize {
        self.games.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// An id no page can guess: 128 bits from the standard library's random
    /// hash keys, the time and a counter.
    fn new_id(&self) -> String {
        let count = self.counter.fetch_add(1, Ordering::SeqCst);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let half = |salt: u64| {
            let mut hasher = RandomState::new().build_hasher();
            hasher.write_u64(nanos ^ salt);
            hasher.write_u64(count);
            hasher.finish()
        };
        format!("{:016x}{:016x}", half(1), half(2))
    }
}

/// Whether `text` can be a game id (what [`Registry`] makes): 32 hex digits.
pub fn is_game_id(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|b| b.is_ascii_hexdigit())
}
