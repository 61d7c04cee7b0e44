//! The learned evaluation: a small network, quantised to 16-bit integers.
//!
//! `846 inputs (`features`) -> 256 hidden units (clipped ReLU) -> 1 output`,
//! with one output layer per phase bucket (`features::bucket`). About 20
//! inputs are on in a position, so the hidden layer is summed afresh for
//! every evaluation from their rows: a sowing changes most holes, and an
//! update of the previous sum would touch as many rows (see
//! `benches/eval.rs` for both measured).
//!
//! Quantisation: the hidden layer's weights and biases are stored times
//! [`QA`] and clipped to `0..=QA` by the activation; the output weights times
//! [`QB`], the output bias times `QA * QB`. The output, divided by
//! `QA * QB`, is in units of [`OUTPUT_SCALE`] centi-stones.
//!
//! The file format (`.tznn`, little-endian): the 4 bytes `TZNN`, a `u16`
//! format version (1), then `u16`s: hidden size, inputs, buckets, `QA`,
//! `QB`, output scale; then the `i16` hidden biases, the `i16` hidden rows
//! (one per input), the `i16` output rows (one per bucket), the `i32`
//! output biases; last, an FNV-1a 64-bit checksum of everything before it.

pub mod features;
pub mod kernels;

use std::sync::{Arc, LazyLock};

use tuzdyk_rules::Position;

use features::{BUCKETS, INPUTS};
use kernels::{Kernels, Row};

/// Hidden units.
pub const HIDDEN: usize = 256;
/// The scale of the hidden layer's integers (and the top of its activation).
pub const QA: i32 = 255;
/// The scale of the output weights.
pub const QB: i32 = 256;
/// Centi-stones per unit of the network's output.
pub const OUTPUT_SCALE: i32 = 100;

const MAGIC: &[u8; 4] = b"TZNN";
const VERSION: u16 = 1;

/// The network built into the program (`crates/search/nets/default.tznn`;
/// `nets/README.md` says how it was made). An empty file means none.
static BUILT_IN: &[u8] = include_bytes!("../../../nets/default.tznn");

/// A quantised network, ready to evaluate.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    hidden_bias: Row,
    hidden: Vec<Row>,
    output: [Row; BUCKETS],
    output_bias: [i32; BUCKETS],
    checksum: u64,
    kernels: Kernels,
}

/// Why bytes are not a network of this program's shape.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    #[error("not a tuzdyk network file (it does not start with TZNN)")]
    Magic,
    #[error("network file format {0}, this program reads format {VERSION}")]
    Version(u16),
    #[error("the network's {what} is {found}, this program's is {expected}")]
    Shape {
        what: &'static str,
        found: u16,
        expected: usize,
    },
    #[error("the network file has {found} bytes, its shape needs {expected}")]
    Length { found: usize, expected: usize },
    #[error("the network file is damaged (checksum {found:016x}, expected {expected:016x})")]
    Checksum { found: u64, expected: u64 },
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The parts of a quantised network, as a trainer makes them.
pub struct Parts {
    pub hidden_bias: [i16; HIDDEN],
    /// One row per input feature.
    pub hidden: Vec<[i16; HIDDEN]>,
    pub output: [[i16; HIDDEN]; BUCKETS],
    pub output_bias: [i32; BUCKETS],
}

impl Network {
    /// The network built into the program, if there is one.
    pub fn built_in() -> Option<Arc<Network>> {
        static NETWORK: LazyLock<Option<Arc<Network>>> = LazyLock::new(|| {
            if BUILT_IN.is_empty() {
                return None;
            }
            match Network::from_bytes(BUILT_IN) {
                Ok(network) => Some(Arc::new(network)),
                Err(e) => {
                    log::error!("the built-in network cannot be read: {e}");
                    None
                }
            }
        });
        NETWORK.clone()
    }

    /// A network from its parts.
    ///
    /// # Panics
    /// If `parts.hidden` does not have one row per input feature.
    pub fn from_parts(parts: Parts) -> Network {
        assert_eq!(parts.hidden.len(), INPUTS, "one hidden row per input");
        let mut network = Network {
            hidden_bias: Row(parts.hidden_bias),
            hidden: parts.hidden.into_iter().map(Row).collect(),
            output: parts.output.map(Row),
            output_bias: parts.output_bias,
            checksum: 0,
            kernels: Kernels::detect(),
        };
        network.checksum = fnv1a(&network.body());
        network
    }

    /// The parts this network is made of, as [`Network::from_parts`] takes
    /// them (a trainer starting from it reads them).
    pub fn to_parts(&self) -> Parts {
        Parts {
            hidden_bias: self.hidden_bias.0,
            hidden: self.hidden.iter().map(|row| row.0).collect(),
            output: self.output.map(|row| row.0),
            output_bias: self.output_bias,
        }
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = self.body();
        bytes.extend_from_slice(&self.checksum.to_le_bytes());
        bytes
    }

    /// Everything but the checksum.
    fn body(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(Network::file_size());
        bytes.extend_from_slice(MAGIC);
        for value in [
            VERSION,
            HIDDEN as u16,
            INPUTS as u16,
            BUCKETS as u16,
            QA as u16,
            QB as u16,
            OUTPUT_SCALE as u16,
        ] {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        let rows = std::iter::once(&self.hidden_bias)
            .chain(&self.hidden)
            .chain(&self.output);
        for row in rows {
            for value in row.0 {
                bytes.extend_from_slice(&value.to_le_bytes());
            }
        }
        for bias in self.output_bias {
            bytes.extend_from_slice(&bias.to_le_bytes());
        }
        bytes
    }

    /// The size of a file of this program's shape.
    pub const fn file_size() -> usize {
        4 + 7 * 2 + (1 + INPUTS + BUCKETS) * HIDDEN * 2 + BUCKETS * 4 + 8
    }

    /// Reads a network file.
    ///
    /// # Errors
    /// [`NetworkError`]: not a network, another format or shape, a wrong
    /// length or checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < 4 + 7 * 2 || &bytes[..4] != MAGIC {
            return Err(NetworkError::Magic);
        }
        let header = |i: usize| u16::from_le_bytes([bytes[4 + 2 * i], bytes[5 + 2 * i]]);
        if header(0) != VERSION {
            return Err(NetworkError::Version(header(0)));
        }
        let shape = [
            ("hidden size", HIDDEN),
            ("input count", INPUTS),
            ("bucket count", BUCKETS),
            ("QA", QA as usize),
            ("QB", QB as usize),
            ("output scale", OUTPUT_SCALE as usize),
        ];
        for (i, (what, expected)) in shape.into_iter().enumerate() {
            let found = header(i + 1);
            if found as usize != expected {
                return Err(NetworkError::Shape {
                    what,
                    found,
                    expected,
                });
            }
        }
        if bytes.len() != Network::file_size() {
            return Err(NetworkError::Length {
                found: bytes.len(),
                expected: Network::file_size(),
            });
        }
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        let mut stored = [0u8; 8];
        stored.copy_from_slice(tail);
        let expected = u64::from_le_bytes(stored);
        let found = fnv1a(body);
        if found != expected {
            return Err(NetworkError::Checksum { found, expected });
        }
        let mut values = body[18..]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let mut row = || Row(std::array::from_fn(|_| values.next().unwrap_or(0)));
        let hidden_bias = row();
        let hidden = (0..INPUTS).map(|_| row()).collect();
        let output = std::array::from_fn(|_| row());
        let biases = &body[body.len() - BUCKETS * 4..];
        let output_bias = std::array::from_fn(|i| {
            i32::from_le_bytes([
                biases[4 * i],
                biases[4 * i + 1],
                biases[4 * i + 2],
                biases[4 * i + 3],
            ])
        });
        Ok(Network {
            hidden_bias,
            hidden,
            output,
            output_bias,
            checksum: found,
            kernels: Kernels::detect(),
        })
    }

    /// A short name for this network: its checksum's first 8 hex digits.
    pub fn id(&self) -> String {
        format!("{:08x}", self.checksum >> 32)
    }

    /// The score of `pos` for the side to move, in centi-stones.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let active = features::active(pos);
        let bucket = features::bucket(pos);
        let sum = self.kernels.forward(
            &self.hidden_bias,
            &self.hidden,
            active.indices(),
            &self.output[bucket],
        );
        let output = sum as i64 + self.output_bias[bucket] as i64;
        (output * OUTPUT_SCALE as i64 / (QA * QB) as i64) as i32
    }

    /// The hidden layer's sums for `pos`, summed afresh.
    pub fn accumulate(&self, pos: &Position) -> Row {
        let mut acc = self.hidden_bias;
        self.kernels
            .update(&mut acc, &self.hidden, &[], features::active(pos).indices());
        acc
    }

    /// The hidden sums of `before` updated to those of `after`: the rows of
    /// the features only `before` has taken off, of those only `after` has
    /// put on. What an incremental evaluation would do after a move.
    pub fn update(&self, acc: &mut Row, before: &Position, after: &Position) {
        let (old, new) = (features::active(before), features::active(after));
        let only = |these: &[u16], those: &[u16]| {
            let mut out = [0u16; features::MAX_ACTIVE];
            let mut len = 0;
            for &f in these {
                if !those.contains(&f) {
                    out[len] = f;
                    len += 1;
                }
            }
            (out, len)
        };
        let (removed, removed_len) = only(old.indices(), new.indices());
        let (added, added_len) = only(new.indices(), old.indices());
        self.kernels.update(
            acc,
            &self.hidden,
            &removed[..removed_len],
            &added[..added_len],
        );
    }

    /// The score for the side to move of a position whose hidden sums are
    /// `acc`, in phase `bucket`.
    pub fn score(&self, acc: &Row, bucket: usize) -> i32 {
        let sum = self.kernels.output(acc, &self.output[bucket]) as i64;
        ((sum + self.output_bias[bucket] as i64) * OUTPUT_SCALE as i64 / (QA * QB) as i64) as i32
    }

    /// The same network evaluating with the baseline loops only (for
    /// measuring what the faster copy gains).
    pub fn with_baseline_kernels(&self) -> Network {
        self.with_kernels(Kernels::Baseline)
    }

    /// The same network evaluating with the given copy of the loops (one
    /// of [`Kernels::available`]).
    pub fn with_kernels(&self, kernels: Kernels) -> Network {
        Network {
            kernels,
            ..self.clone()
        }
    }
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({}, {:?})", self.id(), self.kernels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tuzdyk_rules::rng::SplitMix64;

    /// A network of small random weights.
    pub(crate) fn random(seed: u64) -> Network {
        let mut rng = SplitMix64::new(seed);
        let mut value = |range: i64| (rng.below(2 * range as usize + 1) as i64 - range) as i16;
        let hidden_bias = std::array::from_fn(|_| value(200));
        let hidden = (0..INPUTS)
            .map(|_| std::array::from_fn(|_| value(300)))
            .collect();
        let output = std::array::from_fn(|_| std::array::from_fn(|_| value(100)));
        let output_bias = std::array::from_fn(|_| value(1000) as i32 * 10);
        Network::from_parts(Parts {
            hidden_bias,
            hidden,
            output,
            output_bias,
        })
    }

    #[test]
    fn files_round_trip_and_damage_is_caught() {
        let network = random(3);
        let bytes = network.to_bytes();
        assert_eq!(bytes.len(), Network::file_size());
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, network);
        assert_eq!(back.id(), network.id());
        let mut damaged = bytes.clone();
        damaged[1000] ^= 1;
        assert!(matches!(
            Network::from_bytes(&damaged),
            Err(NetworkError::Checksum { .. })
        ));
        assert_eq!(Network::from_bytes(b"PK\x03\x04"), Err(NetworkError::Magic));
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 2]),
            Err(NetworkError::Length { .. })
        ));
        let mut other = bytes;
        other[6] = 128;
        assert!(matches!(
            Network::from_bytes(&other),
            Err(NetworkError::Shape {
                what: "hidden size",
                ..
            })
        ));
    }

    #[test]
    fn updating_the_sums_gives_the_sums_of_the_position() {
        let network = random(6);
        let mut pos = Position::startpos();
        let mut state = 3u64;
        // From the side to move's view, a move flips whose the rows are:
        // compare the update with the sums of the child, both seen by the
        // same player (the flipped child has the parent's mover to move).
        for _ in 0..100 {
            let moves: Vec<_> = pos.legal_moves().collect();
            if moves.is_empty() {
                break;
            }
            let mv = moves[tuzdyk_rules::rng::next(&mut state) as usize % moves.len()];
            let mut child = pos;
            child.play(mv);
            let mut acc = network.accumulate(&pos);
            network.update(&mut acc, &pos, &child.flipped());
            assert_eq!(acc, network.accumulate(&child.flipped()));
            assert_eq!(
                network.score(&network.accumulate(&child), features::bucket(&child)),
                network.evaluate(&child)
            );
            pos = child;
        }
    }

    #[test]
    fn a_position_and_its_colour_flipped_twin_score_alike() {
        let network = random(5);
        let mut pos = Position::startpos();
        let mut state = 11u64;
        for _ in 0..200 {
            let moves: Vec<_> = pos.legal_moves().collect();
            if moves.is_empty() {
                break;
            }
            assert_eq!(network.evaluate(&pos), network.evaluate(&pos.flipped()));
            let pick = tuzdyk_rules::rng::next(&mut state) as usize % moves.len();
            pos.play(moves[pick]);
        }
    }
}
