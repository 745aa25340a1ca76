//! Handing a checked bundle to BOJ by hand, as no tool can submit for the user any more (BOJ's
//! bot challenge and login reCAPTCHA): the bundle onto the system clipboard (arboard), BOJ's
//! submit page in the default browser (webbrowser, which honours `BROWSER` as Python's
//! webbrowser does: commands separated by `:`, `%s` for the URL). Nothing here prints; each
//! step says what it did, or why it could not, for the command to print.
//!
//! On X11 a copy lives only as long as the program that owns it, and the user pastes after the
//! command has ended. So there the copy is handed to a small server: this same executable,
//! started again with [`SERVE_CLIPBOARD`] set, detached in a process group of its own, which
//! owns the clipboard until something else is copied and then ends by itself (arboard's `wait`),
//! as xclip and wl-copy do. It is the one process a command of ours leaves running. On macOS
//! and Windows the system keeps the copy, and no server is needed.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// BOJ's submit page for problem `id`.
pub fn submit_url(id: u32) -> String {
    format!("https://www.acmicpc.net/submit/{id}")
}

/// The environment variable that starts this executable as the clipboard server: the text to
/// serve comes on its stdin, and it answers one line on stdout, `ok` or `error: WHY`.
pub const SERVE_CLIPBOARD: &str = "XTASK_SERVE_CLIPBOARD";

/// How long the command waits for the clipboard to take the copy: a display that does not
/// answer must not hang it.
pub const CLIPBOARD_ANSWER: Duration = Duration::from_secs(10);

/// What became of the copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Copied {
    /// On the clipboard; on X11 served by the process with this id until something else is
    /// copied.
    Copied {
        /// The clipboard server's process id, where one serves the copy.
        server: Option<u32>,
    },
    /// Not copied: why (no display, no clipboard, it did not answer).
    NotCopied(String),
}

/// What became of the submit page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opened {
    /// Handed to the browser (the user's `BROWSER` command, or the system's default).
    Opened,
    /// Not opened: why.
    NotOpened(String),
}

/// Whether this system's clipboard and browser need a display that may be missing: X11 and
/// Wayland (Linux and the BSDs), not macOS or Windows.
const NEEDS_DISPLAY: bool = cfg!(all(unix, not(target_os = "macos")));

/// Why there is no display to copy to or open a browser on, where one is needed: neither
/// `DISPLAY` nor `WAYLAND_DISPLAY` is set (a terminal over ssh, a container, CI).
fn no_display() -> Option<String> {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    if !NEEDS_DISPLAY || set("WAYLAND_DISPLAY") {
        return None;
    }
    let Some(display) = std::env::var("DISPLAY").ok().filter(|d| !d.is_empty()) else {
        return Some("no display here (DISPLAY and WAYLAND_DISPLAY are unset)".to_string());
    };
    let socket = x_server_missing(&display)?;
    Some(format!(
        "no display here (DISPLAY is {display}, but no X server answers at {})",
        socket.display()
    ))
}

/// The socket of the local X display `display` when no server answers there, by its file or
/// (Linux) its abstract name, as Xlib tries them; `None` when one does, or for a display over
/// TCP, which is not tried.
#[cfg(all(unix, not(target_os = "macos")))]
fn x_server_missing(display: &str) -> Option<std::path::PathBuf> {
    use std::os::unix::net::UnixStream;
    let socket = x_socket(display)?;
    if UnixStream::connect(&socket).is_ok() {
        return None;
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::linux::net::SocketAddrExt;
        use std::os::unix::ffi::OsStrExt;
        let name = socket.as_os_str().as_bytes();
        let abstract_answers = std::os::unix::net::SocketAddr::from_abstract_name(name)
            .and_then(|address| UnixStream::connect_addr(&address))
            .is_ok();
        if abstract_answers {
            return None;
        }
    }
    Some(socket)
}

#[cfg(not(all(unix, not(target_os = "macos"))))]
fn x_server_missing(_display: &str) -> Option<std::path::PathBuf> {
    None
}

/// Puts `text` on the system clipboard so that it is still there after this process ends.
/// Never hangs: a clipboard that does not answer within [`CLIPBOARD_ANSWER`] is no clipboard.
pub fn copy_to_clipboard(text: &str) -> Copied {
    if let Some(why) = no_display() {
        return Copied::NotCopied(why);
    }
    if NEEDS_DISPLAY {
        return copy_through_server(text);
    }
    match arboard::Clipboard::new().and_then(|mut c| c.set_text(text)) {
        Ok(()) => Copied::Copied { server: None },
        Err(err) => Copied::NotCopied(format!("no clipboard: {err}")),
    }
}

/// X11: starts the clipboard server (this executable, [`SERVE_CLIPBOARD`] set) with `text` on
/// its stdin, and waits for its answer.
fn copy_through_server(text: &str) -> Copied {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(err) => return Copied::NotCopied(format!("cannot find this executable: {err}")),
    };
    let mut command = Command::new(exe);
    command
        .env(SERVE_CLIPBOARD, "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        // Not the workspace: a server that outlives the command holds no folder of it.
        .current_dir(std::env::temp_dir());
    detach(&mut command);
    let mut server = match command.spawn() {
        Ok(server) => server,
        Err(err) => return Copied::NotCopied(format!("cannot start the clipboard server: {err}")),
    };
    let written = server
        .stdin
        .take()
        .map(|mut stdin| stdin.write_all(text.as_bytes()));
    let (send, answer) = mpsc::channel();
    if let Some(stdout) = server.stdout.take() {
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = send.send(line);
        });
    }
    let answer = match (written, answer.recv_timeout(CLIPBOARD_ANSWER)) {
        (Some(Ok(())), Ok(line)) => line,
        (_, Err(_)) => {
            let _ = server.kill();
            let _ = server.wait();
            return Copied::NotCopied(format!(
                "the clipboard did not answer within {} s",
                CLIPBOARD_ANSWER.as_secs()
            ));
        }
        (_, Ok(line)) => line,
    };
    match answer.trim_end() {
        "ok" => Copied::Copied {
            server: Some(server.id()),
        },
        answer => {
            let _ = server.kill();
            let _ = server.wait();
            let why = answer.strip_prefix("error: ").unwrap_or(answer);
            let why = if why.is_empty() {
                "the clipboard server ended without answering"
            } else {
                why
            };
            Copied::NotCopied(format!("no clipboard: {why}"))
        }
    }
}

/// Starts the server in a process group of its own, so that a terminal's Ctrl-C after the
/// command has ended, sent to the foreground group, does not take the copy with it.
#[cfg(unix)]
fn detach(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
}

#[cfg(not(unix))]
fn detach(_command: &mut Command) {}

/// When this process was started as the clipboard server ([`SERVE_CLIPBOARD`]): serves its
/// stdin's text on the clipboard until something else is copied, and returns the exit code;
/// otherwise `None`. It answers one line on stdout first: `ok` once the clipboard holds the
/// text, or `error: WHY`.
pub fn serve_clipboard_if_asked() -> Option<ExitCode> {
    std::env::var_os(SERVE_CLIPBOARD).filter(|v| v == &OsString::from("1"))?;
    let mut text = String::new();
    let mut stdout = std::io::stdout();
    if let Err(err) = std::io::stdin().read_to_string(&mut text) {
        let _ = writeln!(stdout, "error: cannot read the text to copy: {err}");
        return Some(ExitCode::from(2));
    }
    let mut clipboard = match arboard::Clipboard::new() {
        Ok(clipboard) => clipboard,
        Err(err) => {
            let _ = writeln!(stdout, "error: {err}");
            return Some(ExitCode::from(2));
        }
    };
    if let Err(err) = clipboard.set_text(text.as_str()) {
        let _ = writeln!(stdout, "error: {err}");
        return Some(ExitCode::from(2));
    }
    let _ = writeln!(stdout, "ok");
    let _ = stdout.flush();
    Some(serve_until_replaced(&mut clipboard, &text))
}

/// Owns the clipboard with `text` until another program takes it (X11), then ends; ends too
/// when the X server does (arboard's wait would not wake then), found by its socket.
#[cfg(all(unix, not(target_os = "macos")))]
fn serve_until_replaced(clipboard: &mut arboard::Clipboard, text: &str) -> ExitCode {
    use arboard::SetExtLinux;
    if let Some(socket) = std::env::var("DISPLAY").ok().and_then(|d| x_socket(&d)) {
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_secs(1));
            if std::os::unix::net::UnixStream::connect(&socket).is_err() {
                std::process::exit(0);
            }
        });
    }
    match clipboard.set().wait().text(text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(2),
    }
}

/// The socket of a local X display (`:1`, `:1.0`, `unix:1`): `/tmp/.X11-unix/X1`; `None` for a
/// display over TCP (`host:10.0`).
#[cfg(all(unix, not(target_os = "macos")))]
fn x_socket(display: &str) -> Option<std::path::PathBuf> {
    let (host, rest) = display.rsplit_once(':')?;
    if !(host.is_empty() || host == "unix") {
        return None;
    }
    let number = rest.split('.').next()?;
    number.parse::<u32>().ok()?;
    Some(std::path::PathBuf::from(format!(
        "/tmp/.X11-unix/X{number}"
    )))
}

#[cfg(not(all(unix, not(target_os = "macos"))))]
fn serve_until_replaced(_clipboard: &mut arboard::Clipboard, _text: &str) -> ExitCode {
    ExitCode::SUCCESS
}

/// Opens `url` in the browser: the `BROWSER` command where it is set (its `:`-separated
/// commands tried in turn, `%s` replaced by the URL, else the URL added), else the system's
/// default (xdg-open and the desktop's own on Linux, `open` on macOS, the shell on Windows).
/// Where a display is needed and there is none, it runs `BROWSER`'s commands alone (the
/// desktop's browsers cannot start), and where that is unset it says so and starts nothing,
/// rather than a text browser that would wait for a terminal.
pub fn open_in_browser(url: &str) -> Opened {
    let browser = std::env::var("BROWSER").ok().filter(|v| !v.is_empty());
    if let Some(why) = no_display() {
        return match browser {
            None => Opened::NotOpened(format!("{why}, and BROWSER is unset")),
            // Only the user's own commands then: webbrowser would go on to the desktop's
            // browsers, which cannot start without a display (and say nothing of it).
            Some(commands) => run_browser_commands(&commands, url).unwrap_or_else(|| {
                Opened::NotOpened(format!("{why}, and no command of BROWSER ({commands}) ran"))
            }),
        };
    }
    match webbrowser::open(url) {
        Ok(()) => Opened::Opened,
        Err(err) => Opened::NotOpened(format!("no browser: {err}")),
    }
}

/// Runs the `BROWSER` commands `commands` in turn (`:`-separated, `%s` replaced by `url`, else
/// `url` added as the last word, as Python's `webbrowser` reads them) until one exits with
/// status 0; `None` when none does.
fn run_browser_commands(commands: &str, url: &str) -> Option<Opened> {
    commands
        .split(':')
        .filter(|c| !c.trim().is_empty())
        .find_map(|command| {
            let mut words = shlex::split(command)?;
            if words.iter().any(|w| w.contains("%s")) {
                for word in &mut words {
                    *word = word.replace("%s", url);
                }
            } else {
                words.push(url.to_string());
            }
            let (program, args) = words.split_first()?;
            let status = Command::new(program).args(args).status().ok()?;
            status.success().then_some(Opened::Opened)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_submit_page_is_bojs() {
        assert_eq!(submit_url(1000), "https://www.acmicpc.net/submit/1000");
    }

    #[cfg(all(unix, not(target_os = "macos")))]
    #[test]
    fn a_local_display_names_its_socket() {
        let socket = |d: &str| x_socket(d).map(|p| p.display().to_string());
        assert_eq!(socket(":0").as_deref(), Some("/tmp/.X11-unix/X0"));
        assert_eq!(socket(":91.0").as_deref(), Some("/tmp/.X11-unix/X91"));
        assert_eq!(socket("unix:3").as_deref(), Some("/tmp/.X11-unix/X3"));
        assert_eq!(socket("localhost:10.0"), None);
        assert_eq!(socket("nonsense"), None);
    }

    #[cfg(all(unix, not(target_os = "macos")))]
    #[test]
    fn a_local_display_without_a_server_is_missing_and_one_over_tcp_is_not_tried() {
        // No X server listens on display 987 here (nor would one in CI).
        assert_eq!(
            x_server_missing(":987").map(|p| p.display().to_string()),
            Some("/tmp/.X11-unix/X987".to_string())
        );
        assert_eq!(x_server_missing("localhost:10.0"), None);
    }
}
