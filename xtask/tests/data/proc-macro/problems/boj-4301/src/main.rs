//! Every kind of proc macro the bundler expands: a derive with a helper attribute (here, and in
//! the library `fixture_geometry`), an attribute macro with arguments, and function-like macros
//! in expression, statement, item and type position, inside `println!` too; the mixed-site
//! names of `sum_with_tmp!`, `label_loop!` and `helper_fn!` must not capture the caller's.
//! Reads N and N segments `x1 y1 x2 y2`; prints each segment's Manhattan length and the
//! descriptions, then what the macros compute.

use fixture_geometry::Point;
use fixture_runtime::{helper_fn, label_loop, make_const, pair_of, sum_with_tmp, times, Describe};
use std::io::Read;

#[derive(Describe)]
#[label = "segment"]
struct Segment {
    from: Point,
    to: Point,
}

make_const!(LIMIT, 1000);
helper_fn!();

#[times(3)]
fn tripled(x: i64) -> i64 {
    x + 1
}

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let v: Vec<i64> = text.split_ascii_whitespace().map(|w| w.parse().unwrap()).collect();
    let n = v[0] as usize;
    let mut total = 0;
    for k in 0..n {
        let at = |i: usize| v[1 + 4 * k + i];
        let s = Segment {
            from: Point { x: at(0), y: at(1) },
            to: Point { x: at(2), y: at(3) },
        };
        let length = s.from.manhattan(&s.to);
        total += length;
        println!("{} {} {} {}", length, s.describe(), s.from.describe(), s.to == s.from);
    }
    let tmp = 32;
    let shifted = sum_with_tmp!(tmp * 2);
    let count = 5;
    let loops = label_loop!(count);
    let pair: pair_of!(i64) = (helper(), tripled(2));
    println!("{} {} {} {}", shifted, loops, pair.0, pair.1);
    println!("{} {}", LIMIT - total, sum_with_tmp!(tmp));
}
