//! Fixture: BOJ 1517's inversions counted as the bubble sort the problem describes would count
//! its swaps, by insertion sort (each step moves a number one place left past a larger one),
//! O(n²): right, and far too slow for n = 500,000 (about 6 × 10¹⁰ steps) in 1 second. Each step
//! depends on the one before, so its time is the steps', not the memory's: a clean n².

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers: Vec<i64> = input
        .split_whitespace()
        .skip(1)
        .map(|t| t.parse().unwrap())
        .collect();
    let mut inversions = 0u64;
    for i in 1..numbers.len() {
        let mut j = i;
        while j > 0 && numbers[j - 1] > numbers[j] {
            numbers.swap(j - 1, j);
            inversions += 1;
            j -= 1;
        }
    }
    println!("{}", inversions);
}
