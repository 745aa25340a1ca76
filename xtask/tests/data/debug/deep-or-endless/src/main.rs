//! Fixture: reads N; N = 0 spins forever, any other N recurses N × 10^9 calls deep, far past
//! its 16 MB stack. Neither ends by itself: `debug --batch` stops the first at its time and
//! names the second's signal, with its frames.

use std::io::Read;

fn depth(n: u64) -> u64 {
    if n == 0 {
        0
    } else {
        1 + depth(n - 1)
    }
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let n: u64 = input.trim().parse().unwrap();
    let mut spins = 0u64;
    while n == 0 {
        spins = spins.wrapping_add(1);
    }
    println!("{} {}", depth(n * 1_000_000_000), spins);
}
