//! What the bundler learnt in one run, kept for the next: so that bundling again after an edit
//! of `main.rs` costs what the edit changed, not a judge build and a reading of every crate.
//!
//! Each entry is a file under `<target dir>/bundle/cache/`, holding the whole of what decides
//! it (its key) beside what was learnt (its value): a lookup whose key differs in anything is
//! a miss, and so is an entry that cannot be read. Nothing here is ever an error: a cache that
//! cannot be read or written is a cache that is not there. Entries are written whole, to a
//! private file renamed over the old one, so two bundles at once never read half an entry.
//!
//! The xtask binary itself decides every entry (a rebuilt bundler may read a crate otherwise),
//! so its size and modification time are part of every key.

use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::{de::DeserializeOwned, Deserialize, Serialize};

/// The cache of one target directory.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
}

#[derive(Serialize, Deserialize)]
struct Entry<K, V> {
    key: K,
    value: V,
}

impl Store {
    /// The cache kept in `target_dir` (cargo's target directory of the problem's workspace).
    pub fn in_target(target_dir: &Path) -> Store {
        Store {
            dir: target_dir.join("bundle").join("cache"),
        }
    }

    /// The value kept under `kind`/`name` when its key is `key`, whole; `None` otherwise.
    pub fn get<K, V>(&self, kind: &str, name: &str, key: &K) -> Option<V>
    where
        K: DeserializeOwned + PartialEq,
        V: DeserializeOwned,
    {
        self.get_if(kind, name, |kept: &K| kept == key)
    }

    /// The value kept under `kind`/`name` when `holds` accepts the key it was kept with (a
    /// key that names files is checked against them as they are now).
    pub fn get_if<K, V>(&self, kind: &str, name: &str, holds: impl FnOnce(&K) -> bool) -> Option<V>
    where
        K: DeserializeOwned,
        V: DeserializeOwned,
    {
        let text = fs::read(self.path(kind, name)).ok()?;
        let entry: Entry<K, V> = serde_json::from_slice(&text).ok()?;
        holds(&entry.key).then_some(entry.value)
    }

    /// Keeps `value` under `kind`/`name` with its key, replacing what was there. Best effort.
    pub fn put<K: Serialize, V: Serialize>(&self, kind: &str, name: &str, key: &K, value: &V) {
        let Ok(text) = serde_json::to_vec(&Entry { key, value }) else {
            return;
        };
        let path = self.path(kind, name);
        let Some(folder) = path.parent() else {
            return;
        };
        if fs::create_dir_all(folder).is_err() {
            return;
        }
        let private = folder.join(format!(
            ".{name}.{}.{}",
            std::process::id(),
            unique_suffix()
        ));
        if fs::write(&private, text).is_ok() && fs::rename(&private, &path).is_ok() {
            return;
        }
        let _ = fs::remove_file(&private);
    }

    fn path(&self, kind: &str, name: &str) -> PathBuf {
        self.dir.join(kind).join(format!("{name}.json"))
    }
}

fn unique_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A short stable name for anything hashable: an entry's file name (the entry holds its whole
/// key, so two keys sharing a name only take turns).
pub fn name_of(what: &impl Hash) -> String {
    let mut hasher = DefaultHasher::new();
    what.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// A digest of bytes, for keys that stand for a file's content.
pub fn digest(bytes: &[u8]) -> String {
    // Two passes with different seeds: 128 bits, so that a content key never collides in
    // practice (the key of an entry holds digests, not the contents themselves).
    let mut first = DefaultHasher::new();
    bytes.hash(&mut first);
    let mut second = DefaultHasher::new();
    0x9e37_79b9_7f4a_7c15_u64.hash(&mut second);
    bytes.hash(&mut second);
    format!("{:016x}{:016x}", first.finish(), second.finish())
}

/// The digest of the file at `path` as it is now, `None` when it cannot be read (not there).
pub fn digest_of(path: &Path) -> Option<String> {
    fs::read(path).ok().map(|bytes| digest(&bytes))
}

/// Whether each file still holds what its digest says, and each with none is still not there.
pub fn unchanged(files: &[(PathBuf, Option<String>)]) -> bool {
    files.iter().all(|(path, was)| digest_of(path) == *was)
}

/// `rustc -vV` of the compiler `rustc` names when run in `folder` (a `rust-toolchain` file
/// there may choose another): what decides whatever that compiler says. Asked once a run for
/// each.
pub fn compiler(rustc: &Path, folder: &Path) -> String {
    type Said = std::sync::Mutex<std::collections::BTreeMap<(PathBuf, PathBuf), String>>;
    static SAID: Said = std::sync::Mutex::new(std::collections::BTreeMap::new());
    let at = (rustc.to_path_buf(), folder.to_path_buf());
    let mut said = SAID.lock().unwrap_or_else(|p| p.into_inner());
    said.entry(at)
        .or_insert_with(|| {
            std::process::Command::new(rustc)
                .arg("-vV")
                .current_dir(folder)
                .output()
                .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
                .unwrap_or_default()
        })
        .clone()
}

/// This xtask binary, as a key: its size and modification time.
pub fn bundler() -> &'static str {
    static BUNDLER: OnceLock<String> = OnceLock::new();
    BUNDLER.get_or_init(|| {
        let exe = std::env::current_exe().ok();
        let meta = exe.as_ref().and_then(|exe| fs::metadata(exe).ok());
        match meta {
            Some(meta) => {
                let modified = meta
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos());
                format!("{} {} {modified}", env!("CARGO_PKG_VERSION"), meta.len())
            }
            // Nothing to tell one build from another: nothing is ever found.
            None => format!("unknown {}", std::process::id()),
        }
    })
}
