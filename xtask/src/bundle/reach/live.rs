//! The fixpoint: which nodes `main` reaches, through the paths their tokens name and the rules
//! that keep a node no path names (method resolution, impls, macros, imports of traits).

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;

use super::graph::{Graph, Kind, MacroFacts, ModId, NodeId, NodeSet, Target};
use super::scan::{
    call_arguments, defined_names, idents, may_name_an_item, words_named_by_rules, Scan,
};
use super::Level;
use crate::bundle::macro_origin::macro_uses;

/// A walk towards the fixpoint: what is live so far and what live code uses.
#[derive(Debug, Default)]
pub(super) struct Reach {
    live: NodeSet,
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
    pub(super) touched: BTreeSet<ModId>,
    /// Names a path looked for in a module (found or not): a macro call of that module may
    /// define them (`cfg_64!(fn adc(...) {...})` beside a `#[cfg]`-ed out `fn adc`).
    pub(super) looked_up: BTreeSet<(ModId, String)>,
    /// Macro definitions (and calls that make macros) whose bodies were resolved from a
    /// calling module.
    expanded: BTreeSet<(ModId, NodeId)>,
    /// Resolving to answer a question: nothing is marked or noted.
    pub(super) quiet: bool,
    /// The node being followed: what a node marked now is marked for.
    current: Option<NodeId>,
    /// For each live node, the node it was marked for (none for `main` and what is always
    /// kept): the way back to `main`.
    parent: BTreeMap<NodeId, NodeId>,
    /// For each module a path went into or ended at, the node whose path did so first.
    entered: BTreeMap<ModId, Option<NodeId>>,
    /// For each stand-in a macro of which a live node uses (an attribute, a derive, a call),
    /// that macro as written, first met: what the refusal names.
    macro_of: BTreeMap<ModId, String>,
    /// For each name used as a member, the node that used it first.
    member_by: BTreeMap<String, NodeId>,
    /// Every identifier in a live macro definition or item-position macro call: a provided
    /// trait method of such a name may be overridden by what the macro writes.
    macro_idents: BTreeSet<String>,
}

/// What the walk of a bundle with libraries not read yet found (see
/// [`Graph::live_or_unloaded`]).
pub(super) enum Walked {
    /// The live nodes: the walk reached no library not read.
    Live(NodeSet),
    /// The libraries not read that it may reach, by their modules' names: to be read.
    Unread(BTreeSet<String>),
}

/// What the solution reaches of something that could not be bundled: the reason, and the way
/// from `main` to it, one node after another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// Why it cannot be bundled.
    pub reason: String,
    /// `main`, then each node on the way, then the module that stands in for it.
    pub chain: Vec<String>,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}; the solution reaches it: {}",
            self.reason,
            self.chain.join(" → ")
        )
    }
}

impl Reach {
    /// A walk that marks and notes nothing: for resolving to answer a question.
    pub(super) fn quiet() -> Reach {
        Reach {
            quiet: true,
            ..Reach::default()
        }
    }

    pub(super) fn mark(&mut self, node: NodeId) {
        if !self.quiet && self.live.insert(node) {
            if let Some(parent) = self.current {
                self.parent.insert(node, parent);
            }
            self.todo.push(node);
        }
    }

    /// Notes that a path went into (or ended at) `module`.
    pub(super) fn enter(&mut self, module: ModId) {
        if !self.quiet {
            self.touched.insert(module);
            self.entered.entry(module).or_insert(self.current);
        }
    }

    pub(super) fn use_member(&mut self, module: ModId, name: String) {
        if self.quiet {
            return;
        }
        if let Some(by) = self.current {
            self.member_by.entry(name.clone()).or_insert(by);
        }
        self.members_in
            .entry(module)
            .or_default()
            .insert(name.clone());
        self.members.insert(name);
    }
}

impl Graph {
    /// The nodes `main` reaches, with everything always kept (see [`Kind::Other`] and
    /// [`Level`]); or, when it reaches a stand-in for what could not be bundled, why not.
    pub(super) fn live(&self) -> Result<NodeSet, Refusal> {
        self.refusal(self.walk())
    }

    /// The libraries not read yet (see [`super::UNLOADED`]) that `main` reaches, by their
    /// modules' names, or else what [`Graph::live`] says. A library not read is never
    /// reached when no path from live code looks into it and its module is not live: then it
    /// keeps nothing, whatever it holds, and what the rest keeps is what it would keep beside
    /// it (a node of it is live only through a path into it, every rule asks for a live node
    /// of its own crate or a live module, and what a lookup met there is noted with the
    /// module it started from).
    pub(super) fn live_or_unloaded(&self) -> Result<Walked, Refusal> {
        let reach = self.walk();
        let module_live = |m: ModId| self[m].node.is_none_or(|n| reach.live.contains(n));
        let mut needed: BTreeSet<String> = self
            .unloaded_needed
            .borrow()
            .iter()
            .filter(|&&(origin, _)| module_live(origin))
            .map(|&(_, m)| self[m].name.clone())
            .collect();
        needed.extend(
            self.module_ids()
                .filter(|(m, module)| module.unloaded && module_live(*m))
                .map(|(_, module)| module.name.clone()),
        );
        if needed.is_empty() {
            self.refusal(reach).map(Walked::Live)
        } else {
            Ok(Walked::Unread(needed))
        }
    }

    /// The live nodes of a finished walk, or the refusal when it reaches a stand-in.
    fn refusal(&self, reach: Reach) -> Result<NodeSet, Refusal> {
        for (id, module) in self.module_ids() {
            let Some(reason) = &module.refused else {
                continue;
            };
            let by = match (reach.entered.get(&id), module.node) {
                (Some(&by), _) => by,
                (None, Some(node)) if reach.live.contains(node) => reach.parent.get(&node).copied(),
                _ => continue,
            };
            let mut chain = vec![match reach.macro_of.get(&id) {
                Some(used) => format!("{} ({used})", self.module_path(id)),
                None => self.module_path(id),
            }];
            let mut at = by;
            let mut seen = BTreeSet::new();
            while let Some(node) = at.filter(|&n| seen.insert(n)) {
                let said = self.describe(node);
                if !chain.contains(&said) {
                    chain.push(said);
                }
                at = reach.parent.get(&node).copied();
            }
            chain.reverse();
            return Err(Refusal {
                reason: reason.clone(),
                chain,
            });
        }
        Ok(reach.live)
    }

    /// The walk to the fixpoint from `main`.
    fn walk(&self) -> Reach {
        let mut reach = Reach {
            live: NodeSet::empty(self),
            ..Reach::default()
        };
        for (id, node) in self.node_ids() {
            let whole = self[node.module()].level == Level::Crate;
            let stand_in =
                matches!(node.kind, Kind::Mod { module } if self[module].refused.is_some());
            // What no path can name (`const _`, a foreign block) is kept with its module: at
            // the root from the start, elsewhere by rule once the module is live.
            let at_root = matches!(node.kind, Kind::Other) && node.module() == ModId::ROOT;
            if (at_root || whole) && !stand_in {
                reach.mark(id);
            }
        }
        for &main in self[ModId::ROOT].defs.get("main").into_iter().flatten() {
            reach.mark(main);
        }
        loop {
            while let Some(node) = reach.todo.pop() {
                self.follow(node, &mut reach);
            }
            // Rules that depend on what is live so far; repeat until nothing changes.
            for (id, node) in self.node_ids() {
                // An inherent impl is applicable by rule, kept by its members.
                let inherent = matches!(
                    node.kind,
                    Kind::Impl {
                        trait_path: None,
                        ..
                    }
                );
                if !reach.live.contains(id) && !inherent && self.kept_by_rules(id, &reach) {
                    reach.current = self.kept_for(id, &reach);
                    reach.mark(id);
                }
            }
            reach.current = None;
            if reach.todo.is_empty() {
                return reach;
            }
        }
    }

    /// What a node kept by a rule is kept for, in messages: a member or a trait for the code
    /// that used its name as a member, anything else for its module.
    fn kept_for(&self, id: NodeId, reach: &Reach) -> Option<NodeId> {
        let used = |name: &String| reach.member_by.get(name).copied();
        match &self[id].kind {
            Kind::ImplMember { owner, name } | Kind::TraitMember { owner, name, .. } => {
                name.as_ref().and_then(used).or(Some(*owner))
            }
            Kind::Trait { members } => members
                .iter()
                .find_map(used)
                .or(self[self[id].module()].node),
            // An item an attribute macro rewrites: for the code that used one of its names.
            _ if self.rewritten.contains_key(&id) => self.rewritten[&id]
                .iter()
                .find_map(used)
                .or(self[self[id].module()].node),
            _ => self[self[id].module()].node,
        }
    }

    /// Marks what a live node's tokens lead to, and the modules that hold it.
    fn follow(&self, id: NodeId, reach: &mut Reach) {
        reach.current = Some(id);
        let node = &self[id];
        if matches!(node.kind, Kind::MacroRules | Kind::MacroCall { .. }) {
            idents(node.tokens.clone(), &mut reach.macro_idents);
        }
        let module = node.module();
        // The module holding a live node stays, and so do the modules above it.
        let mut above = Some(module);
        while let Some(m) = above {
            if let Some(node) = self[m].node {
                reach.mark(node);
            }
            above = self[m].parent;
        }
        match &node.kind {
            Kind::Use { path } | Kind::Glob { path } => {
                for target in self.resolve_path(module, path, reach) {
                    self.mark_target(target, reach);
                }
                return;
            }
            Kind::Mod { .. } => return,
            Kind::ImplMember { owner, .. } | Kind::TraitMember { owner, .. } => reach.mark(*owner),
            Kind::MacroCall { path } => {
                let called = self.macros_called(module, path);
                if called.is_empty() {
                    self.expand_made_at(module, path, reach);
                }
                let mut words = BTreeSet::new();
                idents(node.tokens.clone(), &mut words);
                for definition in called {
                    self.expand_at(module, definition, reach);
                    self.passed_into_paths(definition, &words, reach);
                }
                // A macro's name passed along may be called as `$m!` (petgraph's
                // `GraphBase! { delegate_impl [] }`).
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
            if matches!(node.kind, Kind::MacroRules) {
                reach.macro_members.insert(member.clone());
            }
            reach.use_member(module, member);
        }
        for path in &scan.paths {
            for target in self.resolve_path(module, path, reach) {
                self.mark_target(target, reach);
            }
            // A name a block's `use` bound: the rest of the path goes on from its path (and,
            // for a block's glob, may go on from there).
            let Some(first) = path.first() else {
                continue;
            };
            let mut through: Vec<Vec<String>> = scan
                .block_uses
                .iter()
                .filter(|(name, _)| name == first)
                .map(|(_, to)| to.iter().chain(&path[1..]).cloned().collect())
                .collect();
            through.extend(
                scan.block_globs
                    .iter()
                    .map(|glob| glob.iter().chain(path).cloned().collect()),
            );
            for path in through {
                for target in self.resolve_path(module, &path, reach) {
                    self.mark_target(target, reach);
                }
            }
        }
        for path in &scan.macro_paths {
            for definition in self.macros_called(module, path) {
                self.expand_at(module, definition, reach);
            }
        }
        // An attribute, a derive or a macro from what could not be bundled (a proc-macro
        // crate): the way to it, for the refusal.
        for used in macro_uses(&node.tokens) {
            if let Some(stand_in) = self.macro_origin(module, &used) {
                reach.enter(stand_in);
                if !reach.quiet {
                    reach.macro_of.entry(stand_in).or_insert(used.written());
                }
            }
        }
    }

    /// A call in `module` of the macro `definition`: it stays, and the paths in its body, and in
    /// the macros it calls, also resolve from `module`, where they expand (a body's
    /// `UsizePromotion` means the one the calling module imports).
    fn expand_at(&self, module: ModId, definition: NodeId, reach: &mut Reach) {
        reach.mark(definition);
        let defined_in = self[definition].module();
        if defined_in == module || !reach.expanded.insert((module, definition)) {
            return;
        }
        let mut scan = Scan::default();
        scan.tokens(self[definition].tokens.clone());
        for path in scan.paths {
            for target in self.resolve_path(module, &path, reach) {
                self.mark_target(target, reach);
            }
        }
        // The macros it calls expand there too.
        for path in &scan.macro_paths {
            for inner in self.macros_called(defined_in, path) {
                self.expand_at(module, inner, reach);
            }
        }
    }

    /// The words a call passes to `definition` that its body puts at the end of a path
    /// (`$crate::typenum::$u`, called with `U0, U1, ..., U11`): each is looked up there.
    fn passed_into_paths(&self, definition: NodeId, words: &BTreeSet<String>, reach: &mut Reach) {
        let mut scan = Scan::default();
        scan.tokens(self[definition].tokens.clone());
        let at = self[definition].module();
        for prefix in &scan.metavariable_prefixes {
            for word in words {
                let path: Vec<String> = prefix.iter().chain([word]).cloned().collect();
                for target in self.resolve_path(at, &path, reach) {
                    self.mark_target(target, reach);
                }
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
        let krate = self[module].krate;
        for (id, node) in self.node_ids() {
            if !matches!(node.kind, Kind::MacroCall { .. })
                || self[node.module()].krate != krate
                || node.module() == module
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
            Target::Refused(module) => reach.enter(module),
            // Noted where it was met (see `Graph::unloaded_needed`).
            Target::Unloaded(_) => {}
            Target::Module(module) => {
                if self[module].refused.is_some() {
                    reach.enter(module);
                }
                if let Some(node) = self[module].node {
                    reach.mark(node);
                }
            }
        }
    }

    /// The rules that keep a node without a path naming it (see the module docs).
    fn kept_by_rules(&self, id: NodeId, reach: &Reach) -> bool {
        let node = &self[id];
        let module = &self[node.module()];
        let module_live = module.node.is_none_or(|m| reach.live.contains(m));
        if module.level == Level::Modules
            && (module_live || reach.touched.contains(&node.module()))
            && !matches!(node.kind, Kind::Mod { .. })
        {
            return true;
        }
        // An item an attribute macro may rewrite whole is kept as a macro call is: when it may
        // define a name looked for in its module, or one used as a member (easy-ext's
        // `#[ext(ChMax)] impl i64 { fn chmax ... }` for `x.chmax(y)`), whatever its kind says.
        if let Some(defined) = self.rewritten.get(&id) {
            let looked_up =
                |name: &String| reach.looked_up.contains(&(node.module(), name.clone()));
            if module_live
                && defined
                    .iter()
                    .any(|n| reach.members.contains(n) || looked_up(n))
            {
                return true;
            }
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
                reach.live.contains(*owner)
                    && (!provided
                        || name.as_ref().is_some_and(|name| {
                            reach.members.contains(name) || reach.macro_idents.contains(name)
                        }))
            }
            Kind::ImplMember { owner, name } => {
                match self.traits_of_impl.get(owner) {
                    // An inherent method: wanted when its name is used and its impl is about
                    // live types (then the impl stays for it).
                    None => {
                        (reach.live.contains(*owner) || self.kept_by_rules(*owner, reach))
                            && name
                                .as_ref()
                                .is_none_or(|name| reach.members.contains(name))
                    }
                    Some(_) if !reach.live.contains(*owner) => false,
                    // A trait's: with the trait's item of its name (all of a foreign trait's).
                    Some(traits) => match name {
                        None => true,
                        Some(name) => {
                            traits.is_empty()
                                || traits.iter().any(|t| {
                                    self.trait_members
                                        .get(&(*t, name.clone()))
                                        .is_none_or(|&m| reach.live.contains(m))
                                })
                        }
                    },
                }
            }
            // Its trait could not be bundled: never live, so neither is the impl.
            Kind::Impl { .. } if self.impls_of_refused.contains(&id) => false,
            Kind::Impl {
                self_names,
                trait_path,
                trait_arg_names,
            } => {
                // The bundle's types and traits the impl is about (`Ratio<BigInt>` names two):
                // it is of use only when all of them are live.
                let about = self.impl_about(id, self_names, trait_arg_names);
                let all_live = about.iter().all(|&n| reach.live.contains(n));
                match trait_path {
                    // An inherent impl stays for its members (see `Kind::ImplMember`).
                    None => !about.is_empty() && all_live,
                    Some(_) => {
                        let traits = &self.traits_of_impl[&id];
                        if traits.is_empty() {
                            // A foreign trait (`Display`, `From<Meters> for f64`).
                            !about.is_empty() && all_live
                        } else {
                            // One of ours, maybe for a type from elsewhere (`impl<T> Ext for [T]`).
                            traits.iter().any(|&t| reach.live.contains(t)) && all_live
                        }
                    }
                }
            }
            Kind::MacroCall { path } => self.macro_call_kept(id, path, reach),
            Kind::Other => module_live,
            // A glob that brings a live trait into scope.
            Kind::Glob { .. } => {
                module_live
                    && self.traits_of_glob[&id]
                        .iter()
                        .any(|&t| reach.live.contains(t))
            }
            Kind::Use { path } => {
                if !module_live {
                    return false;
                }
                // A live trait imported for its methods, or what may be a trait from std.
                // (`self::std::fmt::Write` too: a no_std crate's `use core as std;`.)
                let from = match path.first().map(String::as_str) {
                    Some("self") => path.get(1),
                    _ => path.first(),
                };
                let external = matches!(
                    from.map(String::as_str),
                    Some("std" | "core" | "alloc" | "::")
                );
                if external {
                    return path
                        .last()
                        .is_some_and(|s| s.starts_with(|c: char| c.is_ascii_uppercase()));
                }
                let live_trait = |t: &Target| match *t {
                    Target::Node(n) => reach.live.contains(n) && self[n].kind.is_trait(),
                    Target::Module(_) | Target::Refused(_) | Target::Unloaded(_) => false,
                };
                self.resolve_quietly(node.module(), path)
                    .iter()
                    .any(live_trait)
            }
            _ => false,
        }
    }

    /// The bundle's types and traits an impl is about (worked out once per impl).
    fn impl_about(
        &self,
        id: NodeId,
        self_names: &[Vec<String>],
        trait_arg_names: &[Vec<String>],
    ) -> std::rc::Rc<Vec<NodeId>> {
        if let Some(about) = self.impl_about.borrow().get(&id) {
            return about.clone();
        }
        let mut about = Vec::new();
        for path in self_names.iter().chain(trait_arg_names) {
            for target in self.resolve_quietly(self[id].module(), path) {
                if let Target::Node(n) = target {
                    if self[n].kind.is_type() || self[n].kind.is_trait() {
                        about.push(n);
                    }
                }
            }
        }
        let about = std::rc::Rc::new(about);
        self.impl_about.borrow_mut().insert(id, about.clone());
        about
    }

    /// What a macro call's rules go by, which does not change as the walk goes on (worked out
    /// once per call): `None` for a macro with no definition in sight.
    fn macro_call_facts(&self, id: NodeId, path: &[String]) -> std::rc::Rc<Option<MacroFacts>> {
        if let Some(facts) = self.macro_facts.borrow().get(&id) {
            return facts.clone();
        }
        let node = &self[id];
        let module = node.module();
        let called = self.macros_called(module, path);
        let facts = if called.is_empty() {
            None
        } else {
            let mut definitions: Vec<NodeId> = Vec::new();
            for called in &called {
                definitions.extend(self.expansions.get(called).into_iter().flatten());
            }
            let mut defined = BTreeSet::new();
            defined_names(node.tokens.clone(), &mut defined);
            let mut by_metavariable = false;
            for &definition in &definitions {
                by_metavariable |= defined_names(self[definition].tokens.clone(), &mut defined);
            }
            // `make_fn!(double, 2)` of a macro that writes `fn $name`, lazy_static's calls of
            // one that writes `struct $N`: the words passed where the rules put an item's name
            // (when the matcher tells where that is), or else every word passed.
            if by_metavariable {
                let arguments = call_arguments(&node.tokens);
                let mut words = BTreeSet::new();
                let mut told = true;
                for &definition in &called {
                    // A macro its rules call writes items named by what it is passed.
                    let at = self[definition].module();
                    let onward = |path: &[String]| {
                        self.macros_called(at, path).iter().any(|&inner| {
                            self.expansions.get(&inner).into_iter().flatten().any(|&d| {
                                defined_names(self[d].tokens.clone(), &mut BTreeSet::new())
                            })
                        })
                    };
                    match words_named_by_rules(&self[definition].tokens, &arguments, &onward) {
                        Some(named) => words.extend(named),
                        None => told = false,
                    }
                }
                if !told {
                    idents(arguments, &mut words);
                }
                defined.extend(words.into_iter().filter(|w| may_name_an_item(w)));
            }
            let named = |tokens: &TokenStream| -> Vec<NodeId> {
                let mut scan = Scan::default();
                scan.tokens(tokens.clone());
                scan.paths
                    .iter()
                    .flat_map(|path| self.resolve_quietly(module, path))
                    .filter_map(|t| match t {
                        Target::Node(n) => Some(n),
                        Target::Module(_) | Target::Refused(_) | Target::Unloaded(_) => None,
                    })
                    .collect()
            };
            // What a macro call writes is about its own crate's types or traits: an impl of
            // another crate's trait for another crate's type cannot be written there (the
            // orphan rule), so another crate's types it names (`Result<(), Error>` in a
            // signature) say nothing of whether it is needed.
            let krate = self[module].krate;
            let local = |mut nodes: Vec<NodeId>| {
                nodes.retain(|&n| self[self[n].module()].krate == krate);
                nodes.sort();
                nodes.dedup();
                nodes
            };
            let in_call = local(named(&node.tokens));
            let mut in_body = Vec::new();
            for &definition in &definitions {
                in_body.extend(named(&self[definition].tokens));
            }
            Some(MacroFacts {
                defined,
                in_call,
                in_body: local(in_body),
            })
        };
        let facts = std::rc::Rc::new(facts);
        self.macro_facts.borrow_mut().insert(id, facts.clone());
        facts
    }

    /// An item-position macro call stays when it may define a name a path looked for in its
    /// module (an item keyword and the name, in its tokens or its macros'), or may implement
    /// something for a live type: it names one (in its own tokens or its macros'), or names no
    /// type of the bundle but a live trait (`impl_zero!(u8 u16)` with a `Zero` in its macro's
    /// body).
    fn macro_call_kept(&self, id: NodeId, path: &[String], reach: &Reach) -> bool {
        let module = self[id].module();
        let facts = self.macro_call_facts(id, path);
        let Some(facts) = facts.as_ref() else {
            // A macro made by another macro (petgraph's `GraphBase! { delegate_impl [] }`), or
            // std's: nothing to judge it by, so it stays with its module.
            return self[module].node.is_none_or(|m| reach.live.contains(m));
        };
        let defines_looked_up = reach
            .looked_up
            .range((module, String::new())..)
            .take_while(|(m, _)| *m == module)
            .any(|(_, looked_up)| facts.defined.contains(looked_up));
        if defines_looked_up {
            return true;
        }
        let all = || facts.in_call.iter().chain(&facts.in_body);
        let is_type = |n: NodeId| self[n].kind.is_type();
        // `bits_for!(U17, u32)` writes `impl Bits for U17`: what a call writes is about the
        // types it names, as an impl is about the types it names, so it stays when every one
        // of them is live (bitmaps calls it for each of typenum's U1 to U1024; im-rc uses
        // two).
        let mut named = facts.in_call.iter().filter(|&&n| is_type(n)).peekable();
        if named.peek().is_some() {
            return named.all(|&n| reach.live.contains(n));
        }
        if all().any(|&n| is_type(n) && reach.live.contains(n)) {
            return true;
        }
        // `impl_integer!(i8)`: about no type of its crate, so about the trait it implements.
        let is_trait = |n: NodeId| self[n].kind.is_trait();
        all().any(|&n| is_trait(n) && reach.live.contains(n))
    }
}
