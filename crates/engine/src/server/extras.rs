//! The commands beyond UCI: the UGI queries, and the tools for GUIs and
//! people (`d`, `fen`, `moves`, `eval`, `perft`, `bench`).

use std::time::Instant;

use tuzdyk_notation::record::result_text;
use tuzdyk_notation::{diagram, tfen};
use tuzdyk_protocol::Query;
use tuzdyk_rules::{GameResult, Side, perft};
use tuzdyk_search::eval::Evaluator;
use tuzdyk_search::eval::classic::FEATURE_NAMES;

use super::Session;
use crate::bench;

/// The lines of `help`, one per group of commands (protocol.md has them all).
pub const HELP: [&str; 6] = [
    "commands (protocol.md), one a line:",
    "handshake: uci, ugi, isready, ucinewgame, setoption name <name> [value <value>], debug on|off",
    "play: position startpos|fen <TFEN> [moves <m>...], go [depth <d>] [nodes <n>] [movetime <ms>] [wtime <ms> btime <ms> ...] [infinite], stop, ponderhit",
    "questions: query gameover|p1turn|result",
    "for people: d (the board), fen, moves, eval, perft <depth>, bench [depth], help",
    "quit (or end of input) leaves",
];

impl Session {
    pub(super) fn query(&self, query: Query) {
        let position = self.engine.position();
        let answer = match query {
            Query::GameOver => position.game_over().is_some().to_string(),
            Query::P1Turn => (position.side_to_move() == Side::White).to_string(),
            Query::Result => match position.result() {
                Some(GameResult::Win(Side::White)) => "p1win".to_string(),
                Some(GameResult::Win(Side::Black)) => "p2win".to_string(),
                Some(GameResult::Draw) => "draw".to_string(),
                None => "none".to_string(),
            },
        };
        self.out.line(&format!("response {answer}"));
    }

    pub(super) fn display(&self) {
        let position = self.engine.position();
        for line in diagram::board(position).lines() {
            self.out.line(line);
        }
        self.out.line(&format!("fen {}", tfen::write(position)));
        self.out.line(&format!("key {:016x}", position.key()));
    }

    pub(super) fn fen(&self) {
        self.out
            .line(&format!("fen {}", tfen::write(self.engine.position())));
    }

    /// For each legal move: stones sown, where the last one lands and what
    /// the move takes (what a GUI highlights when a player holds a hole).
    pub(super) fn list_moves(&self) {
        let position = self.engine.position();
        if let Some(result) = position.result() {
            self.out.info_string(&format!(
                "no legal moves: the game is over ({})",
                result_text(Some(result))
            ));
            return;
        }
        let us = position.side_to_move();
        for mv in position.legal_moves() {
            let mut after = *position;
            let outcome = after.play(mv);
            let landing = outcome.landing_hole();
            self.out.line(&format!(
                "move {mv} sows {} lands {}{} captures {} tuzdik {} kazan {}",
                position.stones(us, mv.index()),
                tfen::side_letter(landing.side),
                landing.number,
                outcome.captured,
                if outcome.tuzdik { "yes" } else { "no" },
                after.kazan(us),
            ));
        }
    }

    /// The hand-written evaluation's terms, then the network's score when
    /// the network evaluates.
    pub(super) fn show_eval(&self) {
        let evaluation = self.engine.classic_evaluation();
        for (i, name) in FEATURE_NAMES.iter().enumerate() {
            self.out.line(&format!(
                "eval term {name} value {} cp {}",
                evaluation.features[i], evaluation.terms[i]
            ));
        }
        self.out.line(&format!(
            "eval phase {} total cp {}",
            evaluation.phase, evaluation.score
        ));
        if let Evaluator::Network(network) = self.engine.evaluator() {
            self.out.line(&format!(
                "eval network {} total cp {}",
                network.id(),
                network.evaluate(self.engine.position())
            ));
        }
    }

    pub(super) fn perft(&self, depth: u32) {
        let position = *self.engine.position();
        let started = Instant::now();
        let split = perft::divide(&position, depth);
        let nodes: u64 = split.iter().map(|(_, n)| n).sum();
        for (mv, n) in split {
            self.out.line(&format!("{mv} {n}"));
        }
        let elapsed = started.elapsed();
        self.out.line(&format!(
            "depth {depth} nodes {nodes} time {} nps {}",
            elapsed.as_millis(),
            (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64
        ));
    }

    /// `help`: the commands, as `info string` lines (a GUI ignores them).
    pub(super) fn help(&self) {
        for line in HELP {
            self.out.info_string(line);
        }
    }

    pub(super) fn bench(&self, depth: Option<u32>) {
        // Positions after the output has closed would be searched for nobody.
        let report = bench::run(depth.unwrap_or(bench::DEFAULT_DEPTH), |line| {
            self.out.line(&line.to_string());
            if self.out.is_closed() {
                Err(())
            } else {
                Ok(())
            }
        });
        if let Ok(report) = report {
            self.out
                .line(&format!("{} nodes {} nps", report.nodes, report.nps()));
        }
    }
}
