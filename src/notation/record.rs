//! Game records in the PlayOK notation: `[Tag "value"]` headers, then
//! numbered move pairs, then the result.
//!
//! A move token is `<from><landing>[X][(kazan)]`: the mover's hole, the
//! number of the hole where the last stone fell (on whichever side), `X` when
//! the move made a tuzdik, and after a capture the mover's kazan total.
//! Reading replays every move and checks every annotation; writing produces
//! exactly what reading accepts.
//!
//! ```
//! use tuzdyk::notation::record::{self, GameRecord};
//!
//! let text = "[White \"a\"]\n[Black \"b\"]\n\n1. 65(10) 98 *\n";
//! let games = record::parse_games(text);
//! let game: &GameRecord = games[0].as_ref().unwrap();
//! assert_eq!(game.moves.len(), 2);
//! assert_eq!(record::parse_games(&game.to_string())[0].as_ref().unwrap(), game);
//! ```

use std::fmt;

use crate::board::{GameResult, Move, MoveOutcome, Position, Side};
use crate::notation::{excerpt, tfen};

/// One game: its tags, where it started, its moves and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Tags in the order read or set (a `FEN` tag among them when the game
    /// does not start from the start position).
    pub tags: Vec<(String, String)>,
    pub start: Position,
    pub moves: Vec<Move>,
    /// The recorded result; `None` for `*` (unfinished).
    pub result: Option<GameResult>,
    /// A comment after the result (PlayOK writes `{zero}`), without braces.
    pub comment: Option<String>,
}

/// Why a game record was rejected: which game, which move, what differed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// 1-based position of the game in its file.
    pub game: usize,
    /// The players, when the tags name them.
    pub players: Option<String>,
    /// The 1-based full-move number and side of the move at fault, if any.
    pub at_move: Option<(u32, Side)>,
    pub problem: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if let Some(players) = &self.players {
            write!(f, " ({players})")?;
        }
        if let Some((number, side)) = self.at_move {
            write!(f, ", move {number} ({})", side.name())?;
        }
        write!(f, ": {}", self.problem)
    }
}

impl std::error::Error for RecordError {}

impl GameRecord {
    /// A record of `moves` from `start`, with the standard tags.
    pub fn new(start: Position, moves: Vec<Move>, result: Option<GameResult>) -> GameRecord {
        let mut tags = vec![
            ("Event".to_string(), "?".to_string()),
            ("Site".to_string(), "tuzdyk".to_string()),
            ("White".to_string(), "?".to_string()),
            ("Black".to_string(), "?".to_string()),
            (
                "Result".to_string(),
                result.map_or("*", GameResult::notation).to_string(),
            ),
        ];
        if start != Position::startpos() {
            tags.push(("FEN".to_string(), tfen::write(&start)));
        }
        GameRecord {
            tags,
            start,
            moves,
            result,
            comment: None,
        }
    }

    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// Sets tag `name`, replacing an existing one.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(key, _)| key == name) {
            Some(entry) => entry.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Every position of the game, from the start to after the last move.
    pub fn positions(&self) -> Vec<Position> {
        let mut positions = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start;
        positions.push(pos);
        for &mv in &self.moves {
            pos.play(mv);
            positions.push(pos);
        }
        positions
    }

    /// The position after the last move.
    pub fn final_position(&self) -> Position {
        let mut pos = self.start;
        for &mv in &self.moves {
            pos.play(mv);
        }
        pos
    }
}

/// The move token as written in a record: `<from><landing>[X][(kazan)]`.
/// `after` is the position after the move.
pub fn move_token(mv: Move, outcome: &MoveOutcome, after: &Position, mover: Side) -> String {
    let (_, landing) = outcome.landing_hole();
    let mut token = format!("{}{}", mv.number(), landing);
    if outcome.tuzdik {
        token.push('X');
    } else if outcome.captured > 0 {
        token.push_str(&format!("({})", after.kazan(mover)));
    }
    token
}

impl fmt::Display for GameRecord {
    /// The record in PlayOK notation, lines kept under 80 columns.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut has_fen = false;
        for (key, value) in &self.tags {
            has_fen |= key.eq_ignore_ascii_case("FEN");
            let value = if key == "Result" {
                self.result.map_or("*", GameResult::notation)
            } else {
                value
            };
            writeln!(f, "[{key} \"{}\"]", escape_tag(value))?;
        }
        if !has_fen && self.start != Position::startpos() {
            writeln!(f, "[FEN \"{}\"]", tfen::write(&self.start))?;
        }
        writeln!(f)?;

        let mut words = Vec::with_capacity(self.moves.len() * 3 / 2 + 2);
        let mut pos = self.start;
        for (i, &mv) in self.moves.iter().enumerate() {
            let mover = pos.side_to_move();
            if mover == Side::White {
                words.push(format!("{}.", pos.fullmove()));
            } else if i == 0 {
                words.push(format!("{}...", pos.fullmove()));
            }
            let outcome = pos.play(mv);
            words.push(move_token(mv, &outcome, &pos, mover));
        }
        words.push(self.result.map_or("*", GameResult::notation).to_string());
        if let Some(comment) = &self.comment {
            words.push(format!("{{{comment}}}"));
        }
        let mut line_len = 0;
        for word in words {
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

fn escape_tag(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Reads every game of a file. Each game is read on its own: one bad game
/// gives one error and the others are still read.
pub fn parse_games(text: &str) -> Vec<Result<GameRecord, RecordError>> {
    split_games(text)
        .into_iter()
        .enumerate()
        .map(|(i, chunk)| parse_game(&chunk, i + 1))
        .collect()
}

/// Reads text that must hold exactly one game.
pub fn parse_game_text(text: &str) -> Result<GameRecord, RecordError> {
    let mut games = split_games(text);
    match games.len() {
        1 => parse_game(&games.remove(0), 1),
        n => Err(RecordError {
            game: 1,
            players: None,
            at_move: None,
            problem: format!("expected one game, found {n}"),
        }),
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Tag(String, String),
    Comment(String),
    Word(String),
}

/// The text's tokens, grouped game by game: a game is its tags, then its
/// movetext up to a result (or to the next tags, or the end).
fn split_games(text: &str) -> Vec<Vec<Result<Token, String>>> {
    let mut games = Vec::new();
    let mut current: Vec<Result<Token, String>> = Vec::new();
    let mut in_movetext = false;
    for token in tokenize(text) {
        let is_tag = matches!(token, Ok(Token::Tag(..)));
        if is_tag && in_movetext {
            games.push(std::mem::take(&mut current));
            in_movetext = false;
        }
        let is_result = matches!(&token, Ok(Token::Word(w)) if parse_result(w).is_some());
        let is_comment = matches!(token, Ok(Token::Comment(_)));
        if !is_tag && !is_comment {
            in_movetext = true;
        }
        current.push(token);
        if is_result {
            // A comment right after the result belongs to this game.
            in_movetext = true;
            games.push(std::mem::take(&mut current));
        }
    }
    // A comment after a result is attached to the previous game.
    let mut merged: Vec<Vec<Result<Token, String>>> = Vec::new();
    for game in games.into_iter().chain(std::iter::once(current)) {
        let only_comments = game.iter().all(|t| matches!(t, Ok(Token::Comment(_))));
        match merged.last_mut() {
            Some(last) if only_comments => last.extend(game),
            _ if game.is_empty() => {}
            _ => merged.push(game),
        }
    }
    merged
}

fn tokenize(text: &str) -> Vec<Result<Token, String>> {
    let mut tokens = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '[' {
            let end = find_tag_end(&text[start..]).map(|e| start + e);
            match end {
                Some(end) => {
                    tokens.push(parse_tag(&text[start..=end]));
                    while chars.peek().is_some_and(|&(i, _)| i <= end) {
                        chars.next();
                    }
                }
                None => {
                    let line_end = text[start..].find('\n').map_or(text.len(), |e| start + e);
                    tokens.push(Err(format!(
                        "unterminated tag '{}'",
                        text[start..line_end].trim()
                    )));
                    while chars.peek().is_some_and(|&(i, _)| i < line_end) {
                        chars.next();
                    }
                }
            }
        } else if c == '{' {
            match text[start..].find('}') {
                Some(e) => {
                    tokens.push(Ok(Token::Comment(text[start + 1..start + e].to_string())));
                    while chars.peek().is_some_and(|&(i, _)| i <= start + e) {
                        chars.next();
                    }
                }
                None => {
                    tokens.push(Err("unterminated comment '{'".to_string()));
                    break;
                }
            }
        } else {
            let mut end = text.len();
            while let Some(&(i, c)) = chars.peek() {
                if c.is_whitespace() || c == '[' || c == '{' {
                    end = i;
                    break;
                }
                chars.next();
            }
            tokens.push(Ok(Token::Word(text[start..end].to_string())));
        }
    }
    tokens
}

/// The index of the `]` that closes a tag starting at `[`, outside quotes.
fn find_tag_end(text: &str) -> Option<usize> {
    let mut in_quotes = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if c == '\n' && !in_quotes {
            return None;
        }
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == '"' {
            in_quotes = !in_quotes;
        } else if c == ']' && !in_quotes {
            return Some(i);
        }
    }
    None
}

fn parse_tag(text: &str) -> Result<Token, String> {
    let inner = text[1..text.len() - 1].trim();
    let (name, rest) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("malformed tag '{text}'"))?;
    let rest = rest.trim();
    if name.is_empty()
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        || rest.len() < 2
        || !rest.starts_with('"')
        || !rest.ends_with('"')
    {
        return Err(format!("malformed tag '{text}'"));
    }
    let value = rest[1..rest.len() - 1]
        .replace("\\\"", "\"")
        .replace("\\\\", "\\");
    Ok(Token::Tag(name.to_string(), value))
}

fn parse_result(word: &str) -> Option<Option<GameResult>> {
    match word {
        "1-0" => Some(Some(GameResult::Win(Side::White))),
        "0-1" => Some(Some(GameResult::Win(Side::Black))),
        "1/2-1/2" => Some(Some(GameResult::Draw)),
        "*" => Some(None),
        _ => None,
    }
}

/// A move token split into its parts.
struct MoveToken {
    from: Move,
    landing: u32,
    tuzdik: bool,
    kazan: Option<u32>,
}

fn parse_move_token(word: &str) -> Option<MoveToken> {
    let bytes = word.as_bytes();
    if bytes.len() < 2 || !(b'1'..=b'9').contains(&bytes[0]) || !(b'1'..=b'9').contains(&bytes[1]) {
        return None;
    }
    let from = Move::from_number((bytes[0] - b'0') as u32)?;
    let landing = (bytes[1] - b'0') as u32;
    let mut rest = &word[2..];
    let tuzdik = rest.starts_with(['X', 'x']);
    if tuzdik {
        rest = &rest[1..];
    }
    let kazan = if rest.is_empty() {
        None
    } else {
        let digits = rest.strip_prefix('(')?.strip_suffix(')')?;
        if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(digits.parse().ok()?)
    };
    Some(MoveToken {
        from,
        landing,
        tuzdik,
        kazan,
    })
}

/// Splits a leading move number (`12.` or `12...`) off a word.
fn split_move_number(word: &str) -> Option<(u32, bool, &str)> {
    let digits_end = word.find(|c: char| !c.is_ascii_digit())?;
    if digits_end == 0 || !word[digits_end..].starts_with('.') {
        return None;
    }
    let number = word[..digits_end].parse().ok()?;
    let dots = word[digits_end..].chars().take_while(|&c| c == '.').count();
    Some((number, dots >= 3, &word[digits_end + dots..]))
}

fn parse_game(tokens: &[Result<Token, String>], index: usize) -> Result<GameRecord, RecordError> {
    let mut tags = Vec::new();
    for token in tokens {
        if let Ok(Token::Tag(name, value)) = token {
            tags.push((name.clone(), value.clone()));
        }
    }
    let find = |name: &str| {
        tags.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v): &(String, String)| v.clone())
    };
    let players = match (find("White"), find("Black")) {
        (Some(w), Some(b)) => Some(format!("{w} vs {b}")),
        _ => None,
    };
    let error = |at_move: Option<(u32, Side)>, problem: String| RecordError {
        game: index,
        players: players.clone(),
        at_move,
        problem,
    };

    let start = match find("FEN") {
        Some(text) => {
            tfen::parse(&text).map_err(|e| error(None, format!("FEN tag '{text}': {e}")))?
        }
        None => Position::startpos(),
    };
    let mut pos = start;
    let mut moves = Vec::new();
    let mut result = None;
    let mut comment = None;
    let mut ended = false;
    let mut saw_movetext = false;
    for token in tokens {
        let here = Some((pos.fullmove() as u32, pos.side_to_move()));
        let word = match token {
            Err(problem) => return Err(error(here, problem.clone())),
            Ok(Token::Tag(..)) if saw_movetext => {
                return Err(error(here, "tag inside the moves".to_string()));
            }
            Ok(Token::Tag(..)) => continue,
            Ok(Token::Comment(text)) => {
                if ended {
                    comment = Some(text.clone());
                }
                continue;
            }
            Ok(Token::Word(word)) => word.as_str(),
        };
        saw_movetext = true;
        if ended {
            return Err(error(here, format!("'{}' after the result", excerpt(word))));
        }
        if let Some(recorded) = parse_result(word) {
            if let (Some(actual), Some(claimed)) = (pos.result(), recorded)
                && actual != claimed
            {
                return Err(error(
                    None,
                    format!(
                        "the game ended {} on the board but the record says {}",
                        actual.notation(),
                        claimed.notation()
                    ),
                ));
            }
            result = recorded;
            ended = true;
            continue;
        }
        let mut word = word;
        if let Some((number, black, rest)) = split_move_number(word) {
            let expected_black = pos.side_to_move() == Side::Black;
            if number != pos.fullmove() as u32 || (black && !expected_black) {
                return Err(error(
                    here,
                    format!(
                        "move number '{}' out of sequence (expected {}{})",
                        &word[..word.len() - rest.len()],
                        pos.fullmove(),
                        if expected_black { "..." } else { "." }
                    ),
                ));
            }
            if rest.is_empty() {
                continue;
            }
            word = rest;
        }
        let token = parse_move_token(word)
            .ok_or_else(|| error(here, format!("malformed move '{}'", excerpt(word))))?;
        if let Some((over, _)) = pos.game_over() {
            return Err(error(
                here,
                format!("move '{word}' after the game ended ({})", over.notation()),
            ));
        }
        if !pos.is_legal(token.from) {
            return Err(error(
                here,
                format!("illegal move '{word}': hole {} is empty", token.from),
            ));
        }
        let mover = pos.side_to_move();
        let outcome = pos.play(token.from);
        let (_, landing) = outcome.landing_hole();
        if landing != token.landing {
            return Err(error(
                here,
                format!(
                    "'{word}': the last stone lands in hole {landing}, not {}",
                    token.landing
                ),
            ));
        }
        if token.tuzdik != outcome.tuzdik {
            return Err(error(
                here,
                if outcome.tuzdik {
                    format!("'{word}': the move makes a tuzdik but is not marked X")
                } else {
                    format!("'{word}': marked X but the move makes no tuzdik")
                },
            ));
        }
        let kazan = pos.kazan(mover) as u32;
        match token.kazan {
            Some(claimed) if outcome.captured == 0 => {
                return Err(error(
                    here,
                    format!("'{word}': kazan ({claimed}) given but the move captures nothing"),
                ));
            }
            Some(claimed) if claimed != kazan => {
                return Err(error(
                    here,
                    format!("'{word}': the mover's kazan is {kazan} after the move, not {claimed}"),
                ));
            }
            None if outcome.captured > 0 && !outcome.tuzdik => {
                return Err(error(
                    here,
                    format!(
                        "'{word}': the move captures {} but the kazan is not given",
                        outcome.captured
                    ),
                ));
            }
            _ => {}
        }
        moves.push(token.from);
    }
    if !ended {
        return Err(error(
            Some((pos.fullmove() as u32, pos.side_to_move())),
            "the record ends without a result (truncated?)".to_string(),
        ));
    }
    if let Some(tag) = find("Result") {
        let written = result.map_or("*", GameResult::notation);
        if tag != written {
            return Err(error(
                None,
                format!("the Result tag says '{tag}' but the moves end with '{written}'"),
            ));
        }
    }
    Ok(GameRecord {
        tags,
        start,
        moves,
        result,
        comment,
    })
}
