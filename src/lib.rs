//! tuzdyk: a Togyz Kumalak (Toguz Korgool) engine.
//!
//! Layers, each depending only on those above it in this list (and on
//! [`rng`], a small seeded generator):
//! - [`board`]: the position and the exact rules;
//! - [`notation`]: TFEN position strings and PlayOK game records;
//! - [`perft`]: move-path counting that checks the rules;
//! - [`eval`]: the static evaluation;
//! - [`search`]: alpha-beta with its transposition table, threads and time;
//! - [`engine`]: the layer between protocol and search;
//! - [`protocol`]: the UCI/UGI text protocol;
//! - [`tools`]: match, analyse and play, which drive engines through the protocol;
//! - [`tune`]: evaluation tuning from self-play;
//! - [`cli`]: the command line.

pub mod board;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod notation;
pub mod perft;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod tools;
pub mod tune;
