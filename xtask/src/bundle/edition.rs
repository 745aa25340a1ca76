//! Moving a 2015 or 2018 crate into the 2021 bundle so that it compiles and means the same,
//! on the syntax tree, as `cargo fix --edition` would, for what can be seen without types:
//! - macro fragments `$x:pat` become `$x:pat_param` (2021's `pat` also takes `a | b`);
//! - a trait object written without `dyn` (`Box<Trait>`, `&Trait + Send`) gets it, for the
//!   crate's own traits and std's common ones, where no type parameter of the item takes the
//!   name (typenum's `trait IsLessPrivate<Rhs, Cmp>` beside its trait `Cmp`);
//! - `panic!`, `unreachable!`, `assert!` and `debug_assert!` with a lone message that is not a
//!   plain literal, or a literal with braces, get an explicit `"{}"` (2021 reads the first
//!   argument as a format string);
//! - `[a, b].into_iter()` on an array literal becomes `.iter()` (2021 iterates by value);
//! - `a...b` range patterns in macro arguments become `a..=b` (syn reads them elsewhere);
//! - 2015 only: `use` paths, crate-relative in 2015, get `crate::`, and so do `::x` paths that
//!   do not name an extern crate.
//!
//! What cannot be seen without types (an array in a variable iterated with `into_iter`, a
//! closure whose captures drop in another order, a trait method that collides with 2021's new
//! prelude) is left as is; docs/bundling.md says so. A 2015 crate that uses `async`, `await`,
//! `dyn` or `try` as names does not parse and is refused with the reason.

use std::collections::BTreeSet;

use proc_macro2::{Group, Ident, TokenStream, TokenTree};
use quote::quote;
use syn::visit_mut::{self, VisitMut};
use syn::{Item, UseTree};

/// Std's traits that old code names as trait objects (not `Error`: `io::Error` is a type).
const STD_TRAITS: &[&str] = &[
    "Any",
    "BufRead",
    "Debug",
    "Display",
    "Fn",
    "FnMut",
    "FnOnce",
    "Iterator",
    "Read",
    "Write",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "Hasher",
    "ToString",
];

/// Rewrites the items of a crate of `edition` for the 2021 bundle. `externs` are the names of
/// the crate's extern crates (bundled ones and std's), which a 2015 `::name` path may mean.
pub fn migrate(items: &mut [Item], edition: &str, externs: &BTreeSet<String>) {
    if edition >= "2021" {
        return;
    }
    let mut traits: BTreeSet<String> = STD_TRAITS.iter().map(|t| t.to_string()).collect();
    let mut types = BTreeSet::new();
    collect_names(items, &mut traits, &mut types);
    // A name the crate gives a type of its own is that type, not a trait object.
    traits.retain(|t| !types.contains(t));
    let mut migration = Migration {
        traits,
        edition_2015: edition == "2015",
        externs,
    };
    for item in items.iter_mut() {
        migration.visit_item_mut(item);
    }
}

/// The names of the crate's traits, and of its types and imports (which a trait name must not
/// be taken for).
fn collect_names(items: &[Item], traits: &mut BTreeSet<String>, types: &mut BTreeSet<String>) {
    for item in items {
        match item {
            Item::Trait(t) => {
                traits.insert(t.ident.to_string());
            }
            Item::Struct(s) => {
                types.insert(s.ident.to_string());
            }
            Item::Enum(e) => {
                types.insert(e.ident.to_string());
            }
            Item::Union(u) => {
                types.insert(u.ident.to_string());
            }
            Item::Type(t) => {
                types.insert(t.ident.to_string());
            }
            Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    collect_names(inner, traits, types);
                }
            }
            _ => {}
        }
    }
}

/// The names of the type parameters declared in an item (its own and its members').
#[derive(Default)]
struct TypeParams(BTreeSet<String>);

impl<'ast> syn::visit::Visit<'ast> for TypeParams {
    fn visit_type_param(&mut self, param: &'ast syn::TypeParam) {
        self.0.insert(param.ident.to_string());
        syn::visit::visit_type_param(self, param);
    }
}

struct Migration<'a> {
    traits: BTreeSet<String>,
    edition_2015: bool,
    externs: &'a BTreeSet<String>,
}

impl Migration<'_> {
    fn is_extern(&self, name: &str) -> bool {
        matches!(name, "std" | "core" | "alloc") || self.externs.contains(name)
    }
}

impl VisitMut for Migration<'_> {
    fn visit_item_mut(&mut self, item: &mut Item) {
        if matches!(item, Item::Mod(_)) {
            return visit_mut::visit_item_mut(self, item);
        }
        // A type parameter named like a trait is that parameter within its item.
        let mut params = TypeParams::default();
        syn::visit::Visit::visit_item(&mut params, item);
        let shadowed: Vec<String> = params
            .0
            .into_iter()
            .filter(|name| self.traits.remove(name))
            .collect();
        visit_mut::visit_item_mut(self, item);
        self.traits.extend(shadowed);
    }

    fn visit_type_mut(&mut self, ty: &mut syn::Type) {
        match ty {
            syn::Type::TraitObject(object) if object.dyn_token.is_none() => {
                object.dyn_token = Some(Default::default());
            }
            syn::Type::Path(path) if path.qself.is_none() => {
                // `G::EdgeRef` and `Self::Item` are associated types, even when named like a
                // trait; module paths (`fmt::Debug`) start in lower case.
                let segments = &path.path.segments;
                let associated = segments.len() > 1
                    && segments
                        .first()
                        .is_some_and(|s| s.ident.to_string().starts_with(char::is_uppercase));
                let names_trait = !associated
                    && segments
                        .last()
                        .is_some_and(|s| self.traits.contains(&s.ident.to_string()));
                if names_trait {
                    let bound = syn::TypeParamBound::Trait(syn::TraitBound {
                        paren_token: None,
                        modifier: syn::TraitBoundModifier::None,
                        lifetimes: None,
                        path: path.path.clone(),
                    });
                    *ty = syn::Type::TraitObject(syn::TypeTraitObject {
                        dyn_token: Some(Default::default()),
                        bounds: std::iter::once(bound).collect(),
                    });
                }
            }
            _ => {}
        }
        visit_mut::visit_type_mut(self, ty);
    }

    fn visit_item_impl_mut(&mut self, imp: &mut syn::ItemImpl) {
        // `impl Trait for Type`: the trait is a path there, never a type; visit the rest.
        for item in &mut imp.items {
            self.visit_impl_item_mut(item);
        }
        self.visit_generics_mut(&mut imp.generics);
        if imp.trait_.is_none() || !matches!(*imp.self_ty, syn::Type::Path(_)) {
            self.visit_type_mut(&mut imp.self_ty);
        } else if let syn::Type::Path(p) = &mut *imp.self_ty {
            self.visit_path_mut(&mut p.path);
        }
    }

    fn visit_expr_method_call_mut(&mut self, call: &mut syn::ExprMethodCall) {
        if call.method == "into_iter"
            && call.args.is_empty()
            && matches!(&*call.receiver, syn::Expr::Array(_))
        {
            call.method = Ident::new("iter", call.method.span());
        }
        visit_mut::visit_expr_method_call_mut(self, call);
    }

    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        let message_at = match name.as_str() {
            "panic" | "unreachable" => Some(0),
            "assert" | "debug_assert" => Some(1),
            _ => None,
        };
        if let Some(at) = message_at {
            mac.tokens = explicit_format(std::mem::take(&mut mac.tokens), at);
        }
        mac.tokens = inclusive_ranges(std::mem::take(&mut mac.tokens));
        visit_mut::visit_macro_mut(self, mac);
    }

    fn visit_item_macro_mut(&mut self, item: &mut syn::ItemMacro) {
        if item.mac.path.is_ident("macro_rules") {
            item.mac.tokens = pat_param(std::mem::take(&mut item.mac.tokens));
        }
        visit_mut::visit_item_macro_mut(self, item);
    }

    fn visit_item_use_mut(&mut self, item: &mut syn::ItemUse) {
        if self.edition_2015 {
            if item.leading_colon.is_some() {
                // `use ::x::y;`: crate-relative unless x is an extern crate.
                if let UseTree::Path(p) = &item.tree {
                    if !self.is_extern(&p.ident.to_string()) {
                        item.leading_colon = None;
                        prefix_crate(&mut item.tree);
                    }
                }
            } else {
                let first = match &item.tree {
                    UseTree::Path(p) => Some(p.ident.to_string()),
                    UseTree::Name(n) => Some(n.ident.to_string()),
                    _ => None,
                };
                if let Some(first) = first {
                    if !matches!(first.as_str(), "crate" | "self" | "super")
                        && !self.is_extern(&first)
                    {
                        prefix_crate(&mut item.tree);
                    }
                }
            }
        }
        visit_mut::visit_item_use_mut(self, item);
    }

    super::expand::visit_qualified_paths!();

    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        if self.edition_2015 && path.leading_colon.is_some() {
            let first = path.segments.first().map(|s| s.ident.to_string());
            if let Some(first) = first {
                if !self.is_extern(&first) {
                    path.leading_colon = None;
                    path.segments
                        .insert(0, syn::PathSegment::from(ident("crate")));
                }
            }
        }
        visit_mut::visit_path_mut(self, path);
    }
}

fn ident(name: &str) -> Ident {
    super::ident(name)
}

fn prefix_crate(tree: &mut UseTree) {
    let inner = std::mem::replace(
        tree,
        UseTree::Glob(syn::UseGlob {
            star_token: Default::default(),
        }),
    );
    *tree = UseTree::Path(syn::UsePath {
        ident: ident("crate"),
        colon2_token: Default::default(),
        tree: Box::new(inner),
    });
}

/// `a...b` (a range pattern before 2021, an error since) → `a..=b`, in macro arguments, where
/// syn has not read it as a pattern (outside macros it does, and prints `..=`).
fn inclusive_ranges(tokens: TokenStream) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let dot = |k: usize| matches!(trees.get(k), Some(TokenTree::Punct(p)) if p.as_char() == '.');
    let mut out = Vec::with_capacity(trees.len());
    let mut i = 0;
    while i < trees.len() {
        if dot(i) && dot(i + 1) && dot(i + 2) {
            out.extend(quote!(..=));
            i += 3;
            continue;
        }
        out.push(match &trees[i] {
            TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), inclusive_ranges(g.stream()));
                group.set_span(g.span());
                TokenTree::Group(group)
            }
            other => other.clone(),
        });
        i += 1;
    }
    out.into_iter().collect()
}

/// `$x:pat` → `$x:pat_param`, at any depth of a macro's rules.
fn pat_param(tokens: TokenStream) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    for (i, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), pat_param(g.stream()));
                group.set_span(g.span());
                out.push(TokenTree::Group(group));
            }
            TokenTree::Ident(id)
                if id == "pat"
                    && i >= 2
                    && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == ':')
                    && matches!(&trees[i - 2], TokenTree::Ident(_))
                    && i >= 3
                    && matches!(&trees[i - 3], TokenTree::Punct(p) if p.as_char() == '$') =>
            {
                out.push(TokenTree::Ident(Ident::new("pat_param", id.span())));
            }
            other => out.push(other.clone()),
        }
    }
    out.into_iter().collect()
}

/// A lone message at argument `at` (0 for `panic!`, 1 for `assert!`) that 2018 printed as is
/// and 2021 would read as a format string gets an explicit `"{}"`.
fn explicit_format(tokens: TokenStream, at: usize) -> TokenStream {
    let mut args: Vec<Vec<TokenTree>> = vec![Vec::new()];
    for tree in tokens {
        match &tree {
            TokenTree::Punct(p) if p.as_char() == ',' => args.push(Vec::new()),
            _ => args.last_mut().expect("one argument at least").push(tree),
        }
    }
    if args.last().is_some_and(Vec::is_empty) && args.len() > 1 {
        args.pop();
    }
    if args.len() != at + 1 {
        return join(args);
    }
    let message = &args[at];
    let plain = match message.as_slice() {
        [TokenTree::Literal(lit)] => {
            let text = lit.to_string();
            text.starts_with('"') && !text.contains('{') && !text.contains('}')
                || !text.starts_with('"') && !text.starts_with('r')
        }
        _ => false,
    };
    if plain || message.is_empty() {
        return join(args);
    }
    let message: TokenStream = message.iter().cloned().collect();
    args[at] = quote!("{}", #message).into_iter().collect();
    join(args)
}

fn join(args: Vec<Vec<TokenTree>>) -> TokenStream {
    let mut out = TokenStream::new();
    for (k, arg) in args.into_iter().enumerate() {
        if k > 0 {
            out.extend(quote!(,));
        }
        out.extend(arg);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    fn migrated(edition: &str, source: &str) -> String {
        let mut file: syn::File = syn::parse_str(source).unwrap();
        let externs = BTreeSet::from(["dep".to_string()]);
        migrate(&mut file.items, edition, &externs);
        file.to_token_stream().to_string()
    }

    #[test]
    fn trait_objects_get_dyn_and_patterns_pat_param() {
        let out = migrated(
            "2018",
            "trait Shape { fn area(&self) -> f64; }
             struct Display;
             fn total(shapes: &[Box<Shape>], f: &Iterator<Item = u8>, g: Box<Shape + Send>, d: Display) {}
             fn assoc<G: Graph, F: FnMut(G::Shape)>(f: F, s: Self::Shape, m: &fmt::Debug) {}
             impl Shape for Square {}
             macro_rules! m { ($p:pat) => {}; ($x:pat, $y:expr) => {} }",
        );
        assert!(out.contains("Box < dyn Shape >"), "{out}");
        assert!(out.contains("& dyn Iterator < Item = u8 >"), "{out}");
        assert!(out.contains("Box < dyn Shape + Send >"), "{out}");
        assert!(out.contains("impl Shape for Square"), "{out}");
        assert!(
            out.contains("d : Display"),
            "the crate's own type named like a trait: {out}"
        );
        assert!(out.contains("FnMut (G :: Shape)"), "{out}");
        assert!(out.contains("s : Self :: Shape"), "{out}");
        assert!(out.contains("& dyn fmt :: Debug"), "{out}");
        assert!(out.contains("$ p : pat_param"), "{out}");
        assert!(out.contains("$ x : pat_param , $ y : expr"), "{out}");
        // A type parameter named like a trait is the parameter in its item, the trait beside.
        let out = migrated(
            "2018",
            "pub trait Cmp { fn compare(&self); }
             pub trait IsLess<Rhs, Cmp> { fn is_less(self, _: Rhs, _: Cmp); }
             impl<A, B> IsLess<B, Less> for A { fn is_less(self, _: B, _: Less) {} }
             fn by(c: &Cmp) {}",
        );
        assert!(out.contains("_ : Rhs , _ : Cmp)"), "{out}");
        assert!(out.contains("c : & dyn Cmp"), "{out}");
        // 2021 crates are left alone.
        assert!(migrated("2021", "macro_rules! m { ($p:pat) => {} }").contains(": pat"));
    }

    #[test]
    fn lone_panic_messages_get_an_explicit_format() {
        let out = migrated(
            "2018",
            r#"fn f(msg: &str) {
                panic!(msg);
                panic!("{}");
                panic!("plain");
                panic!("{} {}", 1, 2);
                assert!(true, msg);
                unreachable!("{oops}");
            }"#,
        );
        assert!(out.contains(r#"panic ! ("{}" , msg)"#), "{out}");
        assert!(out.contains(r#"panic ! ("{}" , "{}")"#), "{out}");
        assert!(out.contains(r#"panic ! ("plain")"#), "{out}");
        assert!(out.contains(r#"panic ! ("{} {}" , 1 , 2)"#), "{out}");
        assert!(out.contains(r#"assert ! (true , "{}" , msg)"#), "{out}");
        assert!(out.contains(r#"unreachable ! ("{}" , "{oops}")"#), "{out}");
    }

    #[test]
    fn old_range_patterns_in_macro_arguments_become_inclusive() {
        let out = migrated("2018", "fn f(n: u8) -> bool { m!(n, 0...1 | 2) }");
        assert!(out.contains("m ! (n , 0 ..= 1 | 2)"), "{out}");
    }

    #[test]
    fn array_literals_iterate_by_reference_as_in_2018() {
        let out = migrated(
            "2018",
            "fn f() { for x in [1, 2].into_iter() {} v.into_iter(); }",
        );
        assert!(out.contains("[1 , 2] . iter ()"), "{out}");
        assert!(out.contains("v . into_iter ()"), "{out}");
    }

    #[test]
    fn qualified_paths_keep_their_shape_in_every_rewrite() {
        // ascii 1.1's `<&AsciiStr>::from(x)`: `from` is an associated name, no crate-relative
        // path (the rewrite once made `<&AsciiStr> crate::from`, which did not parse).
        let out = migrated(
            "2015",
            "fn f(x: &[u8]) { let a = <&AsciiStr>::from(x); let b = <T as ::helpers::Tr>::g();
                               let c: <T as ::std::ops::Add>::Output = 1; }",
        );
        assert!(out.contains("< & AsciiStr > :: from (x)"), "{out}");
        assert!(
            out.contains("< T as crate :: helpers :: Tr > :: g ()"),
            "{out}"
        );
        assert!(
            out.contains("< T as :: std :: ops :: Add > :: Output"),
            "{out}"
        );
        // And it prints as Rust again.
        let file: syn::File = syn::parse_str(&out).unwrap();
        assert!(!prettyplease::unparse(&file).is_empty());
    }

    #[test]
    fn paths_of_2015_become_crate_relative() {
        let out = migrated(
            "2015",
            "use helpers::double; use std::mem; use dep::x; use self::a::b;
             fn f() { ::helpers::triple(1); ::std::mem::swap(); ::dep::y(); }",
        );
        assert!(out.contains("use crate :: helpers :: double"), "{out}");
        assert!(out.contains("use std :: mem"), "{out}");
        assert!(out.contains("use dep :: x"), "{out}");
        assert!(out.contains("use self :: a :: b"), "{out}");
        assert!(out.contains("crate :: helpers :: triple (1)"), "{out}");
        assert!(out.contains(":: std :: mem :: swap ()"), "{out}");
        assert!(out.contains(":: dep :: y ()"), "{out}");
    }
}
