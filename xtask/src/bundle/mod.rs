//! The bundler: a problem's solution and the crates it uses as one file BOJ compiles.
//!
//! The solution (the problem's `default-run` binary) and every library crate its code names
//! (see [`manifest`]) become one file: each library is inlined as `mod <name> { ... }` (see
//! [`expand`], [`cfg`](mod@cfg), [`edition`], and [`macros`] for its `#[macro_export]`
//! macros), test code and docs are stripped, items that `main` cannot reach are dropped (see
//! [`reach`]), and prettyplease prints the result. Sound before small: when rustc's quick check rejects the
//! bundle pruned item by item, more is kept (whole modules, then whole crates) until it
//! passes, and [`Bundle::fallback`] says so. [`check`] proves a written bundle is a
//! submission. Nothing here prints: the commands do.

pub mod cfg;
pub mod check;
pub mod edition;
pub mod expand;
pub mod macros;
pub mod manifest;
pub mod reach;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use syn::{parse_quote, Item};

use self::expand::Rewrite;
use self::manifest::{Plan, Source};
pub use self::reach::Level;
use crate::problem::Problem;

/// BOJ's limit on a submission's source size.
pub const SIZE_LIMIT: usize = 512 * 1024;

/// A rendered bundle.
#[derive(Debug, Clone)]
pub struct Bundle {
    /// What went in.
    pub plan: Plan,
    /// The file's text: header comment and prettyplease output.
    pub text: String,
    /// The modules of the libraries left in it (a library whose items `main` never reaches
    /// goes whole).
    pub kept: Vec<String>,
    /// When pruning item by item broke the bundle: what was kept instead, and why.
    pub fallback: Option<Fallback>,
}

/// What the bundle kept beyond item-by-item pruning, because that did not compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fallback {
    /// rustc's first error on the bundle pruned item by item.
    pub error: String,
    /// The libraries (modules) kept more fully, and how much.
    pub kept: Vec<(String, Level)>,
}

impl std::fmt::Display for Fallback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept: Vec<String> = self
            .kept
            .iter()
            .map(|(module, level)| match level {
                Level::Items => format!("{module} item by item"),
                Level::Modules => format!("every item of the modules of {module} it uses"),
                Level::Crate => format!("all of {module}"),
            })
            .collect();
        write!(
            f,
            "kept {} (pruned item by item, the bundle did not compile: {})",
            kept.join(", "),
            self.error
        )
    }
}

/// Bundles `problem`'s solution binary.
pub fn bundle(problem: &Problem) -> Result<Bundle> {
    let plan = manifest::plan(&problem.dir, &problem.solver_bin)?;
    let file = assemble(&plan)?;
    let (file, fallback) = prune_soundly(&plan, &file)?;
    let kept: Vec<String> = plan
        .libs
        .iter()
        .filter(|lib| has_module(&file.items, &lib.module))
        .map(|lib| lib.module.clone())
        .collect();
    let text = format!("{}{}", header(&plan, &kept), prettyplease::unparse(&file));
    Ok(Bundle {
        plan,
        text,
        kept,
        fallback,
    })
}

fn has_module(items: &[Item], name: &str) -> bool {
    items
        .iter()
        .any(|item| matches!(item, Item::Mod(m) if m.ident == name))
}

/// The solution with every library inlined as a module, nothing pruned yet.
fn assemble(plan: &Plan) -> Result<syn::File> {
    let std_externs = || -> BTreeSet<String> { ["std", "core", "alloc"].map(String::from).into() };
    let mut file = expand::load_crate(&plan.main, &plan.cfg)?;
    let mut externs = std_externs();
    externs.extend(plan.deps.keys().cloned());
    edition::migrate(&mut file.items, &plan.edition, &externs);
    Rewrite {
        module: None,
        externs: plan.deps.clone(),
    }
    .apply(&mut file.items);
    let main_macro_use = macros::macro_use_crates(&file.items, &plan.deps);
    drop_extern_crates(&mut file.items, plan.deps.keys());

    let mut libs = Vec::new();
    for lib in &plan.libs {
        let mut lib_file = expand::load_crate(&lib.root, &lib.cfg)
            .with_context(|| manifest::cannot_read(&lib.package, &lib.edition))?;
        let mut externs = std_externs();
        externs.extend(lib.deps.keys().cloned());
        edition::migrate(&mut lib_file.items, &lib.edition, &externs);
        Rewrite {
            module: Some(lib.module.clone()),
            externs: lib.deps.clone(),
        }
        .apply(&mut lib_file.items);
        let macro_use = macros::macro_use_crates(&lib_file.items, &lib.deps);
        drop_extern_crates(&mut lib_file.items, lib.deps.keys());
        libs.push((lib, lib_file, macro_use));
    }

    // `#[macro_export]` macros renamed apart and re-exported by their crates' modules; a
    // crate's `#[macro_use] extern crate` becomes a glob of the macros in each of its modules.
    let macro_used: BTreeSet<String> = main_macro_use
        .iter()
        .chain(libs.iter().flat_map(|(_, _, uses)| uses))
        .cloned()
        .collect();
    let mut exporting = BTreeSet::new();
    let mut std_crates: Vec<syn::ItemExternCrate> = Vec::new();
    for (lib, lib_file, _) in &mut libs {
        for hoisted in macros::take_std_crates(&mut lib_file.items) {
            let same =
                |e: &syn::ItemExternCrate| e.ident == hoisted.ident && e.rename == hoisted.rename;
            let declared = std_crates.iter().any(same)
                || file
                    .items
                    .iter()
                    .any(|i| matches!(i, Item::ExternCrate(e) if same(e)));
            if !declared {
                std_crates.push(hoisted);
            }
        }
        let exported = macros::export(
            &mut lib_file.items,
            &lib.module,
            macro_used.contains(&lib.module),
        );
        if !exported.is_empty() {
            exporting.insert(lib.module.clone());
        }
    }
    let with_macros = |uses: &[String]| -> Vec<String> {
        uses.iter()
            .filter(|m| exporting.contains(*m))
            .cloned()
            .collect()
    };
    macros::import_macros(&mut file.items, &with_macros(&main_macro_use));
    for (k, declaration) in std_crates.into_iter().enumerate() {
        file.items.insert(k, Item::ExternCrate(declaration));
    }

    for (lib, lib_file, macro_use) in libs {
        let mut items = lib_file.items;
        macros::import_macros(&mut items, &with_macros(&macro_use));
        let module = syn::Ident::new(&lib.module, proc_macro2::Span::call_site());
        // Crate-level attributes that also mean something on a module: lint levels only.
        let inner: Vec<syn::Attribute> = lib_file
            .attrs
            .into_iter()
            .filter(|a| {
                ["allow", "warn", "deny", "forbid"]
                    .iter()
                    .any(|l| a.path().is_ident(l))
            })
            .collect();
        // A library's public API is more than one binary uses: no dead-code noise from rustc.
        let item: Item = parse_quote! {
            #[allow(unused)]
            mod #module {
                #(#inner)*
                #(#items)*
            }
        };
        file.items.push(item);
    }
    Ok(file)
}

/// Prunes `file` item by item; when that does not compile (rustc's quick check) and keeping
/// more does, keeps more: the whole modules used, then whole crates, for as few libraries as
/// will do. A bundle that fails however much is kept is returned pruned, for `--check` to
/// report.
fn prune_soundly(plan: &Plan, file: &syn::File) -> Result<(syn::File, Option<Fallback>)> {
    let pruned = |levels: &BTreeMap<String, Level>| -> syn::File {
        let mut file = file.clone();
        reach::prune(&mut file.items, levels);
        file
    };
    let first_error = |file: &syn::File| check::first_error(&prettyplease::unparse(file));
    let itemwise = pruned(&BTreeMap::new());
    if plan.libs.is_empty() {
        return Ok((itemwise, None));
    }
    let Some(error) = first_error(&itemwise)? else {
        return Ok((itemwise, None));
    };
    let all = |level: Level| -> BTreeMap<String, Level> {
        plan.libs
            .iter()
            .map(|lib| (lib.module.clone(), level))
            .collect()
    };
    let mut level = Level::Items;
    while let Some(wider) = level.wider() {
        level = wider;
        let mut levels = all(level);
        if first_error(&pruned(&levels))?.is_some() {
            continue;
        }
        // Keeping that much of every library compiles: now as little of each as will do.
        for lib in &plan.libs {
            let mut narrower = Level::Items;
            while narrower < level {
                let mut trial = levels.clone();
                trial.insert(lib.module.clone(), narrower);
                if first_error(&pruned(&trial))?.is_none() {
                    levels = trial;
                    break;
                }
                narrower = narrower.wider().expect("below the level that compiled");
            }
        }
        let kept = levels
            .iter()
            .filter(|(_, &l)| l != Level::Items)
            .map(|(m, &l)| (m.clone(), l))
            .collect();
        return Ok((pruned(&levels), Some(Fallback { error, kept })));
    }
    Ok((itemwise, None))
}

fn drop_extern_crates<'a>(items: &mut Vec<Item>, names: impl Iterator<Item = &'a String>) {
    let names: Vec<&String> = names.collect();
    items.retain(|item| match item {
        Item::ExternCrate(e) => !names.iter().any(|n| e.ident == n.as_str()),
        _ => true,
    });
}

/// The comment at the top of every bundle: what it is and what went in. No dates, no absolute
/// paths: bundling the same sources twice gives the same bytes.
fn header(plan: &Plan, kept: &[String]) -> String {
    let root = crate_root_for_display(&plan.dir);
    let rel = |p: &Path| -> String {
        let p = dunce::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        match &root {
            Some(r) => p.strip_prefix(r).unwrap_or(&p).display().to_string(),
            None => p.display().to_string(),
        }
    };
    let crates: Vec<String> = plan
        .libs
        .iter()
        .filter(|l| kept.contains(&l.module))
        .map(|l| match &l.source {
            Source::Path => format!("{} ({})", l.module, rel(&l.dir)),
            Source::Registry => format!("{} ({} from crates.io)", l.module, l.package),
            Source::Git(url) => format!("{} ({} from {url})", l.module, l.package),
        })
        .collect();
    let mut out = format!(
        "// {}: one-file submission written by `cargo xtask bundle` from {}.\n",
        plan.package,
        rel(&plan.main)
    );
    if crates.is_empty() {
        out.push_str("// No crates bundled.\n");
    } else {
        out.push_str(&format!(
            "// Crates bundled as modules: {}.\n",
            crates.join(", ")
        ));
    }
    out.push_str("// Tests, docs, comments and items `main` cannot reach were left out.\n\n");
    out
}

fn crate_root_for_display(dir: &Path) -> Option<PathBuf> {
    let dir = dunce::canonicalize(dir).ok()?;
    let manifest = crate::build::workspace_manifest(&dir).ok()?;
    manifest.parent().map(Path::to_path_buf)
}

/// Writes `text` to `path`, creating folders.
fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Writes the bundle of `problem` to `output`, or by default to `<target dir>/bundle/<package>.rs`
/// (cargo's target directory for the problem's workspace, so `CARGO_TARGET_DIR` holds).
pub fn write_bundle(problem: &Problem, output: Option<&Path>) -> Result<(Bundle, PathBuf)> {
    let bundle = bundle(problem)?;
    let path = match output {
        Some(p) => p.to_path_buf(),
        None => bundle
            .plan
            .target_dir
            .join("bundle")
            .join(format!("{}.rs", bundle.plan.package)),
    };
    write(&path, &bundle.text)?;
    Ok((bundle, path))
}

/// The line that says where a bundle went: `boj-2580: wrote PATH (46764 bytes, 45.7 KiB)`.
pub fn wrote_line(problem: &Problem, path: &Path, bytes: usize) -> String {
    format!(
        "{}: wrote {} ({} bytes, {:.1} KiB)",
        problem.name,
        path.display(),
        bytes,
        bytes as f64 / 1024.0
    )
}
