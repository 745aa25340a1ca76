//! An input as a competitive programmer reads it: lines of whitespace-separated tokens, some of
//! them numbers. What hack alters and shrinking cuts, and how "smaller" is told: fewer tokens,
//! then smaller numbers.

use std::cmp::Ordering;
use std::fmt;

/// A token: a number written as a number is written (`0`, `-17`, `1000000000`: no sign but a
/// leading `-`, no leading zero), so that writing it back gives the same text; anything else
/// (`000`, `3.5`, `abc`, a number past 128 bits) is a word, kept as it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Token {
    /// An integer in its one decimal spelling.
    Number(i128),
    /// Any other token, as written.
    Word(String),
}

impl Token {
    /// Reads one whitespace-free token.
    pub fn read(text: &str) -> Token {
        let digits = text.strip_prefix('-').unwrap_or(text);
        let canonical = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'))
            && text != "-0";
        match text.parse::<i128>() {
            Ok(value) if canonical => Token::Number(value),
            _ => Token::Word(text.to_string()),
        }
    }

    /// The number, when it is one.
    pub fn number(&self) -> Option<i128> {
        match self {
            Token::Number(value) => Some(*value),
            Token::Word(_) => None,
        }
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Number(value) => write!(f, "{value}"),
            Token::Word(word) => f.write_str(word),
        }
    }
}

/// Where a token is: its line and its place on the line, from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place {
    /// The line, from 0.
    pub line: usize,
    /// The token on the line, from 0.
    pub token: usize,
}

/// A token's column: its kind of line (the first, the second, or a row after them: the first
/// lines are headers, the lines after them rows alike), and its place on the line. A problem's
/// constraints are most often per column (the vertices of an edge, the op of a query).
pub type Column = (usize, usize);

impl Place {
    /// The column of the token here.
    pub fn column(self) -> Column {
        (self.line.min(2), self.token)
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {} token {}", self.line + 1, self.token + 1)
    }
}

/// An input: its lines, each a list of tokens (an empty line an empty list). Written back one
/// space between tokens, `\n` after every line: BOJ's data, as generators write it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Input {
    /// The lines.
    pub lines: Vec<Vec<Token>>,
}

impl Input {
    /// Reads `bytes`: `None` when they are not UTF-8 text (such an input is not altered). CRLF
    /// reads as LF; the empty line a final `\n` leaves is not a line.
    pub fn read(bytes: &[u8]) -> Option<Input> {
        let text = std::str::from_utf8(bytes).ok()?;
        let text = text.strip_suffix('\n').unwrap_or(text);
        let lines = if text.is_empty() && bytes.is_empty() {
            Vec::new()
        } else {
            text.split('\n')
                .map(|line| line.split_whitespace().map(Token::read).collect())
                .collect()
        };
        Some(Input { lines })
    }

    /// The input written back.
    pub fn write(&self) -> Vec<u8> {
        let mut out = String::new();
        for line in &self.lines {
            for (i, token) in line.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(&token.to_string());
            }
            out.push('\n');
        }
        out.into_bytes()
    }

    /// How many tokens it has.
    pub fn tokens(&self) -> usize {
        self.lines.iter().map(Vec::len).sum()
    }

    /// The sum of its numbers' absolute values (saturating): of two inputs with as many
    /// tokens, the one a person reads more easily is the smaller by this.
    pub fn magnitude(&self) -> u128 {
        self.numbers().fold(0u128, |sum, (_, value)| {
            sum.saturating_add(value.unsigned_abs())
        })
    }

    /// Every number, with its place, in reading order.
    pub fn numbers(&self) -> impl Iterator<Item = (Place, i128)> + '_ {
        self.lines.iter().enumerate().flat_map(|(line, tokens)| {
            tokens.iter().enumerate().filter_map(move |(token, t)| {
                t.number().map(|value| (Place { line, token }, value))
            })
        })
    }

    /// The token at `place`.
    pub fn get(&self, place: Place) -> Option<&Token> {
        self.lines.get(place.line)?.get(place.token)
    }

    /// Sets the token at `place` to the number `value`; whether there was a token there.
    pub fn set(&mut self, place: Place, value: i128) -> bool {
        match self
            .lines
            .get_mut(place.line)
            .and_then(|l| l.get_mut(place.token))
        {
            Some(token) => {
                *token = Token::Number(value);
                true
            }
            None => false,
        }
    }

    /// How `self` compares with `other` as a case to read: fewer tokens first, then smaller
    /// numbers, then fewer bytes, then the text itself (so that no two inputs tie).
    pub fn smallness(&self, other: &Input) -> Ordering {
        let key = |input: &Input| {
            let text = input.write();
            (input.tokens(), input.magnitude(), text.len(), text)
        };
        key(self).cmp(&key(other))
    }
}

/// A seeded stream of numbers (SplitMix64): the same seed, the same alterations, on any machine.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A stream from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 bits.
    pub fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.bits()) * n as u128) >> 64) as usize
    }

    /// True one time in `n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

/// SplitMix64's output function.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(input: &Input) -> Vec<Vec<String>> {
        input
            .lines
            .iter()
            .map(|l| l.iter().map(ToString::to_string).collect())
            .collect()
    }

    #[test]
    fn numbers_are_numbers_only_in_their_one_spelling() {
        assert_eq!(Token::read("0"), Token::Number(0));
        assert_eq!(Token::read("-17"), Token::Number(-17));
        assert_eq!(Token::read("1000000000"), Token::Number(1_000_000_000));
        for word in [
            "000000000",
            "007",
            "-0",
            "+5",
            "3.5",
            "1e9",
            "abc",
            "-",
            "1-2",
        ] {
            assert_eq!(Token::read(word), Token::Word(word.to_string()), "{word}");
        }
        let huge = "9".repeat(50);
        assert_eq!(Token::read(&huge), Token::Word(huge.clone()));
    }

    #[test]
    fn an_input_reads_and_writes_back_as_its_lines_of_tokens() {
        let input = Input::read(b"3 2\r\n1  2\t3\n\n103000509\n").unwrap();
        assert_eq!(
            words(&input),
            [
                vec!["3", "2"],
                vec!["1", "2", "3"],
                vec![],
                vec!["103000509"]
            ]
        );
        assert_eq!(input.write(), b"3 2\n1 2 3\n\n103000509\n");
        assert_eq!(input.tokens(), 6);
        assert_eq!(input.magnitude(), 3 + 2 + 1 + 2 + 3 + 103000509);
        // No final newline: the same lines.
        assert_eq!(Input::read(b"1 2").unwrap().write(), b"1 2\n");
        assert_eq!(Input::read(b"").unwrap().lines.len(), 0);
        assert_eq!(Input::read(b"\n").unwrap().lines, [Vec::<Token>::new()]);
        assert!(Input::read(&[0xff, 0xfe]).is_none());
    }

    #[test]
    fn fewer_tokens_is_smaller_then_smaller_numbers() {
        let read = |text: &str| Input::read(text.as_bytes()).unwrap();
        assert_eq!(read("1 9").smallness(&read("1 2 3")), Ordering::Less);
        assert_eq!(read("5 5").smallness(&read("1 1000")), Ordering::Less);
        assert_eq!(read("2 5").smallness(&read("5 2")), Ordering::Less);
        assert_eq!(read("2 5").smallness(&read("2 5")), Ordering::Equal);
    }

    #[test]
    fn the_stream_is_fixed_by_its_seed_and_stays_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let first: Vec<u64> = (0..5).map(|_| a.bits()).collect();
        assert_eq!(first, (0..5).map(|_| b.bits()).collect::<Vec<_>>());
        assert_ne!(Rng::new(8).bits(), first[0]);
        let mut r = Rng::new(1);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            seen[r.below(7)] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
