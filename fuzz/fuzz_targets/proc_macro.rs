//! Fuzz target: the proc-macro pass over any source, as the root of the solution's crate and of
//! a library's, its macros expanded by the in-process stand-in of the proc-macro server
//! (`xtask::bundle::proc_macros::stand_in`: an identity macro, one with a mixed-site local, a
//! derive that writes impls, an attribute that renames). Never a panic, and what the walk
//! promises kept (a refusal in one line naming the solution; a walked crate that prints and
//! parses again, with no helper left beside the derives expanded and no
//! `#[automatically_derived]` on an inherent impl they wrote). The property test
//! `the_proc_macro_pass_walks_edited_sources_keeping_its_promises` is its twin; its seeds are
//! `xtask/tests/data/proc-macro-walks/`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xtask::bundle::proc_macros::stand_in::walk_and_check;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    for main in [true, false] {
        if let Err(broken) = walk_and_check(source, main) {
            panic!("{broken}");
        }
    }
});
