//! Reachability: drops the items `main` cannot reach, judged by name. Without type information
//! it errs on the side of keeping: a name used anywhere in a kept item keeps every item of that
//! name, a kept type keeps its trait impls, and imports that may bring a trait into scope stay.

use std::collections::BTreeSet;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{ImplItem, Item, UseTree};

/// Removes unreachable items from `items` (the whole bundle), starting from `fn main`.
pub fn prune(items: &mut Vec<Item>) {
    let traits = local_traits(items);
    let mut state = State {
        live: BTreeSet::from(["main".to_owned()]),
        marked: Vec::new(),
        traits,
        counter: 0,
        changed: false,
    };
    loop {
        state.counter = 0;
        state.changed = false;
        state.walk(items, Mode::Analyse);
        if !state.changed {
            break;
        }
    }
    state.counter = 0;
    state.walk(items, Mode::Prune);
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Analyse,
    Prune,
}

struct State {
    /// Every name a kept item mentions.
    live: BTreeSet<String>,
    /// Per node (in walk order): kept so far.
    marked: Vec<bool>,
    /// Traits defined in the bundle (a use of one may be needed for method calls).
    traits: BTreeSet<String>,
    counter: usize,
    changed: bool,
}

fn local_traits(items: &[Item]) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for item in items {
        match item {
            Item::Trait(t) => {
                found.insert(t.ident.to_string());
            }
            Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    found.extend(local_traits(inner));
                }
            }
            _ => {}
        }
    }
    found
}

fn collect_idents(tokens: TokenStream, out: &mut BTreeSet<String>) {
    for tree in tokens {
        match tree {
            TokenTree::Ident(id) => {
                let name = id.to_string();
                out.insert(name.strip_prefix("r#").map_or(name.clone(), str::to_owned));
            }
            TokenTree::Group(g) => collect_idents(g.stream(), out),
            _ => {}
        }
    }
}

/// Last-segment names of every path in a type (`&'a mut Foo<Bar>` gives `Foo`, `Bar`).
fn type_names(ty: &syn::Type) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    collect_idents(ty.to_token_stream(), &mut names);
    names
}

impl State {
    /// Visits node `id`; when `keep` holds, marks it (adding the names in `tokens` to the live
    /// set). Returns whether the node is kept.
    fn node(&mut self, keep: bool, tokens: impl FnOnce() -> TokenStream) -> bool {
        let id = self.counter;
        self.counter += 1;
        if self.marked.len() <= id {
            self.marked.resize(id + 1, false);
        }
        if self.marked[id] {
            return true;
        }
        if keep {
            self.marked[id] = true;
            self.changed = true;
            let mut names = BTreeSet::new();
            collect_idents(tokens(), &mut names);
            self.live.extend(names);
        }
        keep
    }

    fn is_live(&self, name: &impl ToString) -> bool {
        self.live.contains(&name.to_string())
    }

    fn walk(&mut self, items: &mut Vec<Item>, mode: Mode) {
        let mut keep = Vec::with_capacity(items.len());
        for item in items.iter_mut() {
            keep.push(self.item(item, mode));
        }
        if mode == Mode::Prune {
            let mut flags = keep.into_iter();
            items.retain(|_| flags.next().unwrap_or(true));
        }
    }

    fn item(&mut self, item: &mut Item, mode: Mode) -> bool {
        let whole = item.to_token_stream();
        let named = |s: &Self, id: &syn::Ident| s.is_live(id);
        match item {
            Item::Fn(f) => {
                let k = named(self, &f.sig.ident);
                self.node(k, || whole)
            }
            Item::Struct(s) => {
                let k = named(self, &s.ident);
                self.node(k, || whole)
            }
            Item::Enum(e) => {
                let k = named(self, &e.ident);
                self.node(k, || whole)
            }
            Item::Union(u) => {
                let k = named(self, &u.ident);
                self.node(k, || whole)
            }
            Item::Type(t) => {
                let k = named(self, &t.ident);
                self.node(k, || whole)
            }
            Item::Const(c) => {
                let k = c.ident == "_" || named(self, &c.ident);
                self.node(k, || whole)
            }
            Item::Static(s) => {
                let k = named(self, &s.ident);
                self.node(k, || whole)
            }
            Item::TraitAlias(t) => {
                let k = named(self, &t.ident);
                self.node(k, || whole)
            }
            Item::Trait(t) => {
                // Method calls name the method, not the trait.
                let k = named(self, &t.ident)
                    || t.items.iter().any(|it| match it {
                        syn::TraitItem::Fn(f) => self.is_live(&f.sig.ident),
                        syn::TraitItem::Const(c) => self.is_live(&c.ident),
                        syn::TraitItem::Type(ty) => self.is_live(&ty.ident),
                        _ => false,
                    });
                if k {
                    self.live.insert(t.ident.to_string());
                }
                self.node(k, || whole)
            }
            Item::Macro(m) => {
                // `macro_rules! name` by name; any other item-position macro always.
                let k = match &m.ident {
                    Some(name) => named(self, name),
                    None => true,
                };
                self.node(k, || whole)
            }
            Item::Mod(m) => {
                let name_live = self.is_live(&m.ident);
                let kept = match &mut m.content {
                    Some((_, inner)) => {
                        self.walk(inner, mode);
                        // Imports alone are worth nothing, unless they re-export for a path
                        // that names this module.
                        inner.iter().any(|i| match i {
                            Item::Use(u) => {
                                name_live && !matches!(u.vis, syn::Visibility::Inherited)
                            }
                            _ => true,
                        })
                    }
                    None => true,
                };
                // In Prune mode the module's unreachable items are gone by now.
                mode == Mode::Analyse || kept
            }
            Item::Impl(imp) => self.impl_block(imp, mode),
            Item::Use(u) => {
                let leading = u.leading_colon.is_some();
                self.use_tree(&mut u.tree, Vec::new(), leading, mode)
            }
            // `extern crate`, `extern { ... }`, anything syn does not model: kept.
            _ => self.node(true, || whole),
        }
    }

    fn impl_block(&mut self, imp: &mut syn::ItemImpl, mode: Mode) -> bool {
        let self_live = type_names(&imp.self_ty)
            .iter()
            .any(|n| self.live.contains(n));
        let trait_name = imp
            .trait_
            .as_ref()
            .and_then(|(_, path, _)| path.segments.last())
            .map(|seg| seg.ident.to_string());
        if let Some(trait_name) = trait_name {
            // A trait impl goes with its type, or with a trait of ours that is in use.
            let local_trait_live =
                self.traits.contains(&trait_name) && self.live.contains(&trait_name);
            let k = self_live || local_trait_live;
            let whole = imp.to_token_stream();
            return self.node(k, || whole);
        }
        // Inherent impl: the block's header with its type, each associated item by its name.
        let mut header = TokenStream::new();
        imp.generics.to_tokens(&mut header);
        imp.self_ty.to_tokens(&mut header);
        if let Some(w) = &imp.generics.where_clause {
            w.to_tokens(&mut header);
        }
        let header_kept = self.node(self_live, || header);
        let mut keep = Vec::with_capacity(imp.items.len());
        for it in &imp.items {
            let name = match it {
                ImplItem::Fn(f) => Some(f.sig.ident.to_string()),
                ImplItem::Const(c) => Some(c.ident.to_string()),
                ImplItem::Type(t) => Some(t.ident.to_string()),
                _ => None,
            };
            let k = header_kept && name.is_none_or(|n| self.live.contains(&n));
            let tokens = it.to_token_stream();
            keep.push(self.node(k, || tokens));
        }
        if mode == Mode::Prune {
            let mut flags = keep.into_iter();
            imp.items.retain(|_| flags.next().unwrap_or(true));
            return header_kept && !imp.items.is_empty();
        }
        header_kept
    }

    /// One node per leaf of a `use` tree. `prefix` holds the segments above this subtree.
    /// Returns whether anything under this tree is kept (in Prune mode, the tree is cut down).
    fn use_tree(
        &mut self,
        tree: &mut UseTree,
        prefix: Vec<String>,
        leading: bool,
        mode: Mode,
    ) -> bool {
        let external = |prefix: &[String], first: &str| {
            let root = prefix.first().map_or(first, String::as_str);
            matches!(root, "std" | "core" | "alloc") || (leading && prefix.is_empty())
        };
        match tree {
            UseTree::Path(p) => {
                let mut next = prefix.clone();
                next.push(p.ident.to_string());
                self.use_tree(&mut p.tree, next, leading, mode)
            }
            UseTree::Name(n) => {
                let name = n.ident.to_string();
                let binding = if name == "self" {
                    prefix.last().cloned().unwrap_or_default()
                } else {
                    name.clone()
                };
                let k = self.use_leaf(&binding, external(&prefix, &name));
                self.leaf(k, &prefix, &name)
            }
            UseTree::Rename(r) => {
                let name = r.ident.to_string();
                let binding = r.rename.to_string();
                let k = binding == "_" || self.use_leaf(&binding, external(&prefix, &name));
                self.leaf(k, &prefix, &name)
            }
            UseTree::Glob(_) => self.leaf(true, &prefix, "*"),
            UseTree::Group(g) => {
                let mut keep = Vec::with_capacity(g.items.len());
                for t in g.items.iter_mut() {
                    keep.push(self.use_tree(t, prefix.clone(), leading, mode));
                }
                let any = keep.iter().any(|k| *k);
                if mode == Mode::Prune {
                    let old = std::mem::take(&mut g.items);
                    for (t, k) in old.into_iter().zip(keep) {
                        if k {
                            g.items.push(t);
                        }
                    }
                }
                any
            }
        }
    }

    /// Whether an import binding `name` stays: it is used, or it may be a trait that method
    /// calls need in scope (a trait of ours in use, or any capitalised name from std).
    fn use_leaf(&self, name: &str, external: bool) -> bool {
        if self.live.contains(name) {
            return true;
        }
        if external {
            name.starts_with(|c: char| c.is_ascii_uppercase())
        } else {
            false
        }
    }

    fn leaf(&mut self, keep: bool, prefix: &[String], name: &str) -> bool {
        let mut names: Vec<String> = prefix.to_vec();
        names.push(name.to_owned());
        self.node(keep, || {
            names
                .iter()
                .filter(|n| n.as_str() != "*" && n.as_str() != "self")
                .map(|n| {
                    TokenTree::Ident(proc_macro2::Ident::new(n, proc_macro2::Span::call_site()))
                })
                .collect()
        })
    }
}
