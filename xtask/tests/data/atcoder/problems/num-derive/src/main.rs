//! num-derive 0.4: `#[derive(FromPrimitive, ToPrimitive)]` on an enum with explicit
//! discriminants, and on a newtype (`Meters(i64)`), with num-traits' traits in scope to call
//! them. Reads `Q` and Q lines `k a b`: operation code `k` (1 add, 2 subtract, 3 multiply, 7
//! maximum) applied to `a` and `b`; prints `CODE RESULT` for a known code, `unknown K` for
//! another, and at the end the sum of the results as `Meters` read back through `to_i64`.

use num_derive::{FromPrimitive, ToPrimitive};
use num_traits::{FromPrimitive, ToPrimitive};
use std::io::Read;

#[derive(Debug, Clone, Copy, PartialEq, Eq, FromPrimitive, ToPrimitive)]
enum Op {
    Add = 1,
    Sub = 2,
    Mul = 3,
    Max = 7,
}

#[derive(Debug, Clone, Copy, FromPrimitive, ToPrimitive)]
struct Meters(i64);

fn apply(op: Op, a: i64, b: i64) -> i64 {
    match op {
        Op::Add => a + b,
        Op::Sub => a - b,
        Op::Mul => a * b,
        Op::Max => a.max(b),
    }
}

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let mut words = text.split_ascii_whitespace();
    let mut next = || words.next().unwrap().parse::<i64>().unwrap();
    let q = next();
    let mut total = Meters(0);
    let mut out = String::new();
    for _ in 0..q {
        let (k, a, b) = (next(), next(), next());
        match Op::from_i64(k) {
            Some(op) => {
                let r = apply(op, a, b);
                total = Meters::from_i64(total.0 + r).unwrap();
                out.push_str(&format!("{} {}\n", op.to_u8().unwrap(), r));
            }
            None => out.push_str(&format!("unknown {}\n", k)),
        }
    }
    out.push_str(&format!("{}\n", total.to_i64().unwrap()));
    print!("{}", out);
}
