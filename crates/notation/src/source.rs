//! Telling a text of game records from a text of TFEN positions, by its
//! first significant line: a `[` tag or a numbered move (`1.`, `12...`)
//! starts records; anything else is positions, one a line.

/// What a text holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    Records,
    Positions,
}

/// Whether one line starts game records.
///
/// ```
/// use tuzdyk_notation::source::starts_records;
///
/// assert!(starts_records("[Event \"?\"]"));
/// assert!(starts_records("12... 45"));
/// assert!(!starts_records("9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1"));
/// ```
pub fn starts_records(line: &str) -> bool {
    let line = line.trim_start();
    if line.starts_with('[') {
        return true;
    }
    let first = line.split_whitespace().next().unwrap_or("");
    let digits = first.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && first[digits..].starts_with('.')
}

/// Whether a (trimmed) line says something: neither blank nor a `#` comment.
pub fn is_significant(line: &str) -> bool {
    !line.is_empty() && !line.starts_with('#')
}

/// The significant lines of a text of positions, trimmed, each with its
/// 1-based line number.
///
/// ```
/// use tuzdyk_notation::source::position_lines;
///
/// let lines: Vec<_> = position_lines("# c\n\n  a  \nb\n").collect();
/// assert_eq!(lines, [(3, "a"), (4, "b")]);
/// ```
pub fn position_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .map(str::trim)
        .enumerate()
        .filter(|(_, line)| is_significant(line))
        .map(|(index, line)| (index + 1, line))
}

/// What `text` holds, judged by its first line that is neither blank nor a
/// `#` comment; `None` when there is none.
pub fn kind(text: &str) -> Option<SourceKind> {
    let (_, first) = position_lines(text).next()?;
    Some(if starts_records(first) {
        SourceKind::Records
    } else {
        SourceKind::Positions
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_told_from_positions() {
        assert!(starts_records("1. 65(10) 98 2. 55 56"));
        assert!(!starts_records(
            "1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 S 74"
        ));
        assert!(!starts_records("garbage"));
        assert_eq!(kind("# c\n\n[White \"a\"]\n"), Some(SourceKind::Records));
        assert_eq!(kind("startpos\n"), Some(SourceKind::Positions));
        assert_eq!(kind("# only\n\n"), None);
    }
}
