//! One page's WebSocket: commands in, the game's messages out. A page
//! names its game (`/ws?game=<id>`) to find it again after a reload or a
//! lost connection; without one it gets a new game, and with one the server
//! no longer has (closed to make room, or the server restarted) a new game
//! and a notice saying so.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use crate::error::GuiError;
use crate::library::Library;
use crate::limits::{MAX_CONNECTIONS, MAX_MESSAGE_BYTES};
use crate::puzzles::{self, Seat};
use crate::registry::{Registry, is_game_id};
use crate::session::Session;
use crate::wire::{Notice, Request, ServerMessage, StudyRequest, Text};
use crate::{editor, explorer, study};

/// What the WebSocket handler shares: the games, the games database, and
/// the pages connected.
pub struct App {
    pub registry: Registry,
    pub library: Library,
    /// Pages connected now.
    pub connections: AtomicUsize,
}

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
    let game = query.game;
    upgrade
        .max_message_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| async move {
            serve(socket, &app, game.as_deref()).await;
            app.connections.fetch_sub(1, Ordering::SeqCst);
        })
}

async fn serve(mut socket: WebSocket, app: &App, asked: Option<&str>) {
    let known = asked.filter(|id| is_game_id(id));
    let opened = match app.registry.open(known) {
        Ok(opened) => opened,
        Err(error) => {
            let message = ServerMessage::Error(error.message());
            let _ = socket.send(Message::text(message.to_json())).await;
            return;
        }
    };
    let session = opened.session;
    let mut seat = Seat::default();
    let mut events = session.subscribe();
    let mut open = socket
        .send(Message::text(session.state_message()))
        .await
        .is_ok();
    if asked.is_some_and(|id| !id.is_empty()) && !opened.found {
        let notice = ServerMessage::Notice(Notice {
            code: "game_gone",
            text: Text::new("notice_game_gone"),
        });
        open &= socket.send(Message::text(notice.to_json())).await.is_ok();
    }
    while open {
        open = tokio::select! {
            message = socket.recv() => match message {
                Some(Ok(Message::Text(text))) => answer(&mut socket, app, &session, &mut seat, &text).await,
                Some(Ok(Message::Binary(_))) => {
                    let error = GuiError::Malformed("binary message".to_string());
                    let message = ServerMessage::Error(error.message());
                    socket.send(Message::text(message.to_json())).await.is_ok()
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
    session.unwatch();
}

/// Carries out one command or study request; an error goes back to this
/// page only.
async fn answer(
    socket: &mut WebSocket,
    app: &App,
    session: &Session,
    seat: &mut Seat,
    text: &str,
) -> bool {
    let result = match Request::parse(text).map_err(|e| GuiError::Malformed(e.to_string())) {
        Ok(Request::Game(command)) => session.command(command),
        Ok(Request::Study(request)) => study(app, session, seat, request).await.map(Some),
        Err(error) => Err(error),
    };
    let reply = match result {
        Ok(None) => return true,
        Ok(Some(reply)) => reply,
        Err(error) => {
            log::info!("game {}: {error}", session.id);
            ServerMessage::Error(error.message())
        }
    };
    socket.send(Message::text(reply.to_json())).await.is_ok()
}

/// Answers a request to the games database (`seat`: this page's puzzle).
async fn study(
    app: &App,
    session: &Session,
    seat: &mut Seat,
    request: StudyRequest,
) -> Result<ServerMessage, GuiError> {
    let library = &app.library;
    match request {
        StudyRequest::Explore { tfen } => explorer::explore(library, tfen)
            .await
            .map(ServerMessage::Explorer),
        StudyRequest::SaveStudy { name, comment } => study::save(library, session, name, comment)
            .await
            .map(ServerMessage::Studies),
        StudyRequest::Studies => study::list(library, None).await.map(ServerMessage::Studies),
        StudyRequest::OpenStudy { id } => study::open(library, session, id)
            .await
            .map(ServerMessage::Studies),
        StudyRequest::Mistakes => study::mistakes(library).await.map(ServerMessage::Mistakes),
        StudyRequest::OpenMistake { id } => study::open_mistake(library, session, id)
            .await
            .map(ServerMessage::Mistakes),
        StudyRequest::PuzzleNext { theme } => puzzles::next(library, seat, theme)
            .await
            .map(ServerMessage::Puzzle),
        StudyRequest::PuzzleOpen { id } => puzzles::open(library, seat, id)
            .await
            .map(ServerMessage::Puzzle),
        StudyRequest::PuzzleMove { id, hole } => puzzles::play(library, seat, id, hole)
            .await
            .map(ServerMessage::Puzzle),
        StudyRequest::PuzzleHint { id } => puzzles::hint(seat, id).map(ServerMessage::Puzzle),
        StudyRequest::PuzzleSolution { id } => puzzles::solution(library, seat, id)
            .await
            .map(ServerMessage::Puzzle),
        StudyRequest::PuzzleAnalyse { id } => {
            puzzles::analyse(seat, session, id).map(ServerMessage::Puzzle)
        }
        StudyRequest::CheckPosition { tfen } => {
            editor::check(tfen).map(ServerMessage::PositionCheck)
        }
        StudyRequest::SavePosition {
            tfen,
            name,
            comment,
        } => study::save_position(library, tfen, name, comment)
            .await
            .map(ServerMessage::Studies),
    }
}
