//! The games the server keeps, by id: found again after a reload or a lost
//! connection, and never more than the limit (the oldest game no page has
//! watched for a while makes room for a new one).

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tuzdyk_protocol::EngineSpec;

use crate::error::GuiError;
use crate::session::Session;

/// A game no page has watched for this long may make room for a new one.
pub const EVICTABLE_AFTER: Duration = Duration::from_secs(60);

/// The games and the engine they start.
pub struct Registry {
    games: Mutex<HashMap<String, Arc<Session>>>,
    spec: EngineSpec,
    max_games: usize,
    counter: AtomicU64,
}

impl Registry {
    pub fn new(spec: EngineSpec, max_games: usize) -> Registry {
        Registry {
            games: Mutex::new(HashMap::new()),
            spec,
            max_games,
            counter: AtomicU64::new(0),
        }
    }

    /// The game `id`, or a new one when there is no such game.
    ///
    /// # Errors
    /// [`GuiError::TooManyGames`] when the limit is reached and every game
    /// has been watched lately.
    pub fn open(&self, id: Option<&str>) -> Result<Arc<Session>, GuiError> {
        let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(session) = id.and_then(|id| games.get(id)) {
            return Ok(Arc::clone(session));
        }
        if games.len() >= self.max_games {
            let oldest = games
                .values()
                .filter(|s| s.idle_for() >= EVICTABLE_AFTER)
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
        let session = Session::new(id.clone(), self.spec.clone());
        games.insert(id, Arc::clone(&session));
        Ok(session)
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
