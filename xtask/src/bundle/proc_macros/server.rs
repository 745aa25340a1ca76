//! The toolchain's own proc-macro server, `$(rustc --print sysroot)/libexec/
//! rust-analyzer-proc-macro-srv`, which rustup ships with the `rustc` component: the program
//! rust-analyzer runs to expand proc macros, loading each proc-macro crate's compiled library.
//!
//! Why this server and no other: a proc-macro library talks to whoever loads it through the
//! compiler's unstable bridge ABI, so only a server built with the same compiler can run it,
//! and the server's protocol moves with rust-analyzer. cargo-equip first downloaded a
//! rust-analyzer release pinned by date, then compiled a server in; today (0.20.1) it runs the
//! sysroot's server (`src/toolchain.rs`) through rust-analyzer's client crate pinned at
//! `ra_ap_proc_macro_api = "=0.0.166"`, one protocol version, so a newer server stops it
//! ("proc-macro server's api version (3) is newer than rust-analyzer's (2)", its open pull
//! request #205). Here the server comes from the sysroot of the very `rustc` the judge build
//! used (found as cargo finds it, from the problem's folder), the client speaks the version the
//! server reports, and three checks stand guard: the server's `--version` must name that
//! rustc's release and commit; each library must have been built by that rustc (its metadata
//! holds the compiler's `rustc -V` line; the server makes the same check when it loads one,
//! rust-analyzer's `proc-macro-srv/src/dylib.rs`, `AbiMismatch`); and the protocol version must
//! be one this bundler knows ([`flat::OLDEST`] to [`flat::NEWEST`]). Each failure is an error
//! naming what differs.
//!
//! The protocol is rust-analyzer's JSON one (`proc-macro-api`, `legacy_protocol/msg.rs`; the
//! server's default `--format json-legacy`): one JSON object a line each way. `ApiVersionCheck`
//! asks the version, `SetConfig` selects rust-analyzer's span mode (each token's span then
//! carries a hygiene context, [`super::hygiene`]), `ListMacros` names a library's macros with
//! their kinds, `ExpandMacro` runs one. Lines a macro prints on stdout (not JSON) are skipped,
//! as rust-analyzer's client does; what the server prints on stderr is kept for messages.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::flat::{self, FlatTree};

/// How long one answer may take: a macro that loops forever would hang rustc as well, but a
/// server that does not speak this protocol must not hang the bundler.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(300);

/// The `rustc` cargo uses for a build in a folder, and where its server is.
#[derive(Debug, Clone)]
pub struct Toolchain {
    /// `rustc -V`: `rustc 1.95.0 (59807616e 2026-04-14)`.
    pub version: String,
    /// `release` of `rustc -vV`: `1.95.0`.
    release: String,
    /// `commit-hash` of `rustc -vV`, when it has one.
    commit: Option<String>,
    /// `rustc --print sysroot`.
    sysroot: PathBuf,
}

impl Toolchain {
    /// The `rustc` cargo runs for a build started in `dir`: `RUSTC` when set, else `rustc` from
    /// `PATH` run in `dir`, so rustup picks the toolchain a `rust-toolchain.toml` there names,
    /// as it did for the judge build.
    pub fn of(dir: &Path) -> Result<Toolchain, String> {
        let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
        let run = |args: &[&str]| -> Result<String, String> {
            let out = Command::new(&rustc)
                .args(args)
                .current_dir(dir)
                .stdin(Stdio::null())
                .output()
                .map_err(|e| {
                    format!(
                        "cannot run `{} {}`: {e}",
                        rustc.to_string_lossy(),
                        args.join(" ")
                    )
                })?;
            if !out.status.success() {
                return Err(format!(
                    "`{} {}` failed: {}",
                    rustc.to_string_lossy(),
                    args.join(" "),
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
        };
        let verbose = run(&["-vV"])?;
        let field = |name: &str| {
            verbose
                .lines()
                .find_map(|l| l.strip_prefix(name)?.strip_prefix(": "))
                .map(str::to_owned)
        };
        Ok(Toolchain {
            version: verbose.lines().next().unwrap_or_default().to_owned(),
            release: field("release").unwrap_or_default(),
            commit: field("commit-hash").filter(|c| c != "unknown"),
            sysroot: PathBuf::from(run(&["--print", "sysroot"])?),
        })
    }

    /// Where the toolchain keeps its proc-macro server.
    pub fn server(&self) -> PathBuf {
        self.sysroot.join("libexec").join(format!(
            "rust-analyzer-proc-macro-srv{}",
            std::env::consts::EXE_SUFFIX
        ))
    }

    /// Whether the server's `--version` line (`rust-analyzer-proc-macro-srv 1.95.0 (5980761
    /// 2026-04-14)`) names this compiler: its release, and a prefix of its commit. `None` when
    /// the line is not of that form (an older server without `--version`): the server's own
    /// check of each library's compiler still stands.
    fn matches_server(&self, line: &str) -> Option<bool> {
        let rest = line.trim().strip_prefix("rust-analyzer-proc-macro-srv ")?;
        let (release, rest) = rest.split_once(' ')?;
        let commit = rest.strip_prefix('(')?.split(' ').next()?;
        if commit.is_empty() {
            return None;
        }
        let same_commit = self.commit.as_ref().is_none_or(|c| c.starts_with(commit));
        Some(release == self.release && same_commit)
    }
}

/// What a proc-macro crate exports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Kind {
    CustomDerive,
    Attr,
    #[serde(alias = "FuncLike")]
    Bang,
}

#[derive(Serialize)]
enum Request<'a> {
    ApiVersionCheck {},
    ListMacros { dylib_path: &'a Path },
    ExpandMacro(Box<Expansion<'a>>),
    SetConfig { span_mode: &'static str },
}

/// One expansion, as the protocol's `ExpandMacro` (its `ExpandMacroData` flattened in).
#[derive(Serialize)]
pub struct Expansion<'a> {
    pub lib: &'a Path,
    /// The environment the macro runs in (cargo's `CARGO_MANIFEST_DIR` and the rest).
    pub env: &'a [(String, String)],
    pub current_dir: Option<String>,
    /// The item (attribute, derive) or the call's tokens (function-like).
    pub macro_body: FlatTree,
    pub macro_name: &'a str,
    /// An attribute macro's arguments.
    pub attributes: Option<FlatTree>,
    /// Indices into `span_data_table` of the three spans `proc_macro::Span` offers.
    pub has_global_spans: Globals,
    /// Five numbers a span: file, anchor, start, end, hygiene context.
    pub span_data_table: Vec<u32>,
}

#[derive(Serialize)]
pub struct Globals {
    pub def_site: usize,
    pub call_site: usize,
    pub mixed_site: usize,
}

#[derive(Deserialize)]
enum Response {
    ApiVersionCheck(u32),
    ListMacros(Result<Vec<(String, Kind)>, String>),
    ExpandMacro(Result<FlatTree, String>),
    ExpandMacroExtended(Result<Extended, String>),
    SetConfig(serde::de::IgnoredAny),
}

#[derive(Deserialize)]
struct Extended {
    tree: FlatTree,
    span_data_table: Vec<u32>,
}

/// A running server.
pub struct Server {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    /// The protocol version it speaks.
    pub version: u32,
    path: PathBuf,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Server({}, protocol {})",
            self.path.display(),
            self.version
        )
    }
}

impl Server {
    /// Starts `toolchain`'s server and agrees on the protocol, or says why it cannot.
    pub fn start(toolchain: &Toolchain) -> Result<Server, String> {
        let path = toolchain.server();
        if !path.is_file() {
            return Err(format!(
                "the toolchain's proc-macro server is missing: {} ({}); rustup installs it with \
                 the `rustc` component of each toolchain",
                path.display(),
                toolchain.version
            ));
        }
        let command = || {
            let mut command = Command::new(&path);
            // The server refuses to start without it (it is an IDE's implementation detail).
            command.env("RUST_ANALYZER_INTERNALS_DO_NOT_USE", "this is unstable");
            command
        };
        let said = command()
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", path.display()))?;
        let line = String::from_utf8_lossy(&said.stdout).trim().to_owned();
        if toolchain.matches_server(&line) == Some(false) {
            return Err(format!(
                "the proc-macro server {} is `{line}`, not of the compiler that built the \
                 proc-macro crates ({}): it could not load them",
                path.display(),
                toolchain.version
            ));
        }
        let mut child = command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
        let (Some(stdin), Some(stdout), Some(mut stderr_pipe)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("cannot talk to {}", path.display()));
        };
        let (send, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                // A macro that prints to stdout is not the server speaking.
                if line.starts_with('{') && send.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let kept = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = stderr_pipe.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                let mut text = kept.lock().unwrap_or_else(|p| p.into_inner());
                text.push_str(&String::from_utf8_lossy(&buffer[..n]));
                // Only the tail matters in a message.
                if text.len() > 8192 {
                    let cut = text.len() - 4096;
                    let cut = (cut..text.len())
                        .find(|&k| text.is_char_boundary(k))
                        .unwrap_or(0);
                    text.drain(..cut);
                }
            }
        });
        let mut server = Server {
            child,
            stdin,
            lines,
            stderr,
            version: 0,
            path,
        };
        server.version = match server.ask(&Request::ApiVersionCheck {})? {
            Response::ApiVersionCheck(version) => version,
            _ => return Err(server.confused("ApiVersionCheck")),
        };
        if !(flat::OLDEST..=flat::NEWEST).contains(&server.version) {
            return Err(format!(
                "the proc-macro server {} ({}) speaks protocol version {}; this bundler knows \
                 versions {} to {} (rust-analyzer's proc-macro-api), whose token format may \
                 differ",
                server.path.display(),
                toolchain.version,
                server.version,
                flat::OLDEST,
                flat::NEWEST
            ));
        }
        match server.ask(&Request::SetConfig {
            span_mode: "RustAnalyzer",
        })? {
            Response::SetConfig(_) => {}
            _ => return Err(server.confused("SetConfig")),
        }
        Ok(server)
    }

    /// The macros the library at `dylib` exports, with their kinds, or the server's reason it
    /// cannot load it (a library of another compiler: "mismatched ABI").
    pub fn list_macros(&mut self, dylib: &Path) -> Result<Vec<(String, Kind)>, String> {
        match self.ask(&Request::ListMacros { dylib_path: dylib })? {
            Response::ListMacros(answer) => answer,
            _ => Err(self.confused("ListMacros")),
        }
    }

    /// Runs one macro: its output tree and the span table its span ids index, or the macro's
    /// panic message.
    pub fn expand(&mut self, expansion: Expansion<'_>) -> Result<(FlatTree, Vec<u32>), String> {
        let spans = expansion.span_data_table.clone();
        match self.ask(&Request::ExpandMacro(Box::new(expansion)))? {
            Response::ExpandMacroExtended(answer) => {
                answer.map(|extended| (extended.tree, extended.span_data_table))
            }
            // Without rust-analyzer's span mode the spans are the ones sent.
            Response::ExpandMacro(answer) => answer.map(|tree| (tree, spans)),
            _ => Err(self.confused("ExpandMacro")),
        }
    }

    fn confused(&self, asked: &str) -> String {
        format!(
            "the proc-macro server {} answered `{asked}` with something else",
            self.path.display()
        )
    }

    fn ask(&mut self, request: &Request<'_>) -> Result<Response, String> {
        let line = serde_json::to_string(request).map_err(|e| e.to_string())?;
        let sent = self
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.write_all(b"\n"))
            .and_then(|()| self.stdin.flush());
        if let Err(e) = sent {
            return Err(self.gone(&format!("cannot write to it: {e}")));
        }
        let answer = match self.lines.recv_timeout(ANSWER_TIMEOUT) {
            Ok(answer) => answer,
            Err(RecvTimeoutError::Timeout) => {
                return Err(self.gone(&format!("no answer in {} s", ANSWER_TIMEOUT.as_secs())))
            }
            Err(RecvTimeoutError::Disconnected) => return Err(self.gone("it stopped")),
        };
        let mut reader = serde_json::Deserializer::from_str(&answer);
        // Deep token trees are flat here, but a long answer nests little: the default limit
        // is kept.
        Response::deserialize(&mut reader).map_err(|e| {
            format!(
                "the proc-macro server {} answered in a form this bundler does not read ({e})",
                self.path.display()
            )
        })
    }

    fn gone(&mut self, what: &str) -> String {
        let _ = self.child.kill();
        let status = self.child.wait().map(|s| s.to_string()).unwrap_or_default();
        // The reader thread may still be copying the last of stderr.
        std::thread::sleep(Duration::from_millis(50));
        let stderr = self
            .stderr
            .lock()
            .map(|s| s.trim().to_owned())
            .unwrap_or_default();
        let mut said = format!(
            "the proc-macro server {} failed: {what}",
            self.path.display()
        );
        if !status.is_empty() {
            said.push_str(&format!(" ({status})"));
        }
        if !stderr.is_empty() {
            said.push_str(&format!(": {stderr}"));
        }
        said
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toolchain(release: &str, commit: Option<&str>) -> Toolchain {
        Toolchain {
            version: format!("rustc {release}"),
            release: release.into(),
            commit: commit.map(str::to_owned),
            sysroot: PathBuf::new(),
        }
    }

    #[test]
    fn the_server_must_be_of_the_compiler_that_built_the_libraries() {
        let stable = toolchain("1.95.0", Some("59807616e1fa2540724bfbac14d7976d7e4a3860"));
        let line = "rust-analyzer-proc-macro-srv 1.95.0 (5980761 2026-04-14)";
        assert_eq!(stable.matches_server(line), Some(true));
        let nightly = "rust-analyzer-proc-macro-srv 1.97.0-nightly (e50aa6f 2026-05-19)";
        assert_eq!(stable.matches_server(nightly), Some(false));
        // Same release, another commit: a different build of the compiler.
        let other = "rust-analyzer-proc-macro-srv 1.95.0 (0123456 2026-04-14)";
        assert_eq!(stable.matches_server(other), Some(false));
        // A server that does not say: its own check of each library decides.
        assert_eq!(stable.matches_server("error: unexpected argument"), None);
    }
}
