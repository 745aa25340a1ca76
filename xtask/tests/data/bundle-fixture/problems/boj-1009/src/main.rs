//! Fixture problem over a crate whose build script only decides cfgs.

fn main() {
    println!("{} {}", fixture_cfg::speed(), fixture_cfg::mode());
}
