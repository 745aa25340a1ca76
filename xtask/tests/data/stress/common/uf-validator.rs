//! Validator of BOJ 1717 inputs for the stress fixtures (testlib's convention: exit 0 when the
//! input on stdin meets the constraints, else exit 1 with the reason on stderr): `n m` with
//! 1 <= n <= 1,000,000 and 1 <= m <= 100,000, then m lines `op a b` with op 0 or 1 and
//! 0 <= a, b <= n; one space between numbers, every line ended by a newline, nothing after.

use std::io::Read;

/// The input read strictly, token by token, with the line each read is on.
struct Reader {
    bytes: Vec<u8>,
    at: usize,
    line: usize,
}

impl Reader {
    /// An integer in `low..=high` followed by `end` (a space or a newline).
    fn number(&mut self, name: &str, low: u64, high: u64, end: u8) -> Result<u64, String> {
        let start = self.at;
        while self.at < self.bytes.len() && self.bytes[self.at].is_ascii_digit() {
            self.at += 1;
        }
        let digits = &self.bytes[start..self.at];
        if digits.is_empty() || (digits.len() > 1 && digits[0] == b'0') || digits.len() > 18 {
            return Err(format!("line {}: expected {} as a number", self.line, name));
        }
        let value: u64 = String::from_utf8_lossy(digits).parse().unwrap();
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
}

fn validate(bytes: Vec<u8>) -> Result<(), String> {
    let mut reader = Reader {
        bytes,
        at: 0,
        line: 1,
    };
    let n = reader.number("n", 1, 1_000_000, b' ')?;
    let m = reader.number("m", 1, 100_000, b'\n')?;
    for _ in 0..m {
        reader.number("op", 0, 1, b' ')?;
        reader.number("a", 0, n, b' ')?;
        reader.number("b", 0, n, b'\n')?;
    }
    if reader.at != reader.bytes.len() {
        return Err(format!("line {}: more input after the {} operations", reader.line, m));
    }
    Ok(())
}

fn main() {
    let mut bytes = Vec::new();
    std::io::stdin().read_to_end(&mut bytes).unwrap();
    if let Err(why) = validate(bytes) {
        eprintln!("{}", why);
        std::process::exit(1);
    }
}
