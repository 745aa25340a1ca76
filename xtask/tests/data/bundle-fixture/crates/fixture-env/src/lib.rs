//! A crate that reads what its build script set: plain rustc would not set it.

/// The greeting the build script chose.
pub const GREETING: &str = env!("FIXTURE_GREETING");
