//! Building problems as BOJ compiles them: `cargo build --profile judge` (opt-level 2, no debug
//! assertions, no overflow checks), with executables located through cargo's own JSON messages,
//! so `CARGO_TARGET_DIR` and `--target-dir` are respected and no `target/` path is guessed; or
//! taking them, already built, from a folder ([`prebuilt`]).

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use anyhow::{bail, Context, Result};
use cargo_metadata::{Message, Metadata, Node, Package, TargetKind};

use crate::workspace::problem::Problem;
use crate::workspace::{fresh, host};

/// How to run cargo.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// The cargo profile; `judge` matches BOJ's `rustc -O`.
    pub profile: String,
    /// Passed as `--target-dir` when set; otherwise cargo's own choice (`CARGO_TARGET_DIR`, ...).
    pub target_dir: Option<PathBuf>,
    /// Capture cargo's progress and show it only when the build fails.
    pub quiet: bool,
    /// Settings passed as `--config KEY=VALUE`, before any Cargo.toml's: how
    /// [`BuildOptions::checked`] defines its profile.
    pub config: Vec<String>,
    /// Passed as `--target` when set: the flags below then reach the crates of the build and
    /// not its build scripts or proc macros (cargo's rule for `RUSTFLAGS`).
    pub target: Option<String>,
    /// Flags for every crate built for the target, as `CARGO_ENCODED_RUSTFLAGS` (which wins
    /// over `RUSTFLAGS` and configuration): how the instrumented build of
    /// `hunt::coverage` instruments. Such a build is always handed to cargo (never taken as
    /// fresh by its record), since what it links is in no dep-info.
    pub rustflags: Option<Vec<String>>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            profile: "judge".to_string(),
            target_dir: None,
            quiet: false,
            config: Vec::new(),
            target: None,
            rustflags: None,
        }
    }
}

/// The checked build's profile: `judge` (BOJ's opt-level 2) with overflow checks and debug
/// assertions on.
pub const CHECKED_PROFILE: &str = "judge-checked";

impl BuildOptions {
    /// The checked build, quiet: profile [`CHECKED_PROFILE`], defined on cargo's command line
    /// (`--config 'profile.judge-checked.inherits="judge"'`, overflow checks and debug
    /// assertions on), so no Cargo.toml needs to name it. Its own folder under the target
    /// folder (`judge-checked/`), and the judge profile's fingerprints untouched, so neither
    /// build undoes the other's cache.
    pub fn checked() -> BuildOptions {
        BuildOptions {
            profile: CHECKED_PROFILE.to_string(),
            quiet: true,
            config: vec![
                format!("profile.{CHECKED_PROFILE}.inherits=\"judge\""),
                format!("profile.{CHECKED_PROFILE}.overflow-checks=true"),
                format!("profile.{CHECKED_PROFILE}.debug-assertions=true"),
            ],
            ..BuildOptions::default()
        }
    }
}

/// The debugging build's profile: `judge` with debug info, overflow checks and debug assertions
/// on, and no optimisation, so every line is a step and every variable is there to print.
pub const DEBUG_PROFILE: &str = "judge-debug";

impl BuildOptions {
    /// The debugging build (`cargo xtask debug`, and the editor's launch configurations, which
    /// pass the same settings): profile [`DEBUG_PROFILE`], defined on cargo's command line as the
    /// checked build's is ([`BuildOptions::debug_settings`]), in its own folder
    /// (`judge-debug/`), so neither the judge build's cache nor the checked build's is undone.
    /// Cargo's progress is shown: the user waits on it.
    pub fn debugging() -> BuildOptions {
        BuildOptions {
            profile: DEBUG_PROFILE.to_string(),
            config: BuildOptions::debug_settings(),
            ..BuildOptions::default()
        }
    }

    /// The `--config` settings that define [`DEBUG_PROFILE`]: the judge profile with full debug
    /// info, opt-level 0 (at opt-level 2 most locals are `<optimized out>` and helpers are
    /// inlined away), overflow checks and debug assertions on, as in the checked build.
    pub fn debug_settings() -> Vec<String> {
        [
            "inherits=\"judge\"",
            "opt-level=0",
            "debug=\"full\"",
            "overflow-checks=true",
            "debug-assertions=true",
        ]
        .iter()
        .map(|setting| format!("profile.{DEBUG_PROFILE}.{setting}"))
        .collect()
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
    /// The input validator (`validator` in the metadata), when the problem has one.
    pub validator: Option<PathBuf>,
}

/// Builds every problem's binaries, one cargo invocation per cargo workspace (all of
/// `problems/` in one), and returns their executables in the order of `problems`.
pub fn build(problems: &[Problem], options: &BuildOptions) -> Result<Vec<Executables>> {
    let every_bin = |problem: &Problem| -> Vec<String> {
        let meta = &problem.meta;
        let helpers = [
            problem.judge.checker(),
            problem.judge.interactor(),
            meta.generator.as_ref(),
            meta.reference.as_ref(),
            meta.validator.as_ref(),
        ];
        std::iter::once(&problem.solver_bin)
            .chain(helpers.into_iter().flatten())
            .cloned()
            .collect()
    };
    let invocations = |manifest: &Path, members: &[&Problem]| {
        cargo_invocations(manifest, members, options, StackAt::here())
    };
    let artifacts = built_by_cargo(problems, options, &every_bin, &invocations)?;
    problems
        .iter()
        .map(|problem| {
            let find = |bin: &str| built(&artifacts, problem, bin);
            let helper = |bin: Option<&String>| bin.map(|b| find(b)).transpose();
            let meta = &problem.meta;
            Ok(Executables {
                solver: find(&problem.solver_bin)?,
                checker: helper(problem.judge.checker())?,
                interactor: helper(problem.judge.interactor())?,
                generator: helper(meta.generator.as_ref())?,
                reference: helper(meta.reference.as_ref())?,
                validator: helper(meta.validator.as_ref())?,
            })
        })
        .collect()
}

/// The solver of `problem` alone, built by cargo as `options` say (none of its helpers): how
/// the instrumented build is made.
pub fn solver_only(problem: &Problem, options: &BuildOptions) -> Result<PathBuf> {
    let wanted = |problem: &Problem| vec![problem.solver_bin.clone()];
    let invocations = |manifest: &Path, members: &[&Problem]| {
        let stack = StackAt::here();
        members
            .iter()
            .map(|member| {
                let command = if stack == StackAt::RunTime {
                    "build"
                } else {
                    "rustc"
                };
                let mut args = cargo_args(command, manifest, options);
                args.extend(
                    ["--package", &member.name, "--bin", &member.solver_bin].map(OsString::from),
                );
                if let Some(arg) = stack.link_arg(member.meta.stack_limit_bytes()) {
                    args.extend(["--", "-C"].map(OsString::from));
                    args.push(format!("link-arg={arg}").into());
                }
                args
            })
            .collect()
    };
    let problems = std::slice::from_ref(problem);
    let artifacts = built_by_cargo(problems, options, &wanted, &invocations)?;
    built(&artifacts, problem, &problem.solver_bin)
}

/// The executables of `problems` whose solution is `solver`, a program from elsewhere (`--command`):
/// cargo builds only the helpers their judges need (a checker, an interactor), the validator
/// where there is one and, `for_stress`, the generator and the reference; with none to build
/// (an exact or float judge, no validator), cargo is not run at all.
pub fn helpers(
    problems: &[Problem],
    solver: &Path,
    for_stress: bool,
    options: &BuildOptions,
) -> Result<Vec<Executables>> {
    let wanted = |problem: &Problem| -> Vec<String> {
        let meta = &problem.meta;
        let stress =
            [&meta.generator, &meta.reference].map(|bin| bin.as_ref().filter(|_| for_stress));
        [
            problem.judge.checker(),
            problem.judge.interactor(),
            meta.validator.as_ref(),
        ]
        .into_iter()
        .chain(stress)
        .flatten()
        .cloned()
        .collect()
    };
    let invocations = |manifest: &Path, members: &[&Problem]| {
        let mut args = cargo_args("build", manifest, options);
        let mut any = false;
        for member in members {
            for bin in wanted(member) {
                args.extend(["--package".into(), OsString::from(&member.name)]);
                args.extend(["--bin".into(), OsString::from(bin)]);
                any = true;
            }
        }
        if any {
            vec![args]
        } else {
            Vec::new()
        }
    };
    let artifacts = built_by_cargo(problems, options, &wanted, &invocations)?;
    problems
        .iter()
        .map(|problem| {
            let find = |bin: Option<&String>| -> Result<Option<PathBuf>> {
                bin.filter(|bin| wanted(problem).contains(bin))
                    .map(|bin| built(&artifacts, problem, bin))
                    .transpose()
            };
            let meta = &problem.meta;
            Ok(Executables {
                solver: solver.to_path_buf(),
                checker: find(problem.judge.checker())?,
                interactor: find(problem.judge.interactor())?,
                generator: find(meta.generator.as_ref())?,
                reference: find(meta.reference.as_ref())?,
                validator: find(meta.validator.as_ref())?,
            })
        })
        .collect()
}

/// The executables cargo built, by (package manifest, binary name).
type Artifacts = HashMap<(PathBuf, String), PathBuf>;

/// The cargo command lines that build some problems of one workspace (its manifest).
type Invocations<'a> = dyn Fn(&Path, &[&Problem]) -> Vec<Vec<OsString>> + 'a;

/// Builds the binaries of `problems` that `wanted` names, running the cargo commands
/// `invocations` gives for each workspace that builds some of them (an archived problem is a
/// workspace of its own). An archived problem whose executables are up to date by its record
/// ([`crate::workspace::fresh`]) is not sent to cargo at all, and each that cargo builds gets
/// its record; one whose last build may have been from other sources than its folder holds,
/// which cargo would take as up to date ([`fresh::stale`]), is cleaned first.
fn built_by_cargo(
    problems: &[Problem],
    options: &BuildOptions,
    wanted: &dyn Fn(&Problem) -> Vec<String>,
    invocations: &Invocations<'_>,
) -> Result<Artifacts> {
    let mut artifacts = Artifacts::new();
    let mut records = Records::default();
    for (manifest, members) in &by_workspace(problems)? {
        let Some(first) = members.first() else {
            continue;
        };
        // One target folder for a workspace's members: one folder of records, one lock.
        let records_dir = records.dir(first, options)?;
        let _building = build_lock(&records_dir)?;
        // An archived problem is a workspace of its own, with a record of its last build.
        let alone = match members[..] {
            [problem] if problem.manifest == *manifest => Some(problem),
            _ => None,
        };
        let mut stale = Vec::new();
        for problem in members {
            if fresh::stale(
                &records.dir(problem, options)?,
                &problem.name,
                &problem.manifest,
            ) {
                stale.push(problem.name.as_str());
            }
        }
        if !stale.is_empty() {
            clean(manifest, &stale, options)?;
        }
        if let (Some(problem), None, true) = (alone, &options.rustflags, stale.is_empty()) {
            if let Some(found) =
                fresh::fresh(&records_dir, &problem.name, manifest, &wanted(problem))
            {
                let found: Artifacts = found
                    .into_iter()
                    .map(|(bin, exe)| ((problem.manifest.clone(), bin), exe))
                    .collect();
                artifacts.extend(kept_apart(found, &records_dir)?);
                continue;
            }
        }
        let mut built = Artifacts::new();
        for args in invocations(manifest, members) {
            built.extend(run_cargo(manifest, &args, options)?);
        }
        for problem in members {
            let now = built
                .iter()
                .filter(|((package, _), _)| *package == problem.manifest)
                .map(|((_, bin), exe)| (bin.clone(), exe.clone()));
            let dir = records.dir(problem, options)?;
            fresh::record(&dir, &problem.name, &problem.manifest, now)?;
        }
        artifacts.extend(kept_apart(built, &records_dir)?);
    }
    Ok(artifacts)
}

/// The lock held while one workspace's problems are checked, cleaned, built, recorded and kept
/// apart ([`kept_apart`]): `build.lock` in the build records' folder `records` (one per target
/// folder and profile), held until dropped, released by the system however the process ends.
/// Two commands at once (a stress run and a test in another terminal) would otherwise both find
/// a problem's build stale, and one `cargo clean -p` could remove what the other had just built
/// before it was kept apart. Cargo takes a lock of its own on the target folder for each build,
/// so builds never ran side by side anyway.
fn build_lock(records: &Path) -> Result<fs::File> {
    let path = records.join("build.lock");
    super::members::hold_lock(&path, || {
        // Said on stderr, as cargo says it waits for its own locks.
        eprintln!(
            "waiting for another command's build ({} is held)",
            path.display()
        );
    })
}

/// `built`, each executable linked (a hard link, else a copy) into a folder of its own under
/// `records` (the build records' folder), named by its package's manifest path: that link is
/// what is judged.
///
/// Why: cargo writes the executables of packages of one name (a problem copied by hand, its
/// package not renamed) to one path, and `cargo clean -p` removes them by name. A run judging
/// the path cargo wrote would start the other folder's solution once that was built (in this
/// run or by another command), or find none after a clean; the link keeps the file this build
/// made. Made under [`build_lock`], and again only when cargo's executable changed (its size or
/// time differ from the link's, which a hard link shares). Where the link cannot be replaced
/// (Windows, while a run of the old one goes on), cargo's path is judged, as before.
fn kept_apart(built: Artifacts, records: &Path) -> Result<Artifacts> {
    built
        .into_iter()
        .map(|((manifest, bin), exe)| {
            let folder = records.join("exe").join(crate::bundle::cache::digest(
                manifest.to_string_lossy().as_bytes(),
            ));
            let name = exe.file_name().unwrap_or(bin.as_ref());
            let kept = folder.join(name);
            let stamp = |path: &Path| fs::metadata(path).map(|m| (m.len(), m.modified().ok()));
            let exe_stamp =
                stamp(&exe).with_context(|| format!("cannot read {}", exe.display()))?;
            if stamp(&kept).ok() == Some(exe_stamp) {
                return Ok(((manifest, bin), kept));
            }
            fs::create_dir_all(&folder)
                .with_context(|| format!("cannot create {}", folder.display()))?;
            // Linked beside it and renamed over it: a run of the old link (another command's)
            // keeps its file, and no half-written executable is ever started.
            let partial = folder.join(format!(
                "{}.{}.partial",
                name.to_string_lossy(),
                std::process::id()
            ));
            let _ = fs::remove_file(&partial);
            fs::hard_link(&exe, &partial)
                .or_else(|_| copy_with_time(&exe, &partial))
                .with_context(|| {
                    format!("cannot copy {} to {}", exe.display(), partial.display())
                })?;
            if fs::rename(&partial, &kept).is_err() {
                let _ = fs::remove_file(&partial);
                return Ok(((manifest, bin), exe));
            }
            Ok(((manifest, bin), kept))
        })
        .collect()
}

/// Copies `from` to `to` with its modification time, so that [`kept_apart`] can tell the copy
/// of an unchanged executable from a stale one.
fn copy_with_time(from: &Path, to: &Path) -> std::io::Result<()> {
    fs::copy(from, to)?;
    let modified = fs::metadata(from)?.modified()?;
    fs::OpenOptions::new()
        .write(true)
        .open(to)?
        .set_modified(modified)
}

/// `cargo clean -p PACKAGE...` in the profile `options` name, for the workspace `manifest`: its
/// executables and cargo's fingerprints of them go, so the next build makes them again.
fn clean(manifest: &Path, packages: &[&str], options: &BuildOptions) -> Result<()> {
    let mut args = cargo_args("clean", manifest, options);
    // `cargo clean` prints no messages: no JSON to ask for.
    args.retain(|arg| arg != "--message-format=json-render-diagnostics");
    for package in packages {
        args.extend(["--package".into(), OsString::from(package)]);
    }
    run_cargo(manifest, &args, options).map(drop)
}

/// Where the records of problems' builds go: under cargo's target folder for them,
/// taken as cargo takes it: `--target-dir`, else `CARGO_TARGET_DIR`, else asked of cargo (its
/// configuration's `build.target-dir`) once for each folder of problems.
#[derive(Debug, Default)]
struct Records {
    target_dirs: HashMap<PathBuf, PathBuf>,
}

impl Records {
    fn dir(&mut self, problem: &Problem, options: &BuildOptions) -> Result<PathBuf> {
        let from_environment = host::target_dir_from_environment();
        let target = match options.target_dir.clone().or(from_environment) {
            Some(dir) => dir,
            None => {
                let folder = problem.dir.parent().unwrap_or(&problem.dir).to_path_buf();
                match self.target_dirs.get(&folder) {
                    Some(dir) => dir.clone(),
                    None => {
                        let dir = target_directory(&problem.manifest)?;
                        self.target_dirs.insert(folder, dir.clone());
                        dir
                    }
                }
            }
        };
        Ok(fresh::records_dir(&target, &options.profile))
    }
}

/// The target folder cargo builds the package at `manifest` into, as cargo decides it
/// (`CARGO_TARGET_DIR`, `build.target-dir` of the configuration found from the package).
pub fn target_directory(manifest: &Path) -> Result<PathBuf> {
    let mut command = host::cargo_metadata(manifest.parent());
    command.no_deps().manifest_path(manifest);
    let metadata = command
        .exec()
        .with_context(|| format!("cargo metadata failed for {}", manifest.display()))?;
    Ok(metadata.target_directory.into_std_path_buf())
}

/// `problems` grouped by the cargo workspace that builds them (by its manifest), each problem
/// folder the root manifest does not list yet (copied or made by hand) listed first as
/// archived, which cargo builds alone ([`super::members::admit`]).
fn by_workspace(problems: &[Problem]) -> Result<BTreeMap<PathBuf, Vec<&Problem>>> {
    let dirs: Vec<PathBuf> = problems.iter().map(|p| p.dir.clone()).collect();
    super::members::admit(&dirs)?;
    let mut by_workspace: BTreeMap<PathBuf, Vec<&Problem>> = BTreeMap::new();
    for problem in problems {
        by_workspace
            .entry(workspace_manifest(&problem.dir)?)
            .or_default()
            .push(problem);
    }
    Ok(by_workspace)
}

/// The executable cargo built for the binary `bin` of `problem`, or an error saying it built
/// none.
fn built(
    artifacts: &HashMap<(PathBuf, String), PathBuf>,
    problem: &Problem,
    bin: &str,
) -> Result<PathBuf> {
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
}

/// The executables of `problems` taken from `dir` instead of built: each binary (`boj-ID`, and
/// the checker, interactor, generator, reference and validator its metadata names) as
/// `dir/NAME` or `dir/NAME.exe`. The solver, checker, interactor and validator must be there;
/// the generator and the reference only when `for_stress`. Found this way, a cross-built toolkit is judged on the
/// system it was built for, and binaries built elsewhere are judged as cargo's would be.
pub fn prebuilt(problems: &[Problem], dir: &Path, for_stress: bool) -> Result<Vec<Executables>> {
    if !dir.is_dir() {
        bail!("--prebuilt {}: no such folder", dir.display());
    }
    let find = |problem: &Problem, name: &str| prebuilt_needed(problem, dir, name);
    problems
        .iter()
        .map(|problem| {
            let helper = |name: Option<&String>, needed: bool| match name {
                Some(name) if needed => find(problem, name).map(Some),
                Some(name) => Ok(prebuilt_executable(dir, name)),
                None => Ok(None),
            };
            let meta = &problem.meta;
            Ok(Executables {
                solver: find(problem, &problem.solver_bin)?,
                checker: helper(problem.judge.checker(), true)?,
                interactor: helper(problem.judge.interactor(), true)?,
                generator: helper(meta.generator.as_ref(), for_stress)?,
                reference: helper(meta.reference.as_ref(), for_stress)?,
                validator: helper(meta.validator.as_ref(), true)?,
            })
        })
        .collect()
}

/// `dir/NAME` or `dir/NAME.exe`, the executable `name` of `problem` that a prebuilt run needs;
/// an error that says so when neither is there.
pub fn prebuilt_needed(problem: &Problem, dir: &Path, name: &str) -> Result<PathBuf> {
    prebuilt_executable(dir, name).with_context(|| {
        format!(
            "no {name} (or {name}.exe) in {}: --prebuilt takes every executable of {} from \
             there, and it needs this one",
            dir.display(),
            problem.name,
        )
    })
}

/// `dir/NAME` or `dir/NAME.exe`, whichever is a file.
pub fn prebuilt_executable(dir: &Path, name: &str) -> Option<PathBuf> {
    [name.to_string(), format!("{name}.exe")]
        .into_iter()
        .map(|file| dir.join(file))
        .find(|path| path.is_file())
}

/// `cargo metadata` of the workspace of `dir`, for the host platform only.
pub fn metadata(dir: &Path) -> Result<Metadata> {
    host::cargo_metadata_for_host(Some(dir))
        .exec()
        .with_context(|| format!("cargo metadata failed in {}", dir.display()))
}

/// A workspace's packages and its resolved dependency graph, by package id.
#[derive(Debug)]
pub struct Resolved<'a> {
    /// Every package, by id.
    pub packages: BTreeMap<&'a str, &'a Package>,
    /// The resolved node of every package (its dependencies and enabled features), by id.
    pub nodes: BTreeMap<&'a str, &'a Node>,
}

impl Resolved<'_> {
    /// The packages and nodes of `metadata`, by id.
    pub fn of(metadata: &Metadata) -> Resolved<'_> {
        Resolved {
            packages: metadata
                .packages
                .iter()
                .map(|p| (p.id.repr.as_str(), p))
                .collect(),
            nodes: metadata
                .resolve
                .iter()
                .flat_map(|r| &r.nodes)
                .map(|n| (n.id.repr.as_str(), n))
                .collect(),
        }
    }
}

/// The `Cargo.toml` cargo builds the package in `dir` with: the root manifest of the workspace
/// it belongs to, found as cargo finds it (the package's own when it has a `[workspace]` table,
/// else the nearest one above whose `exclude` does not take it out, an explicit `members` entry
/// overriding `exclude`), or the package's own manifest when no workspace takes it (an archived
/// problem, built as a package of its own: see [`crate::workspace::archive`]).
pub fn workspace_manifest(dir: &Path) -> Result<PathBuf> {
    let own = dir.join("Cargo.toml");
    if super::manifests::read_table(&own)?.contains_key("workspace") {
        return Ok(own);
    }
    for folder in dir.ancestors().skip(1) {
        let manifest = folder.join("Cargo.toml");
        if !manifest.is_file() {
            continue;
        }
        if let Some(workspace) = super::manifests::read_table(&manifest)?.get("workspace") {
            if !excludes(folder, workspace, dir) {
                return Ok(manifest);
            }
        }
    }
    Ok(own)
}

/// Whether the workspace rooted at `root` (its `[workspace]` table) leaves the package in `dir`
/// out, as cargo decides it (`WorkspaceRootConfig::is_excluded`): under an `exclude` entry and
/// not under a `members` entry taken literally (a pattern never overrides `exclude`).
fn excludes(root: &Path, workspace: &toml::Value, dir: &Path) -> bool {
    let under = |key: &str| {
        workspace
            .get(key)
            .and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(toml::Value::as_str)
            .any(|entry| dir.starts_with(root.join(entry)))
    };
    under("exclude") && !under("members")
}

/// How the judge build gives solvers their stack. Where a program's main thread gets its stack
/// when it is linked, each solver is linked with the problem's stack (see [`StackAt::link_arg`]):
/// Windows (the PE header's stack reserve) and Apple's systems (XNU's `load_main`,
/// bsd/kern/mach_loader.c, sizes the main thread's stack from `LC_MAIN`'s `stacksize`, with no
/// 64 MiB `maxsmap` cap, where `RLIMIT_STACK` gets at most that cap). Elsewhere the runner sets
/// the stack when the program starts, and one build does all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StackAt {
    /// Set at run time (Linux, the BSDs): every binary in one `cargo build --bins`.
    RunTime,
    /// Fixed at link time (Windows, macOS): the helpers in one `cargo build`, then each solver
    /// by `cargo rustc ... -- -C link-arg=STACK`. (A solver in both would be relinked at each
    /// run, cargo's fingerprint flipping between the two.)
    LinkTime {
        /// The linker that takes the argument.
        linker: Linker,
    },
}

/// A linker that sets a program's stack, each with its own argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Linker {
    /// Microsoft's `link.exe` (`*-windows-msvc`): `/STACK:N`.
    Msvc,
    /// GNU ld through gcc (`*-windows-gnu`): `-Wl,--stack,N`.
    GnuLd,
    /// Apple's ld through cc (`*-apple-*`): `-Wl,-stack_size,0xN`.
    Apple,
}

/// The page size Apple's linker rounds a stack to: ld64 refuses a `-stack_size` that is not a
/// multiple of 4 KiB ("-stack_size must be multiples of 4K", Options.cpp), and arm64's pages
/// are 16 KiB, a multiple of it.
const APPLE_STACK_PAGE: u64 = 16 << 10;

impl StackAt {
    /// How a program built for the target `triple` (`x86_64-pc-windows-msvc`,
    /// `aarch64-apple-darwin`, ...) gets its stack.
    pub fn for_target(triple: &str) -> StackAt {
        let linker = if triple.contains("-windows-") {
            if triple.ends_with("-msvc") {
                Linker::Msvc
            } else {
                Linker::GnuLd
            }
        } else if triple.contains("-apple-") {
            Linker::Apple
        } else {
            return StackAt::RunTime;
        };
        StackAt::LinkTime { linker }
    }

    /// How this system gives a program its stack: [`StackAt::for_target`] of the target the
    /// xtask was built for (the judge build and the bundle check build for it too).
    pub fn here() -> StackAt {
        let linker = if cfg!(target_env = "msvc") {
            Linker::Msvc
        } else if cfg!(windows) {
            Linker::GnuLd
        } else if cfg!(target_vendor = "apple") {
            Linker::Apple
        } else {
            return StackAt::RunTime;
        };
        StackAt::LinkTime { linker }
    }

    /// The linker argument (for `-C link-arg=`) that gives a program's main thread `bytes` of
    /// stack; `None` where the stack is set at run time.
    pub fn link_arg(self, bytes: u64) -> Option<String> {
        let StackAt::LinkTime { linker } = self else {
            return None;
        };
        Some(match linker {
            Linker::Msvc => format!("/STACK:{bytes}"),
            Linker::GnuLd => format!("-Wl,--stack,{bytes}"),
            // ld64 reads the size in hexadecimal ("-stack_size size ... a hexadecimal number
            // with an optional leading 0x", ld(1)), a multiple of the page size.
            Linker::Apple => format!(
                "-Wl,-stack_size,{:#x}",
                bytes.max(1).div_ceil(APPLE_STACK_PAGE) * APPLE_STACK_PAGE
            ),
        })
    }
}

/// The cargo command lines (after `cargo`) that build `members` of the workspace `manifest`.
pub fn cargo_invocations(
    manifest: &Path,
    members: &[&Problem],
    options: &BuildOptions,
    stack: StackAt,
) -> Vec<Vec<OsString>> {
    let common = |command: &str| cargo_args(command, manifest, options);
    if stack == StackAt::RunTime {
        let mut build = common("build");
        build.push("--bins".into());
        for member in members {
            build.extend(["--package".into(), OsString::from(&member.name)]);
        }
        return vec![build];
    }
    let mut invocations = Vec::new();
    let mut helpers = common("build");
    let mut any_helper = false;
    for member in members {
        helpers.extend(["--package".into(), OsString::from(&member.name)]);
        for helper in member.helper_bins() {
            helpers.extend(["--bin".into(), OsString::from(helper)]);
            any_helper = true;
        }
    }
    if any_helper {
        invocations.push(helpers);
    }
    for member in members {
        let mut solver = common("rustc");
        solver.extend(
            ["--package", &member.name, "--bin", &member.solver_bin, "--"].map(OsString::from),
        );
        if let Some(arg) = stack.link_arg(member.meta.stack_limit_bytes()) {
            solver.extend(["-C".into(), format!("link-arg={arg}").into()]);
        }
        invocations.push(solver);
    }
    invocations
}

/// `cargo COMMAND` (after `cargo`) in the profile `options` name, for the workspace `manifest`,
/// its messages as JSON.
fn cargo_args(command: &str, manifest: &Path, options: &BuildOptions) -> Vec<OsString> {
    let mut args: Vec<OsString> = [command, "--profile", &options.profile]
        .into_iter()
        .map(OsString::from)
        .collect();
    args.push("--message-format=json-render-diagnostics".into());
    args.push("--manifest-path".into());
    args.push(manifest.into());
    if let Some(dir) = &options.target_dir {
        // Absolute: cargo runs in the workspace's folder, not where the path was given.
        args.push("--target-dir".into());
        args.push(
            std::path::absolute(dir)
                .unwrap_or_else(|_| dir.clone())
                .into(),
        );
    }
    if options.quiet {
        args.push("--quiet".into());
    }
    if let Some(target) = &options.target {
        args.extend(["--target".into(), OsString::from(target)]);
    }
    for setting in &options.config {
        args.extend(["--config".into(), OsString::from(setting)]);
    }
    args
}

/// Runs `cargo ARGS` for the workspace `manifest` and maps (package manifest, binary name) to
/// the executables it reports. Cargo runs in the workspace's folder, so the configuration it
/// reads (`.cargo/config.toml`: the judge profile, the target folder) is the workspace's own,
/// wherever the xtask was started.
fn run_cargo(manifest: &Path, args: &[OsString], options: &BuildOptions) -> Result<Artifacts> {
    let mut command = host::cargo(manifest.parent());
    command.args(args);
    if let Some(flags) = &options.rustflags {
        command.env("CARGO_ENCODED_RUSTFLAGS", flags.join("\x1f"));
    }
    if options.quiet {
        command.stderr(Stdio::piped());
    }
    let output = command
        .stdout(Stdio::piped())
        .output()
        .context("cannot run cargo")?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        bail!(
            "cargo {} --profile {} failed ({}){}{}",
            args[0].to_string_lossy(),
            options.profile,
            output.status,
            if stderr.is_empty() { "" } else { ":\n" },
            stderr.trim_end()
        );
    }
    let mut artifacts = HashMap::new();
    for message in Message::parse_stream(&output.stdout[..]).flatten() {
        let Message::CompilerArtifact(artifact) = message else {
            continue;
        };
        let Some(exe) = artifact.executable else {
            continue;
        };
        if artifact.target.kind.contains(&TargetKind::Bin) {
            let package = artifact.manifest_path.into_std_path_buf();
            let package = dunce::canonicalize(&package).unwrap_or(package);
            artifacts.insert((package, artifact.target.name), exe.into_std_path_buf());
        }
    }
    Ok(artifacts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boj_2580() -> Problem {
        Problem::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems/boj-2580")).unwrap()
    }

    fn words(args: &[OsString]) -> Vec<String> {
        args.iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn unix_builds_every_binary_at_once() {
        let problem = boj_2580();
        let plan = cargo_invocations(
            Path::new("Cargo.toml"),
            &[&problem],
            &BuildOptions::default(),
            StackAt::RunTime,
        );
        assert_eq!(plan.len(), 1);
        let build = words(&plan[0]);
        assert_eq!(&build[..3], ["build", "--profile", "judge"]);
        assert!(build.contains(&"--bins".to_string()), "{build:?}");
        assert!(!build.iter().any(|w| w.contains("stack")), "{build:?}");
    }

    #[test]
    fn the_checked_build_defines_its_profile_on_the_command_line() {
        let problem = boj_2580();
        let msvc = StackAt::LinkTime {
            linker: Linker::Msvc,
        };
        for stack in [StackAt::RunTime, msvc] {
            let plan = cargo_invocations(
                Path::new("Cargo.toml"),
                &[&problem],
                &BuildOptions::checked(),
                stack,
            );
            for invocation in plan {
                let words = words(&invocation);
                assert_eq!(&words[1..3], ["--profile", "judge-checked"]);
                let settings: Vec<&String> = words
                    .windows(2)
                    .filter(|w| w[0] == "--config")
                    .map(|w| &w[1])
                    .collect();
                assert_eq!(
                    settings,
                    [
                        "profile.judge-checked.inherits=\"judge\"",
                        "profile.judge-checked.overflow-checks=true",
                        "profile.judge-checked.debug-assertions=true"
                    ]
                );
            }
        }
    }

    #[test]
    fn windows_and_macos_link_each_solver_with_its_stack_and_build_helpers_apart() {
        let problem = boj_2580();
        let stack = problem.meta.stack_limit_bytes();
        assert_eq!(stack, 256 << 20, "by default the memory limit");
        for (triple, arg) in [
            ("x86_64-pc-windows-msvc", format!("link-arg=/STACK:{stack}")),
            (
                "x86_64-pc-windows-gnu",
                format!("link-arg=-Wl,--stack,{stack}"),
            ),
            (
                "aarch64-apple-darwin",
                "link-arg=-Wl,-stack_size,0x10000000".into(),
            ),
            (
                "x86_64-apple-darwin",
                "link-arg=-Wl,-stack_size,0x10000000".into(),
            ),
        ] {
            let plan = cargo_invocations(
                Path::new("Cargo.toml"),
                &[&problem],
                &BuildOptions::default(),
                StackAt::for_target(triple),
            );
            assert_eq!(plan.len(), 2, "{triple}: {plan:?}");
            let helpers = words(&plan[0]);
            assert_eq!(helpers[0], "build");
            assert!(!helpers.contains(&"--bins".to_string()));
            let named: Vec<&String> = helpers
                .windows(2)
                .filter(|w| w[0] == "--bin")
                .map(|w| &w[1])
                .collect();
            assert_eq!(named, ["boj-2580-checker", "boj-2580-gen"]);
            let solver = words(&plan[1]);
            assert_eq!(solver[0], "rustc");
            let tail = &solver[solver.len() - 5..];
            assert_eq!(
                tail,
                ["--bin", "boj-2580", "--", "-C", arg.as_str()],
                "{triple}"
            );
        }
    }

    #[test]
    fn only_windows_and_apple_targets_fix_the_stack_when_linked() {
        for triple in [
            "x86_64-unknown-linux-gnu",
            "aarch64-unknown-linux-musl",
            "x86_64-unknown-freebsd",
        ] {
            assert_eq!(StackAt::for_target(triple), StackAt::RunTime, "{triple}");
            assert_eq!(StackAt::for_target(triple).link_arg(8 << 20), None);
        }
        let apple = StackAt::for_target("aarch64-apple-darwin");
        // ld64 takes hexadecimal, in whole pages (16 KiB on arm64, a multiple of x86's 4 KiB).
        assert_eq!(
            apple.link_arg(8 << 20).as_deref(),
            Some("-Wl,-stack_size,0x800000")
        );
        assert_eq!(
            apple.link_arg((8 << 20) + 1).as_deref(),
            Some("-Wl,-stack_size,0x804000")
        );
        assert_eq!(
            StackAt::for_target("x86_64-pc-windows-gnu")
                .link_arg(1000)
                .as_deref(),
            Some("-Wl,--stack,1000")
        );
    }

    #[test]
    fn this_systems_stack_plan_is_its_targets() {
        let Some(host) = super::host::triple() else {
            eprintln!("skipped: no rustc to name the host");
            return;
        };
        assert_eq!(StackAt::here(), StackAt::for_target(&host), "{host}");
    }
}
