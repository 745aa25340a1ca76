//! The guessing game by binary search, answering one more than it found: wrong every time.

use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout().lock();
    let n: u64 = lines.next().unwrap().unwrap().trim().parse().unwrap();
    let (mut low, mut high) = (1, n);
    loop {
        let mid = low + (high - low) / 2;
        writeln!(out, "? {}", mid).unwrap();
        out.flush().unwrap();
        match lines.next().unwrap().unwrap().trim() {
            "<" => high = mid - 1,
            ">" => low = mid + 1,
            _ => {
                writeln!(out, "! {}", mid + 1).unwrap();
                out.flush().unwrap();
                return;
            }
        }
    }
}
