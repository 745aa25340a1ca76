//! Proc macros for the bundler's tests, written on `proc_macro` alone: a derive with a helper
//! attribute, another declared with its helper inside a `macro_rules!` (as derive_more-impl
//! declares its derives), an attribute macro with arguments (and its two ways to fail:
//! `compile_error!` and a panic), and function-like macros for each place one may stand
//! (expression, item, type), some of whose names have mixed-site hygiene, as `macro_rules!`
//! names do.

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

fn ident(name: &str, span: Span) -> TokenTree {
    Ident::new(name, span).into()
}

fn punct(ch: char) -> TokenTree {
    Punct::new(ch, Spacing::Alone).into()
}

fn group(delimiter: Delimiter, stream: TokenStream) -> TokenTree {
    Group::new(delimiter, stream).into()
}

fn lifetime(name: &str, span: Span) -> [TokenTree; 2] {
    [Punct::new('\'', Spacing::Joint).into(), ident(name, span)]
}

/// `#[derive(Describe)]`, with `#[label = "..."]` on the type: implements
/// `fixture_runtime::Describe`, whose `describe` gives the label (or the type's name).
#[proc_macro_derive(Describe, attributes(label))]
pub fn describe(input: TokenStream) -> TokenStream {
    let trees: Vec<TokenTree> = input.into_iter().collect();
    let mut label = None;
    let mut name = None;
    for (k, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                if let [TokenTree::Ident(id), TokenTree::Punct(eq), TokenTree::Literal(text)] =
                    &inner[..]
                {
                    if id.to_string() == "label" && eq.as_char() == '=' {
                        label = Some(text.to_string());
                    }
                }
            }
            TokenTree::Ident(id) if ["struct", "enum"].contains(&id.to_string().as_str()) => {
                name = trees.get(k + 1).map(|t| t.to_string());
                break;
            }
            _ => {}
        }
    }
    let name = name.expect("Describe: a struct or an enum");
    let label = label.unwrap_or_else(|| format!("{name:?}"));
    format!(
        "impl ::fixture_runtime::Describe for {name} {{ fn describe(&self) -> \
         ::std::string::String {{ ::std::string::String::from({label}) }} }}"
    )
    .parse()
    .unwrap()
}

/// `#[times(N)]` on a function: its body's value multiplied by `N`. `N = 0` is a compile
/// error; anything but an integer literal panics.
#[proc_macro_attribute]
pub fn times(args: TokenStream, item: TokenStream) -> TokenStream {
    let factor: i64 = match args.into_iter().collect::<Vec<_>>().as_slice() {
        [TokenTree::Literal(lit)] => lit.to_string().parse().unwrap_or(-1),
        other => panic!(
            "times: expected an integer literal, found `{}`",
            other.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
        ),
    };
    if factor <= 0 {
        return "compile_error!(\"times: the factor must be positive\");"
            .parse()
            .unwrap();
    }
    let mut trees: Vec<TokenTree> = item.into_iter().collect();
    let body = match trees.pop() {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => g,
        _ => panic!("times: expected a function"),
    };
    let mut product = TokenStream::new();
    product.extend([
        group(Delimiter::Parenthesis, Literal::i64_unsuffixed(factor).to_token_stream()),
        punct('*'),
        TokenTree::Group(body),
    ]);
    trees.push(group(Delimiter::Brace, product));
    trees.into_iter().collect()
}

trait ToTokenStream {
    fn to_token_stream(self) -> TokenStream;
}

impl ToTokenStream for Literal {
    fn to_token_stream(self) -> TokenStream {
        TokenStream::from(TokenTree::Literal(self))
    }
}

/// `sum_with_tmp!(EXPR)`: `{ let tmp = 10; tmp + (EXPR) }`, its `tmp` of mixed-site hygiene, so
/// a `tmp` in `EXPR` is the caller's own.
#[proc_macro]
pub fn sum_with_tmp(input: TokenStream) -> TokenStream {
    let tmp = Span::mixed_site();
    let mut body = TokenStream::new();
    body.extend([
        ident("let", Span::call_site()),
        ident("tmp", tmp),
        punct('='),
        Literal::i64_unsuffixed(10).into(),
        punct(';'),
        ident("tmp", tmp),
        punct('+'),
        group(Delimiter::Parenthesis, input),
    ]);
    TokenStream::from(group(Delimiter::Brace, body))
}

/// `label_loop!(N)`: counts up to `N` in a labelled loop, its counter `count` and its label
/// `'outer` of mixed-site hygiene.
#[proc_macro]
pub fn label_loop(input: TokenStream) -> TokenStream {
    let mixed = Span::mixed_site();
    let call = Span::call_site();
    let mut out = TokenStream::new();
    out.extend([
        ident("let", call),
        ident("mut", call),
        ident("count", mixed),
        punct('='),
        Literal::i64_unsuffixed(0).into(),
        punct(';'),
    ]);
    out.extend(lifetime("outer", mixed));
    out.extend([punct(':'), ident("loop", call)]);
    let mut inner = TokenStream::new();
    inner.extend([
        ident("count", mixed),
        Punct::new('+', Spacing::Joint).into(),
        punct('='),
        Literal::i64_unsuffixed(1).into(),
        punct(';'),
        ident("if", call),
        ident("count", mixed),
        Punct::new('>', Spacing::Joint).into(),
        punct('='),
        group(Delimiter::Parenthesis, input),
    ]);
    let mut exit = TokenStream::new();
    exit.extend([ident("break", call)]);
    exit.extend(lifetime("outer", mixed));
    exit.extend([ident("count", mixed), punct(';')]);
    inner.extend([group(Delimiter::Brace, exit)]);
    out.extend([group(Delimiter::Brace, inner)]);
    TokenStream::from(group(Delimiter::Brace, out))
}

/// `make_const!(NAME, VALUE)`: `const NAME: i64 = VALUE;`.
#[proc_macro]
pub fn make_const(input: TokenStream) -> TokenStream {
    let trees: Vec<TokenTree> = input.into_iter().collect();
    let (name, value) = match trees.as_slice() {
        [name, TokenTree::Punct(comma), value @ ..] if comma.as_char() == ',' => (name, value),
        _ => panic!("make_const: expected `NAME, VALUE`"),
    };
    let value: TokenStream = value.iter().cloned().collect();
    format!("const {name}: i64 = {value};").parse().unwrap()
}

/// `pair_of!(T)`: the type `(T, T)`.
#[proc_macro]
pub fn pair_of(input: TokenStream) -> TokenStream {
    format!("({input}, {input})").parse().unwrap()
}

/// `helper_fn!()`: `fn helper() -> i64 { let seven = 7; seven }`, every name of mixed-site
/// hygiene; the function's name still resolves at the call site, so the caller can call it.
#[proc_macro]
pub fn helper_fn(_: TokenStream) -> TokenStream {
    let mixed = Span::mixed_site();
    let call = Span::call_site();
    let mut body = TokenStream::new();
    body.extend([
        ident("let", call),
        ident("seven", mixed),
        punct('='),
        Literal::i64_unsuffixed(7).into(),
        punct(';'),
        ident("seven", mixed),
    ]);
    let mut out = TokenStream::new();
    out.extend([
        ident("fn", call),
        ident("helper", mixed),
        group(Delimiter::Parenthesis, TokenStream::new()),
        Punct::new('-', Spacing::Joint).into(),
        punct('>'),
        ident("i64", call),
        group(Delimiter::Brace, body),
    ]);
    out
}

/// Declares the derive `$derive` with the helper `$helper` through `$function`, as
/// derive_more-impl's `create_derive!` does: `#[proc_macro_derive(...)]` is nowhere in this
/// file as written, so the helper cannot be read from it.
macro_rules! derive_with_helper {
    ($derive:ident, $helper:ident, $function:ident) => {
        #[proc_macro_derive($derive, attributes($helper))]
        pub fn $function(input: TokenStream) -> TokenStream {
            shout(input, stringify!($helper))
        }
    };
}

derive_with_helper!(Shout, shout, shout_derive);

/// `#[derive(Shout)]` on a struct with named fields, `#[shout = "PREFIX"]` on it and `#[shout]`
/// on some fields: an inherent `fn shout(&self) -> String`, the prefix then each such field
/// upper-cased, marked `#[automatically_derived]` as strum's `EnumIter` marks its inherent impl.
fn shout(input: TokenStream, helper: &str) -> TokenStream {
    let trees: Vec<TokenTree> = input.into_iter().collect();
    let helper_of = |tree: &TokenTree| -> Option<Vec<TokenTree>> {
        match tree {
            TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                match inner.first() {
                    Some(TokenTree::Ident(id)) if id.to_string() == helper => Some(inner),
                    _ => None,
                }
            }
            _ => None,
        }
    };
    let mut prefix = String::from("\"\"");
    let mut name = None;
    let mut fields = Vec::new();
    for (k, tree) in trees.iter().enumerate() {
        if let Some(inner) = helper_of(tree) {
            if let [_, TokenTree::Punct(eq), TokenTree::Literal(text)] = &inner[..] {
                if eq.as_char() == '=' {
                    prefix = text.to_string();
                }
            }
        }
        if let TokenTree::Ident(id) = tree {
            if id.to_string() == "struct" {
                name = trees.get(k + 1).map(|t| t.to_string());
            }
        }
        if let TokenTree::Group(body) = tree {
            if body.delimiter() != Delimiter::Brace {
                continue;
            }
            // Named fields: `#[shout] name: Type,` marks `name`.
            let inner: Vec<TokenTree> = body.stream().into_iter().collect();
            let mut marked = false;
            for (i, field) in inner.iter().enumerate() {
                if helper_of(field).is_some() {
                    marked = true;
                }
                let colon = matches!(inner.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
                if let (TokenTree::Ident(id), true) = (field, colon) {
                    if marked {
                        fields.push(id.to_string());
                    }
                    marked = false;
                }
            }
        }
    }
    let name = name.expect("Shout: a struct");
    let pushes: String = fields
        .iter()
        .map(|f| format!("out.push(' '); out.push_str(&self.{f}.to_string().to_uppercase());"))
        .collect();
    format!(
        "#[automatically_derived] impl {name} {{ pub fn shout(&self) -> ::std::string::String \
         {{ let mut out = ::std::string::String::from({prefix}); {pushes} out }} }}"
    )
    .parse()
    .unwrap()
}
