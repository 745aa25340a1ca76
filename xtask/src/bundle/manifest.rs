//! What goes into a bundle, as cargo resolved it (`cargo metadata`): the problem's solver
//! binary, and every library crate its source names, from the workspace, crates.io or git,
//! transitively, each with the features cargo enabled for it, its edition and its
//! `rust-version`. A library with a build script goes in only when the script does nothing a
//! one-file submission would miss but `cfg`s, which are then decided as cargo's build decided
//! them (its `build-script-executed` messages, from `cargo check`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use cargo_metadata::{BuildScript, DependencyKind, Message, Package, Target, TargetKind};

use crate::build::Resolved;

use super::cfg::Cfg;

/// One library crate to inline as `mod <module> { ... }`.
#[derive(Debug, Clone)]
pub struct LibCrate {
    /// Its name in Rust code (`sudoku_core`): the module name in the bundle.
    pub module: String,
    /// Package name and version, for messages and the bundle's header.
    pub package: String,
    /// Where it comes from: a path in the workspace, or `crates.io`, or a git URL.
    pub source: Source,
    /// Folder holding its `Cargo.toml`.
    pub dir: PathBuf,
    /// Its crate root (`src/lib.rs` unless `[lib] path` says otherwise).
    pub root: PathBuf,
    /// Its edition (`2015`, `2018`, `2021`, ...).
    pub edition: String,
    /// The features cargo enabled for it and the `cfg`s its build script set (plain rustc sets
    /// neither, so the bundler decides them).
    pub cfg: Cfg,
    /// Its `rust-version`, when it declares one.
    pub rust_version: Option<String>,
    /// Names this crate's code uses for the other bundled crates: extern name -> module.
    pub deps: BTreeMap<String, String>,
}

/// Where a bundled crate's source comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A path dependency (the workspace's own crates).
    Path,
    /// A registry (crates.io).
    Registry,
    /// A git repository.
    Git(String),
}

/// The binary to bundle and the libraries it needs.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Package name (`boj-2239`), used in the header and the default file name.
    pub package: String,
    /// Folder holding the problem's `Cargo.toml`.
    pub dir: PathBuf,
    /// The binary's root file (the `default-run` binary's, or the package's own).
    pub main: PathBuf,
    /// Extern names the binary uses for bundled crates: extern name -> module.
    pub deps: BTreeMap<String, String>,
    /// Every bundled library, in a deterministic order (by module name).
    pub libs: Vec<LibCrate>,
    /// The binary's own settings: the features cargo enabled for the problem's package.
    pub cfg: Cfg,
    /// The binary's edition (the bundle is compiled as 2021 whatever it is).
    pub edition: String,
    /// cargo's target directory for the problem's workspace.
    pub target_dir: PathBuf,
}

/// Works out what to bundle for the binary `solver` of the package in `dir` (the problem's
/// `default-run` binary, as [`crate::problem::Problem`] resolved it).
pub fn plan(dir: &Path, solver: &str) -> Result<Plan> {
    let dir = dunce::canonicalize(dir).with_context(|| format!("no folder {}", dir.display()))?;
    let metadata = crate::build::metadata(&dir)?;
    let manifest = dir.join("Cargo.toml");
    let package = metadata
        .packages
        .iter()
        .find(|p| dunce::canonicalize(&p.manifest_path).ok().as_deref() == Some(manifest.as_path()))
        .with_context(|| {
            format!(
                "cargo metadata does not list the package of {}",
                dir.display()
            )
        })?;
    let main_target = package
        .targets
        .iter()
        .find(|t| t.name == solver && t.kind.contains(&TargetKind::Bin))
        .with_context(|| format!("{}: no binary `{solver}` to bundle", manifest.display()))?;
    let main = main_target.src_path.clone().into_std_path_buf();
    let Resolved { packages, nodes } = Resolved::of(&metadata);

    // Only the dependencies a crate's source names: a problem's generator, reference or
    // checker may use crates its submission must not carry, and a library may depend on crates
    // for parts the bundle never reaches.
    let features = |id: &str| -> BTreeSet<String> {
        nodes
            .get(id)
            .map(|n| n.features.iter().map(|f| f.to_string()).collect())
            .unwrap_or_default()
    };
    let read_crate = |id: &str, source: &Path| -> Result<CrateReading> {
        let cfg = Cfg {
            features: features(id),
            ..Cfg::default()
        };
        let file = super::expand::load_crate(source, &cfg)?;
        let named = names_in(&file);
        let node = nodes
            .get(id)
            .with_context(|| format!("cargo metadata has no resolve node for {id}"))?;
        let deps = node
            .deps
            .iter()
            .filter(|d| d.dep_kinds.iter().any(|k| k.kind == DependencyKind::Normal))
            .filter(|d| named.contains(&d.name))
            .map(|d| (d.name.clone(), d.pkg.repr.clone()))
            .collect();
        Ok(CrateReading {
            deps,
            env_read: env_reads(&file),
        })
    };

    let mut libs: BTreeMap<String, LibCrate> = BTreeMap::new();
    // Libraries with a build script, and the environment variables each reads.
    let mut scripted: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut deps = BTreeMap::new();
    let mut todo: Vec<String> = Vec::new();
    for (extern_name, id) in read_crate(&package.id.repr, &main)?.deps {
        let (module, _) = library(packages[id.as_str()])?;
        deps.insert(extern_name, module);
        todo.push(id);
    }
    while let Some(id) = todo.pop() {
        if libs.contains_key(&id) {
            continue;
        }
        let package = packages[id.as_str()];
        let (module, target) = library(package)?;
        let mut lib_deps = BTreeMap::new();
        let reading = read_crate(&id, target.src_path.as_std_path()).with_context(|| {
            cannot_read(
                &format!("{} {}", package.name, package.version),
                target.edition.as_str(),
            )
        })?;
        if has_build_script(package) {
            scripted.insert(id.clone(), reading.env_read);
        }
        for (extern_name, dep_id) in reading.deps {
            let (dep_module, _) = library(packages[dep_id.as_str()])?;
            lib_deps.insert(extern_name, dep_module);
            todo.push(dep_id);
        }
        let source = match package.source.as_ref().map(|s| s.repr.as_str()) {
            None => Source::Path,
            Some(s) if s.starts_with("git+") => Source::Git(
                s.trim_start_matches("git+")
                    .split(['?', '#'])
                    .next()
                    .unwrap_or(s)
                    .to_string(),
            ),
            Some(_) => Source::Registry,
        };
        libs.insert(
            id.clone(),
            LibCrate {
                module,
                package: format!("{} {}", package.name, package.version),
                source,
                dir: package
                    .manifest_path
                    .parent()
                    .map_or_else(|| PathBuf::from("."), |d| d.as_std_path().to_path_buf()),
                root: target.src_path.clone().into_std_path_buf(),
                edition: target.edition.as_str().to_string(),
                cfg: Cfg {
                    features: features(&id),
                    ..Cfg::default()
                },
                rust_version: package.rust_version.as_ref().map(|v| v.to_string()),
                deps: lib_deps,
            },
        );
    }
    if !scripted.is_empty() {
        let outputs = build_script_outputs(&dir, &package.name, solver)?;
        for (id, env) in &scripted {
            let package = packages[id.as_str()];
            let name = format!("{} {}", package.name, package.version);
            let output = outputs.get(id).with_context(|| {
                format!("cargo check ran no build script for {name}, which has one")
            })?;
            if let Some(reason) = script_refusal(package, output, env) {
                bail!(
                    "crate {name} has a build script that {reason}; a one-file submission \
                     cannot carry that, so it cannot be bundled"
                );
            }
            if let Some(lib) = libs.get_mut(id) {
                lib.cfg.set = output.cfgs.iter().cloned().collect();
            }
        }
    }
    let mut libs: Vec<LibCrate> = libs.into_values().collect();
    libs.sort_by(|a, b| a.module.cmp(&b.module));
    for pair in libs.windows(2) {
        if pair[0].module == pair[1].module {
            bail!(
                "two bundled crates share the name `{}`: {} and {}; a bundle holds one module of \
                 each name",
                pair[0].module,
                pair[0].package,
                pair[1].package
            );
        }
    }
    Ok(Plan {
        package: package.name.to_string(),
        dir,
        main,
        deps,
        libs,
        cfg: Cfg {
            features: features(&package.id.repr),
            ..Cfg::default()
        },
        edition: main_target.edition.as_str().to_string(),
        target_dir: metadata.target_directory.clone().into_std_path_buf(),
    })
}

/// What a crate's source says about what it needs.
struct CrateReading {
    /// The dependencies it names (only those go in): (extern name, package id).
    deps: Vec<(String, String)>,
    /// The environment variables it reads at compile time (`env!`, `option_env!`).
    env_read: BTreeSet<String>,
}

fn has_build_script(package: &Package) -> bool {
    package
        .targets
        .iter()
        .any(|t| t.kind.contains(&TargetKind::CustomBuild))
}

/// Runs `cargo check` on the problem's solver, in the `judge` profile when the workspace has
/// one (as `cargo xtask test` builds, so the scripts run once for both), else `release` (as BOJ
/// compiles, `-O`), and returns what each build script did, by package id.
fn build_script_outputs(
    dir: &Path,
    package: &str,
    solver: &str,
) -> Result<BTreeMap<String, BuildScript>> {
    let manifest = crate::build::workspace_manifest(dir)?;
    let text = std::fs::read_to_string(&manifest)
        .with_context(|| format!("cannot read {}", manifest.display()))?;
    let table: toml::Table =
        toml::from_str(&text).with_context(|| format!("cannot parse {}", manifest.display()))?;
    let has_judge = table.get("profile").and_then(|p| p.get("judge")).is_some();
    let profile = if has_judge { "judge" } else { "release" };
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(&cargo)
        .args(["check", "--profile", profile, "--message-format=json", "-p"])
        .arg(package)
        .args(["--bin", solver])
        .current_dir(dir)
        .output()
        .context("cannot run cargo check")?;
    if !out.status.success() {
        bail!(
            "cargo check of {package} failed in {} (it runs the build scripts whose cfgs the \
             bundle needs): {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr).trim_end()
        );
    }
    let mut outputs = BTreeMap::new();
    for message in Message::parse_stream(&out.stdout[..]) {
        let message = message.context("cannot read cargo check's messages")?;
        if let Message::BuildScriptExecuted(script) = message {
            outputs.insert(script.package_id.repr.clone(), script);
        }
    }
    Ok(outputs)
}

/// Why a build script's work cannot be carried in one file, if it cannot: it links native
/// code, sets an environment variable the crate reads, or writes code the crate includes
/// (its `OUT_DIR`). `cfg`s alone can be decided in the bundle.
fn script_refusal(
    package: &Package,
    output: &BuildScript,
    env_read: &BTreeSet<String>,
) -> Option<String> {
    if let Some(links) = &package.links {
        return Some(format!("links the native library `{links}`"));
    }
    if let Some(lib) = output.linked_libs.first() {
        return Some(format!("links native code (`{lib}`)"));
    }
    if let Some(path) = output.linked_paths.first() {
        return Some(format!("adds a native library path (`{path}`)"));
    }
    if env_read.contains("OUT_DIR") {
        return Some(
            "generates code (the crate reads `OUT_DIR`, where the script writes files for it to \
             include)"
                .to_string(),
        );
    }
    output
        .env
        .iter()
        .find(|(name, _)| env_read.contains(name))
        .map(|(name, _)| format!("sets `{name}`, which the crate reads with `env!`"))
}

/// The environment variables a crate reads at compile time: `env!("NAME")` and
/// `option_env!("NAME")` (also inside `concat!` and `include!`).
fn env_reads(file: &syn::File) -> BTreeSet<String> {
    fn walk(tokens: proc_macro2::TokenStream, names: &mut BTreeSet<String>) {
        let trees: Vec<proc_macro2::TokenTree> = tokens.into_iter().collect();
        for (i, tree) in trees.iter().enumerate() {
            match tree {
                proc_macro2::TokenTree::Ident(id) if id == "env" || id == "option_env" => {
                    let bang = matches!(trees.get(i + 1), Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == '!');
                    if let (true, Some(proc_macro2::TokenTree::Group(g))) = (bang, trees.get(i + 2))
                    {
                        let first = g.stream().into_iter().next();
                        if let Some(proc_macro2::TokenTree::Literal(lit)) = first {
                            if let Ok(syn::Lit::Str(s)) =
                                syn::parse_str::<syn::Lit>(&lit.to_string())
                            {
                                names.insert(s.value());
                            }
                        }
                    }
                }
                proc_macro2::TokenTree::Group(g) => walk(g.stream(), names),
                _ => {}
            }
        }
    }
    let mut names = BTreeSet::new();
    walk(quote::ToTokens::to_token_stream(file), &mut names);
    names
}

/// Why a crate's source could not be read, with what an old edition cannot bring along.
pub fn cannot_read(package: &str, edition: &str) -> String {
    if edition < "2021" {
        format!(
            "crate {package} (edition {edition}) cannot be carried into the 2021 bundle: \
             syn reads Rust 2018 and later, so 2015 names such as `async`, `await`, `dyn` or \
             `try`, and `Fn(..)` trait objects without `dyn`, cannot be rewritten"
        )
    } else {
        format!("cannot read crate {package}")
    }
}

/// A package's library target and its module name, refusing a proc-macro crate (it runs in the
/// compiler, not in the program). A build script is judged once cargo has run it.
fn library(package: &Package) -> Result<(String, &Target)> {
    let name = format!("{} {}", package.name, package.version);
    let target = package
        .targets
        .iter()
        .find(|t| {
            t.kind.iter().any(|k| {
                matches!(
                    k,
                    TargetKind::Lib | TargetKind::RLib | TargetKind::ProcMacro
                )
            })
        })
        .with_context(|| format!("crate {name} has no library to bundle"))?;
    if target.kind.contains(&TargetKind::ProcMacro) {
        bail!(
            "crate {name} is a proc-macro crate: it runs inside the compiler, and BOJ's rustc \
             has no crates; it cannot be bundled"
        );
    }
    if !target.src_path.is_file() {
        bail!("crate {name}: no library source at {}", target.src_path);
    }
    Ok((target.name.replace('-', "_"), target))
}

/// Every identifier in `file` (paths, `use` trees, macro bodies): a dependency the code never
/// names is one it does not use.
fn names_in(file: &syn::File) -> BTreeSet<String> {
    fn walk(tokens: proc_macro2::TokenStream, names: &mut BTreeSet<String>) {
        for token in tokens {
            match token {
                proc_macro2::TokenTree::Ident(ident) => {
                    let name = ident.to_string();
                    names.insert(name.strip_prefix("r#").unwrap_or(&name).to_string());
                }
                proc_macro2::TokenTree::Group(group) => walk(group.stream(), names),
                _ => {}
            }
        }
    }
    let mut names = BTreeSet::new();
    walk(quote::ToTokens::to_token_stream(file), &mut names);
    names
}
