//! The guessing game's binary search, shared by the right player and the one that answers
//! off by one: at most 20 questions for N up to 10^6.

use std::io::{BufRead, Write};

/// Plays one game on stdin and stdout, answering `offset` more than the number it found.
pub fn play(offset: u64) {
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
                writeln!(out, "! {}", mid + offset).unwrap();
                out.flush().unwrap();
                return;
            }
        }
    }
}
