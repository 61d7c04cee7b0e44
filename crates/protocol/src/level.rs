//! The playing levels by name, and each level's estimated PlayOK rating:
//! the one table ([`RATINGS`]) that `UCI_Elo`, protocol.md and
//! `tuzdyk play --help` take their numbers from. `tuzdyk rating` measures
//! the estimates and prints this table anew (STRENGTH.md says how).
//!
//! How a level chooses its moves is the engine's business (`level.rs` of
//! the engine crate); here a level is only a name, a number and a rating.

use std::fmt;

/// A playing level: the ladder from a beginner a new player can beat to
/// full strength, then the two stand-ins for new players that the ladder is
/// measured against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Beginner = 1,
    Learner,
    Improver,
    Apprentice,
    Amateur,
    Hobbyist,
    Regular,
    Keen,
    Novice,
    Casual,
    Intermediate,
    Skilled,
    Advanced,
    /// Full strength with the hand-written evaluation.
    Expert,
    /// The evaluation `Eval` chooses (the network), at a small node cap.
    Candidate,
    /// The evaluation `Eval` chooses, at a larger node cap.
    Master,
    /// The evaluation `Eval` chooses, at a larger node cap still.
    Grandmaster,
    /// Full strength with the evaluation `Eval` chooses.
    Champion,
    /// Stand-in: the largest immediate kazan gain.
    Greedy,
    /// Stand-in: the largest immediate gain less the opponent's best answer.
    Greedy2,
}

/// A level's estimated rating on the PlayOK scale and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    pub elo: i32,
    pub low: i32,
    pub high: i32,
}

/// Each level's estimate, as `scripts/rating.sh` (`tuzdyk rating`) printed
/// it at 1783c5d+, with the network's four levels chained on from
/// generation 9's steps (by hand, with the sum and root-sum-square that
/// `--chain` does; STRENGTH.md, "The levels' PlayOK ratings").
pub const RATINGS: [(Level, Rating); 20] = [
    (Level::Beginner, rating(1186, 1092, 1280)),
    (Level::Learner, rating(1341, 1264, 1419)),
    (Level::Improver, rating(1521, 1465, 1577)),
    (Level::Apprentice, rating(1681, 1664, 1698)),
    (Level::Amateur, rating(1851, 1796, 1907)),
    (Level::Hobbyist, rating(2013, 1937, 2090)),
    (Level::Regular, rating(2177, 2084, 2270)),
    (Level::Keen, rating(2277, 2172, 2383)),
    (Level::Novice, rating(2426, 2309, 2544)),
    (Level::Casual, rating(2634, 2504, 2764)),
    (Level::Intermediate, rating(2846, 2704, 2988)),
    (Level::Skilled, rating(3006, 2857, 3155)),
    (Level::Advanced, rating(3139, 2982, 3296)),
    (Level::Expert, rating(3330, 3165, 3494)),
    (Level::Candidate, rating(3479, 3308, 3650)),
    (Level::Master, rating(3637, 3459, 3815)),
    (Level::Grandmaster, rating(3835, 3651, 4019)),
    (Level::Champion, rating(4040, 3850, 4230)),
    (Level::Greedy, rating(1233, 1128, 1339)),
    (Level::Greedy2, rating(1735, 1684, 1786)),
];

const fn rating(elo: i32, low: i32, high: i32) -> Rating {
    Rating { elo, low, high }
}

/// [`Level::LADDER`] followed by the two stand-ins.
const fn ladder_then_stand_ins() -> [Level; 20] {
    let mut all = [Level::Greedy2; 20];
    let mut i = 0;
    while i < Level::LADDER.len() {
        all[i] = Level::LADDER[i];
        i += 1;
    }
    all[Level::LADDER.len()] = Level::Greedy;
    all
}

/// The lowest and highest estimate of the ladder: `UCI_Elo`'s range.
pub const ELO_RANGE: (i64, i64) = ladder_range();

const fn ladder_range() -> (i64, i64) {
    let (mut min, mut max) = (i64::MAX, i64::MIN);
    let mut i = 0;
    while i < RATINGS.len() {
        let (level, rating) = RATINGS[i];
        if level.is_ladder() {
            let elo = rating.elo as i64;
            if elo < min {
                min = elo;
            }
            if elo > max {
                max = elo;
            }
        }
        i += 1;
    }
    (min, max)
}

impl Level {
    /// Every level: the ladder, weakest first, then the stand-ins.
    pub const ALL: [Level; 20] = ladder_then_stand_ins();

    /// The ladder, weakest first: each level beats the one below.
    pub const LADDER: [Level; 18] = [
        Level::Beginner,
        Level::Learner,
        Level::Improver,
        Level::Apprentice,
        Level::Amateur,
        Level::Hobbyist,
        Level::Regular,
        Level::Keen,
        Level::Novice,
        Level::Casual,
        Level::Intermediate,
        Level::Skilled,
        Level::Advanced,
        Level::Expert,
        Level::Candidate,
        Level::Master,
        Level::Grandmaster,
        Level::Champion,
    ];

    /// The top of the ladder: the engine's full strength, the default.
    pub const FULL_STRENGTH: Level = Level::Champion;

    /// The `Level` option's names, in the order of [`Level::ALL`].
    pub const NAMES: [&'static str; 20] = [
        "beginner",
        "learner",
        "improver",
        "apprentice",
        "amateur",
        "hobbyist",
        "regular",
        "keen",
        "novice",
        "casual",
        "intermediate",
        "skilled",
        "advanced",
        "expert",
        "candidate",
        "master",
        "grandmaster",
        "champion",
        "greedy",
        "greedy2",
    ];

    pub const fn name(self) -> &'static str {
        Level::NAMES[self as usize - 1]
    }

    /// The level's number: 1 (beginner) to 18 (champion) on the ladder, 19
    /// and 20 for the stand-ins.
    pub const fn number(self) -> u32 {
        self as u32
    }

    /// Whether the level is on the ladder (not a stand-in).
    pub const fn is_ladder(self) -> bool {
        !matches!(self, Level::Greedy | Level::Greedy2)
    }

    /// A level by name (any case) or number.
    ///
    /// ```
    /// use tuzdyk_protocol::Level;
    ///
    /// assert_eq!(Level::parse("Expert"), Some(Level::Expert));
    /// assert_eq!(Level::parse("9"), Some(Level::Novice));
    /// assert_eq!(Level::parse("greedy"), Some(Level::Greedy));
    /// assert_eq!(Level::parse("world champion"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Level> {
        let text = text.trim();
        Level::ALL.into_iter().find(|level| {
            level.name().eq_ignore_ascii_case(text) || text == level.number().to_string()
        })
    }

    /// The level's estimated PlayOK rating.
    pub fn rating(self) -> Rating {
        RATINGS
            .iter()
            .find(|(level, _)| *level == self)
            .map_or(rating(0, 0, 0), |(_, rating)| *rating)
    }

    /// The ladder level whose estimate is closest to `elo` (the weaker of
    /// two as close).
    ///
    /// ```
    /// use tuzdyk_protocol::Level;
    ///
    /// let top = i64::from(Level::Champion.rating().elo);
    /// assert_eq!(Level::closest_to(top + 1000), Level::Champion);
    /// assert_eq!(Level::closest_to(0), Level::Beginner);
    /// ```
    pub fn closest_to(elo: i64) -> Level {
        Level::LADDER
            .into_iter()
            .min_by_key(|level| (level.rating().elo as i64 - elo).abs())
            .unwrap_or(Level::FULL_STRENGTH)
    }

    /// The rating as `play --help` and protocol.md show it: `PlayOK ~1250
    /// (1200-1300)`.
    pub fn rating_text(self) -> String {
        let rating = self.rating();
        format!("PlayOK ~{} ({}-{})", rating.elo, rating.low, rating.high)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_names_match_the_levels() {
        for (level, name) in Level::ALL.iter().zip(Level::NAMES) {
            assert_eq!(level.name(), name);
            assert_eq!(Level::parse(name), Some(*level));
            assert_eq!(Level::parse(&level.number().to_string()), Some(*level));
        }
        assert_eq!(Level::parse(&(Level::ALL.len() + 1).to_string()), None);
        assert_eq!(Level::parse("0"), None);
        let ladder: Vec<Level> = Level::ALL.into_iter().filter(|l| l.is_ladder()).collect();
        assert_eq!(ladder, Level::LADDER);
    }

    #[test]
    fn every_level_has_one_rating_and_the_ladder_rises() {
        for level in Level::ALL {
            assert_eq!(RATINGS.iter().filter(|(l, _)| *l == level).count(), 1);
            let rating = level.rating();
            assert!(
                rating.low <= rating.elo && rating.elo <= rating.high,
                "{level}"
            );
        }
        for pair in Level::LADDER.windows(2) {
            assert!(pair[0].rating().elo < pair[1].rating().elo, "{pair:?}");
        }
        assert_eq!(ELO_RANGE.0, Level::Beginner.rating().elo as i64);
        assert_eq!(ELO_RANGE.1, Level::FULL_STRENGTH.rating().elo as i64);
    }

    #[test]
    fn the_closest_ladder_level_is_chosen() {
        for level in Level::LADDER {
            let elo = level.rating().elo as i64;
            assert_eq!(Level::closest_to(elo), level);
            assert_eq!(Level::closest_to(elo + 1), level);
        }
        // Never a stand-in, even at a stand-in's own estimate.
        let greedy = Level::Greedy.rating().elo as i64;
        assert!(Level::closest_to(greedy).is_ladder());
    }
}
