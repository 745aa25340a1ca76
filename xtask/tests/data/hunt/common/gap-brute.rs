//! The gap problem's reference: for each number, the nearest larger one, O(n²).

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let numbers: Vec<u64> = input.split_whitespace().skip(1).map(|t| t.parse().unwrap()).collect();
    let mut gap = 0;
    for &a in &numbers {
        if let Some(b) = numbers.iter().filter(|&&b| b > a).min() {
            gap = gap.max(b - a);
        }
    }
    println!("{gap}");
}
