//! Reference for A-B: the difference in i128, which no input of the generator overflows.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let numbers: Vec<i128> = input
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    println!("{}", numbers[0] - numbers[1]);
}
