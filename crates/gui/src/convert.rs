//! The rules' types as the page protocol writes them ([`crate::wire`]):
//! a position, what a move does stone by stone, a score with White's view,
//! the positions along an engine line. Everything the page shows about the
//! rules is computed here, by `tuzdyk_rules`; the page only draws.

use tuzdyk_analysis::capped;
use tuzdyk_notation::record::move_token;
use tuzdyk_protocol::Score;
use tuzdyk_rules::{BOARD_HOLES, Game, Move, MovePreview, Position, Side, StoneDrop};

use crate::wire::{self, Board, LineStep, LineView, Preview};

/// A position.
pub fn board(pos: &Position) -> Board {
    let parts = pos.parts();
    // A tuzdik as the board index of the hole its owner took.
    let tuzdiks = Side::BOTH.map(|owner| {
        parts.tuzdiks[owner.index()].map(|lane| owner.opponent().index() * 9 + lane as usize)
    });
    Board {
        holes: parts.holes,
        kazans: parts.kazans,
        tuzdiks,
        to_move: pos.side_to_move().into(),
        fullmove: pos.fullmove(),
    }
}

/// Where each stone of `mv` falls: a hole index, or 18 + side for a kazan.
fn path(pos: &Position, mv: Move) -> Vec<usize> {
    pos.sowing_path(mv)
        .into_iter()
        .map(|drop| match drop {
            StoneDrop::Hole(index) => index,
            StoneDrop::Kazan(owner) => BOARD_HOLES + owner.index(),
        })
        .collect()
}

/// What the legal move of `preview` does from `pos`.
pub fn preview(pos: &Position, preview: &MovePreview) -> Preview {
    let landing = preview.landing();
    Preview {
        hole: preview.mv.number(),
        origin: pos.side_to_move().index() * 9 + preview.mv.index(),
        sown: preview.sown,
        landing: preview.outcome.landing,
        landing_side: landing.side.into(),
        landing_number: landing.number,
        found: preview.found,
        captured: preview.outcome.captured,
        tuzdik: preview.outcome.tuzdik,
        into_tuzdik: preview.into_tuzdik,
        refused: preview.tuzdik_refused.map(|reason| reason.key()),
        to_tuzdiks: preview.outcome.tuzdik_stones,
        path: path(pos, preview.mv),
    }
}

/// Every legal move of `pos`.
pub fn previews(pos: &Position) -> Vec<Preview> {
    pos.legal_moves()
        .map(|mv| preview(pos, &pos.preview_move(mv)))
        .collect()
}

/// A score as the engine gave it (`to_move`'s view), with White's view:
/// `white_cp` as it is, `white` capped as the review caps it.
pub fn score(score: Option<Score>, to_move: Side) -> Option<wire::Score> {
    let score = score?;
    let sign = match to_move {
        Side::White => 1,
        Side::Black => -1,
    };
    let white = sign * capped(score);
    Some(match score {
        Score::Centistones(cp) => wire::Score {
            cp: Some(cp),
            mate: None,
            white,
            white_cp: Some(sign * cp),
        },
        Score::Mate(n) => wire::Score {
            cp: None,
            mate: Some(n),
            white,
            white_cp: None,
        },
    })
}

pub fn moves(moves: &[Move]) -> Vec<u32> {
    moves.iter().map(|mv| mv.number()).collect()
}

/// The positions along the moves of `game` (checked by the caller), which
/// starts from the position after `ply` moves of the game shown.
pub fn line_view(ply: usize, game: &Game) -> LineView {
    let steps = game
        .plies()
        .iter()
        .map(|step| {
            let mover = step.mover();
            LineStep {
                hole: step.mv.number(),
                mover: mover.into(),
                number: step.before.fullmove(),
                token: move_token(step.mv, &step.outcome, &step.after, mover),
                origin: mover.index() * 9 + step.mv.index(),
                landing: step.outcome.landing,
                board: board(&step.after),
            }
        })
        .collect();
    LineView { ply, steps }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stones_sown_into_a_tuzdik_are_counted_for_its_owner() {
        // Black owns White's hole 2 (`t` in White's row); White's hole 1
        // with 11 stones sows one into it on its second lap.
        let pos = tuzdyk_notation::tfen::parse(
            "9S,9S,9S,9S,9S,9S,9S,9S,9S/11S,t,9S,9S,9S,9S,9S,9S,9S 0 7 S 10",
        )
        .unwrap();
        let mv = Move::from_number(1).unwrap();
        let shown = preview(&pos, &pos.preview_move(mv));
        assert_eq!(shown.to_tuzdiks, [0, 1], "{shown:?}");
        assert_eq!(shown.path[1], BOARD_HOLES + Side::Black.index());
    }
}
