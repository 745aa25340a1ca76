//! Generator of the pairs problem (`n`, then `n` numbers; count i < j with a_i < a_j):
//! n = SIZE, each number drawn from 1 to 10^9, so two are equal about once in ten thousand
//! inputs.

#[path = "rng.rs"]
mod rng;

fn main() {
    let (seed, size) = rng::seed_and_size();
    let mut rng = rng::Rng(seed);
    let n = size;
    let numbers: Vec<String> = (0..n)
        .map(|_| rng.between(1, 1_000_000_000).to_string())
        .collect();
    println!("{n}\n{}", numbers.join(" "));
}
