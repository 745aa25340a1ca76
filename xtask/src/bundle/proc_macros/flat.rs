//! Token trees as the proc-macro server's JSON protocol carries them: rust-analyzer's "flat
//! tree" (its `proc-macro-api` crate, `legacy_protocol/msg/flat.rs`), four arrays of numbers
//! and a table of strings, in the encodings of protocol versions 4 to 6.
//!
//! A tree is written breadth first: subtree 0 is the root (an invisible group holding the
//! stream), and each subtree lists its children as a range of `token_tree`, each child
//! `index << 2 | tag` (0 subtree, 1 literal, 2 punct, 3 ident). Every token carries a span id,
//! an index into the span table sent beside the tree; the bundler sends every input token with
//! the call site's span and reads each output token's hygiene from the table the server
//! returns (see [`super::hygiene`]).
//!
//! What changed across versions, and what this file follows: since version 2 a subtree records
//! its closing delimiter's span (5 numbers, not 4); since version 5 (`EXTENDED_LEAF_DATA`) a
//! literal is its symbol, kind and suffix rather than its text, and an ident says whether it is
//! raw rather than spelling `r#`. Version 6 (`HASHED_AST_ID`) changed what a span's anchor means
//! to rust-analyzer, not the layout. The server decodes with its own version, so the bundler
//! encodes with the version the server reported.

use std::collections::HashMap;

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use serde::{Deserialize, Serialize};

/// The oldest protocol the bundler speaks: spans as rust-analyzer's own (`SpanMode::
/// RustAnalyzer`, version 4), so that each output token's hygiene comes back with it.
pub const OLDEST: u32 = 4;
/// The newest protocol the bundler knows (rust-analyzer's `CURRENT_API_VERSION` when this was
/// written): a newer server may have changed the encoding, so it is refused.
pub const NEWEST: u32 = 6;
/// Since this version literals and idents carry their kind and rawness.
const EXTENDED_LEAF_DATA: u32 = 5;

/// The wire form of a token tree.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct FlatTree {
    subtree: Vec<u32>,
    literal: Vec<u32>,
    punct: Vec<u32>,
    ident: Vec<u32>,
    token_tree: Vec<u32>,
    text: Vec<String>,
}

/// A token tree read back from the server, each token with its span id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tree {
    Group {
        delimiter: Delimiter,
        span: u32,
        trees: Vec<Tree>,
    },
    Ident {
        text: String,
        raw: bool,
        span: u32,
    },
    Punct {
        ch: char,
        joint: bool,
        span: u32,
    },
    /// A literal as source text (`"a\n"`, `1u8`, `r#"x"#`).
    Literal {
        text: String,
        span: u32,
    },
}

const NO_TEXT: u32 = u32::MAX;

fn delimiter_code(delimiter: Delimiter) -> u32 {
    match delimiter {
        Delimiter::None => 0,
        Delimiter::Parenthesis => 1,
        Delimiter::Brace => 2,
        Delimiter::Bracket => 3,
    }
}

/// Encodes `stream` for protocol `version`, every token with span id `span`.
pub fn encode(stream: &TokenStream, version: u32, span: u32) -> FlatTree {
    let mut flat = FlatTree::default();
    let mut strings: HashMap<String, u32> = HashMap::new();
    let mut intern = |flat: &mut FlatTree, text: String| -> u32 {
        *strings.entry(text.clone()).or_insert_with(|| {
            flat.text.push(text);
            (flat.text.len() - 1) as u32
        })
    };
    // Subtrees as (delimiter, children), numbered in the order they are queued.
    let mut subtrees: Vec<(u32, Vec<TokenTree>)> = vec![(0, stream.clone().into_iter().collect())];
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    let mut next = 0;
    while next < subtrees.len() {
        let children = std::mem::take(&mut subtrees[next].1);
        let first = flat.token_tree.len() as u32;
        for child in children {
            let entry = match child {
                TokenTree::Group(group) => {
                    subtrees.push((
                        delimiter_code(group.delimiter()),
                        group.stream().into_iter().collect(),
                    ));
                    ((subtrees.len() - 1) as u32) << 2
                }
                TokenTree::Literal(literal) => {
                    let index = (flat.literal.len() / literal_width(version)) as u32;
                    let text = literal.to_string();
                    if version >= EXTENDED_LEAF_DATA {
                        let (kind, symbol, suffix) = split_literal(&text);
                        let symbol = intern(&mut flat, symbol);
                        let suffix = if suffix.is_empty() {
                            NO_TEXT
                        } else {
                            intern(&mut flat, suffix)
                        };
                        flat.literal.extend([span, symbol, kind, suffix]);
                    } else {
                        let text = intern(&mut flat, text);
                        flat.literal.extend([span, text]);
                    }
                    index << 2 | 1
                }
                TokenTree::Punct(punct) => {
                    let index = (flat.punct.len() / 3) as u32;
                    let joint = u32::from(punct.spacing() == proc_macro2::Spacing::Joint);
                    flat.punct.extend([span, punct.as_char() as u32, joint]);
                    index << 2 | 2
                }
                TokenTree::Ident(ident) => {
                    let text = ident.to_string();
                    let (raw, bare) = match text.strip_prefix("r#") {
                        Some(bare) => (true, bare.to_owned()),
                        None => (false, text.clone()),
                    };
                    if version >= EXTENDED_LEAF_DATA {
                        let index = (flat.ident.len() / 3) as u32;
                        let bare = intern(&mut flat, bare);
                        flat.ident.extend([span, bare, u32::from(raw)]);
                        index << 2 | 3
                    } else {
                        let index = (flat.ident.len() / 2) as u32;
                        let text = intern(&mut flat, text);
                        flat.ident.extend([span, text]);
                        index << 2 | 3
                    }
                }
            };
            flat.token_tree.push(entry);
        }
        ranges.push((first, flat.token_tree.len() as u32));
        next += 1;
    }
    for ((kind, _), (first, end)) in subtrees.iter().zip(ranges) {
        flat.subtree.extend([span, span, *kind, first, end]);
    }
    flat
}

fn literal_width(version: u32) -> usize {
    if version >= EXTENDED_LEAF_DATA {
        4
    } else {
        2
    }
}

/// Decodes a tree the server sent in protocol `version`: the stream of its root (a root with
/// a delimiter is one group). An inconsistent tree is an error, never a panic.
pub fn decode(flat: &FlatTree, version: u32) -> Result<Vec<Tree>, String> {
    let bad = |what: &str| format!("the server's token tree is inconsistent ({what})");
    let subtrees: Vec<&[u32]> = flat.subtree.chunks(5).collect();
    if !flat.subtree.len().is_multiple_of(5) || subtrees.is_empty() {
        return Err(bad("subtrees"));
    }
    let literal_width = literal_width(version);
    let ident_width = if version >= EXTENDED_LEAF_DATA { 3 } else { 2 };
    if !flat.literal.len().is_multiple_of(literal_width)
        || !flat.ident.len().is_multiple_of(ident_width)
        || !flat.punct.len().is_multiple_of(3)
    {
        return Err(bad("leaf arrays"));
    }
    let text = |k: u32| -> Result<&str, String> {
        flat.text
            .get(k as usize)
            .map(String::as_str)
            .ok_or_else(|| bad("a string index"))
    };
    // Children before parents: a subtree's children have higher numbers.
    let mut built: Vec<Option<Vec<Tree>>> = vec![None; subtrees.len()];
    for index in (0..subtrees.len()).rev() {
        let [_, _, _, first, end] =
            <[u32; 5]>::try_from(subtrees[index]).map_err(|_| bad("a subtree"))?;
        let children = flat
            .token_tree
            .get(first as usize..end as usize)
            .ok_or_else(|| bad("a subtree's range"))?;
        let mut trees = Vec::with_capacity(children.len());
        for &entry in children {
            let k = (entry >> 2) as usize;
            let tree = match entry & 3 {
                0 => {
                    if k <= index {
                        return Err(bad("a subtree before its parent"));
                    }
                    let sub = subtrees.get(k).ok_or_else(|| bad("a subtree index"))?;
                    let inner = built
                        .get_mut(k)
                        .and_then(Option::take)
                        .ok_or_else(|| bad("a subtree used twice"))?;
                    Tree::Group {
                        delimiter: match sub[2] {
                            0 => Delimiter::None,
                            1 => Delimiter::Parenthesis,
                            2 => Delimiter::Brace,
                            3 => Delimiter::Bracket,
                            _ => return Err(bad("a delimiter")),
                        },
                        span: sub[0],
                        trees: inner,
                    }
                }
                1 => {
                    let at = k * literal_width;
                    let leaf = flat
                        .literal
                        .get(at..at + literal_width)
                        .ok_or_else(|| bad("a literal index"))?;
                    let text = if version >= EXTENDED_LEAF_DATA {
                        let suffix = if leaf[3] == NO_TEXT {
                            ""
                        } else {
                            text(leaf[3])?
                        };
                        join_literal(leaf[2], text(leaf[1])?, suffix)
                            .ok_or_else(|| bad("a literal kind"))?
                    } else {
                        text(leaf[1])?.to_owned()
                    };
                    Tree::Literal {
                        text,
                        span: leaf[0],
                    }
                }
                2 => {
                    let leaf = flat
                        .punct
                        .get(k * 3..k * 3 + 3)
                        .ok_or_else(|| bad("a punct index"))?;
                    Tree::Punct {
                        ch: char::from_u32(leaf[1]).ok_or_else(|| bad("a punct"))?,
                        joint: leaf[2] == 1,
                        span: leaf[0],
                    }
                }
                _ => {
                    let at = k * ident_width;
                    let leaf = flat
                        .ident
                        .get(at..at + ident_width)
                        .ok_or_else(|| bad("an ident index"))?;
                    let name = text(leaf[1])?;
                    let (raw, name) = if version >= EXTENDED_LEAF_DATA {
                        (leaf[2] == 1, name)
                    } else {
                        match name.strip_prefix("r#") {
                            Some(bare) => (true, bare),
                            None => (false, name),
                        }
                    };
                    Tree::Ident {
                        text: name.to_owned(),
                        raw,
                        span: leaf[0],
                    }
                }
            };
            trees.push(tree);
        }
        built[index] = Some(trees);
    }
    let root = built[0].take().ok_or_else(|| bad("the root"))?;
    Ok(match subtrees[0][2] {
        0 => root,
        code => vec![Tree::Group {
            delimiter: match code {
                1 => Delimiter::Parenthesis,
                2 => Delimiter::Brace,
                3 => Delimiter::Bracket,
                _ => return Err(bad("the root's delimiter")),
            },
            span: subtrees[0][0],
            trees: root,
        }],
    })
}

/// A literal's text as the protocol's symbol, kind and suffix since version 5: `"a\n"` is
/// symbol `a\n`, kind string; `1u8` is symbol `1`, suffix `u8`; `br#"x"#` is symbol `x`, kind
/// raw byte string with one `#`. The kind is rust-analyzer's: its number in the low byte, the
/// count of `#` of a raw string in the high byte.
fn split_literal(text: &str) -> (u32, String, String) {
    let kind = |code: u32, hashes: usize| code | (hashes.min(255) as u32) << 8;
    let quoted = |open: usize, quote: char| -> Option<(String, String, usize)> {
        let hashes = text[..open].chars().filter(|&c| c == '#').count();
        let close = text.rfind(quote)?;
        if close <= open {
            return None;
        }
        let symbol = text[open + 1..close].to_owned();
        let after = close + 1 + hashes;
        Some((symbol, text.get(after..).unwrap_or("").to_owned(), hashes))
    };
    let (code, raw_code, quote) = if text.starts_with("b'") {
        (1, 1, '\'')
    } else if text.starts_with('\'') {
        (2, 2, '\'')
    } else if text.starts_with("b\"") || text.starts_with("br") {
        (7, 8, '"')
    } else if text.starts_with("c\"") || text.starts_with("cr") {
        (9, 10, '"')
    } else if text.starts_with('"') || text.starts_with('r') {
        (5, 6, '"')
    } else {
        // A number: its suffix is what syn reads as one (`1u8`, `2.5f32`).
        let (code, suffix) = match syn::parse_str::<syn::Lit>(text) {
            Ok(syn::Lit::Float(f)) => (4, f.suffix().to_owned()),
            Ok(syn::Lit::Int(i)) => (3, i.suffix().to_owned()),
            _ => (0, String::new()),
        };
        let symbol = text[..text.len() - suffix.len()].to_owned();
        return (kind(code, 0), symbol, suffix);
    };
    let open = text.find(quote).unwrap_or(0);
    let raw = text[..open].contains('r');
    match quoted(open, quote) {
        Some((symbol, suffix, hashes)) if raw => (kind(raw_code, hashes), symbol, suffix),
        Some((symbol, suffix, _)) => (kind(code, 0), symbol, suffix),
        None => (kind(0, 0), text.to_owned(), String::new()),
    }
}

/// The source text of a literal from its symbol, kind and suffix (see [`split_literal`]).
fn join_literal(kind: u32, symbol: &str, suffix: &str) -> Option<String> {
    let hashes = "#".repeat((kind >> 8 & 0xff) as usize);
    let body = match kind & 0xff {
        0 | 3 | 4 => symbol.to_owned(),
        1 => format!("b'{symbol}'"),
        2 => format!("'{symbol}'"),
        5 => format!("\"{symbol}\""),
        6 => format!("r{hashes}\"{symbol}\"{hashes}"),
        7 => format!("b\"{symbol}\""),
        8 => format!("br{hashes}\"{symbol}\"{hashes}"),
        9 => format!("c\"{symbol}\""),
        10 => format!("cr{hashes}\"{symbol}\"{hashes}"),
        _ => return None,
    };
    Some(body + suffix)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `source` encoded, decoded and made tokens again, as the pass reads an expansion.
    fn round_trip(source: &str, version: u32) -> String {
        let stream: TokenStream = source.parse().unwrap();
        let flat = encode(&stream, version, 0);
        let trees = decode(&flat, version).unwrap();
        let spans = super::super::hygiene::span_table();
        let mut marks = super::super::hygiene::Marks::default();
        super::super::hygiene::to_tokens(&trees, &spans, &mut marks)
            .unwrap()
            .to_string()
    }

    #[test]
    fn every_kind_of_token_survives_the_wire_in_each_version() {
        let source = r###"fn r#type(x: [u8; 3]) -> { 'a' b'b' "s\n" r#"raw"# br"rb" b"bs" 1u8 2.5f32 1e3 0x1F c"c" }"###;
        for version in OLDEST..=NEWEST {
            let expected = source.parse::<TokenStream>().unwrap().to_string();
            assert_eq!(round_trip(source, version), expected, "version {version}");
        }
    }

    #[test]
    fn literals_split_as_the_protocol_reads_them() {
        assert_eq!(split_literal("\"a\\n\""), (5, "a\\n".into(), "".into()));
        assert_eq!(split_literal("1u8"), (3, "1".into(), "u8".into()));
        assert_eq!(split_literal("2.5f32"), (4, "2.5".into(), "f32".into()));
        assert_eq!(
            split_literal("r##\"x\"##"),
            (6 | 2 << 8, "x".into(), "".into())
        );
        assert_eq!(split_literal("b'\\''"), (1, "\\'".into(), "".into()));
        assert_eq!(join_literal(8 | 1 << 8, "x", ""), Some("br#\"x\"#".into()));
    }

    #[test]
    fn a_broken_tree_is_an_error_not_a_panic() {
        let mut flat = encode(&"a (b) c".parse().unwrap(), NEWEST, 0);
        flat.token_tree[1] = 7 << 2; // a subtree that does not exist
        assert!(decode(&flat, NEWEST).is_err());
        let mut flat = encode(&"a".parse().unwrap(), NEWEST, 0);
        flat.text.clear();
        assert!(decode(&flat, NEWEST).is_err());
        assert!(decode(&FlatTree::default(), NEWEST).is_err());
    }
}
