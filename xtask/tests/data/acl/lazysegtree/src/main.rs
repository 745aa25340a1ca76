//! Range add, range sum with ac-library-rs's `LazySegtree` and a `MapMonoid` of our own: `N Q`,
//! the values, then `0 l r x` adds x to a_l..a_{r-1} and `1 l r` prints their sum.

use ac_library::{LazySegtree, MapMonoid, Monoid};
use std::io::{self, Read, Write};

/// (sum, length) pairs.
struct SumLen;

impl Monoid for SumLen {
    type S = (i64, i64);
    fn identity() -> (i64, i64) {
        (0, 0)
    }
    fn binary_operation(a: &(i64, i64), b: &(i64, i64)) -> (i64, i64) {
        (a.0 + b.0, a.1 + b.1)
    }
}

/// Adding a constant to every element of a range.
struct RangeAdd;

impl MapMonoid for RangeAdd {
    type M = SumLen;
    type F = i64;
    fn identity_map() -> i64 {
        0
    }
    fn mapping(&f: &i64, &(sum, len): &(i64, i64)) -> (i64, i64) {
        (sum + f * len, len)
    }
    fn composition(&f: &i64, &g: &i64) -> i64 {
        f + g
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|t| t.parse::<i64>().unwrap());
    let (n, q) = (it.next().unwrap() as usize, it.next().unwrap());
    let values: Vec<(i64, i64)> = (0..n).map(|_| (it.next().unwrap(), 1)).collect();
    let mut tree: LazySegtree<RangeAdd> = values.into();
    let mut out = String::new();
    for _ in 0..q {
        let t = it.next().unwrap();
        let (l, r) = (it.next().unwrap() as usize, it.next().unwrap() as usize);
        if t == 0 {
            tree.apply_range(l..r, it.next().unwrap());
        } else {
            out.push_str(&format!("{}\n", tree.prod(l..r).0));
        }
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
