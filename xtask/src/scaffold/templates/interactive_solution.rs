//! __PROBLEM__: an interactive problem. The grader's lines arrive on stdin and the
//! solution's go to stdout; every line must be flushed before waiting for the answer.
//!
//! A template: it answers each line it reads with a line, until its input ends.

use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in stdin.lock().lines() {
        let line = line.expect("cannot read standard input");
        writeln!(out, "{}", answer(&line)).expect("cannot write standard output");
        // The grader waits for this line: send it now, not when a buffer fills.
        out.flush().expect("cannot write standard output");
    }
}

/// A placeholder until the problem is solved: repeats the line.
fn answer(line: &str) -> String {
    line.to_string()
}
