//! A Rust 2015 crate: crate-relative `use` paths, `::` paths to its own items, trait objects
//! without `dyn`, a `$p:pat` macro fragment, lone panic messages and `into_iter` on an array.

extern crate fixture_util;

pub mod shapes;

use shapes::{Shape, Square};

/// Matches its argument against either of two patterns: `$p:pat | $q:pat` is two patterns in
/// 2015 and 2018, but 2021's `pat` would swallow the `|` (hence `pat_param` in the bundle).
macro_rules! either_pattern {
    ($value:expr, $p:pat | $q:pat) => {
        match $value {
            $p | $q => true,
            _ => false,
        }
    };
}

/// The total area of the shapes, clamped to 0..=1000 by the other crate.
pub fn total_area(shapes: &[Box<Shape>]) -> i64 {
    let sum: i64 = shapes.iter().map(|s| s.area()).sum();
    ::fixture_util::clamp(sum, 0, 1000)
}

/// The shapes of a test: squares of sides 1, 2, 3, in a 2015 way.
pub fn squares() -> Vec<Box<Shape>> {
    let mut out: Vec<Box<Shape>> = Vec::new();
    for side in [1, 2, 3].into_iter() {
        // 2015/2018 iterate an array literal by reference: `side` is `&i64`.
        out.push(Box::new(Square { side: *side }));
    }
    out
}

/// Whether `n` is small.
pub fn is_small(n: i64) -> bool {
    either_pattern!(n, 0...1 | 2)
}

/// Fails with the message as written (2018 printed a lone message as is).
pub fn check(ok: bool, message: &str) {
    if !ok {
        panic!(message);
    }
    assert!(ok, message);
    if message.is_empty() {
        panic!("{}");
    }
}

/// Never used: must not appear in a bundle.
pub fn unused_old() -> i64 {
    ::shapes::unused_shape()
}
