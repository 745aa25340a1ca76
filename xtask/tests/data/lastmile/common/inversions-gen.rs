//! Generator of BOJ 1517 inputs (how many swaps a bubble sort makes: the inversions):
//! `GEN SEED SIZE` prints n = 5,000 × SIZE (500,000 at 100, the problem's largest) and n
//! numbers of at most nine digits.

use std::fmt::Write;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if args.len() != 2 {
        eprintln!("usage: inversions-gen SEED SIZE");
        std::process::exit(2);
    }
    let (mut state, size) = (args[0], args[1]);
    let n = 5_000 * size;
    let mut out = String::with_capacity(n as usize * 11);
    let _ = writeln!(out, "{n}");
    for i in 0..n {
        // SplitMix64.
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        let separator = if i + 1 == n { '\n' } else { ' ' };
        let _ = write!(out, "{}{separator}", (z ^ (z >> 31)) % 1_000_000_000);
    }
    print!("{out}");
}
