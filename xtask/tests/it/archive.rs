//! Open and archived problems (`xtask::workspace::archive`): a workspace of the old layout, every problem a
//! member, judged as it is and moved over by `cargo xtask migrate`; a problem archived by name
//! is built alone (with the root's lock), judged like an open one, and judged again without
//! cargo while nothing it is built from changes; opened again, it is a member. (Unix: the test
//! watches cargo through a shell script standing in for it.)
#![cfg(unix)]

use std::fs;
use std::path::Path;
use std::process::Output;

use crate::support::{assert_success_saying, target_dir, text, write_minimal_workspace};

/// Removes a folder when dropped, the test passing or not.
struct RemoveOnDrop<'a>(&'a Path);

impl Drop for RemoveOnDrop<'_> {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(self.0);
    }
}

/// The real xtask, in the workspace `root`, with `cargo` as the cargo it runs.
fn xtask_with(root: &Path, cargo: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .arg("--root")
        .arg(root)
        .env("CARGO", cargo)
        .env("CARGO_TARGET_DIR", target_dir("archive-target"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// A cargo that notes each command line in `log`, then runs the real one.
fn noting_cargo(dir: &Path, log: &Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let cargo = dir.join("cargo");
    let real = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    fs::write(
        &cargo,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\nexec '{real}' \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    let mut permissions = fs::metadata(&cargo).unwrap().permissions();
    permissions.set_mode(0o755);
    fs::set_permissions(&cargo, permissions).unwrap();
    cargo
}

/// The command lines noted since the last call, and the log emptied.
fn noted(log: &Path) -> String {
    let lines = fs::read_to_string(log).unwrap_or_default();
    fs::write(log, "").unwrap();
    lines
}

#[test]
fn an_old_workspace_moves_over_and_an_archived_problem_is_judged_alone() {
    // Outside the project: an archived problem is built by the first workspace above it that
    // does not exclude it, as cargo finds it, and the project's own is above the target folder.
    let root = std::env::temp_dir().join(format!("xtask-archive-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(&root).unwrap();
    let _cleanup = RemoveOnDrop(&root);
    write_minimal_workspace(&root);
    let log = root.join("cargo.log");
    let cargo = noting_cargo(&root, &log);
    let xtask = |args: &[&str]| xtask_with(&root, &cargo, args);
    for id in ["1", "2", "3"] {
        let out = xtask(&["new", id]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let samples = root.join(format!("problems/boj-{id}/samples"));
        fs::write(samples.join("1.in"), "3 4\n").unwrap();
        fs::write(samples.join("1.out"), "3\n4\n").unwrap();
    }
    // boj-1 as `new` wrote it before the archive: inheriting from the workspace.
    fs::write(
        root.join("problems/boj-1/Cargo.toml"),
        "[package]\nname = \"boj-1\"\nversion.workspace = true\nedition.workspace = true\n\
         publish = false\n\n[package.metadata.boj]\nid = 1\njudge = \"exact\"\n\n\
         [lints]\nworkspace = true\n",
    )
    .unwrap();
    // The old layout works as it is: one build of every member.
    assert_success_saying(&xtask(&["test"]), "total: 3/3 AC over 3 problems");
    let out = xtask(&["open", "1"]);
    assert_success_saying(&out, "cargo xtask migrate");

    let out = xtask(&["migrate"]);
    let said = assert_success_saying(&out, "boj-1/Cargo.toml: says what it inherited");
    assert!(said.contains(".cargo/config.toml"), "{said}");
    let manifest = fs::read_to_string(root.join("problems/boj-1/Cargo.toml")).unwrap();
    assert!(!manifest.contains("workspace = true"), "{manifest}");
    assert_success_saying(&xtask(&["archive", "1"]), "archived problems/boj-1");
    // The root's lock, seeded and already cut down to the problem's packages by cargo, so
    // that its first build alone leaves it as it is (a file the user may have committed).
    let lock_path = root.join("problems/boj-1/Cargo.lock");
    let seeded = fs::read_to_string(&lock_path).expect("the root's lock, seeded");
    assert!(seeded.contains("name = \"boj-1\""), "{seeded}");
    assert!(!seeded.contains("name = \"boj-2\""), "{seeded}");
    // The root's lock has already left boj-1 out, as its members now say.
    let root_lock = fs::read_to_string(root.join("Cargo.lock")).unwrap();
    assert!(!root_lock.contains("name = \"boj-1\""), "{root_lock}");
    let open = assert_success_saying(&xtask(&["open"]), "open (2 of 8");
    assert!(!open.contains("boj-1"), "{open}");

    // boj-1 is built alone, the others in the workspace, and all three are judged.
    noted(&log);
    assert_success_saying(&xtask(&["test"]), "total: 3/3 AC over 3 problems");
    let called = noted(&log);
    let alone = root.join("problems/boj-1/Cargo.toml");
    let alone = alone.to_str().unwrap();
    assert!(called.contains(alone), "{called}");
    assert!(
        called.contains(root.join("Cargo.toml").to_str().unwrap()),
        "{called}"
    );
    assert_eq!(fs::read_to_string(&lock_path).unwrap(), seeded);
    assert_eq!(
        fs::read_to_string(root.join("Cargo.lock")).unwrap(),
        root_lock
    );
    // Nothing changed: judged again with no cargo for it.
    assert_success_saying(&xtask(&["test"]), "total: 3/3 AC over 3 problems");
    let called = noted(&log);
    assert!(!called.contains(alone), "{called}");
    // A saved source sends it to cargo again, which builds what changed.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let main = root.join("problems/boj-1/src/main.rs");
    let source = fs::read_to_string(&main).unwrap();
    fs::write(
        &main,
        source.replace(
            "writeln!(out, \"{}\", token)",
            "writeln!(out, \"{} \", token)",
        ),
    )
    .unwrap();
    assert_success_saying(&xtask(&["test", "1"]), "boj-1: 1/1 AC");
    assert!(noted(&log).contains(alone));

    // Opened again, it is a member.
    assert_success_saying(&xtask(&["open", "1"]), "opened problems/boj-1");
    assert_success_saying(&xtask(&["test", "1"]), "boj-1: 1/1 AC");
    let called = noted(&log);
    assert!(!called.contains(alone), "{called}");
}
