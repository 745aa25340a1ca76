//! Property tests of the xtask's readers, the in-suite twins of `fuzz/fuzz_targets/`
//! (payload, manifest, float; seeded, a few thousand cases each): edited inputs never panic,
//! and what is accepted keeps each reader's promises.

use std::fs;
use std::path::Path;

use xtask::companion::Import;
use xtask::judge::float::{compare, number, tokens_match};
use xtask::workspace::problem::{read_manifest, Judge, JudgeKind};

/// SplitMix64, so that a failure names a seed that repeats it.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }

    /// `text` with one to four bytes deleted, replaced or inserted (from `alphabet`).
    fn edit(&mut self, text: &[u8], alphabet: &[u8]) -> Vec<u8> {
        let mut out = text.to_vec();
        for _ in 0..1 + self.below(4) {
            let at = self.below(out.len() + 1);
            let byte = alphabet[self.below(alphabet.len())];
            match self.below(3) {
                0 if at < out.len() => {
                    out.remove(at);
                }
                1 if at < out.len() => out[at] = byte,
                _ => out.insert(at, byte),
            }
        }
        out
    }
}

fn data(path: &str) -> Vec<u8> {
    fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

#[test]
fn an_edited_payload_is_read_or_refused_never_a_panic() {
    let payloads = [
        data("tests/data/companion/boj-1000.json"),
        data("tests/data/companion/boj-1008.json"),
        data("tests/data/companion/boj-2580.json"),
    ];
    let alphabet = b"{}[]\":,0123456789 \\\n\r\xffaeiu-.";
    let mut rng = Rng(1000);
    let mut accepted = 0;
    for i in 0..4000 {
        let text = rng.edit(&payloads[i % payloads.len()], alphabet);
        if let Ok(import) = Import::parse(&text) {
            accepted += 1;
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
        }
    }
    assert!(accepted > 100, "only {accepted} edits were still payloads");
}

#[test]
fn an_edited_manifest_is_read_or_refused_in_one_line() {
    // One manifest of every judge kind (the fuzz target's seeds too), and a stress problem's.
    let manifests = [
        data("tests/data/manifests/exact.toml"),
        data("tests/data/manifests/checker.toml"),
        data("tests/data/manifests/float.toml"),
        data("tests/data/manifests/interactive.toml"),
        data("tests/data/stress/uf-wrong/Cargo.toml"),
    ];
    let alphabet = b"[]=\"'.,-_ \n#abcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = Rng(2239);
    let (mut accepted, mut refused) = (0, 0);
    let mut kinds = std::collections::HashSet::new();
    for i in 0..5000 {
        let bytes = rng.edit(&manifests[i % manifests.len()], alphabet);
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        match read_manifest(&text) {
            Ok(read) => {
                accepted += 1;
                kinds.insert(read.meta.judge);
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
            Err(why) => {
                refused += 1;
                assert!(!why.contains('\n') && !why.is_empty(), "{why:?}");
            }
        }
    }
    assert!(
        accepted > 100 && refused > 100,
        "{accepted} read, {refused} refused"
    );
    assert_eq!(kinds.len(), 4, "every judge kind read: {kinds:?}");
}

/// Tokens built from parts whose validity is known by construction, against `number`; then
/// whole outputs against `compare`.
#[test]
fn the_float_judge_reads_exactly_plain_decimal_numbers() {
    let mut rng = Rng(1008);
    let mut numbers = 0;
    for _ in 0..20_000 {
        let mut token = String::new();
        let mut valid = true;
        let digits = |rng: &mut Rng, n: usize| -> String {
            (0..n)
                .map(|_| char::from(b'0' + rng.below(10) as u8))
                .collect()
        };
        token.push_str(["", "+", "-", "--"][rng.below(4)]);
        valid &= !token.starts_with("--");
        let whole = rng.below(3);
        token.push_str(&digits(&mut rng, whole));
        let mut fraction = 0;
        if rng.below(2) == 0 {
            token.push('.');
            fraction = rng.below(3);
            token.push_str(&digits(&mut rng, fraction));
            valid &= fraction > 0;
        }
        valid &= whole + fraction > 0;
        if rng.below(3) == 0 {
            token.push(['e', 'E'][rng.below(2)]);
            token.push_str(["", "+", "-"][rng.below(3)]);
            let exponent = rng.below(3);
            token.push_str(&digits(&mut rng, exponent));
            valid &= exponent > 0;
        }
        match rng.below(10) {
            0 => {
                token.push_str(["x", "inf", "nan", "_1", "."][rng.below(5)]);
                valid = false;
            }
            1 => {
                token = ["inf", "-inf", "NaN", "infinity", "0x1p3"][rng.below(5)].to_string();
                valid = false;
            }
            _ => {}
        }
        let read = number(&token);
        assert_eq!(read.is_some(), valid, "{token:?}");
        if let Some(value) = read {
            numbers += 1;
            assert_eq!(token.parse::<f64>().ok(), Some(value), "{token:?}");
            assert!(tokens_match(token.as_bytes(), token.as_bytes(), 0.0));
        }
    }
    assert!(numbers > 5000, "{numbers}");

    // Whole outputs: equal ones always match; a nudge within the error matches; one far
    // outside it is reported at its own token.
    for _ in 0..2000 {
        let values: Vec<f64> = (0..1 + rng.below(6))
            .map(|_| rng.below(2_000_001) as f64 / 1000.0 - 1000.0)
            .collect();
        let separator = ["\n", " ", "  \t"][rng.below(3)];
        let text = |values: &[f64]| -> Vec<u8> {
            let tokens: Vec<String> = values.iter().map(|v| format!("{v}")).collect();
            tokens.join(separator).into_bytes()
        };
        let expected = text(&values);
        assert_eq!(compare(&expected, &expected, 1e-9), Ok(()));
        let mut nudged = values.clone();
        let at = rng.below(values.len());
        nudged[at] += 5e-7;
        assert_eq!(compare(&expected, &text(&nudged), 1e-6), Ok(()));
        nudged[at] += 0.5;
        let mismatch = compare(&expected, &text(&nudged), 1e-6).unwrap_err();
        assert_eq!(mismatch.index, at + 1);
    }
}

/// A crate's files for the bundler's property test: `main.rs` using a 2015 library
/// (`fixture_old`, with a module file), a 2021 one with exported macros (`algo`) and one with a
/// `safe fn` foreign item that syn keeps as tokens (`fixture_extern`), as the bundler's
/// fixtures hold them.
fn bundle_sources() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        (
            "main.rs",
            b"use algo::read_vals;\nfn main() {\n    let shapes = fixture_old::squares();\n    \
              fixture_old::check(true, \"{x}\");\n    let v: Vec<u32> = read_vals!(\"1 2\");\n    \
              println!(\"{} {:?} {}\", fixture_old::total_area(&shapes), v, <u8>::max_value());\n    \
              println!(\"{}\", fixture_extern::run(-1));\n}\n"
                .to_vec(),
        ),
        (
            "extern/lib.rs",
            data("tests/data/bundle-fixture/crates/fixture-extern/src/lib.rs"),
        ),
        (
            "old/lib.rs",
            data("tests/data/bundle-fixture/crates/fixture-old/src/lib.rs"),
        ),
        (
            "old/shapes.rs",
            data("tests/data/bundle-fixture/crates/fixture-old/src/shapes.rs"),
        ),
        (
            "algo/lib.rs",
            data("tests/data/bundle-fixture/crates/algo/src/lib.rs"),
        ),
    ]
}

#[test]
fn the_bundler_ends_edited_crate_sources_in_a_bundle_or_an_error_never_a_panic() {
    use xtask::bundle::manifest::{LibCrate, Plan};

    let dir = crate::support::scratch("properties", "bundle-sources");
    let sources = bundle_sources();
    let lib = |module: &str, root: &str, edition: &str| {
        LibCrate::in_folder(module, &dir.join(root), edition)
    };
    let plan = Plan::without_cargo(
        &dir,
        vec![
            lib("algo", "algo", "2021"),
            lib("fixture_old", "old", "2015"),
            lib("fixture_extern", "extern", "2021"),
        ],
    );
    let write_all = |edited: Option<(usize, &[u8])>| {
        for (k, (name, text)) in sources.iter().enumerate() {
            let path = dir.join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            let text = match edited {
                Some((at, new)) if at == k => new,
                _ => text.as_slice(),
            };
            fs::write(path, text).unwrap();
        }
    };
    // Unedited, the sources bundle.
    write_all(None);
    let whole = xtask::bundle::render_sources(&plan).unwrap();
    assert!(whole.contains("mod fixture_old"), "{whole}");
    assert!(whole.contains("pub safe fn abs"), "{whole}");
    let alphabet = b"{}()[]<>:;,.!#$'\"/*&|=+- \nrsuabcdefmnptx_019";
    let mut rng = Rng(38);
    let (mut bundled, mut refused) = (0, 0);
    for case in 0..400 {
        let file = rng.below(sources.len());
        let edited = rng.edit(&sources[file].1, alphabet);
        write_all(Some((file, &edited)));
        let result = std::panic::catch_unwind(|| xtask::bundle::render_sources(&plan));
        match result {
            Err(_) => panic!(
                "case {case}: the bundler panicked on {} edited to:\n{}",
                sources[file].0,
                String::from_utf8_lossy(&edited)
            ),
            Ok(Ok(_)) => bundled += 1,
            Ok(Err(e)) => {
                refused += 1;
                let said = format!("{e:#}");
                // The file, and for what does not parse, the line.
                assert!(
                    said.contains(sources[file].0.rsplit('/').next().unwrap())
                        || said.contains("crate"),
                    "case {case}: {said}"
                );
            }
        }
    }
    assert!(
        bundled > 0 && refused > 0,
        "{bundled} bundled, {refused} refused"
    );
}

/// The bundle `fuzz` target's plan: a library crate `lib` of `edition` at `dir/lib/lib.rs`,
/// whose `run` the solution `dir/main.rs` calls.
fn one_library_plan(dir: &Path, edition: &str) -> xtask::bundle::manifest::Plan {
    use xtask::bundle::manifest::{LibCrate, Plan};
    fs::create_dir_all(dir.join("lib")).unwrap();
    fs::write(dir.join("main.rs"), "fn main() { lib::run(); }\n").unwrap();
    Plan::without_cargo(
        dir,
        vec![LibCrate::in_folder("lib", &dir.join("lib"), edition)],
    )
}

#[test]
fn what_syn_keeps_as_tokens_is_printed_as_tokens_or_refused_by_name_never_a_panic() {
    // The `bundle` fuzz target's first finding (prettyplease's `not implemented:
    // Item::Verbatim`), as its seeds hold it: a `safe fn` foreign item (Rust 1.82) and a
    // `static` without a value, each beside the `run` that `main` calls, under each edition.
    let dir = crate::support::scratch("properties", "verbatim");
    for edition in ["2015", "2018", "2021"] {
        let plan = one_library_plan(&dir, edition);
        fs::write(
            dir.join("lib/lib.rs"),
            "unsafe extern \"C\" { pub safe fn abs(i: i32) -> i32; }\npub fn run() {}\n",
        )
        .unwrap();
        let bundle = xtask::bundle::render_sources(&plan).unwrap();
        assert!(
            bundle.contains("pub safe fn abs (i : i32) -> i32 ;"),
            "{bundle}"
        );
        fs::write(
            dir.join("lib/lib.rs"),
            "pub static S: u8;\npub fn run() {}\n",
        )
        .unwrap();
        let said = format!("{:#}", xtask::bundle::render_sources(&plan).unwrap_err());
        assert!(
            said.contains("lib.rs:1: `pub static S : u8 ;` is no item rustc compiles"),
            "{said}"
        );
    }
}

/// The `proc_macro` fuzz target's seeds (`tests/data/proc-macro-walks/`): sources that name the
/// stand-in proc-macro crate's macros in every place, every way, with what the pass refuses.
fn proc_macro_walks() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/proc-macro-walks");
    let mut seeds: Vec<(String, Vec<u8>)> = fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, fs::read(e.path()).unwrap())
        })
        .collect();
    seeds.sort();
    seeds
}

#[test]
fn the_proc_macro_pass_walks_edited_sources_keeping_its_promises() {
    use xtask::bundle::proc_macros::stand_in::{walk_and_check, Walked};

    let seeds = proc_macro_walks();
    assert!(seeds.len() >= 4, "{seeds:?}");
    // Unedited: each expands, the stand-in's crate named no more; but `refusals.rs`, refused in
    // the solution's crate and in a library's left naming it where its uses stay.
    for (name, text) in &seeds {
        let text = std::str::from_utf8(text).unwrap();
        for main in [true, false] {
            let walked = walk_and_check(text, main).unwrap_or_else(|e| panic!("{name}: {e}"));
            let refusals = name == "refusals.rs";
            match walked {
                Walked::Refused(said) if refusals && main => {
                    assert!(said.contains("`#[rename]`"), "{said}")
                }
                Walked::Expanded(printed) if !refusals || !main => {
                    assert_eq!(printed.contains("stand_in"), refusals, "{name}:\n{printed}")
                }
                other => panic!("{name} ({main}): {other:?}"),
            }
        }
    }
    let alphabet = b"{}()[]<>:;,.!#$'\"=+- \nabcdefimnorstuwxz_019ETS";
    let mut rng = Rng(53);
    let (mut expanded, mut refused) = (0, 0);
    for case in 0..1000 {
        let (name, text) = &seeds[rng.below(seeds.len())];
        let edited = rng.edit(text, alphabet);
        let Ok(edited) = std::str::from_utf8(&edited) else {
            continue;
        };
        for main in [true, false] {
            match std::panic::catch_unwind(|| walk_and_check(edited, main)) {
                Err(_) => panic!("case {case}: the pass panicked on {name} edited to:\n{edited}"),
                Ok(Err(broken)) => panic!("case {case}: {name} edited to:\n{edited}\n{broken}"),
                Ok(Ok(Walked::Expanded(_))) => expanded += 1,
                Ok(Ok(Walked::Refused(_))) => refused += 1,
                Ok(Ok(Walked::NotRust)) => {}
            }
        }
    }
    assert!(
        expanded > 100 && refused > 100,
        "{expanded} expanded, {refused} refused"
    );
}
