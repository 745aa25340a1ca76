//! Reachability: drops every item `main` cannot reach, with paths resolved module by module.
//!
//! Each item, `use` leaf, impl member, trait item and item-position macro call is a node. A
//! live node's tokens are scanned for paths (`a::b::c`, generic arguments skipped; not the name
//! an item defines, `fn zero`) and member names (after `.`, or a path's tail past a type); each
//! path is resolved from the node's module as rustc would in the main (defining items, child
//! modules, `use` imports, glob imports, `crate`/`self`/`super`, `#[macro_export]` macros at
//! the root), marking what it passes through live, re-exports included. A bare macro name
//! means its own crate's definitions of it (textual scope), and a macro's body also resolves
//! from the module that calls it. A library is a module at the root, a crate of its own; the
//! solution's own modules there (`#[macro_use] mod macros;`) are of the solution's crate.
//! Without type information some rules keep more than needed:
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
//! - an item-position macro call stays when it may define a name looked for in its module;
//!   else, when its tokens name types of the bundle, when every one of them is live (what it
//!   writes is about them, as an impl is); naming none, when its macros' bodies name a live
//!   type or trait. A word it passes that a body puts at a path's end (`$crate::m::$u`) is
//!   looked up there. A call of a macro with no definition in sight (one a macro made) stays
//!   with its module;
//! - a `use` of a live trait stays even when unnamed (method calls need it in scope), and so
//!   does a glob that brings one; so do capitalised imports from std (they may be traits).
//!
//! A name that resolves to nothing here (a local variable, std, a primitive) is simply not
//! followed: only items of the bundle can be dropped. What the rules cannot see (a method named
//! only as a macro's argument, `call!(x, doubled)`) makes a bundle rustc rejects: then
//! [`Level`] keeps more of a library ([`super::bundle`] checks and falls back).
//!
//! The parts, in the order they run: `graph.rs` reads the bundle once into an arena, each node
//! with its kind and its place in the syntax tree; `live.rs` finds the nodes `main` reaches
//! (with `resolve.rs` for names and `scan.rs` for what a node's tokens name); `prune.rs`
//! removes the others from the tree, each looked up by its place.

mod graph;
mod live;
mod prune;
mod resolve;
mod scan;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet};

use syn::{Attribute, Item};

use self::graph::Graph;
pub use self::live::Refusal;
use self::live::Walked;

/// The attribute that marks a stand-in: an empty module left where a crate or a module could
/// not go in (a proc-macro crate, a build script that does more than set `cfg`s, a file that
/// cannot be read), with the reason. It is never printed: [`prune`] removes a stand-in the
/// solution does not reach, and refuses the bundle when it does.
pub const REFUSED: &str = "__bundle_refused";

/// The attribute that marks a stand-in for a proc-macro crate, with its package and version:
/// where the macros of [`super::macro_origin`] come from.
pub const PROC_MACRO: &str = "__bundle_proc_macro";

/// The attribute that marks a library not read yet: an empty module left in its place, which
/// [`prune_read`] asks to be read when the solution may reach it (most of a crate's
/// dependencies are for parts no solution uses: rand's on libc and zerocopy). Its value names
/// what the library defines at the bundle's root (its `#[macro_export]` macros, as
/// [`super::macros::export`] renames them), space-separated. It is never printed.
pub const UNLOADED: &str = "__bundle_unloaded";

/// An empty module `name` standing in for a library not read yet (see [`UNLOADED`]), which
/// defines `at_root` at the bundle's root.
pub fn unloaded<'a>(name: &syn::Ident, at_root: impl IntoIterator<Item = &'a String>) -> Item {
    let marker = syn::Ident::new(UNLOADED, proc_macro2::Span::call_site());
    let at_root: Vec<&str> = at_root.into_iter().map(String::as_str).collect();
    let at_root = at_root.join(" ");
    empty_module(name, vec![syn::parse_quote!(#[#marker = #at_root])])
}

/// For a library not read yet, what it defines at the bundle's root (see [`UNLOADED`]).
pub fn unloaded_at_root(attrs: &[Attribute]) -> Option<Vec<String>> {
    let names = marked(attrs, UNLOADED)?;
    Some(names.split_whitespace().map(String::from).collect())
}

/// An empty module `name` standing in for what could not be bundled, and why; for a proc-macro
/// crate, `proc_macro` is its package and version.
pub fn stand_in(name: &syn::Ident, reason: &str, proc_macro: Option<&str>) -> Item {
    let marker = syn::Ident::new(REFUSED, proc_macro2::Span::call_site());
    let mut attrs: Vec<Attribute> = vec![syn::parse_quote!(#[#marker = #reason])];
    if let Some(package) = proc_macro {
        let marker = syn::Ident::new(PROC_MACRO, proc_macro2::Span::call_site());
        attrs.push(syn::parse_quote!(#[#marker = #package]));
    }
    empty_module(name, attrs)
}

/// `pub mod name {}` with `attrs`: what stands in for a library, never printed.
fn empty_module(name: &syn::Ident, attrs: Vec<Attribute>) -> Item {
    Item::Mod(syn::ItemMod {
        attrs,
        vis: syn::Visibility::Public(Default::default()),
        unsafety: None,
        mod_token: Default::default(),
        ident: name.clone(),
        content: Some((Default::default(), Vec::new())),
        semi: None,
    })
}

/// The reason a stand-in's attributes give, if they mark one.
pub fn refusal_of(attrs: &[Attribute]) -> Option<String> {
    marked(attrs, REFUSED)
}

/// The package and version of the proc-macro crate a stand-in's attributes mark, if any.
pub fn proc_macro_of(attrs: &[Attribute]) -> Option<String> {
    marked(attrs, PROC_MACRO)
}

fn marked(attrs: &[Attribute], marker: &str) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident(marker) => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// The key of a `levels` map ([`prune`]) that says how much of the solution's own code to keep
/// (its root and its own modules); no library's module can be named `crate`.
pub const SOLUTION: &str = "crate";

/// How much of a library crate, or of the solution ([`SOLUTION`]), to keep.
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
/// library inlined as `mod NAME` is kept as `levels[NAME]` says (item by item when absent), and
/// the solution's own code as `levels[SOLUTION]` says.
/// The modules at the root named in `own` are the solution's own (`mod macros;`), part of its
/// crate; every other module there is a library, a crate of its own. When `main` reaches a
/// stand-in ([`stand_in`]), nothing is removed and the refusal says how it is reached.
pub fn prune(
    items: &mut Vec<Item>,
    levels: &BTreeMap<String, Level>,
    own: &BTreeSet<String>,
) -> Result<(), Refusal> {
    let graph = Graph::build(items, levels, own);
    let live = graph.live()?;
    prune::keep_live(items, &graph, &live);
    Ok(())
}

/// [`prune`] item by item of a bundle in which some libraries are not read yet ([`unloaded`]):
/// when the solution may reach one of them, nothing is removed and their names are returned,
/// to be read and pruned again; else the bundle is pruned, and is what [`prune`] makes of the
/// bundle with every library read (none of those not read keeps anything). `own` as for
/// [`prune`].
pub fn prune_read(
    items: &mut Vec<Item>,
    own: &BTreeSet<String>,
) -> Result<BTreeSet<String>, Refusal> {
    let graph = Graph::build(items, &BTreeMap::new(), own);
    let live = match graph.live_or_unloaded()? {
        Walked::Live(live) => live,
        Walked::Unread(needed) => return Ok(needed),
    };
    prune::keep_live(items, &graph, &live);
    Ok(BTreeSet::new())
}
