//! The guessing game by binary search, through a buffer it never flushes: its first question
//! never reaches the interactor, and both wait for each other until the time limit.

use std::io::{BufRead, BufWriter, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let n: u64 = lines.next().unwrap().unwrap().trim().parse().unwrap();
    let (mut low, mut high) = (1, n);
    loop {
        let mid = low + (high - low) / 2;
        writeln!(out, "? {}", mid).unwrap();
        match lines.next().unwrap().unwrap().trim() {
            "<" => high = mid - 1,
            ">" => low = mid + 1,
            _ => {
                writeln!(out, "! {}", mid).unwrap();
                return;
            }
        }
    }
}
