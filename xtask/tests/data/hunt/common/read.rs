//! A strict reader for the hunt fixtures' validators (testlib's convention: exit 0 when the input
//! on stdin meets the constraints, else exit 1 with the reason on stderr): numbers in ranges,
//! one space between them, each line ended by a newline, nothing after the last.

use std::io::Read;

/// The input, read token by token, with the line each read is on.
pub struct Reader {
    bytes: Vec<u8>,
    at: usize,
    line: usize,
}

impl Reader {
    /// The whole of stdin.
    pub fn stdin() -> Reader {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).unwrap();
        Reader {
            bytes,
            at: 0,
            line: 1,
        }
    }

    /// An integer in `low..=high` followed by `end` (b' ' or b'\n').
    pub fn number(&mut self, name: &str, low: i64, high: i64, end: u8) -> Result<i64, String> {
        let start = self.at;
        if self.bytes.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        while self.at < self.bytes.len() && self.bytes[self.at].is_ascii_digit() {
            self.at += 1;
        }
        let text = String::from_utf8_lossy(&self.bytes[start..self.at]).into_owned();
        let value: i64 = match text.parse() {
            Ok(value) if text.len() <= 18 => value,
            _ => return Err(format!("line {}: expected {} as a number", self.line, name)),
        };
        if value < low || value > high {
            return Err(format!(
                "line {}: {} = {}, not in {}..={}",
                self.line, name, value, low, high
            ));
        }
        if self.bytes.get(self.at) != Some(&end) {
            let what = if end == b'\n' { "a newline" } else { "one space" };
            return Err(format!("line {}: expected {} after {}", self.line, what, name));
        }
        self.at += 1;
        if end == b'\n' {
            self.line += 1;
        }
        Ok(value)
    }

    /// Nothing more to read.
    pub fn end(&self) -> Result<(), String> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(format!("line {}: more input than the format has", self.line))
        }
    }
}

/// Exits 0 when `check` passes, else 1 with its reason.
pub fn validate(check: impl FnOnce(&mut Reader) -> Result<(), String>) {
    let mut reader = Reader::stdin();
    if let Err(why) = check(&mut reader).and_then(|()| reader.end()) {
        eprintln!("{why}");
        std::process::exit(1);
    }
}
