//! Fixture: copies stdin to stdout, so each sample's `.out` decides the verdict.

use std::io::{self, Read, Write};

fn main() {
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).unwrap();
    io::stdout().write_all(&input).unwrap();
}
