//! Fixture library for the bundler's tests: docs, nested modules, `crate::` paths, a
//! `$crate` macro, test-only code and an unused function.
//!
//! ```
//! assert_eq!(fixture_lib::add(1, 2), 3);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod geometry;
mod parse;

pub use geometry::area::Rect;
pub use parse::numbers;

/// Squares an expression with the crate's own `mul`: `$crate` must reach the bundled module.
#[macro_export]
macro_rules! square {
    ($x:expr) => {
        $crate::geometry::mul($x, $x)
    };
}

/// Adds two numbers (a comment follows, and must vanish).
pub fn add(a: i64, b: i64) -> i64 {
    // Plain comment.
    checked(a + b)
}

/// Never called from the binary: must not appear in a bundle.
pub fn unused_helper() -> i64 {
    42
}

/// Crate-private: `pub(crate)` must keep meaning "this library" once inlined.
pub(crate) fn checked(x: i64) -> i64 {
    assert!(x.abs() < 1 << 40, "overflow risk");
    x
}

/// A raw string that looks like code: a text-editing bundler would mangle it.
pub const BANNER: &str = r#"crate::not_a_path // not a comment /* nor this */"#;

#[cfg(test)]
fn test_only_helper() -> i64 {
    7
}

#[test]
fn stray_root_test() {
    assert_eq!(test_only_helper(), 7);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(2, 2), 4);
    }
}
