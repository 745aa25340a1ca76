//! What a crate's source reads from outside its own text: the files a reading looked at
//! (module files and included files), and the environment variables its `env!` and
//! `option_env!` read. Shared by the reading ([`super::expand`], [`super::includes`]), its
//! cache ([`super::readings`]) and the plan ([`super::manifest`]), and importing none of them.

use std::collections::BTreeSet;
use std::path::PathBuf;

/// Every file a reading read, with a digest of what it held then, and every file it looked for
/// and did not find, with none: what decides the crate as read (see [`super::readings`]).
pub type LookedAt = Vec<(PathBuf, Option<String>)>;

/// The environment variables a crate reads at compile time: `env!("NAME")` and
/// `option_env!("NAME")` (also inside `concat!` and `include!`).
pub fn env_reads(file: &syn::File) -> BTreeSet<String> {
    env_reads_in(quote::ToTokens::to_token_stream(file))
}

/// [`env_reads`] of some tokens: `env!("NAME")` and `option_env!("NAME")` among them.
pub fn env_reads_in(tokens: proc_macro2::TokenStream) -> BTreeSet<String> {
    fn walk(tokens: proc_macro2::TokenStream, names: &mut BTreeSet<String>) {
        let trees: Vec<proc_macro2::TokenTree> = tokens.into_iter().collect();
        for (i, tree) in trees.iter().enumerate() {
            match tree {
                proc_macro2::TokenTree::Ident(id) if id == "env" || id == "option_env" => {
                    let bang = matches!(trees.get(i + 1), Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == '!');
                    if let (true, Some(proc_macro2::TokenTree::Group(g))) = (bang, trees.get(i + 2))
                    {
                        let first = g.stream().into_iter().next();
                        if let Some(proc_macro2::TokenTree::Literal(lit)) = first {
                            if let Ok(syn::Lit::Str(s)) =
                                syn::parse_str::<syn::Lit>(&lit.to_string())
                            {
                                names.insert(s.value());
                            }
                        }
                    }
                }
                proc_macro2::TokenTree::Group(g) => walk(g.stream(), names),
                _ => {}
            }
        }
    }
    let mut names = BTreeSet::new();
    walk(tokens, &mut names);
    names
}
