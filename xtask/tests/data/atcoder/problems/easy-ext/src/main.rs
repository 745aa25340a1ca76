//! easy-ext 1.0: `#[ext(ChMax)] impl i64 { fn chmax ... }` (a named extension trait, as in
//! AtCoder templates), and an unnamed one over slices, `#[ext] impl<T: Ord + Copy> [T]`.
//! Reads `N` and N integers; prints the largest sum of a non-empty contiguous run (Kadane's
//! algorithm with `chmax`), how many times the running best improved, and the largest element.

use easy_ext::ext;
use std::io::Read;

#[ext(ChMax)]
impl i64 {
    fn chmax(&mut self, v: i64) -> bool {
        if v > *self {
            *self = v;
            true
        } else {
            false
        }
    }
}

#[ext]
impl<T: Ord + Copy> [T] {
    fn largest(&self) -> T {
        let mut best = self[0];
        for &x in self {
            if x > best {
                best = x;
            }
        }
        best
    }
}

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let mut words = text.split_ascii_whitespace();
    let n: usize = words.next().unwrap().parse().unwrap();
    let a: Vec<i64> = (0..n).map(|_| words.next().unwrap().parse().unwrap()).collect();
    let mut best = i64::MIN;
    let mut improved = 0;
    let mut run = 0i64;
    for &x in &a {
        run = if run > 0 { run + x } else { x };
        if best.chmax(run) {
            improved += 1;
        }
    }
    println!("{}\n{}\n{}", best, improved, a.largest());
}
