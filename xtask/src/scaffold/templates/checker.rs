//! BOJ __ID__'s special judge: `boj-__ID__-checker INPUT ANSWER OUTPUT` (BOJ's order: the model
//! answer before the contestant's output). Exit 0 accepts, 1 rejects with the reason on stderr,
//! 2 when the check itself cannot run.
//!
//! A template: it accepts an OUTPUT whose tokens equal ANSWER's. Write the problem's real rule.

use std::fs;
use std::process;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 3 {
        eprintln!("usage: boj-__ID__-checker INPUT ANSWER OUTPUT");
        process::exit(2);
    }
    let read = |path: &str| match fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(err) => {
            eprintln!("cannot read {}: {}", path, err);
            process::exit(2)
        }
    };
    let (_input, answer, output) = (read(&args[0]), read(&args[1]), read(&args[2]));
    let expected: Vec<&str> = answer.split_whitespace().collect();
    let actual: Vec<&str> = output.split_whitespace().collect();
    if expected == actual {
        process::exit(0);
    }
    eprintln!("wrong answer: the output's tokens differ from the model answer's");
    process::exit(1);
}
