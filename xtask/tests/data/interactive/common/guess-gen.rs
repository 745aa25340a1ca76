//! The guessing game's generator: `GEN SEED SIZE` prints `N SECRET` with N = 10 × SIZE and the
//! secret in 1..=N.

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (seed, size) = (args[0], args[1]);
    let n = 10 * size;
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    println!("{n} {}", 1 + (z ^ (z >> 31)) % n);
}
