//! Writing a record: tags, then the numbered moves with their landing
//! holes, tuzdik marks and kazans, in lines under 80 columns.

use std::fmt;

use tuzdyk_rules::{Move, MoveOutcome, Position, Side};

use super::{GameRecord, result_text};
use crate::tfen;

/// The move token as written in a record: `<from><landing>[X][(kazan)]`.
/// `after` is the position after the move.
pub fn move_token(mv: Move, outcome: &MoveOutcome, after: &Position, mover: Side) -> String {
    let landing = outcome.landing_hole().number;
    let mut token = format!("{}{}", mv.number(), landing);
    if outcome.tuzdik {
        token.push('X');
    } else if outcome.captured > 0 {
        token.push_str(&format!("({})", after.kazan(mover)));
    }
    token
}

fn escape_tag(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl GameRecord {
    /// The movetext words: move numbers, move tokens, the result and the comment.
    fn words(&self) -> Vec<String> {
        let mut words = Vec::with_capacity(self.game.moves().len() * 3 / 2 + 2);
        for (i, ply) in self.game.plies().iter().enumerate() {
            let mover = ply.mover();
            if mover == Side::White {
                words.push(format!("{}.", ply.before.fullmove()));
            } else if i == 0 {
                words.push(format!("{}...", ply.before.fullmove()));
            }
            words.push(move_token(ply.mv, &ply.outcome, &ply.after, mover));
        }
        words.push(result_text(self.result).to_string());
        if let Some(comment) = &self.comment {
            words.push(format!("{{{comment}}}"));
        }
        words
    }
}

impl fmt::Display for GameRecord {
    /// The record in PlayOK notation, lines kept under 80 columns.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut has_fen = false;
        for (key, value) in &self.tags {
            has_fen |= key.eq_ignore_ascii_case("FEN");
            let value = if key == "Result" {
                result_text(self.result)
            } else {
                value
            };
            writeln!(f, "[{key} \"{}\"]", escape_tag(value))?;
        }
        if !has_fen && *self.game.start() != Position::startpos() {
            writeln!(f, "[FEN \"{}\"]", tfen::write(self.game.start()))?;
        }
        writeln!(f)?;
        let mut line_len = 0;
        for word in self.words() {
            if line_len > 0 && line_len + 1 + word.len() > 79 {
                writeln!(f)?;
                line_len = 0;
            }
            if line_len > 0 {
                write!(f, " ")?;
                line_len += 1;
            }
            write!(f, "{word}")?;
            line_len += word.len();
        }
        writeln!(f)
    }
}
