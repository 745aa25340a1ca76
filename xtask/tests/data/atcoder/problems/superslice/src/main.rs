//! superslice's `Ext` on slices (BOJ 10816's kind): `N`, N card numbers, `M`, M queries. Prints,
//! for each query, how many cards carry it, then the first index not below each query in the
//! sorted cards.

use std::io::{self, Read};
use superslice::Ext;

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i64>().unwrap());
    let n = numbers.next().unwrap() as usize;
    let mut cards: Vec<i64> = numbers.by_ref().take(n).collect();
    cards.sort_unstable();
    let m = numbers.next().unwrap() as usize;
    let queries: Vec<i64> = numbers.take(m).collect();
    let counts: Vec<String> = queries
        .iter()
        .map(|q| {
            let range = cards.equal_range(q);
            (cards.upper_bound(q) - cards.lower_bound(q)).min(range.len()).to_string()
        })
        .collect();
    let firsts: Vec<String> = queries.iter().map(|q| cards.lower_bound(q).to_string()).collect();
    println!("{}", counts.join(" "));
    println!("{}", firsts.join(" "));
}
