//! Union-find as acl-dsu (`N Q`, then `0 u v` joins and `1 u v` prints 1 when u and v are
//! together, else 0; last, the number of groups), beside a module of the solution's own named
//! like the crate it uses, `ac_library`, read from its file: the crate is `::ac_library` at the
//! root, and plain `ac_library` in a module that does not bind the name; the solution's module
//! is `ac_library` at the root and in a module that imports it.

use ::ac_library::Dsu;
use std::io::{self, Read, Write};

mod ac_library;

/// The crate by its plain name: nothing here takes it.
mod joins {
    use ac_library::dsu::Dsu;

    pub fn merge_all(dsu: &mut Dsu, pairs: &[(usize, usize)]) {
        for &(u, v) in pairs {
            dsu.merge(u, v);
        }
    }
}

/// The solution's module, imported under its name: `ac_library::` here is the solution's.
mod answers {
    use crate::ac_library;

    pub fn line(same: bool) -> &'static str {
        ac_library::answer(same)
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<usize>().unwrap());
    let (n, q) = (it.next().unwrap(), it.next().unwrap());
    let mut dsu = Dsu::new(n);
    let mut out = String::new();
    for _ in 0..q {
        let (t, u, v) = (it.next().unwrap(), it.next().unwrap(), it.next().unwrap());
        if t == 0 {
            joins::merge_all(&mut dsu, &[(u, v)]);
        } else {
            out.push_str(answers::line(dsu.same(u, v)));
        }
    }
    out.push_str(&ac_library::summary(dsu.groups().len()));
    io::stdout().write_all(out.as_bytes()).unwrap();
}
