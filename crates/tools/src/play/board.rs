//! What the player sees: the board from their side, and what a move does.

use tuzdyk_rules::{HOLES, Move, Position, Side};

/// The board as the player sees it: the opponent's row on top, numbered from
/// the opponent's left (so 9 down to 1), the player's row at the bottom
/// numbered 1 to 9, tuzdiks marked `X`, kazans beside their owners' names.
pub fn render(pos: &Position, human: Side, labels: &[String; 2]) -> String {
    let engine = human.opponent();
    let cell = |side: Side, hole: usize| -> String {
        if pos.tuzdik(side.opponent()) == Some(hole as u8) {
            format!("{:>4}", "X")
        } else {
            format!("{:>4}", pos.stones(side, hole))
        }
    };
    let top: String = (0..HOLES).rev().map(|h| cell(engine, h)).collect();
    let bottom: String = (0..HOLES).map(|h| cell(human, h)).collect();
    let top_numbers: String = (1..=HOLES).rev().map(|n| format!("{n:>4}")).collect();
    let bottom_numbers: String = (1..=HOLES).map(|n| format!("{n:>4}")).collect();
    let label = |side: Side| labels[side.index()].clone();
    let width = 4 * HOLES;
    let mut text = String::new();
    text.push_str(&format!(
        "  {:<width$}  kazan {:>3}\n",
        label(engine),
        pos.kazan(engine)
    ));
    text.push_str(&format!(
        "  {top_numbers}\n  {top}\n  {bottom}\n  {bottom_numbers}\n"
    ));
    text.push_str(&format!(
        "  {:<width$}  kazan {:>3}",
        label(human),
        pos.kazan(human)
    ));
    text
}

/// How the person names `side`'s holes and kazan: "your" or "<engine>'s".
fn whose(side: Side, human: Side, engine: &str) -> String {
    if side == human {
        "your".to_string()
    } else {
        format!("{engine}'s")
    }
}

/// What the legal move `mv` of the side to move does: stones sown, where the
/// last one lands and what is found there, the capture or tuzdik, stones
/// falling into tuzdiks, and the mover's kazan before and after.
pub fn describe(pos: &Position, mv: Move, human: Side, engine: &str) -> String {
    let mover = pos.side_to_move();
    let preview = pos.preview_move(mv);
    let (sown, found, outcome) = (preview.sown, preview.found as u32, preview.outcome);
    let landing = preview.landing();
    let (side, hole) = (landing.side, landing.number);
    let landing_is_tuzdik = preview.into_tuzdik;
    let effect = if outcome.tuzdik {
        "a tuzdik: its 3 stones are taken, and it is the mover's for the rest of the game"
            .to_string()
    } else if outcome.captured > 0 {
        format!("even: captures {}", outcome.captured)
    } else if landing_is_tuzdik {
        "a tuzdik: the stone goes to its owner's kazan".to_string()
    } else if side == mover {
        "own side: no capture".to_string()
    } else if preview.tuzdik_refused.is_some() {
        "3, but no tuzdik can be made there: no capture".to_string()
    } else {
        format!("{found} is odd: no capture")
    };
    let place = whose(side, human, engine);
    let stones = if found == 1 { "stone" } else { "stones" };
    let mut text = if landing_is_tuzdik {
        format!("sows {sown}, the last stone lands in {place} hole {hole}, {effect}")
    } else {
        format!(
            "sows {sown}, the last stone lands in {place} hole {hole} ({found} {stones}): {effect}"
        )
    };
    let fallen: u32 = outcome.tuzdik_stones.iter().map(|&s| s as u32).sum();
    if fallen > 0 && !landing_is_tuzdik {
        text.push_str(&format!(
            "; {fallen} stone{} fall into tuzdiks",
            if fallen == 1 { "" } else { "s" }
        ));
    }
    let mut after = *pos;
    after.play(mv);
    let (old, new) = (pos.kazan(mover), after.kazan(mover));
    if new != old {
        text.push_str(&format!(
            "; {} kazan {old} -> {new}",
            whose(mover, human, engine)
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels() -> [String; 2] {
        ["You (White)".to_string(), "tuzdyk (Black)".to_string()]
    }

    #[test]
    fn the_board_is_drawn_from_the_players_side() {
        let mut pos = Position::startpos();
        pos.play(Move::from_number(6).unwrap());
        let white = render(&pos, Side::White, &labels());
        let lines: Vec<&str> = white.lines().collect();
        assert!(lines[0].contains("tuzdyk (Black)") && lines[0].contains("kazan   0"));
        assert_eq!(lines[1].split_whitespace().next(), Some("9"));
        // Black's row from its hole 9 to 1: its hole 5 was captured.
        assert_eq!(
            lines[2].split_whitespace().collect::<Vec<_>>(),
            ["9", "9", "9", "9", "0", "10", "10", "10", "10"]
        );
        assert_eq!(lines[4].split_whitespace().next(), Some("1"));
        assert!(lines[5].contains("You (White)") && lines[5].contains("kazan  10"));
        let labels = ["tuzdyk (White)".to_string(), "You (Black)".to_string()];
        let black = render(&pos, Side::Black, &labels);
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

    #[test]
    fn moves_are_described() {
        let pos = Position::startpos();
        let text = describe(&pos, Move::from_number(6).unwrap(), Side::White, "tuzdyk");
        assert!(
            text.contains("tuzdyk's hole 5 (10 stones): even: captures 10"),
            "{text}"
        );
        assert!(text.contains("your kazan 0 -> 10"), "{text}");
        let text = describe(&pos, Move::from_number(9).unwrap(), Side::White, "tuzdyk");
        assert!(text.contains("hole 8 (10 stones)"), "{text}");
    }
}
