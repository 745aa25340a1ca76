//! Fuzz target: a library crate's source as the bundler reads it (inlined, its edition
//! rewritten, its paths and macros rewritten, pruned from a `main` that uses it, printed). Any
//! text: a bundle or an error, never a panic. The property test
//! `the_bundler_ends_edited_crate_sources_in_a_bundle_or_an_error_never_a_panic` is its twin.
#![no_main]

use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;
use xtask::bundle::manifest::{LibCrate, Plan};

fuzz_target!(|data: &[u8]| {
    let (edition, source) = match data.split_first() {
        Some((0, rest)) => ("2015", rest),
        Some((1, rest)) => ("2018", rest),
        Some((_, rest)) => ("2021", rest),
        None => return,
    };
    let dir: PathBuf = std::env::temp_dir().join(format!("fuzz-bundle-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::write(dir.join("main.rs"), "fn main() { lib::run(); }\n").unwrap();
    std::fs::write(dir.join("lib/lib.rs"), source).unwrap();
    let plan = Plan::without_cargo(
        &dir,
        vec![LibCrate::in_folder("lib", &dir.join("lib"), edition)],
    );
    if let Err(e) = xtask::bundle::render_sources(&plan) {
        assert!(!format!("{e:#}").is_empty());
    }
});
