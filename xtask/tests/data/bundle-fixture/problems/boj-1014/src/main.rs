//! Fixture problem in easy-ext's shape: `#[ext(ChMax)]` on an inherent impl of `i64`, which the
//! proc macro turns into a trait and its impl. The bundle cannot carry it: refused by name.
//! `N`, then N numbers: prints the largest.

use fixture_macros::ext;
use std::io::{self, Read};

#[ext(ChMax)]
impl i64 {
    fn chmax(&mut self, v: i64) -> bool {
        if *self < v {
            *self = v;
            true
        } else {
            false
        }
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut best = i64::MIN;
    for token in input.split_ascii_whitespace().skip(1) {
        best.chmax(token.parse().unwrap());
    }
    println!("{}", best);
}
