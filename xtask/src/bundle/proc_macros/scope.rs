//! Which names a module of a crate can use for macros: its imports, globs and `#[macro_use]`
//! crates, and the names of the compiler's own attributes and derives, which no macro takes.

use std::collections::{BTreeMap, BTreeSet};

use syn::{Item, UseTree};

use super::unraw;

/// The names a module can use for macros: imports (`name` -> each path it imports, one a
/// namespace: `use num_derive::FromPrimitive;` beside `use num_traits::FromPrimitive;`),
/// globs, and the crates of `#[macro_use] extern crate` at the crate's root.
#[derive(Clone, Default)]
pub(super) struct Scope {
    pub(super) imports: BTreeMap<String, Vec<Vec<String>>>,
    pub(super) globs: Vec<Vec<String>>,
    pub(super) macro_use: BTreeSet<String>,
}

impl Scope {
    pub(super) fn of_items(items: &[Item], root: bool) -> Scope {
        let mut scope = Scope::default();
        scope.add(items, root);
        scope
    }

    pub(super) fn add(&mut self, items: &[Item], root: bool) {
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

    pub(super) fn add_use(&mut self, tree: &UseTree, mut prefix: Vec<String>) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
