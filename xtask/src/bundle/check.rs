//! Is a bundle a submission BOJ accepts? Size under 512 KB, no syntax newer than the Rust the
//! problem's judge is taken to run (its `rust-version`, 1.56 where it sets none: see
//! [`super::judge_rust`]) that can be seen, compiles alone with `rustc --edition 2021 -O` (and
//! with any older rustc given) with no warning that it "will become a hard error in a future
//! release", and the executable passes the problem's samples under the same
//! judge as `cargo xtask test`. One set of rules ([`issues`]) for `bundle --check` and for
//! `--bundled` runs.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use proc_macro2::{TokenStream, TokenTree};
use syn::visit::{self, Visit};

use crate::judge::{self, JudgeOptions, ProblemReport};
use crate::run::Program;
use crate::workspace::build::{self, BuildOptions};
use crate::workspace::problem::{Judge, Problem};

use super::cache::{self, Store};
use super::judge_rust::{self, JudgeRust, RustVersion};
use super::manifest::Source;
use super::Bundle;

/// Syntax newer than Rust 1.56 found in a bundle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// 1-based line in the bundle.
    pub line: usize,
    /// What was found and since when it exists.
    pub what: String,
    /// The Rust it needs.
    pub since: RustVersion,
}

/// Looks for syntax BOJ's older rustc rejects: let-else (1.65), let chains (1.88), inline
/// format arguments such as `"{x}"` (1.58), generic associated types (1.65), C string
/// literals (1.77), inline `const { }` blocks (1.79), exclusive range patterns (1.80),
/// `unsafe extern` blocks and their `safe` items, and precise capturing `use<..>` (1.82).
pub fn newer_syntax(text: &str) -> Result<Vec<Finding>> {
    let file = syn::parse_file(text).context("the bundle does not parse")?;
    let mut finder = Finder { found: Vec::new() };
    finder.visit_file(&file);
    finder
        .found
        .sort_by(|a, b| (a.line, &a.what).cmp(&(b.line, &b.what)));
    finder.found.dedup();
    Ok(finder.found)
}

struct Finder {
    found: Vec<Finding>,
}

fn line_of(span: proc_macro2::Span) -> usize {
    span.start().line
}

/// Macros whose first string literal is a format string.
const FORMAT_MACROS: &[&str] = &[
    "format",
    "format_args",
    "print",
    "println",
    "eprint",
    "eprintln",
    "write",
    "writeln",
    "panic",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "unreachable",
    "todo",
    "unimplemented",
];

/// Names used as implicit (inline) arguments in a format string: `{x}`, `{x:?}`, `{:>w$}`.
fn inline_args(format: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut chars = format.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '{' if matches!(chars.peek(), Some((_, '{'))) => {
                chars.next();
            }
            '{' => {
                let rest = &format[i + 1..];
                let end = rest.find('}').unwrap_or(rest.len());
                let spec = &rest[..end];
                let (arg, fmt) = match spec.find(':') {
                    Some(colon) => (&spec[..colon], &spec[colon + 1..]),
                    None => (spec, ""),
                };
                let arg = arg.trim();
                if is_ident(arg) {
                    names.push(arg.to_owned());
                }
                // Width and precision given as `name$`.
                for part in fmt.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')) {
                    if let Some(name) = part.strip_suffix('$') {
                        if is_ident(name) {
                            names.push(name.to_owned());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    names
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' => {
            s != "_" && chars.all(|c| c.is_alphanumeric() || c == '_')
        }
        _ => false,
    }
}

impl Finder {
    /// `what`, written `... (Rust 1.NN)`: found at `span`.
    fn push(&mut self, span: proc_macro2::Span, what: &str) {
        let since = what
            .rsplit_once("(Rust ")
            .and_then(|(_, version)| RustVersion::parse(version))
            .unwrap_or(RustVersion::BOJ_DEFAULT);
        self.found.push(Finding {
            line: line_of(span),
            what: what.to_owned(),
            since,
        });
    }

    fn format_macro(&mut self, tokens: &TokenStream) {
        let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
        // Named arguments given explicitly (`name = value`) are 1.56-compatible.
        let mut named = Vec::new();
        for w in trees.windows(3) {
            if let [TokenTree::Ident(id), TokenTree::Punct(eq), next] = w {
                let is_eq = eq.as_char() == '=' && eq.spacing() == proc_macro2::Spacing::Alone;
                let not_cmp = !matches!(next, TokenTree::Punct(p) if p.as_char() == '=');
                if is_eq && not_cmp {
                    named.push(id.to_string());
                }
            }
        }
        let literal = trees.iter().find_map(|t| match t {
            TokenTree::Literal(lit) => {
                let parsed: syn::Lit = syn::parse_str(&lit.to_string()).ok()?;
                match parsed {
                    syn::Lit::Str(s) => Some((s.value(), lit.span())),
                    _ => None,
                }
            }
            _ => None,
        });
        if let Some((format, span)) = literal {
            for name in inline_args(&format) {
                if !named.contains(&name) {
                    self.push(
                        span,
                        &format!("inline format argument `{{{}}}` (Rust 1.58)", name),
                    );
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_local(&mut self, local: &'ast syn::Local) {
        if let Some(init) = &local.init {
            if let Some((else_token, _)) = &init.diverge {
                self.push(else_token.span, "let-else (Rust 1.65)");
            }
        }
        visit::visit_local(self, local);
    }

    fn visit_expr_binary(&mut self, expr: &'ast syn::ExprBinary) {
        if let syn::BinOp::And(token) = expr.op {
            let is_let = |e: &syn::Expr| matches!(e, syn::Expr::Let(_));
            if is_let(&expr.left) || is_let(&expr.right) {
                self.push(token.spans[0], "let chain `&& let` (Rust 1.88)");
            }
        }
        visit::visit_expr_binary(self, expr);
    }

    fn visit_trait_item_type(&mut self, item: &'ast syn::TraitItemType) {
        if !item.generics.params.is_empty() {
            self.push(item.ident.span(), "generic associated type (Rust 1.65)");
        }
        visit::visit_trait_item_type(self, item);
    }

    fn visit_lit(&mut self, lit: &'ast syn::Lit) {
        if let syn::Lit::CStr(c) = lit {
            self.push(c.span(), "C string literal (Rust 1.77)");
        }
        visit::visit_lit(self, lit);
    }

    fn visit_expr_const(&mut self, expr: &'ast syn::ExprConst) {
        self.push(
            expr.const_token.span,
            "inline `const { }` block (Rust 1.79)",
        );
        visit::visit_expr_const(self, expr);
    }

    fn visit_pat(&mut self, pat: &'ast syn::Pat) {
        if let syn::Pat::Range(range) = pat {
            if let syn::RangeLimits::HalfOpen(dots) = range.limits {
                if range.end.is_some() {
                    self.push(dots.spans[0], "exclusive range pattern `a..b` (Rust 1.80)");
                }
            }
        }
        visit::visit_pat(self, pat);
    }

    fn visit_type_param_bound(&mut self, bound: &'ast syn::TypeParamBound) {
        if let syn::TypeParamBound::PreciseCapture(capture) = bound {
            self.push(
                capture.use_token.span,
                "precise capturing `impl Trait + use<..>` (Rust 1.82)",
            );
        }
        visit::visit_type_param_bound(self, bound);
    }

    fn visit_item_foreign_mod(&mut self, item: &'ast syn::ItemForeignMod) {
        if let Some(unsafety) = &item.unsafety {
            self.push(unsafety.span, "`unsafe extern` block (Rust 1.82)");
        }
        visit::visit_item_foreign_mod(self, item);
    }

    fn visit_foreign_item(&mut self, item: &'ast syn::ForeignItem) {
        // syn keeps a `safe fn` or `safe static` as tokens.
        if let syn::ForeignItem::Verbatim(tokens) = item {
            let safe = tokens.clone().into_iter().find_map(|t| match t {
                TokenTree::Ident(id) if id == "safe" => Some(id.span()),
                _ => None,
            });
            if let Some(span) = safe {
                self.push(span, "`safe` item in an `extern` block (Rust 1.82)");
            }
        }
        visit::visit_foreign_item(self, item);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let name = mac.path.segments.last().map(|s| s.ident.to_string());
        if let Some(name) = name {
            if FORMAT_MACROS.contains(&name.as_str()) {
                self.format_macro(&mac.tokens);
            }
        }
        visit::visit_macro(self, mac);
    }
}

/// A bundle compiled alone: the executable, and what the compilers warned will become a hard
/// error in a future release (each said in one line, with the compiler and the place), which
/// makes the bundle no submission: BOJ's rustc may be that release.
#[derive(Debug)]
pub struct Built {
    pub exe: PathBuf,
    pub future_errors: Vec<String>,
}

/// Compiles `source` alone, as BOJ does, into `scratch/Main` (`Main.exe` on Windows) with this
/// toolchain's rustc (or `$RUSTC`), then checks that each of `older` (other rustc executables,
/// such as Debian's 1.63) compiles it too; on failure, the error names the compiler, carries its
/// message and says which bundled crates declare a newer `rust-version` than that compiler
/// (`crates`: package and rust-version). On Windows and macOS, where a program's stack is fixed
/// when it is linked, the executable is linked with `stack` bytes of it (the problem's stack
/// limit).
pub fn compile(
    source: &Path,
    scratch: &Path,
    older: &[PathBuf],
    crates: &[(String, String)],
    stack: u64,
) -> Result<Built> {
    fs::create_dir_all(scratch).with_context(|| format!("cannot create {}", scratch.display()))?;
    let exe = scratch.join(format!("Main{}", std::env::consts::EXE_SUFFIX));
    let _ = fs::remove_file(&exe);
    let alone = alone_copy(source, scratch)?;
    let rustc = std::env::var_os("RUSTC").map_or_else(|| PathBuf::from("rustc"), PathBuf::from);
    let link = link_args(stack);
    let mut future_errors = compile_with(&rustc, (&alone, source), &exe, &link)?;
    for (k, other) in older.iter().enumerate() {
        let name = format!("Main-{k}{}", std::env::consts::EXE_SUFFIX);
        let compiled = compile_with(other, (&alone, source), &scratch.join(name), &link);
        if let (Err(e), Some(note)) = (&compiled, newer_than(crates, other)) {
            bail!("{e:#}\n{note}");
        }
        future_errors.extend(compiled?);
    }
    Ok(Built { exe, future_errors })
}

/// A copy of `source`, under its own name, alone in a folder of its own under `scratch`, the
/// copy compiled: BOJ compiles the one file with nothing beside it, so an `include_str!` of a
/// file next to the bundle (or next to the solution, where the bundle left it as it was) must
/// fail here as it fails there, not read whatever lies beside the bundle.
fn alone_copy(source: &Path, scratch: &Path) -> Result<PathBuf> {
    let dir = scratch.join("alone");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let copy = dir.join(source.file_name().unwrap_or("Main.rs".as_ref()));
    fs::copy(source, &copy)
        .with_context(|| format!("cannot copy {} to {}", source.display(), copy.display()))?;
    Ok(copy)
}

/// `package needs Rust VERSION` for each of `crates` whose rust-version is newer than the
/// compiler `rustc --version` says is `version`.
fn newer_crates(crates: &[(String, String)], version: &str) -> Vec<String> {
    let Some(have) = RustVersion::parse(version) else {
        return Vec::new();
    };
    crates
        .iter()
        .filter(|(_, needs)| RustVersion::parse(needs).is_some_and(|v| v > have))
        .map(|(package, needs)| format!("{package} needs Rust {needs}"))
        .collect()
}

/// The bundled crates (package, rust-version) that declare a `rust-version` newer than
/// `rustc`, said as one note: `note: proconio 0.4.5 needs Rust 1.70.0 (its rust-version);
/// /usr/bin/rustc is rustc 1.63.0 and may reject the bundle`. `None` when there are none (or
/// a version cannot be read).
pub fn newer_than(crates: &[(String, String)], rustc: &Path) -> Option<String> {
    let version = rustc_version(rustc);
    let newer = newer_crates(crates, &version);
    if newer.is_empty() {
        return None;
    }
    Some(format!(
        "note: {} (its rust-version); {} is {version} and may reject the bundle",
        newer.join(", "),
        rustc.display(),
    ))
}

/// rustc's first error on the bundle `text`, checked alone as BOJ would compile it but without
/// generating code (`--emit=metadata`: names, types and borrows, in a fraction of the time);
/// `None` when it passes. What rustc said of a text is kept in `store`, keyed by the text and
/// the compiler (`rustc -vV`): bundling again what did not change asks rustc nothing.
pub fn first_error(text: &str, store: Option<&Store>) -> Result<Option<String>> {
    let rustc = std::env::var_os("RUSTC").map_or_else(|| PathBuf::from("rustc"), PathBuf::from);
    let Some(store) = store else {
        return first_error_of(text, &rustc);
    };
    // Asked where `first_error_of` runs it: under the system's temp folder.
    let version = cache::compiler(&rustc, &std::env::temp_dir());
    let key = (cache::digest(text.as_bytes()), version);
    let name = cache::name_of(&key);
    if let Some(said) = store.get::<(String, String), Option<String>>("checks", &name, &key) {
        return Ok(said);
    }
    let said = first_error_of(text, &rustc)?;
    store.put("checks", &name, &key, &said);
    Ok(said)
}

fn first_error_of(text: &str, rustc: &Path) -> Result<Option<String>> {
    let scratch = crate::scratch::Scratch::new("bundle-check")?;
    let source = scratch.path().join("bundle.rs");
    fs::write(&source, text).with_context(|| format!("cannot write {}", source.display()))?;
    let out = Command::new(rustc)
        .args([
            "--edition",
            "2021",
            "--crate-type",
            "bin",
            "--emit=metadata",
            "-o",
        ])
        .arg(scratch.path().join("bundle.rmeta"))
        .arg(&source)
        .current_dir(scratch.path())
        .output()
        .with_context(|| format!("cannot run {}", rustc.display()))?;
    if out.status.success() {
        return Ok(None);
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let error = stderr
        .lines()
        .find(|l| l.starts_with("error"))
        .unwrap_or("rustc failed")
        .to_string();
    Ok(Some(error))
}

/// What the bundle's link needs beyond BOJ's command: on Windows and macOS, the stack
/// (`build::StackAt`: fixed when a program is linked there; Linux sets it when it starts).
fn link_args(stack: u64) -> Vec<String> {
    build::StackAt::here()
        .link_arg(stack)
        .map_or_else(Vec::new, |arg| {
            vec!["-C".to_string(), format!("link-arg={arg}")]
        })
}

/// `rustc --edition 2021 -O -o exe source`, as BOJ runs it (with `link`, on Windows and macOS
/// the stack), `source` being the copy compiled and the file it copies ([`alone_copy`]), which
/// rustc's messages name (`--remap-path-prefix`, which changes only the names rustc shows): its
/// warnings that say they will become hard errors ([`future_errors`]).
fn compile_with(
    rustc: &Path,
    (compiled, source): (&Path, &Path),
    exe: &Path,
    link: &[String],
) -> Result<Vec<String>> {
    let mut remap = std::ffi::OsString::from("--remap-path-prefix=");
    remap.push(compiled.parent().unwrap_or(Path::new(".")));
    remap.push("=");
    remap.push(source.parent().unwrap_or(Path::new(".")));
    let out = Command::new(rustc)
        .args(["--edition", "2021", "-O", "-o"])
        .arg(exe)
        .arg(compiled)
        .arg(remap)
        .args(link)
        .current_dir(exe.parent().unwrap_or(Path::new(".")))
        .output()
        .with_context(|| format!("cannot run {}", rustc.display()))?;
    if !out.status.success() {
        bail!(
            "{} does not compile with `{} --edition 2021 -O` ({}, {}):\n{}",
            source.display(),
            rustc.display(),
            rustc_version(rustc),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim_end()
        );
    }
    Ok(future_errors(
        &String::from_utf8_lossy(&out.stderr),
        &rustc_version(rustc),
    ))
}

/// What rustc tells of a future hard error: "this was previously accepted by the compiler but
/// is being phased out; it will become a hard error in a future release!"
const FUTURE_ERROR: &str = "will become a hard error";

/// The warnings in rustc's `stderr` that say they will become hard errors, each in one line:
/// `rustc 1.95.0 (...) warns: `#[automatically_derived]` attribute cannot be used on inherent
/// impl blocks (at bundle.rs:135:1), which will become a hard error in a future release`.
fn future_errors(stderr: &str, version: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut block: Vec<&str> = Vec::new();
    let mut flush = |block: &mut Vec<&str>| {
        if block.iter().any(|l| l.contains(FUTURE_ERROR)) {
            let what = block[0]
                .split_once(": ")
                .map_or(block[0], |(_, what)| what)
                .trim();
            let at = block
                .iter()
                .find_map(|l| l.trim_start().strip_prefix("--> "))
                .map(|at| format!(" (at {})", at.trim()))
                .unwrap_or_default();
            found.push(format!(
                "{version} warns: {what}{at}, which will become a hard error in a future release"
            ));
        }
        block.clear();
    };
    for line in stderr.lines() {
        if line.starts_with("warning") || line.starts_with("error") {
            flush(&mut block);
        }
        if !block.is_empty() || line.starts_with("warning") {
            block.push(line);
        }
    }
    flush(&mut block);
    found
}

/// What `rustc --version` says, for messages.
pub fn rustc_version(rustc: &Path) -> String {
    Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "version unknown".to_string())
}

/// How a compile went, for the line that says so: `rustc --edition 2021 -O` and the others.
pub fn compiled_line(problem: &str, older: &[PathBuf]) -> String {
    let mut line = format!("{problem}: compiled alone with rustc --edition 2021 -O");
    for other in older {
        line.push_str(&format!(
            "; and with {} ({})",
            other.display(),
            rustc_version(other)
        ));
    }
    line
}

/// What makes the bundle `text` (written at `path`) no submission, before compiling it: over
/// BOJ's size limit, or syntax newer than the Rust the problem's judge is taken to run (its
/// `rust-version`, or 1.56), each finding with its line.
pub fn issues(bundle: &Bundle, path: &Path) -> Result<Vec<String>> {
    let judge = &bundle.plan.judge_rust;
    let mut found = Vec::new();
    if let Some(over) = bundle.over_limit() {
        found.push(format!("{}: {over}", path.display()));
    }
    // The setting said once, with the first finding.
    let mut setting = Some(judge.named());
    for finding in newer_syntax(&bundle.text)? {
        if judge.allows(finding.since) {
            continue;
        }
        let newer = match setting.take() {
            Some(named) => named,
            None => format!("Rust {}", judge.version),
        };
        found.push(format!(
            "{}:{}: {}: newer than {newer}",
            path.display(),
            finding.line,
            finding.what,
        ));
    }
    Ok(found)
}

/// The bundled crates that declare a `rust-version` newer than the Rust the problem's judge is
/// taken to run, each said with that setting; with `look_up`, for a crate from crates.io that
/// the problem depends on itself (what its `Cargo.toml` can change), with the newest version
/// of it that fits, as cargo's resolver finds it (a lookup of the registry's index: a second or
/// so each).
pub fn judge_notes(bundle: &Bundle, look_up: bool) -> Vec<String> {
    let judge: &JudgeRust = &bundle.plan.judge_rust;
    let mut notes = Vec::new();
    for lib in &bundle.plan.libs {
        if !bundle.kept.contains(&lib.module) {
            continue;
        }
        let Some(needs) = lib.rust_version.as_deref().and_then(RustVersion::parse) else {
            continue;
        };
        if judge.allows(needs) {
            continue;
        }
        let direct = bundle.plan.deps.values().any(|m| *m == lib.module);
        let note = if look_up && direct && lib.source == Source::Registry {
            let name = lib
                .package
                .split_whitespace()
                .next()
                .unwrap_or(&lib.package);
            let fits = judge_rust::newest_fitting(name, judge.version);
            judge.crate_note_with_fitting(&lib.package, needs, &fits)
        } else {
            judge.crate_note(&lib.package, needs)
        };
        notes.push(note);
    }
    notes
}

/// What `--check` found: the rules broken, how it compiled, and the samples' report.
#[derive(Debug)]
pub struct Checked {
    /// The [`issues`]: each makes the bundle no submission (exit 1).
    pub issues: Vec<String>,
    /// [`compiled_line`].
    pub compiled: String,
    /// The samples judged on the compiled bundle.
    pub report: ProblemReport,
}

impl Checked {
    /// Whether BOJ would take the bundle: no issue, every sample AC.
    pub fn good(&self) -> bool {
        self.issues.is_empty() && self.report.all_accepted()
    }
}

/// The bundled crates of `bundle` that declare a `rust-version`: (package, rust-version).
pub fn declared_versions(bundle: &Bundle) -> Vec<(String, String)> {
    bundle
        .plan
        .libs
        .iter()
        .filter(|lib| bundle.kept.contains(&lib.module))
        .filter_map(|lib| Some((lib.package.clone(), lib.rust_version.clone()?)))
        .collect()
}

/// Runs every check on `bundle`, written at `path`; the problem's checker or interactor is
/// built by cargo, or taken from `prebuilt` when given. An error when a check cannot run or the
/// bundle does not compile (with rustc's message: never quietly).
pub fn check(
    problem: &Problem,
    bundle: &Bundle,
    path: &Path,
    older: &[PathBuf],
    prebuilt: Option<&Path>,
) -> Result<Checked> {
    let mut issues = issues(bundle, path)?;
    let crates = declared_versions(bundle);
    let stack = problem.meta.stack_limit_bytes();
    let built = compile(path, &scratch_dir(path), older, &crates, stack).with_context(|| {
        format!(
            "the bundle at {} is NOT a valid submission (kept for inspection)",
            path.display()
        )
    })?;
    issues.extend(
        built
            .future_errors
            .iter()
            .map(|warned| format!("{}: {warned}", path.display())),
    );
    let report = judge_samples(problem, &built.exe, prebuilt)?;
    Ok(Checked {
        issues,
        compiled: compiled_line(&problem.name, older),
        report,
    })
}

/// `<bundle>.check/` beside the bundle: where rustc writes `Main`.
fn scratch_dir(path: &Path) -> PathBuf {
    let name = path
        .file_stem()
        .map_or_else(|| "bundle".to_owned(), |s| s.to_string_lossy().into_owned());
    path.with_file_name(format!("{}.check", name))
}

/// Judges the problem's samples on `exe` with `cargo xtask test`'s judge (a checker or an
/// interactor is the problem's own code, built by cargo as `cargo xtask test` builds it, or
/// taken from `prebuilt`). `exe` was compiled by [`compile`], linked with the problem's stack.
pub fn judge_samples(
    problem: &Problem,
    exe: &Path,
    prebuilt: Option<&Path>,
) -> Result<ProblemReport> {
    let helper = |name: Option<&String>, dir: &Path| {
        name.map(|name| build::prebuilt_needed(problem, dir, name))
            .transpose()
    };
    let mut options = match (&problem.judge, prebuilt) {
        (Judge::Checker(_) | Judge::Interactive(_), Some(dir)) => JudgeOptions {
            checker: helper(problem.judge.checker(), dir)?,
            interactor: helper(problem.judge.interactor(), dir)?,
            ..JudgeOptions::default()
        },
        (Judge::Checker(_) | Judge::Interactive(_), None) => {
            let build_options = BuildOptions {
                quiet: true,
                ..BuildOptions::default()
            };
            let built = build::build(std::slice::from_ref(problem), &build_options)?.pop();
            JudgeOptions {
                checker: built.as_ref().and_then(|e| e.checker.clone()),
                interactor: built.and_then(|e| e.interactor),
                ..JudgeOptions::default()
            }
        }
        (Judge::Exact | Judge::Float(_), _) => JudgeOptions::default(),
    };
    options.stack_linked = true;
    judge::run_samples(problem, &Program::new(exe), &options)
}

/// A bundle written and compiled alone: what `test --bundled` and `stress --bundled` judge.
#[derive(Debug)]
pub struct Compiled {
    /// Where the bundle was written.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: usize,
    /// The executable `rustc --edition 2021 -O` made of it.
    pub exe: PathBuf,
    /// [`compiled_line`].
    pub compiled: String,
    /// What the bundler said beside the file: the fallback it took, if any.
    pub notes: Vec<String>,
}

/// For `--bundled` runs: writes the bundle of `problem` to its default place, refuses it when
/// it breaks a submission rule ([`issues`]), and compiles it alone (and with each of `older`).
pub fn compiled_bundle(problem: &Problem, older: &[PathBuf]) -> Result<Compiled> {
    let (bundle, path) = super::write_bundle(problem, None)?;
    let issues = issues(&bundle, &path)?;
    if !issues.is_empty() {
        bail!("{}", issues.join("\n"));
    }
    let built = compile(
        &path,
        &scratch_dir(&path),
        older,
        &declared_versions(&bundle),
        problem.meta.stack_limit_bytes(),
    )?;
    if !built.future_errors.is_empty() {
        let said: Vec<String> = built
            .future_errors
            .iter()
            .map(|warned| format!("{}: {warned}", path.display()))
            .collect();
        bail!("{}", said.join("\n"));
    }
    Ok(Compiled {
        bytes: bundle.text.len(),
        path,
        exe: built.exe,
        compiled: compiled_line(&problem.name, older),
        notes: bundle
            .fallback
            .iter()
            .map(|f| f.to_string())
            .chain(judge_notes(&bundle, false))
            .map(|note| format!("{}: {note}", problem.name))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_as_numbers() {
        let crates = [
            ("proconio 0.4.5".to_string(), "1.70.0".to_string()),
            ("petgraph 0.6.5".to_string(), "1.64".to_string()),
            ("itertools 0.11.0".to_string(), "1.36.0".to_string()),
            ("either 1.19.0".to_string(), "1.63.0".to_string()),
        ];
        assert_eq!(
            newer_crates(&crates, "rustc 1.63.0 (4b91a6ea7 2022-08-08)"),
            [
                "proconio 0.4.5 needs Rust 1.70.0",
                "petgraph 0.6.5 needs Rust 1.64"
            ]
        );
        assert!(newer_crates(&crates, "rustc 1.95.0").is_empty());
        assert!(newer_crates(&crates, "version unknown").is_empty());
    }

    #[test]
    fn a_warning_of_a_future_hard_error_is_said_in_one_line_with_its_place() {
        let stderr = "warning: unused variable: `x`\n --> b.rs:1:5\n  |\n\n\
            warning: `#[automatically_derived]` attribute cannot be used on inherent impl blocks\n \
            --> b.rs:2:1\n  |\n2 | #[automatically_derived]\n  | ^^^^\n  |\n  = warning: this \
            was previously accepted by the compiler but is being phased out; it will become a \
            hard error in a future release!\n\nwarning: 2 warnings emitted\n";
        assert_eq!(
            future_errors(stderr, "rustc 1.95.0"),
            [
                "rustc 1.95.0 warns: `#[automatically_derived]` attribute cannot be used on \
              inherent impl blocks (at b.rs:2:1), which will become a hard error in a future \
              release"
            ]
        );
        assert!(future_errors("warning: unused variable: `x`\n", "rustc").is_empty());
    }

    #[test]
    fn rust_1_82_syntax_is_found_with_its_version() {
        let found = newer_syntax(
            "unsafe extern \"C\" {\n    pub safe fn abs(i: i32) -> i32;\n}\n\
             fn f<'a>(x: &'a u8) -> impl Sized + use<'a> {\n    x\n}\n",
        )
        .unwrap();
        let said: Vec<(usize, &str, RustVersion)> = found
            .iter()
            .map(|f| (f.line, f.what.as_str(), f.since))
            .collect();
        assert_eq!(
            said,
            [
                (
                    1,
                    "`unsafe extern` block (Rust 1.82)",
                    RustVersion(1, 82, 0)
                ),
                (
                    2,
                    "`safe` item in an `extern` block (Rust 1.82)",
                    RustVersion(1, 82, 0)
                ),
                (
                    4,
                    "precise capturing `impl Trait + use<..>` (Rust 1.82)",
                    RustVersion(1, 82, 0)
                ),
            ]
        );
    }
}
