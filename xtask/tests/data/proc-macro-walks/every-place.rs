//! The stand-in's macros in every place the proc-macro pass looks: items, impl and trait items,
//! statements, expressions, types, patterns, derives with helpers wherever they may stand, and
//! calls inside `println!`'s arguments; modules and blocks with imports of their own.

use stand_in::{identity, rename, with_tmp, Emit, Noted};

stand_in::identity! {
    fn from_an_item_macro() -> u8 { 1 }
}

#[rename(renamed)]
fn original(x: i64) -> i64 {
    with_tmp!(x * 2)
}

#[derive(Debug, Clone, Emit, Noted)]
#[emit(skip)]
#[note = "a note"]
#[cfg_attr(unix, emit, doc = "kept")]
#[cfg_attr(windows, note)]
struct Pair<#[emit] T, 'a, const N: usize> {
    #[emit]
    #[note(inner)]
    first: &'a [T; N],
    /// Kept.
    second: identity!(u64),
}

#[derive(Default, Emit)]
enum Shape {
    #[default]
    #[emit = "dot"]
    Dot,
    Line(#[emit] u8),
    Box { #[emit(w)] w: u8, h: u8 },
}

#[derive(Emit)]
union Bits {
    #[emit]
    int: u32,
    float: f32,
}

struct Plain;

impl Plain {
    identity! { fn made() -> u8 { 2 } }

    #[rename(also)]
    fn method(&self) -> u8 {
        3
    }
}

trait Speak {
    identity! { fn speak(&self) -> u8; }

    #[rename(said)]
    fn say(&self) {}
}

mod inner {
    use stand_in::Emit as Spit;

    #[derive(Spit)]
    #[emit]
    pub struct Inside(#[emit] pub u8);

    pub fn call() -> u8 {
        stand_in::identity!(4)
    }
}

fn main() {
    use stand_in::with_tmp as tmp_added;
    let tmp = 5;
    let x = tmp_added!(tmp);
    let y: identity!((u8, u8)) = (1, 2);
    let identity!(z) = 7;
    identity! { let w = 8; }
    let t = with_tmp!(with_tmp!(tmp));
    println!("{} {} {:?} {} {} {}", x, identity!(tmp + 1), y, z, w, t);
    match 1 {
        identity!(1) => {}
        _ => {}
    }
    fn nested() {
        #[derive(Emit)]
        #[emit]
        struct InBlock;
    }
    let v = vec![identity!(1), with_tmp!(2)];
    assert_eq!(identity!(v.len()), 2);
}
