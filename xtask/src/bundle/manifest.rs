//! What goes into a bundle, as the problem's own judge build made it ([`JudgeBuild`]): the
//! problem's solver binary, and every library crate its source names, from the workspace,
//! crates.io or git, transitively, each with the features that build enabled for it, its
//! edition and its `rust-version`. A library with a build script can go in only when the
//! script does nothing a one-file submission would miss but `cfg`s, which are then decided as
//! the build decided them (its `build-script-executed` messages). A crate that cannot go in is
//! planned with the reason, and refused only if the solution reaches it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use cargo_metadata::{BuildScript, Package, Target, TargetKind};

use super::cfg::Cfg;
use super::judge_build::JudgeBuild;
use super::judge_rust::JudgeRust;
use super::proc_macros::ProcMacros;
use super::readings::Readings;
use super::shadow::ModuleTree;

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
    /// Why it cannot be bundled, if it cannot: it becomes an empty module, and the bundle is
    /// refused only when the solution reaches it.
    pub refusal: Option<String>,
    /// Whether it is a proc-macro crate (see [`super::macro_origin`]).
    pub proc_macro: bool,
    /// The names of its `#[macro_export]` macros, when known before it is read (the plan
    /// reads each crate's summary): all a library defines outside its module, so one known is
    /// read only when the solution may reach it (see [`super::reach::unloaded`]); one not
    /// known always is.
    pub exported_macros: Option<BTreeSet<String>>,
    /// The name its module would have had, when the solution's root binds that name itself
    /// and the module took another (see [`Plan::keep_crates_apart`]).
    pub apart_from: Option<String>,
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
    /// The folder of the workspace that builds the problem (paths in the header are relative
    /// to it).
    pub workspace_root: PathBuf,
    /// The proc macros each crate can call, expanded as each crate is read (see
    /// [`super::proc_macros`]); none for a plan made without a build.
    pub proc_macros: ProcMacros,
    /// Each crate as read, for this run and the next (see [`super::readings`]).
    pub readings: Readings,
    /// The Rust the problem's judge is taken to run: its `rust-version` (see
    /// [`super::judge_rust`]).
    pub judge_rust: JudgeRust,
}

impl LibCrate {
    /// A path crate `module` (package `module 0.1.0`) of `edition` whose root is `dir/lib.rs`,
    /// with no features and no dependencies: a library made without cargo (see
    /// [`Plan::without_cargo`]).
    pub fn in_folder(module: &str, dir: &Path, edition: &str) -> LibCrate {
        LibCrate {
            module: module.to_string(),
            package: format!("{module} 0.1.0"),
            source: Source::Path,
            dir: dir.to_path_buf(),
            root: dir.join("lib.rs"),
            edition: edition.to_string(),
            cfg: Cfg::default(),
            rust_version: None,
            deps: BTreeMap::new(),
            refusal: None,
            proc_macro: false,
            exported_macros: None,
            apart_from: None,
        }
    }
}

impl Plan {
    /// A plan made without cargo: the solution `dir/main.rs`, which names each of `libs` by
    /// its module, and the judge's Rust the default. What the `bundle` fuzz target and its
    /// property-test twin feed [`super::render_sources`].
    pub fn without_cargo(dir: &Path, libs: Vec<LibCrate>) -> Plan {
        Plan {
            package: "sources".to_string(),
            dir: dir.to_path_buf(),
            main: dir.join("main.rs"),
            deps: libs
                .iter()
                .map(|lib| (lib.module.clone(), lib.module.clone()))
                .collect(),
            libs,
            cfg: Cfg::default(),
            edition: "2021".to_string(),
            target_dir: dir.join("target"),
            workspace_root: dir.to_path_buf(),
            judge_rust: JudgeRust::of_problem(None),
            proc_macros: Default::default(),
            readings: Readings::default(),
        }
    }
}

/// Works out what to bundle for the binary `solver` of the package in `dir` (the problem's
/// `default-run` binary, as [`crate::workspace::problem::Problem`] resolved it), from cargo's judge build
/// of it ([`JudgeBuild`]). A crate that cannot be bundled (a proc-macro crate, a build script
/// that does more than set `cfg`s, a source that cannot be read) is planned all the same, with
/// the reason: it is refused only when the solution reaches it (see [`super::reach`]).
pub fn plan(dir: &Path, solver: &str) -> Result<Plan> {
    let dir = dunce::canonicalize(dir).with_context(|| format!("no folder {}", dir.display()))?;
    let manifest = dir.join("Cargo.toml");
    let build = JudgeBuild::run(&manifest, solver)?;
    let packages = build.packages();
    let package = packages
        .get(build.package.as_str())
        .copied()
        .with_context(|| format!("cargo metadata does not list {}", build.package))?;
    let main_target = package
        .targets
        .iter()
        .find(|t| t.name == solver && t.kind.contains(&TargetKind::Bin))
        .with_context(|| format!("{}: no binary `{solver}` to bundle", manifest.display()))?;
    let main = main_target.src_path.clone().into_std_path_buf();
    let proc_macros = ProcMacros::of_build(&build, &main);
    let readings = Readings::new(
        Some(super::cache::Store::in_target(&build.target_dir())),
        proc_macros.clone(),
    );
    let modules = module_names(&build, &packages);
    let module_of = |id: &str| -> String {
        modules.get(id).cloned().unwrap_or_else(|| {
            packages
                .get(id)
                .map_or_else(|| id.to_string(), |p| p.name.replace('-', "_"))
        })
    };
    let features =
        |id: &str| -> BTreeSet<String> { build.features.get(id).cloned().unwrap_or_default() };

    // Only the dependencies a crate's source names: a problem's generator, reference or
    // checker may use crates its submission must not carry, and a library may depend on crates
    // for parts the bundle never reaches.
    let read_crate = |id: &str, source: &Path, cfg: &Cfg| -> Result<CrateReading> {
        // The crates a proc macro's expansion names are the crate's too.
        let dependencies = build.dependencies(id);
        let asked = dependencies.iter().map(|(name, _)| name.clone()).collect();
        let summary = readings.summary(source, cfg, &asked)?;
        let deps = dependencies
            .into_iter()
            .filter(|(name, _)| summary.named.contains(name))
            .collect();
        Ok(CrateReading {
            deps,
            env_read: summary.env_read,
            exported_macros: summary.exported_macros,
        })
    };
    // The problem's own build script, as a library's: its `cfg`s are decided as it set them
    // (plain rustc runs none, so an item under a `#[cfg(name)]` it set was left out of the
    // bundle), and one that does more than that is no bundle.
    let own_script = has_build_script(package)
        .then(|| build.scripts.get(&build.package))
        .flatten();
    let own_cfg = Cfg {
        features: build.own_features.clone(),
        set: own_script
            .map(|output| output.cfgs.iter().cloned().collect())
            .unwrap_or_default(),
    };
    let main_reading = read_crate(&build.package, &main, &own_cfg)
        .with_context(|| format!("cannot read the solution {}", main.display()))?;
    if let Some(reason) =
        own_script.and_then(|output| script_refusal(package, output, &main_reading.env_read))
    {
        anyhow::bail!(
            "the solution's package {} {} has a build script that {reason}; a one-file \
             submission cannot carry that, so it cannot be bundled",
            package.name,
            package.version
        );
    }

    let mut libs: BTreeMap<String, LibCrate> = BTreeMap::new();
    let mut deps = BTreeMap::new();
    let mut todo: Vec<String> = Vec::new();
    for (extern_name, id) in main_reading.deps {
        deps.insert(extern_name, module_of(&id));
        todo.push(id);
    }
    while let Some(id) = todo.pop() {
        if libs.contains_key(&id) {
            continue;
        }
        let Some(&package) = packages.get(id.as_str()) else {
            continue;
        };
        let name = format!("{} {}", package.name, package.version);
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
        let mut lib = LibCrate {
            module: module_of(&id),
            package: name.clone(),
            source,
            dir: package
                .manifest_path
                .parent()
                .map_or_else(|| PathBuf::from("."), |d| d.as_std_path().to_path_buf()),
            root: PathBuf::new(),
            edition: "2021".to_string(),
            cfg: Cfg {
                features: features(&id),
                ..Cfg::default()
            },
            rust_version: package.rust_version.as_ref().map(|v| v.to_string()),
            deps: BTreeMap::new(),
            refusal: None,
            proc_macro: super::macro_origin::is_proc_macro_crate(package),
            exported_macros: None,
            apart_from: None,
        };
        match library(package) {
            Err(reason) => lib.refusal = Some(reason),
            Ok(target) => {
                lib.root = target.src_path.clone().into_std_path_buf();
                lib.edition = target.edition.as_str().to_string();
                match read_crate(&id, &lib.root, &lib.cfg) {
                    Err(e) => {
                        lib.refusal = Some(format!("{}: {e:#}", cannot_read(&name, &lib.edition)))
                    }
                    Ok(reading) => {
                        lib.exported_macros = Some(reading.exported_macros);
                        if has_build_script(package) {
                            match build.scripts.get(&id) {
                                None => {
                                    lib.refusal = Some(format!(
                                        "crate {name} has a build script, and cargo's build ran \
                                         none for it"
                                    ))
                                }
                                Some(output) => {
                                    lib.refusal =
                                        script_refusal(package, output, &reading.env_read).map(
                                            |reason| {
                                                format!(
                                                "crate {name} has a build script that {reason}; \
                                                 a one-file submission cannot carry that, so it \
                                                 cannot be bundled"
                                            )
                                            },
                                        );
                                    lib.cfg.set = output.cfgs.iter().cloned().collect();
                                }
                            }
                        }
                        if lib.refusal.is_none() {
                            for (extern_name, dep_id) in reading.deps {
                                lib.deps.insert(extern_name, module_of(&dep_id));
                                todo.push(dep_id);
                            }
                        }
                    }
                }
            }
        }
        libs.insert(id, lib);
    }
    let mut libs: Vec<LibCrate> = libs.into_values().collect();
    libs.sort_by(|a, b| a.module.cmp(&b.module));
    // What the solution's root binds, which no crate's module may take.
    let solution = readings
        .read(&main, &own_cfg)
        .with_context(|| format!("cannot read the solution {}", main.display()))?;
    let mut plan = Plan {
        package: package.name.to_string(),
        dir,
        main,
        deps,
        libs,
        cfg: own_cfg,
        edition: main_target.edition.as_str().to_string(),
        target_dir: build.target_dir(),
        workspace_root: build.workspace_root(),
        proc_macros,
        readings,
        judge_rust: JudgeRust::of_problem(
            package
                .rust_version
                .as_ref()
                .map(|v| v.to_string())
                .as_deref(),
        ),
    };
    plan.keep_crates_apart(&solution.items);
    Ok(plan)
}

impl Plan {
    /// Gives each library whose module would take a name the solution binds at its root (in
    /// the type namespace: its own `mod ac_library`, a `struct rand_core`, an import; see
    /// [`super::shadow`]) a module of another name, `NAME_crate`, and has every crate that
    /// uses it name that module; then sorts the libraries by module. In the crate build the
    /// solution's item and the crate never met (the crate is no item of the solution's root),
    /// in the bundle they would be two items of one name at its root. The solution's own paths
    /// through the name still mean its item; `::NAME` means the crate, as it did.
    pub fn keep_crates_apart(&mut self, solution_root: &[syn::Item]) {
        let tree = ModuleTree::of(solution_root);
        let taken = |name: &str| tree.binds_type(ModuleTree::ROOT, name);
        let mut modules: BTreeSet<String> = self.libs.iter().map(|l| l.module.clone()).collect();
        let mut renamed: BTreeMap<String, String> = BTreeMap::new();
        for lib in &self.libs {
            let name = lib.module.strip_prefix("r#").unwrap_or(&lib.module);
            if !taken(name) {
                continue;
            }
            let apart = (1..)
                .map(|k| match k {
                    1 => format!("{name}_crate"),
                    k => format!("{name}_crate_{k}"),
                })
                .find(|candidate| !modules.contains(candidate) && !taken(candidate))
                .expect("some suffix is free");
            modules.insert(apart.clone());
            renamed.insert(lib.module.clone(), apart);
        }
        if renamed.is_empty() {
            return;
        }
        let rename = |module: &mut String| {
            if let Some(apart) = renamed.get(module.as_str()) {
                *module = apart.clone();
            }
        };
        self.deps.values_mut().for_each(rename);
        for lib in &mut self.libs {
            if renamed.contains_key(&lib.module) {
                lib.apart_from = Some(lib.module.clone());
            }
            rename(&mut lib.module);
            lib.deps.values_mut().for_each(rename);
        }
        self.libs.sort_by(|a, b| a.module.cmp(&b.module));
    }
}

/// The module each library of the build becomes: its name in Rust code (`num_traits`), or,
/// when two packages of the build share it (two versions of one crate), that name and the
/// version (`rand_core_0_9_3`), so that each is a module of its own.
fn module_names(
    build: &JudgeBuild,
    packages: &BTreeMap<&str, &Package>,
) -> BTreeMap<String, String> {
    let mut by_name: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for id in build.features.keys() {
        if let Some(package) = packages.get(id.as_str()) {
            let name = lib_name(package);
            by_name.entry(name).or_default().push(id.as_str());
        }
    }
    let mut modules = BTreeMap::new();
    for (name, ids) in by_name {
        let shared = ids.len() > 1;
        for id in ids {
            let module = match packages.get(id) {
                Some(p) if shared => format!(
                    "{name}_{}",
                    p.version
                        .to_string()
                        .replace(|c: char| !c.is_ascii_alphanumeric(), "_")
                ),
                _ => name.clone(),
            };
            modules.insert(id.to_string(), module);
        }
    }
    modules
}

/// A package's library name, as Rust code names it (`num_traits`).
fn lib_name(package: &Package) -> String {
    lib_target(package)
        .map_or_else(|| package.name.to_string(), |t| t.name.clone())
        .replace('-', "_")
}

/// What a crate's source says about what it needs.
struct CrateReading {
    /// The dependencies it names (only those go in): (extern name, package id).
    deps: Vec<(String, String)>,
    /// The environment variables it reads at compile time (`env!`, `option_env!`).
    env_read: BTreeSet<String>,
    /// Its `#[macro_export]` macros.
    exported_macros: BTreeSet<String>,
}

fn has_build_script(package: &Package) -> bool {
    package
        .targets
        .iter()
        .any(|t| t.kind.contains(&TargetKind::CustomBuild))
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

/// A package's library target (a proc-macro crate's too), if it has one.
fn lib_target(package: &Package) -> Option<&Target> {
    package.targets.iter().find(|t| {
        t.kind.iter().any(|k| {
            matches!(
                k,
                TargetKind::Lib | TargetKind::RLib | TargetKind::ProcMacro
            )
        })
    })
}

/// A package's library target, or why there is none to bundle: a proc-macro crate runs in the
/// compiler, not in the program.
fn library(package: &Package) -> std::result::Result<&Target, String> {
    let name = format!("{} {}", package.name, package.version);
    let target =
        lib_target(package).ok_or_else(|| format!("crate {name} has no library to bundle"))?;
    if super::macro_origin::is_proc_macro_crate(package) {
        return Err(super::macro_origin::refusal(&name));
    }
    if !target.src_path.is_file() {
        return Err(format!(
            "crate {name}: no library source at {}",
            target.src_path
        ));
    }
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan of the libraries `modules`, the first named by the solution, which depends on
    /// the others.
    fn plan_of(modules: &[&str]) -> Plan {
        let dir = Path::new("/nowhere");
        let mut libs: Vec<LibCrate> = modules
            .iter()
            .map(|m| LibCrate::in_folder(m, dir, "2021"))
            .collect();
        libs[0].deps = modules[1..]
            .iter()
            .map(|m| (m.to_string(), m.to_string()))
            .collect();
        let mut plan = Plan::without_cargo(dir, libs);
        plan.deps.retain(|name, _| name == modules[0]);
        plan
    }

    #[test]
    fn a_crate_whose_name_the_solutions_root_binds_takes_another_and_its_users_follow() {
        let mut plan = plan_of(&["itertools", "either", "rand_core", "num"]);
        let root: syn::File = syn::parse_quote! {
            mod either;
            struct rand_core;
            #[allow(non_camel_case_types)]
            type rand_core_crate = u8;
            fn num() {}
            use itertools::Itertools;
        };
        plan.keep_crates_apart(&root.items);
        let modules: Vec<(&str, Option<&str>)> = plan
            .libs
            .iter()
            .map(|lib| (lib.module.as_str(), lib.apart_from.as_deref()))
            .collect();
        assert_eq!(
            modules,
            [
                ("either_crate", Some("either")),
                ("itertools", None),
                ("num", None),
                ("rand_core_crate_2", Some("rand_core")),
            ]
        );
        let itertools = &plan.libs[1];
        assert_eq!(itertools.deps["either"], "either_crate");
        assert_eq!(itertools.deps["rand_core"], "rand_core_crate_2");
        assert_eq!(itertools.deps["num"], "num");
        assert_eq!(plan.deps["itertools"], "itertools");
    }
}
