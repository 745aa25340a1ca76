//! The scaffolding engine: what a new problem folder contains, and making it appear whole or
//! not at all. `cargo xtask new` and `cargo xtask listen` turn their arguments (or a
//! competitive-companion payload) into a [`Spec`], call [`create`] or [`import`], and print what
//! came back; nothing here prints.
//!
//! A new `problems/boj-ID/` holds a `Cargo.toml` (the package, `rust-version = "1.56"`,
//! `default-run`, and BOJ's limits and judge under `[package.metadata.boj]`), the solution's
//! `src/main.rs`, a checker or an interactor when the judge needs one, a generator, a
//! reference and a validator with [`Spec::stress`], and `samples/` (the payload's, numbered from 1, or an empty
//! folder git keeps). [`files`] says exactly what; the Rust sources come from the files in
//! [`templates`], the manifest from [`manifest`].
//!
//! ```
//! use xtask::workspace::problem::Judge;
//! use xtask::scaffold::{self, Spec};
//!
//! let spec = Spec {
//!     id: 1000,
//!     judge: Judge::Checker("boj-1000-checker".into()),
//!     ..Spec::default()
//! };
//! let paths: Vec<String> = scaffold::files(&spec).into_iter().map(|f| f.path).collect();
//! let checker = "src/bin/boj-1000-checker.rs";
//! assert_eq!(paths, ["Cargo.toml", "src/main.rs", checker, "samples/.gitkeep"]);
//! ```

pub mod templates;

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{bail, ensure, Context, Result};

use crate::companion::{Differences, Import, SampleText};
use crate::workspace::problem::{self, Judge, Problem};

/// Everything a new problem folder is made from.
#[derive(Debug, Clone)]
pub struct Spec {
    /// The BOJ problem number.
    pub id: u32,
    /// BOJ's time limit, in milliseconds.
    pub time_limit_ms: u64,
    /// BOJ's memory limit, in MB.
    pub memory_limit_mb: u64,
    /// The problem's title, for the first line of `src/main.rs` (control characters there
    /// become spaces: the title stays on its comment line).
    pub title: Option<String>,
    /// Written as `samples/1.in`, `1.out`, ...; none means an empty `samples/` (a `.gitkeep`).
    pub samples: Vec<SampleText>,
    /// How answers are judged; a checker or interactor is scaffolded under the name given here.
    pub judge: Judge<String>,
    /// Scaffold a generator, a reference and a validator (named in the manifest once it is
    /// written) for `cargo xtask stress`.
    pub stress: bool,
}

impl Default for Spec {
    fn default() -> Spec {
        Spec {
            id: 0,
            time_limit_ms: problem::DEFAULT_TIME_LIMIT_MS,
            memory_limit_mb: problem::DEFAULT_MEMORY_LIMIT_MB,
            title: None,
            samples: Vec::new(),
            judge: Judge::Exact,
            stress: false,
        }
    }
}

impl Spec {
    /// What a payload makes: its limits, title and samples; the interactive judge when the
    /// payload says so, else the exact one; no stress binaries.
    pub fn from_import(import: &Import) -> Spec {
        Spec {
            id: import.id,
            time_limit_ms: import.time_limit_ms,
            memory_limit_mb: import.memory_limit_mb,
            title: Some(import.name.clone()).filter(|t| !t.is_empty()),
            samples: import.samples.clone(),
            judge: if import.interactive {
                Judge::Interactive(Role::Interactor.binary(import.id))
            } else {
                Judge::Exact
            },
            ..Spec::default()
        }
    }

    /// The problem as the solution's first line names it: `BOJ 1000 (A+B)`, or `BOJ 1000`.
    fn heading(&self) -> String {
        let title = self.title.as_deref().unwrap_or_default();
        if title.is_empty() {
            return format!("BOJ {}", self.id);
        }
        let one_line: String = title
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        format!("BOJ {} ({one_line})", self.id)
    }
}

/// A helper binary a scaffold may add beside the solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The special judge (`judge = "checker"`).
    Checker,
    /// The grader of an interactive problem (`judge = "interactive"`).
    Interactor,
    /// The stress generator (`generator = ...`).
    Generator,
    /// The stress reference (`reference = ...`).
    Reference,
    /// The input validator (`validator = ...`).
    Validator,
}

impl Role {
    /// The binary's name for problem `id`: `boj-ID-checker`, `-interactor`, `-gen`, `-brute`,
    /// `-validator` (binary names must be unique across the workspace, so each carries the id).
    pub fn binary(self, id: u32) -> String {
        let suffix = match self {
            Role::Checker => "checker",
            Role::Interactor => "interactor",
            Role::Generator => "gen",
            Role::Reference => "brute",
            Role::Validator => "validator",
        };
        format!("boj-{id}-{suffix}")
    }
}

/// One file of a new problem folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewFile {
    /// Where it goes in the folder, `/` between components: `src/bin/boj-1000-checker.rs`.
    pub path: String,
    /// What it holds.
    pub contents: String,
}

impl NewFile {
    fn new(path: impl Into<String>, contents: impl Into<String>) -> NewFile {
        NewFile {
            path: path.into(),
            contents: contents.into(),
        }
    }
}

/// Every file `spec` makes, in the order they are written: the manifest, the solution, the
/// checker or interactor, the generator, reference and validator, then the samples.
pub fn files(spec: &Spec) -> Vec<NewFile> {
    let (id, heading) = (spec.id.to_string(), spec.heading());
    let values = [
        (templates::ID, id.as_str()),
        (templates::PROBLEM, heading.as_str()),
    ];
    let fill = |template: &str| render(template, &values);
    let solution = match spec.judge {
        Judge::Interactive(_) => templates::INTERACTIVE_SOLUTION,
        Judge::Exact | Judge::Float(_) | Judge::Checker(_) => templates::SOLUTION,
    };
    let mut files = vec![
        NewFile::new("Cargo.toml", manifest(spec)),
        NewFile::new("src/main.rs", fill(solution)),
    ];
    let judge_helper = match &spec.judge {
        Judge::Checker(name) => Some((name, templates::CHECKER)),
        Judge::Interactive(name) => Some((name, templates::INTERACTOR)),
        Judge::Exact | Judge::Float(_) => None,
    };
    if let Some((name, template)) = judge_helper {
        files.push(NewFile::new(format!("src/bin/{name}.rs"), fill(template)));
    }
    if spec.stress {
        for (role, template) in [
            (Role::Generator, templates::GENERATOR),
            (Role::Reference, templates::REFERENCE),
            (Role::Validator, templates::VALIDATOR),
        ] {
            let path = format!("src/bin/{}.rs", role.binary(spec.id));
            files.push(NewFile::new(path, fill(template)));
        }
    }
    if spec.samples.is_empty() {
        files.push(NewFile::new("samples/.gitkeep", ""));
    }
    for (n, sample) in (1..).zip(&spec.samples) {
        files.push(NewFile::new(
            format!("samples/{n}.in"),
            sample.input.as_str(),
        ));
        files.push(NewFile::new(
            format!("samples/{n}.out"),
            sample.output.as_str(),
        ));
    }
    files
}

/// `template` with each placeholder of `values` (`("__ID__", "1000")`) replaced, in one pass
/// from left to right: a value is written as it is, even one that holds a placeholder's text.
fn render(template: &str, values: &[(&str, &str)]) -> String {
    let mut rendered = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("__") {
        let (before, from) = rest.split_at(start);
        rendered.push_str(before);
        match values.iter().find(|(key, _)| from.starts_with(key)) {
            Some((key, value)) => {
                rendered.push_str(value);
                rest = &from[key.len()..];
            }
            None => {
                rendered.push('_');
                rest = &from[1..];
            }
        }
    }
    rendered.push_str(rest);
    rendered
}

/// The problem's `Cargo.toml`: the package (named `boj-ID`, `rust-version = "1.56"`,
/// `default-run` the solution), `[package.metadata.boj]` with the limits and the judge, and
/// the stress binaries (set with [`Spec::stress`], else named in a comment), with a comment on
/// each choice a user may want to change.
pub fn manifest(spec: &Spec) -> String {
    let id = spec.id;
    let (checker, interactor) = (Role::Checker.binary(id), Role::Interactor.binary(id));
    let (generator, reference) = (Role::Generator.binary(id), Role::Reference.binary(id));
    let validator = Role::Validator.binary(id);
    let judge = match &spec.judge {
        Judge::Exact => format!(
            "judge = \"exact\"\n\
             # judge = \"float\" with error = 1e-9 for answers within an error;\n\
             # judge = \"checker\" with checker = \"{checker}\" for a special judge;\n\
             # judge = \"interactive\" with interactor = \"{interactor}\" for a grader.\n"
        ),
        Judge::Float(error) => format!(
            "judge = \"float\"\n\
             # Numbers may differ by this much, absolutely or relatively.\n\
             error = {error:e}\n"
        ),
        Judge::Checker(name) => format!(
            "judge = \"checker\"\n\
             # Called as `{name} INPUT ANSWER OUTPUT`; exit 0 accepts.\n\
             checker = \"{name}\"\n"
        ),
        Judge::Interactive(name) => format!(
            "judge = \"interactive\"\n\
             # Called as `{name} INPUT` (a sample's .in), talking to the solution; exit 0 \
             accepts, 1 rejects.\n\
             interactor = \"{name}\"\n"
        ),
    };
    let stress = if spec.stress {
        format!(
            "# `cargo xtask stress {id}`: `{generator} SEED SIZE` prints an input, the reference \
             answers it.\n\
             generator = \"{generator}\"\n\
             reference = \"{reference}\"\n\
             # Once src/bin/{validator}.rs checks this problem's constraints (exit 0 when the\n\
             # input on stdin meets them), name it: stress and scale run it on every generated\n\
             # input, test on the samples.\n\
             # validator = \"{validator}\"\n"
        )
    } else {
        format!(
            "# For `cargo xtask stress`: generator = \"{generator}\", reference = \
             \"{reference}\",\n# validator = \"{validator}\".\n"
        )
    };
    format!(
        r#"# Says everything itself (nothing `workspace = true`): an archived problem is a package of its
# own, with no workspace to inherit from (`cargo xtask open` and `archive` move it).
[package]
name = "boj-{id}"
description = "BOJ {id} judge binary: stdin -> solution -> stdout."
version = "0.1.0"
edition = "2021"
publish = false
# Bundled into a BOJ submission: BOJ's rustc is older than ours.
rust-version = "1.56"
# The solution; other binaries of this package (checker, generator, reference) are helpers.
default-run = "boj-{id}"

[dependencies]

[package.metadata.boj]
id = {id}
time-limit-ms = {time}
memory-limit-mb = {memory}
{judge}{stress}
[lints.clippy]
# The std a submission uses is checked against rust-version (BOJ's older rustc).
incompatible_msrv = "deny"
"#,
        time = spec.time_limit_ms,
        memory = spec.memory_limit_mb,
    )
}

/// `root/problems/boj-ID/`, where problem `id` lives.
pub fn problem_dir(root: &Path, id: u32) -> PathBuf {
    root.join("problems").join(format!("boj-{id}"))
}

/// Creates `root/problems/boj-ID/` from `spec`, whole or not at all: every file is written in
/// a hidden staging folder beside it, which is then renamed into place in one step. Fails,
/// changing nothing, if the folder exists, or appears meanwhile (renaming onto a folder that
/// is not empty fails); the staging folder is removed whatever happens.
pub fn create(root: &Path, spec: &Spec) -> Result<PathBuf> {
    let target = problem_dir(root, spec.id);
    if target.symlink_metadata().is_ok() {
        bail!("{} already exists; nothing was changed", target.display());
    }
    Staging::write(&target, &files(spec))?.move_to(&target)?;
    Ok(target)
}

/// What [`import`] did.
#[derive(Debug)]
pub enum Imported {
    /// A new problem folder.
    Created(PathBuf),
    /// The folder existed and was left alone; how the payload compares with it.
    Existing(PathBuf, Differences),
}

/// Creates `root/problems/boj-ID/` from `spec` (the payload's, [`Spec::from_import`], maybe
/// with another judge or stress binaries), or, when that folder exists, compares the payload
/// with it and writes nothing.
pub fn import(root: &Path, import: &Import, spec: &Spec) -> Result<Imported> {
    ensure!(
        spec.id == import.id,
        "cannot scaffold BOJ {} from a payload of BOJ {}",
        spec.id,
        import.id
    );
    let target = problem_dir(root, import.id);
    if target.symlink_metadata().is_ok() {
        let existing = Problem::load(&target)?;
        let differences = Differences::between(&existing, import)?;
        return Ok(Imported::Existing(target, differences));
    }
    create(root, spec).map(Imported::Created)
}

/// A problem folder written under a hidden name beside its target (`problems/.boj-ID.new-PID-N`,
/// on the same file system, so the move is one rename), removed on drop unless moved into
/// place: an error, a panic or an interrupted run leaves no half-made problem.
#[derive(Debug)]
struct Staging {
    dir: PathBuf,
    moved: bool,
}

impl Staging {
    /// Writes `files` into a fresh staging folder for `target`.
    fn write(target: &Path, files: &[NewFile]) -> Result<Staging> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let parent = target.parent().context("a problem folder has a parent")?;
        let name = target
            .file_name()
            .context("a problem folder has a name")?
            .to_string_lossy();
        fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
        let dir = parent.join(format!(
            ".{name}.new-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        // A folder of this name can only be a leftover of a killed run with our pid.
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let staging = Staging { dir, moved: false };
        for file in files {
            let path = staging.dir.join(&file.path);
            if let Some(folder) = path.parent() {
                fs::create_dir_all(folder)
                    .with_context(|| format!("cannot create {}", folder.display()))?;
            }
            fs::write(&path, &file.contents)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(staging)
    }

    /// Renames the staging folder to `target`, which must not exist or be an empty folder.
    fn move_to(mut self, target: &Path) -> Result<()> {
        fs::rename(&self.dir, target)
            .with_context(|| format!("cannot create {} (does it exist now?)", target.display()))?;
        self.moved = true;
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.moved {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;

    fn spec(id: u32, judge: Judge<String>, stress: bool) -> Spec {
        Spec {
            id,
            judge,
            stress,
            ..Spec::default()
        }
    }

    fn paths(spec: &Spec) -> Vec<String> {
        files(spec).into_iter().map(|f| f.path).collect()
    }

    fn file(spec: &Spec, path: &str) -> String {
        files(spec)
            .into_iter()
            .find(|f| f.path == path)
            .unwrap_or_else(|| panic!("no {path}"))
            .contents
    }

    /// The paths below `dir`, relative to it, sorted, `/` between components.
    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = walkdir::WalkDir::new(dir)
            .min_depth(1)
            .into_iter()
            .map(|e| {
                let e = e.unwrap();
                let relative = e.path().strip_prefix(dir).unwrap();
                relative.to_string_lossy().replace('\\', "/")
            })
            .collect();
        names.sort();
        names
    }

    #[test]
    fn each_judge_adds_its_helper_and_stress_adds_a_generator_and_a_reference() {
        let checker = Judge::Checker("boj-7-checker".to_string());
        let interactive = Judge::Interactive("boj-7-interactor".to_string());
        assert_eq!(
            paths(&spec(7, Judge::Exact, false)),
            ["Cargo.toml", "src/main.rs", "samples/.gitkeep"]
        );
        assert_eq!(
            paths(&spec(7, Judge::Float(1e-6), false)),
            paths(&spec(7, Judge::Exact, false))
        );
        assert_eq!(
            paths(&spec(7, checker, false)),
            [
                "Cargo.toml",
                "src/main.rs",
                "src/bin/boj-7-checker.rs",
                "samples/.gitkeep"
            ]
        );
        assert_eq!(
            paths(&spec(7, interactive, true)),
            [
                "Cargo.toml",
                "src/main.rs",
                "src/bin/boj-7-interactor.rs",
                "src/bin/boj-7-gen.rs",
                "src/bin/boj-7-brute.rs",
                "src/bin/boj-7-validator.rs",
                "samples/.gitkeep"
            ]
        );
    }

    #[test]
    fn each_file_is_its_template_with_the_id_filled_in() {
        let interactive = spec(7, Judge::Interactive("boj-7-interactor".into()), true);
        let expected = [
            ("src/main.rs", templates::INTERACTIVE_SOLUTION),
            ("src/bin/boj-7-interactor.rs", templates::INTERACTOR),
            ("src/bin/boj-7-gen.rs", templates::GENERATOR),
            ("src/bin/boj-7-brute.rs", templates::REFERENCE),
            ("src/bin/boj-7-validator.rs", templates::VALIDATOR),
        ];
        for (path, template) in expected {
            assert_eq!(
                file(&interactive, path),
                template
                    .replace("__PROBLEM__", "BOJ 7")
                    .replace("__ID__", "7"),
                "{path}"
            );
        }
        let checker = spec(7, Judge::Checker("boj-7-checker".into()), false);
        assert_eq!(
            file(&checker, "src/main.rs"),
            templates::SOLUTION.replace("__PROBLEM__", "BOJ 7")
        );
        assert_eq!(
            file(&checker, "src/bin/boj-7-checker.rs"),
            templates::CHECKER.replace("__ID__", "7")
        );
        assert!(file(&checker, "src/bin/boj-7-checker.rs")
            .contains("usage: boj-7-checker INPUT ANSWER OUTPUT"));
    }

    #[test]
    fn the_manifest_reads_back_with_the_metadata_of_each_judge() {
        let judges = [
            Judge::Exact,
            Judge::Float(1e-6),
            Judge::Checker("boj-1000-checker".to_string()),
            Judge::Interactive("boj-1000-interactor".to_string()),
        ];
        for judge in judges {
            for stress in [false, true] {
                let spec = Spec {
                    time_limit_ms: 500,
                    memory_limit_mb: 128,
                    ..spec(1000, judge.clone(), stress)
                };
                let text = manifest(&spec);
                let read =
                    problem::read_manifest(&text).unwrap_or_else(|why| panic!("{why}\n{text}"));
                assert_eq!(read.name, "boj-1000");
                assert_eq!(read.solver_bin, "boj-1000", "default-run");
                assert_eq!(read.judge, judge);
                let meta = &read.meta;
                assert_eq!(
                    (meta.id, meta.time_limit_ms, meta.memory_limit_mb),
                    (Some(1000), 500, 128)
                );
                assert_eq!(meta.stack_limit_mb, None);
                let stress_bins = (
                    meta.generator.as_deref(),
                    meta.reference.as_deref(),
                    meta.validator.as_deref(),
                );
                if stress {
                    assert_eq!(
                        stress_bins,
                        (Some("boj-1000-gen"), Some("boj-1000-brute"), None)
                    );
                    assert!(text.contains("\n# validator = \"boj-1000-validator\"\n"));
                } else {
                    assert_eq!(stress_bins, (None, None, None));
                    assert!(
                        text.contains("# For `cargo xtask stress`: generator = \"boj-1000-gen\"")
                    );
                }
                assert!(text.contains("\nrust-version = \"1.56\"\n"), "{text}");
            }
        }
    }

    #[test]
    fn samples_are_numbered_from_one_in_the_payloads_order() {
        let sample = |input: &str, output: &str| SampleText {
            input: input.to_string(),
            output: output.to_string(),
        };
        let spec = Spec {
            samples: vec![sample("1 2\n", "3\n"), sample("40 2\n", "42\n")],
            ..spec(1000, Judge::Exact, false)
        };
        let samples: Vec<(String, String)> = files(&spec)
            .into_iter()
            .filter(|f| f.path.starts_with("samples/"))
            .map(|f| (f.path, f.contents))
            .collect();
        let expected = [
            ("samples/1.in", "1 2\n"),
            ("samples/1.out", "3\n"),
            ("samples/2.in", "40 2\n"),
            ("samples/2.out", "42\n"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(path, text)| (path.to_string(), text.to_string()))
            .collect();
        assert_eq!(samples, expected, "no .gitkeep once there are samples");
    }

    #[test]
    fn the_title_reaches_the_solutions_first_line_only_as_it_is_written() {
        let titled = |title: &str| Spec {
            title: Some(title.to_string()),
            ..spec(1000, Judge::Exact, true)
        };
        let main = file(&titled("A+B"), "src/main.rs");
        assert!(
            main.starts_with("//! BOJ 1000 (A+B): reads the whole input"),
            "{main}"
        );
        // Placeholders in a title are text, and a line break cannot end the comment.
        let hostile = titled("__ID__ __PROBLEM__\nfn main() {}");
        let main = file(&hostile, "src/main.rs");
        let first = main.lines().next().unwrap();
        assert!(
            first.starts_with("//! BOJ 1000 (__ID__ __PROBLEM__ fn main() {}): reads the whole"),
            "{first}"
        );
        assert_eq!(main.matches("fn main").count(), 2, "{main}");
        for other in files(&hostile).iter().filter(|f| f.path != "src/main.rs") {
            assert!(!other.contents.contains("__"), "{}", other.path);
        }
    }

    #[test]
    fn render_fills_known_placeholders_in_one_pass() {
        let values = [(templates::ID, "1000"), (templates::PROBLEM, "BOJ __ID__")];
        assert_eq!(
            render("a __ID__ b __PROBLEM__ c", &values),
            "a 1000 b BOJ __ID__ c"
        );
        assert_eq!(render("x__ID__y___ID__", &values), "x1000y_1000");
        assert_eq!(
            render("0x9E37_79B9 __OTHER__ __", &values),
            "0x9E37_79B9 __OTHER__ __"
        );
    }

    #[test]
    fn every_placeholder_of_every_template_is_filled() {
        // Between them, these two use all seven templates.
        let every_template = [
            spec(1, Judge::Checker("boj-1-checker".into()), true),
            spec(1, Judge::Interactive("boj-1-interactor".into()), true),
        ];
        for spec in every_template {
            for file in files(&spec) {
                assert!(
                    !file.contents.contains("__"),
                    "{}: a placeholder left unfilled",
                    file.path
                );
            }
        }
    }

    #[test]
    fn templates_keep_to_rust_1_56_syntax() {
        for (name, template) in templates::ALL {
            let found = crate::bundle::check::newer_syntax(template).unwrap();
            assert_eq!(found, [], "{name}");
        }
    }

    #[test]
    fn create_writes_every_file_and_leaves_no_staging_folder() {
        let root = Scratch::new("scaffold-test").unwrap();
        let spec = spec(1000, Judge::Checker("boj-1000-checker".into()), true);
        let dir = create(root.path(), &spec).unwrap();
        assert_eq!(dir, root.path().join("problems/boj-1000"));
        for file in files(&spec) {
            assert_eq!(
                fs::read_to_string(dir.join(&file.path)).unwrap(),
                file.contents,
                "{}",
                file.path
            );
        }
        assert_eq!(
            listing(&root.path().join("problems")),
            [
                "boj-1000",
                "boj-1000/Cargo.toml",
                "boj-1000/samples",
                "boj-1000/samples/.gitkeep",
                "boj-1000/src",
                "boj-1000/src/bin",
                "boj-1000/src/bin/boj-1000-brute.rs",
                "boj-1000/src/bin/boj-1000-checker.rs",
                "boj-1000/src/bin/boj-1000-gen.rs",
                "boj-1000/src/bin/boj-1000-validator.rs",
                "boj-1000/src/main.rs",
            ]
        );
        let problem = Problem::load(&dir).unwrap();
        assert_eq!(
            problem.helper_bins(),
            ["boj-1000-checker", "boj-1000-gen", "boj-1000-brute"]
        );
    }

    #[test]
    fn create_refuses_an_existing_folder_and_changes_nothing() {
        let root = Scratch::new("scaffold-test").unwrap();
        let dir = root.path().join("problems/boj-1000");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("mine.rs"), "// mine\n").unwrap();
        let err = create(root.path(), &spec(1000, Judge::Exact, false)).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("boj-1000 already exists; nothing was changed"),
            "{err}"
        );
        assert_eq!(
            listing(&root.path().join("problems")),
            ["boj-1000", "boj-1000/mine.rs"]
        );
    }

    #[test]
    fn a_write_that_fails_leaves_no_folder_and_no_staging() {
        let root = Scratch::new("scaffold-test").unwrap();
        let target = root.path().join("problems/boj-1000");
        // The second file's folder is the first file: writing it fails halfway through.
        let files = [
            NewFile::new("Cargo.toml", "[package]\n"),
            NewFile::new("Cargo.toml/x", ""),
        ];
        let err = Staging::write(&target, &files).unwrap_err();
        assert!(format!("{err:#}").contains("cannot"), "{err:#}");
        assert_eq!(listing(&root.path().join("problems")), Vec::<String>::new());
    }

    #[test]
    fn a_folder_that_appears_meanwhile_is_never_overwritten() {
        let root = Scratch::new("scaffold-test").unwrap();
        let target = root.path().join("problems/boj-1000");
        let staged = Staging::write(&target, &files(&spec(1000, Judge::Exact, false))).unwrap();
        // Another run (another listener, a user's editor) made the folder since the check.
        fs::create_dir_all(&target).unwrap();
        fs::write(target.join("mine.rs"), "// mine\n").unwrap();
        let err = staged.move_to(&target).unwrap_err();
        assert!(err.to_string().contains("does it exist now?"), "{err}");
        assert_eq!(
            listing(&root.path().join("problems")),
            ["boj-1000", "boj-1000/mine.rs"]
        );
    }

    #[test]
    fn an_import_over_an_existing_problem_compares_and_writes_nothing() {
        let root = Scratch::new("scaffold-test").unwrap();
        let payload = Import {
            id: 1000,
            name: "A+B".to_string(),
            url: "https://www.acmicpc.net/problem/1000".to_string(),
            time_limit_ms: 2000,
            memory_limit_mb: 128,
            samples: vec![SampleText {
                input: "1 2\n".to_string(),
                output: "3\n".to_string(),
            }],
            interactive: false,
        };
        let spec = Spec::from_import(&payload);
        let dir = match import(root.path(), &payload, &spec).unwrap() {
            Imported::Created(dir) => dir,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            fs::read_to_string(dir.join("samples/1.out")).unwrap(),
            "3\n"
        );
        let before = listing(root.path());
        fs::write(dir.join("samples/1.out"), "4\n").unwrap();
        let changed = Import {
            time_limit_ms: 1000,
            ..payload.clone()
        };
        match import(root.path(), &changed, &Spec::from_import(&changed)).unwrap() {
            Imported::Existing(existing, differences) => {
                assert_eq!(existing, dir);
                assert_eq!(differences.limits.len(), 1, "{differences}");
                assert!(!differences.is_empty());
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(listing(root.path()), before);
        assert_eq!(
            fs::read_to_string(dir.join("samples/1.out")).unwrap(),
            "4\n"
        );
        let other = Spec::from_import(&Import {
            id: 1001,
            ..payload.clone()
        });
        assert!(
            import(root.path(), &payload, &other).is_err(),
            "the spec is another problem's"
        );
    }

    #[test]
    fn a_payload_marked_interactive_gets_the_interactive_judge() {
        let payload = Import {
            id: 1000,
            name: String::new(),
            url: "https://www.acmicpc.net/problem/1000".to_string(),
            time_limit_ms: 1000,
            memory_limit_mb: 256,
            samples: Vec::new(),
            interactive: true,
        };
        let spec = Spec::from_import(&payload);
        assert_eq!(
            spec.judge,
            Judge::Interactive("boj-1000-interactor".to_string())
        );
        assert_eq!(spec.title, None);
        assert!(file(&spec, "src/main.rs").starts_with("//! BOJ 1000: an interactive problem."));
    }
}
