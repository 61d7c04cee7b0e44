//! The training record: one position, its search score and its game's
//! outcome in 32 bytes, little-endian, with no file header, so files of
//! records (shards) concatenate into one.
//!
//! | bytes | field |
//! |---|---|
//! | 0..18 | stones in each hole, `u8`: White's holes 1..9, then Black's 1..9 |
//! | 18, 19 | White's kazan, Black's kazan, `u8` |
//! | 20, 21 | White's tuzdik, Black's tuzdik: the opponent's hole 0..7 it stands on (hole number minus 1), or 255 for none |
//! | 22 | side to move: 0 White, 1 Black |
//! | 23 | the game's result from White's view: 0 Black won, 1 draw, 2 White won |
//! | 24..26 | search score from the side to move's view, `i16` centi-stones (100 = one stone) |
//! | 26, 27 | stones White and Black finished with, `u8` (see [`Record::final_count`]) |
//! | 28..30 | ply: plies since the start position, `u16` (even: White to move) |
//! | 30 | the searched best move: the mover's hole 0..8 (hole number minus 1) |
//! | 31 | flags: bit 0, the game was adjudicated a draw at the ply limit; bits 1..7 zero |
//!
//! [`Record::decode`] checks every field and that the position is one the
//! rules allow ([`Position::from_parts`]); [`Reader`] reads a stream of
//! records and names a short tail.

use std::io::{ErrorKind, Read};

use tuzdyk_rules::{
    BOARD_HOLES, GameResult, HOLES, Move, Position, PositionError, PositionParts, Side,
};

/// Bytes per record.
pub const RECORD_SIZE: usize = 32;

/// The tuzdik byte of a side without one.
pub const NO_TUZDIK: u8 = 255;

/// Flag bit: the game was adjudicated a draw at the ply limit.
pub const FLAG_ADJUDICATED: u8 = 1;

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position (its full-move number follows from [`Record::ply`]).
    pub position: Position,
    /// The search score from the side to move's view, in centi-stones.
    pub score: i16,
    /// The game's result.
    pub result: GameResult,
    /// The stones each side finished with, `[White, Black]`: its kazan when
    /// a kazan reached 82, else its kazan plus the stones swept into it; for
    /// an adjudicated game each kazan plus the stones on its side then.
    pub final_count: [u8; 2],
    /// The move the search chose here.
    pub best: Move,
    /// The game was stopped at the ply limit and called a draw.
    pub adjudicated: bool,
}

/// Why 32 bytes are not a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("side to move byte {0} is neither 0 (White) nor 1 (Black)")]
    SideToMove(u8),
    #[error("side to move {side} does not match ply {ply}")]
    SideAndPly { side: Side, ply: u16 },
    #[error("{side}'s tuzdik byte {byte} is neither a hole 0..7 nor 255 (none)")]
    Tuzdik { side: Side, byte: u8 },
    #[error("result byte {0} is not 0, 1 or 2")]
    Result(u8),
    #[error("best move byte {0} is not a hole 0..8")]
    BestMove(u8),
    #[error("best move {0} is not legal in the position")]
    IllegalBestMove(Move),
    #[error("flags byte {0:#04x} has bits other than bit 0 set")]
    Flags(u8),
    #[error("final count {0}-{1} makes more than 162 stones")]
    FinalCount(u8, u8),
    #[error("the position is not legal: {0}")]
    Position(#[from] PositionError),
}

impl Record {
    /// Plies since the start position.
    pub fn ply(&self) -> u16 {
        self.position.ply().min(u16::MAX as u32) as u16
    }

    /// The 32 bytes of this record.
    pub fn encode(&self) -> [u8; RECORD_SIZE] {
        let parts = self.position.parts();
        let mut bytes = [0u8; RECORD_SIZE];
        bytes[..BOARD_HOLES].copy_from_slice(&parts.holes);
        bytes[18..20].copy_from_slice(&parts.kazans);
        for side in Side::BOTH {
            bytes[20 + side.index()] = parts.tuzdiks[side.index()].unwrap_or(NO_TUZDIK);
        }
        bytes[22] = parts.side_to_move.index() as u8;
        bytes[23] = result_byte(self.result);
        bytes[24..26].copy_from_slice(&self.score.to_le_bytes());
        bytes[26..28].copy_from_slice(&self.final_count);
        bytes[28..30].copy_from_slice(&self.ply().to_le_bytes());
        bytes[30] = self.best.index() as u8;
        bytes[31] = if self.adjudicated {
            FLAG_ADJUDICATED
        } else {
            0
        };
        bytes
    }

    /// The record in `bytes`, checked field by field.
    ///
    /// # Errors
    /// [`RecordError`] names the first field that is out of range, or why
    /// the position is not one the rules allow.
    pub fn decode(bytes: &[u8; RECORD_SIZE]) -> Result<Record, RecordError> {
        let side_to_move = match bytes[22] {
            0 => Side::White,
            1 => Side::Black,
            other => return Err(RecordError::SideToMove(other)),
        };
        let ply = u16::from_le_bytes([bytes[28], bytes[29]]);
        if ply % 2 != side_to_move.index() as u16 {
            return Err(RecordError::SideAndPly {
                side: side_to_move,
                ply,
            });
        }
        let mut tuzdiks = [None; 2];
        for side in Side::BOTH {
            tuzdiks[side.index()] = match bytes[20 + side.index()] {
                NO_TUZDIK => None,
                hole if (hole as usize) < HOLES - 1 => Some(hole),
                byte => return Err(RecordError::Tuzdik { side, byte }),
            };
        }
        let mut holes = [0u8; BOARD_HOLES];
        holes.copy_from_slice(&bytes[..BOARD_HOLES]);
        let position = Position::from_parts(PositionParts {
            holes,
            kazans: [bytes[18], bytes[19]],
            tuzdiks,
            side_to_move,
            fullmove: ply / 2 + 1,
        })?;
        let best = match bytes[30] {
            hole if (hole as usize) < HOLES => Move::from_index(hole as usize),
            other => return Err(RecordError::BestMove(other)),
        };
        if !position.is_legal(best) {
            return Err(RecordError::IllegalBestMove(best));
        }
        let final_count = [bytes[26], bytes[27]];
        if u32::from(final_count[0]) + u32::from(final_count[1]) > tuzdyk_rules::TOTAL_STONES {
            return Err(RecordError::FinalCount(final_count[0], final_count[1]));
        }
        if bytes[31] & !FLAG_ADJUDICATED != 0 {
            return Err(RecordError::Flags(bytes[31]));
        }
        Ok(Record {
            position,
            score: i16::from_le_bytes([bytes[24], bytes[25]]),
            result: decode_result(bytes[23])?,
            final_count,
            best,
            adjudicated: bytes[31] & FLAG_ADJUDICATED != 0,
        })
    }
}

fn result_byte(result: GameResult) -> u8 {
    match result {
        GameResult::Win(Side::Black) => 0,
        GameResult::Draw => 1,
        GameResult::Win(Side::White) => 2,
    }
}

fn decode_result(byte: u8) -> Result<GameResult, RecordError> {
    match byte {
        0 => Ok(GameResult::Win(Side::Black)),
        1 => Ok(GameResult::Draw),
        2 => Ok(GameResult::Win(Side::White)),
        other => Err(RecordError::Result(other)),
    }
}

/// Why a stream of records could not be read. Records are counted from 0.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("record {index} (byte {}): {error}", .index * RECORD_SIZE as u64)]
    Bad { index: u64, error: RecordError },
    #[error(
        "the data ends {bytes} bytes into record {index}: not a whole number of {RECORD_SIZE}-byte records"
    )]
    Truncated { index: u64, bytes: usize },
    #[error("cannot read record {index}: {error}")]
    Io { index: u64, error: std::io::Error },
}

/// Reads records one by one from a byte stream; an iterator of
/// `Result<Record, ReadError>` that stops after the first error.
pub struct Reader<R> {
    input: R,
    index: u64,
    failed: bool,
}

impl<R: Read> Reader<R> {
    pub fn new(input: R) -> Reader<R> {
        Reader {
            input,
            index: 0,
            failed: false,
        }
    }

    /// Fills `buffer`; gives how many bytes came (less at the end).
    fn fill(&mut self, buffer: &mut [u8; RECORD_SIZE]) -> std::io::Result<usize> {
        let mut filled = 0;
        while filled < RECORD_SIZE {
            match self.input.read(&mut buffer[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(filled)
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Record, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let index = self.index;
        let mut buffer = [0u8; RECORD_SIZE];
        let outcome = match self.fill(&mut buffer) {
            Ok(0) => return None,
            Ok(RECORD_SIZE) => {
                Record::decode(&buffer).map_err(|error| ReadError::Bad { index, error })
            }
            Ok(bytes) => Err(ReadError::Truncated { index, bytes }),
            Err(error) => Err(ReadError::Io { index, error }),
        };
        self.index += 1;
        self.failed = outcome.is_err();
        Some(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Record {
        let position = tuzdyk_notation::tfen::parse(
            "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 S 1",
        )
        .unwrap();
        Record {
            position,
            score: -1234,
            result: GameResult::Win(Side::Black),
            final_count: [70, 92],
            best: Move::from_index(2),
            adjudicated: false,
        }
    }

    #[test]
    fn records_round_trip() {
        let record = sample();
        let bytes = record.encode();
        assert_eq!(bytes[31], 0);
        assert_eq!(Record::decode(&bytes), Ok(record));
        let adjudicated = Record {
            adjudicated: true,
            result: GameResult::Draw,
            ..record
        };
        assert_eq!(Record::decode(&adjudicated.encode()), Ok(adjudicated));
    }

    #[test]
    fn the_layout_is_as_documented() {
        let bytes = sample().encode();
        assert_eq!(bytes[0], 9); // White's hole 1
        assert_eq!(bytes[9 + 8], 9); // Black's hole 9
        assert_eq!(&bytes[18..20], &[10, 0]);
        assert_eq!(&bytes[20..22], &[NO_TUZDIK, NO_TUZDIK]);
        assert_eq!(bytes[22], 0);
        assert_eq!(bytes[23], 0);
        assert_eq!(i16::from_le_bytes([bytes[24], bytes[25]]), -1234);
        assert_eq!(&bytes[26..28], &[70, 92]);
        assert_eq!(u16::from_le_bytes([bytes[28], bytes[29]]), 0);
        assert_eq!(bytes[30], 2);
    }

    #[test]
    fn bad_bytes_are_named() {
        let good = sample().encode();
        let bad = |at: usize, value: u8| {
            let mut bytes = good;
            bytes[at] = value;
            Record::decode(&bytes).unwrap_err().to_string()
        };
        assert_eq!(
            bad(22, 2),
            "side to move byte 2 is neither 0 (White) nor 1 (Black)"
        );
        assert!(bad(22, 1).contains("does not match ply 0"));
        assert!(
            bad(20, 8).contains("White's tuzdik byte 8"),
            "{}",
            bad(20, 8)
        );
        assert_eq!(bad(23, 3), "result byte 3 is not 0, 1 or 2");
        assert_eq!(bad(30, 9), "best move byte 9 is not a hole 0..8");
        assert_eq!(bad(31, 2), "flags byte 0x02 has bits other than bit 0 set");
        assert!(bad(0, 10).contains("not legal"));
        assert!(bad(26, 71).contains("more than 162"));
    }

    #[test]
    fn the_reader_reads_records_and_names_a_short_tail() {
        let record = sample();
        let mut data = Vec::new();
        data.extend_from_slice(&record.encode());
        data.extend_from_slice(&record.encode());
        let read: Vec<Record> = Reader::new(&data[..]).map(Result::unwrap).collect();
        assert_eq!(read, [record, record]);
        data.extend_from_slice(&[0; 5]);
        let mut reader = Reader::new(&data[..]);
        assert!(reader.next().unwrap().is_ok());
        assert!(reader.next().unwrap().is_ok());
        let error = reader.next().unwrap().unwrap_err().to_string();
        assert!(error.contains("ends 5 bytes into record 2"), "{error}");
        assert!(reader.next().is_none());
    }
}
