//! The board as lines of text, the one drawing of it: the protocol's `d`
//! and `tuzdyk play` both use [`view`]. The row across the board is on top,
//! numbered as its owner numbers it from their left (9 down to 1); the
//! viewer's row is below (1 to 9); each count stands right under or over
//! its hole's number, a tuzdik is `X`, and each side's label and kazan
//! stand beside its row.

use tuzdyk_rules::{HOLES, Position, Side};

/// Columns per hole: room for three digits and a space.
const CELL: usize = 4;

/// The board as `bottom` sees it, with `labels` (indexed by
/// [`Side::index`]) naming the sides: six lines, no final line break.
///
/// ```
/// use tuzdyk_notation::diagram;
/// use tuzdyk_rules::{Position, Side};
///
/// let text = diagram::view(&Position::startpos(), Side::White, ["You", "tuzdyk"]);
/// let lines: Vec<&str> = text.lines().collect();
/// assert_eq!(lines.len(), 6);
/// assert!(lines[0].starts_with("  tuzdyk") && lines[0].ends_with("kazan   0"));
/// assert_eq!(lines[1].split_whitespace().next(), Some("9"));
/// ```
pub fn view(position: &Position, bottom: Side, labels: [&str; 2]) -> String {
    let top = bottom.opponent();
    let cell = |side: Side, hole: usize| -> String {
        if position.tuzdik(side.opponent()) == Some(hole as u8) {
            format!("{:>CELL$}", "X")
        } else {
            format!("{:>CELL$}", position.stones(side, hole))
        }
    };
    let numbers = |holes: &mut dyn Iterator<Item = usize>| -> String {
        holes.map(|hole| format!("{:>CELL$}", hole + 1)).collect()
    };
    let label = |side: Side| {
        format!(
            "  {:<width$}  kazan {:>3}",
            labels[side.index()],
            position.kazan(side),
            width = CELL * HOLES
        )
    };
    let top_row: String = (0..HOLES).rev().map(|hole| cell(top, hole)).collect();
    let bottom_row: String = (0..HOLES).map(|hole| cell(bottom, hole)).collect();
    [
        label(top),
        format!("  {}", numbers(&mut (0..HOLES).rev())),
        format!("  {top_row}"),
        format!("  {bottom_row}"),
        format!("  {}", numbers(&mut (0..HOLES))),
        label(bottom),
    ]
    .join("\n")
}

/// The protocol's `d` diagram: Black's row on top, White's below, then the
/// side to move; seven lines, no final line break.
///
/// ```
/// use tuzdyk_notation::diagram;
/// use tuzdyk_rules::Position;
///
/// let text = diagram::board(&Position::startpos());
/// assert_eq!(text.lines().count(), 7);
/// assert!(text.ends_with("White to move"));
/// ```
pub fn board(position: &Position) -> String {
    format!(
        "{}\n{} to move",
        view(position, Side::White, ["White", "Black"]),
        position.side_to_move()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use tuzdyk_rules::Move;

    /// The columns where the whitespace-separated words of `line` end.
    fn word_ends(line: &str) -> Vec<usize> {
        let bytes = line.as_bytes();
        (0..bytes.len())
            .filter(|&i| bytes[i] != b' ' && bytes.get(i + 1).is_none_or(|&b| b == b' '))
            .collect()
    }

    #[test]
    fn every_count_stands_under_its_holes_number() {
        let mut pos = Position::startpos();
        pos.play(Move::from_number(6).unwrap());
        for bottom in Side::BOTH {
            let text = view(&pos, bottom, ["a", "b"]);
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(word_ends(lines[1]), word_ends(lines[2]), "{text}");
            assert_eq!(word_ends(lines[3]), word_ends(lines[4]), "{text}");
            assert_eq!(word_ends(lines[1]), word_ends(lines[4]), "{text}");
        }
        // One-digit counts too (the start has only 9s).
        let text = board(&Position::startpos());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(word_ends(lines[1]), word_ends(lines[2]), "{text}");
    }

    #[test]
    fn the_board_is_drawn_from_the_viewers_side() {
        let mut pos = Position::startpos();
        pos.play(Move::from_number(6).unwrap());
        let white = view(&pos, Side::White, ["You (White)", "tuzdyk (Black)"]);
        let lines: Vec<&str> = white.lines().collect();
        assert!(lines[0].contains("tuzdyk (Black)") && lines[0].ends_with("kazan   0"));
        assert_eq!(lines[1].split_whitespace().next(), Some("9"));
        // Black's row from its hole 9 to 1: its hole 5 was captured.
        assert_eq!(
            lines[2].split_whitespace().collect::<Vec<_>>(),
            ["9", "9", "9", "9", "0", "10", "10", "10", "10"]
        );
        assert_eq!(lines[4].split_whitespace().next(), Some("1"));
        assert!(lines[5].contains("You (White)") && lines[5].ends_with("kazan  10"));
        let black = view(&pos, Side::Black, ["tuzdyk (White)", "You (Black)"]);
        let lines: Vec<&str> = black.lines().collect();
        // White's row on top, from its hole 9 down to 1.
        assert_eq!(
            lines[2].split_whitespace().collect::<Vec<_>>(),
            ["10", "10", "10", "1", "9", "9", "9", "9", "9"]
        );
        assert_eq!(
            lines[3].split_whitespace().collect::<Vec<_>>(),
            ["10", "10", "10", "10", "0", "9", "9", "9", "9"]
        );
    }
}
