//! Proc macros expanded into bundles (`tests/data/proc-macro/`, path crates only): every kind
//! of macro and place, hygiene, a library that derives, and each refusal by name (a macro's own
//! error, its panic, a toolchain without its proc-macro server, a library built by another
//! compiler than the server's). Each needs the toolchain's proc-macro server, and is skipped,
//! saying so, where it is absent. The crates from AtCoder's list are in `bundle_crates.rs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::{edit, fixture_copy, run_xtask, scratch, text};

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
    let dir = scratch("proc-macro-bundles", target);
    let out = dir.join("bundle.rs");
    let mut all = vec![
        "bundle",
        problem.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--check",
    ];
    all.extend(args);
    let result = run_xtask(target, &all);
    (result, std::fs::read_to_string(&out).unwrap_or_default())
}

#[test]
fn every_kind_of_proc_macro_is_expanded_compiled_alone_and_ac() {
    if server().is_none() {
        return;
    }
    let old = crate::support::old_rustc();
    let mut args = Vec::new();
    if let Some(old) = &old {
        args.extend(["--rustc", old.to_str().unwrap()]);
    }
    let (result, bundle) = bundle(
        &fixture().join("problems/boj-4301"),
        "proc-macro-target",
        &args,
    );
    let stdout = text(&result.stdout);
    assert_eq!(
        result.status.code(),
        Some(0),
        "{stdout}{}",
        text(&result.stderr)
    );
    assert!(stdout.contains("1/1 AC"), "{stdout}");
    if old.is_some() {
        assert!(stdout.contains("(rustc 1.63"), "{stdout}");
    }
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
