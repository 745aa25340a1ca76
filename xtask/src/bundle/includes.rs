//! Files a crate's code includes, carried into the bundle: each `include_str!(PATH)` becomes a
//! string literal of the file's contents and each `include_bytes!(PATH)` a byte-string literal
//! (the macros' own types, `&'static str` and `&'static [u8; N]`), since BOJ compiles the one
//! file with nothing beside it.
//!
//! Each file of a crate is carried as it is read ([`super::expand`]), its tests and the code
//! its `cfg`s turn off gone, before its `mod x;` are followed: PATH is relative to the file
//! that holds the macro, as rustc resolves it, wherever the module sits. The macro is found in
//! expressions, patterns and statements, and in the tokens of every macro call, the usual
//! `println!("{}", include_str!("t.txt"))` included; attributes are left alone (a
//! `#[doc = include_str!("../README.md")]` is a doc, which the bundle drops).
//!
//! What cannot be carried refuses the crate's reading, naming the file, the line and the
//! reason: a file that cannot be read, a path that is no string literal (`concat!(...)`), an
//! `include_str!` of a file that is not UTF-8, and `include!` (Rust source, which the bundler
//! does not carry). The solution is then refused; a library becomes a stand-in, refused when
//! the solution reaches it. Two things are left as written. A path that reads `OUT_DIR` is a
//! build script's output, and the build script is the refusal, which says so. And in a
//! `macro_rules!` body the path may be the caller's (`include_str!($file)`), and rustc reads a
//! literal one beside the file that calls the macro: a literal path there is carried when it
//! names a file beside the macro's own file (the common case, a macro called from its own
//! file), and anything else is left for rustc, whose check of the bundle then names it.

use std::fs;
use std::path::{Component, Path, PathBuf};

use anyhow::{anyhow, Result};
use proc_macro2::{Delimiter, Group, Literal, Spacing, TokenStream, TokenTree};
use syn::parse::{Parse, ParseStream};
use syn::visit_mut::{self, VisitMut};

use super::reads::{env_reads_in, LookedAt};

/// Replaces, in `file` (parsed from `source`), each `include_str!` and `include_bytes!` by the
/// literal of the file it reads, noting each file read or looked for in `looked_at`; an error
/// naming `source`, the line and the reason for one that cannot be carried, and for `include!`.
pub fn carry_included_files(
    file: &mut syn::File,
    source: &Path,
    looked_at: &mut LookedAt,
) -> Result<()> {
    let mut carrier = Carrier {
        source,
        looked_at,
        refusal: None,
    };
    carrier.visit_file_mut(file);
    match carrier.refusal {
        Some(refusal) => Err(refusal),
        None => Ok(()),
    }
}

/// Which of the three macros a call is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Include {
    /// `include_str!`: a `&'static str`.
    Str,
    /// `include_bytes!`: a `&'static [u8; N]`.
    Bytes,
    /// `include!`: Rust source, parsed in place.
    Source,
}

impl Include {
    /// The macro a bare name means, if it is one of the three.
    fn named(name: &str) -> Option<Include> {
        match name {
            "include_str" => Some(Include::Str),
            "include_bytes" => Some(Include::Bytes),
            "include" => Some(Include::Source),
            _ => None,
        }
    }

    /// The macro a call's path means: the bare name, or std's or core's (`::core::include_bytes`).
    fn of_path(path: &syn::Path) -> Option<Include> {
        let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        match names.as_slice() {
            [name] if path.leading_colon.is_none() => Include::named(name),
            [krate, name] if krate == "std" || krate == "core" => Include::named(name),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Include::Str => "include_str",
            Include::Bytes => "include_bytes",
            Include::Source => "include",
        }
    }
}

/// Why an `include!` is refused, said after the call.
const SOURCE_NOT_CARRIED: &str = "includes Rust source, which the bundler does not carry (it \
     carries `include_str!` and `include_bytes!` as literals): move that code into a module \
     (`mod NAME;`) instead";

/// Where a call stands: in code, or in a `macro_rules!` body, whose paths may be the caller's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Code,
    MacroRules,
}

/// The argument of an `include_*!` call as rustc takes it: one string literal, and a comma
/// after it if the writer likes.
struct PathArgument(syn::LitStr);

impl Parse for PathArgument {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let path: syn::LitStr = input.parse()?;
        if input.peek(syn::Token![,]) {
            input.parse::<syn::Token![,]>()?;
        }
        Ok(PathArgument(path))
    }
}

struct Carrier<'a> {
    /// The file whose code this is: paths are relative to its folder.
    source: &'a Path,
    looked_at: &'a mut LookedAt,
    /// The first call that cannot be carried, said.
    refusal: Option<anyhow::Error>,
}

impl Carrier<'_> {
    /// The literal a call of `kind` with `arguments`, at `line`, becomes; `None` when it is left
    /// as written, or refused (then [`Carrier::refusal`] says why).
    fn carry(
        &mut self,
        kind: Include,
        arguments: TokenStream,
        line: usize,
        place: Place,
    ) -> Option<Literal> {
        if self.refusal.is_some() {
            return None;
        }
        let said = format!("{}!({arguments})", kind.name());
        // A build script's output: the build script's refusal names it (see
        // `manifest::script_refusal`), and says why.
        if env_reads_in(arguments.clone()).contains("OUT_DIR") {
            return None;
        }
        match self.literal(kind, arguments) {
            Ok(literal) => Some(literal),
            Err(_) if place == Place::MacroRules => None,
            Err(reason) => {
                self.refusal = Some(anyhow!(
                    "{}:{line}: `{said}` {reason}",
                    self.source.display()
                ));
                None
            }
        }
    }

    /// The literal of the file a call reads, or why there is none (said after the call).
    fn literal(&mut self, kind: Include, arguments: TokenStream) -> Result<Literal, String> {
        if kind == Include::Source {
            return Err(SOURCE_NOT_CARRIED.to_string());
        }
        let PathArgument(path) = syn::parse2(arguments).map_err(|_| {
            "has a path that is no plain string literal, so which file it reads is known only \
             when compiling: write the path as a literal (`\"table.txt\"`, relative to this file)"
                .to_string()
        })?;
        let dir = self.source.parent().unwrap_or(Path::new("."));
        let file = dir.join(path.value());
        let bytes = match fs::read(&file) {
            Ok(bytes) => bytes,
            Err(err) => {
                self.looked_at.push((file.clone(), None));
                return Err(format!(
                    "reads {}, which cannot be read ({err}); the bundle must carry its \
                     contents, as BOJ compiles the one file with nothing beside it",
                    shown(&file).display()
                ));
            }
        };
        self.looked_at
            .push((file.clone(), Some(super::cache::digest(&bytes))));
        match kind {
            Include::Bytes => Ok(Literal::byte_string(&bytes)),
            _ => match String::from_utf8(bytes) {
                Ok(text) => Ok(Literal::string(&text)),
                Err(err) => Err(format!(
                    "reads {}, which is not UTF-8 (byte {} is not), as `include_str!` needs \
                     (rustc rejects it too): `include_bytes!` takes any bytes",
                    shown(&file).display(),
                    err.utf8_error().valid_up_to()
                )),
            },
        }
    }

    /// [`Carrier::carry`] of a macro call written as syntax.
    fn carry_call(&mut self, kind: Include, mac: &syn::Macro) -> Option<syn::Lit> {
        let line = mac
            .path
            .segments
            .last()
            .map_or(0, |s| s.ident.span().start().line);
        self.carry(kind, mac.tokens.clone(), line, Place::Code)
            .map(syn::Lit::new)
    }

    /// `tokens` (a macro call's, or a `macro_rules!` body's) with each call of `include_str!`
    /// and `include_bytes!` among them carried.
    fn tokens(&mut self, tokens: TokenStream, place: Place) -> TokenStream {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let punct = |k: usize, c: char| matches!(trees.get(k), Some(TokenTree::Punct(p)) if p.as_char() == c);
        let mut out: Vec<TokenTree> = Vec::with_capacity(trees.len());
        let mut i = 0;
        while i < trees.len() {
            // An attribute (`#[doc = include_str!("../README.md")]`, `#![...]`): not code.
            if punct(i, '#') {
                let at = if punct(i + 1, '!') { i + 2 } else { i + 1 };
                if matches!(trees.get(at), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket)
                {
                    out.extend(trees[i..=at].iter().cloned());
                    i = at + 1;
                    continue;
                }
            }
            match &trees[i] {
                TokenTree::Group(g) => out.push(regroup(g, self.tokens(g.stream(), place))),
                TokenTree::Ident(id) if punct(i + 1, '!') => {
                    let arguments = match trees.get(i + 2) {
                        Some(TokenTree::Group(g)) => Some(g),
                        _ => None,
                    };
                    let name = id.to_string();
                    let kind = Include::named(&name).filter(|_| std_prefix(&out).is_some());
                    match (kind, arguments) {
                        (Some(kind), Some(arguments)) => {
                            let line = id.span().start().line;
                            match self.carry(kind, arguments.stream(), line, place) {
                                Some(mut literal) => {
                                    let prefix = std_prefix(&out).unwrap_or(0);
                                    out.truncate(out.len() - prefix);
                                    literal.set_span(id.span());
                                    out.push(TokenTree::Literal(literal));
                                }
                                None => out.extend(trees[i..i + 3].iter().cloned()),
                            }
                            i += 3;
                            continue;
                        }
                        // A `macro_rules!` defined in a macro's tokens: its body is rules.
                        _ if name == "macro_rules" => {
                            if let (Some(TokenTree::Ident(_)), Some(TokenTree::Group(body))) =
                                (trees.get(i + 2), trees.get(i + 3))
                            {
                                out.extend(trees[i..i + 3].iter().cloned());
                                out.push(regroup(
                                    body,
                                    self.tokens(body.stream(), Place::MacroRules),
                                ));
                                i += 4;
                                continue;
                            }
                            out.push(trees[i].clone());
                        }
                        _ => out.push(trees[i].clone()),
                    }
                }
                other => out.push(other.clone()),
            }
            i += 1;
        }
        out.into_iter().collect()
    }
}

/// How many of the last tokens of `out` spell the path before a macro's name when they are
/// std's or core's (`std::`, `::core::`; none, 0), so that the call is the built-in macro;
/// `None` when they spell another path (`$crate::`, `my::`) or a metavariable (`$`).
fn std_prefix(out: &[TokenTree]) -> Option<usize> {
    let punct = |back: usize, c: char| {
        out.len() >= back
            && matches!(&out[out.len() - back], TokenTree::Punct(p) if p.as_char() == c)
    };
    let joint_colons = |back: usize| {
        punct(back + 1, ':')
            && punct(back, ':')
            && matches!(&out[out.len() - back - 1], TokenTree::Punct(p) if p.spacing() == Spacing::Joint)
    };
    if punct(1, '$') || punct(1, '.') {
        return None;
    }
    if !joint_colons(1) {
        return Some(0);
    }
    let std_or_core = out.len() >= 3
        && matches!(&out[out.len() - 3], TokenTree::Ident(id) if id == "std" || id == "core");
    if !std_or_core {
        return None;
    }
    if !joint_colons(4) {
        return (!punct(4, '$')).then_some(3);
    }
    // `::std::`: unless `::` continues a path before it (`a::std::`, `<T>::std::`, where `std`
    // is someone's module); a keyword before it is no path (`return ::std::include_str!`).
    let continues = out.len() >= 6
        && match &out[out.len() - 6] {
            TokenTree::Ident(id) => {
                let word = id.to_string();
                syn::parse_str::<syn::Ident>(&word).is_ok()
                    || ["self", "super", "crate", "Self"].contains(&word.as_str())
            }
            TokenTree::Punct(p) => p.as_char() == '>' || p.as_char() == '$',
            _ => false,
        };
    (!continues).then_some(5)
}

/// `path` as a message shows it: `src/words/../../data/x.txt` as `data/x.txt` (each `..`
/// taking off the folder before it, as written; nothing is looked up).
fn shown(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn regroup(old: &Group, stream: TokenStream) -> TokenTree {
    let mut group = Group::new(old.delimiter(), stream);
    group.set_span(old.span());
    TokenTree::Group(group)
}

impl VisitMut for Carrier<'_> {
    // Attributes are docs and settings, not code (`#[doc = include_str!("../README.md")]`).
    fn visit_attribute_mut(&mut self, _: &mut syn::Attribute) {}

    fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
        if let syn::Expr::Macro(call) = expr {
            if let Some(kind) = Include::of_path(&call.mac.path) {
                if let Some(lit) = self.carry_call(kind, &call.mac) {
                    let attrs = std::mem::take(&mut call.attrs);
                    *expr = syn::Expr::Lit(syn::ExprLit { attrs, lit });
                }
                return;
            }
        }
        visit_mut::visit_expr_mut(self, expr);
    }

    fn visit_pat_mut(&mut self, pat: &mut syn::Pat) {
        if let syn::Pat::Macro(call) = pat {
            if let Some(kind) = Include::of_path(&call.mac.path) {
                if let Some(lit) = self.carry_call(kind, &call.mac) {
                    let attrs = std::mem::take(&mut call.attrs);
                    *pat = syn::Pat::Lit(syn::ExprLit { attrs, lit });
                }
                return;
            }
        }
        visit_mut::visit_pat_mut(self, pat);
    }

    fn visit_stmt_mut(&mut self, stmt: &mut syn::Stmt) {
        if let syn::Stmt::Macro(call) = stmt {
            if let Some(kind) = Include::of_path(&call.mac.path) {
                if let Some(lit) = self.carry_call(kind, &call.mac) {
                    let attrs = std::mem::take(&mut call.attrs);
                    let expr = syn::Expr::Lit(syn::ExprLit { attrs, lit });
                    *stmt = syn::Stmt::Expr(expr, call.semi_token);
                }
                return;
            }
        }
        visit_mut::visit_stmt_mut(self, stmt);
    }

    fn visit_item_macro_mut(&mut self, item: &mut syn::ItemMacro) {
        if item.mac.path.is_ident("macro_rules") {
            let body = std::mem::take(&mut item.mac.tokens);
            item.mac.tokens = self.tokens(body, Place::MacroRules);
            return;
        }
        visit_mut::visit_item_macro_mut(self, item);
    }

    // Every other macro call: an `include!` where an item goes (refused: Rust source), or a
    // call whose tokens may hold one.
    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        match Include::of_path(&mac.path) {
            Some(kind) => {
                self.carry_call(kind, mac);
            }
            None => {
                let tokens = std::mem::take(&mut mac.tokens);
                mac.tokens = self.tokens(tokens, Place::Code);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    /// `code` saved as `lib.rs` in a fresh folder beside `files` (name, bytes), parsed and
    /// carried: what it became as tokens, and what the carrying looked at, or the refusal.
    fn carried(
        test: &str,
        code: &str,
        files: &[(&str, &[u8])],
    ) -> (Result<String, String>, LookedAt) {
        let dir =
            std::env::temp_dir().join(format!("xtask-includes-{test}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        for (name, bytes) in files {
            let path = dir.join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, bytes).unwrap();
        }
        fs::create_dir_all(&dir).unwrap();
        let source = dir.join("lib.rs");
        fs::write(&source, code).unwrap();
        let mut file = syn::parse_file(code).unwrap();
        let mut looked_at = Vec::new();
        let result = carry_included_files(&mut file, &source, &mut looked_at)
            .map(|()| file.to_token_stream().to_string())
            .map_err(|e| format!("{e:#}"));
        let _ = fs::remove_dir_all(&dir);
        let looked_at = looked_at
            .into_iter()
            .map(|(path, digest)| (path.strip_prefix(&dir).unwrap().to_path_buf(), digest))
            .collect();
        (result, looked_at)
    }

    #[test]
    fn every_place_code_holds_the_macros_becomes_the_literal() {
        let code = r#"
            static T: &str = include_str!("t.txt");
            const B: &[u8; 2] = std::include_bytes!("data/b.bin");
            fn f(x: &str) -> usize {
                println!("{}", include_str!("t.txt",));
                match x { include_str!("t.txt") => 1, _ => ::core::include_bytes!("data/b.bin").len() }
            }
        "#;
        let files: &[(&str, &[u8])] = &[("t.txt", b"a\"\\\r\n"), ("data/b.bin", b"\0\xff")];
        let (out, looked_at) = carried("places", code, files);
        let out = out.unwrap();
        assert!(!out.contains("include"), "{out}");
        assert_eq!(out.matches(r#""a\"\\\r\n""#).count(), 3, "{out}");
        assert_eq!(out.matches(r#"b"\0\xFF""#).count(), 2, "{out}");
        assert!(out.contains(r#"println ! ("{}" , "a\"\\\r\n")"#), "{out}");
        let read: Vec<_> = looked_at.iter().map(|(path, _)| path.clone()).collect();
        assert!(read.contains(&"t.txt".into()) && read.contains(&"data/b.bin".into()));
        assert!(looked_at.iter().all(|(_, digest)| digest.is_some()));
    }

    #[test]
    fn docs_other_macros_of_the_name_and_build_script_output_are_left_as_written() {
        let code = r#"
            #[doc = include_str!("missing.md")]
            pub fn documented() {}
            pub const GEN: &str = include_str!(concat!(env!("OUT_DIR"), "/gen.txt"));
            include!(concat!(env!("OUT_DIR"), "/gen.rs"));
            m! { #[doc = include_str!("missing.md")] x }
            n!(my::include_str!("missing.md"), $crate::include_str!("missing.md"));
        "#;
        let (out, looked_at) = carried("left", code, &[]);
        let out = out.unwrap();
        let again = syn::parse_file(code).unwrap().to_token_stream().to_string();
        assert_eq!(out, again);
        assert!(looked_at.is_empty(), "{looked_at:?}");
    }

    #[test]
    fn a_macro_rules_body_carries_what_it_can_and_leaves_the_callers_paths() {
        let code = r#"
            macro_rules! table { () => { include_str!("t.txt") }; }
            macro_rules! load { ($f:literal) => { include_str!($f) }; }
            macro_rules! gone { () => { include_bytes!("gone.bin") }; }
            fn f() { m! { macro_rules! inner { () => { include_str!(concat!("a", "b")) } } } }
        "#;
        let (out, looked_at) = carried("rules", code, &[("t.txt", b"x")]);
        let out = out.unwrap();
        assert!(out.contains(r#"=> { "x" }"#), "{out}");
        assert!(out.contains("include_str ! ($ f)"), "{out}");
        assert!(out.contains(r#"include_bytes ! ("gone.bin")"#), "{out}");
        assert!(out.contains("include_str ! (concat !"), "{out}");
        // The file not there decides the reading as much as one that is.
        assert!(
            looked_at.contains(&("gone.bin".into(), None)),
            "{looked_at:?}"
        );
    }

    #[test]
    fn a_carried_literal_survives_both_printers_byte_for_byte() {
        // Every byte value, NUL before a digit (`\0` then `7` would not read as one escape),
        // CR LF, quotes, backslashes; text with control characters and non-ASCII.
        let mut bytes: Vec<u8> = (0..=255).collect();
        bytes.extend(b"\x007\r\n\"\\");
        let text = "tab\t \"q\" \\ \r\n\x007 \x1b\x7f e\u{301} \u{2028} 한글 🦀\n";
        let code = "static B: &[u8; 262] = include_bytes!(\"b.bin\");\n\
                    static T: &str = include_str!(\"t.txt\");\n";
        let files: &[(&str, &[u8])] = &[("b.bin", &bytes), ("t.txt", text.as_bytes())];
        let out = carried("printers", code, files).0.unwrap();
        let file = syn::parse_file(&out).unwrap();
        let pretty = crate::bundle::print::unparse(&file);
        let compact = crate::bundle::print::compact(&file).unwrap();
        for printed in [pretty, compact] {
            let again = syn::parse_file(&printed).unwrap();
            let literals: Vec<syn::Lit> = again
                .items
                .iter()
                .filter_map(|item| match item {
                    syn::Item::Static(s) => match &*s.expr {
                        syn::Expr::Lit(lit) => Some(lit.lit.clone()),
                        _ => None,
                    },
                    _ => None,
                })
                .collect();
            match literals.as_slice() {
                [syn::Lit::ByteStr(b), syn::Lit::Str(t)] => {
                    assert_eq!(b.value(), bytes, "{printed}");
                    assert_eq!(t.value(), text, "{printed}");
                }
                other => panic!("not the two literals: {other:?}\n{printed}"),
            }
        }
    }

    #[test]
    fn what_cannot_be_carried_is_refused_with_the_file_the_line_and_the_reason() {
        let cases: [(&str, &str, &[&str]); 4] = [
            (
                "fn main() {\n    let t = include_str!(\"missing.txt\");\n}\n",
                "lib.rs:2: `include_str!(\"missing.txt\")` reads ",
                &["missing.txt", "cannot be read"],
            ),
            (
                "static T: &[u8] = include_bytes!(concat!(\"t\", \".bin\"));\n",
                "lib.rs:1: `include_bytes!(concat ! (\"t\" , \".bin\"))` has a path",
                &["no plain string literal"],
            ),
            (
                "\n\nstatic T: &str = include_str!(\"t.bin\");\n",
                "lib.rs:3: `include_str!(\"t.bin\")` reads ",
                &["is not UTF-8 (byte 1 is not)"],
            ),
            (
                "mod generated {\n    include!(\"gen.rs\");\n}\n",
                "lib.rs:2: `include!(\"gen.rs\")` includes Rust source",
                &["mod NAME;"],
            ),
        ];
        let files: &[(&str, &[u8])] = &[("t.bin", b"a\xffb"), ("gen.rs", b"pub fn f() {}")];
        for (code, head, words) in cases {
            let (out, _) = carried("refused", code, files);
            let said = out.unwrap_err();
            assert!(said.contains(head), "{said}\nwanted: {head}");
            for word in words {
                assert!(said.contains(word), "{said}\nwanted: {word}");
            }
        }
    }
}
