//! The deep index: which games pass through a position after the opening
//! (from ply [`OPENING_PLIES`](crate::explorer::OPENING_PLIES) on). Past
//! the opening nearly every position is one game's alone, so a row per
//! position and move (the opening index's 20-30 bytes) would cost about
//! 3 KB a game; this index keeps about 3 bytes a position instead, and
//! the explorer replays the few games it names to count their moves.
//!
//! A position's Zobrist key picks one of [`BUCKETS`] buckets (its top 16
//! bits) and a one-byte fingerprint (the next 8). A bucket lists the ids of
//! the games with a position in it, in id order, each as the gap from the
//! one before (a LEB128 varint, two bytes at the gaps of 100,000 games)
//! followed by the position's fingerprint. A look-up reads its bucket,
//! keeps the ids whose fingerprint matches (1 in 256 of the others), and
//! the explorer replays each of those games to find the position, so a
//! game named by mistake is never counted.
//!
//! Each flush of the import writes its entries as a new *segment* (one row
//! per bucket, `explorer_deep.id = segment << 16 | bucket`), and two
//! segments of the same level are merged into one of the next level, as a
//! binary counter carries: each entry is rewritten about log2(flushes)
//! times, and a look-up reads at most that many rows. A merge goes a range
//! of buckets at a time, so its memory stays a fraction of its segments.

use rusqlite::{Connection, OptionalExtension, Transaction, params};

/// Buckets of the index: the top 16 bits of a key.
pub const BUCKETS: u64 = 1 << BUCKET_BITS;
const BUCKET_BITS: u32 = 16;

/// Buckets a merge holds in memory at once: 1/16 of its two segments.
const MERGE_RANGE: u64 = BUCKETS / 16;

/// A game's position in the index, packed so that sorting orders by
/// bucket, then game: bucket (16 bits), game id (40 bits), fingerprint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Entry(u64);

impl Entry {
    /// The entry of game `game` (an id below 2^40) at the position `key`.
    pub(crate) fn new(key: u64, game: i64) -> Entry {
        let id = (game as u64) & ((1 << 40) - 1);
        Entry(bucket_of(key) << 48 | id << 8 | u64::from(fingerprint(key)))
    }

    fn bucket(self) -> u64 {
        self.0 >> 48
    }

    fn game(self) -> i64 {
        ((self.0 >> 8) & ((1 << 40) - 1)) as i64
    }

    fn fingerprint(self) -> u8 {
        self.0 as u8
    }
}

fn bucket_of(key: u64) -> u64 {
    key >> (64 - BUCKET_BITS)
}

fn fingerprint(key: u64) -> u8 {
    (key >> (56 - BUCKET_BITS)) as u8
}

/// The row id of `bucket` in `segment`.
fn row_id(segment: i64, bucket: u64) -> i64 {
    segment << BUCKET_BITS | bucket as i64
}

/// A bucket's entries as stored: for each, in game order, the gap from the
/// game before (LEB128) and the fingerprint.
fn encode(entries: impl IntoIterator<Item = (i64, u8)>) -> Vec<u8> {
    let mut blob = Vec::new();
    let mut previous = 0;
    for (game, print) in entries {
        let mut gap = (game - previous) as u64;
        previous = game;
        while gap >= 0x80 {
            blob.push(gap as u8 | 0x80);
            gap >>= 7;
        }
        blob.push(gap as u8);
        blob.push(print);
    }
    blob
}

/// The entries of a stored bucket; `None` for a blob this program did not
/// write (cut short, or a gap past 2^40).
fn decode(blob: &[u8]) -> Option<Vec<(i64, u8)>> {
    let mut entries = Vec::with_capacity(blob.len() / 3);
    let mut previous: i64 = 0;
    let mut bytes = blob.iter();
    while let Some(&first) = bytes.next() {
        let (mut gap, mut shift, mut byte) = (0u64, 0, first);
        loop {
            gap |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                break;
            }
            shift += 7;
            if shift > 42 {
                return None;
            }
            byte = *bytes.next()?;
        }
        previous += gap as i64;
        entries.push((previous, *bytes.next()?));
    }
    Some(entries)
}

/// Writes `entries` as a new segment and merges segments of equal level.
pub(crate) fn add(tx: &Transaction<'_>, mut entries: Vec<Entry>) -> rusqlite::Result<()> {
    if entries.is_empty() {
        return Ok(());
    }
    entries.sort_unstable();
    entries.dedup();
    tx.execute("INSERT INTO explorer_segments (level) VALUES (0)", [])?;
    let segment = tx.last_insert_rowid();
    let mut insert =
        tx.prepare_cached("INSERT INTO explorer_deep (id, entries) VALUES (?1, ?2)")?;
    for run in entries.chunk_by(|a, b| a.bucket() == b.bucket()) {
        let blob = encode(run.iter().map(|e| (e.game(), e.fingerprint())));
        insert.execute(params![row_id(segment, run[0].bucket()), blob])?;
    }
    while let Some((older, newer, level)) = equal_pair(tx)? {
        merge(tx, older, newer, level + 1)?;
    }
    Ok(())
}

/// The two oldest segments of the lowest level that has two, and that level.
fn equal_pair(tx: &Transaction<'_>) -> rusqlite::Result<Option<(i64, i64, i64)>> {
    tx.prepare_cached(
        "SELECT min(id), max(id), level FROM (
             SELECT id, level, row_number() OVER (PARTITION BY level ORDER BY id) AS n
             FROM explorer_segments)
         WHERE n <= 2 GROUP BY level HAVING count(*) = 2 ORDER BY level LIMIT 1",
    )?
    .query_row([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
    .optional()
}

/// Merges segment `newer` into `older`, which becomes of `level`. It goes
/// a range of buckets at a time, rewriting `older`'s rows in place and
/// deleting `newer`'s as it goes, so that the pages one range frees are
/// reused by the next: the file does not keep a merge's worth of free pages
/// (writing a new segment and dropping both after left 14% of the file free
/// at 100,000 games, measured with `tuzdyk db bench` and `PRAGMA
/// freelist_count`).
fn merge(tx: &Transaction<'_>, older: i64, newer: i64, level: i64) -> rusqlite::Result<()> {
    let mut read = tx.prepare_cached(
        "SELECT id, entries FROM explorer_deep WHERE id BETWEEN ?1 AND ?2 ORDER BY id",
    )?;
    let mut write =
        tx.prepare_cached("INSERT OR REPLACE INTO explorer_deep (id, entries) VALUES (?1, ?2)")?;
    let mut delete = tx.prepare_cached("DELETE FROM explorer_deep WHERE id BETWEEN ?1 AND ?2")?;
    for first in (0..BUCKETS).step_by(MERGE_RANGE as usize) {
        let last = first + MERGE_RANGE - 1;
        let mut buckets: Vec<Vec<(i64, u8)>> = vec![Vec::new(); MERGE_RANGE as usize];
        for segment in [older, newer] {
            let rows = read.query_map(
                params![row_id(segment, first), row_id(segment, last)],
                |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?)),
            )?;
            for row in rows {
                let (id, blob) = row?;
                // A bucket this program cannot read is dropped: its games
                // are then missing from deep positions, never miscounted.
                if let Some(entries) = decode(&blob) {
                    let bucket = (id as u64 & (BUCKETS - 1)) - first;
                    buckets[bucket as usize].extend(entries);
                }
            }
        }
        delete.execute(params![row_id(newer, first), row_id(newer, last)])?;
        for (offset, mut entries) in buckets.into_iter().enumerate() {
            if entries.is_empty() {
                continue;
            }
            entries.sort_unstable();
            entries.dedup();
            write.execute(params![
                row_id(older, first + offset as u64),
                encode(entries)
            ])?;
        }
    }
    tx.execute(
        "UPDATE explorer_segments SET level = ?1 WHERE id = ?2",
        [level, older],
    )?;
    tx.execute("DELETE FROM explorer_segments WHERE id = ?1", [newer])?;
    Ok(())
}

/// The games that may pass through the position `key` past the opening,
/// in id order: every one that does, and about 1 in 256 of the games with
/// another position in its bucket.
pub(crate) fn candidates(conn: &Connection, key: u64) -> rusqlite::Result<Vec<i64>> {
    let segments: Vec<i64> = conn
        .prepare_cached("SELECT id FROM explorer_segments")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut read = conn.prepare_cached("SELECT entries FROM explorer_deep WHERE id = ?1")?;
    let (bucket, print) = (bucket_of(key), fingerprint(key));
    let mut games = Vec::new();
    for segment in segments {
        let blob: Option<Vec<u8>> = read
            .query_row([row_id(segment, bucket)], |r| r.get(0))
            .optional()?;
        let entries = blob.as_deref().and_then(decode).unwrap_or_default();
        games.extend(
            entries
                .into_iter()
                .filter(|&(_, p)| p == print)
                .map(|(g, _)| g),
        );
    }
    games.sort_unstable();
    games.dedup();
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_back_from_their_blob() {
        let entries = vec![(1, 7), (2, 0), (300, 255), (1 << 39, 3)];
        let blob = encode(entries.clone());
        assert_eq!(blob[..4], [1, 7, 1, 0], "one byte for a gap below 128");
        assert_eq!(decode(&blob), Some(entries));
        assert_eq!(decode(&blob[..blob.len() - 1]), None, "cut short");
        assert_eq!(decode(&[0x80; 8]), None, "a gap too long");
    }

    #[test]
    fn an_entry_keeps_its_parts_and_sorts_by_bucket_then_game() {
        let key = 0xabcd_ef01_2345_6789;
        let entry = Entry::new(key, 42);
        assert_eq!(
            (entry.bucket(), entry.game(), entry.fingerprint()),
            (0xabcd, 42, 0xef)
        );
        assert!(Entry::new(key, 41) < entry);
        assert!(entry < Entry::new(0xabce_0000_0000_0000, 1));
    }
}
