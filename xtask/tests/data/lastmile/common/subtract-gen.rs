//! Generator of A-B inputs: `GEN SEED SIZE` prints `a b`, both below 1 + SIZE.

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if args.len() != 2 {
        eprintln!("usage: subtract-gen SEED SIZE");
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
    println!("{} {}", below(1 + size), below(1 + size));
}
