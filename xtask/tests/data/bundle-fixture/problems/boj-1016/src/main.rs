//! Fixture problem over a library that re-exports a proc-macro crate's macros and marks an item
//! with one, neither of which the solution reaches: bundled, the proc-macro crate left out.

use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let n: u64 = input.trim().parse().unwrap();
    println!("{}", fixture_reexport::plus_one(n));
}
