//! The guessing game's interactor: `INTERACTOR INPUT`, INPUT holding `N SECRET`. It sends N,
//! answers `? x` with `<` (the secret is smaller), `>` (larger) or `=`, and accepts `! x` when x
//! is the secret, after at most 25 questions. Exit 0 accepts, 1 rejects with the reason.

use std::io::{BufRead, Write};

fn reject(why: &str) -> ! {
    eprintln!("{why}");
    std::process::exit(1)
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: guess-interactor INPUT");
    let input = std::fs::read_to_string(path).expect("cannot read INPUT");
    let numbers: Vec<u64> = input
        .split_whitespace()
        .map(|t| t.parse().expect("INPUT holds N SECRET"))
        .collect();
    let (n, secret) = (numbers[0], numbers[1]);
    let mut out = std::io::stdout().lock();
    writeln!(out, "{n}").unwrap();
    out.flush().unwrap();
    let mut questions = 0;
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap_or_default();
        let (kind, x) = match line.trim().split_once(' ') {
            Some((kind, x)) => (kind, x.parse::<u64>().unwrap_or(0)),
            None => reject(&format!("unreadable line {line:?}")),
        };
        match kind {
            "?" => {
                questions += 1;
                if questions > 25 {
                    reject("too many questions: 25 at most");
                }
                let answer = match secret.cmp(&x) {
                    std::cmp::Ordering::Less => "<",
                    std::cmp::Ordering::Greater => ">",
                    std::cmp::Ordering::Equal => "=",
                };
                writeln!(out, "{answer}").unwrap();
                out.flush().unwrap();
            }
            "!" if x == secret => return,
            "!" => reject(&format!("wrong answer {x}: the secret is {secret}")),
            _ => reject(&format!("unreadable line {line:?}")),
        }
    }
    reject("the solution's output ended without `! x`");
}
