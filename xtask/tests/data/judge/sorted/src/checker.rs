//! Fixture checker, called as BOJ calls one: `checker INPUT ANSWER OUTPUT`. Accepts (exit 0)
//! when OUTPUT holds INPUT's numbers in ascending order, however spaced; ANSWER must hold the
//! same numbers (a check that the arguments come in BOJ's order). Exit 1 rejects with a reason
//! on stderr; exit 2 when it cannot judge. It also chatters on stdout, 2 MiB of it, as a
//! checker that echoes what it reads may: BOJ judges by the exit status, so that is never a
//! judge error.

use std::process::exit;

fn numbers(path: &str) -> Vec<i64> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|err| {
        eprintln!("cannot read {path}: {err}");
        exit(2)
    });
    text.split_whitespace()
        .map(|t| {
            t.parse().unwrap_or_else(|_| {
                eprintln!("not a number: {t:?}");
                exit(1)
            })
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 3 {
        eprintln!("usage: checker INPUT ANSWER OUTPUT");
        exit(2);
    }
    let chatter = vec![b'.'; 2 << 20];
    std::io::Write::write_all(&mut std::io::stdout(), &chatter).unwrap();
    let (mut input, answer, output) = (numbers(&args[0]), numbers(&args[1]), numbers(&args[2]));
    input.sort_unstable();
    if input != answer {
        eprintln!("ANSWER is not INPUT sorted: were the arguments passed in BOJ's order?");
        exit(2);
    }
    if let Some(i) = (1..output.len()).find(|&i| output[i - 1] > output[i]) {
        eprintln!("out of order at position {}: {} > {}", i + 1, output[i - 1], output[i]);
        exit(1);
    }
    if output != answer {
        eprintln!("expected {} numbers, got {}", answer.len(), output.len());
        exit(1);
    }
}
