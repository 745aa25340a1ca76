//! A library that re-exports a proc-macro crate's macros by a glob, as proconio does with
//! proconio-derive's (`pub use proconio_derive::*;`), and marks a function no one calls with one
//! of them, as pathfinding marks deprecated items with deprecate-until's attribute.

pub use fixture_macros::*;

/// `n + 1`.
pub fn plus_one(n: u64) -> u64 {
    n + 1
}

/// Called by no solution: its attribute's crate is never reached for it.
#[fixture_macros::fastout]
pub fn unused_marked() -> u64 {
    0
}
