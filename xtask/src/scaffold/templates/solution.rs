//! __PROBLEM__: reads the whole input from stdin and writes the answer to stdout.
//!
//! Thin on purpose: input and output here, the real work in a function (or the core crate).

use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin()
        .read_to_string(&mut input)
        .expect("cannot read standard input");
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    solve(&input, &mut out).expect("cannot write standard output");
    out.flush().expect("cannot write standard output");
}

/// Answers one input. A placeholder until the problem is solved: echoes each token on a line.
fn solve(input: &str, out: &mut impl Write) -> io::Result<()> {
    for token in input.split_ascii_whitespace() {
        writeln!(out, "{}", token)?;
    }
    Ok(())
}
