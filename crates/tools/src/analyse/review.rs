//! Game review: every move of a record scored against the engine's choice.
//!
//! For each move the position before it is searched: the best line's score
//! is the mover's *before* score. The played move's *after* score (also the
//! mover's view) is then found as cheaply as possible: the same score when
//! the engine would have played it too, the score of its line when MultiPV
//! reports it, else one more search of the same position restricted to it
//! (`go ... searchmoves <m>`, same limits, warm hash). An engine that ignores
//! `searchmoves` is caught (its answer is another move) and the position after
//! the move is searched instead, its score negated.
//!
//! The loss is `before - after` in centi-stones, never below 0, with both
//! scores first capped to ±[`SCORE_CAP`] (a forced win counts as `+SCORE_CAP`,
//! a forced loss as `-SCORE_CAP`): a player already 20 stones up loses
//! nothing by winning more slowly, and turning a win into a loss costs at most
//! `2 × SCORE_CAP`. A move losing at least the inaccuracy, mistake or blunder
//! threshold is marked so.

use tuzdyk_notation::record::{GameRecord, move_token, result_text};
use tuzdyk_notation::tfen;
use tuzdyk_protocol::Score;
use tuzdyk_rules::{GameResult, Move, Ply, Position, Side};

use super::{Analyser, Stop, move_strings, score_fields, score_text};
use crate::json;

/// Inaccuracy, mistake and blunder thresholds in centi-stones (100 = one
/// stone) when none are given.
pub const DEFAULT_THRESHOLDS: [u32; 3] = [100, 300, 600];

/// Scores are capped to ± this (20 stones) before losses are computed; a
/// forced win or loss counts as the cap.
pub const SCORE_CAP: i32 = 2000;

/// A move losing this many centi-stones counts 50% in the accuracy figure
/// (100% for no loss, 25% for twice this...).
pub const ACCURACY_HALF_LOSS: f64 = 300.0;

const MARKS: [&str; 3] = ["inaccuracy", "mistake", "blunder"];

/// A score in centi-stones for loss arithmetic, capped.
pub fn capped(score: Score) -> i32 {
    match score {
        Score::Centistones(cp) => cp.clamp(-SCORE_CAP, SCORE_CAP),
        Score::Mate(n) if n > 0 => SCORE_CAP,
        Score::Mate(_) => -SCORE_CAP,
    }
}

/// The accuracy of one move (0..100) from its loss.
pub fn move_accuracy(loss: i32) -> f64 {
    100.0 * 0.5f64.powf(loss.max(0) as f64 / ACCURACY_HALF_LOSS)
}

/// One player's totals over a game.
#[derive(Clone, Debug, Default)]
pub struct PlayerStats {
    moves: u32,
    /// Moves with a loss (the engine scored both sides of them).
    scored: u32,
    total_loss: i64,
    accuracy_sum: f64,
    marks: [u32; 3],
}

impl PlayerStats {
    /// Moves the engine scored both sides of.
    pub fn scored(&self) -> u32 {
        self.scored
    }

    /// The average loss per scored move, in centi-stones.
    pub fn average_loss(&self) -> f64 {
        if self.scored == 0 {
            0.0
        } else {
            self.total_loss as f64 / self.scored as f64
        }
    }

    fn accuracy(&self) -> f64 {
        if self.scored == 0 {
            100.0
        } else {
            self.accuracy_sum / self.scored as f64
        }
    }
}

/// A move's review with where it is, for its output line.
struct Reviewed<'a> {
    source: &'a str,
    index: usize,
    ply: usize,
    review: &'a MoveReview,
    loss: Option<i32>,
    mark: Option<&'static str>,
}

/// What the review found about one move.
struct MoveReview {
    best: String,
    before: Option<Score>,
    after: Option<Score>,
    depth: Option<u32>,
    pv: Vec<Move>,
}

impl Analyser {
    /// Reviews one game: one line per move, then the players' summary.
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
        let Some(stats) = self.score_game(Some((source, index)), game)? else {
            return Ok(());
        };
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

    /// Scores every move of `game` and totals each player's losses; with
    /// `shown` (its source and number) prints one line per move. `None`
    /// when the engine rejected a position (reported as a bad input).
    pub(super) fn score_game(
        &mut self,
        shown: Option<(&str, usize)>,
        game: &GameRecord,
    ) -> Result<Option<[PlayerStats; 2]>, Stop> {
        self.engine.send("ucinewgame")?;
        let mut stats = [PlayerStats::default(), PlayerStats::default()];
        for (ply, step) in game.game.plies().iter().enumerate() {
            let review = match self.review_move(&step.before, step.mv, &step.after)? {
                Ok(review) => review,
                Err(message) => {
                    let (source, index) = shown.unwrap_or(("a game", 0));
                    self.bad(&format!(
                        "{source}: game {index}, ply {}: the engine rejected the position: {message}",
                        ply + 1
                    ));
                    return Ok(None);
                }
            };
            let loss = match (review.before, review.after) {
                (Some(b), Some(a)) => Some((capped(b) - capped(a)).max(0)),
                _ => None,
            };
            let mark = loss.and_then(|loss| {
                (0..3)
                    .rev()
                    .find(|&k| loss >= self.thresholds[k])
                    .map(|k| MARKS[k])
            });
            let player = &mut stats[step.mover().index()];
            player.moves += 1;
            if let Some(loss) = loss {
                player.scored += 1;
                player.total_loss += loss as i64;
                player.accuracy_sum += move_accuracy(loss);
                if let Some(k) = MARKS.iter().position(|&m| Some(m) == mark) {
                    player.marks[k] += 1;
                }
            }
            if let Some((source, index)) = shown {
                let reviewed = Reviewed {
                    source,
                    index,
                    ply,
                    review: &review,
                    loss,
                    mark,
                };
                let line = self.move_line(game, step, &reviewed);
                self.emit(&line)?;
            }
        }
        Ok(Some(stats))
    }

    /// One reviewed move's output line, plain or JSON.
    fn move_line(&self, game: &GameRecord, step: &Ply, reviewed: &Reviewed) -> String {
        let (before, mv, mover) = (step.before, step.mv, step.mover());
        let token = move_token(mv, &step.outcome, &step.after, mover);
        let review = reviewed.review;
        let number = before.fullmove();
        if self.json {
            let player = game
                .tag(match mover {
                    Side::White => "White",
                    Side::Black => "Black",
                })
                .unwrap_or("?");
            let mut object = json::Object::new();
            object
                .str("type", "move")
                .str("source", reviewed.source)
                .int("game", reviewed.index as i64)
                .int("ply", reviewed.ply as i64 + 1)
                .int("move_number", number)
                .str("side", side_key(mover))
                .str("player", player)
                .str("fen", &tfen::write(&before))
                .str("move", &mv.to_string())
                .str("notation", &token)
                .str("best", &review.best);
            score_fields(&mut object, "before", review.before);
            score_fields(&mut object, "after", review.after);
            object
                .opt_int("loss", reviewed.loss)
                .opt_str("mark", reviewed.mark)
                .opt_int("depth", review.depth)
                .strings("pv", &move_strings(&review.pv));
            object.finish()
        } else {
            let numbering = match mover {
                Side::White => format!("{number}."),
                Side::Black => format!("{number}..."),
            };
            let mut line = format!(
                "{numbering:>6} {:<5} {token:<8} best {:<4} before {:<9} after {:<9} loss {:>4}",
                mover.name(),
                review.best,
                score_text(review.before),
                score_text(review.after),
                reviewed.loss.map_or("-".to_string(), |l| l.to_string()),
            );
            if let Some(mark) = reviewed.mark {
                line.push_str("  ");
                line.push_str(mark);
            }
            line
        }
    }

    /// Scores the move `mv` from `before` (leading to `after`).
    fn review_move(
        &mut self,
        before: &Position,
        mv: Move,
        after: &Position,
    ) -> Result<Result<MoveReview, String>, Stop> {
        let report = match self.search(before, None)? {
            Ok(report) => report,
            Err(message) => return Ok(Err(message)),
        };
        let best_line = report.best_line();
        let mut review = MoveReview {
            best: report.bestmove_token().to_string(),
            before: best_line.and_then(|l| l.score),
            after: None,
            depth: best_line.and_then(|l| l.depth),
            pv: best_line.map_or(Vec::new(), |l| l.pv.clone()),
        };
        // The engine's own choice, or a line MultiPV already scored.
        let played = |report: &tuzdyk_protocol::SearchReport| {
            report.best().ok().and_then(|best| best.mv) == Some(mv)
        };
        if played(&report) {
            review.after = review.before;
            return Ok(Ok(review));
        }
        if let Some(line) = report
            .lines
            .iter()
            .find(|l| l.pv.first() == Some(&mv) && l.score.is_some())
        {
            review.after = line.score;
            return Ok(Ok(review));
        }
        // The move alone, from the same position.
        if let Ok(restricted) = self.search(before, Some(mv))?
            && played(&restricted)
            && let Some(score) = restricted.best_line().and_then(|l| l.score)
        {
            review.after = Some(score);
            return Ok(Ok(review));
        }
        // An engine without searchmoves: the position after, negated.
        review.after = match after.game_over() {
            Some((result, _)) => Some(match result {
                GameResult::Win(side) if side == before.side_to_move() => Score::Mate(1),
                GameResult::Win(_) => Score::Mate(0),
                GameResult::Draw => Score::Centistones(0),
            }),
            None => match self.search(after, None)? {
                Ok(report) => report.best_line().and_then(|l| l.score).map(Score::negate),
                Err(message) => return Ok(Err(message)),
            },
        };
        Ok(Ok(review))
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_capped_for_losses() {
        assert_eq!(capped(Score::Centistones(150)), 150);
        assert_eq!(capped(Score::Centistones(-9000)), -SCORE_CAP);
        assert_eq!(capped(Score::Mate(3)), SCORE_CAP);
        assert_eq!(capped(Score::Mate(-1)), -SCORE_CAP);
        assert_eq!(capped(Score::Mate(0)), -SCORE_CAP);
    }

    #[test]
    fn accuracy_halves_every_half_loss() {
        assert_eq!(move_accuracy(0), 100.0);
        assert!((move_accuracy(300) - 50.0).abs() < 1e-9);
        assert!((move_accuracy(600) - 25.0).abs() < 1e-9);
        assert_eq!(move_accuracy(-5), 100.0);
    }
}
