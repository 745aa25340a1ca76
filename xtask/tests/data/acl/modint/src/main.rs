//! Binomial coefficients modulo 10^9 + 7 with ac-library-rs's `ModInt1000000007`: `Q`, then
//! `n k` per line (0 <= k <= n <= 10^6); prints C(n, k) mod 10^9 + 7.

use ac_library::ModInt1000000007 as Mint;
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|t| t.parse::<usize>().unwrap());
    let q = it.next().unwrap();
    let queries: Vec<(usize, usize)> = (0..q).map(|_| (it.next().unwrap(), it.next().unwrap())).collect();
    let top = queries.iter().map(|&(n, _)| n).max().unwrap_or(0);
    let mut fact = vec![Mint::new(1); top + 1];
    for i in 1..=top {
        fact[i] = fact[i - 1] * Mint::new(i);
    }
    let mut out = String::new();
    for (n, k) in queries {
        let c = fact[n] * (fact[k] * fact[n - k]).inv();
        out.push_str(&format!("{}\n", c));
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
