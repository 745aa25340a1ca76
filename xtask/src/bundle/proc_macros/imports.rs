//! What named the proc-macro crates, removed once their macros are expanded: `use` leaves,
//! globs and `extern crate`s, with what a library's root defines beside a macro it re-exports.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use quote::ToTokens;
use syn::visit_mut::{self, VisitMut};
use syn::{Item, UseTree};

use super::pass::idents;
use super::scope::Scope;
use super::{unraw, CrateScope, MacroCrate, Provider, Shared};

/// The names a library's root file defines or imports, other than from the crates `skip`
/// (its proc-macro dependencies): what `use lib::name;` finds besides a macro.
pub(super) fn root_names(root: &Path, skip: &BTreeSet<String>) -> BTreeSet<String> {
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

/// A name of a proc-macro crate the crate's code still uses as a path after expansion.
pub(super) fn still_named<'a>(file: &syn::File, scope: &'a CrateScope) -> Option<&'a Provider> {
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
pub(super) trait Exports {
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
pub(super) fn forget_imports(
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
    use std::collections::BTreeMap;
    use std::path::PathBuf;
    use std::sync::Arc;

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
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
