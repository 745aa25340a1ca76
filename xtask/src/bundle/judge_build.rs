//! The bundler's one door to cargo: what the problem's own judge build is made of. Every cargo
//! call of the bundler is here, and each goes through `--manifest-path` of the problem's own
//! `Cargo.toml`, with the package selected by name, so cargo finds whatever workspace builds it:
//! - `cargo metadata`: the packages (their targets, editions, sources, `rust-version`) and which
//!   package each dependency name means;
//! - `cargo check --profile judge -p PACKAGE --bin SOLVER --message-format=json`: the build
//!   BOJ's submission stands for, checked: the same crates with the same features, every build
//!   script run and every proc-macro crate compiled (the server loads those), but no code
//!   generated for the solution and its libraries, which the bundle does not need. Its
//!   messages say which libraries were checked, with the features each was built with, and
//!   what each build script did. So features, optional dependencies and build-script `cfg`s
//!   are those of this one package's build, never the union `cargo metadata` resolves over a
//!   workspace's members and dev-dependencies.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use cargo_metadata::{
    ArtifactProfile, BuildScript, DependencyKind, Message, Metadata, Package, TargetKind,
};
use serde::{Deserialize, Serialize};

use super::cache::{self, Store};

/// What cargo says of one problem's judge build.
#[derive(Debug, Serialize, Deserialize)]
pub struct JudgeBuild {
    /// `cargo metadata` of the workspace that builds the problem.
    pub metadata: Metadata,
    /// The problem's package id.
    pub package: String,
    /// The features each library of the build was built with, by package id: only the crates
    /// this build compiled are here.
    pub features: BTreeMap<String, BTreeSet<String>>,
    /// The features of the solver binary's own package.
    pub own_features: BTreeSet<String>,
    /// What each build script of the build did, by package id.
    pub scripts: BTreeMap<String, BuildScript>,
    /// The profile it was built in: `judge` when the workspace has one, else `release`.
    pub profile: String,
    /// The library each proc-macro crate of the build was compiled to, by package id: what
    /// the proc-macro server loads to expand its macros (see [`super::proc_macros`]).
    pub proc_macro_libraries: BTreeMap<String, PathBuf>,
}

impl JudgeBuild {
    /// Checks the binary `solver` of the package whose manifest is `manifest` in the profile
    /// `cargo xtask test` builds it in, and reads what cargo said (or what it said last time,
    /// when nothing that decides it changed).
    pub fn run(manifest: &Path, solver: &str) -> Result<JudgeBuild> {
        // A problem folder its workspace does not list yet is listed (archived) first: cargo
        // refuses to build a package that its workspace neither includes nor excludes.
        if let Some(dir) = manifest.parent() {
            crate::workspace::members::admit(&[dir.to_path_buf()])?;
        }
        let metadata = metadata(manifest)?;
        let canonical = |p: &Path| dunce::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        let wanted = canonical(manifest);
        let package = metadata
            .packages
            .iter()
            .find(|p| canonical(p.manifest_path.as_std_path()) == wanted)
            .with_context(|| {
                format!(
                    "cargo metadata does not list the package of {}",
                    manifest.display()
                )
            })?;
        let profile = judge_profile(metadata.workspace_root.as_std_path(), manifest)?;
        // What this build said is kept, keyed by all that decides it: an edit of the solution's
        // own source changes none of it, and is not worth a build of the solution.
        let store = Store::in_target(metadata.target_directory.as_std_path());
        let key = BuildKey::of(&metadata, manifest, solver, &profile);
        let name = cache::name_of(&(manifest, solver));
        if let Some(kept) = store.get::<BuildKey, JudgeBuild>("builds", &name, &key) {
            if kept.still_built() {
                return Ok(kept);
            }
        }
        // In the workspace's folder, as `cargo xtask test` builds, reading that workspace's
        // configuration (the judge profile may be defined there).
        let out = crate::workspace::host::cargo(manifest.parent())
            .arg("check")
            .arg("--manifest-path")
            .arg(manifest)
            .args(["--profile", &profile, "-p"])
            .arg(package.name.as_str())
            .args(["--bin", solver, "--keep-going"])
            .arg("--message-format=json-render-diagnostics")
            .output()
            .context("cannot run cargo check")?;
        // A crate rustc rejects as it stands (a 2015 crate today's borrow checker refuses, which
        // the edition rewrite mends; or the solution itself, whose errors `--check` shows) does
        // not stop the bundle: the rest of the build still says what it is made of. Anything
        // else that stops cargo does.
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() && !stderr.contains("could not compile") {
            bail!(
                "cargo check --profile {profile} of {} failed (the bundle is made of what that \
                 build uses): {}",
                package.name,
                stderr.trim_end()
            );
        }
        let mut units: BTreeMap<String, Vec<(ArtifactProfile, BTreeSet<String>)>> = BTreeMap::new();
        let mut own = None;
        let mut scripts = BTreeMap::new();
        let mut proc_macro_libraries = BTreeMap::new();
        for message in Message::parse_stream(&out.stdout[..]) {
            match message.context("cannot read cargo build's messages")? {
                Message::CompilerArtifact(artifact) => {
                    let features: BTreeSet<String> = artifact.features.iter().cloned().collect();
                    let kinds = &artifact.target.kind;
                    if kinds.contains(&TargetKind::ProcMacro) {
                        let library = artifact
                            .filenames
                            .iter()
                            .find(|f| f.extension() == Some(std::env::consts::DLL_EXTENSION));
                        if let Some(library) = library.or(artifact.filenames.first()) {
                            proc_macro_libraries.insert(
                                artifact.package_id.repr.clone(),
                                library.clone().into_std_path_buf(),
                            );
                        }
                    }
                    if artifact.package_id == package.id && kinds.contains(&TargetKind::Bin) {
                        if artifact.target.name == solver {
                            own = Some((artifact.profile.clone(), features));
                        }
                    } else if kinds.iter().any(|k| {
                        matches!(
                            k,
                            TargetKind::Lib | TargetKind::RLib | TargetKind::ProcMacro
                        )
                    }) {
                        units
                            .entry(artifact.package_id.repr.clone())
                            .or_default()
                            .push((artifact.profile.clone(), features));
                    }
                }
                Message::BuildScriptExecuted(script) => {
                    scripts.insert(script.package_id.repr.clone(), script);
                }
                _ => {}
            }
        }
        let resolved = |id: &str| -> Option<BTreeSet<String>> {
            let node = metadata
                .resolve
                .iter()
                .flat_map(|r| &r.nodes)
                .find(|n| n.id.repr == id)?;
            Some(node.features.iter().map(|f| f.to_string()).collect())
        };
        let (own_profile, own_features) = match own {
            Some(own) => (Some(own.0), own.1),
            None => (None, resolved(&package.id.repr).unwrap_or_default()),
        };
        // A library built twice (for the program and, with other settings, for a build script
        // or a proc-macro on the host) is taken as the program's: in the solver's own profile.
        let features = units
            .into_iter()
            .map(|(id, built)| {
                let mine: Vec<&BTreeSet<String>> = built
                    .iter()
                    .filter(|(profile, _)| Some(profile) == own_profile.as_ref())
                    .map(|(_, f)| f)
                    .collect();
                let chosen: BTreeSet<String> = if mine.is_empty() {
                    built.iter().flat_map(|(_, f)| f.iter().cloned()).collect()
                } else {
                    mine.into_iter().flatten().cloned().collect()
                };
                (id, chosen)
            })
            .collect();
        // What rustc rejected was not built: those crates and what depends on them take the
        // features `cargo metadata` resolves for them.
        let mut features: BTreeMap<String, BTreeSet<String>> = features;
        let complete = out.status.success();
        if !complete {
            for node in metadata.resolve.iter().flat_map(|r| &r.nodes) {
                if !features.contains_key(&node.id.repr) && node.id != package.id {
                    let resolved = node.features.iter().map(|f| f.to_string()).collect();
                    features.insert(node.id.repr.clone(), resolved);
                }
            }
        }
        let build = JudgeBuild {
            package: package.id.repr.clone(),
            metadata,
            features,
            own_features,
            scripts,
            profile,
            proc_macro_libraries,
        };
        // A build rustc stopped said less than a whole one would: never kept.
        if complete {
            store.put("builds", &name, &key, &build);
        }
        Ok(build)
    }

    /// Whether what a kept build made is still there: the proc-macro libraries the server
    /// loads (`cargo clean` removes them).
    fn still_built(&self) -> bool {
        self.proc_macro_libraries
            .values()
            .all(|library| library.is_file())
    }

    /// Every package of the workspace and its dependencies, by id.
    pub fn packages(&self) -> BTreeMap<&str, &Package> {
        self.metadata
            .packages
            .iter()
            .map(|p| (p.id.repr.as_str(), p))
            .collect()
    }

    /// The libraries the package `id` depends on in this build, for its own code (not for its
    /// build script or tests): (the name its code uses, package id). A dependency cargo did not
    /// build (an optional one no feature of this build enables) is none.
    pub fn dependencies(&self, id: &str) -> Vec<(String, String)> {
        let Some(node) = self
            .metadata
            .resolve
            .iter()
            .flat_map(|r| &r.nodes)
            .find(|n| n.id.repr == id)
        else {
            return Vec::new();
        };
        node.deps
            .iter()
            .filter(|d| d.dep_kinds.iter().any(|k| k.kind == DependencyKind::Normal))
            .filter(|d| self.features.contains_key(&d.pkg.repr))
            .map(|d| (d.name.clone(), d.pkg.repr.clone()))
            .collect()
    }

    /// cargo's target directory for the problem's workspace.
    pub fn target_dir(&self) -> PathBuf {
        self.metadata.target_directory.clone().into_std_path_buf()
    }

    /// The folder of the workspace that builds the problem.
    pub fn workspace_root(&self) -> PathBuf {
        self.metadata.workspace_root.clone().into_std_path_buf()
    }
}

/// `cargo metadata --manifest-path MANIFEST`, for the host platform only.
fn metadata(manifest: &Path) -> Result<Metadata> {
    let mut command = crate::workspace::host::cargo_metadata_for_host(manifest.parent());
    command.manifest_path(manifest);
    command
        .exec()
        .with_context(|| format!("cargo metadata failed for {}", manifest.display()))
}

/// `judge` when the workspace at `root` defines that profile (as `cargo xtask test` builds),
/// in its manifest or in a cargo configuration cargo reads for the package at `manifest`
/// (`.cargo/config.toml` in its folder or one above: where the archive keeps it), else
/// `release` (BOJ compiles with `-O`).
fn judge_profile(root: &Path, manifest: &Path) -> Result<String> {
    let defines_judge = |path: &Path| -> Result<bool> {
        if !path.is_file() {
            return Ok(false);
        }
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let table: toml::Table =
            toml::from_str(&text).with_context(|| format!("cannot parse {}", path.display()))?;
        Ok(table.get("profile").and_then(|p| p.get("judge")).is_some())
    };
    let mut places = vec![root.join("Cargo.toml")];
    for folder in manifest.ancestors().skip(1) {
        places.push(folder.join(".cargo").join("config.toml"));
        places.push(folder.join(".cargo").join("config"));
    }
    for place in places {
        if defines_judge(&place)? {
            return Ok("judge".to_string());
        }
    }
    Ok("release".to_string())
}

/// All that decides what a judge build says, but the solution's own source: the workspace as
/// `cargo metadata` tells it (every manifest, the lock file, the features resolved), the
/// profile, the compiler, cargo's configuration and environment, the sources of the build
/// scripts and proc-macro crates of the workspace's own (a crate from a registry is fixed by its
/// version), and the bundler itself.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct BuildKey {
    bundler: String,
    manifest: PathBuf,
    solver: String,
    profile: String,
    metadata: String,
    rustc: String,
    environment: Vec<(String, String)>,
    configuration: Vec<(PathBuf, Option<String>)>,
    own_build_code: Vec<(PathBuf, Option<String>)>,
}

impl BuildKey {
    fn of(metadata: &Metadata, manifest: &Path, solver: &str, profile: &str) -> BuildKey {
        let folder = manifest.parent().unwrap_or(Path::new("."));
        let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
        let rustc = cache::compiler(Path::new(&rustc), folder);
        let mut environment: Vec<(String, String)> = std::env::vars_os()
            .filter_map(|(name, value)| Some((name.into_string().ok()?, value.into_string().ok()?)))
            .filter(|(name, _)| name.starts_with("CARGO") || name.starts_with("RUST"))
            .collect();
        environment.sort();
        let mut configuration = Vec::new();
        for place in folder.ancestors() {
            configuration.push(place.join(".cargo").join("config.toml"));
            configuration.push(place.join(".cargo").join("config"));
        }
        if let Some(home) = std::env::var_os("CARGO_HOME") {
            configuration.push(PathBuf::from(&home).join("config.toml"));
            configuration.push(PathBuf::from(home).join("config"));
        }
        // A build script's file, and every file beside a proc-macro crate's root (its `src/`).
        let mut own_build_code = Vec::new();
        for package in metadata.packages.iter().filter(|p| p.source.is_none()) {
            for target in &package.targets {
                let root = target.src_path.as_std_path();
                if target.kind.contains(&TargetKind::CustomBuild) {
                    own_build_code.push(root.to_path_buf());
                } else if target.kind.contains(&TargetKind::ProcMacro) {
                    let folder = root.parent().unwrap_or(root);
                    own_build_code.extend(
                        walkdir::WalkDir::new(folder)
                            .sort_by_file_name()
                            .into_iter()
                            .filter_map(|e| e.ok())
                            .filter(|e| e.file_type().is_file())
                            .map(|e| e.into_path()),
                    );
                }
            }
        }
        let digests = |paths: Vec<PathBuf>| -> Vec<(PathBuf, Option<String>)> {
            paths
                .into_iter()
                .map(|path| {
                    let digest = cache::digest_of(&path);
                    (path, digest)
                })
                .collect()
        };
        BuildKey {
            bundler: cache::bundler().to_string(),
            manifest: manifest.to_path_buf(),
            solver: solver.to_string(),
            profile: profile.to_string(),
            metadata: serde_json::to_vec(metadata)
                .map_or_else(|_| String::new(), |m| cache::digest(&m)),
            rustc,
            environment,
            configuration: digests(configuration),
            own_build_code: digests(own_build_code),
        }
    }
}
