//! Fixture problem in proconio's shape: `#[fastout]` and a derive from a proc-macro crate,
//! imported through a library's glob re-export of its macros. Refused by name.

use fixture_reexport::{answer, fastout, Describe};

#[derive(Describe)]
struct Point;

#[fastout]
fn main() {
    println!("{} {}", Point.describe(), answer!());
}
