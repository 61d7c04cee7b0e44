//! The page, built into the binary: HTML, CSS and plain ES modules, no
//! build step, nothing fetched from elsewhere. One module, `/config.js`,
//! is written by the server: the engine's level ladder (so the page's
//! strength menu is the ladder the engine has), the limits the page must
//! respect ([`crate::limits::PageLimits`]) and the rules page's diagrams
//! played by the rules ([`crate::examples`]).

use std::sync::LazyLock;

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tuzdyk_protocol::Level;

use crate::examples::{RuleExample, rule_examples};
use crate::limits::PageLimits;

/// One file of the page.
#[derive(Clone, Copy)]
pub struct Asset {
    pub path: &'static str,
    pub content_type: &'static str,
    pub body: &'static str,
}

const JS: &str = "text/javascript; charset=utf-8";

/// A module of `assets/`, served at its own name.
macro_rules! module {
    ($path:literal) => {
        Asset {
            path: concat!("/", $path),
            content_type: JS,
            body: include_str!(concat!("../assets/", $path)),
        }
    };
}

/// The files of the page kept as they are in `assets/`.
const FILES: [Asset; 20] = [
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_str!("../assets/index.html"),
    },
    Asset {
        path: "/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("../assets/style.css"),
    },
    module!("app.js"),
    module!("board.js"),
    module!("editor.js"),
    module!("i18n.js"),
    module!("input.js"),
    module!("net.js"),
    module!("puzzles.js"),
    module!("render.js"),
    module!("rules.js"),
    module!("sound.js"),
    module!("sowing.js"),
    module!("state.js"),
    module!("texts/en.js"),
    module!("texts/ru.js"),
    module!("texts/kk.js"),
    module!("texts/ky.js"),
    module!("texts/fr.js"),
    module!("texts/es.js"),
];

/// A level of the strength menu.
#[derive(Serialize)]
struct LevelEntry {
    /// 1 = weakest; the page names levels by number, so that they read
    /// weakest to strongest in every language.
    number: u32,
    /// The `Level` option's name (an alias).
    name: &'static str,
    /// Estimated PlayOK rating and its 95% interval.
    elo: i32,
    low: i32,
    high: i32,
}

/// What `/config.js` exports.
#[derive(Serialize)]
struct PageConfig {
    levels: Vec<LevelEntry>,
    full_strength: u32,
    limits: PageLimits,
    examples: Vec<RuleExample>,
}

static CONFIG_MODULE: LazyLock<String> = LazyLock::new(|| {
    let config = PageConfig {
        levels: Level::LADDER
            .iter()
            .map(|level| {
                let rating = level.rating();
                LevelEntry {
                    number: level.number(),
                    name: level.name(),
                    elo: rating.elo,
                    low: rating.low,
                    high: rating.high,
                }
            })
            .collect(),
        full_strength: Level::FULL_STRENGTH.number(),
        limits: PageLimits::get(),
        examples: rule_examples(),
    };
    let json = serde_json::to_string(&config).unwrap_or_else(|e| {
        log::error!("cannot write /config.js: {e}");
        String::from("null")
    });
    format!(
        "// Written by the server (crates/gui/src/assets.rs): the level ladder, the limits, the rules' diagrams.\n\
         export const CONFIG = {json};\n"
    )
});

/// Every file the page is made of.
pub fn assets() -> impl Iterator<Item = Asset> {
    FILES.into_iter().chain(std::iter::once(Asset {
        path: "/config.js",
        content_type: JS,
        body: CONFIG_MODULE.as_str(),
    }))
}

/// The page's own rules for the browser: nothing from elsewhere, no frames.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

impl Asset {
    pub fn response(&self) -> Response {
        (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, self.content_type),
                (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
                (header::REFERRER_POLICY, "no-referrer"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            self.body,
        )
            .into_response()
    }
}

/// Bytes of the page: every file it loads.
pub fn page_bytes() -> usize {
    assets().map(|asset| asset.body.len()).sum()
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::*;

    /// A language table's entries: `  key: "text",` lines.
    fn table(language: &str) -> BTreeMap<String, String> {
        let path = format!("/texts/{language}.js");
        let asset = assets()
            .find(|a| a.path == path)
            .unwrap_or_else(|| panic!("{path} is served"));
        asset
            .body
            .lines()
            .filter_map(|line| {
                let (key, rest) = line.trim().split_once(": \"")?;
                let text = rest.strip_suffix("\",")?;
                key.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
                    .then(|| (key.to_string(), text.to_string()))
            })
            .collect()
    }

    fn placeholders(text: &str) -> BTreeSet<&str> {
        text.split('{')
            .skip(1)
            .filter_map(|part| part.split_once('}').map(|(name, _)| name))
            .filter(|name| name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
            .collect()
    }

    /// Texts that read the same in every language.
    const SAME_EVERYWHERE: [&str; 3] = ["tfen", "moves_number", "win_line"];

    #[test]
    fn texts_have_the_same_keys_and_placeholders_in_every_language() {
        let english = table("en");
        assert!(english.len() > 250, "{} English texts", english.len());
        for language in ["ru", "kk", "ky", "fr", "es"] {
            let other = table(language);
            let missing: Vec<&String> =
                english.keys().filter(|k| !other.contains_key(*k)).collect();
            let extra: Vec<&String> = other.keys().filter(|k| !english.contains_key(*k)).collect();
            assert!(missing.is_empty(), "{language} lacks {missing:?}");
            assert!(extra.is_empty(), "{language} has unknown keys {extra:?}");
            for (key, text) in &english {
                let translated = &other[key];
                assert_eq!(
                    placeholders(text),
                    placeholders(translated),
                    "{language} {key}: {translated}"
                );
                if !SAME_EVERYWHERE.contains(&key.as_str()) {
                    assert_ne!(text, translated, "{language} {key} is not translated");
                }
            }
        }
    }

    #[test]
    fn every_key_the_server_sends_is_in_the_tables() {
        let english = table("en");
        let sources = [
            include_str!("editor.rs"),
            include_str!("error.rs"),
            include_str!("game.rs"),
            include_str!("session.rs"),
            include_str!("socket.rs"),
            include_str!("snapshot.rs"),
        ];
        let mut keys = BTreeSet::new();
        for source in sources {
            for part in source.split("Text::new(\"").skip(1) {
                if let Some((key, _)) = part.split_once('"') {
                    keys.insert(key.to_string());
                }
            }
            for part in source.split("=> \"err_").skip(1) {
                if let Some((key, _)) = part.split_once('"') {
                    keys.insert(format!("err_{key}"));
                }
            }
        }
        assert!(keys.len() > 50, "{keys:?}");
        let missing: Vec<&String> = keys.iter().filter(|k| !english.contains_key(*k)).collect();
        assert!(
            missing.is_empty(),
            "keys the server sends but no table has: {missing:?}"
        );
    }

    #[test]
    fn the_config_module_lists_the_ladder_weakest_first() {
        let module = assets().find(|a| a.path == "/config.js").unwrap().body;
        let json = module
            .split_once("export const CONFIG = ")
            .and_then(|(_, rest)| rest.trim_end().strip_suffix(';'))
            .unwrap();
        let config: serde_json::Value = serde_json::from_str(json).unwrap();
        let levels = config["levels"].as_array().unwrap();
        assert_eq!(levels.len(), Level::LADDER.len());
        let elos: Vec<i64> = levels.iter().map(|l| l["elo"].as_i64().unwrap()).collect();
        assert!(elos.windows(2).all(|w| w[0] < w[1]), "{elos:?}");
        let numbers: Vec<i64> = levels
            .iter()
            .map(|l| l["number"].as_i64().unwrap())
            .collect();
        assert_eq!(
            numbers,
            (1..=Level::LADDER.len() as i64).collect::<Vec<_>>()
        );
        assert_eq!(
            config["limits"]["upload_bytes"],
            crate::limits::MAX_UPLOAD_BYTES
        );
        assert_eq!(config["examples"].as_array().unwrap().len(), 10);
    }
}
