//! `tuzdyk analyse --mistakes`: "learn from your mistakes". Each game of
//! the record files is reviewed, then each marked move of the players asked
//! for becomes an exercise ([`tuzdyk_analysis::exercises`]).
//!
//! With `--json` each exercise is one JSON line ([`super::json::ExerciseJson`]),
//! and nothing is asked. Without it the exercises are asked one by one, as
//! soon as their game is reviewed: the board from the mover's side, the
//! question, a hole number read from standard input, whether it is accepted
//! (and what it loses), then the engine's line. An empty line or `skip`
//! goes on, `quit` (or the end of input) stops; a line that is not a legal
//! hole number is answered with one line and the same question. Input that
//! is not a terminal is read the same way, each answer echoed after the
//! question (as `tuzdyk play` does), so a piped session reads like a typed
//! one.

use std::io::{self, IsTerminal, Read};
use std::path::PathBuf;

use tuzdyk_analysis::{AnalysisError, Exercise, Mark, exercises, judge, review_game};
use tuzdyk_notation::console::{self, Stream};
use tuzdyk_notation::record::{self, GameRecord};
use tuzdyk_notation::source::{self, SourceKind};
use tuzdyk_notation::{diagram, excerpt};
use tuzdyk_protocol::line::{Line, read_line};
use tuzdyk_rules::{Move, Side};

use super::json::{self, ExerciseJson};
use super::{Analyser, Stop, emit, moves_text};
use crate::play::{MAX_COMMAND_BYTES, illegal_for_person, parse_hole};

/// Whose moves make exercises, and from which mark on.
pub(super) struct Selection {
    /// `--player`: the White or Black tag.
    pub player: Option<String>,
    /// `--side`.
    pub side: Option<Side>,
    /// Mistakes, or inaccuracies too.
    pub lowest: Mark,
}

impl Selection {
    /// The side(s) of `game` to make exercises for: `Some(None)` for both,
    /// `None` when the game has no player asked for.
    fn sides(&self, game: &GameRecord) -> Option<Option<Side>> {
        match &self.player {
            Some(name) => {
                let plays: Vec<Side> = Side::BOTH
                    .into_iter()
                    .filter(|side| game.tag(side.name()) == Some(name.as_str()))
                    .collect();
                match plays[..] {
                    [] => None,
                    [side] => Some(Some(side)),
                    _ => Some(None),
                }
            }
            None => Some(self.side),
        }
    }
}

/// What the person asked for after an exercise.
enum Next {
    Continue,
    Quit,
}

/// Standard input, for the answers.
struct Answers {
    input: io::StdinLock<'static>,
    /// Echo each answer read (input that is not a terminal).
    echo: bool,
}

impl Analyser {
    /// Reviews the games of `sources` and makes their exercises, printed
    /// (`--json`) or asked.
    pub(super) fn mistakes(
        &mut self,
        sources: &[PathBuf],
        selection: &Selection,
    ) -> Result<(), Stop> {
        let mut answers = Answers {
            input: io::stdin().lock(),
            echo: !io::stdin().is_terminal(),
        };
        let mut matched = 0usize;
        for path in sources {
            let (name, text) = if path.as_os_str() == "-" {
                let mut bytes = Vec::new();
                // The one lock of stdin (`--json` only: else it has the answers).
                if let Err(e) = answers.input.read_to_end(&mut bytes) {
                    self.bad(&format!("stdin: cannot read: {e}"))?;
                    continue;
                }
                (
                    "stdin".to_string(),
                    String::from_utf8_lossy(&bytes).into_owned(),
                )
            } else {
                let name = path.display().to_string();
                match std::fs::read(path) {
                    Ok(bytes) => (name, String::from_utf8_lossy(&bytes).into_owned()),
                    Err(e) => {
                        self.bad(&format!("{name}: cannot read: {e}"))?;
                        continue;
                    }
                }
            };
            if source::kind(&text) != Some(SourceKind::Records) {
                self.bad(&format!(
                    "{name}: --mistakes takes game records, not positions"
                ))?;
                continue;
            }
            for (i, game) in record::parse_games(&text).into_iter().enumerate() {
                let index = i + 1;
                let game = match game {
                    Ok(game) => game,
                    Err(mut e) => {
                        e.game = index;
                        self.bad(&format!("{name}: {e}"))?;
                        continue;
                    }
                };
                let Some(side) = selection.sides(&game) else {
                    continue;
                };
                matched += 1;
                let Some(made) = self.exercises_of(&name, index, &game, side, selection.lowest)?
                else {
                    continue;
                };
                let names = [
                    game.tag("White").unwrap_or("?").to_string(),
                    game.tag("Black").unwrap_or("?").to_string(),
                ];
                for exercise in &made {
                    if self.json {
                        emit(&json::line(&ExerciseJson::new(
                            &name, index, &names, exercise,
                        )))?;
                    } else if let Next::Quit = ask(&mut answers, &name, index, &names, exercise)? {
                        return Ok(());
                    }
                }
            }
        }
        if let Some(player) = &selection.player
            && matched == 0
        {
            self.bad(&format!(
                "no game has a player named '{}' (the White and Black tags)",
                excerpt(player)
            ))?;
        }
        Ok(())
    }

    /// Reviews one game and makes its exercises; `None` (reported) when
    /// the engine rejected one of its positions.
    fn exercises_of(
        &mut self,
        source: &str,
        index: usize,
        game: &GameRecord,
        side: Option<Side>,
        lowest: Mark,
    ) -> Result<Option<Vec<Exercise>>, Stop> {
        self.engine.new_game()?;
        let mut reviewed = Vec::new();
        let made = review_game(&mut self.engine, &game.game, 0, self.thresholds, |m| {
            reviewed.push(m);
            Ok(())
        })
        .and_then(|()| exercises(&mut self.engine, &reviewed, side, self.thresholds, lowest));
        match made {
            Ok(made) => Ok(Some(made)),
            Err(rejected @ AnalysisError::Rejected(_)) => {
                self.bad(&format!("{source}: game {index}, {rejected}"))?;
                Ok(None)
            }
            Err(error) => Err(error.into()),
        }
    }
}

/// Stones with one decimal: `4.5 stones`.
fn stones(cp: i32) -> String {
    format!("{:.1} stones", f64::from(cp) / 100.0)
}

/// Asks one exercise until it is answered, skipped or the person quits.
fn ask(
    answers: &mut Answers,
    source: &str,
    index: usize,
    names: &[String; 2],
    exercise: &Exercise,
) -> Result<Next, Stop> {
    let mover = exercise.mover;
    let player = excerpt(&names[mover.index()]);
    emit("")?;
    emit(&format!(
        "{source}, game {index}, move {}, {} ({player}) to play: {player} played {}, a {} (loses {}).",
        exercise.position.fullmove(),
        mover.name(),
        exercise.played,
        exercise.mark.name(),
        stones(exercise.loss)
    ))?;
    let labels = names.clone().map(|name| excerpt(&name));
    let labels = [
        format!("{} (White)", labels[0]),
        format!("{} (Black)", labels[1]),
    ];
    emit(&diagram::view(
        &exercise.position,
        mover,
        [&labels[0], &labels[1]],
    ))?;
    loop {
        console::write(Stream::Output, "find a better move (1-9, or skip, quit)> ")?;
        let answer = match read_line(&mut answers.input, MAX_COMMAND_BYTES) {
            Ok(Some(Line::Text(line))) => line.trim().to_string(),
            Ok(Some(Line::TooLong { bytes })) => {
                if answers.echo {
                    emit("...")?;
                }
                emit(&format!(
                    "That line is {bytes} bytes long: an answer is a hole number (1 to 9)."
                ))?;
                continue;
            }
            // Input that cannot be read is input that has ended.
            Ok(None) | Err(_) => {
                emit("")?;
                return Ok(Next::Quit);
            }
        };
        if answers.echo {
            emit(&excerpt(&answer))?;
        }
        match answer.as_str() {
            "quit" => return Ok(Next::Quit),
            "" | "skip" => {
                emit(&engine_line(exercise))?;
                return Ok(Next::Continue);
            }
            _ => {}
        }
        let mv = match parse_hole(&answer) {
            Ok(mv) => mv,
            Err(message) => {
                emit(&message)?;
                continue;
            }
        };
        match judge(exercise, mv) {
            Ok(verdict) => {
                let loss = verdict
                    .loss
                    .map_or("the engine gave it no score".to_string(), |loss| {
                        format!("it loses {}", stones(loss))
                    });
                emit(&if verdict.accepted {
                    format!("{mv} is accepted: {loss}.")
                } else if mv == exercise.played {
                    format!("{mv} is the move played: {loss}.")
                } else {
                    format!("{mv} is not accepted: {loss}.")
                })?;
                emit(&engine_line(exercise))?;
                return Ok(Next::Continue);
            }
            Err(reason) => emit(&illegal_for_person(reason, "the opponent"))?,
        }
    }
}

/// `engine: best 6, line 6 9 1; accepted 4 6`.
fn engine_line(exercise: &Exercise) -> String {
    format!(
        "engine: best {}, line {}; accepted {}",
        exercise
            .best
            .map_or("?".to_string(), |mv: Move| mv.to_string()),
        moves_text(&exercise.pv),
        moves_text(&exercise.accepted())
    )
}
