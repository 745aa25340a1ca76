//! Fixture problem over a Rust 2015 crate: the bundle, compiled as 2021, prints the same.

fn main() {
    let shapes = fixture_old::squares();
    fixture_old::check(true, "{not a format}");
    println!(
        "{} {} {}",
        fixture_old::total_area(&shapes),
        fixture_old::is_small(2),
        fixture_old::is_small(3)
    );
}
