//! The lines of `tuzdyk analyse --json`, one JSON object each: a searched or
//! finished position, a reviewed move, a game's summary, an exercise
//! (`--mistakes`). These structs are
//! the schema (README's `analyse` section lists the same fields); a score
//! is two fields, `<name>_cp` and `<name>_mate`, one of them `null`.

use serde::Serialize;
use tuzdyk_protocol::{InfoLine, Score, SearchReport};
use tuzdyk_rules::Move;

use tuzdyk_analysis::{Exercise, PlayerStats, ReviewedMove};

/// One position: the engine's answer, or the end of a finished game.
#[derive(Serialize)]
pub(super) struct PositionJson<'a> {
    /// `position`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub source: &'a str,
    /// 1-based line of the source.
    pub line: usize,
    pub fen: &'a str,
    /// `0000` when the game is over.
    pub bestmove: &'a str,
    pub ponder: Option<String>,
    pub score_cp: Option<i32>,
    pub score_mate: Option<i32>,
    pub depth: Option<u32>,
    pub pv: Vec<String>,
    pub nodes: Option<u64>,
    /// One per MultiPV line, best first.
    pub lines: Vec<LineJson>,
    pub game_over: bool,
    /// `1-0`, `0-1` or `1/2-1/2` when the game is over.
    pub result: Option<&'static str>,
    /// `kazan` (a kazan passed 81) or `no moves` when the game is over.
    pub end: Option<&'static str>,
}

/// One MultiPV line of a position.
#[derive(Serialize)]
pub(super) struct LineJson {
    pub multipv: usize,
    #[serde(rename = "move")]
    pub first: Option<String>,
    pub score_cp: Option<i32>,
    pub score_mate: Option<i32>,
    pub depth: Option<u32>,
    pub pv: Vec<String>,
}

/// One move of a reviewed game.
#[derive(Serialize)]
pub(super) struct MoveJson<'a> {
    /// `move`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub source: &'a str,
    /// 1-based game of the source.
    pub game: usize,
    /// 1-based ply of the game.
    pub ply: usize,
    pub move_number: u16,
    /// `white` or `black`.
    pub side: &'static str,
    pub player: &'a str,
    /// The position before the move.
    pub fen: String,
    #[serde(rename = "move")]
    pub played: String,
    /// The move as the record writes it (`65(10)`).
    pub notation: &'a str,
    /// The engine's choice.
    pub best: &'a str,
    pub before_cp: Option<i32>,
    pub before_mate: Option<i32>,
    pub after_cp: Option<i32>,
    pub after_mate: Option<i32>,
    /// Centi-stones lost, when both scores are known.
    pub loss: Option<i32>,
    /// `inaccuracy`, `mistake` or `blunder`.
    pub mark: Option<&'static str>,
    pub depth: Option<u32>,
    pub pv: Vec<String>,
}

/// A reviewed game's totals, one object per player.
#[derive(Serialize)]
pub(super) struct SummaryJson<'a> {
    /// `summary`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub source: &'a str,
    pub game: usize,
    pub result: &'static str,
    pub plies: usize,
    pub white: PlayerJson<'a>,
    pub black: PlayerJson<'a>,
}

/// One player's totals over a game.
#[derive(Serialize)]
pub(super) struct PlayerJson<'a> {
    pub name: &'a str,
    pub moves: u32,
    /// Centi-stones per scored move, to one decimal.
    pub average_loss: f64,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// Percent, to one decimal.
    pub accuracy: f64,
}

/// One exercise of `--mistakes`: a marked move and the moves accepted
/// instead.
#[derive(Serialize)]
pub(super) struct ExerciseJson<'a> {
    pub source: &'a str,
    /// 1-based game of the source.
    pub game: usize,
    /// 1-based ply of the game.
    pub ply: usize,
    /// `white` or `black`.
    pub side: &'static str,
    pub player: &'a str,
    /// The position before the move.
    pub fen: String,
    pub played: String,
    /// Centi-stones lost by the move played.
    pub loss: i32,
    /// `inaccuracy`, `mistake` or `blunder`.
    pub mark: &'static str,
    /// The engine's best move and line.
    pub best: Option<String>,
    pub pv: Vec<String>,
    /// Every legal move losing less than the inaccuracy threshold.
    pub accepted: Vec<String>,
}

impl<'a> ExerciseJson<'a> {
    pub(super) fn new(
        source: &'a str,
        game: usize,
        names: &'a [String; 2],
        exercise: &Exercise,
    ) -> ExerciseJson<'a> {
        ExerciseJson {
            source,
            game,
            ply: exercise.ply + 1,
            side: exercise.mover.key(),
            player: &names[exercise.mover.index()],
            fen: tuzdyk_notation::tfen::write(&exercise.position),
            played: exercise.played.to_string(),
            loss: exercise.loss,
            mark: exercise.mark.name(),
            best: exercise.best.map(|mv| mv.to_string()),
            pv: moves(&exercise.pv),
            accepted: moves(&exercise.accepted()),
        }
    }
}

/// `(cp, mate)`, one of them `None` (both without a score).
pub(super) fn split(score: Option<Score>) -> (Option<i32>, Option<i32>) {
    match score {
        Some(Score::Centistones(cp)) => (Some(cp), None),
        Some(Score::Mate(n)) => (None, Some(n)),
        None => (None, None),
    }
}

/// Moves as JSON strings.
pub(super) fn moves(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

/// A value to one decimal, as the plain output prints it.
fn tenths(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

impl PlayerJson<'_> {
    pub(super) fn new<'a>(name: &'a str, stats: &PlayerStats) -> PlayerJson<'a> {
        PlayerJson {
            name,
            moves: stats.moves,
            average_loss: tenths(stats.average_loss()),
            inaccuracies: stats.marks[0],
            mistakes: stats.marks[1],
            blunders: stats.marks[2],
            accuracy: tenths(stats.accuracy()),
        }
    }
}

impl LineJson {
    fn new(k: usize, info: &InfoLine) -> LineJson {
        let (score_cp, score_mate) = split(info.score);
        LineJson {
            multipv: k + 1,
            first: info.pv.first().map(Move::to_string),
            score_cp,
            score_mate,
            depth: info.depth,
            pv: moves(&info.pv),
        }
    }

    /// The MultiPV lines of a search that have a line.
    pub(super) fn all(report: &SearchReport) -> Vec<LineJson> {
        report
            .lines
            .iter()
            .enumerate()
            .filter(|(_, info)| !info.pv.is_empty())
            .map(|(k, info)| LineJson::new(k, info))
            .collect()
    }
}

impl<'a> MoveJson<'a> {
    pub(super) fn new(
        source: &'a str,
        game: usize,
        names: &'a [String; 2],
        reviewed: &'a ReviewedMove,
    ) -> MoveJson<'a> {
        let review = &reviewed.review;
        let (before_cp, before_mate) = split(review.before);
        let (after_cp, after_mate) = split(review.after);
        MoveJson {
            kind: "move",
            source,
            game,
            ply: reviewed.ply + 1,
            move_number: reviewed.before.fullmove(),
            side: reviewed.mover.key(),
            player: &names[reviewed.mover.index()],
            fen: tuzdyk_notation::tfen::write(&reviewed.before),
            played: reviewed.mv.to_string(),
            notation: &reviewed.token,
            best: &review.best,
            before_cp,
            before_mate,
            after_cp,
            after_mate,
            loss: reviewed.loss,
            mark: reviewed.mark.map(|mark| mark.name()),
            depth: review.depth,
            pv: moves(&review.pv),
        }
    }
}

/// One JSON line.
pub(super) fn line(value: &impl Serialize) -> String {
    // Plain structs of strings and numbers: nothing can fail.
    serde_json::to_string(value).unwrap_or_else(|e| unreachable!("a JSON line: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_split_into_two_fields() {
        assert_eq!(split(Some(Score::Centistones(-12))), (Some(-12), None));
        assert_eq!(split(Some(Score::Mate(-2))), (None, Some(-2)));
        assert_eq!(split(None), (None, None));
        let player = PlayerJson {
            name: "a \"b\"",
            moves: 3,
            average_loss: tenths(12.26),
            inaccuracies: 0,
            mistakes: 1,
            blunders: 0,
            accuracy: tenths(100.0),
        };
        assert_eq!(
            line(&player),
            r#"{"name":"a \"b\"","moves":3,"average_loss":12.3,"inaccuracies":0,"mistakes":1,"blunders":0,"accuracy":100.0}"#
        );
    }
}
