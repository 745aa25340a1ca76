//! The itertools solution, whose root imports a module of its own named like `either`, the
//! crate itertools uses, through a glob: `either::even` at the root is `util::either::even`.

use itertools::{iproduct, izip, Itertools};
use std::io::{self, Read};
use util::*;

mod util {
    pub mod either {
        pub fn even(x: i64) -> bool {
            x % 2 == 0
        }
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let numbers = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i64>().unwrap())
        .collect_vec();
    let n = numbers[0] as usize;
    let (a, b) = (&numbers[1..=n], &numbers[n + 1..=2 * n]);
    println!("{}", a.iter().sorted().dedup().join(" "));
    let even = iproduct!(a, b)
        .filter(|(x, y)| either::even(*x + *y))
        .count();
    println!("{}", even);
    let sums = izip!(a, b).map(|(x, y)| x + y).collect_vec();
    let maxima = izip!(a, b, &sums)
        .map(|(x, y, s)| *x.max(y).max(s))
        .join(" ");
    println!("{}", sums.iter().join(" "));
    println!("{}", maxima);
    let (low, high) = a.iter().minmax().into_option().unwrap();
    println!("{} {}", low, high);
}
