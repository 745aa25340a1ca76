//! A library that uses the fixture's derive itself: its expansion is the library's code, with
//! `::fixture_runtime::Describe` to rewrite to the bundle's module.

use fixture_runtime::Describe;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Describe)]
#[label = "point"]
pub struct Point {
    pub x: i64,
    pub y: i64,
}

impl Point {
    pub fn manhattan(&self, other: &Point) -> i64 {
        (self.x - other.x).abs() + (self.y - other.y).abs()
    }
}

/// Never used by the solutions: pruned with everything it derives.
#[derive(Describe)]
pub struct Unused;
