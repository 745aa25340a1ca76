//! Rectangles: uses `crate::`, `super::` and the other bundled crate `fixture_util`.

use std::fmt;

use crate::geometry::mul;
use fixture_util::clamp;

/// A rectangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// Width.
    pub w: i64,
    /// Height.
    pub h: i64,
}

impl Rect {
    /// Area, clamped to the unit table's range.
    pub fn area(&self) -> i64 {
        clamp(mul(self.w, self.h), 0, super::UNITS[3] * 1000)
    }

    /// Never called from the binary: this method goes, the type stays.
    pub fn perimeter(&self) -> i64 {
        2 * (self.w + self.h)
    }
}

/// Kept with `Rect`: a trait impl for a kept type.
impl fmt::Display for Rect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.w, self.h)
    }
}

/// Only `geometry` may call this.
pub(in crate::geometry) fn restricted() -> i64 {
    1
}
