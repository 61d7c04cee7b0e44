//! `tuzdyk datagen`'s command line: the options, and the two values clap
//! cannot read alone, `--shard K/N` and `--random-plies MIN..MAX`.

use std::ops::Range;
use std::path::PathBuf;
use std::str::FromStr;

use tuzdyk_search::eval::{ChoiceError, Evaluator};

/// `tuzdyk datagen` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Games in the whole run, over all shards.
    #[arg(
        long,
        value_name = "N",
        required_unless_present = "info",
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub games: Option<u64>,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Seed of the openings: the same seed gives the same file.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once, one thread each (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Play only shard K of N (K from 0): games [K*games/N, (K+1)*games/N).
    #[arg(long, value_name = "K/N", default_value = "0/1")]
    pub shard: Shard,
    /// The evaluation the engine plays with: classic, network (the built-in
    /// one), or a network file.
    #[arg(long, value_name = "EVAL", default_value = "network")]
    pub eval: String,
    /// Random plies played after a suite opening, MIN..MAX (inclusive).
    #[arg(long, value_name = "MIN..MAX", default_value = "2..6")]
    pub random_plies: PliesRange,
    /// Where the records go (created or overwritten).
    #[arg(long, value_name = "FILE", required_unless_present = "info")]
    pub out: Option<PathBuf>,
    /// Check a file of records and print its statistics instead.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["games", "nodes", "seed", "threads", "shard", "random_plies", "out", "eval"]
    )]
    pub info: Option<PathBuf>,
}

/// Shard `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

/// Why a `--shard` value was rejected (clap's message quotes the value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("not K/N (shard K of N shards, K counting from 0)")]
    Form,
    #[error("there must be at least one shard")]
    NoShards,
    #[error("shard {index} does not exist: K counts from 0 to {}", .count - 1)]
    Range { index: u64, count: u64 },
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let (index, count) = text.split_once('/').ok_or(ShardError::Form)?;
        let number = |part: &str| part.trim().parse::<u64>().map_err(|_| ShardError::Form);
        let (index, count) = (number(index)?, number(count)?);
        if count == 0 {
            return Err(ShardError::NoShards);
        }
        if index >= count {
            return Err(ShardError::Range { index, count });
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The games of this shard out of `games`: contiguous, and the shards
    /// 0..N together cover `0..games` in order.
    pub fn games(&self, games: u64) -> Range<u64> {
        let bound = |k: u64| (k as u128 * games as u128 / self.count as u128) as u64;
        bound(self.index)..bound(self.index + 1)
    }
}

/// An inclusive range of random plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PliesRange {
    pub min: usize,
    pub max: usize,
}

/// The most random plies allowed: more would wander far from real games.
pub const MAX_RANDOM_PLIES: usize = 40;

/// Why a `--random-plies` value was rejected (clap's message quotes the value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PliesError {
    #[error("not MIN..MAX or N (numbers of plies)")]
    Form,
    #[error("MIN is larger than MAX")]
    Reversed,
    #[error("at most {MAX_RANDOM_PLIES} random plies")]
    TooMany,
}

impl FromStr for PliesRange {
    type Err = PliesError;

    /// `MIN..MAX` or `MIN..=MAX` (both inclusive), or one number `N`.
    fn from_str(text: &str) -> Result<PliesRange, PliesError> {
        let number = |part: &str| part.trim().parse::<usize>().map_err(|_| PliesError::Form);
        let (min, max) = match text.split_once("..") {
            Some((min, max)) => (number(min)?, number(max.trim_start_matches('='))?),
            None => (number(text)?, number(text)?),
        };
        if min > max {
            return Err(PliesError::Reversed);
        }
        if max > MAX_RANDOM_PLIES {
            return Err(PliesError::TooMany);
        }
        Ok(PliesRange { min, max })
    }
}

impl Args {
    /// The evaluation `--eval` names.
    ///
    /// # Errors
    /// [`ChoiceError`] for a network that cannot be had.
    pub fn evaluator(&self) -> Result<Evaluator, ChoiceError> {
        Evaluator::named(&self.eval)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_cover_the_games_in_order() {
        let shard: Shard = "1/3".parse().unwrap();
        assert_eq!(shard, Shard { index: 1, count: 3 });
        let ranges: Vec<Range<u64>> = (0..3)
            .map(|k| Shard { index: k, count: 3 }.games(10))
            .collect();
        assert_eq!(ranges, [0..3, 3..6, 6..10]);
        assert_eq!(Shard { index: 4, count: 5 }.games(3), 2..3);
        assert_eq!(Shard { index: 0, count: 5 }.games(3), 0..0);
    }

    #[test]
    fn bad_shards_are_named() {
        let error = |text: &str| text.parse::<Shard>().unwrap_err();
        assert_eq!(
            error("3/2").to_string(),
            "shard 3 does not exist: K counts from 0 to 1"
        );
        assert_eq!(error("0/0"), ShardError::NoShards);
        assert_eq!(error("1-2"), ShardError::Form);
        assert_eq!(error("a/2"), ShardError::Form);
    }

    #[test]
    fn plies_ranges_parse() {
        let range = |text: &str| text.parse::<PliesRange>();
        assert_eq!(range("2..6"), Ok(PliesRange { min: 2, max: 6 }));
        assert_eq!(range("2..=6"), Ok(PliesRange { min: 2, max: 6 }));
        assert_eq!(range("0"), Ok(PliesRange { min: 0, max: 0 }));
        assert_eq!(range("6..2"), Err(PliesError::Reversed));
        assert_eq!(range("2..x"), Err(PliesError::Form));
        assert_eq!(range("0..41"), Err(PliesError::TooMany));
    }
}
