//! Decides cfgs only, as autocfg-based build scripts do (num-traits'): the bundle must decide
//! them as this script did. The environment variable it sets is never read by the crate.

fn main() {
    println!("cargo:rustc-check-cfg=cfg(fixture_fast)");
    println!("cargo:rustc-check-cfg=cfg(fixture_mode, values(\"fast\", \"slow\"))");
    println!("cargo:rustc-check-cfg=cfg(fixture_never)");
    println!("cargo:rustc-cfg=fixture_fast");
    println!("cargo:rustc-cfg=fixture_mode=\"fast\"");
    println!("cargo:rustc-env=FIXTURE_UNREAD=1");
}
