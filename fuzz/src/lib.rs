//! The checks behind the fuzz targets. `checks.rs` is also compiled into
//! `tests/fuzz_regressions.rs`, so that `cargo test` runs the committed
//! corpus through exactly the same checks.

pub mod checks;
