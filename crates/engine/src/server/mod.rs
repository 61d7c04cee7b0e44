//! The protocol loop on stdin/stdout (UCI tradition, with the UGI dialect),
//! exactly as `protocol.md` specifies it.
//!
//! [`Session`] reads one command per line, parses it ([`tuzdyk_protocol::command`])
//! and executes it against the [`Engine`]; searches run in the background, so
//! `isready`, `stop`, `ponderhit` and `quit` are answered during a search.
//! All output goes through one [`Output`], which flushes every line. The
//! commands for GUIs and people (`d`, `moves`, `eval`, `perft`, `bench`) are
//! in [`extras`].

mod extras;
mod output;

use std::io::{BufRead, IsTerminal, Write};
use std::sync::Arc;

use tuzdyk_protocol::command::{self, Command};
use tuzdyk_protocol::line::{Line, read_line};
use tuzdyk_protocol::{
    BestMove, Dialect, InfoLine, MAX_LINE_BYTES, OPTIONS, OptionKind, OptionSpec,
};

use crate::engine::{Engine, Listener};
pub use extras::HELP;
pub use output::{Output, SharedBuffer};

/// The engine's name and version as `id name` gives them.
pub const ENGINE_NAME: &str = concat!("tuzdyk ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the tuzdyk developers";

/// What the loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Prints a search's progress and move in the session's dialect.
struct ProtocolListener {
    out: Output,
    dialect: Dialect,
}

impl Listener for ProtocolListener {
    fn info(&self, info: &InfoLine) {
        self.out.line(&info.to_string());
    }

    fn best_move(&self, best: &BestMove) {
        let best = match self.dialect {
            Dialect::Uci => *best,
            // In UGI `bestmove` is always two tokens.
            Dialect::Ugi => BestMove {
                ponder: None,
                ..*best
            },
        };
        self.out.line(&best.to_string());
    }
}

/// One protocol conversation.
pub struct Session {
    engine: Engine,
    out: Output,
    dialect: Dialect,
}

impl Session {
    pub fn new(out: Output) -> Session {
        Session {
            engine: Engine::new(),
            out,
            dialect: Dialect::Uci,
        }
    }

    /// Reads commands until `quit` or the end of input. At the end of input
    /// a search that ends by itself (depth, nodes, time) is finished first,
    /// so that `echo "go depth 12" | tuzdyk` gives its full answer; an
    /// infinite or ponder search is stopped, as `quit` would.
    pub fn run(&mut self, input: impl BufRead) {
        let mut input = input;
        loop {
            let line = match read_line(&mut input, MAX_LINE_BYTES) {
                Ok(Some(Line::Text(line))) => line,
                Ok(Some(Line::TooLong { bytes })) => {
                    self.out.error(&format!(
                        "line of {bytes} bytes is too long (at most {MAX_LINE_BYTES})"
                    ));
                    continue;
                }
                Ok(None) => break,
                Err(e) => {
                    log::error!("cannot read input: {e}");
                    break;
                }
            };
            if self.execute_line(&line) == Flow::Quit {
                return;
            }
            // Nobody reads the answers any more (`| head`, a GUI gone): the
            // rest of the input would only be written to a closed pipe.
            if self.out.is_closed() {
                log::debug!("protocol output closed: stopping");
                self.engine.stop();
                return;
            }
        }
        if self.engine.search_is_bounded() && !self.out.is_closed() {
            self.engine.wait();
        }
        self.engine.stop();
    }

    /// Parses and executes one line.
    pub fn execute_line(&mut self, line: &str) -> Flow {
        log::debug!("<< {}", line.trim_end());
        match command::parse(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(command)) => self.execute(command),
            Err(error) => {
                self.out.error(&error.to_string());
                Flow::Continue
            }
        }
    }

    pub fn execute(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => self.handshake(Dialect::Uci),
            Command::Ugi => self.handshake(Dialect::Ugi),
            Command::IsReady => self.out.line("readyok"),
            Command::NewGame => self.engine.new_game(),
            Command::SetOption { option, value } => {
                if let Some(notice) = value.clamp_notice(option.spec()) {
                    self.out.info_string(&notice);
                }
                match self.engine.set_option(option, value) {
                    Ok(Some(notice)) => self.out.info_string(&notice),
                    Ok(None) => {}
                    Err(e) => self.out.error(&e.to_string()),
                }
            }
            Command::Position(game) => self.engine.set_game(game),
            Command::Go(go) => {
                let position = *self.engine.position();
                let unknown: Vec<String> = go
                    .searchmoves
                    .iter()
                    .filter(|mv| !position.is_legal(**mv))
                    .map(|mv| mv.to_string())
                    .collect();
                if !unknown.is_empty() {
                    self.out.info_string(&format!(
                        "searchmoves: {} not legal here, ignored",
                        unknown.join(" ")
                    ));
                }
                let listener = Arc::new(ProtocolListener {
                    out: self.out.clone(),
                    dialect: self.dialect,
                });
                self.engine.go(&go, listener);
            }
            Command::Stop => self.engine.stop(),
            Command::PonderHit => {
                if !self.engine.ponderhit() {
                    log::debug!("ponderhit without a ponder search");
                }
            }
            Command::Quit => {
                self.engine.stop();
                return Flow::Quit;
            }
            Command::Query(query) => self.query(query),
            Command::Debug => {}
            Command::Display => self.display(),
            Command::Fen => self.fen(),
            Command::Moves => self.list_moves(),
            Command::Eval => self.show_eval(),
            Command::Help => self.help(),
            Command::Perft(depth) => {
                self.engine.stop();
                self.perft(depth);
            }
            Command::Bench(depth) => {
                self.engine.stop();
                self.bench(depth);
            }
        }
        Flow::Continue
    }

    fn handshake(&mut self, dialect: Dialect) {
        self.dialect = dialect;
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line(&format!("id author {ENGINE_AUTHOR}"));
        for spec in &OPTIONS {
            self.out.line(&self.declaration(spec));
        }
        self.out.line(match dialect {
            Dialect::Uci => "uciok",
            Dialect::Ugi => "ugiok",
        });
    }

    /// An option's declaration, with its current value as the default.
    fn declaration(&self, spec: &OptionSpec) -> String {
        let current = self.engine.option_value(spec.option);
        let kind = match spec.kind {
            OptionKind::Spin { min, max, default } => OptionKind::Spin {
                default: current.parse().unwrap_or(default),
                min,
                max,
            },
            OptionKind::Check { default } => OptionKind::Check {
                default: current.parse().unwrap_or(default),
            },
            OptionKind::Combo { values, default } => OptionKind::Combo {
                default: values
                    .iter()
                    .copied()
                    .find(|v| *v == current)
                    .unwrap_or(default),
                values,
            },
            OptionKind::Button => OptionKind::Button,
            // The current value is not a `'static` text: written as it is.
            OptionKind::String { .. } => {
                return format!("option name {} type string default {current}", spec.name);
            }
        };
        OptionSpec { kind, ..*spec }.declaration()
    }
}

/// Runs the protocol on stdin/stdout until `quit` or end of input. A
/// person who starts it at a terminal is told on stderr what it is and how
/// to leave (a GUI, whose stdin is a pipe, is not).
pub fn run_stdio() {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        // Nothing to do if stderr is gone: the banner is a courtesy.
        let _ = writeln!(std::io::stderr(), "{}", banner());
    }
    let mut session = Session::new(Output::stdout());
    session.run(stdin.lock());
}

/// What a person at a terminal sees first.
pub fn banner() -> String {
    format!(
        "{ENGINE_NAME}, a Togyz Kumalak engine: it reads protocol commands (protocol.md), \
         one a line. Type help for the commands, quit (or Ctrl-D) to leave; \
         tuzdyk --help lists the tools, tuzdyk play plays a game."
    )
}
