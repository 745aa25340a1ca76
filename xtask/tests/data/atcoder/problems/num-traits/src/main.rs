//! num-traits' generic integer traits: `Q`, then Q pairs `a e`. Prints, for each pair, a to the
//! power e in u32 and in u64 (or `overflow`), the digit sum of a, and how many of a's bits are
//! set, each computed by one generic function for every integer type.

use num_traits::{checked_pow, PrimInt, ToPrimitive};
use std::fmt::Display;
use std::io::{self, Read};

fn power_or_overflow<T: PrimInt + Display>(base: u64, exp: usize) -> String {
    match T::from(base).and_then(|b| checked_pow(b, exp)) {
        Some(p) => p.to_string(),
        None => "overflow".to_string(),
    }
}

fn digit_sum<T: PrimInt>(mut x: T) -> u64 {
    let ten = T::from(10).unwrap();
    let mut sum = 0;
    while !x.is_zero() {
        sum += (x % ten).to_u64().unwrap();
        x = x / ten;
    }
    sum
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u64>().unwrap());
    let q = numbers.next().unwrap();
    for _ in 0..q {
        let (a, e) = (numbers.next().unwrap(), numbers.next().unwrap() as usize);
        println!(
            "{} {} {} {}",
            power_or_overflow::<u32>(a, e),
            power_or_overflow::<u64>(a, e),
            digit_sum(a),
            a.count_ones()
        );
    }
    println!("{}", u16::max_value().to_u8().is_none());
}
