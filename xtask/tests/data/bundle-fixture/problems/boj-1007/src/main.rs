//! Fixture problem over the user's own macros, imported the 2015 way: `#[macro_use] extern
//! crate algo;` puts every macro of the crate in scope, in nested modules too.

#[macro_use]
extern crate algo;

mod nested {
    //! Uses a macro that only `#[macro_use]` brought.
    /// `x` and its square.
    pub fn pair(x: i64) -> (i64, i64) {
        square!(x)
    }
}

fn main() {
    let (a, b) = read_vals!(i64, i64);
    println!("{:?} {}", nested::pair(a), sum_all!(a, b));
}
