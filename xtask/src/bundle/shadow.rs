//! Which names a module binds in the type namespace, where rustc looks up the first segment of
//! a path: an item or an import of a crate's own that is named like a crate it depends on
//! shadows that crate there. rustc takes the local item in expressions and types, and in `use`
//! paths too (rustc 1.63 calls such a `use` path ambiguous, E0659; today's rustc takes the local
//! item; `::dep` names the crate in both). Two things follow for a bundle, where every crate is
//! a module at the root and no crate is in the extern prelude:
//! - a bundled crate's module must not take a name the solution binds at its root (its own
//!   `mod ac_library`, a `struct rand_core`, an import): the plan renames that crate's module
//!   ([`ModuleTree::binds_type`] at the root);
//! - a path through a local name is no path into a crate, and is left as written
//!   ([`super::expand::Rewrite`] asks [`ModuleTree::shadowed`] in each module and block).
//!
//! What a module binds is read from the syntax tree, without types: its items of the type
//! namespace (modules, structs, enums, unions, traits, type aliases); its imports, followed
//! through the crate's own modules (`use self::util::rand;` binds a function, which shadows
//! nothing; `use super::helpers as either;` a module); and its glob imports of its own
//! modules. An import from another crate or std (`use std::num;`) is taken to bind a module or
//! a type, which is what a name spelt like a crate's is; an import of a crate's own namesake
//! (`use either;`, `use memchr::memchr;`) binds that crate or one of its items under its name,
//! which shadows nothing the bundle changes. A glob of another crate or of std is not looked
//! into.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use syn::ext::IdentExt;
use syn::{Item, UseTree};

/// How far an import or a glob is followed through others before it is taken to bind the name
/// (a crate's re-exports rarely go past three).
const FOLLOW_LIMIT: usize = 16;

/// An import as written: `use PATH;` (its last segment the name imported), `use PATH as NAME;`,
/// `use PATH::*;`, `extern crate NAME;`.
#[derive(Debug, Clone)]
struct Import {
    /// Written with a leading `::`, or an `extern crate`: a path from a crate's root.
    from_extern: bool,
    path: Vec<String>,
}

/// What one module, or one block's items, binds as written.
#[derive(Debug, Default)]
struct Scope {
    /// The module this one is in (where `super` goes): none for the crate's root.
    parent: Option<usize>,
    /// A block's items: names it does not bind are looked up in the module around it.
    block: bool,
    /// Its child modules that have a body, by name.
    children: BTreeMap<String, usize>,
    /// Its items of the type namespace.
    types: BTreeSet<String>,
    /// Its imports, by the name each binds.
    imports: BTreeMap<String, Vec<Import>>,
    /// Its glob imports.
    globs: Vec<Import>,
}

impl Scope {
    /// Notes the items' bindings.
    fn read<'a>(&mut self, items: impl IntoIterator<Item = &'a Item>) {
        for item in items {
            let defined = match item {
                Item::Mod(i) => &i.ident,
                Item::Struct(i) => &i.ident,
                Item::Enum(i) => &i.ident,
                Item::Union(i) => &i.ident,
                Item::Trait(i) => &i.ident,
                Item::TraitAlias(i) => &i.ident,
                Item::Type(i) => &i.ident,
                Item::Use(u) => {
                    self.read_use(&u.tree, u.leading_colon.is_some(), &mut Vec::new());
                    continue;
                }
                Item::ExternCrate(e) => {
                    let bound = e.rename.as_ref().map_or(&e.ident, |(_, alias)| alias);
                    let bound = bound.unraw().to_string();
                    if bound != "_" {
                        let import = if e.ident == "self" {
                            Import {
                                from_extern: false,
                                path: vec!["crate".to_string()],
                            }
                        } else {
                            Import {
                                from_extern: true,
                                path: vec![e.ident.unraw().to_string()],
                            }
                        };
                        self.imports.entry(bound).or_default().push(import);
                    }
                    continue;
                }
                _ => continue,
            };
            self.types.insert(defined.unraw().to_string());
        }
    }

    fn read_use(&mut self, tree: &UseTree, from_extern: bool, prefix: &mut Vec<String>) {
        let bind = |this: &mut Scope, bound: String, path: Vec<String>| {
            if bound != "_" {
                let import = Import { from_extern, path };
                this.imports.entry(bound).or_default().push(import);
            }
        };
        match tree {
            UseTree::Path(p) => {
                prefix.push(p.ident.unraw().to_string());
                self.read_use(&p.tree, from_extern, prefix);
                prefix.pop();
            }
            UseTree::Name(n) if n.ident == "self" => {
                if let Some(last) = prefix.last() {
                    bind(self, last.clone(), prefix.clone());
                }
            }
            UseTree::Name(n) => {
                let name = n.ident.unraw().to_string();
                let mut path = prefix.clone();
                path.push(name.clone());
                bind(self, name, path);
            }
            UseTree::Rename(r) => {
                let mut path = prefix.clone();
                if r.ident != "self" {
                    path.push(r.ident.unraw().to_string());
                }
                bind(self, r.rename.unraw().to_string(), path);
            }
            UseTree::Glob(_) => self.globs.push(Import {
                from_extern,
                path: prefix.clone(),
            }),
            UseTree::Group(g) => {
                for tree in &g.items {
                    self.read_use(tree, from_extern, prefix);
                }
            }
        }
    }
}

/// The modules of one crate as written (each `mod` with a body, a module file inlined), with
/// what each binds. Modules declared twice under one name (`#[cfg(unix)] mod imp { ... }`
/// beside `#[cfg(windows)] mod imp { ... }`) are one module binding what both do.
#[derive(Debug)]
pub struct ModuleTree {
    modules: Vec<Scope>,
    /// What [`ModuleTree::binds_type`] answered, and the questions under way (a cycle of
    /// imports or globs adds nothing).
    answers: RefCell<BTreeMap<(usize, String), Option<bool>>>,
}

impl ModuleTree {
    /// The crate's root module.
    pub const ROOT: usize = 0;

    /// The tree of the crate whose root holds `items`.
    pub fn of(items: &[Item]) -> ModuleTree {
        let mut tree = ModuleTree {
            modules: vec![Scope::default()],
            answers: RefCell::default(),
        };
        tree.read(ModuleTree::ROOT, items);
        tree
    }

    fn read(&mut self, module: usize, items: &[Item]) {
        self.modules[module].read(items);
        for item in items {
            let Item::Mod(m) = item else {
                continue;
            };
            let Some((_, inner)) = &m.content else {
                continue;
            };
            let name = m.ident.unraw().to_string();
            let child = match self.modules[module].children.get(&name) {
                Some(&child) => child,
                None => {
                    self.modules.push(Scope {
                        parent: Some(module),
                        ..Scope::default()
                    });
                    let child = self.modules.len() - 1;
                    self.modules[module].children.insert(name, child);
                    child
                }
            };
            self.read(child, inner);
        }
    }

    /// The module `name` declared with a body among `module`'s items.
    pub fn child(&self, module: usize, name: &syn::Ident) -> Option<usize> {
        self.modules[module]
            .children
            .get(&name.unraw().to_string())
            .copied()
    }

    /// Whether `module` binds `name` in the type namespace: a path starting with `name` there
    /// means that, not a crate of the name.
    pub fn binds_type(&self, module: usize, name: &str) -> bool {
        self.module_binds(module, name, 0)
    }

    /// Of the extern names `names`, those a path's first segment cannot mean in `module`: the
    /// module binds them itself.
    pub fn shadowed<'a>(
        &self,
        module: usize,
        names: impl IntoIterator<Item = &'a String>,
    ) -> BTreeSet<String> {
        names
            .into_iter()
            .filter(|name| self.binds_type(module, unraw(name)))
            .cloned()
            .collect()
    }

    /// [`ModuleTree::shadowed`] in `block` (a function's body) of `module`: what the block's
    /// items bind, and what the module binds, which a block sees too. A block in a module
    /// declared in a block (`module` none) sees only its own items.
    pub fn shadowed_in_block<'a>(
        &self,
        block: &syn::Block,
        module: Option<usize>,
        names: impl IntoIterator<Item = &'a String>,
    ) -> BTreeSet<String> {
        let mut scope = Scope {
            block: true,
            ..Scope::default()
        };
        scope.read(block_items(block));
        self.scope_shadows(&scope, module, names)
    }

    /// [`ModuleTree::shadowed`] in a module declared in a block, which is not in the tree:
    /// what its items bind, its `self` and `super` not followed.
    pub fn shadowed_in_module_of_block<'a>(
        &self,
        items: &[Item],
        names: impl IntoIterator<Item = &'a String>,
    ) -> BTreeSet<String> {
        let mut scope = Scope::default();
        scope.read(items);
        self.scope_shadows(&scope, None, names)
    }

    fn scope_shadows<'a>(
        &self,
        scope: &Scope,
        at: Option<usize>,
        names: impl IntoIterator<Item = &'a String>,
    ) -> BTreeSet<String> {
        names
            .into_iter()
            .filter(|name| self.scope_binds(scope, at, unraw(name), 0))
            .cloned()
            .collect()
    }

    /// [`ModuleTree::binds_type`], `depth` imports and globs deep.
    fn module_binds(&self, module: usize, name: &str, depth: usize) -> bool {
        let key = (module, name.to_string());
        if let Some(known) = self.answers.borrow().get(&key) {
            // Under way: a cycle, which adds nothing.
            return known.unwrap_or(false);
        }
        self.answers.borrow_mut().insert(key.clone(), None);
        let binds = self.scope_binds(&self.modules[module], Some(module), name, depth);
        self.answers.borrow_mut().insert(key, Some(binds));
        binds
    }

    /// Whether `scope` (the module `at`, or a block in it) binds `name` in the type namespace.
    fn scope_binds(&self, scope: &Scope, at: Option<usize>, name: &str, depth: usize) -> bool {
        if depth > FOLLOW_LIMIT {
            return true;
        }
        if scope.types.contains(name) {
            return true;
        }
        let imports = scope.imports.get(name).into_iter().flatten();
        if imports
            .into_iter()
            .any(|import| self.import_binds(scope, at, import, name, depth))
        {
            return true;
        }
        let through_glob = scope.globs.iter().any(|glob| {
            !glob.from_extern
                && self
                    .local_module(scope, at, &glob.path, depth)
                    .is_some_and(|m| self.module_binds(m, name, depth + 1))
        });
        // A block sees the names of the module around it.
        through_glob || (scope.block && at.is_some_and(|m| self.module_binds(m, name, depth + 1)))
    }

    /// Whether `import`, in `scope`, binds `name` in the type namespace.
    fn import_binds(
        &self,
        scope: &Scope,
        at: Option<usize>,
        import: &Import,
        name: &str,
        depth: usize,
    ) -> bool {
        let Some(first) = import.path.first() else {
            return false;
        };
        let local = !import.from_extern
            && (matches!(first.as_str(), "crate" | "self" | "super")
                || (first != name && self.scope_binds(scope, at, first, depth + 1)));
        if !local {
            // Another crate's item or std's: a module or a type, spelt as it is like a crate.
            // The crate itself, or its namesake item: nothing the bundle changes.
            return first != name;
        }
        let (last, module_part) = match import.path.split_last() {
            Some((last, rest)) if !matches!(last.as_str(), "crate" | "self" | "super") => {
                (last, rest)
            }
            // `use super as name;`: a module.
            _ => return true,
        };
        match self.local_module(scope, at, module_part, depth) {
            Some(module) => self.module_binds(module, last, depth + 1),
            // Through what is not followed (an enum, a module declared in a block): as written,
            // a name of the crate's own.
            None => true,
        }
    }

    /// The module of the crate's own that `path`, written in `scope`, leads to.
    fn local_module(
        &self,
        scope: &Scope,
        at: Option<usize>,
        path: &[String],
        depth: usize,
    ) -> Option<usize> {
        let mut current: Option<usize> = at;
        for (k, segment) in path.iter().enumerate() {
            current = match segment.as_str() {
                "crate" if k == 0 => Some(ModuleTree::ROOT),
                "self" if k == 0 => at,
                "super" => self.modules[current?].parent,
                name if k == 0 => self.first_module(scope, at, name, depth),
                name => self.child_module(current?, name, depth),
            };
            current?;
        }
        current
    }

    /// The module a path's first segment `name` means in `scope`.
    fn first_module(
        &self,
        scope: &Scope,
        at: Option<usize>,
        name: &str,
        depth: usize,
    ) -> Option<usize> {
        if let Some(&child) = scope.children.get(name) {
            return Some(child);
        }
        if let Some(imports) = scope.imports.get(name) {
            return imports
                .iter()
                .filter(|import| !import.from_extern)
                .find_map(|import| self.local_module(scope, at, &import.path, depth + 1));
        }
        if scope.block && !scope.types.contains(name) {
            return self.child_module(at?, name, depth);
        }
        None
    }

    /// The module `name` means inside `module`: a child, or one it imports.
    fn child_module(&self, module: usize, name: &str, depth: usize) -> Option<usize> {
        if depth > FOLLOW_LIMIT {
            return None;
        }
        let scope = &self.modules[module];
        if let Some(&child) = scope.children.get(name) {
            return Some(child);
        }
        scope
            .imports
            .get(name)?
            .iter()
            .filter(|import| !import.from_extern)
            .find_map(|import| self.local_module(scope, Some(module), &import.path, depth + 1))
    }
}

/// The items among `block`'s statements: what it declares (functions, modules, `use`s).
pub fn block_items(block: &syn::Block) -> impl Iterator<Item = &Item> {
    block.stmts.iter().filter_map(|stmt| match stmt {
        syn::Stmt::Item(item) => Some(item),
        _ => None,
    })
}

/// An extern name as the tree keeps names (`r#type` is `type`).
fn unraw(name: &str) -> &str {
    name.strip_prefix("r#").unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(file: syn::File) -> ModuleTree {
        ModuleTree::of(&file.items)
    }

    #[test]
    fn items_of_the_type_namespace_shadow_a_crate_and_functions_do_not() {
        let tree = tree(syn::parse_quote! {
            mod ac_library { pub fn answer() {} }
            struct rand_core;
            fn rand() {}
            const num: u8 = 0;
            trait itertools {}
        });
        for name in ["ac_library", "rand_core", "itertools"] {
            assert!(tree.binds_type(ModuleTree::ROOT, name), "{name}");
        }
        for name in ["rand", "num", "either"] {
            assert!(!tree.binds_type(ModuleTree::ROOT, name), "{name}");
        }
    }

    #[test]
    fn imports_are_followed_through_the_crates_own_modules() {
        let tree = tree(syn::parse_quote! {
            mod util {
                pub fn rand() {}
                pub mod either { pub fn left() {} }
                pub use self::either as num;
            }
            use util::rand;
            use self::util::either;
            use crate::util::num;
            mod inner {
                use super::util::{self as itertools};
                use super::*;
            }
        });
        let root = ModuleTree::ROOT;
        assert!(!tree.binds_type(root, "rand"), "a function");
        assert!(tree.binds_type(root, "either"), "a module");
        assert!(
            tree.binds_type(root, "num"),
            "a module re-exported under another name"
        );
        let inner = tree.child(root, &syn::parse_quote!(inner)).unwrap();
        assert!(tree.binds_type(inner, "itertools"), "`self` in a group");
        assert!(
            tree.binds_type(inner, "either"),
            "a glob of the module above"
        );
        assert!(!tree.binds_type(inner, "rand"), "a function through a glob");
    }

    #[test]
    fn a_crates_own_namesake_shadows_nothing_and_other_crates_items_do() {
        let tree = tree(syn::parse_quote! {
            extern crate either;
            extern crate itertools as it;
            use memchr::memchr;
            use rand;
            use ::petgraph::graph;
            use std::num;
            use proconio::*;
        });
        let root = ModuleTree::ROOT;
        for name in ["either", "memchr", "rand", "itertools", "marker"] {
            assert!(!tree.binds_type(root, name), "{name}");
        }
        for name in ["it", "graph", "num"] {
            assert!(tree.binds_type(root, name), "{name}");
        }
    }

    #[test]
    fn a_cycle_of_imports_ends() {
        let tree = tree(syn::parse_quote! {
            mod a { pub use super::b::*; pub use super::b::x as y; }
            mod b { pub use super::a::*; pub use super::a::y as x; }
        });
        let a = tree.child(ModuleTree::ROOT, &syn::parse_quote!(a)).unwrap();
        assert!(!tree.binds_type(a, "rand"));
        assert!(
            !tree.binds_type(a, "y"),
            "a cycle binds nothing (rustc refuses it)"
        );
    }

    #[test]
    fn a_blocks_items_shadow_within_it() {
        let tree = tree(syn::parse_quote! {
            mod util { pub fn rand() {} }
        });
        let block: syn::Block = syn::parse_quote!({
            mod either {}
            use std::num;
            use util::rand;
        });
        let names: Vec<String> = ["either", "rand", "num", "itertools"]
            .map(String::from)
            .into();
        let shadowed = tree.shadowed_in_block(&block, Some(ModuleTree::ROOT), &names);
        assert_eq!(
            shadowed,
            ["either", "num"].map(String::from).into_iter().collect()
        );
    }
}
