//! A hole number as a person types it or a protocol line carries it: one
//! digit `1`..`9`, the mover's hole counted from the mover's left. The one
//! reader of a move token.

use tuzdyk_rules::{HOLES, Move};

use crate::excerpt;

/// Why a token is not a hole number.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HoleError {
    #[error("there is no hole {0}: holes are 1 to 9")]
    OutOfRange(i64),
    #[error("'{0}' is not a hole number 1-9")]
    Malformed(String),
}

/// Reads a hole number: exactly one digit `1`..`9`.
///
/// ```
/// use tuzdyk_notation::hole::{self, HoleError};
///
/// assert_eq!(hole::parse("6").unwrap().number(), 6);
/// assert_eq!(hole::parse("12"), Err(HoleError::OutOfRange(12)));
/// assert!(hole::parse("06").is_err() && hole::parse("x").is_err());
/// ```
///
/// # Errors
/// [`HoleError::OutOfRange`] for a whole number outside 1..9 (`0`, `12`,
/// `-3`), [`HoleError::Malformed`] for anything else (`x`, `5x`, `05`).
pub fn parse(token: &str) -> Result<Move, HoleError> {
    if let [digit @ b'1'..=b'9'] = token.as_bytes() {
        return Ok(Move::from_index((digit - b'1') as usize));
    }
    match token.parse::<i64>() {
        Ok(n) if !(1..=HOLES as i64).contains(&n) => Err(HoleError::OutOfRange(n)),
        _ => Err(HoleError::Malformed(excerpt(token))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hole_and_the_near_misses() {
        for n in 1..=9u32 {
            assert_eq!(parse(&n.to_string()), Ok(Move::from_number(n).unwrap()));
        }
        for (token, error) in [
            ("0", HoleError::OutOfRange(0)),
            ("10", HoleError::OutOfRange(10)),
            ("-3", HoleError::OutOfRange(-3)),
            ("+5", HoleError::Malformed("+5".into())),
            ("05", HoleError::Malformed("05".into())),
            ("5x", HoleError::Malformed("5x".into())),
            ("", HoleError::Malformed(String::new())),
        ] {
            assert_eq!(parse(token), Err(error), "'{token}'");
        }
    }
}
