//! Unit tests: a small bundle as source text, pruned from its `main`.

use super::*;

/// The bundle `source` pruned with `levels` (library module -> level), as text.
fn pruned_at(source: &str, levels: &[(&str, Level)]) -> String {
    let mut file: syn::File = syn::parse_str(source).unwrap();
    let levels = levels.iter().map(|(m, l)| (m.to_string(), *l)).collect();
    prune(&mut file.items, &levels);
    prettyplease::unparse(&file)
}

fn pruned(source: &str) -> String {
    pruned_at(source, &[])
}

#[test]
fn an_extension_trait_stays_for_a_method_call_where_it_is_in_scope() {
    let out = pruned(
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
    for kept in [
        "use crate::lib::Ext;",
        "pub trait Ext",
        "impl<T> Ext for [T]",
    ] {
        assert!(out.contains(kept), "`{kept}` missing:\n{out}");
    }
    // A provided method nobody calls goes, and what only it used; a trait with a method of
    // the same name that is in scope nowhere goes.
    for gone in ["unused_provided", "helper", "Elsewhere"] {
        assert!(!out.contains(gone), "`{gone}` survived:\n{out}");
    }
}

#[test]
fn a_glob_that_brings_a_live_trait_stays() {
    let out = pruned(
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
    for kept in [
        "use crate::lib::*;",
        "pub use self::ext::Twice;",
        "impl Twice for u8",
    ] {
        assert!(out.contains(kept), "`{kept}` missing:\n{out}");
    }
}

#[test]
fn an_impl_stays_only_when_every_type_it_is_about_is_live() {
    let out = pruned(
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
    assert!(out.contains("impl From<Meters> for f64"), "{out}");
    for gone in ["Big", "Ratio"] {
        assert!(!out.contains(gone), "`{gone}` survived:\n{out}");
    }
}

#[test]
fn a_macro_call_that_defines_a_name_looked_for_stays() {
    // `adc` by plain item is configured out on this target; the macro's is the one.
    let out = pruned(
        "fn main() { lib::adc(); }
         mod lib {
             macro_rules! on_64 { ($($item:item)*) => { $($item)* }; }
             on_64!(pub fn adc() -> u8 { 1 });
             on_64!(pub fn sbb() -> u8 { 2 });
             #[cfg(not(target_pointer_width = \"64\"))]
             pub fn adc() -> u8 { 3 }
         }",
    );
    assert!(out.contains("on_64!(pub fn adc()"), "{out}");
    assert!(!out.contains("sbb"), "{out}");
}

#[test]
fn wider_levels_keep_whole_modules_then_whole_crates() {
    let source = "fn main() { lib::used(); }
         mod lib {
             pub fn used() {}
             pub fn unused() {}
             pub mod inner { pub fn deeper() {} }
         }";
    let items = pruned(source);
    assert!(
        items.contains("fn used") && !items.contains("fn unused"),
        "{items}"
    );
    let modules = pruned_at(source, &[("lib", Level::Modules)]);
    assert!(modules.contains("fn unused"), "{modules}");
    assert!(
        !modules.contains("deeper"),
        "a module nothing uses: {modules}"
    );
    let whole = pruned_at(source, &[("lib", Level::Crate)]);
    assert!(whole.contains("fn deeper"), "{whole}");
}
