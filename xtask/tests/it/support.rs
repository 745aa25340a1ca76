//! Helpers shared by the test modules: scratch folders, output as text, running the xtask,
//! folder listings, a minimal workspace like the project's for problems scaffolded in tests,
//! and the processes a test left running.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Makes the library start programs through the real xtask binary (the launcher that keeps the
/// test process's own memory out of their peak): call before judging in process.
pub fn use_xtask_launcher() {
    xtask::run::set_launcher(Path::new(env!("CARGO_BIN_EXE_xtask")));
}

/// A fresh, empty folder `GROUP/NAME` under cargo's per-test temporary folder.
pub fn scratch(group: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(group)
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Bytes from a child process as text, lossily.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Writes `ROOT/Cargo.toml`: a workspace like the project's (`problems/*` are members, the
/// shared package fields and lints, the `judge` profile), for problems made by `new` in tests.
pub fn write_minimal_workspace(root: &Path) {
    fs::write(
        root.join("Cargo.toml"),
        r#"[workspace]
members = ["problems/*"]
resolver = "2"

[workspace.package]
edition = "2021"
version = "0.1.0"
license = "MIT"
authors = ["test"]

[workspace.lints.rust]
unsafe_code = "forbid"

[profile.judge]
inherits = "release"
opt-level = 2
debug-assertions = false
overflow-checks = false
"#,
    )
    .unwrap();
}

/// What `rustc --edition 2021 -O` says compiling the bundle at `source` alone, as BOJ compiles
/// it (into a scratch folder beside it): asserted to compile; its warnings, if any.
pub fn compiled_alone_warnings(source: &Path) -> String {
    let dir = source.with_extension("alone");
    fs::create_dir_all(&dir).unwrap();
    let out = Command::new("rustc")
        .args(["--edition", "2021", "-O", "-o"])
        .arg(dir.join("Main"))
        .arg(source)
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    stderr
}

/// `TARGET` under cargo's per-test temporary folder: where a test's builds go (never the
/// outer cargo's target, whose lock the test run holds).
pub fn target_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(target)
}

/// Runs the real xtask binary with `args`, building into [`target_dir`]`(target)`, without
/// colour.
pub fn run_xtask(target: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .env("CARGO_TARGET_DIR", target_dir(target))
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// Debian's rustc 1.63 (CI installs it at `/usr/bin/rustc`), an older compiler to try what BOJ
/// compiles with; `None`, saying so, where it is not installed.
pub fn old_rustc() -> Option<PathBuf> {
    let path = PathBuf::from("/usr/bin/rustc");
    if path.is_file() {
        Some(path)
    } else {
        eprintln!("skipped the old compiler: no /usr/bin/rustc (Debian's rustc package, 1.63)");
        None
    }
}

/// The paths below `dir`, relative to it, sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .map(|e| {
            let e = e.unwrap();
            e.path().strip_prefix(dir).unwrap().display().to_string()
        })
        .collect();
    names.sort();
    names
}

/// Replaces `from` by `to` in the file at `path` (which must contain `from`): how tests edit a
/// fixture's manifest or source the way a user would.
pub fn edit(path: &Path, from: &str, to: &str) {
    let text = fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} has no {from:?}", path.display());
    fs::write(path, text.replace(from, to)).unwrap();
}

/// Asserts that a run exited 0 and that its stdout says `expected`; returns the stdout.
pub fn assert_success_saying(out: &Output, expected: &str) -> String {
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains(expected), "{stdout}");
    stdout
}

/// Copies the folder tree `from` to `to` (created), leaving out any `target/` build folder.
pub fn copy_tree(from: &Path, to: &Path) {
    let tree = walkdir::WalkDir::new(from)
        .into_iter()
        .filter_entry(|entry| entry.file_name() != "target");
    for entry in tree {
        let entry = entry.unwrap();
        let copy = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            fs::create_dir_all(&copy).unwrap();
        } else {
            fs::copy(entry.path(), &copy).unwrap();
        }
    }
}

/// A fresh copy of the fixture workspace `tests/data/DATA` (sources and samples) for one test,
/// at [`scratch`]`(DATA, test)`.
pub fn fixture_copy(data: &str, test: &str) -> PathBuf {
    let to = scratch(data, test);
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(data),
        &to,
    );
    to
}

/// The running processes that belong to `dir`, as `PID COMMAND` lines: their executable lies
/// under it (a built solution), or their command line names it (cargo and rustc building
/// there, the launcher running a solution from there). Linux's `/proc` tells; elsewhere the
/// check is skipped, saying so, and the runner's own tests cover killing.
pub fn processes_under(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    if !Path::new("/proc/self/exe").exists() {
        eprintln!("skipped: no /proc here to list processes by executable");
        return found;
    }
    let named = dir.to_string_lossy().into_owned();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let exe = fs::read_link(entry.path().join("exe")).unwrap_or_default();
        let command_line =
            text(&fs::read(entry.path().join("cmdline")).unwrap_or_default()).replace('\0', " ");
        if exe.starts_with(dir) || command_line.contains(&named) {
            found.push(format!("{name} {}", command_line.trim_end()));
        }
    }
    found
}

/// Processes that spin without end, to starve what runs beside them; ended (and reaped) when
/// dropped.
#[cfg(unix)]
pub struct SpinningProcesses(Vec<std::process::Child>);

#[cfg(unix)]
impl SpinningProcesses {
    /// `count` spinning shells, on the CPU `cpu` alone when given (`taskset`, util-linux).
    pub fn start(count: usize, cpu: Option<usize>) -> SpinningProcesses {
        let spinner = || {
            let mut command = match cpu {
                Some(cpu) => {
                    let mut taskset = Command::new("taskset");
                    taskset.args(["-c", &cpu.to_string(), "/bin/sh"]);
                    taskset
                }
                None => Command::new("/bin/sh"),
            };
            command.args(["-c", "while :; do :; done"]).spawn().unwrap()
        };
        SpinningProcesses((0..count).map(|_| spinner()).collect())
    }
}

#[cfg(unix)]
impl Drop for SpinningProcesses {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A CPU this process may run on (the first of `Cpus_allowed_list` in `/proc/self/status`), and
/// whether `taskset` is there to pin programs to it: `None`, saying so, elsewhere.
#[cfg(target_os = "linux")]
pub fn cpu_to_pin() -> Option<usize> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let allowed = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))?
        .trim();
    let first: usize = allowed.split([',', '-']).next()?.parse().ok()?;
    let taskset = Command::new("taskset").arg("--version").output();
    if taskset.is_err() {
        eprintln!("skipped: no taskset (util-linux) to pin programs to one CPU");
        return None;
    }
    Some(first)
}

/// A copy of the project (its manifests, lock file, cargo configuration, libraries, problems and
/// xtask; not its build folder, nor the xtask's test fixtures) in a fresh folder outside it,
/// removed when dropped.
pub struct ProjectCopy {
    pub root: PathBuf,
    /// Its own target folder: copies judged side by side would otherwise write their problems'
    /// executables, of the same names, over each other's.
    pub target: PathBuf,
}

impl ProjectCopy {
    pub fn new(test: &str) -> ProjectCopy {
        let project = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let root = std::env::temp_dir().join(format!("xtask-ws-{test}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(&root).unwrap();
        for file in ["Cargo.toml", "Cargo.lock"] {
            fs::copy(project.join(file), root.join(file)).unwrap();
        }
        for folder in [
            ".cargo",
            "crates",
            "problems",
            "xtask/src",
            "xtask/tests/it",
        ] {
            copy_tree(&project.join(folder), &root.join(folder));
        }
        fs::copy(
            project.join("xtask/Cargo.toml"),
            root.join("xtask/Cargo.toml"),
        )
        .unwrap();
        ProjectCopy {
            root,
            target: target_dir(&format!("workspace-{test}")),
        }
    }

    pub fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    /// Real cargo, run in the copy's root as a user types it, building into the copy's own
    /// target folder (without debug info, which only makes a build slower here).
    pub fn cargo(&self, args: &[&str]) -> Output {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        Command::new(cargo)
            .args(args)
            .current_dir(&self.root)
            .env("CARGO_TARGET_DIR", &self.target)
            .env("CARGO_PROFILE_DEV_DEBUG", "0")
            .env_remove("CARGO_MANIFEST_DIR")
            .output()
            .unwrap()
    }

    /// The xtask as `cargo xtask ARGS` runs it in the copy: in its root, with cargo's
    /// `CARGO_MANIFEST_DIR` naming the copy's xtask package.
    pub fn xtask(&self, args: &[&str]) -> Output {
        self.xtask_command(args).output().unwrap()
    }

    /// [`ProjectCopy::xtask`]'s command, for a test to start and wait for as it needs.
    pub fn xtask_command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_xtask"));
        command
            .args(args)
            .current_dir(&self.root)
            .env("CARGO_MANIFEST_DIR", self.root.join("xtask"))
            .env("CARGO_TARGET_DIR", &self.target)
            .env("NO_COLOR", "1");
        command
    }

    /// The packages cargo counts as the workspace's members (`cargo metadata`), by name; the
    /// test fails, with cargo's message, when cargo refuses to load the workspace.
    pub fn members(&self) -> Vec<String> {
        let out = self.cargo(&[
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut names: Vec<String> = metadata["packages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| {
                metadata["workspace_members"]
                    .as_array()
                    .unwrap()
                    .contains(&p["id"])
            })
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect();
        names.sort();
        names
    }

    /// `cargo xtask new ID`, with one sample that the template's solution (each token echoed on
    /// a line) answers.
    pub fn new_problem(&self, id: &str) {
        assert_success_saying(&self.xtask(&["new", id]), "opened problems/boj-");
        let samples = self.path(&format!("problems/boj-{id}/samples"));
        fs::write(samples.join("1.in"), "3 4\n").unwrap();
        fs::write(samples.join("1.out"), "3\n4\n").unwrap();
        // The editor's configurations follow the samples at the next command, as they would
        // at the user's next `test`: so that a commit made now holds them.
        assert_success_saying(&self.xtask(&["open", id]), "open (");
    }
}

impl Drop for ProjectCopy {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}
