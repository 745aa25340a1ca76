//! Problems: finding them under `problems/`, naming them (`boj-2239`, `2239`, a path), reading
//! their `[package.metadata.boj]` and listing their samples in natural order.
//!
//! A problem is a folder with a `Cargo.toml` and a `samples/` folder; nothing else registers it.

use std::cmp::Ordering;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use serde::Deserialize;

/// What a problem's `Cargo.toml` says about it.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestInfo {
    /// The package name.
    pub name: String,
    /// `default-run` when set, else the package name.
    pub solver_bin: String,
    /// `[package.metadata.boj]`.
    pub meta: Meta,
    /// The judge, checked against what it needs.
    pub judge: Judge<String>,
}

/// Reads a problem's `Cargo.toml` text: its package, `default-run` and `[package.metadata.boj]`
/// (unknown keys refused), and checks that the judge has what it needs. The error says why, for
/// the caller to put after the file's name.
pub fn read_manifest(text: &str) -> std::result::Result<ManifestInfo, String> {
    let parsed: Manifest = toml::from_str(text).map_err(|err| {
        let place = err.span().map_or(String::new(), |span| {
            let mut start = span.start.min(text.len());
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            let before = &text[..start];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
            format!("line {line}, column {column}: ")
        });
        // toml's messages may run over several lines; a report line is one.
        let message: Vec<&str> = err.message().lines().map(str::trim).collect();
        format!("{place}{}", message.join("; "))
    })?;
    let package = parsed.package.ok_or("no [package]")?;
    let meta = package
        .metadata
        .and_then(|m| m.boj)
        .ok_or("no [package.metadata.boj] table")?;
    // An empty binary name names no binary: say so here, not as a build that found nothing.
    let named = [
        ("default-run", package.default_run.as_ref()),
        ("checker", meta.checker.as_ref()),
        ("interactor", meta.interactor.as_ref()),
        ("generator", meta.generator.as_ref()),
        ("reference", meta.reference.as_ref()),
        ("validator", meta.validator.as_ref()),
    ];
    if let Some((key, _)) = named
        .iter()
        .find(|(_, name)| name.is_some_and(|n| n.is_empty()))
    {
        return Err(format!("`{key} = \"\"` names no binary"));
    }
    if meta.time_limit_ms == 0 {
        return Err(
            "[package.metadata.boj]: `time-limit-ms = 0` gives the solution no time (give the \
             problem's limit in milliseconds, at least 1)"
                .to_string(),
        );
    }
    if meta.memory_limit_mb == 0 {
        return Err(
            "[package.metadata.boj]: `memory-limit-mb = 0` gives the solution no memory (give \
             the problem's limit in MB, at least 1)"
                .to_string(),
        );
    }
    if meta.stack_limit_mb == Some(0) {
        return Err(
            "[package.metadata.boj]: `stack-limit-mb = 0` leaves no stack (give at \
                    least 1, or leave it out for the memory limit)"
                .to_string(),
        );
    }
    let judge = meta
        .checked_judge()
        .map_err(|why| format!("[package.metadata.boj]: {why}"))?;
    Ok(ManifestInfo {
        solver_bin: package.default_run.unwrap_or_else(|| package.name.clone()),
        name: package.name,
        meta,
        judge,
    })
}

/// One problem folder and what its `Cargo.toml` says about it.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The package name, e.g. `boj-2239`: how reports name the problem.
    pub name: String,
    /// The problem's folder (canonical).
    pub dir: PathBuf,
    /// `dir/Cargo.toml`.
    pub manifest: PathBuf,
    /// The binary that solves the problem: `default-run` when set, else the package name.
    pub solver_bin: String,
    /// `[package.metadata.boj]`.
    pub meta: Meta,
    /// How answers are judged, checked against what that judge needs.
    pub judge: Judge<String>,
}

/// `[package.metadata.boj]` of a problem's `Cargo.toml`: BOJ's limits, how answers are judged,
/// and the problem's own helper binaries (all optional but `id`'s siblings have defaults).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Meta {
    /// The BOJ problem number.
    pub id: Option<u32>,
    /// BOJ's time limit.
    #[serde(default = "default_time_limit_ms")]
    pub time_limit_ms: u64,
    /// BOJ's memory limit, in MiB (BOJ's "MB").
    #[serde(default = "default_memory_limit_mb")]
    pub memory_limit_mb: u64,
    /// The stack the solution may grow to, in MiB; by default the memory limit (BOJ lets the
    /// stack grow that far: docs/limits.md).
    pub stack_limit_mb: Option<u64>,
    /// How outputs are judged.
    #[serde(default)]
    pub judge: JudgeKind,
    /// Name of the checker binary of the same package, when `judge = "checker"`.
    pub checker: Option<String>,
    /// Name of the interactor binary of the same package, when `judge = "interactive"`.
    pub interactor: Option<String>,
    /// The absolute or relative error a number may have, when `judge = "float"`.
    pub error: Option<f64>,
    /// Binary of the same package that prints one input: `GENERATOR SEED SIZE` (stress).
    pub generator: Option<String>,
    /// Binary of the same package that prints the expected answer for the input on its stdin
    /// (stress): a slow, obviously right solution.
    pub reference: Option<String>,
    /// Binary of the same package that reads one input on stdin and exits 0 when it meets the
    /// problem's constraints, else non-zero with the reason on stderr (testlib's convention):
    /// run on every generated input (stress, scale) and on the samples (test).
    pub validator: Option<String>,
}

/// Bytes in BOJ's "MB" (a mebibyte), which its limits and our figures are given in.
pub const MIB: u64 = 1024 * 1024;

/// The time limit when the metadata gives none.
pub const DEFAULT_TIME_LIMIT_MS: u64 = 1000;

/// The memory limit when the metadata gives none, in MB.
pub const DEFAULT_MEMORY_LIMIT_MB: u64 = 256;

fn default_time_limit_ms() -> u64 {
    DEFAULT_TIME_LIMIT_MS
}

fn default_memory_limit_mb() -> u64 {
    DEFAULT_MEMORY_LIMIT_MB
}

impl Meta {
    /// The time limit as a `Duration`.
    pub fn time_limit(&self) -> Duration {
        Duration::from_millis(self.time_limit_ms)
    }

    /// The memory limit in bytes.
    pub fn memory_limit_bytes(&self) -> u64 {
        self.memory_limit_mb.saturating_mul(MIB)
    }

    /// The stack limit in bytes: `stack-limit-mb`, or else the memory limit.
    pub fn stack_limit_bytes(&self) -> u64 {
        self.stack_limit_mb
            .unwrap_or(self.memory_limit_mb)
            .saturating_mul(MIB)
    }

    /// The judge the metadata asks for, with what it needs (the checker's name, the error).
    ///
    /// Fails, with the reason, when the judge misses what it needs.
    pub fn checked_judge(&self) -> std::result::Result<Judge<String>, String> {
        match self.judge {
            JudgeKind::Exact => Ok(Judge::Exact),
            JudgeKind::Checker => match &self.checker {
                Some(bin) => Ok(Judge::Checker(bin.clone())),
                None => Err(
                    "judge = \"checker\" needs `checker = \"BINARY\"` (a binary of this \
                             package)"
                        .to_string(),
                ),
            },
            JudgeKind::Interactive => match &self.interactor {
                Some(bin) => Ok(Judge::Interactive(bin.clone())),
                None => Err(
                    "judge = \"interactive\" needs `interactor = \"BINARY\"` (a binary \
                             of this package, called as `BINARY INPUT`)"
                        .to_string(),
                ),
            },
            JudgeKind::Float => match self.error {
                Some(error) => allowed_error(error)
                    .map(Judge::Float)
                    .map_err(|why| format!("error = {why}")),
                None => Err(
                    "judge = \"float\" needs `error = 1e-9` (the absolute or relative \
                             error allowed)"
                        .to_string(),
                ),
            },
        }
    }
}

/// `error` when a number may be off by it (a finite number >= 0); else why not, after the
/// number: what the float judge's `error` and `new --error` both check.
pub fn allowed_error(error: f64) -> std::result::Result<f64, String> {
    if error.is_finite() && error >= 0.0 {
        Ok(error)
    } else {
        Err(format!(
            "{error} is not an error a number may have (a finite number >= 0, like 1e-9)"
        ))
    }
}

/// How a problem's outputs are judged, as written in its metadata.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum JudgeKind {
    /// Text comparison with BOJ's whitespace rules (AC, PE or WA).
    #[default]
    Exact,
    /// The problem's checker binary decides: `checker INPUT ANSWER OUTPUT`, exit 0 = accepted.
    Checker,
    /// Token by token; numbers within an absolute or relative error (`error`).
    Float,
    /// The solution talks to the problem's interactor, which decides: exit 0 accepts.
    Interactive,
}

impl fmt::Display for JudgeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            JudgeKind::Exact => "exact",
            JudgeKind::Checker => "checker",
            JudgeKind::Float => "float",
            JudgeKind::Interactive => "interactive",
        })
    }
}

/// How a problem's answers are judged, with the helper its judge needs: `Judge<String>` names
/// the helper's binary, as the metadata does (what [`Meta::checked_judge`] checked); `Judge<PathBuf>`
/// holds its executable, ready to run (what [`crate::judge::run_case`] takes).
#[derive(Debug, Clone, PartialEq)]
pub enum Judge<Helper> {
    /// BOJ's text comparison.
    Exact,
    /// This checker decides: `CHECKER INPUT ANSWER OUTPUT`, exit 0 accepts.
    Checker(Helper),
    /// Token by token, numbers within this absolute or relative error.
    Float(f64),
    /// The solution talks to this interactor, which decides: `INTERACTOR INPUT`.
    Interactive(Helper),
}

impl<Helper> Judge<Helper> {
    /// The checker, for a checker judge.
    pub fn checker(&self) -> Option<&Helper> {
        match self {
            Judge::Checker(helper) => Some(helper),
            _ => None,
        }
    }

    /// The interactor, for an interactive judge.
    pub fn interactor(&self) -> Option<&Helper> {
        match self {
            Judge::Interactive(helper) => Some(helper),
            _ => None,
        }
    }

    /// The same judge with its helper turned into another form by `to` (a name into an
    /// executable), or `to`'s error.
    pub fn try_map<Other, E>(
        &self,
        to: impl FnOnce(&Helper) -> std::result::Result<Other, E>,
    ) -> std::result::Result<Judge<Other>, E> {
        Ok(match self {
            Judge::Exact => Judge::Exact,
            Judge::Float(error) => Judge::Float(*error),
            Judge::Checker(helper) => Judge::Checker(to(helper)?),
            Judge::Interactive(helper) => Judge::Interactive(to(helper)?),
        })
    }
}

impl<Helper> fmt::Display for Judge<Helper> {
    /// How reports name the judge: `exact judge`, `checker judge`, `float judge (error 1e-9)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Judge::Exact => f.write_str("exact judge"),
            Judge::Checker(_) => f.write_str("checker judge"),
            Judge::Float(error) => write!(f, "float judge (error {error:e})"),
            Judge::Interactive(_) => f.write_str("interactive judge"),
        }
    }
}

/// One sample: `samples/NAME.in` and `samples/NAME.out`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    /// The file stem shared by both files.
    pub name: String,
    /// Fed to the solver on stdin (and given to a checker as INPUT).
    pub input: PathBuf,
    /// The model answer (a checker's ANSWER).
    pub answer: PathBuf,
}

#[derive(Deserialize)]
struct Manifest {
    package: Option<Package>,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
struct Package {
    name: String,
    default_run: Option<String>,
    metadata: Option<PackageMetadata>,
}

#[derive(Deserialize)]
struct PackageMetadata {
    boj: Option<Meta>,
}

impl Problem {
    /// The binaries of the problem other than the solver that its metadata names: checker,
    /// interactor, generator, reference, validator.
    pub fn helper_bins(&self) -> Vec<&str> {
        [
            self.judge.checker(),
            self.judge.interactor(),
            self.meta.generator.as_ref(),
            self.meta.reference.as_ref(),
            self.meta.validator.as_ref(),
        ]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect()
    }

    /// Reads the problem in `dir` (a folder holding `Cargo.toml` and `samples/`).
    pub fn load(dir: &Path) -> Result<Problem> {
        let dir = dunce::canonicalize(dir)
            .with_context(|| format!("no problem folder at {}", dir.display()))?;
        let manifest = dir.join("Cargo.toml");
        if !manifest.is_file() || !dir.join("samples").is_dir() {
            bail!(
                "{} is not a problem folder (a problem has a Cargo.toml and a samples/ folder)",
                dir.display()
            );
        }
        let text = fs::read_to_string(&manifest)
            .with_context(|| format!("cannot read {}", manifest.display()))?;
        let read = read_manifest(&text).map_err(|why| anyhow!("{}: {why}", manifest.display()))?;
        Ok(Problem {
            name: read.name,
            dir,
            manifest,
            solver_bin: read.solver_bin,
            meta: read.meta,
            judge: read.judge,
        })
    }

    /// Reads the problem whose folder is `path` or holds it (a file or folder in a problem, as an
    /// editor names the file being edited): the nearest folder at or above it with a
    /// `Cargo.toml` and a `samples/` folder. The error is [`Problem::load`]'s for `path` itself
    /// when no folder above it is a problem.
    pub fn load_containing(path: &Path) -> Result<Problem> {
        let Ok(full) = dunce::canonicalize(path) else {
            return Problem::load(path);
        };
        let found = full
            .ancestors()
            .find(|dir| dir.join("Cargo.toml").is_file() && dir.join("samples").is_dir());
        match found {
            Some(dir) => Problem::load(dir),
            None => Problem::load(path),
        }
    }

    /// The samples, in natural order (`2` before `10`). Every `.in` needs its `.out` and the
    /// other way round; anything else in `samples/` (like `.gitkeep`) is ignored.
    pub fn samples(&self) -> Result<Vec<Sample>> {
        let folder = self.dir.join("samples");
        let mut samples = Vec::new();
        let entries =
            fs::read_dir(&folder).with_context(|| format!("cannot list {}", folder.display()))?;
        for entry in entries {
            let path = entry?.path();
            let (Some(stem), Some(ext)) = (path.file_stem(), path.extension()) else {
                continue;
            };
            let stem = stem.to_string_lossy().into_owned();
            match ext.to_str() {
                Some("in") => {
                    let answer = path.with_extension("out");
                    if !answer.is_file() {
                        bail!("{} has no answer file {}", path.display(), answer.display());
                    }
                    samples.push(Sample {
                        name: stem,
                        input: path,
                        answer,
                    });
                }
                Some("out") if !path.with_extension("in").is_file() => {
                    bail!("{} has no input file beside it", path.display());
                }
                _ => {}
            }
        }
        samples.sort_by(|a, b| natural_cmp(&a.name, &b.name));
        Ok(samples)
    }
}

/// Every problem under `root/problems`, sorted by name.
pub fn discover(root: &Path) -> Result<Vec<Problem>> {
    let base = root.join("problems");
    let mut problems = Vec::new();
    let mut walk = walkdir::WalkDir::new(&base)
        .min_depth(1)
        .sort_by_file_name()
        .into_iter();
    while let Some(entry) = walk.next() {
        let entry = entry.with_context(|| format!("cannot walk {}", base.display()))?;
        let name = entry.file_name().to_string_lossy();
        if !entry.file_type().is_dir() || name.starts_with('.') || name == "target" {
            if entry.file_type().is_dir() {
                walk.skip_current_dir();
            }
            continue;
        }
        let dir = entry.path();
        if dir.join("Cargo.toml").is_file() && dir.join("samples").is_dir() {
            problems.push(Problem::load(dir)?);
            walk.skip_current_dir();
        }
    }
    problems.sort_by(|a, b| natural_cmp(&a.name, &b.name));
    Ok(problems)
}

/// Finds the problem a user named; a name (`boj-2239`, `2239`) is looked up under `root`, or
/// under the workspace found at run time ([`super::project_root`]) when `root` is `None`, while a path
/// needs no workspace at all.
pub fn find(root: Option<&Path>, spec: &str) -> Result<Problem> {
    match root {
        Some(root) => resolve(root, spec),
        None if !is_problem_name(spec) => Problem::load_containing(Path::new(spec)),
        None => resolve(&super::project_root()?, spec),
    }
}

/// Finds the problem a user named: `boj-2239`, `2239`, or a path to a problem folder or to a
/// file or folder in one (an editor's `${file}`: `problems/boj-2239/src/main.rs`).
///
/// A name is looked up among the problems under `root/problems` (by package name, folder name
/// or metadata id); anything else is taken as a path.
pub fn resolve(root: &Path, spec: &str) -> Result<Problem> {
    let as_path = Path::new(spec);
    if !is_problem_name(spec) {
        return Problem::load_containing(as_path);
    }
    let wanted = spec.strip_prefix("boj-").unwrap_or(spec);
    // Where `new` puts it: found without reading the whole archive.
    let usual = root.join("problems").join(format!("boj-{wanted}"));
    if usual.join("Cargo.toml").is_file() && usual.join("samples").is_dir() {
        let problem = Problem::load(&usual)?;
        if problem.name.strip_prefix("boj-") == Some(wanted) {
            return Ok(problem);
        }
    }
    let problems = discover(root)?;
    let found = problems.iter().find(|p| {
        let folder = p.dir.file_name().map(|f| f.to_string_lossy());
        p.name.strip_prefix("boj-") == Some(wanted)
            || folder.as_deref().and_then(|f| f.strip_prefix("boj-")) == Some(wanted)
            || p.meta.id.map(|id| id.to_string()).as_deref() == Some(wanted)
    });
    if let Some(found) = found {
        return Ok(found.clone());
    }
    if as_path.join("Cargo.toml").is_file() {
        return Problem::load(as_path);
    }
    if usual.join("Cargo.toml").is_file() && !usual.join("samples").exists() {
        bail!(
            "{} has a Cargo.toml but no samples/ folder, and a problem has both: make it (`mkdir \
             {}`), even empty",
            usual.display(),
            usual.join("samples").display()
        );
    }
    let known: Vec<&str> = problems.iter().map(|p| p.name.as_str()).collect();
    let known = if known.is_empty() {
        "none".to_string()
    } else {
        known.join(", ")
    };
    bail!(
        "no problem `{spec}` under {} (known: {known}); name one as boj-ID, ID or a folder path",
        root.join("problems").display(),
    )
}

fn is_problem_name(spec: &str) -> bool {
    let digits = spec.strip_prefix("boj-").unwrap_or(spec);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Compares names so that runs of digits compare as numbers: `2` < `10` < `a1` < `a2`.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.first(), b.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let da = a.iter().take_while(|c| c.is_ascii_digit()).count();
                let db = b.iter().take_while(|c| c.is_ascii_digit()).count();
                let (na, nb) = (trim_zeros(&a[..da]), trim_zeros(&b[..db]));
                let order = na
                    .len()
                    .cmp(&nb.len())
                    .then_with(|| na.cmp(nb))
                    .then_with(|| da.cmp(&db));
                if order != Ordering::Equal {
                    return order;
                }
                a = &a[da..];
                b = &b[db..];
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(y);
                }
                a = &a[1..];
                b = &b[1..];
            }
        }
    }
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let zeros = digits.iter().take_while(|&&d| d == b'0').count();
    &digits[zeros..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order_compares_numbers_by_value() {
        let mut names = vec!["10", "2", "a10", "a2", "1", "b", "01"];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(names, ["1", "01", "2", "10", "a2", "a10", "b"]);
    }

    #[test]
    fn a_manifest_error_is_one_line_with_its_place() {
        // Found by the manifest fuzz target: toml's message for this runs over two lines.
        let text = "[package]\nname = \"boj-1\"\n[package.metadata.boj]\njudge = ,rue\n";
        let why = read_manifest(text).unwrap_err();
        assert!(!why.contains('\n'), "{why}");
        assert!(why.starts_with("line 4, column 9: "), "{why}");
        let why = read_manifest("[package]\nname = \"boj-1\"\n").unwrap_err();
        assert_eq!(why, "no [package.metadata.boj] table");
        // Found by the manifest fuzz target: an empty `default-run` (or helper name) names no
        // binary, and was taken as the solver's name.
        let text = "[package]\nname = \"boj-1\"\ndefault-run = \"\"\n[package.metadata.boj]\n";
        assert_eq!(
            read_manifest(text).unwrap_err(),
            "`default-run = \"\"` names no binary"
        );
        let text = "[package]\nname = \"boj-1\"\n[package.metadata.boj]\ngenerator = \"\"\n";
        assert_eq!(
            read_manifest(text).unwrap_err(),
            "`generator = \"\"` names no binary"
        );
    }

    #[test]
    fn the_stack_is_the_memory_limit_unless_the_manifest_says_otherwise() {
        let manifest = |extra: &str| {
            read_manifest(&format!(
                "[package]\nname = \"boj-1\"\n[package.metadata.boj]\nmemory-limit-mb = 128\n{extra}"
            ))
        };
        let meta = manifest("").unwrap().meta;
        assert_eq!(meta.stack_limit_bytes(), 128 << 20);
        let meta = manifest("stack-limit-mb = 8\n").unwrap().meta;
        assert_eq!(meta.stack_limit_bytes(), 8 << 20);
        assert_eq!(meta.memory_limit_bytes(), 128 << 20);
        // No time, no memory: refused, as BOJ gives every problem some of both.
        let no_time = read_manifest(
            "[package]\nname = \"boj-1\"\n[package.metadata.boj]\ntime-limit-ms = 0\n",
        )
        .unwrap_err();
        assert!(
            no_time.contains("`time-limit-ms = 0` gives the solution no time"),
            "{no_time}"
        );
        let no_memory = read_manifest(
            "[package]\nname = \"boj-1\"\n[package.metadata.boj]\nmemory-limit-mb = 0\n",
        )
        .unwrap_err();
        assert!(
            no_memory.contains("`memory-limit-mb = 0` gives the solution no memory"),
            "{no_memory}"
        );
        let why = manifest("stack-limit-mb = 0\n").unwrap_err();
        assert!(
            why.contains("`stack-limit-mb = 0` leaves no stack"),
            "{why}"
        );
        let meta = manifest("stack-limit-mb = 9223372036854775807\n")
            .unwrap()
            .meta;
        assert_eq!(
            meta.stack_limit_bytes(),
            u64::MAX,
            "saturated, not overflowed"
        );
    }

    #[test]
    fn problem_names_are_ids_with_or_without_prefix() {
        assert!(is_problem_name("2239"));
        assert!(is_problem_name("boj-2239"));
        assert!(!is_problem_name("boj-"));
        assert!(!is_problem_name("xtask"));
    }

    #[test]
    fn a_problem_folder_without_samples_is_named_as_such() {
        let root = std::env::temp_dir().join(format!("xtask-no-samples-{}", std::process::id()));
        let dir = root.join("problems/boj-1700");
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join("Cargo.toml"),
            "[package]\nname = \"boj-1700\"\n[package.metadata.boj]\n",
        )
        .unwrap();
        let why = resolve(&root, "1700").unwrap_err().to_string();
        assert!(
            why.contains("boj-1700 has a Cargo.toml but no samples/ folder"),
            "{why}"
        );
        fs::create_dir(dir.join("samples")).unwrap();
        assert_eq!(resolve(&root, "1700").unwrap().name, "boj-1700");
        fs::remove_dir_all(&root).unwrap();
    }
}
