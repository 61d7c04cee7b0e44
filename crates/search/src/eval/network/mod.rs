//! The learned evaluation: a small network, quantised to 16-bit integers.
//!
//! `846 inputs (`features`) -> H hidden units (clipped ReLU) -> 1 output`,
//! with one output layer per phase bucket (`features::bucket`). The hidden
//! size `H` is the network's own, read from its file: 256 (every built-in
//! generation so far) or 512 ([`HIDDEN_SIZES`]), so that one program plays
//! and reproduces every generation while a wider one is tried. Each width
//! has its own copy of the loops, compiled for its fixed length
//! ([`kernels`]); an evaluation picks its width's once. About 20 inputs are
//! on in a position, so the hidden layer is summed afresh for every
//! evaluation from their rows: a sowing changes most holes, and an update of
//! the previous sum would touch as many rows (see `benches/eval.rs` for both
//! measured).
//!
//! Quantisation: the hidden layer's weights and biases are stored times
//! [`QA`] and clipped to `0..=QA` by the activation; the output weights times
//! [`QB`], the output bias times `QA * QB`. The output, divided by
//! `QA * QB`, is in units of [`OUTPUT_SCALE`] centi-stones.
//!
//! The file format (`.tznn`, little-endian): the 4 bytes `TZNN`, a `u16`
//! format version (1), then `u16`s: hidden size `H`, inputs, buckets, `QA`,
//! `QB`, output scale; then the `H` `i16` hidden biases, the `i16` hidden
//! rows (one of `H` per input), the `i16` output rows (one of `H` per
//! bucket), the `i32` output biases; last, an FNV-1a 64-bit checksum of
//! everything before it. The header has carried the hidden size from the
//! first file, so a wider network needs no new format version.

pub mod features;
pub mod kernels;

use std::sync::{Arc, LazyLock};

use tuzdyk_rules::Position;

use features::{BUCKETS, INPUTS};
use kernels::{Kernels, Row};

/// The hidden sizes this program reads and evaluates.
pub const HIDDEN_SIZES: [usize; 2] = [256, 512];
/// The widest of [`HIDDEN_SIZES`] (scratch space sized for any network).
pub const MAX_HIDDEN: usize = 512;
const _: () = assert!(MAX_HIDDEN == HIDDEN_SIZES[HIDDEN_SIZES.len() - 1]);
/// The hidden size of a network trained from random weights unless asked
/// otherwise: that of every built-in generation so far.
pub const DEFAULT_HIDDEN: usize = 256;
/// [`HIDDEN_SIZES`] as an error message names them.
pub const HIDDEN_SIZES_TEXT: &str = "256 or 512";
/// The scale of the hidden layer's integers (and the top of its activation).
pub const QA: i32 = 255;
/// The scale of the output weights.
pub const QB: i32 = 256;
/// Centi-stones per unit of the network's output.
pub const OUTPUT_SCALE: i32 = 100;

const MAGIC: &[u8; 4] = b"TZNN";
const VERSION: u16 = 1;
/// The magic, the version and six `u16`s of shape.
const HEADER_BYTES: usize = 4 + 7 * 2;

/// The network built into the program (`crates/search/nets/default.tznn`;
/// `nets/README.md` says how it was made). An empty file means none.
static BUILT_IN: &[u8] = include_bytes!("../../../nets/default.tznn");

/// The layers of a network of `H` hidden units (the output biases, which do
/// not depend on `H`, are the [`Network`]'s).
#[derive(Clone, PartialEq, Eq)]
struct Layers<const H: usize> {
    hidden_bias: Row<H>,
    /// One row per input feature.
    hidden: Vec<Row<H>>,
    output: [Row<H>; BUCKETS],
}

impl<const H: usize> Layers<H> {
    /// The layers of flat values: `H` biases, `INPUTS` hidden rows and
    /// `BUCKETS` output rows, each row's values one after another (the
    /// lengths are the caller's to have checked).
    fn from_values(hidden_bias: &[i16], hidden: &[i16], output: &[i16]) -> Box<Layers<H>> {
        let row = |values: &[i16]| Row(std::array::from_fn(|i| values[i]));
        Box::new(Layers {
            hidden_bias: row(hidden_bias),
            hidden: hidden.chunks_exact(H).map(row).collect(),
            output: std::array::from_fn(|b| row(&output[b * H..][..H])),
        })
    }

    /// Every value in the file's order: biases, hidden rows, output rows.
    fn values(&self) -> impl Iterator<Item = i16> + '_ {
        std::iter::once(&self.hidden_bias)
            .chain(&self.hidden)
            .chain(&self.output)
            .flat_map(|row| row.0)
    }

    /// The parts of these layers (the output biases left for the caller).
    fn parts(&self, output_bias: [i32; BUCKETS]) -> Parts {
        let flat = |rows: &[Row<H>]| rows.iter().flat_map(|row| row.0).collect();
        Parts {
            hidden_size: H,
            hidden_bias: self.hidden_bias.0.to_vec(),
            hidden: flat(&self.hidden),
            output: flat(&self.output),
            output_bias,
        }
    }

    /// The output for the `active` features in `bucket`, before the bias.
    #[inline(always)]
    fn forward(&self, kernels: Kernels, active: &[u16], bucket: usize) -> i32 {
        kernels.forward(
            &self.hidden_bias,
            &self.hidden,
            active,
            &self.output[bucket],
        )
    }

    /// The hidden sums of the `active` features.
    fn accumulate(&self, kernels: Kernels, active: &[u16]) -> Row<H> {
        let mut acc = self.hidden_bias;
        kernels.update(&mut acc, &self.hidden, &[], active);
        acc
    }
}

/// A network's layers at its width: one variant per [`HIDDEN_SIZES`], each
/// with loops compiled for that width, chosen once per evaluation.
#[derive(Clone, PartialEq, Eq)]
enum Width {
    H256(Box<Layers<256>>),
    H512(Box<Layers<512>>),
}

/// The hidden layer's sums for a position (before the activation), at the
/// width of the network that made them ([`Network::accumulate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[expect(
    clippy::large_enum_variant,
    reason = "boxing would put an allocation in every copy of the sums that \
              an incremental update starts from, which benches/eval.rs times"
)]
pub enum Accumulator {
    H256(Row<256>),
    H512(Row<512>),
}

impl Accumulator {
    /// The sums, one per hidden unit.
    pub fn values(&self) -> &[i16] {
        match self {
            Accumulator::H256(row) => &row.0,
            Accumulator::H512(row) => &row.0,
        }
    }
}

/// A quantised network, ready to evaluate.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    layers: Width,
    output_bias: [i32; BUCKETS],
    checksum: u64,
    kernels: Kernels,
}

/// Why bytes are not a network this program reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    #[error("not a tuzdyk network file (it does not start with TZNN)")]
    Magic,
    #[error("network file format {0}, this program reads format {VERSION}")]
    Version(u16),
    #[error("the network's {what} is {found}, this program reads {expected}")]
    Shape {
        what: &'static str,
        found: u16,
        /// What this program reads: a number, or several ("256 or 512").
        expected: String,
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

/// The parts of a quantised network, as a trainer makes them: flat rows of
/// `hidden_size` values each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parts {
    /// Hidden units, one of [`HIDDEN_SIZES`].
    pub hidden_size: usize,
    /// `hidden_size` values.
    pub hidden_bias: Vec<i16>,
    /// One row per input feature, one after another: feature `f`'s row is
    /// `hidden[f * hidden_size..][..hidden_size]`.
    pub hidden: Vec<i16>,
    /// One row per bucket, one after another, as `hidden`.
    pub output: Vec<i16>,
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
    /// If `parts.hidden_size` is not one of [`HIDDEN_SIZES`], or a block
    /// does not have its shape's length (a trainer's mistake, not a file's:
    /// files go through [`Network::from_bytes`]).
    pub fn from_parts(parts: Parts) -> Network {
        let size = parts.hidden_size;
        assert!(
            HIDDEN_SIZES.contains(&size),
            "hidden size {size}, not {HIDDEN_SIZES_TEXT}"
        );
        assert_eq!(parts.hidden_bias.len(), size, "one hidden bias per unit");
        assert_eq!(
            parts.hidden.len(),
            INPUTS * size,
            "one hidden row per input"
        );
        assert_eq!(
            parts.output.len(),
            BUCKETS * size,
            "one output row per bucket"
        );
        let mut network = Network::from_values(&parts, 0);
        network.checksum = fnv1a(&network.body());
        network
    }

    /// The network of parts whose shape the caller has checked (a size of
    /// [`HIDDEN_SIZES`], blocks of its lengths), with `checksum`.
    fn from_values(parts: &Parts, checksum: u64) -> Network {
        let (bias, hidden, output) = (&parts.hidden_bias, &parts.hidden, &parts.output);
        let layers = match parts.hidden_size {
            256 => Width::H256(Layers::from_values(bias, hidden, output)),
            512 => Width::H512(Layers::from_values(bias, hidden, output)),
            other => unreachable!("hidden size {other} past the checks"),
        };
        Network {
            layers,
            output_bias: parts.output_bias,
            checksum,
            kernels: Kernels::detect(),
        }
    }

    /// The parts this network is made of, as [`Network::from_parts`] takes
    /// them (a trainer starting from it reads them).
    pub fn to_parts(&self) -> Parts {
        match &self.layers {
            Width::H256(layers) => layers.parts(self.output_bias),
            Width::H512(layers) => layers.parts(self.output_bias),
        }
    }

    /// Hidden units: one of [`HIDDEN_SIZES`].
    pub fn hidden_size(&self) -> usize {
        match &self.layers {
            Width::H256(_) => 256,
            Width::H512(_) => 512,
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
        let hidden = self.hidden_size();
        let mut bytes = Vec::with_capacity(Network::file_size(hidden));
        bytes.extend_from_slice(MAGIC);
        for value in [
            VERSION,
            hidden as u16,
            INPUTS as u16,
            BUCKETS as u16,
            QA as u16,
            QB as u16,
            OUTPUT_SCALE as u16,
        ] {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        let mut push = |value: i16| bytes.extend_from_slice(&value.to_le_bytes());
        match &self.layers {
            Width::H256(layers) => layers.values().for_each(&mut push),
            Width::H512(layers) => layers.values().for_each(&mut push),
        }
        for bias in self.output_bias {
            bytes.extend_from_slice(&bias.to_le_bytes());
        }
        bytes
    }

    /// The size of the file of a network of `hidden` units.
    pub const fn file_size(hidden: usize) -> usize {
        HEADER_BYTES + (1 + INPUTS + BUCKETS) * hidden * 2 + BUCKETS * 4 + 8
    }

    /// Reads a network file.
    ///
    /// # Errors
    /// [`NetworkError`]: not a network, another format or shape (a hidden
    /// size not in [`HIDDEN_SIZES`]), a wrong length or checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER_BYTES || &bytes[..4] != MAGIC {
            return Err(NetworkError::Magic);
        }
        let header = |i: usize| u16::from_le_bytes([bytes[4 + 2 * i], bytes[5 + 2 * i]]);
        if header(0) != VERSION {
            return Err(NetworkError::Version(header(0)));
        }
        let hidden = header(1) as usize;
        if !HIDDEN_SIZES.contains(&hidden) {
            return Err(NetworkError::Shape {
                what: "hidden size",
                found: header(1),
                expected: HIDDEN_SIZES_TEXT.to_string(),
            });
        }
        let shape = [
            ("input count", INPUTS),
            ("bucket count", BUCKETS),
            ("QA", QA as usize),
            ("QB", QB as usize),
            ("output scale", OUTPUT_SCALE as usize),
        ];
        for (i, (what, expected)) in shape.into_iter().enumerate() {
            let found = header(i + 2);
            if found as usize != expected {
                return Err(NetworkError::Shape {
                    what,
                    found,
                    expected: expected.to_string(),
                });
            }
        }
        if bytes.len() != Network::file_size(hidden) {
            return Err(NetworkError::Length {
                found: bytes.len(),
                expected: Network::file_size(hidden),
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
        let biases = &body[body.len() - BUCKETS * 4..];
        let mut values = body[HEADER_BYTES..body.len() - BUCKETS * 4]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let mut take = |count: usize| values.by_ref().take(count).collect::<Vec<i16>>();
        let parts = Parts {
            hidden_size: hidden,
            hidden_bias: take(hidden),
            hidden: take(INPUTS * hidden),
            output: take(BUCKETS * hidden),
            output_bias: std::array::from_fn(|i| {
                i32::from_le_bytes([
                    biases[4 * i],
                    biases[4 * i + 1],
                    biases[4 * i + 2],
                    biases[4 * i + 3],
                ])
            }),
        };
        Ok(Network::from_values(&parts, found))
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
        let sum = match &self.layers {
            Width::H256(layers) => layers.forward(self.kernels, active.indices(), bucket),
            Width::H512(layers) => layers.forward(self.kernels, active.indices(), bucket),
        };
        let output = sum as i64 + self.output_bias[bucket] as i64;
        (output * OUTPUT_SCALE as i64 / (QA * QB) as i64) as i32
    }

    /// The hidden layer's sums for `pos`, summed afresh.
    pub fn accumulate(&self, pos: &Position) -> Accumulator {
        let active = features::active(pos);
        match &self.layers {
            Width::H256(layers) => {
                Accumulator::H256(layers.accumulate(self.kernels, active.indices()))
            }
            Width::H512(layers) => {
                Accumulator::H512(layers.accumulate(self.kernels, active.indices()))
            }
        }
    }

    /// The hidden sums of `before` updated to those of `after`: the rows of
    /// the features only `before` has taken off, of those only `after` has
    /// put on. What an incremental evaluation would do after a move.
    ///
    /// # Panics
    /// If `acc` is not of this network's width (not its
    /// [`Network::accumulate`]'s).
    pub fn update(&self, acc: &mut Accumulator, before: &Position, after: &Position) {
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
        let (removed, added) = (&removed[..removed_len], &added[..added_len]);
        match (&self.layers, acc) {
            (Width::H256(layers), Accumulator::H256(acc)) => {
                self.kernels.update(acc, &layers.hidden, removed, added)
            }
            (Width::H512(layers), Accumulator::H512(acc)) => {
                self.kernels.update(acc, &layers.hidden, removed, added)
            }
            _ => panic!("hidden sums of another width than this network's"),
        }
    }

    /// The score for the side to move of a position whose hidden sums are
    /// `acc`, in phase `bucket`.
    ///
    /// # Panics
    /// If `acc` is not of this network's width.
    pub fn score(&self, acc: &Accumulator, bucket: usize) -> i32 {
        let sum = match (&self.layers, acc) {
            (Width::H256(layers), Accumulator::H256(acc)) => {
                self.kernels.output(acc, &layers.output[bucket])
            }
            (Width::H512(layers), Accumulator::H512(acc)) => {
                self.kernels.output(acc, &layers.output[bucket])
            }
            _ => panic!("hidden sums of another width than this network's"),
        } as i64;
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
        write!(
            f,
            "Network({}, {} hidden, {:?})",
            self.id(),
            self.hidden_size(),
            self.kernels
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tuzdyk_rules::rng::SplitMix64;

    /// A network of small random weights and `hidden` units.
    pub(crate) fn random(seed: u64, hidden: usize) -> Network {
        let mut rng = SplitMix64::new(seed);
        let mut value = |range: i64| (rng.below(2 * range as usize + 1) as i64 - range) as i16;
        let hidden_bias = (0..hidden).map(|_| value(200)).collect();
        let rows = (0..INPUTS * hidden).map(|_| value(300)).collect();
        let output = (0..BUCKETS * hidden).map(|_| value(100)).collect();
        let output_bias = std::array::from_fn(|_| value(1000) as i32 * 10);
        Network::from_parts(Parts {
            hidden_size: hidden,
            hidden_bias,
            hidden: rows,
            output,
            output_bias,
        })
    }

    #[test]
    fn files_round_trip_and_damage_is_caught() {
        for hidden in HIDDEN_SIZES {
            let network = random(3, hidden);
            assert_eq!(network.hidden_size(), hidden);
            let bytes = network.to_bytes();
            assert_eq!(bytes.len(), Network::file_size(hidden));
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!(back, network);
            assert_eq!(back.id(), network.id());
            assert_eq!(Network::from_parts(network.to_parts()), network);
            for at in [1000, bytes.len() / 2, bytes.len() - 9] {
                let mut damaged = bytes.clone();
                damaged[at] ^= 1;
                assert!(
                    matches!(
                        Network::from_bytes(&damaged),
                        Err(NetworkError::Checksum { .. })
                    ),
                    "byte {at} of {hidden}"
                );
            }
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
        // The two widths are not read as each other.
        assert_ne!(Network::file_size(256), Network::file_size(512));
    }

    #[test]
    fn a_hidden_size_this_program_does_not_read_is_refused() {
        // A whole file of 384 units, of its length and checksum: refused by
        // its header.
        let mut bytes = random(3, 256).to_bytes()[..HEADER_BYTES].to_vec();
        bytes[6..8].copy_from_slice(&384u16.to_le_bytes());
        bytes.resize(Network::file_size(384) - 8, 0);
        let checksum = fnv1a(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        let error = Network::from_bytes(&bytes).unwrap_err();
        assert_eq!(
            error,
            NetworkError::Shape {
                what: "hidden size",
                found: 384,
                expected: "256 or 512".to_string(),
            }
        );
        assert_eq!(
            error.to_string(),
            "the network's hidden size is 384, this program reads 256 or 512"
        );
    }

    #[test]
    fn the_built_in_network_is_of_256_units() {
        let network = Network::built_in().expect("a built-in network");
        assert_eq!(network.hidden_size(), 256);
        assert_eq!(network.to_bytes(), BUILT_IN);
    }

    #[test]
    fn updating_the_sums_gives_the_sums_of_the_position() {
        for hidden in HIDDEN_SIZES {
            let network = random(6, hidden);
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
                assert_eq!(acc.values().len(), hidden);
                network.update(&mut acc, &pos, &child.flipped());
                assert_eq!(acc, network.accumulate(&child.flipped()));
                assert_eq!(
                    network.score(&network.accumulate(&child), features::bucket(&child)),
                    network.evaluate(&child)
                );
                pos = child;
            }
        }
    }

    #[test]
    fn a_position_and_its_colour_flipped_twin_score_alike() {
        for hidden in HIDDEN_SIZES {
            let network = random(5, hidden);
            let mut pos = Position::startpos();
            let mut state = 11u64;
            for _ in 0..200 {
                let moves: Vec<_> = pos.legal_moves().collect();
                if moves.is_empty() {
                    break;
                }
                assert_eq!(network.evaluate(&pos), network.evaluate(&pos.flipped()));
                assert_eq!(network.accumulate(&pos), network.accumulate(&pos.flipped()));
                let pick = tuzdyk_rules::rng::next(&mut state) as usize % moves.len();
                pos.play(moves[pick]);
            }
        }
    }

    #[test]
    fn every_copy_of_the_loops_evaluates_alike_at_both_widths() {
        for hidden in HIDDEN_SIZES {
            let network = random(7, hidden);
            let copies: Vec<Network> = Kernels::available()
                .into_iter()
                .map(|kernels| network.with_kernels(kernels))
                .collect();
            let mut pos = Position::startpos();
            let mut state = 13u64;
            for _ in 0..100 {
                let moves: Vec<_> = pos.legal_moves().collect();
                if moves.is_empty() {
                    break;
                }
                let baseline = network.with_baseline_kernels().evaluate(&pos);
                for copy in &copies {
                    assert_eq!(copy.evaluate(&pos), baseline, "{copy:?}");
                }
                let pick = tuzdyk_rules::rng::next(&mut state) as usize % moves.len();
                pos.play(moves[pick]);
            }
        }
    }
}
