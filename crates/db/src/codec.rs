//! How a game is stored: its moves two to a byte (a hole 1..9 fits in four
//! bits; 0 pads an odd count), the game replayed from its columns, and the
//! hash that tells a duplicate.

use tuzdyk_notation::tfen;
use tuzdyk_rules::{Game, Move, Position};

/// The moves packed two to a byte, the first in the high nibble.
pub(crate) fn pack_moves(moves: &[Move]) -> Vec<u8> {
    moves
        .chunks(2)
        .map(|pair| {
            let high = pair[0].number() as u8;
            let low = pair.get(1).map_or(0, |m| m.number() as u8);
            high << 4 | low
        })
        .collect()
}

/// The moves of a packed blob, `None` if a nibble is not a hole 1..9 (a
/// blob this program did not write) or `plies` does not match it.
pub(crate) fn unpack_moves(blob: &[u8], plies: usize) -> Option<Vec<Move>> {
    if blob.len() != plies.div_ceil(2) {
        return None;
    }
    let mut moves = Vec::with_capacity(plies);
    for byte in blob {
        for nibble in [byte >> 4, byte & 15] {
            if moves.len() < plies {
                moves.push(Move::from_number(u32::from(nibble))?);
            }
        }
    }
    Some(moves)
}

/// The game of a row's `fen` (NULL: the start position), `moves` and
/// `plies` columns, every move checked; the problem, for a row this
/// program did not write.
pub(crate) fn stored_game(fen: Option<&str>, blob: &[u8], plies: usize) -> Result<Game, String> {
    let start = match fen {
        Some(text) => tfen::parse(text).map_err(|e| format!("its FEN: {e}"))?,
        None => Position::startpos(),
    };
    let moves =
        unpack_moves(blob, plies).ok_or_else(|| "its moves are not holes 1..9".to_string())?;
    Game::replay(start, moves).map_err(|e| format!("move {}: {}", e.index + 1, e.reason))
}

/// 64-bit FNV-1a over the parts, each followed by a separator byte: stable
/// across builds and platforms (std's hasher promises neither).
pub(crate) fn content_hash<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> i64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &byte in part.iter().chain(&[0xff]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_pack_two_to_a_byte_and_come_back() {
        let moves: Vec<Move> = [6, 9, 1, 5, 3]
            .iter()
            .map(|&n| Move::from_number(n).unwrap())
            .collect();
        let blob = pack_moves(&moves);
        assert_eq!(blob, [0x69, 0x15, 0x30]);
        assert_eq!(unpack_moves(&blob, 5), Some(moves));
        assert_eq!(unpack_moves(&blob, 6), None, "the padding is no move");
        assert_eq!(unpack_moves(&[0xA1], 2), None, "10 is no hole");
    }

    #[test]
    fn the_hash_separates_its_parts() {
        let a = content_hash([b"ab".as_slice(), b"c"]);
        let b = content_hash([b"a".as_slice(), b"bc"]);
        assert_ne!(a, b);
        assert_eq!(a, content_hash([b"ab".as_slice(), b"c"]));
    }
}
