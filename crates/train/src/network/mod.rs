//! Training the learned evaluation (`tuzdyk train`): the float model with its
//! forward and backward passes ([`model`]), the loss ([`loss`]), Adam
//! ([`adam`]), the samples ([`data`]) and the loop ([`trainer`]). The
//! result is written as the engine's quantised network file.
//!
//! Written here rather than taken from a crate: the network is one sparse
//! layer and one dense output per bucket, about 220,000 weights at 256
//! hidden units (440,000 at 512, the other size `--hidden` offers), and the
//! general crates (candle, burn, tch) bring dense kernels and graph
//! machinery this does not need, where a few hundred lines give exact
//! control of the quantisation limits and bit-for-bit runs for a seed.

pub mod adam;
pub mod command;
pub mod data;
pub mod loss;
pub mod model;
pub mod trainer;

#[cfg(test)]
mod tests;
