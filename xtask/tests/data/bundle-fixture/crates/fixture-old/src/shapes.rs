//! Shapes behind a trait, used as trait objects without `dyn`, as Rust 2015 allowed.

/// Something with an area.
pub trait Shape {
    /// Its area.
    fn area(&self) -> i64;
}

/// A square.
pub struct Square {
    /// Its side.
    pub side: i64,
}

impl Shape for Square {
    fn area(&self) -> i64 {
        self.side * self.side
    }
}

/// Never used.
pub fn unused_shape() -> i64 {
    7
}
