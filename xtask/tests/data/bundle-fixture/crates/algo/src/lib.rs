//! A user's own library with `#[macro_export]` macros, as Rust 2018 code writes them: called by
//! path, imported with `use algo::read_vals;`, through `#[macro_use] extern crate algo;`, from
//! inside other macros of the crate (`$crate::` paths and a hidden helper), and by bare name
//! inside the crate. Its `square!` shares a name with `fixture_lib::square!`.

use std::io::BufRead;

/// Reads one line of standard input and parses its whitespace-separated values as the types
/// given: `let (n, m) = read_vals!(usize, i64);`.
#[macro_export]
macro_rules! read_vals {
    ($($t:ty),+) => {{
        let line = $crate::read_line();
        let mut tokens = line.split_whitespace();
        ($($crate::__parse!(tokens, $t)),+)
    }};
}

/// Parses the next token as `$t` (a helper of `read_vals!`).
#[doc(hidden)]
#[macro_export]
macro_rules! __parse {
    ($tokens:ident, $t:ty) => {
        $tokens.next().expect("a value").parse::<$t>().expect("a number")
    };
}

/// The sum of its arguments, by recursion through `$crate::sum_all!`.
#[macro_export]
macro_rules! sum_all {
    ($x:expr) => { $x };
    ($x:expr, $($rest:expr),+) => { $x + $crate::sum_all!($($rest),+) };
}

/// `x` and its square, as a pair: not `fixture_lib::square!`, though named alike.
#[macro_export]
macro_rules! square {
    ($x:expr) => {
        ($x, $x * $x)
    };
}

/// Calls the method named by its second argument on its first: a method the pruner cannot see
/// being called, since its name is only an argument here.
#[macro_export]
macro_rules! call {
    ($value:expr, $method:ident) => {
        $value.$method()
    };
}

/// One line of standard input.
pub fn read_line() -> String {
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line).expect("stdin");
    line
}

/// `x` cubed, with the crate's own `square!` called by its bare name.
pub fn cube(x: i64) -> i64 {
    let (_, squared) = square!(x);
    squared * x
}

/// A length in metres.
pub struct Meters(pub i64);

impl Meters {
    /// Twice the length.
    pub fn doubled(&self) -> i64 {
        self.0 * 2
    }

    /// Never called: pruned.
    pub fn halved(&self) -> i64 {
        self.0 / 2
    }
}
