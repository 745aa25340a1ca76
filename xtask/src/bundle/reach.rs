//! Reachability: drops every item `main` cannot reach, with paths resolved module by module.
//!
//! Each item, `use` leaf, inherent-impl member and item-position macro call is a node. A live
//! node's tokens are scanned for paths (`a::b::c`, generic arguments skipped) and member names
//! (after `.`, or a path's tail past a type); each path is resolved from the node's module as
//! rustc would in the main (defining items, child modules, `use` imports, glob imports,
//! `crate`/`self`/`super`), marking what it passes through live, re-exports included. Without
//! type information some rules keep more than needed, never less:
//! - an inherent impl member stays when its type is live and its name is used as a member
//!   anywhere live; a trait impl stays whole when its type is live and its trait is live or
//!   foreign (`Add`, `Display`); an impl for a type parameter goes with its trait;
//! - a trait stays when named or when one of its items' names is used as a member;
//! - an item-position macro call stays when its tokens or its macro's body name a live item;
//! - a `use` of a live trait stays even when unnamed (method calls need it in scope), as do
//!   capitalised imports from std (they may be traits).
//!
//! A name that resolves to nothing here (a local variable, std, a primitive) is simply not
//! followed: only items of the bundle can be dropped.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{ImplItem, Item, UseTree};

/// Removes unreachable items from `items` (the whole bundle), starting from `fn main`.
pub fn prune(items: &mut Vec<Item>) {
    let mut graph = Graph::default();
    let root = graph.add_module(None, "crate");
    graph.collect(items, root);
    graph.index_impls();
    let live = graph.reach();
    let mut next = 0;
    prune_items(items, &live, &mut next);
}

type NodeId = usize;
type ModId = usize;

/// Where a name can lead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Target {
    Node(NodeId),
    Module(ModId),
}

#[derive(Debug, Default)]
struct Module {
    parent: Option<ModId>,
    /// The `mod` item's node (none for the root).
    node: Option<NodeId>,
    children: BTreeMap<String, ModId>,
    /// Items defined here, by name (types, functions, macros, ...: every namespace).
    defs: BTreeMap<String, Vec<NodeId>>,
    /// `use` leaves binding a name here.
    imports: BTreeMap<String, Vec<NodeId>>,
    /// `use path::*` leaves.
    globs: Vec<NodeId>,
}

#[derive(Debug)]
enum Kind {
    /// A named item (fn, struct, enum, trait, const, static, type, macro_rules, ...).
    Item { trait_members: Vec<String> },
    /// A `mod` with content.
    Mod,
    /// One leaf of a `use` tree: the full path, `*` last for a glob.
    Use { path: Vec<String> },
    /// An `impl` block's header (generics, trait, self type); its members are nodes of their
    /// own for an inherent impl.
    Impl {
        /// Names in the self type (`Foo<Bar>` gives both).
        self_names: Vec<String>,
        /// The trait's path, for a trait impl.
        trait_path: Option<Vec<String>>,
    },
    /// A member of an inherent impl (an empty name for a macro call among them).
    Member { owner: NodeId, name: String },
    /// An item-position macro call (`impl_ops!(...)`).
    MacroCall { name: String },
    /// Anything else (`extern crate`, `const _`, foreign blocks): always kept.
    Keep,
}

#[derive(Debug)]
struct Node {
    module: ModId,
    kind: Kind,
    tokens: TokenStream,
}

#[derive(Debug, Default)]
struct Graph {
    modules: Vec<Module>,
    nodes: Vec<Node>,
    /// Macro definitions by name, anywhere (macro_rules scope is textual; any of the name will
    /// do for keeping).
    macros: BTreeMap<String, Vec<NodeId>>,
    /// The impls of each trait of the bundle (filled once everything is collected).
    impls_of: BTreeMap<NodeId, Vec<NodeId>>,
}

impl Graph {
    fn add_module(&mut self, parent: Option<ModId>, name: &str) -> ModId {
        let id = self.modules.len();
        self.modules.push(Module {
            parent,
            ..Module::default()
        });
        if let Some(parent) = parent {
            self.modules[parent].children.insert(name.to_owned(), id);
        }
        id
    }

    fn add_node(&mut self, module: ModId, kind: Kind, tokens: TokenStream) -> NodeId {
        self.nodes.push(Node {
            module,
            kind,
            tokens,
        });
        self.nodes.len() - 1
    }

    fn define(&mut self, module: ModId, name: String, node: NodeId) {
        self.modules[module]
            .defs
            .entry(name)
            .or_default()
            .push(node);
    }

    /// Creates nodes in walk order (the order [`prune_items`] walks again).
    fn collect(&mut self, items: &[Item], module: ModId) {
        for item in items {
            self.collect_item(item, module);
        }
    }

    fn collect_item(&mut self, item: &Item, module: ModId) {
        let tokens = item.to_token_stream();
        let named = |name: &syn::Ident| Some(unraw(name));
        let name = match item {
            Item::Fn(f) => named(&f.sig.ident),
            Item::Struct(s) => named(&s.ident),
            Item::Enum(e) => named(&e.ident),
            Item::Union(u) => named(&u.ident),
            Item::Type(t) => named(&t.ident),
            Item::Const(c) if c.ident != "_" => named(&c.ident),
            Item::Static(s) => named(&s.ident),
            Item::TraitAlias(t) => named(&t.ident),
            Item::Trait(t) => named(&t.ident),
            Item::Macro(m) => m.ident.as_ref().and_then(named),
            _ => None,
        };
        match item {
            Item::Mod(m) => {
                let node = self.add_node(module, Kind::Mod, TokenStream::new());
                let child = self.add_module(Some(module), &unraw(&m.ident));
                self.modules[child].node = Some(node);
                if let Some((_, inner)) = &m.content {
                    self.collect(inner, child);
                }
            }
            Item::Use(u) => {
                let mut prefix = Vec::new();
                if u.leading_colon.is_some() {
                    prefix.push("::".to_owned());
                }
                self.collect_use(&u.tree, prefix, module);
            }
            Item::Impl(imp) => self.collect_impl(imp, module),
            Item::Macro(m) if m.ident.is_none() => {
                let name = m
                    .mac
                    .path
                    .segments
                    .last()
                    .map(|s| unraw(&s.ident))
                    .unwrap_or_default();
                self.add_node(module, Kind::MacroCall { name }, tokens);
            }
            _ => match name {
                Some(name) => {
                    let trait_members = match item {
                        Item::Trait(t) => t
                            .items
                            .iter()
                            .filter_map(|it| match it {
                                syn::TraitItem::Fn(f) => Some(unraw(&f.sig.ident)),
                                syn::TraitItem::Const(c) => Some(unraw(&c.ident)),
                                syn::TraitItem::Type(t) => Some(unraw(&t.ident)),
                                _ => None,
                            })
                            .collect(),
                        _ => Vec::new(),
                    };
                    let node = self.add_node(module, Kind::Item { trait_members }, tokens);
                    if matches!(item, Item::Macro(_)) {
                        self.macros.entry(name.clone()).or_default().push(node);
                    }
                    self.define(module, name, node);
                }
                None => {
                    self.add_node(module, Kind::Keep, tokens);
                }
            },
        }
    }

    fn collect_use(&mut self, tree: &UseTree, prefix: Vec<String>, module: ModId) {
        match tree {
            UseTree::Path(p) => {
                let mut next = prefix;
                next.push(unraw(&p.ident));
                self.collect_use(&p.tree, next, module);
            }
            UseTree::Name(n) => {
                let name = unraw(&n.ident);
                let binding = if name == "self" {
                    prefix.last().cloned().unwrap_or_default()
                } else {
                    name.clone()
                };
                let mut path = prefix;
                if name != "self" {
                    path.push(name);
                }
                self.use_leaf(module, path, Some(binding));
            }
            UseTree::Rename(r) => {
                let mut path = prefix;
                let name = unraw(&r.ident);
                if name != "self" {
                    path.push(name);
                }
                let binding = unraw(&r.rename);
                self.use_leaf(module, path, (binding != "_").then_some(binding));
            }
            UseTree::Glob(_) => {
                let mut path = prefix;
                path.push("*".to_owned());
                self.use_leaf(module, path, None);
            }
            UseTree::Group(g) => {
                for t in &g.items {
                    self.collect_use(t, prefix.clone(), module);
                }
            }
        }
    }

    fn use_leaf(&mut self, module: ModId, path: Vec<String>, binding: Option<String>) {
        let glob = path.last().is_some_and(|s| s == "*");
        let node = self.add_node(module, Kind::Use { path }, TokenStream::new());
        if glob {
            self.modules[module].globs.push(node);
        } else if let Some(binding) = binding {
            self.modules[module]
                .imports
                .entry(binding)
                .or_default()
                .push(node);
        }
    }

    fn collect_impl(&mut self, imp: &syn::ItemImpl, module: ModId) {
        let mut self_names = BTreeSet::new();
        idents(imp.self_ty.to_token_stream(), &mut self_names);
        let trait_path = imp.trait_.as_ref().map(|(_, path, _)| {
            path.segments
                .iter()
                .map(|s| unraw(&s.ident))
                .collect::<Vec<_>>()
        });
        let inherent = trait_path.is_none();
        let tokens = if inherent {
            let mut header = TokenStream::new();
            imp.generics.to_tokens(&mut header);
            imp.self_ty.to_tokens(&mut header);
            if let Some(w) = &imp.generics.where_clause {
                w.to_tokens(&mut header);
            }
            header
        } else {
            imp.to_token_stream()
        };
        let owner = self.add_node(
            module,
            Kind::Impl {
                self_names: self_names.into_iter().collect(),
                trait_path,
            },
            tokens,
        );
        if inherent {
            for it in &imp.items {
                let name = match it {
                    ImplItem::Fn(f) => Some(unraw(&f.sig.ident)),
                    ImplItem::Const(c) => Some(unraw(&c.ident)),
                    ImplItem::Type(t) => Some(unraw(&t.ident)),
                    _ => None,
                };
                // A macro call in an impl block has no name: it goes with its impl.
                let name = name.unwrap_or_default();
                self.add_node(module, Kind::Member { owner, name }, it.to_token_stream());
            }
        }
    }
}

impl Graph {
    /// Notes which impls implement which of the bundle's traits.
    fn index_impls(&mut self) {
        let mut impls_of: BTreeMap<NodeId, Vec<NodeId>> = BTreeMap::new();
        for (id, node) in self.nodes.iter().enumerate() {
            if let Kind::Impl {
                trait_path: Some(path),
                ..
            } = &node.kind
            {
                for target in self.resolve_quietly(node.module, path) {
                    if let Target::Node(t) = target {
                        impls_of.entry(t).or_default().push(id);
                    }
                }
            }
        }
        self.impls_of = impls_of;
    }
}

// ---------------------------------------------------------------------------------------------
// Resolution and the fixpoint.

#[derive(Debug, Default)]
struct Reach {
    live: Vec<bool>,
    /// Live nodes whose references are still to follow.
    todo: Vec<NodeId>,
    /// Every name used as a member (method, field, associated item) by live code.
    members: BTreeSet<String>,
}

impl Reach {
    fn mark(&mut self, node: NodeId) {
        if !self.live[node] {
            self.live[node] = true;
            self.todo.push(node);
        }
    }
}

impl Graph {
    fn reach(&self) -> Vec<bool> {
        let mut reach = Reach {
            live: vec![false; self.nodes.len()],
            ..Reach::default()
        };
        for (id, node) in self.nodes.iter().enumerate() {
            if matches!(node.kind, Kind::Keep) {
                reach.mark(id);
            }
        }
        for &main in self.modules[0].defs.get("main").into_iter().flatten() {
            reach.mark(main);
        }
        loop {
            while let Some(node) = reach.todo.pop() {
                self.follow(node, &mut reach);
            }
            // Rules that depend on what is live so far; repeat until nothing changes.
            let before = reach.live.iter().filter(|l| **l).count();
            for id in 0..self.nodes.len() {
                if !reach.live[id] && self.kept_by_rules(id, &reach) {
                    reach.mark(id);
                }
            }
            if reach.todo.is_empty() && before == reach.live.iter().filter(|l| **l).count() {
                return reach.live;
            }
        }
    }

    /// Marks what a live node's tokens lead to.
    fn follow(&self, id: NodeId, reach: &mut Reach) {
        let node = &self.nodes[id];
        let module = node.module;
        if let Kind::Use { path, .. } = &node.kind {
            if path.last().is_some_and(|s| s == "*") {
                let prefix = &path[..path.len() - 1];
                for target in self.resolve_path(module, prefix, reach) {
                    self.mark_target(target, reach);
                }
            } else {
                for target in self.resolve_path(module, path, reach) {
                    self.mark_target(target, reach);
                }
            }
            return;
        }
        if let Kind::Mod = node.kind {
            return;
        }
        if let Kind::Member { owner, .. } = node.kind {
            reach.mark(owner);
        }
        if let Kind::MacroCall { name } = &node.kind {
            for &definition in self.macros.get(name).into_iter().flatten() {
                reach.mark(definition);
            }
        }
        let mut scan = Scan::default();
        scan.tokens(node.tokens.clone());
        reach.members.extend(scan.members);
        for path in scan.paths {
            for target in self.resolve_path(module, &path, reach) {
                self.mark_target(target, reach);
            }
        }
        // A `macro_rules!` macro is called by its name alone (textual scope).
        for name in scan.macros {
            for &definition in self.macros.get(&name).into_iter().flatten() {
                reach.mark(definition);
            }
        }
        // The module holding a live node stays, and so do the modules above it.
        let mut module = Some(module);
        while let Some(m) = module {
            if let Some(node) = self.modules[m].node {
                reach.mark(node);
            }
            module = self.modules[m].parent;
        }
    }

    fn mark_target(&self, target: Target, reach: &mut Reach) {
        match target {
            Target::Node(node) => reach.mark(node),
            Target::Module(module) => {
                if let Some(node) = self.modules[module].node {
                    reach.mark(node);
                }
            }
        }
    }

    /// The rules that keep a node without a path naming it (see the module docs).
    fn kept_by_rules(&self, id: NodeId, reach: &Reach) -> bool {
        let node = &self.nodes[id];
        match &node.kind {
            // A trait whose method is called on a live type that implements it (or on anything,
            // through a blanket impl whose bounds are live).
            Kind::Item { trait_members } => {
                trait_members.iter().any(|m| reach.members.contains(m))
                    && self.impls_of.get(&id).into_iter().flatten().any(|&imp| {
                        let Kind::Impl { self_names, .. } = &self.nodes[imp].kind else {
                            return false;
                        };
                        let module = self.nodes[imp].module;
                        let mut targets = Vec::new();
                        for name in self_names {
                            targets.extend(self.lookup(module, name, &mut Vec::new()));
                        }
                        if targets.is_empty() {
                            let mut scan = Scan::default();
                            scan.tokens(self.nodes[imp].tokens.clone());
                            scan.paths.iter().any(|p| {
                                self.resolve_quietly(module, p)
                                    .iter()
                                    .any(|t| *t != Target::Node(id) && self.target_live(*t, reach))
                            })
                        } else {
                            targets.iter().any(|t| self.target_live(*t, reach))
                        }
                    })
            }
            Kind::Member { owner, name } => {
                reach.live[*owner] && (name.is_empty() || reach.members.contains(name))
            }
            Kind::Impl {
                self_names,
                trait_path,
            } => {
                let mut self_targets = Vec::new();
                for name in self_names {
                    self_targets.extend(self.lookup(node.module, name, &mut Vec::new()));
                }
                let self_live = self_targets.iter().any(|t| self.target_live(*t, reach));
                match trait_path {
                    None => self_live,
                    Some(path) => {
                        let traits = self.resolve_quietly(node.module, path);
                        let trait_live = traits.iter().any(|t| self.target_live(*t, reach));
                        let foreign = traits.is_empty();
                        let generic_self = self_targets.is_empty();
                        (self_live && (trait_live || foreign)) || (generic_self && trait_live)
                    }
                }
            }
            Kind::MacroCall { name } => {
                let mut scan = Scan::default();
                scan.tokens(node.tokens.clone());
                for &definition in self.macros.get(name).into_iter().flatten() {
                    scan.tokens(self.nodes[definition].tokens.clone());
                }
                scan.paths.iter().any(|path| {
                    self.resolve_quietly(node.module, path)
                        .iter()
                        .any(|t| matches!(t, Target::Node(n) if reach.live[*n] && self.is_type_or_trait(*n)))
                })
            }
            Kind::Use { path, .. } => {
                // A live trait imported for its methods, or what may be a trait from std.
                let module_live = self.modules[node.module].node.is_none_or(|m| reach.live[m]);
                if !module_live || path.last().is_some_and(|s| s == "*") {
                    return false;
                }
                let external = matches!(
                    path.first().map(String::as_str),
                    Some("std" | "core" | "alloc" | "::")
                );
                if external {
                    return path
                        .last()
                        .is_some_and(|s| s.starts_with(|c: char| c.is_ascii_uppercase()));
                }
                self.resolve_quietly(node.module, path)
                    .iter()
                    .any(|t| matches!(t, Target::Node(n) if reach.live[*n] && self.is_trait(*n)))
            }
            _ => false,
        }
    }

    fn target_live(&self, target: Target, reach: &Reach) -> bool {
        match target {
            Target::Node(n) => reach.live[n],
            Target::Module(m) => self.modules[m].node.is_some_and(|n| reach.live[n]),
        }
    }

    fn is_trait(&self, node: NodeId) -> bool {
        matches!(&self.nodes[node].kind, Kind::Item { .. })
            && first_keyword(&self.nodes[node].tokens) == Some("trait")
    }

    fn is_type_or_trait(&self, node: NodeId) -> bool {
        matches!(&self.nodes[node].kind, Kind::Item { .. })
            && matches!(
                first_keyword(&self.nodes[node].tokens),
                Some("struct" | "enum" | "union" | "trait" | "type")
            )
    }

    /// Resolves without marking anything (for the rules' questions).
    fn resolve_quietly(&self, module: ModId, path: &[String]) -> Vec<Target> {
        let mut reach = Reach {
            live: vec![true; self.nodes.len()],
            ..Reach::default()
        };
        self.resolve_path(module, path, &mut reach)
    }

    /// Where a path that starts with `first` starts from, when `first` is no name to look up:
    /// `crate`, `self`, `super`, or `::` (an extern crate: nothing of the bundle's).
    fn path_root(&self, module: ModId, first: &str) -> Option<Vec<Target>> {
        Some(match first {
            "::" => Vec::new(),
            "crate" => vec![Target::Module(0)],
            "self" => vec![Target::Module(module)],
            "super" => self.modules[module]
                .parent
                .map(Target::Module)
                .into_iter()
                .collect(),
            _ => return None,
        })
    }

    /// Resolves `path` as written in `module`; marks the imports it goes through. A path past
    /// a type (`Type::new`) notes the rest as member names.
    fn resolve_path(&self, module: ModId, path: &[String], reach: &mut Reach) -> Vec<Target> {
        let Some(first) = path.first() else {
            return Vec::new();
        };
        let mut current: Vec<Target> = match self.path_root(module, first) {
            Some(root) => root,
            None if first == "Self" => Vec::new(),
            None => {
                let mut seen = Vec::new();
                let found = self.lookup(module, first, &mut seen);
                for used in seen {
                    reach.mark(used);
                }
                found
            }
        };
        if current.is_empty() {
            // `T::identity()` on a type parameter, `Self::new`, `Vec::new`: what follows may
            // be an associated item of one of ours.
            reach.members.extend(path[1..].iter().cloned());
            return current;
        }
        for (k, segment) in path.iter().enumerate().skip(1) {
            let mut next = Vec::new();
            for target in &current {
                match *target {
                    Target::Module(m) => {
                        let segment = match segment.as_str() {
                            "super" => {
                                next.extend(self.modules[m].parent.map(Target::Module));
                                continue;
                            }
                            "self" => {
                                next.push(*target);
                                continue;
                            }
                            other => other,
                        };
                        let mut seen = Vec::new();
                        next.extend(self.lookup(m, segment, &mut seen));
                        for used in seen {
                            reach.mark(used);
                        }
                    }
                    Target::Node(_) => {
                        // Past a type or a trait: an associated item or a variant.
                        reach.members.extend(path[k..].iter().cloned());
                    }
                }
            }
            if next.is_empty() {
                return current
                    .into_iter()
                    .filter(|t| matches!(t, Target::Node(_)))
                    .collect();
            }
            current = next;
        }
        current
    }

    /// What `name` means in `module`: items defined there, child modules, imports (whose
    /// leaves go into `seen`, to be kept) and glob imports.
    fn lookup(&self, module: ModId, name: &str, seen: &mut Vec<NodeId>) -> Vec<Target> {
        let mut found = Vec::new();
        self.lookup_into(module, name, seen, &mut found, &mut BTreeSet::new());
        found.sort();
        found.dedup();
        found
    }

    fn lookup_into(
        &self,
        module: ModId,
        name: &str,
        seen: &mut Vec<NodeId>,
        found: &mut Vec<Target>,
        visited: &mut BTreeSet<(ModId, String)>,
    ) {
        if !visited.insert((module, name.to_owned())) {
            return;
        }
        let here = &self.modules[module];
        found.extend(
            here.defs
                .get(name)
                .into_iter()
                .flatten()
                .map(|&n| Target::Node(n)),
        );
        found.extend(here.children.get(name).map(|&m| Target::Module(m)));
        for &leaf in here.imports.get(name).into_iter().flatten() {
            if let Kind::Use { path, .. } = &self.nodes[leaf].kind {
                seen.push(leaf);
                found.extend(self.resolve_use(module, path, seen, visited));
            }
        }
        for &glob in &here.globs {
            if let Kind::Use { path, .. } = &self.nodes[glob].kind {
                let prefix = &path[..path.len() - 1];
                let mut inner = Vec::new();
                for target in self.resolve_use(module, prefix, seen, visited) {
                    match target {
                        Target::Module(m) => self.lookup_into(m, name, seen, &mut inner, visited),
                        // `use Enum::*`: the variants come with the enum.
                        Target::Node(n) => inner.push(Target::Node(n)),
                    }
                }
                if !inner.is_empty() {
                    seen.push(glob);
                    found.extend(inner);
                }
            }
        }
    }

    /// Resolves the path of a `use` leaf written in `module`.
    fn resolve_use(
        &self,
        module: ModId,
        path: &[String],
        seen: &mut Vec<NodeId>,
        visited: &mut BTreeSet<(ModId, String)>,
    ) -> Vec<Target> {
        let Some(first) = path.first() else {
            return vec![Target::Module(module)];
        };
        let mut current = match self.path_root(module, first) {
            Some(root) => root,
            None => {
                let mut found = Vec::new();
                self.lookup_into(module, first, seen, &mut found, visited);
                found
            }
        };
        for segment in &path[1..] {
            let mut next = Vec::new();
            for target in &current {
                match (*target, segment.as_str()) {
                    (Target::Module(m), "super") => {
                        next.extend(self.modules[m].parent.map(Target::Module))
                    }
                    (Target::Module(_), "self") => next.push(*target),
                    (Target::Module(m), segment) => {
                        self.lookup_into(m, segment, seen, &mut next, visited)
                    }
                    // `use Enum::Variant` or `use Type::method`-like: the item itself.
                    (Target::Node(n), _) => next.push(Target::Node(n)),
                }
            }
            current = next;
        }
        current
    }
}

/// The first keyword of an item's tokens (past attributes and visibility).
fn first_keyword(tokens: &TokenStream) -> Option<&'static str> {
    const KINDS: [&str; 10] = [
        "struct",
        "enum",
        "union",
        "trait",
        "type",
        "fn",
        "const",
        "static",
        "mod",
        "macro_rules",
    ];
    for tree in tokens.clone() {
        if let TokenTree::Ident(id) = tree {
            let name = id.to_string();
            if let Some(kind) = KINDS.iter().find(|k| **k == name) {
                return Some(kind);
            }
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Scanning tokens for paths and member names.

/// Words that are never the start of a path to an item.
const KEYWORDS: &[&str] = &[
    "as",
    "async",
    "await",
    "break",
    "const",
    "continue",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "static",
    "struct",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "macro_rules",
];

#[derive(Debug, Default)]
struct Scan {
    paths: Vec<Vec<String>>,
    members: BTreeSet<String>,
    /// Names called as macros (`name!`).
    macros: BTreeSet<String>,
}

impl Scan {
    fn tokens(&mut self, tokens: TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let punct = |k: usize, c: char| matches!(trees.get(k), Some(TokenTree::Punct(p)) if p.as_char() == c);
        let sep = |k: usize| punct(k, ':') && punct(k + 1, ':');
        let mut i = 0;
        while i < trees.len() {
            match &trees[i] {
                TokenTree::Group(g) => {
                    self.tokens(g.stream());
                    i += 1;
                }
                TokenTree::Ident(id) => {
                    let name = unraw(id);
                    let after_dot = i >= 1 && punct(i - 1, '.');
                    let continues = i >= 2 && sep(i - 2);
                    if after_dot {
                        self.members.insert(name);
                        i += 1;
                        continue;
                    }
                    if continues {
                        // Past `>::` (`<T as Trait>::f`, `Vec::<T>::new`): an associated name.
                        self.members.insert(name);
                        i += 1;
                        continue;
                    }
                    if KEYWORDS.contains(&name.as_str()) {
                        i += 1;
                        continue;
                    }
                    // `name!(...)`, not `name != x`.
                    if punct(i + 1, '!') && !punct(i + 2, '=') {
                        self.macros.insert(name.clone());
                    }
                    let mut path = Vec::new();
                    if i >= 1 && punct(i - 1, '$') && name == "crate" {
                        path.push("crate".to_owned());
                    } else if i >= 2 && sep(i - 2) {
                        path.push("::".to_owned());
                        path.push(name);
                    } else {
                        path.push(name);
                    }
                    i += 1;
                    // `a::b::c`, skipping `::<...>` generic arguments (scanned on their own).
                    loop {
                        if !sep(i) {
                            break;
                        }
                        if punct(i + 2, '<') {
                            let mut depth = 0;
                            let mut j = i + 2;
                            while j < trees.len() {
                                if punct(j, '<') {
                                    depth += 1;
                                } else if punct(j, '>') {
                                    depth -= 1;
                                    if depth == 0 {
                                        break;
                                    }
                                } else if let TokenTree::Group(g) = &trees[j] {
                                    self.tokens(g.stream());
                                } else if let TokenTree::Ident(id) = &trees[j] {
                                    self.paths.push(vec![unraw(id)]);
                                }
                                j += 1;
                            }
                            i = j + 1;
                            continue;
                        }
                        match trees.get(i + 2) {
                            Some(TokenTree::Ident(next)) => {
                                path.push(unraw(next));
                                i += 3;
                            }
                            _ => break,
                        }
                    }
                    self.paths.push(path);
                }
                _ => i += 1,
            }
        }
    }
}

/// Every identifier in `tokens`.
fn idents(tokens: TokenStream, out: &mut BTreeSet<String>) {
    for tree in tokens {
        match tree {
            TokenTree::Ident(id) => {
                out.insert(unraw(&id));
            }
            TokenTree::Group(g) => idents(g.stream(), out),
            _ => {}
        }
    }
}

fn unraw(ident: &proc_macro2::Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map_or(name.clone(), str::to_owned)
}

// ---------------------------------------------------------------------------------------------
// Pruning: the same walk as `collect`, dropping what is not live.

fn prune_items(items: &mut Vec<Item>, live: &[bool], next: &mut NodeId) {
    let mut keep = Vec::with_capacity(items.len());
    for item in items.iter_mut() {
        keep.push(prune_item(item, live, next));
    }
    let mut flags = keep.into_iter();
    items.retain(|_| flags.next().unwrap_or(true));
}

fn take(next: &mut NodeId) -> NodeId {
    *next += 1;
    *next - 1
}

fn prune_item(item: &mut Item, live: &[bool], next: &mut NodeId) -> bool {
    match item {
        Item::Mod(m) => {
            let id = take(next);
            if let Some((_, inner)) = &mut m.content {
                prune_items(inner, live, next);
                // A module left with nothing but private imports goes too.
                let empty = inner.iter().all(
                    |i| matches!(i, Item::Use(u) if matches!(u.vis, syn::Visibility::Inherited)),
                );
                return live[id] && !empty;
            }
            live[id]
        }
        Item::Use(u) => prune_use(&mut u.tree, live, next),
        Item::Impl(imp) => {
            let id = take(next);
            if imp.trait_.is_some() {
                return live[id];
            }
            let mut keep = Vec::with_capacity(imp.items.len());
            for _ in &imp.items {
                keep.push(live[take(next)]);
            }
            let mut flags = keep.into_iter();
            imp.items.retain(|_| flags.next().unwrap_or(true));
            live[id] && !imp.items.is_empty()
        }
        _ => live[take(next)],
    }
}

fn prune_use(tree: &mut UseTree, live: &[bool], next: &mut NodeId) -> bool {
    match tree {
        UseTree::Path(p) => prune_use(&mut p.tree, live, next),
        UseTree::Name(_) | UseTree::Rename(_) | UseTree::Glob(_) => live[take(next)],
        UseTree::Group(g) => {
            let old = std::mem::take(&mut g.items);
            for mut t in old {
                if prune_use(&mut t, live, next) {
                    g.items.push(t);
                }
            }
            !g.items.is_empty()
        }
    }
}
