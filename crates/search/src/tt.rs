//! The transposition table, shared by every search thread without locks.
//!
//! Each entry is two atomic words: the packed data and the key XOR the data.
//! A reader accepts an entry only if the key it recomputes matches, so a
//! torn write (one word from one thread, the other from another) reads as a
//! miss, never as wrong data. Entries sit in buckets of four that share a
//! 64-byte cache line; replacement prefers the shallowest, oldest entry.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use tuzdyk_rules::Move;

/// Whether a stored score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The score is at least this (a beta cutoff).
    Lower,
    /// The score is at most this (no move reached alpha).
    Upper,
    Exact,
}

/// What a probe finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub mv: Option<Move>,
    /// Score as stored (mate scores relative to the stored node).
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

const ENTRIES_PER_BUCKET: usize = 4;

#[repr(C, align(64))]
struct Bucket {
    words: [[AtomicU64; 2]; ENTRIES_PER_BUCKET],
}

impl Bucket {
    fn new() -> Bucket {
        Bucket {
            words: std::array::from_fn(|_| [AtomicU64::new(0), AtomicU64::new(0)]),
        }
    }
}

/// Data layout: move+1 (4 bits, 0 = none), bound (2), age (6), depth (8,
/// offset by 128), score (16, signed), eval (16, signed); 52 bits.
fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    let mv = mv.map_or(0, |m| m.index() as u64 + 1);
    let bound = match bound {
        Bound::Lower => 1u64,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    let depth = (depth.clamp(-100, 127) + 128) as u64;
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let eval = eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    mv | bound << 4 | ((age as u64) & 0x3F) << 6 | depth << 12 | score << 20 | eval << 36
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> 4) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None,
    };
    let mv = match data & 0xF {
        0 => None,
        m => Move::from_number(m as u32),
    };
    Some(Entry {
        mv,
        bound,
        depth: ((data >> 12) & 0xFF) as i32 - 128,
        score: ((data >> 20) & 0xFFFF) as u16 as i16 as i32,
        eval: ((data >> 36) & 0xFFFF) as u16 as i16 as i32,
    })
}

fn age_of(data: u64) -> u8 {
    ((data >> 6) & 0x3F) as u8
}

fn depth_of(data: u64) -> i32 {
    ((data >> 12) & 0xFF) as i32 - 128
}

/// The shared table.
pub(crate) struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one bucket).
    ///
    /// # Panics
    /// If the memory cannot be allocated; see [`TranspositionTable::try_new`].
    pub fn new(megabytes: usize) -> TranspositionTable {
        TranspositionTable::try_new(megabytes).expect("memory for the hash table")
    }

    /// A table of about `megabytes` MB, or `None` if the memory cannot be had.
    pub fn try_new(megabytes: usize) -> Option<TranspositionTable> {
        let bytes = megabytes.max(1).checked_mul(1024 * 1024)?;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count).ok()?;
        buckets.resize_with(count, Bucket::new);
        Some(TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        })
    }

    /// Empties every entry.
    pub fn clear(&self) {
        for bucket in &self.buckets {
            for word in bucket.words.iter().flatten() {
                word.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let next = (self.age.load(Ordering::Relaxed) + 1) & 0x3F;
        self.age.store(next, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Hints the CPU to fetch the bucket of `key`, without waiting for it.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch is only a hint and never faults; the address
            // is that of a live bucket. A plain load stalled the search on the
            // cache miss instead (`perf annotate`: half of `negamax`'s samples).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = self.bucket(key);
        for [check, data] in &bucket.words {
            let data = data.load(Ordering::Relaxed);
            if check.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a search result for `key`.
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, [check, data]) in bucket.words.iter().enumerate() {
            let old = data.load(Ordering::Relaxed);
            if check.load(Ordering::Relaxed) ^ old == key {
                // Same position: keep a deeper exact result from this search,
                // and keep the old move if the new result has none.
                if bound != Bound::Exact && depth_of(old) > depth + 2 && age_of(old) == age {
                    return;
                }
                let mv = mv.or_else(|| unpack(old).and_then(|e| e.mv));
                let new = pack(mv, score, eval, depth, bound, age);
                data.store(new, Ordering::Relaxed);
                check.store(key ^ new, Ordering::Relaxed);
                return;
            }
            let stale = ((age as i32 - age_of(old) as i32) & 0x3F) * 8;
            let worth = if old == 0 {
                i32::MIN
            } else {
                depth_of(old) - stale
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let new = pack(mv, score, eval, depth, bound, age);
        let [check, data] = &bucket.words[victim];
        data.store(new, Ordering::Relaxed);
        check.store(key ^ new, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for [_, data] in &bucket.words {
                let data = data.load(Ordering::Relaxed);
                if data != 0 && age_of(data) == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_entries_come_back() {
        let tt = TranspositionTable::new(1);
        let mv = Move::from_number(7);
        tt.store(0xDEAD_BEEF, mv, -1234, 56, 9, Bound::Lower);
        let entry = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(entry.mv, mv);
        assert_eq!((entry.score, entry.eval, entry.depth), (-1234, 56, 9));
        assert_eq!(entry.bound, Bound::Lower);
        assert_eq!(tt.probe(0xDEAD_BEEE), None);
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1);
        tt.store(42, Move::from_number(1), 10, 0, 3, Bound::Exact);
        let bucket = tt.bucket(42);
        let slot = bucket
            .words
            .iter()
            .position(|[c, d]| c.load(Ordering::Relaxed) ^ d.load(Ordering::Relaxed) == 42)
            .unwrap();
        bucket.words[slot][1].store(
            pack(Move::from_number(2), 99, 0, 3, Bound::Exact, 0),
            Ordering::Relaxed,
        );
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn clear_empties_and_hashfull_counts() {
        let tt = TranspositionTable::new(1);
        tt.new_search();
        for key in 0..100_000u64 {
            tt.store(
                key.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                None,
                0,
                0,
                1,
                Bound::Exact,
            );
        }
        assert!(tt.hashfull() > 500);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
    }
}
