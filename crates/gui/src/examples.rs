//! The diagrams of the rules page: each a position and a move, played here
//! by `tuzdyk_rules`, so that the page draws what the rules do (the stones'
//! path, where the last one lands, what it takes) and never a hand-made
//! picture that could be wrong. Each example's claim is a test below.

use serde::Serialize;

use tuzdyk_notation::tfen;
use tuzdyk_rules::Move;

use crate::convert::{board, preview};
use crate::wire::{Board, Preview};

/// A diagram as written: an id the page's texts caption, a position, a move.
struct Example {
    id: &'static str,
    tfen: &'static str,
    hole: Option<u32>,
}

const EXAMPLES: [Example; 10] = [
    // The first stone back into the emptied hole; an even count taken.
    Example {
        id: "sowing",
        tfen: "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1",
        hole: Some(6),
    },
    // After the mover's hole 9 comes the opponent's hole 1: no kazan.
    Example {
        id: "no_kazan",
        tfen: "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1",
        hole: Some(9),
    },
    // A single stone goes to the next hole.
    Example {
        id: "single",
        tfen: "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,1S,9S,9S,9S,9S,9S,9S 8 0 S 5",
        hole: Some(3),
    },
    // An odd count on the opponent's side: nothing happens.
    Example {
        id: "odd",
        tfen: "9S,9S,9S,9S,8S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 1 S 2",
        hole: Some(6),
    },
    // Three: a tuzdik.
    Example {
        id: "tuzdik",
        tfen: "9S,9S,9S,9S,9S,2S,9S,9S,9S/9S,9S,9S,9S,9S,8S,9S,9S,9S 4 4 S 5",
        hole: Some(6),
    },
    // Three in the opponent's hole 9: no tuzdik.
    Example {
        id: "refused_hole_nine",
        tfen: "2S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,10S 3 3 S 5",
        hole: Some(9),
    },
    // Three, but the mover has its tuzdik already (Black's hole 2); one
    // stone falls into it on the way and goes to the mover's kazan.
    Example {
        id: "refused_second_tuzdik",
        tfen: "9S,9S,9S,9S,9S,2S,9S,t,9S/9S,9S,9S,9S,9S,8S,9S,9S,9S 12 5 S 9",
        hole: Some(6),
    },
    // Three in the opponent's hole 4 while the opponent owns the mover's 4.
    Example {
        id: "refused_same_number",
        tfen: "9S,9S,9S,9S,9S,2S,9S,9S,9S/9S,9S,9S,t,9S,8S,9S,9S,9S 5 12 S 9",
        hole: Some(6),
    },
    // Black sows through White's tuzdik: that stone is White's.
    Example {
        id: "into_tuzdik",
        tfen: "9S,9S,t,9S,9S,9S,6S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 9 3 N 6",
        hole: Some(3),
    },
    // Many stones go round the board; no hole is skipped.
    Example {
        id: "laps",
        tfen: "9S,9S,9S,9S,9S,9S,9S,9S,9S/20S,9S,9S,9S,9S,9S,5S,1S,1S 9 0 S 7",
        hole: Some(1),
    },
];

/// A diagram as the page draws it.
#[derive(Clone, Debug, Serialize)]
pub struct RuleExample {
    pub id: &'static str,
    pub before: Board,
    pub preview: Option<Preview>,
    pub after: Board,
}

/// Every diagram, played. An example that does not parse or whose move is
/// not legal is left out (and fails the tests below).
pub fn rule_examples() -> Vec<RuleExample> {
    EXAMPLES
        .iter()
        .filter_map(|example| {
            let before = tfen::parse(example.tfen).ok()?;
            let (shown, after) = match example.hole {
                Some(hole) => {
                    let mv = Move::from_number(hole).filter(|&mv| before.is_legal(mv))?;
                    let mut after = before;
                    after.play(mv);
                    (Some(preview(&before, &before.preview_move(mv))), after)
                }
                None => (None, before),
            };
            Some(RuleExample {
                id: example.id,
                before: board(&before),
                preview: shown,
                after: board(&after),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(id: &str) -> Preview {
        rule_examples()
            .into_iter()
            .find(|e| e.id == id)
            .and_then(|e| e.preview)
            .unwrap_or_else(|| panic!("example {id}"))
    }

    #[test]
    fn every_example_is_a_legal_move_from_a_valid_position() {
        assert_eq!(rule_examples().len(), EXAMPLES.len());
    }

    #[test]
    fn each_example_shows_what_its_caption_says() {
        let sowing = example("sowing");
        assert_eq!(sowing.path[0], sowing.origin, "the first stone goes back");
        assert_eq!((sowing.found, sowing.captured), (10, 10));

        let no_kazan = example("no_kazan");
        assert_eq!(&no_kazan.path[..2], &[8, 9], "White's 9, then Black's 1");
        assert!(no_kazan.path.iter().all(|&step| step < 18));

        let single = example("single");
        assert_eq!((single.sown, single.path[0]), (1, single.origin + 1));

        let odd = example("odd");
        assert_eq!((odd.found, odd.captured, odd.tuzdik), (9, 0, false));

        assert!(example("tuzdik").tuzdik);
        assert_eq!(example("refused_hole_nine").refused, Some("hole_nine"));
        let second = example("refused_second_tuzdik");
        assert_eq!(second.refused, Some("second_tuzdik"));
        assert_eq!(second.to_tuzdiks, [1, 0]);
        assert_eq!(example("refused_same_number").refused, Some("same_number"));

        let into = example("into_tuzdik");
        assert_eq!(
            into.to_tuzdiks,
            [1, 0],
            "Black's sowing gives White a stone"
        );

        let laps = example("laps");
        assert_eq!(laps.sown, 20);
        assert_eq!(laps.landing, 1, "round the board back to White's hole 2");
    }
}
