//! `#[macro_export]` macros of bundled crates, made to work as Rust 2018 code calls them.
//!
//! `#[macro_export]` puts a macro at its crate's root. Inlined as `mod lib { ... }`, the crate's
//! macros would all land at the bundle's root, where `use lib::name;` in the solution also puts
//! `name` (E0255), and where two crates exporting one name collide. So each exported macro of a
//! library gets a name of its own in the bundle (`__lib__name`, still `#[macro_export]`, so any
//! module reaches it as `crate::__lib__name!`), and the library's module re-exports it under
//! its own name (`pub use crate::__lib__name as name;`): `lib::name!`, `use lib::name;` and the
//! library's `$crate::name!` (rewritten to `$crate::lib::name!`) all find it there. Inside the
//! library, where the macro was also in textual scope after its definition, its bare calls are
//! spelled out as `crate::lib::name!` (`$crate::lib::name!` in expansions); only a name the
//! library also gives a macro of its own keeps its calls, with a forwarding `macro_rules! name`
//! in the definition's place. `#[macro_export(local_inner_macros)]` bodies get their
//! single-name macro calls spelled out as `$crate::lib::helper!`, which is what that attribute
//! meant.
//!
//! `#[macro_use] extern crate lib;` (the 2015 way, which puts every exported macro of `lib` in
//! scope everywhere in the crate) becomes `use crate::lib::__macros::*;` in every module of the
//! crate that had it: a glob of a module holding nothing but the macros, so it never shadows a
//! name the crate defines or imports. `extern crate std/core/alloc` at a library's root (common
//! in `#![no_std]` crates) moves to the bundle's root, where it means the same.

use std::collections::BTreeSet;

use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::quote;
use syn::visit_mut::VisitMut;
use syn::{parse_quote, Item};

/// The module that re-exports all of a library's macros, for `#[macro_use]` users.
pub const MACROS_MODULE: &str = "__macros";

/// One exported macro of a library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exported {
    /// Its name in the library (`input`).
    pub name: String,
    /// Its name in the bundle (`__proconio__input`).
    pub unique: String,
}

fn ident(name: &str) -> Ident {
    super::ident(name)
}

/// The bundle-wide name of the exported macro `name` of the library inlined as `module`.
pub fn unique_name(module: &str, name: &str) -> String {
    format!("__{module}__{name}")
}

fn is_exported(mac: &syn::ItemMacro) -> bool {
    mac.ident.is_some() && mac.attrs.iter().any(|a| a.path().is_ident("macro_export"))
}

/// Renames the `#[macro_export]` macros of the library inlined as `module` (its items, after
/// [`super::expand::Rewrite`]) and re-exports them at its root; with `macros_module`, also
/// adds [`MACROS_MODULE`] for `#[macro_use]` users. The library's own bare calls of them are
/// spelled out as paths (see [`spell_out_bare_calls`]). Returns the macros.
pub fn export(items: &mut Vec<Item>, module: &str, macros_module: bool) -> Vec<Exported> {
    let mut exported = Vec::new();
    rename(items, module, &mut exported);
    // A name the library also gives a macro of its own (not exported) may mean that one where
    // it is in textual scope: such calls are left as they are, and a forwarder takes the
    // renamed definition's place.
    let shadowed = defined_names(&quote!(#(#items)*));
    let (forwarded, spelled): (Vec<Exported>, Vec<Exported>) = exported
        .iter()
        .cloned()
        .partition(|m| shadowed.contains(&m.name));
    let spelled: BTreeSet<String> = spelled.into_iter().map(|m| m.name).collect();
    spell_out_bare_calls(items, module, &spelled);
    let bare: Vec<bool> = forwarded
        .iter()
        .map(|m| calls_bare(&quote!(#(#items)*), &m.name))
        .collect();
    add_forwarders(items, &forwarded, &bare);
    for m in &exported {
        let (name, unique) = (ident(&m.name), ident(&m.unique));
        items.push(parse_quote! { pub use crate::#unique as #name; });
    }
    if macros_module && !exported.is_empty() {
        let leaves = exported.iter().map(|m| {
            let (name, unique) = (ident(&m.name), ident(&m.unique));
            quote!(#unique as #name)
        });
        let module = ident(MACROS_MODULE);
        items.push(parse_quote! {
            pub mod #module {
                pub use crate::{#(#leaves),*};
            }
        });
    }
    exported
}

/// The names of the `#[macro_export]` macros among `items` (a library's, as read), which
/// [`export`] puts at the bundle's root renamed by [`unique_name`].
pub fn exported_names(items: &[Item]) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for item in items {
        match item {
            Item::Macro(mac) if is_exported(mac) => {
                names.extend(mac.ident.as_ref().map(ToString::to_string));
            }
            Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    names.extend(exported_names(inner));
                }
            }
            _ => {}
        }
    }
    names
}

fn rename(items: &mut [Item], module: &str, exported: &mut Vec<Exported>) {
    for item in items {
        match item {
            Item::Macro(mac) if is_exported(mac) => {
                let name = mac.ident.as_ref().expect("exported macros have names");
                let unique = unique_name(module, &name.to_string());
                exported.push(Exported {
                    name: name.to_string(),
                    unique: unique.clone(),
                });
                mac.ident = Some(ident(&unique));
                for attr in &mut mac.attrs {
                    let inner = attr.path().is_ident("macro_export")
                        && attr
                            .meta
                            .require_list()
                            .is_ok_and(|l| l.tokens.to_string().contains("local_inner_macros"));
                    if inner {
                        *attr = parse_quote!(#[macro_export]);
                        let all = |_: &Ident| true;
                        mac.mac.tokens =
                            spell_out_in_rules(std::mem::take(&mut mac.mac.tokens), &all, module);
                    }
                }
            }
            Item::Mod(m) => {
                if let Some((_, inner)) = &mut m.content {
                    rename(inner, module, exported);
                }
            }
            _ => {}
        }
    }
}

/// The names of the `macro_rules!` definitions in `tokens` (after [`rename`], the library's
/// own macros: the exported ones are renamed apart).
fn defined_names(tokens: &TokenStream) -> BTreeSet<String> {
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let mut names = BTreeSet::new();
    for (i, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Group(g) => names.extend(defined_names(&g.stream())),
            TokenTree::Ident(id) if id == "macro_rules" => {
                let bang =
                    matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!');
                if let (true, Some(TokenTree::Ident(name))) = (bang, trees.get(i + 2)) {
                    names.insert(name.to_string());
                }
            }
            _ => {}
        }
    }
    names
}

/// Spells out the library's bare calls of its exported macros `names` as paths to the
/// library's re-exports: `crate::module::name!` in code, `$crate::module::name!` in macro
/// expansions (matchers are patterns, left alone).
///
/// Inside the crate a bare call found the definition in textual scope, the very macro its
/// `#[macro_export]` put at the crate's root, so rustc saw one macro under two kinds of name.
/// A forwarding `macro_rules!` in the renamed definition's place would be a second macro:
/// wherever the library's root re-export is also in scope (at its root, or through `use
/// super::*;`) rustc finds the name ambiguous, a `macro_rules` name against one from another
/// module (E0659; radium's `if_atomic!`, which bitvec reaches). A path means one macro.
fn spell_out_bare_calls(items: &mut [Item], module: &str, names: &BTreeSet<String>) {
    if names.is_empty() {
        return;
    }
    let calls = |id: &Ident| names.contains(&id.to_string());
    let mut spelling = Spelling {
        calls: &calls,
        module,
    };
    for item in items {
        spelling.visit_item_mut(item);
    }
}

/// The walk of [`spell_out_bare_calls`]: over every macro call and definition of a crate.
struct Spelling<'a> {
    calls: &'a dyn Fn(&Ident) -> bool,
    module: &'a str,
}

impl VisitMut for Spelling<'_> {
    fn visit_item_macro_mut(&mut self, item: &mut syn::ItemMacro) {
        if item.ident.is_some() {
            // `macro_rules! name { rules }`.
            let rules = std::mem::take(&mut item.mac.tokens);
            item.mac.tokens = spell_out_in_rules(rules, self.calls, self.module);
        } else {
            self.visit_macro_mut(&mut item.mac);
        }
    }

    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        let bare = mac.path.leading_colon.is_none()
            && mac.path.segments.len() == 1
            && mac.path.segments[0].arguments.is_none();
        if bare && (self.calls)(&mac.path.segments[0].ident) {
            let (module, name) = (ident(self.module), &mac.path.segments[0].ident);
            mac.path = parse_quote!(crate::#module::#name);
        }
        let tokens = std::mem::take(&mut mac.tokens);
        mac.tokens = spell_out_calls(tokens, self.calls, self.module, false);
    }
}

/// The rules of a `macro_rules!` (`(matcher) => { expansion };` ...) with the calls `calls`
/// picks spelled out in the expansions alone.
fn spell_out_in_rules(
    rules: TokenStream,
    calls: &dyn Fn(&Ident) -> bool,
    module: &str,
) -> TokenStream {
    let trees: Vec<TokenTree> = rules.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    for (i, tree) in trees.iter().enumerate() {
        let after_arrow = i >= 2
            && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == '>')
            && matches!(&trees[i - 2], TokenTree::Punct(p) if p.as_char() == '=');
        match tree {
            TokenTree::Group(g) if after_arrow => {
                out.push(regroup(g, spell_out_calls(g.stream(), calls, module, true)));
            }
            other => out.push(other.clone()),
        }
    }
    out.into_iter().collect()
}

/// `tokens` with each bare call that `calls` picks (see [`bare_call_at`]) spelled out as `crate::module::name!` (`$crate::...` in an
/// expansion). A `macro_rules!` met among them has its expansions alone rewritten.
fn spell_out_calls(
    tokens: TokenStream,
    calls: &dyn Fn(&Ident) -> bool,
    module: &str,
    in_expansion: bool,
) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let punct =
        |k: usize, c: char| matches!(trees.get(k), Some(TokenTree::Punct(p)) if p.as_char() == c);
    let mut out = TokenStream::new();
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Ident(id) if id == "macro_rules" && punct(i + 1, '!') => {
                out.extend(trees[i..=i + 1].iter().cloned());
                i += 2;
                if let (Some(name @ TokenTree::Ident(_)), Some(TokenTree::Group(g))) =
                    (trees.get(i), trees.get(i + 1))
                {
                    out.extend([
                        name.clone(),
                        regroup(g, spell_out_in_rules(g.stream(), calls, module)),
                    ]);
                    i += 2;
                }
                continue;
            }
            TokenTree::Group(g) => {
                out.extend([regroup(
                    g,
                    spell_out_calls(g.stream(), calls, module, in_expansion),
                )]);
            }
            TokenTree::Ident(id) if bare_call_at(&trees, i) && calls(id) => {
                let module = ident(module);
                if in_expansion {
                    out.extend(quote!($crate::#module::#id));
                } else {
                    out.extend(quote!(crate::#module::#id));
                }
            }
            other => out.extend([other.clone()]),
        }
        i += 1;
    }
    out
}

/// `g` with `stream` in place of its tokens, its delimiter and span kept.
fn regroup(g: &proc_macro2::Group, stream: TokenStream) -> TokenTree {
    let mut group = proc_macro2::Group::new(g.delimiter(), stream);
    group.set_span(g.span());
    TokenTree::Group(group)
}

/// Puts `macro_rules! name { ... => { $crate::__lib__name! { ... } } }` right after each renamed
/// definition whose bare name the library calls, so its textual scope is what it was.
fn add_forwarders(items: &mut Vec<Item>, exported: &[Exported], bare: &[bool]) {
    let mut k = 0;
    while k < items.len() {
        let forward = match &items[k] {
            Item::Macro(mac) if is_exported(mac) => {
                let unique = mac.ident.as_ref().map(Ident::to_string);
                exported
                    .iter()
                    .zip(bare)
                    .find(|(m, &b)| b && Some(&m.unique) == unique.as_ref())
                    .map(|(m, _)| m.clone())
            }
            _ => None,
        };
        if let Item::Mod(m) = &mut items[k] {
            if let Some((_, inner)) = &mut m.content {
                add_forwarders(inner, exported, bare);
            }
        }
        if let Some(m) = forward {
            let (name, unique) = (ident(&m.name), ident(&m.unique));
            let forwarder: Item = parse_quote! {
                macro_rules! #name {
                    ($($tokens:tt)*) => { $crate::#unique! { $($tokens)* } };
                }
            };
            items.insert(k + 1, forwarder);
            k += 1;
        }
        k += 1;
    }
}

/// Whether `tokens` call the macro `name` by its bare name (`name!`, not `path::name!`).
fn calls_bare(tokens: &TokenStream, name: &str) -> bool {
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    trees.iter().enumerate().any(|(i, tree)| match tree {
        TokenTree::Group(g) => calls_bare(&g.stream(), name),
        TokenTree::Ident(id) => id == name && bare_call_at(&trees, i),
        _ => false,
    })
}

/// Whether the word at `i` is called by its bare name: `name!`, not `path::name!`, `$name!`
/// or `name != x`.
fn bare_call_at(trees: &[TokenTree], i: usize) -> bool {
    let punct =
        |k: usize, c: char| matches!(trees.get(k), Some(TokenTree::Punct(p)) if p.as_char() == c);
    punct(i + 1, '!') && !punct(i + 2, '=') && !(i >= 1 && (punct(i - 1, ':') || punct(i - 1, '$')))
}

/// The `#[macro_use] extern crate NAME;` items at the root of a crate, for bundled crates
/// (`externs`, extern name -> module): their modules, to glob-import [`MACROS_MODULE`] from.
pub fn macro_use_crates(
    items: &[Item],
    externs: &std::collections::BTreeMap<String, String>,
) -> Vec<String> {
    items
        .iter()
        .filter_map(|item| match item {
            Item::ExternCrate(e) if e.attrs.iter().any(|a| a.path().is_ident("macro_use")) => {
                externs.get(&e.ident.to_string()).cloned()
            }
            _ => None,
        })
        .collect()
}

/// Puts `use crate::DEP::__macros::*;` in `items` and in every module below, for each of
/// `deps` (modules of crates that export macros).
pub fn import_macros(items: &mut Vec<Item>, deps: &[String]) {
    for item in items.iter_mut() {
        if let Item::Mod(m) = item {
            if let Some((_, inner)) = &mut m.content {
                import_macros(inner, deps);
            }
        }
    }
    let module = ident(MACROS_MODULE);
    for dep in deps.iter().rev() {
        let dep = ident(dep);
        items.insert(
            0,
            parse_quote! {
                #[allow(unused_imports)]
                use crate::#dep::#module::*;
            },
        );
    }
}

/// Takes `extern crate std;`, `core` and `alloc` (renamed or not) from the root of a library
/// and returns those the bundle's root must declare instead: at a crate's root they add to
/// every module's extern prelude, inside a module they would not (and `#[macro_use]` there is
/// an error; std's macros are in the bundle's prelude anyway). `std` and `core` under their
/// own names are in the bundle's prelude already.
pub fn take_std_crates(items: &mut Vec<Item>) -> Vec<syn::ItemExternCrate> {
    let mut hoisted = Vec::new();
    let old = std::mem::take(items);
    for item in old {
        let Item::ExternCrate(e) = &item else {
            items.push(item);
            continue;
        };
        let name = e.ident.to_string();
        if !matches!(name.as_str(), "std" | "core" | "alloc") {
            items.push(item);
            continue;
        }
        if name == "alloc" || e.rename.is_some() {
            let mut e = e.clone();
            e.attrs.retain(|a| !a.path().is_ident("macro_use"));
            e.vis = syn::Visibility::Inherited;
            hoisted.push(e);
        }
        // The name it bound at the crate's root (`crate::alloc::vec::Vec`) is still bound
        // there, now to the bundle's extern crate. A renamed one (fixedbitset's `extern crate
        // core as std;`) is not: rustc 1.63 finds `std` ambiguous beside its prelude's, and
        // the one hoisted to the bundle's root binds the name for every module already.
        if e.rename.is_some() {
            continue;
        }
        let attrs = without_macro_use(&e.attrs);
        // `pub extern crate alloc;` (smallvec): an extern crate may not be re-exported as
        // `pub`; within the bundle, all a one-file program has, it may.
        let vis: syn::Visibility = match &e.vis {
            syn::Visibility::Inherited => syn::Visibility::Inherited,
            _ => parse_quote!(pub(crate)),
        };
        let krate = &e.ident;
        items.push(parse_quote!(#(#attrs)* #vis use ::#krate;));
    }
    hoisted
}

/// An `extern crate`'s attributes but `#[macro_use]`, for the `use` that takes its place.
pub fn without_macro_use(attrs: &[syn::Attribute]) -> Vec<syn::Attribute> {
    attrs
        .iter()
        .filter(|a| !a.path().is_ident("macro_use"))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    fn text(items: &[Item]) -> String {
        quote!(#(#items)*).to_string()
    }

    #[test]
    fn exported_macros_get_unique_names_and_are_re_exported_by_their_own() {
        let mut file: syn::File = syn::parse_quote! {
            #[macro_export]
            macro_rules! input { ($($t:tt)*) => { $crate::lib::read!($($t)*) }; }
            pub mod inner {
                #[macro_export]
                macro_rules! read { ($x:expr) => { $x }; }
            }
            macro_rules! private { () => {}; }
        };
        let exported = export(&mut file.items, "lib", false);
        assert_eq!(
            exported,
            [
                Exported {
                    name: "input".into(),
                    unique: "__lib__input".into()
                },
                Exported {
                    name: "read".into(),
                    unique: "__lib__read".into()
                }
            ]
        );
        let out = text(&file.items);
        assert!(out.contains("macro_rules ! __lib__input"), "{out}");
        assert!(out.contains("macro_rules ! __lib__read"), "{out}");
        assert!(out.contains("macro_rules ! private"), "{out}");
        assert!(
            out.contains("pub use crate :: __lib__input as input ;"),
            "{out}"
        );
        assert!(
            out.contains("pub use crate :: __lib__read as read ;"),
            "{out}"
        );
        // Nothing calls them by their bare names: no forwarder, no macro module.
        assert!(!out.contains("macro_rules ! input"), "{out}");
        assert!(!out.contains(MACROS_MODULE), "{out}");
    }

    #[test]
    fn a_bare_call_inside_the_library_is_spelled_out_as_a_path() {
        // radium's `if_atomic!`: defined in a module, called bare at the root, where the
        // library's re-export also binds the name. A forwarder there was a second macro under
        // that name, ambiguous to rustc (E0659); a path is the one macro.
        let mut file: syn::File = syn::parse_quote! {
            #[macro_use]
            mod macros {
                #[macro_export]
                macro_rules! square { ($x:expr) => { $x * $x }; }
            }
            pub fn four() -> i32 { square!(2) }
            pub fn differs(a: i32, square: i32) -> bool { a != square }
            macro_rules! twice {
                (square!($x:expr)) => { square!($x) + square!($x) };
            }
            macro_rules! outer {
                () => { macro_rules! inner { (square!()) => { square!(1) }; } };
            }
        };
        export(&mut file.items, "lib", false);
        let out = text(&file.items);
        assert!(
            out.contains("fn four () -> i32 { crate :: lib :: square ! (2) }"),
            "{out}"
        );
        assert!(out.contains("a != square"), "{out}");
        // Expansions spell it with `$crate`; matchers, patterns to match, stay.
        assert!(
            out.contains("(square ! ($ x : expr)) => { $ crate :: lib :: square ! ($ x) + $ crate :: lib :: square ! ($ x) }"),
            "{out}"
        );
        assert!(
            out.contains("(square ! ()) => { $ crate :: lib :: square ! (1) }"),
            "{out}"
        );
        // No forwarder: `macro_rules! square` is gone, renamed apart.
        assert!(!out.contains("macro_rules ! square"), "{out}");
        assert!(
            out.contains("pub use crate :: __lib__square as square ;"),
            "{out}"
        );
    }

    #[test]
    fn a_bare_call_of_a_name_the_library_also_defines_keeps_a_forwarder() {
        // The library's own `macro_rules! square` may be the one meant where it is in textual
        // scope: calls stay as written, and a forwarder takes the renamed definition's place.
        let mut file: syn::File = syn::parse_quote! {
            #[macro_export]
            macro_rules! square { ($x:expr) => { $x * $x }; }
            pub fn four() -> i32 { square!(2) }
            mod local { macro_rules! square { () => { 0 }; } }
        };
        export(&mut file.items, "lib", true);
        let out = text(&file.items);
        let definition = out.find("macro_rules ! __lib__square").unwrap();
        let forwarder = out.find("macro_rules ! square").unwrap();
        let call = out.find("square ! (2)").unwrap();
        assert!(definition < forwarder && forwarder < call, "{out}");
        assert!(out.contains("$ crate :: __lib__square !"), "{out}");
        assert!(!out.contains("crate :: lib :: square ! (2)"), "{out}");
        assert!(
            out.contains("pub mod __macros { pub use crate :: { __lib__square as square } ; }"),
            "{out}"
        );
    }

    #[test]
    fn local_inner_macros_are_spelled_out() {
        let mut file: syn::File = syn::parse_quote! {
            #[macro_export(local_inner_macros)]
            macro_rules! outer { ($x:expr) => { helper!($x) + ::std::format!("") + $crate::lib::x!() }; }
        };
        export(&mut file.items, "lib", false);
        let out = file.items[0].to_token_stream().to_string();
        assert!(out.starts_with("# [macro_export] macro_rules"), "{out}");
        assert!(out.contains("$ crate :: lib :: helper ! ($ x)"), "{out}");
        assert!(out.contains(":: std :: format !"), "{out}");
        assert!(out.contains("$ crate :: lib :: x ! ()"), "{out}");
        // The matcher is left alone.
        assert!(out.contains("($ x : expr) =>"), "{out}");
    }

    #[test]
    fn macro_use_becomes_a_glob_in_every_module() {
        let mut file: syn::File = syn::parse_quote! {
            #[macro_use]
            extern crate maplit;
            extern crate other;
            mod nested { fn f() {} }
        };
        let externs = [("maplit", "maplit"), ("other", "other")]
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .into();
        let deps = macro_use_crates(&file.items, &externs);
        assert_eq!(deps, ["maplit"]);
        import_macros(&mut file.items, &deps);
        let out = text(&file.items);
        assert_eq!(
            out.matches("use crate :: maplit :: __macros :: * ;")
                .count(),
            2
        );
    }

    #[test]
    fn std_crates_leave_a_library_for_the_root() {
        let mut file: syn::File = syn::parse_quote! {
            #[macro_use]
            extern crate std;
            extern crate alloc;
            #[macro_use]
            extern crate alloc as stdalloc;
            extern crate other;
        };
        let hoisted = take_std_crates(&mut file.items);
        // The names they bound at the library's root stay bound there (`crate::alloc::...`).
        assert_eq!(
            text(&file.items),
            "use :: std ; use :: alloc ; extern crate other ;"
        );
        let hoisted: Vec<String> = hoisted
            .iter()
            .map(|e| e.to_token_stream().to_string())
            .collect();
        assert_eq!(
            hoisted,
            ["extern crate alloc ;", "extern crate alloc as stdalloc ;"]
        );
    }
}
