//! Expansion: a crate's root file with every `mod x;` inlined from `x.rs` / `x/mod.rs` (or
//! `#[path]`), test code and docs stripped, the files it includes carried as literals (see
//! [`super::includes`]), and paths rewritten for life inside one file.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use proc_macro2::{Delimiter, Group, Ident, Punct, Spacing, TokenStream, TokenTree};
use syn::visit_mut::{self, VisitMut};
use syn::{Attribute, Item, Meta, UseTree};

use super::cfg::{Cfg, Value};
use super::reads::LookedAt;
use super::shadow::{self, ModuleTree};

/// Parses the crate root at `path` and inlines its out-of-line modules, recursively. Items
/// that `cfg` turns off (tests, features cargo did not enable) and docs are removed before
/// `mod x;` is followed, so `#[cfg(test)] mod tests;` needs no file.
pub fn load_crate(path: &Path, cfg: &Cfg) -> Result<syn::File> {
    load_crate_noting(path, cfg, &mut Vec::new())
}

/// [`load_crate`], noting in `looked_at` every file it read or looked for.
pub fn load_crate_noting(path: &Path, cfg: &Cfg, looked_at: &mut LookedAt) -> Result<syn::File> {
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let mut file = load_file(path, &dir, cfg, looked_at)?;
    strip_macro_docs(&mut file, cfg);
    Ok(file)
}

/// Docs in macro calls go too, except for macros whose rules match attributes (num-traits'
/// `float_const_impl! { #[doc = "..."] E, ... }`): those keep the attribute, emptied.
fn strip_macro_docs(file: &mut syn::File, cfg: &Cfg) {
    let mut attribute_macros = BTreeSet::new();
    matching_attributes(&file.items, &mut attribute_macros);
    StripMacroDocs {
        keep: &attribute_macros,
        cfg,
    }
    .visit_file_mut(file);
}

/// Items that come from no file (a proc macro's expansion) settled as [`load_crate`] settles a
/// crate's: `cfg`s decided, tests and docs stripped.
pub fn settle_items(items: Vec<Item>, cfg: &Cfg) -> Vec<Item> {
    let mut file = syn::File {
        shebang: None,
        attrs: Vec::new(),
        items,
    };
    expand_declaration_macros(&mut file.items);
    Strip { cfg }.visit_file_mut(&mut file);
    strip_macro_docs(&mut file, cfg);
    file.items
}

fn load_file(
    path: &Path,
    mod_dir: &Path,
    cfg: &Cfg,
    looked_at: &mut LookedAt,
) -> Result<syn::File> {
    let text =
        fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    looked_at.push((
        path.to_path_buf(),
        Some(super::cache::digest(text.as_bytes())),
    ));
    let mut file = syn::parse_file(&text).map_err(|e| {
        let at = e.span().start();
        anyhow::anyhow!(
            "cannot parse {}:{}:{}: {e}",
            path.display(),
            at.line,
            at.column + 1
        )
    })?;
    if let Some((line, name)) = bad_macro_rules(&file) {
        bail!(
            "{}:{line}: `macro_rules! {name}` does not read as rules (`(...) => {{ ... }};`)",
            path.display()
        );
    }
    if let Some((line, tokens)) = unfinished_item(&file) {
        bail!(
            "{}:{line}: `{tokens}` is no item rustc compiles (a `static`, `const` or `type` \
             without a value, or a function without a body, outside an `extern` block)",
            path.display()
        );
    }
    expand_declaration_macros(&mut file.items);
    strip_attrs(&mut file.attrs);
    Strip { cfg }.visit_file_mut(&mut file);
    // Before the modules are inlined: a path is relative to this file.
    super::includes::carry_included_files(&mut file, path, looked_at)?;
    inline_modules(&mut file.items, mod_dir, cfg, looked_at)?;
    Ok(file)
}

/// Replaces each `mod x;` in `items` by `mod x { ... }`, reading from `mod_dir`; a module
/// whose file's inner `#![cfg(...)]` is off goes.
fn inline_modules(
    items: &mut Vec<Item>,
    mod_dir: &Path,
    cfg: &Cfg,
    looked_at: &mut LookedAt,
) -> Result<()> {
    let mut off = Vec::new();
    for (k, item) in items.iter_mut().enumerate() {
        let module = match item {
            Item::Mod(module) => module,
            _ => continue,
        };
        // `mod r#ref;` is the file `ref.rs`.
        let name = module.ident.to_string();
        let name = name.strip_prefix("r#").map_or(name.clone(), str::to_owned);
        let explicit = path_attr(&module.attrs);
        module.attrs.retain(|a| !a.path().is_ident("path"));
        match &mut module.content {
            Some((_, inner)) => {
                let inner_dir = match &explicit {
                    Some(p) => mod_dir.join(p),
                    None => mod_dir.join(&name),
                };
                inline_modules(inner, &inner_dir, cfg, looked_at)?;
            }
            None => {
                let (file_path, child_dir) = match explicit {
                    Some(p) => {
                        let file_path = mod_dir.join(p);
                        let dir = file_path.parent().unwrap_or(mod_dir).to_path_buf();
                        (file_path, dir)
                    }
                    None => find_module_file(mod_dir, &name, looked_at)?,
                };
                let file = load_file(&file_path, &child_dir, cfg, looked_at)?;
                let mut attrs = file.attrs;
                attrs.retain(|a| matches!(a.style, syn::AttrStyle::Inner(_)));
                if !cfg.settle(&mut attrs) {
                    off.push(k);
                    continue;
                }
                module.attrs.extend(attrs);
                module.content = Some((Default::default(), file.items));
                module.semi = None;
            }
        }
    }
    for k in off.into_iter().rev() {
        items.remove(k);
    }
    Ok(())
}

/// The first `macro_rules!` whose body is not rules, `(MATCHER) => { EXPANSION }` separated by
/// `;`: its line and name. rustc rejects such a macro, and the printer cannot print it.
fn bad_macro_rules(file: &syn::File) -> Option<(usize, String)> {
    struct Finder(Option<(usize, String)>);
    impl<'ast> syn::visit::Visit<'ast> for Finder {
        fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
            if let (true, Some(name), None) =
                (item.mac.path.is_ident("macro_rules"), &item.ident, &self.0)
            {
                if !reads_as_rules(item.mac.tokens.clone()) {
                    let line = item.mac.path.segments[0].ident.span().start().line;
                    self.0 = Some((line, name.to_string()));
                }
            }
            syn::visit::visit_item_macro(self, item);
        }
    }
    let mut finder = Finder(None);
    syn::visit::Visit::visit_file(&mut finder, file);
    finder.0
}

/// The first item that syn kept as tokens outside an `extern` block (`pub static S: u8;`, `fn
/// f();`, in a module, an impl or a trait): its line and tokens. Stable Rust has no such item
/// there, so rustc rejects it (syn reads what it can; see [`super::print`] for the rest).
fn unfinished_item(file: &syn::File) -> Option<(usize, String)> {
    struct Finder(Option<(usize, String)>);
    impl Finder {
        fn found(&mut self, tokens: &TokenStream) {
            if self.0.is_none() {
                let line = tokens
                    .clone()
                    .into_iter()
                    .next()
                    .map_or(0, |t| t.span().start().line);
                self.0 = Some((line, tokens.to_string()));
            }
        }
    }
    impl<'ast> syn::visit::Visit<'ast> for Finder {
        fn visit_item(&mut self, item: &'ast Item) {
            match item {
                Item::Verbatim(tokens) => self.found(tokens),
                _ => syn::visit::visit_item(self, item),
            }
        }
        fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
            match item {
                syn::ImplItem::Verbatim(tokens) => self.found(tokens),
                _ => syn::visit::visit_impl_item(self, item),
            }
        }
        fn visit_trait_item(&mut self, item: &'ast syn::TraitItem) {
            match item {
                syn::TraitItem::Verbatim(tokens) => self.found(tokens),
                _ => syn::visit::visit_trait_item(self, item),
            }
        }
    }
    let mut finder = Finder(None);
    syn::visit::Visit::visit_file(&mut finder, file);
    finder.0
}

/// Whether `tokens` are `macro_rules!` rules, as the printer reads them.
fn reads_as_rules(tokens: TokenStream) -> bool {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Start,
        Matcher,
        Equal,
        Greater,
        Expander,
    }
    let mut state = State::Start;
    for tree in tokens {
        state = match (state, &tree) {
            (State::Start, TokenTree::Group(_)) => State::Matcher,
            (State::Matcher, TokenTree::Punct(p))
                if p.as_char() == '=' && p.spacing() == Spacing::Joint =>
            {
                State::Equal
            }
            (State::Equal, TokenTree::Punct(p))
                if p.as_char() == '>' && p.spacing() == Spacing::Alone =>
            {
                State::Greater
            }
            (State::Greater, TokenTree::Group(_)) => State::Expander,
            (State::Expander, TokenTree::Punct(p))
                if p.as_char() == ';' && p.spacing() == Spacing::Alone =>
            {
                State::Start
            }
            _ => return false,
        };
    }
    true
}

// ---------------------------------------------------------------------------------------------
// Declaration macros: items that a well-known macro declares, as plain items.

/// Replaces each item-position call of a well-known declaration macro by the items it declares,
/// each with the `cfg` that chose it, so that modules declared there (`mod sse2;`) are read like
/// any other and the `cfg`s are decided like any other: `cfg_if! { if #[cfg(a)] { ... } else
/// { ... } }` (the cfg-if crate's, and the copies hashbrown, getrandom and libc keep) and std's
/// `cfg_select! { a => { ... } _ => { ... } }`. A call that does not read as one is left as is.
pub fn expand_declaration_macros(items: &mut Vec<Item>) {
    let mut k = 0;
    while k < items.len() {
        let expanded = match &items[k] {
            Item::Macro(m) if m.ident.is_none() => {
                let name = m.mac.path.segments.last().map(|s| s.ident.to_string());
                match name.as_deref() {
                    Some("cfg_if") => cfg_if_items(m.mac.tokens.clone()),
                    Some("cfg_select") => cfg_select_items(m.mac.tokens.clone()),
                    _ => None,
                }
            }
            _ => None,
        };
        match expanded {
            // The declared items are looked at next (a `mod { ... }` among them too).
            Some(new) => {
                items.splice(k..=k, new);
            }
            None => {
                if let Item::Mod(m) = &mut items[k] {
                    if let Some((_, inner)) = &mut m.content {
                        expand_declaration_macros(inner);
                    }
                }
                k += 1;
            }
        }
    }
}

/// The branches of a `cfg_if!` call: `if #[cfg(M, ...)] { ITEMS } else if ... else { ITEMS }`,
/// each branch's items under `all(M..., not(any(every earlier branch's M...)))`, as cfg-if
/// writes them.
fn cfg_if_items(tokens: TokenStream) -> Option<Vec<Item>> {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let word = |k: usize, w: &str| matches!(trees.get(k), Some(TokenTree::Ident(i)) if i == w);
    let braced = |k: usize| match trees.get(k) {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => Some(g.stream()),
        _ => None,
    };
    let mut branches: Vec<(Option<Vec<Meta>>, TokenStream)> = Vec::new();
    let mut i = 0;
    loop {
        if !word(i, "if") {
            return None;
        }
        let is_hash = matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '#');
        let attr = match trees.get(i + 2) {
            Some(TokenTree::Group(g)) if is_hash && g.delimiter() == Delimiter::Bracket => {
                g.stream()
            }
            _ => return None,
        };
        let meta: Meta = syn::parse2(attr).ok()?;
        let list = match meta {
            Meta::List(list) if list.path.is_ident("cfg") => list,
            _ => return None,
        };
        let metas: Vec<Meta> = list
            .parse_args_with(syn::punctuated::Punctuated::<Meta, syn::Token![,]>::parse_terminated)
            .ok()?
            .into_iter()
            .collect();
        branches.push((Some(metas), braced(i + 3)?));
        i += 4;
        if i == trees.len() {
            break;
        }
        if !word(i, "else") {
            return None;
        }
        if word(i + 1, "if") {
            i += 1;
            continue;
        }
        branches.push((None, braced(i + 1)?));
        if i + 2 != trees.len() {
            return None;
        }
        break;
    }
    let mut earlier: Vec<Meta> = Vec::new();
    let mut out = Vec::new();
    for (metas, body) in branches {
        let mine = metas.unwrap_or_default();
        let predicate: Meta = syn::parse_quote!(all(#(#mine,)* not(any(#(#earlier),*))));
        earlier.extend(mine);
        out.extend(under_cfg(body, &predicate)?);
    }
    Some(out)
}

/// The arms of a `cfg_select!` call: `PREDICATE => { ITEMS }` ... `_ => { ITEMS }`, the first
/// arm whose predicate holds chosen: each arm's items under `all(P, not(any(earlier P...)))`.
fn cfg_select_items(tokens: TokenStream) -> Option<Vec<Item>> {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut arms: Vec<(Option<Meta>, TokenStream)> = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < trees.len() {
        let arrow = matches!(&trees[i], TokenTree::Punct(p) if p.as_char() == '=' && p.spacing() == Spacing::Joint)
            && matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '>');
        if !arrow {
            i += 1;
            continue;
        }
        let predicate: TokenStream = trees[start..i].iter().cloned().collect();
        let body = match trees.get(i + 2) {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => g.stream(),
            _ => return None,
        };
        let wildcard = predicate.to_string() == "_";
        let meta = if wildcard {
            None
        } else {
            Some(syn::parse2::<Meta>(predicate).ok()?)
        };
        arms.push((meta, body));
        i += 3;
        if matches!(trees.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ',') {
            i += 1;
        }
        start = i;
    }
    if start != trees.len() || arms.is_empty() {
        return None;
    }
    let mut earlier: Vec<Meta> = Vec::new();
    let mut out = Vec::new();
    for (meta, body) in arms {
        let mine: Vec<Meta> = meta.into_iter().collect();
        let predicate: Meta = syn::parse_quote!(all(#(#mine,)* not(any(#(#earlier),*))));
        earlier.extend(mine);
        out.extend(under_cfg(body, &predicate)?);
    }
    Some(out)
}

/// The items in `body`, each with `#[cfg(predicate)]` added.
fn under_cfg(body: TokenStream, predicate: &Meta) -> Option<Vec<Item>> {
    let file: syn::File = syn::parse2(body).ok()?;
    let mut items = file.items;
    expand_declaration_macros(&mut items);
    for item in &mut items {
        if let Some(attrs) = item_attrs(item) {
            attrs.insert(0, syn::parse_quote!(#[cfg(#predicate)]));
        }
    }
    Some(items)
}

fn find_module_file(
    mod_dir: &Path,
    name: &str,
    looked_at: &mut LookedAt,
) -> Result<(PathBuf, PathBuf)> {
    let flat = mod_dir.join(format!("{}.rs", name));
    let nested = mod_dir.join(name).join("mod.rs");
    let found = (flat.is_file(), nested.is_file());
    // The one found is noted as it is read; the one not found decides the module as much.
    for (path, is) in [(&flat, found.0), (&nested, found.1)] {
        if !is {
            looked_at.push((path.clone(), None));
        }
    }
    match found {
        (true, false) => Ok((flat, mod_dir.join(name))),
        (false, true) => Ok((nested, mod_dir.join(name))),
        (true, true) => bail!(
            "module `{}` found at both {} and {}",
            name,
            flat.display(),
            nested.display()
        ),
        (false, false) => bail!(
            "module `{}` not found: neither {} nor {} exists",
            name,
            flat.display(),
            nested.display()
        ),
    }
}

fn path_attr(attrs: &[Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

// ---------------------------------------------------------------------------------------------
// Stripping: what `cfg` turns off, `#[test]`, docs.

/// True when the attributes make the item test-only (`#[test]`, `#[bench]`).
fn is_test(attrs: &[Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path().is_ident("test") || a.path().is_ident("bench"))
}

/// Drops doc attributes (`///`, `//!`, `#[doc = ...]`, `#[doc(hidden)]`) and crate-level lint
/// settings about docs, which have nothing left to check in a bundle.
pub fn strip_attrs(attrs: &mut Vec<Attribute>) {
    attrs.retain(|a| {
        if a.path().is_ident("doc") {
            return false;
        }
        // `#[cfg_attr(docsrs, doc = include_str!("../README.md"))]`: docs too.
        if a.path().is_ident("cfg_attr")
            && is_doc_literal(quote::ToTokens::to_token_stream(&a.meta))
        {
            return false;
        }
        let lint = ["allow", "warn", "deny", "forbid"]
            .iter()
            .any(|l| a.path().is_ident(l));
        if lint {
            let text = a.meta.to_token_stream_string();
            if text.contains("missing_docs") || text.contains("rustdoc") {
                return false;
            }
        }
        true
    });
}

trait MetaText {
    fn to_token_stream_string(&self) -> String;
}

impl MetaText for Meta {
    fn to_token_stream_string(&self) -> String {
        quote::ToTokens::to_token_stream(self).to_string()
    }
}

/// Mutable access to the attributes of any item.
pub fn item_attrs(item: &mut Item) -> Option<&mut Vec<Attribute>> {
    Some(match item {
        Item::Const(i) => &mut i.attrs,
        Item::Enum(i) => &mut i.attrs,
        Item::ExternCrate(i) => &mut i.attrs,
        Item::Fn(i) => &mut i.attrs,
        Item::ForeignMod(i) => &mut i.attrs,
        Item::Impl(i) => &mut i.attrs,
        Item::Macro(i) => &mut i.attrs,
        Item::Mod(i) => &mut i.attrs,
        Item::Static(i) => &mut i.attrs,
        Item::Struct(i) => &mut i.attrs,
        Item::Trait(i) => &mut i.attrs,
        Item::TraitAlias(i) => &mut i.attrs,
        Item::Type(i) => &mut i.attrs,
        Item::Union(i) => &mut i.attrs,
        Item::Use(i) => &mut i.attrs,
        _ => return None,
    })
}

/// Mutable access to the attributes of an item in an `impl` block.
pub fn impl_item_attrs(item: &mut syn::ImplItem) -> Option<&mut Vec<Attribute>> {
    Some(match item {
        syn::ImplItem::Const(i) => &mut i.attrs,
        syn::ImplItem::Fn(i) => &mut i.attrs,
        syn::ImplItem::Type(i) => &mut i.attrs,
        syn::ImplItem::Macro(i) => &mut i.attrs,
        _ => return None,
    })
}

/// Mutable access to the attributes of an item in a trait.
pub fn trait_item_attrs(item: &mut syn::TraitItem) -> Option<&mut Vec<Attribute>> {
    Some(match item {
        syn::TraitItem::Const(i) => &mut i.attrs,
        syn::TraitItem::Fn(i) => &mut i.attrs,
        syn::TraitItem::Type(i) => &mut i.attrs,
        syn::TraitItem::Macro(i) => &mut i.attrs,
        _ => return None,
    })
}

/// Removes what `cfg` turns off, tests and docs everywhere in a syntax tree, and settles the
/// `cfg`s it can decide.
struct Strip<'a> {
    cfg: &'a Cfg,
}

impl Strip<'_> {
    /// Whether an item with these attributes stays (its cfgs settled in place).
    fn keep(&self, attrs: &mut Vec<Attribute>) -> bool {
        !is_test(attrs) && self.cfg.settle(attrs)
    }

    fn keep_item(&self, item: &mut Item) -> bool {
        match item_attrs(item) {
            Some(attrs) => self.keep(attrs),
            None => true,
        }
    }
}

impl VisitMut for Strip<'_> {
    fn visit_item_mut(&mut self, item: &mut Item) {
        if let Some(attrs) = item_attrs(item) {
            strip_attrs(attrs);
        }
        if let Item::Mod(module) = item {
            if let Some((_, items)) = &mut module.content {
                items.retain_mut(|i| self.keep_item(i));
            }
        }
        visit_mut::visit_item_mut(self, item);
    }

    fn visit_file_mut(&mut self, file: &mut syn::File) {
        file.items.retain_mut(|i| self.keep_item(i));
        visit_mut::visit_file_mut(self, file);
    }

    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        block.stmts.retain_mut(|stmt| match stmt {
            syn::Stmt::Item(item) => self.keep_item(item),
            syn::Stmt::Local(local) => self.keep(&mut local.attrs),
            syn::Stmt::Macro(mac) => self.keep(&mut mac.attrs),
            syn::Stmt::Expr(expr, _) => expr_attrs(expr).is_none_or(|attrs| self.keep(attrs)),
        });
        visit_mut::visit_block_mut(self, block);
    }

    fn visit_item_impl_mut(&mut self, imp: &mut syn::ItemImpl) {
        imp.items
            .retain_mut(|it| impl_item_attrs(it).is_none_or(|attrs| self.keep(attrs)));
        visit_mut::visit_item_impl_mut(self, imp);
    }

    fn visit_impl_item_mut(&mut self, it: &mut syn::ImplItem) {
        if let Some(attrs) = impl_item_attrs(it) {
            strip_attrs(attrs);
        }
        visit_mut::visit_impl_item_mut(self, it);
    }

    fn visit_item_trait_mut(&mut self, tr: &mut syn::ItemTrait) {
        tr.items
            .retain_mut(|it| trait_item_attrs(it).is_none_or(|attrs| self.keep(attrs)));
        visit_mut::visit_item_trait_mut(self, tr);
    }

    fn visit_trait_item_mut(&mut self, it: &mut syn::TraitItem) {
        if let Some(attrs) = trait_item_attrs(it) {
            strip_attrs(attrs);
        }
        visit_mut::visit_trait_item_mut(self, it);
    }

    fn visit_fields_named_mut(&mut self, fields: &mut syn::FieldsNamed) {
        let old = std::mem::take(&mut fields.named);
        for mut pair in old.into_pairs() {
            if self.keep(&mut pair.value_mut().attrs) {
                fields.named.push(pair.into_value());
            }
        }
        visit_mut::visit_fields_named_mut(self, fields);
    }

    fn visit_item_enum_mut(&mut self, item: &mut syn::ItemEnum) {
        let old = std::mem::take(&mut item.variants);
        for mut pair in old.into_pairs() {
            if self.keep(&mut pair.value_mut().attrs) {
                item.variants.push(pair.into_value());
            }
        }
        visit_mut::visit_item_enum_mut(self, item);
    }

    fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
        // `cfg!(feature = "x")` and `cfg!(test)`: a literal once decided.
        if let syn::Expr::Macro(mac) = expr {
            if mac.mac.path.is_ident("cfg") {
                if let Ok(meta) = mac.mac.parse_body::<Meta>() {
                    match self.cfg.eval(&meta) {
                        Value::On => *expr = syn::parse_quote!(true),
                        Value::Off => *expr = syn::parse_quote!(false),
                        Value::Open(_) => {}
                    }
                    return;
                }
            }
        }
        visit_mut::visit_expr_mut(self, expr);
    }

    fn visit_arm_mut(&mut self, arm: &mut syn::Arm) {
        strip_attrs(&mut arm.attrs);
        visit_mut::visit_arm_mut(self, arm);
    }

    fn visit_field_mut(&mut self, field: &mut syn::Field) {
        strip_attrs(&mut field.attrs);
        visit_mut::visit_field_mut(self, field);
    }

    fn visit_variant_mut(&mut self, variant: &mut syn::Variant) {
        strip_attrs(&mut variant.attrs);
        visit_mut::visit_variant_mut(self, variant);
    }

    fn visit_foreign_item_mut(&mut self, it: &mut syn::ForeignItem) {
        if let syn::ForeignItem::Fn(f) = it {
            strip_attrs(&mut f.attrs);
        }
        visit_mut::visit_foreign_item_mut(self, it);
    }

    fn visit_local_mut(&mut self, local: &mut syn::Local) {
        strip_attrs(&mut local.attrs);
        visit_mut::visit_local_mut(self, local);
    }
}

/// Strips docs from macro bodies and calls (see [`load_crate`]).
struct StripMacroDocs<'a> {
    /// Macros whose rules match attributes: calls of these keep theirs, emptied.
    keep: &'a BTreeSet<String>,
    /// The crate's settings, for the `cfg`s in macro tokens.
    cfg: &'a Cfg,
}

impl VisitMut for StripMacroDocs<'_> {
    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        let name = mac.path.segments.last().map(|s| s.ident.to_string());
        let empty = name.is_some_and(|n| self.keep.contains(&n));
        mac.tokens = strip_doc_tokens(std::mem::take(&mut mac.tokens), empty);
        mac.tokens = settle_cfg_tokens(std::mem::take(&mut mac.tokens), self.cfg);
    }
}

/// `#[cfg(P)]`, `#[cfg_attr(P, ...)]` and `cfg!(P)` in a macro's tokens (ascii's `widen_box!`
/// writes `#[cfg(feature = "alloc")] impl ...`), decided as the crate's own are: `P` becomes
/// `all()` when on, `any()` when off, and what is left of it when it is up to rustc. A
/// predicate that holds a macro's `$x` is left as it is.
fn settle_cfg_tokens(tokens: TokenStream, cfg: &Cfg) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let decided = |predicate: TokenStream| -> Option<TokenStream> {
        let meta: Meta = syn::parse2(predicate).ok()?;
        Some(match cfg.eval(&meta) {
            Value::On => quote::quote!(all()),
            Value::Off => quote::quote!(any()),
            Value::Open(rest) => quote::ToTokens::to_token_stream(&*rest),
        })
    };
    let mut out = Vec::with_capacity(trees.len());
    for (i, tree) in trees.iter().enumerate() {
        let TokenTree::Group(g) = tree else {
            out.push(tree.clone());
            continue;
        };
        let inner: Vec<TokenTree> = g.stream().into_iter().collect();
        let after_hash = i >= 1
            && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == '#')
            || i >= 2
                && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == '!')
                && matches!(&trees[i - 2], TokenTree::Punct(p) if p.as_char() == '#');
        let cfg_macro = i >= 2
            && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == '!')
            && matches!(&trees[i - 2], TokenTree::Ident(id) if id == "cfg");
        // `#[cfg(P)]` / `#[cfg_attr(P, ...)]`: the bracket's first word and its group.
        let attribute = match inner.as_slice() {
            [TokenTree::Ident(word), TokenTree::Group(args)]
                if after_hash
                    && g.delimiter() == Delimiter::Bracket
                    && (word == "cfg" || word == "cfg_attr")
                    && args.delimiter() == Delimiter::Parenthesis =>
            {
                Some((word.clone(), args.clone()))
            }
            _ => None,
        };
        if let Some((word, args)) = attribute {
            let mut parts: Vec<TokenTree> = args.stream().into_iter().collect();
            let comma = parts
                .iter()
                .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
                .unwrap_or(parts.len());
            let rest: Vec<TokenTree> = parts.split_off(comma);
            if let Some(new) = decided(parts.into_iter().collect()) {
                let mut stream = new;
                stream.extend(rest);
                let args = regroup(&args, stream);
                out.push(regroup(
                    g,
                    [TokenTree::Ident(word), args].into_iter().collect(),
                ));
                continue;
            }
        } else if cfg_macro && g.delimiter() == Delimiter::Parenthesis {
            if let Some(new) = decided(g.stream()) {
                out.push(regroup(g, new));
                continue;
            }
        }
        out.push(regroup(g, settle_cfg_tokens(g.stream(), cfg)));
    }
    out.into_iter().collect()
}

/// The `macro_rules!` macros in `items` whose matchers take attributes (`#[$m:meta]`).
fn matching_attributes(items: &[Item], found: &mut BTreeSet<String>) {
    for item in items {
        match item {
            Item::Macro(m) if m.mac.path.is_ident("macro_rules") => {
                let trees: Vec<TokenTree> = m.mac.tokens.clone().into_iter().collect();
                // Rules are `(matcher) => {...}`: a matcher is a group before `=`.
                let takes_attributes = trees.windows(2).any(|w| match w {
                    [TokenTree::Group(g), TokenTree::Punct(p)] if p.as_char() == '=' => {
                        g.stream().to_string().contains('#')
                    }
                    _ => false,
                });
                if let (true, Some(name)) = (takes_attributes, &m.ident) {
                    found.insert(name.to_string());
                }
            }
            Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    matching_attributes(inner, found);
                }
            }
            _ => {}
        }
    }
}

/// Removes `#[doc = "..."]` / `#![doc = "..."]` (doc comments as tokens) from macro bodies;
/// with `empty`, leaves them as `#[doc = ""]` instead.
fn strip_doc_tokens(tokens: TokenStream, empty: bool) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut i = 0;
    while i < trees.len() {
        if let TokenTree::Punct(p) = &trees[i] {
            if p.as_char() == '#' {
                let bang =
                    matches!(trees.get(i + 1), Some(TokenTree::Punct(q)) if q.as_char() == '!');
                let at = if bang { i + 2 } else { i + 1 };
                if let Some(TokenTree::Group(g)) = trees.get(at) {
                    if g.delimiter() == Delimiter::Bracket && is_doc_literal(g.stream()) {
                        if empty {
                            out.extend(trees[i..at].iter().cloned());
                            out.push(regroup(g, quote::quote!(doc = "")));
                        }
                        i = at + 1;
                        continue;
                    }
                }
            }
        }
        out.push(match &trees[i] {
            TokenTree::Group(g) => regroup(g, strip_doc_tokens(g.stream(), empty)),
            other => other.clone(),
        });
        i += 1;
    }
    out.into_iter().collect()
}

/// Whether an attribute's tokens are a doc: `doc = "..."`, `doc = include_str!("...")` (a file
/// beside the crate's source, which the bundle does not carry), `doc = concat!(...)`, or a
/// `cfg_attr(PREDICATE, doc = ...)` with nothing but docs.
fn is_doc_literal(stream: TokenStream) -> bool {
    let trees: Vec<TokenTree> = stream.into_iter().collect();
    match trees.as_slice() {
        [TokenTree::Ident(id), TokenTree::Punct(eq), ..] if id == "doc" && eq.as_char() == '=' => {
            true
        }
        [TokenTree::Ident(id), TokenTree::Group(g)] if id == "cfg_attr" => {
            // The arguments, split at the commas between them: the predicate, then attributes.
            let mut args: Vec<TokenStream> = vec![TokenStream::new()];
            for tree in g.stream() {
                match &tree {
                    TokenTree::Punct(p) if p.as_char() == ',' => args.push(TokenStream::new()),
                    _ => args.last_mut().map_or((), |arg| arg.extend([tree])),
                }
            }
            args.retain(|a| !a.is_empty());
            args.len() > 1 && args[1..].iter().all(|a| is_doc_literal(a.clone()))
        }
        _ => false,
    }
}

fn regroup(old: &Group, stream: TokenStream) -> TokenTree {
    let mut group = Group::new(old.delimiter(), stream);
    group.set_span(old.span());
    TokenTree::Group(group)
}

// ---------------------------------------------------------------------------------------------
// Rewriting paths.

/// How the paths of one crate's code change when it moves into the bundle.
#[derive(Debug, Clone)]
pub struct Rewrite {
    /// `Some(module)` for a library inlined as `mod module`: `crate::` becomes
    /// `crate::module::`, `$crate` becomes `$crate::module`, and `pub(crate)` becomes
    /// `pub(in crate::module)`. `None` for the binary, which stays the bundle's root.
    pub module: Option<String>,
    /// Extern names of bundled crates -> their module: `name::x` becomes `crate::module::x`
    /// (left alone where an item or an import of the crate's own takes `name`, and at the
    /// binary's root when the module is `name`, where it already resolves).
    pub externs: BTreeMap<String, String>,
}

impl Rewrite {
    /// Applies the rewrite to a crate's items (the crate root's items are at depth 0).
    pub fn apply(&self, items: &mut [Item]) {
        let tree = ModuleTree::of(items);
        let shadowed = tree.shadowed(ModuleTree::ROOT, self.externs.keys());
        let mut walker = Rewriter {
            rw: self,
            depth: 0,
            tree,
            module: Some(ModuleTree::ROOT),
            blocks: 0,
            shadowed,
        };
        for item in items {
            walker.visit_item_mut(item);
        }
    }
}

struct Rewriter<'a> {
    rw: &'a Rewrite,
    /// Module nesting inside the crate: 0 at the crate root.
    depth: usize,
    /// The crate's modules and what each binds.
    tree: ModuleTree,
    /// The module the walk is in, in `tree`: none in a module declared in a block.
    module: Option<usize>,
    /// Blocks the walk is in, inside that module.
    blocks: usize,
    /// The extern names that an item or an import of the crate's own takes where the walk
    /// is: a path starting with one is not a path into that crate (see [`super::shadow`]).
    shadowed: BTreeSet<String>,
}

fn ident(name: &str) -> Ident {
    super::ident(name)
}

impl Rewriter<'_> {
    /// Whether a path starting with `name` must be rewritten, and to what module: `::name`
    /// always names the crate; `name` does where nothing of the crate's own takes the name,
    /// except at the binary's root when the crate's module is `name` (it resolves as it is).
    fn extern_target(&self, name: &str, leading_colon: bool) -> Option<&str> {
        let module = self.rw.externs.get(name)?;
        if leading_colon {
            return Some(module);
        }
        let as_it_is = self.rw.module.is_none() && self.depth == 0 && module == name;
        if as_it_is || self.shadowed.contains(name) {
            None
        } else {
            Some(module)
        }
    }

    /// Prefix to put before a path's first segment, if any.
    fn prefix(&self, first: &str, leading_colon: bool) -> Option<Vec<String>> {
        if first == "crate" && !leading_colon {
            return self.rw.module.as_ref().map(|m| vec![m.clone()]);
        }
        self.extern_target(first, leading_colon)
            .map(|m| vec!["crate".to_owned(), m.to_owned()])
    }

    /// Rewrites path-like token sequences inside macro invocations and `macro_rules!` bodies:
    /// `$crate`, `crate::`, `::name::` and `name::` for bundled crates at the start of a path.
    fn tokens(&self, tokens: TokenStream) -> TokenStream {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let punct = |k: usize, c: char| matches!(trees.get(k), Some(TokenTree::Punct(p)) if p.as_char() == c);
        let mut out: Vec<TokenTree> = Vec::with_capacity(trees.len());
        for (i, tree) in trees.iter().enumerate() {
            let id = match tree {
                TokenTree::Group(g) => {
                    out.push(regroup(g, self.tokens(g.stream())));
                    continue;
                }
                TokenTree::Ident(id) if punct(i + 1, ':') && punct(i + 2, ':') => id,
                other => {
                    out.push(other.clone());
                    continue;
                }
            };
            let name = id.to_string();
            let after_dollar = i >= 1 && punct(i - 1, '$');
            let after_dot = i >= 1 && punct(i - 1, '.');
            let after_sep = i >= 2 && punct(i - 1, ':') && punct(i - 2, ':');
            // `a::b`, `T::<U>::b`, `<T as X>::b`: `b` continues a path.
            let continues = after_sep
                && i >= 3
                && (matches!(&trees[i - 3], TokenTree::Ident(_) | TokenTree::Group(_))
                    || punct(i - 3, '>'));
            if after_dollar {
                out.push(tree.clone());
                if name == "crate" {
                    if let Some(m) = &self.rw.module {
                        push_path_sep(&mut out);
                        out.push(TokenTree::Ident(ident(m)));
                    }
                }
                continue;
            }
            if after_dot || continues {
                out.push(tree.clone());
                continue;
            }
            if after_sep {
                // `::name::x`: a bundled crate named from the extern prelude.
                match self.rw.externs.get(&name) {
                    Some(m) => {
                        out.pop();
                        out.pop();
                        out.push(TokenTree::Ident(ident("crate")));
                        push_path_sep(&mut out);
                        out.push(TokenTree::Ident(ident(m)));
                    }
                    None => out.push(tree.clone()),
                }
                continue;
            }
            match self.prefix(&name, false) {
                Some(prefix) if name == "crate" => {
                    out.push(tree.clone());
                    for seg in prefix {
                        push_path_sep(&mut out);
                        out.push(TokenTree::Ident(ident(&seg)));
                    }
                }
                Some(prefix) => {
                    for (k, seg) in prefix.iter().enumerate() {
                        if k > 0 {
                            push_path_sep(&mut out);
                        }
                        out.push(TokenTree::Ident(ident(seg)));
                    }
                }
                None => out.push(tree.clone()),
            }
        }
        out.into_iter().collect()
    }
}

fn push_path_sep(out: &mut Vec<TokenTree>) {
    out.push(TokenTree::Punct(Punct::new(':', Spacing::Joint)));
    out.push(TokenTree::Punct(Punct::new(':', Spacing::Alone)));
}

fn prepend_segments(path: &mut syn::Path, prefix: Vec<String>, keep_first: bool) {
    let mut segments: syn::punctuated::Punctuated<syn::PathSegment, syn::Token![::]> =
        Default::default();
    let mut old = std::mem::take(&mut path.segments).into_iter();
    if keep_first {
        if let Some(first) = old.next() {
            segments.push(first);
        }
    }
    for seg in prefix {
        segments.push(syn::PathSegment::from(ident(&seg)));
    }
    for seg in old {
        segments.push(seg);
    }
    path.segments = segments;
    path.leading_colon = None;
}

fn prepend_use(tree: &mut UseTree, prefix: &[String]) {
    let mut inner = std::mem::replace(
        tree,
        UseTree::Glob(syn::UseGlob {
            star_token: Default::default(),
        }),
    );
    for seg in prefix.iter().rev() {
        inner = UseTree::Path(syn::UsePath {
            ident: ident(seg),
            colon2_token: Default::default(),
            tree: Box::new(inner),
        });
    }
    *tree = inner;
}

impl Rewriter<'_> {
    /// Rewrites a `use` tree; whether it now re-exports a bundled crate's whole module (`pub
    /// use dep;`), which a `pub` use may not do of a private module.
    fn use_tree(&self, tree: &mut UseTree, leading_colon: bool) -> bool {
        match tree {
            UseTree::Path(p) => {
                let first = p.ident.to_string();
                if first == "crate" && !leading_colon {
                    if let Some(m) = &self.rw.module {
                        prepend_use(&mut p.tree, std::slice::from_ref(m));
                    }
                } else if let Some(m) = self.extern_target(&first, leading_colon) {
                    p.ident = ident(m);
                    prepend_use(tree, &["crate".to_owned()]);
                }
                false
            }
            UseTree::Group(g) => {
                let mut whole = false;
                for t in g.items.iter_mut() {
                    whole |= self.use_tree(t, leading_colon);
                }
                whole
            }
            // `use dep;` and `use dep as alias;`: the crate's module, under the name it had.
            UseTree::Name(n) => {
                let name = n.ident.clone();
                match self.extern_target(&name.to_string(), leading_colon) {
                    Some(m) => {
                        let module = ident(m);
                        *tree = syn::parse_quote!(crate::#module as #name);
                        true
                    }
                    None => false,
                }
            }
            UseTree::Rename(r) => {
                let alias = r.rename.clone();
                match self.extern_target(&r.ident.to_string(), leading_colon) {
                    Some(m) => {
                        let module = ident(m);
                        *tree = syn::parse_quote!(crate::#module as #alias);
                        true
                    }
                    None => false,
                }
            }
            UseTree::Glob(_) => false,
        }
    }
}

impl VisitMut for Rewriter<'_> {
    fn visit_item_mod_mut(&mut self, module: &mut syn::ItemMod) {
        // A module's names are its own: those of the module around are not in scope there.
        let inner = match self.module {
            Some(outer) if self.blocks == 0 => self.tree.child(outer, &module.ident),
            _ => None,
        };
        let shadowed = match (inner, &module.content) {
            (Some(inner), _) => self.tree.shadowed(inner, self.rw.externs.keys()),
            (None, Some((_, items))) => self
                .tree
                .shadowed_in_module_of_block(items, self.rw.externs.keys()),
            (None, None) => BTreeSet::new(),
        };
        let outer = (
            std::mem::replace(&mut self.module, inner),
            std::mem::replace(&mut self.blocks, 0),
            std::mem::replace(&mut self.shadowed, shadowed),
        );
        self.depth += 1;
        visit_mut::visit_item_mod_mut(self, module);
        self.depth -= 1;
        (self.module, self.blocks, self.shadowed) = outer;
    }

    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        let outer = self.shadowed.clone();
        if shadow::block_items(block).next().is_some() {
            let names = self.rw.externs.keys();
            let here = self.tree.shadowed_in_block(block, self.module, names);
            self.shadowed.extend(here);
        }
        self.blocks += 1;
        visit_mut::visit_block_mut(self, block);
        self.blocks -= 1;
        self.shadowed = outer;
    }

    fn visit_item_use_mut(&mut self, item: &mut syn::ItemUse) {
        self.visit_visibility_mut(&mut item.vis);
        let leading = item.leading_colon.is_some();
        // bitvec's `pub use funty;`: the bundle's `mod funty` is private to the bundle's root,
        // so it is re-exported within the crate only (all a one-file program has).
        if self.use_tree(&mut item.tree, leading) && matches!(item.vis, syn::Visibility::Public(_))
        {
            item.vis = syn::parse_quote!(pub(crate));
        }
        if leading {
            if let UseTree::Path(p) = &item.tree {
                if p.ident == "crate" {
                    item.leading_colon = None;
                }
            }
        }
    }

    fn visit_item_extern_crate_mut(&mut self, _: &mut syn::ItemExternCrate) {}

    fn visit_visibility_mut(&mut self, vis: &mut syn::Visibility) {
        if let (syn::Visibility::Restricted(r), Some(m)) = (vis, &self.rw.module) {
            if r.path.is_ident("crate") && r.in_token.is_none() {
                r.in_token = Some(Default::default());
                prepend_segments(&mut r.path, vec![m.clone()], true);
            } else if r.in_token.is_some() {
                self.visit_path_mut(&mut r.path);
            }
        }
    }

    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        if let Some(first) = path.segments.first() {
            let name = first.ident.to_string();
            let leading = path.leading_colon.is_some();
            if path.segments.len() > 1 || name != "crate" {
                if name == "crate" && !leading {
                    if let Some(m) = &self.rw.module {
                        prepend_segments(path, vec![m.clone()], true);
                    }
                } else if path.segments.len() > 1 {
                    if let Some(m) = self.extern_target(&name, leading) {
                        let m = m.to_owned();
                        // Replace the extern name by `crate::module`.
                        prepend_segments(path, vec!["crate".to_owned()], false);
                        path.segments[1].ident = ident(&m);
                    }
                }
            }
        }
        visit_mut::visit_path_mut(self, path);
    }

    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        self.visit_path_mut(&mut mac.path);
        mac.tokens = self.tokens(std::mem::take(&mut mac.tokens));
    }

    // A foreign item syn keeps as tokens (`safe fn f(p: crate::Point);`): its paths as a
    // macro's.
    fn visit_foreign_item_mut(&mut self, item: &mut syn::ForeignItem) {
        match item {
            syn::ForeignItem::Verbatim(tokens) => {
                *tokens = self.tokens(std::mem::take(tokens));
            }
            _ => visit_mut::visit_foreign_item_mut(self, item),
        }
    }

    self::visit_qualified_paths!();
}

/// Visits a path that may be qualified, `<T>::f` or `<T as Trait>::f`: in `<T>::f` (syn:
/// `position` 0, and a leading `::` that is no extern path) every segment is an associated
/// name, none a path to rewrite; in `<T as Trait>::f` only the trait's segments are a path, and
/// `position`, which counts them, grows with what the rewrite puts in front.
pub(super) fn visit_qualified<V: VisitMut + ?Sized>(
    visitor: &mut V,
    qself: &mut Option<syn::QSelf>,
    path: &mut syn::Path,
) {
    let Some(q) = qself else {
        visitor.visit_path_mut(path);
        return;
    };
    visitor.visit_type_mut(&mut q.ty);
    if q.position == 0 {
        for segment in &mut path.segments {
            visitor.visit_path_arguments_mut(&mut segment.arguments);
        }
        return;
    }
    let before = path.segments.len();
    visitor.visit_path_mut(path);
    q.position += path.segments.len() - before;
}

/// The `VisitMut` methods of the syntax nodes whose path may be qualified, each through
/// [`visit_qualified`]: for a rewrite of paths, in its `impl VisitMut` block.
macro_rules! visit_qualified_paths {
    () => {
        fn visit_expr_path_mut(&mut self, e: &mut syn::ExprPath) {
            $crate::bundle::expand::visit_qualified(self, &mut e.qself, &mut e.path);
        }

        fn visit_type_path_mut(&mut self, t: &mut syn::TypePath) {
            $crate::bundle::expand::visit_qualified(self, &mut t.qself, &mut t.path);
        }

        fn visit_pat_struct_mut(&mut self, p: &mut syn::PatStruct) {
            $crate::bundle::expand::visit_qualified(self, &mut p.qself, &mut p.path);
            for field in &mut p.fields {
                self.visit_field_pat_mut(field);
            }
        }

        fn visit_pat_tuple_struct_mut(&mut self, p: &mut syn::PatTupleStruct) {
            $crate::bundle::expand::visit_qualified(self, &mut p.qself, &mut p.path);
            for elem in &mut p.elems {
                self.visit_pat_mut(elem);
            }
        }

        fn visit_expr_struct_mut(&mut self, e: &mut syn::ExprStruct) {
            $crate::bundle::expand::visit_qualified(self, &mut e.qself, &mut e.path);
            for field in &mut e.fields {
                self.visit_field_value_mut(field);
            }
            if let Some(rest) = &mut e.rest {
                self.visit_expr_mut(rest);
            }
        }
    };
}
pub(super) use visit_qualified_paths;

/// Mutable access to the attributes of an expression statement, where it has them.
fn expr_attrs(expr: &mut syn::Expr) -> Option<&mut Vec<Attribute>> {
    Some(match expr {
        syn::Expr::Block(e) => &mut e.attrs,
        syn::Expr::Call(e) => &mut e.attrs,
        syn::Expr::MethodCall(e) => &mut e.attrs,
        syn::Expr::Macro(e) => &mut e.attrs,
        syn::Expr::If(e) => &mut e.attrs,
        syn::Expr::Match(e) => &mut e.attrs,
        syn::Expr::Assign(e) => &mut e.attrs,
        syn::Expr::Path(e) => &mut e.attrs,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    #[test]
    fn a_qualified_path_keeps_its_trait_whole_when_the_rewrite_lengthens_it() {
        let mut file: syn::File = syn::parse_quote! {
            fn f(x: f32) -> f32 { <f32 as crate::Float>::mul_add(x, x, x) }
            type T = <f32 as crate::Float>::Bits;
        };
        Rewrite {
            module: Some("num_traits".to_string()),
            externs: BTreeMap::new(),
        }
        .apply(&mut file.items);
        let out = file.to_token_stream().to_string();
        assert!(
            out.contains("< f32 as crate :: num_traits :: Float > :: mul_add"),
            "{out}"
        );
        assert!(
            out.contains("< f32 as crate :: num_traits :: Float > :: Bits"),
            "{out}"
        );
    }

    #[test]
    fn docs_leave_macro_calls_except_where_the_macro_matches_attributes() {
        let file: syn::File = syn::parse_quote! {
            macro_rules! consts { ($(#[$doc:meta] $name:ident,)+) => {}; }
            macro_rules! plain { ($($t:tt)*) => {}; }
        };
        let mut found = BTreeSet::new();
        matching_attributes(&file.items, &mut found);
        assert_eq!(found, BTreeSet::from(["consts".to_string()]));
        let call: TokenStream = quote::quote!(
            #[doc = "Euler's number"]
            E,
            #[doc = "pi"]
            PI,
        );
        let emptied = strip_doc_tokens(call.clone(), true).to_string();
        assert_eq!(emptied, "# [doc = \"\"] E , # [doc = \"\"] PI ,");
        assert_eq!(strip_doc_tokens(call, false).to_string(), "E , PI ,");
    }

    /// A crate of `files` (name, text) in a fresh folder, loaded with `features`.
    fn load(test: &str, files: &[(&str, &str)], features: &[&str]) -> Result<syn::File> {
        let dir = std::env::temp_dir().join(format!("xtask-expand-{test}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        for (name, text) in files {
            let path = dir.join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        let cfg = Cfg {
            features: features.iter().map(|f| f.to_string()).collect(),
            ..Cfg::default()
        };
        let file = load_crate(&dir.join("lib.rs"), &cfg);
        let _ = fs::remove_dir_all(&dir);
        file
    }

    #[test]
    fn a_raw_identifier_module_is_read_from_its_plain_file() {
        // zerocopy's `mod r#ref;` is `ref.rs`.
        let file = load(
            "raw",
            &[("lib.rs", "pub mod r#ref;"), ("ref.rs", "pub fn get() {}")],
            &[],
        )
        .unwrap();
        let out = file.to_token_stream().to_string();
        assert_eq!(out, "pub mod r#ref { pub fn get () { } }");
    }

    #[test]
    fn modules_declared_in_cfg_if_and_cfg_select_are_read_under_their_cfgs() {
        // hashbrown's `cfg_if! { if #[cfg(...)] { mod sse2; use sse2 as imp; } else { ... } }`.
        let files = [
            (
                "lib.rs",
                "cfg_if! {
                    if #[cfg(feature = \"simd\")] { mod sse2; use sse2 as imp; }
                    else if #[cfg(unix)] { mod neon; use neon as imp; }
                    else { mod generic; use generic as imp; }
                }
                cfg_select! {
                    feature = \"simd\" => { pub fn fast() {} }
                    _ => { pub fn slow() {} }
                }",
            ),
            ("sse2.rs", "pub struct Group;"),
            ("neon.rs", "pub struct Group;"),
            ("generic.rs", "pub struct Group;"),
        ];
        let on = load("cfg-if-on", &files, &["simd"]).unwrap();
        let out = on.to_token_stream().to_string();
        assert_eq!(
            out,
            "mod sse2 { pub struct Group ; } use sse2 as imp ; pub fn fast () { }"
        );
        let off = load("cfg-if-off", &files, &[]).unwrap();
        let out = off.to_token_stream().to_string();
        assert_eq!(
            out,
            "# [cfg (unix)] mod neon { pub struct Group ; } # [cfg (unix)] use neon as imp ; \
             # [cfg (not (unix))] mod generic { pub struct Group ; } \
             # [cfg (not (unix))] use generic as imp ; pub fn slow () { }"
        );
    }

    #[test]
    fn doc_attributes_go_from_macro_bodies_whatever_their_value() {
        // bitvec's `#[doc = include_str!("../doc/access/impl_BitSafe.md")]` in a macro body:
        // the file is beside the crate, not in the bundle.
        let body: TokenStream = quote::quote!(
            #[doc = include_str!("../doc/x.md")]
            #[cfg_attr(docsrs, doc = concat!("a", "b"))]
            #[cfg_attr(docsrs, doc(cfg(feature = "std")), inline)]
            pub struct $w;
        );
        let out = strip_doc_tokens(body, false).to_string();
        assert_eq!(
            out,
            "# [cfg_attr (docsrs , doc (cfg (feature = \"std\")) , inline)] pub struct $ w ;"
        );
        let mut attrs: Vec<Attribute> = vec![
            syn::parse_quote!(#[cfg_attr(docsrs, doc = include_str!("../README.md"))]),
            syn::parse_quote!(#[inline]),
        ];
        strip_attrs(&mut attrs);
        assert_eq!(attrs.len(), 1);
    }

    #[test]
    fn cfgs_in_macro_bodies_are_decided_as_the_crates_own() {
        // ascii's `widen_box!` writes `#[cfg(feature = "alloc")] impl ...`: plain rustc sets no
        // feature, so undecided the impl would be gone.
        let cfg = Cfg {
            features: BTreeSet::from(["alloc".to_string()]),
            ..Cfg::default()
        };
        let body: TokenStream = quote::quote!(
            #[cfg(feature = "alloc")] impl A for $t {}
            #[cfg(feature = "std")] impl B for $t {}
            #[cfg(all(feature = "alloc", unix))] impl C for $t {}
            #[cfg_attr(feature = "alloc", derive(Clone))] struct D;
            #[cfg($m)] impl E for $t {}
            fn f() -> bool { cfg!(feature = "alloc") && !cfg!(test) }
        );
        let out = settle_cfg_tokens(body, &cfg).to_string();
        assert_eq!(
            out,
            "# [cfg (all ())] impl A for $ t { } # [cfg (any ())] impl B for $ t { } \
             # [cfg (unix)] impl C for $ t { } # [cfg_attr (all () , derive (Clone))] struct D ; \
             # [cfg ($ m)] impl E for $ t { } \
             fn f () -> bool { cfg ! (all ()) && ! cfg ! (any ()) }"
        );
    }

    #[test]
    fn a_file_that_does_not_parse_is_named_with_its_line() {
        let err = load("bad", &[("lib.rs", "pub fn ok() {}\nfn broken( {}\n")], &[]).unwrap_err();
        let text = format!("{err:#}");
        assert!(text.contains("lib.rs:2:"), "{text}");
    }

    #[test]
    fn dependencies_imported_under_other_names_become_their_modules() {
        // im-rc's `use sized_chunks as sc;`; a dependency renamed in Cargo.toml (`foo` is the
        // package `bar`); `<T>::rand()` is no path to the `rand` crate.
        let mut file: syn::File = syn::parse_quote! {
            mod inner {
                use sized_chunks as sc;
                use sized_chunks;
                use foo::{Thing, other as alias};
                fn f<T: X>() { <T>::rand(); <T as rand::Rng>::gen(); }
            }
        };
        Rewrite {
            module: Some("im_rc".to_string()),
            externs: [
                ("sized_chunks".to_string(), "sized_chunks".to_string()),
                ("foo".to_string(), "bar".to_string()),
                ("rand".to_string(), "rand".to_string()),
            ]
            .into(),
        }
        .apply(&mut file.items);
        let out = file.to_token_stream().to_string();
        for expected in [
            "use crate :: sized_chunks as sc ;",
            "use crate :: sized_chunks as sized_chunks ;",
            "use crate :: bar :: { Thing , other as alias } ;",
            "< T > :: rand ()",
            "< T as crate :: rand :: Rng > :: gen ()",
        ] {
            assert!(out.contains(expected), "{expected}: {out}");
        }
    }

    /// A library's module that binds the name of a crate it depends on means its own item by
    /// it (rustc takes the local item first); a module that binds nothing of the name, and
    /// `::name` anywhere, mean the crate.
    #[test]
    fn a_path_through_a_name_the_crate_binds_itself_is_no_path_into_a_crate() {
        let mut file: syn::File = syn::parse_quote! {
            mod local {
                mod either { pub fn f() {} }
                use either::f;
                fn g() { either::f(); ::either::Left::<u8, u8>(1); }
            }
            mod imported {
                use super::local as either;
                fn g() { either::f(); }
            }
            mod plain {
                use either::Either;
                fn g() { either::Left::<u8, u8>(1); }
            }
            mod helpers { pub fn either() {} }
            mod by_function {
                use super::helpers::either;
                fn g() { either(); either::Right::<u8, u8>(2); }
            }
            fn in_block() {
                mod either { pub fn h() {} }
                either::h();
            }
            fn after_block() { either::Left::<u8, u8>(3); }
        };
        Rewrite {
            module: Some("itertools".to_string()),
            externs: [("either".to_string(), "either_crate".to_string())].into(),
        }
        .apply(&mut file.items);
        let out = file.to_token_stream().to_string();
        for expected in [
            "use either :: f ;",
            "fn g () { either :: f () ; crate :: either_crate :: Left :: < u8 , u8 > (1) ; }",
            "use super :: local as either ; fn g () { either :: f () ; }",
            "use crate :: either_crate :: Either ;",
            "crate :: either_crate :: Left :: < u8 , u8 > (1)",
            "either () ; crate :: either_crate :: Right :: < u8 , u8 > (2) ;",
            "either :: h () ;",
            "fn after_block () { crate :: either_crate :: Left :: < u8 , u8 > (3) ; }",
        ] {
            assert!(out.contains(expected), "{expected}: {out}");
        }
    }

    /// At the solution's root (the bundle's), a crate's module answers to the crate's name
    /// unless it took another: then `::name` and a module's plain `name` are rewritten to it,
    /// and the root's own `name` stays the solution's.
    #[test]
    fn at_the_solutions_root_a_crate_renamed_apart_is_named_by_its_module() {
        let mut file: syn::File = syn::parse_quote! {
            use ::ac_library::Dsu;
            use itertools::Itertools;
            mod ac_library { pub fn answer() {} }
            fn main() { ac_library::answer(); rand_core::f(); }
            mod joins { use ac_library::dsu::Dsu; }
        };
        Rewrite {
            module: None,
            externs: [
                ("ac_library".to_string(), "ac_library_crate".to_string()),
                ("itertools".to_string(), "itertools".to_string()),
                ("rand_core".to_string(), "rand_core_0_6_4".to_string()),
            ]
            .into(),
        }
        .apply(&mut file.items);
        let out = file.to_token_stream().to_string();
        for expected in [
            "use crate :: ac_library_crate :: Dsu ;",
            "use itertools :: Itertools ;",
            "ac_library :: answer () ;",
            "crate :: rand_core_0_6_4 :: f () ;",
            "mod joins { use crate :: ac_library_crate :: dsu :: Dsu ; }",
        ] {
            assert!(out.contains(expected), "{expected}: {out}");
        }
    }

    #[test]
    fn a_module_file_whose_inner_cfg_is_off_goes() {
        let dir = std::env::temp_dir().join(format!("xtask-expand-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("lib.rs"), "pub mod on;\npub mod off;\n").unwrap();
        fs::write(
            dir.join("on.rs"),
            "#![cfg(feature = \"std\")]\npub fn here() {}\n",
        )
        .unwrap();
        fs::write(
            dir.join("off.rs"),
            "#![cfg(feature = \"alloc\")]\npub fn gone() {}\n",
        )
        .unwrap();
        let cfg = Cfg {
            features: BTreeSet::from(["std".to_string()]),
            ..Cfg::default()
        };
        let file = load_crate(&dir.join("lib.rs"), &cfg);
        let _ = fs::remove_dir_all(&dir);
        let out = file.unwrap().to_token_stream().to_string();
        assert_eq!(out, "pub mod on { pub fn here () { } }");
    }
}
