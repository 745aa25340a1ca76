//! Every way a crate names the stand-in's macros (a glob, an alias, `#[macro_use] extern
//! crate`, `extern crate ... as`, a re-export), and attributes that are no helpers: rustc's,
//! a tool's, and names imported from outside std.

#[macro_use]
extern crate stand_in;
extern crate stand_in as si;

use attrs::tag;
use std::fmt;
use stand_in as sm;
use stand_in::*;

pub use stand_in::Emit;

#[derive(Emit, PartialEq)]
#[tag]
#[fmt]
#[emit]
#[rustfmt::skip]
#[allow(dead_code)]
#[doc = "documented"]
struct Tagged {
    #[tag]
    #[emit]
    #[deprecated]
    field: u8,
}

#[derive(sm::Emit)]
#[si::rename(Other)]
struct Aliased;

#[sm::rename(by_alias)]
fn aliased() -> u8 {
    si::identity!(1)
}

fn main() {
    let a = with_tmp!(1);
    let b = sm::with_tmp!(a);
    println!("{}", identity!(a + b));
}
