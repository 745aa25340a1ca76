//! `cargo xtask listen [--port P]`: waits on loopback for the competitive-companion browser
//! extension and imports each problem it sends, as `cargo xtask new ID --from FILE.json` would.
//!
//! One request at a time, one printed line per request; a bad request is answered with an HTTP
//! 4xx and a message, and the listener goes on until interrupted.

use std::io::Read;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tiny_http::{Method, Request, Response, Server};
use xtask::companion::{Import, DEFAULT_PORTS};
use xtask::problem;
use xtask::scaffold::{self, Imported, Role, Spec};

/// The largest body accepted: a payload is a few samples, far below this.
const MAX_BODY: u64 = 16 * 1024 * 1024;

/// Wait for competitive-companion on 127.0.0.1 and import every problem it sends.
#[derive(clap::Args, Debug)]
pub struct ListenArgs {
    /// Listen on this port (0: any free one) instead of the first free port of those the
    /// extension sends to by default (1327, 4244, 6174, 10042, 10043, 10045, 27121); a port of
    /// your own must be added to the extension's "Custom ports".
    #[arg(long, value_name = "P")]
    pub port: Option<u16>,
    /// Import into DIR/problems/ instead of this workspace's.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Runs until interrupted; an error (no workspace, no port to be had) is the tool's own.
pub fn run(args: &ListenArgs) -> anyhow::Result<ExitCode> {
    let root = problem::root_or_project(args.root.as_deref())?;
    let (server, port) = bind(args.port).map_err(anyhow::Error::msg)?;
    let why = match args.port {
        Some(0) => "a free port, as asked: add it to the extension's custom ports".to_string(),
        Some(_) => "as asked: add it to the extension's custom ports".to_string(),
        None => "one competitive-companion sends to by default".to_string(),
    };
    println!("listening on http://127.0.0.1:{port}/ ({why})");
    println!(
        "importing into {}; open a BOJ problem, click the extension; Ctrl-C stops",
        root.join("problems").display()
    );
    for request in server.incoming_requests() {
        handle(request, &root);
    }
    Ok(ExitCode::SUCCESS)
}

/// Binds `port` on 127.0.0.1, or else the first free default port.
fn bind(port: Option<u16>) -> Result<(Server, u16), String> {
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
                return Ok((server, bound));
            }
            Err(err) => failures.push(format!("{candidate}: {err}")),
        }
    }
    Err(match port {
        Some(_) => format!("cannot listen on 127.0.0.1:{}", failures.join("; ")),
        None => format!(
            "every port competitive-companion sends to by default is taken ({}); stop another \
             tool or use --port P and add P to the extension's custom ports",
            failures.join("; ")
        ),
    })
}

/// Why a request is refused before its body is read, if it is: only competitive-companion may
/// import. The extension POSTs `application/json` from an extension origin (or none); a web
/// page can send a "simple" cross-origin POST (`text/plain`, no preflight) to localhost, but
/// it always carries its `http(s)://` origin. No CORS is granted, so a page cannot read answers
/// either.
fn refusal(request: &Request) -> Option<(u16, String)> {
    let header = |name: &'static str| {
        request
            .headers()
            .iter()
            .find(|h| h.field.equiv(name))
            .map(|h| h.value.as_str().to_string())
    };
    if *request.method() == Method::Options {
        return Some((
            403,
            "OPTIONS: cross-origin requests are refused (no CORS is granted); \
             competitive-companion needs none"
                .to_string(),
        ));
    }
    if *request.method() != Method::Post {
        return Some((
            405,
            format!(
                "{} {}: POST a competitive-companion payload to /",
                request.method(),
                request.url()
            ),
        ));
    }
    if let Some(origin) = header("Origin") {
        let lower = origin.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            return Some((
                403,
                format!(
                    "a web page ({origin}) may not import problems; only the \
                     competitive-companion extension may; nothing was written"
                ),
            ));
        }
    }
    let content_type = header("Content-Type").unwrap_or_default();
    let media_type = content_type.split(';').next().unwrap_or_default().trim();
    if !media_type.eq_ignore_ascii_case("application/json") {
        let shown = if content_type.is_empty() {
            "none".to_string()
        } else {
            content_type
        };
        return Some((
            415,
            format!(
                "Content-Type {shown}: competitive-companion sends application/json; nothing was \
                 written"
            ),
        ));
    }
    None
}

/// Answers one request and prints one line about it.
fn handle(mut request: Request, root: &Path) {
    let (status, message) = answer(&mut request, root);
    if status < 300 {
        println!("{message}");
    } else {
        eprintln!("rejected ({status}): {message}");
    }
    // The extension never reads the answer; a sender that went away is no reason to stop.
    let _ = request.respond(Response::from_string(format!("{message}\n")).with_status_code(status));
}

fn answer(request: &mut Request, root: &Path) -> (u16, String) {
    if let Some(refusal) = refusal(request) {
        return refusal;
    }
    if request
        .body_length()
        .is_some_and(|length| length as u64 > MAX_BODY)
    {
        return (413, format!("body over {MAX_BODY} bytes: not a payload"));
    }
    let mut body = Vec::new();
    if let Err(err) = request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_end(&mut body)
    {
        return (400, format!("cannot read the request body: {err}"));
    }
    if body.len() as u64 > MAX_BODY {
        return (413, format!("body over {MAX_BODY} bytes: not a payload"));
    }
    let import = match Import::parse(&body) {
        Ok(import) => import,
        Err(err) => return (if err.is_malformed() { 400 } else { 422 }, err.to_string()),
    };
    match scaffold::import(root, &import, &Spec::from_import(&import)) {
        Ok(Imported::Created(dir)) => (
            201,
            format!(
                "{}: created {} ({} sample{}, {} ms, {} MB, {}: in its Cargo.toml, judge = \
                 \"float\" with error = 1e-9 for answers within an error, judge = \"interactive\" \
                 with interactor = \"{}\" for a grader); next: cargo xtask test {}",
                import.label(),
                dir.display(),
                import.samples.len(),
                if import.samples.len() == 1 { "" } else { "s" },
                import.time_limit_ms,
                import.memory_limit_mb,
                if import.interactive {
                    "interactive judge"
                } else {
                    "exact judge"
                },
                Role::Interactor.binary(import.id),
                import.id
            ),
        ),
        Ok(Imported::Existing(dir, differences)) => (
            200,
            format!("{}: {} {differences}", import.label(), dir.display()),
        ),
        Err(err) => (500, format!("{}: {err:#}", import.label())),
    }
}
