//! Fixture problem: reads two integers, prints their sum, the rectangle they make, its area and
//! the first one squared.

use std::io::Read;

use fixture_lib::{numbers, Rect};

mod report {
    //! A nested module of the binary: `fixture_lib::` here needs `crate::` in a bundle.
    use fixture_lib::add;

    /// The sum of all numbers.
    pub fn total(values: &[i64]) -> i64 {
        values.iter().fold(0, |acc, &v| add(acc, v))
    }
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("stdin");
    let values = numbers(&input);
    let rect = Rect {
        w: values[0],
        h: values[1],
    };
    println!("{}", report::total(&values));
    println!("{} {} {}", rect, rect.area(), fixture_lib::square!(values[0]));
    println!("{}", fixture_lib::BANNER.len());
}

/// Unused in the binary: must not appear.
#[allow(dead_code)]
fn unused_in_main() {}

#[cfg(test)]
mod tests {
    #[test]
    fn nothing() {}
}
