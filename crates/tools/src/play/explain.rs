//! What a move does, in the person's words (the board itself is
//! `tuzdyk_notation::diagram::view`, the drawing the protocol's `d` uses).

use tuzdyk_rules::{Move, Position, Side};

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
