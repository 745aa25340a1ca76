//! im-rc's persistent `Vector` and `OrdMap`: `N Q`, N integers (version 0), then Q lines
//! `v i x` (version v with element i, 0-based, set to x, makes the next version) or `? v i`
//! (prints element i of version v). Ends with each version's sum, from an `OrdMap` by version.

use im_rc::{OrdMap, Vector};
use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace();
    let mut next = || tokens.next().unwrap();
    let n: usize = next().parse().unwrap();
    let q: usize = next().parse().unwrap();
    let first: Vector<i64> = (0..n).map(|_| next().parse().unwrap()).collect();
    let mut versions = vec![first];
    let mut out = Vec::new();
    for _ in 0..q {
        let word = next();
        if word == "?" {
            let v: usize = next().parse().unwrap();
            let i: usize = next().parse().unwrap();
            out.push(versions[v][i].to_string());
        } else {
            let v: usize = word.parse().unwrap();
            let i: usize = next().parse().unwrap();
            let x: i64 = next().parse().unwrap();
            let changed = versions[v].update(i, x);
            versions.push(changed);
        }
    }
    let sums: OrdMap<usize, i64> = versions
        .iter()
        .enumerate()
        .map(|(k, v)| (k, v.iter().sum::<i64>()))
        .collect();
    for (k, sum) in &sums {
        out.push(format!("{} {}", k, sum));
    }
    println!("{}", out.join("\n"));
}
