//! The pairs problem's reference: every pair looked at, O(n²).

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let numbers: Vec<u64> = input.split_whitespace().skip(1).map(|t| t.parse().unwrap()).collect();
    let mut pairs = 0u64;
    for i in 0..numbers.len() {
        for j in i + 1..numbers.len() {
            pairs += u64::from(numbers[i] < numbers[j]);
        }
    }
    println!("{pairs}");
}
