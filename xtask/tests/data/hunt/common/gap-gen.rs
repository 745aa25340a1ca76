//! Generator of the gap problem (`n`, then n numbers; the largest gap between neighbours once
//! sorted, 0 for one number): n = 2 + SIZE, numbers from 1 to 10^9. n starts at 2.

#[path = "rng.rs"]
mod rng;

fn main() {
    let (seed, size) = rng::seed_and_size();
    let mut rng = rng::Rng(seed);
    let n = 2 + size;
    let numbers: Vec<String> = (0..n)
        .map(|_| rng.between(1, 1_000_000_000).to_string())
        .collect();
    println!("{n}\n{}", numbers.join(" "));
}
