//! Fixture problem over a crate with a `safe fn` foreign item (Rust 1.82): `N`, prints `|N|`.

use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let n: i32 = input.trim().parse().unwrap();
    println!("{}", fixture_extern::run(n));
}
