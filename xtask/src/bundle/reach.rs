//! Reachability: drops every item `main` cannot reach, with paths resolved module by module.
//!
//! Each item, `use` leaf, impl member, trait item and item-position macro call is a node. A
//! live node's tokens are scanned for paths (`a::b::c`, generic arguments skipped) and member
//! names (after `.`, or a path's tail past a type); each path is resolved from the node's module
//! as rustc would in the main (defining items, child modules, `use` imports, glob imports,
//! `crate`/`self`/`super`, `#[macro_export]` macros at the root), marking what it passes
//! through live, re-exports included. A bare macro name means its own crate's definitions of it
//! (textual scope), and a macro's body also resolves from the module that calls it. Without
//! type information some rules keep more than needed:
//! - an impl stays when every type and trait of the bundle it is about (in its self type and
//!   its trait's generic arguments: `impl From<Meters> for Ratio<BigInt>`) is live, and for a
//!   trait of the bundle when that trait is live too (an impl for a type parameter or a type
//!   from elsewhere, `impl<T> Ext for [T]`, goes with its trait); an inherent impl member stays
//!   when its name is used as a member anywhere live, every member of a foreign trait's impl
//!   with it;
//! - a trait stays when named, or when it is in scope in a module (defined there, imported,
//!   `as _` or through a glob) whose live code, or any live macro, uses one of its items'
//!   names as a member: that is method resolution, which only sees traits in scope;
//! - a trait's required items stay with it; a provided method, and its overrides in impls,
//!   only when its name is used as a member or appears in a macro (which may implement it);
//! - an item-position macro call stays when it may define a name looked for in its module, or
//!   names live types (or, naming none, a live trait) in its tokens or its macros' bodies; a
//!   call of a macro with no definition in sight (one a macro made) stays with its module;
//! - a `use` of a live trait stays even when unnamed (method calls need it in scope), and so
//!   does a glob that brings one; so do capitalised imports from std (they may be traits).
//!
//! A name that resolves to nothing here (a local variable, std, a primitive) is simply not
//! followed: only items of the bundle can be dropped. What the rules cannot see (a method named
//! only as a macro's argument, `call!(x, doubled)`) makes a bundle rustc rejects: then
//! [`Level`] keeps more of a library ([`super::bundle`] checks and falls back).

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::{ImplItem, Item, TraitItem, UseTree};

/// How much of a library crate to keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// What `main` reaches, item by item.
    Items,
    /// Every item of each module that keeps anything or that a path goes through (child
    /// modules only when they keep something themselves).
    Modules,
    /// All of it.
    Crate,
}

impl Level {
    /// The next level up, if any.
    pub fn wider(self) -> Option<Level> {
        match self {
            Level::Items => Some(Level::Modules),
            Level::Modules => Some(Level::Crate),
            Level::Crate => None,
        }
    }
}

/// Removes unreachable items from `items` (the whole bundle), starting from `fn main`; a
/// library inlined as `mod NAME` is kept as `levels[NAME]` says (item by item when absent).
pub fn prune(items: &mut Vec<Item>, levels: &BTreeMap<String, Level>) {
    let mut graph = Graph::default();
    let root = graph.add_module(None, "crate");
    graph.collect(items, root);
    for (name, &level) in levels {
        if let Some(&module) = graph.modules[root].children.get(name) {
            graph.mark_level(module, level);
        }
    }
    graph.index();
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

#[derive(Debug)]
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
    /// Every `use` leaf here (`as _` ones too).
    uses: Vec<NodeId>,
    /// How much of it to keep (its library's [`Level`]).
    level: Level,
}

#[derive(Debug)]
enum Kind {
    /// A named item (fn, struct, enum, const, static, type, union, trait alias).
    Item,
    /// A `macro_rules!` definition.
    Macro,
    /// A trait's header (generics, supertraits, where clause); its items are nodes of their own.
    Trait {
        /// The names of its items.
        members: Vec<String>,
    },
    /// An item of a trait. `provided`: a method with a default body.
    TraitMember {
        owner: NodeId,
        name: String,
        provided: bool,
    },
    /// A `mod` with content.
    Mod,
    /// One leaf of a `use` tree: the full path, `*` last for a glob.
    Use { path: Vec<String> },
    /// An `impl` block's header (generics, trait, self type); its members are nodes of their
    /// own.
    Impl {
        /// Names in the self type (`Foo<Bar>` gives both).
        self_names: Vec<String>,
        /// The trait's path, for a trait impl.
        trait_path: Option<Vec<String>>,
        /// Names in the trait's generic arguments (`From<Meters>` gives `Meters`).
        trait_arg_names: Vec<String>,
    },
    /// A member of an impl (an empty name for a macro call among them).
    Member { owner: NodeId, name: String },
    /// An item-position macro call (`impl_ops!(...)`), by the path it calls.
    MacroCall { path: Vec<String> },
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
    /// Macro definitions by name, anywhere (macro_rules scope is textual: a bare call may mean
    /// any of its crate's definitions of the name).
    macros: BTreeMap<String, Vec<NodeId>>,
    /// The module each module's crate starts at: the root for the solution, `mod lib` for a
    /// library.
    crate_of: Vec<ModId>,
    /// Every identifier in a macro definition or an item-position macro call: a provided
    /// trait method of such a name may be overridden by what the macro writes.
    macro_idents: BTreeSet<String>,
    /// For a trait impl, the bundle's traits its trait path resolves to (none: foreign).
    traits_of_impl: BTreeMap<NodeId, Vec<NodeId>>,
    /// A trait's items by name.
    trait_members: BTreeMap<(NodeId, String), NodeId>,
    /// For each trait of the bundle, the modules where it is in scope for method calls.
    scopes_of_trait: BTreeMap<NodeId, Vec<ModId>>,
    /// For a glob `use`, the bundle's traits it brings into scope.
    traits_of_glob: BTreeMap<NodeId, BTreeSet<NodeId>>,
    /// For each macro definition, the definitions a call of it may expand: itself and those of
    /// the macros its body calls, transitively.
    expansions: BTreeMap<NodeId, Vec<NodeId>>,
}

impl Graph {
    fn add_module(&mut self, parent: Option<ModId>, name: &str) -> ModId {
        let id = self.modules.len();
        let level = parent.map_or(Level::Items, |p| self.modules[p].level);
        let krate = match parent {
            None | Some(0) => id,
            Some(p) => self.crate_of[p],
        };
        self.crate_of.push(krate);
        self.modules.push(Module {
            parent,
            node: None,
            children: BTreeMap::new(),
            defs: BTreeMap::new(),
            imports: BTreeMap::new(),
            globs: Vec::new(),
            uses: Vec::new(),
            level,
        });
        if let Some(parent) = parent {
            self.modules[parent].children.insert(name.to_owned(), id);
        }
        id
    }

    /// Sets the level of `module` and every module below it.
    fn mark_level(&mut self, module: ModId, level: Level) {
        self.modules[module].level = level;
        let children: Vec<ModId> = self.modules[module].children.values().copied().collect();
        for child in children {
            self.mark_level(child, level);
        }
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
            Item::Trait(t) => self.collect_trait(t, module),
            Item::Macro(m) => {
                idents(m.mac.tokens.clone(), &mut self.macro_idents);
                match &m.ident {
                    Some(ident) => {
                        let name = unraw(ident);
                        let node = self.add_node(module, Kind::Macro, tokens);
                        self.macros.entry(name.clone()).or_default().push(node);
                        // `#[macro_export]` puts it at the crate's root, path-wise.
                        if m.attrs.iter().any(|a| a.path().is_ident("macro_export")) {
                            self.define(0, name.clone(), node);
                        }
                        self.define(module, name, node);
                    }
                    None => {
                        let mut path: Vec<String> = m
                            .mac
                            .path
                            .segments
                            .iter()
                            .map(|s| unraw(&s.ident))
                            .collect();
                        if m.mac.path.leading_colon.is_some() {
                            path.insert(0, "::".to_owned());
                        }
                        self.add_node(module, Kind::MacroCall { path }, tokens);
                    }
                }
            }
            _ => match name {
                Some(name) => {
                    let node = self.add_node(module, Kind::Item, tokens);
                    self.define(module, name, node);
                }
                None => {
                    self.add_node(module, Kind::Keep, tokens);
                }
            },
        }
    }

    fn collect_trait(&mut self, t: &syn::ItemTrait, module: ModId) {
        let syn::ItemTrait {
            attrs,
            vis,
            unsafety,
            ident,
            generics,
            supertraits,
            ..
        } = t;
        let where_clause = &generics.where_clause;
        let header =
            quote!(#(#attrs)* #vis #unsafety trait #ident #generics : #supertraits #where_clause);
        let members: Vec<(String, bool)> = t
            .items
            .iter()
            .map(|it| match it {
                TraitItem::Fn(f) => (unraw(&f.sig.ident), f.default.is_some()),
                TraitItem::Const(c) => (unraw(&c.ident), false),
                TraitItem::Type(t) => (unraw(&t.ident), false),
                // A macro among the items goes with the trait.
                _ => (String::new(), false),
            })
            .collect();
        let owner = self.add_node(
            module,
            Kind::Trait {
                members: members.iter().map(|(n, _)| n.clone()).collect(),
            },
            header,
        );
        self.define(module, unraw(ident), owner);
        for (it, (name, provided)) in t.items.iter().zip(members) {
            let node = self.add_node(
                module,
                Kind::TraitMember {
                    owner,
                    name: name.clone(),
                    provided,
                },
                it.to_token_stream(),
            );
            self.trait_members.insert((owner, name), node);
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
        self.modules[module].uses.push(node);
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
        let mut trait_arg_names = BTreeSet::new();
        if let Some((_, path, _)) = &imp.trait_ {
            for segment in &path.segments {
                idents(segment.arguments.to_token_stream(), &mut trait_arg_names);
            }
        }
        let mut header = TokenStream::new();
        for attr in &imp.attrs {
            attr.to_tokens(&mut header);
        }
        imp.generics.to_tokens(&mut header);
        if let Some((_, path, _)) = &imp.trait_ {
            path.to_tokens(&mut header);
        }
        imp.self_ty.to_tokens(&mut header);
        if let Some(w) = &imp.generics.where_clause {
            w.to_tokens(&mut header);
        }
        let owner = self.add_node(
            module,
            Kind::Impl {
                self_names: self_names.into_iter().collect(),
                trait_path,
                trait_arg_names: trait_arg_names.into_iter().collect(),
            },
            header,
        );
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

impl Graph {
    /// What the rules need once everything is collected: which traits each impl implements,
    /// and where each trait is in scope.
    fn index(&mut self) {
        let mut traits_of_impl = BTreeMap::new();
        for (id, node) in self.nodes.iter().enumerate() {
            if let Kind::Impl {
                trait_path: Some(path),
                ..
            } = &node.kind
            {
                let traits: Vec<NodeId> = self
                    .resolve_quietly(node.module, path)
                    .into_iter()
                    .filter_map(|t| match t {
                        Target::Node(n) if self.is_trait(n) => Some(n),
                        _ => None,
                    })
                    .collect();
                traits_of_impl.insert(id, traits);
            }
        }
        self.traits_of_impl = traits_of_impl;

        let mut scopes: BTreeMap<NodeId, BTreeSet<ModId>> = BTreeMap::new();
        let mut traits_of_glob = BTreeMap::new();
        for (id, node) in self.nodes.iter().enumerate() {
            match &node.kind {
                Kind::Trait { .. } => {
                    scopes.entry(id).or_default().insert(node.module);
                }
                Kind::Use { path } if path.last().is_some_and(|s| s == "*") => {
                    let mut traits = BTreeSet::new();
                    for target in self.resolve_quietly(node.module, &path[..path.len() - 1]) {
                        if let Target::Module(m) = target {
                            self.traits_visible_in(m, &mut traits, &mut BTreeSet::new());
                        }
                    }
                    for &t in &traits {
                        scopes.entry(t).or_default().insert(node.module);
                    }
                    traits_of_glob.insert(id, traits);
                }
                Kind::Use { path } => {
                    for target in self.resolve_quietly(node.module, path) {
                        if let Target::Node(t) = target {
                            if self.is_trait(t) {
                                scopes.entry(t).or_default().insert(node.module);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        self.scopes_of_trait = scopes
            .into_iter()
            .map(|(t, ms)| (t, ms.into_iter().collect()))
            .collect();
        self.traits_of_glob = traits_of_glob;

        let mut expansions = BTreeMap::new();
        for &definition in self.macros.values().flatten() {
            let mut found = BTreeSet::new();
            let mut todo = vec![definition];
            while let Some(d) = todo.pop() {
                if !found.insert(d) {
                    continue;
                }
                let mut scan = Scan::default();
                scan.tokens(self.nodes[d].tokens.clone());
                for path in &scan.macro_paths {
                    todo.extend(self.macros_called(self.nodes[d].module, path));
                }
            }
            expansions.insert(definition, found.into_iter().collect());
        }
        self.expansions = expansions;
    }

    /// The traits a glob import of `module` brings: defined there, imported there (a glob
    /// imports re-exports too), or through its own globs.
    fn traits_visible_in(
        &self,
        module: ModId,
        traits: &mut BTreeSet<NodeId>,
        visited: &mut BTreeSet<ModId>,
    ) {
        if !visited.insert(module) {
            return;
        }
        let here = &self.modules[module];
        for &node in here.defs.values().flatten() {
            if self.is_trait(node) {
                traits.insert(node);
            }
        }
        for &leaf in here.imports.values().flatten() {
            if let Kind::Use { path } = &self.nodes[leaf].kind {
                for target in self.resolve_quietly(module, path) {
                    if let Target::Node(t) = target {
                        if self.is_trait(t) {
                            traits.insert(t);
                        }
                    }
                }
            }
        }
        for &glob in &here.globs {
            if let Kind::Use { path } = &self.nodes[glob].kind {
                for target in self.resolve_quietly(module, &path[..path.len() - 1]) {
                    if let Target::Module(m) = target {
                        self.traits_visible_in(m, traits, visited);
                    }
                }
            }
        }
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
    /// The same, by the module whose code uses it (method resolution sees that module's
    /// traits).
    members_in: BTreeMap<ModId, BTreeSet<String>>,
    /// Names used as members by live macros, which expand wherever they are called.
    macro_members: BTreeSet<String>,
    /// Modules a path went through or ended in (see [`Level::Modules`]).
    touched: BTreeSet<ModId>,
    /// Names a path looked for in a module (found or not): a macro call of that module may
    /// define them (`cfg_64!(fn adc(...) {...})` beside a `#[cfg]`-ed out `fn adc`).
    looked_up: BTreeSet<(ModId, String)>,
    /// Macro definitions (and calls that make macros) whose bodies were resolved from a
    /// calling module.
    expanded: BTreeSet<(ModId, NodeId)>,
    /// Resolving to answer a question: nothing is marked or noted.
    quiet: bool,
}

impl Reach {
    fn mark(&mut self, node: NodeId) {
        if !self.quiet && !self.live[node] {
            self.live[node] = true;
            self.todo.push(node);
        }
    }

    fn use_member(&mut self, module: ModId, name: String) {
        if self.quiet {
            return;
        }
        self.members_in
            .entry(module)
            .or_default()
            .insert(name.clone());
        self.members.insert(name);
    }
}

impl Graph {
    fn reach(&self) -> Vec<bool> {
        let mut reach = Reach {
            live: vec![false; self.nodes.len()],
            ..Reach::default()
        };
        for (id, node) in self.nodes.iter().enumerate() {
            let whole = self.modules[node.module].level == Level::Crate;
            if matches!(node.kind, Kind::Keep) || whole {
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
            for id in 0..self.nodes.len() {
                // An inherent impl is applicable by rule, kept by its members.
                let inherent = matches!(
                    self.nodes[id].kind,
                    Kind::Impl {
                        trait_path: None,
                        ..
                    }
                );
                if !reach.live[id] && !inherent && self.kept_by_rules(id, &reach) {
                    reach.mark(id);
                }
            }
            if reach.todo.is_empty() {
                return reach.live;
            }
        }
    }

    /// Marks what a live node's tokens lead to, and the modules that hold it.
    fn follow(&self, id: NodeId, reach: &mut Reach) {
        let node = &self.nodes[id];
        // The module holding a live node stays, and so do the modules above it.
        let mut module = Some(node.module);
        while let Some(m) = module {
            if let Some(node) = self.modules[m].node {
                reach.mark(node);
            }
            module = self.modules[m].parent;
        }
        let module = node.module;
        match &node.kind {
            Kind::Use { path } => {
                let path = match path.last() {
                    Some(last) if last == "*" => &path[..path.len() - 1],
                    _ => &path[..],
                };
                for target in self.resolve_path(module, path, reach) {
                    self.mark_target(target, reach);
                }
                return;
            }
            Kind::Mod => return,
            Kind::Member { owner, .. } | Kind::TraitMember { owner, .. } => reach.mark(*owner),
            Kind::MacroCall { path } => {
                let called = self.macros_called(module, path);
                if called.is_empty() {
                    self.expand_made_at(module, path, reach);
                }
                for definition in called {
                    self.expand_at(module, definition, reach);
                }
                // A macro's name passed along may be called as `$m!` (petgraph's
                // `GraphBase! { delegate_impl [] }`).
                let mut words = BTreeSet::new();
                idents(node.tokens.clone(), &mut words);
                for word in words {
                    for definition in self.macros_called(module, &[word]) {
                        self.expand_at(module, definition, reach);
                    }
                }
            }
            _ => {}
        }
        let mut scan = Scan::default();
        scan.tokens(node.tokens.clone());
        for member in scan.members {
            if matches!(node.kind, Kind::Macro) {
                reach.macro_members.insert(member.clone());
            }
            reach.use_member(module, member);
        }
        for path in scan.paths {
            for target in self.resolve_path(module, &path, reach) {
                self.mark_target(target, reach);
            }
        }
        for path in &scan.macro_paths {
            for definition in self.macros_called(module, path) {
                self.expand_at(module, definition, reach);
            }
        }
    }

    /// A call in `module` of the macro `definition`: it stays, and the paths in its body, and in
    /// the macros it calls, also resolve from `module`, where they expand (a body's
    /// `UsizePromotion` means the one the calling module imports).
    fn expand_at(&self, module: ModId, definition: NodeId, reach: &mut Reach) {
        reach.mark(definition);
        if self.nodes[definition].module == module || !reach.expanded.insert((module, definition)) {
            return;
        }
        let mut scan = Scan::default();
        scan.tokens(self.nodes[definition].tokens.clone());
        for path in scan.paths {
            for target in self.resolve_path(module, &path, reach) {
                self.mark_target(target, reach);
            }
        }
        // The macros it calls expand there too.
        for path in &scan.macro_paths {
            for inner in self.macros_called(self.nodes[definition].module, path) {
                self.expand_at(module, inner, reach);
            }
        }
    }

    /// A call in `module` of a macro no definition of which is in sight: one a macro made
    /// (petgraph's `trait_template! { pub trait IntoEdges ... }` makes `IntoEdges!`). What it
    /// expands to comes from the calls that made it, which name it: their paths resolve from
    /// `module` too.
    fn expand_made_at(&self, module: ModId, path: &[String], reach: &mut Reach) {
        let Some(name) = path.last() else {
            return;
        };
        let krate = self.crate_of[module];
        for (id, node) in self.nodes.iter().enumerate() {
            if !matches!(node.kind, Kind::MacroCall { .. })
                || self.crate_of[node.module] != krate
                || node.module == module
            {
                continue;
            }
            let mut words = BTreeSet::new();
            idents(node.tokens.clone(), &mut words);
            if !words.contains(name) || !reach.expanded.insert((module, id)) {
                continue;
            }
            let mut scan = Scan::default();
            scan.tokens(node.tokens.clone());
            for path in scan.paths {
                for target in self.resolve_path(module, &path, reach) {
                    self.mark_target(target, reach);
                }
            }
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
        let module_live = self.modules[node.module].node.is_none_or(|m| reach.live[m]);
        if self.modules[node.module].level == Level::Modules
            && (module_live || reach.touched.contains(&node.module))
            && !matches!(node.kind, Kind::Mod)
        {
            return true;
        }
        match &node.kind {
            // Method resolution: one of its names used where it is in scope.
            Kind::Trait { members } => {
                self.scopes_of_trait
                    .get(&id)
                    .into_iter()
                    .flatten()
                    .any(|m| {
                        let used = reach.members_in.get(m);
                        members.iter().any(|name| {
                            reach.macro_members.contains(name)
                                || used.is_some_and(|u| u.contains(name))
                        })
                    })
            }
            Kind::TraitMember {
                owner,
                name,
                provided,
            } => {
                reach.live[*owner]
                    && (!provided
                        || reach.members.contains(name)
                        || self.macro_idents.contains(name))
            }
            Kind::Member { owner, name } => {
                match self.traits_of_impl.get(owner) {
                    // An inherent method: wanted when its name is used and its impl is about
                    // live types (then the impl stays for it).
                    None => {
                        (reach.live[*owner] || self.kept_by_rules(*owner, reach))
                            && (name.is_empty() || reach.members.contains(name))
                    }
                    Some(_) if !reach.live[*owner] => false,
                    // A trait's: with the trait's item of its name (all of a foreign trait's).
                    Some(traits) => {
                        name.is_empty()
                            || traits.is_empty()
                            || traits.iter().any(|t| {
                                self.trait_members
                                    .get(&(*t, name.clone()))
                                    .is_none_or(|&m| reach.live[m])
                            })
                    }
                }
            }
            Kind::Impl {
                self_names,
                trait_path,
                trait_arg_names,
            } => {
                // The bundle's types and traits the impl is about (`Ratio<BigInt>` names two):
                // it is of use only when all of them are live.
                let mut about = Vec::new();
                for name in self_names.iter().chain(trait_arg_names) {
                    for target in self.lookup(node.module, name, &mut Vec::new()) {
                        if let Target::Node(n) = target {
                            if self.is_type_or_trait(n) {
                                about.push(n);
                            }
                        }
                    }
                }
                let all_live = about.iter().all(|&n| reach.live[n]);
                match trait_path {
                    // An inherent impl stays for its members (see `Kind::Member`).
                    None => !about.is_empty() && all_live,
                    Some(_) => {
                        let traits = &self.traits_of_impl[&id];
                        if traits.is_empty() {
                            // A foreign trait (`Display`, `From<Meters> for f64`).
                            !about.is_empty() && all_live
                        } else {
                            // One of ours, maybe for a type from elsewhere (`impl<T> Ext for [T]`).
                            traits.iter().any(|&t| reach.live[t]) && all_live
                        }
                    }
                }
            }
            Kind::MacroCall { path } => self.macro_call_kept(id, path, reach),
            Kind::Use { path } => {
                if !module_live {
                    return false;
                }
                // A glob that brings a live trait into scope.
                if let Some(traits) = self.traits_of_glob.get(&id) {
                    return traits.iter().any(|&t| reach.live[t]);
                }
                // A live trait imported for its methods, or what may be a trait from std.
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

    /// An item-position macro call stays when it may define a name a path looked for in its
    /// module (an item keyword and the name, in its tokens or its macros'), or may implement
    /// something for a live type: it names one (in its own tokens or its macros'), or names no
    /// type of the bundle but a live trait (`impl_zero!(u8 u16)` with a `Zero` in its macro's
    /// body).
    fn macro_call_kept(&self, id: NodeId, path: &[String], reach: &Reach) -> bool {
        let node = &self.nodes[id];
        let called = self.macros_called(node.module, path);
        if called.is_empty() {
            // A macro made by another macro (petgraph's `GraphBase! { delegate_impl [] }`), or
            // std's: nothing to judge it by, so it stays with its module.
            return self.modules[node.module].node.is_none_or(|m| reach.live[m]);
        }
        let mut definitions: Vec<NodeId> = Vec::new();
        for called in called {
            definitions.extend(self.expansions.get(&called).into_iter().flatten());
        }
        let definitions = &definitions[..];
        let mut defined = BTreeSet::new();
        defined_names(node.tokens.clone(), &mut defined);
        for &definition in definitions {
            defined_names(self.nodes[definition].tokens.clone(), &mut defined);
        }
        let defines_looked_up = reach
            .looked_up
            .range((node.module, String::new())..)
            .take_while(|(m, _)| *m == node.module)
            .any(|(_, looked_up)| defined.contains(looked_up));
        if defines_looked_up {
            return true;
        }
        let named = |tokens: &TokenStream| -> Vec<NodeId> {
            let mut scan = Scan::default();
            scan.tokens(tokens.clone());
            scan.paths
                .iter()
                .flat_map(|path| self.resolve_quietly(node.module, path))
                .filter_map(|t| match t {
                    Target::Node(n) => Some(n),
                    Target::Module(_) => None,
                })
                .collect()
        };
        let mut all = named(&node.tokens);
        for &definition in definitions {
            all.extend(named(&self.nodes[definition].tokens));
        }
        let is_type = |n: NodeId| self.is_type_or_trait(n) && !self.is_trait(n);
        if all.iter().any(|&n| is_type(n) && reach.live[n]) {
            return true;
        }
        !all.iter().any(|&n| is_type(n)) && all.iter().any(|&n| self.is_trait(n) && reach.live[n])
    }

    fn is_trait(&self, node: NodeId) -> bool {
        matches!(&self.nodes[node].kind, Kind::Trait { .. })
    }

    fn is_type_or_trait(&self, node: NodeId) -> bool {
        match &self.nodes[node].kind {
            Kind::Trait { .. } => true,
            Kind::Item => matches!(
                first_keyword(&self.nodes[node].tokens),
                Some("struct" | "enum" | "union" | "type")
            ),
            _ => false,
        }
    }

    /// Resolves without marking anything (for the rules' questions).
    fn resolve_quietly(&self, module: ModId, path: &[String]) -> Vec<Target> {
        let mut reach = Reach {
            quiet: true,
            ..Reach::default()
        };
        self.resolve_path(module, path, &mut reach)
    }

    /// The macro definitions a call of `path` in `module` may mean: for a bare name, its
    /// crate's definitions of it (textual scope) and what the name resolves to (an import, a
    /// glob, `#[macro_export]`); for a path, what it resolves to.
    fn macros_called(&self, module: ModId, path: &[String]) -> Vec<NodeId> {
        let mut found: Vec<NodeId> = Vec::new();
        if let [name] = path {
            let krate = self.crate_of[module];
            found.extend(
                self.macros
                    .get(name)
                    .into_iter()
                    .flatten()
                    .filter(|&&d| self.crate_of[self.nodes[d].module] == krate),
            );
        }
        for target in self.resolve_quietly(module, path) {
            if let Target::Node(n) = target {
                if matches!(self.nodes[n].kind, Kind::Macro) && !found.contains(&n) {
                    found.push(n);
                }
            }
        }
        found
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

    /// Resolves `path` as written in `module`; marks the imports it goes through, and notes
    /// the modules it looks in and the names it looks for there (a macro call may make them).
    /// A path past a type (`Type::new`) notes the rest as member names.
    fn resolve_path(&self, module: ModId, path: &[String], reach: &mut Reach) -> Vec<Target> {
        let Some(first) = path.first() else {
            return Vec::new();
        };
        let mut current: Vec<Target> = match self.path_root(module, first) {
            Some(root) => root,
            None if first == "Self" => Vec::new(),
            None => {
                let mut seen = Vec::new();
                if !reach.quiet {
                    reach.looked_up.insert((module, first.to_owned()));
                }
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
            for name in &path[1..] {
                reach.use_member(module, name.clone());
            }
            return current;
        }
        for (k, segment) in path.iter().enumerate().skip(1) {
            let mut next = Vec::new();
            for target in &current {
                match *target {
                    Target::Module(m) => {
                        if !reach.quiet {
                            reach.touched.insert(m);
                        }
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
                        if !reach.quiet {
                            reach.looked_up.insert((m, segment.to_owned()));
                        }
                        next.extend(self.lookup(m, segment, &mut seen));
                        for used in seen {
                            reach.mark(used);
                        }
                    }
                    Target::Node(_) => {
                        // Past a type or a trait: an associated item or a variant.
                        for name in &path[k..] {
                            reach.use_member(module, name.clone());
                        }
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
        // `visited` holds the lookups under way: a cycle of imports ends, while a name met
        // again on another branch (`a::x` and `b::x` both re-exporting `c::x`) is looked up
        // again.
        let key = (module, name.to_owned());
        if !visited.insert(key.clone()) {
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
        visited.remove(&key);
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
    /// Paths called as macros (`name!`, `$crate::lib::name!`).
    macro_paths: Vec<Vec<String>>,
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
                    // A keyword, or a macro's metavariable (`$x`, not `$crate`).
                    let metavariable = i >= 1 && punct(i - 1, '$') && name != "crate";
                    if KEYWORDS.contains(&name.as_str()) || metavariable {
                        i += 1;
                        continue;
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
                    // `path!(...)`, not `name != x`.
                    if punct(i, '!') && !punct(i + 1, '=') {
                        self.macro_paths.push(path.clone());
                    }
                    self.paths.push(path);
                }
                _ => i += 1,
            }
        }
    }
}

/// The names that follow an item keyword in `tokens` (`fn adc`, `pub trait FloatConst`): what
/// a macro's tokens may define.
fn defined_names(tokens: TokenStream, out: &mut BTreeSet<String>) {
    const ITEMS: [&str; 9] = [
        "fn", "struct", "enum", "union", "trait", "type", "const", "static", "mod",
    ];
    let mut after_keyword = false;
    for tree in tokens {
        match tree {
            TokenTree::Ident(id) => {
                let name = unraw(&id);
                if after_keyword {
                    out.insert(name.clone());
                }
                after_keyword = ITEMS.contains(&name.as_str());
            }
            TokenTree::Group(g) => {
                defined_names(g.stream(), out);
                after_keyword = false;
            }
            TokenTree::Punct(_) | TokenTree::Literal(_) => after_keyword = false,
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

/// Keeps the members whose nodes (the next `members.len()` ids) are live.
fn prune_members<T>(members: &mut Vec<T>, live: &[bool], next: &mut NodeId) {
    let keep: Vec<bool> = members.iter().map(|_| live[take(next)]).collect();
    let mut flags = keep.into_iter();
    members.retain(|_| flags.next().unwrap_or(true));
}

fn prune_item(item: &mut Item, live: &[bool], next: &mut NodeId) -> bool {
    match item {
        Item::Mod(m) => {
            let id = take(next);
            if let Some((_, inner)) = &mut m.content {
                prune_items(inner, live, next);
            }
            // A live module stays even when little is left in it: a glob or a path may name it.
            live[id]
        }
        Item::Use(u) => prune_use(&mut u.tree, live, next),
        Item::Impl(imp) => {
            let id = take(next);
            prune_members(&mut imp.items, live, next);
            // A trait impl may be empty (a marker trait, or every method provided).
            live[id] && (imp.trait_.is_some() || !imp.items.is_empty())
        }
        Item::Trait(t) => {
            let id = take(next);
            prune_members(&mut t.items, live, next);
            live[id]
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The bundle `source` pruned with `levels` (library module -> level), as text.
    fn pruned_at(source: &str, levels: &[(&str, Level)]) -> String {
        let mut file: syn::File = syn::parse_str(source).unwrap();
        let levels = levels.iter().map(|(m, l)| (m.to_string(), *l)).collect();
        prune(&mut file.items, &levels);
        prettyplease::unparse(&file)
    }

    fn pruned(source: &str) -> String {
        pruned_at(source, &[])
    }

    #[test]
    fn an_extension_trait_stays_for_a_method_call_where_it_is_in_scope() {
        let out = pruned(
            "use crate::lib::Ext;
             fn main() { let v = [1, 2]; v.lower(&1); }
             mod lib {
                 pub trait Ext {
                     fn lower(&self, x: &u8) -> usize;
                     fn unused_provided(&self) -> u8 { helper() }
                 }
                 impl<T> Ext for [T] { fn lower(&self, x: &u8) -> usize { 0 } }
                 fn helper() -> u8 { 1 }
                 pub trait Elsewhere { fn lower(&self, x: &u8) -> usize; }
                 impl<T> Elsewhere for Vec<T> { fn lower(&self, x: &u8) -> usize { 1 } }
             }",
        );
        for kept in [
            "use crate::lib::Ext;",
            "pub trait Ext",
            "impl<T> Ext for [T]",
        ] {
            assert!(out.contains(kept), "`{kept}` missing:\n{out}");
        }
        // A provided method nobody calls goes, and what only it used; a trait with a method of
        // the same name that is in scope nowhere goes.
        for gone in ["unused_provided", "helper", "Elsewhere"] {
            assert!(!out.contains(gone), "`{gone}` survived:\n{out}");
        }
    }

    #[test]
    fn a_glob_that_brings_a_live_trait_stays() {
        let out = pruned(
            "use crate::lib::*;
             fn main() { 5u8.twice(); }
             mod lib {
                 pub use self::ext::Twice;
                 mod ext {
                     pub trait Twice { fn twice(self) -> Self; }
                     impl Twice for u8 { fn twice(self) -> u8 { self * 2 } }
                 }
             }",
        );
        for kept in [
            "use crate::lib::*;",
            "pub use self::ext::Twice;",
            "impl Twice for u8",
        ] {
            assert!(out.contains(kept), "`{kept}` missing:\n{out}");
        }
    }

    #[test]
    fn an_impl_stays_only_when_every_type_it_is_about_is_live() {
        let out = pruned(
            "fn main() { let m = lib::Meters(1); let x: f64 = m.into(); }
             mod lib {
                 pub struct Meters(pub i64);
                 pub struct Big;
                 pub struct Ratio<T>(T);
                 impl From<Meters> for f64 { fn from(m: Meters) -> f64 { m.0 as f64 } }
                 impl From<Big> for f64 { fn from(b: Big) -> f64 { 0.0 } }
                 impl From<Meters> for Ratio<Big> { fn from(m: Meters) -> Self { Ratio(Big) } }
             }",
        );
        assert!(out.contains("impl From<Meters> for f64"), "{out}");
        for gone in ["Big", "Ratio"] {
            assert!(!out.contains(gone), "`{gone}` survived:\n{out}");
        }
    }

    #[test]
    fn a_macro_call_that_defines_a_name_looked_for_stays() {
        // `adc` by plain item is configured out on this target; the macro's is the one.
        let out = pruned(
            "fn main() { lib::adc(); }
             mod lib {
                 macro_rules! on_64 { ($($item:item)*) => { $($item)* }; }
                 on_64!(pub fn adc() -> u8 { 1 });
                 on_64!(pub fn sbb() -> u8 { 2 });
                 #[cfg(not(target_pointer_width = \"64\"))]
                 pub fn adc() -> u8 { 3 }
             }",
        );
        assert!(out.contains("on_64!(pub fn adc()"), "{out}");
        assert!(!out.contains("sbb"), "{out}");
    }

    #[test]
    fn wider_levels_keep_whole_modules_then_whole_crates() {
        let source = "fn main() { lib::used(); }
             mod lib {
                 pub fn used() {}
                 pub fn unused() {}
                 pub mod inner { pub fn deeper() {} }
             }";
        let items = pruned(source);
        assert!(
            items.contains("fn used") && !items.contains("fn unused"),
            "{items}"
        );
        let modules = pruned_at(source, &[("lib", Level::Modules)]);
        assert!(modules.contains("fn unused"), "{modules}");
        assert!(
            !modules.contains("deeper"),
            "a module nothing uses: {modules}"
        );
        let whole = pruned_at(source, &[("lib", Level::Crate)]);
        assert!(whole.contains("fn deeper"), "{whole}");
    }
}
