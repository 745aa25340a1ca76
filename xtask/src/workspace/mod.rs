//! The workspace the xtask works in: where it is, the problems in it (open or archived, and how
//! the root `Cargo.toml` says which), and how cargo builds them.
//!
//! - [`problem`]: a problem folder, its `[package.metadata.boj]` and samples; finding problems
//!   by name or path.
//! - [`members`]: the root manifest's lists of problems, read and edited under a lock, in a
//!   form that no deleted, moved or copied problem folder can make cargo refuse.
//! - [`archive`]: opening and archiving problems, and moving older layouts over.
//! - [`build`]: cargo builds of problems, in the workspace that builds each.
//! - [`fresh`]: whether an archived problem's executables are up to date without asking cargo.
//! - [`locks`]: archived problems' `Cargo.lock` files, seeded and settled.
//! - `manifests` and `host`: manifests parsed once a run; the host's target triple and `cargo
//!   metadata` for it.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

pub mod archive;
pub mod build;
pub mod editor;
pub mod fresh;
pub(crate) mod host;
pub mod locks;
mod manifests;
pub mod members;
pub mod problem;

/// `path` as text with `/` between its components, the form printed for editors and typed in
/// commands on every system: Windows' `\` separators become `/`; on Unix, where `\` is a
/// character a file name may hold (`a\b.in`), the path is left as it is.
pub fn slashed(path: &Path) -> String {
    let text = path.to_string_lossy();
    if cfg!(windows) {
        text.replace('\\', "/")
    } else {
        text.into_owned()
    }
}

/// The workspace a command works in: `root` when the user gave one (`--root DIR`), else
/// [`project_root`].
pub fn root_or_project(root: Option<&Path>) -> Result<PathBuf> {
    match root {
        Some(root) => Ok(root.to_path_buf()),
        None => project_root(),
    }
}

/// The workspace the xtask works in, found at run time (never from the path it was compiled
/// at: with a shared `CARGO_TARGET_DIR`, one build serves many checkouts).
///
/// `cargo xtask` (`cargo run -p xtask`) puts the xtask package's folder in `CARGO_MANIFEST_DIR`:
/// when that names `WORKSPACE/xtask`, the workspace is its parent. Otherwise (the binary run by
/// hand) it is the nearest folder at or above the current one whose `Cargo.toml` has a
/// `[workspace]` table.
pub fn project_root() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) {
        if let Some(parent) = dir.parent().filter(|_| dir.ends_with("xtask")) {
            if is_workspace_root(parent)? {
                return Ok(parent.to_path_buf());
            }
        }
    }
    let here = std::env::current_dir().context("cannot read the current directory")?;
    for dir in here.ancestors() {
        if is_workspace_root(dir)? {
            return Ok(dir.to_path_buf());
        }
    }
    anyhow::bail!(
        "no cargo workspace at or above {} (no Cargo.toml with [workspace]); run the xtask \
         inside the workspace, or name one with --root",
        here.display()
    )
}

/// Whether `dir/Cargo.toml` exists and has a `[workspace]` table; an error naming the file when
/// it cannot be read as TOML (a user's edit gone wrong), as cargo's own would.
fn is_workspace_root(dir: &Path) -> Result<bool> {
    let manifest = dir.join("Cargo.toml");
    let Ok(text) = fs::read_to_string(&manifest) else {
        return Ok(false);
    };
    let table: toml::Table = text
        .parse()
        .with_context(|| format!("cannot parse {}", manifest.display()))?;
    Ok(table.contains_key("workspace"))
}
