//! competitive-companion's payload: reading the JSON the browser extension sends, taking the
//! BOJ problem id from its URL, and comparing its samples with a problem already on disk.
//!
//! The extension (<https://github.com/jmerle/competitive-companion>, "Custom tools") POSTs one
//! JSON object per problem to `http://localhost:PORT/` for each of its default ports
//! ([`DEFAULT_PORTS`]) and any the user adds. Only the fields a BOJ problem needs are read:
//! `name`, `url`, `timeLimit` (ms), `memoryLimit` (MB), `tests` (`input`/`output` pairs),
//! `interactive`, and the `input`/`output` kinds; `group`, `testType`, `languages` and `batch`
//! are accepted and ignored.
//!
//! ```
//! use xtask::companion::Import;
//!
//! let body = br#"{"name": "A+B", "group": "Baekjoon Online Judge",
//!     "url": "https://www.acmicpc.net/problem/1000", "memoryLimit": 128, "timeLimit": 2000,
//!     "tests": [{"input": "1 2\n", "output": "3\n"}]}"#;
//! let import = Import::parse(body).unwrap();
//! assert_eq!((import.id, import.time_limit_ms, import.memory_limit_mb), (1000, 2000, 128));
//! assert_eq!(import.samples[0].output, "3\n");
//! ```

use std::fmt;
use std::fs;

use anyhow::{Context, Result};
use serde::Deserialize;

use crate::judge;
use crate::workspace::problem::{natural_cmp, Problem};

/// The ports competitive-companion sends to without any setup (its `src/hosts/hosts.ts`), in
/// its own order; each belongs to another tool, and any one of them is enough.
pub const DEFAULT_PORTS: [u16; 7] = [1327, 4244, 6174, 10042, 10043, 10045, 27121];

/// The extension's JSON, as documented in its README ("The format").
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Payload {
    name: String,
    url: String,
    #[serde(default)]
    interactive: bool,
    memory_limit: f64,
    time_limit: f64,
    tests: Vec<Test>,
    input: Option<Stream>,
    output: Option<Stream>,
}

#[derive(Debug, Deserialize)]
struct Test {
    input: String,
    output: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Stream {
    #[serde(rename = "type")]
    kind: String,
    file_name: Option<String>,
}

/// A problem received from the extension, checked and ready to scaffold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// The BOJ problem number, from the URL.
    pub id: u32,
    /// The problem's title as BOJ shows it (display only).
    pub name: String,
    /// The page it came from.
    pub url: String,
    /// BOJ's time limit, rounded to a whole millisecond.
    pub time_limit_ms: u64,
    /// BOJ's memory limit, in MB.
    pub memory_limit_mb: u64,
    /// The samples in page order, with `\n` line ends and a final newline.
    pub samples: Vec<SampleText>,
    /// The page says the problem is interactive (BOJ's own pages never do: the user says it).
    pub interactive: bool,
}

/// One sample's text, to be written as `samples/N.in` and `samples/N.out` (N from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SampleText {
    /// What the solver reads.
    pub input: String,
    /// The model answer.
    pub output: String,
}

/// Why a payload was refused.
#[derive(Debug)]
#[non_exhaustive]
pub enum PayloadError {
    /// Not JSON, or not the extension's format (a field missing or of the wrong type).
    Malformed(serde_json::Error),
    /// The URL does not name a BOJ problem, so there is no id to name the folder by.
    NoProblemId {
        /// The payload's `url`.
        url: String,
    },
    /// Well-formed, but nothing `cargo xtask test` could judge (file I/O,
    /// nonsensical limits).
    Unsupported(String),
}

impl PayloadError {
    /// Whether the request itself was broken (HTTP 400) rather than refused (HTTP 422).
    pub fn is_malformed(&self) -> bool {
        matches!(self, PayloadError::Malformed(_))
    }
}

impl fmt::Display for PayloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PayloadError::Malformed(err) => {
                write!(f, "not a competitive-companion payload: {err}")
            }
            PayloadError::NoProblemId { url } => write!(
                f,
                "cannot tell the BOJ problem id from url {url:?}: expected \
                 https://www.acmicpc.net/problem/ID"
            ),
            PayloadError::Unsupported(why) => f.write_str(why),
        }
    }
}

/// No source: the message already holds serde's (an error chain printed whole would say it twice).
impl std::error::Error for PayloadError {}

impl Import {
    /// Reads and checks one payload (the body of the extension's POST, or a saved file).
    pub fn parse(body: &[u8]) -> Result<Import, PayloadError> {
        let payload: Payload = serde_json::from_slice(body).map_err(PayloadError::Malformed)?;
        let id = boj_id(&payload.url).ok_or_else(|| PayloadError::NoProblemId {
            url: payload.url.clone(),
        })?;
        let unsupported = |why: String| Err(PayloadError::Unsupported(format!("BOJ {id}: {why}")));
        for (side, stream, wanted) in [
            ("input", &payload.input, "stdin"),
            ("output", &payload.output, "stdout"),
        ] {
            if let Some(stream) = stream.as_ref().filter(|s| s.kind != wanted) {
                let file = stream.file_name.as_deref().unwrap_or("?");
                return unsupported(format!(
                    "{side} through {} `{file}`, not {wanted}: not a BOJ problem as the judge \
                     runs them",
                    stream.kind
                ));
            }
        }
        let time_limit_ms = whole(payload.time_limit);
        let memory_limit_mb = whole(payload.memory_limit);
        let (Some(time_limit_ms), Some(memory_limit_mb)) = (time_limit_ms, memory_limit_mb) else {
            return unsupported(format!(
                "limits must be positive numbers (timeLimit {} ms, memoryLimit {} MB)",
                payload.time_limit, payload.memory_limit
            ));
        };
        let samples = payload
            .tests
            .iter()
            .map(|t| SampleText {
                input: normalise(&t.input),
                output: normalise(&t.output),
            })
            .collect();
        Ok(Import {
            id,
            name: one_line(&payload.name),
            url: payload.url,
            time_limit_ms,
            memory_limit_mb,
            samples,
            interactive: payload.interactive,
        })
    }

    /// How the problem is named in messages: `boj-1000 "A+B"`.
    pub fn label(&self) -> String {
        if self.name.is_empty() {
            format!("boj-{}", self.id)
        } else {
            format!("boj-{} {:?}", self.id, self.name)
        }
    }
}

/// The BOJ problem number in a problem page's URL: `https://www.acmicpc.net/problem/2580`
/// (also `http`, without `www.`, with a trailing `/`, a query or a fragment). Contest and
/// preview pages do not name the problem's public number, so they give `None`.
pub fn boj_id(url: &str) -> Option<u32> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    let rest = rest.strip_prefix("acmicpc.net/problem/")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (digits, tail) = rest.split_at(end);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if tail.starts_with('/') && tail.len() > 1 && !tail[1..].starts_with(['?', '#']) {
        return None;
    }
    digits.parse().ok().filter(|&id| id > 0)
}

/// A limit as a whole positive number (BOJ's "0.5 초" arrives as 500.0, sometimes 500.0001).
fn whole(value: f64) -> Option<u64> {
    let rounded = value.round();
    (1.0..1e12).contains(&rounded).then_some(rounded as u64)
}

/// `\r\n` and lone `\r` become `\n`; non-empty text ends with a newline.
fn normalise(text: &str) -> String {
    let mut text = text.replace("\r\n", "\n").replace('\r', "\n");
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// The title on one line, without control characters.
fn one_line(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    cleaned.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// How a payload compares with the problem already on disk (which is never written to).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Differences {
    /// One entry per payload sample, in order; payload sample N is compared with
    /// `samples/N.in` and `samples/N.out`.
    pub samples: Vec<(String, SampleState)>,
    /// Samples on disk that the payload does not have (local additions; not a difference).
    pub local_only: Vec<String>,
    /// Limits that differ: `(what, in the payload, on disk)`.
    pub limits: Vec<(&'static str, String, String)>,
}

/// One payload sample against the file pair of the same name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SampleState {
    /// Both files say the same, as the judge compares text (trailing whitespace at line ends
    /// and blank lines at the end ignored).
    Same,
    /// At least one file differs; each `Some` is the first differing line (from 1).
    Differs {
        /// First differing line of `.in`.
        input_line: Option<usize>,
        /// First differing line of `.out`.
        output_line: Option<usize>,
    },
    /// No `samples/NAME.in` and `.out` pair on disk.
    Missing,
}

impl Differences {
    /// Compares `import` with `problem`'s samples and limits, reading only.
    pub fn between(problem: &Problem, import: &Import) -> Result<Differences> {
        let on_disk = problem.samples()?;
        let mut samples = Vec::new();
        for (index, text) in import.samples.iter().enumerate() {
            let name = (index + 1).to_string();
            let state = match on_disk.iter().find(|s| s.name == name) {
                None => SampleState::Missing,
                Some(sample) => {
                    let read = |path: &std::path::Path| {
                        fs::read(path).with_context(|| format!("cannot read {}", path.display()))
                    };
                    let input_line = first_difference(&read(&sample.input)?, &text.input);
                    let output_line = first_difference(&read(&sample.answer)?, &text.output);
                    if input_line.is_none() && output_line.is_none() {
                        SampleState::Same
                    } else {
                        SampleState::Differs {
                            input_line,
                            output_line,
                        }
                    }
                }
            };
            samples.push((name, state));
        }
        let mut local_only: Vec<String> = on_disk
            .iter()
            .map(|s| s.name.clone())
            .filter(|name| !samples.iter().any(|(n, _)| n == name))
            .collect();
        local_only.sort_by(|a, b| natural_cmp(a, b));
        let mut limits = Vec::new();
        if problem.meta.time_limit_ms != import.time_limit_ms {
            limits.push((
                "time limit",
                format!("{} ms", import.time_limit_ms),
                format!("{} ms", problem.meta.time_limit_ms),
            ));
        }
        if problem.meta.memory_limit_mb != import.memory_limit_mb {
            limits.push((
                "memory limit",
                format!("{} MB", import.memory_limit_mb),
                format!("{} MB", problem.meta.memory_limit_mb),
            ));
        }
        Ok(Differences {
            samples,
            local_only,
            limits,
        })
    }

    /// True when every payload sample and limit matches what is on disk.
    pub fn is_empty(&self) -> bool {
        self.limits.is_empty() && self.samples.iter().all(|(_, s)| *s == SampleState::Same)
    }
}

impl fmt::Display for Differences {
    /// `unchanged (...)` or `differs, nothing written: ...`: the tail of the one-line report.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut notes = Vec::new();
        if self.is_empty() {
            f.write_str("unchanged")?;
            let same = self.samples.len();
            notes.push(match same {
                0 => "the payload has no samples".to_string(),
                1 => "its sample matches samples/1".to_string(),
                n => format!("its {n} samples match samples/1..{n}"),
            });
        } else {
            f.write_str("differs, nothing written")?;
            for (name, state) in &self.samples {
                match state {
                    SampleState::Same => {}
                    SampleState::Missing => notes.push(format!("sample {name} not on disk")),
                    SampleState::Differs {
                        input_line,
                        output_line,
                    } => {
                        let mut parts = Vec::new();
                        if let Some(line) = input_line {
                            parts.push(format!("{name}.in differs at line {line}"));
                        }
                        if let Some(line) = output_line {
                            parts.push(format!("{name}.out differs at line {line}"));
                        }
                        notes.push(format!("sample {name}: {}", parts.join(", ")));
                    }
                }
            }
            let same: Vec<&str> = self
                .samples
                .iter()
                .filter(|(_, s)| *s == SampleState::Same)
                .map(|(n, _)| n.as_str())
                .collect();
            if !same.is_empty() {
                notes.push(format!("same: {}", same.join(", ")));
            }
            for (what, payload, disk) in &self.limits {
                notes.push(format!("{what} {payload} in the payload, {disk} on disk"));
            }
        }
        if !self.local_only.is_empty() {
            notes.push(format!(
                "local-only samples: {}",
                self.local_only.join(", ")
            ));
        }
        write!(f, " ({})", notes.join("; "))
    }
}

/// The first line (from 1) where two texts differ as the judge compares them, if any.
fn first_difference(on_disk: &[u8], payload: &str) -> Option<usize> {
    let a = judge::significant_lines(on_disk);
    let b = judge::significant_lines(payload.as_bytes());
    if a == b {
        return None;
    }
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    Some(common + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_comes_from_a_problem_url_only() {
        for url in [
            "https://www.acmicpc.net/problem/2580",
            "https://acmicpc.net/problem/2580",
            "http://www.acmicpc.net/problem/2580/",
            "https://www.acmicpc.net/problem/2580?lang=en",
            "https://www.acmicpc.net/problem/2580#sample",
        ] {
            assert_eq!(boj_id(url), Some(2580), "{url}");
        }
        for url in [
            "",
            "https://www.acmicpc.net/problem/",
            "https://www.acmicpc.net/problem/0",
            "https://www.acmicpc.net/problem/25a",
            "https://www.acmicpc.net/problem/2580/edit",
            "https://www.acmicpc.net/contest/problem/1000/1",
            "https://stack.acmicpc.net/problem/preview/1",
            "https://codeforces.com/problemset/problem/954/G",
            "https://www.acmicpc.net.evil.example/problem/1",
        ] {
            assert_eq!(boj_id(url), None, "{url}");
        }
    }

    #[test]
    fn limits_are_rounded_and_must_be_positive() {
        assert_eq!(whole(500.000_000_1), Some(500));
        assert_eq!(whole(2000.0), Some(2000));
        assert_eq!(whole(0.0), None);
        assert_eq!(whole(-1.0), None);
        assert_eq!(whole(f64::NAN), None);
    }

    #[test]
    fn sample_text_gets_unix_line_ends_and_a_final_newline() {
        assert_eq!(normalise("1 2\r\n3"), "1 2\n3\n");
        assert_eq!(normalise(""), "");
        assert_eq!(one_line(" A\n+\tB "), "A + B");
    }

    #[test]
    fn differences_name_the_first_differing_line() {
        assert_eq!(first_difference(b"1 2 \n3\n\n", "1 2\n3"), None);
        assert_eq!(first_difference(b"1\n2\n3\n", "1\n2\n4\n"), Some(3));
        assert_eq!(first_difference(b"1\n", "1\n2\n"), Some(2));
    }
}
