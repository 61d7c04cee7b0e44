//! The page, built into the binary: HTML, CSS and plain ES modules, no
//! build step, nothing fetched from elsewhere. One module, `/levels.js`,
//! is written by the server from the engine's level table, so the page's
//! level menu is the ladder the engine has.

use std::sync::LazyLock;

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tuzdyk_protocol::Level;

/// One file of the page.
#[derive(Clone, Copy)]
pub struct Asset {
    pub path: &'static str,
    pub content_type: &'static str,
    pub body: &'static str,
}

/// The files of the page kept as they are in `assets/`.
const FILES: [Asset; 5] = [
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
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../assets/app.js"),
    },
    Asset {
        path: "/board.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../assets/board.js"),
    },
    Asset {
        path: "/texts.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../assets/texts.js"),
    },
];

/// `/levels.js`: the ladder, weakest first, each level with its name (the
/// `Level` option's) and its estimated PlayOK rating, and the full-strength
/// level.
static LEVELS_MODULE: LazyLock<String> = LazyLock::new(|| {
    let ladder: Vec<Value> = Level::LADDER
        .iter()
        .map(|level| json!({ "name": level.name(), "elo": level.rating().elo }))
        .collect();
    format!(
        "// Written by the server from the engine's level table (crates/protocol/src/level.rs).\n\
         export const LEVELS = {};\nexport const FULL_STRENGTH = {};\n",
        Value::Array(ladder),
        json!(Level::FULL_STRENGTH.name())
    )
});

/// Every file the page is made of.
pub fn assets() -> impl Iterator<Item = Asset> {
    FILES.into_iter().chain(std::iter::once(Asset {
        path: "/levels.js",
        content_type: "text/javascript; charset=utf-8",
        body: LEVELS_MODULE.as_str(),
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
