//! Problems' `Cargo.lock` files: seeded from the root's when a problem leaves the workspace, and
//! settled by cargo, offline, whenever a move changes a manifest.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Gives each problem folder in `folders` (relative to `root`) the root's `Cargo.lock`, so that it
/// builds alone with the versions it was built with as a member; an existing lock is replaced
/// only when `replace` says so. Returns the folders given one, whose locks are for
/// [`resolve_locks`] to settle.
pub fn seed_locks(root: &Path, folders: &[String], replace: bool) -> Result<Vec<PathBuf>> {
    let lock = root.join("Cargo.lock");
    let mut seeded = Vec::new();
    if !lock.is_file() {
        return Ok(seeded);
    }
    for folder in folders {
        let dir = root.join(folder);
        let to = dir.join("Cargo.lock");
        if !dir.join("Cargo.toml").is_file() || (to.exists() && !replace) {
            continue;
        }
        fs::copy(&lock, &to)
            .with_context(|| format!("cannot copy {} to {}", lock.display(), to.display()))?;
        seeded.push(dir);
    }
    Ok(seeded)
}

/// What a move of problems does to the locks: each folder of `archived` (relative to `root`)
/// gets the root's lock in place of its own ([`seed_locks`]), and cargo settles those and, when
/// the root's members changed, the root's ([`resolve_locks`]).
pub fn after_move(root: &Path, archived: &[String], members_changed: bool) -> Result<()> {
    let mut settle = seed_locks(root, archived, true)?;
    if members_changed {
        settle.push(root.to_path_buf());
    }
    resolve_locks(&settle);
    Ok(())
}

/// `resolve_lock` (below) for each of `dirs`, as many at once as the machine has cores (cargo
/// resolves offline in parallel without waiting on its locks): a migration seeds hundreds.
pub fn resolve_locks(dirs: &[PathBuf]) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(dirs.len());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some(dir) =
                    dirs.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                {
                    resolve_lock(dir);
                }
            });
        }
    });
}

/// Has cargo resolve the workspace or package in `dir` against its lock, offline (`cargo
/// metadata --offline`), which rewrites the lock to what the manifests ask, keeping the versions
/// it held: a lock seeded from the root's keeps only the problem's packages (the lock alone
/// cannot say which are the problem's: development dependencies look like any other, so cargo,
/// which reads the manifests, decides), and the root's follows its members. Done when a
/// manifest changes, not at the next build, which would change a file the user may have
/// committed since. For this host only (`--filter-platform`): the lock is resolved for every
/// platform all the same, but the crates of other platforms (never downloaded here) need not
/// be read. Where cargo cannot resolve offline (a crate never downloaded) or a manifest is
/// broken, the lock stays as it is, and the next build settles it.
fn resolve_lock(dir: &Path) {
    let mut metadata = super::host::cargo_metadata_for_host(Some(dir));
    metadata.manifest_path(dir.join("Cargo.toml"));
    let _ = metadata
        .cargo_command()
        .arg("--offline")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
}
