//! tuzdyk: a Togyz Kumalak (Toguz Korgool) engine.
//!
//! Layers, each depending only on those above it in this list:
//! - [`board`]: the position and the exact rules;
//! - [`notation`]: TFEN position strings and PlayOK game records;
//! - [`perft`]: move-path counting that checks the rules.

pub mod board;
pub mod cli;
pub mod notation;
pub mod perft;
