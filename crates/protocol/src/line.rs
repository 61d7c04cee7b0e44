//! Reading one line of text input with a bound on memory: the one reader
//! of the engine's protocol loop, the client's engine output, and the
//! tools' files and terminals. A line longer than the limit is consumed to
//! its end but not kept, so an endless line cannot exhaust memory, and its
//! true length is reported.

use std::io::{self, BufRead, ErrorKind};

/// One line read, without its line ending (`\n` or `\r\n`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// The line, invalid UTF-8 replaced by U+FFFD.
    Text(String),
    /// A line of `bytes` bytes (line ending not counted), over the limit.
    TooLong { bytes: usize },
}

/// Reads the next line of at most `limit` bytes; `None` at the end of input.
///
/// ```
/// use tuzdyk_protocol::line::{Line, read_line};
///
/// let mut input = "go depth 3\r\nxxxxxxxxxx\nlast".as_bytes();
/// assert_eq!(read_line(&mut input, 16).unwrap(), Some(Line::Text("go depth 3".into())));
/// assert_eq!(read_line(&mut input, 8).unwrap(), Some(Line::TooLong { bytes: 10 }));
/// assert_eq!(read_line(&mut input, 8).unwrap(), Some(Line::Text("last".into())));
/// assert_eq!(read_line(&mut input, 8).unwrap(), None);
/// ```
///
/// # Errors
/// The reader's error (an interrupted read is retried).
pub fn read_line(input: &mut impl BufRead, limit: usize) -> io::Result<Option<Line>> {
    let mut kept = Vec::new();
    // The line's bytes before its `\n`, whether the last of them is `\r`,
    // whether anything was read at all, and whether a `\n` ended it.
    let (mut bytes, mut ends_in_cr, mut read_any, mut newline) = (0usize, false, false, false);
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        read_any = true;
        let (body, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], true),
            None => (available, false),
        };
        // Keep one byte past the limit at most: enough to know it is too long.
        let room = (limit + 1).saturating_sub(kept.len());
        kept.extend_from_slice(&body[..body.len().min(room)]);
        if let Some(&last) = body.last() {
            ends_in_cr = last == b'\r';
        }
        bytes += body.len();
        let used = body.len() + usize::from(done);
        input.consume(used);
        if done {
            newline = true;
            break;
        }
    }
    if !read_any {
        return Ok(None);
    }
    // `\r\n` ends a line as `\n` does.
    if newline && ends_in_cr {
        if kept.len() == bytes {
            kept.pop();
        }
        bytes -= 1;
    }
    Ok(Some(if bytes > limit {
        Line::TooLong { bytes }
    } else {
        Line::Text(String::from_utf8_lossy(&kept).into_owned())
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_reports_its_whole_length_and_keeps_the_next() {
        let long = "x".repeat(1_000_024);
        let text = format!("{long}\nisready\n");
        let mut input = io::BufReader::with_capacity(4096, text.as_bytes());
        assert_eq!(
            read_line(&mut input, 65_536).unwrap(),
            Some(Line::TooLong { bytes: 1_000_024 })
        );
        assert_eq!(
            read_line(&mut input, 65_536).unwrap(),
            Some(Line::Text("isready".to_string()))
        );
        assert_eq!(read_line(&mut input, 65_536).unwrap(), None);
    }

    #[test]
    fn the_limit_itself_is_allowed_and_endings_are_not_counted() {
        let mut input = "abcd\r\nabcde\n\n".as_bytes();
        assert_eq!(
            read_line(&mut input, 4).unwrap(),
            Some(Line::Text("abcd".to_string()))
        );
        assert_eq!(
            read_line(&mut input, 4).unwrap(),
            Some(Line::TooLong { bytes: 5 })
        );
        assert_eq!(
            read_line(&mut input, 4).unwrap(),
            Some(Line::Text(String::new()))
        );
        assert_eq!(read_line(&mut input, 4).unwrap(), None);
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        let mut input: &[u8] = b"a\xffb\n";
        assert_eq!(
            read_line(&mut input, 10).unwrap(),
            Some(Line::Text("a\u{fffd}b".to_string()))
        );
    }
}
