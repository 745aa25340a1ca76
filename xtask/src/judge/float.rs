//! The float judge (`judge = "float"`): outputs compared token by token, numbers within an
//! absolute or relative error, every other token exactly (online-judge-tools' `--error`,
//! cargo-compete's `Float { absolute_error, relative_error }`).
//!
//! Tokens are separated by any whitespace, so BOJ's presentation rule does not apply. A token is
//! a number when it is plain decimal notation: `[+-]digits[.digits][(e|E)[+-]digits]`, or the
//! same with no digits before the point (`.5`); never `inf` or `nan`.

use std::fmt;

/// Where a float comparison found the first difference.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// The 1-based position of the first differing token (one past the shorter output's last
    /// token when the counts differ).
    pub index: usize,
    /// The 1-based line of the output where that token is (or would be).
    pub line: usize,
    /// The model answer's token there, if it has one.
    pub expected: Option<String>,
    /// The output's token there, if it has one.
    pub actual: Option<String>,
    /// Tokens in the model answer.
    pub expected_count: usize,
    /// Tokens in the output.
    pub actual_count: usize,
    /// The error that was allowed.
    pub error: f64,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (index, line) = (self.index, self.line);
        match (&self.expected, &self.actual) {
            (Some(expected), Some(actual)) => {
                write!(
                    f,
                    "token {index} (line {line}): expected `{expected}`, found `{actual}`"
                )?;
                match (number(expected), number(actual)) {
                    (Some(e), Some(a)) => write!(
                        f,
                        "; they differ by {}, over the allowed error {:e} (absolute or \
                         relative)",
                        past((a - e).abs(), allowed(e, self.error)),
                        self.error
                    ),
                    (Some(_), None) => write!(f, "; the output's token is not a number"),
                    _ => write!(f, "; not numbers, so they must match exactly"),
                }
            }
            _ => write!(
                f,
                "expected {} token{}, found {}; first {} at token {index} (line {line}): `{}`",
                self.expected_count,
                if self.expected_count == 1 { "" } else { "s" },
                self.actual_count,
                if self.actual.is_some() {
                    "extra token"
                } else {
                    "missing token"
                },
                self.actual
                    .as_deref()
                    .or(self.expected.as_deref())
                    .unwrap_or_default(),
            ),
        }
    }
}

/// Compares `actual` with `expected` token by token: `Ok` when every token matches (numbers
/// within `error`), else the first difference.
pub fn compare(expected: &[u8], actual: &[u8], error: f64) -> Result<(), Mismatch> {
    let expected_tokens: Vec<(&[u8], usize)> = tokens(expected).collect();
    let actual_tokens: Vec<(&[u8], usize)> = tokens(actual).collect();
    let mismatch = |i: usize| {
        let text = |t: Option<&(&[u8], usize)>| t.map(|(t, _)| String::from_utf8_lossy(t).into());
        let line = match actual_tokens.get(i) {
            Some(&(_, line)) => line,
            None => actual_tokens.last().map_or(1, |&(_, line)| line),
        };
        Mismatch {
            index: i + 1,
            line,
            expected: text(expected_tokens.get(i)),
            actual: text(actual_tokens.get(i)),
            expected_count: expected_tokens.len(),
            actual_count: actual_tokens.len(),
            error,
        }
    };
    for (i, (&(e, _), &(a, _))) in expected_tokens.iter().zip(&actual_tokens).enumerate() {
        if !tokens_match(e, a, error) {
            return Err(mismatch(i));
        }
    }
    if expected_tokens.len() != actual_tokens.len() {
        return Err(mismatch(expected_tokens.len().min(actual_tokens.len())));
    }
    Ok(())
}

/// Whether one output token is right: the same bytes, or two numbers within `error`.
pub fn tokens_match(expected: &[u8], actual: &[u8], error: f64) -> bool {
    if expected == actual {
        return true;
    }
    let (Some(e), Some(a)) = (number_bytes(expected), number_bytes(actual)) else {
        return false;
    };
    within(e, a, error)
}

/// Whether `actual` is within `error` of `expected`, absolute or relative, as the decimals they
/// were read from are. Each number read into binary is off by up to half a unit in its last
/// place, and so is the difference: `0.500001 - 0.5` is `1.0000000000287557e-6`, a decimal
/// exactly at an error of 1e-6 (which BOJ allows "up to") a little over it in binary. So the
/// bound has a few units in the last place of the numbers compared to spare, far less than any
/// digit printed. An infinity (a huge exponent) is within no error of anything.
fn within(expected: f64, actual: f64, error: f64) -> bool {
    if !expected.is_finite() || !actual.is_finite() {
        return false;
    }
    let difference = (actual - expected).abs();
    let bound = allowed(expected, error);
    difference <= bound + (expected.abs() + actual.abs() + bound) * 2.0 * f64::EPSILON
}

/// The difference `error` allows from `expected`: absolute or relative, the larger.
fn allowed(expected: f64, error: f64) -> f64 {
    error.max(error * expected.abs())
}

/// `difference` in as few significant digits (three at least) as show it is over `bound`.
fn past(difference: f64, bound: f64) -> String {
    (2..17)
        .map(|digits| format!("{difference:.digits$e}"))
        .find(|shown| shown.parse::<f64>().map_or(true, |shown| shown > bound))
        .unwrap_or_else(|| format!("{difference:e}"))
}

/// The tokens of `text` (split on ASCII whitespace) with their 1-based line numbers.
fn tokens(text: &[u8]) -> impl Iterator<Item = (&[u8], usize)> {
    text.split(|&b| b == b'\n')
        .zip(1..)
        .flat_map(|(line, number)| {
            line.split(u8::is_ascii_whitespace)
                .filter(|t| !t.is_empty())
                .map(move |t| (t, number))
        })
}

/// The value of a token in plain decimal notation (see the module docs), or `None`.
pub fn number(token: &str) -> Option<f64> {
    number_bytes(token.as_bytes())
}

fn number_bytes(token: &[u8]) -> Option<f64> {
    if !is_plain_decimal(token) {
        return None;
    }
    // Plain decimal notation is a subset of what f64's parser reads; a huge exponent gives an
    // infinity, which then matches no other number (only the same token, compared as bytes).
    std::str::from_utf8(token).ok()?.parse().ok()
}

/// `[+-]digits[.digits][(e|E)[+-]digits]`, or `[+-].digits[(e|E)[+-]digits]`.
fn is_plain_decimal(token: &[u8]) -> bool {
    fn digits(s: &[u8]) -> usize {
        s.iter().take_while(|b| b.is_ascii_digit()).count()
    }
    let mut rest = token;
    if let [b'+' | b'-', tail @ ..] = rest {
        rest = tail;
    }
    let whole = digits(rest);
    rest = &rest[whole..];
    let mut fraction = 0;
    if let [b'.', tail @ ..] = rest {
        fraction = digits(tail);
        if fraction == 0 {
            return false;
        }
        rest = &tail[fraction..];
    }
    if whole == 0 && fraction == 0 {
        return false;
    }
    if let [b'e' | b'E', tail @ ..] = rest {
        let tail = match tail {
            [b'+' | b'-', t @ ..] => t,
            t => t,
        };
        let exponent = digits(tail);
        if exponent == 0 {
            return false;
        }
        rest = &tail[exponent..];
    }
    rest.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_decimal_numbers_only() {
        for yes in [
            "0", "-0", "+7", "0.5", ".5", "-.5", "1e9", "1E-9", "2.5e+3", "007", "3.000",
        ] {
            assert!(number(yes).is_some(), "{yes}");
        }
        for no in [
            "", "-", "+", ".", "5.", "e5", "1e", "1e+", "inf", "-inf", "nan", "NaN", "0x10",
            "1_000", "1.2.3", "1e5.5", " 1", "1 ", "١",
        ] {
            assert!(number(no).is_none(), "{no}");
        }
        assert_eq!(number("-.25e1"), Some(-2.5));
    }

    #[test]
    fn numbers_within_absolute_or_relative_error() {
        let e = 1e-9;
        assert!(tokens_match(
            b"0.33333333333333333333333333333333",
            b"0.3333333333333333",
            e
        ));
        assert!(!tokens_match(b"0.33333333333333333", b"0.3333", e));
        // Relative error: a large answer may be off by more than 1e-9 in absolute terms.
        assert!(tokens_match(b"1000000000000", b"1000000000000.0005", e));
        assert!(tokens_match(b"1000000000000", b"1000000000999", e));
        assert!(!tokens_match(b"1000000000000", b"1000000001001", e));
        // Absolute error: a tiny answer may be off by far more than relative.
        assert!(tokens_match(b"0.0000000000001", b"0", e));
        // Exactly at the bound is accepted.
        assert!(tokens_match(b"1", b"1.5", 0.5));
        assert!(!tokens_match(b"1", b"1.5000001", 0.5));
        // Other tokens must match exactly; a number never matches a word.
        assert!(tokens_match(b"YES", b"YES", e));
        assert!(!tokens_match(b"YES", b"yes", e));
        assert!(!tokens_match(b"1", b"one", e));
        assert!(!tokens_match(b"nan", b"NaN", e));
        assert!(tokens_match(b"inf", b"inf", e));
    }

    #[test]
    fn a_decimal_difference_exactly_at_the_error_is_accepted() {
        // 0.500001 - 0.5 is 1e-6 in decimal, but 1.0000000000287557e-6 once both are read
        // into binary: BOJ allows an error "up to" 1e-6, so that is AC.
        for (expected, actual) in [
            ("0.5", "0.500001"),
            ("0.5", "0.499999"),
            ("0.1", "0.100001"),
            ("0.3", "0.300001"),
            ("-0.3", "-0.300001"),
        ] {
            assert!(
                tokens_match(expected.as_bytes(), actual.as_bytes(), 1e-6),
                "{expected} against {actual}"
            );
            assert_eq!(
                compare(expected.as_bytes(), actual.as_bytes(), 1e-6),
                Ok(())
            );
        }
        // Relative: 200.0002 is 200 off by exactly 1e-6 of it.
        assert!(tokens_match(b"200", b"200.0002", 1e-6));
        // A hair past the bound is still wrong, and the message shows it is past.
        assert!(!tokens_match(b"0.5", b"0.5000010000001", 1e-6));
        assert!(!tokens_match(b"200", b"200.0002000001", 1e-6));
        let past = compare(b"0.5", b"0.5000010000001", 1e-6).unwrap_err();
        assert!(
            past.to_string()
                .contains("they differ by 1.0000001e-6, over the allowed error 1e-6"),
            "{past}"
        );
        // An infinity read from a huge exponent is within no error of anything else.
        assert!(!tokens_match(b"1e400", b"1e401", 1e-6));
        assert!(!tokens_match(b"1e400", b"1.0e400", 1e-6));
        assert!(!tokens_match(b"1e308", b"1e400", 1e-6));
    }

    #[test]
    fn whitespace_between_tokens_is_free() {
        assert_eq!(compare(b"1 2\n3\n", b"1\n2   3", 1e-9), Ok(()));
        assert_eq!(compare(b"0.5\n", b"  .5\r\n\n\n", 1e-9), Ok(()));
        assert_eq!(compare(b"", b"\n \n", 1e-9), Ok(()));
    }

    #[test]
    fn the_first_differing_token_is_reported() {
        let found = compare(b"1.0 2.0\n3.0\n", b"1.0 2.0\n3.1\n", 1e-3).unwrap_err();
        assert_eq!(found.index, 3);
        assert_eq!(found.line, 2);
        assert_eq!(found.expected.as_deref(), Some("3.0"));
        assert_eq!(found.actual.as_deref(), Some("3.1"));
        let text = found.to_string();
        assert!(
            text.contains("token 3 (line 2): expected `3.0`, found `3.1`"),
            "{text}"
        );
        assert!(text.contains("allowed error 1e-3"), "{text}");
    }

    #[test]
    fn a_different_token_count_is_wrong() {
        let short = compare(b"1 2 3", b"1 2", 1e-9).unwrap_err();
        assert_eq!(
            (short.index, short.expected_count, short.actual_count),
            (3, 3, 2)
        );
        assert_eq!(short.actual, None);
        assert!(short.to_string().contains("missing token"), "{short}");
        let long = compare(b"1", b"1\n2", 1e-9).unwrap_err();
        assert_eq!((long.index, long.line), (2, 2));
        assert!(long.to_string().contains("extra token"), "{long}");
        assert!(long.to_string().contains("`2`"), "{long}");
        assert!(
            long.to_string().starts_with("expected 1 token, found 2"),
            "{long}"
        );
        assert!(
            short.to_string().starts_with("expected 3 tokens, found 2"),
            "{short}"
        );
    }
}
