//! lazy_static's `lazy_static!`: Pascal's triangle mod 1,000,000,007 for n < 1000 (`PASCAL`),
//! and each row's sum built from it (`ROW_SUMS`). `Q`, then Q lines `n k` (0 <= k <= n < 1000).
//! Prints C(n, k) and the sum of row n, both mod 1,000,000,007.

use lazy_static::lazy_static;
use std::io::{self, Read};

const MODULUS: u64 = 1_000_000_007;
const ROWS: usize = 1000;

lazy_static! {
    static ref PASCAL: Vec<Vec<u64>> = {
        let mut rows: Vec<Vec<u64>> = Vec::with_capacity(ROWS);
        for n in 0..ROWS {
            let mut row = vec![1u64; n + 1];
            for k in 1..n {
                row[k] = (rows[n - 1][k - 1] + rows[n - 1][k]) % MODULUS;
            }
            rows.push(row);
        }
        rows
    };
    static ref ROW_SUMS: Vec<u64> = PASCAL
        .iter()
        .map(|row| row.iter().fold(0, |sum, &c| (sum + c) % MODULUS))
        .collect();
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<usize>().unwrap());
    let queries = numbers.next().unwrap();
    let mut out = String::new();
    for _ in 0..queries {
        let (n, k) = (numbers.next().unwrap(), numbers.next().unwrap());
        out.push_str(&format!("{} {}\n", PASCAL[n][k], ROW_SUMS[n]));
    }
    print!("{}", out);
}
