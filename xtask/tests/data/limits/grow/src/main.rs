//! Fixture: a `Vec` grown by pushing to 150 MB (as a solution reading a long input would): its
//! last doubling reserves 256 MiB, of which 150 MB are touched. AC under 256 MB, on BOJ and
//! here, on every system: the judge counts the memory touched, not the memory reserved.

use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let bytes: usize = input.trim().parse().unwrap();
    let mut held: Vec<u64> = Vec::new();
    for i in 0..bytes / 8 {
        held.push(i as u64);
    }
    let sum = held.iter().step_by(4096).fold(0u64, |a, &b| a.wrapping_add(b));
    println!("{} {}", held.len(), sum % 7);
}
