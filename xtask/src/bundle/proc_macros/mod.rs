//! Proc macros expanded into the bundle: each use of an attribute macro, a derive or a
//! function-like macro from a proc-macro crate is replaced by its expansion, written as plain
//! Rust, and the `use` lines that named the proc-macro crate go, so no proc-macro crate is left
//! for BOJ's rustc, which has no crates.
//!
//! The pass runs on each crate as soon as it is read ([`ProcMacros::expand`], before the
//! edition rewrite, the path rewrite and pruning), so the expansion is the crate's own code:
//! its paths to the macro's runtime crate (`::proconio::source::Readable`, num-derive's
//! `extern crate num_traits as _num_traits;`) are rewritten to the bundle's modules like any
//! other, and the crates it names are bundled. A crate with no proc-macro crate among its
//! dependencies (or its dependencies' re-exports) is left untouched.
//!
//! Expanding: the macros run in the toolchain's own proc-macro server ([`server`]), which
//! loads the libraries the judge build compiled; their output comes back as token trees
//! ([`flat`]) whose hygiene decides how they are written ([`hygiene`]). Which macro a name
//! means is read from the crate's source: a path through a dependency (`num_derive::
//! FromPrimitive`, `proconio::fastout`, re-exported by proconio from proconio-derive), or a
//! name imported (`use`, a glob, `#[macro_use] extern crate`) from one; the server lists what
//! each library exports, and a derive's helper attributes are read from the proc-macro
//! crate's root (`#[proc_macro_derive(Name, attributes(helper))]`), since the protocol does not
//! carry them.
//!
//! Refused by name, with the reason: a macro that panics or expands to `compile_error!`, an
//! expansion that does not parse, definition-site hygiene, a use inside another macro's tokens
//! (which the bundler does not parse), a missing or mismatched server. In the solution's own
//! crate a refusal stops the bundle. In a library the use is left as it was and the reason is
//! kept: the library's proc-macro crate then stands in as before and, if the solution reaches
//! it, the refusal names this reason ([`ProcMacros::not_expanded`]).

mod flat;
mod hygiene;
mod server;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use cargo_metadata::TargetKind;
use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::visit_mut::{self, VisitMut};
use syn::{Attribute, Item, Meta, Token, UseTree};

use self::flat::Tree;
use self::hygiene::{Marks, Parsed};
pub use self::server::Kind;
use self::server::{Expansion, Globals, Server, Toolchain};
use super::cfg::Cfg;
use super::judge_build::JudgeBuild;

/// How deep expansions may nest (a macro whose output uses a macro, ...), as rustc's
/// `recursion_limit` bounds it.
const DEPTH_LIMIT: usize = 128;

/// The proc macros each crate of one judge build can call, and a server to run them, started
/// on first use. Cloning shares both. `ProcMacros::default()` knows none and changes nothing.
#[derive(Clone, Default)]
pub struct ProcMacros(Option<Arc<Shared>>);

impl std::fmt::Debug for ProcMacros {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            None => write!(f, "ProcMacros(none)"),
            Some(shared) => f
                .debug_map()
                .entries(
                    shared
                        .crates
                        .iter()
                        .map(|(root, c)| (root, c.providers.len())),
                )
                .finish(),
        }
    }
}

struct Shared {
    /// Where cargo ran the judge build: the `rustc` found from there built the libraries.
    dir: PathBuf,
    /// By crate root file, for each crate that can call a proc macro.
    crates: BTreeMap<PathBuf, CrateScope>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// The compiler found where the judge build ran, and its server.
    server: Option<Result<(Toolchain, Server), String>>,
    /// What each library exports, by its path.
    exports: HashMap<PathBuf, Result<Vec<(String, Kind)>, String>>,
    /// Expansions already made (a crate is read twice: once to plan, once to assemble).
    expansions: HashMap<String, Result<Output, String>>,
    /// Why a proc-macro crate's macro was left unexpanded in a library, by its package.
    not_expanded: BTreeMap<String, String>,
}

/// A macro's output: its token trees and the span table their span ids index.
type Output = (Vec<Tree>, Vec<u32>);

/// A crate that can call proc macros.
struct CrateScope {
    /// `crate NAME VERSION` or `the solution`, for messages.
    name: String,
    /// The solution's own crate: a refusal there stops the bundle.
    main: bool,
    /// What cargo sets for a crate's macros (`CARGO_MANIFEST_DIR`, ...), and its folder.
    env: Vec<(String, String)>,
    dir: PathBuf,
    providers: Vec<Provider>,
}

/// A name through which a crate reaches a proc-macro crate's macros.
#[derive(Clone)]
struct Provider {
    /// The dependency's name in the crate's code: the proc-macro crate's own, or a library's
    /// that re-exports it.
    name: String,
    /// Whether `name` is a library re-exporting the proc-macro crate (proconio).
    via: bool,
    /// For a library: the names its root defines or imports other than from proc-macro
    /// crates (serde's trait `Serialize` beside the derive it re-exports): an import of one of
    /// these stays when the macro of that name is expanded.
    items: Arc<BTreeSet<String>>,
    krate: Arc<MacroCrate>,
}

/// One proc-macro crate of the build.
struct MacroCrate {
    /// `num-derive 0.4.2`.
    package: String,
    /// The library the judge build compiled, if it did.
    dylib: Option<PathBuf>,
    /// Each derive's helper attributes, read from the crate's root.
    helpers: Result<BTreeMap<String, Vec<String>>, String>,
}

/// Why one use could not be expanded.
struct Failure {
    krate: Option<Arc<MacroCrate>>,
    text: String,
}

impl ProcMacros {
    /// What each crate of `build` can call: the proc-macro crates among its dependencies, and
    /// those its library dependencies depend on (which they may re-export). `main` is the
    /// solution's root file.
    pub fn of_build(build: &JudgeBuild, main: &Path) -> ProcMacros {
        let packages = build.packages();
        let is_proc = |id: &str| {
            packages.get(id).is_some_and(|p| {
                p.targets
                    .iter()
                    .any(|t| t.kind.contains(&TargetKind::ProcMacro))
            })
        };
        let mut macro_crates: BTreeMap<String, Arc<MacroCrate>> = BTreeMap::new();
        let mut macro_crate = |id: &str| -> Arc<MacroCrate> {
            Arc::clone(macro_crates.entry(id.to_owned()).or_insert_with(|| {
                let package = packages[id];
                let root = package
                    .targets
                    .iter()
                    .find(|t| t.kind.contains(&TargetKind::ProcMacro))
                    .map(|t| t.src_path.clone().into_std_path_buf());
                Arc::new(MacroCrate {
                    package: format!("{} {}", package.name, package.version),
                    dylib: build.proc_macro_libraries.get(id).cloned(),
                    helpers: root.map_or_else(|| Ok(BTreeMap::new()), |r| derive_helpers(&r)),
                })
            }))
        };
        let mut crates = BTreeMap::new();
        let mut ids: Vec<&String> = build.features.keys().collect();
        ids.push(&build.package);
        for id in ids {
            let Some(&package) = packages.get(id.as_str()) else {
                continue;
            };
            if is_proc(id) {
                continue;
            }
            let main_crate = *id == build.package;
            let target = if main_crate {
                None
            } else {
                package.targets.iter().find(|t| {
                    t.kind
                        .iter()
                        .any(|k| matches!(k, TargetKind::Lib | TargetKind::RLib))
                })
            };
            let root = match (main_crate, target) {
                (true, _) => main.to_path_buf(),
                (false, Some(t)) => t.src_path.clone().into_std_path_buf(),
                (false, None) => continue,
            };
            let mut providers = Vec::new();
            for (name, dep) in build.dependencies(id) {
                if is_proc(&dep) {
                    providers.push(Provider {
                        name,
                        via: false,
                        items: Arc::default(),
                        krate: macro_crate(&dep),
                    });
                    continue;
                }
                let inner: Vec<(String, String)> = build
                    .dependencies(&dep)
                    .into_iter()
                    .filter(|(_, inner)| is_proc(inner))
                    .collect();
                if inner.is_empty() {
                    continue;
                }
                let lib_root = packages.get(dep.as_str()).and_then(|p| {
                    p.targets.iter().find(|t| {
                        t.kind
                            .iter()
                            .any(|k| matches!(k, TargetKind::Lib | TargetKind::RLib))
                    })
                });
                let proc_names: BTreeSet<String> = inner.iter().map(|(n, _)| n.clone()).collect();
                let items = Arc::new(lib_root.map_or_else(BTreeSet::new, |t| {
                    root_names(t.src_path.as_std_path(), &proc_names)
                }));
                for (_, inner) in inner {
                    providers.push(Provider {
                        name: name.clone(),
                        via: true,
                        items: Arc::clone(&items),
                        krate: macro_crate(&inner),
                    });
                }
            }
            if providers.is_empty() {
                continue;
            }
            let dir = package
                .manifest_path
                .parent()
                .map_or_else(PathBuf::new, |d| d.as_std_path().to_path_buf());
            let crate_name = target.map_or_else(
                || package.name.replace('-', "_"),
                |t| t.name.replace('-', "_"),
            );
            let env = vec![
                ("CARGO_MANIFEST_DIR".to_owned(), dir.display().to_string()),
                ("CARGO_PKG_NAME".to_owned(), package.name.to_string()),
                ("CARGO_PKG_VERSION".to_owned(), package.version.to_string()),
                ("CARGO_CRATE_NAME".to_owned(), crate_name),
            ];
            crates.insert(
                root,
                CrateScope {
                    name: if main_crate {
                        "the solution".to_owned()
                    } else {
                        format!("crate {} {}", package.name, package.version)
                    },
                    main: main_crate,
                    env,
                    dir,
                    providers,
                },
            );
        }
        if crates.is_empty() {
            return ProcMacros(None);
        }
        let dir = build.workspace_root();
        let dir = packages
            .get(build.package.as_str())
            .and_then(|p| p.manifest_path.parent())
            .map_or(dir, |d| d.as_std_path().to_path_buf());
        ProcMacros(Some(Arc::new(Shared {
            dir,
            crates,
            state: Mutex::new(State::default()),
        })))
    }

    /// Expands the proc-macro uses of the crate whose root file is `root`, read into `file`
    /// with the settings `cfg`. An error only for the solution's own crate (see the module's
    /// documentation).
    pub fn expand(&self, file: &mut syn::File, root: &Path, cfg: &Cfg) -> anyhow::Result<()> {
        let Some(shared) = &self.0 else {
            return Ok(());
        };
        let Some(scope) = shared.crates.get(root) else {
            return Ok(());
        };
        let mut pass = Pass {
            shared,
            krate: scope,
            cfg,
            scopes: Vec::new(),
            failures: Vec::new(),
            taken: None,
            file_idents: quote::ToTokens::to_token_stream(&*file),
            depth: 0,
            context: Vec::new(),
        };
        pass.scopes.push(Scope::of_items(&file.items, true));
        pass.host_items(&mut file.items);
        if scope.main {
            if let Some(failure) = pass.failures.into_iter().next() {
                anyhow::bail!("{}", failure.text);
            }
            if let Some(left) = still_named(file, scope) {
                anyhow::bail!(
                    "the solution still names the proc-macro crate {} (`{}`) after its macros \
                     were expanded: a path to it that is not a macro's cannot go in a bundle",
                    left.krate.package,
                    left.name
                );
            }
            forget_imports(file, scope, &BTreeSet::new(), shared.as_ref());
            return Ok(());
        }
        let failed: BTreeSet<String> = pass
            .failures
            .iter()
            .filter_map(|f| f.krate.as_ref().map(|k| k.package.clone()))
            .collect();
        {
            let mut state = shared.lock();
            for failure in &pass.failures {
                if let Some(krate) = &failure.krate {
                    state
                        .not_expanded
                        .entry(krate.package.clone())
                        .or_insert_with(|| failure.text.clone());
                }
            }
        }
        forget_imports(file, scope, &failed, shared.as_ref());
        Ok(())
    }

    /// Why a macro of the proc-macro crate `package` (`num-derive 0.4.2`) was left unexpanded
    /// in a library, if one was: the reason its stand-in gives when the solution reaches it.
    pub fn not_expanded(&self, package: &str) -> Option<String> {
        let shared = self.0.as_ref()?;
        shared.lock().not_expanded.get(package).cloned()
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// What `krate`'s library exports (the server started if it is not yet).
    fn exports(&self, krate: &MacroCrate) -> Result<Vec<(String, Kind)>, String> {
        let dylib = krate.dylib.as_ref().ok_or_else(|| {
            format!(
                "cargo's judge build made no library of the proc-macro crate {}",
                krate.package
            )
        })?;
        let mut state = self.lock();
        if let Some(known) = state.exports.get(dylib) {
            return known.clone();
        }
        let listed = self
            .server(&mut state)
            .and_then(|(toolchain, server)| {
                built_by(dylib, toolchain)?;
                server.list_macros(dylib)
            })
            .map_err(|e| format!("the proc-macro server cannot load {}: {e}", krate.package));
        state.exports.insert(dylib.clone(), listed.clone());
        listed
    }

    fn server<'a>(&self, state: &'a mut State) -> Result<(&'a Toolchain, &'a mut Server), String> {
        if state.server.is_none() {
            let started = Toolchain::of(&self.dir)
                .and_then(|toolchain| Server::start(&toolchain).map(|server| (toolchain, server)));
            state.server = Some(started);
        }
        match state.server.as_mut() {
            Some(Ok((toolchain, server))) => Ok((toolchain, server)),
            Some(Err(e)) => Err(e.clone()),
            None => Err("no proc-macro server".to_owned()),
        }
    }

    /// Runs `name` of `krate` on `body` (and an attribute's `args`): the output trees and the
    /// span table their span ids index.
    fn run(
        &self,
        krate: &MacroCrate,
        name: &str,
        body: &TokenStream,
        args: Option<&TokenStream>,
        scope: &CrateScope,
    ) -> Result<Output, String> {
        let dylib = krate.dylib.clone().unwrap_or_default();
        let key = format!(
            "{}\0{name}\0{}\0{}\0{}",
            dylib.display(),
            scope.dir.display(),
            body,
            args.map(ToString::to_string).unwrap_or_else(|| "\0".into())
        );
        let mut state = self.lock();
        if let Some(done) = state.expansions.get(&key) {
            return done.clone();
        }
        let result = self.server(&mut state).and_then(|(_, server)| {
            let version = server.version;
            let call = hygiene::CALL_SITE as usize;
            let (tree, spans) = server.expand(Expansion {
                lib: &dylib,
                env: &scope.env,
                current_dir: Some(scope.dir.display().to_string()),
                macro_body: flat::encode(body, version, call as u32),
                macro_name: name,
                attributes: args.map(|a| flat::encode(a, version, call as u32)),
                has_global_spans: Globals {
                    call_site: call,
                    mixed_site: hygiene::MIXED_SITE as usize,
                    def_site: hygiene::DEF_SITE as usize,
                },
                span_data_table: hygiene::span_table(),
            })?;
            Ok((flat::decode(&tree, version)?, spans))
        });
        state.expansions.insert(key, result.clone());
        result
    }
}

/// The names a library's root file defines or imports, other than from the crates `skip`
/// (its proc-macro dependencies): what `use lib::name;` finds besides a macro.
fn root_names(root: &Path, skip: &BTreeSet<String>) -> BTreeSet<String> {
    let Ok(file) = std::fs::read_to_string(root).map(|t| syn::parse_file(&t)) else {
        return BTreeSet::new();
    };
    let Ok(file) = file else {
        return BTreeSet::new();
    };
    let mut names = BTreeSet::new();
    for item in &file.items {
        let ident = match item {
            Item::Const(i) => Some(&i.ident),
            Item::Enum(i) => Some(&i.ident),
            Item::Fn(i) => Some(&i.sig.ident),
            Item::Mod(i) => Some(&i.ident),
            Item::Static(i) => Some(&i.ident),
            Item::Struct(i) => Some(&i.ident),
            Item::Trait(i) => Some(&i.ident),
            Item::TraitAlias(i) => Some(&i.ident),
            Item::Type(i) => Some(&i.ident),
            Item::Union(i) => Some(&i.ident),
            Item::Use(u) => {
                let mut scope = Scope::default();
                scope.add_use(&u.tree, Vec::new());
                for (name, paths) in scope.imports {
                    if paths
                        .iter()
                        .any(|p| !p.first().is_some_and(|f| skip.contains(f)))
                    {
                        names.insert(name);
                    }
                }
                None
            }
            _ => None,
        };
        if let Some(ident) = ident {
            names.insert(unraw(ident));
        }
    }
    names
}

/// Whether the library at `dylib` was built by `toolchain`'s compiler: a compiled crate's
/// metadata (its `.rustc` section) holds the `rustc -V` line of the compiler that built it, as
/// rust-analyzer's server reads it (`proc-macro-srv/src/dylib/version.rs`). The server makes
/// the same check when it loads the library; this one says what to do about it.
fn built_by(dylib: &Path, toolchain: &Toolchain) -> Result<(), String> {
    let bytes =
        std::fs::read(dylib).map_err(|e| format!("cannot read {}: {e}", dylib.display()))?;
    let needle = toolchain.version.as_bytes();
    if !needle.is_empty() && bytes.windows(needle.len()).any(|w| w == needle) {
        return Ok(());
    }
    Err(format!(
        "{} was not built by {}, the compiler `rustc` finds from the problem's folder, whose \
         proc-macro server is the one that can load what it built; cargo used another compiler \
         (`build.rustc` or `RUSTC_WRAPPER` in its configuration?): set `RUSTC` to that \
         compiler for both",
        dylib.display(),
        toolchain.version
    ))
}

/// The names a module can use for macros: imports (`name` -> each path it imports, one a
/// namespace: `use num_derive::FromPrimitive;` beside `use num_traits::FromPrimitive;`),
/// globs, and the crates of `#[macro_use] extern crate` at the crate's root.
#[derive(Clone, Default)]
struct Scope {
    imports: BTreeMap<String, Vec<Vec<String>>>,
    globs: Vec<Vec<String>>,
    macro_use: BTreeSet<String>,
}

impl Scope {
    fn of_items(items: &[Item], root: bool) -> Scope {
        let mut scope = Scope::default();
        scope.add(items, root);
        scope
    }

    fn add(&mut self, items: &[Item], root: bool) {
        for item in items {
            match item {
                Item::Use(u) => self.add_use(&u.tree, Vec::new()),
                Item::ExternCrate(e) if root => {
                    let name = unraw(&e.ident);
                    if e.attrs.iter().any(|a| a.path().is_ident("macro_use")) {
                        self.macro_use.insert(name.clone());
                    }
                    if let Some((_, alias)) = &e.rename {
                        self.import(unraw(alias), vec![name]);
                    }
                }
                _ => {}
            }
        }
    }

    fn import(&mut self, name: String, path: Vec<String>) {
        self.imports.entry(name).or_default().push(path);
    }

    fn add_use(&mut self, tree: &UseTree, mut prefix: Vec<String>) {
        match tree {
            UseTree::Path(p) => {
                prefix.push(unraw(&p.ident));
                self.add_use(&p.tree, prefix);
            }
            UseTree::Name(n) => {
                let name = unraw(&n.ident);
                if name != "self" {
                    prefix.push(name.clone());
                    self.import(name, prefix);
                } else if let Some(last) = prefix.last() {
                    self.import(last.clone(), prefix);
                }
            }
            UseTree::Rename(r) => {
                let name = unraw(&r.ident);
                if name != "self" {
                    prefix.push(name);
                }
                self.import(unraw(&r.rename), prefix);
            }
            UseTree::Glob(_) => self.globs.push(prefix),
            UseTree::Group(g) => {
                for tree in &g.items {
                    self.add_use(tree, prefix.clone());
                }
            }
        }
    }
}

/// An identifier as a name (`r#ref` is `ref`).
fn unraw(ident: &proc_macro2::Ident) -> String {
    super::reach_name(ident)
}

/// Attributes no macro can take the name of.
const BUILTIN_ATTRIBUTES: &[&str] = &[
    "allow",
    "automatically_derived",
    "bench",
    "cfg",
    "cfg_attr",
    "cold",
    "collapse_debuginfo",
    "crate_name",
    "crate_type",
    "debugger_visualizer",
    "deny",
    "deprecated",
    "derive",
    "diagnostic",
    "doc",
    "expect",
    "export_name",
    "feature",
    "forbid",
    "global_allocator",
    "ignore",
    "inline",
    "instruction_set",
    "link",
    "link_name",
    "link_section",
    "macro_export",
    "macro_use",
    "must_use",
    "no_builtins",
    "no_implicit_prelude",
    "no_main",
    "no_mangle",
    "no_std",
    "non_exhaustive",
    "panic_handler",
    "path",
    "proc_macro",
    "proc_macro_attribute",
    "proc_macro_derive",
    "recursion_limit",
    "repr",
    "should_panic",
    "target_feature",
    "test",
    "track_caller",
    "type_length_limit",
    "used",
    "warn",
    "windows_subsystem",
];

/// Derives the compiler implements.
const BUILTIN_DERIVES: &[&str] = &[
    "Clone",
    "Copy",
    "Debug",
    "Default",
    "Eq",
    "Hash",
    "Ord",
    "PartialEq",
    "PartialOrd",
];

/// The pass over one crate.
struct Pass<'a> {
    shared: &'a Shared,
    krate: &'a CrateScope,
    cfg: &'a Cfg,
    /// The import scopes of the modules and blocks being walked, innermost last.
    scopes: Vec<Scope>,
    failures: Vec<Failure>,
    /// Every identifier of the crate and of the names given so far (for fresh names), made
    /// when first needed.
    taken: Option<BTreeSet<String>>,
    file_idents: TokenStream,
    /// How deep in expansions the walk is.
    depth: usize,
    /// The items the walk is in (`fn main`), for messages.
    context: Vec<String>,
}

/// One use of a proc macro, resolved.
struct Use {
    provider: Provider,
    name: String,
    /// How the use is written (`#[fastout]`, `#[derive(FromPrimitive)]`, `m!`).
    shown: String,
}

impl Pass<'_> {
    fn stopped(&self) -> bool {
        self.krate.main && !self.failures.is_empty()
    }

    fn fail(&mut self, failure: Failure) {
        self.failures.push(failure);
    }

    fn scope(&self) -> &Scope {
        self.scopes.last().expect("a scope while walking")
    }

    fn wherein(&self) -> String {
        match self.context.last() {
            Some(item) => format!("{} in {}", item, self.krate.name),
            None => self.krate.name.clone(),
        }
    }

    /// Which proc macro of kind `kind` `path` names, if one does.
    fn resolve(&self, path: &syn::Path, kind: Kind) -> Result<Option<(Provider, String)>, Failure> {
        let segments: Vec<String> = path.segments.iter().map(|s| unraw(&s.ident)).collect();
        let scope = self.scope();
        if segments.len() > 1 || path.leading_colon.is_some() {
            let mut segments = segments;
            // An alias of a dependency (`use proconio as pc;`, `extern crate x as y;`).
            if path.leading_colon.is_none() {
                let alias = scope.imports.get(&segments[0]).into_iter().flatten();
                if let Some(full) = alias.into_iter().find(|p| p.len() == 1) {
                    segments[0] = full[0].clone();
                }
            }
            return self.resolve_path(&segments, kind);
        }
        let name = &segments[0];
        if let Some(paths) = scope.imports.get(name) {
            for full in paths {
                if let Some(found) = self.resolve_path(full, kind)? {
                    return Ok(Some(found));
                }
            }
            return Ok(None);
        }
        let builtin = match kind {
            Kind::Attr => BUILTIN_ATTRIBUTES.contains(&name.as_str()),
            Kind::CustomDerive => BUILTIN_DERIVES.contains(&name.as_str()),
            Kind::Bang => false,
        };
        if builtin {
            return Ok(None);
        }
        // Through a glob of a dependency, or `#[macro_use] extern crate`.
        let through: BTreeSet<&String> = scope
            .globs
            .iter()
            .filter(|g| g.len() == 1)
            .map(|g| &g[0])
            .chain(&scope.macro_use)
            .collect();
        let mut found: Vec<(Provider, String)> = Vec::new();
        for provider in &self.krate.providers {
            if through.contains(&provider.name) && self.exports(provider, name, kind)? {
                found.push((provider.clone(), name.clone()));
            }
        }
        found.dedup_by(|a, b| Arc::ptr_eq(&a.0.krate, &b.0.krate));
        match found.len() {
            0 => Ok(None),
            1 => Ok(found.pop()),
            _ => Err(Failure {
                krate: Some(Arc::clone(&found[0].0.krate)),
                text: format!(
                    "`{name}` in {} is a macro of both {} and {}, each imported by a glob",
                    self.wherein(),
                    found[0].0.krate.package,
                    found[1].0.krate.package
                ),
            }),
        }
    }

    /// Which proc macro of kind `kind` the full path `segments` (`proconio::fastout`) names.
    fn resolve_path(
        &self,
        segments: &[String],
        kind: Kind,
    ) -> Result<Option<(Provider, String)>, Failure> {
        let [first, name] = segments else {
            return Ok(None);
        };
        for provider in &self.krate.providers {
            if provider.name == *first && self.exports(provider, name, kind)? {
                return Ok(Some((provider.clone(), name.clone())));
            }
        }
        Ok(None)
    }

    /// Whether `provider`'s proc-macro crate exports `name` of kind `kind`.
    fn exports(&self, provider: &Provider, name: &str, kind: Kind) -> Result<bool, Failure> {
        match self.shared.exports(&provider.krate) {
            Ok(list) => Ok(list.iter().any(|(n, k)| n == name && *k == kind)),
            Err(e) => Err(Failure {
                krate: Some(Arc::clone(&provider.krate)),
                text: format!(
                    "`{name}` in {} may be a macro of the proc-macro crate {}, which needs \
                     expanding: {e}",
                    self.wherein(),
                    provider.krate.package
                ),
            }),
        }
    }

    /// Runs a macro and reads its output as `H`s, hygiene settled.
    fn expansion(
        &mut self,
        used: &Use,
        body: TokenStream,
        args: Option<TokenStream>,
        parse: Target,
    ) -> Result<Parsed, Failure> {
        let krate = &used.provider.krate;
        let wherein = self.wherein();
        let failure = |reason: String| Failure {
            krate: Some(Arc::clone(krate)),
            text: format!(
                "`{}` ({}) on {wherein} cannot be expanded: {reason}",
                used.shown, krate.package,
            ),
        };
        if self.depth >= DEPTH_LIMIT {
            return Err(failure(format!(
                "its expansions nest more than {DEPTH_LIMIT} deep"
            )));
        }
        let (trees, spans) = self
            .shared
            .run(krate, &used.name, &body, args.as_ref(), self.krate)
            .map_err(|e| failure(format!("the macro failed: {e}")))?;
        if let Some(message) = compile_error(&trees) {
            return Err(failure(format!("the macro reported an error: {message}")));
        }
        let mut marks = Marks::default();
        let tokens = hygiene::to_tokens(&trees, &spans, &mut marks).map_err(failure)?;
        let mut parsed = parse.parse(tokens).map_err(|e| {
            failure(format!(
                "its expansion does not parse as {}: {e}",
                parse.what()
            ))
        })?;
        if !marks.is_empty() {
            let file_idents = &self.file_idents;
            let taken = self.taken.get_or_insert_with(|| {
                let mut names = BTreeSet::new();
                idents(file_idents.clone(), &mut names);
                names
            });
            hygiene::settle(&mut parsed, &marks, taken).map_err(failure)?;
        }
        // `extern crate num_traits as _num_traits;` in a block (num-derive's `const _` trick):
        // a `use` of the crate's module does the same in a bundle.
        parsed.visit_mut(&mut ExternCratesInBlocks);
        if let Parsed::Items(items) = &mut parsed {
            if items.iter().any(|i| matches!(i, Item::Verbatim(_))) {
                return Err(failure(
                    "syn reads part of its expansion only as tokens".to_owned(),
                ));
            }
            *items = super::expand::settle_items(std::mem::take(items), self.cfg);
        }
        Ok(parsed)
    }

    /// Expands the item-level macros of `items` (and, recursively, what they expand to), then
    /// walks into each item.
    fn host_items<H: Host>(&mut self, items: &mut Vec<H>) {
        let mut i = 0;
        while i < items.len() {
            if self.stopped() {
                return;
            }
            let step = self.step(&mut items[i]);
            match step {
                Ok(Some(mut out)) => {
                    self.depth += 1;
                    self.host_items(&mut out);
                    self.depth -= 1;
                    let n = out.len();
                    items.splice(i..i + 1, out);
                    i += n;
                }
                Ok(None) => {
                    self.context.push(items[i].what());
                    items[i].descend(self);
                    self.context.pop();
                    i += 1;
                }
                Err(failure) => {
                    self.fail(failure);
                    i += 1;
                }
            }
        }
    }

    /// The first proc-macro use on `item` expanded: what replaces it, or `None` when it has
    /// none.
    fn step<H: Host>(&mut self, item: &mut H) -> Result<Option<Vec<H>>, Failure> {
        let what = item.what();
        self.context.push(what);
        let done = self.step_within(item);
        self.context.pop();
        done
    }

    fn step_within<H: Host>(&mut self, item: &mut H) -> Result<Option<Vec<H>>, Failure> {
        // Attribute macros, in order: the first takes the item with the others.
        let attrs = item.attrs().map(|a| a.to_vec()).unwrap_or_default();
        for (k, attr) in attrs.iter().enumerate() {
            let Some((provider, name)) = self.resolve(attr.path(), Kind::Attr)? else {
                continue;
            };
            let used = Use {
                shown: format!("#[{}]", attr.path().to_token_stream()).replace(' ', ""),
                provider,
                name,
            };
            let args = match &attr.meta {
                Meta::Path(_) => TokenStream::new(),
                Meta::List(list) => list.tokens.clone(),
                Meta::NameValue(_) => {
                    return Err(Failure {
                        krate: Some(Arc::clone(&used.provider.krate)),
                        text: format!(
                            "`{}` on {} is an attribute macro given `= value`, which rustc \
                             refuses",
                            used.shown,
                            self.wherein()
                        ),
                    })
                }
            };
            let mut input = item.clone();
            if let Some(attrs) = input.attrs() {
                attrs.remove(k);
            }
            let parsed = self.expansion(&used, input.to_token_stream(), Some(args), H::TARGET)?;
            return Ok(Some(H::from_parsed(parsed)));
        }
        if let Some(derived) = item.derives(self)? {
            return Ok(Some(derived));
        }
        if let Some(mac) = item.bang() {
            let mac = mac.clone();
            if let Some(used) = self.bang_use(&mac)? {
                let parsed = self.expansion(&used, mac.tokens.clone(), None, H::TARGET)?;
                return Ok(Some(H::from_parsed(parsed)));
            }
        }
        Ok(None)
    }

    fn bang_use(&self, mac: &syn::Macro) -> Result<Option<Use>, Failure> {
        Ok(self
            .resolve(&mac.path, Kind::Bang)?
            .map(|(provider, name)| Use {
                shown: format!("{}!", mac.path.to_token_stream()).replace(' ', ""),
                provider,
                name,
            }))
    }

    /// The derives of a struct, enum or union that are proc macros, expanded: the item (its
    /// `#[derive]` keeping the compiler's own, the expanded derives' helper attributes gone)
    /// followed by each expansion.
    fn derive(&mut self, item: &mut Item) -> Result<Option<Vec<Item>>, Failure> {
        let attrs = match item {
            Item::Struct(s) => &s.attrs,
            Item::Enum(e) => &e.attrs,
            Item::Union(u) => &u.attrs,
            _ => return Ok(None),
        };
        let mut uses = Vec::new();
        for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
            let Ok(paths) =
                attr.parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated)
            else {
                continue;
            };
            for path in paths {
                if let Some((provider, name)) = self.resolve(&path, Kind::CustomDerive)? {
                    let shown = format!("#[derive({})]", path.to_token_stream()).replace(' ', "");
                    uses.push((
                        path,
                        Use {
                            provider,
                            name,
                            shown,
                        },
                    ));
                }
            }
        }
        if uses.is_empty() {
            return Ok(None);
        }
        let mut input = item.clone();
        if let Some(attrs) = super::expand::item_attrs(&mut input) {
            attrs.retain(|a| !a.path().is_ident("derive"));
        }
        let body = input.to_token_stream();
        let mut out = Vec::new();
        let mut helpers = BTreeSet::new();
        for (_, used) in &uses {
            let known = used.provider.krate.helpers.as_ref().map_err(|e| Failure {
                krate: Some(Arc::clone(&used.provider.krate)),
                text: format!(
                    "`{}` ({}) on {}: its helper attributes cannot be read: {e}",
                    used.shown,
                    used.provider.krate.package,
                    self.wherein()
                ),
            })?;
            helpers.extend(known.get(&used.name).into_iter().flatten().cloned());
            let parsed = self.expansion(used, body.clone(), None, Target::Items)?;
            out.extend(<Item as Host>::from_parsed(parsed));
        }
        // The item as the compiler keeps it: its own derives, no helpers.
        let expanded: Vec<&syn::Path> = uses.iter().map(|(p, _)| p).collect();
        let attrs = super::expand::item_attrs(item).expect("a struct, enum or union");
        attrs.retain_mut(|attr| {
            if !attr.path().is_ident("derive") {
                return true;
            }
            let Ok(paths) =
                attr.parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated)
            else {
                return true;
            };
            let kept: Punctuated<syn::Path, Token![,]> = paths
                .into_iter()
                .filter(|p| !expanded.contains(&p))
                .collect();
            if kept.is_empty() {
                return false;
            }
            *attr = syn::parse_quote!(#[derive(#kept)]);
            true
        });
        RemoveHelpers { helpers: &helpers }.visit_item_mut(item);
        out.insert(0, item.clone());
        Ok(Some(out))
    }

    /// Expands a function-like macro in expression, type or pattern position.
    fn inline<T>(
        &mut self,
        mac: &syn::Macro,
        target: Target,
        take: impl FnOnce(Parsed) -> T,
    ) -> Option<T> {
        match self.bang_use(mac) {
            Ok(None) => None,
            Ok(Some(used)) => match self.expansion(&used, mac.tokens.clone(), None, target) {
                Ok(parsed) => Some(take(parsed)),
                Err(failure) => {
                    self.fail(failure);
                    None
                }
            },
            Err(failure) => {
                self.fail(failure);
                None
            }
        }
    }
}

/// Where an expansion goes, and so how it is parsed.
#[derive(Clone, Copy)]
enum Target {
    Items,
    ImplItems,
    TraitItems,
    Stmts,
    Expr,
    Type,
    Pat,
}

impl Target {
    fn what(self) -> &'static str {
        match self {
            Target::Items => "items",
            Target::ImplItems => "items of an impl",
            Target::TraitItems => "items of a trait",
            Target::Stmts => "statements",
            Target::Expr => "an expression",
            Target::Type => "a type",
            Target::Pat => "a pattern",
        }
    }

    fn parse(self, tokens: TokenStream) -> syn::Result<Parsed> {
        use syn::parse::Parser;
        Ok(match self {
            Target::Items => Parsed::Items(syn::parse2::<syn::File>(tokens)?.items),
            Target::ImplItems => {
                let imp: syn::ItemImpl = syn::parse2(quote::quote!(impl X { #tokens }))?;
                Parsed::ImplItems(imp.items)
            }
            Target::TraitItems => {
                let tr: syn::ItemTrait = syn::parse2(quote::quote!(trait X { #tokens }))?;
                Parsed::TraitItems(tr.items)
            }
            Target::Stmts => Parsed::Stmts(syn::Block::parse_within.parse2(tokens)?),
            Target::Expr => Parsed::Expr(syn::parse2(tokens)?),
            Target::Type => Parsed::Type(syn::parse2(tokens)?),
            Target::Pat => Parsed::Pat(syn::Pat::parse_multi_with_leading_vert.parse2(tokens)?),
        })
    }
}

/// What a list of items of one kind (a module's, an impl's, a trait's) has in common here.
trait Host: Clone + ToTokens {
    const TARGET: Target;
    fn attrs(&mut self) -> Option<&mut Vec<Attribute>>;
    /// A function-like macro call in this item's place.
    fn bang(&self) -> Option<&syn::Macro>;
    fn what(&self) -> String;
    fn from_parsed(parsed: Parsed) -> Vec<Self>;
    fn derives(&mut self, _pass: &mut Pass<'_>) -> Result<Option<Vec<Self>>, Failure> {
        Ok(None)
    }
    /// Walks into the item.
    fn descend(&mut self, pass: &mut Pass<'_>);
}

impl Host for Item {
    const TARGET: Target = Target::Items;

    fn attrs(&mut self) -> Option<&mut Vec<Attribute>> {
        super::expand::item_attrs(self)
    }

    fn bang(&self) -> Option<&syn::Macro> {
        match self {
            Item::Macro(m) if m.ident.is_none() => Some(&m.mac),
            _ => None,
        }
    }

    fn what(&self) -> String {
        let named = |kind: &str, ident: &syn::Ident| format!("`{kind} {ident}`");
        match self {
            Item::Fn(f) => named("fn", &f.sig.ident),
            Item::Struct(s) => named("struct", &s.ident),
            Item::Enum(e) => named("enum", &e.ident),
            Item::Union(u) => named("union", &u.ident),
            Item::Trait(t) => named("trait", &t.ident),
            Item::Mod(m) => named("mod", &m.ident),
            Item::Const(c) => named("const", &c.ident),
            Item::Static(s) => named("static", &s.ident),
            Item::Type(t) => named("type", &t.ident),
            Item::Impl(i) => format!("`impl {}`", i.self_ty.to_token_stream()),
            Item::Macro(m) => format!("`{}!`", m.mac.path.to_token_stream()),
            _ => "an item".to_owned(),
        }
        .replace(" < ", "<")
        .replace(" >", ">")
    }

    fn from_parsed(parsed: Parsed) -> Vec<Item> {
        match parsed {
            Parsed::Items(items) => items,
            _ => Vec::new(),
        }
    }

    fn derives(&mut self, pass: &mut Pass<'_>) -> Result<Option<Vec<Item>>, Failure> {
        pass.derive(self)
    }

    fn descend(&mut self, pass: &mut Pass<'_>) {
        pass.visit_item_mut(self);
    }
}

impl Host for syn::ImplItem {
    const TARGET: Target = Target::ImplItems;

    fn attrs(&mut self) -> Option<&mut Vec<Attribute>> {
        super::expand::impl_item_attrs(self)
    }

    fn bang(&self) -> Option<&syn::Macro> {
        match self {
            syn::ImplItem::Macro(m) => Some(&m.mac),
            _ => None,
        }
    }

    fn what(&self) -> String {
        match self {
            syn::ImplItem::Fn(f) => format!("`fn {}`", f.sig.ident),
            syn::ImplItem::Const(c) => format!("`const {}`", c.ident),
            syn::ImplItem::Type(t) => format!("`type {}`", t.ident),
            _ => "an item of an impl".to_owned(),
        }
    }

    fn from_parsed(parsed: Parsed) -> Vec<Self> {
        match parsed {
            Parsed::ImplItems(items) => items,
            _ => Vec::new(),
        }
    }

    fn descend(&mut self, pass: &mut Pass<'_>) {
        pass.visit_impl_item_mut(self);
    }
}

impl Host for syn::TraitItem {
    const TARGET: Target = Target::TraitItems;

    fn attrs(&mut self) -> Option<&mut Vec<Attribute>> {
        super::expand::trait_item_attrs(self)
    }

    fn bang(&self) -> Option<&syn::Macro> {
        match self {
            syn::TraitItem::Macro(m) => Some(&m.mac),
            _ => None,
        }
    }

    fn what(&self) -> String {
        match self {
            syn::TraitItem::Fn(f) => format!("`fn {}`", f.sig.ident),
            syn::TraitItem::Const(c) => format!("`const {}`", c.ident),
            syn::TraitItem::Type(t) => format!("`type {}`", t.ident),
            _ => "an item of a trait".to_owned(),
        }
    }

    fn from_parsed(parsed: Parsed) -> Vec<Self> {
        match parsed {
            Parsed::TraitItems(items) => items,
            _ => Vec::new(),
        }
    }

    fn descend(&mut self, pass: &mut Pass<'_>) {
        pass.visit_trait_item_mut(self);
    }
}

impl VisitMut for Pass<'_> {
    fn visit_item_mod_mut(&mut self, module: &mut syn::ItemMod) {
        if let Some((_, items)) = &mut module.content {
            // A module sees its own imports, and the root's `#[macro_use] extern crate`s.
            let mut scope = Scope::of_items(items, false);
            scope.macro_use = self
                .scopes
                .first()
                .map(|s| s.macro_use.clone())
                .unwrap_or_default();
            self.scopes.push(scope);
            self.host_items(items);
            self.scopes.pop();
        }
    }

    fn visit_item_impl_mut(&mut self, imp: &mut syn::ItemImpl) {
        self.visit_generics_mut(&mut imp.generics);
        self.visit_type_mut(&mut imp.self_ty);
        self.host_items(&mut imp.items);
    }

    fn visit_item_trait_mut(&mut self, tr: &mut syn::ItemTrait) {
        self.visit_generics_mut(&mut tr.generics);
        self.host_items(&mut tr.items);
    }

    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        if self.stopped() {
            return;
        }
        let mut scope = self.scope().clone();
        let local_items: Vec<Item> = block
            .stmts
            .iter()
            .filter_map(|s| match s {
                syn::Stmt::Item(item @ Item::Use(_)) => Some(item.clone()),
                _ => None,
            })
            .collect();
        scope.add(&local_items, false);
        self.scopes.push(scope);
        let mut i = 0;
        while i < block.stmts.len() && !self.stopped() {
            let replaced: Option<Vec<syn::Stmt>> = match &mut block.stmts[i] {
                syn::Stmt::Item(item) => {
                    let mut one = vec![std::mem::replace(item, Item::Verbatim(TokenStream::new()))];
                    self.host_items(&mut one);
                    Some(one.into_iter().map(syn::Stmt::Item).collect())
                }
                syn::Stmt::Macro(stmt) if stmt.attrs.is_empty() => {
                    let mac = stmt.mac.clone();
                    let expanded = self.inline(&mac, Target::Stmts, |parsed| match parsed {
                        Parsed::Stmts(stmts) => stmts,
                        _ => Vec::new(),
                    });
                    if expanded.is_none() {
                        self.visit_stmt_mut(&mut block.stmts[i]);
                    }
                    expanded.map(|stmts| {
                        // What it expands to is walked as a block of its own.
                        let mut inner = syn::Block {
                            brace_token: Default::default(),
                            stmts,
                        };
                        self.depth += 1;
                        self.visit_block_mut(&mut inner);
                        self.depth -= 1;
                        inner.stmts
                    })
                }
                other => {
                    self.visit_stmt_mut(other);
                    None
                }
            };
            match replaced {
                Some(stmts) => {
                    let n = stmts.len();
                    block.stmts.splice(i..i + 1, stmts);
                    i += n;
                }
                None => i += 1,
            }
        }
        self.scopes.pop();
    }

    fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
        if self.stopped() {
            return;
        }
        if let syn::Expr::Macro(m) = expr {
            let mac = m.mac.clone();
            if let Some(new) = self.inline(&mac, Target::Expr, |parsed| match parsed {
                Parsed::Expr(e) => e,
                _ => syn::parse_quote!(()),
            }) {
                // An expansion is one expression wherever it stands: parenthesised, so that
                // `2 * m!()` keeps its meaning when `m!()` is `a + b`.
                *expr = match new {
                    e @ (syn::Expr::Lit(_)
                    | syn::Expr::Path(_)
                    | syn::Expr::Paren(_)
                    | syn::Expr::Block(_)
                    | syn::Expr::Call(_)
                    | syn::Expr::MethodCall(_)
                    | syn::Expr::Macro(_)
                    | syn::Expr::Tuple(_)
                    | syn::Expr::Array(_)) => e,
                    e => syn::parse_quote!((#e)),
                };
                self.depth += 1;
                self.visit_expr_mut(expr);
                self.depth -= 1;
                return;
            }
        }
        visit_mut::visit_expr_mut(self, expr);
    }

    fn visit_type_mut(&mut self, ty: &mut syn::Type) {
        if let syn::Type::Macro(m) = ty {
            let mac = m.mac.clone();
            if let Some(new) = self.inline(&mac, Target::Type, |parsed| match parsed {
                Parsed::Type(t) => t,
                _ => syn::parse_quote!(()),
            }) {
                *ty = new;
                self.depth += 1;
                self.visit_type_mut(ty);
                self.depth -= 1;
                return;
            }
        }
        visit_mut::visit_type_mut(self, ty);
    }

    fn visit_pat_mut(&mut self, pat: &mut syn::Pat) {
        if let syn::Pat::Macro(m) = pat {
            let mac = m.mac.clone();
            if let Some(new) = self.inline(&mac, Target::Pat, |parsed| match parsed {
                Parsed::Pat(p) => p,
                _ => syn::parse_quote!(_),
            }) {
                *pat = new;
                self.depth += 1;
                self.visit_pat_mut(pat);
                self.depth -= 1;
                return;
            }
        }
        visit_mut::visit_pat_mut(self, pat);
    }

    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        if self.used_in_tokens(mac.tokens.clone()).is_none() {
            return;
        }
        // Arguments that read as expressions (`println!("{}", m!(x))`, `vec![a, m!(b)]`,
        // `assert_eq!(m!(x), 1)`) are expanded as expressions.
        let exprs = Punctuated::<syn::Expr, Token![,]>::parse_terminated;
        if let Ok(mut args) = mac.parse_body_with(exprs) {
            for arg in args.iter_mut() {
                self.visit_expr_mut(arg);
            }
            mac.tokens = args.to_token_stream();
        }
        // Anywhere else it cannot be expanded: the bundler does not parse other macros' tokens.
        if let Some(shown) = self.used_in_tokens(mac.tokens.clone()) {
            let text = format!(
                "`{shown}` in {} stands inside the tokens of `{}!`, which the bundler does not \
                 parse, so it cannot be expanded",
                self.wherein(),
                mac.path.to_token_stream().to_string().replace(' ', "")
            );
            self.fail(Failure { krate: None, text });
        }
    }
}

impl Pass<'_> {
    /// A proc-macro use (`m!(...)`, `#[attr]`, `#[derive(D)]`) among `tokens`, if one resolves.
    fn used_in_tokens(&mut self, tokens: TokenStream) -> Option<String> {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        for (i, tree) in trees.iter().enumerate() {
            match tree {
                TokenTree::Ident(ident) => {
                    let bang = matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!')
                        && matches!(trees.get(i + 2), Some(TokenTree::Group(_)));
                    let after_path = i >= 1
                        && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == ':');
                    if bang && !after_path {
                        let path: syn::Path = ident.clone().into();
                        match self.resolve(&path, Kind::Bang) {
                            Ok(Some(_)) => return Some(format!("{ident}!")),
                            Ok(None) => {}
                            Err(failure) => {
                                self.fail(failure);
                                return None;
                            }
                        }
                    }
                }
                TokenTree::Punct(p) if p.as_char() == '#' => {
                    if let Some(TokenTree::Group(g)) = trees.get(i + 1) {
                        if let Ok(attr) = syn::parse2::<AttrBody>(g.stream()) {
                            let found = match &attr.0 {
                                Meta::List(list) if list.path.is_ident("derive") => list
                                    .parse_args_with(
                                        Punctuated::<syn::Path, Token![,]>::parse_terminated,
                                    )
                                    .ok()
                                    .into_iter()
                                    .flatten()
                                    .find(|path| {
                                        matches!(
                                            self.resolve(path, Kind::CustomDerive),
                                            Ok(Some(_))
                                        )
                                    })
                                    .map(|path| format!("#[derive({})]", path.to_token_stream())),
                                meta => {
                                    matches!(self.resolve(meta.path(), Kind::Attr), Ok(Some(_)))
                                        .then(|| format!("#[{}]", meta.path().to_token_stream()))
                                }
                            };
                            if let Some(found) = found {
                                return Some(found.replace(' ', ""));
                            }
                        }
                    }
                }
                TokenTree::Group(g) => {
                    if let Some(found) = self.used_in_tokens(g.stream()) {
                        return Some(found);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// The inside of `#[...]`.
struct AttrBody(Meta);

impl syn::parse::Parse for AttrBody {
    fn parse(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
        Ok(AttrBody(input.parse()?))
    }
}

/// `extern crate dep as alias;` in a block becomes `use dep as alias;` (and a plain `extern
/// crate dep;` goes): inside one file there are no crates to declare, and the bundler's path
/// rewrite then points `dep` at its module.
struct ExternCratesInBlocks;

impl VisitMut for ExternCratesInBlocks {
    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        block.stmts.retain_mut(|stmt| {
            let syn::Stmt::Item(Item::ExternCrate(e)) = stmt else {
                return true;
            };
            if e.ident == "self" {
                return true;
            }
            let Some((_, alias)) = &e.rename else {
                return false;
            };
            let (attrs, vis, dep) = (&e.attrs, &e.vis, &e.ident);
            *stmt = syn::Stmt::Item(syn::parse_quote!(#(#attrs)* #vis use #dep as #alias;));
            true
        });
        visit_mut::visit_block_mut(self, block);
    }
}

/// Removes the helper attributes of expanded derives from an item, its fields and variants.
struct RemoveHelpers<'a> {
    helpers: &'a BTreeSet<String>,
}

impl VisitMut for RemoveHelpers<'_> {
    fn visit_attributes_mut(&mut self, attrs: &mut Vec<Attribute>) {
        attrs.retain(|a| {
            !a.path()
                .get_ident()
                .is_some_and(|i| self.helpers.contains(&i.to_string()))
        });
    }

    fn visit_item_struct_mut(&mut self, item: &mut syn::ItemStruct) {
        self.visit_attributes_mut(&mut item.attrs);
        self.visit_fields_mut(&mut item.fields);
    }

    fn visit_item_enum_mut(&mut self, item: &mut syn::ItemEnum) {
        self.visit_attributes_mut(&mut item.attrs);
        for variant in &mut item.variants {
            self.visit_attributes_mut(&mut variant.attrs);
            self.visit_fields_mut(&mut variant.fields);
        }
    }

    fn visit_item_union_mut(&mut self, item: &mut syn::ItemUnion) {
        self.visit_attributes_mut(&mut item.attrs);
        for field in &mut item.fields.named {
            self.visit_attributes_mut(&mut field.attrs);
        }
    }

    fn visit_field_mut(&mut self, field: &mut syn::Field) {
        self.visit_attributes_mut(&mut field.attrs);
    }
}

/// `compile_error!("...")` in an expansion: its message.
fn compile_error(trees: &[Tree]) -> Option<String> {
    for (i, tree) in trees.iter().enumerate() {
        match tree {
            Tree::Ident { text, .. } if text == "compile_error" => {
                let bang = matches!(trees.get(i + 1), Some(Tree::Punct { ch: '!', .. }));
                if let (true, Some(Tree::Group { trees: inner, .. })) = (bang, trees.get(i + 2)) {
                    let message = inner.iter().find_map(|t| match t {
                        Tree::Literal { text, .. } => {
                            syn::parse_str::<syn::LitStr>(text).ok().map(|s| s.value())
                        }
                        _ => None,
                    });
                    return Some(message.unwrap_or_else(|| "compile_error!".to_owned()));
                }
            }
            Tree::Group { trees: inner, .. } => {
                if let Some(found) = compile_error(inner) {
                    return Some(found);
                }
            }
            _ => {}
        }
    }
    None
}

/// Every identifier in `tokens`.
fn idents(tokens: TokenStream, out: &mut BTreeSet<String>) {
    for token in tokens {
        match token {
            TokenTree::Ident(ident) => {
                out.insert(unraw(&ident));
            }
            TokenTree::Group(group) => idents(group.stream(), out),
            _ => {}
        }
    }
}

/// Each derive's helper attributes, from the proc-macro crate's root: `#[proc_macro_derive(
/// Name, attributes(a, b))]` on its functions.
fn derive_helpers(root: &Path) -> Result<BTreeMap<String, Vec<String>>, String> {
    let text = std::fs::read_to_string(root)
        .map_err(|e| format!("cannot read {}: {e}", root.display()))?;
    let file =
        syn::parse_file(&text).map_err(|e| format!("cannot parse {}: {e}", root.display()))?;
    let mut helpers = BTreeMap::new();
    for item in &file.items {
        let Item::Fn(f) = item else { continue };
        for attr in f
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("proc_macro_derive"))
        {
            let Ok(args) = attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
            else {
                continue;
            };
            let mut args = args.into_iter();
            let Some(Meta::Path(name)) = args.next() else {
                continue;
            };
            let Some(name) = name.get_ident() else {
                continue;
            };
            let mut names = Vec::new();
            for arg in args {
                if let Meta::List(list) = arg {
                    if list.path.is_ident("attributes") {
                        if let Ok(idents) = list
                            .parse_args_with(Punctuated::<syn::Ident, Token![,]>::parse_terminated)
                        {
                            names.extend(idents.iter().map(unraw));
                        }
                    }
                }
            }
            helpers.insert(name.to_string(), names);
        }
    }
    Ok(helpers)
}

/// A name of a proc-macro crate the crate's code still uses as a path after expansion.
fn still_named<'a>(file: &syn::File, scope: &'a CrateScope) -> Option<&'a Provider> {
    let direct: Vec<&Provider> = scope.providers.iter().filter(|p| !p.via).collect();
    if direct.is_empty() {
        return None;
    }
    let mut copy = file.clone();
    // Imports and `extern crate`s of proc-macro crates are about to go; other uses stay.
    forget_imports(&mut copy, scope, &BTreeSet::new(), &NoExports);
    let mut names = BTreeSet::new();
    idents(copy.to_token_stream(), &mut names);
    direct.into_iter().find(|p| names.contains(&p.name))
}

/// What a library re-exporting proc macros exports of them, for [`forget_imports`].
trait Exports {
    fn of(&self, krate: &MacroCrate) -> Vec<String>;
}

struct NoExports;

impl Exports for NoExports {
    fn of(&self, _: &MacroCrate) -> Vec<String> {
        Vec::new()
    }
}

impl Exports for Shared {
    fn of(&self, krate: &MacroCrate) -> Vec<String> {
        let known = self
            .lock()
            .exports
            .get(krate.dylib.as_deref().unwrap_or(Path::new("")))
            .cloned();
        known
            .and_then(Result::ok)
            .unwrap_or_default()
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    }
}

/// Removes what named the proc-macro crates, now that their macros are expanded: `use` leaves
/// and globs under a proc-macro crate's name (a proc-macro crate exports only macros), `use`
/// leaves `lib::name` of a macro a library re-exports, and `extern crate` of a proc-macro
/// crate. Crates of `failed` (a use left unexpanded) keep theirs.
fn forget_imports(
    file: &mut syn::File,
    scope: &CrateScope,
    failed: &BTreeSet<String>,
    exports: &dyn Exports,
) {
    let mut direct = BTreeSet::new();
    let mut via: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for provider in &scope.providers {
        if failed.contains(&provider.krate.package) {
            continue;
        }
        if provider.via {
            let macros = exports.of(&provider.krate);
            via.entry(provider.name.clone())
                .or_default()
                .extend(macros.into_iter().filter(|m| !provider.items.contains(m)));
        } else {
            direct.insert(provider.name.clone());
        }
    }
    Forget {
        direct: &direct,
        via: &via,
    }
    .visit_file_mut(file);
}

struct Forget<'a> {
    direct: &'a BTreeSet<String>,
    via: &'a BTreeMap<String, BTreeSet<String>>,
}

impl Forget<'_> {
    fn keep_item(&self, item: &mut Item) -> bool {
        match item {
            Item::ExternCrate(e) => !self.direct.contains(&unraw(&e.ident)),
            Item::Use(u) => self.prune(&mut u.tree, &mut Vec::new()),
            _ => true,
        }
    }

    /// Whether anything of `tree` is left once the proc-macro names are cut from it.
    fn prune(&self, tree: &mut UseTree, prefix: &mut Vec<String>) -> bool {
        match tree {
            UseTree::Path(p) => {
                let name = unraw(&p.ident);
                if prefix.is_empty() && self.direct.contains(&name) {
                    return false;
                }
                prefix.push(name);
                let kept = self.prune(&mut p.tree, prefix);
                prefix.pop();
                kept
            }
            UseTree::Name(n) => !self.names_macro(prefix, &unraw(&n.ident)),
            UseTree::Rename(r) => !self.names_macro(prefix, &unraw(&r.ident)),
            UseTree::Glob(_) => true,
            UseTree::Group(g) => {
                let items = std::mem::take(&mut g.items);
                for mut tree in items {
                    if self.prune(&mut tree, prefix) {
                        g.items.push(tree);
                    }
                }
                !g.items.is_empty()
            }
        }
    }

    fn names_macro(&self, prefix: &[String], name: &str) -> bool {
        match prefix {
            [] => self.direct.contains(name),
            [lib] => self.via.get(lib).is_some_and(|names| names.contains(name)),
            _ => false,
        }
    }
}

impl VisitMut for Forget<'_> {
    fn visit_file_mut(&mut self, file: &mut syn::File) {
        file.items.retain_mut(|item| self.keep_item(item));
        visit_mut::visit_file_mut(self, file);
    }

    fn visit_item_mod_mut(&mut self, module: &mut syn::ItemMod) {
        if let Some((_, items)) = &mut module.content {
            items.retain_mut(|item| self.keep_item(item));
        }
        visit_mut::visit_item_mod_mut(self, module);
    }

    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        block.stmts.retain_mut(|stmt| match stmt {
            syn::Stmt::Item(item) => self.keep_item(item),
            _ => true,
        });
        visit_mut::visit_block_mut(self, block);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn provider(name: &str, via: bool, items: &[&str]) -> Provider {
        Provider {
            name: name.to_owned(),
            via,
            items: Arc::new(items.iter().map(|s| s.to_string()).collect()),
            krate: Arc::new(MacroCrate {
                package: format!("{name}-macros 1.0.0"),
                dylib: None,
                helpers: Ok(BTreeMap::new()),
            }),
        }
    }

    struct Listed(Vec<String>);

    impl Exports for Listed {
        fn of(&self, _: &MacroCrate) -> Vec<String> {
            self.0.clone()
        }
    }

    fn forgotten(
        source: &str,
        providers: Vec<Provider>,
        macros: &[&str],
        failed: &[&str],
    ) -> String {
        let mut file: syn::File = syn::parse_str(source).unwrap();
        let scope = CrateScope {
            name: "the solution".into(),
            main: true,
            env: Vec::new(),
            dir: PathBuf::new(),
            providers,
        };
        let failed = failed.iter().map(|s| s.to_string()).collect();
        let exports = Listed(macros.iter().map(|s| s.to_string()).collect());
        forget_imports(&mut file, &scope, &failed, &exports);
        file.to_token_stream().to_string()
    }

    #[test]
    fn imports_of_expanded_macros_go_and_the_rest_stays() {
        let source = "use num_derive::{FromPrimitive, ToPrimitive}; \
                      use num_traits::FromPrimitive; \
                      use proconio::{fastout, input, marker::Usize1}; \
                      use serde::{Serialize, Deserialize}; \
                      #[macro_use] extern crate num_derive; \
                      mod m { pub use num_derive::*; } \
                      fn f() { use proconio::fastout as fast; }";
        let out = forgotten(
            source,
            vec![
                provider("num_derive", false, &[]),
                provider("proconio", true, &[]),
                // serde's root defines the trait `Serialize` beside the derive it re-exports.
                provider("serde", true, &["Serialize"]),
            ],
            &["fastout", "Serialize", "Deserialize"],
            &[],
        );
        assert!(!out.contains("num_derive"), "{out}");
        assert!(out.contains("use num_traits :: FromPrimitive ;"), "{out}");
        assert!(
            out.contains("use proconio :: { input , marker :: Usize1 } ;"),
            "{out}"
        );
        assert!(out.contains("use serde :: { Serialize } ;"), "{out}");
        assert!(!out.contains("fastout") && !out.contains("fast ;"), "{out}");
    }

    #[test]
    fn a_crate_whose_macro_was_left_unexpanded_keeps_its_imports() {
        let out = forgotten(
            "use memoise::memoise;",
            vec![provider("memoise", false, &[])],
            &[],
            &["memoise-macros 1.0.0"],
        );
        assert_eq!(out, "use memoise :: memoise ;");
    }

    #[test]
    fn a_library_root_says_which_names_are_more_than_macros() {
        let dir = std::env::temp_dir().join(format!("xtask-root-names-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let root = dir.join("lib.rs");
        std::fs::write(
            &root,
            "pub use serde_derive::{Serialize, Deserialize}; pub use crate::de::Deserialize; \
             pub trait Serialize {} pub mod de {} pub fn from_str() {}",
        )
        .unwrap();
        let skip = ["serde_derive".to_owned()].into();
        let names = root_names(&root, &skip);
        let expected: BTreeSet<String> = ["Deserialize", "Serialize", "de", "from_str"]
            .map(String::from)
            .into();
        assert_eq!(names, expected);
        std::fs::write(
            &root,
            "#[proc_macro_derive(Describe, attributes(label, note))] pub fn d() {} \
             #[proc_macro_derive(Plain)] pub fn p() {} #[proc_macro] pub fn bang() {}",
        )
        .unwrap();
        let helpers = derive_helpers(&root).unwrap();
        assert_eq!(helpers["Describe"], ["label", "note"]);
        assert!(helpers["Plain"].is_empty());
        assert_eq!(helpers.len(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn imports_globs_and_macro_use_make_a_scope() {
        let file: syn::File = syn::parse_str(
            "use a::{b as c, d::e, self}; use f::*; #[macro_use] extern crate g; \
             extern crate h as i; use j::K; use k::K;",
        )
        .unwrap();
        let scope = Scope::of_items(&file.items, true);
        assert_eq!(scope.imports["c"], [vec!["a".to_string(), "b".into()]]);
        assert_eq!(
            scope.imports["e"],
            [vec!["a".to_string(), "d".into(), "e".into()]]
        );
        assert_eq!(scope.imports["a"], [vec!["a".to_string()]]);
        assert_eq!(scope.imports["i"], [vec!["h".to_string()]]);
        // One name, two namespaces: both paths kept.
        assert_eq!(scope.imports["K"].len(), 2);
        assert_eq!(scope.globs, [vec!["f".to_string()]]);
        assert!(scope.macro_use.contains("g"));
    }

    #[test]
    fn an_expansions_compile_error_is_its_message() {
        let trees = |source: &str| -> Vec<Tree> {
            let flat = flat::encode(&source.parse().unwrap(), flat::NEWEST, 0);
            flat::decode(&flat, flat::NEWEST).unwrap()
        };
        assert_eq!(
            compile_error(&trees(
                "fn f() {} const _: () = { compile_error!(\"no \\\"x\\\"\"); };"
            )),
            Some("no \"x\"".to_owned())
        );
        assert_eq!(compile_error(&trees("fn compile_error() {}")), None);
    }

    #[test]
    fn extern_crates_in_blocks_become_uses() {
        let mut file: syn::File = syn::parse_str(
            "const _: () = { #[allow(x)] extern crate num_traits as _nt; extern crate alloc; \
             impl _nt::Zero for T {} };",
        )
        .unwrap();
        ExternCratesInBlocks.visit_file_mut(&mut file);
        let out = file.to_token_stream().to_string();
        assert!(
            out.contains("# [allow (x)] use num_traits as _nt ;"),
            "{out}"
        );
        assert!(!out.contains("extern crate"), "{out}");
    }
}
