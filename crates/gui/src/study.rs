//! Studies and stored mistakes as the page reaches them: a game saved as a
//! study (its start and moves, a name and a comment) and set up again from
//! it, and the mistakes "learn from your mistakes" saved, listed and set up
//! again to find a better move; a position set up in the editor saved as a
//! study with no moves. The game changes only through its session,
//! as a command would change it.

use tuzdyk_db::{Mistake, Study};
use tuzdyk_notation::tfen;
use tuzdyk_rules::{Game, Move, Position};

use crate::error::GuiError;
use crate::game::{Handled, check_size};
use crate::library::Library;
use crate::limits::{MAX_LISTED, MAX_STUDY_COMMENT_CHARS, MAX_STUDY_NAME_CHARS};
use crate::session::Session;
use crate::wire::{MistakeView, MistakesView, StudiesView, StudyView};

/// Checks a study's name (trimmed) and comment.
///
/// # Errors
/// An empty or too long name, a too long comment.
pub fn check(name: &str, comment: &str) -> Result<String, GuiError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(GuiError::StudyNameEmpty);
    }
    let chars = name.chars().count();
    if chars > MAX_STUDY_NAME_CHARS {
        return Err(GuiError::StudyNameTooLong(chars));
    }
    let chars = comment.chars().count();
    if chars > MAX_STUDY_COMMENT_CHARS {
        return Err(GuiError::StudyCommentTooLong(chars));
    }
    Ok(name.to_string())
}

/// Saves the session's game as a study; answers with the list.
///
/// # Errors
/// [`check`]'s, or the database's.
pub async fn save(
    library: &Library,
    session: &Session,
    name: String,
    comment: String,
) -> Result<StudiesView, GuiError> {
    let name = check(&name, &comment)?;
    let game = session.game();
    insert(library, name, *game.start(), game.moves().to_vec(), comment).await
}

/// Saves the position editor's position `text` (TFEN) as a study with no
/// moves, the game untouched; answers with the list.
///
/// # Errors
/// [`check`]'s, a TFEN the rules refuse, or the database's.
pub async fn save_position(
    library: &Library,
    text: String,
    name: String,
    comment: String,
) -> Result<StudiesView, GuiError> {
    let name = check(&name, &comment)?;
    check_size(&text)?;
    let start = tfen::parse(text.trim()).map_err(|e| GuiError::tfen(text.trim(), e))?;
    insert(library, name, start, Vec::new(), comment).await
}

/// Stores a study; answers with the list, the new one current.
async fn insert(
    library: &Library,
    name: String,
    start: Position,
    moves: Vec<Move>,
    comment: String,
) -> Result<StudiesView, GuiError> {
    let study = Study {
        id: 0,
        name,
        start,
        moves,
        comment,
        created: String::new(),
    };
    let id = library
        .run(move |db| db.insert_study(&study).map_err(GuiError::database))
        .await?;
    list(library, Some(id)).await
}

/// The studies, the newest first; `current` the one just saved or opened.
///
/// # Errors
/// The database's.
pub async fn list(library: &Library, current: Option<i64>) -> Result<StudiesView, GuiError> {
    let studies = library
        .run(|db| db.studies().map_err(GuiError::database))
        .await?;
    let studies = studies
        .into_iter()
        .rev()
        .take(MAX_LISTED)
        .map(|s| StudyView {
            id: s.id,
            name: s.name,
            comment: s.comment,
            created: s.created,
            plies: s.moves.len(),
        })
        .collect();
    Ok(StudiesView { studies, current })
}

/// Sets the session's game up from study `id` (its start, its moves
/// played), as a new game with the settings as they are.
///
/// # Errors
/// [`GuiError::NoSuchStudy`], a study whose moves do not replay, or the
/// database's.
pub async fn open(library: &Library, session: &Session, id: i64) -> Result<StudiesView, GuiError> {
    let study = library
        .run(move |db| db.study(id).map_err(GuiError::database))
        .await?
        .ok_or(GuiError::NoSuchStudy(id))?;
    let game = Game::replay(study.start, study.moves).map_err(|e| {
        GuiError::Database(format!(
            "study {id} is damaged: move {}: {}",
            e.index + 1,
            e.reason
        ))
    })?;
    session.apply(move |state| {
        state.load(game);
        Ok(Handled::Resumed)
    })?;
    list(library, Some(id)).await
}

/// The stored mistakes, the least solved first.
///
/// # Errors
/// The database's.
pub async fn mistakes(library: &Library) -> Result<MistakesView, GuiError> {
    let rows = library
        .run(|db| db.mistakes().map_err(GuiError::database))
        .await?;
    let mistakes = rows
        .iter()
        .take(MAX_LISTED)
        .map(|m: &Mistake| MistakeView {
            id: m.id,
            tfen: tfen::write(&m.position),
            mover: m.position.side_to_move().into(),
            played: m.played.number(),
            ply: m.ply,
            solved: m.solved,
        })
        .collect();
    Ok(MistakesView { mistakes })
}

/// Sets stored mistake `id` up in the session's game, to find a better
/// move in; answers with the list.
///
/// # Errors
/// [`GuiError::NoSuchMistake`], or the database's.
pub async fn open_mistake(
    library: &Library,
    session: &Session,
    id: i64,
) -> Result<MistakesView, GuiError> {
    let rows = library
        .run(|db| db.mistakes().map_err(GuiError::database))
        .await?;
    let mistake = rows
        .into_iter()
        .find(|m| m.id == id)
        .ok_or(GuiError::NoSuchMistake(id))?;
    session.apply(move |state| {
        state.practise(&mistake);
        Ok(Handled::Resumed)
    })?;
    mistakes(library).await
}
