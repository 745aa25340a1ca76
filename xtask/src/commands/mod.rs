//! The subcommands, one module each: arguments (clap) and printing over the library's parts.

pub mod bundle;
pub mod listen;
pub mod new;
pub mod stress;
pub mod test;

use std::path::PathBuf;

use anyhow::Result;
use xtask::bundle::{check, wrote_line};
use xtask::problem::Problem;
use xtask::report::emit;

/// For `--bundled` runs: writes the problem's bundle, compiles it alone (and with each older
/// rustc), says so, and returns the executable to judge.
pub fn bundled(problem: &Problem, older: &[PathBuf]) -> Result<PathBuf> {
    let compiled = check::compiled_bundle(problem, older)?;
    emit(&format!(
        "{}\n{}\n",
        wrote_line(problem, &compiled.path, compiled.bytes),
        compiled.compiled
    ));
    Ok(compiled.exe)
}
