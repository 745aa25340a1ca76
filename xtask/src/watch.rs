//! What `cargo xtask watch` watches and how it tells a change: the problem's `src/`,
//! `samples/` and `Cargo.toml`, the `src/` and `Cargo.toml` of every workspace (path) crate it
//! depends on as `cargo metadata` resolves them, and the workspace's `Cargo.toml`; editor
//! litter and cargo's target folder left out; the line that opens each run.
//!
//! The watching itself (the `notify` debouncer, the loop) is the subcommand's; this module is
//! what can be decided without a file system event, so it is tested without one.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use cargo_metadata::{DependencyKind, Metadata};

use crate::workspace::build::{workspace_manifest, Resolved};
use crate::workspace::problem::Problem;

/// The files whose change judges a problem again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Watched {
    /// The problem's folder (canonical).
    pub problem: PathBuf,
    /// The root of the problem's cargo workspace: other paths are shown relative to it.
    pub workspace: PathBuf,
    /// cargo's target folder: what builds write there is never a change.
    pub target: PathBuf,
    /// The folders of the workspace (path) crates the problem depends on, directly or through
    /// others, for its build (normal and build dependencies, not dev ones); sorted.
    pub crates: Vec<PathBuf>,
}

/// A folder to hand the file watcher, and whether what lies below it counts too.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Watch {
    /// The folder.
    pub path: PathBuf,
    /// Its whole tree (`src/`, `samples/`), or only its direct entries (a folder watched for
    /// its `Cargo.toml`: folders, not files, survive an editor's save-by-rename).
    pub recursive: bool,
}

impl Watched {
    /// What to watch for `problem`, from `cargo metadata` of its workspace.
    pub fn of(problem: &Problem) -> Result<Watched> {
        Watched::from_metadata(
            &problem.dir,
            &crate::workspace::build::metadata(&problem.dir)?,
        )
    }

    /// The problem's own files only: what is left to watch when cargo cannot read the
    /// manifests (the build then says why).
    pub fn problem_only(problem: &Problem) -> Watched {
        let workspace = workspace_manifest(&problem.dir)
            .ok()
            .and_then(|manifest| manifest.parent().map(Path::to_path_buf))
            .unwrap_or_else(|| problem.dir.clone());
        Watched {
            problem: problem.dir.clone(),
            target: workspace.join("target"),
            workspace,
            crates: Vec::new(),
        }
    }

    /// What to watch for the package in `problem_dir`, from `cargo metadata` of its workspace:
    /// the path crates reached from its node of the resolved graph.
    pub fn from_metadata(problem_dir: &Path, metadata: &Metadata) -> Result<Watched> {
        let manifest = canonical(&problem_dir.join("Cargo.toml"));
        let package = metadata
            .packages
            .iter()
            .find(|p| canonical(p.manifest_path.as_std_path()) == manifest)
            .with_context(|| {
                format!(
                    "cargo metadata does not list the package of {}",
                    problem_dir.display()
                )
            })?;
        let Resolved { packages, nodes } = Resolved::of(metadata);
        let mut crates = BTreeSet::new();
        let mut seen = BTreeSet::from([package.id.repr.as_str()]);
        let mut todo = vec![package.id.repr.as_str()];
        while let Some(id) = todo.pop() {
            let Some(node) = nodes.get(id) else { continue };
            // Dev dependencies build tests and benches, never a judged binary.
            let built_with = node.deps.iter().filter(|d| {
                d.dep_kinds
                    .iter()
                    .any(|k| k.kind != DependencyKind::Development)
            });
            for dep in built_with {
                let Some(found) = packages.get(dep.pkg.repr.as_str()) else {
                    continue;
                };
                // A crate without a source is a path crate: its files are the user's to edit.
                if found.source.is_none() && seen.insert(dep.pkg.repr.as_str()) {
                    if let Some(dir) = found.manifest_path.parent() {
                        crates.insert(canonical(dir.as_std_path()));
                    }
                    todo.push(dep.pkg.repr.as_str());
                }
            }
        }
        Ok(Watched {
            problem: canonical(problem_dir),
            workspace: canonical(metadata.workspace_root.as_std_path()),
            target: canonical(metadata.target_directory.as_std_path()),
            crates: crates.into_iter().collect(),
        })
    }

    /// The folders to hand the file watcher, each once.
    pub fn watches(&self) -> Vec<Watch> {
        let mut folders: BTreeMap<PathBuf, bool> = BTreeMap::new();
        let mut add = |path: PathBuf, recursive: bool| {
            *folders.entry(path).or_default() |= recursive;
        };
        add(self.workspace.clone(), false);
        add(self.problem.clone(), false);
        add(self.problem.join("src"), true);
        add(self.problem.join("samples"), true);
        for dir in &self.crates {
            add(dir.clone(), false);
            add(dir.join("src"), true);
        }
        folders
            .into_iter()
            .map(|(path, recursive)| Watch { path, recursive })
            .collect()
    }

    /// Whether a change at `path` (as the file watcher reports it) calls for a run.
    pub fn concerns(&self, path: &Path) -> bool {
        if is_editor_litter(path) || path.starts_with(&self.target) {
            return false;
        }
        let manifest = |dir: &Path| path == dir.join("Cargo.toml");
        let mut trees = [self.problem.join("src"), self.problem.join("samples")]
            .into_iter()
            .chain(self.crates.iter().map(|dir| dir.join("src")));
        manifest(&self.problem)
            || manifest(&self.workspace)
            || self.crates.iter().any(|dir| manifest(dir))
            || trees.any(|tree| path.starts_with(tree))
    }

    /// Whether `path` is a `Cargo.toml` this watch follows: a change there may change which
    /// crates the problem depends on.
    pub fn is_manifest(&self, path: &Path) -> bool {
        path.file_name() == Some(OsStr::new("Cargo.toml")) && self.concerns(path)
    }

    /// `path` as a person reads it: relative to the problem, else to the workspace.
    pub fn shown(&self, path: &Path) -> String {
        path.strip_prefix(&self.problem)
            .or_else(|_| path.strip_prefix(&self.workspace))
            .unwrap_or(path)
            .display()
            .to_string()
    }

    /// What the watch covers, for the line that starts it: `src/, samples/, Cargo.toml, the
    /// workspace's Cargo.toml and crates/a, crates/b`.
    pub fn summary(&self) -> String {
        let mut parts = vec!["src/, samples/, Cargo.toml".to_string()];
        if self.workspace != self.problem {
            parts.push("the workspace's Cargo.toml".to_string());
        }
        if !self.crates.is_empty() {
            let crates: Vec<String> = self.crates.iter().map(|dir| self.shown(dir)).collect();
            parts.push(format!("{} (src/, Cargo.toml)", crates.join(", ")));
        }
        match parts.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => parts.concat(),
        }
    }

    /// The line that opens a run: `── changed: src/main.rs ──`, or `── changed: src/main.rs
    /// and 2 more ──` (a folder beside something inside it is not counted again).
    pub fn changed_line(&self, changed: &BTreeSet<PathBuf>) -> String {
        let innermost: Vec<&PathBuf> = changed
            .iter()
            .filter(|path| {
                !changed
                    .iter()
                    .any(|other| other != *path && other.starts_with(path))
            })
            .collect();
        let Some(first) = innermost.first() else {
            return "── changed: nothing ──\n".to_string();
        };
        let first = self.shown(first);
        match innermost.len() {
            1 => format!("── changed: {first} ──\n"),
            n => format!("── changed: {first} and {} more ──\n", n - 1),
        }
    }
}

/// Files editors write beside the one being saved, never part of a problem: vim's swap files
/// (`.swp`, `.swo`, ...) and its write test `4913`, backups ending in `~`, emacs' locks `.#NAME`
/// and autosaves `#NAME#`, JetBrains' safe-write copies, macOS Finder's `.DS_Store`.
pub fn is_editor_litter(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(OsStr::to_str) else {
        return false;
    };
    let vim_swap = path
        .extension()
        .and_then(OsStr::to_str)
        .is_some_and(|ext| ext.len() == 3 && ext.starts_with("sw"));
    vim_swap
        || name == "4913"
        || name.ends_with('~')
        || name.starts_with(".#")
        || (name.len() > 1 && name.starts_with('#') && name.ends_with('#'))
        || name.ends_with("___jb_tmp___")
        || name.ends_with("___jb_old___")
        || name == ".DS_Store"
}

/// `path` canonical when it exists (watchers report real paths: macOS' `/private/var`, not
/// `/var`), else as it is.
fn canonical(path: &Path) -> PathBuf {
    dunce::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A workspace at /w: problem p depends on lib a (path), which depends on lib b (path)
    /// and on a crates.io crate r; p's dev dependency d (path) and the unrelated lib u are not
    /// its build's.
    fn metadata() -> String {
        let package = |id: &str, dir: &str, source: &str| {
            format!(
                r#"{{"id":"{id}","source":{source},"manifest_path":"{dir}/Cargo.toml","name":"{id}",
                    "version":"0.1.0","dependencies":[],"targets":[],"features":{{}}}}"#
            )
        };
        let dep = |pkg: &str, kind: &str| {
            format!(
                r#"{{"name":"{pkg}","pkg":"{pkg}","dep_kinds":[{{"kind":{kind},"target":null}}]}}"#
            )
        };
        let node = |id: &str, deps: &[String]| {
            format!(
                r#"{{"id":"{id}","deps":[{}],"dependencies":[],"features":[]}}"#,
                deps.join(",")
            )
        };
        format!(
            r#"{{"packages":[{},{},{},{},{},{}],"resolve":{{"nodes":[{},{},{},{},{},{}],"root":null}},
                "workspace_root":"/w","target_directory":"/w/target","version":1,
                "workspace_members":[]}}"#,
            package("p", "/w/problems/p", "null"),
            package("a", "/w/crates/a", "null"),
            package("b", "/w/crates/b", "null"),
            package(
                "r",
                "/home/.cargo/registry/r",
                r#""registry+https://example.invalid""#
            ),
            package("d", "/w/crates/d", "null"),
            package("u", "/w/crates/u", "null"),
            node("p", &[dep("a", "null"), dep("d", r#""dev""#)]),
            node("a", &[dep("b", r#""build""#), dep("r", "null")]),
            node("b", &[]),
            node("r", &[]),
            node("d", &[]),
            node("u", &[]),
        )
    }

    fn watched() -> Watched {
        let metadata: Metadata = serde_json::from_str(&metadata()).unwrap();
        Watched::from_metadata(Path::new("/w/problems/p"), &metadata).unwrap()
    }

    #[test]
    fn the_path_crates_a_problem_builds_with_are_watched_and_no_others() {
        let watched = watched();
        assert_eq!(
            watched.crates,
            [PathBuf::from("/w/crates/a"), PathBuf::from("/w/crates/b")]
        );
        assert_eq!(watched.workspace, Path::new("/w"));
        assert_eq!(watched.target, Path::new("/w/target"));
        let watches = watched.watches();
        let watches: Vec<(&str, bool)> = watches
            .iter()
            .map(|w| (w.path.to_str().unwrap(), w.recursive))
            .collect();
        assert_eq!(
            watches,
            [
                ("/w", false),
                ("/w/crates/a", false),
                ("/w/crates/a/src", true),
                ("/w/crates/b", false),
                ("/w/crates/b/src", true),
                ("/w/problems/p", false),
                ("/w/problems/p/samples", true),
                ("/w/problems/p/src", true),
            ]
        );
        assert_eq!(
            watched.summary(),
            "src/, samples/, Cargo.toml, the workspace's Cargo.toml and crates/a, crates/b \
             (src/, Cargo.toml)"
        );
    }

    #[test]
    fn sources_samples_and_manifests_concern_the_watch_and_litter_does_not() {
        let watched = watched();
        for path in [
            "/w/problems/p/src/main.rs",
            "/w/problems/p/src/bin/p-checker.rs",
            "/w/problems/p/samples/2.out",
            "/w/problems/p/Cargo.toml",
            "/w/Cargo.toml",
            "/w/crates/b/Cargo.toml",
            "/w/crates/a/src/deep/mod.rs",
        ] {
            assert!(watched.concerns(Path::new(path)), "{path}");
        }
        for path in [
            "/w/Cargo.lock",
            "/w/problems/p/notes.md",
            "/w/problems/p/src/.main.rs.swp",
            "/w/problems/p/src/main.rs~",
            "/w/problems/p/src/4913",
            "/w/problems/p/src/.#main.rs",
            "/w/problems/p/src/#main.rs#",
            "/w/problems/p/src/main.rs___jb_tmp___",
            "/w/crates/d/src/lib.rs",
            "/w/crates/u/Cargo.toml",
            "/w/crates/a/tests/it.rs",
            "/w/target/judge/p",
        ] {
            assert!(!watched.concerns(Path::new(path)), "{path}");
        }
        assert!(watched.is_manifest(Path::new("/w/crates/a/Cargo.toml")));
        assert!(!watched.is_manifest(Path::new("/w/crates/u/Cargo.toml")));
        assert!(!watched.is_manifest(Path::new("/w/problems/p/src/main.rs")));
    }

    #[test]
    fn a_target_folder_inside_a_watched_tree_is_still_the_builds() {
        let mut watched = watched();
        watched.target = PathBuf::from("/w/problems/p/src/target");
        assert!(!watched.concerns(Path::new("/w/problems/p/src/target/x")));
        assert!(watched.concerns(Path::new("/w/problems/p/src/main.rs")));
    }

    #[test]
    fn the_changed_line_names_the_first_change_and_counts_the_rest() {
        let watched = watched();
        let line =
            |paths: &[&str]| watched.changed_line(&paths.iter().map(PathBuf::from).collect());
        assert_eq!(
            line(&["/w/problems/p/src/main.rs"]),
            "── changed: src/main.rs ──\n"
        );
        assert_eq!(
            line(&["/w/crates/a/src/lib.rs"]),
            "── changed: crates/a/src/lib.rs ──\n"
        );
        assert_eq!(
            line(&[
                "/w/problems/p/src/main.rs",
                "/w/problems/p/samples/3.in",
                "/w/problems/p/samples/3.out"
            ]),
            "── changed: samples/3.in and 2 more ──\n"
        );
        // A new folder and the file made in it are one change.
        assert_eq!(
            line(&["/w/problems/p/src/bin", "/w/problems/p/src/bin/p-gen.rs"]),
            "── changed: src/bin/p-gen.rs ──\n"
        );
    }

    #[test]
    fn a_problem_missing_from_the_metadata_is_an_error() {
        let metadata: Metadata = serde_json::from_str(&metadata()).unwrap();
        let err = Watched::from_metadata(Path::new("/elsewhere/q"), &metadata)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("does not list the package of /elsewhere/q"),
            "{err}"
        );
    }
}
