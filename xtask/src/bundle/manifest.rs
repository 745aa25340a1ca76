//! What goes into a bundle, read from `Cargo.toml` files: the problem's binary, and every path
//! crate it depends on (directly or through `workspace = true`), transitively.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use toml::Value;

/// One library crate to inline as `mod <module> { ... }`.
#[derive(Debug, Clone)]
pub struct LibCrate {
    /// Its name in Rust code (`sudoku_core`): the module name in the bundle.
    pub module: String,
    /// Folder holding its `Cargo.toml`.
    pub dir: PathBuf,
    /// Its crate root (`src/lib.rs` unless `[lib] path` says otherwise).
    pub root: PathBuf,
    /// Names this crate's code uses for the other bundled crates: extern name -> module.
    pub deps: BTreeMap<String, String>,
}

/// The binary to bundle and the libraries it needs, dependencies before dependants.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Package name (`boj-2239`), used in the header and the default file name.
    pub package: String,
    /// Folder holding the problem's `Cargo.toml`.
    pub dir: PathBuf,
    /// The binary's root file (`src/main.rs` unless a `[[bin]]` says otherwise).
    pub main: PathBuf,
    /// Extern names the binary uses for bundled crates: extern name -> module.
    pub deps: BTreeMap<String, String>,
    /// Every bundled library, in a deterministic order (by module name).
    pub libs: Vec<LibCrate>,
}

fn read_manifest(dir: &Path) -> Result<Value> {
    let path = dir.join("Cargo.toml");
    let text =
        fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    text.parse::<Value>()
        .with_context(|| format!("{} is not valid TOML", path.display()))
}

fn package_name(manifest: &Value, dir: &Path) -> Result<String> {
    manifest
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(Value::as_str)
        .map(str::to_owned)
        .with_context(|| format!("{}/Cargo.toml has no [package] name", dir.display()))
}

/// The nearest ancestor folder (the folder itself included) whose `Cargo.toml` has `[workspace]`.
fn workspace_root(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| {
            read_manifest(d)
                .map(|m| m.get("workspace").is_some())
                .unwrap_or(false)
        })
        .map(Path::to_path_buf)
}

/// Path dependencies of the package in `dir`, as (extern name, crate folder).
fn path_dependencies(dir: &Path, manifest: &Value) -> Result<Vec<(String, PathBuf)>> {
    let mut found = Vec::new();
    let deps = match manifest.get("dependencies").and_then(Value::as_table) {
        Some(deps) => deps,
        None => return Ok(found),
    };
    for (key, spec) in deps {
        let extern_name = key.replace('-', "_");
        let inherits = spec.get("workspace").and_then(Value::as_bool) == Some(true);
        let (spec, base) = if inherits {
            let root = workspace_root(dir).with_context(|| {
                format!(
                    "{}: `{}.workspace = true` outside a workspace",
                    dir.display(),
                    key
                )
            })?;
            let ws = read_manifest(&root)?;
            let spec = ws
                .get("workspace")
                .and_then(|w| w.get("dependencies"))
                .and_then(|d| d.get(key))
                .cloned()
                .with_context(|| format!("[workspace.dependencies] has no `{}`", key))?;
            (spec, root)
        } else {
            (spec.clone(), dir.to_path_buf())
        };
        match spec.get("path").and_then(Value::as_str) {
            Some(path) => found.push((extern_name, base.join(path))),
            None => bail!(
                "{}: dependency `{}` is not a path crate; BOJ offers no external crates, \
                 so a submission can only use crates whose source can be bundled",
                dir.display(),
                key
            ),
        }
    }
    Ok(found)
}

/// Reads the library crate in `dir`: its module name and crate root.
fn library(dir: &Path) -> Result<(String, PathBuf, Value)> {
    let manifest = read_manifest(dir)?;
    let package = package_name(&manifest, dir)?;
    if manifest
        .get("package")
        .and_then(|p| p.get("build"))
        .is_some()
        || dir.join("build.rs").exists()
    {
        bail!(
            "{}: crates with build scripts cannot be bundled",
            dir.display()
        );
    }
    let lib = manifest.get("lib");
    let module = lib
        .and_then(|l| l.get("name"))
        .and_then(Value::as_str)
        .map_or_else(|| package.replace('-', "_"), str::to_owned);
    let root = dir.join(
        lib.and_then(|l| l.get("path"))
            .and_then(Value::as_str)
            .unwrap_or("src/lib.rs"),
    );
    if lib
        .and_then(|l| l.get("proc-macro"))
        .and_then(Value::as_bool)
        == Some(true)
    {
        bail!("{}: proc-macro crates cannot be bundled", dir.display());
    }
    if !root.is_file() {
        bail!(
            "{}: no library crate root at {}",
            dir.display(),
            root.display()
        );
    }
    Ok((module, root, manifest))
}

/// Works out what to bundle for the problem (a package with a binary) in `dir`.
pub fn plan(dir: &Path) -> Result<Plan> {
    let manifest = read_manifest(dir)?;
    let package = package_name(&manifest, dir)?;
    let main = main_path(dir, &manifest, &package);
    if !main.is_file() {
        bail!("{}: no binary root at {}", dir.display(), main.display());
    }

    let mut libs: BTreeMap<PathBuf, LibCrate> = BTreeMap::new();
    let mut deps = BTreeMap::new();
    let mut todo: Vec<PathBuf> = Vec::new();
    // A problem's other binaries (generator, reference, checker) may use crates its submission
    // must not carry: only the dependencies the solver's own source names go in.
    let named = names_in(&super::expand::load_crate(&main)?);
    let used = path_dependencies(dir, &manifest)?
        .into_iter()
        .filter(|(extern_name, _)| named.contains(extern_name));
    for (extern_name, lib_dir) in used {
        let lib_dir = canonical(&lib_dir)?;
        let (module, _, _) = library(&lib_dir)?;
        deps.insert(extern_name, module);
        todo.push(lib_dir);
    }
    while let Some(lib_dir) = todo.pop() {
        if libs.contains_key(&lib_dir) {
            continue;
        }
        let (module, root, lib_manifest) = library(&lib_dir)?;
        let mut lib_deps = BTreeMap::new();
        for (extern_name, dep_dir) in path_dependencies(&lib_dir, &lib_manifest)? {
            let dep_dir = canonical(&dep_dir)?;
            let (dep_module, _, _) = library(&dep_dir)?;
            lib_deps.insert(extern_name, dep_module);
            todo.push(dep_dir);
        }
        libs.insert(
            lib_dir.clone(),
            LibCrate {
                module,
                dir: lib_dir,
                root,
                deps: lib_deps,
            },
        );
    }
    let mut libs: Vec<LibCrate> = libs.into_values().collect();
    libs.sort_by(|a, b| a.module.cmp(&b.module));
    for pair in libs.windows(2) {
        if pair[0].module == pair[1].module {
            bail!(
                "two bundled crates share the name `{}`: {} and {}",
                pair[0].module,
                pair[0].dir.display(),
                pair[1].dir.display()
            );
        }
    }
    Ok(Plan {
        package,
        dir: dir.to_path_buf(),
        main,
        deps,
        libs,
    })
}

/// The binary named like the package (`[[bin]]` entry or `src/main.rs`); its checker is not it.
fn main_path(dir: &Path, manifest: &Value, package: &str) -> PathBuf {
    let wanted = manifest
        .get("package")
        .and_then(|p| p.get("default-run"))
        .and_then(Value::as_str)
        .unwrap_or(package);
    let bins = manifest.get("bin").and_then(Value::as_array);
    let path = bins
        .into_iter()
        .flatten()
        .find(|b| b.get("name").and_then(Value::as_str) == Some(wanted))
        .and_then(|b| b.get("path"))
        .and_then(Value::as_str)
        .unwrap_or("src/main.rs");
    dir.join(path)
}

/// Every identifier in `file` (paths, `use` trees, macro bodies): a dependency the binary never
/// names is one it does not use.
fn names_in(file: &syn::File) -> BTreeSet<String> {
    fn walk(tokens: proc_macro2::TokenStream, names: &mut BTreeSet<String>) {
        for token in tokens {
            match token {
                proc_macro2::TokenTree::Ident(ident) => {
                    names.insert(ident.to_string());
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

fn canonical(path: &Path) -> Result<PathBuf> {
    fs::canonicalize(path).with_context(|| format!("cannot find crate folder {}", path.display()))
}
