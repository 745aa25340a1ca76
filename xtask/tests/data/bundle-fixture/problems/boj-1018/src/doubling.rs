//! A module of the solution that calls a macro its parent defines above it.

pub fn doubled(x: i64) -> i64 {
    twice!(x)
}
