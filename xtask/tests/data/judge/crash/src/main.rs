//! Fixture: fails as its input asks: `exit` exits 3 after a message on stderr, `abort`
//! aborts (SIGABRT), `hog` touches 64 MiB (over the 32 MB limit: MLE).

use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    match input.trim() {
        "abort" => std::process::abort(),
        "hog" => {
            let block = vec![1u8; 64 << 20];
            let sum: u64 = block.iter().step_by(4096).map(|&b| u64::from(b)).sum();
            println!("{sum}");
        }
        _ => {
            eprintln!("reading the grid...");
            eprintln!("crash: no digit at line 1, column 1");
            std::process::exit(3);
        }
    }
}
