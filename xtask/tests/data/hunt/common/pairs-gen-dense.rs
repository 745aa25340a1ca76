//! Generator of the pairs problem with many equal numbers: n = 1000 × SIZE, each from 1 to 10,
//! so even its smallest input is a thousand numbers.

#[path = "rng.rs"]
mod rng;

fn main() {
    let (seed, size) = rng::seed_and_size();
    let mut rng = rng::Rng(seed);
    let n = 1000 * size;
    let numbers: Vec<String> = (0..n).map(|_| rng.between(1, 10).to_string()).collect();
    println!("{n}\n{}", numbers.join(" "));
}
