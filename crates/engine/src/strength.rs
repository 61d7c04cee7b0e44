//! The three options that set the playing strength, kept in agreement:
//! `Level` sets it directly; with `UCI_LimitStrength` true, `UCI_Elo` sets
//! it too (the ladder level whose PlayOK estimate is closest), as chess
//! GUIs expect. Each change that moves one of them reports the other in an
//! `info string` notice, in protocol.md's words.

use tuzdyk_protocol::Level;
use tuzdyk_protocol::level::ELO_RANGE;

/// The strength options' values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strength {
    /// The level that plays.
    pub level: Level,
    /// `UCI_LimitStrength`.
    pub limit: bool,
    /// `UCI_Elo`, as last set (or implied by `Level` while limited).
    pub elo: i64,
}

impl Default for Strength {
    fn default() -> Self {
        Strength {
            level: Level::FULL_STRENGTH,
            limit: false,
            elo: ELO_RANGE.1,
        }
    }
}

impl Strength {
    /// `setoption name Level`: with the strength limited, `UCI_Elo` follows
    /// and is reported.
    pub fn set_level(&mut self, level: Level) -> Option<String> {
        self.level = level;
        if !self.limit {
            return None;
        }
        self.elo = (level.rating().elo as i64).clamp(ELO_RANGE.0, ELO_RANGE.1);
        Some(format!("UCI_Elo set to {} (Level {level})", self.elo))
    }

    /// `setoption name UCI_LimitStrength`: true sets `Level` from `UCI_Elo`;
    /// false leaves `Level` as it is.
    pub fn set_limit(&mut self, on: bool) -> Option<String> {
        self.limit = on;
        on.then(|| self.level_from_elo())
    }

    /// `setoption name UCI_Elo` (already clamped to its range): sets `Level`
    /// when the strength is limited, else is kept for when it is.
    pub fn set_elo(&mut self, elo: i64) -> Option<String> {
        self.elo = elo;
        if self.limit {
            Some(self.level_from_elo())
        } else {
            Some(format!(
                "UCI_Elo {elo} is kept; it sets Level when UCI_LimitStrength is true"
            ))
        }
    }

    fn level_from_elo(&mut self) -> String {
        self.level = Level::closest_to(self.elo);
        format!(
            "Level set to {} (UCI_Elo {})",
            self.level,
            self.level.rating().elo
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_elo_sets_the_closest_level_only_when_limited() {
        let mut strength = Strength::default();
        let casual = Level::Casual.rating().elo as i64;
        let notice = strength.set_elo(casual + 3).unwrap();
        assert!(notice.contains("is kept"), "{notice}");
        assert_eq!(strength.level, Level::FULL_STRENGTH);
        assert_eq!(
            strength.set_limit(true).unwrap(),
            format!("Level set to casual (UCI_Elo {casual})")
        );
        assert_eq!(strength.level, Level::Casual);
        for level in Level::LADDER {
            let elo = level.rating().elo as i64;
            strength.set_elo(elo);
            assert_eq!(strength.level, level);
        }
        strength.set_elo(casual);
        assert_eq!(strength.set_limit(false), None);
        assert_eq!(strength.level, Level::Casual, "false leaves Level as it is");
    }

    #[test]
    fn a_level_set_while_limited_reports_its_uci_elo() {
        let mut strength = Strength::default();
        assert_eq!(strength.set_level(Level::Novice), None);
        strength.set_limit(true);
        let novice = Level::Novice.rating().elo;
        assert_eq!(
            strength.set_level(Level::Novice).unwrap(),
            format!("UCI_Elo set to {novice} (Level novice)")
        );
        assert_eq!(strength.elo, novice as i64);
    }
}
