//! BOJ __ID__'s interactor: `boj-__ID__-interactor INPUT`, where INPUT is a sample's `.in` (the
//! secret data). Its stdout is the solution's stdin and the solution's stdout is its stdin.
//! Exit 0 accepts; exit 1 rejects, with the reason on stderr; anything else is a judge error.
//! Flush after every line: the solution is waiting for it.
//!
//! A template: it sends INPUT's first line, answers each line it reads with INPUT's next line
//! while there is one, then rejects, as it does when the solution's output ends. Write the
//! problem's real grader here, as BOJ describes it.

use std::io::{self, BufRead, Write};
use std::process;

fn main() {
    let path = match std::env::args().nth(1) {
        Some(path) => path,
        None => {
            eprintln!("usage: boj-__ID__-interactor INPUT");
            process::exit(2)
        }
    };
    let input = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("cannot read {}: {}", path, err);
            process::exit(2)
        }
    };
    let mut secret = input.lines();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if let Some(first) = secret.next() {
        let _ = writeln!(out, "{}", first);
        let _ = out.flush();
    }
    let stdin = io::stdin();
    for line in stdin.lock().lines() {
        if line.is_err() {
            break;
        }
        match secret.next() {
            Some(next) => {
                let _ = writeln!(out, "{}", next);
                let _ = out.flush();
            }
            None => break,
        }
    }
    eprintln!("template interactor: write the real one");
    process::exit(1);
}
