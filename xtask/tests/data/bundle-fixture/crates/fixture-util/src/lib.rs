//! Helpers that `fixture-lib` uses: a crate the binary reaches only through another crate.

/// `x` limited to `lo..=hi`.
pub fn clamp(x: i64, lo: i64, hi: i64) -> i64 {
    x.max(lo).min(hi)
}

/// Never used: must not appear in a bundle.
pub fn unused_util() -> i64 {
    0
}
