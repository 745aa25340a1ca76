//! The host's target triple (`x86_64-unknown-linux-gnu`), as `rustc -vV` tells it, the target
//! folder the environment names, and `cargo metadata` as the xtask runs it: with the cargo that
//! runs us, that target folder, and for this host (`--filter-platform`), so that cargo reads no
//! crate of another platform.

use std::path::{Path, PathBuf};
use std::process::Command;

use cargo_metadata::MetadataCommand;

/// The host's target triple, asked of rustc (`RUSTC`, else `rustc`) once a run; `None` when
/// rustc cannot tell.
pub(crate) fn triple() -> Option<String> {
    static HOST: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
        let out = Command::new(rustc).arg("-vV").output().ok()?;
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
    })
    .clone()
}

/// `CARGO_TARGET_DIR`, made absolute against this process's folder (cargo reads a relative one
/// against its own, and the xtask runs cargo in each workspace's folder).
pub(crate) fn target_dir_from_environment() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os("CARGO_TARGET_DIR")?);
    Some(std::path::absolute(&dir).unwrap_or(dir))
}

/// `cargo` as the xtask runs it: the cargo that runs us (`CARGO`, else `cargo`), in `dir`,
/// given the environment's target folder made absolute ([`target_dir_from_environment`]).
pub(crate) fn cargo(dir: Option<&Path>) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    if let Some(target) = target_dir_from_environment() {
        command.env("CARGO_TARGET_DIR", target);
    }
    command
}

/// `cargo metadata` run in `dir` with the `cargo` that runs us (`CARGO`), for the caller to
/// add to. A relative `CARGO_TARGET_DIR` is given to it made absolute, as the builds get it:
/// cargo reads it from its own current folder, `dir`, and would name a target folder inside the
/// problem's, where the bundler would then keep its cache.
pub(crate) fn cargo_metadata(dir: Option<&Path>) -> MetadataCommand {
    let mut command = MetadataCommand::new();
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    if let Some(cargo) = std::env::var_os("CARGO") {
        command.cargo_path(cargo);
    }
    if let Some(target) = target_dir_from_environment() {
        command.env("CARGO_TARGET_DIR", target);
    }
    command
}

/// [`cargo_metadata`] for the host platform only (`--filter-platform`).
pub(crate) fn cargo_metadata_for_host(dir: Option<&Path>) -> MetadataCommand {
    let mut command = cargo_metadata(dir);
    if let Some(host) = triple() {
        command.other_options(["--filter-platform".to_string(), host]);
    }
    command
}
