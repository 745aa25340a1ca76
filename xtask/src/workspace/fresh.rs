//! Whether an archived problem's executables are up to date, decided without running cargo, so
//! that judging a thousand archived problems a second time costs the judging alone.
//!
//! An archived problem is a package of its own (see [`crate::workspace::archive`]): judging every problem
//! would otherwise run cargo once for each, and each run of cargo costs tens of milliseconds even
//! when it has nothing to do. After each build of such a package the xtask keeps a record of the
//! executables cargo reported (`TARGET/PROFILE/.xtask/PACKAGE.json`); the next time, those
//! executables are taken as they are when each is newer than every file cargo's own dep-info
//! file beside it (`TARGET/PROFILE/BIN.d`) lists, every source of the package and of every crate
//! it uses, and than the manifests, lock files and cargo configuration that decide how it is
//! built. This is make's rule over cargo's list: a change it cannot see (another toolchain,
//! `RUSTFLAGS`) needs a build by name (`cargo xtask test ID` of an open problem) or `cargo
//! clean`; anything older or missing sends the package to cargo as before.
//!
//! Cargo's own rule is make's too, and it misses two things users do to problem folders, which
//! the record also catches ([`stale`]): two folders whose packages share a name (a problem
//! copied by hand), built alone into one target folder, share cargo's fingerprint as well, so the
//! one built second is taken as up to date for the first; and a folder moved away and back (or
//! files copied with their old times) is older than a build made meanwhile from other sources.
//! So every build's record, open problems' included, keeps a digest of each source in the
//! problem's folder, and a build from another folder or from other contents that cargo would
//! take as fresh is cleaned first (`cargo clean -p`).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::bundle::cache::digest_of;

/// What a build of one package left: its executables by binary name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The package's manifest.
    pub manifest: PathBuf,
    /// Executables, by binary name.
    pub bins: BTreeMap<String, Built>,
    /// Each source in the package's folder that the executables' dep-info list, as the file
    /// was when recorded.
    #[serde(default)]
    pub sources: BTreeMap<PathBuf, Source>,
}

/// A source file as a build record saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// Its modification time: a file that still has it is the one recorded, and its contents
    /// need not be read again.
    pub modified: SystemTime,
    /// Its contents' digest ([`crate::bundle::cache::digest`]).
    pub digest: String,
}

/// One executable as the build left it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Built {
    /// Where cargo put it.
    pub exe: PathBuf,
    /// Its modification time then: another package of the same name (a copied problem, built
    /// alone into the same target folder) writes its executable over this one, and the time
    /// tells.
    pub modified: SystemTime,
}

/// Where records of builds in `profile` are kept under the target folder `target`.
pub fn records_dir(target: &Path, profile: &str) -> PathBuf {
    let folder = match profile {
        "dev" | "test" => "debug",
        "bench" => "release",
        other => other,
    };
    target.join(folder).join(".xtask")
}

/// Adds what a build of the package named `package` (manifest `manifest`) made, `built`
/// executables by binary, to its record under `dir`: a build of some binaries (the helpers alone,
/// for `--command`) keeps what the record said of the others, which [`fresh`] still checks.
pub fn record(
    dir: &Path,
    package: &str,
    manifest: &Path,
    built: impl IntoIterator<Item = (String, PathBuf)>,
) -> Result<()> {
    let mut bins = read(dir, package)
        .filter(|record| record.manifest == manifest)
        .map(|record| record.bins)
        .unwrap_or_default();
    for (bin, exe) in built {
        if let Some(modified) = modified(&exe) {
            bins.insert(bin, Built { exe, modified });
        }
    }
    let folder = manifest.parent().unwrap_or(manifest);
    let mut sources = BTreeMap::new();
    for built in bins.values() {
        for input in inputs_of(&built.exe).into_iter().flatten() {
            if input.starts_with(folder) {
                if let (Some(modified), Some(digest)) = (modified(&input), digest_of(&input)) {
                    sources.insert(input, Source { modified, digest });
                }
            }
        }
    }
    let record = Record {
        manifest: manifest.to_path_buf(),
        bins,
        sources,
    };
    save(dir, package, &record)
}

/// Whether the package named `package` at `manifest` may have executables built from other
/// sources than its folder holds, which cargo would take as up to date (see the module docs),
/// by its record under `dir`: the record is another folder's (a package of the same name), or a
/// source's contents changed since the build while its time did not move past it. No record:
/// nothing to tell. (A binary's sources may all lie outside the folder, `path =
/// "../common/gen.rs"`, so where its dep-info points tells nothing.)
pub fn stale(dir: &Path, package: &str, manifest: &Path) -> bool {
    let Some(record) = read(dir, package) else {
        return false;
    };
    if record.manifest != manifest {
        return true;
    }
    let Some(built_at) = record.bins.values().map(|built| built.modified).min() else {
        return false;
    };
    record.sources.iter().any(|(path, source)| {
        // Its recorded time: the file recorded. Past the build: cargo sees it.
        let unseen_by_cargo =
            modified(path).is_some_and(|time| time != source.modified && time <= built_at);
        unseen_by_cargo && digest_of(path).is_some_and(|now| now != source.digest)
    })
}

/// The inputs the dep-info beside the executable `exe` lists, if it is there.
fn inputs_of(exe: &Path) -> Option<Vec<PathBuf>> {
    dep_info_inputs(&fs::read_to_string(dep_info(exe)).ok()?)
}

fn read(dir: &Path, package: &str) -> Option<Record> {
    let text = fs::read_to_string(dir.join(format!("{package}.json"))).ok()?;
    serde_json::from_str(&text).ok()
}

/// Keeps `record` for the package named `package`, under `dir` (from [`records_dir`]).
fn save(dir: &Path, package: &str, record: &Record) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(format!("{package}.json"));
    let text = serde_json::to_string(record)?;
    fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// The executables `wanted` of the package named `package` (manifest `manifest`), when a record
/// under `dir` has them all and every one is up to date; `None` when cargo must look.
pub fn fresh(
    dir: &Path,
    package: &str,
    manifest: &Path,
    wanted: &[String],
) -> Option<BTreeMap<String, PathBuf>> {
    let record = read(dir, package)?;
    if record.manifest != manifest {
        return None;
    }
    let settings = build_settings(manifest);
    let mut found = BTreeMap::new();
    for bin in wanted {
        let Built {
            exe,
            modified: when,
        } = record.bins.get(bin)?;
        let built = modified(exe)?;
        if built != *when {
            return None;
        }
        let inputs = inputs_of(exe)?;
        let newest = inputs
            .iter()
            .chain(&settings)
            .map(|path| modified(path))
            .try_fold(SystemTime::UNIX_EPOCH, |newest, time| {
                Some(newest.max(time?))
            })?;
        if newest > built {
            return None;
        }
        found.insert(bin.clone(), exe.clone());
    }
    Some(found)
}

/// The files that decide how the package at `manifest` is built, besides its sources: its
/// manifest and lock file, and every `Cargo.toml`, `Cargo.lock` and `.cargo/config.toml` above it
/// (a workspace root's dependencies and the profile live there). Those that exist.
fn build_settings(manifest: &Path) -> Vec<PathBuf> {
    let mut settings = vec![manifest.to_path_buf()];
    for folder in manifest.ancestors().skip(1) {
        for name in [
            "Cargo.toml",
            "Cargo.lock",
            ".cargo/config.toml",
            ".cargo/config",
        ] {
            let path = folder.join(name);
            if path.is_file() && path != manifest {
                settings.push(path);
            }
        }
    }
    settings
}

fn modified(path: &Path) -> Option<SystemTime> {
    fs::metadata(path).ok()?.modified().ok()
}

/// The dep-info file cargo writes beside an executable: `NAME.d` for `NAME` or `NAME.exe`.
fn dep_info(exe: &Path) -> PathBuf {
    exe.with_extension("d")
}

/// The inputs a Makefile-style dep-info file lists for its target (its first rule, `TARGET:
/// INPUT INPUT ...`, spaces inside a path written `\ `); `None` when it has no rule.
fn dep_info_inputs(text: &str) -> Option<Vec<PathBuf>> {
    let rule = text.lines().next()?;
    // The target's path may hold a `:` (a Windows drive), but the rule's own is followed by a
    // space or the end of the line.
    let colon = rule
        .char_indices()
        .find(|&(i, c)| c == ':' && rule[i + 1..].chars().next().is_none_or(|n| n == ' '))?
        .0;
    let mut inputs = Vec::new();
    let mut current = String::new();
    let mut chars = rule[colon + 1..].chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&' ') => {
                chars.next();
                current.push(' ');
            }
            ' ' => {
                if !current.is_empty() {
                    inputs.push(PathBuf::from(std::mem::take(&mut current)));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        inputs.push(PathBuf::from(current));
    }
    Some(inputs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_dep_info_rule_lists_its_inputs_with_their_spaces() {
        let text = "/t/judge/boj-1: /w/p/src/main.rs /w/my\\ crates/lib.rs\n\n/w/p/src/main.rs:\n";
        assert_eq!(
            dep_info_inputs(text).unwrap(),
            [
                PathBuf::from("/w/p/src/main.rs"),
                PathBuf::from("/w/my crates/lib.rs")
            ]
        );
        let windows = "C:\\t\\judge\\boj-1.exe: C:\\w\\p\\src\\main.rs\n";
        assert_eq!(
            dep_info_inputs(windows).unwrap(),
            [PathBuf::from("C:\\w\\p\\src\\main.rs")]
        );
        assert_eq!(dep_info_inputs(""), None);
    }

    /// A package in a scratch folder, built: a source, a manifest, an executable newer than both
    /// with its dep-info, and the record of the build.
    fn built_package(name: &str) -> (PathBuf, PathBuf) {
        let root = std::env::temp_dir().join(format!("xtask-fresh-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let package = root.join("problems/boj-1");
        fs::create_dir_all(package.join("src")).unwrap();
        fs::write(package.join("Cargo.toml"), "[package]\nname = \"boj-1\"\n").unwrap();
        fs::write(package.join("src/main.rs"), "fn main() {}\n").unwrap();
        let judge = root.join("target/judge");
        fs::create_dir_all(&judge).unwrap();
        std::thread::sleep(Duration::from_millis(20));
        let exe = judge.join("boj-1");
        fs::write(&exe, "an executable").unwrap();
        fs::write(
            judge.join("boj-1.d"),
            format!(
                "{}: {}\n",
                exe.display(),
                package.join("src/main.rs").display()
            ),
        )
        .unwrap();
        record(
            &records_dir(&root.join("target"), "judge"),
            "boj-1",
            &package.join("Cargo.toml"),
            [("boj-1".to_string(), exe)],
        )
        .unwrap();
        (root, package)
    }

    #[test]
    fn an_executable_newer_than_its_inputs_is_fresh_and_any_newer_input_is_not() {
        let (root, package) = built_package("inputs");
        let records = records_dir(&root.join("target"), "judge");
        let manifest = package.join("Cargo.toml");
        let wanted = ["boj-1".to_string()];
        let found = fresh(&records, "boj-1", &manifest, &wanted).unwrap();
        assert_eq!(found["boj-1"], root.join("target/judge/boj-1"));
        // A binary the record lacks, or another package's manifest, sends it to cargo.
        assert!(fresh(&records, "boj-1", &manifest, &["boj-1-chk".to_string()]).is_none());
        assert!(
            fresh(&records, "boj-1", &manifest, &["boj-1-gen".to_string()]).is_none(),
            "no file"
        );
        assert!(fresh(&records, "boj-1", &root.join("Cargo.toml"), &wanted).is_none());
        // Another build written over the executable (a copy of the problem, its package of the
        // same name, built alone into the same folder): not this package's any more.
        let exe = root.join("target/judge/boj-1");
        std::thread::sleep(Duration::from_millis(20));
        fs::write(&exe, "another package's executable").unwrap();
        assert!(fresh(&records, "boj-1", &manifest, &wanted).is_none());
        record(&records, "boj-1", &manifest, [("boj-1".to_string(), exe)]).unwrap();
        assert!(fresh(&records, "boj-1", &manifest, &wanted).is_some());
        // A source saved after the build: stale. So is a manifest, or a config above it.
        std::thread::sleep(Duration::from_millis(20));
        fs::write(package.join("src/main.rs"), "fn main() { }\n").unwrap();
        assert!(fresh(&records, "boj-1", &manifest, &wanted).is_none());
        fs::remove_dir_all(&root).unwrap();

        let (root, package) = built_package("config");
        let records = records_dir(&root.join("target"), "judge");
        std::thread::sleep(Duration::from_millis(20));
        fs::create_dir_all(root.join(".cargo")).unwrap();
        fs::write(root.join(".cargo/config.toml"), "[profile.judge]\n").unwrap();
        assert!(fresh(&records, "boj-1", &package.join("Cargo.toml"), &wanted).is_none());
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_build_from_other_sources_that_cargo_would_take_as_fresh_is_stale() {
        let (root, package) = built_package("stale");
        let records = records_dir(&root.join("target"), "judge");
        let manifest = package.join("Cargo.toml");
        let source = package.join("src/main.rs");
        let exe = root.join("target/judge/boj-1");
        let record_again = || {
            record(
                &records,
                "boj-1",
                &manifest,
                [("boj-1".to_string(), exe.clone())],
            )
            .unwrap()
        };
        assert!(!stale(&records, "boj-1", &manifest));
        // No record of the package: nothing to tell.
        assert!(!stale(&records, "boj-2", &manifest));
        // Saved as an editor saves, after the build: cargo sees the time, nothing to clean.
        std::thread::sleep(Duration::from_millis(20));
        fs::write(&source, "fn main() { }\n").unwrap();
        assert!(!stale(&records, "boj-1", &manifest));
        // Other contents with a time before the build (a folder moved back, files copied with
        // their times): cargo would take the build as up to date.
        let before = modified(&exe).unwrap() - Duration::from_secs(10);
        let file = fs::File::options().write(true).open(&source).unwrap();
        file.set_modified(before).unwrap();
        drop(file);
        assert!(stale(&records, "boj-1", &manifest));
        // Built again and recorded: up to date.
        record_again();
        assert!(!stale(&records, "boj-1", &manifest));
        // A package of the same name in another folder, built last: stale for both.
        let copy = root.join("problems/boj-1-copy/Cargo.toml");
        assert!(stale(&records, "boj-1", &copy));
        // A binary whose sources all lie outside the folder (`path = "../common/gen.rs"`) is
        // no sign of another build.
        let common = root.join("problems/common/gen.rs");
        fs::create_dir_all(common.parent().unwrap()).unwrap();
        fs::write(&common, "fn main() {}\n").unwrap();
        fs::write(
            root.join("target/judge/boj-1.d"),
            format!("{}: {}\n", exe.display(), common.display()),
        )
        .unwrap();
        record_again();
        assert!(!stale(&records, "boj-1", &manifest));
        fs::remove_dir_all(&root).unwrap();
    }
}
