//! Derives beside derives: std's `Default` keeping its `#[default]`, a derive the walk cannot
//! resolve keeping every helper but the declared ones, derives written in an expansion, and
//! `#[automatically_derived]` written by the crate itself.

use other::Mystery;
use stand_in::{identity, Emit, Noted};

#[derive(Default, Emit, Clone)]
enum Kept {
    #[default]
    #[emit]
    A,
    B,
}

#[derive(Emit)]
enum Gone {
    #[default]
    A,
}

#[derive(Emit, Noted, Mystery)]
#[emit]
#[note]
#[mystery]
struct Unresolved;

#[derive(core::default::Default, stand_in::Noted)]
enum ByPath {
    #[default]
    #[note]
    A,
}

identity! {
    #[derive(Emit)]
    #[emit]
    struct FromAnExpansion<T: Clone> where T: Copy { #[emit] t: T }
}

#[automatically_derived]
impl Gone {
    fn own() {}
}

fn main() {}
