//! `tuzdyk analyse` on game records: the lines it prints for a review. The
//! review itself, how each move is scored and marked, is
//! [`tuzdyk_analysis::review`], shared with the GUI.

use tuzdyk_analysis::{AnalysisError, PlayerStats, ReviewedMove, review_game};
use tuzdyk_notation::record::{GameRecord, result_text};
use tuzdyk_rules::Side;

use super::json::{self, MoveJson, PlayerJson, SummaryJson};
use super::{Analyser, Stop, emit, score_text};

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
            emit(&format!(
                "game {index}: {} vs {}, {result}, {} plies, {}",
                names[0],
                names[1],
                game.game.moves().len(),
                self.engine.limits().go().parameters()
            ))?;
        }
        self.engine.new_game()?;
        let mut stats = [PlayerStats::default(), PlayerStats::default()];
        let json = self.json;
        // Output that cannot be written stops the review; kept here.
        let mut unwritten = None;
        let reviewed = review_game(
            &mut self.engine,
            &game.game,
            0,
            self.thresholds,
            |reviewed| {
                stats[reviewed.mover.index()].add(&reviewed);
                emit(&if json {
                    json::line(&MoveJson::new(source, index, &names, &reviewed))
                } else {
                    move_plain(&reviewed)
                })
                .map_err(|error| {
                    unwritten = Some(error);
                    AnalysisError::Stopped
                })
            },
        );
        match reviewed {
            Ok(()) => {}
            Err(AnalysisError::Stopped) => {
                return Err(unwritten.unwrap_or(Stop::Engine(AnalysisError::Stopped)));
            }
            Err(rejected @ AnalysisError::Rejected(_)) => {
                return self.bad(&format!("{source}: game {index}, {rejected}"));
            }
            Err(error) => return Err(error.into()),
        }
        let line = if self.json {
            json::line(&SummaryJson {
                kind: "summary",
                source,
                game: index,
                result,
                plies: game.game.moves().len(),
                white: PlayerJson::new(&names[0], &stats[0]),
                black: PlayerJson::new(&names[1], &stats[1]),
            })
        } else {
            let lines: Vec<String> = Side::BOTH
                .iter()
                .map(|&side| summary_plain(side, &names[side.index()], &stats[side.index()]))
                .collect();
            lines.join("\n")
        };
        emit(&line)
    }
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
