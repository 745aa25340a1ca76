//! Which Rust the judge compiles with: one setting, the problem's own `rust-version` in its
//! `Cargo.toml` (cargo's field: `rust-version.workspace = true` takes the workspace's), the
//! field clippy's `incompatible_msrv` and cargo's MSRV-aware resolver already read; where the
//! problem sets none, Rust 1.56, what BOJ is believed to run (BOJ does not publish its version;
//! its `--edition 2021` needs 1.56 at least: docs/limits.md). The bundle's syntax check and its notes on crates that declare a newer
//! `rust-version` follow it, and a note names the newest version of such a crate that fits, as
//! cargo's resolver finds it.

use std::fmt;

/// A Rust version, `1.65.0`; written without a `.0` patch (`1.65`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct RustVersion(pub u32, pub u32, pub u32);

impl RustVersion {
    /// What the judge is taken to run where a problem sets no `rust-version`: Rust 1.56. BOJ
    /// compiles with `rustc --edition 2021`, which no rustc before 1.56 has, so its rustc is
    /// no older, and nothing proves it newer (docs/limits.md).
    pub const BOJ_DEFAULT: RustVersion = RustVersion(1, 56, 0);

    /// Reads `1.70`, `1.70.0`, or what `rustc --version` says (`rustc 1.63.0 (...)`): the first
    /// word that starts with a digit.
    pub fn parse(text: &str) -> Option<RustVersion> {
        let version = text
            .split_whitespace()
            .find(|w| w.starts_with(|c: char| c.is_ascii_digit()))?;
        let mut parts = version
            .split(|c: char| !c.is_ascii_digit())
            .map(|p| p.parse::<u32>().ok());
        let major = parts.next()??;
        let minor = parts.next().flatten().unwrap_or(0);
        let patch = parts.next().flatten().unwrap_or(0);
        Some(RustVersion(major, minor, patch))
    }
}

impl fmt::Display for RustVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.2 {
            0 => write!(f, "{}.{}", self.0, self.1),
            patch => write!(f, "{}.{}.{patch}", self.0, self.1),
        }
    }
}

/// The Rust a problem's judge is taken to run, and where that was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudgeRust {
    pub version: RustVersion,
    /// Whether the problem sets it (else it is [`RustVersion::BOJ_DEFAULT`]).
    pub declared: bool,
}

impl JudgeRust {
    /// The setting of a problem whose `rust-version` cargo resolved to `rust_version` (none:
    /// the default).
    pub fn of_problem(rust_version: Option<&str>) -> JudgeRust {
        match rust_version.and_then(RustVersion::parse) {
            Some(version) => JudgeRust {
                version,
                declared: true,
            },
            None => JudgeRust {
                version: RustVersion::BOJ_DEFAULT,
                declared: false,
            },
        }
    }

    /// Whether what needs `needed` may go to this judge.
    pub fn allows(&self, needed: RustVersion) -> bool {
        needed <= self.version
    }

    /// `Rust 1.88, the problem's rust-version`, or `Rust 1.56, what BOJ is believed to run
    /// (...)`: the setting, named where a message says something is newer.
    pub fn named(&self) -> String {
        if self.declared {
            format!("Rust {}, the problem's `rust-version`", self.version)
        } else {
            format!(
                "Rust {}, what BOJ is believed to run (the problem's Cargo.toml sets no \
                 `rust-version`: set it to what your judge runs)",
                self.version
            )
        }
    }

    /// A bundled crate (`package`: name and version) that declares `rust-version` `needs`,
    /// newer than the judge's, said with the setting.
    pub fn crate_note(&self, package: &str, needs: RustVersion) -> String {
        format!(
            "note: {package} declares rust-version {needs}, newer than {}",
            self.named()
        )
    }

    /// [`JudgeRust::crate_note`] with what cargo found of the newest version of that crate
    /// that fits (nothing more when it could not tell).
    pub fn crate_note_with_fitting(
        &self,
        package: &str,
        needs: RustVersion,
        fits: &Fitting,
    ) -> String {
        let name = package.split_whitespace().next().unwrap_or(package);
        let note = self.crate_note(package, needs);
        match fits {
            Fitting::Version(version) => format!(
                "{note}; the newest {name} that declares Rust {} or older is {version}",
                self.version
            ),
            Fitting::None => format!(
                "{note}; cargo finds no {name} that declares Rust {} or older",
                self.version
            ),
            Fitting::Unknown => note,
        }
    }
}

/// What cargo finds of the newest version of a crate that fits the judge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fitting {
    /// This version, the newest that declares the judge's Rust or older (or none).
    Version(String),
    /// Every version declares a newer Rust.
    None,
    /// cargo could not tell (no network, and the index not in its cache).
    Unknown,
}

/// The newest version of the crates.io crate `name` whose `rust-version` is `judge` or older (or
/// that declares none), as cargo's MSRV-aware resolver picks it
/// (`resolver.incompatible-rust-versions = "fallback"`, in a scratch package declaring
/// `rust-version = judge` and depending on `name = "*"`), and `cargo info` reads its
/// `rust-version` (the resolver falls back to the newest when none fits).
pub fn newest_fitting(name: &str, judge: RustVersion) -> Fitting {
    let ask = || -> Option<Fitting> {
        let scratch = crate::scratch::Scratch::new("judge-rust").ok()?;
        let dir = scratch.path();
        std::fs::create_dir_all(dir.join("src")).ok()?;
        std::fs::write(dir.join("src/lib.rs"), "").ok()?;
        std::fs::write(
            dir.join("Cargo.toml"),
            format!(
                "[package]\nname = \"judge-rust-probe\"\nversion = \"0.0.0\"\nedition = \
                 \"2021\"\nrust-version = \"{judge}\"\n\n[dependencies]\n{name} = \"*\"\n\n\
                 [workspace]\n"
            ),
        )
        .ok()?;
        // Without a network, cargo gives up at once rather than after its retries.
        let run = |args: &[&str], fallback: bool| {
            let mut command = crate::workspace::host::cargo(Some(dir));
            command
                .args(args)
                .env("CARGO_NET_RETRY", "0")
                .env("CARGO_HTTP_TIMEOUT", "10");
            if fallback {
                command.env("CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS", "fallback");
            }
            command.output().ok().filter(|out| out.status.success())
        };
        run(&["generate-lockfile", "--quiet"], true)?;
        let lock: toml::Value = std::fs::read_to_string(dir.join("Cargo.lock"))
            .ok()?
            .parse()
            .ok()?;
        let version = lock
            .get("package")?
            .as_array()?
            .iter()
            .find(|p| p.get("name").and_then(|n| n.as_str()) == Some(name))?
            .get("version")?
            .as_str()?
            .to_string();
        let info = run(&["info", "--quiet", &format!("{name}@{version}")], false)?;
        let said = String::from_utf8_lossy(&info.stdout);
        let needs = said
            .lines()
            .find_map(|l| l.strip_prefix("rust-version:"))
            .and_then(RustVersion::parse);
        Some(match needs {
            Some(needs) if needs > judge => Fitting::None,
            _ => Fitting::Version(version),
        })
    };
    ask().unwrap_or(Fitting::Unknown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_read_and_compare_as_numbers() {
        assert_eq!(
            RustVersion::parse("rustc 1.63.0 (4b91a6ea7 2022-08-08)"),
            Some(RustVersion(1, 63, 0))
        );
        assert_eq!(RustVersion::parse("1.70"), Some(RustVersion(1, 70, 0)));
        assert_eq!(RustVersion::parse("1.62.1"), Some(RustVersion(1, 62, 1)));
        assert_eq!(RustVersion::parse("version unknown"), None);
        assert!(RustVersion(1, 9, 0) < RustVersion(1, 56, 0));
        assert_eq!(RustVersion(1, 62, 1).to_string(), "1.62.1");
        assert_eq!(RustVersion(1, 56, 0).to_string(), "1.56");
    }

    #[test]
    fn the_setting_is_the_problems_rust_version_or_else_1_56() {
        let set = JudgeRust::of_problem(Some("1.88.0"));
        assert_eq!(set.version, RustVersion(1, 88, 0));
        assert!(set.allows(RustVersion(1, 65, 0)) && !set.allows(RustVersion(1, 89, 0)));
        assert_eq!(set.named(), "Rust 1.88, the problem's `rust-version`");
        let unset = JudgeRust::of_problem(None);
        assert_eq!(unset.version, RustVersion::BOJ_DEFAULT);
        assert!(unset.named().contains("sets no `rust-version`"));
        assert_eq!(
            unset.crate_note_with_fitting(
                "pathfinding 4.16.0",
                RustVersion(1, 88, 0),
                &Fitting::Version("3.0.11".into())
            ),
            format!(
                "note: pathfinding 4.16.0 declares rust-version 1.88, newer than {}; the \
                 newest pathfinding that declares Rust 1.56 or older is 3.0.11",
                unset.named()
            )
        );
    }
}
