//! Reading records: the text is cut into tokens, the tokens into games, and
//! each game is replayed move by move, every annotation checked against
//! what the move did. One bad game gives one error; the others are read.

use tuzdyk_rules::{Game, GameResult, Move, Position, Side};

use super::{GameRecord, RecordError, RecordProblem, parse_result, result_text};
use crate::{excerpt, tfen};

/// Reads every game of a file. Each game is read on its own: one bad game
/// gives one error and the others are still read.
pub fn parse_games(text: &str) -> Vec<Result<GameRecord, RecordError>> {
    parse_games_at(text)
        .into_iter()
        .map(|game| game.record)
        .collect()
}

/// One game of a file as [`parse_games_at`] reads it: the line it starts
/// on, and the game or why it was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadGame {
    /// The 1-based line of the game's first token (its first tag, or its
    /// first move when it has no tags).
    pub line: usize,
    pub record: Result<GameRecord, RecordError>,
}

/// Reads every game of a file, as [`parse_games`], with the line each
/// game starts on, so that a problem can be reported as `file:line`.
pub fn parse_games_at(text: &str) -> Vec<ReadGame> {
    // Text in memory is valid UTF-8 and reading it cannot fail, so the
    // reader never yields an error here.
    GameReader::new(text.as_bytes())
        .filter_map(Result::ok)
        .collect()
}

/// Bytes of a file read before the games in them are cut out: the reader
/// holds about this much text and one game's tokens at a time.
const PIECE: usize = 1 << 16;

/// Reads the games of a file as it goes, as [`parse_games_at`] reads text
/// in memory: it reads the input a piece at a time (whole lines, about
/// [`PIECE`] bytes), hands out every game of the piece but the last, and
/// keeps the last (it may go on in the next piece) to read again with
/// the next piece. Memory stays about a piece, whatever the file's size.
///
/// ```
/// use tuzdyk_notation::record::GameReader;
///
/// let text = "[White \"a\"]\n\n1. 65(10) 98 *\n\n[White \"b\"]\n\n1. 99 *\n";
/// let games: Vec<_> = GameReader::new(text.as_bytes()).map(Result::unwrap).collect();
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[1].line, 5);
/// assert!(games[0].record.is_ok() && games[1].record.is_err());
/// ```
pub struct GameReader<R> {
    input: R,
    /// Text read and not yet handed out, from the start of a game.
    text: String,
    /// The 1-based line `text` starts on.
    line: usize,
    /// Games handed out so far.
    games: usize,
    ready: std::collections::VecDeque<ReadGame>,
    ended: bool,
    /// Why the input stopped, told after the games read before it.
    failed: Option<InputError>,
}

impl<R: std::io::BufRead> GameReader<R> {
    pub fn new(input: R) -> GameReader<R> {
        GameReader {
            input,
            text: String::new(),
            line: 1,
            games: 0,
            ready: std::collections::VecDeque::new(),
            ended: false,
            failed: None,
        }
    }

    /// Reads a piece more and readies the games it completes. When the
    /// input fails, the games complete before the failure are readied and
    /// the game it cut is dropped.
    fn read_piece(&mut self) {
        let mut wanted = self.text.len() + PIECE;
        loop {
            while !self.ended && self.text.len() < wanted {
                match self.input.read_line(&mut self.text) {
                    Ok(read) => self.ended = read == 0,
                    Err(error) => {
                        let line = self.line + newlines(&self.text);
                        self.failed = Some(InputError { line, error });
                        self.ended = true;
                    }
                }
            }
            let mut chunks = split_games(&self.text);
            // The last game may go on in the next piece: it is kept, to be
            // read again with it, unless the input has ended.
            let kept = if self.ended && self.failed.is_none() {
                None
            } else {
                chunks.pop()
            };
            if kept.is_some() && chunks.is_empty() && !self.ended {
                // One game longer than the piece: read on.
                wanted = self.text.len() * 2;
                continue;
            }
            let mut counted = 0;
            for (offset, tokens) in chunks {
                self.line += newlines(&self.text[counted..offset]);
                counted = offset;
                self.games += 1;
                self.ready.push_back(ReadGame {
                    line: self.line,
                    record: parse_game(&tokens, self.games),
                });
            }
            match kept {
                Some((offset, _)) if !self.ended => {
                    self.line += newlines(&self.text[counted..offset]);
                    self.text.drain(..offset);
                }
                _ => {
                    self.line += newlines(&self.text[counted..]);
                    self.text.clear();
                }
            }
            return;
        }
    }
}

/// Why a [`GameReader`] stopped: the input failed (it cannot be read, or
/// is not UTF-8) on a line.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {error}")]
pub struct InputError {
    /// The 1-based line being read.
    pub line: usize,
    #[source]
    pub error: std::io::Error,
}

fn newlines(text: &str) -> usize {
    text.bytes().filter(|&b| b == b'\n').count()
}

impl<R: std::io::BufRead> Iterator for GameReader<R> {
    /// A game, or the input's error (it cannot be read, or is not UTF-8);
    /// after an error the reader ends.
    type Item = Result<ReadGame, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        while self.ready.is_empty() && !(self.ended && self.text.is_empty()) {
            self.read_piece();
        }
        match self.ready.pop_front() {
            Some(game) => Some(Ok(game)),
            None => self.failed.take().map(Err),
        }
    }
}

/// Reads text that must hold exactly one game.
///
/// # Errors
/// [`RecordError`] when the text holds no game or several, or the game is bad.
pub fn parse_game_text(text: &str) -> Result<GameRecord, RecordError> {
    let mut games = split_games(text);
    match games.len() {
        1 => parse_game(&games.remove(0).1, 1),
        n => Err(RecordError {
            game: 1,
            players: None,
            at_move: None,
            problem: RecordProblem::GameCount(n),
        }),
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Tag(String, String),
    Comment(String),
    Word(String),
}

/// A game's tokens, and the byte offset of its first one.
type Chunk = (usize, Vec<Result<Token, RecordProblem>>);

/// The text's tokens, grouped game by game: a game is its tags, then its
/// movetext up to a result (or to the next tags, or the end), with the
/// offset where it starts.
fn split_games(text: &str) -> Vec<Chunk> {
    let mut games: Vec<Chunk> = Vec::new();
    let mut current: Chunk = (0, Vec::new());
    let mut in_movetext = false;
    for (offset, token) in tokenize(text) {
        if current.1.is_empty() {
            current.0 = offset;
        }
        let is_tag = matches!(token, Ok(Token::Tag(..)));
        if is_tag && in_movetext {
            games.push(std::mem::replace(&mut current, (offset, Vec::new())));
            in_movetext = false;
        }
        let is_result = matches!(&token, Ok(Token::Word(w)) if parse_result(w).is_some());
        let is_comment = matches!(token, Ok(Token::Comment(_)));
        if !is_tag && !is_comment {
            in_movetext = true;
        }
        current.1.push(token);
        if is_result {
            // A comment right after the result belongs to this game.
            in_movetext = true;
            games.push(std::mem::take(&mut current));
        }
    }
    // A comment after a result is attached to the previous game.
    let mut merged: Vec<Chunk> = Vec::new();
    for game in games.into_iter().chain(std::iter::once(current)) {
        let only_comments = game.1.iter().all(|t| matches!(t, Ok(Token::Comment(_))));
        match merged.last_mut() {
            Some(last) if only_comments => last.1.extend(game.1),
            _ if game.1.is_empty() => {}
            _ => merged.push(game),
        }
    }
    merged
}

/// The tokens, each with the byte offset where it starts.
fn tokenize(text: &str) -> Vec<(usize, Result<Token, RecordProblem>)> {
    let mut tokens = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '[' {
            let end = find_tag_end(&text[start..]).map(|e| start + e);
            match end {
                Some(end) => {
                    tokens.push((start, parse_tag(&text[start..=end])));
                    while chars.peek().is_some_and(|&(i, _)| i <= end) {
                        chars.next();
                    }
                }
                None => {
                    let line_end = text[start..].find('\n').map_or(text.len(), |e| start + e);
                    tokens.push((
                        start,
                        Err(RecordProblem::UnterminatedTag(
                            text[start..line_end].trim().to_string(),
                        )),
                    ));
                    while chars.peek().is_some_and(|&(i, _)| i < line_end) {
                        chars.next();
                    }
                }
            }
        } else if c == '{' {
            match text[start..].find('}') {
                Some(e) => {
                    tokens.push((
                        start,
                        Ok(Token::Comment(text[start + 1..start + e].to_string())),
                    ));
                    while chars.peek().is_some_and(|&(i, _)| i <= start + e) {
                        chars.next();
                    }
                }
                None => {
                    tokens.push((start, Err(RecordProblem::UnterminatedComment)));
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
            tokens.push((start, Ok(Token::Word(text[start..end].to_string()))));
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

fn parse_tag(text: &str) -> Result<Token, RecordProblem> {
    let inner = text[1..text.len() - 1].trim();
    let (name, rest) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| RecordProblem::MalformedTag(text.to_string()))?;
    let rest = rest.trim();
    if name.is_empty()
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        || rest.len() < 2
        || !rest.starts_with('"')
        || !rest.ends_with('"')
    {
        return Err(RecordProblem::MalformedTag(text.to_string()));
    }
    let value = rest[1..rest.len() - 1]
        .replace("\\\"", "\"")
        .replace("\\\\", "\\");
    Ok(Token::Tag(name.to_string(), value))
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

/// One game being read: the moves so far and what came after them.
struct Reader<'a> {
    index: usize,
    players: Option<String>,
    tags: &'a [(String, String)],
    game: Game,
    result: Option<GameResult>,
    comment: Option<String>,
    ended: bool,
    saw_movetext: bool,
}

fn parse_game(
    tokens: &[Result<Token, RecordProblem>],
    index: usize,
) -> Result<GameRecord, RecordError> {
    let tags: Vec<(String, String)> = tokens
        .iter()
        .filter_map(|token| match token {
            Ok(Token::Tag(name, value)) => Some((name.clone(), value.clone())),
            _ => None,
        })
        .collect();
    let mut reader = Reader {
        index,
        players: None,
        tags: &tags,
        game: Game::new(Position::startpos()),
        result: None,
        comment: None,
        ended: false,
        saw_movetext: false,
    };
    if let (Some(white), Some(black)) = (reader.tag("White"), reader.tag("Black")) {
        reader.players = Some(format!("{white} vs {black}"));
    }
    if let Some(text) = reader.tag("FEN") {
        let start = tfen::parse(text).map_err(|error| {
            reader.error(
                None,
                RecordProblem::FenTag {
                    text: text.to_string(),
                    error,
                },
            )
        })?;
        reader.game = Game::new(start);
    }
    for token in tokens {
        reader.token(token)?;
    }
    reader.finish()
}

impl Reader<'_> {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    fn error(&self, at_move: Option<(u32, Side)>, problem: RecordProblem) -> RecordError {
        RecordError {
            game: self.index,
            players: self.players.clone(),
            at_move,
            problem,
        }
    }

    /// The move about to be read: full-move number and side.
    fn here(&self) -> Option<(u32, Side)> {
        let pos = self.game.position();
        Some((pos.fullmove() as u32, pos.side_to_move()))
    }

    fn token(&mut self, token: &Result<Token, RecordProblem>) -> Result<(), RecordError> {
        let word = match token {
            Err(problem) => return Err(self.error(self.here(), problem.clone())),
            Ok(Token::Tag(..)) if self.saw_movetext => {
                return Err(self.error(self.here(), RecordProblem::TagInMoves));
            }
            Ok(Token::Tag(..)) => return Ok(()),
            Ok(Token::Comment(text)) => {
                if self.ended {
                    self.comment = Some(text.clone());
                }
                return Ok(());
            }
            Ok(Token::Word(word)) => word.as_str(),
        };
        self.saw_movetext = true;
        if self.ended {
            return Err(self.error(self.here(), RecordProblem::AfterResult(excerpt(word))));
        }
        if let Some(recorded) = parse_result(word) {
            return self.recorded_result(recorded);
        }
        let word = match split_move_number(word) {
            Some((number, black, rest)) => {
                self.check_move_number(number, black, &word[..word.len() - rest.len()])?;
                if rest.is_empty() {
                    return Ok(());
                }
                rest
            }
            None => word,
        };
        self.play(word)
    }

    fn recorded_result(&mut self, recorded: Option<GameResult>) -> Result<(), RecordError> {
        if let (Some(board), Some(_)) = (self.game.position().result(), recorded)
            && Some(board) != recorded
        {
            return Err(self.error(
                None,
                RecordProblem::WrongResult {
                    board,
                    record: recorded,
                },
            ));
        }
        self.result = recorded;
        self.ended = true;
        Ok(())
    }

    fn check_move_number(&self, number: u32, black: bool, found: &str) -> Result<(), RecordError> {
        let pos = self.game.position();
        let expected_black = pos.side_to_move() == Side::Black;
        if number != pos.fullmove() as u32 || (black && !expected_black) {
            let expected = format!(
                "{}{}",
                pos.fullmove(),
                if expected_black { "..." } else { "." }
            );
            return Err(self.error(
                self.here(),
                RecordProblem::MoveNumber {
                    found: found.to_string(),
                    expected,
                },
            ));
        }
        Ok(())
    }

    /// Plays one move token and checks its landing hole, tuzdik mark and kazan.
    fn play(&mut self, word: &str) -> Result<(), RecordError> {
        let here = self.here();
        let token = parse_move_token(word)
            .ok_or_else(|| self.error(here, RecordProblem::MalformedMove(excerpt(word))))?;
        let mover = self.game.position().side_to_move();
        let outcome = self.game.play(token.from).map_err(|reason| {
            self.error(
                here,
                RecordProblem::IllegalMove {
                    token: word.to_string(),
                    reason,
                },
            )
        })?;
        let word = word.to_string();
        let landing = outcome.landing_hole().number;
        if landing != token.landing {
            return Err(self.error(
                here,
                RecordProblem::Landing {
                    token: word,
                    actual: landing,
                    claimed: token.landing,
                },
            ));
        }
        if token.tuzdik != outcome.tuzdik {
            let problem = if outcome.tuzdik {
                RecordProblem::TuzdikNotMarked(word)
            } else {
                RecordProblem::NoTuzdik(word)
            };
            return Err(self.error(here, problem));
        }
        let actual = self.game.position().kazan(mover) as u32;
        let problem = match token.kazan {
            Some(claimed) if outcome.captured == 0 => RecordProblem::KazanWithoutCapture {
                token: word,
                claimed,
            },
            Some(claimed) if claimed != actual => RecordProblem::KazanMismatch {
                token: word,
                actual,
                claimed,
            },
            None if outcome.captured > 0 && !outcome.tuzdik => RecordProblem::KazanMissing {
                token: word,
                captured: outcome.captured,
            },
            _ => return Ok(()),
        };
        Err(self.error(here, problem))
    }

    fn finish(self) -> Result<GameRecord, RecordError> {
        if !self.ended {
            return Err(self.error(self.here(), RecordProblem::Truncated));
        }
        if let Some(tag) = self.tag("Result") {
            let written = result_text(self.result);
            if tag != written {
                return Err(self.error(
                    None,
                    RecordProblem::ResultTag {
                        tag: tag.to_string(),
                        written,
                    },
                ));
            }
        }
        Ok(GameRecord {
            tags: self.tags.to_vec(),
            game: self.game,
            result: self.result,
            comment: self.comment,
        })
    }
}

#[cfg(test)]
mod line_tests {
    use super::*;

    #[test]
    fn each_game_knows_the_line_it_starts_on() {
        let text = "\n[White \"a\"]\n[Black \"b\"]\n\n1. 65(10) 98 *\n\n\
                    [White \"c\"]\n\n1. 65(10) 99 *\n1. 65(10) 98 *\n";
        let games = parse_games_at(text);
        let lines: Vec<usize> = games.iter().map(|g| g.line).collect();
        assert_eq!(lines, [2, 7, 10]);
        assert!(games[0].record.is_ok());
        assert!(games[1].record.is_err(), "99 is not where 9 lands");
        assert!(games[2].record.is_ok());
        let plain: Vec<_> = parse_games(text).into_iter().map(|g| g.is_ok()).collect();
        assert_eq!(plain, [true, false, true]);
    }
}

#[cfg(test)]
mod piece_tests {
    use super::*;

    /// The games of `text` read whole, as the reader did before it read
    /// in pieces: the reference the pieces must match.
    fn read_whole(text: &str) -> Vec<ReadGame> {
        let mut line = 1;
        let mut counted = 0;
        split_games(text)
            .into_iter()
            .enumerate()
            .map(|(i, (offset, tokens))| {
                line += newlines(&text[counted..offset]);
                counted = offset;
                ReadGame {
                    line,
                    record: parse_game(&tokens, i + 1),
                }
            })
            .collect()
    }

    #[test]
    fn a_file_read_in_pieces_gives_the_games_read_whole() {
        // The PlayOK games span 16 pieces; a bad record in the middle, a
        // comment after a result and one across lines are cut anywhere.
        let playok = include_str!("../../../../tests/data/playok-games.pgn");
        let mut text = playok.to_string();
        let middle = text.len() / 2 + text[text.len() / 2..].find("\n[").unwrap_or(0);
        text.insert_str(
            middle,
            "\n[White \"x\"]\n\n1. 11 22 33 *\n{a comment\nover lines}\n",
        );
        for text in [playok, text.as_str()] {
            let whole = read_whole(text);
            assert!(whole.len() > 1000);
            let pieces: Vec<ReadGame> = GameReader::new(text.as_bytes())
                .map(Result::unwrap)
                .collect();
            assert_eq!(pieces.len(), whole.len());
            for (a, b) in pieces.iter().zip(&whole) {
                assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn a_game_longer_than_a_piece_is_read_whole() {
        let comment = "x".repeat(3 * PIECE);
        let text = format!(
            "[White \"a\"]\n\n1. 65(10) {{{comment}}} 98 *\n\n[White \"b\"]\n\n1. 65(10) 98 *\n"
        );
        let games: Vec<ReadGame> = GameReader::new(text.as_bytes())
            .map(Result::unwrap)
            .collect();
        assert_eq!(games, read_whole(&text));
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].line, 5);
    }

    #[test]
    fn input_that_is_not_utf8_ends_the_games_after_those_before_it() {
        let bytes = b"[White \"a\"]\n\n1. 65(10) 98 *\n\n[White \"b\"]\n\n1. 6\xff";
        let mut reader = GameReader::new(&bytes[..]);
        assert!(matches!(reader.next(), Some(Ok(g)) if g.record.is_ok()));
        assert!(
            matches!(reader.next(), Some(Err(e))
                if e.error.kind() == std::io::ErrorKind::InvalidData && e.line == 7),
            "the game cut by the bad byte is dropped, the error told"
        );
        assert!(reader.next().is_none());
    }
}
