//! num-rational's `Ratio`: `N`, then N fractions `p/q`. Prints their sum in lowest terms, the
//! largest of them, and the sum rounded down and to the nearest integer.

use num_rational::Ratio;
use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace();
    let n: usize = tokens.next().unwrap().parse().unwrap();
    let fractions: Vec<Ratio<i64>> = (0..n)
        .map(|_| tokens.next().unwrap().parse().unwrap())
        .collect();
    let sum: Ratio<i64> = fractions.iter().sum();
    println!("{}", sum);
    println!("{}", fractions.iter().max().unwrap());
    println!("{} {}", sum.floor(), sum.round());
}
