//! Fixture: BOJ 1517's inversions counted while merge sorting, O(n log n).

use std::io::Read;

/// Sorts `numbers` and returns how many pairs were out of order.
fn sort_counting(numbers: &mut Vec<i64>) -> u64 {
    if numbers.len() < 2 {
        return 0;
    }
    let mut right = numbers.split_off(numbers.len() / 2);
    let mut inversions = sort_counting(numbers) + sort_counting(&mut right);
    let mut merged = Vec::with_capacity(numbers.len() + right.len());
    let (mut i, mut j) = (0, 0);
    while i < numbers.len() && j < right.len() {
        if right[j] < numbers[i] {
            inversions += (numbers.len() - i) as u64;
            merged.push(right[j]);
            j += 1;
        } else {
            merged.push(numbers[i]);
            i += 1;
        }
    }
    merged.extend_from_slice(&numbers[i..]);
    merged.extend_from_slice(&right[j..]);
    *numbers = merged;
    inversions
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers: Vec<i64> = input
        .split_whitespace()
        .skip(1)
        .map(|t| t.parse().unwrap())
        .collect();
    println!("{}", sort_counting(&mut numbers));
}
