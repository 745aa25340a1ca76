//! Helpers shared by the test modules: scratch folders, output as text, and a minimal
//! workspace like the project's for problems scaffolded in tests.

use std::fs;
use std::path::{Path, PathBuf};

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
