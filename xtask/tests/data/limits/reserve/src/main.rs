//! Fixture: `Vec::with_capacity` for 200 MB up front (a table sized for the largest input),
//! of which only 10 MB are touched. AC under 256 MB, on BOJ and here, on every system: the
//! judge counts the memory touched, not the memory reserved.

use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers = input.split_whitespace().map(|w| w.parse::<usize>().unwrap());
    let (capacity, touched) = (numbers.next().unwrap(), numbers.next().unwrap());
    let mut table: Vec<u8> = Vec::with_capacity(capacity);
    table.resize(touched, 1);
    let sum: usize = table.iter().step_by(4096).map(|&b| usize::from(b)).sum();
    println!("{} {}", table.capacity() >= capacity, sum);
}
