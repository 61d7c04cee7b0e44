//! The web server: the page's files, the WebSocket, the Host and Origin
//! guard in front of both, and the limits.

use std::sync::Arc;

use axum::Router;
use axum::middleware;
use axum::routing::get;
use tokio::net::TcpListener;

use crate::assets::assets;
use crate::guard::{self, Guard};
use crate::socket::{self, App};

/// The routes, every one behind the guard.
pub fn router(app: Arc<App>, guard: Guard) -> Router {
    let mut router = Router::new().route("/ws", get(socket::connect));
    for asset in assets() {
        router = router.route(asset.path, get(move || async move { asset.response() }));
    }
    router
        .with_state(app)
        .layer(middleware::from_fn_with_state(guard, guard::check_request))
}

/// Serves until the listener fails.
///
/// # Errors
/// When the listener fails.
pub async fn serve(listener: TcpListener, app: Arc<App>, guard: Guard) -> std::io::Result<()> {
    axum::serve(listener, router(app, guard)).await
}
