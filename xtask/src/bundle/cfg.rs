//! Deciding `#[cfg(...)]`, `#[cfg_attr(...)]` and `cfg!(...)` as far as the bundle must:
//! `test` is off (a submission is not a test build), `feature = "x"` is what cargo resolved
//! for the crate, and a `cfg` the crate's build script set (`cargo:rustc-cfg=has_i128`) is on,
//! since plain rustc sets neither; a name that is neither rustc's own nor set by the crate's
//! build script (`kani`, `docsrs`, `loom`, `has_i128` when no script set it) is off, since BOJ's
//! `rustc --edition 2021 -O Main.rs` passes no `--cfg`. The names rustc sets itself (`unix`,
//! `debug_assertions`, `target_pointer_width = "64"`) are left for BOJ's rustc to decide, with
//! the known parts taken out of the predicate.

use std::collections::BTreeSet;

use syn::punctuated::Punctuated;
use syn::{parse_quote, Attribute, Meta, Token};

/// The `cfg` names rustc itself may set (the Reference's "Conditional compilation" and
/// rustc's `--print cfg`), for some target, toolchain or tool: left for BOJ's rustc. Any other
/// name is set only by `--cfg`, which only a build script (through cargo) would pass.
const RUSTC_NAMES: &[&str] = &[
    "unix",
    "windows",
    "debug_assertions",
    "overflow_checks",
    "ub_checks",
    "contract_checks",
    "panic",
    "proc_macro",
    "relocation_model",
    "sanitize",
    "sanitizer_cfi_generalize_pointers",
    "sanitizer_cfi_normalize_integers",
    "fmt_debug",
    "miri",
    "doctest",
    "emscripten_wasm_eh",
];

/// Whether rustc may set the `cfg` name `name` itself (see [`RUSTC_NAMES`]).
fn set_by_rustc(name: &str) -> bool {
    name.starts_with("target_") || RUSTC_NAMES.contains(&name)
}

/// What a predicate comes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// Certainly on.
    On,
    /// Certainly off.
    Off,
    /// Up to the compiler: the predicate with the known parts taken out.
    Open(Box<Meta>),
}

/// The settings of one crate.
#[derive(Debug, Clone, Default)]
pub struct Cfg {
    /// The features cargo enabled for the crate.
    pub features: BTreeSet<String>,
    /// The `cfg`s its build script set, as cargo reports them: `name` or `name="value"`.
    pub set: BTreeSet<String>,
}

impl Cfg {
    /// Evaluates a `cfg` predicate.
    pub fn eval(&self, meta: &Meta) -> Value {
        match meta {
            // Never set by `rustc -O` on a submission: tests, documentation, doctests (rustdoc's
            // alone: lazy_static's `#[cfg(doctest)] doctest!("../README.md")`).
            Meta::Path(p) if ["test", "doc", "doctest"].iter().any(|n| p.is_ident(n)) => Value::Off,
            Meta::Path(p) => match p.get_ident().map(|i| i.to_string()) {
                Some(name) if self.set.contains(&name) => Value::On,
                Some(name) if !set_by_rustc(&name) => Value::Off,
                _ => Value::Open(Box::new(meta.clone())),
            },
            Meta::NameValue(nv) if nv.path.is_ident("feature") => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => {
                    if self.features.contains(&s.value()) {
                        Value::On
                    } else {
                        Value::Off
                    }
                }
                _ => Value::Open(Box::new(meta.clone())),
            },
            Meta::NameValue(nv) => match (&nv.value, nv.path.get_ident()) {
                (
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }),
                    Some(name),
                ) if self.set.contains(&format!("{name}={:?}", s.value())) => Value::On,
                (_, Some(name)) if !set_by_rustc(&name.to_string()) => Value::Off,
                _ => Value::Open(Box::new(meta.clone())),
            },
            Meta::List(list) => {
                let Ok(args) =
                    list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                else {
                    return Value::Open(Box::new(meta.clone()));
                };
                let values: Vec<Value> = args.iter().map(|m| self.eval(m)).collect();
                if list.path.is_ident("not") && values.len() == 1 {
                    match &values[0] {
                        Value::On => Value::Off,
                        Value::Off => Value::On,
                        Value::Open(inner) => Value::Open(Box::new(parse_quote!(not(#inner)))),
                    }
                } else if list.path.is_ident("all") {
                    combine(values, Value::Off, Value::On, "all")
                } else if list.path.is_ident("any") {
                    combine(values, Value::On, Value::Off, "any")
                } else {
                    Value::Open(Box::new(meta.clone()))
                }
            }
        }
    }

    /// Settles the `cfg` and `cfg_attr` attributes of an item: `false` when the item is off;
    /// otherwise the attributes are rewritten (decided predicates removed, `cfg_attr` whose
    /// predicate is on replaced by its attributes).
    pub fn settle(&self, attrs: &mut Vec<Attribute>) -> bool {
        let mut out = Vec::with_capacity(attrs.len());
        for attr in attrs.drain(..) {
            if attr.path().is_ident("cfg") {
                let Ok(meta) = attr.parse_args::<Meta>() else {
                    out.push(attr);
                    continue;
                };
                match self.eval(&meta) {
                    Value::Off => return false,
                    Value::On => {}
                    Value::Open(rest) => out.push(parse_quote!(#[cfg(#rest)])),
                }
            } else if attr.path().is_ident("cfg_attr") {
                let Ok(args) =
                    attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                else {
                    out.push(attr);
                    continue;
                };
                let mut args = args.into_iter();
                let Some(predicate) = args.next() else {
                    continue;
                };
                let inner: Vec<Meta> = args.collect();
                match self.eval(&predicate) {
                    Value::Off => {}
                    Value::On => {
                        for meta in inner {
                            let mut attr = attr.clone();
                            attr.meta = meta;
                            out.push(attr);
                        }
                    }
                    Value::Open(rest) => out.push(parse_quote!(#[cfg_attr(#rest, #(#inner),*)])),
                }
            } else {
                out.push(attr);
            }
        }
        *attrs = out;
        true
    }
}

/// `all` (`stop` = Off, `unit` = On) or `any` (`stop` = On, `unit` = Off) of the values.
fn combine(values: Vec<Value>, stop: Value, unit: Value, name: &str) -> Value {
    if values.contains(&stop) {
        return stop;
    }
    let open: Vec<Meta> = values
        .into_iter()
        .filter_map(|v| match v {
            Value::Open(m) => Some(*m),
            _ => None,
        })
        .collect();
    match open.len() {
        0 => unit,
        1 => Value::Open(Box::new(open.into_iter().next().expect("one"))),
        _ => {
            let name = syn::Ident::new(name, proc_macro2::Span::call_site());
            Value::Open(Box::new(parse_quote!(#name(#(#open),*))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    fn cfg(features: &[&str]) -> Cfg {
        Cfg {
            features: features.iter().map(|f| f.to_string()).collect(),
            ..Cfg::default()
        }
    }

    fn eval(cfg: &Cfg, text: &str) -> String {
        match cfg.eval(&syn::parse_str(text).unwrap()) {
            Value::On => "on".into(),
            Value::Off => "off".into(),
            Value::Open(m) => m.to_token_stream().to_string().replace(' ', ""),
        }
    }

    #[test]
    fn features_and_test_are_decided_the_rest_is_left_open() {
        let c = cfg(&["std"]);
        assert_eq!(eval(&c, "test"), "off");
        assert_eq!(eval(&c, "doctest"), "off");
        assert_eq!(eval(&c, "not(doctest)"), "on");
        assert_eq!(eval(&c, "feature = \"std\""), "on");
        assert_eq!(eval(&c, "feature = \"alloc\""), "off");
        assert_eq!(eval(&c, "not(feature = \"alloc\")"), "on");
        assert_eq!(eval(&c, "all(feature = \"std\", unix)"), "unix");
        assert_eq!(eval(&c, "all(feature = \"alloc\", unix)"), "off");
        assert_eq!(eval(&c, "any(feature = \"std\", unix)"), "on");
        assert_eq!(
            eval(&c, "any(feature = \"alloc\", unix, windows)"),
            "any(unix,windows)"
        );
        assert_eq!(eval(&c, "not(all(test, unix))"), "on");
        assert_eq!(eval(&c, "debug_assertions"), "debug_assertions");
    }

    #[test]
    fn cfgs_a_build_script_set_are_on_names_rustc_never_sets_are_off() {
        let c = Cfg {
            set: ["has_total_cmp".to_string(), r#"digits="64""#.to_string()].into(),
            ..Cfg::default()
        };
        assert_eq!(eval(&c, "has_total_cmp"), "on");
        assert_eq!(eval(&c, "not(has_total_cmp)"), "off");
        assert_eq!(eval(&c, "digits = \"64\""), "on");
        assert_eq!(eval(&c, "digits = \"32\""), "off");
        assert_eq!(eval(&c, "has_i128"), "off");
        assert_eq!(eval(&c, "all(has_total_cmp, unix)"), "unix");
        // zerocopy's `#[cfg(any(test, kani))] mod tests`: plain rustc sets neither.
        assert_eq!(eval(&c, "any(test, kani)"), "off");
        assert_eq!(eval(&c, "not(docsrs)"), "on");
        // What rustc sets for some target or toolchain is left to BOJ's.
        assert_eq!(
            eval(&c, "any(target_has_atomic = \"64\", miri, overflow_checks)"),
            "any(target_has_atomic=\"64\",miri,overflow_checks)"
        );
    }

    #[test]
    fn attributes_are_settled_in_place() {
        let c = cfg(&["std"]);
        let mut attrs: Vec<Attribute> = vec![
            parse_quote!(#[cfg(feature = "std")]),
            parse_quote!(#[cfg_attr(feature = "std", derive(Debug), inline)]),
            parse_quote!(#[cfg_attr(feature = "alloc", derive(Clone))]),
            parse_quote!(#[cfg(all(feature = "std", unix))]),
        ];
        assert!(c.settle(&mut attrs));
        let text: Vec<String> = attrs
            .iter()
            .map(|a| a.to_token_stream().to_string().replace(' ', ""))
            .collect();
        assert_eq!(text, ["#[derive(Debug)]", "#[inline]", "#[cfg(unix)]"]);
        let mut off: Vec<Attribute> = vec![parse_quote!(#[cfg(not(feature = "std"))])];
        assert!(!c.settle(&mut off));
    }
}
