//! `cargo xtask new ID`: what it writes, that it never overwrites, that `cargo xtask test`
//! picks the new problem up with no further edits, and that a scaffold of every kind is Rust
//! that rustfmt, clippy and an older rustc accept, judged as it is.

use crate::support::{
    assert_success_saying, edit, listing, old_rustc, run_xtask, scratch, target_dir, text,
    write_minimal_workspace,
};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
    let problem = xtask::workspace::problem::Problem::load(&dir).unwrap();
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
        "src/bin/boj-1003-validator.rs",
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
        "# validator = \"boj-1003-validator\"",
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

/// The project's own cargo configuration (`.cargo/config.toml`), as a table.
fn project_config() -> toml::Table {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cargo/config.toml");
    fs::read_to_string(path).unwrap().parse().unwrap()
}

/// Writes `ROOT/Cargo.toml`: a workspace of `problems/*` with the project's `judge` profile; a
/// scaffold inherits nothing and brings its own lints (`incompatible_msrv` against its
/// `rust-version`), so it is linted as it will be in any workspace.
fn write_workspace_with_the_projects_lints(root: &Path) {
    let mut workspace = toml::Table::new();
    workspace.insert("members".into(), vec!["problems/*"].into());
    workspace.insert("resolver".into(), "2".into());
    let mut profile = toml::Table::new();
    profile.insert("judge".into(), project_config()["profile"]["judge"].clone());
    let mut manifest = toml::Table::new();
    manifest.insert("workspace".into(), workspace.into());
    manifest.insert("profile".into(), profile.into());
    fs::write(root.join("Cargo.toml"), toml::to_string(&manifest).unwrap()).unwrap();
}

/// `cargo ARGS` run in `dir`, building into this module's target folder.
fn cargo_in(dir: &Path, args: &[&str]) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo)
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target_dir("new-target"))
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .unwrap()
}

/// Asserts that a run exited 0, showing what it printed when it did not.
fn assert_succeeded(out: &Output, what: &str) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{what}:\n{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// The Rust sources below `dir`, sorted.
fn rust_sources(dir: &Path) -> Vec<PathBuf> {
    let mut sources: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .collect();
    sources.sort();
    sources
}

/// Every kind of scaffold as a user gets it, all in one fresh workspace with the project's own
/// lints: exact, float, checker and interactive, each with `--stress`. It is rustfmt-clean;
/// `cargo clippy --all-targets -- -D warnings` passes (the manifest's `rust-version = "1.56"`
/// makes `incompatible_msrv` check the std it uses); each source compiles alone with an older
/// rustc where one is installed (Debian's 1.63, as CI has); `cargo xtask test` judges it as it
/// is (AC, and WA for the interactive template, whose interactor rejects until it is written);
/// and `cargo xtask stress` runs each generator and reference.
#[test]
fn a_scaffold_of_every_kind_builds_clippy_clean_and_runs_as_it_is() {
    let root = scratch("new", "every-kind");
    write_workspace_with_the_projects_lints(&root);
    let root_arg = root.to_str().unwrap();
    // Ids of their own: the module's tests share one target folder.
    let kinds: [(&str, &[&str], &str, &str); 4] = [
        // In the template generator's format, which the template validator checks.
        ("1010", &["--judge", "exact"], "2\n1 2\n", "2\n1\n2\n"),
        (
            "1011",
            &["--judge", "float", "--error", "1e-6"],
            "0.5 2\n",
            "0.5000001\n2\n",
        ),
        ("1012", &["--judge", "checker"], "3 4\n", "3 4\n"),
        ("1013", &["--judge", "interactive"], "5\n6\n", ""),
    ];
    for (id, judge, input, answer) in kinds {
        let mut args = vec!["new", id, "--root", root_arg, "--stress"];
        args.extend_from_slice(judge);
        assert_succeeded(&xtask(&args), &format!("new {id}"));
        let samples = root.join(format!("problems/boj-{id}/samples"));
        fs::write(samples.join("1.in"), input).unwrap();
        fs::write(samples.join("1.out"), answer).unwrap();
    }
    // The validator, named as its comment says: test runs it on the sample, stress on every
    // generated input.
    edit(
        &root.join("problems/boj-1010/Cargo.toml"),
        "# validator = \"boj-1010-validator\"",
        "validator = \"boj-1010-validator\"",
    );

    assert_succeeded(
        &cargo_in(&root, &["fmt", "--all", "--check"]),
        "cargo fmt --check",
    );
    let clippy = ["clippy", "--all-targets", "--", "-D", "warnings"];
    assert_succeeded(&cargo_in(&root, &clippy), "cargo clippy");

    if let Some(old_rustc) = old_rustc() {
        for source in rust_sources(&root.join("problems")) {
            let name = source
                .file_stem()
                .unwrap()
                .to_str()
                .unwrap()
                .replace('-', "_");
            let out = Command::new(&old_rustc)
                .args([
                    "--edition",
                    "2021",
                    "--emit=metadata",
                    "--crate-name",
                    &name,
                ])
                .arg("--out-dir")
                .arg(root.join("checked-with-old-rustc"))
                .arg(&source)
                .output()
                .unwrap();
            assert_succeeded(&out, &format!("rustc 1.63 on {}", source.display()));
        }
    }

    let out = xtask(&["test", "--root", root_arg, "--color", "never"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("1 sample meets the constraints, says boj-1010-validator"),
        "{stdout}"
    );
    for accepted in ["boj-1010: 1/1 AC", "boj-1011: 1/1 AC", "boj-1012: 1/1 AC"] {
        assert!(stdout.contains(accepted), "{accepted}\n{stdout}");
    }
    assert!(stdout.contains("boj-1013: 0/1 AC"), "{stdout}");
    assert!(
        stdout.contains("template interactor: write the real one"),
        "{stdout}"
    );

    for id in ["1010", "1011", "1012"] {
        let problem = root.join(format!("problems/boj-{id}"));
        let args = [
            "stress",
            problem.to_str().unwrap(),
            "--cases",
            "10",
            "--seed",
            "1",
        ];
        let stdout = assert_success_saying(&xtask(&args), &format!("boj-{id}: 10/10 AC"));
        assert_eq!(
            stdout.contains("validated by boj-1010-validator"),
            id == "1010",
            "{stdout}"
        );
    }

    // A sample the template validator refuses: named from the workspace's root, with what
    // stood where a number should.
    let problem = root.join("problems/boj-1010");
    fs::write(problem.join("samples/1.in"), "N1 2\n").unwrap();
    let out = xtask(&["test", problem.to_str().unwrap(), "--color", "never"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}{stderr}", text(&out.stdout));
    assert!(
        stderr.contains("refuses the sample 1 (problems/boj-1010/samples/1.in, exit status 1):"),
        "{stderr}"
    );
    assert!(
        stderr.contains("line 1: expected N as an integer, found \"N1\""),
        "{stderr}"
    );
}

/// A reader that goes away (`cargo xtask new 1000 | head -1`) is no reason to panic: what is
/// left to print is dropped, and the problem is made all the same.
#[test]
fn new_printing_into_a_closed_pipe_does_not_panic() {
    let root = scratch("new", "closed-pipe");
    // The reading end is closed before the xtask starts: every write it makes fails.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["new", "1004", "--root", root.to_str().unwrap()])
        .stdout(writer)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
    assert!(root.join("problems/boj-1004/src/main.rs").is_file());
}

#[test]
fn a_new_problem_that_cannot_be_opened_is_still_made_and_says_why() {
    // A hand copy whose package is named boj-5 is open: the new boj-5 cannot be opened beside
    // it. The folder was made whole, yet `new` ended with "error: cannot open ..." and exit
    // 2, as if it had made nothing (and `new 5` again says it exists).
    let root = scratch("new", "not-opened");
    fs::write(
        root.join("Cargo.toml"),
        "[workspace]\nmembers = []\nresolver = \"2\"\n",
    )
    .unwrap();
    let root_arg = root.to_str().unwrap();
    assert_success_saying(
        &xtask(&["new", "4", "--root", root_arg]),
        "opened problems/boj-4",
    );
    let copy = root.join("problems/mine");
    fs::rename(root.join("problems/boj-4"), &copy).unwrap();
    edit(&copy.join("Cargo.toml"), "\"boj-4\"", "\"boj-5\"");
    assert_success_saying(
        &xtask(&["open", copy.to_str().unwrap(), "--root", root_arg]),
        "opened problems/mine",
    );
    let out = xtask(&["new", "5", "--root", root_arg]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("created "), "{stdout}");
    assert!(
        stderr.contains("warning: not opened: cannot open problems/boj-5: its package is named"),
        "{stderr}"
    );
    assert!(root.join("problems/boj-5/src/main.rs").is_file());
}
