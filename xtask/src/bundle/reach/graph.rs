//! The arena: every node of the bundle, read from its syntax tree in one walk, each with its kind
//! and its place in that tree, and the modules that hold them.
//!
//! Identity is stored, never recounted: a [`NodeId`] indexes [`Graph::nodes`], and the node's
//! [`Place`] (its module, its item's index there, and the member or `use` leaf within the item)
//! is what pruning looks it up by, so no second walk has to meet the nodes in the same order.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Index;
use std::rc::Rc;

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::{ImplItem, Item, TraitItem, UseTree};

use super::scan::{defined_names, idents, may_name_an_item, unraw, Scan};
use super::Level;
use crate::bundle::macro_origin::leading_attribute_macros;

/// Where a name can lead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Target {
    Node(NodeId),
    Module(ModId),
    /// Something inside a stand-in for what could not be bundled (see [`super::REFUSED`]):
    /// whatever the name, it is that module's.
    Refused(ModId),
    /// Something inside a library not read yet (see [`super::UNLOADED`]): what is there is
    /// not known. It never leaves [`Graph::resolve_path`], which notes it instead.
    Unloaded(ModId),
}

/// What a macro call's rules go by (see [`Graph::macro_call_kept`]).
#[derive(Debug)]
pub(super) struct MacroFacts {
    /// The names it, or the macros it expands, may define.
    pub(super) defined: BTreeSet<String>,
    /// Its own crate's items its own tokens name (what it is called about).
    pub(super) in_call: Vec<NodeId>,
    /// Its own crate's items the macros it expands name.
    pub(super) in_body: Vec<NodeId>,
}

/// A node of the [`Graph`]: an index into its arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct NodeId(usize);

/// A module of the [`Graph`] (the bundle's root, a library inlined as `mod NAME`, or a module
/// inside either): an index into its modules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct ModId(usize);

impl ModId {
    /// The bundle's root: the solution's crate, whose items are the file's.
    pub(super) const ROOT: ModId = ModId(0);
}

/// A set of nodes of one [`Graph`] (the live ones).
#[derive(Debug, Clone, Default)]
pub(super) struct NodeSet(Vec<bool>);

impl NodeSet {
    /// No node of `graph`.
    pub(super) fn empty(graph: &Graph) -> NodeSet {
        NodeSet(vec![false; graph.nodes.len()])
    }

    pub(super) fn contains(&self, id: NodeId) -> bool {
        self.0[id.0]
    }

    /// Adds `id`; false when it was there already.
    pub(super) fn insert(&mut self, id: NodeId) -> bool {
        !std::mem::replace(&mut self.0[id.0], true)
    }
}

/// Where a node's syntax sits in the bundle: the handle pruning looks it up by.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Place {
    /// The module whose items hold it.
    pub(super) module: ModId,
    /// Its item's index among them.
    pub(super) item: usize,
    /// Which part of the item.
    pub(super) part: Part,
}

/// A part of an item that is a node of its own.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Part {
    /// The item itself: for an impl or a trait, its header.
    Whole,
    /// The impl's or trait's member at this index.
    Member(usize),
    /// A leaf of a `use` item: the index taken in each `{...}` group on the way to it.
    UseLeaf(Vec<usize>),
}

impl Place {
    /// The whole item at `item` in `module`.
    pub(super) fn item(module: ModId, item: usize) -> Place {
        Place {
            module,
            item,
            part: Part::Whole,
        }
    }

    /// The same item's `part`.
    pub(super) fn part(&self, part: Part) -> Place {
        Place {
            part,
            ..self.clone()
        }
    }
}

/// What a node is.
#[derive(Debug)]
pub(super) enum Kind {
    Fn,
    Struct,
    Enum,
    Union,
    /// `type Name = ...;`
    TypeAlias,
    /// A named `const` (`const _: () = ...;` is [`Kind::Other`]).
    Const,
    Static,
    TraitAlias,
    /// A `macro_rules!` definition.
    MacroRules,
    /// A trait's header (generics, supertraits, where clause); its items are nodes of their own.
    Trait {
        /// The names of its items (a macro call among them has none).
        members: Vec<String>,
    },
    /// An item of a trait; `name` is `None` for a macro call among them, which goes with the
    /// trait.
    TraitMember {
        owner: NodeId,
        name: Option<String>,
        /// A method with a default body.
        provided: bool,
    },
    /// A `mod`, and the module it makes.
    Mod {
        module: ModId,
    },
    /// One leaf of a `use` tree that binds a name, or renames to `_`: its full path.
    Use {
        path: Vec<String>,
    },
    /// One `use path::*` leaf: the path before the `*`.
    Glob {
        path: Vec<String>,
    },
    /// An `impl` block's header (generics, trait, self type); its members are nodes of their
    /// own.
    Impl {
        /// The paths in the self type (`Foo<Bar>` gives both, `getrandom::Error` one).
        self_names: Vec<Vec<String>>,
        /// The trait's path, for a trait impl.
        trait_path: Option<Vec<String>>,
        /// The paths in the trait's generic arguments (`From<Meters>` gives `Meters`).
        trait_arg_names: Vec<Vec<String>>,
    },
    /// A member of an impl: an inherent method (or const, or type) when the impl has no trait;
    /// `name` is `None` for a macro call among them, which goes with the impl.
    ImplMember {
        owner: NodeId,
        name: Option<String>,
    },
    /// An item-position macro call (`impl_ops!(...)`), by the path it calls.
    MacroCall {
        path: Vec<String>,
    },
    /// Anything else (`extern crate`, `const _`, foreign blocks): kept with its module.
    Other,
}

impl Kind {
    pub(super) fn is_trait(&self) -> bool {
        matches!(self, Kind::Trait { .. })
    }

    /// A type an impl can be about: a struct, an enum, a union or a type alias.
    pub(super) fn is_type(&self) -> bool {
        matches!(
            self,
            Kind::Struct | Kind::Enum | Kind::Union | Kind::TypeAlias
        )
    }
}

#[derive(Debug)]
pub(super) struct Node {
    pub(super) place: Place,
    pub(super) kind: Kind,
    /// The name the item defines, when it defines one (for messages).
    pub(super) name: Option<String>,
    /// What the node's code names: the item's tokens (an impl's or a trait's header alone;
    /// nothing for a `mod` or a `use` leaf).
    pub(super) tokens: TokenStream,
}

impl Node {
    /// The module the node's code is in.
    pub(super) fn module(&self) -> ModId {
        self.place.module
    }
}

#[derive(Debug)]
pub(super) struct Module {
    /// Its name in its parent (`crate` for the root).
    pub(super) name: String,
    /// Why it cannot be bundled, for a stand-in left where a crate or a module could not go
    /// in (see [`super::REFUSED`]): the bundle is refused if the solution reaches it.
    pub(super) refused: Option<String>,
    /// For a stand-in of a proc-macro crate, its package and version (see
    /// [`super::PROC_MACRO`]).
    pub(super) proc_macro: Option<String>,
    /// A library not read yet (see [`super::UNLOADED`]): nothing is known of what it holds.
    pub(super) unloaded: bool,
    pub(super) parent: Option<ModId>,
    /// The `mod` item's node (none for the root).
    pub(super) node: Option<NodeId>,
    /// The module its crate starts at: the root for the solution, `mod NAME` for a library.
    pub(super) krate: ModId,
    pub(super) children: BTreeMap<String, ModId>,
    /// Items defined here, by name (types, functions, macros, ...: every namespace).
    pub(super) defs: BTreeMap<String, Vec<NodeId>>,
    /// `use` leaves binding a name here.
    pub(super) imports: BTreeMap<String, Vec<NodeId>>,
    /// `use path::*` leaves.
    pub(super) globs: Vec<NodeId>,
    /// How much of it to keep (its library's [`Level`]).
    pub(super) level: Level,
}

#[derive(Debug, Default)]
pub(super) struct Graph {
    /// The arena: every node, indexed by [`NodeId`].
    pub(super) nodes: Vec<Node>,
    /// Every module, indexed by [`ModId`].
    pub(super) modules: Vec<Module>,
    /// Every node by its place.
    at: BTreeMap<Place, NodeId>,
    /// Macro definitions by name, anywhere (macro_rules scope is textual: a bare call may mean
    /// any of its crate's definitions of the name).
    pub(super) macros: BTreeMap<String, Vec<NodeId>>,
    /// For a trait impl, the bundle's traits its trait path resolves to (none: foreign).
    pub(super) traits_of_impl: BTreeMap<NodeId, Vec<NodeId>>,
    /// A trait's items by name.
    pub(super) trait_members: BTreeMap<(NodeId, String), NodeId>,
    /// For each trait of the bundle, the modules where it is in scope for method calls.
    pub(super) scopes_of_trait: BTreeMap<NodeId, Vec<ModId>>,
    /// For a glob `use`, the bundle's traits it brings into scope.
    pub(super) traits_of_glob: BTreeMap<NodeId, BTreeSet<NodeId>>,
    /// For each macro definition, the definitions a call of it may expand: itself and those of
    /// the macros its body calls, transitively.
    pub(super) expansions: BTreeMap<NodeId, Vec<NodeId>>,
    /// Trait impls whose trait is in a stand-in for what could not be bundled: their trait is
    /// never live, so they never stay.
    pub(super) impls_of_refused: BTreeSet<NodeId>,
    /// Items an attribute macro may rewrite whole (easy-ext's `#[ext(ChMax)] impl i64 { fn
    /// chmax ... }` is a trait and its impl), with the names they may define: their own, their
    /// members', and the words of the attribute.
    pub(super) rewritten: BTreeMap<NodeId, BTreeSet<String>>,
    /// What each macro call's rules go by, worked out when first asked (see `live.rs`).
    pub(super) macro_facts: RefCell<BTreeMap<NodeId, Rc<Option<MacroFacts>>>>,
    /// The bundle's types and traits each impl is about, worked out when first asked.
    pub(super) impl_about: RefCell<BTreeMap<NodeId, Rc<Vec<NodeId>>>>,
    /// What each name looked up in each module leads to, and the imports it goes through
    /// (see `resolve.rs`).
    pub(super) lookups: RefCell<LookupCache>,
    /// The same for quiet lookups (the rules' questions): where names lead, without the
    /// imports on the way, which for a crate of many globs (libc's) are thousands.
    pub(super) quiet_lookups: RefCell<BTreeMap<(ModId, String), Vec<Target>>>,
    /// Each library not read yet that a lookup needed to look into, with the module the lookup
    /// started from: the library must be read when that module is live (see `live.rs`).
    pub(super) unloaded_needed: RefCell<BTreeSet<(ModId, ModId)>>,
    /// What libraries not read yet define at the root, by name.
    pub(super) unloaded_at_root: BTreeMap<String, Vec<ModId>>,
    /// The modules at the root that are the solution's own, not libraries.
    own_modules: BTreeSet<String>,
}

/// Answers of [`Graph::lookup`]: (module, name) -> (targets, imports gone through).
pub(super) type LookupCache = BTreeMap<(ModId, String), (Vec<Target>, Vec<NodeId>)>;

impl Index<NodeId> for Graph {
    type Output = Node;

    fn index(&self, id: NodeId) -> &Node {
        &self.nodes[id.0]
    }
}

impl Index<ModId> for Graph {
    type Output = Module;

    fn index(&self, id: ModId) -> &Module {
        &self.modules[id.0]
    }
}

impl Graph {
    /// The arena of the bundle `items`, a library inlined as `mod NAME` marked as `levels[NAME]`
    /// says; the modules at the root named in `own` are the solution's, the rest libraries;
    /// the solution's own code marked as `levels[SOLUTION]` says.
    pub(super) fn build(
        items: &[Item],
        levels: &BTreeMap<String, Level>,
        own: &BTreeSet<String>,
    ) -> Graph {
        let mut graph = Graph {
            own_modules: own.clone(),
            ..Graph::default()
        };
        let root = graph.add_module(None, "crate");
        graph.collect(items, root);
        for (name, &level) in levels {
            if name == super::SOLUTION {
                // The root alone (its libraries have levels of their own), and its own modules.
                graph.module_mut(root).level = level;
                let own: Vec<ModId> = graph[root]
                    .children
                    .iter()
                    .filter(|(name, _)| graph.own_modules.contains(*name))
                    .map(|(_, &module)| module)
                    .collect();
                for module in own {
                    graph.set_level(module, level);
                }
            } else if let Some(&module) = graph[root].children.get(name) {
                graph.set_level(module, level);
            }
        }
        graph.link();
        graph
    }

    /// Every module with its id.
    pub(super) fn module_ids(&self) -> impl Iterator<Item = (ModId, &Module)> {
        self.modules
            .iter()
            .enumerate()
            .map(|(k, module)| (ModId(k), module))
    }

    /// Every node with its id.
    pub(super) fn node_ids(&self) -> impl Iterator<Item = (NodeId, &Node)> {
        self.nodes
            .iter()
            .enumerate()
            .map(|(k, node)| (NodeId(k), node))
    }

    /// The node at `place`: the arena holds one for every place of the tree it was built from.
    pub(super) fn at(&self, place: &Place) -> Option<NodeId> {
        self.at.get(place).copied()
    }

    /// `lib::inner` for a module of a library, `crate` for the solution's root.
    pub(super) fn module_path(&self, module: ModId) -> String {
        let mut names = Vec::new();
        let mut at = Some(module);
        while let Some(m) = at {
            if self[m].parent.is_some() {
                names.push(self[m].name.clone());
            }
            at = self[m].parent;
        }
        if names.is_empty() {
            return "crate".to_string();
        }
        names.reverse();
        names.join("::")
    }

    /// A node as a message names it: `lib::inner::name`, `lib::inner::Type::method`,
    /// `use path in lib::inner`.
    pub(super) fn describe(&self, id: NodeId) -> String {
        let node = &self[id];
        let module = self.module_path(node.module());
        let within = |name: &str| match module.as_str() {
            "crate" => name.to_string(),
            m => format!("{m}::{name}"),
        };
        match &node.kind {
            Kind::Mod { module } => self.module_path(*module),
            Kind::Use { path } | Kind::Glob { path } => {
                format!("`use {}` in {module}", path.join("::"))
            }
            Kind::Impl { self_names, .. } => within(&format!(
                "impl {}",
                self_names
                    .first()
                    .and_then(|p| p.last())
                    .map_or("", String::as_str)
            )),
            Kind::ImplMember { owner, name } | Kind::TraitMember { owner, name, .. } => {
                let owner = self.describe(*owner);
                format!("{owner}::{}", name.as_deref().unwrap_or("(macro)"))
            }
            Kind::MacroCall { path } => within(&format!("{}!", path.join("::"))),
            _ => within(node.name.as_deref().unwrap_or("(item)")),
        }
    }

    fn module_mut(&mut self, id: ModId) -> &mut Module {
        &mut self.modules[id.0]
    }

    fn add_module(&mut self, parent: Option<ModId>, name: &str) -> ModId {
        let id = ModId(self.modules.len());
        let (level, krate) = match parent {
            None => (Level::Items, id),
            // A library's module is its crate's root; the solution's own modules (`mod
            // macros;`) are of its crate, where a `macro_rules!` one of them defines may be
            // called in another (`#[macro_use]`, or defined above a module that calls it).
            Some(ModId::ROOT) if !self.own_modules.contains(name) => (self[ModId::ROOT].level, id),
            Some(p) => (self[p].level, self[p].krate),
        };
        self.modules.push(Module {
            name: name.to_owned(),
            refused: None,
            proc_macro: None,
            unloaded: false,
            parent,
            node: None,
            krate,
            children: BTreeMap::new(),
            defs: BTreeMap::new(),
            imports: BTreeMap::new(),
            globs: Vec::new(),
            level,
        });
        if let Some(parent) = parent {
            self.module_mut(parent).children.insert(name.to_owned(), id);
        }
        id
    }

    /// Sets the level of `module` and every module below it.
    fn set_level(&mut self, module: ModId, level: Level) {
        self.module_mut(module).level = level;
        let children: Vec<ModId> = self[module].children.values().copied().collect();
        for child in children {
            self.set_level(child, level);
        }
    }

    fn add_node(&mut self, place: Place, kind: Kind, tokens: TokenStream) -> NodeId {
        let id = NodeId(self.nodes.len());
        let previous = self.at.insert(place.clone(), id);
        debug_assert!(previous.is_none(), "two nodes at {place:?}");
        self.nodes.push(Node {
            place,
            kind,
            name: None,
            tokens,
        });
        id
    }

    fn define(&mut self, module: ModId, name: String, node: NodeId) {
        self.nodes[node.0].name = Some(name.clone());
        self.module_mut(module)
            .defs
            .entry(name)
            .or_default()
            .push(node);
    }

    fn collect(&mut self, items: &[Item], module: ModId) {
        for (k, item) in items.iter().enumerate() {
            self.collect_item(item, Place::item(module, k));
        }
    }

    fn collect_item(&mut self, item: &Item, place: Place) {
        let module = place.module;
        let named = |kind: Kind, ident: &syn::Ident| Some((kind, unraw(ident)));
        let named = match item {
            Item::Fn(f) => named(Kind::Fn, &f.sig.ident),
            Item::Struct(s) => named(Kind::Struct, &s.ident),
            Item::Enum(e) => named(Kind::Enum, &e.ident),
            Item::Union(u) => named(Kind::Union, &u.ident),
            Item::Type(t) => named(Kind::TypeAlias, &t.ident),
            Item::Const(c) if c.ident != "_" => named(Kind::Const, &c.ident),
            Item::Static(s) => named(Kind::Static, &s.ident),
            Item::TraitAlias(t) => named(Kind::TraitAlias, &t.ident),
            _ => None,
        };
        if let Some((kind, name)) = named {
            let node = self.add_node(place, kind, item.to_token_stream());
            self.define(module, name, node);
            return;
        }
        match item {
            Item::Mod(m) => {
                let child = self.add_module(Some(module), &unraw(&m.ident));
                let node = self.add_node(place, Kind::Mod { module: child }, TokenStream::new());
                self.module_mut(child).node = Some(node);
                self.module_mut(child).refused = super::refusal_of(&m.attrs);
                self.module_mut(child).proc_macro = super::proc_macro_of(&m.attrs);
                if let Some(at_root) = super::unloaded_at_root(&m.attrs) {
                    self.module_mut(child).unloaded = true;
                    for name in at_root {
                        self.unloaded_at_root.entry(name).or_default().push(child);
                    }
                }
                if let Some((_, inner)) = &m.content {
                    self.collect(inner, child);
                }
            }
            Item::Use(u) => {
                let mut prefix = Vec::new();
                if u.leading_colon.is_some() {
                    prefix.push("::".to_owned());
                }
                self.collect_use(&u.tree, prefix, &place, &mut Vec::new());
            }
            Item::Impl(imp) => self.collect_impl(imp, place),
            Item::Trait(t) => self.collect_trait(t, place),
            Item::Macro(m) => {
                let tokens = item.to_token_stream();
                match &m.ident {
                    Some(ident) => {
                        let name = unraw(ident);
                        let node = self.add_node(place, Kind::MacroRules, tokens);
                        self.macros.entry(name.clone()).or_default().push(node);
                        // `#[macro_export]` puts it at the crate's root, path-wise.
                        if m.attrs.iter().any(|a| a.path().is_ident("macro_export")) {
                            self.define(ModId::ROOT, name.clone(), node);
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
                        self.add_node(place, Kind::MacroCall { path }, tokens);
                    }
                }
            }
            _ => {
                self.add_node(place, Kind::Other, item.to_token_stream());
            }
        }
    }

    fn collect_trait(&mut self, t: &syn::ItemTrait, place: Place) {
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
        let members: Vec<(Option<String>, bool)> = t
            .items
            .iter()
            .map(|it| match it {
                TraitItem::Fn(f) => (Some(unraw(&f.sig.ident)), f.default.is_some()),
                TraitItem::Const(c) => (Some(unraw(&c.ident)), false),
                TraitItem::Type(t) => (Some(unraw(&t.ident)), false),
                // A macro among the items goes with the trait.
                _ => (None, false),
            })
            .collect();
        let kind = Kind::Trait {
            members: members.iter().filter_map(|(n, _)| n.clone()).collect(),
        };
        let owner = self.add_node(place.clone(), kind, header);
        self.define(place.module, unraw(ident), owner);
        for (k, (it, (name, provided))) in t.items.iter().zip(members).enumerate() {
            let kind = Kind::TraitMember {
                owner,
                name: name.clone(),
                provided,
            };
            let node = self.add_node(place.part(Part::Member(k)), kind, it.to_token_stream());
            if let Some(name) = name {
                self.trait_members.insert((owner, name), node);
            }
        }
    }

    /// Adds a node for each leaf of `tree`, a `use` item at `place` (`leaf`: the group indices
    /// taken to reach `tree`).
    fn collect_use(
        &mut self,
        tree: &UseTree,
        prefix: Vec<String>,
        place: &Place,
        leaf: &mut Vec<usize>,
    ) {
        let mut path = prefix;
        let binding = match tree {
            UseTree::Path(p) => {
                path.push(unraw(&p.ident));
                return self.collect_use(&p.tree, path, place, leaf);
            }
            UseTree::Group(g) => {
                for (k, t) in g.items.iter().enumerate() {
                    leaf.push(k);
                    self.collect_use(t, path.clone(), place, leaf);
                    leaf.pop();
                }
                return;
            }
            UseTree::Glob(_) => {
                let module = place.module;
                let node = self.add_node(
                    place.part(Part::UseLeaf(leaf.clone())),
                    Kind::Glob { path },
                    TokenStream::new(),
                );
                self.module_mut(module).globs.push(node);
                return;
            }
            UseTree::Name(n) => {
                let name = unraw(&n.ident);
                let binding = if name == "self" {
                    path.last().cloned().unwrap_or_default()
                } else {
                    name.clone()
                };
                if name != "self" {
                    path.push(name);
                }
                Some(binding)
            }
            UseTree::Rename(r) => {
                let name = unraw(&r.ident);
                if name != "self" {
                    path.push(name);
                }
                let binding = unraw(&r.rename);
                (binding != "_").then_some(binding)
            }
        };
        let node = self.add_node(
            place.part(Part::UseLeaf(leaf.clone())),
            Kind::Use { path },
            TokenStream::new(),
        );
        if let Some(binding) = binding {
            self.module_mut(place.module)
                .imports
                .entry(binding)
                .or_default()
                .push(node);
        }
    }

    fn collect_impl(&mut self, imp: &syn::ItemImpl, place: Place) {
        let paths = |tokens: TokenStream| -> Vec<Vec<String>> {
            let mut scan = Scan::default();
            scan.tokens(tokens);
            let mut paths = scan.paths;
            paths.sort();
            paths.dedup();
            paths
        };
        let self_names = paths(imp.self_ty.to_token_stream());
        let trait_path = imp.trait_.as_ref().map(|(_, path, _)| {
            path.segments
                .iter()
                .map(|s| unraw(&s.ident))
                .collect::<Vec<_>>()
        });
        let mut trait_args = TokenStream::new();
        if let Some((_, path, _)) = &imp.trait_ {
            for segment in &path.segments {
                segment.arguments.to_tokens(&mut trait_args);
            }
        }
        let trait_arg_names = paths(trait_args);
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
        let kind = Kind::Impl {
            self_names,
            trait_path,
            trait_arg_names,
        };
        let owner = self.add_node(place.clone(), kind, header);
        for (k, it) in imp.items.iter().enumerate() {
            let name = match it {
                ImplItem::Fn(f) => Some(unraw(&f.sig.ident)),
                ImplItem::Const(c) => Some(unraw(&c.ident)),
                ImplItem::Type(t) => Some(unraw(&t.ident)),
                // A macro call in an impl block has no name: it goes with its impl.
                _ => None,
            };
            self.add_node(
                place.part(Part::Member(k)),
                Kind::ImplMember { owner, name },
                it.to_token_stream(),
            );
        }
    }

    /// What the rules need once everything is collected: which traits each impl implements,
    /// where each trait is in scope, and which macros each macro may expand.
    fn link(&mut self) {
        self.rewritten = self.rewritten_by_attributes();
        let mut traits_of_impl = BTreeMap::new();
        for (id, node) in self.node_ids() {
            if let Kind::Impl {
                trait_path: Some(path),
                ..
            } = &node.kind
            {
                let traits: Vec<NodeId> = self
                    .resolve_quietly(node.module(), path)
                    .into_iter()
                    .filter_map(|t| match t {
                        Target::Node(n) if self[n].kind.is_trait() => Some(n),
                        _ => None,
                    })
                    .collect();
                traits_of_impl.insert(id, traits);
            }
        }
        self.traits_of_impl = traits_of_impl;
        // An impl of a trait, or for a type, that is in a stand-in is of no use: its trait or
        // type is never live.
        let mut impls_of_refused = BTreeSet::new();
        for (id, node) in self.node_ids() {
            if let Kind::Impl {
                trait_path,
                self_names,
                trait_arg_names,
            } = &node.kind
            {
                let refused = |path: &[String]| {
                    self.resolve_quietly(node.module(), path)
                        .iter()
                        .any(|t| matches!(t, Target::Refused(_)))
                };
                let self_refused = self_names.iter().chain(trait_arg_names).any(|p| refused(p));
                if trait_path.as_deref().is_some_and(refused) || self_refused {
                    impls_of_refused.insert(id);
                }
            }
        }
        self.impls_of_refused = impls_of_refused;

        let mut scopes: BTreeMap<NodeId, BTreeSet<ModId>> = BTreeMap::new();
        let mut traits_of_glob = BTreeMap::new();
        for (id, node) in self.node_ids() {
            match &node.kind {
                Kind::Trait { .. } => {
                    scopes.entry(id).or_default().insert(node.module());
                }
                Kind::Glob { path } => {
                    let mut traits = BTreeSet::new();
                    for target in self.resolve_quietly(node.module(), path) {
                        if let Target::Module(m) = target {
                            let mut visited = BTreeSet::new();
                            self.traits_visible_in(node.module(), m, &mut traits, &mut visited);
                        }
                    }
                    for &t in &traits {
                        scopes.entry(t).or_default().insert(node.module());
                    }
                    traits_of_glob.insert(id, traits);
                }
                Kind::Use { path } => {
                    for target in self.resolve_quietly(node.module(), path) {
                        if let Target::Node(t) = target {
                            if self[t].kind.is_trait() {
                                scopes.entry(t).or_default().insert(node.module());
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
                scan.tokens(self[d].tokens.clone());
                for path in &scan.macro_paths {
                    todo.extend(self.macros_called(self[d].module(), path));
                }
            }
            expansions.insert(definition, found.into_iter().collect());
        }
        self.expansions = expansions;
    }

    /// Items with an attribute macro among the attributes they open with (see
    /// [`Graph::rewritten`]), each with the names it may define.
    fn rewritten_by_attributes(&self) -> BTreeMap<NodeId, BTreeSet<String>> {
        let mut rewritten: BTreeMap<NodeId, BTreeSet<String>> = BTreeMap::new();
        for (id, node) in self.node_ids() {
            if node.place.part != Part::Whole
                || matches!(
                    node.kind,
                    Kind::Mod { .. } | Kind::Use { .. } | Kind::Glob { .. }
                )
            {
                continue;
            }
            let (macros, attributes) = leading_attribute_macros(&node.tokens);
            if macros.is_empty() {
                continue;
            }
            let mut defined = BTreeSet::new();
            defined_names(node.tokens.clone(), &mut defined);
            defined.extend(node.name.iter().cloned());
            let mut words = BTreeSet::new();
            idents(attributes, &mut words);
            defined.extend(words.into_iter().filter(|w| may_name_an_item(w)));
            rewritten.insert(id, defined);
        }
        for node in &self.nodes {
            if let Kind::ImplMember {
                owner,
                name: Some(name),
            }
            | Kind::TraitMember {
                owner,
                name: Some(name),
                ..
            } = &node.kind
            {
                if let Some(defined) = rewritten.get_mut(owner) {
                    defined.insert(name.clone());
                }
            }
        }
        rewritten
    }

    /// The traits a glob import of `module` brings: defined there, imported there (a glob
    /// imports re-exports too), or through its own globs.
    /// `origin` is the module of the glob.
    fn traits_visible_in(
        &self,
        origin: ModId,
        module: ModId,
        traits: &mut BTreeSet<NodeId>,
        visited: &mut BTreeSet<ModId>,
    ) {
        if !visited.insert(module) {
            return;
        }
        let here = &self[module];
        if here.unloaded {
            self.unloaded_needed.borrow_mut().insert((origin, module));
            return;
        }
        for &node in here.defs.values().flatten() {
            if self[node].kind.is_trait() {
                traits.insert(node);
            }
        }
        for &leaf in here.imports.values().flatten() {
            if let Kind::Use { path } = &self[leaf].kind {
                for target in self.resolve_quietly_for(origin, module, path) {
                    if let Target::Node(t) = target {
                        if self[t].kind.is_trait() {
                            traits.insert(t);
                        }
                    }
                }
            }
        }
        for &glob in &here.globs {
            if let Kind::Glob { path } = &self[glob].kind {
                for target in self.resolve_quietly_for(origin, module, path) {
                    if let Target::Module(m) = target {
                        self.traits_visible_in(origin, m, traits, visited);
                    }
                }
            }
        }
    }
}
