//! Printing a bundle: prettyplease, and what it cannot print printed as tokens; what it prints
//! is read back, and an item it printed unreadable is printed as its tokens.
//!
//! syn keeps what it parses but has no node for as verbatim tokens (`Item::Verbatim`,
//! `ForeignItem::Verbatim`, ...): Rust 1.82's `safe fn` in an `unsafe extern` block, a `static`
//! without a value, `builtin # offset_of(...)`. prettyplease, built without its `verbatim`
//! feature, panics on them (`not implemented: Item::Verbatim`), and with it on any it cannot
//! read. So each such node is printed as its tokens, spaced as proc-macro2 prints them, which
//! rustc reads back as the same tokens; whether rustc accepts them is rustc's to say.
//!
//! So is an attribute's list whose tokens prettyplease would print unreadable: it writes a
//! word and a `#` after it with no space, and neither `'a#` nor `r#[` lexes (Rust 2021 reserves
//! an identifier's, and a lifetime's, prefix: `r#x`, `'r#x`), where `'a #` and `r #[` do (found
//! by the `proc_macro` fuzz target, one then the other); nor does a word before a lifetime
//! (`b'x` reads as a byte literal, `'a'b` as a char).

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::visit_mut::{self, VisitMut};

/// `file` as prettyplease prints it, its verbatim nodes as their tokens; and, where what it
/// prints does not read back as Rust, each item alone, and an item that still does not as its
/// tokens. Never a panic, and never a text that does not parse.
pub fn unparse(file: &syn::File) -> String {
    let text = printed(file);
    if syn::parse_file(&text).is_ok() {
        return text;
    }
    // prettyplease has printed what does not parse (in a closure's body it adds, a path that
    // begins with `crate` read as an item at the head of a statement): item by item.
    let head = syn::File {
        shebang: file.shebang.clone(),
        attrs: file.attrs.clone(),
        items: Vec::new(),
    };
    let mut text = printed(&head);
    for item in &file.items {
        let alone = syn::File {
            shebang: None,
            attrs: Vec::new(),
            items: vec![item.clone()],
        };
        let printed = printed(&alone);
        if syn::parse_file(&printed).is_ok() {
            text.push_str(&printed);
        } else {
            text.push_str(&item.to_token_stream().to_string());
            text.push('\n');
        }
    }
    text
}

/// `file` as prettyplease prints it, its verbatim nodes (and attribute lists it would print
/// unreadable) as their tokens.
fn printed(file: &syn::File) -> String {
    let mut placeholders = Placeholders::new(file);
    let mut copy = file.clone();
    placeholders.visit_file_mut(&mut copy);
    if placeholders.verbatim.is_empty() {
        return prettyplease::unparse(file);
    }
    let mut text = prettyplease::unparse(&copy);
    for (k, (tokens, printed_as)) in placeholders.verbatim.iter().enumerate() {
        let printed = format!("{}{printed_as}", placeholders.name(k));
        text = text.replacen(&printed, &tokens.to_string(), 1);
    }
    text
}

/// Replaces each verbatim node with a placeholder prettyplease can print, keeping its tokens.
struct Placeholders {
    /// A prefix no identifier of the file starts with.
    prefix: String,
    /// The tokens of each node replaced, in the order of their placeholders, and what follows
    /// the placeholder's name as printed: `!();` for an item, `!()` for an expression, a type
    /// or a pattern, nothing for a bound.
    verbatim: Vec<(TokenStream, &'static str)>,
}

impl Placeholders {
    fn new(file: &syn::File) -> Placeholders {
        let text = file.to_token_stream().to_string();
        let mut prefix = "__bundle_verbatim_".to_string();
        while text.contains(&prefix) {
            prefix.insert(0, '_');
        }
        Placeholders {
            prefix,
            verbatim: Vec::new(),
        }
    }

    fn name(&self, k: usize) -> String {
        format!("{}{k}", self.prefix)
    }

    /// A placeholder for `tokens`, printed with `printed_as` after it: its name.
    fn take(&mut self, tokens: &TokenStream, printed_as: &'static str) -> syn::Ident {
        let name = self.name(self.verbatim.len());
        self.verbatim.push((tokens.clone(), printed_as));
        syn::Ident::new(&name, proc_macro2::Span::call_site())
    }

    /// A placeholder call `name!()`, printed `name!();` as an item.
    fn call(&mut self, tokens: &TokenStream, item: bool) -> syn::Macro {
        let name = self.take(tokens, if item { "!();" } else { "!()" });
        syn::parse_quote!(#name!())
    }
}

impl VisitMut for Placeholders {
    fn visit_item_mut(&mut self, item: &mut syn::Item) {
        match item {
            syn::Item::Verbatim(tokens) => {
                let mac = self.call(tokens, true);
                *item = syn::Item::Macro(syn::ItemMacro {
                    attrs: Vec::new(),
                    ident: None,
                    mac,
                    semi_token: Some(Default::default()),
                });
            }
            _ => visit_mut::visit_item_mut(self, item),
        }
    }

    fn visit_foreign_item_mut(&mut self, item: &mut syn::ForeignItem) {
        match item {
            syn::ForeignItem::Verbatim(tokens) => {
                let mac = self.call(tokens, true);
                *item = syn::ForeignItem::Macro(syn::ForeignItemMacro {
                    attrs: Vec::new(),
                    mac,
                    semi_token: Some(Default::default()),
                });
            }
            _ => visit_mut::visit_foreign_item_mut(self, item),
        }
    }

    fn visit_impl_item_mut(&mut self, item: &mut syn::ImplItem) {
        match item {
            syn::ImplItem::Verbatim(tokens) => {
                let mac = self.call(tokens, true);
                *item = syn::ImplItem::Macro(syn::ImplItemMacro {
                    attrs: Vec::new(),
                    mac,
                    semi_token: Some(Default::default()),
                });
            }
            _ => visit_mut::visit_impl_item_mut(self, item),
        }
    }

    fn visit_trait_item_mut(&mut self, item: &mut syn::TraitItem) {
        match item {
            syn::TraitItem::Verbatim(tokens) => {
                let mac = self.call(tokens, true);
                *item = syn::TraitItem::Macro(syn::TraitItemMacro {
                    attrs: Vec::new(),
                    mac,
                    semi_token: Some(Default::default()),
                });
            }
            _ => visit_mut::visit_trait_item_mut(self, item),
        }
    }

    fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
        match expr {
            syn::Expr::Verbatim(tokens) => {
                let mac = self.call(tokens, false);
                *expr = syn::Expr::Macro(syn::ExprMacro {
                    attrs: Vec::new(),
                    mac,
                });
            }
            _ => visit_mut::visit_expr_mut(self, expr),
        }
    }

    fn visit_type_mut(&mut self, ty: &mut syn::Type) {
        match ty {
            syn::Type::Verbatim(tokens) => {
                let mac = self.call(tokens, false);
                *ty = syn::Type::Macro(syn::TypeMacro { mac });
            }
            _ => visit_mut::visit_type_mut(self, ty),
        }
    }

    fn visit_pat_mut(&mut self, pat: &mut syn::Pat) {
        match pat {
            syn::Pat::Verbatim(tokens) => {
                let mac = self.call(tokens, false);
                *pat = syn::Pat::Macro(syn::PatMacro {
                    attrs: Vec::new(),
                    mac,
                });
            }
            _ => visit_mut::visit_pat_mut(self, pat),
        }
    }

    fn visit_meta_list_mut(&mut self, list: &mut syn::MetaList) {
        if word_before_pound(&list.tokens) {
            let name = self.take(&list.tokens, "");
            list.tokens = name.to_token_stream();
        }
    }

    fn visit_type_param_bound_mut(&mut self, bound: &mut syn::TypeParamBound) {
        match bound {
            syn::TypeParamBound::Verbatim(tokens) => {
                let name = self.take(tokens, "");
                *bound = syn::parse_quote!(#name);
            }
            _ => visit_mut::visit_type_param_bound_mut(self, bound),
        }
    }
}

/// Whether `tokens` hold, at any depth, a word (an identifier, or a lifetime's) followed by a
/// `#` or a `'`: prettyplease writes the two together, and `b'x` or `'a'b` then reads as a
/// literal.
fn word_before_pound(tokens: &TokenStream) -> bool {
    use proc_macro2::TokenTree;
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    trees.iter().enumerate().any(|(i, tree)| match tree {
        TokenTree::Group(group) => word_before_pound(&group.stream()),
        TokenTree::Ident(_) => {
            matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if matches!(p.as_char(), '#' | '\''))
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_compact_print_reads_back_as_the_same_tokens() {
        let source = r##"
            #![allow(dead_code)]
            macro_rules! m { ($x:expr, $($y:tt)*) => { $x - -1 }; }
            #[derive(Clone)]
            struct S<'a> { r#type: &'a str, t: (u8, (u8, u8)) }
            impl<'a> S<'a> {
                fn f(&self, v: &[u64]) -> Option<u64> {
                    let a = 1..=2;
                    let b = b'x' as u64 + "a".len() as u64 + 1.5f64 as u64 + 1e3 as u64;
                    let c = self.t.1.0 + 1u8.max(2);
                    let d = |x: u64| -> u64 { x << 2 >> 1 };
                    let e = !(true && !false || false) && v.len() <= 3 && -a.start() < 0;
                    for &x in v.iter() { if x != 0 { return Some(d(x) + b + c as u64); } }
                    let _ = (e, m!(1, a b c), 'c', r"raw", r#type());
                    None
                }
            }
            fn r#type() {}
        "##;
        let file = syn::parse_file(source).unwrap();
        let text = super::compact(&file).expect("read back as other tokens");
        assert!(
            text.contains("r#type: &'a str,") && text.contains("self.t.1 .0"),
            "{text}"
        );
        assert!(text.len() < source.len() * 3 / 4, "{text}");
    }

    use super::*;

    #[test]
    fn verbatim_nodes_print_as_their_tokens() {
        let file: syn::File = syn::parse_str(
            "unsafe extern \"C\" { pub safe fn abs(i: i32) -> i32; safe static X: u8; }
             pub static S: u8;
             impl A { fn f(); }
             fn g() { let x = builtin # offset_of(A, b); let y: dyn* T = 1; match x { box y => 1, _ => 2 }; }
             fn h() -> i32 { unsafe { abs(-1) } }",
        )
        .unwrap();
        let text = unparse(&file);
        for printed in [
            "pub safe fn abs(i: i32) -> i32;",
            "safe static X: u8;",
            "pub static S: u8;",
            "fn f();",
            "builtin # offset_of(A, b)",
            "dyn * T",
            "box y => 1",
            "abs(-1)",
        ] {
            let spaced: String = printed.split_whitespace().collect();
            let found: String = text.split_whitespace().collect();
            assert!(found.contains(&spaced), "`{printed}` not in:\n{text}");
        }
        assert!(!text.contains("__bundle_verbatim"), "{text}");
        // What it prints reads back, and prints as itself.
        let again: syn::File = syn::parse_str(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
        assert_eq!(unparse(&again), text);
    }

    /// The `proc_macro` fuzz target's third finding: prettyplease puts a closure's body that
    /// begins with `crate` in braces, where a statement that begins with `crate` reads as an
    /// item; that item is printed as its tokens, the others as prettyplease prints them.
    #[test]
    fn an_item_prettyplease_prints_unreadable_is_printed_as_its_tokens() {
        // As the fuzzer wrote it: long enough that prettyplease breaks the line, and so puts
        // the closure's body in braces.
        let source = concat!(
            "fn d(){a=||||crate||||||||||||||||||||||const||t||(\"{}\",ideity!(a idb))}",
            "fn e() -> u8 { 1 }"
        );
        let file: syn::File = syn::parse_str(source).unwrap();
        assert!(syn::parse_file(&prettyplease::unparse(&file)).is_err());
        let text = unparse(&file);
        let again = syn::parse_file(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
        assert_eq!(
            again.to_token_stream().to_string(),
            file.to_token_stream().to_string()
        );
        assert!(text.contains("fn e() -> u8 {\n    1\n}"), "{text}");
    }

    /// The `proc_macro` fuzz target's findings: prettyplease writes an attribute's `'s #[x]`
    /// as `'s#[x]`, and `r #[x]` as `r#[x]`, which do not lex.
    #[test]
    fn a_word_before_a_pound_in_an_attribute_is_spaced() {
        let file: syn::File = syn::parse_str(
            "#[derive(Emi helpers: rustc's #[macro_use] x)] enum E { A }
             #[rename(r #[rename(x)] enamed)] fn f() {}",
        )
        .unwrap();
        let text = unparse(&file);
        assert!(text.contains("'s #"), "{text}");
        assert!(text.contains("r #"), "{text}");
        // Each attribute reads back as the same tokens.
        let source = "#[m(b 'x, 'a 'b)] fn g() {}";
        let file: syn::File = syn::parse_str(source).unwrap();
        let again: syn::File = syn::parse_str(&unparse(&file)).unwrap();
        let tokens = |f: &syn::File| match &f.items[0] {
            syn::Item::Fn(f) => f.attrs[0].to_token_stream().to_string(),
            _ => unreachable!(),
        };
        assert_eq!(tokens(&again), tokens(&file));
        assert!(!text.contains("__bundle_verbatim"), "{text}");
        // An attribute without one prints as prettyplease prints it.
        let plain: syn::File = syn::parse_str("#[derive(Debug, Clone)] enum E { A }").unwrap();
        assert_eq!(unparse(&plain), prettyplease::unparse(&plain));
        // What it prints reads back, and prints as itself.
        let again: syn::File = syn::parse_str(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
        assert_eq!(unparse(&again), text);
    }
}

/// `file` as its tokens with no more space than reading them back as the same tokens needs,
/// an item a line: what a bundle over BOJ's 512 KB is printed as, since prettyplease's layout
/// (`, ` between values, indents) can take a solution within the limit over it (a table of
/// 200 000 digits, 400 KB as written, printed as 614 KB). `None` when the text does not read
/// back as `file`'s very tokens (a group without delimiters, which no text keeps), so that
/// only a text that means what the pretty one means is ever used.
pub fn compact(file: &syn::File) -> Option<String> {
    let mut text = String::new();
    for attr in &file.attrs {
        compact_tokens(attr.to_token_stream(), &mut text, &mut Last::Space);
        text.push('\n');
    }
    for item in &file.items {
        compact_tokens(item.to_token_stream(), &mut text, &mut Last::Space);
        text.push('\n');
    }
    let read = syn::parse_file(&text).ok()?;
    (read.to_token_stream().to_string() == file.to_token_stream().to_string()).then_some(text)
}

/// What [`compact_tokens`] wrote last, which decides whether the next token needs a space.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    /// A space, a line's end, or nothing yet.
    Space,
    /// An identifier.
    Word,
    /// A literal.
    Literal,
    /// A punctuation mark that is one token alone (`Spacing::Alone`).
    Alone,
    /// A punctuation mark joined to the next (`->`, `'a`).
    Joint,
    /// A delimiter.
    Delimiter,
}

fn compact_tokens(tokens: TokenStream, text: &mut String, last: &mut Last) {
    use proc_macro2::{Delimiter, Spacing, TokenTree};
    for tree in tokens {
        match tree {
            TokenTree::Group(group) => {
                let (open, close) = match group.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    // No text keeps it: the read-back check refuses the whole text.
                    Delimiter::None => ("", ""),
                };
                text.push_str(open);
                *last = Last::Delimiter;
                compact_tokens(group.stream(), text, last);
                text.push_str(close);
                *last = Last::Delimiter;
            }
            TokenTree::Ident(_) | TokenTree::Literal(_) => {
                // Two words run together are one (a literal's suffix, too: `"a"as`).
                if matches!(*last, Last::Word | Last::Literal) {
                    text.push(' ');
                }
                text.push_str(&tree.to_string());
                *last = match tree {
                    TokenTree::Literal(_) => Last::Literal,
                    _ => Last::Word,
                };
            }
            TokenTree::Punct(punct) => {
                // An alone mark before another would join it (`-` `-`, `<` `-`), though none
                // joins a lifetime's `'`; a word before `#` or `'` would take it as its own
                // (`r#`, `b'x`), and a number before `.` (`1.`, `0.1`).
                let c = punct.as_char();
                let word_takes = matches!(c, '#' | '\'');
                if (*last == Last::Alone && c != '\'')
                    || (matches!(*last, Last::Word | Last::Literal) && word_takes)
                    || (*last == Last::Literal && c == '.')
                {
                    text.push(' ');
                }
                text.push(punct.as_char());
                *last = match punct.spacing() {
                    Spacing::Alone => Last::Alone,
                    Spacing::Joint => Last::Joint,
                };
            }
        }
    }
}
