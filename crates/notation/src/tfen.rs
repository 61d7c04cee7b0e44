//! TFEN, the PlayStrategy position string:
//! `<North row, hole 9 down to 1>/<South row, hole 1 up to 9> <South kazan> <North kazan> <S|N> <full-move>`.
//!
//! Writing is canonical: maximal runs of empty holes become one digit.
//! Reading also accepts lower-case `s`, `n` and `T`, non-maximal runs,
//! a missing full-move number (taken as 1) and extra white space.
//!
//! ```
//! use tuzdyk_notation::tfen;
//!
//! let after = "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 1";
//! let pos = tfen::parse(after).unwrap();
//! assert_eq!(tfen::write(&pos), after);
//! assert!(tfen::parse("9S,9S/9S 0 0 S 1").is_err());
//! ```

use tuzdyk_rules::{BOARD_HOLES, HOLES, Position, PositionError, PositionParts, Side};

use crate::excerpt;

/// The TFEN of the starting position.
pub const STARTPOS: &str = "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1";

/// Why a string is not a TFEN position. Each message names the bad part.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TfenError {
    #[error("empty position string")]
    Empty,
    #[error("expected 4 or 5 fields (rows, South kazan, North kazan, side, full-move), found {0}")]
    FieldCount(usize),
    #[error("expected two rows separated by '/', found {0}")]
    RowCount(usize),
    #[error("{row} row has {holes} holes, not 9")]
    RowLength { row: &'static str, holes: usize },
    #[error("unknown token '{token}' in the {row} row (expected <k>S, a digit 1-9 or t)")]
    UnknownToken { row: &'static str, token: String },
    #[error("invalid {which} kazan '{token}' (expected a number 0-162)")]
    Kazan { which: &'static str, token: String },
    #[error("invalid side to move '{0}' (expected S or N)")]
    Side(String),
    #[error("invalid full-move number '{0}' (expected a number from 1)")]
    FullMove(String),
    #[error("two tuzdiks in the {0} row: a player owns at most one")]
    TwoTuzdiks(&'static str),
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// Reads a TFEN string.
///
/// # Errors
/// [`TfenError`], naming the field or token at fault.
pub fn parse(text: &str) -> Result<Position, TfenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return Err(TfenError::Empty);
    }
    if !(4..=5).contains(&fields.len()) {
        return Err(TfenError::FieldCount(fields.len()));
    }
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 2 {
        return Err(TfenError::RowCount(rows.len()));
    }
    let north = parse_row(rows[0], "North")?;
    let south = parse_row(rows[1], "South")?;

    let mut holes = [0u8; BOARD_HOLES];
    let mut tuzdiks = [None, None];
    // South's row is written 1..9; North's 9..1.
    for (i, cell) in south.iter().enumerate() {
        match cell {
            Cell::Stones(k) => holes[i] = *k,
            Cell::Tuzdik => tuzdiks[Side::Black.index()] = Some(i as u8),
        }
    }
    for (i, cell) in north.iter().enumerate() {
        let hole = HOLES - 1 - i;
        match cell {
            Cell::Stones(k) => holes[HOLES + hole] = *k,
            Cell::Tuzdik => tuzdiks[Side::White.index()] = Some(hole as u8),
        }
    }
    let kazan = |token: &str, which: &'static str| -> Result<u8, TfenError> {
        token
            .parse::<u8>()
            .ok()
            .filter(|&k| k <= 162)
            .ok_or_else(|| TfenError::Kazan {
                which,
                token: excerpt(token),
            })
    };
    let kazans = [kazan(fields[1], "South")?, kazan(fields[2], "North")?];
    let side_to_move = match fields[3] {
        "S" | "s" => Side::White,
        "N" | "n" => Side::Black,
        other => return Err(TfenError::Side(excerpt(other))),
    };
    let fullmove = match fields.get(4) {
        None => 1,
        Some(token) => token
            .parse::<u16>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| TfenError::FullMove(excerpt(token)))?,
    };
    Ok(Position::from_parts(PositionParts {
        holes,
        kazans,
        tuzdiks,
        side_to_move,
        fullmove,
    })?)
}

#[derive(Clone, Copy)]
enum Cell {
    Stones(u8),
    Tuzdik,
}

fn parse_row(row: &str, name: &'static str) -> Result<Vec<Cell>, TfenError> {
    let mut cells = Vec::with_capacity(HOLES);
    let mut tuzdiks = 0;
    for token in row.split(',') {
        let unknown = || TfenError::UnknownToken {
            row: name,
            token: excerpt(token),
        };
        if token == "t" || token == "T" {
            tuzdiks += 1;
            if tuzdiks > 1 {
                return Err(TfenError::TwoTuzdiks(name));
            }
            cells.push(Cell::Tuzdik);
        } else if let Some(count) = token.strip_suffix(['S', 's']) {
            let stones = parse_digits(count)
                .filter(|&k| (1..=162).contains(&k))
                .ok_or_else(unknown)?;
            cells.push(Cell::Stones(stones as u8));
        } else {
            let run = parse_digits(token)
                .filter(|&d| (1..=9).contains(&d))
                .ok_or_else(unknown)?;
            cells.extend(std::iter::repeat_n(Cell::Stones(0), run as usize));
        }
        if cells.len() > HOLES {
            break;
        }
    }
    if cells.len() != HOLES {
        return Err(TfenError::RowLength {
            row: name,
            holes: cells.len(),
        });
    }
    Ok(cells)
}

/// Digits only (no sign, no spaces), at most three of them.
fn parse_digits(text: &str) -> Option<u32> {
    if text.is_empty() || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Writes the canonical TFEN of a position.
pub fn write(position: &Position) -> String {
    let north: Vec<Option<u8>> = (0..HOLES)
        .rev()
        .map(|hole| cell(position, Side::Black, hole))
        .collect();
    let south: Vec<Option<u8>> = (0..HOLES)
        .map(|hole| cell(position, Side::White, hole))
        .collect();
    format!(
        "{}/{} {} {} {} {}",
        write_row(&north),
        write_row(&south),
        position.kazan(Side::White),
        position.kazan(Side::Black),
        side_letter(position.side_to_move()),
        position.fullmove()
    )
}

/// The letter TFEN writes for a side: `S` (South, White) or `N`.
pub const fn side_letter(side: Side) -> char {
    match side {
        Side::White => 'S',
        Side::Black => 'N',
    }
}

/// `None` for a tuzdik, else the stone count.
fn cell(position: &Position, side: Side, hole: usize) -> Option<u8> {
    if position.tuzdik(side.opponent()) == Some(hole as u8) {
        None
    } else {
        Some(position.stones(side, hole))
    }
}

fn write_row(cells: &[Option<u8>]) -> String {
    let mut tokens = Vec::with_capacity(HOLES);
    let mut empty_run = 0;
    for cell in cells {
        match cell {
            Some(0) => {
                empty_run += 1;
                continue;
            }
            _ if empty_run > 0 => {
                tokens.push(empty_run.to_string());
                empty_run = 0;
            }
            _ => {}
        }
        tokens.push(match cell {
            Some(k) => format!("{k}S"),
            None => "t".to_string(),
        });
    }
    if empty_run > 0 {
        tokens.push(empty_run.to_string());
    }
    tokens.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let pos = parse(STARTPOS).unwrap();
        assert_eq!(pos, Position::startpos());
        assert_eq!(write(&pos), STARTPOS);
    }

    #[test]
    fn reference_positions_round_trip() {
        for text in [
            "1S,1S,5S,7S,6S,18S,6S,1,t/1S,2S,20S,7S,19S,t,1S,2S,1 42 24 S 11",
            "1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 S 74",
        ] {
            assert_eq!(write(&parse(text).unwrap()), text);
        }
    }

    #[test]
    fn lenient_input_reads_as_canonical() {
        let pos =
            parse("  9s,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S   0 0  S ").unwrap();
        assert_eq!(write(&pos), STARTPOS);
        let split_runs = parse("1S,8S,1S,2S,1S,1,2,t/1,1,1,2S,1S,t,2,1S 77 68 S 74").unwrap();
        assert_eq!(
            write(&split_runs),
            "1S,8S,1S,2S,1S,3,t/3,2S,1S,t,2,1S 77 68 S 74"
        );
    }
}
