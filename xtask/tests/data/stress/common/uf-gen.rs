//! Generator of BOJ 1717 inputs for the stress fixtures: `GEN SEED SIZE` prints `n m` and `m`
//! operations (`0 a b` joins a and b, `1 a b` asks whether they are together), with `0 <= a, b
//! <= n`. SIZE 1..=100 grows both: n = 1 + SIZE / 8, m = 1 + SIZE / 4.

use std::io::Write;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if args.len() != 2 {
        eprintln!("usage: uf-gen SEED SIZE");
        std::process::exit(2);
    }
    let (mut state, size) = (args[0], args[1]);
    let mut below = |n: u64| {
        // SplitMix64.
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    };
    let n = 1 + size / 8;
    let m = 1 + size / 4;
    let mut out = format!("{n} {m}\n");
    for _ in 0..m {
        let op = u64::from(below(5) >= 3);
        out.push_str(&format!("{op} {} {}\n", below(n + 1), below(n + 1)));
    }
    std::io::stdout().write_all(out.as_bytes()).unwrap();
}
