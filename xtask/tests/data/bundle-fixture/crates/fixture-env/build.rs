//! Sets an environment variable the crate reads at compile time.

fn main() {
    println!("cargo:rustc-env=FIXTURE_GREETING=hello");
}
