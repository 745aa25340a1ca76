//! The hunt fixtures' generators' randomness: `GEN SEED SIZE` read, and SplitMix64 from SEED.

/// SEED and SIZE from the command line, or exit 2 saying how to call it.
pub fn seed_and_size() -> (u64, u64) {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if args.len() != 2 {
        eprintln!("usage: GEN SEED SIZE");
        std::process::exit(2);
    }
    (args[0], args[1])
}

/// SplitMix64.
pub struct Rng(pub u64);

impl Rng {
    /// A number in `low..=high`.
    pub fn between(&mut self, low: u64, high: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        low + (z ^ (z >> 31)) % (high - low + 1)
    }
}
