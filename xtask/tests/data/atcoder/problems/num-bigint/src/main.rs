//! Big numbers with num-bigint and num-traits: `N M` then two integers of any length. Prints
//! the binomial coefficient C(N, M) (BOJ 2407), the sum, difference and product of the two
//! integers (BOJ 10757's kind), and 3 to the power N.

use num_bigint::{BigInt, BigUint};
use num_traits::{pow, One, Signed, Zero};
use std::io::{self, Read};

fn binomial(n: u32, m: u32) -> BigUint {
    let mut c = BigUint::one();
    for k in 0..m {
        c = c * (n - k) / (k + 1);
    }
    c
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace();
    let n: u32 = tokens.next().unwrap().parse().unwrap();
    let m: u32 = tokens.next().unwrap().parse().unwrap();
    let a: BigInt = tokens.next().unwrap().parse().unwrap();
    let b: BigInt = tokens.next().unwrap().parse().unwrap();
    println!("{}", binomial(n, m));
    println!("{}", &a + &b);
    let difference = &a - &b;
    println!("{} {}", difference, difference.abs().is_zero());
    println!("{}", a * b);
    println!("{}", pow(BigUint::from(3u32), n as usize));
}
