//! permutohedron's `LexicalPermutation` on slices (a 2015-edition crate): `N`, then N integers.
//! Prints every distinct arrangement in lexicographic order (BOJ 15663's kind), then the one before
//! the last.

use permutohedron::LexicalPermutation;
use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u32>().unwrap());
    let n = numbers.next().unwrap() as usize;
    let mut values: Vec<u32> = numbers.take(n).collect();
    values.sort_unstable();
    let show = |v: &[u32]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ");
    loop {
        println!("{}", show(&values));
        if !values.next_permutation() {
            break;
        }
    }
    values.prev_permutation();
    println!("{}", show(&values));
}
