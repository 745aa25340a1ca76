//! memoise 0.3: `#[memoise(n <= 66, k <= 66)]`, a table of binomial coefficients, and
//! `#[memoise_map(n)]`, a hash map for Collatz step counts; `binom_reset` clears the first.
//! Reads `Q` and Q queries: `C n k` prints C(n, k) (n at most 66, so it fits in u64), `L x`
//! prints how many Collatz steps take x to 1.

use memoise::{memoise, memoise_map};
use std::io::Read;

#[memoise(n <= 66, k <= 66)]
fn binom(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    if k == 0 || k == n {
        return 1;
    }
    binom(n - 1, k - 1) + binom(n - 1, k)
}

#[memoise_map(n)]
fn collatz(n: u64) -> u32 {
    if n == 1 {
        0
    } else if n % 2 == 0 {
        1 + collatz(n / 2)
    } else {
        1 + collatz(3 * n + 1)
    }
}

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let mut words = text.split_ascii_whitespace();
    let q: usize = words.next().unwrap().parse().unwrap();
    let mut out = Vec::new();
    for i in 0..q {
        if i == q / 2 {
            binom_reset();
        }
        match words.next().unwrap() {
            "C" => {
                let n: usize = words.next().unwrap().parse().unwrap();
                let k: usize = words.next().unwrap().parse().unwrap();
                out.push(binom(n, k).to_string());
            }
            _ => {
                let x: u64 = words.next().unwrap().parse().unwrap();
                out.push(collatz(x).to_string());
            }
        }
    }
    println!("{}", out.join("\n"));
}
