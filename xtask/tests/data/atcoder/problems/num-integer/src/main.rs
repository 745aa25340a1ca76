//! num-integer's `Integer` and `Roots` traits on primitive integers: `Q`, then Q pairs `a b`.
//! Prints, for each pair, gcd, lcm, floor division and modulo (rounding towards negative
//! infinity), and the integer square root of |a * b|.

use num_integer::{Integer, Roots};
use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i64>().unwrap());
    let q = numbers.next().unwrap();
    for _ in 0..q {
        let (a, b) = (numbers.next().unwrap(), numbers.next().unwrap());
        let (quotient, remainder) = a.div_mod_floor(&b);
        println!(
            "{} {} {} {} {}",
            a.gcd(&b),
            a.lcm(&b),
            quotient,
            remainder,
            (a * b).abs().sqrt()
        );
    }
}
