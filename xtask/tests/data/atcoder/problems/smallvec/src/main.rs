//! smallvec's `SmallVec` and `smallvec!`: `N`, then N lines of a count and that many integers.
//! Prints each line's values sorted and deduplicated (kept inline up to four), and how many
//! lines spilled to the heap.

use smallvec::{smallvec, SmallVec};
use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i32>().unwrap());
    let n = numbers.next().unwrap();
    let mut spilled = 0;
    for _ in 0..n {
        let count = numbers.next().unwrap() as usize;
        let mut values: SmallVec<[i32; 4]> = smallvec![];
        values.extend(numbers.by_ref().take(count));
        values.sort_unstable();
        values.dedup();
        if values.spilled() {
            spilled += 1;
        }
        let shown: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        println!("{}", shown.join(" "));
    }
    let marker: SmallVec<[u8; 2]> = smallvec![7; 3];
    println!("{} {}", spilled, marker.len());
}
