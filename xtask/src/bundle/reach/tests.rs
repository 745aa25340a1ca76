//! Unit tests by fixture: a small bundle as source text, pruned from its `main`, and what stays
//! of it, one line per item, member and `use` leaf.

use std::collections::BTreeSet;

use quote::ToTokens;
use syn::{ImplItem, Item, TraitItem, UseTree};

use super::*;
use crate::bundle::macro_origin::{macro_uses, MacroUse};

/// What stays of `source` pruned with `levels` (library module -> level): a line per item,
/// `MODULE: WHAT` (`crate: fn main`, `lib::inner: struct Dsu`), and per impl or trait member
/// (`lib: impl Dsu: fn merge`), per `use` leaf (`crate: use crate::lib::Dsu`) and per
/// item-position macro call (`lib: impl_ops!(Meters)`).
///
/// Item by item, it is also what stays when each library is read only once the solution may
/// reach it ([`read_as_needed`]): every fixture holds the bundler's lazy reading to the
/// whole one.
fn kept_at(source: &str, levels: &[(&str, Level)]) -> BTreeSet<String> {
    kept_with_own(source, levels, &[])
}

/// [`kept_at`] with the modules at the root named in `own` the solution's own, not libraries.
fn kept_with_own(source: &str, levels: &[(&str, Level)], own: &[&str]) -> BTreeSet<String> {
    let own: BTreeSet<String> = own.iter().map(|m| m.to_string()).collect();
    let mut file: syn::File = syn::parse_str(source).expect("the fixture parses");
    let unpruned = file.items.clone();
    let item_by_item = levels.is_empty();
    let levels = levels.iter().map(|(m, l)| (m.to_string(), *l)).collect();
    prune(&mut file.items, &levels, &own).expect("nothing refused");
    let mut out = BTreeSet::new();
    describe(&file.items, "crate", &mut out);
    if item_by_item {
        let (items, _) = read_as_needed(&unpruned, &own).expect("nothing refused");
        let mut lazily = BTreeSet::new();
        describe(&items, "crate", &mut lazily);
        assert_eq!(
            lazily, out,
            "reading libraries as needed keeps something else"
        );
    }
    out
}

/// [`prune_read`] as the bundler runs it: every module at the root but the solution's `own`
/// (each a crate of its own to the graph) left unread ([`unloaded`]) until a pruning asks for
/// it. The pruned items and the modules read.
fn read_as_needed(
    items: &[Item],
    own: &BTreeSet<String>,
) -> Result<(Vec<Item>, BTreeSet<String>), Refusal> {
    let mut read = BTreeSet::new();
    loop {
        let mut trial: Vec<Item> = items
            .iter()
            .map(|item| match item {
                Item::Mod(m)
                    if refusal_of(&m.attrs).is_none() && !own.contains(&m.ident.to_string()) =>
                {
                    if read.contains(&m.ident.to_string()) {
                        item.clone()
                    } else {
                        let inner = m.content.as_ref().map(|(_, items)| &items[..]);
                        let at_root = crate::bundle::macros::exported_names(inner.unwrap_or(&[]));
                        unloaded(&m.ident, &at_root)
                    }
                }
                _ => item.clone(),
            })
            .collect();
        let needed = prune_read(&mut trial, own)?;
        if needed.is_empty() {
            return Ok((trial, read));
        }
        assert!(
            !needed.is_subset(&read),
            "asked again for {needed:?}, read already"
        );
        read.extend(needed);
    }
}

fn kept(source: &str) -> BTreeSet<String> {
    kept_at(source, &[])
}

/// The lines `kept` gives, from string literals.
fn lines(expected: &[&str]) -> BTreeSet<String> {
    expected.iter().map(|s| s.to_string()).collect()
}

fn describe(items: &[Item], module: &str, out: &mut BTreeSet<String>) {
    let at = |what: String| format!("{module}: {what}");
    for item in items {
        let line = match item {
            Item::Fn(f) => format!("fn {}", f.sig.ident),
            Item::Struct(s) => format!("struct {}", s.ident),
            Item::Enum(e) => format!("enum {}", e.ident),
            Item::Union(u) => format!("union {}", u.ident),
            Item::Type(t) => format!("type {}", t.ident),
            Item::Const(c) => format!("const {}", c.ident),
            Item::Static(s) => format!("static {}", s.ident),
            Item::Macro(m) => match &m.ident {
                Some(name) => format!("macro_rules! {name}"),
                None => format!(
                    "{}!({})",
                    m.mac.path.to_token_stream().to_string().replace(' ', ""),
                    m.mac.tokens
                ),
            },
            Item::Use(u) => {
                let mut leaves = Vec::new();
                use_leaves(&u.tree, String::new(), &mut leaves);
                out.extend(leaves.into_iter().map(|leaf| at(format!("use {leaf}"))));
                continue;
            }
            Item::Trait(t) => {
                let header = format!("trait {}", t.ident);
                for member in &t.items {
                    out.insert(at(format!("{header}: {}", trait_member(member))));
                }
                header
            }
            Item::Impl(imp) => {
                let header = impl_header(imp);
                for member in &imp.items {
                    out.insert(at(format!("{header}: {}", impl_member(member))));
                }
                header
            }
            Item::Mod(m) => {
                let inner = match module {
                    "crate" => m.ident.to_string(),
                    _ => format!("{module}::{}", m.ident),
                };
                if let Some((_, items)) = &m.content {
                    describe(items, &inner, out);
                }
                format!("mod {}", m.ident)
            }
            other => format!("other {}", other.to_token_stream()),
        };
        out.insert(at(line));
    }
}

/// `impl<T> Ext for [T]`, as prettyplease writes it.
fn impl_header(imp: &syn::ItemImpl) -> String {
    let mut header = imp.clone();
    header.attrs.clear();
    header.items.clear();
    let text = prettyplease::unparse(&syn::File {
        shebang: None,
        attrs: Vec::new(),
        items: vec![Item::Impl(header)],
    });
    text.trim_end().trim_end_matches("{}").trim_end().to_owned()
}

fn trait_member(member: &TraitItem) -> String {
    match member {
        TraitItem::Fn(f) => format!("fn {}", f.sig.ident),
        TraitItem::Const(c) => format!("const {}", c.ident),
        TraitItem::Type(t) => format!("type {}", t.ident),
        other => format!("other {}", other.to_token_stream()),
    }
}

fn impl_member(member: &ImplItem) -> String {
    match member {
        ImplItem::Fn(f) => format!("fn {}", f.sig.ident),
        ImplItem::Const(c) => format!("const {}", c.ident),
        ImplItem::Type(t) => format!("type {}", t.ident),
        other => format!("other {}", other.to_token_stream()),
    }
}

/// The paths of a `use` tree's leaves (`a::b as c`, `a::*`).
fn use_leaves(tree: &UseTree, prefix: String, out: &mut Vec<String>) {
    match tree {
        UseTree::Path(p) => use_leaves(&p.tree, format!("{prefix}{}::", p.ident), out),
        UseTree::Name(n) => out.push(format!("{prefix}{}", n.ident)),
        UseTree::Rename(r) => out.push(format!("{prefix}{} as {}", r.ident, r.rename)),
        UseTree::Glob(_) => out.push(format!("{prefix}*")),
        UseTree::Group(g) => {
            for tree in &g.items {
                use_leaves(tree, prefix.clone(), out);
            }
        }
    }
}

/// The bundle `source` pruned, as prettyplease writes it.
fn pruned(source: &str) -> String {
    let mut file: syn::File = syn::parse_str(source).expect("the fixture parses");
    prune(&mut file.items, &BTreeMap::new(), &BTreeSet::new()).expect("nothing refused");
    prettyplease::unparse(&file)
}

#[test]
fn a_function_reached_through_a_pub_use_chain_keeps_each_link() {
    let kept = kept(
        "use crate::lib::solve;
         fn main() { solve(); }
         mod lib {
             pub use self::algo::solve;
             pub use self::algo::unused;
             pub use self::shapes::Square;
             pub mod algo {
                 pub use self::inner::solve;
                 pub fn unused() {}
                 mod inner {
                     pub fn solve() { helper() }
                     fn helper() {}
                     pub fn not_called() {}
                 }
             }
             pub mod shapes { pub struct Square; }
         }",
    );
    let expected = lines(&[
        "crate: use crate::lib::solve",
        "crate: fn main",
        "crate: mod lib",
        "lib: use self::algo::solve",
        "lib: mod algo",
        "lib::algo: use self::inner::solve",
        "lib::algo: mod inner",
        "lib::algo::inner: fn solve",
        "lib::algo::inner: fn helper",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn an_unused_sibling_goes_whatever_its_kind() {
    let kept = kept(
        "fn main() { lib::used(); }
         mod lib {
             pub fn used() -> u32 { LIMIT }
             const LIMIT: u32 = 3;
             pub fn unused() {}
             pub struct Unused;
             pub enum UnusedEnum { A }
             pub union UnusedUnion { a: u8 }
             pub const UNUSED: u8 = 0;
             pub static UNUSED_STATIC: u8 = 0;
             pub type UnusedAlias = u8;
             pub trait UnusedTrait { fn f(&self); }
             macro_rules! unused_macro { () => {}; }
             pub mod unused_module { pub fn f() {} }
             const _: () = ();
         }",
    );
    let expected = lines(&[
        "crate: fn main",
        "crate: mod lib",
        "lib: fn used",
        "lib: const LIMIT",
        // Nothing names it, and it may check something at compile time: always kept.
        "lib: const _",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn a_struct_keeps_only_the_inherent_methods_called() {
    let kept = kept(
        "use crate::lib::Dsu;
         fn main() { let mut d = Dsu::new(3); d.merge(0, 1); }
         mod lib {
             pub struct Dsu { parent: Vec<usize> }
             impl Dsu {
                 pub fn new(n: usize) -> Self { Dsu { parent: (0..n).collect() } }
                 pub fn merge(&mut self, a: usize, b: usize) { let r = self.leader(a); self.parent[r] = b; }
                 fn leader(&self, a: usize) -> usize { a }
                 pub fn groups(&self) -> usize { 0 }
             }
             pub struct Unused;
             impl Unused { pub fn new() -> Self { Unused } }
         }",
    );
    let expected = lines(&[
        "crate: use crate::lib::Dsu",
        "crate: fn main",
        "crate: mod lib",
        "lib: struct Dsu",
        "lib: impl Dsu",
        "lib: impl Dsu: fn new",
        "lib: impl Dsu: fn merge",
        "lib: impl Dsu: fn leader",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn an_extension_trait_stays_for_a_method_call_on_a_kept_type() {
    let kept = kept(
        "use crate::lib::{Double, Meters};
         fn main() { let m = Meters(1); m.double(); }
         mod lib {
             pub struct Meters(pub i64);
             pub struct Feet(pub i64);
             pub trait Double { fn double(&self) -> Self; }
             impl Double for Meters { fn double(&self) -> Self { Meters(self.0 * 2) } }
             impl Double for Feet { fn double(&self) -> Self { Feet(self.0 * 2) } }
             pub trait Halve { fn halve(&self) -> Self; }
             impl Halve for Meters { fn halve(&self) -> Self { Meters(self.0 / 2) } }
         }",
    );
    let expected = lines(&[
        "crate: use crate::lib::Double",
        "crate: use crate::lib::Meters",
        "crate: fn main",
        "crate: mod lib",
        "lib: struct Meters",
        "lib: trait Double",
        "lib: trait Double: fn double",
        "lib: impl Double for Meters",
        "lib: impl Double for Meters: fn double",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn an_extension_trait_stays_for_a_method_call_where_it_is_in_scope() {
    let kept = kept(
        "use crate::lib::Ext;
         fn main() { let v = [1, 2]; v.lower(&1); }
         mod lib {
             pub trait Ext {
                 fn lower(&self, x: &u8) -> usize;
                 fn unused_provided(&self) -> u8 { helper() }
             }
             impl<T> Ext for [T] { fn lower(&self, x: &u8) -> usize { 0 } }
             fn helper() -> u8 { 1 }
             pub trait Elsewhere { fn lower(&self, x: &u8) -> usize; }
             impl<T> Elsewhere for Vec<T> { fn lower(&self, x: &u8) -> usize { 1 } }
         }",
    );
    // A provided method nobody calls goes, and what only it used; a trait with a method of the
    // same name that is in scope nowhere the name is called goes.
    let expected = lines(&[
        "crate: use crate::lib::Ext",
        "crate: fn main",
        "crate: mod lib",
        "lib: trait Ext",
        "lib: trait Ext: fn lower",
        "lib: impl<T> Ext for [T]",
        "lib: impl<T> Ext for [T]: fn lower",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn a_blanket_impl_goes_with_its_trait() {
    let kept = kept(
        "use crate::lib::{Hide, Show};
         fn main() { 5u8.show(); }
         mod lib {
             pub trait Show { fn show(&self) -> String; }
             impl<T: std::fmt::Debug> Show for T { fn show(&self) -> String { format!(\"{:?}\", self) } }
             pub trait Hide { fn hide(&self); }
             impl<T> Hide for T { fn hide(&self) {} }
         }",
    );
    let expected = lines(&[
        "crate: use crate::lib::Show",
        "crate: fn main",
        "crate: mod lib",
        "lib: trait Show",
        "lib: trait Show: fn show",
        "lib: impl<T: std::fmt::Debug> Show for T",
        "lib: impl<T: std::fmt::Debug> Show for T: fn show",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn a_use_of_a_kept_trait_stays_though_nothing_names_it() {
    let kept = kept(
        "use crate::lib::Shape;
         use crate::lib::Unrelated;
         use std::fmt::Write;
         use std::mem::swap;
         fn main() { let s = lib::Square(2); s.area(); }
         mod lib {
             pub trait Shape { fn area(&self) -> u32; }
             pub struct Square(pub u32);
             impl Shape for Square { fn area(&self) -> u32 { self.0 * self.0 } }
             pub trait Unrelated { fn other(&self); }
         }",
    );
    // `Shape` is in scope for `.area()` only through its `use`; `Write` may be a trait of std's
    // that a method call needs, so it stays too; `swap` is named nowhere.
    let expected = lines(&[
        "crate: use crate::lib::Shape",
        "crate: use std::fmt::Write",
        "crate: fn main",
        "crate: mod lib",
        "lib: trait Shape",
        "lib: trait Shape: fn area",
        "lib: struct Square",
        "lib: impl Shape for Square",
        "lib: impl Shape for Square: fn area",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn a_glob_stays_when_a_name_is_found_through_it() {
    let kept = kept(
        "use crate::lib::*;
         use crate::elsewhere::*;
         fn main() { helper(); }
         mod lib { pub fn helper() {} pub fn other() {} }
         mod elsewhere { pub fn nothing() {} }",
    );
    let expected = lines(&[
        "crate: use crate::lib::*",
        "crate: fn main",
        "crate: mod lib",
        "lib: fn helper",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn a_glob_that_brings_a_live_trait_stays() {
    let kept = kept(
        "use crate::lib::*;
         fn main() { 5u8.twice(); }
         mod lib {
             pub use self::ext::Twice;
             mod ext {
                 pub trait Twice { fn twice(self) -> Self; }
                 impl Twice for u8 { fn twice(self) -> u8 { self * 2 } }
             }
         }",
    );
    let expected = lines(&[
        "crate: use crate::lib::*",
        "crate: fn main",
        "crate: mod lib",
        "lib: use self::ext::Twice",
        "lib: mod ext",
        "lib::ext: trait Twice",
        "lib::ext: trait Twice: fn twice",
        "lib::ext: impl Twice for u8",
        "lib::ext: impl Twice for u8: fn twice",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn super_self_and_crate_paths_resolve_from_their_module() {
    let kept = kept(
        "fn main() { crate::lib::a::run(); }
         mod lib {
             pub fn top() {}
             pub fn top_unused() {}
             pub mod a {
                 pub fn run() { super::top(); self::b::inner(); crate::lib::c::far(); }
                 pub mod b {
                     pub fn inner() { super::super::deep(); }
                     pub fn inner_unused() {}
                 }
             }
             pub fn deep() {}
             pub mod c { pub fn far() {} pub fn near() {} }
         }",
    );
    let expected = lines(&[
        "crate: fn main",
        "crate: mod lib",
        "lib: fn top",
        "lib: fn deep",
        "lib: mod a",
        "lib::a: fn run",
        "lib::a: mod b",
        "lib::a::b: fn inner",
        "lib: mod c",
        "lib::c: fn far",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn a_macro_call_stays_when_it_names_a_kept_type() {
    let kept = kept(
        "use crate::lib::{Double, Meters};
         fn main() { Meters(2).double(); }
         mod lib {
             pub trait Double { fn double(self) -> Self; }
             macro_rules! impl_double {
                 ($t:ident) => { impl Double for $t { fn double(self) -> Self { $t(self.0 * 2) } } };
             }
             pub struct Meters(pub i64);
             pub struct Feet(pub i64);
             impl_double!(Meters);
             impl_double!(Feet);
         }",
    );
    let expected = lines(&[
        "crate: use crate::lib::Double",
        "crate: use crate::lib::Meters",
        "crate: fn main",
        "crate: mod lib",
        "lib: trait Double",
        "lib: trait Double: fn double",
        "lib: macro_rules! impl_double",
        "lib: struct Meters",
        "lib: impl_double!(Meters)",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn the_name_an_item_defines_is_no_use_of_a_namesake() {
    // num-traits' `Zero::zero` beside its free `fn zero`: defining the method calls nothing.
    let kept = kept(
        "use crate::lib::Zero;
         fn main() { u8::zero(); }
         mod lib {
             pub trait Zero { fn zero() -> Self; }
             impl Zero for u8 { fn zero() -> u8 { 0 } }
             pub fn zero<T: Zero>() -> T { T::zero() }
             pub struct Unused;
             impl Unused { pub fn zero(&self) {} }
         }",
    );
    let expected = lines(&[
        "crate: use crate::lib::Zero",
        "crate: fn main",
        "crate: mod lib",
        "lib: trait Zero",
        "lib: trait Zero: fn zero",
        "lib: impl Zero for u8",
        "lib: impl Zero for u8: fn zero",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn a_macro_call_stays_when_it_defines_a_name_looked_for() {
    // num-bigint's `cfg_64!(fn adc(...) { ... })`, whose plain twin for other targets the
    // bundle's `cfg` step has removed: no item defines `adc`, the call does.
    let kept = kept(
        "fn main() { lib::adc(); }
         mod lib {
             macro_rules! on_64 { ($($item:item)*) => { $($item)* }; }
             on_64!(pub fn adc() -> u8 { 1 });
             on_64!(pub fn sbb() -> u8 { 2 });
         }",
    );
    let expected = lines(&[
        "crate: fn main",
        "crate: mod lib",
        "lib: macro_rules! on_64",
        "lib: on_64!(pub fn adc () -> u8 { 1 })",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn an_exported_macro_is_reached_by_its_path_from_the_root() {
    let kept = kept(
        "fn main() { let x = crate::square!(3); }
         mod lib {
             #[macro_export]
             macro_rules! square { ($x:expr) => { $crate::lib::times($x, $x) }; }
             #[macro_export]
             macro_rules! cube { ($x:expr) => { $x * $x * $x }; }
             pub fn times(a: u32, b: u32) -> u32 { a * b }
             pub fn unused() {}
         }",
    );
    let expected = lines(&[
        "crate: fn main",
        "crate: mod lib",
        "lib: macro_rules! square",
        "lib: fn times",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn an_impl_stays_only_when_every_type_it_is_about_is_live() {
    let kept = kept(
        "fn main() { let m = lib::Meters(1); let x: f64 = m.into(); }
         mod lib {
             pub struct Meters(pub i64);
             pub struct Big;
             pub struct Ratio<T>(T);
             impl From<Meters> for f64 { fn from(m: Meters) -> f64 { m.0 as f64 } }
             impl From<Big> for f64 { fn from(b: Big) -> f64 { 0.0 } }
             impl From<Meters> for Ratio<Big> { fn from(m: Meters) -> Self { Ratio(Big) } }
         }",
    );
    let expected = lines(&[
        "crate: fn main",
        "crate: mod lib",
        "lib: struct Meters",
        "lib: impl From<Meters> for f64",
        "lib: impl From<Meters> for f64: fn from",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn a_type_alias_is_a_type_an_impl_can_be_about() {
    // Read as no type at all, the alias would leave each impl about nothing of the bundle, so
    // both would stay with their trait.
    let kept = kept(
        "use crate::lib::{Len, Show};
         fn main() { let x: Len = 3; x.show(); }
         mod lib {
             pub type Len = u32;
             pub type Unused = u64;
             pub trait Show { fn show(&self); }
             impl Show for Len { fn show(&self) {} }
             impl Show for Unused { fn show(&self) {} }
         }",
    );
    let expected = lines(&[
        "crate: use crate::lib::Len",
        "crate: use crate::lib::Show",
        "crate: fn main",
        "crate: mod lib",
        "lib: type Len",
        "lib: trait Show",
        "lib: trait Show: fn show",
        "lib: impl Show for Len",
        "lib: impl Show for Len: fn show",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn leaves_and_members_are_pruned_by_their_own_place() {
    // Same names in different places: each leaf and member goes by its own node.
    let out = pruned(
        "use crate::lib::{a::{one, two}, b::{one as b_one, two as b_two}};
         fn main() { two(); b_two(); lib::S.two(); }
         mod lib {
             pub mod a { pub fn one() {} pub fn two() {} }
             pub mod b { pub fn one() {} pub fn two() {} }
             pub struct S;
             impl S { pub fn one(&self) {} pub fn two(&self) {} }
         }",
    );
    assert!(
        out.contains("use crate::lib::{\n    a::two,\n    b::two as b_two,\n};"),
        "{out}"
    );
    assert!(
        out.contains("pub mod a {\n        pub fn two() {}\n    }"),
        "{out}"
    );
    assert!(
        out.contains("pub mod b {\n        pub fn two() {}\n    }"),
        "{out}"
    );
    assert!(
        out.contains("impl S {\n        pub fn two(&self) {}\n    }"),
        "{out}"
    );
}

#[test]
fn wider_levels_keep_whole_modules_then_whole_crates() {
    let source = "fn main() { lib::used(); }
         mod lib {
             pub fn used() {}
             pub fn unused() {}
             pub mod inner { pub fn deeper() {} }
         }";
    let items = lines(&["crate: fn main", "crate: mod lib", "lib: fn used"]);
    assert_eq!(kept(source), items);
    // A module nothing uses still goes.
    let modules = lines(&[
        "crate: fn main",
        "crate: mod lib",
        "lib: fn used",
        "lib: fn unused",
    ]);
    assert_eq!(kept_at(source, &[("lib", Level::Modules)]), modules);
    let whole = lines(&[
        "crate: fn main",
        "crate: mod lib",
        "lib: fn used",
        "lib: fn unused",
        "lib: mod inner",
        "lib::inner: fn deeper",
    ]);
    assert_eq!(kept_at(source, &[("lib", Level::Crate)]), whole);
}

#[test]
fn wider_levels_for_the_solution_keep_its_own_code_and_leave_the_libraries_alone() {
    let source = "fn main() { mine::used(); lib::used(); }
         fn unused_here() {}
         mod mine {
             pub fn used() {}
             pub fn unused() {}
             pub mod inner { pub fn deeper() {} }
         }
         mod lib { pub fn used() {} pub fn unused() {} }";
    let own = ["mine"];
    let itemwise = kept_with_own(source, &[], &own);
    assert!(!itemwise.contains("crate: fn unused_here"), "{itemwise:#?}");
    assert!(!itemwise.contains("mine: fn unused"), "{itemwise:#?}");
    let whole = kept_with_own(source, &[(SOLUTION, Level::Crate)], &own);
    let expected = lines(&[
        "crate: fn main",
        "crate: fn unused_here",
        "crate: mod mine",
        "mine: fn used",
        "mine: fn unused",
        "mine: mod inner",
        "mine::inner: fn deeper",
        "crate: mod lib",
        "lib: fn used",
    ]);
    assert_eq!(whole, expected);
}

/// What `prune` says of `source`: the refusal, when `main` reaches a stand-in.
fn refused(source: &str) -> Option<Refusal> {
    let mut file: syn::File = syn::parse_str(source).expect("the fixture parses");
    let lazily = read_as_needed(&file.items, &BTreeSet::new()).err();
    let refusal = prune(&mut file.items, &BTreeMap::new(), &BTreeSet::new()).err();
    assert_eq!(
        lazily.as_ref().map(ToString::to_string),
        refusal.as_ref().map(ToString::to_string),
        "reading libraries as needed refuses otherwise"
    );
    refusal
}

#[test]
fn a_library_is_read_only_when_the_solution_may_reach_it() {
    // `big` is used only by a function of `lib` that `main` never calls (rand's libc, used by
    // its `OsRng`); `small` by one it calls; `globbed` through the glob of a module that keeps
    // nothing of its own; `traits` for a method of a trait a glob brings into scope, in a
    // module in which no name is looked up.
    let source = "
        mod lib {
            pub struct Foo;
            pub fn used() -> u32 { crate::small::one() }
            pub fn unused() -> u32 { crate::big::lots() }
            pub mod reexports {
                pub use crate::globbed::deeper::*;
            }
            pub mod methods {
                use crate::traits::*;
                impl crate::lib::Foo { pub fn three(&self) { 1u8.thrice(); } }
            }
        }
        mod small { pub fn one() -> u32 { 1 } }
        mod big { pub fn lots() -> u32 { 1000 } pub fn more() {} }
        mod globbed {
            pub mod deeper { pub fn twice(x: u32) -> u32 { 2 * x } pub fn unused() {} }
        }
        mod traits {
            pub trait Thrice { fn thrice(self); }
            impl Thrice for u8 { fn thrice(self) {} }
        }
        mod never { pub trait Thrice { fn thrice(self); } }
        fn main() { lib::used(); lib::reexports::twice(2); lib::Foo.three(); }
    ";
    let file: syn::File = syn::parse_str(source).expect("the fixture parses");
    let (_, read) = read_as_needed(&file.items, &BTreeSet::new()).expect("nothing refused");
    let read: Vec<&str> = read.iter().map(String::as_str).collect();
    assert_eq!(read, ["globbed", "lib", "small", "traits"]);
    assert_eq!(
        kept(source),
        lines(&[
            "crate: fn main",
            "crate: mod globbed",
            "crate: mod lib",
            "crate: mod small",
            "crate: mod traits",
            "globbed: mod deeper",
            "globbed::deeper: fn twice",
            "lib: fn used",
            "lib: mod methods",
            "lib: mod reexports",
            "lib: struct Foo",
            "lib::methods: impl crate::lib::Foo",
            "lib::methods: impl crate::lib::Foo: fn three",
            "lib::methods: use crate::traits::*",
            "lib::reexports: use crate::globbed::deeper::*",
            "small: fn one",
            "traits: impl Thrice for u8",
            "traits: impl Thrice for u8: fn thrice",
            "traits: trait Thrice",
            "traits: trait Thrice: fn thrice",
        ])
    );
}

#[test]
fn what_cannot_be_bundled_is_no_reason_to_refuse_until_main_reaches_it() {
    // `pm` stands in for a proc-macro crate (deprecate-until in pathfinding): only the
    // deprecated function uses it, and only the refused solution calls that.
    let library = "mod lib {
             pub fn used() {}
             #[crate::pm::deprecate_until(note = \"old\")]
             pub fn deprecated() { used() }
             pub mod matrix {
                 use crate::pm::deprecate_until;
                 pub struct Matrix;
                 impl Matrix {
                     pub fn new() -> Self { Matrix }
                     #[deprecate_until(note = \"old\")]
                     pub fn rotated(&self) -> Self { Matrix }
                 }
             }
         }
         #[__bundle_refused = \"crate pm 1.0.0 is a proc-macro crate\"]
         pub mod pm {}";
    let fine = format!("fn main() {{ lib::used(); lib::matrix::Matrix::new(); }} {library}");
    assert_eq!(refused(&fine), None);
    let kept = kept(&fine);
    assert!(!kept.iter().any(|k| k.contains("pm")), "{kept:?}");
    let reaching = format!("fn main() {{ lib::matrix::Matrix::new().rotated(); }} {library}");
    let refusal = refused(&reaching).expect("main reaches pm");
    assert_eq!(refusal.reason, "crate pm 1.0.0 is a proc-macro crate");
    assert_eq!(
        refusal.chain,
        [
            "main",
            "lib::matrix::impl Matrix::rotated",
            "pm (#[deprecate_until])"
        ]
    );
    assert!(refusal.to_string().ends_with(
        "the solution reaches it: main → lib::matrix::impl Matrix::rotated → pm \
         (#[deprecate_until])"
    ));
}

#[test]
fn an_impl_of_a_trait_that_cannot_be_bundled_goes_with_it() {
    // multimap's `impl Serialize for MultiMap`, with serde refused: never needed, never kept.
    let kept = kept(
        "fn main() { lib::MultiMap::new(); }
         mod lib {
             pub struct MultiMap;
             impl MultiMap { pub fn new() -> Self { MultiMap } }
             pub mod serde_impl {
                 use crate::serde::Serialize;
                 use crate::lib::MultiMap;
                 impl Serialize for MultiMap { fn serialize(&self) {} }
             }
         }
         #[__bundle_refused = \"serde has a build script that generates code\"]
         pub mod serde {}",
    );
    let expected = lines(&[
        "crate: fn main",
        "crate: mod lib",
        "lib: struct MultiMap",
        "lib: impl MultiMap",
        "lib: impl MultiMap: fn new",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn a_use_in_a_block_is_followed_group_glob_and_rename_alike() {
    // regex's `use crate::util::{debug::DebugByte, ...}` inside a function: each leaf is a path
    // from the crate, not from where its last segments would lead alone.
    let kept = kept(
        "fn main() { lib::run(); }
         mod lib {
             pub fn run() {
                 use crate::lib::util::{debug::DebugByte, int::U32 as Word};
                 use self::all::*;
                 DebugByte::show(); Word::max(); helper();
             }
             pub mod util {
                 pub mod debug { pub struct DebugByte; impl DebugByte { pub fn show() {} } }
                 pub mod int { pub struct U32; impl U32 { pub fn max() {} } pub struct U64; }
             }
             pub mod all { pub fn helper() {} pub fn other() {} }
             pub mod debug { pub struct DebugByte; }
         }",
    );
    let expected = lines(&[
        "crate: fn main",
        "crate: mod lib",
        "lib: fn run",
        "lib: mod util",
        "lib::util: mod debug",
        "lib::util::debug: struct DebugByte",
        "lib::util::debug: impl DebugByte",
        "lib::util::debug: impl DebugByte: fn show",
        "lib::util: mod int",
        "lib::util::int: struct U32",
        "lib::util::int: impl U32",
        "lib::util::int: impl U32: fn max",
        "lib: mod all",
        "lib::all: fn helper",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn raw_identifiers_name_what_they_name_unraw() {
    let kept = kept(
        "fn main() { lib::r#ref::get(); }
         mod lib {
             pub mod r#ref { pub fn get() { super::r#type::make(); } pub fn unused() {} }
             pub mod r#type { pub fn make() {} }
         }",
    );
    let expected = lines(&[
        "crate: fn main",
        "crate: mod lib",
        "lib: mod r#ref",
        "lib::r#ref: fn get",
        "lib: mod r#type",
        "lib::r#type: fn make",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn a_macro_call_is_not_kept_for_another_crates_types_it_names() {
    // rand_chacha's `chacha_impl!(ChaCha20Core, ...)` writes `Result<(), Error>` with
    // rand_core's `Error`, which a `Pcg64Mcg` solution keeps: that is no reason to keep ChaCha.
    let kept = kept(
        "use crate::core_lib::{Error, Rng};
         fn main() { let _e: Error = Error; }
         mod core_lib { pub struct Error; pub trait Rng { fn next(&mut self) -> Result<(), Error>; } }
         mod chacha {
             macro_rules! chacha_impl {
                 ($name:ident) => {
                     pub struct $name;
                     impl crate::core_lib::Rng for $name {
                         fn next(&mut self) -> Result<(), crate::core_lib::Error> { Ok(()) }
                     }
                 };
             }
             chacha_impl!(ChaCha20);
         }",
    );
    let expected = lines(&[
        "crate: use crate::core_lib::Error",
        "crate: fn main",
        "crate: mod core_lib",
        "core_lib: struct Error",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn a_path_after_a_range_is_a_path_not_a_method() {
    // bitvec's `0 .. mem::bits_of::<A>()`: `mem` is the module imported, not `.mem`.
    let kept = kept(
        "fn main() { let r = 0..lib::mem::bits(); let s = 1..=lib::mem::more(); }
         mod lib { pub mod mem { pub fn bits() -> u8 { 8 } pub fn more() -> u8 { 9 } } }",
    );
    let expected = lines(&[
        "crate: fn main",
        "crate: mod lib",
        "lib: mod mem",
        "lib::mem: fn bits",
        "lib::mem: fn more",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn a_macro_call_naming_types_stays_only_when_every_one_is_live() {
    // What a call writes is about the types it names, as an impl is: `impl_from!(Meters,
    // Feet)` writes `impl From<Feet> for Meters`, of no use without a `Feet` (sized-chunks and
    // bitmaps make such impls for many sizes of which im-rc uses two).
    let kept = kept(
        "use crate::lib::Meters;
         fn main() { let _ = Meters(1); }
         mod lib {
             pub struct Meters(pub i64);
             pub struct Feet(pub i64);
             macro_rules! impl_from {
                 ($to:ident, $from:ident) => { impl From<$from> for $to { fn from(x: $from) -> $to { $to(x.0) } } };
             }
             impl_from!(Meters, Feet);
             impl_from!(Meters, i64);
         }",
    );
    let expected = lines(&[
        "crate: use crate::lib::Meters",
        "crate: fn main",
        "crate: mod lib",
        "lib: struct Meters",
        "lib: macro_rules! impl_from",
        "lib: impl_from!(Meters , i64)",
    ]);
    assert_eq!(kept, expected);
}

#[test]
fn words_a_call_passes_are_looked_up_where_the_body_puts_them_in_a_path() {
    // typenum's `generate_tuple_impls! { U0, U1, ...; T0, T1, ...; }`, whose body writes
    // `$crate::typenum::$u`: `U1` is looked up in typenum's root, which its module does not
    // import.
    let kept = kept(
        "use crate::lib::tuple::Len;
         fn main() { 0u8.size(); }
         mod lib {
             pub type U0 = u8;
             pub type U1 = u16;
             pub type U2 = u32;
             pub mod tuple {
                 macro_rules! make { ($($u:ident),*) => { $(impl crate::lib::tuple::Len for crate::lib::$u {})* }; }
                 pub trait Len { fn size(&self) -> usize { 1 } }
                 make!(U0, U1);
             }
         }",
    );
    for name in ["lib: type U0", "lib: type U1"] {
        assert!(kept.contains(name), "{name} missing: {kept:#?}");
    }
    assert!(!kept.contains("lib: type U2"), "{kept:#?}");
}

#[test]
fn a_macro_call_stays_when_it_defines_a_name_after_static_ref_or_mut() {
    // lazy_static's `lazy_static! { static ref PASCAL: ... = ...; }`, called in the solution
    // through `use lazy_static::lazy_static;`: the call defines `PASCAL` (its macro writes
    // `struct $N` and `static $N`), which `main` looks for. Also `static mut`, which a
    // declaration macro's tokens may hold as they are.
    let kept = kept(
        "use crate::lazy::lazy_static;
         const ROWS: usize = 3;
         lazy_static! {
             static ref PASCAL: Vec<u64> = vec![1; ROWS];
             static ref SUMS: Vec<u64> = PASCAL.iter().copied().collect();
         }
         lazy_static! {
             static ref UNUSED: u8 = 0;
         }
         macro_rules! plain { ($($i:item)*) => { $($i)* }; }
         plain! { static mut COUNT: u32 = 0; }
         plain! { static mut OTHER: u32 = 0; }
         fn main() { let _ = PASCAL[0] + SUMS[0]; unsafe { COUNT += 1; } }
         mod lazy {
             pub struct Lazy<T>(pub T);
             #[macro_export]
             macro_rules! __lazy__internal {
                 (static ref $N:ident : $T:ty = $e:expr; $($t:tt)*) => {
                     struct $N { f: () }
                     static $N: $N = $N { f: () };
                     impl core::ops::Deref for $N {
                         type Target = $T;
                         fn deref(&self) -> &$T { let lazy: &$crate::lazy::Lazy<$T> = todo!(); &lazy.0 }
                     }
                     $crate::lazy::lazy_static!($($t)*);
                 };
                 () => ()
             }
             #[macro_export]
             macro_rules! __lazy__lazy_static {
                 ($($t:tt)*) => { $crate::lazy::__lazy_internal!($($t)*); };
             }
             pub use crate::__lazy__internal as __lazy_internal;
             pub use crate::__lazy__lazy_static as lazy_static;
         }",
    );
    for name in [
        "crate: const ROWS",
        "crate: use crate::lazy::lazy_static",
        "lazy: struct Lazy",
        "lazy: macro_rules! __lazy__internal",
    ] {
        assert!(kept.contains(name), "{name} missing: {kept:#?}");
    }
    let calls: Vec<&String> = kept.iter().filter(|k| k.contains("!(")).collect();
    assert_eq!(calls.len(), 2, "{calls:#?}");
    assert!(
        calls
            .iter()
            .any(|c| c.contains("PASCAL") && c.contains("SUMS")),
        "{calls:#?}"
    );
    assert!(calls.iter().any(|c| c.contains("COUNT")), "{calls:#?}");
}

#[test]
fn the_solutions_own_modules_share_its_macros() {
    // `#[macro_use] mod macros;` (a file of the solution's): `add!` in `main` is the module's
    // `macro_rules! add`, and `twice!` in `mod inner` the one defined above it at the root. A
    // library's namesake (`lib`, a crate of its own) is not what the solution's bare `add!`
    // calls.
    let source = "#[macro_use]
         mod macros {
             macro_rules! add { ($a:expr, $b:expr) => { $a + $b }; }
             macro_rules! unused { () => {}; }
         }
         macro_rules! twice { ($x:expr) => { 2 * $x }; }
         mod inner { pub fn four() -> u32 { twice!(2) } }
         fn main() { let _ = add!(1, inner::four()); }
         mod lib { macro_rules! add { ($a:expr) => { $a }; } }";
    let expected = lines(&[
        "crate: mod macros",
        "macros: macro_rules! add",
        "crate: macro_rules! twice",
        "crate: mod inner",
        "inner: fn four",
        "crate: fn main",
    ]);
    assert_eq!(kept_with_own(source, &[], &["macros", "inner"]), expected);
    // Taken for libraries, the two modules are crates of their own, whose macros the root's
    // bare calls cannot mean: what made bundles lose a solution's own macros.
    let as_libraries = kept(source);
    assert!(
        !as_libraries.contains("macros: macro_rules! add"),
        "{as_libraries:#?}"
    );
    assert!(
        !as_libraries.contains("crate: macro_rules! twice"),
        "{as_libraries:#?}"
    );
}

#[test]
fn a_macro_call_stays_when_its_macro_defines_an_item_named_by_a_word_it_passes() {
    // The solution's `make_fn!(double)`, whose macro writes `fn $name`: the call defines
    // `double`, though no item keyword comes before the word in the call itself.
    let kept = kept(
        "macro_rules! make_fn { ($name:ident, $k:expr) => { fn $name(x: u32) -> u32 { x * $k } }; }
         make_fn!(double, 2);
         make_fn!(triple, 3);
         fn main() { let _ = double(1); let _ = crate::lib::Meters(1); }
         mod lib {
             macro_rules! newtype { ($t:ident) => { pub struct $t(pub i64); }; }
             newtype!(Meters);
             newtype!(Feet);
         }",
    );
    let expected = lines(&[
        "crate: macro_rules! make_fn",
        "crate: make_fn!(double , 2)",
        "crate: fn main",
        "crate: mod lib",
        "lib: macro_rules! newtype",
        "lib: newtype!(Meters)",
    ]);
    assert_eq!(kept, expected);
}

/// A stand-in for the proc-macro crate `pm`, as the bundle marks it.
const PM: &str = "#[__bundle_refused = \"crate pm 1.0.0 is a proc-macro crate\"]
     #[__bundle_proc_macro = \"pm 1.0.0\"]
     pub mod pm {}";

#[test]
fn an_item_an_attribute_macro_rewrites_is_refused_when_its_names_are_used() {
    // easy-ext's `#[ext(ChMax)] impl i64 { fn chmax ... }` is a trait `ChMax` and its impl for
    // i64; as written, an inherent impl of a type from elsewhere, which no rule keeps. A call
    // of `chmax` reaches it, and it is refused by name; unused, it goes with nothing said.
    let source = |main: &str| {
        format!(
            "use crate::pm::ext;
             #[ext(ChMax)]
             impl i64 {{ fn chmax(&mut self, v: i64) -> bool {{ *self < v }} }}
             #[ext(Unused)]
             impl u8 {{ fn unused(&self) {{}} }}
             fn main() {{ {main} }}
             {PM}"
        )
    };
    let refusal = refused(&source("let mut x = 1i64; x.chmax(3);")).expect("refused");
    assert_eq!(refusal.reason, "crate pm 1.0.0 is a proc-macro crate");
    assert_eq!(
        refusal.chain,
        ["main", "impl i64::chmax", "impl i64", "pm (#[ext])"]
    );
    let also = refused(&source("let _ = <i64 as ChMax>::chmax;")).expect("refused");
    assert_eq!(also.chain.last().map(String::as_str), Some("pm (#[ext])"));
    assert_eq!(refused(&source("let x = 1i64;")), None);
    assert!(!kept(&source("let x = 1i64;"))
        .iter()
        .any(|k| k.contains("impl")));
}

#[test]
fn macros_through_a_glob_of_a_proc_macro_crate_are_refused_by_name() {
    // proconio's `pub use proconio_derive::*;`: `#[fastout]`, `#[derive_readable]` and a
    // function-like macro come through it, though a glob of a stand-in is otherwise not read.
    let library = format!(
        "mod lib {{
             pub use crate::pm::*;
             pub fn helper() -> u8 {{ 1 }}
         }}
         {PM}"
    );
    let cases = [
        (
            "use crate::lib::fastout; #[fastout] fn main() {}",
            "main",
            "#[fastout]",
        ),
        (
            "use crate::lib::derive_readable; #[derive_readable] struct P; fn main() { let _ = P; }",
            "P",
            "#[derive_readable]",
        ),
        (
            "use crate::lib::*; #[derive(Clone, Readable)] struct P; fn main() { let _ = P; }",
            "P",
            "#[derive(Readable)]",
        ),
        (
            "use crate::lib::*; fn main() { let _ = answer!(); }",
            "main",
            "answer!",
        ),
        (
            "fn main() { #[crate::lib::memoise] fn f() {} f(); }",
            "main",
            "#[crate::lib::memoise]",
        ),
    ];
    for (main, by, used) in cases {
        let refusal =
            refused(&format!("{main} {library}")).unwrap_or_else(|| panic!("not refused: {main}"));
        assert_eq!(
            refusal.reason, "crate pm 1.0.0 is a proc-macro crate",
            "{main}"
        );
        let last = refusal.chain.last().expect("a way");
        assert!(
            last.starts_with("pm (") && last.contains(used),
            "{main}: {refusal}"
        );
        assert!(refusal.chain.iter().any(|c| c == by), "{main}: {refusal}");
    }
    // std's, rustc's and the bundle's own need nothing from it.
    let fine = format!(
        "use crate::lib::*;
         #[derive(Clone, Debug)] #[inline] #[rustfmt::skip]
         fn main() {{ let v = vec![helper()]; println!(\"{{:?}}\", v); }}
         {library}"
    );
    assert_eq!(refused(&fine), None);
}

/// Where a proc macro is used in a bundle, and which proc-macro crate it comes from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct ProcMacroUse {
    /// The item that uses it, as messages name it (`crate::main`, `lib::inner::impl Dsu`).
    item: String,
    /// The macro, as written there.
    used: MacroUse,
    /// The stand-in module of the proc-macro crate it comes from (`proconio_derive`).
    module: String,
    /// That crate's package and version (`proconio-derive 0.2.1`).
    package: String,
}

/// Every macro of a proc-macro crate that the bundle `items` use, in any item, reached or not,
/// resolved by the graph as the reach resolves them.
fn proc_macro_uses(items: &[Item]) -> Vec<ProcMacroUse> {
    let graph = Graph::build(items, &BTreeMap::new(), &BTreeSet::new());
    let mut found = Vec::new();
    for (id, node) in graph.node_ids() {
        for used in macro_uses(&node.tokens) {
            let Some(stand_in) = graph.macro_origin(node.module(), &used) else {
                continue;
            };
            let Some(package) = graph[stand_in].proc_macro.clone() else {
                continue;
            };
            found.push(ProcMacroUse {
                item: graph.describe(id),
                used,
                module: graph.module_path(stand_in),
                package,
            });
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn proc_macro_uses_name_the_item_the_macro_and_its_crate() {
    let file: syn::File = syn::parse_str(&format!(
        "use crate::lib::{{fastout, derive_readable}};
         #[fastout] fn main() {{}}
         #[derive_readable] #[derive(Debug, FromPrimitive)] struct P;
         use crate::pm::FromPrimitive;
         mod lib {{ pub use crate::pm::*; #[crate::pm::deprecate_until] pub fn old() {{}} }}
         {PM}"
    ))
    .unwrap();
    let found: Vec<String> = proc_macro_uses(&file.items)
        .iter()
        .map(|u| {
            format!(
                "{}: {} from {} ({})",
                u.item,
                u.used.written(),
                u.module,
                u.package
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            "P: #[derive_readable] from pm (pm 1.0.0)",
            "P: #[derive(FromPrimitive)] from pm (pm 1.0.0)",
            "lib::old: #[crate::pm::deprecate_until] from pm (pm 1.0.0)",
            "main: #[fastout] from pm (pm 1.0.0)",
        ]
    );
}

#[test]
fn only_the_words_passed_where_the_rules_put_a_name_are_names_the_call_defines() {
    // itertools' `impl_tuple_combination!(Tuple2Combination Tuple1Combination; a)`: its rules
    // write `struct $C`, and `$C` is the first word; `a` only names a tuple's parts, though the
    // module's code has a local `a` (looked up as a path, as any name is). Taking every word
    // kept eleven such calls in an itertools bundle.
    let kept = kept(
        "fn main() { let _ = lib::first((1, 2)); }
         mod lib {
             pub fn first(pair: (u8, u8)) -> u8 { let (a, b) = pair; a + b }
             macro_rules! make_tuple {
                 ($C:ident $P:ident; $($X:ident)*) => { pub struct $C($($X),*); };
             }
             make_tuple!(Tuple2 Tuple1; a);
             make_tuple!(Pair Unit; a b);
         }",
    );
    let expected = lines(&["crate: fn main", "crate: mod lib", "lib: fn first"]);
    assert_eq!(kept, expected);
}
