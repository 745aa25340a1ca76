//! Hygiene: an expansion written as plain Rust must mean what the compiler's expansion meant.
//!
//! Each output token carries a span whose hygiene context the server passes through untouched
//! (rust-analyzer's span mode: `Span::resolved_at` keeps the context of the span it is given):
//! the bundler sends three spans, the call site's, the mixed site's and the definition site's,
//! each with a context of its own ([`CALL_SITE`], [`MIXED_SITE`], [`DEF_SITE`]), and every
//! input token with the call site's. So each output token says which `proc_macro::Span` made it:
//!
//! - **call site** (`Span::call_site()`, `quote!`'s default, and every token copied from the
//!   input): resolved as if written where the macro was called. Written as source there, it
//!   means the same: nothing to do.
//! - **mixed site** (`Span::mixed_site()`, `macro_rules!` hygiene): local variables and labels
//!   resolve at the macro's definition, everything else at the call site. Written as source, a
//!   local the macro binds could capture a user's variable of the same name, or be captured. So
//!   every local binding (a pattern's identifier, a label) with a mixed-site name gets a name of
//!   its own, not found anywhere in the crate, and so do its uses: a one-segment path, a
//!   shorthand field (`S { x }` becomes `S { x: x__1 }`), a `break`/`continue` label, and a
//!   word inside a macro call's tokens that is not after a `.`. A mixed-site name anywhere else
//!   (an item, a field, a method, a type) resolves at the call site and stays as it is. A name
//!   starting with a capital in a pattern is read as a constant or a variant, as rustc would
//!   find one in scope (`None`), and kept.
//! - **definition site** (`Span::def_site()`, unstable): resolved only in the proc-macro
//!   crate, which the bundle does not have: refused by name.
//!
//! How: before parsing, each mixed-site identifier is spelled as a marker (`__xtask_hygiene_3`,
//! numbered by its name), which syn reads as any identifier; the parsed expansion is walked
//! once to find the marked local bindings, once to rename them and their uses, and every other
//! marker is spelled back as the name it stood for. A marker left anywhere after that (in a
//! place syn keeps as tokens the walk does not read) refuses the expansion.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Group, Ident, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::visit::{self, Visit};
use syn::visit_mut::{self, VisitMut};

use super::flat::Tree;

/// The hygiene context the bundler gives the call site's span (and every input token).
pub const CALL_SITE: u32 = 0;
/// The context of `Span::mixed_site()`.
pub const MIXED_SITE: u32 = 1;
/// The context of `Span::def_site()`.
pub const DEF_SITE: u32 = 2;

/// The span table sent with each expansion: call site, mixed site, definition site (five
/// numbers each: file, anchor, start, end, context), so span ids 0, 1 and 2.
pub fn span_table() -> Vec<u32> {
    [CALL_SITE, MIXED_SITE, DEF_SITE]
        .iter()
        .flat_map(|&context| [0, 0, 0, 0, context])
        .collect()
}

const MARKER: &str = "__xtask_hygiene_";

/// The names behind the markers of one expansion.
#[derive(Debug, Default)]
pub struct Marks {
    names: Vec<(String, bool)>,
}

impl Marks {
    fn mark(&mut self, name: &str, raw: bool) -> Ident {
        let k = match self.names.iter().position(|(n, _)| n == name) {
            Some(k) => k,
            None => {
                self.names.push((name.to_owned(), raw));
                self.names.len() - 1
            }
        };
        Ident::new(&format!("{MARKER}{k}"), Span::call_site())
    }

    fn marked(&self, ident: &Ident) -> Option<usize> {
        let k: usize = ident.to_string().strip_prefix(MARKER)?.parse().ok()?;
        (k < self.names.len()).then_some(k)
    }

    fn original(&self, k: usize) -> Ident {
        let (name, raw) = &self.names[k];
        if *raw {
            Ident::new_raw(name, Span::call_site())
        } else {
            Ident::new(name, Span::call_site())
        }
    }

    /// Whether any identifier of this expansion had mixed-site hygiene.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// Tokens for syn from the server's trees, each mixed-site identifier marked; `spans` is the
/// table the server returned. A token of definition-site hygiene, or of a context the bundler
/// never sent, is refused with the reason.
pub fn to_tokens(trees: &[Tree], spans: &[u32], marks: &mut Marks) -> Result<TokenStream, String> {
    let context = |span: u32| -> Result<u32, String> {
        spans
            .get(span as usize * 5 + 4)
            .copied()
            .ok_or_else(|| format!("the server gave a token a span it did not list ({span})"))
    };
    let mut out = TokenStream::new();
    for tree in trees {
        let token: TokenTree = match tree {
            Tree::Group {
                delimiter, trees, ..
            } => Group::new(*delimiter, to_tokens(trees, spans, marks)?).into(),
            Tree::Punct { ch, joint, .. } => {
                if !is_punct(*ch) {
                    return Err(format!(
                        "the expansion holds `{ch}`, which is no Rust punctuation"
                    ));
                }
                let spacing = if *joint {
                    Spacing::Joint
                } else {
                    Spacing::Alone
                };
                Punct::new(*ch, spacing).into()
            }
            Tree::Literal { text, .. } => {
                // A negative number is a literal to proc_macro (`Literal::i32_unsuffixed(-1)`)
                // and two tokens to the parser: both read alike.
                let tokens: TokenStream = text
                    .parse()
                    .map_err(|_| format!("the expansion holds `{text}`, which is no literal"))?;
                out.extend(tokens);
                continue;
            }
            Tree::Ident { text, raw, span } => {
                let ident = ident(text, *raw)?;
                match context(*span)? {
                    CALL_SITE => ident.into(),
                    MIXED_SITE if is_name(text) => marks.mark(text, *raw).into(),
                    MIXED_SITE => ident.into(),
                    DEF_SITE => {
                        return Err(format!(
                            "its `{text}` has definition-site hygiene (`Span::def_site()`): it \
                             resolves only inside the proc-macro crate, which plain Rust \
                             cannot say"
                        ))
                    }
                    other => {
                        return Err(format!(
                            "its `{text}` has a hygiene context the bundler did not send \
                             ({other})"
                        ))
                    }
                }
            }
        };
        out.extend([token]);
    }
    Ok(out)
}

fn is_punct(ch: char) -> bool {
    "=<>!~+-*/%^&|@.,;:#$?'".contains(ch)
}

/// `text` as an identifier, or why it is none (`Ident::new` would panic on it).
fn ident(text: &str, raw: bool) -> Result<Ident, String> {
    let spelled = if raw {
        format!("r#{text}")
    } else {
        text.to_owned()
    };
    let parsed: Option<TokenStream> = spelled.parse().ok();
    let mut tokens = parsed.into_iter().flatten();
    match (tokens.next(), tokens.next()) {
        (Some(TokenTree::Ident(ident)), None) => Ok(ident),
        _ => Err(format!(
            "the expansion holds `{spelled}`, which is no identifier"
        )),
    }
}

/// A name a binding could have: not a keyword, not `_`.
fn is_name(text: &str) -> bool {
    syn::parse_str::<syn::Ident>(text).is_ok()
}

/// The forms an expansion is parsed into, by where the macro was used.
#[derive(Debug)]
pub enum Parsed {
    Items(Vec<syn::Item>),
    ImplItems(Vec<syn::ImplItem>),
    TraitItems(Vec<syn::TraitItem>),
    Stmts(Vec<syn::Stmt>),
    Expr(syn::Expr),
    Type(syn::Type),
    Pat(syn::Pat),
}

impl Parsed {
    fn visit<'a>(&'a self, v: &mut impl Visit<'a>) {
        match self {
            Parsed::Items(items) => items.iter().for_each(|i| v.visit_item(i)),
            Parsed::ImplItems(items) => items.iter().for_each(|i| v.visit_impl_item(i)),
            Parsed::TraitItems(items) => items.iter().for_each(|i| v.visit_trait_item(i)),
            Parsed::Stmts(stmts) => stmts.iter().for_each(|s| v.visit_stmt(s)),
            Parsed::Expr(e) => v.visit_expr(e),
            Parsed::Type(t) => v.visit_type(t),
            Parsed::Pat(p) => v.visit_pat(p),
        }
    }

    pub(super) fn visit_mut(&mut self, v: &mut impl VisitMut) {
        match self {
            Parsed::Items(items) => items.iter_mut().for_each(|i| v.visit_item_mut(i)),
            Parsed::ImplItems(items) => items.iter_mut().for_each(|i| v.visit_impl_item_mut(i)),
            Parsed::TraitItems(items) => items.iter_mut().for_each(|i| v.visit_trait_item_mut(i)),
            Parsed::Stmts(stmts) => stmts.iter_mut().for_each(|s| v.visit_stmt_mut(s)),
            Parsed::Expr(e) => v.visit_expr_mut(e),
            Parsed::Type(t) => v.visit_type_mut(t),
            Parsed::Pat(p) => v.visit_pat_mut(p),
        }
    }

    fn tokens(&self) -> TokenStream {
        let mut out = TokenStream::new();
        match self {
            Parsed::Items(items) => items.iter().for_each(|i| i.to_tokens(&mut out)),
            Parsed::ImplItems(items) => items.iter().for_each(|i| i.to_tokens(&mut out)),
            Parsed::TraitItems(items) => items.iter().for_each(|i| i.to_tokens(&mut out)),
            Parsed::Stmts(stmts) => stmts.iter().for_each(|s| s.to_tokens(&mut out)),
            Parsed::Expr(e) => e.to_tokens(&mut out),
            Parsed::Type(t) => t.to_tokens(&mut out),
            Parsed::Pat(p) => p.to_tokens(&mut out),
        }
        out
    }
}

/// Gives the expansion's mixed-site local bindings names of their own (none of `taken`, which
/// gains them) and spells every other marker back as its name.
pub fn settle(
    parsed: &mut Parsed,
    marks: &Marks,
    taken: &mut BTreeSet<String>,
) -> Result<(), String> {
    if marks.is_empty() {
        return Ok(());
    }
    let mut bindings = Bindings {
        marks,
        found: BTreeSet::new(),
    };
    parsed.visit(&mut bindings);
    let mut fresh = BTreeMap::new();
    for k in bindings.found {
        let name = &marks.names[k].0;
        let mut n = 1;
        let new = loop {
            let candidate = format!("{name}__{n}");
            if !taken.contains(&candidate) {
                break candidate;
            }
            n += 1;
        };
        taken.insert(new.clone());
        fresh.insert(k, Ident::new(&new, Span::call_site()));
    }
    parsed.visit_mut(&mut Rename {
        marks,
        fresh: &fresh,
    });
    let mut left = None;
    find_marker(parsed.tokens(), &mut left);
    match left {
        Some(name) => Err(format!(
            "its mixed-site name `{name}` stands where the bundler cannot tell a local variable \
             from an item"
        )),
        None => Ok(()),
    }
}

fn find_marker(tokens: TokenStream, found: &mut Option<String>) {
    for token in tokens {
        match token {
            TokenTree::Ident(ident) if ident.to_string().starts_with(MARKER) => {
                *found = Some(ident.to_string());
            }
            TokenTree::Group(group) => find_marker(group.stream(), found),
            _ => {}
        }
    }
}

/// The marked names bound as locals: pattern identifiers (not capitalised) and labels.
struct Bindings<'a> {
    marks: &'a Marks,
    found: BTreeSet<usize>,
}

impl<'ast> Visit<'ast> for Bindings<'_> {
    fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
        if let Some(k) = self.marks.marked(&pat.ident) {
            if !self.marks.names[k].0.starts_with(char::is_uppercase) {
                self.found.insert(k);
            }
        }
        visit::visit_pat_ident(self, pat);
    }

    fn visit_label(&mut self, label: &'ast syn::Label) {
        if let Some(k) = self.marks.marked(&label.name.ident) {
            self.found.insert(k);
        }
        visit::visit_label(self, label);
    }
}

struct Rename<'a> {
    marks: &'a Marks,
    fresh: &'a BTreeMap<usize, Ident>,
}

impl Rename<'_> {
    /// The local's new name, when `ident` is a marked local.
    fn local(&self, ident: &Ident) -> Option<Ident> {
        self.fresh.get(&self.marks.marked(ident)?).cloned()
    }

    /// Tokens with marked locals renamed (except right after a `.`, a field or method) and
    /// every other marker spelled back.
    fn tokens(&self, tokens: TokenStream) -> TokenStream {
        let mut out = Vec::new();
        let mut after_dot = false;
        for token in tokens {
            let next_after_dot = matches!(&token, TokenTree::Punct(p) if p.as_char() == '.');
            let token = match token {
                TokenTree::Ident(ident) => match self.marks.marked(&ident) {
                    Some(k) => match self.fresh.get(&k) {
                        Some(new) if !after_dot => TokenTree::Ident(new.clone()),
                        _ => TokenTree::Ident(self.marks.original(k)),
                    },
                    None => TokenTree::Ident(ident),
                },
                TokenTree::Group(group) => {
                    let mut new = Group::new(group.delimiter(), self.tokens(group.stream()));
                    new.set_span(group.span());
                    TokenTree::Group(new)
                }
                other => other,
            };
            after_dot = next_after_dot;
            out.push(token);
        }
        out.into_iter().collect()
    }
}

impl VisitMut for Rename<'_> {
    fn visit_expr_path_mut(&mut self, expr: &mut syn::ExprPath) {
        let path = &mut expr.path;
        if expr.qself.is_none() && path.leading_colon.is_none() && path.segments.len() == 1 {
            let segment = &mut path.segments[0];
            if segment.arguments.is_none() {
                if let Some(new) = self.local(&segment.ident) {
                    segment.ident = new;
                }
            }
        }
        visit_mut::visit_expr_path_mut(self, expr);
    }

    fn visit_pat_ident_mut(&mut self, pat: &mut syn::PatIdent) {
        if let Some(new) = self.local(&pat.ident) {
            pat.ident = new;
        }
        visit_mut::visit_pat_ident_mut(self, pat);
    }

    fn visit_field_value_mut(&mut self, field: &mut syn::FieldValue) {
        if field.colon_token.is_none() {
            if let syn::Member::Named(name) = &field.member {
                if let Some(new) = self.local(name) {
                    let k = self.marks.marked(name).unwrap_or_default();
                    field.member = syn::Member::Named(self.marks.original(k));
                    field.colon_token = Some(Default::default());
                    field.expr = syn::parse_quote!(#new);
                    return;
                }
            }
        }
        visit_mut::visit_field_value_mut(self, field);
    }

    fn visit_field_pat_mut(&mut self, field: &mut syn::FieldPat) {
        let shorthand = field.colon_token.is_none();
        visit_mut::visit_field_pat_mut(self, field);
        // The member was spelled back by `visit_ident_mut`; the pattern holds the new name.
        if shorthand {
            if let syn::Pat::Ident(pat) = &*field.pat {
                if let syn::Member::Named(member) = &field.member {
                    if *member != pat.ident {
                        field.colon_token = Some(Default::default());
                    }
                }
            }
        }
    }

    fn visit_label_mut(&mut self, label: &mut syn::Label) {
        if let Some(new) = self.local(&label.name.ident) {
            label.name.ident = new;
        }
        visit_mut::visit_label_mut(self, label);
    }

    fn visit_expr_break_mut(&mut self, expr: &mut syn::ExprBreak) {
        if let Some(label) = &mut expr.label {
            if let Some(new) = self.local(&label.ident) {
                label.ident = new;
            }
        }
        visit_mut::visit_expr_break_mut(self, expr);
    }

    fn visit_expr_continue_mut(&mut self, expr: &mut syn::ExprContinue) {
        if let Some(label) = &mut expr.label {
            if let Some(new) = self.local(&label.ident) {
                label.ident = new;
            }
        }
        visit_mut::visit_expr_continue_mut(self, expr);
    }

    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        mac.tokens = self.tokens(std::mem::take(&mut mac.tokens));
        visit_mut::visit_macro_mut(self, mac);
    }

    fn visit_attribute_mut(&mut self, attr: &mut syn::Attribute) {
        if let syn::Meta::List(list) = &mut attr.meta {
            list.tokens = self.tokens(std::mem::take(&mut list.tokens));
        }
        visit_mut::visit_attribute_mut(self, attr);
    }

    fn visit_ident_mut(&mut self, ident: &mut Ident) {
        if let Some(k) = self.marks.marked(ident) {
            *ident = self.marks.original(k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Trees as the server would send them, from source where `m_name` stands for a
    /// mixed-site `name`.
    fn trees(source: &str) -> Vec<Tree> {
        fn convert(stream: TokenStream) -> Vec<Tree> {
            let mut out = Vec::new();
            for token in stream {
                out.push(match token {
                    TokenTree::Punct(p) => Tree::Punct {
                        ch: p.as_char(),
                        joint: p.spacing() == Spacing::Joint,
                        span: 0,
                    },
                    TokenTree::Ident(i) => {
                        let text = i.to_string();
                        match text.strip_prefix("m_") {
                            Some(name) => Tree::Ident {
                                text: name.to_owned(),
                                raw: false,
                                span: 1,
                            },
                            None => Tree::Ident {
                                text,
                                raw: false,
                                span: 0,
                            },
                        }
                    }
                    TokenTree::Literal(l) => Tree::Literal {
                        text: l.to_string(),
                        span: 0,
                    },
                    TokenTree::Group(g) => Tree::Group {
                        delimiter: g.delimiter(),
                        span: 0,
                        trees: convert(g.stream()),
                    },
                });
            }
            out
        }
        convert(source.parse().unwrap())
    }

    fn settled(source: &str, taken: &[&str]) -> Result<String, String> {
        let mut marks = Marks::default();
        let tokens = to_tokens(&trees(source), &span_table(), &mut marks)?;
        let file: syn::File = syn::parse2(tokens).map_err(|e| e.to_string())?;
        let mut parsed = Parsed::Items(file.items);
        let mut taken = taken.iter().map(|s| s.to_string()).collect();
        settle(&mut parsed, &marks, &mut taken)?;
        let Parsed::Items(items) = parsed else {
            unreachable!()
        };
        Ok(prettyplease::unparse(&syn::File {
            shebang: None,
            attrs: Vec::new(),
            items,
        }))
    }

    #[test]
    fn a_mixed_site_local_gets_a_name_of_its_own_and_its_uses_follow() {
        // The macro binds `x` (mixed site) around the user's expression, which names the
        // user's own `x` (call site): as source, the user's `x` must not be captured.
        let out = settled(
            "fn f(x: i32) -> i32 { let m_x = 1; let s = S { m_x }; println!(\"{}\", m_x); m_x + x + s.m_x }",
            &["x__1"],
        )
        .unwrap();
        assert!(out.contains("let x__2 = 1;"), "{out}");
        assert!(out.contains("S { x: x__2 }"), "{out}");
        assert!(out.contains("println!(\"{}\", x__2)"), "{out}");
        // The user's `x` and the field `s.x` are left alone.
        assert!(out.contains("x__2 + x + s.x"), "{out}");
        assert!(out.contains("fn f(x: i32)"), "{out}");
    }

    #[test]
    fn mixed_site_items_fields_and_methods_keep_their_names() {
        // Items resolve at the call site under mixed-site hygiene: a user may name them.
        let out = settled(
            "struct m_Helper { m_value: u8 } impl m_Helper { fn m_get(&self) -> u8 { self.m_value } }",
            &[],
        )
        .unwrap();
        assert!(out.contains("struct Helper"), "{out}");
        assert!(out.contains("value: u8"), "{out}");
        assert!(out.contains("fn get(&self) -> u8"), "{out}");
        assert!(out.contains("self.value"), "{out}");
    }

    #[test]
    fn mixed_site_labels_and_shorthand_patterns_are_renamed() {
        let out = settled(
            "fn f(p: P) { let P { m_a, .. } = p; 'm_outer: loop { break 'm_outer; } }",
            &[],
        )
        .unwrap();
        assert!(out.contains("let P { a: a__1, .. } = p;"), "{out}");
        assert!(out.contains("'outer__1: loop"), "{out}");
        assert!(out.contains("break 'outer__1;"), "{out}");
    }

    #[test]
    fn definition_site_hygiene_is_refused_by_name() {
        let trees = vec![Tree::Ident {
            text: "secret".into(),
            raw: false,
            span: 2,
        }];
        let err = to_tokens(&trees, &span_table(), &mut Marks::default()).unwrap_err();
        assert!(
            err.contains("`secret` has definition-site hygiene"),
            "{err}"
        );
        let trees = vec![Tree::Ident {
            text: "a".into(),
            raw: false,
            span: 9,
        }];
        assert!(to_tokens(&trees, &span_table(), &mut Marks::default()).is_err());
    }

    #[test]
    fn no_identifier_no_punctuation_is_an_error_not_a_panic() {
        for tree in [
            Tree::Ident {
                text: "1a".into(),
                raw: false,
                span: 0,
            },
            Tree::Ident {
                text: "self".into(),
                raw: true,
                span: 0,
            },
            Tree::Punct {
                ch: 'x',
                joint: false,
                span: 0,
            },
            Tree::Literal {
                text: "\"open".into(),
                span: 0,
            },
        ] {
            assert!(to_tokens(&[tree], &span_table(), &mut Marks::default()).is_err());
        }
    }
}
