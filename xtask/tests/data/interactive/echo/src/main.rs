//! The echo game's solution: reads N, then answers each of the N numbers the interactor sends
//! with that number plus one, flushing each answer. Its own CPU time is a few milliseconds;
//! the interactor's work between answers is not its time.

use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout().lock();
    let rounds: u64 = lines.next().unwrap().unwrap().trim().parse().unwrap();
    for _ in 0..rounds {
        let x: u64 = lines.next().unwrap().unwrap().trim().parse().unwrap();
        writeln!(out, "{}", x.wrapping_add(1)).unwrap();
        out.flush().unwrap();
    }
}
