//! BOJ __ID__'s input generator for `cargo xtask stress`: `boj-__ID__-gen SEED SIZE` prints one
//! input on stdout. SIZE runs from 1 to 100 (small first, as the run goes); make it mean "how
//! big" for this problem. The same SEED and SIZE must give the same input.
//!
//! A template: it prints SIZE numbers on one line after their count. Make it print the
//! problem's real input format, within the problem's constraints.

use std::io::{self, Write};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    if args.len() != 2 || numbers.len() != 2 {
        eprintln!("usage: boj-__ID__-gen SEED SIZE");
        std::process::exit(2);
    }
    let (seed, size) = (numbers[0], numbers[1].max(1));
    let mut rng = Rng(seed);
    let n = 1 + rng.below(size);
    let mut out = String::new();
    out.push_str(&format!("{}\n", n));
    let numbers: Vec<String> = (0..n).map(|_| rng.below(1000).to_string()).collect();
    out.push_str(&numbers.join(" "));
    out.push('\n');
    io::stdout()
        .write_all(out.as_bytes())
        .expect("cannot write standard output");
}

/// SplitMix64: small, fast and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in 0..n (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}
