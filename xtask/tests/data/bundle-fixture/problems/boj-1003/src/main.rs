//! Fixture problem over a crate with features: prints what cargo's features made of it.

fn main() {
    println!("{} {}", fixture_features::speed(), fixture_features::greet("boj"));
}
