//! bitvec's `BitVec` and `bitvec!`: `N`, then Q queries `a b`. A sieve of Eratosthenes up to N
//! in a `BitVec`: prints how many primes there are up to N, then for each query how many lie in
//! `[a, b]`, then the first ten primes' bits as 0/1 from the bit slice.

use bitvec::prelude::*;
use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<usize>().unwrap());
    let n = numbers.next().unwrap();
    let q = numbers.next().unwrap();
    let mut prime: BitVec<usize, Lsb0> = bitvec![usize, Lsb0; 1; n + 1];
    prime.set(0, false);
    prime.set(1, false);
    let mut p = 2;
    while p * p <= n {
        if prime[p] {
            let mut m = p * p;
            while m <= n {
                prime.set(m, false);
                m += p;
            }
        }
        p += 1;
    }
    println!("{}", prime.count_ones());
    for _ in 0..q {
        let (a, b) = (numbers.next().unwrap(), numbers.next().unwrap());
        println!("{}", prime[a..=b].count_ones());
    }
    let bits: String = prime[..10]
        .iter()
        .map(|b| if *b { '1' } else { '0' })
        .collect();
    println!("{}", bits);
}
