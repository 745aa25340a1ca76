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

/// The names that follow an item keyword in `tokens` (`fn adc`, `pub trait FloatConst`), past
/// what may stand between `static` and the name (`static mut COUNT`, and lazy_static's `static
/// ref PASCAL`): what a macro's tokens may define. Returns whether a keyword is followed by a
/// metavariable instead (`struct $name`, `static $N`): then the macro defines whatever words
/// its calls pass it there, which only matching its rules could tell apart.
pub(super) fn defined_names(tokens: TokenStream, out: &mut BTreeSet<String>) -> bool {
    const ITEMS: [&str; 9] = [
        "fn", "struct", "enum", "union", "trait", "type", "const", "static", "mod",
    ];
    let mut by_metavariable = false;
    // The item keyword just read, and whether a `$` followed it.
    let mut keyword: Option<String> = None;
    let mut dollar = false;
    for tree in tokens {
        match tree {
            TokenTree::Ident(id) => {
                let name = unraw(&id);
                if let Some(before) = keyword.take() {
                    if dollar {
                        by_metavariable |= name != "crate";
                        dollar = false;
                        continue;
                    }
                    if before == "static" && (name == "mut" || name == "ref") {
                        keyword = Some(before);
                        continue;
                    }
                    out.insert(name.clone());
                }
                if ITEMS.contains(&name.as_str()) {
                    keyword = Some(name);
                }
            }
            TokenTree::Punct(p) if p.as_char() == '$' && keyword.is_some() && !dollar => {
                dollar = true;
            }
            TokenTree::Group(g) => {
                by_metavariable |= defined_names(g.stream(), out);
                keyword = None;
                dollar = false;
            }
            TokenTree::Punct(_) | TokenTree::Literal(_) => {
                keyword = None;
                dollar = false;
            }
        }
    }
    by_metavariable
}

/// The words a call of the `macro_rules!` definition `definition` passes where its rules put
/// the name of an item they write (`fn $name`, `struct $C`, or anywhere in a call they make of
/// a macro that `onward` says writes items so named, as lazy_static's `lazy_static!` passes
/// `$N` on): for the first rule whose matcher the call's `arguments` fit as far as those
/// metavariables, the words at their places. `None` when the matcher's places cannot be told
/// without parsing (a `$x:ty`, a repetition before them), and then any word passed may be
/// such a name.
pub(super) fn words_named_by_rules(
    definition: &TokenStream,
    arguments: &TokenStream,
    onward: &dyn Fn(&[String]) -> bool,
) -> Option<BTreeSet<String>> {
    let rules = definition.clone().into_iter().filter_map(|t| match t {
        TokenTree::Group(g) if g.delimiter() != proc_macro2::Delimiter::Bracket => Some(g),
        _ => None,
    });
    let rules = rules.last()?;
    let trees: Vec<TokenTree> = rules.stream().into_iter().collect();
    let mut found = BTreeSet::new();
    // `(matcher) => {body};`, rule after rule.
    let mut k = 0;
    while k < trees.len() {
        let (Some(TokenTree::Group(matcher)), Some(TokenTree::Group(body))) =
            (trees.get(k), trees.get(k + 3))
        else {
            break;
        };
        k += 5;
        let naming = naming_metavariables(body.stream(), onward);
        if naming.is_empty() {
            continue;
        }
        match bind(matcher.stream(), arguments.clone(), &naming) {
            Binding::NoMatch => continue,
            Binding::Unknown => return None,
            Binding::Bound(words) => {
                found.extend(words);
                return Some(found);
            }
        }
    }
    Some(found)
}

/// How a call's arguments fit a matcher, as far as the metavariables asked for.
enum Binding {
    /// A token of the matcher differs: another rule applies.
    NoMatch,
    /// A fragment of many tokens or a repetition comes first: places cannot be told.
    Unknown,
    /// The words at the metavariables' places.
    Bound(Vec<String>),
}

/// `arguments` against `matcher`, element by element, binding the metavariables of `wanted`.
fn bind(matcher: TokenStream, arguments: TokenStream, wanted: &BTreeSet<String>) -> Binding {
    let pattern: Vec<TokenTree> = matcher.into_iter().collect();
    let given: Vec<TokenTree> = arguments.into_iter().collect();
    let mut words = Vec::new();
    let mut left = wanted.clone();
    let (mut p, mut g) = (0, 0);
    while !left.is_empty() {
        let Some(element) = pattern.get(p) else {
            return Binding::NoMatch;
        };
        match element {
            TokenTree::Punct(dollar) if dollar.as_char() == '$' => {
                let (Some(TokenTree::Ident(name)), Some(TokenTree::Ident(fragment))) =
                    (pattern.get(p + 1), pattern.get(p + 3))
                else {
                    // `$( ... )*` or `$crate`.
                    return Binding::Unknown;
                };
                if !matches!(
                    fragment.to_string().as_str(),
                    "ident" | "tt" | "lifetime" | "literal"
                ) {
                    return Binding::Unknown;
                }
                let Some(word) = given.get(g) else {
                    return Binding::NoMatch;
                };
                let name = unraw(name);
                if left.remove(&name) {
                    if let TokenTree::Ident(w) = word {
                        words.push(unraw(w));
                    }
                }
                // `'a` is two tokens.
                g += if fragment == "lifetime" { 2 } else { 1 };
                p += 4;
            }
            TokenTree::Group(inner) => {
                let Some(TokenTree::Group(passed)) = given.get(g) else {
                    return Binding::NoMatch;
                };
                if inner.delimiter() != passed.delimiter() {
                    return Binding::NoMatch;
                }
                // The metavariables asked for that this group holds, bound inside it.
                let mut held = BTreeSet::new();
                collect_metavariables(inner.stream(), &mut held);
                held.retain(|m| left.contains(m));
                match bind(inner.stream(), passed.stream(), &held) {
                    Binding::Bound(inner_words) => {
                        left.retain(|m| !held.contains(m));
                        words.extend(inner_words);
                    }
                    other => return other,
                }
                g += 1;
                p += 1;
            }
            literal => {
                let same = given
                    .get(g)
                    .is_some_and(|t| t.to_string() == literal.to_string());
                if !same {
                    return Binding::NoMatch;
                }
                g += 1;
                p += 1;
            }
        }
    }
    Binding::Bound(words)
}

/// The metavariables a rule's transcriber puts after an item keyword (`struct $C`), and those
/// it passes to a call of a macro that `onward` says writes items named by its words.
fn naming_metavariables(body: TokenStream, onward: &dyn Fn(&[String]) -> bool) -> BTreeSet<String> {
    fn walk(tokens: TokenStream, onward: &dyn Fn(&[String]) -> bool, out: &mut BTreeSet<String>) {
        const ITEMS: [&str; 9] = [
            "fn", "struct", "enum", "union", "trait", "type", "const", "static", "mod",
        ];
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        for (k, tree) in trees.iter().enumerate() {
            match tree {
                TokenTree::Ident(keyword) if ITEMS.iter().any(|i| keyword == i) => {
                    let mut at = k + 1;
                    if keyword == "static"
                        && matches!(trees.get(at), Some(TokenTree::Ident(m)) if m == "mut" || m == "ref")
                    {
                        at += 1;
                    }
                    if let (Some(TokenTree::Punct(d)), Some(TokenTree::Ident(v))) =
                        (trees.get(at), trees.get(at + 1))
                    {
                        if d.as_char() == '$' && v != "crate" {
                            out.insert(unraw(v));
                        }
                    }
                }
                TokenTree::Group(g) => {
                    let called = k >= 1
                        && matches!(&trees[k - 1], TokenTree::Punct(p) if p.as_char() == '!');
                    if called && onward(&path_before(&trees[..k - 1])) {
                        collect_metavariables(g.stream(), out);
                    } else {
                        walk(g.stream(), onward, out);
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(body, onward, &mut out);
    out
}

/// The path that `trees` end with (`$crate::lib::inner` before a `!`), `$crate` as `crate`.
fn path_before(trees: &[TokenTree]) -> Vec<String> {
    let punct =
        |k: usize, c: char| matches!(trees.get(k), Some(TokenTree::Punct(p)) if p.as_char() == c);
    let mut path = Vec::new();
    let mut end = trees.len();
    while let Some(TokenTree::Ident(id)) = end.checked_sub(1).and_then(|k| trees.get(k)) {
        path.push(unraw(id));
        end -= 1;
        if end >= 2 && punct(end - 1, ':') && punct(end - 2, ':') {
            end -= 2;
        } else {
            break;
        }
    }
    path.reverse();
    path
}

/// Every `$name` in `tokens`, `$crate` aside.
fn collect_metavariables(tokens: TokenStream, out: &mut BTreeSet<String>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for (k, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Punct(d) if d.as_char() == '$' => {
                if let Some(TokenTree::Ident(v)) = trees.get(k + 1) {
                    if v != "crate" {
                        out.insert(unraw(v));
                    }
                }
            }
            TokenTree::Group(g) => collect_metavariables(g.stream(), out),
            _ => {}
        }
    }
}

/// What an item-position macro call passes its macro: the group after `name!` in its
/// tokens (`double, 2` of `make_fn!(double, 2);`), never its attributes or its path.
pub(super) fn call_arguments(tokens: &TokenStream) -> TokenStream {
    let mut after_bang = false;
    for tree in tokens.clone() {
        match tree {
            TokenTree::Punct(p) if p.as_char() == '!' => after_bang = true,
            TokenTree::Group(g) if after_bang => return g.stream(),
            _ => after_bang = false,
        }
    }
    TokenStream::new()
}

/// Whether `word` may be the name of an item a macro writes: no keyword (`static`, `ref`,
/// `self`) and no primitive type (`u8`, `str`), which no one names an item.
pub(super) fn may_name_an_item(word: &str) -> bool {
    const PRIMITIVES: [&str; 17] = [
        "bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32",
        "i64", "i128", "isize", "f32", "f64",
    ];
    !KEYWORDS.contains(&word)
        && !PRIMITIVES.contains(&word)
        && !matches!(word, "self" | "Self" | "crate" | "super")
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
