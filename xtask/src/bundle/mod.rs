//! The bundler: a problem's solution and the crates it uses as one file BOJ compiles.
//!
//! The solution (the problem's `default-run` binary) and every library crate its code names
//! (see [`manifest`]) become one file: each library is inlined as `mod <name> { ... }` (see
//! [`expand`], [`cfg`], [`edition`]), test code and docs are stripped, items that `main`
//! cannot reach are dropped (see [`reach`]), and prettyplease prints the result. [`check`]
//! proves a written bundle is a submission. Nothing here prints: the commands do.

pub mod cfg;
pub mod check;
pub mod edition;
pub mod expand;
pub mod manifest;
pub mod reach;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use syn::{parse_quote, Item};

use self::expand::Rewrite;
use self::manifest::{Plan, Source};
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
}

/// Bundles `problem`'s solution binary.
pub fn bundle(problem: &Problem) -> Result<Bundle> {
    let plan = manifest::plan(&problem.dir, &problem.solver_bin)?;
    let text = render(&plan)?;
    Ok(Bundle { plan, text })
}

fn render(plan: &Plan) -> Result<String> {
    let mut file = expand::load_crate(&plan.main, &plan.cfg)?;
    let std_externs = || -> BTreeSet<String> { ["std", "core", "alloc"].map(String::from).into() };
    let mut externs = std_externs();
    externs.extend(plan.deps.keys().cloned());
    edition::migrate(&mut file.items, &plan.edition, &externs);
    Rewrite {
        module: None,
        externs: plan.deps.clone(),
    }
    .apply(&mut file.items);
    drop_extern_crates(&mut file.items, plan.deps.keys());

    for lib in &plan.libs {
        let cfg = cfg::Cfg {
            features: lib.features.clone(),
        };
        let mut lib_file = expand::load_crate(&lib.root, &cfg)
            .with_context(|| manifest::cannot_read(&lib.package, &lib.edition))?;
        let mut externs = std_externs();
        externs.extend(lib.deps.keys().cloned());
        edition::migrate(&mut lib_file.items, &lib.edition, &externs);
        Rewrite {
            module: Some(lib.module.clone()),
            externs: lib.deps.clone(),
        }
        .apply(&mut lib_file.items);
        drop_extern_crates(&mut lib_file.items, lib.deps.keys());
        // `#[macro_export]` puts a macro at the crate root: in the bundle that is the bundle's
        // root, so re-export it where `lib::name!` and the rewritten `crate::lib::name!` look.
        for name in exported_macros(&lib_file.items) {
            let name = syn::Ident::new(&name, proc_macro2::Span::call_site());
            lib_file.items.push(parse_quote! { pub use crate::#name; });
        }
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
        let items = lib_file.items;
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

    reach::prune(&mut file.items);
    let body = prettyplease::unparse(&file);
    Ok(format!("{}{}", header(plan), body))
}

/// Names of the `#[macro_export]` macros defined in `items`, at any module depth.
fn exported_macros(items: &[Item]) -> Vec<String> {
    let mut names = Vec::new();
    for item in items {
        match item {
            Item::Macro(m) if m.attrs.iter().any(|a| a.path().is_ident("macro_export")) => {
                if let Some(name) = &m.ident {
                    names.push(name.to_string());
                }
            }
            Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    names.extend(exported_macros(inner));
                }
            }
            _ => {}
        }
    }
    names
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
fn header(plan: &Plan) -> String {
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
