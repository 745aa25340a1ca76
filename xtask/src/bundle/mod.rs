//! The bundler: a problem's solution and the crates it uses as one file BOJ compiles.
//!
//! The solution (the problem's `default-run` binary) and every library crate its code names
//! (see [`manifest`]) become one file: each library is inlined as `mod <name> { ... }` (see
//! [`expand`], [`cfg`](mod@cfg), [`edition`], and [`macros`] for its `#[macro_export]`
//! macros; `mod <name>_crate` where the solution's root binds the name, see [`shadow`]), the
//! files its code includes become literals (see [`includes`]), test code and docs are
//! stripped, items that `main` cannot reach are dropped (see
//! [`reach`]), and [`print`] writes the result (prettyplease, and what it cannot print as tokens). Sound before small: when rustc's quick check rejects the
//! bundle pruned item by item, more is kept (whole modules, then whole crates) until it
//! passes, and [`Bundle::fallback`] says so. [`check`] proves a written bundle is a
//! submission. Nothing here prints: the commands do.

pub mod cache;
pub mod cfg;
pub mod check;
pub mod edition;
pub mod expand;
pub mod includes;
pub mod judge_build;
pub mod judge_rust;
pub mod macro_origin;
pub mod macros;
pub mod manifest;
pub mod print;
pub mod proc_macros;
pub mod reach;
pub mod readings;
pub mod reads;
pub mod shadow;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use syn::ext::IdentExt;
use syn::{parse_quote, Item};

use self::expand::Rewrite;
use self::manifest::{Plan, Source};
pub use self::reach::Level;
use crate::workspace::problem::Problem;

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
    /// The bytes each library's module takes in the text, largest first: for a bundle over
    /// [`SIZE_LIMIT`] only (each module printed again alone), empty for one within it.
    pub sizes: Vec<(String, usize)>,
}

impl Bundle {
    /// When the bundle is over BOJ's 512 KB: what it weighs and its three largest crates.
    pub fn over_limit(&self) -> Option<String> {
        if self.text.len() <= SIZE_LIMIT {
            return None;
        }
        let largest: Vec<String> = self
            .sizes
            .iter()
            .take(3)
            .map(|(module, bytes)| format!("{module} ({bytes} bytes)"))
            .collect();
        let mut said = format!(
            "the bundle is {} bytes ({:.1} KiB), over BOJ's 512 KB source limit ({SIZE_LIMIT} \
             bytes), so BOJ would not take it",
            self.text.len(),
            self.text.len() as f64 / 1024.0
        );
        if !largest.is_empty() {
            said.push_str(&format!("; its largest crates: {}", largest.join(", ")));
        }
        Some(said)
    }
}

/// What the bundle kept beyond item-by-item pruning, because that did not compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fallback {
    /// rustc's first error on the bundle pruned item by item.
    pub error: String,
    /// The libraries (modules) kept more fully, and how much; the solution's own code as
    /// [`reach::SOLUTION`].
    pub kept: Vec<(String, Level)>,
}

impl std::fmt::Display for Fallback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept: Vec<String> = self
            .kept
            .iter()
            .map(|(module, level)| {
                let module = match module.as_str() {
                    reach::SOLUTION => "the solution",
                    library => library,
                };
                match level {
                    Level::Items => format!("{module} item by item"),
                    Level::Modules => format!("every item of the modules of {module} it uses"),
                    Level::Crate => format!("all of {module}"),
                }
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
    let (file, printed, fallback) = prune_soundly(&plan)?;
    let kept: Vec<String> = plan
        .libs
        .iter()
        .filter(|lib| has_module(&file.items, &lib.module))
        .map(|lib| lib.module.clone())
        .collect();
    let body = printed.unwrap_or_else(|| print::unparse(&file));
    let mut text = format!("{}{body}", header(&plan, &kept));
    // Over the limit as laid out, it may fit printed compactly: the same tokens.
    if text.len() > SIZE_LIMIT {
        if let Some(compact) = print::compact(&file) {
            text = format!("{}{compact}", header(&plan, &kept));
        }
    }
    let over = text.len() > SIZE_LIMIT;
    let mut sizes: Vec<(String, usize)> = file
        .items
        .iter()
        .filter(|_| over)
        .filter_map(|item| match item {
            Item::Mod(m) if kept.iter().any(|k| m.ident == k) => {
                let alone = syn::File {
                    shebang: None,
                    attrs: Vec::new(),
                    items: vec![item.clone()],
                };
                Some((m.ident.to_string(), print::unparse(&alone).len()))
            }
            _ => None,
        })
        .collect();
    sizes.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(Bundle {
        plan,
        text,
        kept,
        fallback,
        sizes,
    })
}

/// The bundle of `plan` pruned item by item, as text, without rustc's check or cargo: what the
/// bundler makes of the sources alone. Whatever they hold, it ends in a bundle or in an error
/// that names the crate, the file and the line, never in a panic (the property test and the
/// `bundle` fuzz target hold it to that).
pub fn render_sources(plan: &Plan) -> Result<String> {
    Ok(print::unparse(&pruned_itemwise(plan, None)?))
}

/// The bundle pruned item by item, reading only the libraries it may reach: first those
/// `main` names and those the last bundle of the same `main` read (kept in `store`), then each
/// one a library read so far leads into (see [`reach::prune_read`]). The same bundle as with
/// every library read (rand's libc and zerocopy are never read).
fn pruned_itemwise(plan: &Plan, store: Option<&cache::Store>) -> Result<syn::File> {
    let mut read: BTreeSet<String> = plan.deps.values().cloned().collect();
    // Only where to start: whatever it says, what is read is what the bundle needs.
    let hint = cache::name_of(&plan.main);
    let last: Option<BTreeSet<String>> =
        store.and_then(|store| store.get("read", &hint, &plan.main));
    read.extend(last.iter().flatten().cloned());
    loop {
        let mut file = assemble(plan, Some(&read))?;
        let own = own_modules(plan, &file.items);
        let needed = reach::prune_read(&mut file.items, &own)
            .map_err(|refusal| anyhow::anyhow!("{refusal}"))?;
        if needed.is_empty() {
            if let Some(store) = store.filter(|_| last.as_ref() != Some(&read)) {
                store.put("read", &hint, &plan.main, &read);
            }
            return Ok(file);
        }
        let before = read.len();
        read.extend(needed);
        if read.len() == before {
            // Cannot be (a library asked for is read next time), but never a loop: all of them.
            let mut file = assemble(plan, None)?;
            let own = own_modules(plan, &file.items);
            reach::prune(&mut file.items, &BTreeMap::new(), &own)
                .map_err(|refusal| anyhow::anyhow!("{refusal}"))?;
            return Ok(file);
        }
    }
}

/// The solution's own modules at the bundle's root (its `mod NAME;` files and the modules it
/// writes inline): every module there but the libraries'.
fn own_modules(plan: &Plan, items: &[Item]) -> BTreeSet<String> {
    let libraries: BTreeSet<String> = plan
        .libs
        .iter()
        .map(|lib| ident(&lib.module).unraw().to_string())
        .collect();
    items
        .iter()
        .filter_map(|item| match item {
            Item::Mod(m) => Some(m.ident.unraw().to_string()),
            _ => None,
        })
        .filter(|name| !libraries.contains(name))
        .collect()
}

fn has_module(items: &[Item], name: &str) -> bool {
    items
        .iter()
        .any(|item| matches!(item, Item::Mod(m) if m.ident == name))
}

/// The solution with every library inlined as a module, nothing pruned yet; with `only`, the
/// libraries not in it are left unread ([`reach::unloaded`]).
fn assemble(plan: &Plan, only: Option<&BTreeSet<String>>) -> Result<syn::File> {
    let std_externs = || -> BTreeSet<String> { ["std", "core", "alloc"].map(String::from).into() };
    let mut file = plan.readings.read(&plan.main, &plan.cfg)?;
    let mut deps = plan.deps.clone();
    deps.extend(extern_aliases(&file.items, &plan.deps));
    let mut externs = std_externs();
    externs.extend(deps.keys().cloned());
    edition::migrate(&mut file.items, &plan.edition, &externs);
    Rewrite {
        module: None,
        externs: deps.clone(),
    }
    .apply(&mut file.items);
    let main_macro_use = macros::macro_use_crates(&file.items, &deps);
    extern_crates_as_uses(&mut file.items, &deps, true);
    drop_extern_crates(&mut file.items, deps.keys());

    let mut libs = Vec::new();
    let mut stand_ins = Vec::new();
    let mut unread = BTreeSet::new();
    for lib in &plan.libs {
        let unread_lib = only.is_some_and(|only| !only.contains(&lib.module))
            && lib.refusal.is_none()
            && lib.exported_macros.is_some();
        if unread_lib {
            unread.insert(lib.module.clone());
            continue;
        }
        if let Some(reason) = &lib.refusal {
            // A proc-macro crate whose macro a library uses unexpanded says why.
            let why = plan.proc_macros.not_expanded(&lib.package);
            let reason = why.as_deref().unwrap_or(reason);
            let proc_macro = lib.proc_macro.then_some(lib.package.as_str());
            stand_ins.push(reach::stand_in(&ident(&lib.module), reason, proc_macro));
            continue;
        }
        let mut lib_file = plan
            .readings
            .read(&lib.root, &lib.cfg)
            .with_context(|| manifest::cannot_read(&lib.package, &lib.edition))?;
        let mut deps = lib.deps.clone();
        deps.extend(extern_aliases(&lib_file.items, &lib.deps));
        let mut externs = std_externs();
        externs.extend(deps.keys().cloned());
        edition::migrate(&mut lib_file.items, &lib.edition, &externs);
        Rewrite {
            module: Some(lib.module.clone()),
            externs: deps.clone(),
        }
        .apply(&mut lib_file.items);
        let macro_use = macros::macro_use_crates(&lib_file.items, &deps);
        extern_crates_as_uses(&mut lib_file.items, &deps, true);
        unambiguous_prelude_names(&mut lib_file.items);
        drop_extern_crates(&mut lib_file.items, deps.keys());
        libs.push((lib, lib_file, macro_use));
    }

    // `#[macro_export]` macros renamed apart and re-exported by their crates' modules; a
    // crate's `#[macro_use] extern crate` becomes a glob of the macros in each of its modules.
    let macro_used: BTreeSet<String> = main_macro_use
        .iter()
        .chain(libs.iter().flat_map(|(_, _, uses)| uses))
        .cloned()
        .collect();
    // What a library not read exports is not known: a `#[macro_use]` of it imports its macros
    // module all the same (a lookup there has it read).
    let mut exporting: BTreeSet<String> = unread.intersection(&macro_used).cloned().collect();
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

    let mut libs = libs.into_iter().peekable();
    for lib in &plan.libs {
        if unread.contains(&lib.module) {
            let at_root = lib.exported_macros.iter().flatten();
            let at_root: Vec<String> = at_root
                .map(|name| macros::unique_name(&lib.module, name))
                .collect();
            file.items
                .push(reach::unloaded(&ident(&lib.module), &at_root));
            continue;
        }
        let Some((_, lib_file, macro_use)) = libs.next_if(|(read, _, _)| read.module == lib.module)
        else {
            continue;
        };
        let mut items = lib_file.items;
        macros::import_macros(&mut items, &with_macros(&macro_use));
        // Crate-level attributes that also mean something on a module: lint levels only.
        let inner: Vec<syn::Attribute> = lib_file
            .attrs
            .into_iter()
            .filter(|a| {
                ["allow", "warn", "deny", "forbid"]
                    .iter()
                    .any(|l| a.path().is_ident(l))
            })
            .map(|mut a| {
                a.style = syn::AttrStyle::Inner(Default::default());
                a
            })
            .collect();
        // A library's public API is more than one binary uses: no dead-code noise from rustc.
        // cargo caps the lints of a crate from crates.io or git (`--cap-lints allow`), so a
        // deny-by-default lint there never stopped a build; in the bundle the one such lint
        // that old crates trip (ascii's `fn from(a: AsciiChar)` beside a variant `a`) is
        // allowed for them, as cargo did.
        let mut attrs: Vec<syn::Attribute> = match lib.source {
            Source::Path => vec![parse_quote!(#[allow(unused)])],
            Source::Registry | Source::Git(_) => {
                vec![parse_quote!(#[allow(unused, bindings_with_variant_name)])]
            }
        };
        attrs.extend(inner);
        file.items.push(Item::Mod(syn::ItemMod {
            attrs,
            vis: syn::Visibility::Inherited,
            unsafety: None,
            mod_token: Default::default(),
            ident: ident(&lib.module),
            content: Some((Default::default(), items)),
            semi: None,
        }));
    }
    file.items.extend(stand_ins);
    Ok(file)
}

/// Prunes `file` item by item; when that does not compile (rustc's quick check) and keeping
/// more does, keeps more: the whole modules used, then whole crates, of as few libraries as
/// will do, and of the solution's own code if that is what it takes. A bundle that fails
/// however much is kept is returned pruned, for `--check` to report. The file comes with its
/// printed text where the check printed it (the item-wise bundle, which is most bundles), so
/// that it is not printed twice.
fn prune_soundly(plan: &Plan) -> Result<(syn::File, Option<String>, Option<Fallback>)> {
    // A wider level that reaches what cannot be bundled does not compile either.
    let store = cache::Store::in_target(&plan.target_dir);
    let first_error = |file: &Result<syn::File, reach::Refusal>| match file {
        Ok(file) => check::first_error(&print::unparse(file), Some(&store)),
        Err(refusal) => Ok(Some(refusal.to_string())),
    };
    let itemwise = pruned_itemwise(plan, Some(&store))?;
    let printed = print::unparse(&itemwise);
    let Some(error) = check::first_error(&printed, Some(&store))? else {
        return Ok((itemwise, Some(printed), None));
    };
    // Keeping more: of every library, read.
    let file = assemble(plan, None)?;
    let own = own_modules(plan, &file.items);
    let pruned = |levels: &BTreeMap<String, Level>| -> Result<syn::File, reach::Refusal> {
        let mut file = file.clone();
        reach::prune(&mut file.items, levels, &own)?;
        Ok(file)
    };
    // Each library, then the solution's own code (its reachability has gaps too: a method
    // named only as a macro's argument).
    let units: Vec<&str> = plan
        .libs
        .iter()
        .map(|lib| lib.module.as_str())
        .chain([reach::SOLUTION])
        .collect();
    let all = |level: Level| -> BTreeMap<String, Level> {
        units.iter().map(|unit| (unit.to_string(), level)).collect()
    };
    let mut level = Level::Items;
    while let Some(wider) = level.wider() {
        level = wider;
        let mut levels = all(level);
        if first_error(&pruned(&levels))?.is_some() {
            continue;
        }
        // Keeping that much of everything compiles: now as little of each as will do.
        for unit in &units {
            let mut narrower = Level::Items;
            while narrower < level {
                let mut trial = levels.clone();
                trial.insert(unit.to_string(), narrower);
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
        let Ok(file) = pruned(&levels) else {
            continue;
        };
        return Ok((file, None, Some(Fallback { error, kept })));
    }
    Ok((itemwise, Some(printed), None))
}

/// `name` as an identifier, raw (`r#type`) when it is a keyword, and never a panic: a name
/// that is no identifier at all (which cargo does not let a crate have) becomes one.
pub fn ident(name: &str) -> syn::Ident {
    let span = proc_macro2::Span::call_site();
    let name = name.strip_prefix("r#").unwrap_or(name);
    if matches!(name, "crate" | "self" | "super" | "Self")
        || syn::parse_str::<syn::Ident>(name).is_ok()
    {
        return syn::Ident::new(name, span);
    }
    let mut cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !cleaned.starts_with(|c: char| c.is_alphabetic() || c == '_') {
        cleaned.insert(0, '_');
    }
    if cleaned == "_" {
        cleaned.push('_');
    }
    if syn::parse_str::<syn::Ident>(&cleaned).is_ok() {
        syn::Ident::new(&cleaned, span)
    } else {
        // A keyword (`type`, `ref`): its raw form.
        syn::Ident::new_raw(&cleaned, span)
    }
}

/// `extern crate dep as alias;` at a crate's root, for a bundled `dep`: the alias names that
/// crate's module everywhere in the crate (the extern prelude), as `dep` does.
fn extern_aliases(items: &[Item], deps: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    items
        .iter()
        .filter_map(|item| match item {
            Item::ExternCrate(e) => {
                let module = deps.get(&reach_name(&e.ident))?;
                let (_, alias) = e.rename.as_ref()?;
                Some((reach_name(alias), module.clone()))
            }
            _ => None,
        })
        .collect()
}

/// Every `extern crate dep;` of a bundled `dep` in a module below the crate's root, and every
/// `extern crate dep as alias;` anywhere, becomes `use crate::MODULE as NAME;` (with its
/// visibility): the name it bound is still bound there. The crate root's plain `extern crate
/// dep;` adds nothing the bundle needs (its `#[macro_use]` is read before) and goes.
fn extern_crates_as_uses(items: &mut [Item], deps: &BTreeMap<String, String>, root: bool) {
    for item in items.iter_mut() {
        match item {
            Item::ExternCrate(e) if !(root && e.rename.is_none()) => {
                let Some(module) = deps.get(&reach_name(&e.ident)) else {
                    continue;
                };
                let name = e
                    .rename
                    .as_ref()
                    .map_or(&e.ident, |(_, alias)| alias)
                    .clone();
                if name == "_" {
                    continue;
                }
                let module = ident(module);
                let attrs = macros::without_macro_use(&e.attrs);
                let vis = e.vis.clone();
                *item = parse_quote!(#(#attrs)* #vis use crate::#module as #name;);
            }
            Item::Mod(m) => {
                if let Some((_, inner)) = &mut m.content {
                    extern_crates_as_uses(inner, deps, false);
                }
            }
            _ => {}
        }
    }
}

/// A `#![no_std]` crate's `use core as std;` at its root: in the crate, `std` was that import
/// alone; in the bundle, whose prelude has `std`, rustc 1.63 finds `use std::fmt;` there
/// ambiguous. The root's `use` paths that start with such a name say `self::` (fixedbitset's,
/// built without its `std` feature as petgraph asks).
fn unambiguous_prelude_names(items: &mut [Item]) {
    let mut renamed = BTreeSet::new();
    for item in items.iter() {
        if let Item::Use(u) = item {
            if let syn::UseTree::Rename(r) = &u.tree {
                let name = r.rename.to_string();
                if matches!(name.as_str(), "std" | "core" | "alloc") {
                    renamed.insert(name);
                }
            }
        }
    }
    for item in items.iter_mut() {
        if let Item::Use(u) = item {
            if u.leading_colon.is_some() {
                continue;
            }
            if let syn::UseTree::Path(p) = &u.tree {
                if renamed.contains(&p.ident.to_string()) {
                    let inner = u.tree.clone();
                    u.tree = syn::UseTree::Path(syn::UsePath {
                        ident: ident("self"),
                        colon2_token: Default::default(),
                        tree: Box::new(inner),
                    });
                }
            }
        }
    }
}

/// An identifier as a name (`r#ref` is `ref`).
fn reach_name(ident: &syn::Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map_or(name.clone(), str::to_owned)
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
    let root = crate_root_for_display(&plan.workspace_root);
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
    for lib in plan.libs.iter().filter(|l| kept.contains(&l.module)) {
        if let Some(name) = &lib.apart_from {
            out.push_str(&format!(
                "// `{}` is the crate `{name}`, renamed: the solution's root has another `{name}`.\n",
                lib.module
            ));
        }
    }
    out.push_str("// Tests, docs, comments and items `main` cannot reach were left out.\n\n");
    out
}

fn crate_root_for_display(root: &Path) -> Option<PathBuf> {
    dunce::canonicalize(root).ok()
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
    let bundle = match bundle(problem) {
        Ok(bundle) => bundle,
        Err(err) => {
            if output.is_none() {
                remove_earlier_bundle(problem);
            }
            return Err(err);
        }
    };
    let path = match output {
        Some(p) => p.to_path_buf(),
        None => default_path(&bundle.plan.target_dir, &bundle.plan.package),
    };
    write(&path, &bundle.text)?;
    Ok((bundle, path))
}

/// Where a bundle goes unless told: `<target dir>/bundle/<package>.rs`.
fn default_path(target_dir: &Path, package: &str) -> PathBuf {
    target_dir.join("bundle").join(format!("{package}.rs"))
}

/// Removes the bundle an earlier run wrote to the default place, when this one failed: it is no
/// bundle of the solution as it is now, and it is the file a user pastes into BOJ. Said on
/// stderr; where cargo cannot name the target folder, nothing is removed.
fn remove_earlier_bundle(problem: &Problem) {
    let Ok(target) = crate::workspace::build::target_directory(&problem.manifest) else {
        return;
    };
    let earlier = default_path(&target, &problem.name);
    if fs::remove_file(&earlier).is_ok() {
        eprintln!(
            "note: removed {}, an earlier bundle, which is not of the solution as it is now",
            earlier.display()
        );
    }
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
