//! The opening explorer beside the board: the moves played in a position
//! in the games database, answered to the page that asked.

use tuzdyk_notation::tfen;
use tuzdyk_rules::Position;

use crate::error::GuiError;
use crate::library::Library;
use crate::limits::MAX_UPLOAD_BYTES;
use crate::wire::{ExplorerMove, ExplorerView};

/// The explorer's answer for the position `text` (TFEN).
///
/// # Errors
/// [`GuiError::Tfen`] for a position that does not parse, or the
/// database's error.
pub async fn explore(library: &Library, text: String) -> Result<ExplorerView, GuiError> {
    if text.len() > MAX_UPLOAD_BYTES {
        return Err(GuiError::TooLarge {
            bytes: text.len(),
            limit: MAX_UPLOAD_BYTES,
        });
    }
    let position: Position =
        tfen::parse(text.trim()).map_err(|e| GuiError::tfen(text.trim(), e))?;
    let stats = library
        .run(move |db| {
            db.explore(&position)
                .map_err(|e| GuiError::Database(e.to_string()))
        })
        .await?;
    let moves: Vec<ExplorerMove> = stats
        .iter()
        .map(|s| ExplorerMove {
            hole: s.mv.number(),
            games: s.games,
            white_wins: s.white_wins,
            draws: s.draws,
            black_wins: s.black_wins,
            avg_rating: s.avg_rating,
        })
        .collect();
    Ok(ExplorerView {
        tfen: text,
        games: moves.iter().map(|m| m.games).sum(),
        moves,
    })
}
