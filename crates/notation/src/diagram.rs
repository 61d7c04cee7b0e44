//! The board as lines of text, for the protocol's `d` command and logs:
//! Black's row on top (hole 9 down to 1, as Black sees it from across the
//! board), White's row below (1 to 9), kazans and tuzdiks (marked `X`).

use tuzdyk_rules::{HOLES, Position, Side};

/// The diagram, five lines without a final line break.
///
/// ```
/// use tuzdyk_notation::diagram;
/// use tuzdyk_rules::Position;
///
/// let text = diagram::board(&Position::startpos());
/// assert_eq!(text.lines().count(), 5);
/// assert!(text.ends_with("White to move"));
/// ```
pub fn board(position: &Position) -> String {
    let cell = |side: Side, hole: usize| -> String {
        if position.tuzdik(side.opponent()) == Some(hole as u8) {
            "  X".to_string()
        } else {
            format!("{:>3}", position.stones(side, hole))
        }
    };
    let black: String = (0..HOLES).rev().map(|h| cell(Side::Black, h)).collect();
    let white: String = (0..HOLES).map(|h| cell(Side::White, h)).collect();
    format!(
        "        9  8  7  6  5  4  3  2  1   Black\n     {black}   kazan {}\n     {white}   kazan {}\n        1  2  3  4  5  6  7  8  9   White\n{} to move",
        position.kazan(Side::Black),
        position.kazan(Side::White),
        position.side_to_move()
    )
}
