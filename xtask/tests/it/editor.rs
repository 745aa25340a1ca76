//! The editor's files (issue 51): after `new`, `.vscode/launch.json` has a CodeLLDB
//! configuration for each sample of the new problem, its `.in` as standard input, and
//! `.vscode/tasks.json` a task that runs `cargo xtask test` on the problem of the file in the
//! editor; a configuration and comments written by hand survive `new` and `archive`; `test`
//! adds a sample that appeared. In copies of the project, outside it, removed when done.

use std::fs;
use std::path::Path;

use jsonc_parser::cst::CstRootNode;
use jsonc_parser::ParseOptions;

use crate::support::{assert_success_saying, text, ProjectCopy};

/// The editor's file `name` in the copy.
fn file(copy: &ProjectCopy, name: &str) -> String {
    fs::read_to_string(copy.path(".vscode").join(name)).unwrap()
}

/// `new 1000` from the competitive-companion payload (two samples).
fn new_1000(copy: &ProjectCopy) {
    let payload = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/companion/boj-1000.json");
    assert_success_saying(
        &copy.xtask(&["new", "1000", "--from", payload.to_str().unwrap()]),
        "opened problems/boj-1000",
    );
}

/// The file's JSON value (comments and trailing commas allowed, as VS Code reads it).
fn value(text: &str) -> serde_json::Value {
    CstRootNode::parse(text, &ParseOptions::default())
        .unwrap_or_else(|err| panic!("{err}:\n{text}"))
        .value()
        .and_then(|v| v.to_serde_value())
        .unwrap()
}

/// The launch configurations' names, in order.
fn names(launch: &str) -> Vec<String> {
    value(launch)["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn after_new_each_sample_has_a_configuration_and_a_task_tests_the_file_in_the_editor() {
    let copy = ProjectCopy::new("editor-after-new");
    new_1000(&copy);
    let launch = value(&file(&copy, "launch.json"));
    let configurations = launch["configurations"].as_array().unwrap();
    for case in ["1", "2"] {
        let name = format!("boj-1000: sample {case}");
        let configuration = configurations
            .iter()
            .find(|c| c["name"] == name.as_str())
            .unwrap_or_else(|| panic!("no {name}: {launch:#}"));
        assert_eq!(configuration["type"], "lldb");
        assert_eq!(configuration["request"], "launch");
        assert_eq!(
            configuration["stdio"][0],
            format!("${{workspaceFolder}}/problems/boj-1000/samples/{case}.in").as_str()
        );
        let build = configuration["cargo"]["args"].as_array().unwrap();
        assert_eq!(build[0], "build");
        assert!(build.contains(&"judge-debug".into()), "{build:?}");
        assert!(build.contains(&"boj-1000".into()), "{build:?}");
        assert_eq!(configuration["cargo"]["filter"]["name"], "boj-1000");
        assert!(copy
            .root
            .join("problems/boj-1000/samples")
            .join(format!("{case}.in"))
            .is_file());
    }
    // The problems open before it keep theirs.
    assert!(names(&file(&copy, "launch.json")).contains(&"boj-2239: sample 1".to_string()));

    let tasks = value(&file(&copy, "tasks.json"));
    let test = tasks["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["args"][1] == "test")
        .unwrap_or_else(|| panic!("no test task: {tasks:#}"));
    assert_eq!(test["command"], "cargo");
    assert_eq!(test["args"][0], "xtask");
    assert_eq!(test["args"][2], "${file}");
    for task in ["watch", "stress", "bundle", "submit"] {
        assert!(
            tasks["tasks"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["args"][1] == task),
            "no {task} task: {tasks:#}"
        );
    }
    // The task's argument, a file in the problem, names the problem.
    let out = copy.xtask(&["test", "problems/boj-1000/src/main.rs"]);
    assert!(
        text(&out.stdout).contains("boj-1000  2 samples"),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

#[test]
fn a_configuration_and_comments_written_by_hand_survive_new_and_archive() {
    let copy = ProjectCopy::new("editor-hand-edits");
    new_1000(&copy);
    let path = copy.path(".vscode/launch.json");
    let before = fs::read_to_string(&path).unwrap();
    let mine = r#"// my own configuration, for a scratch program
        {
            "name": "my scratch",
            "type": "lldb",
            "request": "launch",
            "program": "${workspaceFolder}/target/debug/scratch", // built by hand
        },
        "#;
    let edited = before.replacen(
        "\"configurations\": [\n        ",
        &format!("\"configurations\": [\n        {mine}"),
        1,
    );
    assert_ne!(edited, before, "{before}");
    let edited = edited.replacen("{\n", "{\n    // my note at the top\n", 1);
    fs::write(&path, &edited).unwrap();

    // A new problem: its configurations appear, and mine stay as I wrote them.
    let out = copy.xtask(&["new", "1001"]);
    assert_success_saying(&out, "opened problems/boj-1001");
    let samples = copy.path("problems/boj-1001/samples");
    fs::write(samples.join("1.in"), "1 2\n").unwrap();
    fs::write(samples.join("1.out"), "1\n2\n").unwrap();
    assert_success_saying(&copy.xtask(&["open", "1001"]), "open (");
    let after = file(&copy, "launch.json");
    assert!(after.contains(mine.trim_end()), "{after}");
    assert!(after.contains("// my note at the top"), "{after}");
    let listed = names(&after);
    assert!(
        listed.contains(&"boj-1001: sample 1".to_string()),
        "{listed:?}"
    );
    assert!(
        listed.contains(&"boj-1000: sample 2".to_string()),
        "{listed:?}"
    );

    // Archived: its configurations leave; mine and my comments stay.
    assert_success_saying(
        &copy.xtask(&["archive", "1000"]),
        "archived problems/boj-1000",
    );
    let after = file(&copy, "launch.json");
    assert!(after.contains(mine.trim_end()), "{after}");
    assert!(after.contains("// my note at the top"), "{after}");
    let listed = names(&after);
    assert_eq!(listed[0], "my scratch", "{listed:?}");
    assert!(
        !listed.iter().any(|n| n.starts_with("boj-1000")),
        "{listed:?}"
    );
    assert!(
        listed.contains(&"boj-1001: sample 1".to_string()),
        "{listed:?}"
    );

    // A file the user broke is left as it is, said, and the command still does its work.
    fs::write(&path, "{ \"configurations\": [ oops").unwrap();
    let out = copy.xtask(&["open", "1000"]);
    assert_success_saying(&out, "opened problems/boj-1000");
    assert!(
        text(&out.stderr).contains("warning: cannot keep"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "{ \"configurations\": [ oops"
    );
}

#[test]
fn test_adds_the_configuration_of_a_sample_that_appeared() {
    let copy = ProjectCopy::new("editor-test-adds");
    new_1000(&copy);
    let samples = copy.path("problems/boj-1000/samples");
    fs::write(samples.join("3.in"), "5 6\n").unwrap();
    fs::write(samples.join("3.out"), "11\n").unwrap();
    // On Unix a file name may hold a backslash, which is no separator there.
    if cfg!(unix) {
        fs::write(samples.join("a\\b.in"), "5 6\n").unwrap();
        fs::write(samples.join("a\\b.out"), "11\n").unwrap();
    }
    assert!(!names(&file(&copy, "launch.json")).contains(&"boj-1000: sample 3".to_string()));
    // The template's solution echoes the tokens: every sample is WA; what matters is the file.
    let out = copy.xtask(&["test", "1000"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(concat!(
            "  problems/boj-1000/samples/3.in: sample 3 WA; ",
            "step through it: cargo xtask debug boj-1000 3\n"
        )),
        "{stdout}"
    );
    if cfg!(unix) {
        assert!(
            stdout.contains("  problems/boj-1000/samples/a\\b.in: sample a\\b WA"),
            "{stdout}"
        );
    }
    assert!(names(&file(&copy, "launch.json")).contains(&"boj-1000: sample 3".to_string()));

    // Where the files are not (a branch without them), `test` does not add them.
    fs::remove_dir_all(copy.path(".vscode")).unwrap();
    let out = copy.xtask(&["test", "1000"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(!copy.path(".vscode").exists());
}

#[test]
fn an_interactive_problems_samples_get_no_configuration() {
    // Its samples are the interactor's input: a configuration would run the solution on the
    // interactor's secret, as `cargo xtask debug` refuses to.
    let copy = ProjectCopy::new("editor-interactive");
    new_1000(&copy);
    assert_success_saying(
        &copy.xtask(&["new", "1001", "--judge", "interactive"]),
        "opened problems/boj-1001",
    );
    let samples = copy.path("problems/boj-1001/samples");
    fs::write(samples.join("1.in"), "1000000 424242\n").unwrap();
    fs::write(samples.join("1.out"), "").unwrap();
    assert_success_saying(&copy.xtask(&["open", "1001"]), "open (");
    let names = names(&file(&copy, "launch.json"));
    assert!(
        names.contains(&"boj-1000: sample 1".to_string()),
        "{names:?}"
    );
    assert!(
        !names.iter().any(|n| n.starts_with("boj-1001")),
        "{names:?}"
    );
}

#[test]
fn an_open_problem_whose_folder_is_gone_keeps_its_configurations() {
    let copy = ProjectCopy::new("editor-folder-gone");
    new_1000(&copy);
    let before = file(&copy, "launch.json");
    assert!(names(&before).contains(&"boj-1000: sample 1".to_string()));
    // Stashed, moved away, on another branch: the file stays as it was, as the root manifest's
    // line does, and the configurations serve again when the folder is back.
    let away = copy.path("boj-1000-away");
    fs::rename(copy.path("problems/boj-1000"), &away).unwrap();
    assert_success_saying(&copy.xtask(&["open", "2239"]), "open (");
    assert_success_saying(
        &copy.xtask(&["archive", "2580"]),
        "archived problems/boj-2580",
    );
    let after = file(&copy, "launch.json");
    assert!(
        names(&after).contains(&"boj-1000: sample 2".to_string()),
        "{after}"
    );
    assert!(
        !names(&after).iter().any(|n| n.starts_with("boj-2580")),
        "{after}"
    );
    fs::rename(&away, copy.path("problems/boj-1000")).unwrap();
}
