//! Private scratch folders under the system's temp dir, removed when dropped, so a run that
//! fails (or is interrupted between cases) leaves nothing for the user to find and delete.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, Result};

/// A fresh, empty folder `$TMPDIR/xtask-PURPOSE-PID-N`, removed with everything in it on drop.
#[derive(Debug)]
pub struct Scratch {
    path: PathBuf,
}

impl Scratch {
    /// Creates the folder; `purpose` names it (`judge`, `stress`, ...).
    pub fn new(purpose: &str) -> Result<Scratch> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let path = std::env::temp_dir().join(format!(
            "xtask-{purpose}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        // A folder of this name can only be a leftover of a killed run with our pid.
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).with_context(|| format!("cannot create {}", path.display()))?;
        Ok(Scratch { path })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}
