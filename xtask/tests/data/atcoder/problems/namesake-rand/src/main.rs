//! The rand solution with items named like crates: `fn rand` (the value namespace, where no
//! module is: it and the crate's module stand side by side) and `struct rand_core` (the type
//! namespace, named like the crate rand uses: that crate's module goes apart).

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::io::{self, Read};

/// A random index below `n`: a function named like the crate (the value namespace).
fn rand(rng: &mut Pcg64Mcg, n: usize) -> usize {
    rng.gen_range(0..n)
}

/// A type named like a crate rand uses (the type namespace).
#[allow(non_camel_case_types)]
struct rand_core {
    seed: u64,
}

fn select(values: &mut [i64], k: usize, rng: &mut Pcg64Mcg) -> i64 {
    let pivot = values[rand(rng, values.len())];
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
    let setting = rand_core { seed: 2023 };
    let mut rng = Pcg64Mcg::seed_from_u64(setting.seed);
    println!("{}", select(&mut values, (k - 1) as usize, &mut rng));
    values.shuffle(&mut rng);
    values.sort_unstable();
    let shown: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    println!("{}", shown.join(" "));
}
