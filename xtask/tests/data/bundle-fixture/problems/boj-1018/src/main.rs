//! Fixture problem whose own macros live in its modules: `A B`, prints `A + B` and `2 × A`
//! through a `println!` of its own that buffers the lines, then how many lines it buffered.

#[macro_use]
mod macros;
#[macro_use]
mod fastio;

// Defined above `mod doubling;`, so called there by its bare name (textual scope).
macro_rules! twice {
    ($x:expr) => {
        2 * $x
    };
}

mod doubling;

use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let numbers: Vec<i64> = input
        .split_whitespace()
        .map(|token| token.parse().unwrap())
        .collect();
    println!("{}", add!(numbers[0], numbers[1]));
    println!("{}", doubling::doubled(numbers[0]));
    fastio::flush();
}
