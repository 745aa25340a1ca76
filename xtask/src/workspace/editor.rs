//! The editor's files, kept as the root manifest is: `.vscode/launch.json` holds a CodeLLDB
//! debug configuration for each sample of each open problem (built by cargo in the debugging
//! profile, the sample's `.in` as standard input), and `.vscode/tasks.json` holds test, watch,
//! stress, bundle and submit for the problem of the file in the editor, with problem matchers
//! for the lines `test` ends a failing problem's cases with (`  PATH: sample NAME VERDICT ...`, the
//! sample's `.in`, or `  PATH:LINE:COLUMN: ...`, a panic's place; PATH from the workspace root,
//! absolute outside it: `commands/test.rs`'s `failed_cases`).
//!
//! Both files are JSON with comments (VS Code reads them as JSONC), and are the user's too: an
//! entry is the xtask's when it carries the mark [`MARK`] (a launch configuration's
//! `presentation.group`, a task's `detail`), and only those are ever changed or removed. Every
//! other entry, every comment and the layout are kept byte for byte (jsonc-parser's CST, which
//! keeps trivia); an entry of ours whose value is unchanged is not touched either, so a comment
//! written inside it stays until the xtask rewrites that entry. Edits happen under the
//! workspace's lock ([`super::members::locked`]) and a file is written whole, by rename, only
//! when it changed.
//!
//! The shapes follow CodeLLDB's manual (MANUAL.md: "Launching a New Process", `stdio` under
//! "Stdio Redirection", `cargo` under "Cargo support", `sourceLanguages` under "Rust Language
//! Support") and VS Code's tasks documentation (docs/editor/tasks.md: `problemMatcher`,
//! `fileLocation`, `kind: "file"`, `background`; variables `${file}`, `${workspaceFolder}`).

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use jsonc_parser::cst::{CstInputValue, CstRootNode};
use jsonc_parser::ParseOptions;

use super::build::{BuildOptions, DEBUG_PROFILE};
use super::members::{self, Layout, RootManifest};
use super::problem::Problem;

/// What every entry of ours starts its mark with.
pub const MARK: &str = "cargo xtask:";

/// The files this module keeps, under the workspace root.
pub const LAUNCH: &str = ".vscode/launch.json";
/// See [`LAUNCH`].
pub const TASKS: &str = ".vscode/tasks.json";

/// Whether [`sync`] makes a file that is not there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// Make it: the commands that start work on a problem (`new`, `listen`, `open`, `watch`).
    Make,
    /// Leave it missing: the others (`test`, `archive`, `migrate`), so that a command run on a
    /// branch or a checkout without the files never adds them there (an untracked file that
    /// would block switching back).
    Leave,
}

/// Brings `.vscode/launch.json` and `.vscode/tasks.json` of the workspace at `root` up to date
/// with its open problems and their samples, under the workspace's lock; a missing file is
/// made or left as `missing` says. Returns the files it wrote. An error (a file that is not
/// JSON with comments, say) leaves both as they were. A folder that is not a cargo workspace has
/// none.
pub fn sync(root: &Path, missing: Missing) -> Result<Vec<PathBuf>> {
    // Only a cargo workspace has them: its open problems are what the configurations build.
    let is_workspace = super::manifests::read_table(&root.join("Cargo.toml"))
        .is_ok_and(|table| table.contains_key("workspace"));
    if !is_workspace {
        return Ok(Vec::new());
    }
    members::locked(root, || {
        let read = |file: &str| -> Result<Option<String>> {
            let path = root.join(file);
            match fs::read_to_string(&path) {
                Ok(text) => Ok(Some(text)),
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(err) => Err(err).with_context(|| format!("cannot read {}", path.display())),
            }
        };
        let launch_text = read(LAUNCH)?;
        let launch = launch_configurations(root, launch_text.as_deref())?;
        let mut wrote = Vec::new();
        for (file, key, header, entries) in [
            (LAUNCH, "configurations", LAUNCH_HEADER, launch),
            (TASKS, "tasks", TASKS_HEADER, tasks()),
        ] {
            let path = root.join(file);
            let before = if file == LAUNCH {
                launch_text.clone()
            } else {
                read(file)?
            };
            if before.is_none() && missing == Missing::Leave {
                continue;
            }
            let start = before.clone().unwrap_or_else(|| header.to_string());
            let after = with_entries(&start, key, &entries)
                .with_context(|| format!("cannot keep {} up to date", path.display()))?;
            if before.as_deref() != Some(after.as_str()) {
                if let Some(dir) = path.parent() {
                    fs::create_dir_all(dir)
                        .with_context(|| format!("cannot create {}", dir.display()))?;
                }
                members::write_atomically(&path, &after)?;
                wrote.push(path);
            }
        }
        Ok(wrote)
    })
}

const LAUNCH_HEADER: &str = r#"{
    // Debug a sample with CodeLLDB (the vadimcn.vscode-lldb extension): Run and Debug, then
    // "PROBLEM: sample NAME". The configurations whose presentation group starts with
    // "cargo xtask:" are kept by cargo xtask (new, open, archive and test rewrite them as open
    // problems and their samples come and go); add your own beside them: they stay as written.
    "version": "0.2.0",
    "configurations": []
}
"#;

const TASKS_HEADER: &str = r#"{
    // cargo xtask on the problem of the file in the editor (Terminal > Run Task). The tasks whose
    // detail starts with "cargo xtask:" are kept by cargo xtask; add your own beside them: they
    // stay as written.
    "version": "2.0.0",
    "tasks": []
}
"#;

/// `text` (a JSONC object) with the array `key` holding `entries` where it held the entries
/// marked as ours: those unchanged kept as they are, the others removed, the new ones put
/// where their order says; every other entry and comment kept.
pub fn with_entries(text: &str, key: &str, entries: &[CstInputValue]) -> Result<String> {
    let root = CstRootNode::parse(text, &ParseOptions::default())
        .map_err(|err| anyhow::anyhow!("{err}"))?;
    let Some(object) = root.object_value() else {
        bail!("it is not a JSON object");
    };
    let array = match object.get(key) {
        Some(property) => match property.array_value() {
            Some(array) => array,
            None => bail!("its \"{key}\" is not an array"),
        },
        None => object.array_value_or_set(key),
    };
    let wanted: Vec<serde_json::Value> = entries.iter().map(to_json).collect();
    // Ours that stay as they are, by their place in `wanted`; the rest of ours go.
    let mut kept: Vec<Option<serde_json::Value>> = vec![None; wanted.len()];
    for element in array.elements() {
        let Some(value) = element.to_serde_value() else {
            continue;
        };
        if !is_ours(&value) {
            continue;
        }
        match wanted.iter().position(|w| *w == value) {
            Some(at) if kept[at].is_none() => kept[at] = Some(value),
            _ => element.remove(),
        }
    }
    // The new ones: each after the entry of ours before it, or before the first of ours, or
    // at the end.
    for (at, entry) in entries.iter().enumerate() {
        if kept[at].is_some() {
            continue;
        }
        let elements = array.elements();
        let values: Vec<Option<serde_json::Value>> =
            elements.iter().map(|e| e.to_serde_value()).collect();
        let index_of =
            |value: &serde_json::Value| values.iter().position(|v| v.as_ref() == Some(value));
        let before = wanted[..at].iter().rev().find_map(&index_of).map(|i| i + 1);
        let after = wanted[at + 1..].iter().find_map(index_of);
        let index = before.or(after).unwrap_or(elements.len());
        array.insert(index, entry.clone());
        kept[at] = Some(wanted[at].clone());
    }
    Ok(root.to_string())
}

/// Whether an entry is ours: its mark ([`MARK`]) as a configuration's `presentation.group` or
/// a task's `detail`.
fn is_ours(value: &serde_json::Value) -> bool {
    let marked = |text: Option<&serde_json::Value>| {
        text.and_then(serde_json::Value::as_str)
            .is_some_and(|text| text.starts_with(MARK))
    };
    marked(value.pointer("/presentation/group")) || marked(value.get("detail"))
}

/// A CST input value as JSON, to compare with what a file holds.
fn to_json(value: &CstInputValue) -> serde_json::Value {
    match value {
        CstInputValue::Null => serde_json::Value::Null,
        CstInputValue::Bool(b) => serde_json::Value::Bool(*b),
        CstInputValue::Number(n) => serde_json::from_str(n).unwrap_or(serde_json::Value::Null),
        CstInputValue::String(s) => serde_json::Value::String(s.clone()),
        CstInputValue::Array(items) => {
            serde_json::Value::Array(items.iter().map(to_json).collect())
        }
        CstInputValue::Object(props) => {
            serde_json::Value::Object(props.iter().map(|(k, v)| (k.clone(), to_json(v))).collect())
        }
    }
}

fn text(value: &str) -> CstInputValue {
    CstInputValue::String(value.to_string())
}

fn list(items: &[&str]) -> CstInputValue {
    CstInputValue::Array(items.iter().map(|item| text(item)).collect())
}

fn object(props: Vec<(&str, CstInputValue)>) -> CstInputValue {
    CstInputValue::Object(props.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// The open problems' folders of the workspace at `root` (every problem's, in a workspace whose
/// members are all its problems), in the order they were opened.
fn open_folders(root: &Path) -> Result<Vec<String>> {
    let manifest = RootManifest::read(root)?;
    Ok(match manifest.layout() {
        Layout::AllMembers => members::folders(root),
        Layout::OpenAndArchived => members::lists_with_every_folder(root, &manifest).open,
    })
}

/// A configuration for each sample of each open problem. An open problem whose folder is not
/// there (deleted, stashed, on another branch) keeps the configurations `launch` (the file as
/// it is) holds for it, as the root manifest keeps its line: they come back into use with the
/// folder, and a stash or a branch switch finds the file as it left it.
fn launch_configurations(root: &Path, launch: Option<&str>) -> Result<Vec<CstInputValue>> {
    let existing: Vec<serde_json::Value> = launch
        .and_then(|text| CstRootNode::parse(text, &ParseOptions::default()).ok())
        .and_then(|root| root.value()?.to_serde_value())
        .and_then(|value| value.get("configurations")?.as_array().cloned())
        .unwrap_or_default();
    let mut entries = Vec::new();
    for folder in open_folders(root)? {
        let dir = root.join(&folder);
        let there = dir.join("Cargo.toml").is_file() && dir.join("samples").is_dir();
        if !there {
            let cwd = format!("${{workspaceFolder}}/{folder}");
            entries.extend(
                existing
                    .iter()
                    .filter(|value| is_ours(value) && value["cwd"] == cwd.as_str())
                    .map(from_json),
            );
            continue;
        }
        let Ok(problem) = Problem::load(&dir) else {
            continue;
        };
        // An interactive problem's sample is its interactor's input, not the solution's: no
        // configuration runs the solution on it (as `cargo xtask debug` refuses to).
        if matches!(problem.judge, super::problem::Judge::Interactive(_)) {
            continue;
        }
        let Ok(samples) = problem.samples() else {
            continue;
        };
        for (order, sample) in samples.iter().enumerate() {
            entries.push(launch_configuration(&problem, &folder, &sample.name, order));
        }
    }
    Ok(entries)
}

/// JSON as a CST input value (an entry kept as the file holds it).
fn from_json(value: &serde_json::Value) -> CstInputValue {
    match value {
        serde_json::Value::Null => CstInputValue::Null,
        serde_json::Value::Bool(b) => CstInputValue::Bool(*b),
        serde_json::Value::Number(n) => CstInputValue::Number(n.to_string()),
        serde_json::Value::String(s) => CstInputValue::String(s.clone()),
        serde_json::Value::Array(items) => {
            CstInputValue::Array(items.iter().map(from_json).collect())
        }
        serde_json::Value::Object(props) => CstInputValue::Object(
            props
                .iter()
                .map(|(k, v)| (k.clone(), from_json(v)))
                .collect(),
        ),
    }
}

/// CodeLLDB's configuration for sample `case` of `problem` (in `folder` under the root).
pub fn launch_configuration(
    problem: &Problem,
    folder: &str,
    case: &str,
    order: usize,
) -> CstInputValue {
    let mut build: Vec<String> = vec!["build".into(), "--profile".into(), DEBUG_PROFILE.into()];
    for setting in BuildOptions::debug_settings() {
        build.push("--config".into());
        build.push(setting);
    }
    build.extend([
        "--package".into(),
        problem.name.clone(),
        "--bin".into(),
        problem.solver_bin.clone(),
    ]);
    let build: Vec<&str> = build.iter().map(String::as_str).collect();
    let input = format!("${{workspaceFolder}}/{folder}/samples/{case}.in");
    object(vec![
        ("name", text(&format!("{}: sample {case}", problem.name))),
        ("type", text("lldb")),
        ("request", text("launch")),
        (
            "cargo",
            object(vec![
                ("args", list(&build)),
                (
                    "filter",
                    object(vec![
                        ("name", text(&problem.solver_bin)),
                        ("kind", text("bin")),
                    ]),
                ),
            ]),
        ),
        ("args", CstInputValue::Array(Vec::new())),
        (
            "stdio",
            CstInputValue::Array(vec![text(&input), CstInputValue::Null, CstInputValue::Null]),
        ),
        ("cwd", text(&format!("${{workspaceFolder}}/{folder}"))),
        ("sourceLanguages", list(&["rust"])),
        (
            "presentation",
            object(vec![
                ("group", text(&format!("{MARK} {}", problem.name))),
                ("order", CstInputValue::Number(order.to_string())),
            ]),
        ),
    ])
}

/// The problem matchers for `test`'s and `watch`'s failing-case lines: one with a place
/// (`PATH:LINE:COLUMN: ...`), one naming the sample (`PATH.in: ...`, the whole file).
fn problem_matchers(background: bool) -> CstInputValue {
    let matcher = |pattern: CstInputValue| {
        let mut props = vec![
            ("owner", text("cargo-xtask")),
            ("source", text("cargo xtask")),
            ("fileLocation", list(&["autoDetect", "${workspaceFolder}"])),
            ("pattern", pattern),
        ];
        if background {
            props.push((
                "background",
                object(vec![
                    ("activeOnStart", CstInputValue::Bool(true)),
                    ("beginsPattern", text("^── ")),
                    ("endsPattern", text("^(\\S+: \\d+/\\d+ AC|error: )")),
                ]),
            ));
        }
        object(props)
    };
    CstInputValue::Array(vec![
        matcher(object(vec![
            ("regexp", text("^  (\\S.*):(\\d+):(\\d+): (.*)$")),
            ("file", CstInputValue::Number("1".into())),
            ("line", CstInputValue::Number("2".into())),
            ("column", CstInputValue::Number("3".into())),
            ("message", CstInputValue::Number("4".into())),
        ])),
        matcher(object(vec![
            ("regexp", text("^  (\\S.*\\.in): (.*)$")),
            ("kind", text("file")),
            ("file", CstInputValue::Number("1".into())),
            ("message", CstInputValue::Number("2".into())),
        ])),
    ])
}

/// The tasks: test, watch, stress, bundle and submit for the problem of the file in the editor
/// (`${file}`: the xtask takes a path to any file in a problem as that problem).
fn tasks() -> Vec<CstInputValue> {
    let task = |label: &str,
                detail: &str,
                args: &[&str],
                group: Option<CstInputValue>,
                matchers: CstInputValue,
                background: bool| {
        let mut props = vec![
            ("label", text(label)),
            ("detail", text(&format!("{MARK} {detail}"))),
            ("type", text("process")),
            ("command", text("cargo")),
            ("args", list(args)),
            ("options", object(vec![("cwd", text("${workspaceFolder}"))])),
        ];
        if background {
            props.push(("isBackground", CstInputValue::Bool(true)));
        }
        if let Some(group) = group {
            props.push(("group", group));
        }
        props.push(("problemMatcher", matchers));
        object(props)
    };
    let test_group = object(vec![
        ("kind", text("test")),
        ("isDefault", CstInputValue::Bool(true)),
    ]);
    vec![
        task(
            "xtask: test",
            "judge the samples of the problem of the file in the editor",
            &["xtask", "test", "${file}", "--color", "never"],
            Some(test_group),
            problem_matchers(false),
            false,
        ),
        task(
            "xtask: watch",
            "judge the problem of the file in the editor at every save",
            &["xtask", "watch", "${file}", "--color", "never"],
            None,
            problem_matchers(true),
            true,
        ),
        task(
            "xtask: stress",
            "stress the problem of the file in the editor against its reference",
            &["xtask", "stress", "${file}"],
            None,
            CstInputValue::Array(Vec::new()),
            false,
        ),
        task(
            "xtask: bundle",
            "write and check the one-file submission of the problem of the file in the editor",
            &["xtask", "bundle", "${file}", "--check"],
            Some(text("build")),
            problem_matchers(false),
            false,
        ),
        task(
            "xtask: submit",
            "check the bundle, copy it and open BOJ's submit page, for the problem of the file in \
             the editor",
            &["xtask", "submit", "${file}"],
            None,
            problem_matchers(false),
            false,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours(name: &str) -> CstInputValue {
        object(vec![
            ("name", text(name)),
            (
                "presentation",
                object(vec![("group", text("cargo xtask: p"))]),
            ),
        ])
    }

    #[test]
    fn the_users_entries_and_comments_stay_and_ours_follow_the_list() {
        let start = r#"{
    // the user's comment on the file
    "version": "0.2.0",
    "configurations": [
        // mine, above my own entry
        { "name": "mine", "type": "lldb" },
        { "name": "a", "presentation": { "group": "cargo xtask: p" } },
        /* a comment inside ours, unchanged */ { "name": "b", "presentation": { "group": "cargo xtask: p" } },
    ]
}
"#;
        // b stays as it was (its comment too), a leaves, c comes after b.
        let after = with_entries(start, "configurations", &[ours("b"), ours("c")]).unwrap();
        assert!(
            after.contains("// the user's comment on the file"),
            "{after}"
        );
        assert!(after.contains("// mine, above my own entry"), "{after}");
        assert!(
            after.contains(r#"{ "name": "mine", "type": "lldb" }"#),
            "{after}"
        );
        assert!(
            after.contains("/* a comment inside ours, unchanged */"),
            "{after}"
        );
        assert!(!after.contains(r#""name": "a""#), "{after}");
        let (b, c) = (
            after.find(r#""name": "b""#).unwrap(),
            after.find(r#""c""#).unwrap(),
        );
        assert!(b < c, "{after}");
        let value = CstRootNode::parse(&after, &ParseOptions::default())
            .unwrap()
            .value()
            .and_then(|v| v.to_serde_value())
            .unwrap();
        let names: Vec<&str> = value["configurations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["mine", "b", "c"]);
        // Again with the same list: not a byte changes.
        assert_eq!(
            with_entries(&after, "configurations", &[ours("b"), ours("c")]).unwrap(),
            after
        );
    }

    #[test]
    fn a_file_that_is_not_an_object_of_entries_is_refused() {
        assert!(with_entries("[]", "tasks", &[]).is_err());
        assert!(with_entries(r#"{"tasks": 3}"#, "tasks", &[]).is_err());
        assert!(with_entries(r#"{"tasks": [}"#, "tasks", &[]).is_err());
        let made = with_entries("{}", "tasks", &[ours("x")]).unwrap();
        assert!(made.contains(r#""name": "x""#), "{made}");
    }
}
