//! Fixture: loops forever when its input is `loop`, otherwise copies stdin to stdout.

use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    if input.trim() == "loop" {
        let mut n = 0u64;
        loop {
            n = std::hint::black_box(n.wrapping_add(1));
        }
    }
    io::stdout().write_all(input.as_bytes()).unwrap();
}
