//! The loopback HTTP server the competitive-companion browser extension posts problems to:
//! which port it takes, which requests it refuses (only the extension may import), and each
//! payload imported with the scaffolding engine ([`crate::scaffold::import`]). Nothing here
//! prints: every request is answered, and what was answered is handed back
//! ([`Listener::answered`]) for `cargo xtask listen` (`commands/listen.rs`) to print.

use std::fmt;
use std::io::Read;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};

use tiny_http::{Method, Request, Response, Server};

use crate::companion::{Import, DEFAULT_PORTS};
use crate::scaffold::{self, Imported, Role, Spec};
use crate::workspace::archive;

/// The largest body accepted: a payload is a few samples, far below this.
pub const MAX_BODY: u64 = 16 * 1024 * 1024;

/// A server on 127.0.0.1 that imports what competitive-companion sends into `root/problems/`.
pub struct Listener {
    server: Server,
    port: u16,
    root: PathBuf,
}

/// One request and how it was answered: the HTTP status and the message sent as its body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// 201 created, 200 already there (compared, nothing written), 4xx refused, 500 failed.
    pub status: u16,
    /// One line saying what happened, or why not.
    pub message: String,
}

impl Answer {
    fn new(status: u16, message: impl Into<String>) -> Answer {
        Answer {
            status,
            message: message.into(),
        }
    }

    /// Whether the request was taken (a problem created or compared) rather than refused.
    pub fn is_success(&self) -> bool {
        self.status < 300
    }
}

impl fmt::Debug for Listener {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // tiny_http's server has no Debug of its own.
        f.debug_struct("Listener")
            .field("port", &self.port)
            .field("root", &self.root)
            .finish_non_exhaustive()
    }
}

impl Listener {
    /// Listens on `port` (0: any free one) of 127.0.0.1, or else on the first free port of
    /// those the extension sends to by default ([`DEFAULT_PORTS`]); imports into `root`.
    pub fn bind(port: Option<u16>, root: &Path) -> Result<Listener, String> {
        let candidates: Vec<u16> = match port {
            Some(port) => vec![port],
            None => DEFAULT_PORTS.to_vec(),
        };
        let mut failures = Vec::new();
        for candidate in candidates {
            match Server::http(SocketAddr::from((Ipv4Addr::LOCALHOST, candidate))) {
                Ok(server) => {
                    let bound = server
                        .server_addr()
                        .to_ip()
                        .map_or(candidate, |addr| addr.port());
                    return Ok(Listener {
                        server,
                        port: bound,
                        root: root.to_path_buf(),
                    });
                }
                Err(err) => failures.push(format!("{candidate}: {err}")),
            }
        }
        Err(match port {
            Some(_) => format!("cannot listen on 127.0.0.1:{}", failures.join("; ")),
            None => format!(
                "every port competitive-companion sends to by default is taken ({}); stop \
                 another tool or use --port P and add P to the extension's custom ports",
                failures.join("; ")
            ),
        })
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Answers requests one at a time, for ever, yielding each answer once it is sent (a
    /// sender that went away meanwhile is no reason to stop: the extension never reads it).
    pub fn answered(&self) -> impl Iterator<Item = Answer> + '_ {
        self.server.incoming_requests().map(move |mut request| {
            let answer = self.answer(&mut request);
            let body = format!("{}\n", answer.message);
            let _ = request.respond(Response::from_string(body).with_status_code(answer.status));
            answer
        })
    }

    /// Reads, checks and imports one request.
    fn answer(&self, request: &mut Request) -> Answer {
        let header = |name: &'static str| {
            request
                .headers()
                .iter()
                .find(|h| h.field.equiv(name))
                .map(|h| h.value.as_str().to_string())
        };
        let (origin, content_type) = (header("Origin"), header("Content-Type"));
        let method = request.method().clone();
        if let Some(refused) = refusal(
            &method,
            request.url(),
            origin.as_deref(),
            content_type.as_deref(),
        ) {
            return refused;
        }
        if request
            .body_length()
            .is_some_and(|length| length as u64 > MAX_BODY)
        {
            return Answer::new(413, format!("body over {MAX_BODY} bytes: not a payload"));
        }
        let mut body = Vec::new();
        if let Err(err) = request
            .as_reader()
            .take(MAX_BODY + 1)
            .read_to_end(&mut body)
        {
            return Answer::new(400, format!("cannot read the request body: {err}"));
        }
        if body.len() as u64 > MAX_BODY {
            return Answer::new(413, format!("body over {MAX_BODY} bytes: not a payload"));
        }
        let import = match Import::parse(&body) {
            Ok(import) => import,
            Err(err) => {
                let status = if err.is_malformed() { 400 } else { 422 };
                return Answer::new(status, err.to_string());
            }
        };
        match scaffold::import(&self.root, &import, &Spec::from_import(&import)) {
            Ok(Imported::Created(dir)) => {
                let mut message = created(&import, &dir);
                match archive::open_if_archivable(&self.root, &dir) {
                    Ok(moved) if !moved.is_empty() => message.push_str(&format!("; {moved}")),
                    Ok(_) => {}
                    Err(err) => message.push_str(&format!("; not opened: {err:#}")),
                }
                Answer::new(201, message)
            }
            Ok(Imported::Existing(dir, differences)) => Answer::new(
                200,
                format!("{}: {} {differences}", import.label(), dir.display()),
            ),
            Err(err) => Answer::new(500, format!("{}: {err:#}", import.label())),
        }
    }
}

/// The line for a problem created from `import` in `dir`, with what its manifest may be changed
/// to (BOJ's pages never say a problem is float-judged or, reliably, interactive).
fn created(import: &Import, dir: &Path) -> String {
    let samples = import.samples.len();
    let interactor = Role::Interactor.binary(import.id);
    // An interactive problem has its judge: what is left is to write the grader.
    let judge = if import.interactive {
        format!(
            "interactive judge: the grader to write is src/bin/{interactor}.rs, a template, run \
             on each sample's .in"
        )
    } else {
        format!(
            "exact judge: in its Cargo.toml, judge = \"float\" with error = 1e-9 for answers \
             within an error, judge = \"interactive\" with interactor = \"{interactor}\" for a \
             grader"
        )
    };
    format!(
        "{}: created {} ({samples} sample{}, {} ms, {} MB, {judge}); next: cargo xtask test {}",
        import.label(),
        dir.display(),
        if samples == 1 { "" } else { "s" },
        import.time_limit_ms,
        import.memory_limit_mb,
        import.id
    )
}

/// Why a request is refused before its body is read, if it is: only competitive-companion may
/// import. The extension POSTs `application/json` from an extension origin (or none); a web
/// page can send a "simple" cross-origin POST (`text/plain`, no preflight) to localhost, but
/// it always carries its `http(s)://` origin. No CORS is granted, so a page cannot read answers
/// either.
fn refusal(
    method: &Method,
    url: &str,
    origin: Option<&str>,
    content_type: Option<&str>,
) -> Option<Answer> {
    if *method == Method::Options {
        return Some(Answer::new(
            403,
            "OPTIONS: cross-origin requests are refused (no CORS is granted); \
             competitive-companion needs none",
        ));
    }
    if *method != Method::Post {
        return Some(Answer::new(
            405,
            format!("{method} {url}: POST a competitive-companion payload to /"),
        ));
    }
    if let Some(origin) = origin {
        let lower = origin.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            return Some(Answer::new(
                403,
                format!(
                    "a web page ({origin}) may not import problems; only the \
                     competitive-companion extension may; nothing was written"
                ),
            ));
        }
    }
    let content_type = content_type.unwrap_or_default();
    let media_type = content_type.split(';').next().unwrap_or_default().trim();
    if !media_type.eq_ignore_ascii_case("application/json") {
        let shown = if content_type.is_empty() {
            "none"
        } else {
            content_type
        };
        return Some(Answer::new(
            415,
            format!(
                "Content-Type {shown}: competitive-companion sends application/json; nothing \
                 was written"
            ),
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const JSON: Option<&str> = Some("application/json");

    fn status(method: Method, origin: Option<&str>, content_type: Option<&str>) -> Option<u16> {
        refusal(&method, "/", origin, content_type).map(|answer| answer.status)
    }

    #[test]
    fn the_extensions_posts_are_taken() {
        assert_eq!(status(Method::Post, None, JSON), None);
        let extension = Some("chrome-extension://cjnmckjndlpiamhfimnnjmnckgghkjbl");
        assert_eq!(status(Method::Post, extension, JSON), None);
        let firefox = Some("moz-extension://0a1b2c3d-4e5f");
        let with_charset = Some("Application/JSON; charset=utf-8");
        assert_eq!(status(Method::Post, firefox, with_charset), None);
    }

    #[test]
    fn web_pages_preflights_and_other_methods_are_refused() {
        assert_eq!(
            status(Method::Post, Some("https://example.com"), JSON),
            Some(403)
        );
        assert_eq!(
            status(Method::Post, Some("HTTP://localhost:8000"), JSON),
            Some(403)
        );
        assert_eq!(
            status(Method::Options, Some("https://example.com"), None),
            Some(403)
        );
        assert_eq!(status(Method::Get, None, None), Some(405));
        let refused = refusal(&Method::Get, "/x", None, None).unwrap();
        assert_eq!(
            refused.message,
            "GET /x: POST a competitive-companion payload to /"
        );
    }

    #[test]
    fn only_json_is_taken() {
        // A web page's "simple" request needs no preflight: text/plain, or no type at all.
        assert_eq!(status(Method::Post, None, Some("text/plain")), Some(415));
        let untyped = refusal(&Method::Post, "/", None, None).unwrap();
        assert_eq!(untyped.status, 415);
        assert!(
            untyped.message.starts_with("Content-Type none: "),
            "{untyped:?}"
        );
        assert_eq!(
            status(Method::Post, None, Some("application/jsonp")),
            Some(415)
        );
    }

    #[test]
    fn a_created_problem_says_what_its_judge_may_be_changed_to() {
        let import = Import {
            id: 1000,
            name: "A+B".to_string(),
            url: "https://www.acmicpc.net/problem/1000".to_string(),
            time_limit_ms: 2000,
            memory_limit_mb: 128,
            samples: Vec::new(),
            interactive: false,
        };
        let line = created(&import, Path::new("problems/boj-1000"));
        assert!(
            line.starts_with(
                "boj-1000 \"A+B\": created problems/boj-1000 (0 samples, 2000 ms, 128 MB, \
                 exact judge: "
            ),
            "{line}"
        );
        assert!(
            line.contains("interactor = \"boj-1000-interactor\""),
            "{line}"
        );
        assert!(line.ends_with("; next: cargo xtask test 1000"), "{line}");
    }

    #[test]
    fn an_interactive_problem_is_not_told_to_become_one() {
        // It was told `judge = "float" ... judge = "interactive" with interactor = ...` as what
        // its manifest may be changed to: the judge it has, and one an interactive problem
        // cannot have.
        let import = Import {
            id: 1000,
            name: String::new(),
            url: "https://www.acmicpc.net/problem/1000".to_string(),
            time_limit_ms: 1000,
            memory_limit_mb: 256,
            samples: Vec::new(),
            interactive: true,
        };
        let line = created(&import, Path::new("problems/boj-1000"));
        assert_eq!(
            line,
            "boj-1000: created problems/boj-1000 (0 samples, 1000 ms, 256 MB, interactive \
             judge: the grader to write is src/bin/boj-1000-interactor.rs, a template, run on \
             each sample's .in); next: cargo xtask test 1000"
        );
    }
}
