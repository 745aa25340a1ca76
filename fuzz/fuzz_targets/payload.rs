//! Fuzz target: the competitive-companion payload reader. Any bytes: no panic; an accepted
//! payload names a BOJ problem its URL names, with positive limits and samples whose line ends
//! are `\n` only.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xtask::companion::Import;

fuzz_target!(|data: &[u8]| {
    if let Ok(import) = Import::parse(data) {
        assert!(import.id > 0);
        assert!(
            import.url.contains(&import.id.to_string()),
            "{}",
            import.url
        );
        assert!(import.time_limit_ms > 0 && import.memory_limit_mb > 0);
        for sample in &import.samples {
            assert!(!sample.input.contains('\r') && !sample.output.contains('\r'));
        }
        let _ = import.label();
    }
});
