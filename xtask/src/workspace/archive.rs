//! Open and archived problems: a year of practice in one workspace at the cost of a few problems.
//!
//! A problem is open when it is a member of the root workspace: cargo builds it there, with the
//! libraries and the xtask, and rust-analyzer, which loads the root workspace's members, sees
//! it (completions, errors, check on save) with no configuration. Every other problem is
//! archived: the root's `exclude` keeps it out, so cargo builds it as a package of its own (its
//! own `Cargo.lock`), into the same target folder (`.cargo/config.toml`'s `build.target-dir`),
//! with the judge profile from that config too. Every cargo command in the root workspace
//! (`cargo xtask` itself, rust-analyzer's `cargo check --workspace` at each save, a judge build)
//! then walks a handful of manifests, however many problems the archive holds. How the root
//! manifest says which is which, so that no file operation on a problem folder breaks cargo, is
//! [`super::members`]'s.
//!
//! The open problems are the last [`OPEN_LIMIT`] opened, kept by `cargo xtask new`, `listen`,
//! `watch` and `open`: opening one makes it the newest, and the one opened longest ago goes back
//! to the archive past the limit, its `Cargo.lock` seeded from the root's so that it keeps the
//! versions it was built with. A problem folder works either way: its manifest inherits
//! nothing from the workspace (cargo could not resolve `workspace = true` for an archived
//! package), so moving it is an edit of the root manifest alone, after which cargo settles the
//! locks it touched at once ([`locks::after_move`]): a later build changes none of them.
//!
//! A workspace made before the archive (`members = ["problems/*"]`, manifests that inherit)
//! keeps working as it is, every problem a member; [`migrate`] moves it over. Nothing here
//! prints: the commands (`commands/archive.rs`) say what was done.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use toml_edit::{Array, DocumentMut, Item, Table, Value};

use super::locks;
use super::members::{self, Layout, RootManifest, Standing, PROBLEMS};

/// How many problems stay open (members of the root workspace) at most.
pub const OPEN_LIMIT: usize = 8;

/// What opening or archiving changed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Moved {
    /// Problem folders that became members (opened now), relative to the root.
    pub opened: Vec<String>,
    /// Problem folders that left the members (archived now), relative to the root.
    pub archived: Vec<String>,
}

impl Moved {
    /// Whether nothing moved.
    pub fn is_empty(&self) -> bool {
        self.opened.is_empty() && self.archived.is_empty()
    }
}

impl std::fmt::Display for Moved {
    /// `opened problems/boj-1717 (a member of the workspace: rust-analyzer sees it);
    /// archived problems/boj-1000 (a package of its own)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if !self.opened.is_empty() {
            parts.push(format!(
                "opened {} (a member of the workspace: rust-analyzer sees it)",
                self.opened.join(", ")
            ));
        }
        if !self.archived.is_empty() {
            parts.push(format!(
                "archived {} (a package of its own, built alone)",
                self.archived.join(", ")
            ));
        }
        f.write_str(&parts.join("; "))
    }
}

/// Opens the problem in `dir` when it is a folder of `root/problems` (a problem elsewhere, a
/// fixture, stays as it is): what [`open`] did.
pub fn open_if_archivable(root: &Path, dir: &Path) -> Result<Moved> {
    if members::folder_of(root, dir).is_err() || !root.join("Cargo.toml").is_file() {
        return Ok(Moved::default());
    }
    open(root, &[dir.to_path_buf()])
}

/// The layout of the workspace at `root`.
pub fn layout(root: &Path) -> Result<Layout> {
    Ok(RootManifest::read(root)?.layout())
}

/// The problem folders (relative to `root`, as `problems/boj-ID`) that are open, in the order
/// they were opened; one whose folder is gone stays listed (it may come back, from a stash or
/// another branch) and harms nothing.
pub fn open_problems(root: &Path) -> Result<Vec<String>> {
    Ok(members::lists(root)?.open)
}

/// The folders of `dirs` under `root/problems`.
fn folders(root: &Path, dirs: &[PathBuf]) -> Result<Vec<String>> {
    let mut folders: Vec<String> = Vec::new();
    for dir in dirs {
        // A problem named twice (`open 1717 boj-1717`) is one problem, not a copy of itself.
        let folder = members::folder_of(root, dir)?;
        if !folders.contains(&folder) {
            folders.push(folder);
        }
    }
    Ok(folders)
}

/// Opens the problems in `dirs` (folders under `root/problems`): each becomes the newest member
/// of the root workspace, and those opened longest ago go back to the archive past
/// [`OPEN_LIMIT`]. Refused for a problem whose package has the name of another open one's (a
/// copy not yet renamed): cargo refuses a workspace with two packages of one name. Does nothing
/// in a workspace of the old layout, where every problem is a member already.
pub fn open(root: &Path, dirs: &[PathBuf]) -> Result<Moved> {
    if layout(root)? == Layout::AllMembers {
        return Ok(Moved::default());
    }
    let wanted = folders(root, dirs)?;
    let (moved, to_seed) = members::edit(root, |lists| {
        let before: Vec<(String, Standing)> = wanted
            .iter()
            .map(|w| (w.clone(), lists.standing(w)))
            .collect();
        let was_open: Vec<String> = lists.open.clone();
        lists.open.retain(|f| !wanted.contains(f));
        lists.archived.retain(|f| !wanted.contains(f));
        lists.open.extend(wanted.iter().cloned());
        let (mut archived, mut to_seed) = (Vec::new(), Vec::new());
        while lists.open.len() > OPEN_LIMIT {
            let oldest = lists.open.remove(0);
            lists.archived.push(oldest.clone());
            // One named here among more than the limit was never opened: it is not said to
            // move, and one archived before keeps its own lock.
            let was_archived = before
                .iter()
                .any(|(w, standing)| *w == oldest && *standing == Standing::Archived);
            if !was_archived {
                to_seed.push(oldest.clone());
            }
            if was_open.contains(&oldest) {
                archived.push(oldest);
            }
        }
        let opened: Vec<String> = wanted
            .iter()
            .filter(|w| !was_open.contains(w) && lists.open.contains(w))
            .cloned()
            .collect();
        refuse_one_name_twice(root, &lists.open)?;
        Ok((Moved { opened, archived }, to_seed))
    })?;
    locks::after_move(root, &to_seed, moved != Moved::default())?;
    Ok(moved)
}

/// An error when two of the `open` folders that exist hold packages of one name.
fn refuse_one_name_twice(root: &Path, open: &[String]) -> Result<()> {
    let mut seen: Vec<(String, &String)> = Vec::new();
    for folder in open {
        let manifest = root.join(folder).join("Cargo.toml");
        let Ok(text) = fs::read_to_string(&manifest) else {
            continue;
        };
        let Some(name) = text
            .parse::<toml::Table>()
            .ok()
            .and_then(|t| t.get("package")?.get("name")?.as_str().map(str::to_owned))
        else {
            continue;
        };
        if let Some((_, other)) = seen.iter().find(|(n, _)| *n == name) {
            bail!(
                "cannot open {folder}: its package is named `{name}`, as is {other}'s, and cargo \
                 refuses two packages of one name in a workspace; give one of them a name of its \
                 own (`name` in {} or in {other}'s, and its binaries' names), or archive {other} \
                 first",
                manifest.display()
            );
        }
        seen.push((name, folder));
    }
    Ok(())
}

/// Archives the problems in `dirs`: they leave the root workspace's members, each with its
/// `Cargo.lock` seeded from the root's. Fails in a workspace of the old layout (see
/// [`migrate`]).
pub fn archive(root: &Path, dirs: &[PathBuf]) -> Result<Moved> {
    if layout(root)? == Layout::AllMembers {
        bail!(
            "every problem of this workspace is a member (`members` has a pattern over \
             problems/): run `cargo xtask migrate` to keep problems apart first"
        );
    }
    let wanted = folders(root, dirs)?;
    let archived = members::edit(root, |lists| {
        let archived: Vec<String> = wanted
            .iter()
            .filter(|w| lists.standing(w) == Standing::Open)
            .cloned()
            .collect();
        lists.open.retain(|f| !wanted.contains(f));
        for folder in &wanted {
            if lists.standing(folder) == Standing::Unlisted {
                lists.archived.push(folder.clone());
            }
        }
        Ok(archived)
    })?;
    locks::after_move(root, &archived, !archived.is_empty())?;
    Ok(Moved {
        opened: Vec::new(),
        archived,
    })
}

/// What [`migrate`] changed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Migration {
    /// Problem manifests that inherited from the workspace and now say it all themselves.
    pub manifests: Vec<PathBuf>,
    /// Whether `.cargo/config.toml` gained the judge profile and the shared target folder.
    pub config: bool,
    /// The problems left open, and those archived.
    pub moved: Moved,
}

/// Moves a workspace of an older layout over. Before the archive (every problem a member,
/// manifests that inherit from the workspace): every problem manifest says what it inherited
/// itself (`[workspace.package]` fields, `[workspace.dependencies]` with their paths made
/// relative to the problem, `[workspace.lints]`); the judge profile and a shared target folder
/// go to `.cargo/config.toml`, which archived packages read too; the pattern over `problems/`
/// leaves `members`, and the [`OPEN_LIMIT`] problems changed last stay open, the others
/// archived. After the first archive (open problems named by their plain path, `problems`
/// excluded as a whole): the lists are written in the form that tolerates a missing folder
/// ([`super::members`]). Run again, it changes nothing.
pub fn migrate(root: &Path, problem_dirs: &[PathBuf]) -> Result<Migration> {
    let workspace = RootManifest::read(root)?.workspace().clone();
    let mut migration = Migration::default();
    for dir in problem_dirs {
        let path = dir.join("Cargo.toml");
        let text =
            fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let depth = dir
            .strip_prefix(root)
            .with_context(|| format!("{} is not under {}", dir.display(), root.display()))?
            .components()
            .count();
        let explicit = without_inheritance(&text, &workspace, depth)
            .with_context(|| format!("cannot migrate {}", path.display()))?;
        if explicit != text {
            members::write_atomically(&path, &explicit)?;
            migration.manifests.push(path);
        }
    }
    let mut every_problem_a_member = false;
    members::rewrite(root, |doc| {
        migration.config = judge_profile_in_config(root, doc)?;
        if let Some(list) = doc["workspace"]
            .get_mut("members")
            .and_then(Item::as_array_mut)
        {
            let before = list.len();
            list.retain(|m| {
                !m.as_str().is_some_and(|m| {
                    m.starts_with(PROBLEMS)
                        && m.contains(['*', '?', '['])
                        && !m.starts_with("problems/../")
                })
            });
            every_problem_a_member = list.len() != before;
        }
        Ok(())
    })?;
    if !every_problem_a_member {
        members::edit(root, |_| Ok(()))?;
        return Ok(migration);
    }
    let mut by_change: Vec<(std::time::SystemTime, &PathBuf)> = problem_dirs
        .iter()
        .map(|dir| (last_change(dir), dir))
        .collect();
    by_change.sort();
    let split = by_change.len().saturating_sub(OPEN_LIMIT);
    let old = folders(
        root,
        &by_change[..split]
            .iter()
            .map(|(_, d)| d.to_path_buf())
            .collect::<Vec<_>>(),
    )?;
    let recent = folders(
        root,
        &by_change[split..]
            .iter()
            .map(|(_, d)| d.to_path_buf())
            .collect::<Vec<_>>(),
    )?;
    members::edit(root, |lists| {
        lists
            .open
            .retain(|f| !old.contains(f) && !recent.contains(f));
        lists.open.extend(recent.iter().cloned());
        lists
            .archived
            .retain(|f| !old.contains(f) && !recent.contains(f));
        lists.archived.extend(old.iter().cloned());
        Ok(())
    })?;
    locks::after_move(root, &old, true)?;
    migration.moved = Moved {
        opened: recent,
        archived: old,
    };
    Ok(migration)
}

/// When a problem's files last changed: the newest modification time under its `src/`, its
/// samples and its manifest.
fn last_change(dir: &Path) -> std::time::SystemTime {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_entry(|e| e.file_name() != "target")
        .flatten()
        .filter_map(|e| e.metadata().ok()?.modified().ok())
        .max()
        .unwrap_or(std::time::UNIX_EPOCH)
}

/// Moves `[profile.judge]` from the root manifest `root_manifest` (where only the root
/// workspace's members see it) to `.cargo/config.toml` (which every package under the root
/// reads), with `[build] target-dir = "target"` so that archived problems share the root's
/// target folder; whether the config changed.
fn judge_profile_in_config(root: &Path, root_manifest: &mut DocumentMut) -> Result<bool> {
    let path = root.join(".cargo").join("config.toml");
    let text = if path.is_file() {
        fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?
    } else {
        String::new()
    };
    let mut config: DocumentMut = text
        .parse()
        .with_context(|| format!("cannot parse {}", path.display()))?;
    let mut changed = false;
    let profile = root_manifest
        .get_mut("profile")
        .and_then(Item::as_table_mut)
        .and_then(|profiles| profiles.remove("judge"));
    let has_judge = config.get("profile").and_then(|p| p.get("judge")).is_some();
    if !has_judge {
        let judge = profile.unwrap_or_else(|| {
            let mut judge = Table::new();
            judge["inherits"] = toml_edit::value("release");
            judge["opt-level"] = toml_edit::value(2);
            judge["debug-assertions"] = toml_edit::value(false);
            judge["overflow-checks"] = toml_edit::value(false);
            Item::Table(judge)
        });
        let profiles = config
            .entry("profile")
            .or_insert(Item::Table(Table::new()))
            .as_table_mut()
            .context("[profile] in .cargo/config.toml is not a table")?;
        profiles.set_implicit(true);
        profiles.insert("judge", judge);
        changed = true;
    }
    let has_target = config
        .get("build")
        .and_then(|b| b.get("target-dir"))
        .is_some();
    if !has_target {
        let build = config
            .entry("build")
            .or_insert(Item::Table(Table::new()))
            .as_table_mut()
            .context("[build] in .cargo/config.toml is not a table")?;
        build.insert("target-dir", toml_edit::value("target"));
        changed = true;
    }
    if changed {
        fs::create_dir_all(root.join(".cargo"))
            .with_context(|| format!("cannot create {}", root.join(".cargo").display()))?;
        members::write_atomically(&path, &config.to_string())?;
    }
    Ok(changed)
}

/// A problem manifest's text with everything it inherits from `workspace` (the root's
/// `[workspace]` table) written out, for a problem `depth` folders below the root.
pub fn without_inheritance(text: &str, workspace: &Table, depth: usize) -> Result<String> {
    let mut doc: DocumentMut = text.parse().context("not a valid manifest")?;
    let up = "../".repeat(depth);
    if let Some(package) = doc.get_mut("package").and_then(Item::as_table_like_mut) {
        let keys: Vec<String> = package.iter().map(|(k, _)| k.to_string()).collect();
        for key in keys {
            if inherits(package.get(&key)) {
                let value = workspace
                    .get("package")
                    .and_then(|p| p.get(&key))
                    .with_context(|| {
                        format!(
                            "package.{key} inherits [workspace.package].{key}, which is not there"
                        )
                    })?;
                replace_keeping_comments(package, &key, without_comments(value));
            }
        }
    }
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        if let Some(table) = doc.get_mut(section).and_then(Item::as_table_like_mut) {
            explicit_dependencies(table, workspace, &up)?;
        }
    }
    if let Some(targets) = doc.get_mut("target").and_then(Item::as_table_like_mut) {
        for (_, target) in targets.iter_mut() {
            for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
                if let Some(table) = target.get_mut(section).and_then(Item::as_table_like_mut) {
                    explicit_dependencies(table, workspace, &up)?;
                }
            }
        }
    }
    if inherits(doc.get("lints")) {
        let lints = workspace
            .get("lints")
            .context("[lints] inherits [workspace.lints], which is not there")?;
        let decor = doc
            .get("lints")
            .and_then(Item::as_table)
            .map(|t| t.decor().clone());
        let mut lints = without_comments(lints);
        if let (Some(table), Some(decor)) = (lints.as_table_mut(), decor) {
            *table.decor_mut() = decor;
        }
        doc.insert("lints", lints);
    }
    Ok(doc.to_string())
}

/// `item` with the comments it had in the workspace's manifest left there: they speak of the
/// workspace, not of the problem.
fn without_comments(item: &Item) -> Item {
    let mut item = item.clone();
    strip_comments(&mut item);
    item
}

fn strip_comments(item: &mut Item) {
    match item {
        Item::Table(table) => {
            table.decor_mut().clear();
            for (mut key, value) in table.iter_mut() {
                key.leaf_decor_mut().clear();
                key.dotted_decor_mut().clear();
                strip_comments(value);
            }
        }
        Item::Value(value) => {
            value.decor_mut().clear();
        }
        _ => {}
    }
}

/// Sets `table[key]` to `item`, keeping the comment above the line. (Of a dotted key,
/// `KEY.workspace = true`, the comment belongs to its last part, which the new value drops: it
/// moves to `KEY`.)
fn replace_keeping_comments(table: &mut dyn toml_edit::TableLike, key: &str, item: Item) {
    let comment = table
        .get(key)
        .and_then(Item::as_table)
        .filter(|dotted| dotted.is_dotted())
        .and_then(|dotted| {
            let (first, _) = dotted.iter().next()?;
            let prefix = dotted.key(first)?.leaf_decor().prefix()?.as_str()?;
            Some(prefix.to_owned())
        });
    match table.get_mut(key) {
        Some(slot) => *slot = item,
        None => {
            table.insert(key, item);
        }
    }
    if let (Some(comment), Some(mut key)) = (comment, table.key_mut(key)) {
        key.leaf_decor_mut().set_prefix(comment);
    }
}

/// Whether `item` is `{ workspace = true }` (or `KEY.workspace = true`).
fn inherits(item: Option<&Item>) -> bool {
    item.and_then(|i| i.get("workspace"))
        .and_then(|w| w.as_bool())
        .unwrap_or(false)
}

/// The dependencies of `table` that inherit from `[workspace.dependencies]`, written out: the
/// workspace's spec (a path made relative to the problem with `up`), with the member's own
/// `features` added and its `optional` and `default-features` kept.
fn explicit_dependencies(
    table: &mut dyn toml_edit::TableLike,
    workspace: &Table,
    up: &str,
) -> Result<()> {
    let names: Vec<String> = table.iter().map(|(k, _)| k.to_string()).collect();
    for name in names {
        let Some(own) = table.get(&name).filter(|d| inherits(Some(d))) else {
            continue;
        };
        let own = own.clone();
        let shared = workspace
            .get("dependencies")
            .and_then(|d| d.get(&name))
            .with_context(|| {
                format!("dependency {name} inherits [workspace.dependencies].{name}, which is not there")
            })?;
        let mut spec = toml_edit::InlineTable::new();
        match shared {
            Item::Value(Value::String(version)) => {
                spec.insert("version", Value::from(version.value().as_str()));
            }
            other => {
                let table = other.as_table_like().with_context(|| {
                    format!("[workspace.dependencies].{name} is neither a version nor a table")
                })?;
                for (key, value) in table.iter() {
                    let Some(value) = value.as_value() else {
                        continue;
                    };
                    if key == "path" {
                        let path = value.as_str().unwrap_or_default();
                        spec.insert("path", Value::from(format!("{up}{path}")));
                    } else {
                        spec.insert(key, value.clone());
                    }
                }
            }
        }
        for (key, value) in own.as_table_like().into_iter().flat_map(|t| t.iter()) {
            let Some(value) = value.as_value() else {
                continue;
            };
            match key {
                "workspace" => {}
                "features" => {
                    let mut features: Array = spec
                        .get("features")
                        .and_then(Value::as_array)
                        .cloned()
                        .unwrap_or_default();
                    for feature in value.as_array().into_iter().flatten() {
                        if !features.iter().any(|f| f.as_str() == feature.as_str()) {
                            features.push(feature.clone());
                        }
                    }
                    spec.insert("features", Value::Array(features));
                }
                _ => {
                    spec.insert(key, value.clone());
                }
            }
        }
        spec.fmt();
        let explicit = if spec.len() == 1 && spec.contains_key("version") {
            Item::Value(spec.get("version").expect("one key").clone())
        } else {
            Item::Value(Value::InlineTable(spec))
        };
        replace_keeping_comments(table, &name, explicit);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOT: &str = r#"[workspace]
members = ["crates/*", "problems/*", "xtask"]
exclude = ["fuzz"]

[workspace.package]
edition = "2021"
version = "0.1.0"
license = "MIT OR Apache-2.0"

[workspace.dependencies]
sudoku-core = { path = "crates/sudoku-core" }
itertools = "0.11"
proconio = { version = "0.4", default-features = false }

[workspace.lints.rust]
unsafe_code = "deny"

[profile.judge]
inherits = "release"
opt-level = 2
debug-assertions = false
overflow-checks = false
"#;

    const PROBLEM: &str = r#"[package]
name = "boj-1000"
version.workspace = true
edition.workspace = true
publish = false

[dependencies]
# The solution's own library.
sudoku-core.workspace = true
itertools = { workspace = true, features = ["use_std"] }
proconio = { workspace = true, optional = true }

[package.metadata.boj]
id = 1000

[lints]
workspace = true
"#;

    fn workspace_table() -> Table {
        let doc: DocumentMut = ROOT.parse().unwrap();
        doc["workspace"].as_table().unwrap().clone()
    }

    #[test]
    fn an_inheriting_manifest_is_written_out_with_paths_from_the_problem() {
        let explicit = without_inheritance(PROBLEM, &workspace_table(), 2).unwrap();
        let parsed: toml::Table = explicit.parse().unwrap();
        let package = &parsed["package"];
        assert_eq!(package["version"].as_str(), Some("0.1.0"));
        assert_eq!(package["edition"].as_str(), Some("2021"));
        assert_eq!(package["publish"].as_bool(), Some(false));
        let deps = &parsed["dependencies"];
        assert_eq!(
            deps["sudoku-core"]["path"].as_str(),
            Some("../../crates/sudoku-core")
        );
        assert_eq!(deps["itertools"]["version"].as_str(), Some("0.11"));
        assert_eq!(
            deps["itertools"]["features"].as_array().unwrap()[0].as_str(),
            Some("use_std")
        );
        assert_eq!(deps["proconio"]["optional"].as_bool(), Some(true));
        assert_eq!(deps["proconio"]["default-features"].as_bool(), Some(false));
        assert_eq!(
            parsed["lints"]["rust"]["unsafe_code"].as_str(),
            Some("deny")
        );
        assert!(!explicit.contains("workspace"), "{explicit}");
        assert!(
            explicit.contains("# The solution's own library.\nsudoku-core = {"),
            "{explicit}"
        );
        // The metadata the judge reads is untouched, and a manifest that inherits nothing is
        // left as it was.
        assert_eq!(
            parsed["package"]["metadata"]["boj"]["id"].as_integer(),
            Some(1000)
        );
        assert_eq!(
            without_inheritance(&explicit, &workspace_table(), 2).unwrap(),
            explicit
        );
    }

    #[test]
    fn inheriting_what_the_workspace_lacks_is_an_error() {
        let manifest = "[package]\nname = \"a\"\nlicense-file.workspace = true\n";
        let err = without_inheritance(manifest, &workspace_table(), 2).unwrap_err();
        assert!(format!("{err:#}").contains("license-file"), "{err:#}");
    }

    /// A workspace at a fresh scratch folder with `members` and problems boj-1 ... boj-N.
    fn scratch_workspace(name: &str, members: &str, problems: u32) -> PathBuf {
        let root =
            std::env::temp_dir().join(format!("xtask-archive-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        for id in 1..=problems {
            let dir = root.join(format!("problems/boj-{id}"));
            fs::create_dir_all(dir.join("samples")).unwrap();
            fs::write(
                dir.join("Cargo.toml"),
                PROBLEM.replace("1000", &id.to_string()),
            )
            .unwrap();
        }
        fs::write(
            root.join("Cargo.toml"),
            ROOT.replace(r#"["crates/*", "problems/*", "xtask"]"#, members),
        )
        .unwrap();
        fs::write(root.join("Cargo.lock"), "# a lock\n").unwrap();
        root
    }

    fn dir(root: &Path, id: u32) -> PathBuf {
        root.join(format!("problems/boj-{id}"))
    }

    #[test]
    fn opening_keeps_the_last_opened_and_archives_the_oldest_past_the_limit() {
        let root = scratch_workspace("open", r#"["crates/*", "xtask"]"#, 12);
        for id in 1..=OPEN_LIMIT as u32 {
            let moved = open(&root, &[dir(&root, id)]).unwrap();
            assert_eq!(moved.opened, [format!("problems/boj-{id}")]);
            assert!(moved.archived.is_empty());
        }
        // Opening an open problem again makes it the newest; nothing leaves.
        let moved = open(&root, &[dir(&root, 1)]).unwrap();
        assert_eq!(moved, Moved::default());
        // One more: the one opened longest ago (boj-2 now) goes back to the archive.
        let moved = open(&root, &[dir(&root, 9)]).unwrap();
        assert_eq!(moved.archived, ["problems/boj-2"]);
        let open_now = open_problems(&root).unwrap();
        assert_eq!(open_now.len(), OPEN_LIMIT);
        assert_eq!(open_now.last().map(String::as_str), Some("problems/boj-9"));
        assert_eq!(open_now.first().map(String::as_str), Some("problems/boj-3"));
        // The archived one keeps the root's lock; the root now excludes it, and keeps its
        // other members and everything else it said.
        assert_eq!(
            fs::read_to_string(dir(&root, 2).join("Cargo.lock")).unwrap(),
            "# a lock\n"
        );
        let text = fs::read_to_string(root.join("Cargo.toml")).unwrap();
        let parsed: toml::Table = text.parse().unwrap();
        let exclude = parsed["workspace"]["exclude"].as_array().unwrap();
        assert!(
            exclude.iter().any(|e| e.as_str() == Some("problems/boj-2")),
            "{text}"
        );
        assert!(text.contains("\"problems/../[p]roblems/boj-9\""), "{text}");
        assert!(
            text.contains("\"crates/*\"") && text.contains("[profile.judge]"),
            "{text}"
        );
        // Archiving by name; a folder outside problems/ is refused.
        let moved = archive(&root, &[dir(&root, 9)]).unwrap();
        assert_eq!(moved.archived, ["problems/boj-9"]);
        assert!(open(&root, &[root.join("crates")]).is_err());
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_problem_named_twice_is_opened_and_archived_once() {
        // `cargo xtask open 1 boj-1`: the problem was listed twice among the open ones, taken
        // for a copy of itself ("its package is named `boj-1`, as is problems/boj-1's"), and
        // the open refused with exit 2; `archive 1 1` said "archived problems/boj-1,
        // problems/boj-1".
        let root = scratch_workspace("twice", r#"["crates/*", "xtask"]"#, 2);
        let twice = [dir(&root, 1), dir(&root, 2), dir(&root, 1)];
        let moved = open(&root, &twice).unwrap();
        assert_eq!(moved.opened, ["problems/boj-1", "problems/boj-2"]);
        assert!(moved.archived.is_empty(), "{moved}");
        assert_eq!(
            open_problems(&root).unwrap(),
            ["problems/boj-1", "problems/boj-2"]
        );
        let moved = archive(&root, &twice).unwrap();
        assert_eq!(moved.archived, ["problems/boj-1", "problems/boj-2"]);
        assert!(open_problems(&root).unwrap().is_empty());
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn opening_more_than_the_limit_says_only_what_changed() {
        // Ten named at once while two others are open: the last eight named stay open. The
        // first two named were said to be opened and then archived, though they never were
        // opened; only the two open before leave.
        let root = scratch_workspace("many", r#"["crates/*", "xtask"]"#, 12);
        open(&root, &[dir(&root, 1), dir(&root, 2)]).unwrap();
        let named: Vec<PathBuf> = (3..=12).map(|id| dir(&root, id)).collect();
        let moved = open(&root, &named).unwrap();
        let folders = |ids: std::ops::RangeInclusive<u32>| -> Vec<String> {
            ids.map(|id| format!("problems/boj-{id}")).collect()
        };
        assert_eq!(moved.opened, folders(5..=12), "{moved}");
        assert_eq!(moved.archived, folders(1..=2), "{moved}");
        assert_eq!(open_problems(&root).unwrap(), folders(5..=12));
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_old_layout_keeps_every_problem_a_member_until_migrated() {
        let root = scratch_workspace("migrate", r#"["crates/*", "problems/*", "xtask"]"#, 10);
        assert_eq!(layout(&root).unwrap(), Layout::AllMembers);
        assert_eq!(open(&root, &[dir(&root, 1)]).unwrap(), Moved::default());
        assert!(archive(&root, &[dir(&root, 1)]).is_err());
        let dirs: Vec<PathBuf> = (1..=10).map(|id| dir(&root, id)).collect();
        let migration = migrate(&root, &dirs).unwrap();
        assert_eq!(migration.manifests.len(), 10);
        assert!(migration.config);
        assert_eq!(
            migration.moved.archived.len() + migration.moved.opened.len(),
            10
        );
        assert_eq!(open_problems(&root).unwrap().len(), OPEN_LIMIT);
        assert_eq!(layout(&root).unwrap(), Layout::OpenAndArchived);
        let config = fs::read_to_string(root.join(".cargo/config.toml")).unwrap();
        let parsed: toml::Table = config.parse().unwrap();
        assert_eq!(
            parsed["profile"]["judge"]["opt-level"].as_integer(),
            Some(2)
        );
        assert_eq!(parsed["build"]["target-dir"].as_str(), Some("target"));
        let root_text = fs::read_to_string(root.join("Cargo.toml")).unwrap();
        assert!(!root_text.contains("[profile.judge]"), "{root_text}");
        // Again: nothing to do.
        let again = migrate(&root, &dirs).unwrap();
        assert!(again.manifests.is_empty() && !again.config, "{again:?}");
        assert_eq!(again.moved, Moved::default());
        fs::remove_dir_all(&root).unwrap();
    }
}
