//! A workspace no ordinary file operation breaks (issue 42): in a copy of the project, problem
//! folders are deleted, moved away and back, copied and renamed, stashed and left behind on
//! another branch by hand and by git, as people do, never through the xtask; after each, real
//! cargo loads and builds the workspace and the xtask judges, creates, opens and archives as
//! before. Also: hand edits of the root manifest survive the xtask's edits, and six `new` run at
//! once keep all six. Each test has its own copy (outside the project, so that cargo finds the
//! copy's workspace and no other above it), removed when it ends.

use std::fs;
use std::process::{Command, Output};

use crate::support::{assert_success_saying, copy_tree, edit, text, ProjectCopy};

/// Asserts that a run exited with `code` and that its stdout and stderr say `expected`.
fn assert_exit_saying(out: &Output, code: i32, expected: &str) -> String {
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(code), "{said}");
    assert!(said.contains(expected), "{said}");
    said
}

#[test]
fn an_open_problem_deleted_by_hand_leaves_every_command_working() {
    let ws = ProjectCopy::new("deleted-open");
    ws.new_problem("1000");
    ws.new_problem("1001");
    assert!(ws.members().contains(&"boj-1000".to_string()));
    fs::remove_dir_all(ws.path("problems/boj-1000")).unwrap();

    let members = ws.members();
    assert!(!members.contains(&"boj-1000".to_string()), "{members:?}");
    assert!(members.contains(&"boj-1001".to_string()), "{members:?}");
    // Cargo loads every member to build any: the whole workspace but the xtask (whose build
    // the test's own stands for) is built.
    let out = ws.cargo(&["build", "--workspace", "--exclude", "xtask", "--offline"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_success_saying(&ws.xtask(&["test", "2239"]), "boj-2239: 4/4 AC");
    ws.new_problem("1002");
    assert_success_saying(&ws.xtask(&["test", "1002"]), "boj-1002: 1/1 AC");
    // The gone problem's entry stays (it may come back) and harms nothing.
    assert_success_saying(
        &ws.xtask(&["open"]),
        "problems/boj-1000 (its folder is not there",
    );
    assert_success_saying(&ws.xtask(&["test"]), "total: 10/10 AC over 4 problems");
}

#[test]
fn an_archived_problem_deleted_by_hand_leaves_every_command_working() {
    let ws = ProjectCopy::new("deleted-archived");
    ws.new_problem("1000");
    ws.new_problem("1001");
    assert_success_saying(
        &ws.xtask(&["archive", "1000"]),
        "archived problems/boj-1000",
    );
    assert_success_saying(&ws.xtask(&["test", "1000"]), "boj-1000: 1/1 AC");
    fs::remove_dir_all(ws.path("problems/boj-1000")).unwrap();

    assert!(!ws.members().contains(&"boj-1000".to_string()));
    assert_success_saying(&ws.xtask(&["test", "2239"]), "boj-2239: 4/4 AC");
    ws.new_problem("1002");
    assert_success_saying(&ws.xtask(&["test"]), "total: 10/10 AC over 4 problems");
}

#[test]
fn a_problem_moved_away_and_back_is_judged_again() {
    let ws = ProjectCopy::new("moved");
    ws.new_problem("1000");
    let away = std::env::temp_dir().join(format!("xtask-ws-away-{}", std::process::id()));
    let _ = fs::remove_dir_all(&away);
    fs::rename(ws.path("problems/boj-1000"), &away).unwrap();
    assert!(!ws.members().contains(&"boj-1000".to_string()));
    assert_success_saying(&ws.xtask(&["test"]), "total: 8/8 AC over 2 problems");
    let out = ws.xtask(&["test", "1000"]);
    assert_exit_saying(&out, 2, "no problem `1000`");

    // Meanwhile another problem 1000, a wrong one, built and judged in its place: when the
    // first comes back, its sources are older than that build, which cargo's times alone would
    // take as up to date.
    assert_success_saying(&ws.xtask(&["new", "1000"]), "problems/boj-1000");
    fs::copy(
        away.join("samples/1.in"),
        ws.path("problems/boj-1000/samples/1.in"),
    )
    .unwrap();
    fs::copy(
        away.join("samples/1.out"),
        ws.path("problems/boj-1000/samples/1.out"),
    )
    .unwrap();
    edit(
        &ws.path("problems/boj-1000/src/main.rs"),
        "writeln!(out, \"{}\", token)?;",
        "writeln!(out, \"{}!\", token)?;",
    );
    assert_exit_saying(&ws.xtask(&["test", "1000"]), 1, "boj-1000: 0/1 AC");
    fs::remove_dir_all(ws.path("problems/boj-1000")).unwrap();

    fs::rename(&away, ws.path("problems/boj-1000")).unwrap();
    assert!(ws.members().contains(&"boj-1000".to_string()));
    assert_success_saying(&ws.xtask(&["test", "1000"]), "boj-1000: 1/1 AC");
    assert_success_saying(&ws.xtask(&["test"]), "total: 9/9 AC over 3 problems");
}

/// `problems/boj-1001`, a hand copy of boj-1000 as a user makes one: the folder renamed, the
/// package not (yet), and a different (wrong) solution in it.
fn wrong_copy_of_1000(ws: &ProjectCopy) {
    copy_tree(&ws.path("problems/boj-1000"), &ws.path("problems/boj-1001"));
    edit(
        &ws.path("problems/boj-1001/src/main.rs"),
        "writeln!(out, \"{}\", token)?;",
        "writeln!(out, \"{}!\", token)?;",
    );
}

#[test]
fn a_copied_problem_is_judged_by_its_id_and_never_breaks_cargo() {
    let ws = ProjectCopy::new("copied");
    ws.new_problem("1000");
    // A copy to try a second approach.
    wrong_copy_of_1000(&ws);
    // Cargo loads the workspace (the copy is no member: two packages of one name would be
    // refused), and each folder is judged with its own solution.
    let members = ws.members();
    assert_eq!(
        members.iter().filter(|m| *m == "boj-1000").count(),
        1,
        "{members:?}"
    );
    let out = ws.xtask(&["test", "1001"]);
    assert_exit_saying(&out, 1, "0/1 AC");
    assert_success_saying(&ws.xtask(&["test", "1000"]), "boj-1000: 1/1 AC");
    assert_exit_saying(&ws.xtask(&["test", "1001"]), 1, "0/1 AC");
    // Both built alone (the original archived), the two packages of one name share cargo's
    // fingerprint: still each judged with its own sources, whichever was built last.
    assert_success_saying(
        &ws.xtask(&["archive", "1000"]),
        "archived problems/boj-1000",
    );
    assert_success_saying(&ws.xtask(&["test", "1000"]), "boj-1000: 1/1 AC");
    assert_exit_saying(&ws.xtask(&["test", "1001"]), 1, "0/1 AC");
    assert_success_saying(&ws.xtask(&["test", "1000"]), "boj-1000: 1/1 AC");
    assert_success_saying(&ws.xtask(&["open", "1000"]), "opened problems/boj-1000");
    // Opening the copy before it has a name of its own is refused, saying why.
    let out = ws.xtask(&["open", "1001"]);
    assert_exit_saying(&out, 2, "its package is named `boj-1000`");
    assert!(ws.members().contains(&"boj-1000".to_string()));

    // Renamed as the user means it (the package, its binary and its id): judged by its id,
    // opened, a member beside the first.
    let manifest = ws.path("problems/boj-1001/Cargo.toml");
    let renamed = fs::read_to_string(&manifest)
        .unwrap()
        .replace("boj-1000", "boj-1001")
        .replace("id = 1000", "id = 1001");
    fs::write(&manifest, renamed).unwrap();
    edit(
        &ws.path("problems/boj-1001/src/main.rs"),
        "writeln!(out, \"{}!\", token)?;",
        "writeln!(out, \"{}\", token)?;",
    );
    assert_success_saying(&ws.xtask(&["test", "1001"]), "boj-1001: 1/1 AC");
    assert_success_saying(&ws.xtask(&["open", "1001"]), "opened problems/boj-1001");
    let members = ws.members();
    assert!(members.contains(&"boj-1001".to_string()), "{members:?}");
    assert_success_saying(&ws.xtask(&["test"]), "total: 10/10 AC over 4 problems");
}

#[test]
fn a_problem_and_its_copy_judged_in_one_run_are_each_judged_with_their_own_solution() {
    let ws = ProjectCopy::new("copied-together");
    ws.new_problem("1000");
    wrong_copy_of_1000(&ws);
    // The two packages share a name, so cargo writes both executables to one path: the one
    // built second must not be judged for the first, whichever order they are named in.
    for (order, verdicts) in [
        (["1000", "1001"], ["boj-1000: 1/1 AC", "boj-1000: 0/1 AC"]),
        (["1001", "1000"], ["boj-1000: 0/1 AC", "boj-1000: 1/1 AC"]),
    ] {
        let out = ws.xtask(&["test", order[0], order[1]]);
        let said = assert_exit_saying(&out, 1, "total: 1/2 AC over 2 problems");
        let first = said.find(verdicts[0]).unwrap_or_else(|| panic!("{said}"));
        assert!(said[first..].contains(verdicts[1]), "{said}");
    }
    // And alone, each still its own.
    assert_success_saying(&ws.xtask(&["test", "1000"]), "boj-1000: 1/1 AC");
    assert_exit_saying(&ws.xtask(&["test", "1001"]), 1, "boj-1000: 0/1 AC");
}

#[test]
fn a_run_keeps_judging_its_own_build_while_another_command_builds_a_copy_of_one_name() {
    let ws = ProjectCopy::new("copied-at-once");
    ws.new_problem("1000");
    let dir = ws.path("problems/boj-1000");
    copy_tree(&dir, &ws.path("problems/boj-1001"));
    // The original's first sample waits (a minute's limit, so two of waiting) until the test
    // says go; meanwhile another command builds the copy, whose package has the same name, so
    // cargo cleans and rebuilds that name's executable. The original's second sample must
    // still run the original.
    let (started, go) = (ws.path("started"), ws.path("go"));
    let original = format!(
        "use std::io::Read;\n\
         fn main() {{\n\
         let mut input = String::new();\n\
         std::io::stdin().read_to_string(&mut input).unwrap();\n\
         if input.starts_with(\"wait\") {{\n\
         std::fs::write({started:?}, \"\").unwrap();\n\
         while !std::path::Path::new({go:?}).exists() {{\n\
         std::thread::sleep(std::time::Duration::from_millis(10));\n\
         }}\n\
         }}\n\
         println!(\"original\");\n\
         }}\n"
    );
    fs::write(dir.join("src/main.rs"), original).unwrap();
    edit(
        &dir.join("Cargo.toml"),
        "time-limit-ms = 1000",
        "time-limit-ms = 60000",
    );
    let samples = dir.join("samples");
    fs::write(samples.join("1.in"), "wait\n").unwrap();
    fs::write(samples.join("1.out"), "original\n").unwrap();
    fs::write(samples.join("2.in"), "go\n").unwrap();
    fs::write(samples.join("2.out"), "original\n").unwrap();
    fs::write(
        ws.path("problems/boj-1001/src/main.rs"),
        "fn main() {\n    println!(\"copy\");\n}\n",
    )
    .unwrap();

    let mut first = ws
        .xtask_command(&["test", "1000"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let waited = std::time::Instant::now();
    while !started.exists() {
        if let Some(status) = first.try_wait().unwrap() {
            panic!("the first run ended ({status}) before its first sample started");
        }
        assert!(
            waited.elapsed().as_secs() < 600,
            "the first sample never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_exit_saying(&ws.xtask(&["test", "1001"]), 1, "boj-1000: 0/1 AC");
    fs::write(&go, "").unwrap();
    let out = first.wait_with_output().unwrap();
    assert_success_saying(&out, "boj-1000: 2/2 AC");
}

#[test]
fn a_copys_failing_case_names_the_copy_to_debug_not_the_original() {
    let ws = ProjectCopy::new("copied-debug");
    ws.new_problem("1000");
    wrong_copy_of_1000(&ws);
    // `debug boj-1000` would open the original, which passes: the copy is named by its folder.
    let said = assert_exit_saying(
        &ws.xtask(&["test", "1001"]),
        1,
        "problems/boj-1001/samples/1.in: sample 1 WA; step through it: cargo xtask debug \
         problems/boj-1001 1",
    );
    assert!(!said.contains("debug boj-1000"), "{said}");
}

#[test]
fn a_hand_edit_of_the_root_manifest_survives_new_open_and_archive() {
    let ws = ProjectCopy::new("hand-edit");
    let root = ws.path("Cargo.toml");
    let text = fs::read_to_string(&root).unwrap();
    fs::write(
        &root,
        text.replace(
            "[workspace.dependencies]",
            "# Mine: what I reach for.\n[workspace.metadata.notes]\nfavourite = \"1000\" # kept\n\n\
             [workspace.dependencies]",
        )
        .replace(
            "    \"xtask\",\n",
            "    \"xtask\",\n    # the problem I keep open by hand\n",
        ),
    )
    .unwrap();
    ws.new_problem("1000");
    assert_success_saying(
        &ws.xtask(&["archive", "2239"]),
        "archived problems/boj-2239",
    );
    assert_success_saying(&ws.xtask(&["open", "2239"]), "opened problems/boj-2239");
    assert_success_saying(
        &ws.xtask(&["archive", "1000"]),
        "archived problems/boj-1000",
    );
    let after = fs::read_to_string(&root).unwrap();
    for kept in [
        "# Mine: what I reach for.\n[workspace.metadata.notes]\nfavourite = \"1000\" # kept\n",
        "# the problem I keep open by hand",
        "# Resolver 2, not 3",
        "[workspace.lints.clippy]",
    ] {
        assert!(after.contains(kept), "{kept:?} lost:\n{after}");
    }
    assert!(ws.members().contains(&"boj-2239".to_string()));
    assert_success_saying(&ws.xtask(&["test"]), "total: 9/9 AC over 3 problems");
}

#[test]
fn six_new_problems_made_at_once_are_all_kept() {
    let ws = ProjectCopy::new("at-once");
    let ids = ["1000", "1001", "1002", "1003", "1004", "1005"];
    let children: Vec<_> = ids
        .iter()
        .map(|id| {
            Command::new(env!("CARGO_BIN_EXE_xtask"))
                .args(["new", id])
                .current_dir(&ws.root)
                .env("CARGO_MANIFEST_DIR", ws.root.join("xtask"))
                .env("NO_COLOR", "1")
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    let members = ws.members();
    for id in ids {
        assert!(members.contains(&format!("boj-{id}")), "{members:?}");
    }
    let open = ws.xtask(&["open"]);
    assert_success_saying(&open, "open (8 of 8");
}

#[test]
fn a_problem_stashed_or_absent_on_another_branch_breaks_nothing() {
    let git = |ws: &ProjectCopy, args: &[&str]| {
        let out = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "init.defaultBranch=main",
            ])
            .args(args)
            .current_dir(&ws.root)
            .output();
        match out {
            Ok(out) => {
                assert_eq!(
                    out.status.code(),
                    Some(0),
                    "git {args:?}: {}",
                    text(&out.stderr)
                );
                true
            }
            Err(_) => false,
        }
    };
    let ws = ProjectCopy::new("git");
    if !git(&ws, &["init", "-q"]) {
        eprintln!("skipped: no git here");
        return;
    }
    fs::write(ws.path(".gitignore"), "/target\n").unwrap();
    git(&ws, &["add", "-A"]);
    git(&ws, &["commit", "-qm", "practice"]);
    git(&ws, &["checkout", "-qb", "old"]);
    git(&ws, &["checkout", "-q", "main"]);
    ws.new_problem("1000");
    git(&ws, &["add", "-A"]);
    git(&ws, &["commit", "-qm", "boj-1000"]);

    // A half-done problem stashed with its root manifest's line: gone, then back.
    ws.new_problem("1001");
    git(&ws, &["stash", "-u", "-q"]);
    assert!(!ws.path("problems/boj-1001").exists());
    assert_success_saying(&ws.xtask(&["test"]), "total: 9/9 AC over 3 problems");
    git(&ws, &["stash", "pop", "-q"]);
    assert_success_saying(&ws.xtask(&["test", "1001"]), "boj-1001: 1/1 AC");

    // The root manifest committed without the problem's folder (`git commit -a` leaves a new
    // folder out), then checked out elsewhere: the line names a folder that is not there.
    git(&ws, &["commit", "-qam", "the manifest alone"]);
    let elsewhere = std::env::temp_dir().join(format!("xtask-ws-clone-{}", std::process::id()));
    let _ = fs::remove_dir_all(&elsewhere);
    let out = Command::new("git")
        .args(["clone", "-q"])
        .arg(&ws.root)
        .arg(&elsewhere)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let clone = ProjectCopy {
        root: elsewhere,
        target: ws.target.clone(),
    };
    assert!(!clone.path("problems/boj-1001").exists());
    assert!(clone.members().contains(&"boj-1000".to_string()));
    assert_success_saying(&clone.xtask(&["test"]), "total: 9/9 AC over 3 problems");

    // Another branch, made before boj-1000 was: its folder goes, and comes back.
    git(&ws, &["stash", "-u", "-q"]);
    git(&ws, &["checkout", "-q", "old"]);
    assert!(!ws.path("problems/boj-1000").exists());
    assert!(!ws.members().contains(&"boj-1000".to_string()));
    assert_success_saying(&ws.xtask(&["test"]), "total: 8/8 AC over 2 problems");
    git(&ws, &["checkout", "-q", "main"]);
    git(&ws, &["stash", "pop", "-q"]);
    assert_success_saying(&ws.xtask(&["test"]), "total: 10/10 AC over 4 problems");
}

#[test]
fn a_broken_manifest_of_the_users_is_named_in_the_error() {
    let ws = ProjectCopy::new("broken");
    ws.new_problem("1000");
    let manifest = ws.path("problems/boj-1000/Cargo.toml");
    edit(&manifest, "[package]", "[package\n");
    let out = ws.cargo(&[
        "metadata",
        "--no-deps",
        "--format-version",
        "1",
        "--offline",
    ]);
    assert_exit_saying(&out, 101, "problems/boj-1000/Cargo.toml");
    let out = ws.xtask(&["test", "1000"]);
    assert_exit_saying(&out, 2, "problems/boj-1000/Cargo.toml");
    let root = ws.path("Cargo.toml");
    edit(&manifest, "[package\n", "[package]");
    edit(&root, "[workspace]", "[workspace");
    let out = ws.xtask(&["new", "1001"]);
    assert_exit_saying(&out, 2, "Cargo.toml");
}
