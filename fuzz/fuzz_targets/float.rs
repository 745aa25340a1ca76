//! Fuzz target: the float judge. Any two outputs: no panic; an output always matches itself;
//! a token read as a number is one f64's parser reads to the same value, made of digits, signs,
//! a point and an exponent only; the first mismatch, if any, points at a real token.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xtask::judge::float::{compare, number, tokens_match};

fuzz_target!(|data: &[u8]| {
    let cut = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (expected, actual) = (&data[..cut], data.get(cut + 1..).unwrap_or_default());
    let error = 1e-6;
    assert_eq!(compare(expected, expected, error), Ok(()));
    if let Err(mismatch) = compare(expected, actual, error) {
        let count = |text: &[u8]| {
            text.split(u8::is_ascii_whitespace)
                .filter(|t| !t.is_empty())
                .count()
        };
        assert_eq!(mismatch.expected_count, count(expected));
        assert_eq!(mismatch.actual_count, count(actual));
        assert!(mismatch.index >= 1);
        assert!(mismatch.index <= mismatch.expected_count.max(mismatch.actual_count));
        let _ = mismatch.to_string();
    }
    for token in std::str::from_utf8(data)
        .unwrap_or_default()
        .split_whitespace()
    {
        assert!(tokens_match(token.as_bytes(), token.as_bytes(), error));
        if let Some(value) = number(token) {
            assert!(
                token.bytes().all(|b| b"0123456789+-.eE".contains(&b)),
                "{token}"
            );
            assert_eq!(token.parse::<f64>().ok(), Some(value), "{token}");
        }
    }
});
