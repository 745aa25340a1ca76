//! The root manifest's lists of problems: which problem folders are open (members of the root
//! workspace, so rust-analyzer sees them) and which are archived (excluded: packages of their
//! own), written so that no deleted, stashed, moved or copied problem folder can make cargo
//! refuse to load the workspace, and edited under a lock so that commands run at once lose no
//! edit.
//!
//! # How an open problem is written
//!
//! cargo refuses a workspace whose `members` names a folder that is not there ("failed to load
//! manifest for workspace member"), so a problem listed as `problems/boj-1000` breaks every cargo
//! command, rust-analyzer and `cargo xtask` itself the moment its folder is deleted, stashed or
//! absent on another branch. A glob over every problem (`problems/*`) tolerates that, but makes
//! every folder a member: a copied problem (same package name) or a folder left without its
//! `Cargo.toml` breaks the workspace instead, and cargo's exclusion check, which scans the
//! `exclude` list for every member, grows with the square of the archive. So an open problem is
//! written as a pattern that finds exactly its own folder, and finds nothing, harmlessly, when
//! the folder is gone:
//!
//! ```toml
//! members = ["crates/*", "xtask", "problems/../[p]roblems/boj-1000"]
//! exclude = ["[p]roblems", "problems/boj-1717"]   # boj-1717 is archived
//! ```
//!
//! What cargo does with it (`src/cargo/core/workspace.rs`, `WorkspaceRootConfig::members_paths`,
//! `Workspace::find_path_deps` and `WorkspaceRootConfig::is_excluded`, as of cargo 1.95; the
//! tests in `tests/it/workspace.rs` run cargo on it): a `members` entry is a glob; `[p]` matches the `p` of `problems`, so while the folder
//! is there the entry expands to `problems/../problems/boj-1000`, which cargo normalizes to the
//! problem's own folder and loads. When the glob finds nothing, cargo keeps the entry as it is
//! written, normalized: `[p]roblems/boj-1000`, a folder that never exists, and skips it because
//! `exclude` takes out `[p]roblems`. The `problems/..` in front is what keeps `exclude` from
//! taking out the problem itself: cargo lets a `members` entry override `exclude` only when the
//! member's path starts with the entry as written, and no real path starts with
//! `problems/../`. The pattern is read in the root folder (a handful of entries), not in
//! `problems/`, so it costs the same with a thousand problems as with three.
//!
//! An archived problem is an `exclude` entry of its own (`problems/boj-1717`): cargo builds it as
//! a package of its own and never walks it from the root. A stale entry, whose folder is gone,
//! is harmless in both lists. A folder in neither list (copied or made by hand, or back from a
//! branch where it was never listed) is *unlisted*: cargo's root commands ignore it, and the
//! xtask lists it (archived) before it asks cargo to build it alone ([`admit`]), since cargo
//! refuses to build a package that its workspace neither includes nor excludes.
//!
//! Older layouts are read too: open problems listed by their plain path (before this form), with
//! `problems` excluded as a whole, are rewritten into this form by the first edit; a pattern over
//! every problem (`problems/*`, before the archive) is [`Layout::AllMembers`], which `cargo xtask
//! migrate` moves over.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use toml_edit::{Array, DocumentMut, Item, Table, Value};

use super::locks;

/// The folder, under the workspace root, that holds the problems.
pub const PROBLEMS: &str = "problems";

/// Where an open problem's entry is read from (before the folder's own path under `problems/`).
const OPEN_PREFIX: &str = "problems/../[p]roblems/";

/// What an open problem's entry comes to when its folder is gone: a folder that never exists,
/// which `exclude` takes out.
const GONE: &str = "[p]roblems";

/// How the root workspace holds its problems.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// A pattern in `members` (`problems/*`) makes every problem a member: the layout before
    /// the archive. It works; `cargo xtask migrate` moves it over.
    AllMembers,
    /// Problems are members one by one (open) and the rest are excluded (archived).
    OpenAndArchived,
}

/// Where a problem folder stands in the root workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// A member: cargo builds it with the workspace, rust-analyzer sees it.
    Open,
    /// Excluded: a package of its own.
    Archived,
    /// In neither list (copied or made by hand): cargo's root commands ignore it, and cargo
    /// refuses to build it alone until it is listed.
    Unlisted,
}

/// The problem folders (paths under the root, as `problems/boj-1000`) the root manifest lists.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Lists {
    /// Open problems, in the order they were opened (the newest last).
    pub open: Vec<String>,
    /// Archived problems, in the order they were archived.
    pub archived: Vec<String>,
}

impl Lists {
    /// Where `folder` stands.
    pub fn standing(&self, folder: &str) -> Standing {
        if self.open.iter().any(|f| f == folder) {
            Standing::Open
        } else if self.archived.iter().any(|f| f == folder) {
            Standing::Archived
        } else {
            Standing::Unlisted
        }
    }
}

/// The root workspace's manifest, to read its problem lists and write them back, keeping every
/// other line, comment and entry as it was.
#[derive(Debug)]
pub struct RootManifest {
    path: PathBuf,
    doc: DocumentMut,
}

impl RootManifest {
    /// Reads `root/Cargo.toml`, which must have a `[workspace]` table.
    pub fn read(root: &Path) -> Result<RootManifest> {
        let path = root.join("Cargo.toml");
        let text =
            fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let doc: DocumentMut = text
            .parse()
            .with_context(|| format!("cannot parse {}", path.display()))?;
        if !doc.get("workspace").is_some_and(Item::is_table) {
            bail!("{} has no [workspace] table", path.display());
        }
        Ok(RootManifest { path, doc })
    }

    /// The `[workspace]` table.
    pub fn workspace(&self) -> &Table {
        self.doc["workspace"]
            .as_table()
            .expect("checked when read: [workspace] is a table")
    }

    fn workspace_mut(&mut self) -> &mut Table {
        self.doc["workspace"]
            .as_table_mut()
            .expect("checked when read: [workspace] is a table")
    }

    /// The strings of `[workspace].KEY` (none when it is missing or not an array).
    pub fn strings(&self, key: &str) -> Vec<String> {
        self.workspace()
            .get(key)
            .and_then(Item::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect()
    }

    /// The array `[workspace].KEY`, made when missing.
    fn array_mut(&mut self, key: &str) -> Result<&mut Array> {
        let workspace = self.workspace_mut();
        if !workspace.contains_key(key) {
            workspace.insert(key, Item::Value(Value::Array(Array::new())));
        }
        workspace[key]
            .as_array_mut()
            .with_context(|| format!("[workspace].{key} is not an array"))
    }

    /// How the workspace holds its problems.
    pub fn layout(&self) -> Layout {
        let all = self
            .strings("members")
            .iter()
            .any(|m| open_folder(m).is_none() && covers_problems(m));
        if all {
            Layout::AllMembers
        } else {
            Layout::OpenAndArchived
        }
    }

    /// The problems it names, open and archived (one in both lists is archived, as cargo takes
    /// it). Under the first archive's layout, which excluded `problems` as a whole, the archived
    /// problems are named nowhere: [`lists_with_every_folder`] places them.
    pub fn lists(&self) -> Lists {
        let archived: Vec<String> = self
            .strings("exclude")
            .iter()
            .filter_map(|e| archived_folder(e))
            .collect();
        let mut open: Vec<String> = Vec::new();
        for folder in self
            .strings("members")
            .iter()
            .filter_map(|m| open_folder(m))
        {
            if !archived.contains(&folder) && !open.contains(&folder) {
                open.push(folder);
            }
        }
        Lists { open, archived }
    }

    /// Whether `problems` is excluded as a whole (the first archive's layout): every problem not
    /// open is archived.
    fn excludes_every_problem(&self) -> bool {
        self.strings("exclude").iter().any(|e| e == PROBLEMS)
    }

    /// Writes `lists` back: the open problems at the end of `members`, each in the form that
    /// tolerates its folder's absence, and the archived ones at the end of `exclude` with the
    /// entry that takes the absent ones out; every other entry kept where it was.
    fn set(&mut self, lists: &Lists) -> Result<()> {
        let members: Vec<String> = self
            .strings("members")
            .into_iter()
            .filter(|m| open_folder(m).is_none())
            .chain(lists.open.iter().map(|f| open_entry(f)))
            .collect();
        set_strings(self.array_mut("members")?, &members, |m| {
            open_folder(m).unwrap_or_else(|| m.to_owned())
        });
        let mut exclude: Vec<String> = self
            .strings("exclude")
            .into_iter()
            .filter(|e| e != PROBLEMS && e != GONE && archived_folder(e).is_none())
            .collect();
        exclude.push(GONE.to_string());
        exclude.extend(lists.archived.iter().cloned());
        set_strings(self.array_mut("exclude")?, &exclude, str::to_owned);
        Ok(())
    }

    fn write(&self) -> Result<()> {
        write_atomically(&self.path, &self.doc.to_string())
    }

    /// The manifest as it would be written.
    pub fn text(&self) -> String {
        self.doc.to_string()
    }
}

/// `folder` (`problems/...`) as an open problem's `members` entry.
pub fn open_entry(folder: &str) -> String {
    let rest = folder.strip_prefix("problems/").unwrap_or(folder);
    let mut entry = String::from(OPEN_PREFIX);
    for c in rest.chars() {
        match c {
            '*' | '?' | '[' | ']' => {
                entry.push('[');
                entry.push(c);
                entry.push(']');
            }
            c => entry.push(c),
        }
    }
    entry
}

/// The problem folder a `members` entry opens: one in the tolerant form, or a plain path under
/// `problems/` (the form before it, rewritten at the next edit); `None` for anything else.
fn open_folder(member: &str) -> Option<String> {
    if let Some(rest) = member.strip_prefix(OPEN_PREFIX) {
        return unescape(rest).map(|rest| format!("{PROBLEMS}/{rest}"));
    }
    let member = member.trim_end_matches('/');
    let rest = member.strip_prefix("problems/")?;
    let plain = !rest.is_empty() && !rest.contains(['*', '?', '[', ']']);
    plain.then(|| format!("{PROBLEMS}/{rest}"))
}

/// A glob pattern's literal text, each metacharacter written `[c]`; `None` when it is a real
/// pattern (it could match other folders).
fn unescape(pattern: &str) -> Option<String> {
    let mut text = String::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '[' => {
                let escaped = chars.next()?;
                if chars.next()? != ']' {
                    return None;
                }
                text.push(escaped);
            }
            '*' | '?' | ']' => return None,
            c => text.push(c),
        }
    }
    (!text.is_empty()).then_some(text)
}

/// The problem folder an `exclude` entry archives (`problems/boj-1717`), if it names one.
fn archived_folder(exclude: &str) -> Option<String> {
    let exclude = exclude.trim_end_matches('/');
    let rest = exclude.strip_prefix("problems/")?;
    (!rest.is_empty()).then(|| format!("{PROBLEMS}/{rest}"))
}

/// Whether a `members` entry is a pattern over the problems (`problems/*`): every one a member.
fn covers_problems(member: &str) -> bool {
    member.starts_with(PROBLEMS) && member.contains(['*', '?', '['])
}

/// Replaces the strings of `array` with `values`, one a line when there are several (the form
/// rustfmt and people give a long list), keeping every comment people wrote in it: a comment
/// stays with its value where the value stays (the same `identity`: an open problem's entry
/// rewritten in another form keeps its comment), and one whose value leaves moves to the value
/// after it (or to the list's end), so a comment over a group of entries stays over the group.
fn set_strings(array: &mut Array, values: &[String], identity: impl Fn(&str) -> String) {
    let comment_of = |prefix: &str| -> Option<String> {
        let comment = prefix.trim_start_matches([' ', '\n', '\r']);
        (!comment.trim().is_empty()).then(|| prefix.trim_end_matches([' ', '\n', '\r']).to_owned())
    };
    let kept: Vec<String> = values.iter().map(|v| identity(v)).collect();
    let mut comments: Vec<(String, String)> = Vec::new();
    let mut carried = String::new();
    for value in array.iter() {
        let prefix = value
            .decor()
            .prefix()
            .and_then(|p| p.as_str())
            .unwrap_or("");
        let comment = comment_of(prefix);
        let id = value.as_str().map(&identity);
        match (comment, id) {
            (comment, Some(id)) if kept.contains(&id) => {
                let mut all = std::mem::take(&mut carried);
                if let Some(comment) = comment {
                    all.push_str(&comment);
                }
                if !all.is_empty() {
                    comments.push((id, all));
                }
            }
            (Some(comment), _) => carried.push_str(&comment),
            (None, _) => {}
        }
    }
    let trailing = array.trailing().as_str().unwrap_or("").to_owned();
    if let Some(comment) = comment_of(&trailing) {
        carried.push_str(&comment);
    }
    array.clear();
    for value in values {
        array.push(value.as_str());
    }
    let one_a_line = values.len() > 2 || !comments.is_empty() || !carried.is_empty();
    if one_a_line {
        for value in array.iter_mut() {
            let id = value.as_str().map(&identity);
            let comment = comments
                .iter()
                .find(|(v, _)| Some(v) == id.as_ref())
                .map(|(_, c)| c.as_str())
                .unwrap_or("");
            value.decor_mut().set_prefix(format!("{comment}\n    "));
        }
    }
    array.set_trailing(match (carried.is_empty(), one_a_line) {
        (false, _) => format!("{carried}\n"),
        (true, true) => "\n".to_string(),
        (true, false) => String::new(),
    });
    array.set_trailing_comma(one_a_line);
}

/// The problem folders under `root/problems`, as paths under the root (`problems/boj-1000`): a
/// folder with a `Cargo.toml`, looked for a level or two down (`problems/2024/boj-1000`), by
/// name only, with no manifest read.
pub fn folders(root: &Path) -> Vec<String> {
    let base = root.join(PROBLEMS);
    let mut found = Vec::new();
    let mut walk = walkdir::WalkDir::new(&base)
        .min_depth(1)
        .max_depth(3)
        .sort_by_file_name()
        .into_iter();
    while let Some(Ok(entry)) = walk.next() {
        let name = entry.file_name().to_string_lossy();
        if !entry.file_type().is_dir() || name.starts_with('.') || name == "target" {
            if entry.file_type().is_dir() {
                walk.skip_current_dir();
            }
            continue;
        }
        if entry.path().join("Cargo.toml").is_file() {
            if let Ok(folder) = folder_of(root, entry.path()) {
                found.push(folder);
            }
            walk.skip_current_dir();
        }
    }
    found
}

/// `dir` as a problem folder under `root`: its path under the root, with `/`
/// (`problems/boj-1000`); an error when it is not under `root/problems`.
pub fn folder_of(root: &Path, dir: &Path) -> Result<String> {
    let relative = dir.strip_prefix(root).with_context(|| {
        format!(
            "{} is not in the workspace at {}",
            dir.display(),
            root.display()
        )
    })?;
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.len() < 2 || parts[0] != PROBLEMS {
        bail!(
            "{} is not a folder under {}",
            dir.display(),
            root.join(PROBLEMS).display()
        );
    }
    Ok(parts.join("/"))
}

/// The workspace root a problem folder belongs to: the nearest folder above it whose
/// `problems/` holds it and whose `Cargo.toml` has a `[workspace]` table.
pub fn root_of(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().skip(1).find_map(|folder| {
        let is_root = dir.starts_with(folder.join(PROBLEMS))
            && super::manifests::read_table(&folder.join("Cargo.toml"))
                .is_ok_and(|table| table.contains_key("workspace"));
        is_root.then(|| folder.to_path_buf())
    })
}

/// The problem lists of the workspace at `root`.
pub fn lists(root: &Path) -> Result<Lists> {
    Ok(RootManifest::read(root)?.lists())
}

/// The problem lists with every problem folder placed: under the first archive's layout
/// (`problems` excluded as a whole), every folder not open is archived.
pub fn lists_with_every_folder(root: &Path, manifest: &RootManifest) -> Lists {
    let mut lists = manifest.lists();
    if manifest.excludes_every_problem() {
        for folder in folders(root) {
            if lists.standing(&folder) == Standing::Unlisted {
                lists.archived.push(folder);
            }
        }
    }
    lists
}

/// Changes the problem lists of the workspace at `root` with `change`, under the workspace's
/// lock (so that commands run at once each see the others' edits: six `cargo xtask new` at once
/// leave six problems), and writes the root manifest back when they changed (or were in an
/// older form), in one rename; the rest of the manifest, comments and hand edits included, is
/// kept. Returns what `change` returned. In the layout with every problem a member
/// ([`Layout::AllMembers`]), `change` sees empty lists and nothing is written.
pub fn edit<T>(root: &Path, change: impl FnOnce(&mut Lists) -> Result<T>) -> Result<T> {
    let _lock = lock(root)?;
    let mut manifest = RootManifest::read(root)?;
    if manifest.layout() == Layout::AllMembers {
        return change(&mut Lists::default());
    }
    let before = manifest.text();
    let mut lists = lists_with_every_folder(root, &manifest);
    let out = change(&mut lists)?;
    manifest.set(&lists)?;
    if manifest.text() != before {
        manifest.write()?;
    }
    Ok(out)
}

/// Rewrites the root manifest of `root` with `change` applied to the whole document (under the
/// same lock as [`edit`]), for `migrate`.
pub fn rewrite(root: &Path, change: impl FnOnce(&mut DocumentMut) -> Result<()>) -> Result<()> {
    let _lock = lock(root)?;
    let mut manifest = RootManifest::read(root)?;
    let before = manifest.text();
    change(&mut manifest.doc)?;
    if manifest.text() != before {
        manifest.write()?;
    }
    Ok(())
}

/// Runs `work` under the workspace's lock for edits of its root manifest (the lock [`edit`]
/// holds), for edits of files that follow its lists (the editor's configurations): commands run
/// at once then each see the lists as the last one left them. Not to be called inside [`edit`].
pub fn locked<T>(root: &Path, work: impl FnOnce() -> Result<T>) -> Result<T> {
    let _lock = lock(root)?;
    work()
}

/// Lists the problems in `dirs` that the root manifest does not list yet as archived, so that
/// cargo will build them alone (copied or made by hand, or back from a branch where they were
/// never listed); each gets the root's `Cargo.lock` when it has none, to build with the versions
/// the workspace uses. Folders outside a workspace's `problems/` (fixtures, paths) are left as
/// they are. Returns the folders it listed.
pub fn admit(dirs: &[PathBuf]) -> Result<Vec<String>> {
    let mut admitted = Vec::new();
    let mut by_root: Vec<(PathBuf, Vec<String>)> = Vec::new();
    for dir in dirs {
        let Some(root) = root_of(dir) else {
            continue;
        };
        let folder = folder_of(&root, dir)?;
        match by_root.iter_mut().find(|(r, _)| *r == root) {
            Some((_, folders)) => folders.push(folder),
            None => by_root.push((root, vec![folder])),
        }
    }
    for (root, folders) in by_root {
        let unlisted: Vec<String> = {
            let manifest = RootManifest::read(&root)?;
            if manifest.layout() == Layout::AllMembers {
                continue;
            }
            let lists = lists_with_every_folder(&root, &manifest);
            folders
                .into_iter()
                .filter(|f| lists.standing(f) == Standing::Unlisted)
                .collect()
        };
        if unlisted.is_empty() {
            continue;
        }
        let listed = edit(&root, |lists| {
            let mut listed = Vec::new();
            for folder in &unlisted {
                if lists.standing(folder) == Standing::Unlisted {
                    lists.archived.push(folder.clone());
                    listed.push(folder.clone());
                }
            }
            Ok(listed)
        })?;
        locks::resolve_locks(&locks::seed_locks(&root, &listed, false)?);
        admitted.extend(listed);
    }
    Ok(admitted)
}

/// The workspace's lock for edits of its root manifest: `target/.xtask-members.lock` under the
/// root (the folder cargo builds in, which version control ignores), held until dropped.
fn lock(root: &Path) -> Result<fs::File> {
    hold_lock(&root.join("target").join(".xtask-members.lock"), || {})
}

/// An exclusive lock on the file at `path` (made, with its folder, where missing), held until the
/// file is dropped. The system releases it when the process ends, however it ends, so a killed
/// command never leaves it held. `waiting` is called first when another process holds it.
pub(crate) fn hold_lock(path: &Path, waiting: impl FnOnce()) -> Result<fs::File> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => return Ok(file),
        Err(fs::TryLockError::WouldBlock) => waiting(),
        Err(fs::TryLockError::Error(_)) => {}
    }
    file.lock()
        .with_context(|| format!("cannot lock {}", path.display()))?;
    Ok(file)
}

/// Writes `text` to `path` through a temporary file beside it, renamed over it: a reader (cargo,
/// rust-analyzer) never sees half a manifest.
pub fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let temporary = path.with_file_name(format!(".{name}.xtask-{}", std::process::id()));
    fs::write(&temporary, text).with_context(|| format!("cannot write {}", temporary.display()))?;
    fs::rename(&temporary, path).with_context(|| {
        let _ = fs::remove_file(&temporary);
        format!("cannot replace {}", path.display())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_entry_is_read_back_as_its_folder_and_escapes_glob_characters() {
        for folder in [
            "problems/boj-1000",
            "problems/2024/boj-1000",
            "problems/a[1]*?",
        ] {
            let entry = open_entry(folder);
            assert!(entry.starts_with(OPEN_PREFIX), "{entry}");
            assert_eq!(open_folder(&entry).as_deref(), Some(folder), "{entry}");
        }
        assert_eq!(
            open_entry("problems/a[1]"),
            "problems/../[p]roblems/a[[]1[]]"
        );
        // The plain form before it is read as open too; patterns and other members are not.
        assert_eq!(
            open_folder("problems/boj-1000").as_deref(),
            Some("problems/boj-1000")
        );
        for other in [
            "problems/*",
            "problems/../[p]roblems/boj-*",
            "crates/*",
            "xtask",
            "problems",
        ] {
            assert_eq!(open_folder(other), None, "{other}");
        }
        assert_eq!(
            archived_folder("problems/boj-1717").as_deref(),
            Some("problems/boj-1717")
        );
        assert_eq!(archived_folder(GONE), None);
        assert_eq!(archived_folder(PROBLEMS), None);
    }

    const ROOT: &str = r#"# My practice.
[workspace]
members = [
    "crates/*",
    # The ones I am working on.
    "problems/boj-1000",
    "xtask",
    "problems/boj-2000",
]
exclude = ["fuzz", "problems"]
resolver = "2"

[workspace.dependencies]
itertools = "0.11" # by hand
"#;

    fn scratch_root(name: &str, folders: &[&str]) -> PathBuf {
        let root =
            std::env::temp_dir().join(format!("xtask-members-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        for folder in folders {
            fs::create_dir_all(root.join(folder)).unwrap();
            fs::write(root.join(folder).join("Cargo.toml"), "[package]\n").unwrap();
        }
        fs::write(root.join("Cargo.toml"), ROOT).unwrap();
        root
    }

    #[test]
    fn the_first_edit_rewrites_plain_entries_and_the_whole_exclusion_keeping_the_rest() {
        let root = scratch_root(
            "rewrite",
            &[
                "problems/boj-1000",
                "problems/boj-2000",
                "problems/boj-3000",
            ],
        );
        let manifest = RootManifest::read(&root).unwrap();
        assert_eq!(manifest.layout(), Layout::OpenAndArchived);
        let lists = lists_with_every_folder(&root, &manifest);
        assert_eq!(lists.open, ["problems/boj-1000", "problems/boj-2000"]);
        assert_eq!(lists.archived, ["problems/boj-3000"]);
        edit(&root, |_| Ok(())).unwrap();
        let text = fs::read_to_string(root.join("Cargo.toml")).unwrap();
        let parsed: toml::Table = text.parse().unwrap();
        let strings = |key: &str| -> Vec<String> {
            parsed["workspace"][key]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(
            strings("members"),
            [
                "crates/*",
                "xtask",
                "problems/../[p]roblems/boj-1000",
                "problems/../[p]roblems/boj-2000"
            ]
        );
        assert_eq!(
            strings("exclude"),
            ["fuzz", "[p]roblems", "problems/boj-3000"]
        );
        // Comments and hand edits stay: the file's head, a value's own, one above an entry.
        assert!(text.starts_with("# My practice.\n"), "{text}");
        assert!(text.contains("itertools = \"0.11\" # by hand"), "{text}");
        assert!(text.contains("# The ones I am working on."), "{text}");
        // Read back: the same lists, and a second edit changes nothing.
        assert_eq!(
            lists_with_every_folder(&root, &RootManifest::read(&root).unwrap()),
            lists
        );
        edit(&root, |_| Ok(())).unwrap();
        assert_eq!(fs::read_to_string(root.join("Cargo.toml")).unwrap(), text);
        // The entry under a comment leaves: the comment stays, over the entry after it; the
        // last one leaves too: it stays at the list's end.
        edit(&root, |lists| {
            lists.open.retain(|f| f != "problems/boj-1000");
            Ok(())
        })
        .unwrap();
        let text = fs::read_to_string(root.join("Cargo.toml")).unwrap();
        assert!(
            text.contains("# The ones I am working on.\n    \"problems/../[p]roblems/boj-2000\""),
            "{text}"
        );
        edit(&root, |lists| {
            lists.open.clear();
            Ok(())
        })
        .unwrap();
        let text = fs::read_to_string(root.join("Cargo.toml")).unwrap();
        assert!(text.contains("# The ones I am working on.\n]"), "{text}");
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn an_unlisted_folder_is_admitted_as_archived_with_the_roots_lock() {
        let root = scratch_root("admit", &["problems/boj-1000", "problems/boj-2000"]);
        edit(&root, |_| Ok(())).unwrap();
        fs::create_dir_all(root.join("problems/copy")).unwrap();
        fs::write(root.join("problems/copy/Cargo.toml"), "[package]\n").unwrap();
        fs::write(root.join("Cargo.lock"), "# the root's lock\n").unwrap();
        assert_eq!(
            lists(&root).unwrap().standing("problems/copy"),
            Standing::Unlisted
        );
        let dirs = [root.join("problems/copy"), root.join("problems/boj-1000")];
        assert_eq!(admit(&dirs).unwrap(), ["problems/copy"]);
        assert_eq!(
            lists(&root).unwrap().standing("problems/copy"),
            Standing::Archived
        );
        assert_eq!(
            fs::read_to_string(root.join("problems/copy/Cargo.lock")).unwrap(),
            "# the root's lock\n"
        );
        // Listed now: nothing more to do. A folder outside any workspace is left alone.
        assert!(admit(&dirs).unwrap().is_empty());
        assert!(admit(&[std::env::temp_dir()]).unwrap().is_empty());
        fs::remove_dir_all(&root).unwrap();
    }
}
