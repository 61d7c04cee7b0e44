//! The page, built into the binary: HTML, CSS and plain ES modules, no
//! build step, nothing fetched from elsewhere.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// One file of the page.
pub struct Asset {
    pub path: &'static str,
    pub content_type: &'static str,
    pub body: &'static str,
}

/// Every file the page is made of.
pub const ASSETS: [Asset; 5] = [
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
    ASSETS.iter().map(|asset| asset.body.len()).sum()
}
