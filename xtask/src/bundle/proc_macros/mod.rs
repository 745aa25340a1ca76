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
//! The walk is `pass.rs`: a use is found by the names the module imports (`scope.rs`), and
//! once a crate is expanded the imports of its proc-macro crates go (`imports.rs`).
//!
//! Expanding: the macros run in the toolchain's own proc-macro server (`server.rs`), which
//! loads the libraries the judge build compiled; their output comes back as token trees
//! (`flat.rs`) whose hygiene decides how they are written (`hygiene.rs`). Which macro a name
//! means is read from the crate's source: a path through a dependency (`num_derive::
//! FromPrimitive`, `proconio::fastout`, re-exported by proconio from proconio-derive), or a
//! name imported (`use`, a glob, `#[macro_use] extern crate`) from one; the server lists what
//! each library exports. A derive's helper attributes, which the protocol does not carry, go by
//! rustc's own rule: once only std's derives are left on an item, what attribute there is no
//! built-in, no tool's and no macro is a helper (`pass.rs`); beside a derive the walk cannot
//! resolve, only those declared at the proc-macro crate's root (`#[proc_macro_derive(Name,
//! attributes(helper))]`) go. The walk runs without a server too, on an in-process stand-in
//! (`stand_in.rs`), for tests and the `proc_macro` fuzz target.
//!
//! Refused by name, with the reason: a macro that panics or expands to `compile_error!`, an
//! expansion that does not parse, definition-site hygiene, a use inside another macro's tokens
//! (which the bundler does not parse), a missing or mismatched server. In the solution's own
//! crate a refusal stops the bundle. In a library the use is left as it was and the reason is
//! kept: the library's proc-macro crate then stands in as before and, if the solution reaches
//! it, the refusal names this reason ([`ProcMacros::not_expanded`]).

mod flat;
mod hygiene;
mod imports;
mod pass;
mod scope;
mod server;
pub mod stand_in;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use cargo_metadata::TargetKind;
use proc_macro2::TokenStream;
use syn::punctuated::Punctuated;
use syn::{Item, Meta, Token};

use self::flat::Tree;
use self::imports::{forget_imports, root_names, still_named};
pub use self::server::Kind;
use self::server::{Expansion, Globals, Server, Toolchain};
use super::cfg::Cfg;
use super::judge_build::JudgeBuild;

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
    /// Macros expanded by the in-process stand-in ([`stand_in`]), not by a server.
    stand_in: bool,
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
    /// Each derive's helper attributes, as the crate's root declares them (none of those it
    /// declares inside a macro).
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
            stand_in: false,
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
        let failures = pass::run(shared, scope, cfg, file);
        if scope.main {
            if let Some(failure) = failures.into_iter().next() {
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
        let failed: BTreeSet<String> = failures
            .iter()
            .filter_map(|f| f.krate.as_ref().map(|k| k.package.clone()))
            .collect();
        {
            let mut state = shared.lock();
            for failure in &failures {
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

    /// Whether the crate whose root file is `root` can call a proc macro: whether reading it
    /// asks the server anything.
    pub fn can_call(&self, root: &Path) -> bool {
        self.0
            .as_ref()
            .is_some_and(|shared| shared.crates.contains_key(root))
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
        if self.stand_in {
            return Ok(stand_in::exports());
        }
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
        let result = if self.stand_in {
            stand_in::expand(name, body, args)
        } else {
            self.server(&mut state).and_then(|(_, server)| {
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
            })
        };
        state.expansions.insert(key, result.clone());
        result
    }
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

/// An identifier as a name (`r#ref` is `ref`).
fn unraw(ident: &proc_macro2::Ident) -> String {
    super::reach_name(ident)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_derives_helper_attributes_are_read_from_its_crates_root() {
        let dir = std::env::temp_dir().join(format!("xtask-derive-helpers-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let root = dir.join("lib.rs");
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
}
