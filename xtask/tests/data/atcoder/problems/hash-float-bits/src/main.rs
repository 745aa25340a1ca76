//! rustc-hash, ordered-float and fixedbitset together: `N`, then `W` and W words, then `K` and
//! K reals. Prints the number of primes up to N and their sum (a sieve on a `FixedBitSet`), the
//! most frequent word with its count (an `FxHashMap`; ties to the smallest word), and the reals
//! from largest to smallest (sorted as `OrderedFloat`s) with the largest through a max-heap.

use fixedbitset::FixedBitSet;
use ordered_float::OrderedFloat;
use rustc_hash::FxHashMap;
use std::collections::BinaryHeap;
use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace();
    let n: usize = tokens.next().unwrap().parse().unwrap();
    let mut composite = FixedBitSet::with_capacity(n + 1);
    composite.insert_range(..2.min(n + 1));
    for p in 2..=n {
        if !composite.contains(p) {
            for multiple in (p * p..=n).step_by(p) {
                composite.insert(multiple);
            }
        }
    }
    composite.toggle_range(..);
    println!("{} {}", composite.count_ones(..), composite.ones().sum::<usize>());

    let w: usize = tokens.next().unwrap().parse().unwrap();
    let mut counts: FxHashMap<&str, usize> = FxHashMap::default();
    for word in tokens.by_ref().take(w) {
        *counts.entry(word).or_insert(0) += 1;
    }
    let (word, count) = counts
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .unwrap();
    println!("{} {}", word, count);

    let k: usize = tokens.next().unwrap().parse().unwrap();
    let mut reals: Vec<OrderedFloat<f64>> = tokens
        .take(k)
        .map(|t| OrderedFloat(t.parse().unwrap()))
        .collect();
    let heap: BinaryHeap<OrderedFloat<f64>> = reals.iter().copied().collect();
    reals.sort_unstable_by(|a, b| b.cmp(a));
    let sorted: Vec<String> = reals.iter().map(|r| r.0.to_string()).collect();
    println!("{}", sorted.join(" "));
    println!("{}", heap.peek().unwrap().into_inner());
}
