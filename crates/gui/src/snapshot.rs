//! What a page is sent about a game ([`crate::wire::State`] and
//! [`crate::wire::Lines`]), made from the game as the server keeps it:
//! the position shown with every legal move's preview, the last move stone
//! by stone, the moves, the ending and the record, the hint, the analysis
//! and the review.

use tuzdyk_analysis::{PlayerStats, ReviewedMove};
use tuzdyk_notation::ending::Ending as BoardEnding;
use tuzdyk_notation::record::{move_token, result_text};
use tuzdyk_notation::tfen;
use tuzdyk_protocol::InfoLine;
use tuzdyk_rules::{GameEnd, GameResult, Side};

use crate::convert::{board, moves, preview, previews, score};
use crate::game::{Declared, GameState};
use crate::wire::{
    Ending, EngineView, HintView, LastMove, Line, Lines, MoveEntry, ReviewSummary, ReviewView,
    ReviewedView, SettingsView, State, Text,
};

/// The move that led to the position after `ply` moves, with the board
/// before it, for the page to animate.
fn last_move(state: &GameState, ply: usize) -> Option<LastMove> {
    let step = state.game.plies().get(ply.checked_sub(1)?).copied()?;
    Some(LastMove {
        preview: preview(&step.before, &step.before.preview_move(step.mv)),
        mover: step.mover().into(),
        before: board(&step.before),
    })
}

fn move_list(state: &GameState) -> Vec<MoveEntry> {
    state
        .game
        .plies()
        .iter()
        .map(|ply| {
            let mover = ply.mover();
            let landing = ply.outcome.landing_hole();
            MoveEntry {
                number: ply.before.fullmove(),
                mover: mover.into(),
                hole: ply.mv.number(),
                token: move_token(ply.mv, &ply.outcome, &ply.after, mover),
                landing_side: landing.side.into(),
                landing_number: landing.number,
                captured: ply.outcome.captured,
                tuzdik: ply.outcome.tuzdik,
                kazan: ply.after.kazan(mover),
            }
        })
        .collect()
}

fn ending(state: &GameState) -> Option<Ending> {
    let result = state.result()?;
    let winner = match result {
        GameResult::Win(side) => Some(side.into()),
        GameResult::Draw => None,
    };
    let position = state.game.position();
    let (reason, count) = match BoardEnding::of(position) {
        Some(ending) => {
            let reason = match ending.end {
                GameEnd::KazanMajority => "kazan",
                GameEnd::NoMoves => "no_moves",
            };
            (reason, ending.count)
        }
        None => {
            let reason = match state.declared {
                Some(Declared::Resigned(_)) => "resigned",
                _ => "recorded",
            };
            (reason, Side::BOTH.map(|s| u32::from(position.kazan(s))))
        }
    };
    let resigned = match state.declared {
        Some(Declared::Resigned(who)) => Some(who.into()),
        _ => None,
    };
    Some(Ending {
        result: result_text(Some(result)),
        winner,
        reason,
        resigned,
        count,
    })
}

fn line(info: &InfoLine, to_move: Side) -> Line {
    Line {
        multipv: info.line_number(),
        depth: info.depth,
        score: score(info.score, to_move),
        nodes: info.nodes,
        pv: moves(&info.pv),
    }
}

fn review_move(reviewed: &ReviewedMove) -> ReviewedView {
    let mover = reviewed.mover;
    let review = &reviewed.review;
    ReviewedView {
        ply: reviewed.ply,
        mover: mover.into(),
        token: reviewed.token.clone(),
        best: review.best.clone(),
        before: score(review.before, mover),
        after: score(review.after, mover),
        loss: reviewed.loss,
        mark: reviewed.mark.map(|mark| mark.name()),
        pv: moves(&review.pv),
    }
}

fn review(state: &GameState) -> Option<ReviewView> {
    let review = state.review.as_ref()?;
    let mut stats = [PlayerStats::default(), PlayerStats::default()];
    for reviewed in &review.moves {
        stats[reviewed.mover.index()].add(reviewed);
    }
    let summary = stats.map(|s| ReviewSummary {
        moves: s.moves,
        average_loss: s.average_loss().round(),
        accuracy: (s.accuracy() * 10.0).round() / 10.0,
        marks: s.marks,
    });
    Some(ReviewView {
        moves: review.moves.iter().map(review_move).collect(),
        done: review.done,
        total: state.game.moves().len(),
        rejected: review.rejected.as_ref().map(|r| {
            Text::new("review_rejected")
                .with("ply", r.ply + 1)
                .with("detail", r.message.as_str())
        }),
        summary,
    })
}

/// The evaluation of the position shown, White's view: the analysis, else
/// the review's score of the move made from it.
fn evaluation(state: &GameState, to_move: Side) -> Option<crate::wire::Score> {
    if let Some(best) = state.lines.first() {
        return score(best.score, to_move);
    }
    let reviewed = state.review.as_ref()?.moves.get(state.shown_ply())?;
    score(reviewed.review.before, reviewed.mover)
}

fn lines(state: &GameState, to_move: Side) -> Vec<Line> {
    state.lines.iter().map(|l| line(l, to_move)).collect()
}

/// The state of game `id`; `thinking` while the engine chooses its move.
pub fn state(id: &str, state: &GameState, thinking: bool) -> State {
    let shown = state.shown_position();
    let to_move = shown.side_to_move();
    let ply = state.shown_ply();
    let live = state.view.is_none();
    let over = state.result().is_some();
    let hint = state.hint.as_ref().map(|hint| HintView {
        hole: hint.mv.number(),
        score: score(hint.score, state.game.position().side_to_move()),
        pv: moves(&hint.pv),
    });
    let settings = &state.settings;
    State {
        game: id.to_string(),
        version: state.version,
        line: state.line,
        settings: SettingsView {
            mode: settings.mode,
            human: settings.human.into(),
            level: u8::try_from(settings.level.number()).unwrap_or(u8::MAX),
            movetime_ms: settings.movetime_ms,
        },
        board: board(&shown),
        tfen: tfen::write(&shown),
        ply,
        plies: state.game.moves().len(),
        viewing: !live,
        playable: live && !over && !state.engine_to_move(),
        previews: if over && live {
            Vec::new()
        } else {
            previews(&shown)
        },
        last: last_move(state, ply),
        moves: move_list(state),
        ending: ending(state),
        record: state.record().to_string(),
        thinking,
        paused: state.paused,
        engine_turn: state.engine_to_move() && !over,
        hint,
        analysis: state.analysis,
        lines: lines(state, to_move),
        evaluation: evaluation(state, to_move),
        review: review(state),
        engine: EngineView {
            name: state.engine.name.clone(),
            fault: state.engine.fault.clone(),
            failed: state.engine.failed,
        },
        engine_ms: state.engine_ms,
        learn: state.learn.as_ref().map(|learn| learn.view()),
    }
}

/// The analysis of the position shown, as it deepens.
pub fn lines_message(state: &GameState) -> Lines {
    let to_move = state.shown_position().side_to_move();
    Lines {
        ply: state.shown_ply(),
        lines: lines(state, to_move),
        evaluation: evaluation(state, to_move),
    }
}
