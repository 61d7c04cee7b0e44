//! The tuzdyk engine: what runs when `tuzdyk` speaks the protocol.
//!
//! - [`engine`]: the one layer between protocol and search (position,
//!   options, the background search, levels);
//! - [`server`]: the protocol loop and its one output writer;
//! - [`level`]: how each playing level chooses its move;
//! - [`strength`]: `Level`, `UCI_LimitStrength` and `UCI_Elo` in agreement;
//! - [`bench`]: the fixed benchmark.
//!
//! ```
//! use tuzdyk_engine::server::{Output, Session, SharedBuffer};
//!
//! let buffer = SharedBuffer::default();
//! let mut session = Session::new(Output::new(Box::new(buffer.clone())));
//! session.run("position startpos moves 6\ngo depth 3\n".as_bytes());
//! assert!(buffer.text().lines().last().unwrap().starts_with("bestmove "));
//! ```

pub mod bench;
pub mod engine;
pub mod level;
pub mod server;
pub mod strength;

pub use engine::{Engine, Listener};
