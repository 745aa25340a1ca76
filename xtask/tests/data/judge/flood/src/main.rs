//! Fixture: floods stdout without end when its input is `flood`, otherwise copies stdin.

use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut out = io::stdout().lock();
    if input.trim() == "flood" {
        let line = [b'y'; 4096];
        while out.write_all(&line).is_ok() {}
        return;
    }
    out.write_all(input.as_bytes()).unwrap();
}
