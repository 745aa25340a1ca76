//! Building problems as BOJ compiles them: `cargo build --profile judge` (opt-level 2, no debug
//! assertions, no overflow checks), with executables located through cargo's own JSON messages,
//! so `CARGO_TARGET_DIR` and `--target-dir` are respected and no `target/` path is guessed.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};
use serde::Deserialize;

use crate::problem::{JudgeRule, Problem};

/// How to run cargo.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// The cargo profile; `judge` matches BOJ's `rustc -O`.
    pub profile: String,
    /// Passed as `--target-dir` when set; otherwise cargo's own choice (`CARGO_TARGET_DIR`, ...).
    pub target_dir: Option<PathBuf>,
    /// Capture cargo's progress and show it only when the build fails.
    pub quiet: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            profile: "judge".to_string(),
            target_dir: None,
            quiet: false,
        }
    }
}

/// The executables of one built problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Executables {
    /// The solver (`Problem::solver_bin`).
    pub solver: PathBuf,
    /// The checker, for `judge = "checker"` problems.
    pub checker: Option<PathBuf>,
    /// The interactor, for `judge = "interactive"` problems.
    pub interactor: Option<PathBuf>,
    /// The stress generator (`generator` in the metadata), when the problem has one.
    pub generator: Option<PathBuf>,
    /// The stress reference (`reference` in the metadata), when the problem has one.
    pub reference: Option<PathBuf>,
}

/// Builds every problem's binaries, one cargo invocation per cargo workspace (all of
/// `problems/` in one), and returns their executables in the order of `problems`.
pub fn build(problems: &[Problem], options: &BuildOptions) -> Result<Vec<Executables>> {
    let mut by_workspace: BTreeMap<PathBuf, Vec<&Problem>> = BTreeMap::new();
    for problem in problems {
        by_workspace
            .entry(workspace_manifest(&problem.dir)?)
            .or_default()
            .push(problem);
    }
    let mut artifacts = HashMap::new();
    for (manifest, members) in &by_workspace {
        artifacts.extend(cargo_build(manifest, members, options)?);
    }
    problems
        .iter()
        .map(|problem| {
            let find = |bin: &str| -> Result<PathBuf> {
                artifacts
                    .get(&(problem.manifest.clone(), bin.to_string()))
                    .cloned()
                    .with_context(|| {
                        format!(
                            "cargo built no binary `{bin}` for {} ({})",
                            problem.name,
                            problem.manifest.display()
                        )
                    })
            };
            let helper = |bin: &Option<&String>| bin.map(|b| find(b)).transpose();
            let checker = helper(&match &problem.judge {
                JudgeRule::Checker(bin) => Some(bin),
                _ => None,
            })?;
            let interactor = helper(&match &problem.judge {
                JudgeRule::Interactive(bin) => Some(bin),
                _ => None,
            })?;
            let meta = &problem.meta;
            Ok(Executables {
                solver: find(&problem.solver_bin)?,
                checker,
                interactor,
                generator: meta.generator.as_deref().map(find).transpose()?,
                reference: meta.reference.as_deref().map(find).transpose()?,
            })
        })
        .collect()
}

/// The `Cargo.toml` of the cargo workspace that builds the package in `dir`: the nearest one,
/// from `dir` upwards, with a `[workspace]` table (a fixture's own, or the project's).
pub fn workspace_manifest(dir: &Path) -> Result<PathBuf> {
    for folder in dir.ancestors() {
        let manifest = folder.join("Cargo.toml");
        if !manifest.is_file() {
            continue;
        }
        let text = fs::read_to_string(&manifest)
            .with_context(|| format!("cannot read {}", manifest.display()))?;
        let parsed: toml::Table = toml::from_str(&text)
            .with_context(|| format!("cannot parse {}", manifest.display()))?;
        if parsed.contains_key("workspace") {
            return Ok(manifest);
        }
    }
    bail!(
        "{} belongs to no cargo workspace (no Cargo.toml with [workspace] above it)",
        dir.display()
    )
}

#[derive(Deserialize)]
struct Message {
    reason: String,
    manifest_path: Option<PathBuf>,
    target: Option<Target>,
    executable: Option<PathBuf>,
}

#[derive(Deserialize)]
struct Target {
    name: String,
    kind: Vec<String>,
}

/// Runs one `cargo build` and maps (package manifest, binary name) to executables.
fn cargo_build(
    manifest: &Path,
    members: &[&Problem],
    options: &BuildOptions,
) -> Result<HashMap<(PathBuf, String), PathBuf>> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .arg("build")
        .arg("--profile")
        .arg(&options.profile)
        .arg("--bins")
        .arg("--message-format=json-render-diagnostics")
        .arg("--manifest-path")
        .arg(manifest);
    for member in members {
        command.arg("--package").arg(&member.name);
    }
    if let Some(dir) = &options.target_dir {
        command.arg("--target-dir").arg(dir);
    }
    if options.quiet {
        command.arg("--quiet").stderr(Stdio::piped());
    }
    let output = command
        .stdout(Stdio::piped())
        .output()
        .context("cannot run cargo")?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        bail!(
            "cargo build --profile {} failed ({}){}{}",
            options.profile,
            output.status,
            if stderr.is_empty() { "" } else { ":\n" },
            stderr.trim_end()
        );
    }
    let mut artifacts = HashMap::new();
    for line in output.stdout.split(|&b| b == b'\n') {
        let Ok(message) = serde_json::from_slice::<Message>(line) else {
            continue;
        };
        if message.reason != "compiler-artifact" {
            continue;
        }
        let (Some(package), Some(target), Some(exe)) =
            (message.manifest_path, message.target, message.executable)
        else {
            continue;
        };
        if target.kind.iter().any(|k| k == "bin") {
            let package = package.canonicalize().unwrap_or(package);
            artifacts.insert((package, target.name), exe);
        }
    }
    Ok(artifacts)
}
