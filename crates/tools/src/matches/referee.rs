//! One game between two engine processes, refereed.
//!
//! The referee keeps the game and the clocks itself. It sends each engine
//! `position ... moves ...` and `go`, times it from writing `go` to reading
//! `bestmove`, and checks the move. An engine loses the game when it plays
//! an illegal or malformed move, when its process ends (crash), when it
//! gives no `bestmove` well past its deadline (hang; the process is killed
//! and started again for the next game), or when its clock goes below zero
//! (loss on time). Games otherwise end by the rules, or are adjudicated a
//! draw after `GameLimits::max_plies` plies.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tuzdyk_protocol::client::position_line;
use tuzdyk_protocol::{ClientError, EngineProcess, EngineSpec, Go};
use tuzdyk_rules::{Game, GameEnd, GameResult, Move, Side};

use super::config::{GameLimits, TimeControl};
use super::openings::Opening;

/// The kinds of forfeit, for counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForfeitKind {
    IllegalMove,
    Crash,
    Hang,
    TimeForfeit,
    StartFailure,
}

impl ForfeitKind {
    /// Every kind, in report order.
    pub const ALL: [ForfeitKind; 5] = [
        ForfeitKind::IllegalMove,
        ForfeitKind::Crash,
        ForfeitKind::Hang,
        ForfeitKind::TimeForfeit,
        ForfeitKind::StartFailure,
    ];

    /// The kind's name in reports (snake case for JSON).
    pub const fn name(self) -> &'static str {
        match self {
            ForfeitKind::IllegalMove => "illegal_move",
            ForfeitKind::Crash => "crash",
            ForfeitKind::Hang => "hang",
            ForfeitKind::TimeForfeit => "time_forfeit",
            ForfeitKind::StartFailure => "start_failure",
        }
    }
}

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
    pub fn kind(&self) -> ForfeitKind {
        match self {
            Forfeit::IllegalMove { .. } => ForfeitKind::IllegalMove,
            Forfeit::Crashed { .. } => ForfeitKind::Crash,
            Forfeit::Hung { .. } => ForfeitKind::Hang,
            Forfeit::LostOnTime { .. } => ForfeitKind::TimeForfeit,
            Forfeit::StartFailed { .. } => ForfeitKind::StartFailure,
        }
    }

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

/// The first engine's points from a game's `result` when engine `white`
/// (0 or 1) played White: 2 for a win, 1 for a draw, 0 for a loss.
pub fn first_engine_points(result: GameResult, white: usize) -> u8 {
    match result {
        GameResult::Draw => 1,
        GameResult::Win(Side::White) => 2 * u8::from(white == 0),
        GameResult::Win(Side::Black) => 2 * u8::from(white == 1),
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
    /// From the opening's start: the opening's moves, then the moves played.
    pub game: Game,
    /// By engine: the least time it had left after one of its moves
    /// (before the increment), when the game had clocks and it moved.
    pub closest_to_flag_ms: [Option<u64>; 2],
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
        first_engine_points(self.result, self.white)
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
pub struct Player {
    pub spec: EngineSpec,
    process: Option<EngineProcess>,
}

/// Why an engine could not be used.
enum Failure {
    /// The program cannot be run at all: the match cannot go on.
    Fatal(String),
    /// The engine loses the game.
    Forfeit(Forfeit),
}

impl Player {
    pub fn new(spec: EngineSpec) -> Player {
        Player {
            spec,
            process: None,
        }
    }

    /// Makes the engine ready for a new game: started if needed (with the
    /// handshake), then `ucinewgame` and `isready` ... `readyok`.
    fn prepare(&mut self, limits: &GameLimits) -> Result<&mut EngineProcess, Failure> {
        let timeout = Duration::from_millis(limits.ready_timeout_ms);
        if self.process.is_none() {
            // A program that cannot be run at all stops the match; one
            // that runs but fails the handshake loses the game.
            match EngineProcess::launch(&self.spec, timeout) {
                Ok((process, _)) => self.process = Some(process),
                Err(e @ ClientError::Start { .. }) => return Err(Failure::Fatal(e.to_string())),
                Err(e) => {
                    let reason = e.to_string();
                    return Err(Failure::Forfeit(Forfeit::StartFailed { reason }));
                }
            }
        }
        let result = match self.process.as_mut() {
            Some(process) => process
                .send("ucinewgame")
                .and_then(|()| process.sync(timeout)),
            None => Err(ClientError::Exited(self.spec.name.clone())),
        };
        if let Err(e) = result {
            let during = "at the start of the game".to_string();
            return Err(Failure::Forfeit(self.lost(
                &e,
                during,
                limits.ready_timeout_ms,
            )));
        }
        self.process
            .as_mut()
            .ok_or_else(|| Failure::Fatal(format!("engine {} is not running", self.spec.name)))
    }

    /// The forfeit for a failed exchange; the process is killed and will be
    /// started again for the next game.
    fn lost(&mut self, error: &ClientError, during: String, waited_ms: u64) -> Forfeit {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        if error.is_timeout() {
            Forfeit::Hung { waited_ms, during }
        } else {
            Forfeit::Crashed { during }
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

/// Checks a `bestmove` line's move: the move, or the forfeit.
fn read_bestmove(line: &str, game: &Game) -> Result<Move, Forfeit> {
    let pos = game.position();
    let token = line.split_whitespace().nth(1).unwrap_or("");
    let illegal = |detail: String| Forfeit::IllegalMove {
        token: token.to_string(),
        detail,
        move_number: pos.fullmove(),
    };
    let best = line
        .parse::<tuzdyk_protocol::BestMove>()
        .map_err(|e| illegal(e.to_string()))?;
    let mv = best
        .mv
        .ok_or_else(|| illegal("no move, but the game goes on".to_string()))?;
    pos.check(mv)
        .map_err(|reason| illegal(reason.to_string()))?;
    Ok(mv)
}

/// The two clocks of a game under a time control.
struct Clocks {
    control: TimeControl,
    /// Milliseconds left, by side; below zero is a loss on time.
    left: [i64; 2],
    /// Moves each side has made, for `moves/base` periods.
    moves: [u32; 2],
    /// By side: the least time left after a move, before the increment.
    closest_to_flag_ms: [Option<u64>; 2],
}

impl Clocks {
    fn new(control: TimeControl) -> Clocks {
        Clocks {
            control,
            left: [control.base_ms as i64; 2],
            moves: [0; 2],
            closest_to_flag_ms: [None; 2],
        }
    }

    /// Adds the clocks to `go`.
    fn fill(&self, go: &mut Go, side: Side) {
        let increment = Duration::from_millis(self.control.inc_ms);
        go.clock.time = self
            .left
            .map(|ms| Some(Duration::from_millis(ms.max(0) as u64)));
        go.clock.increment = [increment; 2];
        go.clock.moves_to_go = self
            .control
            .moves
            .map(|period| period - self.moves[side.index()] % period);
    }

    /// Charges `used_ms` to `side`; the time it had if that made it lose.
    fn charge(&mut self, side: Side, used_ms: u64) -> Result<(), u64> {
        let us = side.index();
        let had_ms = self.left[us].max(0) as u64;
        self.left[us] -= used_ms as i64;
        if self.left[us] < 0 {
            return Err(had_ms);
        }
        let left_ms = self.left[us] as u64;
        let closest = &mut self.closest_to_flag_ms[us];
        *closest = Some(closest.map_or(left_ms, |ms| ms.min(left_ms)));
        self.moves[us] += 1;
        self.left[us] += self.control.inc_ms as i64;
        if let Some(period) = self.control.moves
            && self.moves[us].is_multiple_of(period)
        {
            self.left[us] += self.control.base_ms as i64;
        }
        Ok(())
    }
}

/// A game being played.
struct Table<'a> {
    spec: &'a GameSpec<'a>,
    limits: &'a GameLimits,
    game: Game,
    plies: usize,
    clocks: Option<Clocks>,
}

impl Table<'_> {
    fn engine_of(&self, side: Side) -> usize {
        if side == Side::White {
            self.spec.white
        } else {
            1 - self.spec.white
        }
    }

    fn finish(self, result: GameResult, termination: Termination) -> GameOutcome {
        let by_side = self
            .clocks
            .as_ref()
            .map_or([None; 2], |clocks| clocks.closest_to_flag_ms);
        let mut closest_to_flag_ms = [None; 2];
        for side in Side::BOTH {
            closest_to_flag_ms[self.engine_of(side)] = by_side[side.index()];
        }
        GameOutcome {
            closest_to_flag_ms,
            number: self.spec.number,
            white: self.spec.white,
            result,
            termination,
            game: self.game,
        }
    }

    fn forfeit(self, loser: Side, forfeit: Forfeit) -> GameOutcome {
        self.finish(
            GameResult::Win(loser.opponent()),
            Termination::Forfeit { loser, forfeit },
        )
    }

    /// Asks the side to move's engine for its move and plays it.
    fn play_move(&mut self, player: &mut Player) -> Result<(), Forfeit> {
        let side = self.game.position().side_to_move();
        let move_number = self.game.position().fullmove();
        let during = format!("at move {move_number}");
        let mut go = self.limits.go();
        let budget_ms = match &self.clocks {
            Some(clocks) => {
                clocks.fill(&mut go, side);
                clocks.left[side.index()].max(0) as u64 + self.limits.timeout_margin_ms
            }
            None => self.limits.search.movetime.unwrap_or(0) + self.limits.move_timeout_ms,
        };
        let Some(process) = player.process.as_mut() else {
            return Err(Forfeit::Crashed { during });
        };
        let sent = process.send(&position_line(self.game.start(), self.game.moves()));
        let started = Instant::now();
        let sent = sent.and_then(|()| process.send(&go.to_string()));
        let deadline = started + Duration::from_millis(budget_ms);
        let line = sent.and_then(|()| {
            loop {
                let line = process.recv_until(deadline, "bestmove")?;
                if line.split_whitespace().next() == Some("bestmove") {
                    break Ok(line);
                }
                if line.starts_with("info string error") {
                    log::warn!("{}: {line}", player.spec.name);
                }
            }
        });
        let line = line.map_err(|e| player.lost(&e, during, budget_ms))?;
        let used_ms = started.elapsed().as_millis() as u64;
        if let Some(clocks) = &mut self.clocks {
            clocks
                .charge(side, used_ms)
                .map_err(|had_ms| Forfeit::LostOnTime {
                    used_ms,
                    had_ms,
                    move_number,
                })?;
        }
        let mv = read_bestmove(&line, &self.game)?;
        self.game.play(mv).map_err(|reason| Forfeit::IllegalMove {
            token: mv.to_string(),
            detail: reason.to_string(),
            move_number,
        })?;
        self.plies += 1;
        Ok(())
    }
}

/// Plays one game. `Ok(None)` when `stop` was raised before the game ended
/// (the game does not count); `Err` when an engine's program cannot be run.
pub fn play_game(
    players: &mut [Player; 2],
    spec: &GameSpec,
    limits: &GameLimits,
    stop: &AtomicBool,
) -> Result<Option<GameOutcome>, String> {
    let mut table = Table {
        spec,
        limits,
        game: spec.opening.game.clone(),
        plies: 0,
        clocks: limits.clock.map(Clocks::new),
    };
    for side in Side::BOTH {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        match players[table.engine_of(side)].prepare(limits) {
            Ok(_) => {}
            Err(Failure::Fatal(message)) => return Err(message),
            Err(Failure::Forfeit(reason)) => return Ok(Some(table.forfeit(side, reason))),
        }
    }
    loop {
        if let Some((result, end)) = table.game.game_over() {
            return Ok(Some(table.finish(result, Termination::Rules(end))));
        }
        if table.plies >= limits.max_plies {
            let plies = table.plies;
            return Ok(Some(
                table.finish(GameResult::Draw, Termination::Adjudicated { plies }),
            ));
        }
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let side = table.game.position().side_to_move();
        let player = &mut players[table.engine_of(side)];
        if let Err(forfeit) = table.play_move(player) {
            return Ok(Some(table.forfeit(side, forfeit)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tuzdyk_notation::tfen;
    use tuzdyk_rules::Position;

    #[test]
    fn bestmove_lines_are_checked() {
        let game = Game::new(Position::startpos());
        assert_eq!(
            read_bestmove("bestmove 6 ponder 1", &game),
            Ok(Move::from_number(6).unwrap())
        );
        for (line, detail) in [
            ("bestmove", "no move in 'bestmove'"),
            ("bestmove 0000", "no move, but the game goes on"),
            ("bestmove 10", "'10' is not a hole 1-9"),
            ("bestmove e2e4", "'e2e4' is not a hole 1-9"),
        ] {
            match read_bestmove(line, &game) {
                Err(Forfeit::IllegalMove { detail: d, .. }) => assert_eq!(d, detail),
                other => panic!("{line}: {other:?}"),
            }
        }
        // South's hole 1 is empty here.
        let pos = tfen::parse("5S,5S,5S,5S,5S,5S,5S,5S,1/1,1S,1S,1S,5 60 59 S 1").unwrap();
        let forfeit = read_bestmove("bestmove 1", &Game::new(pos)).unwrap_err();
        assert_eq!(
            forfeit.describe("x"),
            "illegal move '1' by x at move 1 (hole 1 is empty)"
        );
    }

    #[test]
    fn clocks_charge_add_the_increment_and_give_periods_back() {
        let control = TimeControl {
            moves: Some(2),
            base_ms: 1000,
            inc_ms: 10,
        };
        let mut clocks = Clocks::new(control);
        let mut go = Go::default();
        clocks.fill(&mut go, Side::White);
        assert_eq!(go.clock.moves_to_go, Some(2));
        assert_eq!(clocks.charge(Side::White, 400), Ok(()));
        assert_eq!(clocks.left[0], 610);
        assert_eq!(clocks.charge(Side::White, 100), Ok(()));
        // The period is over: the base time comes again.
        assert_eq!(clocks.left[0], 1520);
        assert_eq!(clocks.charge(Side::Black, 1001), Err(1000));
    }

    #[test]
    fn every_forfeit_kind_is_counted_once() {
        let names: std::collections::HashSet<&str> =
            ForfeitKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(names.len(), ForfeitKind::ALL.len());
    }
}
