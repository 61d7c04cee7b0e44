//! Text forms of positions and games: TFEN position strings and PlayOK game
//! records. Depends only on the board.

pub mod record;
pub mod tfen;
