//! Union-find with ac-library-rs's `Dsu`: `N Q`, then `0 u v` joins and `1 u v` prints 1 when
//! u and v are together, else 0 (Library Checker's "unionfind").

use ac_library::Dsu;
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|t| t.parse::<usize>().unwrap());
    let (n, q) = (it.next().unwrap(), it.next().unwrap());
    let mut dsu = Dsu::new(n);
    let mut out = String::new();
    for _ in 0..q {
        let (t, u, v) = (it.next().unwrap(), it.next().unwrap(), it.next().unwrap());
        if t == 0 {
            dsu.merge(u, v);
        } else {
            out.push_str(if dsu.same(u, v) { "1\n" } else { "0\n" });
        }
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
