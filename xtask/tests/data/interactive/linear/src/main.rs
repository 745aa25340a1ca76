//! The guessing game by linear search: right answers, but too many questions once the secret
//! is over 25.

use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout().lock();
    let n: u64 = lines.next().unwrap().unwrap().trim().parse().unwrap();
    for x in 1..=n {
        writeln!(out, "? {}", x).unwrap();
        out.flush().unwrap();
        if lines.next().unwrap().unwrap().trim() == "=" {
            writeln!(out, "! {}", x).unwrap();
            out.flush().unwrap();
            return;
        }
    }
}
