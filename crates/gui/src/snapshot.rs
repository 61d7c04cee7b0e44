//! What a page is sent, as JSON: the state of a game (the position shown
//! with every legal move's preview, the last move stone by stone, the moves,
//! the ending and the record, the hint, the analysis and the review), the
//! analysis lines as they arrive, and notices. Everything the page shows
//! about the rules is computed here, by `tuzdyk_rules`; the page only draws.
//!
//! Holes are indices 0..17 in sowing order (White 1..9, then Black 1..9);
//! a sowing step is a hole index, or 18 + side for a kazan (a stone that
//! fell into a tuzdik).

use serde_json::{Value, json};

use tuzdyk_notation::ending::Ending;
use tuzdyk_notation::record::{move_token, result_text};
use tuzdyk_notation::tfen;
use tuzdyk_protocol::{InfoLine, Score};
use tuzdyk_rules::{BOARD_HOLES, GameResult, Move, MovePreview, Position, Side, StoneDrop};
use tuzdyk_tools::review::{ReviewedMove, capped};

use crate::session::{Declared, GameState, Mode};

fn side(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// A score as the engine gave it (the side to move's view), with White's
/// view of it: `white_cp` as it is, `white` capped as the review caps it,
/// for the evaluation bar and the graph.
fn score(score: Option<Score>, to_move: Side) -> Value {
    let Some(score) = score else {
        return Value::Null;
    };
    let sign = match to_move {
        Side::White => 1,
        Side::Black => -1,
    };
    let white = sign * capped(score);
    match score {
        Score::Centistones(cp) => json!({"cp": cp, "white": white, "white_cp": sign * cp}),
        Score::Mate(n) => json!({"mate": n, "white": white}),
    }
}

fn moves(moves: &[Move]) -> Vec<u32> {
    moves.iter().map(|mv| mv.number()).collect()
}

fn board(pos: &Position) -> Value {
    let parts = pos.parts();
    // A tuzdik as the board index of the hole its owner took.
    let tuzdiks = Side::BOTH.map(|owner| {
        parts.tuzdiks[owner.index()].map(|lane| owner.opponent().index() * 9 + lane as usize)
    });
    json!({
        "holes": parts.holes,
        "kazans": parts.kazans,
        "tuzdiks": tuzdiks,
        "to_move": side(pos.side_to_move()),
        "fullmove": pos.fullmove(),
    })
}

fn path(pos: &Position, mv: Move) -> Vec<usize> {
    pos.sowing_path(mv)
        .into_iter()
        .map(|drop| match drop {
            StoneDrop::Hole(index) => index,
            StoneDrop::Kazan(owner) => BOARD_HOLES + owner.index(),
        })
        .collect()
}

fn preview(pos: &Position, preview: &MovePreview) -> Value {
    let landing = preview.landing();
    json!({
        "hole": preview.mv.number(),
        "origin": pos.side_to_move().index() * 9 + preview.mv.index(),
        "sown": preview.sown,
        "landing": preview.outcome.landing,
        "landing_side": side(landing.side),
        "landing_number": landing.number,
        "found": preview.found,
        "captured": preview.outcome.captured,
        "tuzdik": preview.outcome.tuzdik,
        "into_tuzdik": preview.into_tuzdik,
        "refused": preview.tuzdik_refused.map(|reason| reason.key()),
        "path": path(pos, preview.mv),
    })
}

fn previews(pos: &Position) -> Vec<Value> {
    pos.legal_moves()
        .map(|mv| preview(pos, &pos.preview_move(mv)))
        .collect()
}

/// The move that led to the position after `ply` moves, with the board
/// before it, for the page to animate.
fn last_move(state: &GameState, ply: usize) -> Value {
    let Some(step) = ply
        .checked_sub(1)
        .and_then(|i| state.game.plies().get(i).copied())
    else {
        return Value::Null;
    };
    let mut shown = preview(&step.before, &step.before.preview_move(step.mv));
    shown["mover"] = json!(side(step.mover()));
    shown["before"] = board(&step.before);
    shown
}

fn move_list(state: &GameState) -> Vec<Value> {
    state
        .game
        .plies()
        .iter()
        .map(|ply| {
            let mover = ply.mover();
            json!({
                "number": ply.before.fullmove(),
                "mover": side(mover),
                "hole": ply.mv.number(),
                "token": move_token(ply.mv, &ply.outcome, &ply.after, mover),
            })
        })
        .collect()
}

fn ending(state: &GameState) -> Value {
    let result = state.result();
    let Some(result) = result else {
        return Value::Null;
    };
    let winner = match result {
        GameResult::Win(side) => Some(self::side(side)),
        GameResult::Draw => None,
    };
    let position = state.game.position();
    let (reason, count, text) = match (Ending::of(position), state.declared) {
        (Some(ending), _) => {
            let reason = match ending.end {
                tuzdyk_rules::GameEnd::KazanMajority => "kazan",
                tuzdyk_rules::GameEnd::NoMoves => "no_moves",
            };
            (reason, ending.count, ending.to_string())
        }
        (None, declared) => {
            let reason = match declared {
                Some(Declared::Resigned(_)) => "resigned",
                _ => "recorded",
            };
            let count = Side::BOTH.map(|s| position.kazan(s) as u32);
            (reason, count, result_text(Some(result)).to_string())
        }
    };
    let resigned = match state.declared {
        Some(Declared::Resigned(who)) => Some(side(who)),
        _ => None,
    };
    json!({
        "result": result_text(Some(result)),
        "winner": winner,
        "reason": reason,
        "resigned": resigned,
        "count": count,
        "text": text,
    })
}

fn line(info: &InfoLine, to_move: Side) -> Value {
    json!({
        "multipv": info.line_number(),
        "depth": info.depth,
        "score": score(info.score, to_move),
        "nodes": info.nodes,
        "pv": moves(&info.pv),
    })
}

fn review_move(reviewed: &ReviewedMove) -> Value {
    let mover = reviewed.mover;
    let review = &reviewed.review;
    json!({
        "ply": reviewed.ply,
        "mover": side(mover),
        "token": reviewed.token,
        "best": review.best,
        "before": score(review.before, mover),
        "after": score(review.after, mover),
        "loss": reviewed.loss,
        "mark": reviewed.mark.map(|mark| mark.name()),
        "pv": moves(&review.pv),
    })
}

fn review(state: &GameState) -> Value {
    let Some(review) = &state.review else {
        return Value::Null;
    };
    let mut stats = [
        tuzdyk_tools::review::PlayerStats::default(),
        tuzdyk_tools::review::PlayerStats::default(),
    ];
    for reviewed in &review.moves {
        stats[reviewed.mover.index()].add(reviewed);
    }
    let summary = stats.map(|s| {
        json!({
            "moves": s.moves,
            "average_loss": s.average_loss().round(),
            "accuracy": (s.accuracy() * 10.0).round() / 10.0,
            "marks": s.marks,
        })
    });
    json!({
        "moves": review.moves.iter().map(review_move).collect::<Vec<_>>(),
        "done": review.done,
        "total": state.game.moves().len(),
        "rejected": review.rejected.as_ref().map(|r| format!("ply {}: {}", r.ply + 1, r.message)),
        "summary": summary,
    })
}

/// The evaluation of the position shown, White's view: the analysis, else
/// the review's score of the move made from it.
fn evaluation(state: &GameState, shown: &Position) -> Value {
    if let Some(best) = state.lines.first() {
        return score(best.score, shown.side_to_move());
    }
    let reviewed = state
        .review
        .as_ref()
        .and_then(|r| r.moves.get(state.shown_ply()));
    reviewed.map_or(Value::Null, |r| score(r.review.before, r.mover))
}

fn settings(state: &GameState) -> Value {
    let settings = &state.settings;
    json!({
        "mode": settings.mode,
        "human": side(settings.human),
        "level": settings.level.name(),
        "movetime_ms": settings.movetime_ms,
    })
}

/// The `state` message.
pub fn state(id: &str, state: &GameState) -> String {
    let shown = state.shown_position();
    let ply = state.shown_ply();
    let live = state.view.is_none();
    let over = state.result().is_some();
    let playable = live && !over && !state.engine_to_move();
    let hint = state.hint.as_ref().map(|hint| {
        json!({
            "hole": hint.mv.number(),
            "score": score(hint.score, state.game.position().side_to_move()),
            "pv": moves(&hint.pv),
        })
    });
    json!({
        "type": "state",
        "game": id,
        "version": state.version,
        "line": state.line,
        "settings": settings(state),
        "board": board(&shown),
        "tfen": tfen::write(&shown),
        "ply": ply,
        "plies": state.game.moves().len(),
        "viewing": !live,
        "playable": playable,
        "previews": if over && live { Vec::new() } else { previews(&shown) },
        "last": last_move(state, ply),
        "moves": move_list(state),
        "ending": ending(state),
        "record": state.record().to_string(),
        "thinking": state.thinking(),
        "paused": state.paused,
        "engine_turn": state.engine_to_move() && !over,
        "engines_mode": state.settings.mode == Mode::Engines,
        "hint": hint,
        "analysis": state.analysis,
        "lines": state.lines.iter().map(|l| line(l, shown.side_to_move())).collect::<Vec<_>>(),
        "evaluation": evaluation(state, &shown),
        "review": review(state),
        "engine": {
            "name": state.engine.name,
            "fault": state.engine.fault,
            "failed": state.engine.failed,
        },
    })
    .to_string()
}

/// The `lines` message: the analysis of the position shown, as it deepens.
pub fn lines(state: &GameState) -> String {
    let shown = state.shown_position();
    json!({
        "type": "lines",
        "ply": state.shown_ply(),
        "lines": state.lines.iter().map(|l| line(l, shown.side_to_move())).collect::<Vec<_>>(),
        "evaluation": evaluation(state, &shown),
    })
    .to_string()
}

/// A `notice`: the engine failed and was started again, or gave up.
pub fn notice(code: &str, message: &str) -> String {
    json!({"type": "notice", "code": code, "message": message}).to_string()
}

/// An `error` answering one page's command.
pub fn error(error: &crate::error::GuiError) -> String {
    json!({
        "type": "error",
        "code": error.code(),
        "hole": error.hole(),
        "message": error.to_string(),
    })
    .to_string()
}
