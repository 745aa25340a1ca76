//! Point set, range sum with ac-library-rs's `Segtree<Additive<i64>>`: `N Q`, the values, then
//! `0 p x` sets a_p = x and `1 l r` prints a_l + ... + a_{r-1}.

use ac_library::{Additive, Segtree};
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|t| t.parse::<i64>().unwrap());
    let (n, q) = (it.next().unwrap() as usize, it.next().unwrap());
    let values: Vec<i64> = (0..n).map(|_| it.next().unwrap()).collect();
    let mut tree: Segtree<Additive<i64>> = values.into();
    let mut out = String::new();
    for _ in 0..q {
        let (t, a, b) = (it.next().unwrap(), it.next().unwrap(), it.next().unwrap());
        if t == 0 {
            tree.set(a as usize, b);
        } else {
            out.push_str(&format!("{}\n", tree.prod(a as usize..b as usize)));
        }
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
