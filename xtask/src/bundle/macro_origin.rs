//! Where the macros a bundle uses come from: which attributes, derives and function-like macro
//! calls of the sources name a macro of a proc-macro crate, and which crate. A proc-macro crate runs inside the compiler, so
//! it is never inlined: it stands in as an empty module (see [`super::reach::stand_in`]), and an
//! item that uses one of its macros is refused by name when the solution reaches it, with the
//! way it does, until its expansion is written into the bundle instead.
//!
//! [`macro_uses`] reads what an item's tokens name as macros (rustc's built-in attributes and
//! derives, tool attributes and std's macros left out); the reach (`reach::resolve`,
//! `Graph::macro_origin`) says which of those come from a proc-macro crate, and from which,
//! resolved as rustc resolves them (`use` imports and re-exports, and globs: proconio's `pub
//! use proconio_derive::*;` brings `fastout` and `derive_readable`).

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// How a macro is invoked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MacroKind {
    /// `#[name]` or `#[name(...)]` on an item, a member, a field, a statement...
    Attribute,
    /// A name in `#[derive(...)]`.
    Derive,
    /// `name!(...)`, function-like.
    Bang,
}

impl std::fmt::Display for MacroKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MacroKind::Attribute => "attribute",
            MacroKind::Derive => "derive",
            MacroKind::Bang => "macro",
        })
    }
}

/// A macro named in some tokens: how it is invoked, and its path as written (`$crate` read as
/// `crate`, a leading `::` as a first segment `::`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct MacroUse {
    pub kind: MacroKind,
    pub path: Vec<String>,
}

impl MacroUse {
    /// `#[ext]`, `#[derive(FromPrimitive)]`, `answer!`: the macro as written.
    pub fn written(&self) -> String {
        let path = self.path.join("::").replacen("::::", "::", 1);
        match self.kind {
            MacroKind::Attribute => format!("#[{path}]"),
            MacroKind::Derive => format!("#[derive({path})]"),
            MacroKind::Bang => format!("{path}!"),
        }
    }
}

/// Whether the package is a proc-macro crate (its library target is `proc-macro`).
pub fn is_proc_macro_crate(package: &cargo_metadata::Package) -> bool {
    package.targets.iter().any(|t| {
        t.kind
            .iter()
            .any(|k| matches!(k, cargo_metadata::TargetKind::ProcMacro))
    })
}

/// Why a proc-macro crate cannot be inlined: the reason its stand-in carries.
pub fn refusal(package: &str) -> String {
    format!(
        "crate {package} is a proc-macro crate: it runs inside the compiler, and BOJ's rustc \
         has no crates; it cannot be bundled"
    )
}

/// rustc's built-in attributes (the Reference's index of them, nightly-only ones as
/// `rustc_*`), which are no macros.
const BUILTIN_ATTRIBUTES: &[&str] = &[
    "allow",
    "automatically_derived",
    "bench",
    "cfg",
    "cfg_attr",
    "cold",
    "collapse_debuginfo",
    "coverage",
    "crate_name",
    "crate_type",
    "debugger_visualizer",
    "deny",
    "deprecated",
    "derive",
    "diagnostic",
    "doc",
    "expect",
    "export_name",
    "feature",
    "forbid",
    "global_allocator",
    "ignore",
    "inline",
    "instruction_set",
    "link",
    "link_name",
    "link_ordinal",
    "link_section",
    "macro_export",
    "macro_use",
    "must_use",
    "naked",
    "no_builtins",
    "no_implicit_prelude",
    "no_link",
    "no_main",
    "no_mangle",
    "no_std",
    "non_exhaustive",
    "panic_handler",
    "path",
    "proc_macro",
    "proc_macro_attribute",
    "proc_macro_derive",
    "recursion_limit",
    "repr",
    "should_panic",
    "target_feature",
    "test",
    "track_caller",
    "type_length_limit",
    "unsafe",
    "used",
    "warn",
    "windows_subsystem",
    // Unstable, seen in crates that switch them on for nightly builds.
    "allow_internal_unstable",
    "const_trait",
    "fundamental",
    "lang",
    "may_dangle",
    "optimize",
    "stable",
    "unstable",
];

/// Tools whose attributes rustc accepts as `tool::name`: no macros.
const TOOLS: &[&str] = &[
    "clippy",
    "diagnostic",
    "rust_analyzer",
    "rustdoc",
    "rustfmt",
];

/// The derives std provides (through its prelude, or by path under `core`/`std`).
const BUILTIN_DERIVES: &[&str] = &[
    "Clone",
    "Copy",
    "Debug",
    "Default",
    "Eq",
    "Hash",
    "Ord",
    "PartialEq",
    "PartialOrd",
];

/// The helper attributes of std's derives, each beside its derive: an enum's `#[derive(Default)]`
/// reads `#[default]` on one variant (the Reference, "Derive": `Default`).
const BUILTIN_DERIVE_HELPERS: &[(&str, &str)] = &[("Default", "default")];

/// std's macros, called by their bare names from its prelude.
const STD_MACROS: &[&str] = &[
    "asm",
    "assert",
    "assert_eq",
    "assert_ne",
    "cfg",
    "column",
    "compile_error",
    "concat",
    "concat_idents",
    "const_format_args",
    "dbg",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "env",
    "eprint",
    "eprintln",
    "file",
    "format",
    "format_args",
    "format_args_nl",
    "global_asm",
    "include",
    "include_bytes",
    "include_str",
    "is_x86_feature_detected",
    "line",
    "log_syntax",
    "macro_rules",
    "matches",
    "module_path",
    "option_env",
    "panic",
    "print",
    "println",
    "stringify",
    "thread_local",
    "todo",
    "trace_macros",
    "try",
    "unimplemented",
    "unreachable",
    "vec",
    "write",
    "writeln",
];

/// Whether `path`, as an attribute, is rustc's own or a tool's: no macro.
pub fn is_builtin_attribute(path: &[String]) -> bool {
    match path {
        [name] => BUILTIN_ATTRIBUTES.contains(&name.as_str()) || name.starts_with("rustc_"),
        [tool, ..] => TOOLS.contains(&tool.as_str()),
        [] => true,
    }
}

/// Whether `path`, in `#[derive(...)]`, is one of std's derives.
pub fn is_builtin_derive(path: &[String]) -> bool {
    let path: Vec<&str> = path.iter().map(String::as_str).collect();
    let path = path.strip_prefix(&["::"]).unwrap_or(&path);
    match path {
        [name] => BUILTIN_DERIVES.contains(name),
        ["std" | "core", .., name] => BUILTIN_DERIVES.contains(name),
        _ => false,
    }
}

/// The helper attribute std's derive `path` reads (`default` for `Default`), if it has one.
pub fn builtin_derive_helper(path: &[String]) -> Option<&'static str> {
    if !is_builtin_derive(path) {
        return None;
    }
    let name = path.last()?;
    BUILTIN_DERIVE_HELPERS
        .iter()
        .find(|(derive, _)| derive == name)
        .map(|(_, helper)| *helper)
}

/// Whether `path`, called as `path!`, is one of std's macros: a bare name of its prelude, or a
/// path into `std`, `core` or `alloc`.
pub fn is_std_macro(path: &[String]) -> bool {
    match path {
        [name] => STD_MACROS.contains(&name.as_str()),
        [first, second, ..] if first == "::" => {
            matches!(second.as_str(), "std" | "core" | "alloc")
        }
        [first, ..] => matches!(first.as_str(), "std" | "core" | "alloc"),
        [] => true,
    }
}

/// Every macro `tokens` name that is not rustc's or std's own: attributes (outer and inner,
/// `cfg_attr`'s included), each name in a `derive`, and `path!(...)` calls, at any depth. A
/// macro's own metavariables (`#[$attr]`, `$m!`) name nothing yet and are left out.
pub fn macro_uses(tokens: &TokenStream) -> Vec<MacroUse> {
    let mut found = Vec::new();
    collect(tokens.clone(), &mut found);
    found.sort();
    found.dedup();
    found
}

/// The attribute macros among the attributes an item's tokens open with (`#[ext(ChMax)]` on
/// `impl i64 { ... }`), and those attributes' own tokens: what may rewrite the item whole.
pub fn leading_attribute_macros(tokens: &TokenStream) -> (Vec<MacroUse>, TokenStream) {
    let mut found = Vec::new();
    let mut attrs = TokenStream::new();
    let mut trees = tokens.clone().into_iter().peekable();
    while let Some(TokenTree::Punct(p)) = trees.peek() {
        if p.as_char() != '#' {
            break;
        }
        trees.next();
        match trees.next() {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket => {
                let mut inner = Vec::new();
                attribute(g.stream(), &mut inner);
                found.extend(inner.into_iter().filter(|u| u.kind == MacroKind::Attribute));
                attrs.extend(g.stream());
            }
            _ => break,
        }
    }
    (found, attrs)
}

fn collect(tokens: TokenStream, found: &mut Vec<MacroUse>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let punct =
        |k: usize, c: char| matches!(trees.get(k), Some(TokenTree::Punct(p)) if p.as_char() == c);
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Punct(p) if p.as_char() == '#' => {
                let at = if punct(i + 1, '!') { i + 2 } else { i + 1 };
                if let Some(TokenTree::Group(g)) = trees.get(at) {
                    if g.delimiter() == Delimiter::Bracket {
                        attribute(g.stream(), found);
                        i = at + 1;
                        continue;
                    }
                }
                i += 1;
            }
            TokenTree::Group(g) => {
                collect(g.stream(), found);
                i += 1;
            }
            TokenTree::Ident(_) | TokenTree::Punct(_) => {
                let (path, end) = read_path(&trees, i);
                if path.is_empty() {
                    i += 1;
                    continue;
                }
                // `path!(...)`, not `a != b`; never a metavariable's `$m!`.
                let metavariable = i >= 1
                    && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == '$')
                    && path.first().is_some_and(|f| f != "crate");
                let called = punct(end, '!')
                    && !punct(end + 1, '=')
                    && matches!(trees.get(end + 1), Some(TokenTree::Group(_)));
                if called && !metavariable && !is_std_macro(&path) {
                    found.push(MacroUse {
                        kind: MacroKind::Bang,
                        path,
                    });
                }
                i = end.max(i + 1);
            }
            TokenTree::Literal(_) => i += 1,
        }
    }
}

/// The path that starts at `trees[i]` (`a::b::c`, `::a`, `$crate::a`), and where it ends; an
/// empty path when none starts there.
fn read_path(trees: &[TokenTree], i: usize) -> (Vec<String>, usize) {
    let punct =
        |k: usize, c: char| matches!(trees.get(k), Some(TokenTree::Punct(p)) if p.as_char() == c);
    let sep = |k: usize| punct(k, ':') && punct(k + 1, ':');
    let mut path = Vec::new();
    let mut k = i;
    if punct(k, '$') && matches!(trees.get(k + 1), Some(TokenTree::Ident(c)) if c == "crate") {
        path.push("crate".to_owned());
        k += 2;
    } else if sep(k) && !(k >= 1 && matches!(&trees[k - 1], TokenTree::Ident(_))) {
        path.push("::".to_owned());
        k += 2;
        match trees.get(k) {
            Some(TokenTree::Ident(id)) => path.push(unraw(id)),
            _ => return (Vec::new(), i),
        }
        k += 1;
    } else if let Some(TokenTree::Ident(id)) = trees.get(k) {
        path.push(unraw(id));
        k += 1;
    } else {
        return (Vec::new(), i);
    }
    while sep(k) {
        match trees.get(k + 2) {
            Some(TokenTree::Ident(id)) => {
                path.push(unraw(id));
                k += 3;
            }
            _ => break,
        }
    }
    (path, k)
}

/// The macros one attribute's tokens (inside `#[...]`) name.
fn attribute(tokens: TokenStream, found: &mut Vec<MacroUse>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let (path, end) = read_path(&trees, 0);
    let args = match trees.get(end) {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => Some(g.stream()),
        _ => None,
    };
    match (
        path.iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice(),
        args,
    ) {
        ([], _) => {}
        (["derive"], Some(args)) => {
            for derived in split_commas(args) {
                let (path, _) = read_path(&derived, 0);
                if !path.is_empty() && !is_builtin_derive(&path) {
                    found.push(MacroUse {
                        kind: MacroKind::Derive,
                        path,
                    });
                }
            }
        }
        // `#[cfg_attr(pred, attr, ...)]` and Rust 2024's `#[unsafe(no_mangle)]`: the
        // attributes inside.
        (["cfg_attr"], Some(args)) => {
            for attr in split_commas(args).into_iter().skip(1) {
                attribute(attr.into_iter().collect(), found);
            }
        }
        (["unsafe"], Some(args)) => attribute(args, found),
        _ if is_builtin_attribute(&path) => {}
        _ => found.push(MacroUse {
            kind: MacroKind::Attribute,
            path,
        }),
    }
}

/// `tokens` split at their top-level commas, empty parts left out.
fn split_commas(tokens: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut parts = vec![Vec::new()];
    for tree in tokens {
        match &tree {
            TokenTree::Punct(p) if p.as_char() == ',' => parts.push(Vec::new()),
            _ => parts.last_mut().expect("one part at least").push(tree),
        }
    }
    parts.retain(|p| !p.is_empty());
    parts
}

fn unraw(ident: &proc_macro2::Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map_or(name.clone(), str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses(source: &str) -> Vec<String> {
        let tokens: TokenStream = source.parse().expect("tokens");
        macro_uses(&tokens).iter().map(MacroUse::written).collect()
    }

    #[test]
    fn macro_uses_leave_out_what_rustc_and_std_provide() {
        let found = uses(
            "#[fastout] #[inline] #[rustfmt::skip] fn main() {
                 #[derive(Clone, Debug, num_derive::FromPrimitive, derive_readable)]
                 struct P;
                 #[cfg_attr(test, allow(unused), memoise::memoise(n <= 10))]
                 fn f() {}
                 let v = vec![1]; println!(\"{}\", 1); answer!(); ::lib::m!{} ; a != b;
                 std::println!();
             }
             #![unsafe(no_mangle)]
             macro_rules! m { ($a:meta, $x:ident) => { #[$a] fn g() { $x!(); $crate::lib::h!(); } } }",
        );
        assert_eq!(
            found,
            [
                "#[fastout]",
                "#[memoise::memoise]",
                "#[derive(derive_readable)]",
                "#[derive(num_derive::FromPrimitive)]",
                "::lib::m!",
                "answer!",
                "crate::lib::h!",
            ]
        );
    }
}
