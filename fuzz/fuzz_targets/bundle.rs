//! Fuzz target: a library crate's source as the bundler reads it (inlined, its edition
//! rewritten, its paths and macros rewritten, pruned from a `main` that uses it, printed). Any
//! text: a bundle or an error, never a panic. The property test
//! `the_bundler_ends_edited_crate_sources_in_a_bundle_or_an_error_never_a_panic` is its twin.
#![no_main]

use std::collections::BTreeMap;
use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;
use xtask::bundle::cfg::Cfg;
use xtask::bundle::judge_rust::JudgeRust;
use xtask::bundle::manifest::{LibCrate, Plan, Source};

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
    let plan = Plan {
        package: "fuzz".to_string(),
        dir: dir.clone(),
        main: dir.join("main.rs"),
        deps: BTreeMap::from([("lib".to_string(), "lib".to_string())]),
        libs: vec![LibCrate {
            module: "lib".to_string(),
            package: "lib 0.1.0".to_string(),
            source: Source::Path,
            dir: dir.join("lib"),
            root: dir.join("lib/lib.rs"),
            edition: edition.to_string(),
            cfg: Cfg::default(),
            rust_version: None,
            deps: BTreeMap::new(),
            refusal: None,
            proc_macro: false,
        }],
        cfg: Cfg::default(),
        edition: "2021".to_string(),
        target_dir: dir.join("target"),
        workspace_root: dir.clone(),
        judge_rust: JudgeRust::of_problem(None),
    };
    if let Err(e) = xtask::bundle::render_sources(&plan) {
        assert!(!format!("{e:#}").is_empty());
    }
});
