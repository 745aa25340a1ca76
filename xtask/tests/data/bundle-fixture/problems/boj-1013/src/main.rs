//! Fixture problem whose dev-dependency asks for a feature its solution's build does not have:
//! the bundle is made of the judge build's features, not the union over dev-dependencies.

fn main() {
    println!("{} {}", fixture_features::speed(), fixture_features::greet("boj"));
}
