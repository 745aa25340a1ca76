//! Fixture problem over a crate whose build script does more than decide cfgs: refused.

fn main() {
    println!("{}", fixture_codegen::TABLE[2]);
}
