//! One game between two engine processes, refereed.
//!
//! The referee keeps the position and the clocks itself. It sends each
//! engine `position ... moves ...` and `go`, times it from writing `go` to
//! reading `bestmove`, and checks the move. An engine loses the game when
//! it plays an illegal or malformed move, when its process ends (crash),
//! when it gives no `bestmove` well past its deadline (hang; the process is
//! killed and started again for the next game), or when its clock goes
//! below zero (loss on time). Games otherwise end by the rules, or are
//! adjudicated a draw after `Limits::max_plies` plies.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::{GameEnd, GameResult, Move, Position, Side};
use crate::notation::tfen;
use crate::tools::client::{ClientError, EngineProcess, EngineSpec};

use super::config::Limits;
use super::openings::Opening;

/// How an engine lost by a fault of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// `bestmove` named no legal move.
    IllegalMove {
        token: String,
        detail: String,
        move_number: u16,
    },
    /// The process ended (or its input closed).
    Crashed { during: String },
    /// No answer in time; the process was killed.
    Hung { waited_ms: u64, during: String },
    /// The clock went below zero.
    LostOnTime {
        used_ms: u64,
        had_ms: u64,
        move_number: u16,
    },
    /// The process started but did not complete the handshake.
    StartFailed { reason: String },
}

impl Forfeit {
    /// The kinds, for counting: index into [`Forfeit::KINDS`].
    pub fn kind(&self) -> usize {
        match self {
            Forfeit::IllegalMove { .. } => 0,
            Forfeit::Crashed { .. } => 1,
            Forfeit::Hung { .. } => 2,
            Forfeit::LostOnTime { .. } => 3,
            Forfeit::StartFailed { .. } => 4,
        }
    }

    /// Names of the kinds, in report order (snake case for JSON).
    pub const KINDS: [&'static str; 5] = [
        "illegal_move",
        "crash",
        "hang",
        "time_forfeit",
        "start_failure",
    ];

    /// What happened, naming the engine `name`.
    pub fn describe(&self, name: &str) -> String {
        match self {
            Forfeit::IllegalMove {
                token,
                detail,
                move_number,
            } => format!("illegal move '{token}' by {name} at move {move_number} ({detail})"),
            Forfeit::Crashed { during } => format!("{name} crashed {during}"),
            Forfeit::Hung { waited_ms, during } => {
                format!("{name} hung {during} (no answer within {waited_ms} ms)")
            }
            Forfeit::LostOnTime {
                used_ms,
                had_ms,
                move_number,
            } => format!(
                "{name} lost on time at move {move_number} (used {used_ms} ms, had {had_ms} ms)"
            ),
            Forfeit::StartFailed { reason } => format!("{name} failed to start: {reason}"),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules of the game.
    Rules(GameEnd),
    /// Still going on after the maximum number of plies: a draw.
    Adjudicated { plies: usize },
    /// The engine playing `loser` lost by its own fault.
    Forfeit { loser: Side, forfeit: Forfeit },
}

/// A game as it was played.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// 1-based, in the order games were scheduled.
    pub number: usize,
    /// The engine (0 or 1) that played White.
    pub white: usize,
    pub result: GameResult,
    pub termination: Termination,
    /// The opening's start position: the record starts here.
    pub start: Position,
    /// The opening's moves, then the moves played.
    pub moves: Vec<Move>,
    /// Moves played in the match (the opening's not counted).
    pub plies: usize,
}

impl GameOutcome {
    /// The engine (0 or 1) that played `side`.
    pub fn engine(&self, side: Side) -> usize {
        if side == Side::White {
            self.white
        } else {
            1 - self.white
        }
    }

    /// The first engine's points: 2 for a win, 1 for a draw, 0 for a loss.
    pub fn first_engine_points(&self) -> u8 {
        match self.result {
            GameResult::Draw => 1,
            GameResult::Win(side) if self.engine(side) == 0 => 2,
            GameResult::Win(_) => 0,
        }
    }

    /// Why the game ended, as written in the record's `Termination` tag.
    pub fn describe(&self, names: &[String; 2]) -> String {
        match &self.termination {
            Termination::Rules(GameEnd::KazanMajority) => "normal: a kazan reached 82".to_string(),
            Termination::Rules(GameEnd::NoMoves) => {
                "normal: the side to move had no move, stones counted".to_string()
            }
            Termination::Adjudicated { plies } => {
                format!("adjudicated: draw after {plies} plies")
            }
            Termination::Forfeit { loser, forfeit } => {
                forfeit.describe(&names[self.engine(*loser)])
            }
        }
    }
}

/// One engine of a worker: its specification and its process, started when
/// needed and started again after a crash or a hang.
pub struct Engine {
    pub spec: EngineSpec,
    process: Option<EngineProcess>,
}

/// Why an engine could not be started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// The program could not be run.
    Spawn(String),
    /// It ran but did not complete the handshake.
    Handshake(String),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Spawn(reason) | StartError::Handshake(reason) => f.write_str(reason),
        }
    }
}

/// Why an engine could not be used.
enum Failure {
    /// The program cannot be run at all: the match cannot go on.
    Fatal(String),
    /// The engine loses the game.
    Forfeit(Forfeit),
}

impl Engine {
    pub fn new(spec: EngineSpec) -> Engine {
        Engine {
            spec,
            process: None,
        }
    }

    /// Starts the process and completes the handshake: `uci` ... `uciok`,
    /// the options, `isready` ... `readyok`. Returns the process and the
    /// `info string error` lines it printed (rejected options).
    pub fn start(
        spec: &EngineSpec,
        timeout: Duration,
    ) -> Result<(EngineProcess, Vec<String>), StartError> {
        let mut process =
            EngineProcess::start(spec).map_err(|e| StartError::Spawn(e.to_string()))?;
        let result = (|| {
            process.send("uci")?;
            process.wait_for("uciok", timeout)?;
            for (name, value) in &spec.options {
                if value.is_empty() {
                    process.send(&format!("setoption name {name}"))?;
                } else {
                    process.send(&format!("setoption name {name} value {value}"))?;
                }
            }
            process.sync(timeout)
        })();
        match result {
            Ok(()) => {
                let errors = process
                    .transcript
                    .iter()
                    .filter(|line| line.starts_with("info string error"))
                    .cloned()
                    .collect();
                Ok((process, errors))
            }
            Err(e) => {
                process.kill();
                Err(StartError::Handshake(e.to_string()))
            }
        }
    }

    /// Makes the engine ready for a new game: started if needed, then
    /// `ucinewgame` and `isready` ... `readyok`.
    fn prepare(&mut self, limits: &Limits) -> Result<(), Failure> {
        let timeout = Duration::from_millis(limits.ready_timeout_ms);
        if self.process.is_none() {
            // A program that cannot be run at all stops the match; one
            // that runs but fails the handshake loses the game.
            match Engine::start(&self.spec, timeout) {
                Ok((process, _)) => self.process = Some(process),
                Err(StartError::Spawn(reason)) => return Err(Failure::Fatal(reason)),
                Err(StartError::Handshake(reason)) => {
                    return Err(Failure::Forfeit(Forfeit::StartFailed { reason }));
                }
            }
        }
        let process = self.process.as_mut().expect("started above");
        let result = process
            .send("ucinewgame")
            .and_then(|()| process.sync(timeout));
        result.map_err(|e| {
            let during = "at the start of the game".to_string();
            let forfeit = self.lost(&e, during, limits.ready_timeout_ms);
            Failure::Forfeit(forfeit)
        })
    }

    /// The forfeit for a failed exchange; the process is killed and will be
    /// started again for the next game.
    fn lost(&mut self, error: &ClientError, during: String, waited_ms: u64) -> Forfeit {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        match error {
            ClientError::Timeout { .. } => Forfeit::Hung { waited_ms, during },
            _ => Forfeit::Crashed { during },
        }
    }

    /// Ends the process politely (`quit`), if there is one.
    pub fn shutdown(&mut self) {
        if let Some(process) = self.process.take() {
            process.quit();
        }
    }
}

/// Which game to play.
pub struct GameSpec<'a> {
    /// 1-based.
    pub number: usize,
    pub opening: &'a Opening,
    /// The engine (0 or 1) that plays White.
    pub white: usize,
}

/// The `position` command for `moves` played from `start`.
fn position_command(start: &Position, moves: &[Move]) -> String {
    let mut command = if *start == Position::startpos() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", tfen::write(start))
    };
    if !moves.is_empty() {
        command.push_str(" moves");
        for mv in moves {
            command.push_str(&format!(" {mv}"));
        }
    }
    command
}

/// Checks a `bestmove` line's move: the move, or the forfeit.
fn read_bestmove(line: &str, pos: &Position) -> Result<Move, Forfeit> {
    let token = line.split_whitespace().nth(1).unwrap_or("");
    let illegal = |detail: String| Forfeit::IllegalMove {
        token: token.to_string(),
        detail,
        move_number: pos.fullmove(),
    };
    if token.is_empty() {
        return Err(illegal(format!("no move in '{line}'")));
    }
    if token == "0000" {
        return Err(illegal("no move, but the game goes on".to_string()));
    }
    let Some(mv) = token.parse::<u32>().ok().and_then(Move::from_number) else {
        return Err(illegal("not a hole 1-9".to_string()));
    };
    if pos.is_legal(mv) {
        return Ok(mv);
    }
    let them = pos.side_to_move().opponent();
    Err(illegal(if pos.tuzdik(them) == Some(mv.index() as u8) {
        format!("hole {mv} is a tuzdik")
    } else {
        format!("hole {mv} is empty")
    }))
}

/// Plays one game. `Ok(None)` when `stop` was raised before the game ended
/// (the game does not count); `Err` when an engine's program cannot be run.
pub fn play_game(
    engines: &mut [Engine; 2],
    game: &GameSpec,
    limits: &Limits,
    stop: &AtomicBool,
) -> Result<Option<GameOutcome>, String> {
    let opening = game.opening;
    let engine_of = |side: Side| {
        if side == Side::White {
            game.white
        } else {
            1 - game.white
        }
    };
    let mut pos = opening.position();
    let mut moves = opening.moves.clone();
    let mut plies = 0usize;
    let finish = |result: GameResult, termination: Termination, moves: Vec<Move>, plies: usize| {
        Ok(Some(GameOutcome {
            number: game.number,
            white: game.white,
            result,
            termination,
            start: opening.start,
            moves,
            plies,
        }))
    };
    let forfeit = |loser: Side, forfeit: Forfeit, moves: Vec<Move>, plies: usize| {
        finish(
            GameResult::Win(loser.opponent()),
            Termination::Forfeit { loser, forfeit },
            moves,
            plies,
        )
    };

    for side in Side::BOTH {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        match engines[engine_of(side)].prepare(limits) {
            Ok(()) => {}
            Err(Failure::Fatal(message)) => return Err(message),
            Err(Failure::Forfeit(reason)) => return forfeit(side, reason, moves, plies),
        }
    }

    let clock = limits.clock;
    let mut clocks: [i64; 2] = [clock.map_or(0, |c| c.base_ms as i64); 2];
    let mut own_moves = [0u32; 2];
    loop {
        if let Some((result, end)) = pos.game_over() {
            return finish(result, Termination::Rules(end), moves, plies);
        }
        if plies >= limits.max_plies {
            return finish(
                GameResult::Draw,
                Termination::Adjudicated { plies },
                moves,
                plies,
            );
        }
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let side = pos.side_to_move();
        let us = side.index();
        let engine = &mut engines[engine_of(side)];
        let move_number = pos.fullmove();
        let during = format!("at move {move_number}");

        let mut go = String::from("go");
        let budget_ms = match clock {
            Some(tc) => {
                let [white, black] = clocks.map(|c| c.max(0));
                go.push_str(&format!(
                    " wtime {white} btime {black} winc {} binc {}",
                    tc.inc_ms, tc.inc_ms
                ));
                if let Some(period) = tc.moves {
                    go.push_str(&format!(" movestogo {}", period - own_moves[us] % period));
                }
                clocks[us].max(0) as u64 + limits.timeout_margin_ms
            }
            None => limits.movetime.unwrap_or(0) + limits.move_timeout_ms,
        };
        go.push_str(&limits.go_limits());

        let process = engine.process.as_mut().expect("prepared");
        let sent = process.send(&position_command(&opening.start, &moves));
        let started = Instant::now();
        let sent = sent.and_then(|()| process.send(&go));
        if let Err(e) = sent {
            let reason = engine.lost(&e, during, budget_ms);
            return forfeit(side, reason, moves, plies);
        }
        let deadline = started + Duration::from_millis(budget_ms);
        let line = loop {
            match process.recv_until(deadline, "bestmove") {
                Ok(line) if line.split_whitespace().next() == Some("bestmove") => break line,
                Ok(line) => {
                    if line.starts_with("info string error") {
                        log::warn!("{}: {line}", engine.spec.name);
                    }
                }
                Err(e) => {
                    let reason = engine.lost(&e, during, budget_ms);
                    return forfeit(side, reason, moves, plies);
                }
            }
        };
        let used_ms = started.elapsed().as_millis() as u64;

        if let Some(tc) = clock {
            let had_ms = clocks[us].max(0) as u64;
            clocks[us] -= used_ms as i64;
            if clocks[us] < 0 {
                let reason = Forfeit::LostOnTime {
                    used_ms,
                    had_ms,
                    move_number,
                };
                return forfeit(side, reason, moves, plies);
            }
            own_moves[us] += 1;
            clocks[us] += tc.inc_ms as i64;
            if let Some(period) = tc.moves
                && own_moves[us] % period == 0
            {
                clocks[us] += tc.base_ms as i64;
            }
        }
        match read_bestmove(&line, &pos) {
            Ok(mv) => {
                pos.play(mv);
                moves.push(mv);
                plies += 1;
            }
            Err(reason) => return forfeit(side, reason, moves, plies),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_commands() {
        let start = Position::startpos();
        assert_eq!(position_command(&start, &[]), "position startpos");
        let moves = [Move::from_number(6).unwrap(), Move::from_number(1).unwrap()];
        assert_eq!(
            position_command(&start, &moves),
            "position startpos moves 6 1"
        );
        let mut after = start;
        after.play(moves[0]);
        assert_eq!(
            position_command(&after, &moves[1..]),
            format!("position fen {} moves 1", tfen::write(&after))
        );
    }

    #[test]
    fn bestmove_lines_are_checked() {
        let pos = Position::startpos();
        assert_eq!(
            read_bestmove("bestmove 6 ponder 1", &pos),
            Ok(Move::from_number(6).unwrap())
        );
        for (line, detail) in [
            ("bestmove", "no move in 'bestmove'"),
            ("bestmove 0000", "no move, but the game goes on"),
            ("bestmove 10", "not a hole 1-9"),
            ("bestmove e2e4", "not a hole 1-9"),
        ] {
            match read_bestmove(line, &pos) {
                Err(Forfeit::IllegalMove { detail: d, .. }) => assert_eq!(d, detail),
                other => panic!("{line}: {other:?}"),
            }
        }
        // South's hole 1 is empty here.
        let pos = tfen::parse("5S,5S,5S,5S,5S,5S,5S,5S,1/1,1S,1S,1S,5 60 59 S 1").unwrap();
        let forfeit = read_bestmove("bestmove 1", &pos).unwrap_err();
        assert_eq!(
            forfeit.describe("x"),
            "illegal move '1' by x at move 1 (hole 1 is empty)"
        );
    }
}
