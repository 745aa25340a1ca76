//! Proc macros in the shapes of AtCoder's list, with no dependencies (std's `proc_macro`
//! alone): `#[ext(Trait)]` on an inherent impl of another crate's type (easy-ext), a
//! pass-through `#[fastout]` (proconio-derive), `#[derive(Describe)]` (num-derive's shape), and
//! a function-like `answer!()`.

use proc_macro::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};

/// `#[ext(Name)] impl Type { fn f(&self) ... { ... } ... }` becomes `trait Name { fn f(&self)
/// ...; ... } impl Name for Type { fn f(&self) ... { ... } ... }`, as easy-ext writes it.
#[proc_macro_attribute]
pub fn ext(attr: TokenStream, item: TokenStream) -> TokenStream {
    let trait_name = attr;
    let trees: Vec<TokenTree> = item.into_iter().collect();
    let (body, head) = trees.split_last().expect("an impl block");
    let self_ty: TokenStream = head.iter().skip(1).cloned().collect();
    let TokenTree::Group(body) = body else {
        panic!("#[ext] goes on an impl block");
    };
    let mut signatures = TokenStream::new();
    let mut methods = TokenStream::new();
    let mut signature: Vec<TokenTree> = Vec::new();
    for tree in body.stream() {
        match tree {
            TokenTree::Ident(ref i) if i.to_string() == "pub" && signature.is_empty() => {}
            TokenTree::Group(ref g) if g.delimiter() == Delimiter::Brace => {
                signatures.extend(signature.iter().cloned());
                signatures.extend(";".parse::<TokenStream>().unwrap());
                methods.extend(signature.drain(..));
                methods.extend([tree]);
            }
            other => signature.push(other),
        }
    }
    let mut out: TokenStream = "trait".parse().unwrap();
    out.extend(trait_name.clone());
    out.extend([TokenTree::Group(Group::new(Delimiter::Brace, signatures))]);
    out.extend("impl".parse::<TokenStream>().unwrap());
    out.extend(trait_name);
    out.extend("for".parse::<TokenStream>().unwrap());
    out.extend(self_ty);
    out.extend([TokenTree::Group(Group::new(Delimiter::Brace, methods))]);
    out
}

/// The function as it is (proconio's `#[fastout]` buffers its output).
#[proc_macro_attribute]
pub fn fastout(_attr: TokenStream, item: TokenStream) -> TokenStream {
    item
}

/// `impl Name { pub fn describe(&self) -> &'static str { "Name" } }`.
#[proc_macro_derive(Describe)]
pub fn derive_describe(item: TokenStream) -> TokenStream {
    let mut name = None;
    let mut after_keyword = false;
    for tree in item {
        if let TokenTree::Ident(i) = tree {
            if after_keyword {
                name = Some(i);
                break;
            }
            after_keyword = matches!(i.to_string().as_str(), "struct" | "enum");
        }
    }
    let name = name.unwrap_or_else(|| Ident::new("Unnamed", Span::call_site()));
    format!("impl {name} {{ pub fn describe(&self) -> &'static str {{ \"{name}\" }} }}")
        .parse()
        .unwrap()
}

/// `42`.
#[proc_macro]
pub fn answer(_input: TokenStream) -> TokenStream {
    "42".parse().unwrap()
}
