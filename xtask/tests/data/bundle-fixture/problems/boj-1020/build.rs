//! Sets a cfg for the solution itself, and nothing the bundle cannot decide.

fn main() {
    println!("cargo:rustc-check-cfg=cfg(own_fast)");
    println!("cargo:rustc-cfg=own_fast");
}
