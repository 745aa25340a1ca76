//! Command lines as each system splits them: `--command "CMD ARGS"` is split into words the way
//! the user's own system would (POSIX shell rules on Unix, the Microsoft C runtime's rules on
//! Windows, where `\` is a path separator), and on Windows the runner builds the one command line
//! and environment block that `CreateProcessW` takes. Pure functions, so every system's rules are
//! tested on every system.
//!
//! The Windows rules are Microsoft's, "Parsing C command-line arguments"
//! (learn.microsoft.com/cpp/c-language/parsing-c-command-line-arguments), which
//! `CommandLineToArgvW` and every program built with the Microsoft C runtime or Rust's std follow:
//! - words are separated by spaces and tabs outside double quotes;
//! - the first word, the program, ends at the first space or tab outside quotes; its quotes are
//!   dropped and nothing else is special (a path cannot hold `"`);
//! - in later words, backslashes are literal unless a `"` follows them: then 2n backslashes give
//!   n and the `"` opens or closes a quoted part, 2n + 1 give n and a literal `"`; inside a
//!   quoted part `""` is a literal `"`; a quote left open ends with the line.

use std::fmt;

/// Which system's rules split a command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// A POSIX shell's quoting (quotes and backslash escapes; no variables, globs or
    /// redirections).
    Posix,
    /// The Microsoft C runtime's, as a Windows program splits its own command line.
    Windows,
}

impl Rules {
    /// The rules of the system this was built for.
    pub fn here() -> Rules {
        if cfg!(windows) {
            Rules::Windows
        } else {
            Rules::Posix
        }
    }
}

/// Why a command line has no words to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitError {
    /// Nothing but whitespace.
    Empty,
    /// A POSIX quote or escape that does not end (`'abc`, a trailing `\`).
    Unclosed,
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SplitError::Empty => "the command is empty",
            SplitError::Unclosed => "an unclosed quote, or a backslash at the end",
        })
    }
}

impl std::error::Error for SplitError {}

/// Splits `line` into words by `rules`: the program, then its arguments.
pub fn split(line: &str, rules: Rules) -> Result<Vec<String>, SplitError> {
    let words = match rules {
        Rules::Posix => shlex::split(line).ok_or(SplitError::Unclosed)?,
        Rules::Windows => split_windows(line),
    };
    if words.is_empty() {
        return Err(SplitError::Empty);
    }
    Ok(words)
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// The words of a Windows command line (the module's rules); none for a blank line.
fn split_windows(line: &str) -> Vec<String> {
    let mut chars = line.trim_start_matches(is_blank).chars().peekable();
    if chars.peek().is_none() {
        return Vec::new();
    }
    let mut words = Vec::new();
    // The program: quotes group, nothing escapes.
    let mut program = String::new();
    let mut quoted = false;
    for c in chars.by_ref() {
        match c {
            '"' => quoted = !quoted,
            c if is_blank(c) && !quoted => break,
            c => program.push(c),
        }
    }
    words.push(program);
    // The arguments.
    let mut word: Option<String> = None;
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match c {
            c if is_blank(c) && !quoted => {
                if let Some(done) = word.take() {
                    words.push(done);
                }
            }
            '\\' => {
                let mut backslashes = 1;
                while chars.peek() == Some(&'\\') {
                    chars.next();
                    backslashes += 1;
                }
                let word = word.get_or_insert_with(String::new);
                if chars.peek() == Some(&'"') {
                    word.extend(std::iter::repeat_n('\\', backslashes / 2));
                    if backslashes % 2 == 1 {
                        chars.next();
                        word.push('"');
                    }
                    // An even count leaves the quote to open or close a quoted part.
                } else {
                    word.extend(std::iter::repeat_n('\\', backslashes));
                }
            }
            '"' => {
                let word = word.get_or_insert_with(String::new);
                if quoted && chars.peek() == Some(&'"') {
                    chars.next();
                    word.push('"');
                } else {
                    quoted = !quoted;
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(done) = word {
        words.push(done);
    }
    words
}

/// Why a program cannot be named on a Windows command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuoteError(String);

impl fmt::Display for QuoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot name {:?} on a Windows command line: a program's path cannot hold `\"`",
            self.0
        )
    }
}

impl std::error::Error for QuoteError {}

/// The Windows command line that a program splits back into exactly `program` and `args` (the
/// inverse of the rules above): a word with a space, a tab or a quote, or an empty one, is
/// quoted, and backslashes are doubled only where a `"` follows them.
pub fn windows_command_line(program: &str, args: &[String]) -> Result<String, QuoteError> {
    if program.contains('"') {
        return Err(QuoteError(program.to_string()));
    }
    let mut line = String::new();
    if program.is_empty() || program.contains(is_blank) {
        line.push('"');
        line.push_str(program);
        line.push('"');
    } else {
        line.push_str(program);
    }
    for arg in args {
        line.push(' ');
        quote_windows_arg(arg, &mut line);
    }
    Ok(line)
}

fn quote_windows_arg(arg: &str, line: &mut String) {
    if !arg.is_empty() && !arg.contains(|c: char| is_blank(c) || c == '"' || c == '\n') {
        line.push_str(arg);
        return;
    }
    line.push('"');
    let mut backslashes = 0;
    for c in arg.chars() {
        match c {
            '\\' => backslashes += 1,
            '"' => {
                line.extend(std::iter::repeat_n('\\', 2 * backslashes + 1));
                line.push('"');
                backslashes = 0;
            }
            c => {
                line.extend(std::iter::repeat_n('\\', backslashes));
                line.push(c);
                backslashes = 0;
            }
        }
    }
    // Before the closing quote, every backslash is doubled so that none escapes it.
    line.extend(std::iter::repeat_n('\\', 2 * backslashes));
    line.push('"');
}

/// The folders a Windows runner searches, in order, for a program named by a bare file name
/// (`python`, `sol.exe`): the system folder, the Windows folder, then each folder of `PATH`
/// (`;`-separated, a folder may be quoted). That is std's `Command` order (its
/// `resolve_exe`/`search_paths`: the application's folder, the system folders, the parent's
/// `PATH`) less the application's folder, which for the runner is the xtask's own, and never
/// the current folder; `CreateProcessW` left to search by itself would look in the runner's
/// folder and the current folder first ("the directory from which the application loaded",
/// "the current directory": CreateProcessW's `lpCommandLine`, learn.microsoft.com).
pub fn windows_search_folders(
    system: Option<&str>,
    windows: Option<&str>,
    path: &str,
) -> Vec<String> {
    let mut folders: Vec<String> = system
        .into_iter()
        .chain(windows)
        .map(str::to_owned)
        .collect();
    let mut folder = String::new();
    let mut quoted = false;
    for c in path.chars().chain([';']) {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                if !folder.trim().is_empty() {
                    folders.push(std::mem::take(&mut folder));
                }
                folder.clear();
            }
            c => folder.push(c),
        }
    }
    folders
}

/// The file a Windows runner runs for `program`, as std's `Command` resolves it: a path (it
/// holds `\` or `/`) is taken as it is, and, when it has no extension and only `PROGRAM.exe`
/// exists, with `.exe`; a bare file name is searched in `folders` ([`windows_search_folders`]),
/// with `.exe` added when it has no `.` ("If the file name does not contain an extension, .exe
/// is appended", CreateProcessW), the first that `exists` says is there. `None`: not found.
pub fn windows_program(
    program: &str,
    folders: &[String],
    exists: impl Fn(&str) -> bool,
) -> Option<String> {
    if program.contains(['\\', '/']) {
        let file = program.rsplit(['\\', '/']).next().unwrap_or_default();
        if !file.contains('.') && !exists(program) && exists(&format!("{program}.exe")) {
            return Some(format!("{program}.exe"));
        }
        return Some(program.to_owned());
    }
    let name = if program.contains('.') {
        program.to_owned()
    } else {
        format!("{program}.exe")
    };
    folders
        .iter()
        .map(|folder| {
            if folder.ends_with(['\\', '/']) {
                format!("{folder}{name}")
            } else {
                format!("{folder}\\{name}")
            }
        })
        .find(|candidate| exists(candidate))
}

/// An environment variable's name and value, in UTF-16.
pub type WideVariable = (Vec<u16>, Vec<u16>);

/// A Windows environment block (`lpEnvironment` with `CREATE_UNICODE_ENVIRONMENT`) of `vars`,
/// less those named in `removed` (names compare without case, as Windows' do): `NAME=VALUE`
/// strings in UTF-16, each ended by a NUL, sorted by name without case ("Changing Environment
/// Variables", learn.microsoft.com/windows/win32/procthread/changing-environment-variables:
/// "All strings in the environment block must be sorted alphabetically by name. The sort is
/// case-insensitive, Unicode order"), and one NUL more at the end.
pub fn windows_environment_block(vars: &[WideVariable], removed: &[&str]) -> Vec<u16> {
    let upper = |name: &[u16]| -> Vec<u16> {
        char::decode_utf16(name.iter().copied())
            .flat_map(|c| match c {
                Ok(c) => c.to_uppercase().collect::<Vec<char>>(),
                Err(unpaired) => vec![char::from_u32(u32::from(unpaired.unpaired_surrogate()))
                    .unwrap_or(char::REPLACEMENT_CHARACTER)],
            })
            .flat_map(|c| {
                let mut units = [0; 2];
                c.encode_utf16(&mut units).to_vec()
            })
            .collect()
    };
    let removed: Vec<Vec<u16>> = removed
        .iter()
        .map(|name| upper(&name.encode_utf16().collect::<Vec<u16>>()))
        .collect();
    let mut kept: Vec<(Vec<u16>, &WideVariable)> = vars
        .iter()
        .map(|var| (upper(&var.0), var))
        .filter(|(key, _)| !removed.contains(key))
        .collect();
    kept.sort_by(|a, b| a.0.cmp(&b.0));
    let mut block = Vec::new();
    for (_, (name, value)) in kept {
        block.extend_from_slice(name);
        block.push(u16::from(b'='));
        block.extend_from_slice(value);
        block.push(0);
    }
    if block.is_empty() {
        block.push(0);
    }
    block.push(0);
    block
}

#[cfg(test)]
mod tests {
    use super::*;

    fn windows(line: &str) -> Vec<String> {
        split(line, Rules::Windows).unwrap()
    }

    #[test]
    fn a_windows_path_keeps_its_backslashes() {
        assert_eq!(
            windows(r"python C:\Users\me\sol.py"),
            ["python", r"C:\Users\me\sol.py"]
        );
        assert_eq!(windows(r"Z:\tmp\x\sol.exe"), [r"Z:\tmp\x\sol.exe"]);
        // POSIX rules would have eaten them: the defect this module mends.
        assert_eq!(
            split(r"python C:\Users\me\sol.py", Rules::Posix).unwrap(),
            ["python", "C:Usersmesol.py"]
        );
    }

    #[test]
    fn a_quoted_program_path_may_hold_spaces() {
        assert_eq!(
            windows(r#""C:\Program Files\Python\python.exe" "my sol.py" 3"#),
            [r"C:\Program Files\Python\python.exe", "my sol.py", "3"]
        );
        assert_eq!(
            windows(r#"C:\"Program Files"\x.exe a"#),
            [r"C:\Program Files\x.exe", "a"]
        );
        // The program's backslashes never escape, even before a quote.
        assert_eq!(windows(r#""C:\dir\\" a"#), [r"C:\dir\\", "a"]);
    }

    /// The table of examples in Microsoft's "Parsing C command-line arguments".
    #[test]
    fn microsofts_own_examples_split_as_documented() {
        let table: [(&str, &[&str]); 5] = [
            (r#""abc" d e"#, &["abc", "d", "e"]),
            (r#"a\\b d"e f"g h"#, &[r"a\\b", "de fg", "h"]),
            (r#"a\\\"b c d"#, &[r#"a\"b"#, "c", "d"]),
            (r#"a\\\\"b c" d e"#, &[r"a\\b c", "d", "e"]),
            (r#"a"b"" c d"#, &[r#"ab" c d"#]),
        ];
        for (args, expected) in table {
            let words = windows(&format!("prog {args}"));
            assert_eq!(words[0], "prog");
            assert_eq!(&words[1..], expected, "{args}");
        }
    }

    #[test]
    fn blanks_and_open_quotes() {
        assert_eq!(split("  \t ", Rules::Windows), Err(SplitError::Empty));
        assert_eq!(split("", Rules::Posix), Err(SplitError::Empty));
        assert_eq!(split("a 'b", Rules::Posix), Err(SplitError::Unclosed));
        assert_eq!(windows(r#"a "b c"#), ["a", "b c"]);
        assert_eq!(windows(r#"a "" b"#), ["a", "", "b"]);
        assert_eq!(windows("  a\t\tb  "), ["a", "b"]);
    }

    /// A small deterministic generator, so the round trip sees many awkward words.
    fn words(seed: u64, count: usize) -> Vec<String> {
        let alphabet = ['a', 'b', ' ', '\t', '"', '\\', 'é'];
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..count)
            .map(|_| {
                let len = (next() % 6) as usize;
                (0..len)
                    .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_built_command_line_splits_back_into_the_same_words() {
        for seed in 0..2000 {
            let args = words(seed, 4);
            let program: String = words(seed + 7, 1)[0].replace('"', "");
            let line = windows_command_line(&program, &args).unwrap();
            let split = windows(&line);
            assert_eq!(split[0], program, "{line:?}");
            assert_eq!(&split[1..], &args[..], "{line:?}");
        }
        assert!(windows_command_line("a\"b", &[]).is_err());
    }

    fn wide(text: &str) -> Vec<u16> {
        text.encode_utf16().collect()
    }

    #[test]
    fn the_environment_block_is_sorted_without_case_and_drops_removed_names() {
        let vars = [
            (wide("path"), wide(r"C:\bin")),
            (wide("RUST_BACKTRACE"), wide("1")),
            (wide("Apple"), wide("x")),
            (wide("rust_lib_backtrace"), wide("full")),
            (wide("=C:"), wide(r"C:\work")),
        ];
        let block = windows_environment_block(&vars, &["RUST_BACKTRACE", "RUST_LIB_BACKTRACE"]);
        let text = String::from_utf16(&block).unwrap();
        assert_eq!(text, "=C:=C:\\work\0Apple=x\0path=C:\\bin\0\0");
        assert_eq!(windows_environment_block(&[], &[]), [0, 0]);
    }

    #[test]
    fn a_bare_program_name_is_searched_in_the_system_folders_then_path_never_here() {
        let folders = windows_search_folders(
            Some(r"C:\Windows\system32"),
            Some(r"C:\Windows"),
            r#"C:\Python312;;"C:\Program Files\Git\bin";C:\tools\"#,
        );
        assert_eq!(
            folders,
            [
                r"C:\Windows\system32",
                r"C:\Windows",
                r"C:\Python312",
                r"C:\Program Files\Git\bin",
                r"C:\tools\",
            ]
        );
        let on_disk = [
            r"C:\Python312\python.exe",
            r"C:\Windows\system32\where.exe",
            r"C:\tools\sol.bat",
            r"Z:\tmp\sol.exe",
        ];
        let exists = |path: &str| on_disk.contains(&path);
        let find = |program: &str| windows_program(program, &folders, exists);
        // `.exe` is added to a name without an extension; the first folder that has it wins.
        assert_eq!(find("python").as_deref(), Some(r"C:\Python312\python.exe"));
        assert_eq!(
            find("where").as_deref(),
            Some(r"C:\Windows\system32\where.exe")
        );
        assert_eq!(find("sol.bat").as_deref(), Some(r"C:\tools\sol.bat"));
        // Not in those folders: not found, though a runner's or current folder might hold it.
        assert_eq!(find("sol"), None);
        assert_eq!(find("no-such-interpreter"), None);
        // A path is taken as it is, with `.exe` where only that file exists.
        assert_eq!(find(r"Z:\tmp\sol").as_deref(), Some(r"Z:\tmp\sol.exe"));
        assert_eq!(find(r"Z:\tmp\sol.exe").as_deref(), Some(r"Z:\tmp\sol.exe"));
        assert_eq!(find(r".\missing").as_deref(), Some(r".\missing"));
    }
}
