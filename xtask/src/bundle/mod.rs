//! `cargo xtask bundle PROBLEM [-o FILE] [--check]`: one-file BOJ submissions.
//!
//! The problem's `main.rs` and every path crate it depends on become one file: each library is
//! inlined as `mod <name> { ... }` (see [`expand`]), test code and docs are stripped, items that
//! `main` cannot reach are dropped (see [`reach`]), and prettyplease prints the result. With
//! `--check`, [`check`] compiles the file alone with `rustc --edition 2021 -O` and judges the
//! samples on the executable with the same judge as `cargo xtask test`.

pub mod cfg;
pub mod check;
pub mod edition;
pub mod expand;
pub mod manifest;
pub mod reach;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::{Context, Result};
use syn::{parse_quote, Item};

use self::expand::Rewrite;
use self::manifest::{Plan, Source};

/// BOJ's limit on a submission's source size.
pub const SIZE_LIMIT: usize = 512 * 1024;

/// Arguments of `cargo xtask bundle`.
#[derive(clap::Args, Debug)]
pub struct BundleArgs {
    /// The problem: `boj-2239`, `2239` or a path to a problem folder.
    pub problem: String,
    /// Where to write the bundle [default: <target dir>/bundle/<package>.rs].
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Compile the bundle alone with `rustc --edition 2021 -O` and judge the samples with it.
    #[arg(long)]
    pub check: bool,
    /// With --check: also compile with this rustc (an older one, like Debian's 1.63 at
    /// /usr/bin/rustc); repeatable.
    #[arg(long, value_name = "PATH", requires = "check")]
    pub rustc: Vec<PathBuf>,
}

/// A rendered bundle.
#[derive(Debug, Clone)]
pub struct Bundle {
    /// What went in.
    pub plan: Plan,
    /// The file's text: header comment and prettyplease output.
    pub text: String,
}

/// Bundles the problem (a package with a binary) in `dir`.
pub fn bundle(dir: &Path) -> Result<Bundle> {
    let plan = manifest::plan(dir)?;
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
        let p = p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
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
    let dir = dir.canonicalize().ok()?;
    let manifest = xtask::build::workspace_manifest(&dir).ok()?;
    manifest.parent().map(Path::to_path_buf)
}

/// cargo's target directory for the workspace of `dir` (`CARGO_TARGET_DIR`, config, or
/// `target/`).
fn target_dir(dir: &Path) -> Result<PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(dir)
        .output()
        .context("cannot run cargo metadata")?;
    if !out.status.success() {
        anyhow::bail!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr).trim_end()
        );
    }
    let meta: serde_json::Value =
        serde_json::from_slice(&out.stdout).context("cannot parse cargo metadata's output")?;
    meta.get("target_directory")
        .and_then(|t| t.as_str())
        .map(PathBuf::from)
        .context("cargo metadata gave no target_directory")
}

/// Writes `text` to `path`, creating folders.
fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Where the bundle of `package` (in `dir`) goes by default.
pub fn default_output(dir: &Path, package: &str) -> Result<PathBuf> {
    Ok(target_dir(dir)?
        .join("bundle")
        .join(format!("{}.rs", package)))
}

/// Writes the bundle of `problem` to `output` (or the default place) and prints where.
pub fn write_bundle(
    problem: &xtask::problem::Problem,
    output: Option<&Path>,
) -> Result<(Bundle, PathBuf)> {
    let bundle = bundle(&problem.dir)?;
    let path = match output {
        Some(p) => p.to_path_buf(),
        None => default_output(&problem.dir, &bundle.plan.package)?,
    };
    write(&path, &bundle.text)?;
    println!(
        "{}: wrote {} ({} bytes, {:.1} KiB)",
        problem.name,
        path.display(),
        bundle.text.len(),
        bundle.text.len() as f64 / 1024.0
    );
    Ok((bundle, path))
}

/// `cargo xtask bundle`: exit 0 when written (and, with `--check`, good); 1 when the check
/// finds the bundle bad (size, newer syntax, a sample not AC); 2 when bundling fails or the
/// bundle does not compile (a build failure, as for `cargo xtask test`).
pub fn run(args: &BundleArgs) -> ExitCode {
    match try_run(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(err) => {
            eprintln!("error: {:#}", err);
            ExitCode::from(2)
        }
    }
}

fn try_run(args: &BundleArgs) -> Result<bool> {
    let problem = xtask::problem::find(None, &args.problem)?;
    let (bundle, path) = write_bundle(&problem, args.output.as_deref())?;
    if !args.check {
        return Ok(true);
    }
    check::check(&problem, &bundle.text, &path, &args.rustc)
}
