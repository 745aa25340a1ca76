//! The subcommands, one module each: arguments (clap) and printing over the library's parts.

pub mod bundle;
pub mod listen;
pub mod new;
pub mod stress;
pub mod test;

use std::path::{Path, PathBuf};

use anyhow::Result;
use xtask::bundle::{check, wrote_line};
use xtask::problem::Problem;
use xtask::report::emit;

/// `--bundled [--rustc PATH]...`, shared by `test` and `stress`: judge the one-file bundle
/// instead of cargo's build of the solver.
#[derive(clap::Args, Debug)]
pub struct BundledArgs {
    /// Judge the problem's one-file bundle (`cargo xtask bundle`), compiled alone with `rustc
    /// --edition 2021 -O`, instead of cargo's build of the solver.
    #[arg(long)]
    pub bundled: bool,
    /// With --bundled: also compile the bundle with this rustc (an older one, like Debian's
    /// 1.63 at /usr/bin/rustc); repeatable.
    #[arg(long, value_name = "PATH", requires = "bundled")]
    pub rustc: Vec<PathBuf>,
}

impl BundledArgs {
    /// The executable to judge: with `--bundled`, the problem's bundle, written and compiled
    /// alone (and with each older rustc), saying so; otherwise `built`, cargo's build.
    pub fn solver(&self, problem: &Problem, built: &Path) -> Result<PathBuf> {
        if !self.bundled {
            return Ok(built.to_path_buf());
        }
        let compiled = check::compiled_bundle(problem, &self.rustc)?;
        let notes: String = compiled.notes.iter().map(|n| format!("{n}\n")).collect();
        emit(&format!(
            "{}\n{notes}{}\n",
            wrote_line(problem, &compiled.path, compiled.bytes),
            compiled.compiled
        ));
        Ok(compiled.exe)
    }
}
