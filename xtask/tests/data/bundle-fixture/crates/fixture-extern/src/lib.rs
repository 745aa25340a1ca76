//! A foreign function declared `safe` in an `unsafe extern` block (Rust 1.82), which syn keeps
//! as tokens: the bundle prints it as they are.

unsafe extern "C" {
    pub safe fn abs(i: i32) -> i32;
}

/// `|n|`, from C's `abs`.
pub fn run(n: i32) -> i32 {
    abs(n)
}
