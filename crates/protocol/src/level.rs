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
    Expert,
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

/// Each level's estimate, as `tuzdyk rating` printed it (STRENGTH.md).
pub const RATINGS: [(Level, Rating); 16] = [
    (Level::Beginner, rating(1100, 1060, 1140)),
    (Level::Learner, rating(1180, 1140, 1220)),
    (Level::Improver, rating(1260, 1220, 1300)),
    (Level::Apprentice, rating(1340, 1300, 1380)),
    (Level::Amateur, rating(1420, 1380, 1460)),
    (Level::Hobbyist, rating(1500, 1460, 1540)),
    (Level::Regular, rating(1580, 1540, 1620)),
    (Level::Keen, rating(1620, 1600, 1640)),
    (Level::Novice, rating(1660, 1620, 1700)),
    (Level::Casual, rating(1740, 1700, 1780)),
    (Level::Intermediate, rating(1820, 1780, 1860)),
    (Level::Skilled, rating(1900, 1860, 1940)),
    (Level::Advanced, rating(1980, 1940, 2020)),
    (Level::Expert, rating(2060, 2020, 2100)),
    (Level::Greedy, rating(1150, 1110, 1190)),
    (Level::Greedy2, rating(1400, 1360, 1440)),
];

const fn rating(elo: i32, low: i32, high: i32) -> Rating {
    Rating { elo, low, high }
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
    pub const ALL: [Level; 16] = [
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
        Level::Greedy,
        Level::Greedy2,
    ];

    /// The ladder, weakest first: each level beats the one below.
    pub const LADDER: [Level; 14] = [
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
    ];

    /// The `Level` option's names, in the order of [`Level::ALL`].
    pub const NAMES: [&'static str; 16] = [
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
        "greedy",
        "greedy2",
    ];

    pub const fn name(self) -> &'static str {
        Level::NAMES[self as usize - 1]
    }

    /// The level's number: 1 (beginner) to 14 (expert) on the ladder, 15
    /// and 16 for the stand-ins.
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
    /// assert_eq!(Level::parse("grandmaster"), None);
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
    /// let expert = i64::from(Level::Expert.rating().elo);
    /// assert_eq!(Level::closest_to(expert + 1000), Level::Expert);
    /// assert_eq!(Level::closest_to(0), Level::Beginner);
    /// ```
    pub fn closest_to(elo: i64) -> Level {
        Level::LADDER
            .into_iter()
            .min_by_key(|level| (level.rating().elo as i64 - elo).abs())
            .unwrap_or(Level::Expert)
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
        assert_eq!(Level::parse("17"), None);
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
        assert_eq!(ELO_RANGE.1, Level::Expert.rating().elo as i64);
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
