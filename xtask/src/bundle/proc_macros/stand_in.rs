//! An in-process stand-in for the proc-macro server, so that the proc-macro pass can be walked
//! over any source without a toolchain, a judge build or a process: the `proc_macro` fuzz target
//! (`fuzz/fuzz_targets/proc_macro.rs`), its twin in the suite, and the pass's own unit tests.
//!
//! It is one proc-macro crate, `stand-in 0.0.0`, which the walked crate names `stand_in`, with
//! five macros whose expansions are written here, each as a server would send it (token trees
//! through the wire format, each token with its span's hygiene):
//!
//! - `identity!(...)`: its tokens, unchanged.
//! - `with_tmp!(EXPR)`: `{ let tmp = 1; tmp + (EXPR) }`, its `tmp` of mixed-site hygiene.
//! - `#[rename(NAME)]`: the item it stands on, named `NAME`; no argument is a `compile_error!`,
//!   anything but one name a panic (the macro's failure).
//! - `#[derive(Emit)]`: an inherent impl marked `#[automatically_derived]` holding `const
//!   STAND_IN_EMITTED: usize`, the number of `#[emit]` helpers on the item, and a trait impl so
//!   marked. Its helper `emit` is declared nowhere the bundler can read, as derive_more's are.
//! - `#[derive(Noted)]`: an inherent impl holding `const STAND_IN_NOTED: usize`; its helper
//!   `note` is declared (`#[proc_macro_derive(Noted, attributes(note))]`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::visit::Visit;

use super::flat::{self, Tree};
use super::{hygiene, CrateScope, Kind, MacroCrate, Output, ProcMacros, Provider, Shared};
use crate::bundle::cfg::Cfg;

/// The stand-in proc-macro crate's package, as messages name it.
pub const PACKAGE: &str = "stand-in 0.0.0";

/// The name a walked crate gives it: `use stand_in::{identity, Emit};`, `stand_in::rename`.
pub const CRATE: &str = "stand_in";

/// What the stand-in's library exports.
pub(super) fn exports() -> Vec<(String, Kind)> {
    [
        ("identity", Kind::Bang),
        ("with_tmp", Kind::Bang),
        ("rename", Kind::Attr),
        ("Emit", Kind::CustomDerive),
        ("Noted", Kind::CustomDerive),
    ]
    .into_iter()
    .map(|(name, kind)| (name.to_owned(), kind))
    .collect()
}

/// The helpers the bundler could read from the stand-in's root: `Noted`'s `note`; `Emit`'s
/// are declared where they cannot be read.
fn declared_helpers() -> BTreeMap<String, Vec<String>> {
    BTreeMap::from([("Noted".to_owned(), vec!["note".to_owned()])])
}

/// Runs the stand-in's macro `name` on `body` (an attribute's `args` beside): its output as the
/// server would send it, or the macro's failure.
pub(super) fn expand(
    name: &str,
    body: &TokenStream,
    args: Option<&TokenStream>,
) -> Result<Output, String> {
    let tokens = match name {
        "identity" => body.clone(),
        "with_tmp" => {
            let tmp = Ident::new(MIXED_TMP, Span::call_site());
            quote!({ let #tmp = 1; #tmp + (#body) })
        }
        "rename" => rename(body, args.cloned().unwrap_or_default())?,
        "Emit" => emit(body)?,
        "Noted" => noted(body)?,
        other => return Err(format!("the stand-in has no macro `{other}`")),
    };
    let wire = flat::encode(&tokens, flat::NEWEST, hygiene::CALL_SITE);
    let mut trees = flat::decode(&wire, flat::NEWEST)?;
    mixed_site(&mut trees);
    Ok((trees, hygiene::span_table()))
}

/// The identifier that stands for `with_tmp!`'s mixed-site `tmp` until its span is set.
const MIXED_TMP: &str = "__stand_in_mixed_tmp";

fn mixed_site(trees: &mut [Tree]) {
    for tree in trees {
        match tree {
            Tree::Ident { text, span, .. } if text == MIXED_TMP => {
                *text = "tmp".to_owned();
                *span = hygiene::MIXED_SITE;
            }
            Tree::Group { trees, .. } => mixed_site(trees),
            _ => {}
        }
    }
}

fn rename(body: &TokenStream, args: TokenStream) -> Result<TokenStream, String> {
    let args: Vec<TokenTree> = args.into_iter().collect();
    let name = match args.as_slice() {
        [] => return Ok(quote!(compile_error!("rename: a name is needed");)),
        [TokenTree::Ident(name)] => name.clone(),
        other => {
            let found: TokenStream = other.iter().cloned().collect();
            return Err(format!("rename: expected one name, found `{found}`"));
        }
    };
    let mut item: syn::Item =
        syn::parse2(body.clone()).map_err(|e| format!("rename: expected an item: {e}"))?;
    let ident = match &mut item {
        syn::Item::Const(i) => &mut i.ident,
        syn::Item::Enum(i) => &mut i.ident,
        syn::Item::Fn(i) => &mut i.sig.ident,
        syn::Item::Mod(i) => &mut i.ident,
        syn::Item::Static(i) => &mut i.ident,
        syn::Item::Struct(i) => &mut i.ident,
        syn::Item::Trait(i) => &mut i.ident,
        syn::Item::Type(i) => &mut i.ident,
        syn::Item::Union(i) => &mut i.ident,
        _ => return Err("rename: expected an item with a name".to_owned()),
    };
    *ident = name;
    Ok(item.into_token_stream())
}

/// The number of `#[name]` attributes on a derive's input, its fields and variants.
fn helpers_on(input: &syn::DeriveInput, name: &str) -> usize {
    struct Count<'a>(&'a str, usize);
    impl<'ast> Visit<'ast> for Count<'_> {
        fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
            if attr.path().is_ident(self.0) {
                self.1 += 1;
            }
        }
    }
    let mut count = Count(name, 0);
    count.visit_derive_input(input);
    count.1
}

fn derive_input(body: &TokenStream, derive: &str) -> Result<syn::DeriveInput, String> {
    syn::parse2(body.clone())
        .map_err(|e| format!("{derive}: expected a struct, enum or union: {e}"))
}

fn emit(body: &TokenStream) -> Result<TokenStream, String> {
    let input = derive_input(body, "Emit")?;
    let count = helpers_on(&input, "emit");
    let name = &input.ident;
    let (generics, args, bounds) = input.generics.split_for_impl();
    Ok(quote! {
        #[automatically_derived]
        impl #generics #name #args #bounds {
            pub const STAND_IN_EMITTED: usize = #count;
        }
        #[automatically_derived]
        impl #generics ::core::fmt::Debug for #name #args #bounds {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(::core::stringify!(#name))
            }
        }
    })
}

fn noted(body: &TokenStream) -> Result<TokenStream, String> {
    let input = derive_input(body, "Noted")?;
    let count = helpers_on(&input, "note");
    let name = &input.ident;
    let (generics, args, bounds) = input.generics.split_for_impl();
    Ok(quote! {
        impl #generics #name #args #bounds {
            pub const STAND_IN_NOTED: usize = #count;
        }
    })
}

impl ProcMacros {
    /// Proc macros for the crate whose root file is `root` (the solution's own when `main`),
    /// expanded by the stand-in: it depends on the stand-in crate as `stand_in`.
    pub fn stand_in(root: &Path, main: bool) -> ProcMacros {
        let krate = Arc::new(MacroCrate {
            package: PACKAGE.to_owned(),
            dylib: Some(PathBuf::from("stand-in")),
            helpers: Ok(declared_helpers()),
        });
        let dir = root.parent().map(Path::to_path_buf).unwrap_or_default();
        let scope = CrateScope {
            name: if main {
                "the solution".to_owned()
            } else {
                "crate walked 0.0.0".to_owned()
            },
            main,
            env: Vec::new(),
            dir: dir.clone(),
            providers: vec![Provider {
                name: CRATE.to_owned(),
                via: false,
                items: Arc::default(),
                krate,
            }],
        };
        ProcMacros(Some(Arc::new(Shared {
            dir,
            crates: BTreeMap::from([(root.to_path_buf(), scope)]),
            state: Mutex::default(),
            stand_in: true,
        })))
    }
}

/// What a walk of one source with the stand-in gave.
#[derive(Debug)]
pub enum Walked {
    /// The source is no Rust file syn reads: nothing to walk.
    NotRust,
    /// The crate as the pass left it, printed.
    Expanded(String),
    /// The solution's crate refused, with the reason.
    Refused(String),
}

/// Walks `source` as the root of a crate that depends on the stand-in (the solution's own
/// when `main`, where a refusal stops the walk; else a library's, where a use that cannot be
/// expanded stays), then checks what the walk promises. `Err` names the promise broken; never
/// a panic but the walk's own.
pub fn walk_and_check(source: &str, main: bool) -> Result<Walked, String> {
    let Ok(mut file) = syn::parse_file(source) else {
        return Ok(Walked::NotRust);
    };
    let input = file.clone();
    let root = Path::new("/stand-in/src/main.rs");
    let proc_macros = ProcMacros::stand_in(root, main);
    if let Err(e) = proc_macros.expand(&mut file, root, &Cfg::default()) {
        let said = format!("{e:#}");
        if said.trim().is_empty() || said.contains('\n') {
            return Err(format!("the refusal is not one line of text: {said:?}"));
        }
        if !said.contains("the solution") {
            return Err(format!("the refusal does not say where: {said}"));
        }
        return Ok(Walked::Refused(said));
    }
    let printed = crate::bundle::print::unparse(&file);
    if let Err(e) = syn::parse_file(&printed) {
        return Err(format!(
            "the walked crate, printed, does not parse again ({e}):\n{printed}"
        ));
    }
    if let Some(broken) = broken_promise(&input, &file) {
        return Err(format!("{broken}:\n{printed}"));
    }
    Ok(Walked::Expanded(printed))
}

/// What is wrong with `walked`, the crate `input` after the pass, if anything: an
/// `#[automatically_derived]` left on an inherent impl the stand-in wrote, or a helper left on
/// an item whose stand-in derives were expanded (and which keeps no derive but std's): `emit`
/// or `note` (unless the crate imports that name from outside std, which then is not taken
/// for a helper), or `default` without std's `Default` beside it.
pub fn broken_promise(input: &syn::File, walked: &syn::File) -> Option<String> {
    let mut imported = BTreeSet::new();
    ImportedNames(&mut imported).visit_file(input);
    let mut check = Promises {
        imported,
        broken: None,
    };
    check.items(&walked.items);
    check.visit_file(walked);
    check.broken
}

/// The names `use` lines anywhere bring in from outside std, core and alloc.
struct ImportedNames<'a>(&'a mut BTreeSet<String>);

impl<'ast> Visit<'ast> for ImportedNames<'_> {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        fn names(tree: &syn::UseTree, first: Option<&str>, out: &mut BTreeSet<String>) {
            let from_std = matches!(first, Some("std" | "core" | "alloc"));
            match tree {
                syn::UseTree::Path(p) => {
                    let first = first.map_or_else(|| p.ident.to_string(), str::to_owned);
                    names(&p.tree, Some(&first), out);
                }
                syn::UseTree::Name(n) if !from_std => {
                    out.insert(super::unraw(&n.ident));
                }
                syn::UseTree::Rename(r) if !from_std => {
                    out.insert(super::unraw(&r.rename));
                }
                syn::UseTree::Group(g) => {
                    for tree in &g.items {
                        names(tree, first, out);
                    }
                }
                _ => {}
            }
        }
        names(&item.tree, None, self.0);
    }

    fn visit_item_extern_crate(&mut self, item: &'ast syn::ItemExternCrate) {
        self.0.insert(super::unraw(&item.ident));
        if let Some((_, alias)) = &item.rename {
            self.0.insert(super::unraw(alias));
        }
    }
}

struct Promises {
    imported: BTreeSet<String>,
    broken: Option<String>,
}

/// Whether `imp` is one the stand-in's derives wrote (it holds their `STAND_IN_` constant).
fn stand_in_impl(imp: &syn::ItemImpl) -> bool {
    imp.items.iter().any(|item| {
        matches!(item, syn::ImplItem::Const(c) if c.ident.to_string().starts_with("STAND_IN_"))
    })
}

impl Promises {
    fn fail(&mut self, what: String) {
        self.broken.get_or_insert(what);
    }

    /// Each struct, enum or union of `items` followed by an impl of the stand-in's derives for
    /// it: expanded there, so its helpers must be gone.
    fn items(&mut self, items: &[syn::Item]) {
        for pair in items.windows(2) {
            let [item, syn::Item::Impl(imp)] = pair else {
                continue;
            };
            let (ident, attrs) = match item {
                syn::Item::Struct(s) => (&s.ident, &s.attrs),
                syn::Item::Enum(e) => (&e.ident, &e.attrs),
                syn::Item::Union(u) => (&u.ident, &u.attrs),
                _ => continue,
            };
            let for_item = matches!(&*imp.self_ty, syn::Type::Path(p)
                if p.path.segments.last().is_some_and(|s| s.ident == *ident));
            if !for_item || !stand_in_impl(imp) {
                continue;
            }
            let left: Vec<Vec<String>> = super::pass::derives_named(attrs)
                .iter()
                .map(|p| p.segments.iter().map(|s| super::unraw(&s.ident)).collect())
                .collect();
            if left
                .iter()
                .any(|p| !crate::bundle::macro_origin::is_builtin_derive(p))
            {
                continue;
            }
            let default_kept = left
                .iter()
                .any(|p| p.last().is_some_and(|n| n == "Default"));
            let mut names = BTreeSet::new();
            super::pass::attribute_names(item, &mut names);
            for name in names {
                let helper = match name.as_str() {
                    "emit" | "note" => !self.imported.contains(&name),
                    "default" => !default_kept && !self.imported.contains(&name),
                    _ => false,
                };
                if helper {
                    self.fail(format!("the helper `#[{name}]` is left on `{ident}`"));
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Promises {
    fn visit_item_impl(&mut self, imp: &'ast syn::ItemImpl) {
        let derived = imp
            .attrs
            .iter()
            .any(|a| a.path().is_ident("automatically_derived"));
        if derived && imp.trait_.is_none() && stand_in_impl(imp) {
            let ty = imp.self_ty.to_token_stream();
            self.fail(format!(
                "`#[automatically_derived]` is left on the inherent `impl {ty}`"
            ));
        }
        syn::visit::visit_item_impl(self, imp);
    }

    fn visit_item_mod(&mut self, module: &'ast syn::ItemMod) {
        if let Some((_, items)) = &module.content {
            self.items(items);
        }
        syn::visit::visit_item_mod(self, module);
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        let items: Vec<syn::Item> = block
            .stmts
            .iter()
            .filter_map(|s| match s {
                syn::Stmt::Item(item) => Some(item.clone()),
                _ => None,
            })
            .collect();
        self.items(&items);
        syn::visit::visit_block(self, block);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stand_ins_macros_expand_as_written() {
        let (trees, spans) = expand("with_tmp", &quote!(x * 2), None).unwrap();
        let mut marks = hygiene::Marks::default();
        let tokens = hygiene::to_tokens(&trees, &spans, &mut marks).unwrap();
        assert!(!marks.is_empty());
        assert!(tokens.to_string().contains("+ (x * 2)"), "{tokens}");
        let renamed = expand(
            "rename",
            &quote!(
                fn f() {}
            ),
            Some(&quote!(g)),
        )
        .unwrap();
        let text: TokenStream = hygiene::to_tokens(&renamed.0, &renamed.1, &mut marks).unwrap();
        assert_eq!(text.to_string(), "fn g () { }");
        assert!(expand(
            "rename",
            &quote!(
                fn f() {}
            ),
            Some(&quote!(a b))
        )
        .unwrap_err()
        .contains("expected one name"));
        let (trees, _) = expand(
            "rename",
            &quote!(
                fn f() {}
            ),
            Some(&quote!()),
        )
        .unwrap();
        assert!(super::super::pass::compile_error(&trees).is_some());
        let body = quote!(
            struct S<T> {
                #[emit]
                a: T,
                #[emit]
                b: u8,
            }
        );
        let (trees, spans) = expand("Emit", &body, None).unwrap();
        let text = hygiene::to_tokens(&trees, &spans, &mut marks)
            .unwrap()
            .to_string();
        assert!(text.contains("STAND_IN_EMITTED : usize = 2usize"), "{text}");
        assert!(text.contains("impl < T > S < T >"), "{text}");
    }
}
