//! Fuzz target: a problem's `Cargo.toml` as the xtask reads it. Any text: no panic, an error
//! is one line, and an accepted manifest's judge has what it needs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xtask::workspace::problem::{read_manifest, Judge, JudgeKind};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match read_manifest(text) {
        Ok(read) => {
            assert!(!read.solver_bin.is_empty() || read.name.is_empty());
            match (&read.judge, read.meta.judge) {
                (Judge::Exact, JudgeKind::Exact) => {}
                (Judge::Checker(name), JudgeKind::Checker) => {
                    assert_eq!(Some(name), read.meta.checker.as_ref())
                }
                (Judge::Interactive(name), JudgeKind::Interactive) => {
                    assert_eq!(Some(name), read.meta.interactor.as_ref())
                }
                (Judge::Float(error), JudgeKind::Float) => {
                    assert!(error.is_finite() && *error >= 0.0)
                }
                other => panic!("the judge read and the kind written disagree: {other:?}"),
            }
        }
        Err(why) => assert!(!why.contains('\n'), "{why}"),
    }
});
