//! One page's WebSocket: commands in, the game's messages out. A page
//! names its game (`/ws?game=<id>`) to find it again after a reload or a
//! lost connection; without one, or with an unknown one, it gets a new game.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use crate::error::GuiError;
use crate::registry::is_game_id;
use crate::server::App;
use crate::session::{Command, MAX_UPLOAD_BYTES, Session};
use crate::snapshot;

/// Pages connected at once, over all games.
pub const MAX_CONNECTIONS: usize = 32;
/// The largest message a page may send; larger ones close the connection.
/// Uploads up to four times the limit still get a clear answer.
pub const MAX_MESSAGE_BYTES: usize = 4 * MAX_UPLOAD_BYTES;

#[derive(Debug, Deserialize)]
pub struct ConnectQuery {
    game: Option<String>,
}

/// `GET /ws`: the upgrade, refused when too many pages are connected.
pub async fn connect(
    upgrade: WebSocketUpgrade,
    Query(query): Query<ConnectQuery>,
    State(app): State<Arc<App>>,
) -> Response {
    if app.connections.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
        app.connections.fetch_sub(1, Ordering::SeqCst);
        return (StatusCode::SERVICE_UNAVAILABLE, "too many connections\n").into_response();
    }
    let game = query.game.filter(|id| is_game_id(id));
    upgrade
        .max_message_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| async move {
            serve(socket, &app, game.as_deref()).await;
            app.connections.fetch_sub(1, Ordering::SeqCst);
        })
}

async fn serve(mut socket: WebSocket, app: &App, game: Option<&str>) {
    let session = match app.registry.open(game) {
        Ok(session) => session,
        Err(error) => {
            let _ = socket.send(Message::text(snapshot::error(&error))).await;
            return;
        }
    };
    session.connections.fetch_add(1, Ordering::SeqCst);
    session.touch();
    let mut events = session.subscribe();
    let mut open = socket
        .send(Message::text(session.state_message()))
        .await
        .is_ok();
    while open {
        open = tokio::select! {
            message = socket.recv() => match message {
                Some(Ok(Message::Text(text))) => answer(&mut socket, &session, &text).await,
                Some(Ok(Message::Binary(_))) => {
                    let error = GuiError::Malformed("binary message".to_string());
                    socket.send(Message::text(snapshot::error(&error))).await.is_ok()
                }
                Some(Ok(_)) => true,
                Some(Err(_)) | None => false,
            },
            event = events.recv() => match event {
                Ok(text) => socket.send(Message::text(text.as_ref())).await.is_ok(),
                Err(RecvError::Lagged(_)) => {
                    socket.send(Message::text(session.state_message())).await.is_ok()
                }
                Err(RecvError::Closed) => false,
            },
        };
    }
    session.connections.fetch_sub(1, Ordering::SeqCst);
    session.touch();
}

/// Carries out one command; an error goes back to this page only.
async fn answer(socket: &mut WebSocket, session: &Session, text: &str) -> bool {
    let result = serde_json::from_str::<Command>(text)
        .map_err(|e| GuiError::Malformed(e.to_string()))
        .and_then(|command| session.command(command));
    match result {
        Ok(()) => true,
        Err(error) => {
            log::info!("game {}: {error}", session.id);
            socket
                .send(Message::text(snapshot::error(&error)))
                .await
                .is_ok()
        }
    }
}
