//! The walk over one crate: each proc-macro use found (attributes, derives, function-like
//! calls in every place one may stand), resolved, expanded and replaced by what it expands to.

use std::collections::BTreeSet;
use std::sync::Arc;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::visit::Visit;
use syn::visit_mut::{self, VisitMut};
use syn::{Attribute, Item, Meta, Token};

use super::flat::Tree;
use super::hygiene::{self, Marks, Parsed};
use super::scope::Scope;
use super::{unraw, CrateScope, Failure, Kind, Provider, Shared};
use crate::bundle::cfg::Cfg;
use crate::bundle::expand;
use crate::bundle::macro_origin::{builtin_derive_helper, is_builtin_attribute, is_builtin_derive};

/// How deep expansions may nest (a macro whose output uses a macro, ...), as rustc's
/// `recursion_limit` bounds it.
const DEPTH_LIMIT: usize = 128;

/// Expands the proc-macro uses of `file`, the crate `krate`: what could not be expanded, and
/// why (the walk stops at the first in the solution's own crate).
pub(super) fn run(
    shared: &Shared,
    krate: &CrateScope,
    cfg: &Cfg,
    file: &mut syn::File,
) -> Vec<Failure> {
    let mut pass = Pass {
        shared,
        krate,
        cfg,
        scopes: vec![Scope::of_items(&file.items, true)],
        failures: Vec::new(),
        taken: None,
        file_idents: file.to_token_stream(),
        depth: 0,
        context: Vec::new(),
    };
    pass.host_items(&mut file.items);
    pass.failures
}

/// The pass over one crate.
struct Pass<'a> {
    shared: &'a Shared,
    krate: &'a CrateScope,
    cfg: &'a Cfg,
    /// The import scopes of the modules and blocks being walked, innermost last.
    scopes: Vec<Scope>,
    failures: Vec<Failure>,
    /// Every identifier of the crate and of the names given so far (for fresh names), made
    /// when first needed.
    taken: Option<BTreeSet<String>>,
    file_idents: TokenStream,
    /// How deep in expansions the walk is.
    depth: usize,
    /// The items the walk is in (`fn main`), for messages.
    context: Vec<String>,
}

/// One use of a proc macro, resolved.
struct Use {
    provider: Provider,
    name: String,
    /// How the use is written (`#[fastout]`, `#[derive(FromPrimitive)]`, `m!`).
    shown: String,
}

impl Pass<'_> {
    fn stopped(&self) -> bool {
        self.krate.main && !self.failures.is_empty()
    }

    fn fail(&mut self, failure: Failure) {
        self.failures.push(failure);
    }

    fn scope(&self) -> &Scope {
        self.scopes.last().expect("a scope while walking")
    }

    fn wherein(&self) -> String {
        match self.context.last() {
            Some(item) => format!("{} in {}", item, self.krate.name),
            None => self.krate.name.clone(),
        }
    }

    /// Which proc macro of kind `kind` `path` names, if one does.
    fn resolve(&self, path: &syn::Path, kind: Kind) -> Result<Option<(Provider, String)>, Failure> {
        let segments: Vec<String> = path.segments.iter().map(|s| unraw(&s.ident)).collect();
        let scope = self.scope();
        if segments.len() > 1 || path.leading_colon.is_some() {
            let mut segments = segments;
            // An alias of a dependency (`use proconio as pc;`, `extern crate x as y;`).
            if path.leading_colon.is_none() {
                let alias = scope.imports.get(&segments[0]).into_iter().flatten();
                if let Some(full) = alias.into_iter().find(|p| p.len() == 1) {
                    segments[0] = full[0].clone();
                }
            }
            return self.resolve_path(&segments, kind);
        }
        let name = &segments[0];
        if let Some(paths) = scope.imports.get(name) {
            for full in paths {
                if let Some(found) = self.resolve_path(full, kind)? {
                    return Ok(Some(found));
                }
            }
            return Ok(None);
        }
        let builtin = match kind {
            Kind::Attr => is_builtin_attribute(std::slice::from_ref(name)),
            Kind::CustomDerive => is_builtin_derive(std::slice::from_ref(name)),
            Kind::Bang => false,
        };
        if builtin {
            return Ok(None);
        }
        // Through a glob of a dependency, or `#[macro_use] extern crate`.
        let through: BTreeSet<&String> = scope
            .globs
            .iter()
            .filter(|g| g.len() == 1)
            .map(|g| &g[0])
            .chain(&scope.macro_use)
            .collect();
        let mut found: Vec<(Provider, String)> = Vec::new();
        for provider in &self.krate.providers {
            if through.contains(&provider.name) && self.exports(provider, name, kind)? {
                found.push((provider.clone(), name.clone()));
            }
        }
        found.dedup_by(|a, b| Arc::ptr_eq(&a.0.krate, &b.0.krate));
        match found.len() {
            0 => Ok(None),
            1 => Ok(found.pop()),
            _ => Err(Failure {
                krate: Some(Arc::clone(&found[0].0.krate)),
                text: format!(
                    "`{name}` in {} is a macro of both {} and {}, each imported by a glob",
                    self.wherein(),
                    found[0].0.krate.package,
                    found[1].0.krate.package
                ),
            }),
        }
    }

    /// Which proc macro of kind `kind` the full path `segments` (`proconio::fastout`) names.
    fn resolve_path(
        &self,
        segments: &[String],
        kind: Kind,
    ) -> Result<Option<(Provider, String)>, Failure> {
        let [first, name] = segments else {
            return Ok(None);
        };
        for provider in &self.krate.providers {
            if provider.name == *first && self.exports(provider, name, kind)? {
                return Ok(Some((provider.clone(), name.clone())));
            }
        }
        Ok(None)
    }

    /// Whether `provider`'s proc-macro crate exports `name` of kind `kind`.
    fn exports(&self, provider: &Provider, name: &str, kind: Kind) -> Result<bool, Failure> {
        match self.shared.exports(&provider.krate) {
            Ok(list) => Ok(list.iter().any(|(n, k)| n == name && *k == kind)),
            Err(e) => Err(Failure {
                krate: Some(Arc::clone(&provider.krate)),
                text: format!(
                    "`{name}` in {} may be a macro of the proc-macro crate {}, which needs \
                     expanding: {e}",
                    self.wherein(),
                    provider.krate.package
                ),
            }),
        }
    }

    /// Runs a macro and reads its output as `H`s, hygiene settled.
    fn expansion(
        &mut self,
        used: &Use,
        body: TokenStream,
        args: Option<TokenStream>,
        parse: Target,
    ) -> Result<Parsed, Failure> {
        let krate = &used.provider.krate;
        let wherein = self.wherein();
        let failure = |reason: String| Failure {
            krate: Some(Arc::clone(krate)),
            text: format!(
                "`{}` ({}) on {wherein} cannot be expanded: {}",
                used.shown,
                krate.package,
                one_line(&reason),
            ),
        };
        if self.depth >= DEPTH_LIMIT {
            return Err(failure(format!(
                "its expansions nest more than {DEPTH_LIMIT} deep"
            )));
        }
        let (trees, spans) = self
            .shared
            .run(krate, &used.name, &body, args.as_ref(), self.krate)
            .map_err(|e| failure(format!("the macro failed: {e}")))?;
        if let Some(message) = compile_error(&trees) {
            return Err(failure(format!("the macro reported an error: {message}")));
        }
        let mut marks = Marks::default();
        let tokens = hygiene::to_tokens(&trees, &spans, &mut marks).map_err(failure)?;
        let mut parsed = parse.parse(tokens).map_err(|e| {
            failure(format!(
                "its expansion does not parse as {}: {e}",
                parse.what()
            ))
        })?;
        if !marks.is_empty() {
            let file_idents = &self.file_idents;
            let taken = self.taken.get_or_insert_with(|| {
                let mut names = BTreeSet::new();
                idents(file_idents.clone(), &mut names);
                names
            });
            hygiene::settle(&mut parsed, &marks, taken).map_err(failure)?;
        }
        // `extern crate num_traits as _num_traits;` in a block (num-derive's `const _` trick):
        // a `use` of the crate's module does the same in a bundle.
        parsed.visit_mut(&mut ExternCratesInBlocks);
        parsed.visit_mut(&mut DerivedOnlyOnTraitImpls);
        parsed.visit_mut(&mut NeedlessTypeParens);
        if let Parsed::Items(items) = &mut parsed {
            if items.iter().any(|i| matches!(i, Item::Verbatim(_))) {
                return Err(failure(
                    "syn reads part of its expansion only as tokens".to_owned(),
                ));
            }
            *items = expand::settle_items(std::mem::take(items), self.cfg);
        }
        Ok(parsed)
    }

    /// Expands the item-level macros of `items` (and, recursively, what they expand to), then
    /// walks into each item.
    fn host_items<H: Host>(&mut self, items: &mut Vec<H>) {
        let mut i = 0;
        while i < items.len() {
            if self.stopped() {
                return;
            }
            let step = self.step(&mut items[i]);
            match step {
                Ok(Some(mut out)) => {
                    self.depth += 1;
                    self.host_items(&mut out);
                    self.depth -= 1;
                    let n = out.len();
                    items.splice(i..i + 1, out);
                    i += n;
                }
                Ok(None) => {
                    self.context.push(items[i].what());
                    items[i].descend(self);
                    self.context.pop();
                    i += 1;
                }
                Err(failure) => {
                    self.fail(failure);
                    i += 1;
                }
            }
        }
    }

    /// The first proc-macro use on `item` expanded: what replaces it, or `None` when it has
    /// none.
    fn step<H: Host>(&mut self, item: &mut H) -> Result<Option<Vec<H>>, Failure> {
        let what = item.what();
        self.context.push(what);
        let done = self.step_within(item);
        self.context.pop();
        done
    }

    fn step_within<H: Host>(&mut self, item: &mut H) -> Result<Option<Vec<H>>, Failure> {
        // Attribute macros, in order: the first takes the item with the others.
        let attrs = item.attrs().map(|a| a.to_vec()).unwrap_or_default();
        for (k, attr) in attrs.iter().enumerate() {
            let Some((provider, name)) = self.resolve(attr.path(), Kind::Attr)? else {
                continue;
            };
            let used = Use {
                shown: format!("#[{}]", attr.path().to_token_stream()).replace(' ', ""),
                provider,
                name,
            };
            let args = match &attr.meta {
                Meta::Path(_) => TokenStream::new(),
                Meta::List(list) => list.tokens.clone(),
                Meta::NameValue(_) => {
                    return Err(Failure {
                        krate: Some(Arc::clone(&used.provider.krate)),
                        text: format!(
                            "`{}` on {} is an attribute macro given `= value`, which rustc \
                             refuses",
                            used.shown,
                            self.wherein()
                        ),
                    })
                }
            };
            let mut input = item.clone();
            if let Some(attrs) = input.attrs() {
                attrs.remove(k);
            }
            let parsed = self.expansion(&used, input.to_token_stream(), Some(args), H::TARGET)?;
            return Ok(Some(H::from_parsed(parsed)));
        }
        if let Some(derived) = item.derives(self)? {
            return Ok(Some(derived));
        }
        if let Some(mac) = item.bang() {
            let mac = mac.clone();
            if let Some(used) = self.bang_use(&mac)? {
                let parsed = self.expansion(&used, mac.tokens.clone(), None, H::TARGET)?;
                return Ok(Some(H::from_parsed(parsed)));
            }
        }
        Ok(None)
    }

    fn bang_use(&self, mac: &syn::Macro) -> Result<Option<Use>, Failure> {
        Ok(self
            .resolve(&mac.path, Kind::Bang)?
            .map(|(provider, name)| Use {
                shown: format!("{}!", mac.path.to_token_stream()).replace(' ', ""),
                provider,
                name,
            }))
    }

    /// The derives of a struct, enum or union that are proc macros, expanded: the item (its
    /// `#[derive]` keeping the compiler's own, the expanded derives' helper attributes gone)
    /// followed by each expansion.
    fn derive(&mut self, item: &mut Item) -> Result<Option<Vec<Item>>, Failure> {
        let attrs = match item {
            Item::Struct(s) => &s.attrs,
            Item::Enum(e) => &e.attrs,
            Item::Union(u) => &u.attrs,
            _ => return Ok(None),
        };
        let mut uses = Vec::new();
        for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
            let Ok(paths) =
                attr.parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated)
            else {
                continue;
            };
            for path in paths {
                if let Some((provider, name)) = self.resolve(&path, Kind::CustomDerive)? {
                    let shown = format!("#[derive({})]", path.to_token_stream()).replace(' ', "");
                    uses.push((
                        path,
                        Use {
                            provider,
                            name,
                            shown,
                        },
                    ));
                }
            }
        }
        if uses.is_empty() {
            return Ok(None);
        }
        let mut input = item.clone();
        if let Some(attrs) = expand::item_attrs(&mut input) {
            attrs.retain(|a| !a.path().is_ident("derive"));
        }
        let body = input.to_token_stream();
        let mut out = Vec::new();
        for (_, used) in &uses {
            let parsed = self.expansion(used, body.clone(), None, Target::Items)?;
            out.extend(<Item as Host>::from_parsed(parsed));
        }
        // The item as the compiler keeps it: its own derives, no helpers.
        let expanded: Vec<&syn::Path> = uses.iter().map(|(p, _)| p).collect();
        let attrs = expand::item_attrs(item).expect("a struct, enum or union");
        attrs.retain_mut(|attr| {
            if !attr.path().is_ident("derive") {
                return true;
            }
            let Ok(paths) =
                attr.parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated)
            else {
                return true;
            };
            let kept: Punctuated<syn::Path, Token![,]> = paths
                .into_iter()
                .filter(|p| !expanded.contains(&p))
                .collect();
            if kept.is_empty() {
                return false;
            }
            *attr = syn::parse_quote!(#[derive(#kept)]);
            true
        });
        let helpers = self.helpers_left(item, &uses)?;
        RemoveHelpers { helpers: &helpers }.visit_item_mut(item);
        // A derive's output may copy them too (syn's `split_for_impl` keeps a generic
        // parameter's attributes: `impl<#[helper] T>`), where rustc reads them as the same
        // helpers.
        for expanded in &mut out {
            HelpersAnywhere(RemoveHelpers { helpers: &helpers }).visit_item_mut(expanded);
        }
        out.insert(0, item.clone());
        Ok(Some(out))
    }

    /// The names of the helper attributes to remove from `item` (a struct, enum or union whose
    /// derives `uses` were just expanded and taken off it).
    ///
    /// An attribute on an item, its fields, variants or generic parameters is rustc's own, a
    /// tool's (`rustfmt::skip`), an attribute macro's, or a helper of a derive on that item. So
    /// once every derive left on the item is std's, any attribute there that is none of the
    /// first three is a helper of a derive just expanded, whoever declared it: derive_more
    /// declares its derives inside a `macro_rules!`, where `#[proc_macro_derive(Display,
    /// attributes(display))]` cannot be read. Kept: std's derives' own helpers while those
    /// derives stay (`#[default]` beside `Default`), a path of more than one segment (a tool's
    /// or a macro's, never a helper), a name that resolves to an attribute macro, and a name the
    /// module imports from outside std (a re-exported attribute macro, which the walk may not
    /// follow: a helper cannot be imported).
    ///
    /// When a derive the walk could not resolve stays on the item, the attributes left may be
    /// its helpers: then only the helpers the expanded derives' crates declare go
    /// (`#[proc_macro_derive(Name, attributes(helper))]` at the crate's root), as they always
    /// do.
    fn helpers_left(
        &self,
        item: &Item,
        uses: &[(syn::Path, Use)],
    ) -> Result<BTreeSet<String>, Failure> {
        let mut helpers = BTreeSet::new();
        let mut unreadable = None;
        for (_, used) in uses {
            match &used.provider.krate.helpers {
                Ok(known) => helpers.extend(known.get(&used.name).into_iter().flatten().cloned()),
                Err(e) => {
                    unreadable.get_or_insert((used, e));
                }
            }
        }
        let attrs = item_attrs_of(item);
        let left: Vec<Vec<String>> = derives_named(attrs)
            .iter()
            .map(|p| p.segments.iter().map(|s| unraw(&s.ident)).collect())
            .collect();
        if let Some(other) = left.iter().find(|p| !is_builtin_derive(p)) {
            if let Some((used, e)) = unreadable {
                return Err(Failure {
                    krate: Some(Arc::clone(&used.provider.krate)),
                    text: format!(
                        "`{}` ({}) on {}: its helper attributes cannot be read ({e}), and \
                         `{}` stays on the item, whose helpers they may be",
                        used.shown,
                        used.provider.krate.package,
                        self.wherein(),
                        other.join("::"),
                    ),
                });
            }
            return Ok(helpers);
        }
        let kept: BTreeSet<&str> = left
            .iter()
            .filter_map(|p| builtin_derive_helper(p))
            .collect();
        let mut names = BTreeSet::new();
        attribute_names(item, &mut names);
        for name in names {
            if is_builtin_attribute(std::slice::from_ref(&name))
                || kept.contains(name.as_str())
                || self.imported_from_outside_std(&name)
            {
                continue;
            }
            let path = syn::Path::from(crate::bundle::ident(&name));
            if self.resolve(&path, Kind::Attr)?.is_none() {
                helpers.insert(name);
            }
        }
        Ok(helpers)
    }

    /// Whether the module imports `name` from a path outside std, core and alloc (which export
    /// no attribute macro but rustc's own).
    fn imported_from_outside_std(&self, name: &str) -> bool {
        self.scope().imports.get(name).is_some_and(|paths| {
            paths.iter().any(|p| {
                !p.first()
                    .is_some_and(|first| matches!(first.as_str(), "std" | "core" | "alloc"))
            })
        })
    }

    /// Expands a function-like macro in expression, type or pattern position.
    fn inline<T>(
        &mut self,
        mac: &syn::Macro,
        target: Target,
        take: impl FnOnce(Parsed) -> T,
    ) -> Option<T> {
        match self.bang_use(mac) {
            Ok(None) => None,
            Ok(Some(used)) => match self.expansion(&used, mac.tokens.clone(), None, target) {
                Ok(parsed) => Some(take(parsed)),
                Err(failure) => {
                    self.fail(failure);
                    None
                }
            },
            Err(failure) => {
                self.fail(failure);
                None
            }
        }
    }
}

/// Where an expansion goes, and so how it is parsed.
#[derive(Clone, Copy)]
enum Target {
    Items,
    ImplItems,
    TraitItems,
    Stmts,
    Expr,
    Type,
    Pat,
}

impl Target {
    fn what(self) -> &'static str {
        match self {
            Target::Items => "items",
            Target::ImplItems => "items of an impl",
            Target::TraitItems => "items of a trait",
            Target::Stmts => "statements",
            Target::Expr => "an expression",
            Target::Type => "a type",
            Target::Pat => "a pattern",
        }
    }

    fn parse(self, tokens: TokenStream) -> syn::Result<Parsed> {
        use syn::parse::Parser;
        Ok(match self {
            Target::Items => Parsed::Items(syn::parse2::<syn::File>(tokens)?.items),
            Target::ImplItems => {
                let imp: syn::ItemImpl = syn::parse2(quote::quote!(impl X { #tokens }))?;
                Parsed::ImplItems(imp.items)
            }
            Target::TraitItems => {
                let tr: syn::ItemTrait = syn::parse2(quote::quote!(trait X { #tokens }))?;
                Parsed::TraitItems(tr.items)
            }
            Target::Stmts => Parsed::Stmts(syn::Block::parse_within.parse2(tokens)?),
            Target::Expr => Parsed::Expr(syn::parse2(tokens)?),
            Target::Type => Parsed::Type(syn::parse2(tokens)?),
            Target::Pat => Parsed::Pat(syn::Pat::parse_multi_with_leading_vert.parse2(tokens)?),
        })
    }
}

/// What a list of items of one kind (a module's, an impl's, a trait's) has in common here.
trait Host: Clone + ToTokens {
    const TARGET: Target;
    fn attrs(&mut self) -> Option<&mut Vec<Attribute>>;
    /// A function-like macro call in this item's place.
    fn bang(&self) -> Option<&syn::Macro>;
    fn what(&self) -> String;
    fn from_parsed(parsed: Parsed) -> Vec<Self>;
    fn derives(&mut self, _pass: &mut Pass<'_>) -> Result<Option<Vec<Self>>, Failure> {
        Ok(None)
    }
    /// Walks into the item.
    fn descend(&mut self, pass: &mut Pass<'_>);
}

impl Host for Item {
    const TARGET: Target = Target::Items;

    fn attrs(&mut self) -> Option<&mut Vec<Attribute>> {
        expand::item_attrs(self)
    }

    fn bang(&self) -> Option<&syn::Macro> {
        match self {
            Item::Macro(m) if m.ident.is_none() => Some(&m.mac),
            _ => None,
        }
    }

    fn what(&self) -> String {
        let named = |kind: &str, ident: &syn::Ident| format!("`{kind} {ident}`");
        match self {
            Item::Fn(f) => named("fn", &f.sig.ident),
            Item::Struct(s) => named("struct", &s.ident),
            Item::Enum(e) => named("enum", &e.ident),
            Item::Union(u) => named("union", &u.ident),
            Item::Trait(t) => named("trait", &t.ident),
            Item::Mod(m) => named("mod", &m.ident),
            Item::Const(c) => named("const", &c.ident),
            Item::Static(s) => named("static", &s.ident),
            Item::Type(t) => named("type", &t.ident),
            Item::Impl(i) => format!("`impl {}`", i.self_ty.to_token_stream()),
            Item::Macro(m) => format!("`{}!`", m.mac.path.to_token_stream()),
            _ => "an item".to_owned(),
        }
        .replace(" < ", "<")
        .replace(" >", ">")
    }

    fn from_parsed(parsed: Parsed) -> Vec<Item> {
        match parsed {
            Parsed::Items(items) => items,
            _ => Vec::new(),
        }
    }

    fn derives(&mut self, pass: &mut Pass<'_>) -> Result<Option<Vec<Item>>, Failure> {
        pass.derive(self)
    }

    fn descend(&mut self, pass: &mut Pass<'_>) {
        pass.visit_item_mut(self);
    }
}

impl Host for syn::ImplItem {
    const TARGET: Target = Target::ImplItems;

    fn attrs(&mut self) -> Option<&mut Vec<Attribute>> {
        expand::impl_item_attrs(self)
    }

    fn bang(&self) -> Option<&syn::Macro> {
        match self {
            syn::ImplItem::Macro(m) => Some(&m.mac),
            _ => None,
        }
    }

    fn what(&self) -> String {
        match self {
            syn::ImplItem::Fn(f) => format!("`fn {}`", f.sig.ident),
            syn::ImplItem::Const(c) => format!("`const {}`", c.ident),
            syn::ImplItem::Type(t) => format!("`type {}`", t.ident),
            _ => "an item of an impl".to_owned(),
        }
    }

    fn from_parsed(parsed: Parsed) -> Vec<Self> {
        match parsed {
            Parsed::ImplItems(items) => items,
            _ => Vec::new(),
        }
    }

    fn descend(&mut self, pass: &mut Pass<'_>) {
        pass.visit_impl_item_mut(self);
    }
}

impl Host for syn::TraitItem {
    const TARGET: Target = Target::TraitItems;

    fn attrs(&mut self) -> Option<&mut Vec<Attribute>> {
        expand::trait_item_attrs(self)
    }

    fn bang(&self) -> Option<&syn::Macro> {
        match self {
            syn::TraitItem::Macro(m) => Some(&m.mac),
            _ => None,
        }
    }

    fn what(&self) -> String {
        match self {
            syn::TraitItem::Fn(f) => format!("`fn {}`", f.sig.ident),
            syn::TraitItem::Const(c) => format!("`const {}`", c.ident),
            syn::TraitItem::Type(t) => format!("`type {}`", t.ident),
            _ => "an item of a trait".to_owned(),
        }
    }

    fn from_parsed(parsed: Parsed) -> Vec<Self> {
        match parsed {
            Parsed::TraitItems(items) => items,
            _ => Vec::new(),
        }
    }

    fn descend(&mut self, pass: &mut Pass<'_>) {
        pass.visit_trait_item_mut(self);
    }
}

impl VisitMut for Pass<'_> {
    fn visit_item_mod_mut(&mut self, module: &mut syn::ItemMod) {
        if let Some((_, items)) = &mut module.content {
            // A module sees its own imports, and the root's `#[macro_use] extern crate`s.
            let mut scope = Scope::of_items(items, false);
            scope.macro_use = self
                .scopes
                .first()
                .map(|s| s.macro_use.clone())
                .unwrap_or_default();
            self.scopes.push(scope);
            self.host_items(items);
            self.scopes.pop();
        }
    }

    fn visit_item_impl_mut(&mut self, imp: &mut syn::ItemImpl) {
        self.visit_generics_mut(&mut imp.generics);
        self.visit_type_mut(&mut imp.self_ty);
        self.host_items(&mut imp.items);
    }

    fn visit_item_trait_mut(&mut self, tr: &mut syn::ItemTrait) {
        self.visit_generics_mut(&mut tr.generics);
        self.host_items(&mut tr.items);
    }

    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        if self.stopped() {
            return;
        }
        let mut scope = self.scope().clone();
        let local_items: Vec<Item> = block
            .stmts
            .iter()
            .filter_map(|s| match s {
                syn::Stmt::Item(item @ Item::Use(_)) => Some(item.clone()),
                _ => None,
            })
            .collect();
        scope.add(&local_items, false);
        self.scopes.push(scope);
        let mut i = 0;
        while i < block.stmts.len() && !self.stopped() {
            let last = i + 1 == block.stmts.len();
            let replaced: Option<Vec<syn::Stmt>> = match &mut block.stmts[i] {
                syn::Stmt::Item(item) => {
                    let mut one = vec![std::mem::replace(item, Item::Verbatim(TokenStream::new()))];
                    self.host_items(&mut one);
                    Some(one.into_iter().map(syn::Stmt::Item).collect())
                }
                syn::Stmt::Macro(stmt) if stmt.attrs.is_empty() => {
                    let mac = stmt.mac.clone();
                    // The block's value: what it expands to may end in one too.
                    let value = last && stmt.semi_token.is_none();
                    let expanded = self.inline(&mac, Target::Stmts, |parsed| match parsed {
                        Parsed::Stmts(stmts) => stmts,
                        _ => Vec::new(),
                    });
                    if expanded.is_none() {
                        self.visit_stmt_mut(&mut block.stmts[i]);
                    }
                    expanded.map(|stmts| {
                        // What it expands to is walked as a block of its own.
                        let mut inner = syn::Block {
                            brace_token: Default::default(),
                            stmts,
                        };
                        self.depth += 1;
                        self.visit_block_mut(&mut inner);
                        self.depth -= 1;
                        if !value {
                            end_statement(&mut inner.stmts);
                        }
                        inner.stmts
                    })
                }
                other => {
                    self.visit_stmt_mut(other);
                    None
                }
            };
            match replaced {
                Some(stmts) => {
                    let n = stmts.len();
                    block.stmts.splice(i..i + 1, stmts);
                    i += n;
                }
                None => i += 1,
            }
        }
        self.scopes.pop();
    }

    fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
        if self.stopped() {
            return;
        }
        if let syn::Expr::Macro(m) = expr {
            let mac = m.mac.clone();
            if let Some(new) = self.inline(&mac, Target::Expr, |parsed| match parsed {
                Parsed::Expr(e) => e,
                _ => syn::parse_quote!(()),
            }) {
                // An expansion is one expression wherever it stands: parenthesised, so that
                // `2 * m!()` keeps its meaning when `m!()` is `a + b`.
                *expr = match new {
                    e @ (syn::Expr::Lit(_)
                    | syn::Expr::Path(_)
                    | syn::Expr::Paren(_)
                    | syn::Expr::Block(_)
                    | syn::Expr::Call(_)
                    | syn::Expr::MethodCall(_)
                    | syn::Expr::Macro(_)
                    | syn::Expr::Tuple(_)
                    | syn::Expr::Array(_)) => e,
                    e => syn::parse_quote!((#e)),
                };
                self.depth += 1;
                self.visit_expr_mut(expr);
                self.depth -= 1;
                return;
            }
        }
        visit_mut::visit_expr_mut(self, expr);
    }

    fn visit_type_mut(&mut self, ty: &mut syn::Type) {
        if let syn::Type::Macro(m) = ty {
            let mac = m.mac.clone();
            if let Some(new) = self.inline(&mac, Target::Type, |parsed| match parsed {
                Parsed::Type(t) => t,
                _ => syn::parse_quote!(()),
            }) {
                *ty = new;
                self.depth += 1;
                self.visit_type_mut(ty);
                self.depth -= 1;
                return;
            }
        }
        visit_mut::visit_type_mut(self, ty);
    }

    fn visit_pat_mut(&mut self, pat: &mut syn::Pat) {
        if let syn::Pat::Macro(m) = pat {
            let mac = m.mac.clone();
            if let Some(new) = self.inline(&mac, Target::Pat, |parsed| match parsed {
                Parsed::Pat(p) => p,
                _ => syn::parse_quote!(_),
            }) {
                *pat = new;
                self.depth += 1;
                self.visit_pat_mut(pat);
                self.depth -= 1;
                return;
            }
        }
        visit_mut::visit_pat_mut(self, pat);
    }

    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        if self.used_in_tokens(mac.tokens.clone()).is_none() {
            return;
        }
        // Arguments that read as expressions (`println!("{}", m!(x))`, `vec![a, m!(b)]`,
        // `assert_eq!(m!(x), 1)`) are expanded as expressions.
        let exprs = Punctuated::<syn::Expr, Token![,]>::parse_terminated;
        if let Ok(mut args) = mac.parse_body_with(exprs) {
            for arg in args.iter_mut() {
                self.visit_expr_mut(arg);
            }
            mac.tokens = args.to_token_stream();
        }
        // Anywhere else it cannot be expanded: the bundler does not parse other macros' tokens.
        if let Some(shown) = self.used_in_tokens(mac.tokens.clone()) {
            let text = format!(
                "`{shown}` in {} stands inside the tokens of `{}!`, which the bundler does not \
                 parse, so it cannot be expanded",
                self.wherein(),
                mac.path.to_token_stream().to_string().replace(' ', "")
            );
            self.fail(Failure { krate: None, text });
        }
    }
}

impl Pass<'_> {
    /// A proc-macro use (`m!(...)`, `#[attr]`, `#[derive(D)]`) among `tokens`, if one resolves.
    fn used_in_tokens(&mut self, tokens: TokenStream) -> Option<String> {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        for (i, tree) in trees.iter().enumerate() {
            match tree {
                TokenTree::Ident(ident) => {
                    let bang = matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!')
                        && matches!(trees.get(i + 2), Some(TokenTree::Group(_)));
                    let after_path = i >= 1
                        && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == ':');
                    if bang && !after_path {
                        let path: syn::Path = ident.clone().into();
                        match self.resolve(&path, Kind::Bang) {
                            Ok(Some(_)) => return Some(format!("{ident}!")),
                            Ok(None) => {}
                            Err(failure) => {
                                self.fail(failure);
                                return None;
                            }
                        }
                    }
                }
                TokenTree::Punct(p) if p.as_char() == '#' => {
                    if let Some(TokenTree::Group(g)) = trees.get(i + 1) {
                        if let Ok(attr) = syn::parse2::<AttrBody>(g.stream()) {
                            let found = match &attr.0 {
                                Meta::List(list) if list.path.is_ident("derive") => list
                                    .parse_args_with(
                                        Punctuated::<syn::Path, Token![,]>::parse_terminated,
                                    )
                                    .ok()
                                    .into_iter()
                                    .flatten()
                                    .find(|path| {
                                        matches!(
                                            self.resolve(path, Kind::CustomDerive),
                                            Ok(Some(_))
                                        )
                                    })
                                    .map(|path| format!("#[derive({})]", path.to_token_stream())),
                                meta => {
                                    matches!(self.resolve(meta.path(), Kind::Attr), Ok(Some(_)))
                                        .then(|| format!("#[{}]", meta.path().to_token_stream()))
                                }
                            };
                            if let Some(found) = found {
                                return Some(found.replace(' ', ""));
                            }
                        }
                    }
                }
                TokenTree::Group(g) => {
                    if let Some(found) = self.used_in_tokens(g.stream()) {
                        return Some(found);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// The inside of `#[...]`.
struct AttrBody(Meta);

impl syn::parse::Parse for AttrBody {
    fn parse(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
        Ok(AttrBody(input.parse()?))
    }
}

/// A statement macro's expansion, `stmts`, where it is not the block's value (`m!(...);`, or
/// any but the last statement): its last statement ended with `;` where it needs one to stand
/// before another (`a + b`, `m!(x)`; not a block-like expression, `{ ... }` or `if`), as rustc
/// reads the expansion of a macro there as statements.
fn end_statement(stmts: &mut [syn::Stmt]) {
    match stmts.last_mut() {
        Some(syn::Stmt::Expr(expr, semi @ None)) if !block_like(expr) => {
            *semi = Some(Default::default());
        }
        Some(syn::Stmt::Macro(
            mac @ syn::StmtMacro {
                semi_token: None, ..
            },
        )) if !matches!(mac.mac.delimiter, syn::MacroDelimiter::Brace(_)) => {
            mac.semi_token = Some(Default::default());
        }
        _ => {}
    }
}

/// Whether `expr` stands as a statement without `;` (the Reference's block-like expressions).
fn block_like(expr: &syn::Expr) -> bool {
    matches!(
        expr,
        syn::Expr::Block(_)
            | syn::Expr::Const(_)
            | syn::Expr::ForLoop(_)
            | syn::Expr::If(_)
            | syn::Expr::Loop(_)
            | syn::Expr::Match(_)
            | syn::Expr::TryBlock(_)
            | syn::Expr::Unsafe(_)
            | syn::Expr::While(_)
    )
}

/// `extern crate dep as alias;` in a block becomes `use dep as alias;` (and a plain `extern
/// crate dep;` goes): inside one file there are no crates to declare, and the bundler's path
/// rewrite then points `dep` at its module.
pub(super) struct ExternCratesInBlocks;

impl VisitMut for ExternCratesInBlocks {
    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        block.stmts.retain_mut(|stmt| {
            let syn::Stmt::Item(Item::ExternCrate(e)) = stmt else {
                return true;
            };
            if e.ident == "self" {
                return true;
            }
            let Some((_, alias)) = &e.rename else {
                return false;
            };
            let (attrs, vis, dep) = (&e.attrs, &e.vis, &e.ident);
            *stmt = syn::Stmt::Item(syn::parse_quote!(#(#attrs)* #vis use #dep as #alias;));
            true
        });
        visit_mut::visit_block_mut(self, block);
    }
}

/// The attributes of a struct, enum or union (none for another item).
fn item_attrs_of(item: &Item) -> &[Attribute] {
    match item {
        Item::Struct(s) => &s.attrs,
        Item::Enum(e) => &e.attrs,
        Item::Union(u) => &u.attrs,
        _ => &[],
    }
}

/// The attributes `attr` stands for: itself, or for `#[cfg_attr(P, a, b)]` (a predicate the
/// crate's settings left open), `a` and `b`, at any depth.
fn attributes_within(attr: &Meta, out: &mut Vec<Meta>) {
    if let Meta::List(list) = attr {
        if list.path.is_ident("cfg_attr") {
            if let Ok(args) = list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
            {
                for inner in args.into_iter().skip(1) {
                    attributes_within(&inner, out);
                }
                return;
            }
        }
    }
    out.push(attr.clone());
}

/// Every derive `attrs` name, those behind an open `cfg_attr` too.
pub(super) fn derives_named(attrs: &[Attribute]) -> Vec<syn::Path> {
    let mut metas = Vec::new();
    for attr in attrs {
        attributes_within(&attr.meta, &mut metas);
    }
    metas
        .iter()
        .filter_map(|meta| match meta {
            Meta::List(list) if list.path.is_ident("derive") => list
                .parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated)
                .ok(),
            _ => None,
        })
        .flatten()
        .collect()
}

/// The one-word attribute names on `item`, a struct, enum or union, its generic parameters,
/// fields and variants (those behind an open `cfg_attr` too): where a derive's helpers may
/// stand.
pub(super) fn attribute_names(item: &Item, names: &mut BTreeSet<String>) {
    AttributeNames { names }.visit_item(item);
}

struct AttributeNames<'a> {
    names: &'a mut BTreeSet<String>,
}

impl<'ast> Visit<'ast> for AttributeNames<'_> {
    fn visit_attribute(&mut self, attr: &'ast Attribute) {
        let mut metas = Vec::new();
        attributes_within(&attr.meta, &mut metas);
        for meta in metas {
            if let Some(ident) = meta.path().get_ident() {
                self.names.insert(unraw(ident));
            }
        }
    }

    fn visit_item(&mut self, item: &'ast Item) {
        match item {
            Item::Struct(_) | Item::Enum(_) | Item::Union(_) => {
                syn::visit::visit_item(self, item);
            }
            _ => {}
        }
    }

    // Helpers stand on the item and its parts, never inside its types or expressions.
    fn visit_type(&mut self, _: &'ast syn::Type) {}

    fn visit_expr(&mut self, _: &'ast syn::Expr) {}
}

/// Removes the helper attributes of expanded derives from an item, its generic parameters,
/// fields and variants; from an open `cfg_attr`, the helpers it would add.
struct RemoveHelpers<'a> {
    helpers: &'a BTreeSet<String>,
}

impl RemoveHelpers<'_> {
    fn is_helper(&self, path: &syn::Path) -> bool {
        path.get_ident()
            .is_some_and(|i| self.helpers.contains(&unraw(i)))
    }
}

impl VisitMut for RemoveHelpers<'_> {
    fn visit_attributes_mut(&mut self, attrs: &mut Vec<Attribute>) {
        attrs.retain_mut(|a| {
            if self.is_helper(a.path()) {
                return false;
            }
            let Meta::List(list) = &a.meta else {
                return true;
            };
            if !list.path.is_ident("cfg_attr") {
                return true;
            }
            let Ok(args) = list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
            else {
                return true;
            };
            let mut args = args.into_iter();
            let Some(predicate) = args.next() else {
                return true;
            };
            let inner: Vec<Meta> = args.collect();
            let mut kept = Vec::new();
            for meta in &inner {
                let mut nested = vec![syn::parse_quote!(#[#meta])];
                self.visit_attributes_mut(&mut nested);
                kept.extend(nested.into_iter().map(|n| n.meta));
            }
            if kept == inner {
                return true;
            }
            if kept.is_empty() {
                return false;
            }
            a.meta = syn::parse_quote!(cfg_attr(#predicate, #(#kept),*));
            true
        });
    }

    fn visit_item_struct_mut(&mut self, item: &mut syn::ItemStruct) {
        self.visit_attributes_mut(&mut item.attrs);
        self.visit_generics_mut(&mut item.generics);
        self.visit_fields_mut(&mut item.fields);
    }

    fn visit_item_enum_mut(&mut self, item: &mut syn::ItemEnum) {
        self.visit_attributes_mut(&mut item.attrs);
        self.visit_generics_mut(&mut item.generics);
        for variant in &mut item.variants {
            self.visit_attributes_mut(&mut variant.attrs);
            self.visit_fields_mut(&mut variant.fields);
        }
    }

    fn visit_item_union_mut(&mut self, item: &mut syn::ItemUnion) {
        self.visit_attributes_mut(&mut item.attrs);
        self.visit_generics_mut(&mut item.generics);
        for field in &mut item.fields.named {
            self.visit_attributes_mut(&mut field.attrs);
        }
    }

    fn visit_generics_mut(&mut self, generics: &mut syn::Generics) {
        for param in &mut generics.params {
            let attrs = match param {
                syn::GenericParam::Lifetime(p) => &mut p.attrs,
                syn::GenericParam::Type(p) => &mut p.attrs,
                syn::GenericParam::Const(p) => &mut p.attrs,
            };
            self.visit_attributes_mut(attrs);
        }
    }

    fn visit_field_mut(&mut self, field: &mut syn::Field) {
        self.visit_attributes_mut(&mut field.attrs);
    }
}

/// [`RemoveHelpers`] on every attribute of an item, at any depth: for a derive's output.
struct HelpersAnywhere<'a>(RemoveHelpers<'a>);

impl VisitMut for HelpersAnywhere<'_> {
    fn visit_attributes_mut(&mut self, attrs: &mut Vec<Attribute>) {
        self.0.visit_attributes_mut(attrs);
    }
}

/// `#[automatically_derived]` kept only on trait impls: rustc warns of it on an inherent impl
/// ("will become a hard error in a future release"), which strum's `EnumIter` and derive_more
/// write; in their crates the warning is hidden, as in any expansion of another crate's macro.
pub(super) struct DerivedOnlyOnTraitImpls;

impl VisitMut for DerivedOnlyOnTraitImpls {
    fn visit_item_impl_mut(&mut self, imp: &mut syn::ItemImpl) {
        if imp.trait_.is_none() {
            imp.attrs
                .retain(|a| !a.path().is_ident("automatically_derived"));
        }
        visit_mut::visit_item_impl_mut(self, imp);
    }
}

/// `(T)` as a type, written `T` where the parentheses change nothing (around a path, a tuple,
/// an array, a slice or another parenthesised type; never around `dyn A + B`): derive_more's
/// `From` writes `From<(Point)>`, on which rustc's `unused_parens` lint, quiet in another
/// crate's expansion, warns in a bundle's own code.
pub(super) struct NeedlessTypeParens;

impl VisitMut for NeedlessTypeParens {
    fn visit_type_mut(&mut self, ty: &mut syn::Type) {
        visit_mut::visit_type_mut(self, ty);
        if let syn::Type::Paren(paren) = ty {
            if matches!(
                *paren.elem,
                syn::Type::Path(_)
                    | syn::Type::Tuple(_)
                    | syn::Type::Array(_)
                    | syn::Type::Slice(_)
                    | syn::Type::Never(_)
            ) {
                let inner =
                    std::mem::replace(&mut *paren.elem, syn::Type::Verbatim(TokenStream::new()));
                *ty = inner;
            }
        }
    }
}

/// `compile_error!("...")` in an expansion: its message.
pub(super) fn compile_error(trees: &[Tree]) -> Option<String> {
    for (i, tree) in trees.iter().enumerate() {
        match tree {
            Tree::Ident { text, .. } if text == "compile_error" => {
                let bang = matches!(trees.get(i + 1), Some(Tree::Punct { ch: '!', .. }));
                if let (true, Some(Tree::Group { trees: inner, .. })) = (bang, trees.get(i + 2)) {
                    let message = inner.iter().find_map(|t| match t {
                        Tree::Literal { text, .. } => {
                            syn::parse_str::<syn::LitStr>(text).ok().map(|s| s.value())
                        }
                        _ => None,
                    });
                    return Some(message.unwrap_or_else(|| "compile_error!".to_owned()));
                }
            }
            Tree::Group { trees: inner, .. } => {
                if let Some(found) = compile_error(inner) {
                    return Some(found);
                }
            }
            _ => {}
        }
    }
    None
}

/// Every identifier in `tokens`.
pub(super) fn idents(tokens: TokenStream, out: &mut BTreeSet<String>) {
    for token in tokens {
        match token {
            TokenTree::Ident(ident) => {
                out.insert(unraw(&ident));
            }
            TokenTree::Group(group) => idents(group.stream(), out),
            _ => {}
        }
    }
}

/// `reason` (what a macro said, in a panic or a `compile_error!`, which may quote tokens with a
/// line break inside a literal) on one line, as a refusal is: its lines trimmed and joined by a
/// space.
fn one_line(reason: &str) -> String {
    let lines: Vec<&str> = reason
        .split(['\n', '\r'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::proc_macros::flat;
    use crate::bundle::proc_macros::stand_in::{self, Walked};
    use std::path::Path;

    /// `source`, the solution's crate, walked with the stand-in's macros (its promises kept):
    /// the crate printed.
    fn walked(source: &str) -> String {
        match stand_in::walk_and_check(source, true) {
            Ok(Walked::Expanded(printed)) => printed,
            other => panic!("{other:?}"),
        }
    }

    /// What a macro says is quoted in one line, even when it quotes a literal with a line
    /// break in it (the proc_macro fuzz target's fourth finding).
    #[test]
    fn a_macros_message_with_a_line_break_is_refused_in_one_line() {
        let source = "#[stand_in::rename(two b\"line\nbreak\")]\nfn original() {}\nfn main() {}";
        match stand_in::walk_and_check(source, true) {
            Ok(Walked::Refused(said)) => {
                assert!(said.contains("expected one name"), "{said}");
                assert!(said.contains("b\"line break\""), "{said}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(one_line("a\r\n  b\n\nc "), "a b c");
    }

    #[test]
    fn undeclared_helpers_go_with_their_derives_wherever_they_stand() {
        // `Emit` declares its helper `emit` nowhere the bundler reads, as derive_more.
        let printed = walked(
            "use stand_in::Emit;
             #[derive(Clone, Emit)]
             #[emit(x)]
             #[cfg_attr(unix, emit, doc = \"kept\")]
             #[cfg_attr(windows, emit)]
             struct S<#[emit] T> { #[emit] #[doc = \"field\"] a: T }
             #[derive(stand_in::Emit)]
             enum E { #[emit] A { #[emit = 1] x: u8 }, B }",
        );
        assert!(!printed.contains("emit"), "{printed}");
        assert!(printed.contains("#[derive(Clone)]\n"), "{printed}");
        assert!(
            printed.contains("#[cfg_attr(unix, doc = \"kept\")]"),
            "{printed}"
        );
        assert!(!printed.contains("windows"), "{printed}");
        assert!(printed.contains("///field\n    a: T,"), "{printed}");
        // The derive read them: three (`cfg_attr`'s is rustc's to settle).
        assert!(
            printed.contains("STAND_IN_EMITTED: usize = 3usize"),
            "{printed}"
        );
        assert!(
            printed.contains("STAND_IN_EMITTED: usize = 2usize"),
            "{printed}"
        );
    }

    #[test]
    fn a_std_derives_own_helper_stays_while_that_derive_stays() {
        let printed = walked(
            "use stand_in::Emit;
             #[derive(Default, Emit)] enum Kept { #[default] X, Y }
             #[derive(Emit)] enum Gone { #[default] X, Y }",
        );
        assert!(
            printed.contains("#[derive(Default)]\nenum Kept {\n    #[default]\n    X,"),
            "{printed}"
        );
        assert!(printed.contains("enum Gone {\n    X,"), "{printed}");
    }

    #[test]
    fn beside_a_derive_left_unresolved_only_declared_helpers_go() {
        // `other::Mystery` is no macro the walk knows: the attributes left may be its helpers.
        let printed = walked(
            "use stand_in::{Emit, Noted};
             use other::Mystery;
             #[derive(Emit, Noted, Mystery)]
             #[emit] #[note] #[mystery]
             struct S;",
        );
        assert!(
            printed.contains("#[derive(Mystery)]\n#[emit]\n#[mystery]\nstruct S;"),
            "{printed}"
        );
        // Had `Emit`'s helpers been declared unreadably, that is said.
        let root = Path::new("/stand-in/src/main.rs");
        let mut proc_macros = crate::bundle::proc_macros::ProcMacros::stand_in(root, true);
        let shared = Arc::get_mut(proc_macros.0.as_mut().unwrap()).unwrap();
        let provider = &mut shared.crates.get_mut(root).unwrap().providers[0];
        provider.krate = Arc::new(super::super::MacroCrate {
            package: stand_in::PACKAGE.to_owned(),
            dylib: None,
            helpers: Err("cannot parse lib.rs".to_owned()),
        });
        let mut file = syn::parse_str(
            "use stand_in::Emit; use other::Mystery; #[derive(Emit, Mystery)] struct S;",
        )
        .unwrap();
        let said = proc_macros
            .expand(&mut file, root, &Cfg::default())
            .unwrap_err()
            .to_string();
        assert_eq!(
            said,
            "`#[derive(Emit)]` (stand-in 0.0.0) on `struct S` in the solution: its helper \
             attributes cannot be read (cannot parse lib.rs), and `Mystery` stays on the item, \
             whose helpers they may be"
        );
        // Without a derive left, they need not be read.
        let mut file =
            syn::parse_str("use stand_in::Emit; #[derive(Emit)] #[emit] struct S;").unwrap();
        proc_macros
            .expand(&mut file, root, &Cfg::default())
            .unwrap();
        assert!(!file.to_token_stream().to_string().contains("emit"));
    }

    #[test]
    fn rustcs_tools_macros_and_names_imported_from_outside_std_are_no_helpers() {
        let printed = walked(
            "use stand_in::Emit;
             use attrs::tag;
             use std::fmt;
             #[derive(Emit)]
             #[tag] #[fmt] #[emit] #[rustfmt::skip] #[allow(dead_code)] #[stand_in::rename(T)]
             struct S;",
        );
        assert!(
            printed.contains("#[tag]\n#[rustfmt::skip]\n#[allow(dead_code)]\nstruct T;"),
            "{printed}"
        );
        assert!(
            !printed.contains("#[fmt]") && !printed.contains("#[emit]"),
            "{printed}"
        );
    }

    #[test]
    fn automatically_derived_stays_only_on_the_trait_impls_an_expansion_writes() {
        let printed = walked(
            "use stand_in::Emit;
             #[derive(Emit)] struct S;
             #[automatically_derived] impl S { fn own() {} }",
        );
        assert!(
            printed.contains("impl S {\n    pub const STAND_IN_EMITTED"),
            "{printed}"
        );
        assert!(
            printed.contains("#[automatically_derived]\nimpl ::core::fmt::Debug for S {"),
            "{printed}"
        );
        // What the crate wrote itself is left to the check (`bundle --check` refuses it).
        assert!(
            printed.contains("#[automatically_derived]\nimpl S {\n    fn own() {}"),
            "{printed}"
        );
        // And the promise checker sees one left on an expansion's inherent impl.
        let input = syn::parse_str("").unwrap();
        let left = syn::parse_str(
            "#[automatically_derived] impl S { pub const STAND_IN_EMITTED: usize = 0; }",
        )
        .unwrap();
        assert_eq!(
            stand_in::broken_promise(&input, &left).as_deref(),
            Some("`#[automatically_derived]` is left on the inherent `impl S`")
        );
    }

    #[test]
    fn the_promise_checker_sees_a_helper_left() {
        let input = syn::parse_str("").unwrap();
        let left = syn::parse_str(
            "#[derive(Clone)] enum E { #[default] A, #[note] B }
             impl E { pub const STAND_IN_NOTED: usize = 1; }",
        )
        .unwrap();
        assert_eq!(
            stand_in::broken_promise(&input, &left).as_deref(),
            Some("the helper `#[default]` is left on `E`")
        );
        let kept = syn::parse_str(
            "#[derive(Default)] enum E { #[default] A }
             impl E { pub const STAND_IN_NOTED: usize = 1; }",
        )
        .unwrap();
        assert_eq!(stand_in::broken_promise(&input, &kept), None);
    }

    #[test]
    fn a_statement_macros_trailing_expression_ends_with_a_semicolon_unless_it_is_the_value() {
        // The proc_macro fuzz target's first finding: `identity! { let w = 8; S }` before
        // another statement printed `S` with no `;`, a crate that did not parse again.
        let printed = walked(
            "use stand_in::identity;
             fn f() -> u8 {
                 identity! { let w = 8; w }
                 identity!(w + 1);
                 identity!(println!(\"{}\", w));
                 identity! { if w > 1 { } }
                 identity! { w }
             }",
        );
        assert!(
            printed.contains(
                "let w = 8;\n    w;\n    w + 1;\n    println!(\"{}\", w);\n    if w > 1 {}\n    w\n}"
            ),
            "{printed}"
        );
    }

    #[test]
    fn needless_parentheses_around_an_expansions_types_go() {
        let printed = walked(
            "stand_in::identity! {
                 type A = (u8);
                 type B = Vec<((u8, u16))>;
                 type C<'a> = &'a (dyn std::any::Any + Send);
             }",
        );
        assert!(printed.contains("type A = u8;"), "{printed}");
        assert!(printed.contains("type B = Vec<(u8, u16)>;"), "{printed}");
        assert!(
            printed.contains("&'a (dyn std::any::Any + Send)"),
            "{printed}"
        );
    }

    #[test]
    fn an_expansions_compile_error_is_its_message() {
        let trees = |source: &str| -> Vec<Tree> {
            let flat = flat::encode(&source.parse().unwrap(), flat::NEWEST, 0);
            flat::decode(&flat, flat::NEWEST).unwrap()
        };
        assert_eq!(
            compile_error(&trees(
                "fn f() {} const _: () = { compile_error!(\"no \\\"x\\\"\"); };"
            )),
            Some("no \"x\"".to_owned())
        );
        assert_eq!(compile_error(&trees("fn compile_error() {}")), None);
    }

    #[test]
    fn extern_crates_in_blocks_become_uses() {
        let mut file: syn::File = syn::parse_str(
            "const _: () = { #[allow(x)] extern crate num_traits as _nt; extern crate alloc; \
             impl _nt::Zero for T {} };",
        )
        .unwrap();
        ExternCratesInBlocks.visit_file_mut(&mut file);
        let out = file.to_token_stream().to_string();
        assert!(
            out.contains("# [allow (x)] use num_traits as _nt ;"),
            "{out}"
        );
        assert!(!out.contains("extern crate"), "{out}");
    }
}
