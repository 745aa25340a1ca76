//! `cargo xtask submit` (issue 36): under Xvfb the bundle is on the clipboard after the command
//! has ended (read back with xclip), served by the one process it leaves, which ends by itself
//! when something else is copied; a `BROWSER` script receives BOJ's submit page; without a
//! display it says so, prints the bundle's path and exits 0; a WA sample refuses (exit 1)
//! unless `--force`. The Xvfb test skips, saying so, where Xvfb or xclip is missing, and leaves
//! nothing running. Fixtures: `tests/data/lastmile/` (A-B in i64, and in u32, WA on a sample).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::{fixture_copy, scratch, target_dir, text};

const URL: &str = "https://www.acmicpc.net/submit/1001";

/// The real xtask's `submit` on `problem` of a fresh fixture copy, with `display` (or none)
/// and `browser` as BROWSER (or none), building into the test's own target folder.
fn submit(
    test: &str,
    problem: &str,
    flags: &[&str],
    display: Option<&str>,
    browser: Option<&Path>,
) -> Output {
    let workspace = fixture_copy("lastmile", &format!("submit-{test}"));
    let mut command = Command::new(env!("CARGO_BIN_EXE_xtask"));
    command
        .arg("submit")
        .arg(workspace.join(problem))
        .args(flags)
        .env(
            "CARGO_TARGET_DIR",
            target_dir(&format!("submit-{test}-target")),
        )
        .env("NO_COLOR", "1")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("BROWSER");
    if let Some(display) = display {
        command.env("DISPLAY", display);
    }
    if let Some(browser) = browser {
        command.env("BROWSER", browser);
    }
    command.output().unwrap()
}

/// A browser stand-in: a script that writes the URL it is given to a file; (script, file).
fn browser_script(test: &str) -> (PathBuf, PathBuf) {
    let dir = scratch("submit", &format!("browser-{test}"));
    let got = dir.join("url");
    let script = dir.join("browser.sh");
    fs::write(
        &script,
        format!("#!/bin/sh\necho \"$1\" > '{}'\n", got.display()),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
    }
    (script, got)
}

/// What the browser script received, waiting for it (it runs after the command returns) up to
/// 20 s; `None` if it never ran.
fn received(file: &Path) -> Option<String> {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        if let Ok(url) = fs::read_to_string(file) {
            if url.ends_with('\n') {
                return Some(url);
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    None
}

/// The bundle `submit` wrote for test `test`.
fn the_bundle(test: &str) -> String {
    let target = target_dir(&format!("submit-{test}-target"));
    fs::read_to_string(target.join("bundle/fixture-subtract-i64.rs")).unwrap()
}

#[test]
fn without_a_display_it_says_so_prints_the_path_and_exits_0() {
    let out = submit("headless", "subtract-i64", &[], None, None);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("2/2 AC"), "{stdout}");
    assert!(
        stdout.contains("not copied: no display here (DISPLAY and WAYLAND_DISPLAY are unset); the bundle to paste is "),
        "{stdout}"
    );
    assert!(
        stdout.contains("bundle/fixture-subtract-i64.rs"),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("; open {URL}")), "{stdout}");
    assert!(stdout.contains("choose the language Rust 2021"), "{stdout}");
    assert!(the_bundle("headless").contains("fn main()"));
}

#[cfg(all(unix, not(target_os = "macos")))]
#[test]
fn a_display_with_no_x_server_is_no_display() {
    // DISPLAY left pointing at a server that is gone (a closed Xvfb, a stale ssh setting): no
    // clipboard to wait on and no browser started that would fail, each said, exit 0.
    let out = submit("stale-display", "subtract-i64", &[], Some(":987"), None);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let missing =
        "no display here (DISPLAY is :987, but no X server answers at /tmp/.X11-unix/X987)";
    assert!(
        stdout.contains(&format!("not copied: {missing}")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("not opened: {missing}, and BROWSER is unset")),
        "{stdout}"
    );
    assert!(!stdout.contains("in the browser"), "{stdout}");
}

#[cfg(all(unix, not(target_os = "macos")))]
#[test]
fn without_a_display_a_browser_command_that_cannot_run_opens_nothing() {
    // No display, BROWSER naming what is not there: nothing else is tried (the desktop's
    // browsers cannot start without a display), and the run says so.
    let missing = Path::new("/nonexistent/browser");
    let out = submit("no-browser", "subtract-i64", &[], None, Some(missing));
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains(
            "not opened: no display here (DISPLAY and WAYLAND_DISPLAY are unset), and no \
             command of BROWSER (/nonexistent/browser) ran"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("in the browser"), "{stdout}");
}

#[test]
fn a_browser_script_receives_the_submit_page() {
    let (script, got) = browser_script("page");
    let out = submit("page", "subtract-i64", &[], None, Some(&script));
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains(&format!("opened {URL} in the browser")),
        "{stdout}"
    );
    assert_eq!(received(&got).as_deref(), Some(&*format!("{URL}\n")));
}

#[test]
fn a_wa_sample_refuses_unless_forced() {
    let (script, got) = browser_script("refused");
    let out = submit("refused", "subtract-u32", &[], None, Some(&script));
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("  2  WA"), "{stdout}");
    assert!(stderr.contains("error: not submitted"), "{stderr}");
    assert!(stderr.contains("--force"), "{stderr}");
    assert!(!stdout.contains("copied"), "{stdout}");
    assert!(!stdout.contains("opened"), "{stdout}");
    assert!(!got.exists(), "the browser was opened");

    let out = submit("forced", "subtract-u32", &["--force"], None, Some(&script));
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("--force: handing it over all the same"),
        "{stdout}"
    );
    assert_eq!(received(&got).as_deref(), Some(&*format!("{URL}\n")));
}

/// An X server of our own, killed when dropped.
struct Xvfb {
    server: Child,
    display: String,
}

impl Xvfb {
    /// Starts Xvfb on a free display and waits (up to 20 s) for its socket; `None`, saying
    /// why, where Xvfb or xclip is missing or no display would start.
    fn start() -> Option<Xvfb> {
        for tool in ["Xvfb", "xclip"] {
            if Command::new("sh")
                .args(["-c", &format!("command -v {tool}")])
                .stdout(Stdio::null())
                .status()
                .map_or(true, |s| !s.success())
            {
                eprintln!("skipped: no {tool} here (Debian's xvfb and xclip packages)");
                return None;
            }
        }
        for number in 91..120 {
            let socket = PathBuf::from(format!("/tmp/.X11-unix/X{number}"));
            if socket.exists() || Path::new(&format!("/tmp/.X{number}-lock")).exists() {
                continue;
            }
            let mut server = Command::new("Xvfb")
                .arg(format!(":{number}"))
                .args(["-nolisten", "tcp"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .ok()?;
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(20) {
                if let Ok(Some(_)) = server.try_wait() {
                    break;
                }
                if socket.exists() {
                    return Some(Xvfb {
                        server,
                        display: format!(":{number}"),
                    });
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = server.kill();
            let _ = server.wait();
        }
        eprintln!("skipped: no Xvfb display would start");
        None
    }

    fn xclip(&self) -> Command {
        let mut command = Command::new("xclip");
        command
            .env("DISPLAY", &self.display)
            .args(["-selection", "clipboard"]);
        command
    }

    /// What the clipboard holds, as `xclip -o` reads it.
    fn clipboard(&self) -> String {
        let out = self.xclip().arg("-o").output().unwrap();
        text(&out.stdout)
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// Whether process `pid` has ended (gone, or a zombie waiting to be reaped), waiting up to 20 s.
fn ended(pid: u32) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        match fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => return true,
            Ok(stat)
                if stat
                    .rsplit(')')
                    .next()
                    .is_some_and(|s| s.trim_start().starts_with('Z')) =>
            {
                return true
            }
            Ok(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
    false
}

#[test]
fn under_xvfb_the_bundle_stays_on_the_clipboard_after_the_command_ends() {
    let Some(x) = Xvfb::start() else {
        return;
    };
    let (script, got) = browser_script("xvfb");
    let out = submit("xvfb", "subtract-i64", &[], Some(&x.display), Some(&script));
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains(&format!("opened {URL} in the browser")),
        "{stdout}"
    );
    assert_eq!(received(&got).as_deref(), Some(&*format!("{URL}\n")));
    // The command has ended; the copy is still there, served by the process it names.
    let pid = server_pid(&stdout);
    assert_eq!(x.clipboard(), the_bundle("xvfb"));
    // Still there a while later: a program that merely set it (and handed it to a clipboard
    // manager, for at most 100 ms, when it ended) would have taken it along by now.
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(x.clipboard(), the_bundle("xvfb"));
    assert!(
        fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z")),
        "the clipboard server {pid} is gone before anything else was copied"
    );

    // Something else is copied: the server ends by itself, and the clipboard has the new text.
    let mut other = x
        .xclip()
        .args(["-quiet", "-loops", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    use std::io::Write;
    other
        .stdin
        .take()
        .unwrap()
        .write_all(b"something else")
        .unwrap();
    assert!(ended(pid), "the clipboard server {pid} outlived its copy");
    assert_eq!(x.clipboard(), "something else");
    let _ = other.kill();
    let _ = other.wait();

    // Copied again, then the X server goes away: the clipboard server ends with it.
    let out = submit("xvfb", "subtract-i64", &[], Some(&x.display), Some(&script));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let pid = server_pid(&text(&out.stdout));
    assert_eq!(x.clipboard(), the_bundle("xvfb"));
    drop(x);
    assert!(
        ended(pid),
        "the clipboard server {pid} outlived the X server"
    );
}

/// The clipboard server's process id, from the line that says the copy is kept there.
fn server_pid(stdout: &str) -> u32 {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("copied "))
        .unwrap_or_else(|| panic!("not copied: {stdout}"));
    line.split("kept there by process ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|pid| pid.parse().ok())
        .unwrap_or_else(|| panic!("no server named: {line}"))
}
