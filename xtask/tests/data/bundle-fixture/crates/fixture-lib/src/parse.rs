//! Whitespace-separated integers.

/// Every integer in `text`.
pub fn numbers(text: &str) -> Vec<i64> {
    text.split_whitespace()
        .map(|t| t.parse().expect("an integer"))
        .collect()
}
