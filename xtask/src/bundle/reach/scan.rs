//! Scanning a node's tokens for what it names: paths (`a::b::c`, generic arguments skipped),
//! member names (after `.`, or past `::` in a path's tail), macro calls, and the names a
//! macro's tokens may define.

use std::collections::BTreeSet;

use proc_macro2::{TokenStream, TokenTree};

/// Words that are never the start of a path to an item.
const KEYWORDS: &[&str] = &[
    "as",
    "async",
    "await",
    "break",
    "const",
    "continue",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "static",
    "struct",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "macro_rules",
];

/// Keywords whose next word is the name an item defines. Not `const` and `static`, which also
/// come before a type (`*const T`, `&'static str`).
const DEFINING: [&str; 7] = ["fn", "struct", "enum", "union", "trait", "mod", "type"];

/// What a node's tokens name.
#[derive(Debug, Default)]
pub(super) struct Scan {
    pub(super) paths: Vec<Vec<String>>,
    pub(super) members: BTreeSet<String>,
    /// Paths called as macros (`name!`, `$crate::lib::name!`).
    pub(super) macro_paths: Vec<Vec<String>>,
    /// `use` declarations in blocks (function bodies): each name bound, and its path.
    pub(super) block_uses: Vec<(String, Vec<String>)>,
    /// `use path::*` in blocks: the paths.
    pub(super) block_globs: Vec<Vec<String>>,
    /// Paths a macro's body completes with a metavariable (`$crate::typenum::$u`): what the
    /// call passes in is looked up there.
    pub(super) metavariable_prefixes: Vec<Vec<String>>,
}

impl Scan {
    pub(super) fn tokens(&mut self, tokens: TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let punct = |k: usize, c: char| matches!(trees.get(k), Some(TokenTree::Punct(p)) if p.as_char() == c);
        let sep = |k: usize| punct(k, ':') && punct(k + 1, ':');
        let mut i = 0;
        while i < trees.len() {
            match &trees[i] {
                TokenTree::Group(g) => {
                    self.tokens(g.stream());
                    i += 1;
                }
                TokenTree::Ident(id) => {
                    let name = unraw(id);
                    if name == "use" {
                        if let Some(end) = self.block_use(&trees[i + 1..]) {
                            i += 1 + end;
                            continue;
                        }
                    }
                    // `x.name`, not `a..name` (a range: bitvec's `0 .. mem::bits_of()`).
                    let after_dot = i >= 1 && punct(i - 1, '.') && !(i >= 2 && punct(i - 2, '.'));
                    let continues = i >= 2 && sep(i - 2);
                    if after_dot {
                        self.members.insert(name);
                        i += 1;
                        continue;
                    }
                    if continues {
                        // Past `>::` (`<T as Trait>::f`, `Vec::<T>::new`): an associated name.
                        self.members.insert(name);
                        i += 1;
                        continue;
                    }
                    // A keyword, or a macro's metavariable (`$x`, not `$crate`).
                    let metavariable = i >= 1 && punct(i - 1, '$') && name != "crate";
                    if KEYWORDS.contains(&name.as_str()) || metavariable {
                        i += 1;
                        continue;
                    }
                    // The name an item defines (`fn zero`): no use of a namesake.
                    let defining = |tree: &TokenTree| match tree {
                        TokenTree::Ident(k) => DEFINING.iter().any(|d| k == d),
                        _ => false,
                    };
                    let defines = i >= 1 && defining(&trees[i - 1]);
                    if defines {
                        i += 1;
                        continue;
                    }
                    let mut path = Vec::new();
                    if i >= 1 && punct(i - 1, '$') && name == "crate" {
                        path.push("crate".to_owned());
                    } else if i >= 2 && sep(i - 2) {
                        path.push("::".to_owned());
                        path.push(name);
                    } else {
                        path.push(name);
                    }
                    i += 1;
                    // `a::b::c`, skipping `::<...>` generic arguments (scanned on their own).
                    loop {
                        if !sep(i) {
                            break;
                        }
                        if punct(i + 2, '<') {
                            let mut depth = 0;
                            let mut j = i + 2;
                            while j < trees.len() {
                                if punct(j, '<') {
                                    depth += 1;
                                } else if punct(j, '>') {
                                    depth -= 1;
                                    if depth == 0 {
                                        break;
                                    }
                                } else if let TokenTree::Group(g) = &trees[j] {
                                    self.tokens(g.stream());
                                } else if let TokenTree::Ident(id) = &trees[j] {
                                    self.paths.push(vec![unraw(id)]);
                                }
                                j += 1;
                            }
                            i = j + 1;
                            continue;
                        }
                        match trees.get(i + 2) {
                            Some(TokenTree::Ident(next)) => {
                                path.push(unraw(next));
                                i += 3;
                            }
                            Some(TokenTree::Punct(p))
                                if p.as_char() == '$'
                                    && matches!(trees.get(i + 3), Some(TokenTree::Ident(v)) if v != "crate") =>
                            {
                                self.metavariable_prefixes.push(path.clone());
                                break;
                            }
                            _ => break,
                        }
                    }
                    // `path!(...)`, not `name != x`.
                    if punct(i, '!') && !punct(i + 1, '=') {
                        self.macro_paths.push(path.clone());
                    }
                    self.paths.push(path);
                }
                _ => i += 1,
            }
        }
    }
}

impl Scan {
    /// A `use` declaration in a block, `trees` being what follows `use`: its leaves become
    /// paths (resolved from the node's module, as the block's are) and bindings. Returns how
    /// many trees it took (through the `;`), or `None` when it does not read as one (a macro's
    /// `use $path;`).
    fn block_use(&mut self, trees: &[TokenTree]) -> Option<usize> {
        let end = trees
            .iter()
            .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))?;
        // `$crate::x` in a macro's body is `crate::x` there.
        let mut tokens = Vec::with_capacity(end);
        let mut k = 0;
        while k < end {
            match (&trees[k], trees.get(k + 1)) {
                (TokenTree::Punct(p), Some(TokenTree::Ident(next)))
                    if p.as_char() == '$' && next == "crate" =>
                {
                    tokens.push(trees[k + 1].clone());
                    k += 2;
                }
                (tree, _) => {
                    tokens.push(tree.clone());
                    k += 1;
                }
            }
        }
        let stream: TokenStream = tokens.into_iter().collect();
        let tree: syn::UseTree = syn::parse2(stream).ok()?;
        let mut leaves = Vec::new();
        use_leaves(&tree, Vec::new(), &mut leaves);
        for (path, binding) in leaves {
            match binding {
                Some(name) => self.block_uses.push((name, path.clone())),
                None => self.block_globs.push(path.clone()),
            }
            if !path.is_empty() {
                self.paths.push(path);
            }
        }
        Some(end + 1)
    }
}

/// The leaves of a `use` tree: (path, the name bound, or `None` for a glob).
fn use_leaves(
    tree: &syn::UseTree,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut path = prefix;
    match tree {
        syn::UseTree::Path(p) => {
            path.push(unraw(&p.ident));
            use_leaves(&p.tree, path, out);
        }
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_leaves(t, path.clone(), out);
            }
        }
        syn::UseTree::Glob(_) => out.push((path, None)),
        syn::UseTree::Name(n) => {
            let name = unraw(&n.ident);
            let binding = if name == "self" {
                path.last().cloned().unwrap_or_default()
            } else {
                path.push(name.clone());
                name
            };
            out.push((path, Some(binding)));
        }
        syn::UseTree::Rename(r) => {
            let name = unraw(&r.ident);
            if name != "self" {
                path.push(name);
            }
            out.push((path, Some(unraw(&r.rename))));
        }
    }
}

/// The names that follow an item keyword in `tokens` (`fn adc`, `pub trait FloatConst`): what
/// a macro's tokens may define.
pub(super) fn defined_names(tokens: TokenStream, out: &mut BTreeSet<String>) {
    const ITEMS: [&str; 9] = [
        "fn", "struct", "enum", "union", "trait", "type", "const", "static", "mod",
    ];
    let mut after_keyword = false;
    for tree in tokens {
        match tree {
            TokenTree::Ident(id) => {
                let name = unraw(&id);
                if after_keyword {
                    out.insert(name.clone());
                }
                after_keyword = ITEMS.contains(&name.as_str());
            }
            TokenTree::Group(g) => {
                defined_names(g.stream(), out);
                after_keyword = false;
            }
            TokenTree::Punct(_) | TokenTree::Literal(_) => after_keyword = false,
        }
    }
}

/// Every identifier in `tokens`.
pub(super) fn idents(tokens: TokenStream, out: &mut BTreeSet<String>) {
    for tree in tokens {
        match tree {
            TokenTree::Ident(id) => {
                out.insert(unraw(&id));
            }
            TokenTree::Group(g) => idents(g.stream(), out),
            _ => {}
        }
    }
}

pub(super) fn unraw(ident: &proc_macro2::Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map_or(name.clone(), str::to_owned)
}
