//! Fixture problem with no library whose method is named only as its own macro's argument
//! (`call!(length, doubled)`), which pruning item by item cannot see: `N`, prints `2 × N`.

use std::io::{self, Read};

macro_rules! call {
    ($x:expr, $method:ident) => {
        $x.$method()
    };
}

struct Length(i64);

impl Length {
    fn doubled(&self) -> i64 {
        2 * self.0
    }

    #[allow(dead_code)]
    fn halved(&self) -> i64 {
        self.0 / 2
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let length = Length(input.trim().parse().unwrap());
    println!("{}", call!(length, doubled));
}
