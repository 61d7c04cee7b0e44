//! What a search says on the wire: `info` lines with their scores and
//! principal variations, and the `bestmove` line. One type for each, written
//! by the engine and read back by clients.

use std::fmt;
use std::str::FromStr;

use tuzdyk_notation::{excerpt, hole};
use tuzdyk_rules::Move;

/// A score as the protocol reports it, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// `cp <n>`: 100 per stone of expected final kazan difference.
    Centistones(i32),
    /// `mate <n>`: a forced win with the side to move's `n`-th move, or,
    /// negative, a forced loss after its own `-n`-th move (0: already lost).
    Mate(i32),
}

impl Score {
    /// The score of the move that led here, from the mover's view (the
    /// position's score is the opponent's).
    ///
    /// ```
    /// use tuzdyk_protocol::Score;
    ///
    /// assert_eq!(Score::Centistones(120).negate(), Score::Centistones(-120));
    /// assert_eq!(Score::Mate(2).negate(), Score::Mate(-2));
    /// assert_eq!(Score::Mate(-2).negate(), Score::Mate(3));
    /// assert_eq!(Score::Mate(0).negate(), Score::Mate(1));
    /// ```
    pub fn negate(self) -> Score {
        match self {
            Score::Centistones(cp) => Score::Centistones(-cp),
            // The opponent wins in n of its moves: the mover loses in n.
            Score::Mate(n) if n > 0 => Score::Mate(-n),
            // The opponent loses in n of its moves: the mover wins in n + 1.
            Score::Mate(n) => Score::Mate(-n + 1),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Centistones(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// A score that is only a bound (an aspiration window failed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// `lowerbound`: the score is at least this.
    Lower,
    /// `upperbound`: the score is at most this.
    Upper,
}

/// An `info` line. The engine fills every field; a line read from another
/// engine may lack some.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoLine {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    /// 1-based line number (MultiPV); absent means 1.
    pub multipv: Option<usize>,
    pub score: Option<Score>,
    pub bound: Option<Bound>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    pub time_ms: Option<u64>,
    pub pv: Vec<Move>,
}

impl InfoLine {
    /// Reads an `info` line; `None` for `info string` and other lines. A
    /// field that does not parse is left out; the `pv` ends at the first
    /// token that is not a hole number.
    ///
    /// ```
    /// use tuzdyk_protocol::{InfoLine, Score};
    ///
    /// let line = "info depth 7 multipv 2 score cp -35 nodes 1234 time 12 pv 3 9 1";
    /// let info = InfoLine::parse(line).unwrap();
    /// assert_eq!(info.score, Some(Score::Centistones(-35)));
    /// assert_eq!(info.pv.len(), 3);
    /// assert_eq!(info.to_string(), line);
    /// ```
    pub fn parse(line: &str) -> Option<InfoLine> {
        let mut tokens = line.split_whitespace();
        if tokens.next() != Some("info") {
            return None;
        }
        let tokens: Vec<&str> = tokens.collect();
        if tokens.first() == Some(&"string") {
            return None;
        }
        let mut info = InfoLine::default();
        let mut i = 0;
        while i < tokens.len() {
            let next = tokens.get(i + 1).copied();
            let mut step = 2;
            match tokens[i] {
                "depth" => info.depth = number(next),
                "seldepth" => info.seldepth = number(next),
                "multipv" => info.multipv = number(next),
                "nodes" => info.nodes = number(next),
                "nps" => info.nps = number(next),
                "hashfull" => info.hashfull = number(next),
                "time" => info.time_ms = number(next),
                "score" => {
                    let value = tokens.get(i + 2).and_then(|t| t.parse::<i32>().ok());
                    info.score = match (next, value) {
                        (Some("cp"), Some(v)) => Some(Score::Centistones(v)),
                        (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                        _ => None,
                    };
                    step = 3;
                }
                "lowerbound" => (info.bound, step) = (Some(Bound::Lower), 1),
                "upperbound" => (info.bound, step) = (Some(Bound::Upper), 1),
                "pv" => {
                    info.pv = tokens[i + 1..]
                        .iter()
                        .map_while(|t| hole::parse(t).ok())
                        .collect();
                    break;
                }
                _ => step = 1,
            }
            i += step;
        }
        Some(info)
    }

    /// The line number, 1 when not given.
    pub fn line_number(&self) -> usize {
        self.multipv.unwrap_or(1).max(1)
    }
}

/// A number token, if there is one and it parses.
fn number<T: FromStr>(token: Option<&str>) -> Option<T> {
    token.and_then(|t| t.parse().ok())
}

impl fmt::Display for InfoLine {
    /// The fields present, in protocol.md's order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let numbers = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(|n| n as u64)),
        ];
        for (name, value) in numbers {
            if let Some(value) = value {
                write!(f, " {name} {value}")?;
            }
        }
        if let Some(score) = self.score {
            write!(f, " score {score}")?;
        }
        match self.bound {
            Some(Bound::Lower) => f.write_str(" lowerbound")?,
            Some(Bound::Upper) => f.write_str(" upperbound")?,
            None => {}
        }
        let numbers = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("hashfull", self.hashfull.map(u64::from)),
            ("time", self.time_ms),
        ];
        for (name, value) in numbers {
            if let Some(value) = value {
                write!(f, " {name} {value}")?;
            }
        }
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for mv in &self.pv {
                write!(f, " {mv}")?;
            }
        }
        Ok(())
    }
}

/// The `bestmove` line: the move (`None` is `0000`, the game is over) and
/// the expected reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BestMove {
    pub mv: Option<Move>,
    pub ponder: Option<Move>,
}

/// Why a `bestmove` line does not name a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BestMoveError {
    #[error("not a bestmove line: '{0}'")]
    NotBestMove(String),
    #[error("no move in '{0}'")]
    Missing(String),
    #[error("'{0}' is not a hole 1-9")]
    Malformed(String),
}

impl FromStr for BestMove {
    type Err = BestMoveError;

    /// `bestmove <m> [ponder <m>]`, `<m>` a hole or `0000`. A malformed
    /// ponder move is ignored (it is only a hint).
    fn from_str(line: &str) -> Result<BestMove, BestMoveError> {
        let mut tokens = line.split_whitespace();
        if tokens.next() != Some("bestmove") {
            return Err(BestMoveError::NotBestMove(excerpt(line)));
        }
        let mv = match tokens.next() {
            None => return Err(BestMoveError::Missing(excerpt(line.trim()))),
            Some("0000") => None,
            Some(token) => {
                Some(hole::parse(token).map_err(|_| BestMoveError::Malformed(excerpt(token)))?)
            }
        };
        let ponder = match (tokens.next(), tokens.next()) {
            (Some("ponder"), Some(token)) => hole::parse(token).ok(),
            _ => None,
        };
        Ok(BestMove { mv, ponder })
    }
}

impl fmt::Display for BestMove {
    /// `bestmove 6 ponder 9`, `bestmove 0000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mv {
            Some(mv) => write!(f, "bestmove {mv}")?,
            None => f.write_str("bestmove 0000")?,
        }
        if let Some(ponder) = self.ponder {
            write!(f, " ponder {ponder}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(n: u32) -> Move {
        Move::from_number(n).unwrap()
    }

    #[test]
    fn info_lines_parse_and_round_trip() {
        let line = "info depth 7 seldepth 9 multipv 2 score cp -35 lowerbound nodes 1234 nps 5 hashfull 0 time 12 pv 3 9 1";
        let info = InfoLine::parse(line).unwrap();
        assert_eq!(info.depth, Some(7));
        assert_eq!(info.seldepth, Some(9));
        assert_eq!(info.multipv, Some(2));
        assert_eq!(info.score, Some(Score::Centistones(-35)));
        assert_eq!(info.bound, Some(Bound::Lower));
        assert_eq!(info.nodes, Some(1234));
        assert_eq!(info.hashfull, Some(0));
        assert_eq!(info.pv, vec![mv(3), mv(9), mv(1)]);
        assert_eq!(info.to_string(), line);
        let mate = InfoLine::parse("info depth 3 score mate -2 pv 1").unwrap();
        assert_eq!(mate.score, Some(Score::Mate(-2)));
        assert_eq!(mate.line_number(), 1);
        assert_eq!(InfoLine::parse("info string hello"), None);
        assert_eq!(InfoLine::parse("bestmove 1"), None);
    }

    #[test]
    fn bestmove_lines_parse_and_round_trip() {
        let best: BestMove = "bestmove 6 ponder 1".parse().unwrap();
        assert_eq!((best.mv, best.ponder), (Some(mv(6)), Some(mv(1))));
        assert_eq!(best.to_string(), "bestmove 6 ponder 1");
        let over: BestMove = "bestmove 0000".parse().unwrap();
        assert_eq!(over.mv, None);
        assert_eq!(over.to_string(), "bestmove 0000");
        for (line, error) in [
            ("bestmove", BestMoveError::Missing("bestmove".into())),
            ("bestmove 10", BestMoveError::Malformed("10".into())),
            ("bestmove e2e4", BestMoveError::Malformed("e2e4".into())),
            (
                "info depth 1",
                BestMoveError::NotBestMove("info depth 1".into()),
            ),
        ] {
            assert_eq!(line.parse::<BestMove>(), Err(error), "{line}");
        }
    }
}
