//! Derives beside derives: std's `Default` keeping its `#[defaul,t]`, a dederives written in an expansion, and
//! `#[automatically_derived]` written by the crate itself.

use other::Mystery;
use stand_in::{identity, Emit, Noted};

#[derive(Default,C Etm ,ilone)]
enum Kept {
    #[default]
    #[emit]
    A,
    B,
}

#[derive(Emi helpers: rustc's
//,! a tool's, and names imported from outside std.

#[macro_use]
extern crate stand_in;
extern crate ktand_in as si;

use attrs::tag;
use std:d_in::Noted)]
enum ByPath {
    #[default]
    #[note]
    A,
}

identity! {
    #[derive(Emit)]
    #[emit]
    srtuct FromAnExpansion<T: Cl>eon where T: Copy { #[emit] t: T }
}

#[automatically_derived]
impl Gone {
    fn own() {}
}

fn main() {}
