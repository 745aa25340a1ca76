//! `cargo xtask new ID`: what it writes, that it never overwrites, and that `cargo xtask test`
//! picks the new problem up with no further edits.

use crate::support::{
    assert_success_saying, listing, run_xtask, scratch, text, write_minimal_workspace,
};
use std::fs;
use std::process::Output;

/// Runs the real xtask binary, building into this module's own target folder.
fn xtask(args: &[&str]) -> Output {
    run_xtask("new-target", args)
}

#[test]
fn new_scaffolds_a_problem_folder() {
    let root = scratch("new", "scaffold");
    let out = xtask(&[
        "new",
        "1000",
        "--root",
        root.to_str().unwrap(),
        "--time-limit-ms",
        "500",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = root.join("problems/boj-1000");
    assert_eq!(
        listing(&root.join("problems")),
        [
            "boj-1000",
            "boj-1000/Cargo.toml",
            "boj-1000/samples",
            "boj-1000/samples/.gitkeep",
            "boj-1000/src",
            "boj-1000/src/main.rs"
        ]
    );
    let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    insta::assert_snapshot!("new_cargo_toml", manifest);
    let main = fs::read_to_string(dir.join("src/main.rs")).unwrap();
    assert!(main.starts_with("//! BOJ 1000: "));
    // The problem reads back as one.
    let problem = xtask::problem::Problem::load(&dir).unwrap();
    assert_eq!(problem.name, "boj-1000");
    assert_eq!(problem.meta.id, Some(1000));
    assert_eq!(problem.meta.time_limit_ms, 500);
}

#[test]
fn new_refuses_an_existing_folder_and_changes_nothing() {
    let root = scratch("new", "refuse");
    let root_arg = root.to_str().unwrap();
    assert_eq!(
        xtask(&["new", "1001", "--root", root_arg]).status.code(),
        Some(0)
    );
    let main = root.join("problems/boj-1001/src/main.rs");
    fs::write(&main, "// my solution\n").unwrap();
    let before = listing(&root);

    let out = xtask(&["new", "1001", "--root", root_arg]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already exists"));
    assert_eq!(fs::read_to_string(&main).unwrap(), "// my solution\n");
    assert_eq!(listing(&root), before, "no staging folder left behind");
}

#[test]
fn a_new_problem_is_judged_with_no_further_edits() {
    let root = scratch("new", "picked-up");
    // A minimal workspace like the project's: problems/* are members.
    write_minimal_workspace(&root);
    let root_arg = root.to_str().unwrap();
    assert_eq!(
        xtask(&["new", "1002", "--root", root_arg]).status.code(),
        Some(0)
    );
    let samples = root.join("problems/boj-1002/samples");
    // The placeholder solver echoes each token on its own line.
    fs::write(samples.join("1.in"), "1 2\n").unwrap();
    fs::write(samples.join("1.out"), "1\n2\n").unwrap();

    let out = xtask(&["test", "--root", root_arg, "--color", "never"]);
    assert_success_saying(&out, "boj-1002: 1/1 AC");
    let out = xtask(&["test", "--root", root_arg, "1002"]);
    assert_eq!(out.status.code(), Some(0));
}

/// The way it broke (issue 22): one xtask build serves many checkouts through a shared
/// `CARGO_TARGET_DIR`, so the folder it was compiled in (this workspace) must never decide where
/// it writes. Run from inside checkout B, with or without the `CARGO_MANIFEST_DIR` that `cargo
/// xtask` sets, it writes into B and nowhere else.
#[test]
fn the_workspace_is_found_at_run_time_not_where_the_xtask_was_built() {
    let project = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let compiled_in = project.join("problems/boj-4242");
    assert!(
        !compiled_in.exists(),
        "a leftover {}",
        compiled_in.display()
    );

    // Run by hand from a folder inside B: the nearest [workspace] above the current directory.
    let checkout = scratch("new", "checkout-b");
    write_minimal_workspace(&checkout);
    let inside = checkout.join("problems");
    fs::create_dir_all(&inside).unwrap();
    let out = new_run_from("4242", &inside, None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(checkout.join("problems/boj-4242/Cargo.toml").is_file());
    assert!(
        !compiled_in.exists(),
        "wrote into the workspace it was built in"
    );

    // Run as `cargo xtask` does from B: CARGO_MANIFEST_DIR names B/xtask, wherever we stand.
    let other = scratch("new", "checkout-c");
    write_minimal_workspace(&other);
    fs::create_dir_all(other.join("xtask")).unwrap();
    let out = new_run_from("4243", &std::env::temp_dir(), Some(&other.join("xtask")));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(other.join("problems/boj-4243/Cargo.toml").is_file());
    assert!(!project.join("problems/boj-4243").exists());

    // Outside any workspace, and not run by cargo: a clear error, nothing written.
    // (cargo's test tmpdir lies inside this workspace, so take one from the system instead.)
    let nowhere = std::env::temp_dir().join(format!("xtask-no-workspace-{}", std::process::id()));
    fs::create_dir_all(&nowhere).unwrap();
    let out = new_run_from("4244", &nowhere, None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no cargo workspace"));
    let left = listing(&nowhere);
    fs::remove_dir_all(&nowhere).unwrap();
    assert_eq!(left, Vec::<String>::new());
}

/// `xtask new ID` run in `dir`, with `CARGO_MANIFEST_DIR` naming `manifest_dir` as `cargo
/// xtask` sets it, or unset as when the binary is run by hand.
fn new_run_from(id: &str, dir: &std::path::Path, manifest_dir: Option<&std::path::Path>) -> Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_xtask"));
    command.args(["new", id]).current_dir(dir);
    match manifest_dir {
        Some(manifest_dir) => command.env("CARGO_MANIFEST_DIR", manifest_dir),
        None => command.env_remove("CARGO_MANIFEST_DIR"),
    };
    command.output().unwrap()
}

/// `--stress` and `--judge checker` scaffold binaries that build, judge and stress as they are,
/// so the user starts from a working loop and replaces the templates one by one.
#[test]
fn scaffolded_checker_generator_and_reference_work_as_they_are() {
    let root = scratch("new", "stress-scaffold");
    write_minimal_workspace(&root);
    let root_arg = root.to_str().unwrap();
    let out = xtask(&[
        "new", "1003", "--root", root_arg, "--stress", "--judge", "checker",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = root.join("problems/boj-1003");
    for file in [
        "src/bin/boj-1003-checker.rs",
        "src/bin/boj-1003-gen.rs",
        "src/bin/boj-1003-brute.rs",
    ] {
        assert!(dir.join(file).is_file(), "{file}");
    }
    let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    for line in [
        "default-run = \"boj-1003\"",
        "judge = \"checker\"",
        "checker = \"boj-1003-checker\"",
        "generator = \"boj-1003-gen\"",
        "reference = \"boj-1003-brute\"",
    ] {
        assert!(manifest.contains(line), "{line}\n{manifest}");
    }
    fs::write(dir.join("samples/1.in"), "3 4\n").unwrap();
    fs::write(dir.join("samples/1.out"), "3\n4\n").unwrap();
    let out = xtask(&["test", "--root", root_arg, "1003", "--color", "never"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("checker judge"), "{stdout}");

    let problem = dir.to_str().unwrap();
    let out = xtask(&[
        "stress", problem, "--cases", "20", "--seed", "1", "--color", "never",
    ]);
    assert_success_saying(&out, "boj-1003: 20/20 AC");
}
