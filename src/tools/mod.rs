//! The user tools: engine-vs-engine matches, batch analysis and game review,
//! and play in the terminal. Each drives engines through the protocol as an
//! outside program would (see [`client`]).

pub mod analyse;
pub mod client;
pub mod json;
pub mod matches;
pub mod play;
