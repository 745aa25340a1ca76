//! Fixture: BOJ 1001 (A-B) computed in u32, as a contestant might: right while a >= b, and
//! where b > a the subtraction wraps (BOJ's -O has no overflow checks), so the answer is WA.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let numbers: Vec<u32> = input
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let (a, b) = (numbers[0], numbers[1]);
    let difference = a - b;
    println!("{}", difference);
}
