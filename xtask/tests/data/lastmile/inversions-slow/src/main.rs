//! Fixture: BOJ 1517's inversions counted pair by pair, O(n²): right, and far too slow for
//! n = 500,000 (1.25 × 10¹¹ pairs) in 1 second.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let numbers: Vec<i64> = input
        .split_whitespace()
        .skip(1)
        .map(|t| t.parse().unwrap())
        .collect();
    let mut inversions = 0u64;
    for i in 0..numbers.len() {
        for j in i + 1..numbers.len() {
            if numbers[i] > numbers[j] {
                inversions += 1;
            }
        }
    }
    println!("{}", inversions);
}
