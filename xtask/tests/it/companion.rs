//! Importing from competitive-companion: `cargo xtask new ID --from FILE.json` and `cargo xtask
//! listen`, with the payloads in `tests/data/companion/` (written by hand in the format the
//! extension's README documents). Everything happens in temp roots; the real `problems/` is
//! only ever read (boj-2580 is copied).

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use crate::support::{
    assert_success_saying, copy_tree, listing, run_xtask, scratch, text, write_minimal_workspace,
};
use xtask::workspace::problem::{JudgeKind, Problem};

fn payload(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/companion")
        .join(name)
}

/// Runs the real xtask binary, building into this module's own target folder.
fn xtask(args: &[&str]) -> Output {
    run_xtask("companion-target", args)
}

/// `cargo xtask new ID --from PAYLOAD --root ROOT`.
fn new_from(id: &str, payload: &Path, root: &Path) -> Output {
    xtask(&[
        "new",
        id,
        "--from",
        payload.to_str().unwrap(),
        "--root",
        root.to_str().unwrap(),
    ])
}

/// Every file under `dir` with its bytes and modification time, to prove nothing was touched.
fn tree(dir: &Path) -> BTreeMap<String, (Vec<u8>, std::time::SystemTime)> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let name = e.path().strip_prefix(dir).unwrap().display().to_string();
            let modified = e.metadata().unwrap().modified().unwrap();
            (name, (fs::read(e.path()).unwrap(), modified))
        })
        .collect()
}

/// `root/problems/boj-2580`: a copy of the real problem (manifest, sources, samples).
fn copy_of_2580(root: &Path) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems/boj-2580");
    let to = root.join("problems/boj-2580");
    copy_tree(&from, &to);
    to
}

/// Rewrites a fixture payload for a test and saves it in `dir`.
fn edited_payload(fixture: &str, dir: &Path, edit: impl FnOnce(&mut serde_json::Value)) -> PathBuf {
    let mut value: serde_json::Value =
        serde_json::from_slice(&fs::read(payload(fixture)).unwrap()).unwrap();
    edit(&mut value);
    let path = dir.join(format!("edited-{fixture}"));
    fs::write(&path, serde_json::to_vec(&value).unwrap()).unwrap();
    path
}

/// Checks `root/problems/boj-1000` against `boj-1000.json`, file by file.
fn assert_boj_1000(root: &Path) {
    let dir = root.join("problems/boj-1000");
    assert_eq!(
        listing(&dir),
        [
            "Cargo.toml",
            "samples",
            "samples/1.in",
            "samples/1.out",
            "samples/2.in",
            "samples/2.out",
            "src",
            "src/main.rs"
        ]
    );
    let read = |name: &str| fs::read_to_string(dir.join(name)).unwrap();
    assert_eq!(read("samples/1.in"), "1 2\n");
    assert_eq!(read("samples/1.out"), "3\n");
    assert_eq!(read("samples/2.in"), "40 2\n");
    assert_eq!(read("samples/2.out"), "42\n");
    assert!(read("src/main.rs").starts_with("//! BOJ 1000 (A+B): reads the whole input"));
    let manifest = read("Cargo.toml");
    assert!(manifest.contains("time-limit-ms = 2000\nmemory-limit-mb = 128\n"));
    let problem = Problem::load(&dir).unwrap();
    assert_eq!(problem.name, "boj-1000");
    assert_eq!(problem.meta.id, Some(1000));
    assert_eq!(
        (problem.meta.time_limit_ms, problem.meta.memory_limit_mb),
        (2000, 128)
    );
    assert_eq!(problem.meta.judge, JudgeKind::Exact);
    let samples: Vec<String> = problem
        .samples()
        .unwrap()
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(samples, ["1", "2"]);
}

#[test]
fn from_file_scaffolds_as_new_does_with_the_payloads_limits_and_samples() {
    let root = scratch("companion", "from-file");
    let file = payload("boj-1000.json");
    let out = new_from("1000", &file, &root);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("[package.metadata.boj]: 2000 ms, 128 MB, exact judge"));
    assert!(
        stdout.contains("1.in .. 2.out: 2 from the payload"),
        "{stdout}"
    );
    assert_boj_1000(&root);

    // The same manifest as `cargo xtask new` with those limits: one code path.
    let plain = scratch("companion", "from-file-plain");
    let out = xtask(&[
        "new",
        "1000",
        "--root",
        plain.to_str().unwrap(),
        "--time-limit-ms",
        "2000",
        "--memory-limit-mb",
        "128",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let manifest = |root: &Path| fs::read(root.join("problems/boj-1000/Cargo.toml")).unwrap();
    assert_eq!(manifest(&root), manifest(&plain));

    // Importing again finds the same samples: nothing is written, exit 0.
    let before = tree(&root);
    let out = new_from("1000", &file, &root);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("unchanged (its 2 samples match samples/1..2)"));
    assert_eq!(tree(&root), before);
}

#[test]
fn an_imported_problem_is_judged_with_its_limits() {
    let root = scratch("companion", "judged");
    write_minimal_workspace(&root);
    let root_arg = root.to_str().unwrap();
    let file = payload("boj-1000.json");
    let out = new_from("1000", &file, &root);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Solve A+B in place of the placeholder.
    fs::write(
        root.join("problems/boj-1000/src/main.rs"),
        "//! A+B.\nuse std::io::Read;\nfn main() {\n    let mut s = String::new();\n    \
         std::io::stdin().read_to_string(&mut s).unwrap();\n    \
         let n: i64 = s.split_whitespace().map(|t| t.parse::<i64>().unwrap()).sum();\n    \
         println!(\"{}\", n);\n}\n",
    )
    .unwrap();

    let out = xtask(&["test", "--root", root_arg, "--color", "never"]);
    let stdout = assert_success_saying(&out, "boj-1000: 2/2 AC");
    assert!(
        stdout.contains("boj-1000  2 samples · exact judge · 2000 ms CPU · 128 MB"),
        "{stdout}"
    );
}

#[test]
fn the_2580_payload_over_boj_2580_changes_nothing() {
    let root = scratch("companion", "over-2580");
    let dir = copy_of_2580(&root);
    let before = tree(&dir);
    let file = payload("boj-2580.json");
    let out = new_from("2580", &file, &root);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.ends_with(
            "boj-2580 unchanged (its sample matches samples/1; local-only samples: 2, 3, 4)\n"
        ),
        "{stdout}"
    );
    assert!(stdout.starts_with("boj-2580 \"스도쿠\": "), "{stdout}");
    assert_eq!(tree(&dir), before);
}

#[test]
fn a_differing_payload_is_reported_sample_by_sample_and_not_written() {
    let root = scratch("companion", "differs-2580");
    let dir = copy_of_2580(&root);
    let before = tree(&dir);
    let disk = |name: &str| fs::read_to_string(dir.join("samples").join(name)).unwrap();
    let (two_in, two_out) = (disk("2.in"), disk("2.out"));
    let file = edited_payload("boj-2580.json", &root, |v| {
        // Line 3 of the answer gets another (wrong) digit; sample 2 is the one on disk;
        // sample 3 is a different puzzle; the time limit changed.
        let out = v["tests"][0]["output"].as_str().unwrap().to_string();
        let mut lines: Vec<&str> = out.lines().collect();
        lines[2] = "4 6 9 2 7 8 1 3 6";
        v["tests"][0]["output"] = (lines.join("\n") + "\n").into();
        let other = serde_json::json!({ "input": "1 2 3\n", "output": "x\n" });
        let tests = v["tests"].as_array_mut().unwrap();
        tests.push(serde_json::json!({ "input": two_in, "output": two_out }));
        tests.push(other);
        v["timeLimit"] = 2000.into();
    });
    let out = new_from("2580", &file, &root);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.ends_with(
            "boj-2580 differs, nothing written (sample 1: 1.out differs at line 3; \
             sample 3: 3.in differs at line 1, 3.out differs at line 1; same: 2; \
             time limit 2000 ms in the payload, 1000 ms on disk; local-only samples: 4)\n"
        ),
        "{stdout}"
    );
    assert_eq!(tree(&dir), before);
}

#[test]
fn payloads_without_a_problem_id_or_for_another_problem_are_refused() {
    let root = scratch("companion", "refused");
    let codeforces = edited_payload("boj-1000.json", &root, |v| {
        v["url"] = "https://codeforces.com/problemset/problem/954/G".into();
    });
    let out = new_from("1000", &codeforces, &root);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "cannot tell the BOJ problem id from url \
             \"https://codeforces.com/problemset/problem/954/G\""
        ),
        "{stderr}"
    );

    let file = payload("boj-1000.json");
    let out = new_from("1001", &file, &root);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is BOJ 1000"),
        "{}",
        text(&out.stderr)
    );

    let out = xtask(&[
        "new",
        "1000",
        "--from",
        file.to_str().unwrap(),
        "--time-limit-ms",
        "5",
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "--from conflicts with explicit limits"
    );
    assert_eq!(
        listing(&root),
        ["edited-boj-1000.json"],
        "nothing was created"
    );
}

/// `cargo xtask listen --port 0` as a child process, killed when dropped.
struct Listener {
    child: Child,
    port: u16,
    stdout: Receiver<String>,
    stderr: Receiver<String>,
}

impl Listener {
    /// A client of the listener on `port`, for requests from other threads (its child and line
    /// receivers stay with the listener that started it).
    fn client(port: u16) -> Client {
        Client { port }
    }

    fn start(root: &Path) -> Listener {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(["listen", "--port", "0", "--root", root.to_str().unwrap()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let lines = |stream: Box<dyn Read + Send>| {
            let (send, receive) = mpsc::channel();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines() {
                    if send.send(line.unwrap()).is_err() {
                        break;
                    }
                }
            });
            receive
        };
        let stdout = lines(Box::new(child.stdout.take().unwrap()));
        let stderr = lines(Box::new(child.stderr.take().unwrap()));
        let mut listener = Listener {
            child,
            port: 0,
            stdout,
            stderr,
        };
        let first = listener.line();
        let port = first
            .strip_prefix("listening on http://127.0.0.1:")
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("unexpected first line: {first}"));
        listener.port = port.parse().unwrap();
        assert!(listener.line().starts_with("importing into "));
        listener
    }

    fn line(&self) -> String {
        self.stdout
            .recv_timeout(Duration::from_secs(20))
            .expect("a line from the listener")
    }

    fn error_line(&self) -> String {
        self.stderr
            .recv_timeout(Duration::from_secs(20))
            .expect("an error line from the listener")
    }

    /// Sends one request; returns the status and the body.
    fn request(&self, method: &str, body: &[u8]) -> (u16, String) {
        Listener::client(self.port).request(method, body)
    }

    /// Sends one request with these header lines; returns the status and the body.
    fn request_with(&self, method: &str, headers: &[&str], body: &[u8]) -> (u16, String) {
        Listener::client(self.port).request_with(method, headers, body)
    }
}

/// Sends requests to a listener over plain TCP connections (from any thread).
#[derive(Debug, Clone, Copy)]
struct Client {
    port: u16,
}

impl Client {
    /// Sends one request over a plain TCP connection; returns the status and the body.
    fn request(&self, method: &str, body: &[u8]) -> (u16, String) {
        self.request_with(method, &["Content-Type: application/json"], body)
    }

    /// [`Listener::request`] with the given header lines (besides Host, Content-Length and
    /// Connection). The body is written on a thread of its own, its errors ignored, so that a
    /// listener that answers before reading all of it is still heard.
    fn request_with(&self, method: &str, headers: &[&str], body: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut head = format!("{method} / HTTP/1.1\r\nHost: localhost:{}\r\n", self.port);
        for header in headers {
            head.push_str(header);
            head.push_str("\r\n");
        }
        head.push_str(&format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        ));
        stream.write_all(head.as_bytes()).unwrap();
        let mut writer = stream.try_clone().unwrap();
        let body = body.to_vec();
        let sending = std::thread::spawn(move || {
            let _ = writer.write_all(&body);
        });
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        let _ = sending.join();
        let response = String::from_utf8_lossy(&response).into_owned();
        let status = response
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("not an HTTP response: {response:?}"));
        assert!(
            !response
                .to_ascii_lowercase()
                .contains("access-control-allow"),
            "no CORS is ever granted: {response}"
        );
        let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        (status, body.to_string())
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_listener_imports_posted_problems_and_survives_bad_requests() {
    let root = scratch("companion", "listen");
    let dir_2580 = copy_of_2580(&root);
    let before_2580 = tree(&dir_2580);
    let listener = Listener::start(&root);

    // Malformed: answered with a 4xx and a message; the listener goes on.
    let (status, body) = listener.request("POST", b"{\"name\": ");
    assert_eq!(status, 400, "{body}");
    assert!(
        body.starts_with("not a competitive-companion payload: "),
        "{body}"
    );
    assert!(listener.error_line().starts_with("rejected (400): "));
    let no_id = br#"{"name": "G", "group": "Codeforces", "url": "https://codeforces.com/problemset/problem/954/G",
        "memoryLimit": 256, "timeLimit": 1500, "tests": []}"#;
    let (status, body) = listener.request("POST", no_id);
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("cannot tell the BOJ problem id"), "{body}");
    listener.error_line();
    let (status, _) = listener.request("GET", b"");
    assert_eq!(status, 405);
    listener.error_line();

    // A new problem.
    let (status, body) = listener.request("POST", &fs::read(payload("boj-1000.json")).unwrap());
    assert_eq!(status, 201, "{body}");
    let line = listener.line();
    assert!(
        line.starts_with("boj-1000 \"A+B\": created ")
            && line.contains(" (2 samples, 2000 ms, 128 MB, exact judge: ")
            && line.contains("judge = \"float\" with error = 1e-9")
            && line.contains("judge = \"interactive\" with interactor = \"boj-1000-interactor\"")
            && line.ends_with("; next: cargo xtask test 1000"),
        "{line}"
    );
    assert_eq!(body.trim_end(), line);
    assert_boj_1000(&root);

    // The existing boj-2580: compared, never written.
    let (status, body) = listener.request("POST", &fs::read(payload("boj-2580.json")).unwrap());
    assert_eq!(status, 200, "{body}");
    assert!(
        listener.line().ends_with(
            "boj-2580 unchanged (its sample matches samples/1; local-only samples: 2, 3, 4)"
        ),
        "{body}"
    );
    assert_eq!(tree(&dir_2580), before_2580);

    assert!(listener.stderr.try_recv().is_err(), "no other complaint");
}

/// A payload for BOJ `id`, made from the BOJ 1000 one.
fn payload_for(id: u32) -> Vec<u8> {
    let text = fs::read_to_string(payload("boj-1000.json")).unwrap();
    text.replace("problem/1000", &format!("problem/{id}"))
        .replace("\"A+B\"", &format!("\"Problem {id}\""))
        .into_bytes()
}

/// Real use (issue 22): a 12-problem workbook sent at once, bodies far too large and not text,
/// and requests from web pages: every bad one gets a 4xx with a reason on stderr, nothing is
/// written for it, and the listener answers the next request.
#[test]
fn the_listener_takes_a_workbook_at_once_and_refuses_what_is_not_the_extension() {
    let root = scratch("companion", "workbook");
    let listener = Listener::start(&root);

    // Twelve problems POSTed concurrently, as a workbook page makes the extension do.
    let port = listener.port;
    let senders: Vec<_> = (2000..2012)
        .map(|id| {
            let listener = Listener::client(port);
            std::thread::spawn(move || listener.request("POST", &payload_for(id)))
        })
        .collect();
    for sender in senders {
        let (status, body) = sender.join().unwrap();
        assert_eq!(status, 201, "{body}");
    }
    for _ in 0..12 {
        assert!(listener.line().contains(": created "));
    }
    let problems = root.join("problems");
    for id in 2000..2012 {
        let dir = problems.join(format!("boj-{id}"));
        assert_eq!(
            fs::read_to_string(dir.join("samples/2.out")).unwrap(),
            "42\n"
        );
        let main = fs::read_to_string(dir.join("src/main.rs")).unwrap();
        assert!(
            main.starts_with(&format!("//! BOJ {id} (Problem {id}): ")),
            "{main}"
        );
    }
    let created = listing(&problems);

    // Too large (20 MB) and not UTF-8: 4xx, and the listener goes on.
    let (status, body) = listener.request("POST", &vec![b' '; 20 << 20]);
    assert_eq!(status, 413, "{body}");
    assert!(listener.error_line().starts_with("rejected (413): "));
    let (status, body) = listener.request("POST", b"{\"name\": \"\xff\xfe\"}");
    assert_eq!(status, 400, "{body}");
    assert!(listener.error_line().starts_with("rejected (400): "));

    // A web page's "simple" request (text/plain, no preflight), a request carrying a web
    // origin, and a preflight: refused, each with its reason, with a valid payload each time.
    let valid = payload_for(3000);
    let (status, body) = listener.request_with("POST", &["Content-Type: text/plain"], &valid);
    assert_eq!(status, 415, "{body}");
    let line = listener.error_line();
    assert!(
        line.starts_with("rejected (415): Content-Type text/plain"),
        "{line}"
    );
    let (status, body) = listener.request_with(
        "POST",
        &[
            "Content-Type: application/json",
            "Origin: https://example.com",
        ],
        &valid,
    );
    assert_eq!(status, 403, "{body}");
    let line = listener.error_line();
    assert!(
        line.contains("a web page (https://example.com) may not import"),
        "{line}"
    );
    let (status, _) = listener.request_with(
        "OPTIONS",
        &[
            "Origin: https://example.com",
            "Access-Control-Request-Method: POST",
        ],
        b"",
    );
    assert_eq!(status, 403);
    listener.error_line();
    assert_eq!(listing(&problems), created, "nothing was written");

    // The extension's own origin is welcome, and the listener still serves.
    let (status, body) = listener.request_with(
        "POST",
        &[
            "Content-Type: application/json",
            "Origin: chrome-extension://cjnmckjndlpiamhfimnnjmnckgghkjbl",
        ],
        &valid,
    );
    assert_eq!(status, 201, "{body}");
    assert!(problems.join("boj-3000/samples/1.in").is_file());
}

/// A title is data: it reaches only the one-line comment at the top of `src/main.rs`, however
/// it is written.
#[test]
fn a_hostile_title_stays_a_comment() {
    let root = scratch("companion", "hostile-title");
    write_minimal_workspace(&root);
    // Its own problem id: the module's tests share one target folder, and boj-1000 is taken.
    let original = String::from_utf8(payload_for(4000)).unwrap();
    let hostile = original.replace(
        "\"Problem 4000\"",
        r#""A+B */ }\n\r\nfn main() { std::process::exit(7) } /* \"quoted\" \u2028 end""#,
    );
    let file = root.join("hostile.json");
    fs::write(&file, hostile).unwrap();
    let out = new_from("4000", &file, &root);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let main = fs::read_to_string(root.join("problems/boj-4000/src/main.rs")).unwrap();
    let first = main.lines().next().unwrap();
    assert!(first.starts_with("//! BOJ 4000 (A+B */ }"), "{first}");
    let carrying: Vec<&str> = main.lines().filter(|l| l.contains("exit(7)")).collect();
    assert_eq!(
        carrying,
        [first],
        "the title reaches one comment line only:\n{main}"
    );
    // It still builds and runs the template: the title changed no code.
    let samples = root.join("problems/boj-4000/samples");
    fs::write(samples.join("1.out"), "1\n2\n").unwrap();
    fs::remove_file(samples.join("2.in")).unwrap();
    fs::remove_file(samples.join("2.out")).unwrap();
    let out = xtask(&["test", "--root", root.to_str().unwrap(), "4000"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}
