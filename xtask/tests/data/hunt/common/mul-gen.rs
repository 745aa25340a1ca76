//! Generator of the product problem (`a b`, their product): both from 1 to 1000, small as a
//! generator is often written, so the product never passes 10^6.

#[path = "rng.rs"]
mod rng;

fn main() {
    let (seed, _) = rng::seed_and_size();
    let mut rng = rng::Rng(seed);
    println!("{} {}", rng.between(1, 1000), rng.between(1, 1000));
}
