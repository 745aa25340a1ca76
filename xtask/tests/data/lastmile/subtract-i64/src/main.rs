//! Fixture: BOJ 1001 (A-B) computed in i64: right for every input.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let numbers: Vec<i64> = input
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    println!("{}", numbers[0] - numbers[1]);
}
