//! rand and rand_pcg: `Pcg64Mcg::seed_from_u64`, `gen_range` and `shuffle`. `N K`, then N
//! integers: prints the K-th smallest (1-based), found by quickselect around random pivots,
//! then the integers shuffled and sorted again. The answers do not depend on the seed.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::io::{self, Read};

fn select(values: &mut [i64], k: usize, rng: &mut Pcg64Mcg) -> i64 {
    let pivot = values[rng.gen_range(0..values.len())];
    let less: Vec<i64> = values.iter().copied().filter(|&v| v < pivot).collect();
    let equal = values.iter().filter(|&&v| v == pivot).count();
    if k < less.len() {
        let mut less = less;
        return select(&mut less, k, rng);
    }
    if k < less.len() + equal {
        return pivot;
    }
    let mut greater: Vec<i64> = values.iter().copied().filter(|&v| v > pivot).collect();
    select(&mut greater, k - less.len() - equal, rng)
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i64>().unwrap());
    let (n, k) = (numbers.next().unwrap(), numbers.next().unwrap());
    let mut values: Vec<i64> = numbers.take(n as usize).collect();
    let mut rng = Pcg64Mcg::seed_from_u64(2023);
    println!("{}", select(&mut values, (k - 1) as usize, &mut rng));
    values.shuffle(&mut rng);
    values.sort_unstable();
    let shown: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    println!("{}", shown.join(" "));
}
