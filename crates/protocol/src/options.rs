//! tuzdyk's options, declared once: each option's name, kind, default and
//! range, and what it is for. The `uci` answer, the `setoption` parser and
//! the tools' command-line ranges are all derived from [`OPTIONS`].
//!
//! The tuning build (feature `tune`) appends one spin option per tunable
//! search parameter, made from the search's one list of them
//! (`tuzdyk_search::params::TUNABLES`): only that build's protocol crate
//! reads the search crate, and the release build has none of them.

use tuzdyk_notation::excerpt;

use crate::level::ELO_RANGE;
use crate::level::Level;

/// How an option is set, as its `option name ... type ...` line declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A whole number in `min..=max`.
    Spin { default: i64, min: i64, max: i64 },
    /// `true` or `false`.
    Check { default: bool },
    /// One of `values` (or its 1-based number).
    Combo {
        default: &'static str,
        values: &'static [&'static str],
    },
    /// No value: setting it does something once.
    Button,
    /// Any text (a file name, for instance).
    String { default: &'static str },
}

/// The options tuzdyk has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EngineOption {
    Hash,
    Threads,
    MultiPv,
    MoveOverhead,
    Ponder,
    Level,
    LimitStrength,
    Elo,
    ClearHash,
    Eval,
    EvalFile,
    /// The tuning build's search parameter at this index of
    /// `tuzdyk_search::params::TUNABLES`.
    #[cfg(feature = "tune")]
    Tuned(u8),
}

/// Why a `setoption` value was rejected ([`crate::CommandError::Option`]
/// puts `setoption: ` before it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("option '{0}' needs a value")]
    NeedsValue(String),
    #[error("{name} value '{value}' is not {expected}")]
    Value {
        name: String,
        value: String,
        expected: String,
    },
}

/// One option's declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub option: EngineOption,
    /// The name as declared (`setoption` matches it in any case).
    pub name: &'static str,
    pub kind: OptionKind,
    /// What setting it does, for protocol.md and `--help`.
    pub help: &'static str,
}

/// Largest accepted `Hash`, in MB.
pub const MAX_HASH_MB: i64 = 65_536;
/// Largest accepted `Threads`.
pub const MAX_THREADS: i64 = 256;

/// The `Eval` option's values: the learned network and the hand-written
/// evaluation.
pub const EVALUATIONS: [&str; 2] = ["network", "classic"];

/// The `EvalFile` value that means the network built into the program.
pub const BUILT_IN_NETWORK: &str = "<built-in>";

/// The options of every build, in the order `uci` lists them.
const BASE_OPTIONS: [OptionSpec; 11] = [
    OptionSpec {
        option: EngineOption::Hash,
        name: "Hash",
        kind: OptionKind::Spin {
            default: 16,
            min: 1,
            max: MAX_HASH_MB,
        },
        help: "transposition table size in MB; resizing clears it",
    },
    OptionSpec {
        option: EngineOption::Threads,
        name: "Threads",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS,
        },
        help: "search threads (Lazy SMP)",
    },
    OptionSpec {
        option: EngineOption::MultiPv,
        name: "MultiPV",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 9,
        },
        help: "best lines reported (there are at most nine moves)",
    },
    OptionSpec {
        option: EngineOption::MoveOverhead,
        name: "MoveOverhead",
        kind: OptionKind::Spin {
            default: 10,
            min: 0,
            max: 5_000,
        },
        help: "ms each move loses outside the engine, subtracted from every time budget",
    },
    OptionSpec {
        option: EngineOption::Ponder,
        name: "Ponder",
        kind: OptionKind::Check { default: false },
        help: "whether the GUI may send go ponder (pondering works whatever its value)",
    },
    OptionSpec {
        option: EngineOption::Level,
        name: "Level",
        kind: OptionKind::Combo {
            default: Level::FULL_STRENGTH.name(),
            values: &Level::NAMES,
        },
        help: "playing strength: a ladder level by name or number 1-18, or a stand-in for new players (greedy, greedy2); each level's PlayOK rating estimate is in Level::rating, protocol.md and tuzdyk play --help",
    },
    OptionSpec {
        option: EngineOption::LimitStrength,
        name: "UCI_LimitStrength",
        kind: OptionKind::Check { default: false },
        help: "when true, UCI_Elo sets Level (the UCI convention); when false, Level alone sets the strength",
    },
    OptionSpec {
        option: EngineOption::Elo,
        name: "UCI_Elo",
        kind: OptionKind::Spin {
            default: ELO_RANGE.1,
            min: ELO_RANGE.0,
            max: ELO_RANGE.1,
        },
        help: "strength on the PlayOK rating scale: with UCI_LimitStrength true, sets the ladder level whose estimate is closest",
    },
    OptionSpec {
        option: EngineOption::ClearHash,
        name: "Clear Hash",
        kind: OptionKind::Button,
        help: "empties the transposition table",
    },
    OptionSpec {
        option: EngineOption::Eval,
        name: "Eval",
        kind: OptionKind::Combo {
            default: "network",
            values: &EVALUATIONS,
        },
        help: "the evaluation: the learned network or the hand-written one",
    },
    OptionSpec {
        option: EngineOption::EvalFile,
        name: "EvalFile",
        kind: OptionKind::String {
            default: BUILT_IN_NETWORK,
        },
        help: "the network file the network evaluation uses (<built-in>: the one built into the program)",
    },
];

/// Every option, in the order `uci` lists them.
#[cfg(not(feature = "tune"))]
pub const OPTIONS: [OptionSpec; BASE_OPTIONS.len()] = BASE_OPTIONS;

/// Every option, in the order `uci` lists them: the tuning build's search
/// parameters last.
#[cfg(feature = "tune")]
pub const OPTIONS: [OptionSpec; BASE_OPTIONS.len() + TUNABLES.len()] = {
    let mut options = [BASE_OPTIONS[0]; BASE_OPTIONS.len() + TUNABLES.len()];
    let mut i = 0;
    while i < BASE_OPTIONS.len() {
        options[i] = BASE_OPTIONS[i];
        i += 1;
    }
    let mut t = 0;
    while t < TUNABLES.len() {
        assert!(t <= u8::MAX as usize, "EngineOption::Tuned counts in u8");
        let tunable = &TUNABLES[t];
        options[BASE_OPTIONS.len() + t] = OptionSpec {
            option: EngineOption::Tuned(t as u8),
            name: tunable.name,
            kind: OptionKind::Spin {
                default: tunable.default,
                min: tunable.min,
                max: tunable.max,
            },
            help: "a search parameter of params.rs, for tuzdyk spsa (tuning build only)",
        };
        t += 1;
    }
    options
};

#[cfg(feature = "tune")]
use tuzdyk_search::params::TUNABLES;

// `EngineOption::spec` indexes `OPTIONS` by the option: an entry out of
// order does not compile (and an option without one panics at its first use).
const _: () = {
    let mut i = 0;
    while i < OPTIONS.len() {
        assert!(
            OPTIONS[i].option.index() == i,
            "OPTIONS must list the options in the order of EngineOption::index"
        );
        i += 1;
    }
};

impl EngineOption {
    /// This option's place in [`OPTIONS`] (checked when compiling).
    const fn index(self) -> usize {
        match self {
            EngineOption::Hash => 0,
            EngineOption::Threads => 1,
            EngineOption::MultiPv => 2,
            EngineOption::MoveOverhead => 3,
            EngineOption::Ponder => 4,
            EngineOption::Level => 5,
            EngineOption::LimitStrength => 6,
            EngineOption::Elo => 7,
            EngineOption::ClearHash => 8,
            EngineOption::Eval => 9,
            EngineOption::EvalFile => 10,
            #[cfg(feature = "tune")]
            EngineOption::Tuned(t) => BASE_OPTIONS.len() + t as usize,
        }
    }

    /// This option's declaration: [`OPTIONS`] lists the options in the
    /// order of [`EngineOption::index`] (checked when compiling).
    pub const fn spec(self) -> &'static OptionSpec {
        &OPTIONS[self.index()]
    }

    /// The option called `name` (any case).
    pub fn by_name(name: &str) -> Option<EngineOption> {
        OPTIONS
            .iter()
            .find(|spec| spec.name.eq_ignore_ascii_case(name))
            .map(|spec| spec.option)
    }

    /// A spin option's range, `(min, max)`; `(0, 0)` for other kinds.
    pub fn range(self) -> (i64, i64) {
        match self.spec().kind {
            OptionKind::Spin { min, max, .. } => (min, max),
            _ => (0, 0),
        }
    }
}

impl OptionSpec {
    /// The `option name ... type ...` line of the handshake.
    ///
    /// ```
    /// use tuzdyk_protocol::EngineOption;
    ///
    /// assert_eq!(
    ///     EngineOption::Threads.spec().declaration(),
    ///     "option name Threads type spin default 1 min 1 max 256"
    /// );
    /// ```
    pub fn declaration(&self) -> String {
        let name = self.name;
        match self.kind {
            OptionKind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => {
                format!("option name {name} type check default {default}")
            }
            OptionKind::Combo { default, values } => {
                let vars: Vec<String> = values.iter().map(|v| format!("var {v}")).collect();
                format!(
                    "option name {name} type combo default {default} {}",
                    vars.join(" ")
                )
            }
            OptionKind::Button => format!("option name {name} type button"),
            OptionKind::String { default } => {
                format!("option name {name} type string default {default}")
            }
        }
    }

    /// Checks a `setoption` value against the declaration. A number outside
    /// a spin's range is clamped into it, and the value says so.
    ///
    /// # Errors
    /// [`OptionError`] when the value is missing, not a number, not
    /// `true`/`false`, or not one of a combo's values.
    pub fn parse_value(&self, value: Option<&str>) -> Result<OptionValue, OptionError> {
        let name = self.name;
        let needs_value = || OptionError::NeedsValue(name.to_string());
        match self.kind {
            OptionKind::Button => Ok(OptionValue::Button),
            OptionKind::String { .. } => {
                let value = value.ok_or_else(needs_value)?;
                Ok(OptionValue::String(value.trim().to_string()))
            }
            OptionKind::Spin { min, max, .. } => {
                let value = value.ok_or_else(needs_value)?;
                let number = value
                    .trim()
                    .parse::<i64>()
                    .map_err(|_| OptionError::Value {
                        name: name.to_string(),
                        value: excerpt(value),
                        expected: "a number".to_string(),
                    })?;
                let clamped = number.clamp(min, max);
                Ok(OptionValue::Spin {
                    value: clamped,
                    requested: number,
                })
            }
            OptionKind::Check { .. } => {
                let value = value.ok_or_else(needs_value)?;
                match value.trim().to_ascii_lowercase().as_str() {
                    "true" => Ok(OptionValue::Check(true)),
                    "false" => Ok(OptionValue::Check(false)),
                    _ => Err(OptionError::Value {
                        name: name.to_string(),
                        value: excerpt(value),
                        expected: "true or false".to_string(),
                    }),
                }
            }
            OptionKind::Combo { values, .. } => {
                let value = value.ok_or_else(needs_value)?;
                let text = value.trim();
                values
                    .iter()
                    .enumerate()
                    .find(|(i, v)| v.eq_ignore_ascii_case(text) || text == (i + 1).to_string())
                    .map(|(i, _)| OptionValue::Combo(i))
                    .ok_or_else(|| OptionError::Value {
                        name: name.to_string(),
                        value: excerpt(value),
                        expected: format!("one of {} (or 1-{})", values.join(", "), values.len()),
                    })
            }
        }
    }
}

/// A checked option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// The value in range, and the number asked for (different when clamped).
    Spin {
        value: i64,
        requested: i64,
    },
    Check(bool),
    /// The index of the combo value.
    Combo(usize),
    Button,
    String(String),
}

impl OptionValue {
    /// The notice for a clamped spin value, in protocol.md's words:
    /// `Hash 0 is out of range 1..65536; set to 1`.
    pub fn clamp_notice(&self, spec: &OptionSpec) -> Option<String> {
        match (self, spec.kind) {
            (OptionValue::Spin { value, requested }, OptionKind::Spin { min, max, .. })
                if value != requested =>
            {
                Some(format!(
                    "{} {requested} is out of range {min}..{max}; set to {value}",
                    spec.name
                ))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_declared_once_and_found_by_name() {
        for spec in &OPTIONS {
            assert_eq!(spec.option.spec(), spec);
            assert_eq!(
                EngineOption::by_name(&spec.name.to_uppercase()),
                Some(spec.option)
            );
        }
        assert_eq!(EngineOption::by_name("Foo"), None);
        // The search parameters are options of the tuning build only.
        #[cfg(not(feature = "tune"))]
        assert_eq!(OPTIONS.len(), BASE_OPTIONS.len());
        #[cfg(feature = "tune")]
        {
            assert_eq!(OPTIONS.len(), BASE_OPTIONS.len() + TUNABLES.len());
            let tuned = EngineOption::by_name("rfp_margin").expect("RFP_MARGIN is an option");
            assert_eq!(
                tuned.spec().declaration(),
                format!(
                    "option name RFP_MARGIN type spin default {} min 30 max 200",
                    tuzdyk_search::params::RFP_MARGIN
                )
            );
        }
        assert_eq!(
            EngineOption::Level.spec().declaration(),
            "option name Level type combo default champion var beginner var learner var improver var apprentice var amateur var hobbyist var regular var keen var novice var casual var intermediate var skilled var advanced var expert var candidate var master var grandmaster var champion var greedy var greedy2"
        );
    }

    #[test]
    fn values_are_checked_and_clamped() {
        let hash = EngineOption::Hash.spec();
        let zero = hash.parse_value(Some("0")).unwrap();
        assert_eq!(
            zero,
            OptionValue::Spin {
                value: 1,
                requested: 0
            }
        );
        assert_eq!(
            zero.clamp_notice(hash).as_deref(),
            Some("Hash 0 is out of range 1..65536; set to 1")
        );
        assert_eq!(
            hash.parse_value(Some("64")).unwrap().clamp_notice(hash),
            None
        );
        assert!(
            hash.parse_value(Some("x"))
                .unwrap_err()
                .to_string()
                .contains("not a number")
        );
        assert!(matches!(
            hash.parse_value(None),
            Err(OptionError::NeedsValue(_))
        ));
        let level = EngineOption::Level.spec();
        assert_eq!(level.parse_value(Some("Casual")), Ok(OptionValue::Combo(9)));
        assert_eq!(level.parse_value(Some("14")), Ok(OptionValue::Combo(13)));
        let error = level.parse_value(Some("sultan")).unwrap_err().to_string();
        assert!(error.contains("one of beginner, learner"), "{error}");
        let ponder = EngineOption::Ponder.spec();
        assert_eq!(
            ponder.parse_value(Some("TRUE")),
            Ok(OptionValue::Check(true))
        );
        assert!(ponder.parse_value(Some("yes")).is_err());
        assert_eq!(
            EngineOption::ClearHash.spec().parse_value(None),
            Ok(OptionValue::Button)
        );
    }
}
