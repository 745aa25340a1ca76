//! Name resolution, as rustc resolves paths in the main: from a module, through its items,
//! child modules, `use` imports and re-exports, glob imports, `crate`, `self` and `super`;
//! and which `macro_rules!` definitions a macro call may mean.

use std::collections::{BTreeMap, BTreeSet};

use super::graph::{Graph, Kind, ModId, NodeId, Target};
use super::live::Reach;
use crate::bundle::macro_origin::{MacroKind, MacroUse};

/// A lookup's answer that a cycle may have cut short: (targets, imports gone through, the depth
/// of the shallowest lookup under way it met).
type CutShort = (Vec<Target>, Vec<NodeId>, usize);

/// One lookup's walk through imports: the lookups under way, and those done, with their
/// answers (targets, imports gone through).
#[derive(Debug)]
pub(super) struct Walk {
    /// The lookups under way, each with its depth.
    under_way: BTreeMap<(ModId, String), usize>,
    /// Lookups done whose answer a cycle may have cut short: (targets, imports, the depth of
    /// the shallowest lookup under way they met).
    done: BTreeMap<(ModId, String), CutShort>,
    /// The shallowest lookup under way that the current one met (`usize::MAX`: none).
    low: usize,
    /// Only where names lead is asked (a rule's question), not the imports on the way:
    /// nothing goes into `seen`.
    quiet: bool,
}

impl Default for Walk {
    fn default() -> Walk {
        Walk {
            under_way: BTreeMap::new(),
            done: BTreeMap::new(),
            low: usize::MAX,
            quiet: false,
        }
    }
}

impl Graph {
    /// Resolves without marking anything (for the rules' questions).
    pub(super) fn resolve_quietly(&self, module: ModId, path: &[String]) -> Vec<Target> {
        self.resolve_path(module, path, &mut Reach::quiet())
    }

    /// The same, for a question about `origin` (a glob there brings `module`'s names).
    pub(super) fn resolve_quietly_for(
        &self,
        origin: ModId,
        module: ModId,
        path: &[String],
    ) -> Vec<Target> {
        self.resolve_from(origin, module, path, &mut Reach::quiet())
    }

    /// The macro definitions a call of `path` in `module` may mean: for a bare name, its
    /// crate's definitions of it (textual scope) and what the name resolves to (an import, a
    /// glob, `#[macro_export]`); for a path, what it resolves to.
    pub(super) fn macros_called(&self, module: ModId, path: &[String]) -> Vec<NodeId> {
        let mut found: Vec<NodeId> = Vec::new();
        if let [name] = path {
            let krate = self[module].krate;
            found.extend(
                self.macros
                    .get(name)
                    .into_iter()
                    .flatten()
                    .filter(|&&d| self[self[d].module()].krate == krate),
            );
        }
        for target in self.resolve_quietly(module, path) {
            if let Target::Node(n) = target {
                if matches!(self[n].kind, Kind::MacroRules) && !found.contains(&n) {
                    found.push(n);
                }
            }
        }
        found
    }

    /// The stand-in a macro named in `module` comes from, if it comes from one: by its path
    /// (`#[pm::attr]`, `use pm::attr;`), or, when nothing of the bundle answers to the name,
    /// through a glob of a stand-in on the way (proconio's `pub use proconio_derive::*;`: a
    /// glob of a stand-in is otherwise not read, as any name may seem to come from it, but an
    /// attribute, a derive or a macro must come from somewhere). A `macro_rules!` of the
    /// bundle that the name may mean, or std's, is no stand-in's.
    pub(super) fn macro_origin(&self, module: ModId, used: &MacroUse) -> Option<ModId> {
        if used.kind == MacroKind::Bang && !self.macros_called(module, &used.path).is_empty() {
            return None;
        }
        let found = self.resolve_quietly(module, &used.path);
        for target in &found {
            match *target {
                Target::Refused(m) => return Some(m),
                Target::Module(m) if self[m].refused.is_some() => return Some(m),
                _ => {}
            }
        }
        if !found.is_empty() {
            return None;
        }
        self.through_stand_in_globs(module, module, &used.path, &mut BTreeSet::new())
    }

    /// The stand-in whose glob `path`, written in `module` and found nowhere else, may come
    /// through.
    fn through_stand_in_globs(
        &self,
        origin: ModId,
        module: ModId,
        path: &[String],
        visited: &mut BTreeSet<(ModId, String)>,
    ) -> Option<ModId> {
        let (name, prefix) = path.split_last()?;
        let scopes: Vec<ModId> = if prefix.is_empty() {
            vec![module]
        } else {
            let mut scopes = Vec::new();
            for target in self.resolve_quietly_for(origin, module, prefix) {
                match target {
                    Target::Refused(m) => return Some(m),
                    Target::Module(m) => scopes.push(m),
                    Target::Node(_) | Target::Unloaded(_) => {}
                }
            }
            scopes
        };
        scopes
            .into_iter()
            .find_map(|scope| self.stand_in_glob_in(origin, scope, name, visited))
    }

    /// The stand-in `name`, found nowhere in `module`, may come from through `module`'s imports
    /// of it and its globs.
    fn stand_in_glob_in(
        &self,
        origin: ModId,
        module: ModId,
        name: &str,
        visited: &mut BTreeSet<(ModId, String)>,
    ) -> Option<ModId> {
        if !visited.insert((module, name.to_owned())) {
            return None;
        }
        let here = &self[module];
        if here.refused.is_some() {
            return Some(module);
        }
        if here.unloaded {
            self.unloaded_needed.borrow_mut().insert((origin, module));
            return None;
        }
        for &leaf in here.imports.get(name).into_iter().flatten() {
            if let Kind::Use { path } = &self[leaf].kind {
                if let Some(m) = self.through_stand_in_globs(origin, module, path, visited) {
                    return Some(m);
                }
            }
        }
        for &glob in &here.globs {
            let Kind::Glob { path } = &self[glob].kind else {
                continue;
            };
            for target in self.resolve_quietly_for(origin, module, path) {
                let found = match target {
                    Target::Module(m) if self[m].refused.is_some() => Some(m),
                    Target::Refused(m) => Some(m),
                    Target::Module(m) => self.stand_in_glob_in(origin, m, name, visited),
                    Target::Node(_) | Target::Unloaded(_) => None,
                };
                if found.is_some() {
                    return found;
                }
            }
        }
        None
    }

    /// Where a path that starts with `first` starts from, when `first` is no name to look up:
    /// `crate`, `self`, `super`, or `::` (an extern crate: nothing of the bundle's).
    fn path_root(&self, module: ModId, first: &str) -> Option<Vec<Target>> {
        Some(match first {
            "::" => Vec::new(),
            "crate" => vec![Target::Module(ModId::ROOT)],
            "self" => vec![Target::Module(module)],
            "super" => self[module]
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
    pub(super) fn resolve_path(
        &self,
        module: ModId,
        path: &[String],
        reach: &mut Reach,
    ) -> Vec<Target> {
        self.resolve_from(module, module, path, reach)
    }

    /// [`Graph::resolve_path`] for a question about `origin`: a library not read yet that the
    /// path goes into is noted as needed where `origin` is live.
    fn resolve_from(
        &self,
        origin: ModId,
        module: ModId,
        path: &[String],
        reach: &mut Reach,
    ) -> Vec<Target> {
        let mut found = self.resolve_in(module, path, reach);
        found.retain(|t| match *t {
            Target::Unloaded(m) => {
                self.unloaded_needed.borrow_mut().insert((origin, m));
                false
            }
            _ => true,
        });
        found
    }

    fn resolve_in(&self, module: ModId, path: &[String], reach: &mut Reach) -> Vec<Target> {
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
                let found = self.lookup(module, first, &mut seen, reach.quiet);
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
                        reach.enter(m);
                        let segment = match segment.as_str() {
                            "super" => {
                                next.extend(self[m].parent.map(Target::Module));
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
                        next.extend(self.lookup(m, segment, &mut seen, reach.quiet));
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
                    Target::Refused(m) => next.push(Target::Refused(m)),
                    Target::Unloaded(m) => next.push(Target::Unloaded(m)),
                }
            }
            if next.is_empty() {
                return current
                    .into_iter()
                    .filter(|t| !matches!(t, Target::Module(_)))
                    .collect();
            }
            current = next;
        }
        current
    }

    /// What `name` means in `module`: items defined there, child modules, imports (whose
    /// leaves go into `seen`, to be kept) and glob imports.
    /// With `quiet`, only where it leads: nothing goes into `seen`.
    pub(super) fn lookup(
        &self,
        module: ModId,
        name: &str,
        seen: &mut Vec<NodeId>,
        quiet: bool,
    ) -> Vec<Target> {
        let mut found = Vec::new();
        let mut walk = Walk {
            quiet,
            ..Walk::default()
        };
        self.lookup_into(module, name, seen, &mut found, &mut walk);
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
        walk: &mut Walk,
    ) {
        // A lookup under way met again is a cycle of imports: it ends there, and what was
        // worked out below it meanwhile may lack what the cycle brings, so it is kept for this
        // walk only. A lookup that met no cycle above itself has its whole answer, kept for
        // good (glob imports that meet again, as zerocopy's do, would otherwise make each
        // lookup a walk of the whole crate).
        let key = (module, name.to_owned());
        if let Some((targets, used)) = self.lookups.borrow().get(&key) {
            found.extend(targets.iter().copied());
            if !walk.quiet {
                seen.extend(used.iter().copied());
            }
            return;
        }
        if walk.quiet {
            if let Some(targets) = self.quiet_lookups.borrow().get(&key) {
                found.extend(targets.iter().copied());
                return;
            }
        }
        if let Some((targets, used, low)) = walk.done.get(&key) {
            found.extend(targets.iter().copied());
            seen.extend(used.iter().copied());
            walk.low = walk.low.min(*low);
            return;
        }
        if let Some(&depth) = walk.under_way.get(&key) {
            // Met again while it is looked up (`use bitvec::prelude::*;` at the root, whose
            // own path starts with the `bitvec` looked up): what the module itself defines
            // under the name is its answer so far.
            walk.low = walk.low.min(depth);
            if self[module].refused.is_none() {
                self.defined_here(module, name, found);
            }
            return;
        }
        let depth = walk.under_way.len();
        walk.under_way.insert(key.clone(), depth);
        let outer = std::mem::replace(&mut walk.low, usize::MAX);
        let mut targets = Vec::new();
        let mut used = Vec::new();
        self.lookup_here(module, name, &mut used, &mut targets, walk);
        walk.under_way.remove(&key);
        let low = std::mem::replace(&mut walk.low, outer);
        targets.sort();
        targets.dedup();
        used.sort();
        used.dedup();
        found.extend(targets.iter().copied());
        seen.extend(used.iter().copied());
        if low >= depth {
            if walk.quiet {
                self.quiet_lookups.borrow_mut().insert(key, targets);
            } else {
                self.lookups.borrow_mut().insert(key, (targets, used));
            }
        } else {
            walk.low = walk.low.min(low);
            walk.done.insert(key, (targets, used, low));
        }
    }

    fn lookup_here(
        &self,
        module: ModId,
        name: &str,
        seen: &mut Vec<NodeId>,
        found: &mut Vec<Target>,
        walk: &mut Walk,
    ) {
        let here = &self[module];
        if here.refused.is_some() {
            found.push(Target::Refused(module));
            return;
        }
        if here.unloaded {
            found.push(Target::Unloaded(module));
            return;
        }
        if module == ModId::ROOT {
            let unloaded = self.unloaded_at_root.get(name).into_iter().flatten();
            found.extend(unloaded.map(|&m| Target::Unloaded(m)));
        }
        self.defined_here(module, name, found);
        for &leaf in here.imports.get(name).into_iter().flatten() {
            if let Kind::Use { path } = &self[leaf].kind {
                if !walk.quiet {
                    seen.push(leaf);
                }
                found.extend(self.resolve_use(module, path, seen, walk));
            }
        }
        for &glob in &here.globs {
            if let Kind::Glob { path } = &self[glob].kind {
                // The imports on the glob's own path are kept only when the name comes
                // through it (or is bound there to something outside the bundle): a module of
                // many globs would otherwise keep the imports of all of them for each name.
                let mut through = Vec::new();
                let mut bound = Vec::new();
                let mut inner = Vec::new();
                for target in self.resolve_use(module, path, &mut through, walk) {
                    match target {
                        // A glob of a stand-in is not read: any name may seem to come from it.
                        Target::Module(m) if self[m].refused.is_some() => {}
                        Target::Module(m) => {
                            self.lookup_into(m, name, &mut bound, &mut inner, walk)
                        }
                        // `use Enum::*`: the variants come with the enum.
                        Target::Node(n) => inner.push(Target::Node(n)),
                        Target::Refused(_) => {}
                        // Any name may come from it: the library must be read to tell.
                        Target::Unloaded(m) => inner.push(Target::Unloaded(m)),
                    }
                }
                if !inner.is_empty() || !bound.is_empty() {
                    seen.extend(through);
                    seen.extend(bound);
                }
                if !inner.is_empty() {
                    if !walk.quiet {
                        seen.push(glob);
                    }
                    found.extend(inner);
                }
            }
        }
    }

    /// What `module` itself defines under `name`: items and a child module.
    fn defined_here(&self, module: ModId, name: &str, found: &mut Vec<Target>) {
        let here = &self[module];
        found.extend(
            here.defs
                .get(name)
                .into_iter()
                .flatten()
                .map(|&n| Target::Node(n)),
        );
        found.extend(here.children.get(name).map(|&m| Target::Module(m)));
    }

    /// Resolves the path of a `use` leaf written in `module`.
    fn resolve_use(
        &self,
        module: ModId,
        path: &[String],
        seen: &mut Vec<NodeId>,
        walk: &mut Walk,
    ) -> Vec<Target> {
        let Some(first) = path.first() else {
            return vec![Target::Module(module)];
        };
        let mut current = match self.path_root(module, first) {
            Some(root) => root,
            None => {
                let mut found = Vec::new();
                self.lookup_into(module, first, seen, &mut found, walk);
                found
            }
        };
        for segment in &path[1..] {
            let mut next = Vec::new();
            for target in &current {
                match (*target, segment.as_str()) {
                    (Target::Module(m), "super") => next.extend(self[m].parent.map(Target::Module)),
                    (Target::Module(_), "self") => next.push(*target),
                    (Target::Module(m), segment) => {
                        self.lookup_into(m, segment, seen, &mut next, walk)
                    }
                    // `use Enum::Variant` or `use Type::method`-like: the item itself.
                    (Target::Node(n), _) => next.push(Target::Node(n)),
                    (Target::Refused(m), _) => next.push(Target::Refused(m)),
                    (Target::Unloaded(m), _) => next.push(Target::Unloaded(m)),
                }
            }
            current = next;
        }
        current
    }
}
