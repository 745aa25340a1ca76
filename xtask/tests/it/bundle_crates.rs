//! Bundles of crates from AtCoder's crate list (`tests/data/atcoder/`, from crates.io): each
//! fixture solution bundled with `--check`, compiled alone with this toolchain and with Debian's
//! rustc 1.63 where the crates' `rust-version` allows, its sample judged AC; its size bounded,
//! and what its bundle must keep there (the `use` lines of extension traits and macros, the
//! traits themselves). docs/bundling.md's table comes from these.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::support::{run_xtask, scratch, text};

/// One fixture solution: its folder under `problems/`, the largest its bundle may be (bytes,
/// about 15% over what it was when written), whether Debian's rustc 1.63 is expected to
/// compile it, and text its bundle must contain.
struct Solution {
    name: &'static str,
    limit: usize,
    old_rustc: bool,
    kept: &'static [&'static str],
}

const SOLUTIONS: [Solution; 21] = [
    Solution {
        name: "proconio",
        limit: 18_000,
        // proconio 0.4.5 declares rust-version 1.70 (it uses `std::sync::OnceLock`).
        old_rustc: false,
        kept: &[
            "use proconio::input;",
            "use proconio::marker::{Chars, Usize1};",
            "macro_rules! __proconio__input",
            "pub use crate::__proconio__input as input;",
            "$crate::proconio::read_value!",
        ],
    },
    Solution {
        name: "itertools",
        limit: 60_000,
        old_rustc: true,
        kept: &[
            "use itertools::{iproduct, izip, Itertools};",
            "pub trait Itertools",
            "fn sorted(",
            "fn collect_vec(",
            "pub use crate::__itertools__iproduct as iproduct;",
            "pub use crate::__itertools__izip as izip;",
        ],
    },
    Solution {
        name: "num-bigint",
        limit: 385_000,
        old_rustc: true,
        kept: &["pub struct BigUint", "pub struct BigInt", "pub trait One"],
    },
    Solution {
        name: "num-integer",
        limit: 105_000,
        old_rustc: true,
        kept: &["use num_integer::{Integer, Roots};", "pub trait Roots"],
    },
    Solution {
        name: "num-traits",
        limit: 76_000,
        old_rustc: true,
        kept: &["pub trait PrimInt", "pub fn checked_pow"],
    },
    Solution {
        name: "num-rational",
        limit: 440_000,
        old_rustc: true,
        kept: &["pub struct Ratio"],
    },
    Solution {
        name: "superslice",
        limit: 11_000,
        old_rustc: true,
        kept: &[
            "use superslice::Ext;",
            "pub trait Ext",
            "impl<T> Ext for [T]",
        ],
    },
    Solution {
        name: "hash-float-bits",
        limit: 155_000,
        old_rustc: true,
        kept: &[
            "pub struct FixedBitSet",
            "pub struct OrderedFloat",
            "pub type FxHashMap",
        ],
    },
    Solution {
        name: "petgraph",
        limit: 117_000,
        old_rustc: true,
        kept: &["pub fn dijkstra"],
    },
    Solution {
        name: "either",
        limit: 21_000,
        old_rustc: true,
        kept: &["pub enum Either"],
    },
    Solution {
        name: "maplit",
        limit: 4_000,
        old_rustc: true,
        kept: &["use crate::maplit::__macros::*;"],
    },
    Solution {
        name: "permutohedron",
        limit: 3_200,
        old_rustc: true,
        kept: &[
            "use permutohedron::LexicalPermutation;",
            "impl<T> LexicalPermutation for [T]",
        ],
    },
    Solution {
        name: "smallvec",
        limit: 31_000,
        old_rustc: true,
        kept: &["pub struct SmallVec"],
    },
    // Issue 38's.
    Solution {
        name: "multimap",
        limit: 15_000,
        // serde, behind multimap's default `serde_impl`, has a build script that generates
        // code: never reached, so no reason to refuse, and not in the bundle.
        old_rustc: true,
        kept: &["pub struct MultiMap", "pub fn get_vec"],
    },
    Solution {
        name: "pathfinding",
        limit: 134_000,
        // pathfinding 4.3.0 declares 1.65, its bundle compiles with 1.63 (`--check` notes it).
        old_rustc: true,
        kept: &["pub fn dijkstra", "pub fn bfs"],
    },
    Solution {
        name: "indexmap",
        limit: 191_000,
        // hashbrown's `cfg_if!` modules (`mod sse2; use sse2 as imp;`), read under their cfgs.
        old_rustc: true,
        kept: &[
            "pub struct IndexMap",
            "use sse2 as imp;",
            "use generic as imp;",
        ],
    },
    Solution {
        name: "ascii",
        limit: 65_000,
        // Edition 2015: `<&AsciiStr>::from(x)` kept its shape; `widen_box!`'s
        // `#[cfg(feature = "alloc")]` decided.
        old_rustc: true,
        kept: &[
            "use ascii::{AsAsciiStr, AsciiChar, AsciiString};",
            "<&AsciiStr>::from(",
            "#[cfg(all())]",
        ],
    },
    Solution {
        name: "rand",
        limit: 94_000,
        // zerocopy's `#[cfg(any(test, kani))] mod tests` is off (plain rustc sets neither), so
        // nothing of zerocopy, libc or rand_chacha is reached.
        old_rustc: true,
        kept: &["pub struct Mcg128Xsl64", "fn gen_range<", "fn shuffle<"],
    },
    Solution {
        name: "bitvec",
        // 452 KiB: under BOJ's 512 KB, which is the bound.
        limit: 512 * 1024,
        // radium's bare `if_atomic!` calls spelled out as paths to its re-export, one macro
        // where a forwarder beside it was ambiguous (E0659).
        old_rustc: true,
        kept: &[
            "pub type RadiumU8 = crate::radium::if_atomic! {",
            "pub struct BitVec<",
        ],
    },
    // Issue 43's: `lazy_static!` in the solution, whose `static ref PASCAL` its macro defines;
    // a second static built from the first.
    Solution {
        name: "lazy-static",
        limit: 6_000,
        old_rustc: true,
        kept: &[
            "use lazy_static::lazy_static;",
            "static ref PASCAL",
            "static ref ROW_SUMS",
            "macro_rules! __lazy_static__lazy_static",
            "pub struct Lazy<",
        ],
    },
    Solution {
        name: "im-rc",
        limit: 438_000,
        // bitmaps' `bits_for!(U17, u32)` for each of U1 to U1024 stays only for the sizes
        // im-rc uses; typenum's `generate_tuple_impls!` finds `U11` through `$crate::typenum::$u`.
        old_rustc: true,
        kept: &["pub type U64 = ", "pub struct Vector<"],
    },
];

/// Solutions over proc-macro crates (issue 43), whose macros are expanded into the bundle:
/// each with the Rust names of the proc-macro crates that must not be left in it.
const PROC_MACRO_SOLUTIONS: [(Solution, &[&str]); 5] = [
    (
        Solution {
            name: "proconio-derive",
            limit: 20_500,
            // proconio 0.4.5 declares rust-version 1.70 (it uses `std::sync::OnceLock`).
            old_rustc: false,
            kept: &[
                // `#[derive_readable]`: the struct's fields as `Readable::Output`, and the impl.
                "u: <Usize1 as crate::proconio::source::Readable>::Output,",
                "impl crate::proconio::source::Readable for Edge {",
                "impl crate::proconio::source::Readable for Point {",
                // `#[fastout]`: one buffered writer behind `print!` and `println!`.
                "let mut __proconio_stdout = ::std::io::BufWriter::new(__proconio_stdout.lock());",
                "macro_rules! println {",
                // The import of the macros goes; `input!`'s stays.
                "use proconio::input;",
            ],
        },
        &["proconio_derive", "fastout", "derive_readable"],
    ),
    (
        Solution {
            name: "num-derive",
            limit: 27_000,
            old_rustc: true,
            kept: &[
                "use num_traits as _num_traits;",
                "impl _num_traits::FromPrimitive for Op {",
                "impl _num_traits::ToPrimitive for Op {",
                "impl _num_traits::FromPrimitive for Meters {",
                "use num_traits::{FromPrimitive, ToPrimitive};",
            ],
        },
        &["num_derive"],
    ),
    (
        Solution {
            name: "memoise",
            limit: 3_100,
            old_rustc: true,
            kept: &["static BINOM", "fn binom_reset() {", "static COLLATZ"],
        },
        &["memoise"],
    ),
    (
        Solution {
            name: "easy-ext",
            limit: 1_700,
            old_rustc: true,
            kept: &[
                "trait ChMax {",
                "impl ChMax for i64 {",
                "fn largest(&self) -> T;",
            ],
        },
        &["easy_ext", "#[ext"],
    ),
    (
        Solution {
            name: "pathfinding-matrix",
            limit: 85_000,
            // pathfinding 4.3.0 declares 1.65, its bundle compiles with 1.63.
            old_rustc: true,
            kept: &[
                // thiserror's derive, used inside pathfinding, expanded in its module; its
                // `#[error("...")]` helper attributes gone.
                "impl std::error::Error for MatrixFormatError {}",
                "impl ::core::fmt::Display for MatrixFormatError {",
                "\"provided data does not correspond to the expected length\",",
            ],
        },
        &["thiserror_impl", "#[error("],
    ),
];

/// Solutions with an item of their own named like a crate their bundle carries: the crate's
/// module goes apart (`NAME_crate`), the solution's item keeps its name, and every path means
/// what it meant in the crate build. Each bundle had two items of one name at its root.
const NAMESAKES: [Solution; 4] = [
    // `mod either;` from its file; itertools uses the crate `either`, the solution does not.
    Solution {
        name: "namesake-either",
        limit: 50_000,
        old_rustc: true,
        kept: &[
            "// `either_crate` is the crate `either`, renamed: the solution's root has another \
             `either`.",
            "mod either {\n    pub fn even(",
            "filter(|(x, y)| either::even(*x + *y))",
            "mod either_crate {",
            "pub use crate::either_crate::Either::{Left, Right};",
        ],
    },
    // `either` at the root through a glob of the solution's own module.
    Solution {
        name: "namesake-glob",
        limit: 50_000,
        old_rustc: true,
        kept: &[
            "use util::*;",
            "filter(|(x, y)| either::even(*x + *y))",
            "mod either_crate {",
        ],
    },
    // `fn rand` beside the crate's module (another namespace), `struct rand_core` apart from
    // rand_core's.
    Solution {
        name: "namesake-rand",
        limit: 94_000,
        old_rustc: true,
        kept: &[
            "fn rand(rng: &mut Pcg64Mcg, n: usize) -> usize {",
            "let pivot = values[rand(rng, values.len())];",
            "struct rand_core {",
            "mod rand {",
            "pub use crate::rand_core_crate::{RngCore, SeedableRng};",
            "mod rand_core_crate {",
        ],
    },
    // `mod proconio` of the solution's own; the crate `::proconio`, its macros renamed apart.
    Solution {
        name: "namesake-proconio",
        limit: 18_000,
        // proconio 0.4.5 declares rust-version 1.70 (it uses `std::sync::OnceLock`).
        old_rustc: false,
        kept: &[
            "use crate::proconio_crate::input;",
            "mod proconio {",
            "println!(\"{}\", proconio::reversed(",
            "macro_rules! __proconio_crate__input",
            "pub use crate::__proconio_crate__input as input;",
        ],
    },
];

fn problem(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/atcoder/problems")
        .join(name)
}

/// `cargo xtask bundle PROBLEM -o DIR/NAME.rs --check [--rustc OLD]`, building into the
/// fixture workspace's own target folder: the run and the bundle.
fn bundle_check(name: &str, old: Option<&Path>, dir: &Path) -> (Output, String) {
    bundle_check_at(&problem(name), "atcoder-target", old, dir)
}

/// [`bundle_check`] of the problem folder `problem`, building into `target`.
fn bundle_check_at(
    problem: &Path,
    target: &str,
    old: Option<&Path>,
    dir: &Path,
) -> (Output, String) {
    let name = problem.file_name().unwrap().to_string_lossy();
    let out = dir.join(format!("{name}.rs"));
    let mut args = vec![
        "bundle",
        problem.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--check",
    ];
    if let Some(old) = old {
        args.extend(["--rustc", old.to_str().unwrap()]);
    }
    let result = run_xtask(target, &args);
    let bundle = std::fs::read_to_string(&out).unwrap_or_default();
    (result, bundle)
}

/// What is wrong with one solution's bundle, if anything.
fn judge_solution(solution: &Solution, old: Option<&Path>, dir: &Path) -> Vec<String> {
    let name = solution.name;
    let mut wrong = Vec::new();
    let (result, bundle) = bundle_check(name, old.filter(|_| solution.old_rustc), dir);
    let stdout = text(&result.stdout);
    if result.status.code() != Some(0) || !stdout.contains("1/1 AC") {
        wrong.push(format!("{name}: not AC\n{stdout}{}", text(&result.stderr)));
        return wrong;
    }
    if old.is_some() && solution.old_rustc && !stdout.contains("(rustc 1.63") {
        wrong.push(format!("{name}: not compiled with rustc 1.63\n{stdout}"));
    }
    // Nothing had to be kept beyond what pruning reaches.
    if stdout.contains("kept every item") || stdout.contains("kept all of") {
        wrong.push(format!("{name}: pruning alone broke the bundle\n{stdout}"));
    }
    if bundle.len() > solution.limit {
        wrong.push(format!(
            "{name}: {} bytes, over {}",
            bundle.len(),
            solution.limit
        ));
    }
    for kept in solution.kept {
        if !bundle.contains(kept) {
            wrong.push(format!("{name}: `{kept}` missing from the bundle"));
        }
    }
    // Tests and docs left out, as the header says: no test or doctest `cfg` survives (lazy_static
    // has `#[cfg(doctest)] doctest!("../README.md")`).
    for left_out in ["cfg(test)", "cfg(doctest)"] {
        if bundle.contains(left_out) {
            wrong.push(format!("{name}: `{left_out}` left in the bundle"));
        }
    }
    println!("{name}: {} bytes", bundle.len());
    wrong
}

#[test]
fn crates_from_atcoders_list_bundle_compile_alone_and_are_ac() {
    let dir = scratch("bundle-crates", "all");
    let old = crate::support::old_rustc();
    let next = AtomicUsize::new(0);
    let wrong = Mutex::new(Vec::new());
    // Two at a time: each is a cargo run and two rustc runs.
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(solution) = SOLUTIONS.get(k) else {
                    break;
                };
                let found = judge_solution(solution, old.as_deref(), &dir);
                wrong.lock().unwrap().extend(found);
            });
        }
    });
    let wrong = wrong.into_inner().unwrap();
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn a_solutions_own_item_named_like_a_bundled_crate_keeps_that_crates_module_apart() {
    let dir = scratch("bundle-crates", "namesakes");
    let old = crate::support::old_rustc();
    let wrong: Vec<String> = NAMESAKES
        .iter()
        .flat_map(|solution| judge_solution(solution, old.as_deref(), &dir))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn a_crate_that_needs_a_newer_rustc_is_named_before_compiling() {
    let Some(old) = crate::support::old_rustc() else {
        return;
    };
    let dir = scratch("bundle-crates", "newer");
    let (result, _) = bundle_check("proconio", Some(&old), &dir);
    let stdout = text(&result.stdout);
    let stderr = text(&result.stderr);
    assert_eq!(result.status.code(), Some(2), "{stdout}{stderr}");
    let note = "crate-proconio: note: proconio 0.4.5 needs Rust 1.70.0 (its rust-version); \
                /usr/bin/rustc is rustc 1.63.0";
    assert!(stdout.contains(note), "{stdout}");
    // Said before compiling, and again beside the old compiler's own words.
    assert!(!stdout.contains("compiled alone"), "{stdout}");
    assert!(stderr.contains("OnceLock"), "{stderr}");
    assert!(
        stderr.contains("proconio 0.4.5 needs Rust 1.70.0"),
        "{stderr}"
    );
}

#[test]
fn a_bundle_over_512_kb_is_refused_with_its_size_and_largest_crates() {
    // regex: every `use` it makes in a function body followed (no E0432), and 2.7 MB of unicode
    // tables and automata, over BOJ's 512 KB: said so, with the three largest crates, and not
    // compiled.
    let dir = scratch("bundle-crates", "regex");
    let (result, bundle) = bundle_check("regex", None, &dir);
    let stderr = text(&result.stderr);
    assert_eq!(result.status.code(), Some(1), "{stderr}");
    assert!(bundle.len() > 512 * 1024, "{} bytes", bundle.len());
    let said = format!("error: crate-regex: the bundle is {} bytes", bundle.len());
    assert!(stderr.contains(&said), "{stderr}");
    assert!(
        stderr.contains("over BOJ's 512 KB source limit"),
        "{stderr}"
    );
    assert!(
        stderr.contains("its largest crates: regex_syntax (")
            && stderr.contains("regex_automata (")
            && stderr.contains("aho_corasick ("),
        "{stderr}"
    );
    assert!(!stderr.contains("E0432"), "{stderr}");
    assert!(!text(&result.stdout).contains("compiled alone"));
}

#[test]
fn proc_macro_crates_are_expanded_and_their_bundles_compile_alone_and_are_ac() {
    // proconio's `#[fastout]` and `#[derive_readable]`, num-derive's `FromPrimitive` and
    // `ToPrimitive`, memoise's `#[memoise]` and `#[memoise_map]`, easy-ext's `#[ext]`: each
    // expanded through the toolchain's proc-macro server, no proc-macro crate left.
    if crate::proc_macros::server().is_none() {
        return;
    }
    let dir = scratch("bundle-crates", "proc-macros");
    let old = crate::support::old_rustc();
    let wrong = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some((solution, absent)) = PROC_MACRO_SOLUTIONS.get(k) else {
                    break;
                };
                let mut found = judge_solution(solution, old.as_deref(), &dir);
                let bundle = std::fs::read_to_string(dir.join(format!("{}.rs", solution.name)))
                    .unwrap_or_default();
                // Past the header's first line, which names the solution's folder.
                let code = bundle.split_once('\n').map_or("", |(_, rest)| rest);
                for name in *absent {
                    if code.contains(name) {
                        found.push(format!("{}: `{name}` left in the bundle", solution.name));
                    }
                }
                wrong.lock().unwrap().extend(found);
            });
        }
    });
    let wrong = wrong.into_inner().unwrap();
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn derive_mores_helpers_go_with_its_derives_beside_strums_and_the_bundle_has_no_warning() {
    // derive_more 2.1 declares its derives inside a `macro_rules!`, so its helpers
    // (`#[display("...")]`, `#[from]`) cannot be read from its source: they go by the rule that
    // whatever attribute is left once every derive but std's is expanded is a helper. strum's
    // `#[strum(...)]` go too; std's `Default` stays with its `#[default]`. The problem's judge
    // runs Rust 1.81, which derive_more 2.1 declares.
    if crate::proc_macros::server().is_none() {
        return;
    }
    let dir = scratch("bundle-crates", "derive-more");
    let problem =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/derive-crates/problems/derive-more");
    let (result, bundle) = bundle_check_at(&problem, "derive-crates-target", None, &dir);
    let stdout = crate::support::assert_success_saying(&result, "1/1 AC");
    assert!(!stdout.contains("note:"), "{stdout}");
    for expected in [
        "#[derive(Debug, Clone, Copy, PartialEq, Eq)]\nstruct Point {",
        "derive_more::core::write!(__derive_more_f, \"({x}, {y})\",)",
        "impl derive_more::core::ops::Add for Point {",
        // `From<(Point)>` as derive_more writes it, without the parentheses rustc warns of.
        "impl derive_more::core::convert::From<Point> for Event {",
        "#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]\nenum Dir {",
        "    #[default]\n    Stay,",
        // strum's `EnumIter` marks its iterator's inherent impl `#[automatically_derived]`.
        "\nimpl DirIter {",
    ] {
        assert!(bundle.contains(expected), "`{expected}` missing:\n{bundle}");
    }
    // Past the header, which names the crates.
    let code = bundle.split_once("\n\n").map_or("", |(_, rest)| rest);
    for absent in [
        "#[display",
        "#[from",
        "#[strum",
        "derive_more_impl",
        "strum_macros",
        "#[automatically_derived]\nimpl DirIter",
    ] {
        assert!(!code.contains(absent), "`{absent}` left:\n{bundle}");
    }
    let warnings = crate::support::compiled_alone_warnings(&dir.join("derive-more.rs"));
    assert!(warnings.is_empty(), "{warnings}");
}

/// A problem of `tests/data/atcoder-newest/`: the newest pathfinding and indexmap.
fn newest(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/atcoder-newest/problems")
        .join(name)
}

#[test]
fn the_newest_crates_are_ac_where_the_problems_rust_version_says_its_judge_is_that_new() {
    // pathfinding 4.16 (rust-version 1.88) and indexmap 2.14 with hashbrown 0.17 (1.85) use
    // let-else, inline format arguments and `use<..>` captures: fine for a judge of 1.88 and
    // 1.85, as those problems' `rust-version` says, and so not even noted.
    let dir = scratch("bundle-crates", "newest");
    for name in ["pathfinding", "indexmap"] {
        let (result, bundle) = bundle_check_at(&newest(name), "atcoder-newest-target", None, &dir);
        let stdout = text(&result.stdout);
        assert_eq!(
            result.status.code(),
            Some(0),
            "{name}: {stdout}{}",
            text(&result.stderr)
        );
        assert!(stdout.contains("1/1 AC"), "{name}: {stdout}");
        assert!(!stdout.contains("note:"), "{name}: {stdout}");
        assert!(
            bundle.contains("else {"),
            "{name}: no let-else in the bundle"
        );
    }
    // The same indexmap solution in a problem that sets no `rust-version`: its judge is taken
    // to run 1.56, so the newer syntax is an issue (exit 1), with the setting named once, and
    // each crate that declares a newer Rust is noted with the newest version that fits.
    let (result, _) = bundle_check_at(&newest("indexmap-boj"), "atcoder-newest-target", None, &dir);
    let (stdout, stderr) = (text(&result.stdout), text(&result.stderr));
    assert_eq!(result.status.code(), Some(1), "{stdout}{stderr}");
    let setting = "newer than Rust 1.56, what BOJ is believed to run (the problem's Cargo.toml \
                   sets no `rust-version`: set it to what your judge runs)";
    assert!(
        stderr.contains(&format!("let-else (Rust 1.65): {setting}")),
        "{stderr}"
    );
    assert_eq!(stderr.matches(setting).count(), 1, "{stderr}");
    assert!(
        stderr.contains("(Rust 1.58): newer than Rust 1.56\n"),
        "{stderr}"
    );
    let note = format!("note: indexmap 2.14.2 declares rust-version 1.85, {setting}");
    assert!(stdout.contains(&note), "{stdout}");
    // What cargo's resolver finds in the registry's index: indexmap 1.9.3 declares 1.56 (2.0
    // needs 1.63); said only where cargo could reach the index.
    let line = stdout.lines().find(|l| l.contains(&note)).unwrap();
    assert!(
        line.ends_with("the newest indexmap that declares Rust 1.56 or older is 1.9.3")
            || line.ends_with(&note),
        "{line}"
    );
}
