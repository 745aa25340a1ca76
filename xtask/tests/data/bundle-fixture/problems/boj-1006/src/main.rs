//! Fixture problem over the user's own macros, imported the 2018 way: `use algo::read_vals;`,
//! and two crates' `square!` side by side. Reads `a b` and prints what each macro makes.

use algo::read_vals;
use fixture_lib::square;

mod nested {
    //! A module of the solution that imports a macro too.
    use algo::sum_all;

    /// The sum of `a`, `b` and 3.
    pub fn total(a: i64, b: i64) -> i64 {
        sum_all!(a, b, 3)
    }
}

fn main() {
    let (a, b) = read_vals!(i64, i64);
    println!("{}", square!(a));
    println!("{:?}", algo::square!(b));
    println!("{} {}", nested::total(a, b), algo::cube(a));
}
