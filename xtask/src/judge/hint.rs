//! Hints: a likely cause of a verdict, when the report can tell one. A float answer under the
//! exact judge, a TLE that ended just past the limit, a TLE or OLE over the memory limit too
//! (BOJ's MLE), and what a checked build of the same solution (overflow checks and debug
//! assertions on) hits on the same case. A hint is said beside a verdict and never changes it.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use super::{float, Detail, Verdict};

/// The error within which every token of a WA under the exact judge must match, as a number,
/// for the float hint.
pub const FLOAT_HINT_ERROR: f64 = 1e-6;

/// How far past the limit, in percent of it, a TLE still tells its margin: a run is let go on to
/// there (see [`crate::run::Limits::judged`]), so one that ends by then says how near it came.
pub use crate::run::NEAR_LIMIT_PERCENT;

/// A likely cause of a case's verdict.
#[derive(Debug, Clone, PartialEq)]
pub enum Hint {
    /// Exact judge, WA: every token matches the model answer's as a number within
    /// [`FLOAT_HINT_ERROR`] (other tokens exactly), so the problem likely accepts an error.
    FloatAnswer,
    /// TLE: the run ended by itself within [`NEAR_LIMIT_PERCENT`]% over the limit.
    NearLimit {
        /// Its CPU time (or wall-clock time where the system tells none).
        time: Duration,
        /// The time limit.
        limit: Duration,
    },
    /// The same case judged again in a checked build of the same solution.
    Checked(CheckedRun),
    /// The checked build could not be built: cargo's first line of why.
    CheckedBuildFailed(String),
    /// MLE by a peak that a block moved to grow (copied, on Windows) may explain: at most
    /// [`GROWTH_COPY_FACTOR`] × the limit, so BOJ, whose allocator moves it without a copy, may
    /// count the same run within the limit (`run::process::PEAK_COUNTS_MOVES`).
    GrowthCopied {
        /// The peak memory, in bytes.
        peak: u64,
        /// The memory limit, in bytes.
        limit: u64,
    },
    /// TLE or OLE by the order of the verdicts, with a peak over the memory limit too: BOJ stops
    /// a solution when it reaches its memory limit, so there it may be MLE.
    OverMemoryToo {
        /// The peak memory, in bytes.
        peak: u64,
        /// The memory limit, in bytes.
        limit: u64,
    },
}

/// How many times the memory limit a peak may be and still be explained by a block copied as
/// it grew: the old block and its copy, both full, are twice what the program holds, and BOJ
/// counts what it holds (plus the slack of [`GROWTH_COPY_SLACK`] for the system's own pages).
pub const GROWTH_COPY_FACTOR: u64 = 2;

/// Bytes beyond [`GROWTH_COPY_FACTOR`] × the limit still taken for the system's own pages (DLLs
/// in a Windows working set, the runtime).
pub const GROWTH_COPY_SLACK: u64 = 32 << 20;

/// What a checked build of the solution (overflow checks and debug assertions on, the judge's
/// opt-level) did on a case that it tells something about.
#[derive(Debug, Clone, PartialEq)]
pub enum CheckedRun {
    /// It panicked: an overflow, a debug assertion, or any other panic.
    Panicked {
        /// The panic's message (`attempt to subtract with overflow`).
        message: String,
        /// Where, as the panic says it (`src/main.rs:12:9`), when it says.
        place: Option<String>,
    },
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hint::FloatAnswer => write!(
                f,
                "hint: every token matches the expected one as a number within \
                 {FLOAT_HINT_ERROR:e}: if the problem accepts answers within an error, set judge \
                 = \"float\" and its error (error = 1e-9 for \"10^-9\") in \
                 [package.metadata.boj]"
            ),
            Hint::NearLimit { time, limit } => {
                let over = time.saturating_sub(*limit);
                write!(
                    f,
                    "hint: {} ms over the limit ({}%): a constant factor from AC (faster I/O, \
                     fewer allocations), and BOJ's machine may be faster or slower than this one",
                    over.as_millis(),
                    percent(over, *limit),
                )
            }
            Hint::Checked(CheckedRun::Panicked { message, place }) => {
                let message = message.lines().collect::<Vec<_>>().join(" / ");
                match place {
                    Some(place) => write!(f, "in a checked build: {message} at {place}"),
                    None => write!(f, "in a checked build: {message}"),
                }
            }
            Hint::CheckedBuildFailed(why) => {
                write!(f, "in a checked build: not judged, the build failed: {why}")
            }
            Hint::GrowthCopied { peak, limit } => write!(
                f,
                "hint: this system counts a growing Vec or String twice while it moves: \
                 HeapReAlloc copies the block, old and new both in the peak of {} MB, where \
                 BOJ's Linux moves it without a copy (glibc's mremap), so BOJ may count this \
                 run within the limit of {} MB; Vec::with_capacity for the final size avoids \
                 the move (or judge it on Linux)",
                peak >> 20,
                limit >> 20
            ),
            Hint::OverMemoryToo { peak, limit } => write!(
                f,
                "hint: its peak memory, {} MB, is over the limit of {} MB too: BOJ stops a \
                 solution when it reaches its memory limit, so where it got there before its \
                 time ran out (or its output grew past the cap), BOJ says MLE",
                peak >> 20,
                limit >> 20
            ),
        }
    }
}

impl CheckedRun {
    /// The same run, its place shown from the problem's folder where it lies there (see
    /// [`place_in_problem`]).
    pub fn shown_from(self, workspace: &Path, problem: &Path) -> CheckedRun {
        match self {
            CheckedRun::Panicked {
                message,
                place: Some(place),
            } => CheckedRun::Panicked {
                message,
                place: Some(place_in_problem(&place, workspace, problem)),
            },
            panicked => panicked,
        }
    }
}

/// `part` as a percentage of `whole`, rounded, and at least 1 (a miss never reads 0%).
fn percent(part: Duration, whole: Duration) -> u128 {
    let whole = whole.as_micros().max(1);
    ((part.as_micros() * 100 + whole / 2) / whole).max(1)
}

/// The hints a verdict's own figures give: the float hint for a WA under the exact judge whose
/// tokens all match as numbers, the margin of a TLE that ended by itself near the limit.
/// `time` is the time the verdict went by.
pub fn from_verdict(
    verdict: Verdict,
    detail: &Detail,
    time: Duration,
    limit: Duration,
) -> Vec<Hint> {
    let mut hints = Vec::new();
    match (verdict, detail) {
        (Verdict::Wa, Detail::Diff { expected, actual }) if float_answer(expected, actual) => {
            hints.push(Hint::FloatAnswer)
        }
        (Verdict::Tle, Detail::Overtime { killed: None })
            if time * 100 <= limit * (100 + NEAR_LIMIT_PERCENT) =>
        {
            hints.push(Hint::NearLimit { time, limit })
        }
        _ => {}
    }
    hints
}

/// The hint a run's peak gives: for an MLE, [`Hint::GrowthCopied`] where `counts_moves` (this
/// system's peak counts a block moved to grow twice: `run::process::PEAK_COUNTS_MOVES`), the
/// verdict is MLE by the peak (not by an allocation refused) and the peak is within what a copy
/// explains; for a TLE or an OLE whose peak is over the limit too, [`Hint::OverMemoryToo`].
pub fn from_memory(
    verdict: Verdict,
    peak: Option<u64>,
    refused: bool,
    limit: u64,
    counts_moves: bool,
) -> Option<Hint> {
    let peak = peak?;
    if matches!(verdict, Verdict::Tle | Verdict::Ole) && peak > limit {
        return Some(Hint::OverMemoryToo { peak, limit });
    }
    let explained = limit
        .saturating_mul(GROWTH_COPY_FACTOR)
        .saturating_add(GROWTH_COPY_SLACK);
    (verdict == Verdict::Mle && counts_moves && !refused && peak > limit && peak <= explained)
        .then_some(Hint::GrowthCopied { peak, limit })
}

/// Whether `actual` is `expected` written with other floating-point digits: every token the
/// same, or both numbers within [`FLOAT_HINT_ERROR`] (the float judge's rule), and every pair
/// that differs has a fraction or an exponent on one side. Integers that differ are wrong
/// however close (572139460 is not 572139468).
fn float_answer(expected: &[u8], actual: &[u8]) -> bool {
    if float::compare(expected, actual, FLOAT_HINT_ERROR).is_err() {
        return false;
    }
    let fractional = |token: &[u8]| token.iter().any(|b| matches!(b, b'.' | b'e' | b'E'));
    let tokens = |text: &'_ [u8]| -> Vec<Vec<u8>> {
        text.split(|b| b.is_ascii_whitespace())
            .filter(|t| !t.is_empty())
            .map(<[u8]>::to_vec)
            .collect()
    };
    tokens(expected)
        .iter()
        .zip(tokens(actual).iter())
        .filter(|(e, a)| e != a)
        .all(|(e, a)| fractional(e) || fractional(a))
}

/// The panic a Rust program's stderr reports: its message and place. Rust 1.73 and later print
/// `thread 'main' (ID) panicked at PLACE:` and the message on the lines after, up to the
/// `note:` line; older versions `thread 'main' panicked at 'MESSAGE', PLACE`.
pub fn panic_in(stderr: &str) -> Option<CheckedRun> {
    let lines: Vec<&str> = stderr.lines().collect();
    let at = lines
        .iter()
        .rposition(|l| l.starts_with("thread '") && l.contains(" panicked at "))?;
    let after = &lines[at][lines[at].find(" panicked at ")? + " panicked at ".len()..];
    if let Some(place) = after.strip_suffix(':') {
        let message: Vec<&str> = lines[at + 1..]
            .iter()
            .take_while(|l| !l.starts_with("note: "))
            .copied()
            .collect();
        return Some(CheckedRun::Panicked {
            message: message.join("\n").trim().to_string(),
            place: Some(place.to_string()),
        });
    }
    // The older form: 'MESSAGE', PLACE
    let (message, place) = after.rsplit_once("', ")?;
    Some(CheckedRun::Panicked {
        message: message.trim_start_matches('\'').to_string(),
        place: Some(place.to_string()),
    })
}

/// A panic's place as the user finds the file: rustc names a workspace member's files from the
/// workspace root (`problems/boj-1000/src/main.rs:12:9`), shown from the problem's folder
/// (`src/main.rs:12:9`) when it lies in it; other places as they are.
pub fn place_in_problem(place: &str, workspace: &Path, problem: &Path) -> String {
    // PLACE is FILE:LINE:COLUMN; the file may hold colons of its own (a Windows drive).
    let mut parts = place.rsplitn(3, ':');
    let (Some(column), Some(line), Some(file)) = (parts.next(), parts.next(), parts.next()) else {
        return place.to_string();
    };
    let full = workspace.join(file);
    match full.strip_prefix(problem) {
        Ok(relative) => format!("{}:{line}:{column}", crate::workspace::slashed(relative)),
        Err(_) => place.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_panic_of_a_checked_build_is_read_with_its_place() {
        let stderr = "thread 'main' (4242) panicked at problems/boj-1/src/main.rs:12:9:\n\
                      attempt to subtract with overflow\n\
                      note: run with `RUST_BACKTRACE=1` environment variable to display a \
                      backtrace\n";
        assert_eq!(
            panic_in(stderr),
            Some(CheckedRun::Panicked {
                message: "attempt to subtract with overflow".to_string(),
                place: Some("problems/boj-1/src/main.rs:12:9".to_string()),
            })
        );
        let old = "thread 'main' panicked at 'attempt to add with overflow', src/main.rs:3:5\n";
        assert_eq!(
            panic_in(old),
            Some(CheckedRun::Panicked {
                message: "attempt to add with overflow".to_string(),
                place: Some("src/main.rs:3:5".to_string()),
            })
        );
        assert_eq!(panic_in("error: bad input\n"), None);
    }

    #[test]
    fn a_place_in_the_problem_is_shown_from_its_folder() {
        let ws = Path::new("/w");
        let problem = Path::new("/w/problems/boj-1");
        assert_eq!(
            place_in_problem("problems/boj-1/src/main.rs:12:9", ws, problem),
            "src/main.rs:12:9"
        );
        assert_eq!(
            place_in_problem("crates/lib/src/lib.rs:1:2", ws, problem),
            "crates/lib/src/lib.rs:1:2"
        );
        assert_eq!(place_in_problem("nowhere", ws, problem), "nowhere");
    }

    #[test]
    fn float_and_near_limit_hints_come_only_where_they_apply() {
        let diff = |e: &str, a: &str| Detail::Diff {
            expected: e.as_bytes().to_vec(),
            actual: a.as_bytes().to_vec(),
        };
        let second = Duration::from_secs(1);
        let float = diff("0.33333333333333333333\n", "0.3333333333333333\n");
        assert_eq!(
            from_verdict(Verdict::Wa, &float, second, second),
            [Hint::FloatAnswer]
        );
        // Off by more than 1e-6, a word that differs, integers close in relative terms: no hint.
        for wrong in [
            diff("0.5\n", "0.50001\n"),
            diff("YES 0.5\n", "NO 0.5\n"),
            diff("572139468\n", "572139460\n"),
        ] {
            assert!(from_verdict(Verdict::Wa, &wrong, second, second).is_empty());
        }
        let ended = Detail::Overtime { killed: None };
        let near = Duration::from_millis(1_080);
        assert_eq!(
            from_verdict(Verdict::Tle, &ended, near, second),
            [Hint::NearLimit {
                time: near,
                limit: second
            }]
        );
        let text = from_verdict(Verdict::Tle, &ended, near, second)[0].to_string();
        assert!(text.contains("80 ms over the limit (8%)"), "{text}");
        let far = Duration::from_millis(1_101);
        assert!(from_verdict(Verdict::Tle, &ended, far, second).is_empty());
        let killed = Detail::Overtime {
            killed: Some(crate::run::TimeUp::Cpu),
        };
        assert!(from_verdict(Verdict::Tle, &killed, near, second).is_empty());
    }

    #[test]
    fn an_mle_a_copied_block_may_explain_says_so_where_the_system_copies() {
        let mib = |n: u64| n << 20;
        let limit = mib(256);
        // A Vec grown to 150 MB by doubling: at its last move, 128 MiB old and 128 MiB copied.
        let hint = from_memory(Verdict::Mle, Some(mib(270)), false, limit, true);
        assert_eq!(
            hint,
            Some(Hint::GrowthCopied {
                peak: mib(270),
                limit
            })
        );
        let text = hint.unwrap().to_string();
        assert!(text.contains("peak of 270 MB"), "{text}");
        assert!(text.contains("within the limit of 256 MB"), "{text}");
        // Linux and macOS move without a copy: no hint; nor past twice the limit (BOJ's figure
        // is at least half of it), nor for a refusal, nor for another verdict.
        assert_eq!(
            from_memory(Verdict::Mle, Some(mib(270)), false, limit, false),
            None
        );
        assert_eq!(
            from_memory(Verdict::Mle, Some(mib(600)), false, limit, true),
            None
        );
        assert_eq!(
            from_memory(Verdict::Mle, Some(mib(40)), true, limit, true),
            None
        );
        assert_eq!(
            from_memory(Verdict::Ac, Some(mib(200)), false, limit, true),
            None
        );
        assert_eq!(from_memory(Verdict::Mle, None, false, limit, true), None);
    }
}
