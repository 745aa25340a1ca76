//! Sets a variable the solution reads at compile time, which one file cannot carry.

fn main() {
    println!("cargo:rustc-env=OWN_GREETING=hello");
}
