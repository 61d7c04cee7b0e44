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
//! - [`game`]: one game, without I/O; [`snapshot`]: what a page is sent;
//! - [`worker`]: one engine process per game, restarted when it fails;
//! - [`scheduler`]: which engine job a game wants, and its bookkeeping;
//! - [`session`]: a game with its engine and its pages;
//! - [`registry`]: the games by id; [`socket`]: one page's WebSocket;
//! - [`examples`]: the rules page's diagrams, played by the rules;
//! - [`assets`]: the page's files; [`guard`]: the Host and Origin checks;
//!   [`server`]: the routes.

pub mod assets;
pub mod convert;
pub mod error;
pub mod examples;
pub mod game;
pub mod guard;
pub mod limits;
pub mod registry;
pub mod scheduler;
pub mod server;
pub mod session;
pub mod snapshot;
pub mod socket;
pub mod wire;
pub mod worker;

use std::io::Write;
use std::net::IpAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use tuzdyk_protocol::EngineSpec;

use crate::guard::Guard;
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
}

/// Runs the server until it is interrupted.
pub fn run(args: Args) -> ExitCode {
    let spec = match tuzdyk_tools::engine_spec(args.engine_cmd.as_deref()) {
        Ok(spec) => spec,
        Err(status) => return status,
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the server's threads: {e}");
            return ExitCode::from(2);
        }
    };
    runtime.block_on(serve(args, spec))
}

async fn serve(args: Args, spec: EngineSpec) -> ExitCode {
    let loopback = match args.host.parse::<IpAddr>() {
        Ok(address) => address.is_loopback(),
        Err(_) => args.host.eq_ignore_ascii_case("localhost"),
    };
    let listener = match tokio::net::TcpListener::bind((args.host.as_str(), args.port)).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("error: cannot listen on {}:{}: {e}", args.host, args.port);
            return ExitCode::from(2);
        }
    };
    let address = match listener.local_addr() {
        Ok(address) => address,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if !loopback {
        eprintln!(
            "warning: listening on {address}, not a loopback address: other machines can reach this server and its engine"
        );
    }
    let url = match address.ip() {
        ip if ip.is_unspecified() => format!("http://127.0.0.1:{}/", address.port()),
        IpAddr::V6(ip) => format!("http://[{ip}]:{}/", address.port()),
        IpAddr::V4(ip) => format!("http://{ip}:{}/", address.port()),
    };
    println!("tuzdyk gui: {url}");
    let _ = std::io::stdout().flush();
    if args.open {
        open_browser(&url);
    }
    let app = Arc::new(App {
        registry: Registry::new(spec, args.max_games as usize),
        connections: AtomicUsize::new(0),
    });
    let guard = Guard::new(&args.host, address.port());
    tokio::select! {
        served = server::serve(listener, app, guard) => match served {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: the server stopped: {e}");
                ExitCode::from(2)
            }
        },
        _ = tokio::signal::ctrl_c() => ExitCode::SUCCESS,
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
        Err(e) => eprintln!("warning: cannot open a browser ({program}: {e}); open {url}"),
    }
}
