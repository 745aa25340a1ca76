//! Private scratch folders under the system's temp dir, removed when dropped, so a run that
//! fails (or is interrupted between cases) leaves nothing for the user to find and delete. A run
//! killed outright (Ctrl-C, a closed terminal) drops nothing: the next run removes what such
//! runs left, once their process is gone and their folder has lain untouched a while.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Once;
use std::time::{Duration, SystemTime};

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
        static SWEPT: Once = Once::new();
        SWEPT.call_once(|| remove_leftovers(&std::env::temp_dir(), SystemTime::now()));
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

/// How long a killed run's folder lies untouched before it is removed: a run at work writes in
/// its folder at every case, and a process id seen from another PID namespace (a container
/// sharing the temp dir) may look gone while it runs.
const LEFTOVER_AGE: Duration = Duration::from_secs(600);

/// Removes the scratch folders under `temp` of runs whose process is gone, untouched for
/// [`LEFTOVER_AGE`] at `now`.
fn remove_leftovers(temp: &Path, now: SystemTime) {
    let Ok(entries) = fs::read_dir(temp) else {
        return;
    };
    let own = std::process::id();
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(leftover_pid) else {
            continue;
        };
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        let idle = meta
            .modified()
            .ok()
            .and_then(|modified| now.duration_since(modified).ok())
            .is_some_and(|idle| idle >= LEFTOVER_AGE);
        if meta.is_dir() && idle && pid != own && !crate::run::process::is_running(pid) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// The process id in a scratch folder's name, `xtask-PURPOSE-PID-N`.
fn leftover_pid(name: &str) -> Option<u32> {
    let mut parts = name.strip_prefix("xtask-")?.rsplitn(3, '-');
    let (number, pid, purpose) = (parts.next()?, parts.next()?, parts.next()?);
    if purpose.is_empty() || number.parse::<u64>().is_err() {
        return None;
    }
    pid.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_scratch_folders_name_a_process() {
        assert_eq!(leftover_pid("xtask-hunt-8645-0"), Some(8645));
        assert_eq!(leftover_pid("xtask-bundle-check-12-3"), Some(12));
        assert_eq!(leftover_pid("xtask-fresh-stale-12345"), None);
        assert_eq!(leftover_pid("xtask-12-3"), None);
        assert_eq!(leftover_pid("cargo-install-12-3"), None);
    }

    #[test]
    fn a_gone_runs_idle_folder_goes_and_a_running_or_recent_one_stays() {
        let temp = std::env::temp_dir().join(format!("xtask-sweep-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&temp);
        // No process has the largest id a pid_t holds; the system's first process always runs
        // (init, or Windows' System), and so does this test's.
        let first = if cfg!(windows) { 4 } else { 1 };
        assert!(!crate::run::process::is_running(2_147_483_647));
        assert!(crate::run::process::is_running(first));
        assert!(crate::run::process::is_running(std::process::id()));
        let gone = temp.join("xtask-hunt-2147483647-0");
        let running = temp.join(format!("xtask-hunt-{first}-7"));
        let own = temp.join(format!("xtask-hunt-{}-7", std::process::id()));
        for folder in [&gone, &running, &own] {
            fs::create_dir_all(folder.join("inner")).unwrap();
        }
        let soon = SystemTime::now() + Duration::from_secs(60);
        remove_leftovers(&temp, soon);
        assert!(gone.exists(), "touched a minute ago: kept");
        let later = SystemTime::now() + LEFTOVER_AGE + Duration::from_secs(60);
        remove_leftovers(&temp, later);
        assert!(!gone.exists(), "gone and idle: removed");
        assert!(running.exists(), "another process's, running: kept");
        assert!(own.exists(), "this process's own: kept");
        fs::remove_dir_all(&temp).unwrap();
    }
}
