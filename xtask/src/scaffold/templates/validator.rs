//! BOJ __ID__'s input validator for `cargo xtask stress`, `scale` and `test`: reads one input on
//! stdin and exits 0 when it meets the problem's constraints, else exits 1 with the reason on
//! stderr (testlib's convention). Stress and scale run it on every generated input, so a
//! generator that breaks the constraints is caught before it passes for a wrong solution; test
//! runs it on the samples, which are legal, so a refusal there means this file is wrong.
//!
//! A template: it checks what the template generator writes (N, 1 <= N <= 100, on a line, then
//! N numbers from 0 to 999 separated by one space). Make it check the problem's own input
//! format and constraints, as strictly as they are written: one space, one newline, no more.
//! Then name it in Cargo.toml (`validator = "boj-__ID__-validator"`, scaffolded as a comment)
//! for stress, scale and test to run it.

use std::io::{self, Read};

fn main() {
    let mut input = Vec::new();
    io::stdin()
        .read_to_end(&mut input)
        .expect("cannot read standard input");
    let mut reader = Reader::new(input);
    if let Err(why) = validate(&mut reader) {
        eprintln!("line {}: {}", reader.line, why);
        std::process::exit(1);
    }
}

/// The constraints, read in order.
fn validate(reader: &mut Reader) -> Result<(), String> {
    let n = reader.number("N", 1, 100)?;
    reader.end_of_line()?;
    for i in 0..n {
        if i > 0 {
            reader.space()?;
        }
        reader.number("a number", 0, 999)?;
    }
    reader.end_of_line()?;
    reader.end_of_input()
}

/// A strict reader: each call reads exactly what it names, or says what it found instead.
struct Reader {
    bytes: Vec<u8>,
    at: usize,
    /// The line being read, from 1.
    line: usize,
}

impl Reader {
    fn new(bytes: Vec<u8>) -> Reader {
        Reader {
            bytes,
            at: 0,
            line: 1,
        }
    }

    /// An integer from `low` to `high`, written without a sign or leading zeros.
    fn number(&mut self, name: &str, low: i64, high: i64) -> Result<i64, String> {
        let start = self.at;
        if self.bytes.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        while self.at < self.bytes.len() && self.bytes[self.at].is_ascii_digit() {
            self.at += 1;
        }
        let text = String::from_utf8_lossy(&self.bytes[start..self.at]).into_owned();
        let value: i64 = match text.parse() {
            Ok(value) if !text.starts_with("-0") && (text == "0" || !text.starts_with('0')) => {
                value
            }
            _ => {
                // What stands there, to the next space or line end, not only the digits read.
                let mut end = self.at;
                while end < self.bytes.len() && !self.bytes[end].is_ascii_whitespace() {
                    end += 1;
                }
                let found = String::from_utf8_lossy(&self.bytes[start..end]);
                return Err(format!(
                    "expected {} as an integer, found {:?}",
                    name, found
                ));
            }
        };
        if value < low || value > high {
            return Err(format!("{} = {}, not in {}..={}", name, value, low, high));
        }
        Ok(value)
    }

    /// Exactly one space.
    fn space(&mut self) -> Result<(), String> {
        self.byte(b' ', "one space")
    }

    /// The line's end: exactly one newline.
    fn end_of_line(&mut self) -> Result<(), String> {
        self.byte(b'\n', "the end of the line")?;
        self.line += 1;
        Ok(())
    }

    /// Nothing more.
    fn end_of_input(&self) -> Result<(), String> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err("expected the end of the input, found more".to_string())
        }
    }

    fn byte(&mut self, byte: u8, what: &str) -> Result<(), String> {
        match self.bytes.get(self.at) {
            Some(&found) if found == byte => {
                self.at += 1;
                Ok(())
            }
            Some(&found) => Err(format!("expected {}, found {:?}", what, found as char)),
            None => Err(format!("expected {}, found the end of the input", what)),
        }
    }
}
