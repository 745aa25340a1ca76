//! Fixture: prints the input's numbers in ascending order, one per line (a checker judges it).

use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers: Vec<i64> = input.split_whitespace().map(|t| t.parse().unwrap()).collect();
    numbers.sort_unstable();
    for n in numbers {
        println!("{n}");
    }
}
