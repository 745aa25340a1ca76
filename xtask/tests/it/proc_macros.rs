//! Proc macros expanded into bundles (`tests/data/proc-macro/`, path crates only): every kind
//! of macro and place, hygiene, a library that derives, and each refusal by name (a macro's own
//! error, its panic, a toolchain without its proc-macro server, a library built by another
//! compiler than the server's). Each needs the toolchain's proc-macro server, and is skipped,
//! saying so, where it is absent. The crates from AtCoder's list are in `bundle_crates.rs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::{assert_success_saying, edit, fixture_copy, run_xtask, scratch, text};

/// The proc-macro server of the `rustc` on `PATH`, if the toolchain has one.
pub fn server() -> Option<PathBuf> {
    let out = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .ok()?;
    let sysroot = PathBuf::from(text(&out.stdout).trim());
    let server = sysroot.join("libexec").join(format!(
        "rust-analyzer-proc-macro-srv{}",
        std::env::consts::EXE_SUFFIX
    ));
    if server.is_file() {
        Some(server)
    } else {
        eprintln!(
            "skipped: the toolchain has no proc-macro server ({}), which expanding proc macros \
             needs",
            server.display()
        );
        None
    }
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/proc-macro")
}

/// `cargo xtask bundle PROBLEM -o DIR/NAME.rs --check [ARGS]`: the run and the bundle.
fn bundle(problem: &Path, target: &str, args: &[&str]) -> (Output, String) {
    let (result, out) = bundle_in(problem, target, target, args);
    (result, std::fs::read_to_string(&out).unwrap_or_default())
}

/// [`bundle`] into the scratch folder `name`, building into `target`: the run and where the
/// bundle was written.
fn bundle_in(problem: &Path, target: &str, name: &str, args: &[&str]) -> (Output, PathBuf) {
    let out = scratch("proc-macro-bundles", name).join("bundle.rs");
    let mut all = vec![
        "bundle",
        problem.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--check",
    ];
    all.extend(args);
    (run_xtask(target, &all), out)
}

/// The fixture problem `problem` bundled with `--check` (and `--rustc` Debian's 1.63 where it
/// is installed) into the scratch folder `name`, asserted AC with each compiler: the bundle's
/// text and where it was written.
fn bundled_ac(problem: &str, name: &str) -> (String, PathBuf) {
    let old = crate::support::old_rustc();
    let mut args = Vec::new();
    if let Some(old) = &old {
        args.extend(["--rustc", old.to_str().unwrap()]);
    }
    let problem = fixture().join("problems").join(problem);
    let (result, out) = bundle_in(&problem, "proc-macro-target", name, &args);
    let stdout = assert_success_saying(&result, "1/1 AC");
    if old.is_some() {
        assert!(stdout.contains("(rustc 1.63"), "{stdout}");
    }
    (std::fs::read_to_string(&out).unwrap(), out)
}

#[test]
fn every_kind_of_proc_macro_is_expanded_compiled_alone_and_ac() {
    if server().is_none() {
        return;
    }
    let (bundle, _) = bundled_ac("boj-4301", "every-kind");
    for expected in [
        // The derive, in the solution and in the library, its path to the runtime crate
        // pointed at the bundle's module; the trait's import, which also named the derive,
        // stays.
        "impl crate::fixture_runtime::Describe for Segment {",
        "impl crate::fixture_runtime::Describe for Point {",
        "use fixture_runtime::Describe;",
        // The attribute macro with its argument; function-like macros as items and a type.
        "(3) * { x + 1 }",
        "const LIMIT: i64 = 1000;",
        "let pair: (i64, i64) = (helper(), tripled(2));",
        // Mixed-site locals and labels renamed apart from the caller's `tmp` and `count`; the
        // mixed-site function name kept, since the caller calls it.
        "let tmp__1 = 10;",
        "tmp__1 + (tmp * 2)",
        "'outer__1: loop {",
        "if count__1 >= (count) {",
        "fn helper() -> i64 {",
        // Inside `println!`'s arguments.
        "{ let tmp__2 = 10; tmp__2 + (tmp) }",
    ] {
        assert!(bundle.contains(expected), "`{expected}` missing:\n{bundle}");
    }
    // No proc-macro crate, no helper attribute, and what the solution does not reach (the
    // library's `Unused` and its impl) is pruned as any item.
    for absent in [
        "fixture_macros",
        "#[label",
        "Unused",
        "sum_with_tmp",
        "#[times",
    ] {
        assert!(!bundle.contains(absent), "`{absent}` left:\n{bundle}");
    }
}

#[test]
fn helpers_go_with_their_derives_however_declared_and_the_bundle_compiles_without_a_warning() {
    // `Shout` and its helper `shout` are declared inside a `macro_rules!` of the fixture's
    // proc-macro crate, as derive_more declares its derives; `Describe`'s `label` as written.
    if server().is_none() {
        return;
    }
    let (bundle, path) = bundled_ac("boj-4303", "helpers");
    for expected in [
        // The helpers gone from the struct and its fields; the expansion read them.
        "struct Visitor {\n    name: String,\n    city: String,\n    age: u32,\n}",
        "let mut out = ::std::string::String::from(\"HELLO\");",
        // std's derive stays with its helper; the other derive and its helper go.
        "#[derive(Debug, Clone, Copy, PartialEq, Default)]\nenum Kind {\n    Local,\n    \
         #[default]\n    Tourist,\n}",
        // `#[automatically_derived]` only on the trait impl.
        "\nimpl Visitor {",
    ] {
        assert!(bundle.contains(expected), "`{expected}` missing:\n{bundle}");
    }
    for absent in [
        "#[shout",
        "#[label",
        "#[automatically_derived]\nimpl Visitor",
    ] {
        assert!(!bundle.contains(absent), "`{absent}` left:\n{bundle}");
    }
    let warnings = crate::support::compiled_alone_warnings(&path);
    assert!(warnings.is_empty(), "{warnings}");
}

#[test]
fn a_macros_own_error_and_its_panic_refuse_the_bundle_naming_them() {
    if server().is_none() {
        return;
    }
    let (result, _) = bundle(
        &fixture().join("problems/boj-4302"),
        "proc-macro-target",
        &[],
    );
    let stderr = text(&result.stderr);
    assert_eq!(result.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "`#[times]` (fixture-macros 0.1.0) on `fn zero` in the solution cannot be expanded: \
             the macro reported an error: times: the factor must be positive"
        ),
        "{stderr}"
    );
    // The same macro, given what it cannot read: it panics, and the panic is the reason.
    let copy = fixture_copy("proc-macro", "panic");
    let main = copy.join("problems/boj-4302/src/main.rs");
    edit(&main, "#[times(0)]", "#[times(zero)]");
    let (result, _) = bundle(&copy.join("problems/boj-4302"), "proc-macro-copies", &[]);
    let stderr = text(&result.stderr);
    assert_eq!(result.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("`#[times]` (fixture-macros 0.1.0) on `fn zero` in the solution cannot be expanded: the macro failed: times: expected an integer literal, found `zero`"),
        "{stderr}"
    );
}

#[cfg(unix)]
/// A `rustc` (a shell script in `dir`) that is the real one, but says its sysroot is a folder
/// with no proc-macro server, as a toolchain without it would: cargo builds with it, and the
/// bundler looks for the server there. Returns the script and the sysroot it names.
#[cfg(unix)]
pub fn rustc_without_a_proc_macro_server(dir: &Path) -> (PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let fake = dir.join("sysroot");
    std::fs::create_dir_all(fake.join("libexec")).unwrap();
    let real = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .unwrap();
    let real = PathBuf::from(text(&real.stdout).trim()).join("bin/rustc");
    let wrapper = dir.join("rustc");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nif [ \"$#\" = 2 ] && [ \"$1\" = --print ] && [ \"$2\" = sysroot ]; then \
             echo '{}'; exit 0; fi\nexec '{}' \"$@\"\n",
            fake.display(),
            real.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    (wrapper, fake)
}

#[cfg(unix)]
#[test]
fn a_toolchain_without_its_proc_macro_server_is_named_as_missing() {
    if server().is_none() {
        return;
    }
    let dir = scratch("proc-macro-bundles", "no-server");
    let (wrapper, fake) = rustc_without_a_proc_macro_server(&dir);
    let out = dir.join("bundle.rs");
    let problem = fixture().join("problems/boj-4301");
    let result = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args([
            "bundle",
            problem.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .env(
            "CARGO_TARGET_DIR",
            crate::support::target_dir("proc-macro-wrapper"),
        )
        .env("RUSTC", &wrapper)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stderr = text(&result.stderr);
    assert_eq!(result.status.code(), Some(2), "{stderr}");
    let missing = format!(
        "the toolchain's proc-macro server is missing: {}",
        fake.join("libexec/rust-analyzer-proc-macro-srv").display()
    );
    assert!(stderr.contains(&missing), "{stderr}");
    assert!(
        stderr.contains("`#[derive(Describe)]`") || stderr.contains("`Describe`"),
        "{stderr}"
    );
    assert!(!out.exists());
}

#[test]
fn a_library_built_by_another_compiler_than_the_servers_is_refused_by_name() {
    if server().is_none() {
        return;
    }
    // cargo told to build with a nightly compiler (`build.rustc`), while `rustc` from the
    // problem's folder, whose server the bundler runs, is this toolchain's: the libraries
    // cannot be loaded by it (cargo-equip's issue #211), and the bundler says so.
    let nightly = Command::new("rustup")
        .args(["which", "rustc", "--toolchain", "nightly"])
        .output();
    let nightly = match nightly {
        Ok(out) if out.status.success() => PathBuf::from(text(&out.stdout).trim()),
        _ => {
            eprintln!("skipped: no nightly toolchain (`rustup which rustc --toolchain nightly`)");
            return;
        }
    };
    let stable = Command::new("rustc").arg("-V").output().unwrap();
    let stable = text(&stable.stdout).trim().to_owned();
    let copy = fixture_copy("proc-macro", "nightly");
    std::fs::create_dir_all(copy.join(".cargo")).unwrap();
    std::fs::write(
        copy.join(".cargo/config.toml"),
        format!("[build]\nrustc = {:?}\n", nightly.display().to_string()),
    )
    .unwrap();
    let (result, _) = bundle(&copy.join("problems/boj-4301"), "proc-macro-nightly", &[]);
    let stderr = text(&result.stderr);
    assert_eq!(result.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("was not built by {stable}")) && stderr.contains("set `RUSTC`"),
        "{stderr}"
    );
}
