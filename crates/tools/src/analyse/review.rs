//! `tuzdyk analyse` on game records: the lines it prints for a review. The
//! review itself, how each move is scored and marked, is
//! [`crate::review`], shared with the GUI.

use tuzdyk_notation::record::{GameRecord, result_text};
use tuzdyk_notation::tfen;
use tuzdyk_protocol::SearchReport;
use tuzdyk_rules::{Move, Position, Side};

use super::{Analyser, Stop, emit_line, move_strings, score_fields, score_text};
use crate::json;
use crate::review::{self, PlayerStats, ReviewEngine, ReviewedMove};

impl ReviewEngine for Analyser {
    type Stop = Stop;

    fn search(
        &mut self,
        pos: &Position,
        only: Option<Move>,
    ) -> Result<Result<SearchReport, String>, Stop> {
        Analyser::search(self, pos, only)
    }
}

impl Analyser {
    /// Reviews one game: one line per move as soon as it is scored, then the
    /// players' summary.
    pub(super) fn review_game(
        &mut self,
        source: &str,
        index: usize,
        game: &GameRecord,
    ) -> Result<(), Stop> {
        let names = [
            game.tag("White").unwrap_or("?").to_string(),
            game.tag("Black").unwrap_or("?").to_string(),
        ];
        let result = result_text(game.result);
        if !self.json {
            self.emit(&format!(
                "game {index}: {} vs {}, {result}, {} plies, {}",
                names[0],
                names[1],
                game.game.moves().len(),
                self.go.parameters()
            ))?;
        }
        self.engine.send("ucinewgame")?;
        let mut stats = [PlayerStats::default(), PlayerStats::default()];
        let (thresholds, json) = (self.thresholds, self.json);
        let reviewed = review::review_game(self, &game.game, 0, thresholds, |reviewed| {
            stats[reviewed.mover.index()].add(&reviewed);
            emit_line(&if json {
                move_json(source, index, &names, &reviewed)
            } else {
                move_plain(&reviewed)
            })
        })?;
        if let Err(rejected) = reviewed {
            self.bad(&format!(
                "{source}: game {index}, ply {}: the engine rejected the position: {}",
                rejected.ply + 1,
                rejected.message
            ));
            return Ok(());
        }
        let line = if self.json {
            let mut object = json::Object::new();
            object
                .str("type", "summary")
                .str("source", source)
                .int("game", index as i64)
                .str("result", result)
                .int("plies", game.game.moves().len() as i64);
            for side in Side::BOTH {
                object.raw(
                    side_key(side),
                    &summary_json(&names[side.index()], &stats[side.index()]),
                );
            }
            object.finish()
        } else {
            let lines: Vec<String> = Side::BOTH
                .iter()
                .map(|&side| summary_plain(side, &names[side.index()], &stats[side.index()]))
                .collect();
            lines.join("\n")
        };
        self.emit(&line)
    }
}

fn move_json(source: &str, index: usize, names: &[String; 2], reviewed: &ReviewedMove) -> String {
    let review = &reviewed.review;
    let mut object = json::Object::new();
    object
        .str("type", "move")
        .str("source", source)
        .int("game", index as i64)
        .int("ply", reviewed.ply as i64 + 1)
        .int("move_number", reviewed.before.fullmove())
        .str("side", side_key(reviewed.mover))
        .str("player", &names[reviewed.mover.index()])
        .str("fen", &tfen::write(&reviewed.before))
        .str("move", &reviewed.mv.to_string())
        .str("notation", &reviewed.token)
        .str("best", &review.best);
    score_fields(&mut object, "before", review.before);
    score_fields(&mut object, "after", review.after);
    object
        .opt_int("loss", reviewed.loss)
        .opt_str("mark", reviewed.mark.map(|mark| mark.name()))
        .opt_int("depth", review.depth)
        .strings("pv", &move_strings(&review.pv));
    object.finish()
}

fn move_plain(reviewed: &ReviewedMove) -> String {
    let review = &reviewed.review;
    let number = reviewed.before.fullmove();
    let numbering = match reviewed.mover {
        Side::White => format!("{number}."),
        Side::Black => format!("{number}..."),
    };
    let mut line = format!(
        "{numbering:>6} {:<5} {:<8} best {:<4} before {:<9} after {:<9} loss {:>4}",
        reviewed.mover.name(),
        reviewed.token,
        review.best,
        score_text(review.before),
        score_text(review.after),
        reviewed.loss.map_or("-".to_string(), |l| l.to_string()),
    );
    if let Some(mark) = reviewed.mark {
        line.push_str("  ");
        line.push_str(mark.name());
    }
    line
}

fn side_key(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

fn summary_plain(side: Side, name: &str, stats: &PlayerStats) -> String {
    format!(
        "summary {} {name}: moves {}, average loss {:.0}, inaccuracies {}, mistakes {}, blunders {}, accuracy {:.1}%",
        side.name(),
        stats.moves,
        stats.average_loss(),
        stats.marks[0],
        stats.marks[1],
        stats.marks[2],
        stats.accuracy(),
    )
}

fn summary_json(name: &str, stats: &PlayerStats) -> String {
    let mut object = json::Object::new();
    object
        .str("name", name)
        .int("moves", stats.moves)
        .float("average_loss", stats.average_loss())
        .int("inaccuracies", stats.marks[0])
        .int("mistakes", stats.marks[1])
        .int("blunders", stats.marks[2])
        .float("accuracy", stats.accuracy());
    object.finish()
}
