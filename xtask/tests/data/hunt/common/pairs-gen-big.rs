//! Generator of the pairs problem for scale: n = 3000 × SIZE, each number from 1 to 10^9.

#[path = "rng.rs"]
mod rng;

fn main() {
    let (seed, size) = rng::seed_and_size();
    let mut rng = rng::Rng(seed);
    let n = 3000 * size;
    let numbers: Vec<String> = (0..n)
        .map(|_| rng.between(1, 1_000_000_000).to_string())
        .collect();
    println!("{n}\n{}", numbers.join(" "));
}
