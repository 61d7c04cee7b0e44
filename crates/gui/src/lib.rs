//! `tuzdyk gui`: a local web server with the page built in. The server
//! keeps each game (so a reload or a lost connection loses nothing) and
//! drives the engine as a child process through `protocol.md`, as any
//! outside GUI would; the page only draws what the server computes with
//! `tuzdyk_rules` and sends commands back.
//!
//! The modules, each using only those listed before it:
//!
//! - [`limits`]: every limit and pace; [`wire`]: the page protocol's schema;
//! - [`error`]: what a page can get wrong, as texts the page translates;
//! - [`convert`]: the rules' types as the wire writes them;
//! - [`learn`]: "learn from your mistakes", without I/O;
//! - [`game`]: one game, without I/O; [`snapshot`]: what a page is sent;
//! - [`worker`]: one engine process per game, restarted when it fails;
//! - [`scheduler`]: which engine job a game wants, and its bookkeeping;
//! - [`library`]: the games database, opened on first use;
//! - [`session`]: a game with its engine and its pages (its exercises
//!   saved to the database);
//! - [`registry`]: the games by id;
//! - [`explorer`]: the moves played in a position, from the database;
//!   [`study`]: studies and stored mistakes, from it;
//!   [`puzzles`]: the puzzle mode, a page's puzzle checked and rated;
//!   [`editor`]: the position editor's check of a position set up;
//! - [`socket`]: one page's WebSocket;
//! - [`examples`]: the rules page's diagrams, played by the rules;
//! - [`assets`]: the page's files; [`guard`]: the Host and Origin checks;
//!   [`server`]: the routes.

pub mod assets;
pub mod convert;
pub mod editor;
pub mod error;
pub mod examples;
pub mod explorer;
pub mod game;
pub mod guard;
pub mod learn;
pub mod library;
pub mod limits;
pub mod puzzles;
pub mod registry;
pub mod scheduler;
pub mod server;
pub mod session;
pub mod snapshot;
pub mod socket;
pub mod study;
pub mod wire;
pub mod worker;

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use tuzdyk_notation::console::{self, OutputError};
use tuzdyk_protocol::EngineSpec;

use crate::guard::Guard;
use crate::library::Library;
use crate::registry::Registry;
use crate::socket::App;

/// The port when none is given.
pub const DEFAULT_PORT: u16 = 7979;

/// Play, analyse and review in the browser.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on. Anything but a loopback address lets other
    /// machines play with this machine's engine.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The engine to run, with its arguments (default: this program).
    #[arg(long, value_name = "CMD")]
    pub engine_cmd: Option<String>,
    /// Open the page in the system's browser.
    #[arg(long)]
    pub open: bool,
    /// Games kept at once, each with at most one engine process.
    #[arg(long, default_value_t = limits::DEFAULT_MAX_GAMES, value_parser = clap::value_parser!(u16).range(limits::MAX_GAMES_RANGE))]
    pub max_games: u16,
    /// The games database of the explorer and the study features
    /// (default: the user's, made on first use; `TUZDYK_DB` overrides).
    #[arg(long, value_name = "PATH")]
    pub db: Option<std::path::PathBuf>,
}

/// Why `tuzdyk gui` could not serve.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Engine(#[from] tuzdyk_protocol::ClientError),
    #[error("cannot start the server's threads: {0}")]
    Threads(std::io::Error),
    #[error("cannot listen on {host}:{port}: {error}")]
    Listen {
        host: String,
        port: u16,
        error: std::io::Error,
    },
    #[error("the server stopped: {0}")]
    Server(std::io::Error),
    /// Its URL could not be printed (a closed pipe ends it quietly: the
    /// command line finds the OutputError as this error's source).
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl RunError {
    /// The exit status: 2, it could not run.
    pub fn status(&self) -> u8 {
        2
    }
}

/// Runs the server until it is interrupted.
///
/// # Errors
/// [`RunError`] when the engine command, the threads or the address cannot
/// be had, or the server stops.
pub fn run(args: Args) -> Result<(), RunError> {
    let spec = EngineSpec::from_command(args.engine_cmd.as_deref(), "tuzdyk")?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(RunError::Threads)?;
    runtime.block_on(serve(args, spec))
}

async fn serve(args: Args, spec: EngineSpec) -> Result<(), RunError> {
    let loopback = match args.host.parse::<IpAddr>() {
        Ok(address) => address.is_loopback(),
        Err(_) => args.host.eq_ignore_ascii_case("localhost"),
    };
    let listen_error = |error| RunError::Listen {
        host: args.host.clone(),
        port: args.port,
        error,
    };
    let listener = tokio::net::TcpListener::bind((args.host.as_str(), args.port))
        .await
        .map_err(listen_error)?;
    let address = listener.local_addr().map_err(listen_error)?;
    if !loopback {
        // A warning nobody can read is no reason to stop serving.
        let _ = console::err(format_args!(
            "warning: listening on {address}, not a loopback address: other machines can reach this server and its engine"
        ));
    }
    let url = match address.ip() {
        ip if ip.is_unspecified() => format!("http://127.0.0.1:{}/", address.port()),
        IpAddr::V6(ip) => format!("http://[{ip}]:{}/", address.port()),
        IpAddr::V4(ip) => format!("http://{ip}:{}/", address.port()),
    };
    console::out(format_args!("tuzdyk gui: {url}"))?;
    if args.open {
        open_browser(&url);
    }
    let library = Library::new(args.db.clone());
    let app = Arc::new(App {
        registry: Registry::new(spec, library.clone(), args.max_games as usize),
        library,
        connections: AtomicUsize::new(0),
    });
    let guard = Guard::new(&args.host, address.port());
    tokio::select! {
        served = server::serve(listener, app, guard) => served.map_err(RunError::Server),
        _ = tokio::signal::ctrl_c() => Ok(()),
    }
}

/// Opens `url` in the system's browser; a failure is only reported.
fn open_browser(url: &str) {
    let (program, arguments): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    match std::process::Command::new(program)
        .args(arguments)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        Ok(_) => {}
        Err(e) => {
            let _ = console::err(format_args!(
                "warning: cannot open a browser ({program}: {e}); open {url}"
            ));
        }
    }
}
