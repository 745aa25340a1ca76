//! The product of `a` and `b` (each up to 10^9): wrong past 2^32, where the `u32` product
//! wraps (BOJ's `-O` has no overflow checks).

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let numbers: Vec<u32> = input.split_whitespace().map(|t| t.parse().unwrap()).collect();
    println!("{}", numbers[0] * numbers[1]);
}
